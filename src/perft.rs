//! perft: the number of leaf nodes of the legal-move tree, to test move generation.
//!
//! ```
//! use pocketfen::{perft, Position, Variant};
//! assert_eq!(perft::perft(&Position::start(Variant::Crazyhouse), 3), 8902);
//! ```

use crate::moves::Move;
use crate::position::Position;

/// Counts the leaves `depth` plies below `pos` (the last ply is counted, not played).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => pos
            .legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// perft split by root move, in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(m);
            (m, perft(&child, depth - 1))
        })
        .collect()
}
