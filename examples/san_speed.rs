//! pocketfen's side of the SAN rows of `benches/newest.sh` (issue 37): every mainline
//! move of the archives given, each with the position before it (collected untimed by
//! replaying the games), then timed in process (the best of 5 passes), as the newest
//! peer times its own:
//!
//! - `san-parse SECONDS COUNT`: each move's SAN text parsed and resolved to a move;
//! - `san-write SECONDS COUNT`: each move's SAN written (with its check suffix).
//!
//! `cargo run --release --example san_speed -- FILE...`

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Instant;

use pocketfen::game::{MoveAt, Options, Visitor, visit_game};
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::stream::GameSplitter;
use pocketfen::{Move, Position};

/// The mainline moves of a game: the position before, the SAN text, the move.
#[derive(Default)]
struct Moves(Vec<(Position, String, Move)>);

impl Visitor<'_> for Moves {
    fn san(&mut self, before: &Position, san: &SanPlus, m: Move, at: MoveAt) -> ControlFlow<()> {
        if at.is_mainline() {
            self.0.push((before.clone(), san.to_string(), m));
        }
        ControlFlow::Continue(())
    }
}

fn main() {
    let mut moves = Moves::default();
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("an archive");
        let mut games = GameSplitter::new(bytes.as_slice());
        while let Ok(Some(game)) = games.next_game() {
            visit_game(&game, &Options::default(), &mut moves);
        }
    }
    let moves = moves.0;
    // The best of 5 passes, each over every move.
    let (mut found, mut best) = (0usize, f64::MAX);
    for _ in 0..5 {
        let start = Instant::now();
        found = 0;
        for (pos, text, _) in &moves {
            if let Ok(san) = SanPlus::from_ascii(black_box(text.as_bytes()))
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
        for (pos, _, m) in &moves {
            out.clear();
            SanPlus::from_move(pos, *m).append_to(&mut out, DropStyle::Letter);
            bytes += black_box(out.len());
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!("san-write {best:.6} {} ({bytes} bytes)", moves.len());
}
