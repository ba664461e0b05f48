//! A game's opening, as Lichess names it ([`crate::opening`]): the walk's mainline
//! positions handed to a [`Classifier`].

use std::ops::ControlFlow;

use super::header::{Boards, MoveAt, Options};
use super::problem::GameReport;
use super::validate::visit_game;
use super::visitor::Visitor;
use crate::moves::Move;
use crate::notation::san::SanPlus;
use crate::opening::{Book, Classifier, Named};
use crate::position::Position;
use crate::stream::RawGame;

/// Watches a walk and names the game's opening: the deepest mainline position the list
/// names (none for a game whose start or variant Lichess names no opening in).
#[derive(Debug, Clone, Default)]
pub struct OpeningWatch {
    /// The list (none: the compiled-in one).
    book: Option<&'static Book>,
    classifier: Option<Classifier>,
    mainline: bool,
    /// Stop the walk once no later ply can be named (the rest of the game unchecked).
    stop_early: bool,
}

impl OpeningWatch {
    /// A watch naming by `book` (none: the compiled-in list) that stops the walk, if
    /// `stop_early`, once no later ply can be named (the game's report then covers the
    /// plies read).
    pub fn new(book: Option<&'static Book>, stop_early: bool) -> OpeningWatch {
        OpeningWatch {
            book,
            stop_early,
            ..OpeningWatch::default()
        }
    }

    /// The opening found so far.
    pub fn opening(&self) -> Option<Named> {
        self.classifier.as_ref().and_then(Classifier::opening)
    }
}

impl Visitor<'_> for OpeningWatch {
    fn start(&mut self, boards: Boards<'_>) -> ControlFlow<()> {
        self.classifier = match boards {
            Boards::One(start) => {
                Classifier::with_book(start, self.book.unwrap_or(Book::lichess()))
            }
            Boards::Two(_) => None,
        };
        match (&self.classifier, self.stop_early) {
            (None, true) => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }

    fn san(&mut self, _: &Position, _: &SanPlus, _: Move, at: MoveAt) -> ControlFlow<()> {
        self.mainline = at.is_mainline();
        ControlFlow::Continue(())
    }

    fn played(&mut self, after: &Position) -> ControlFlow<()> {
        if let (true, Some(c)) = (self.mainline, &mut self.classifier) {
            c.push(after);
            if self.stop_early && !c.is_open() {
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }
}

/// Validates `game` and names its opening (the deepest named position of its main line
/// up to its first error).
pub fn classify_game(game: &RawGame, opts: &Options) -> (GameReport, Option<Named>) {
    let mut watch = OpeningWatch::default();
    let report = visit_game(game, opts, &mut watch);
    (report, watch.opening())
}
