//! What a walk through a game shows its watcher: see [`Visitor`].

use std::ops::ControlFlow;

use super::header::{Boards, MoveAt};
use crate::moves::Move;
use crate::notation::san::SanPlus;
use crate::position::Position;

/// Whether the walk skips a variation: its moves are then neither validated nor shown,
/// nor anything else inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// Watches the walk through a game, as pgn-reader's visitors do: the walk drives, the
/// visitor decides. Every method has a default that watches nothing and goes on.
///
/// A method that returns [`ControlFlow::Break`] stops the walk there: the game's report
/// then holds what was found before (the end-of-game checks are not made), so a reader
/// that wants the tags alone stops at [`Visitor::start`] and pays for no replay.
/// [`Visitor::begin_variation`] may skip the variation instead.
///
/// Moves of variations reach [`Visitor::san`] only with
/// [`Options::variations`](super::Options::variations); the other events come for the
/// whole movetext. After the first error the walk stops.
///
/// ```
/// use std::ops::ControlFlow;
/// use pocketfen::game::{Boards, Options, Visitor, visit_game};
/// use pocketfen::stream::RawGame;
///
/// /// The Event tag, and nothing else: the walk stops before any move is replayed.
/// #[derive(Default)]
/// struct Event(Option<String>);
///
/// impl Visitor<'_> for Event {
///     fn tag(&mut self, name: &str, value: &str) -> ControlFlow<()> {
///         if name == "Event" {
///             self.0 = Some(value.to_owned());
///         }
///         ControlFlow::Continue(())
///     }
///     fn start(&mut self, _: Boards<'_>) -> ControlFlow<()> {
///         ControlFlow::Break(())
///     }
/// }
///
/// let game = RawGame::new(b"[Event \"Rated Blitz game\"]\n\n1. e4 Ke7 2. Ke9 *\n".to_vec());
/// let mut event = Event::default();
/// let report = visit_game(&game, &Options::default(), &mut event);
/// assert_eq!(event.0.as_deref(), Some("Rated Blitz game"));
/// assert_eq!(report.plies, 0); // `2. Ke9` was never read
/// assert!(report.problems.is_empty());
/// ```
pub trait Visitor<'t> {
    /// A tag, in input order, its value as written (escapes unresolved).
    fn tag(&mut self, _name: &'t str, _value: &'t str) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// The start, once the header is read (not for a game that cannot be replayed).
    fn start(&mut self, _boards: Boards<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// A `{…}` comment's text.
    fn comment(&mut self, _text: &'t str) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// A `;` comment's text, to the end of its line (without the `;`); by default a
    /// comment like any other ([`Visitor::comment`]).
    fn line_comment(&mut self, text: &'t str) -> ControlFlow<()> {
        self.comment(text)
    }
    /// A NAG (`$1`).
    fn nag(&mut self, _nag: &'t str) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// `(`: `Continue(Skip(true))` skips the variation, to its `)`.
    fn begin_variation(&mut self) -> ControlFlow<(), Skip> {
        ControlFlow::Continue(Skip(false))
    }
    /// `)` of a variation that was not skipped.
    fn end_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// A move of a validated variation is illegal or unreadable there: the rest of the
    /// variation is skipped, to its `)` (then [`Visitor::end_variation`]), and the main
    /// line goes on. `true` keeps the variation up to that move and the game as it was:
    /// the move's problem is a warning, not an error (a converter that writes the
    /// variation up to it); by default it is an error.
    fn variation_broken(&mut self) -> bool {
        false
    }
    /// A legal move, before it is played in `before` (`Break` stops the walk before it).
    fn san(
        &mut self,
        _before: &Position,
        _san: &SanPlus,
        _m: Move,
        _at: MoveAt,
    ) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// The move just handed to [`Visitor::san`] was played: the position after it.
    fn played(&mut self, _after: &Position) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// A result marker (also one inside a variation).
    fn result(&mut self, _marker: &'t str) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
    /// The end of a game that replayed: its final position(s) on the main line.
    fn end(&mut self, _boards: Boards<'_>) {}
}
