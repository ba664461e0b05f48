//! The newest peer: what shakmaty 0.30.2 and pgn-reader 0.29.1 do of pocketfen's work,
//! each task timed in process (the file read before the clock starts) and printed as
//! `TASK SECONDS COUNT`:
//!
//! - `parse FILE`: pgn-reader's parse alone (a visitor that counts SANs): the ceiling;
//! - `validate FILE`: each mainline SAN resolved and played by shakmaty (standard,
//!   crazyhouse and horde games, by their `[Variant]` tag; a game stops at its first
//!   illegal move), as pocketfen's `validate` replays them; COUNT is the plies played;
//! - `perft DEPTH [FEN]`: shakmaty's perft from the standard start or a FEN (crazyhouse
//!   when it has a pocket); COUNT is the leaves;
//! - `san FILE...`: every mainline move of the archives with the position before it
//!   (collected untimed), then `san-parse` (each SAN text parsed and resolved) and
//!   `san-write` (each move's SAN written, with its suffix), as pocketfen's
//!   `examples/san_speed.rs` times its own.

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Instant;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::fen::Fen;
use shakmaty::variant::{Crazyhouse, Horde, Variant, VariantPosition};
use shakmaty::{CastlingMode, Chess, Position};

struct ParseOnly;

impl Visitor for ParseOnly {
    type Tags = ();
    type Movetext = u64;
    type Output = u64;
    fn begin_tags(&mut self) -> ControlFlow<u64, ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<u64, u64> {
        ControlFlow::Continue(0)
    }
    fn san(&mut self, n: &mut u64, _: SanPlus) -> ControlFlow<u64> {
        *n += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, n: u64) -> u64 {
        n
    }
}

/// Replays each game's main line with shakmaty.
struct Validator {
    illegal: u64,
}

/// The variant a `[Variant]` tag names, among those both engines play here.
fn variant_of(value: &[u8]) -> Variant {
    match value.to_ascii_lowercase().as_slice() {
        b"crazyhouse" => Variant::Crazyhouse,
        b"horde" => Variant::Horde,
        _ => Variant::Chess,
    }
}

