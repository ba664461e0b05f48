//! Choosing games and telling duplicates: the work of `pgn select` and `pgn dedupe`,
//! one game at a time (the run keeps their order and the set of games seen).
//!
//! A [`Selection`] holds criteria that every chosen game meets. Criteria on tags and the
//! variant are decided from the header alone, so a selection of those only stops each
//! game's walk after its tags: it runs at parsing speed. The others replay the main
//! line once.
//!
//! ```
//! use pocketfen::game::{Options, Selection, select_game};
//! use pocketfen::stream::RawGame;
//! let mut sel = Selection::default();
//! sel.tags.push("WhiteElo>=2000".parse()?);
//! sel.tags.push("Event~^Rated".parse()?);
//! let game = RawGame::new(b"[Event \"Rated Blitz\"]\n[WhiteElo \"2100\"]\n\n1. e4 *\n".to_vec());
//! assert!(select_game(&game, &sel, &Options::default()).selected);
//! # Ok::<_, pocketfen::ParseValueError>(())
//! ```

use std::ops::ControlFlow;
use std::str::FromStr;

use crate::name::ParseValueError;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::header::{Boards, MoveAt, Options, unescape};
use super::opening::{EcoSet, NamePattern, OpeningField};
use super::problem::{GameReport, Status};
use super::validate::visit_game;
use super::visitor::Visitor;
use crate::moves::Move;
use crate::notation::fen;
use crate::notation::san::SanPlus;
use crate::opening::Classifier;
use crate::position::{Position, Severity};
use crate::setup::Setup;
use crate::stream::split::RawGame;
use crate::variant::Variant;

/// How a tag's value is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// `<`
    Less,
    /// `<=`
    LessOrEqual,
    /// `>`
    Greater,
    /// `>=`
    GreaterOrEqual,
}

/// A value a tag is compared with: a number, a `YYYY.MM.DD` date, or a month
/// `YYYY.MM` (also a number: a tag of numbers compares with it as one).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Ordered {
    Number(f64),
    Date(u32, u32, u32),
    Month(u32, u32, f64),
}

impl Ordered {
    /// A number, a date whose parts are all known, or a month `YYYY.MM`; `None` for
    /// anything else (a date with `?` in it never takes part in a comparison).
    fn read(text: &str) -> Option<Ordered> {
        let t = text.trim();
        // `YYYY.MM.DD` as PGN writes dates, `YYYY-MM-DD` as FICS and bughouse-db do.
        let sep = if t.contains('-') && !t.starts_with('-') {
            '-'
        } else {
            '.'
        };
        if let Some((y, rest)) = t.split_once(sep)
            && let Some((m, d)) = rest.split_once(sep)
        {
            // Digits only (`u32`'s parser would take a `+`; it refuses an empty part).
            let part = |p: &str| {
                p.bytes()
                    .all(|b| b.is_ascii_digit())
                    .then(|| p.parse().ok())
                    .flatten()
            };
            return Some(Ordered::Date(part(y)?, part(m)?, part(d)?));
        }
        // A month: a year of four digits and a month of two, 01 to 12 (`2025.05`; as a
        // number, two digits order months as their numbers do).
        if let Some((y, m)) = t.split_once(sep)
            && y.len() == 4
            && m.len() == 2
            && y.bytes().chain(m.bytes()).all(|b| b.is_ascii_digit())
            && let (Ok(year), Ok(month)) = (y.parse(), m.parse())
            && (1..=12).contains(&month)
        {
            let as_number = format!("{y}.{m}").parse().unwrap_or(f64::NAN);
            return Some(Ordered::Month(year, month, as_number));
        }
        let n: f64 = t.parse().ok()?;
        n.is_finite().then_some(Ordered::Number(n))
    }

