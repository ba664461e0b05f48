//! What a walk through a game shows its watcher: see [`Visitor`].

use super::game::{Boards, MoveAt};
use crate::moves::Move;
use crate::notation::san::SanPlus;
use crate::position::Position;

/// Watches the walk through a game. Every method has an empty default.
///
/// Moves of variations reach [`Visitor::san`] only with [`Options::variations`](super::Options::variations); the other
/// events come for the whole movetext. After the first error the walk stops.
pub trait Visitor<'t> {
    /// A tag, in input order, its value as written (escapes unresolved).
    fn tag(&mut self, _name: &'t str, _value: &'t str) {}
    /// The start, once the header is read (not for a game that cannot be replayed).
    fn start(&mut self, _boards: Boards<'_>) {}
    /// A `{…}` comment's text.
    fn comment(&mut self, _text: &'t str) {}
    /// A NAG (`$1`).
    fn nag(&mut self, _nag: &'t str) {}
    /// `(`.
    fn begin_variation(&mut self) {}
    /// `)`.
    fn end_variation(&mut self) {}
    /// A legal move, before it is played in `before`.
    fn san(&mut self, _before: &Position, _san: &SanPlus, _m: Move, _at: MoveAt) {}
    /// The move just handed to [`Visitor::san`] was played: the position after it.
    fn played(&mut self, _after: &Position) {}
    /// A result marker (also one inside a variation).
    fn result(&mut self, _marker: &'t str) {}
    /// The end of a game that replayed: its final position(s) on the main line.
    fn end(&mut self, _boards: Boards<'_>) {}
}
