//! Folder-driven grammar tests: every file under `grammar-tests/fen/**/{ok,err}/` gives one
//! snapshot in `snapshots/` (the input, then its reading in every dialect and the position
//! check, or the located error). `ok/` inputs must parse and `err/` inputs must fail.

mod common;

use std::fmt::Write as _;
use std::fs;

use pocketfen::notation::fen::{self, FenDialect};
use pocketfen::{Fen, Position, Rules, guess_variant};

fn settings() -> insta::Settings {
    common::snapshot_settings()
}

/// The round-trip laws: `parse(print(x)) == x` in every dialect.
fn assert_round_trips(fen: &Fen, input: &str) {
    for d in FenDialect::ALL {
        let printed = fen.display(d).to_string();
        let back = fen::parse(&printed, Some(d))
            .unwrap_or_else(|e| panic!("{input} -> {d}: {printed}: {e}"))
            .fen;
        let mut expected = fen.clone();
        for s in expected.boards_mut() {
            *s = common::expected_read_back(s, d);
        }
        assert_eq!(back, expected, "{input} -> {d}: {printed}");
        if d != FenDialect::Chesscom {
            assert_eq!(
                back.display(d).to_string(),
                printed,
                "print(parse(print(x))) for {input}"
            );
        }
    }
}

fn describe(line: &str, expect_ok: bool) -> String {
    let mut out = String::new();
    writeln!(out, "input: {line}").unwrap();
    match fen::parse(line, None) {
        Ok(parsed) => {
            assert!(expect_ok, "an err/ input parsed: {line}");
            assert_round_trips(&parsed.fen, line);
            writeln!(
                out,
                "dialect: {}",
                parsed.dialect.map_or("plain", FenDialect::name)
            )
            .unwrap();
            for d in FenDialect::ALL {
                writeln!(out, "{:<9} {}", format!("{d}:"), parsed.fen.display(d)).unwrap();
            }
            let variant = guess_variant(&parsed.fen);
            writeln!(out, "variant: {variant}").unwrap();
            let names = if parsed.fen.boards().len() == 2 {
                ["board A", "board B"]
            } else {
                ["board", ""]
            };
            for (setup, n) in parsed.fen.boards().iter().zip(names) {
                let problems = Position::check_setup(setup, Rules::new(variant));
                if problems.is_empty() {
                    writeln!(out, "{n}: legal").unwrap();
                }
                for p in problems {
                    writeln!(out, "{n}: {p}").unwrap();
                }
            }
            if let Fen::Pair(pair) = &parsed.fen {
                for p in pocketfen::bughouse::check_pair(&pair[0], &pair[1]) {
                    writeln!(out, "match: {p}").unwrap();
                }
            }
        }
        Err(e) => {
            assert!(!expect_ok, "an ok/ input failed: {line}: {e}");
            writeln!(out, "error: {e}").unwrap();
            writeln!(out, "       {line}").unwrap();
            writeln!(out, "       {}^", " ".repeat(e.column - 1)).unwrap();
        }
    }
    out
}

#[test]
fn fen_grammar() {
    settings().bind(|| {
        insta::glob!("../grammar-tests", "fen/**/*.fen", |path| {
            let text = fs::read_to_string(path).unwrap();
            let expect_ok = path
                .parent()
                .and_then(|p| p.file_name())
                .is_some_and(|n| n == "ok");
            let snap: String = text
                .lines()
                .map(|l| describe(l, expect_ok))
                .collect::<Vec<_>>()
                .join("\n");
            insta::assert_snapshot!(snap);
        });
    });
}

/// Every FEN of the perft suites in `grammar-tests/perft/` parses and round-trips in
/// every dialect.
#[test]
fn every_suite_fen_round_trips() {
    let mut n = 0;
    for entry in fs::read_dir("grammar-tests/perft").unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let fen = match line.strip_prefix("epd ") {
                Some(f) => f,
                None if path.extension().is_some_and(|e| e == "tsv") && !line.starts_with('#') => {
                    let cols: Vec<&str> = line.split('\t').collect();
                    let col = cols[1];
                    if col == "startpos" || cols[0].parse::<pocketfen::Variant>().is_err() {
                        continue;
                    }
                    col
                }
                None => continue,
            };
            let parsed =
                fen::parse(fen, None).unwrap_or_else(|e| panic!("{}: {fen}: {e}", path.display()));
            assert_round_trips(&parsed.fen, fen);
            n += 1;
        }
    }
    assert!(n > 7000, "{n}");
}

fn describe_san(token: &str, expect_ok: bool) -> String {
    use pocketfen::notation::san::{DropStyle, SanPlus};
    match token.parse::<SanPlus>() {
        Ok(san) => {
            assert!(expect_ok, "an err/ token parsed: {token:?}");
            let canonical = san.to_string_with(DropStyle::Letter);
            let again: SanPlus = canonical.parse().unwrap();
            assert_eq!(again.san, san.san, "{token}");
            format!(
                "{token:<10} -> {canonical:<10} {:?} {:?}",
                san.suffix, san.glyph
            )
        }
        Err(e) => {
            assert!(!expect_ok, "an ok/ token failed: {token:?}: {e}");
            format!("{token:<10} error: {e}")
        }
    }
}