    /// How a tag's value stands to a bound (a date's year against a number, its year
    /// and month against a month).
    fn compare(self, other: Ordered) -> Option<std::cmp::Ordering> {
        use Ordered::{Date, Month, Number};
        match (self, other) {
            // Two numbers, or a number and a month (`2025.10` is below `2025.5` as a
            // number: a tag of numbers compares as numbers).
            (Number(a) | Month(.., a), Number(b) | Month(.., b)) => a.partial_cmp(&b),
            (Date(a, b, c), Date(x, y, z)) => Some((a, b, c).cmp(&(x, y, z))),
            // A year against a date: its year (`Date>2019`, as pgn-extract reads it).
            (Date(y, ..), Number(n)) => f64::from(y).partial_cmp(&n),
            (Number(n), Date(y, ..)) => n.partial_cmp(&f64::from(y)),
            // A month against a date or a month: the year, then the month
            // (`Date>=2025.05` from May 2025 on).
            (Date(a, b, _), Month(x, y, _)) | (Month(a, b, _), Date(x, y, _)) => {
                Some((a, b).cmp(&(x, y)))
            }
        }
    }
}

/// What a tag's value must be.
#[derive(Debug, Clone)]
pub enum TagTest {
    /// Exactly this value.
    Is(String),
    /// A value that this regular expression finds a match in.
    Matches(regex::Regex),
    /// A number or a date in this relation to the given one.
    Compare(Compare, String),
}

/// A criterion on one tag: `NAME=VALUE`, `NAME~REGEX`, `NAME>=N` (also `>`, `<`, `<=`).
#[derive(Debug, Clone)]
pub struct TagCriterion {
    /// The tag's name.
    pub name: String,
    /// What its value must be.
    pub test: TagTest,
    bound: Option<Ordered>,
}

impl FromStr for TagCriterion {
    type Err = ParseValueError;

    /// `NAME=VALUE`, `NAME~REGEX`, `NAME>=N`, `NAME>N`, `NAME<=N`, `NAME<N`; numbers
    /// compare as numbers, `YYYY.MM.DD` dates as dates.
    fn from_str(s: &str) -> Result<TagCriterion, ParseValueError> {
        let bad = |message: String| ParseValueError::new("tag criterion", message);
        let at = s.find(['=', '~', '<', '>']).ok_or_else(|| {
            bad(format!(
                "`{s}`: expected NAME=VALUE, NAME~REGEX or NAME>=N (also >, <, <=)"
            ))
        })?;
        let name = s[..at].trim();
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(bad(format!(
                "`{s}`: `{name}` is no tag name (letters, digits and `_`)"
            )));
        }
        let rest = &s[at..];
        let (op, value) = if let Some(v) = rest.strip_prefix(">=") {
            (Some(Compare::GreaterOrEqual), v)
        } else if let Some(v) = rest.strip_prefix("<=") {
            (Some(Compare::LessOrEqual), v)
        } else if let Some(v) = rest.strip_prefix('>') {
            (Some(Compare::Greater), v)
        } else if let Some(v) = rest.strip_prefix('<') {
            (Some(Compare::Less), v)
        } else if let Some(v) = rest.strip_prefix('~') {
            let re = regex::Regex::new(v)
                .map_err(|e| bad(format!("`{s}`: not a regular expression: {e}")))?;
            return Ok(TagCriterion {
                name: name.to_owned(),
                test: TagTest::Matches(re),
                bound: None,
            });
        } else {
            let v = &rest[1..];
            return Ok(TagCriterion {
                name: name.to_owned(),
                test: TagTest::Is(v.to_owned()),
                bound: None,
            });
        };
        let op = op.expect("a comparison");
        let bound = Ordered::read(value).ok_or_else(|| {
            bad(format!(
                "`{s}`: `{value}` is neither a number nor a date YYYY.MM.DD with every part known (nor a month YYYY.MM): a comparison needs one"
            ))
        })?;
        Ok(TagCriterion {
            name: name.to_owned(),
            test: TagTest::Compare(op, value.trim().to_owned()),
            bound: Some(bound),
        })
    }
}

impl TagCriterion {
    /// Whether `value` (unescaped) meets the criterion.
    pub fn accepts(&self, value: &str) -> bool {
        match &self.test {
            TagTest::Is(v) => value == v,
            TagTest::Matches(re) => re.is_match(value),
            TagTest::Compare(op, _) => {
                let (Some(bound), Some(v)) = (self.bound, Ordered::read(value)) else {
                    return false;
                };
                let Some(o) = v.compare(bound) else {
                    return false;
                };
                match op {
                    Compare::Less => o.is_lt(),
                    Compare::LessOrEqual => o.is_le(),
                    Compare::Greater => o.is_gt(),
                    Compare::GreaterOrEqual => o.is_ge(),
                }
            }
        }
    }
}

