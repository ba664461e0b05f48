//! A game's opening, as Lichess names it ([`crate::opening`]): the walk's mainline
//! positions handed to a [`Classifier`].

use std::ops::ControlFlow;
use std::str::FromStr;

use super::header::{Boards, MoveAt, Options};
use super::problem::GameReport;
use super::validate::visit_game;
use super::visitor::Visitor;
use crate::moves::Move;
use crate::name::ParseValueError;
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

/// ECO codes: a code (`B50`), a range (`A00-B99`, both ends in), or a list of those
/// (`A00-A99,C50`).
///
/// ```
/// use pocketfen::game::EcoSet;
/// let set: EcoSet = "A00-B19, C50".parse()?;
/// assert!(set.contains("A45") && set.contains("B19") && set.contains("C50"));
/// assert!(!set.contains("B20") && !set.contains("C51"));
/// assert!("A00-Z99".parse::<EcoSet>().is_err());
/// # Ok::<_, pocketfen::ParseValueError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EcoSet(Vec<(u16, u16)>);

impl EcoSet {
    /// A code's number (`A00` = 0 … `E99` = 499), if it is one.
    fn number(code: &str) -> Option<u16> {
        match code.trim().as_bytes() {
            &[l @ b'A'..=b'E', d1 @ b'0'..=b'9', d2 @ b'0'..=b'9'] => {
                Some(u16::from(l - b'A') * 100 + u16::from(d1 - b'0') * 10 + u16::from(d2 - b'0'))
            }
            _ => None,
        }
    }

    /// Whether `code` is in the set.
    pub fn contains(&self, code: &str) -> bool {
        EcoSet::number(code).is_some_and(|n| self.0.iter().any(|&(a, b)| (a..=b).contains(&n)))
    }
}

impl FromStr for EcoSet {
    type Err = ParseValueError;
    fn from_str(s: &str) -> Result<EcoSet, ParseValueError> {
        let bad = |part: &str| {
            ParseValueError::new(
                "ECO codes",
                format!(
                    "`{part}`: expected a code A00 to E99, a range A00-B99 (the first not after the second), or a list of those separated by commas"
                ),
            )
        };
        let mut ranges = Vec::new();
        for part in s.split(',') {
            let (a, b) = part.split_once('-').unwrap_or((part, part));
            let (Some(a), Some(b)) = (EcoSet::number(a), EcoSet::number(b)) else {
                return Err(bad(part.trim()));
            };
            if a > b {
                return Err(bad(part.trim()));
            }
            ranges.push((a, b));
        }
        Ok(EcoSet(ranges))
    }
}

/// An opening name pattern: `*` any text, `?` one character, the rest compared without
/// regard to case (`Sicilian Defense*`).
///
/// ```
/// use pocketfen::game::NamePattern;
/// let p = NamePattern::new("sicilian defense*");
/// assert!(p.matches("Sicilian Defense: Najdorf Variation"));
/// assert!(!p.matches("French Defense"));
/// assert!(NamePattern::new("*Gambit Accepted*").matches("Queen's Gambit Accepted"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamePattern(Vec<char>);

impl NamePattern {
    /// The pattern `text`.
    pub fn new(text: &str) -> NamePattern {
        NamePattern(text.chars().flat_map(char::to_lowercase).collect())
    }

    /// Whether `name` matches the whole pattern.
    pub fn matches(&self, name: &str) -> bool {
        let name: Vec<char> = name.chars().flat_map(char::to_lowercase).collect();
        // Greedy matching with one backtrack point per `*`: linear in practice.
        let (p, n) = (&self.0, &name);
        let (mut i, mut j) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while j < n.len() {
            if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
                i += 1;
                j += 1;
            } else if i < p.len() && p[i] == '*' {
                star = Some((i, j));
                i += 1;
            } else if let Some((si, sj)) = star {
                i = si + 1;
                j = sj + 1;
                star = Some((si, sj + 1));
            } else {
                return false;
            }
        }
        p[i..].iter().all(|&c| c == '*')
    }
}

/// What of a game's opening ([`crate::opening`]) a selection hands out per game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpeningField {
    /// Its ECO code.
    Eco,
    /// Its name.
    Name,
}