#[test]
fn san_grammar() {
    settings().bind(|| {
        insta::glob!("../grammar-tests", "san/{ok,err}/*.san", |path| {
            let text = fs::read_to_string(path).unwrap();
            let expect_ok = path
                .parent()
                .and_then(|p| p.file_name())
                .is_some_and(|n| n == "ok");
            let snap: Vec<String> = text.lines().map(|l| describe_san(l, expect_ok)).collect();
            insta::assert_snapshot!(snap.join("\n"));
        });
    });
}

fn describe_resolution(line: &str) -> String {
    use pocketfen::notation::san::{DropStyle, SanPlus};
    let cols: Vec<&str> = line.split(" | ").collect();
    let variant: pocketfen::Variant = cols[0].parse().unwrap();
    let setup: pocketfen::Setup = cols[1].parse().unwrap();
    let pos = Position::from_setup(&setup, Rules::new(variant)).unwrap();
    let mut out = format!("{} in {} ({variant}):\n", cols[2], cols[1]);
    // UCI where the token is no SAN (`b1c3b`).
    let resolved = match cols[2].parse::<SanPlus>() {
        Ok(san) => san.resolve(&pos, true),
        Err(_) => {
            let uci: pocketfen::notation::uci::UciMove = cols[2].parse().unwrap();
            uci.to_move(&pos).map(|m| (m, Vec::new()))
        }
    };
    match resolved {
        Ok((m, defects)) => {
            let canonical = SanPlus::from_move(&pos, m).to_string_with(DropStyle::Letter);
            writeln!(
                out,
                "  legal: {} ({canonical})",
                m.to_uci(pos.is_chess960())
            )
            .unwrap();
            for d in defects {
                writeln!(out, "  strict: {d}").unwrap();
            }
        }
        Err(e) => writeln!(out, "  illegal: {e}").unwrap(),
    }
    out
}

/// shakmaty's verdict on a resolution line: the UCI of the move it reads, or `None` when it
/// rejects the token. Chessgi (first-rank pawn drops) has no shakmaty variant: `None`
/// for the whole line is not asked for.
fn peer_verdict(line: &str) -> Option<Option<String>> {
    use shakmaty::fen::Fen as PeerFen;
    use shakmaty::san::San;
    use shakmaty::uci::UciMove;
    use shakmaty::variant::{Crazyhouse, Horde, VariantPosition};
    use shakmaty::{CastlingMode, Chess};
    let cols: Vec<&str> = line.split(" | ").collect();
    let fen: PeerFen = cols[1].parse().unwrap();
    let pos = match cols[0].trim() {
        "chess" => VariantPosition::Chess(fen.into_position::<Chess>(CastlingMode::Chess960).ok()?),
        "crazyhouse" => VariantPosition::Crazyhouse(
            fen.into_position::<Crazyhouse>(CastlingMode::Chess960)
                .ok()?,
        ),
        "horde" => VariantPosition::Horde(fen.into_position::<Horde>(CastlingMode::Chess960).ok()?),
        _ => return None,
    };
    let token = cols[2].trim();
    let m = match token.parse::<San>() {
        Ok(san) => san.to_move(&pos).ok(),
        Err(_) => token
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&pos).ok()),
    };
    Some(m.map(|m| m.to_uci(CastlingMode::Standard).to_string()))
}

/// shakmaty, reading each token of the resolution files in the same position, finds the
/// same move, or none where pocketfen finds none (both files hold legal and illegal
/// moves; a spelling only the lenient reader takes is left to the snapshot).
#[test]
fn san_resolution_agrees_with_shakmaty() {
    use pocketfen::notation::san::SanPlus;
    use pocketfen::notation::uci::UciMove;
    let mut compared = 0;
    let (mut legal, mut illegal) = (0, 0);
    for file in [
        "legal-and-defects.txt",
        "illegal.txt",
        "fuzz-uci-promotions.txt",
    ] {
        let text = fs::read_to_string(format!("grammar-tests/san/resolve/{file}")).unwrap();
        for line in text.lines() {
            let cols: Vec<&str> = line.split(" | ").collect();
            let variant: pocketfen::Variant = cols[0].parse().unwrap();
            let setup: pocketfen::Setup = cols[1].parse().unwrap();
            let pos = Position::from_setup(&setup, Rules::new(variant)).unwrap();
            let token = cols[2].trim();
            let (ours, lenient) = match token.parse::<SanPlus>() {
                Ok(san) => match san.resolve(&pos, true) {
                    Ok((m, defects)) => (Some(m), !defects.is_empty()),
                    Err(_) => (None, false),
                },
                Err(_) => (
                    token
                        .parse::<UciMove>()
                        .ok()
                        .and_then(|u| u.to_move(&pos).ok()),
                    false,
                ),
            };
            let ours = ours.map(|m| m.to_uci(false).to_string());
            if ours.is_some() {
                legal += 1;
            } else {
                illegal += 1;
            }
            if let Some(theirs) = peer_verdict(line) {
                // A spelling only the lenient reader takes (`Nd5` for a capture, `e8Q`)
                // may be refused by shakmaty; any move it finds must be ours.
                if !(lenient && theirs.is_none()) {
                    assert_eq!(ours, theirs, "{file}: {line}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 50, "{compared}");
    assert!(
        legal >= 20 && illegal >= 20,
        "{legal} legal, {illegal} illegal"
    );
}

#[test]
fn san_resolution() {
    settings().bind(|| {
        insta::glob!("../grammar-tests", "san/resolve/*.txt", |path| {
            let text = fs::read_to_string(path).unwrap();
            let snap: String = text.lines().map(describe_resolution).collect();
            insta::assert_snapshot!(snap);
        });
    });
}