/// How a game must end (`--ends-in`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// In checkmate (on either board of a bughouse match).
    Mate,
    /// In stalemate.
    Stalemate,
    /// In checkmate by a drop.
    DropMate,
}

impl FromStr for Ending {
    type Err = ParseValueError;
    fn from_str(s: &str) -> Result<Ending, ParseValueError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mate" | "checkmate" => Ok(Ending::Mate),
            "stalemate" => Ok(Ending::Stalemate),
            "drop-mate" | "dropmate" => Ok(Ending::DropMate),
            _ => Err(ParseValueError::new(
                "ending",
                format!("`{s}`: expected mate, stalemate or drop-mate"),
            )),
        }
    }
}

/// A position the main line must reach (`--position`).
#[derive(Debug, Clone)]
pub struct Reaches {
    setup: Setup,
    /// Whether only the board counts (not the side to move and the pockets).
    pub board_only: bool,
    /// The variant a Lichess analysis URL names (`/analysis/crazyhouse/…`): a selection
    /// without a variant of its own takes it.
    pub variant: Option<Variant>,
}

impl Reaches {
    /// The position of a FEN in any dialect (one board; a Lichess URL's variant is
    /// [`Reaches::variant`]).
    ///
    /// # Errors
    ///
    /// A FEN that does not parse, or a bughouse pair.
    pub fn new(text: &str, board_only: bool) -> Result<Reaches, ParseValueError> {
        let bad = |message: String| ParseValueError::new("position", message);
        let pasted = fen::unwrap_pasted(text).map_err(|e| bad(format!("`{text}`: {e}")))?;
        let parsed = fen::parse(&pasted.fen, None)
            .map_err(|e| bad(format!("`{text}`: {}", pasted.locate(e))))?;
        match parsed.fen {
            crate::setup::Fen::Single(setup) => Ok(Reaches {
                setup,
                board_only,
                variant: pasted.variant,
            }),
            crate::setup::Fen::Pair(_) => Err(bad(format!(
                "`{text}`: a bughouse pair; give one board, which either board of a match may reach"
            ))),
        }
    }

    fn is(&self, pos: &Position) -> bool {
        if *pos.board() != self.setup.board {
            return false;
        }
        if self.board_only {
            return true;
        }
        pos.turn() == self.setup.turn && *pos.pockets() == self.setup.pockets.unwrap_or_default()
    }
}

/// Criteria that every chosen game meets; a criterion left empty takes every game.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Tag criteria: values asked of one tag are alternatives, its bounds all hold.
    pub tags: Vec<TagCriterion>,
    /// The variant the game is read as (none: any, or the one `position`'s Lichess URL
    /// names).
    pub variant: Option<Variant>,
    /// Players who play in the game (any seat, all four in bughouse; case-insensitive).
    pub players: Vec<String>,
    /// The `Result` tag, one of these.
    pub results: Vec<String>,
    /// At least this many mainline plies.
    pub min_plies: Option<usize>,
    /// At most this many mainline plies.
    pub max_plies: Option<usize>,
    /// A position the main line reaches (the start counts).
    pub position: Option<Reaches>,
    /// How the game ends.
    pub ends_in: Option<Ending>,
    /// The games `validate` with the same options accepts (`true`) or rejects.
    pub valid: Option<bool>,
    /// A tag whose value each game's record carries (`pgn split --by-tag`).
    pub capture: Option<String>,
    /// The ECO codes of the game's opening, as Lichess names it from the moves (a game
    /// with no named opening is in none).
    pub eco: Option<EcoSet>,
    /// Patterns the name of the game's opening matches, one of them.
    pub opening: Vec<NamePattern>,
    /// The part of the game's opening each game's record carries instead of a tag's value
    /// (`pgn split --by eco|opening`; none when no opening is named).
    pub capture_opening: Option<OpeningField>,
    /// How many more games that lack the tag of a tag criterion hand out the names of
    /// their tags ([`Chosen::tag_names`]), so that a criterion on a misspelt tag can be
    /// told the nearest name; `None`: none do.
    pub name_samples: Option<Arc<AtomicUsize>>,
}

