//! Helpers for the crate's unit tests: positions along random games.

use super::Position;
use crate::moves::Move;
use crate::types::Role;
use crate::variant::Variant;

/// A small deterministic generator for the random games below.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Positions along random games of every variant with a start position.
pub(crate) fn random_positions() -> Vec<Position> {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let mut out = Vec::new();
    for variant in [
        Variant::Chess,
        Variant::Crazyhouse,
        Variant::Loop,
        Variant::Chessgi,
        Variant::Horde,
    ] {
        for _ in 0..6 {
            let mut p = Position::start(variant);
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                out.push(p.clone());
                // Prefer pawn moves now and then, to reach promotions and en passant.
                let pawn: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.role() == Role::Pawn && !m.is_drop())
                    .collect();
                let m = if !pawn.is_empty() && rng.below(3) == 0 {
                    pawn[rng.below(pawn.len())]
                } else {
                    moves[rng.below(moves.len())]
                };
                p.play(m).unwrap();
            }
        }
    }
    out
}
