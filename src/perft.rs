//! perft: the number of leaf nodes of the legal-move tree, to test move generation.
//!
//! ```
//! use pocketfen::{perft, Position, Variant};
//! assert_eq!(perft::perft(&Position::start(Variant::Crazyhouse), 3), 8902);
//! ```

use std::sync::atomic::{AtomicBool, Ordering};

use crate::moves::{Move, MoveList};
use crate::position::Position;

/// Counts the leaves `depth` plies below `pos` (the last ply is counted, not played).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            // The list is filled in place: returned, it would be copied whole.
            let mut moves = MoveList::new();
            pos.generate(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut child = pos.clone();
                    child.play_unchecked(m);
                    perft(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// [`perft`] that gives up, with `None`, soon after `stop` is set (by a signal handler,
/// another thread…): a long count can be interrupted.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use pocketfen::{perft, Position, Variant};
/// let pos = Position::start(Variant::Chess);
/// assert_eq!(perft::perft_until(&pos, 3, &AtomicBool::new(false)), Some(8902));
/// assert_eq!(perft::perft_until(&pos, 3, &AtomicBool::new(true)), None);
/// ```
pub fn perft_until(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < 2 {
        return Some(perft(pos, depth));
    }
    let mut sum = 0;
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    for &m in &moves {
        // One load per interior node: nothing beside generating its moves.
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        sum += perft_until(&child, depth - 1, stop)?;
    }
    Some(sum)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Variant;

    #[test]
    fn until_counts_as_perft_and_gives_up_once_stopped() {
        let go = AtomicBool::new(false);
        for variant in [Variant::Chess, Variant::Crazyhouse, Variant::Horde] {
            let pos = Position::start(variant);
            for depth in 0..=4 {
                assert_eq!(
                    perft_until(&pos, depth, &go),
                    Some(perft(&pos, depth)),
                    "{variant:?} {depth}"
                );
            }
        }
        let stop = AtomicBool::new(true);
        let pos = Position::start(Variant::Chess);
        assert_eq!(
            perft_until(&pos, 1, &stop),
            Some(20),
            "a leaf count is not stopped"
        );
        assert_eq!(perft_until(&pos, 2, &stop), None);
        assert_eq!(perft_until(&pos, 5, &stop), None);
    }
}