impl Selection {
    /// Whether the main line must be replayed (else the tags decide).
    pub fn needs_moves(&self) -> bool {
        self.min_plies.is_some()
            || self.max_plies.is_some()
            || self.position.is_some()
            || self.ends_in.is_some()
            || self.valid.is_some()
            || self.names_opening()
    }

    /// Whether the game's opening is asked for.
    fn names_opening(&self) -> bool {
        self.eco.is_some() || !self.opening.is_empty() || self.capture_opening.is_some()
    }

    /// The variant a game must be: the selection's own, else the one its position's
    /// Lichess URL names.
    fn variant_asked(&self) -> Option<Variant> {
        self.variant
            .or(self.position.as_ref().and_then(|p| p.variant))
    }

    /// Whether nothing is asked of a game's text (every game is chosen unread).
    fn takes_all(&self) -> bool {
        !self.needs_moves()
            && self.tags.is_empty()
            && self.variant.is_none()
            && self.players.is_empty()
            && self.results.is_empty()
            && self.capture.is_none()
    }

    fn wants_tag(&self, name: &str) -> bool {
        self.tags.iter().any(|t| t.name == name)
            || (!self.players.is_empty() && SEATS.contains(&name))
            || (!self.results.is_empty() && name == "Result")
            || self.capture.as_deref() == Some(name)
    }
}

/// The tags that name a player.
const SEATS: [&str; 6] = ["White", "Black", "WhiteA", "BlackA", "WhiteB", "BlackB"];

/// A game's verdict under a selection.
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen {
    /// Whether the game meets every criterion.
    pub selected: bool,
    /// Its report, as far as the walk went (the header alone for tag criteria).
    pub report: GameReport,
    /// The value of [`Selection::capture`], when the game has the tag.
    pub captured: Option<String>,
    /// Which tag criteria (bit i: `Selection::tags[i]`, the first 64) name a tag the
    /// game has.
    pub tags_present: u64,
    /// The names of the game's tags, one per line, when it lacks a tag criterion's tag
    /// and [`Selection::name_samples`] allowed it.
    pub tag_names: Option<String>,
}

/// Watches the walk for a selection.
struct Chooser<'s> {
    sel: &'s Selection,
    tags: Vec<(String, String)>,
    /// Every tag's name, while samples of them are wanted.
    names: Option<String>,
    variant: Option<Variant>,
    reached: bool,
    last_drop: bool,
    ended: Option<Ending>,
    /// The game's opening, when asked for.
    opening: Option<Classifier>,
    mainline: bool,
}

impl<'t> Visitor<'t> for Chooser<'_> {
    fn tag(&mut self, name: &'t str, value: &'t str) -> ControlFlow<()> {
        if let Some(names) = &mut self.names {
            names.push_str(name);
            names.push('\n');
        }
        if self.sel.wants_tag(name) && !self.tags.iter().any(|(n, _)| n == name) {
            self.tags
                .push((name.to_owned(), unescape(value).into_owned()));
        }
        ControlFlow::Continue(())
    }

    fn start(&mut self, boards: Boards<'_>) -> ControlFlow<()> {
        self.variant = Some(match boards {
            Boards::One(p) => p.variant(),
            Boards::Two(_) => Variant::Bughouse,
        });
        if let (true, Boards::One(p)) = (self.sel.names_opening(), boards) {
            self.opening = Classifier::new(p);
        }
        if let Some(r) = &self.sel.position {
            self.reached = match boards {
                Boards::One(p) => r.is(p),
                Boards::Two(m) => {
                    r.is(m.board(crate::bughouse::BoardId::A))
                        || r.is(m.board(crate::bughouse::BoardId::B))
                }
            };
        }
        if self.sel.needs_moves() {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    }

    fn san(&mut self, _: &Position, _: &SanPlus, m: Move, at: MoveAt) -> ControlFlow<()> {
        self.mainline = at.is_mainline();
        if at.is_mainline() {
            self.last_drop = m.is_drop();
        }
        ControlFlow::Continue(())
    }

    fn played(&mut self, after: &Position) -> ControlFlow<()> {
        if let (true, Some(c)) = (self.mainline, &mut self.opening) {
            c.push(after);
        }
        if let Some(r) = &self.sel.position
            && !self.reached
        {
            self.reached = r.is(after);
        }
        ControlFlow::Continue(())
    }

    fn end(&mut self, boards: Boards<'_>) {
        let ending = |p: &Position| {
            if p.is_checkmate() {
                Some(Ending::Mate)
            } else if p.is_stalemate() {
                Some(Ending::Stalemate)
            } else {
                None
            }
        };
        self.ended = match boards {
            Boards::One(p) => ending(p),
            Boards::Two(m) => ending(m.board(crate::bughouse::BoardId::A))
                .filter(|e| *e == Ending::Mate)
                .or_else(|| {
                    ending(m.board(crate::bughouse::BoardId::B)).filter(|e| *e == Ending::Mate)
                }),
        };
    }
}

