//! SAN resolution speed against shakmaty: `cargo bench --bench san`.
//!
//! Takes every mainline move of the crazyhouse and standard sample archives in `samples/`
//! (movetext read by a small stripper here: comments, variations, NAGs and move numbers
//! removed), records the position before each move with both engines, then times, best of
//! 5, resolving every SAN token to a move: pocketfen's `San::to_move` against shakmaty's
//! `San::to_move`, on the same tokens, in one run. A second row includes parsing the token.

use std::fs;
use std::hint::black_box;
use std::time::{Duration, Instant};

use pocketfen::notation::san::SanPlus;
use pocketfen::{Position, Variant};
use shakmaty::variant::{Crazyhouse, VariantPosition};
use shakmaty::{CastlingMode, Chess};

/// The mainline SAN tokens of each game, with its variant.
fn games(path: &str) -> Vec<(Variant, Vec<String>)> {
    let text = fs::read_to_string(path).expect("sample");
    let mut out = Vec::new();
    for game in text.split("\n[Event ") {
        let variant = if game
            .to_ascii_lowercase()
            .contains("[variant \"crazyhouse\"]")
        {
            Variant::Crazyhouse
        } else {
            Variant::Chess
        };
        if game.contains("[FEN ") || game.to_ascii_lowercase().contains("[variant \"horde\"]") {
            continue;
        }
        let movetext: String = game
            .lines()
            .filter(|l| !l.starts_with('[') && !l.ends_with("\"]"))
            .collect::<Vec<_>>()
            .join(" ");
        let mut tokens = Vec::new();
        let mut depth = 0;
        let mut in_comment = false;
        for word in movetext
            .replace('{', " { ")
            .replace('}', " } ")
            .replace('(', " ( ")
            .replace(')', " ) ")
            .split_whitespace()
        {
            match word {
                "{" => in_comment = true,
                "}" => in_comment = false,
                _ if in_comment => {}
                "(" => depth += 1,
                ")" => depth -= 1,
                _ if depth > 0 => {}
                "1-0" | "0-1" | "1/2-1/2" | "*" => {}
                w if w.starts_with('$') => {}
                w => {
                    let w = w
                        .trim_start_matches(|c: char| c.is_ascii_digit())
                        .trim_start_matches('.');
                    if !w.is_empty() {
                        tokens.push(w.to_owned());
                    }
                }
            }
        }
        out.push((variant, tokens));
    }
    out
}

fn main() {
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    let mut ours: Vec<(Position, pocketfen::notation::san::San)> = Vec::new();
    let mut theirs: Vec<(VariantPosition, shakmaty::san::San)> = Vec::new();
    let mut tokens: Vec<String> = Vec::new();
    for path in [
        "samples/lichess_standard_2025-05_sample438.pgn",
        "samples/cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn",
    ] {
        for (variant, game) in games(path) {
            let mut pos = Position::start(variant);
            let mut peer = match variant {
                Variant::Crazyhouse => VariantPosition::Crazyhouse(Crazyhouse::default()),
                _ => VariantPosition::Chess(Chess::default()),
            };
            for token in game {
                let Ok(san) = token.parse::<SanPlus>() else {
                    eprintln!("unparsed {token:?}");
                    break;
                };
                let Ok(m) = san.san.to_move(&pos) else {
                    eprintln!("unresolved {token:?}");
                    break;
                };
                // shakmaty reads no `!`/`?` glyphs: hand both sides the token without them.
                let token = token.trim_end_matches(['!', '?']).to_owned();
                let their_san: shakmaty::san::San = token
                    .parse::<shakmaty::san::SanPlus>()
                    .expect("shakmaty san")
                    .san;
                let their_move = their_san.to_move(&peer).expect("shakmaty resolves it");
                assert_eq!(
                    m.to_uci(false).to_string(),
                    their_move.to_uci(CastlingMode::Standard).to_string()
                );
                ours.push((pos.clone(), san.san));
                theirs.push((peer.clone(), their_san));
                tokens.push(token);
                pos.play_unchecked(m);
                shakmaty::Position::play_unchecked(&mut peer, their_move);
            }
        }
    }
    println!(
        "{} SAN tokens (standard and crazyhouse samples)",
        tokens.len()
    );
    println!("| work | pocketfen Mmoves/s | shakmaty Mmoves/s | ratio |");
    println!("| --- | --- | --- | --- |");
    let (mut a, mut b, mut c, mut d) = (Duration::MAX, Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        let t = Instant::now();
        for (pos, san) in &ours {
            black_box(san.to_move(pos).ok());
        }
        a = a.min(t.elapsed());
        let t = Instant::now();
        for (pos, san) in &theirs {
            black_box(san.to_move(pos).ok());
        }
        b = b.min(t.elapsed());
        let t = Instant::now();
        for ((pos, _), tok) in ours.iter().zip(&tokens) {
            black_box(
                tok.parse::<SanPlus>()
                    .ok()
                    .and_then(|s| s.san.to_move(pos).ok()),
            );
        }
        c = c.min(t.elapsed());
        let t = Instant::now();
        for ((pos, _), tok) in theirs.iter().zip(&tokens) {
            black_box(
                tok.parse::<shakmaty::san::SanPlus>()
                    .ok()
                    .and_then(|s| s.san.to_move(pos).ok()),
            );
        }
        d = d.min(t.elapsed());
    }
    let rate = |t: Duration| tokens.len() as f64 / t.as_secs_f64() / 1e6;
    println!(
        "| resolve (`San::to_move`) | {:.2} | {:.2} | {:.2} |",
        rate(a),
        rate(b),
        b.as_secs_f64() / a.as_secs_f64()
    );
    println!(
        "| parse + resolve | {:.2} | {:.2} | {:.2} |",
        rate(c),
        rate(d),
        d.as_secs_f64() / c.as_secs_f64()
    );
}