impl Visitor for Validator {
    type Tags = (Variant, Option<Fen>);
    type Movetext = (Option<VariantPosition>, u64);
    type Output = u64;
    fn begin_tags(&mut self) -> ControlFlow<u64, Self::Tags> {
        ControlFlow::Continue((Variant::Chess, None))
    }
    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<u64> {
        match name {
            b"Variant" => tags.0 = variant_of(value.as_bytes()),
            b"FEN" => tags.1 = Fen::from_ascii(value.as_bytes()).ok(),
            _ => {}
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, (variant, fen): Self::Tags) -> ControlFlow<u64, Self::Movetext> {
        ControlFlow::Continue((start_of(variant, fen), 0))
    }
    fn san(&mut self, (pos, plies): &mut Self::Movetext, san: SanPlus) -> ControlFlow<u64> {
        if let Some(p) = pos {
            match san.san.to_move(p) {
                Ok(m) => {
                    p.play_unchecked(m);
                    *plies += 1;
                }
                Err(_) => {
                    self.illegal += 1;
                    *pos = None;
                }
            }
        }
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, (_, plies): Self::Movetext) -> u64 {
        plies
    }
}

/// Collects each mainline move with the position before it and its SAN text.
struct Collect {
    moves: Vec<(VariantPosition, String, shakmaty::Move)>,
}

impl Visitor for Collect {
    type Tags = (Variant, Option<Fen>);
    type Movetext = Option<VariantPosition>;
    type Output = ();
    fn begin_tags(&mut self) -> ControlFlow<(), Self::Tags> {
        ControlFlow::Continue((Variant::Chess, None))
    }
    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        match name {
            b"Variant" => tags.0 = variant_of(value.as_bytes()),
            b"FEN" => tags.1 = Fen::from_ascii(value.as_bytes()).ok(),
            _ => {}
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, (variant, fen): Self::Tags) -> ControlFlow<(), Self::Movetext> {
        ControlFlow::Continue(start_of(variant, fen))
    }
    fn san(&mut self, pos: &mut Self::Movetext, san: SanPlus) -> ControlFlow<()> {
        if let Some(p) = pos {
            match san.san.to_move(p) {
                Ok(m) => {
                    let text = shakmaty::san::SanPlus::from_move(p.clone(), m).to_string();
                    self.moves.push((p.clone(), text, m));
                    p.play_unchecked(m);
                }
                Err(_) => *pos = None,
            }
        }
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, _: Self::Movetext) {}
}

/// A game's start: its FEN in its variant, or the variant's start.
fn start_of(variant: Variant, fen: Option<Fen>) -> Option<VariantPosition> {
    match (variant, fen) {
        (v, Some(fen)) => {
            VariantPosition::from_setup(v, fen.into_setup(), CastlingMode::Chess960).ok()
        }
        (Variant::Crazyhouse, None) => Some(VariantPosition::Crazyhouse(Crazyhouse::default())),
        (Variant::Horde, None) => Some(VariantPosition::Horde(Horde::default())),
        _ => Some(VariantPosition::Chess(Chess::default())),
    }
}

fn read(path: &str) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("peer-newest: {path}: {e}");
        std::process::exit(2)
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["parse", path] => {
            let bytes = read(path);
            let start = Instant::now();
            let mut reader = Reader::new(bytes.as_slice());
            let mut sans = 0u64;
            while let Ok(Some(n)) = reader.read_game(&mut ParseOnly) {
                sans += n;
            }
            println!("parse {:.6} {sans}", start.elapsed().as_secs_f64());
        }
        ["validate", path] => {
            let bytes = read(path);
            let start = Instant::now();
            let mut reader = Reader::new(bytes.as_slice());
            let mut v = Validator { illegal: 0 };
            let mut plies = 0u64;
            while let Ok(Some(n)) = reader.read_game(&mut v) {
                plies += n;
            }
            println!(
                "validate {:.6} {plies} (illegal games: {})",
                start.elapsed().as_secs_f64(),
                v.illegal
            );
        }
        ["san", paths @ ..] if !paths.is_empty() => {
            let mut c = Collect { moves: Vec::new() };
            for path in paths {
                let bytes = read(path);
                let mut reader = Reader::new(bytes.as_slice());
                while let Ok(Some(())) = reader.read_game(&mut c) {}
            }
            // The best of 5 passes, each over every move.
            let (mut found, mut best) = (0usize, f64::MAX);
            for _ in 0..5 {
                let start = Instant::now();
                found = 0;
                for (pos, text, _) in &c.moves {
                    if let Ok(san) = shakmaty::san::SanPlus::from_ascii(black_box(text.as_bytes()))
                        && san.san.to_move(pos).is_ok()
                    {
                        found += 1;
                    }
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            println!("san-parse {best:.6} {found}");
            let mut out = String::with_capacity(16);
            let (mut bytes, mut best) = (0usize, f64::MAX);
            for _ in 0..5 {
                let start = Instant::now();
                bytes = 0;
                for (pos, _, m) in &c.moves {
                    out.clear();
                    use std::fmt::Write as _;
                    // shakmaty's `SanPlus::from_move` takes the position by value.
                    let _ = write!(
                        out,
                        "{}",
                        shakmaty::san::SanPlus::from_move(pos.clone(), *m)
                    );
                    bytes += black_box(out.len());
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            println!("san-write {best:.6} {} ({bytes} bytes)", c.moves.len());
        }
        ["perft", depth, rest @ ..] => {
            let depth: u32 = depth.parse().expect("a depth");
            let pos: VariantPosition = match rest.first() {
                None => VariantPosition::Chess(Chess::default()),
                Some(fen) => {
                    let fen: Fen = fen.parse().expect("a FEN");
                    let variant = if fen.as_setup().pockets.is_some() {
                        Variant::Crazyhouse
                    } else {
                        Variant::Chess
                    };
                    VariantPosition::from_setup(variant, fen.into_setup(), CastlingMode::Standard)
                        .expect("a legal position")
                }
            };
            let start = Instant::now();
            let nodes = shakmaty::perft(&pos, depth);
            println!("perft {:.6} {nodes}", start.elapsed().as_secs_f64());
        }
        _ => {
            eprintln!(
                "usage: peer-newest parse FILE | validate FILE | san FILE... | perft DEPTH [FEN]"
            );
            std::process::exit(2);
        }
    }
}