/// Whether `game` meets every criterion of `sel`, read with `opts` (whose `strict` says
/// what `valid` means, as for `validate`).
pub fn select_game(game: &RawGame, sel: &Selection, opts: &Options) -> Chosen {
    if sel.takes_all() {
        return Chosen {
            selected: true,
            report: GameReport {
                number: game.number,
                line: game.line,
                variant: None,
                plies: 0,
                status: Status::Ok,
                result_reading: None,
                problems: Vec::new(),
            },
            captured: None,
            tags_present: 0,
            tag_names: None,
        };
    }
    let sampling = sel
        .name_samples
        .as_ref()
        .is_some_and(|n| n.load(Ordering::Relaxed) > 0);
    let mut c = Chooser {
        sel,
        tags: Vec::new(),
        names: (sampling && !sel.tags.is_empty()).then(String::new),
        variant: None,
        reached: false,
        last_drop: false,
        ended: None,
        opening: None,
        mainline: false,
    };
    let report = visit_game(game, opts, &mut c);
    let named = c.opening.as_ref().and_then(Classifier::opening);
    let tag = |name: &str| {
        c.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let mut selected = true;
    // Values asked of one tag (`=`, `~`) are alternatives, and its bounds (`<`, `>=`…)
    // all hold, a range; criteria on different tags all hold.
    let mut names: Vec<&str> = sel.tags.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let Some(value) = tag(name) else {
            selected = false;
            continue;
        };
        let on_it = || sel.tags.iter().filter(|t| t.name == name);
        let bound = |t: &&TagCriterion| matches!(t.test, TagTest::Compare(..));
        let mut values = on_it().filter(|t| !bound(t)).peekable();
        let any_value = values.peek().is_none() || values.any(|t| t.accepts(value));
        selected &= any_value && on_it().filter(bound).all(|t| t.accepts(value));
    }
    if let Some(v) = sel.variant_asked() {
        selected &= c.variant == Some(v);
    }
    for player in &sel.players {
        let player = &player.to_lowercase();
        selected &= SEATS
            .iter()
            .filter_map(|s| tag(s))
            .any(|name| name.to_lowercase() == *player);
    }
    if !sel.results.is_empty() {
        selected &= tag("Result").is_some_and(|r| sel.results.iter().any(|x| x == r));
    }
    if let Some(n) = sel.min_plies {
        selected &= report.plies >= n;
    }
    if let Some(n) = sel.max_plies {
        selected &= report.plies <= n;
    }
    if sel.position.is_some() {
        selected &= c.reached;
    }
    let errors = report
        .problems
        .iter()
        .any(|p| p.severity == Severity::Error);
    if let Some(e) = sel.ends_in {
        let ended = if errors { None } else { c.ended };
        selected &= match e {
            Ending::DropMate => ended == Some(Ending::Mate) && c.last_drop,
            e => ended == Some(e),
        };
    }
    if let Some(valid) = sel.valid {
        let accepted = !errors && (!opts.strict || report.problems.is_empty());
        selected &= accepted == valid;
    }
    if let Some(set) = &sel.eco {
        selected &= named.is_some_and(|n| set.contains(n.eco));
    }
    if !sel.opening.is_empty() {
        selected &= named.is_some_and(|n| sel.opening.iter().any(|p| p.matches(n.name)));
    }
    let captured = match sel.capture_opening {
        Some(OpeningField::Eco) => named.map(|n| n.eco.to_owned()),
        Some(OpeningField::Name) => named.map(|n| n.name.to_owned()),
        None => sel.capture.as_deref().and_then(tag).map(str::to_owned),
    };
    let mut tags_present = 0u64;
    for (i, t) in sel.tags.iter().enumerate().take(64) {
        if tag(&t.name).is_some() {
            tags_present |= 1 << i;
        }
    }
    let all = sel.tags.len().min(64);
    let lacks = tags_present.count_ones() < all as u32;
    let tag_names = match (lacks, c.names.take(), &sel.name_samples) {
        (true, Some(names), Some(left))
            if left
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                .is_ok() =>
        {
            Some(names)
        }
        _ => None,
    };
    Chosen {
        selected,
        report,
        captured,
        tags_present,
        tag_names,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tag(s: &str) -> TagCriterion {
        s.parse().unwrap()
    }

    #[test]
    fn tag_criteria_compare_numbers_dates_and_text() {
        assert!(tag("WhiteElo>=2000").accepts("2000"));
        assert!(!tag("WhiteElo>2000").accepts("2000"));
        assert!(tag("WhiteElo<2000.5").accepts("2000"));
        assert!(!tag("WhiteElo<=2000").accepts("?"));
        assert!(tag("Date>=2020.01.01").accepts("2020.01.01"));
        assert!(tag("Date<2020.01.02").accepts("2020.01.01"));
        assert!(
            !tag("Date<2030.01.01").accepts("2020.??.??"),
            "? never compares"
        );
        assert!(
            tag("Date<2030.01.01").accepts("2020"),
            "a year is its date's year"
        );
        assert!(
            tag("Date<2030.01.01").accepts("2020-05-01"),
            "FICS writes dates with -"
        );
        assert!(tag("Date>=2014-07-18").accepts("2014.07.18"));
        assert!(
            tag("Date>2019").accepts("2020.01.01"),
            "a year against a date's year"
        );
        assert!(!tag("Date>2019").accepts("2019.12.31"));
        assert!(!tag("Date>2019").accepts("????.??.??"));
        assert!(
            !tag("Date>2019").accepts("2020.+1.01"),
            "a date's parts are digits only"
        );
        assert!(!tag("Date>2019").accepts("2020..01"));
        // A month: the year, then the month (a number read as one, `2025.05`, would put
        // every day of 2025 below it).
        assert!(tag("Date>=2025.05").accepts("2025.05.01"));
        assert!(tag("Date>=2025.05").accepts("2025.06.30"));
        assert!(tag("Date>=2025-05").accepts("2026.01.01"));
        assert!(
            !tag("Date>=2025.5").accepts("2025.06.01"),
            "one digit: a number, a date's year against it"
        );
        assert!(!tag("Date>=2025.05").accepts("2025.04.30"));
        assert!(
            !tag("Date>2025.05").accepts("2025.05.31"),
            "May is not after May"
        );
        assert!(tag("Date<2025.05").accepts("2024.12.31"));
        assert!(
            tag("Date<=2025.05").accepts("2025.05"),
            "a month against a month"
        );
        assert!(
            tag("WhiteElo<2000.5").accepts("2000.10"),
            "two months: as numbers"
        );
        assert!(!tag("Date>=2025.05").accepts("2025.??.??"));
        assert!(
            tag("TimeControl>=2025.05").accepts("2025.5"),
            "a number against a month: as numbers"
        );
        assert!(tag("WhiteElo<2000.5").accepts("2000.25"));
        assert!(tag("White=Magnus Carlsen").accepts("Magnus Carlsen"));
        assert!(!tag("White=Magnus").accepts("Magnus Carlsen"));
        assert!(tag("Event~^Rated .*Blitz").accepts("Rated Crazyhouse Blitz"));
        assert!(tag("White=").accepts(""));
        for bad in [
            "Elo>>2",
            "Elo",
            "=x",
            "Date>2020.??.01",
            "Bad Name=1",
            "White~(",
        ] {
            assert!(bad.parse::<TagCriterion>().is_err(), "{bad}");
        }
        assert!(
            "Elo>>2"
                .parse::<TagCriterion>()
                .unwrap_err()
                .message
                .contains("`>2` is neither a number nor a date")
        );
    }

    fn game(text: &str) -> RawGame {
        RawGame::new(text.as_bytes().to_vec())
    }

    #[test]
    fn criteria_of_every_kind() {
        let g = game(
            "[Event \"x\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n[Result \"1-0\"]\n[Variant \"Crazyhouse\"]\n\n\
             1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
        );
        let opts = Options::default();
        let chosen = |f: &dyn Fn(&mut Selection)| {
            let mut s = Selection::default();
            f(&mut s);
            select_game(&g, &s, &opts).selected
        };
        assert!(chosen(&|_| {}));
        assert!(chosen(&|s| s.players.push("alice".into())));
        assert!(chosen(&|s| s.players.push("ALICE".into())));
        assert!(!chosen(&|s| s.players.push("carol".into())));
        assert!(chosen(&|s| s.variant = Some(Variant::Crazyhouse)));
        assert!(!chosen(&|s| s.variant = Some(Variant::Chess)));
        assert!(chosen(&|s| s.results.push("1-0".into())));
        assert!(chosen(&|s| s.min_plies = Some(7)));
        assert!(!chosen(&|s| s.min_plies = Some(8)));
        assert!(chosen(&|s| s.max_plies = Some(7)));
        assert!(chosen(&|s| s.ends_in = Some(Ending::Mate)));
        assert!(!chosen(&|s| s.ends_in = Some(Ending::DropMate)));
        assert!(!chosen(&|s| s.ends_in = Some(Ending::Stalemate)));
        assert!(chosen(&|s| s.valid = Some(true)));
        assert!(!chosen(&|s| s.valid = Some(false)));
        // Two values of one tag: either; two tags: both.
        assert!(chosen(&|s| {
            s.tags.push(tag("White=Carol"));
            s.tags.push(tag("White=Alice"));
        }));
        assert!(!chosen(&|s| {
            s.tags.push(tag("White=Alice"));
            s.tags.push(tag("Black=Carol"));
        }));
        // Bounds on one tag all hold, a range; with values asked of it, one of those too.
        let rated = game("[WhiteElo \"1750\"]\n\n1. e4 *\n");
        let with = |criteria: &[&str]| {
            let mut s = Selection::default();
            s.tags.extend(criteria.iter().map(|c| tag(c)));
            select_game(&rated, &s, &opts).selected
        };
        assert!(with(&["WhiteElo>=1500", "WhiteElo<2000"]));
        assert!(!with(&["WhiteElo>=1500", "WhiteElo<1700"]));
        assert!(!with(&["WhiteElo>=2000", "WhiteElo<1000"]));
        assert!(with(&["WhiteElo=1600", "WhiteElo~^17", "WhiteElo<2000"]));
        assert!(!with(&["WhiteElo=1600", "WhiteElo~^17", "WhiteElo<1700"]));
        assert!(!with(&["WhiteElo=1600", "WhiteElo<2000"]));
        assert!(!with(&["BlackElo<2000"]));
        let after = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR/ w KQkq - 4 4";
        assert!(chosen(
            &|s| s.position = Some(Reaches::new(after, false).unwrap())
        ));
        let black_to_move = after.replace(" w ", " b ");
        assert!(!chosen(
            &|s| s.position = Some(Reaches::new(&black_to_move, false).unwrap())
        ));
        assert!(chosen(
            &|s| s.position = Some(Reaches::new(&black_to_move, true).unwrap())
        ));
        // A game with an illegal move: invalid, and it ends in nothing.
        let bad = game("[Result \"*\"]\n\n1. e4 e5 2. Qh6 *\n");
        let s = Selection {
            valid: Some(false),
            ..Selection::default()
        };
        assert!(select_game(&bad, &s, &opts).selected);
        let s = Selection {
            max_plies: Some(2),
            ..Selection::default()
        };
        assert!(select_game(&bad, &s, &opts).selected);
    }

    #[test]
    fn tag_criteria_alone_stop_after_the_tags() {
        let g = game("[White \"A\"]\n\n1. e4 e5 2. Ke9 *\n");
        let mut s = Selection::default();
        s.players.push("a".into());
        let c = select_game(&g, &s, &Options::default());
        assert!(c.selected);
        assert_eq!(c.report.plies, 0, "no move was replayed");
        assert!(c.report.problems.is_empty());
    }
}
