//! A game as table rows: one [`GameRow`] (Lichess's columns from its tags, then what
//! the replay found) and, when asked, a [`PlyRow`] per mainline ply (the move in SAN and
//! UCI, what it moved, took and promoted to, check and mate, the pockets after it, its
//! comments' clock and evaluation, its NAGs, the FEN after it). The rows are plain
//! values: `crate::table` turns them into Arrow and Parquet.
//!
//! ```
//! use pocketfen::game::{Options, RowOptions, game_rows};
//! use pocketfen::stream::RawGame;
//! let pgn = b"[Variant \"Crazyhouse\"]\n[WhiteElo \"1500\"]\n[BlackElo \"?\"]\n\n\
//!             1. e4 { [%clk 0:03:00] } d5 2. exd5 Qxd5 3. P@e4 *\n";
//! let rows = game_rows(&RawGame::new(pgn.to_vec()), &Options::default(), RowOptions { plies: true, ..RowOptions::default() });
//! assert_eq!(rows.game.white_elo, Some(1500));
//! assert_eq!(rows.game.black_elo, None);
//! assert_eq!(rows.game.unfit, ["BlackElo"]);
//! assert_eq!(rows.game.movetext, "1. e4 { [%clk 0:03:00] } d5 2. exd5 Qxd5 3. P@e4 *");
//! assert_eq!(rows.plies[4].san_text().as_str(), "P@e4");
//! assert_eq!(rows.plies[2].uci_text().as_str(), "e4d5");
//! let pockets = rows.plies[4].pockets.unwrap();
//! assert_eq!((pockets.white.count(), pockets.black.count()), (0, 1));
//! assert_eq!(rows.plies[0].clock, Some(180.0));
//! ```

use std::borrow::Cow;
use std::ops::ControlFlow;

use super::annotation::{Annotations, Eval, lichess_eval_clock, lone_clock, move_notes, seconds};
use super::header::{Boards, MoveAt, Options, unescape};
use super::problem::{GameReport, Status};
use super::validate::{game_text, visit_game, visit_text_at};
use super::visitor::{Skip, Visitor};
use crate::board::Board;
use crate::bughouse::{BoardId, Match};
use crate::moves::Move;
use crate::notation::fen::{BoardCache, FenDialect};
use crate::notation::san::{DropStyle, San};
use crate::notation::uci::UciMove;
use crate::position::{EndReason, Outcome, Position, Severity};
use crate::setup::{Fen, Pocket};
use crate::stream::split::RawGame;
use crate::stream::{STANDARD_FEN, STANDARD_POCKET_FEN};
use crate::types::{ByColor, Color, Role};
use crate::variant::Variant;
use arrayvec::ArrayString;

mod values;

#[cfg(all(test, feature = "parquet"))]
pub(crate) use values::days_from_civil;
use values::{read_date, read_i16, read_time, short};

/// What [`game_rows`] builds besides the game's row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RowOptions {
    /// A [`PlyRow`] per mainline ply.
    pub plies: bool,
    /// Each ply row's FEN after the move (most of a plies table's size).
    pub fen: bool,
    /// The game's opening named from its moves, as Lichess names it (the row's
    /// `named_opening`): 14 % more CPU for `validate` (docs/PERFORMANCE.md).
    pub openings: bool,
    /// The game's row holds only its Site among its tags, and neither its movetext nor
    /// its start FEN: what a plies table alone needs (its games' key), besides what the
    /// replay found, without the reading and copying a games table's columns take.
    pub site_only: bool,
}

/// How a game ended on the board, as the replay found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoardEnd {
    /// Checkmate by a move on the board.
    Checkmate,
    /// Checkmate by a drop.
    DropMate,
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// Horde: every white piece was captured.
    Extinction,
    /// Chess: neither side can mate.
    InsufficientMaterial,
}

impl BoardEnd {
    /// `checkmate`, `drop-mate`, `stalemate`, `extinction` or `insufficient-material`.
    pub fn name(self) -> &'static str {
        match self {
            BoardEnd::Checkmate => "checkmate",
            BoardEnd::DropMate => "drop-mate",
            BoardEnd::Stalemate => "stalemate",
            BoardEnd::Extinction => "extinction",
            BoardEnd::InsufficientMaterial => "insufficient-material",
        }
    }
}

/// A game's first problem, where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FirstProblem {
    /// Its kind's name (`not-in-pocket`).
    pub kind: &'static str,
    /// 1-based line in the archive.
    pub line: u64,
    /// 1-based column.
    pub column: u32,
    /// The ply of the move concerned.
    pub ply: Option<u32>,
}

/// One game's row: Lichess's columns, then what pocketfen found. A tag that is absent
/// is `None`; one whose value does not fit its column (an Elo of `?`, a date of
/// `2024.??.??`) is `None` and named in `unfit`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GameRow {
    /// `[Event]`.
    pub event: Option<String>,
    /// `[Site]`.
    pub site: Option<String>,
    /// `[White]`.
    pub white: Option<String>,
    /// `[Black]`.
    pub black: Option<String>,
    /// `[Result]`.
    pub result: Option<String>,
    /// `[WhiteTitle]`.
    pub white_title: Option<String>,
    /// `[BlackTitle]`.
    pub black_title: Option<String>,
    /// `[WhiteElo]`.
    pub white_elo: Option<i16>,
    /// `[BlackElo]`.
    pub black_elo: Option<i16>,
    /// `[WhiteRatingDiff]`.
    pub white_rating_diff: Option<i16>,
    /// `[BlackRatingDiff]`.
    pub black_rating_diff: Option<i16>,
    /// `[UTCDate]`, in days since 1970-01-01.
    pub utc_date: Option<i32>,
    /// `[UTCTime]`, in seconds since midnight.
    pub utc_time: Option<i32>,
    /// `[Date]` as written (`2021.10.05`, `2021-10-05`, `????.??.??`).
    pub date: Option<String>,
    /// `[ECO]`.
    pub eco: Option<String>,
    /// `[Opening]`.
    pub opening: Option<String>,
    /// `[Termination]`.
    pub termination: Option<String>,
    /// `[TimeControl]`.
    pub time_control: Option<String>,
    /// The movetext as in the source (from the end of the tags, blanks around it
    /// trimmed).
    pub movetext: String,
    /// The variant it was read as (`crazyhouse`); when it could not be told, the
    /// `[Variant]` tag as written (`Atomicz`: read back, the game fails as it did), or
    /// `None` without one.
    pub variant: Option<Cow<'static, str>>,
    /// The start position in Lichess's dialect (a pair `A | B` for bughouse); when no
    /// start could be set up (an unreadable or illegal `[FEN]`, an unknown variant), the
    /// `[FEN]` tag as written, or `None` without one.
    pub fen: Option<String>,
    /// Mainline plies replayed.
    pub plies: u32,
    /// How the main line ended on the board (`None`: it did not, or the game did not
    /// replay).
    pub end: Option<BoardEnd>,
    /// The board that ended a bughouse match.
    pub end_board: Option<BoardId>,
    /// Who won on the board (of `end_board` in bughouse).
    pub winner: Option<Color>,
    /// Every move legal (warnings aside).
    pub valid: bool,
    /// How many problems (errors and warnings).
    pub problems: u32,
    /// The first of them.
    pub first_problem: Option<FirstProblem>,
    /// Bughouse: `[WhiteA]`, `[BlackA]`, `[WhiteB]`, `[BlackB]`.
    pub players: [Option<String>; 4],
    /// Bughouse: `[WhiteAElo]`, `[BlackAElo]`, `[WhiteBElo]`, `[BlackBElo]`.
    pub ratings: [Option<i16>; 4],
    /// The tags whose values did not fit their columns.
    pub unfit: Vec<&'static str>,
    /// The game's opening named from its moves, when asked for
    /// ([`RowOptions::openings`]) and one is named.
    pub named_opening: Option<crate::opening::Named>,
}

/// One mainline ply's row.
#[derive(Debug, Clone, PartialEq)]
pub struct PlyRow {
    /// 1-based ply (across both boards in bughouse).
    pub ply: u32,
    /// The board, in bughouse.
    pub board: Option<BoardId>,
    /// The move number on its board.
    pub move_number: u32,
    /// Who moved.
    pub side: Color,
    /// The move in canonical SAN, without its `+` or `#` (those are [`PlyRow::check`]
    /// and [`PlyRow::mate`]); [`PlyRow::san_text`] spells it whole (`P@e4` for a pawn
    /// drop).
    pub san: San,
    /// The move in UCI; [`PlyRow::uci_text`] spells it (`e2e4`, `P@e4`).
    pub uci: UciMove,
    /// A drop.
    pub is_drop: bool,
    /// What moved or was dropped.
    pub piece: Role,
    /// What it took (a pawn en passant).
    pub captured: Option<Role>,
    /// What a pawn promoted to.
    pub promotion: Option<Role>,
    /// It gives check.
    pub check: bool,
    /// It mates.
    pub mate: bool,
    /// The pockets after it (on its board in bughouse); `None` in variants without
    /// pockets. [`pocket_letters`] writes one as Lichess does (`PNN`, `pq`).
    pub pockets: Option<ByColor<Pocket>>,
    /// The mover's clock after the move, in seconds (`[%clk]`; a BPGN `{179}`).
    pub clock: Option<f64>,
    /// The time the move took, in seconds (`[%emt]`).
    pub elapsed: Option<f64>,
    /// The evaluation after it (`[%eval]`).
    pub eval: Option<Eval>,
    /// Its NAGs: the move's own glyph first (`!` is 1, `?!` is 6), then its `$N`.
    pub nags: Vec<u8>,
}

impl PlyRow {
    /// The canonical SAN as a table holds it: `Nxe5+`, `exd8=Q#`, `P@e4`, `O-O`.
    pub fn san_text(&self) -> ArrayString<16> {
        let mut text = ArrayString::new();
        self.san.spell(&mut text, DropStyle::Letter);
        if self.mate {
            text.push('#');
        } else if self.check {
            text.push('+');
        }
        text
    }

    /// The UCI move: `e2e4`, `e7e8q`, `P@e4` (castling as the king's move, or onto the
    /// rook in Chess960).
    pub fn uci_text(&self) -> ArrayString<8> {
        let mut text = ArrayString::new();
        self.uci.push_to(&mut text);
        text
    }
}

/// The FENs after a game's plies (Lichess's dialect; a pair in bughouse), when asked
/// for: one text end to end, each ply's FEN where the one before ends (no string a
/// ply). Its `i`-th FEN is the one after the `i`-th [`PlyRow`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fens {
    text: String,
    /// Where each ply's FEN ends in `text`.
    ends: Vec<usize>,
}

impl Fens {
    /// The FEN after the `i`-th ply row (0-based): `None` past the last.
    pub fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)?;
        let start = i.checked_sub(1).map_or(0, |j| self.ends[j]);
        Some(&self.text[start..end])
    }

    /// How many plies have a place (FENs were asked for: one a ply row).
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// No ply has a place (FENs were not asked for, or the game has no plies).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Each ply's FEN in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(s, &e)| &self.text[s..e])
    }

    /// The bytes of all the FENs.
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// Room for the next ply's FEN, empty until it is played ([`Fens::close`]).
    fn open(&mut self) {
        self.ends.push(self.text.len());
    }

    /// The last ply's FEN ends where the text ends now.
    fn close(&mut self) {
        if let Some(end) = self.ends.last_mut() {
            *end = self.text.len();
        }
    }
}

/// A game's rows, and its report.
#[derive(Debug, Clone)]
pub struct GameRows {
    /// The game's row.
    pub game: GameRow,
    /// A row per mainline ply, when asked for.
    pub plies: Vec<PlyRow>,
    /// The FEN after each of them, when asked for.
    pub fens: Fens,
    /// What validation found.
    pub report: GameReport,
}

const PLAYER_TAGS: [&str; 4] = ["WhiteA", "BlackA", "WhiteB", "BlackB"];
const RATING_TAGS: [&str; 4] = ["WhiteAElo", "BlackAElo", "WhiteBElo", "BlackBElo"];

struct Rows<'t> {
    text: &'t str,
    asked: RowOptions,
    row: GameRow,
    plies: Vec<PlyRow>,
    fens: Fens,
    /// Where the last tag ends.
    header_end: usize,
    /// The `[Variant]` and `[FEN]` tags' values as written, for a game whose start
    /// could not be set up.
    variant_tag: Option<&'t str>,
    fen_tag: Option<&'t str>,
    depth: usize,
    mainline: u32,
    bughouse: bool,
    /// The result has been read: comments after it are no move's.
    over: bool,
    /// The mainline move being played: its SAN (its suffix comes once it is played).
    pending: Option<(Move, MoveAt)>,
    last_was_drop: bool,
    /// A bughouse match as the plies play it, for their FEN pairs.
    pair: Option<Match>,
    /// The board of the last FEN written (when FENs are written).
    board: Option<BoardCache>,
    /// Names the opening, when asked for.
    opening: Option<super::opening::OpeningWatch>,
}

impl<'t> Rows<'t> {
    fn offset_of(&self, s: &str) -> usize {
        (s.as_ptr() as usize).wrapping_sub(self.text.as_ptr() as usize)
    }

    fn set_tag(&mut self, name: &str, value: &str) {
        let row = &mut self.row;
        let text = || Some(unescape(value).into_owned());
        let mut fits = |tag: &'static str, v: Option<i32>| {
            if v.is_none() {
                row_unfit(&mut row.unfit, tag);
            }
            v
        };
        match name {
            "Event" => row.event = text(),
            "Site" => row.site = text(),
            "White" => row.white = text(),
            "Black" => row.black = text(),
            "Result" => row.result = text(),
            "WhiteTitle" => row.white_title = text(),
            "BlackTitle" => row.black_title = text(),
            "ECO" => row.eco = text(),
            "Opening" => row.opening = text(),
            "Termination" => row.termination = text(),
            "TimeControl" => row.time_control = text(),
            "Date" => row.date = text(),
            "WhiteElo" => row.white_elo = short(fits("WhiteElo", read_i16(value))),
            "BlackElo" => row.black_elo = short(fits("BlackElo", read_i16(value))),
            "WhiteRatingDiff" => {
                row.white_rating_diff = short(fits("WhiteRatingDiff", read_i16(value)))
            }
            "BlackRatingDiff" => {
                row.black_rating_diff = short(fits("BlackRatingDiff", read_i16(value)))
            }
            "UTCDate" => row.utc_date = fits("UTCDate", read_date(value)),
            "UTCTime" => row.utc_time = fits("UTCTime", read_time(value)),
            _ => {
                if let Some(i) = PLAYER_TAGS.iter().position(|t| *t == name) {
                    row.players[i] = text();
                } else if let Some(i) = RATING_TAGS.iter().position(|t| *t == name) {
                    row.ratings[i] = short(fits(RATING_TAGS[i], read_i16(value)));
                }
            }
        }
    }
}

/// The start FEN, in Lichess's dialect, of a game that starts from the standard position
/// (of chess, or of a variant with pockets), without writing it.
fn standard_start_fen(pos: &Position) -> Option<&'static str> {
    let standard = pos.fullmoves() == 1
        && pos.halfmoves() == 0
        && pos.turn() == Color::White
        && pos.ep_square().is_none()
        && !pos.is_chess960()
        && pos.promoted().is_empty()
        && *pos.pockets() == ByColor::default()
        && *pos.board() == Board::standard()
        && pos.castling_rights() == pos.board().by_role(Role::Rook);
    match pos.variant() {
        _ if !standard => None,
        Variant::Chess => Some(STANDARD_FEN),
        v if v.has_drops() => Some(STANDARD_POCKET_FEN),
        _ => None,
    }
}

/// Names a tag that did not fit (once).
fn row_unfit(unfit: &mut Vec<&'static str>, tag: &'static str) {
    if !unfit.contains(&tag) {
        unfit.push(tag);
    }
}

/// Appends a side's pocket letters in Lichess's order (P N B R Q): `PNN` for White,
/// `pq` for Black.
pub fn pocket_letters(out: &mut String, pocket: &Pocket, color: Color) {
    for role in Role::POCKET {
        let c = match color {
            Color::White => role.upper_char(),
            Color::Black => role.char(),
        };
        for _ in 0..pocket.get(role) {
            out.push(c);
        }
    }
}

impl<'t> Visitor<'t> for Rows<'t> {
    fn tag(&mut self, name: &'t str, value: &'t str) -> ControlFlow<()> {
        if self.asked.site_only {
            if name == "Site" {
                self.set_tag(name, value);
            }
            return ControlFlow::Continue(());
        }
        // The movetext starts after the `]` that closes the last value (found once, at
        // the end).
        let end = self.offset_of(value) + value.len();
        if end <= self.text.len() {
            self.header_end = self.header_end.max(end);
        }
        match name {
            "Variant" => self.variant_tag = Some(value),
            "FEN" => self.fen_tag = Some(value),
            _ => self.set_tag(name, value),
        }
        ControlFlow::Continue(())
    }

    fn start(&mut self, boards: Boards<'_>) -> ControlFlow<()> {
        if let Some(watch) = &mut self.opening {
            let _ = watch.start(boards);
        }
        let written = !self.asked.site_only;
        self.row.fen = match boards {
            Boards::One(pos) => written.then(|| self.start_fen(pos)),
            Boards::Two(m) => {
                self.bughouse = true;
                if self.asked.plies && self.asked.fen {
                    self.pair = Some(m.clone());
                }
                written.then(|| pair_fen(m))
            }
        };
        // The games table needs the end too: the walk goes on, whatever is asked.
        ControlFlow::Continue(())
    }

    fn comment(&mut self, text: &'t str) -> ControlFlow<()> {
        if self.over {
            return ControlFlow::Continue(());
        }
        if !self.asked.plies || self.depth > 0 {
            return ControlFlow::Continue(());
        }
        let Some(last) = self.plies.last_mut() else {
            return ControlFlow::Continue(());
        };
        // Lichess's comments, read in place (Lichess has no bughouse, whose clocks
        // `move_notes` reads as their writers mean them).
        if !self.bughouse {
            if let Some(clock) = lone_clock(text) {
                last.clock = Some(seconds(clock));
                return ControlFlow::Continue(());
            }
            if let Some((eval, clock)) = lichess_eval_clock(text) {
                last.eval = Some(eval);
                last.clock = Some(seconds(clock));
                return ControlFlow::Continue(());
            }
        }
        if let Some(notes) = move_notes(text, self.bughouse) {
            apply(last, notes);
        }
        ControlFlow::Continue(())
    }

    fn nag(&mut self, nag: &'t str) -> ControlFlow<()> {
        if self.asked.plies
            && self.depth == 0
            && let Some(last) = self.plies.last_mut()
            && let Ok(n) = nag.trim_start_matches('$').parse::<u8>()
        {
            last.nags.push(n);
        }
        ControlFlow::Continue(())
    }

    fn result(&mut self, _marker: &'t str) -> ControlFlow<()> {
        self.over |= self.depth == 0;
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self) -> ControlFlow<(), Skip> {
        self.depth += 1;
        ControlFlow::Continue(Skip(false))
    }

    fn end_variation(&mut self) -> ControlFlow<()> {
        self.depth = self.depth.saturating_sub(1);
        ControlFlow::Continue(())
    }

    fn san(
        &mut self,
        before: &Position,
        written: &crate::notation::san::SanPlus,
        m: Move,
        at: MoveAt,
    ) -> ControlFlow<()> {
        self.pending = None;
        if let Some(watch) = &mut self.opening {
            let _ = watch.san(before, written, m, at);
        }
        if !at.is_mainline() {
            return ControlFlow::Continue(());
        }
        self.mainline += 1;
        self.last_was_drop = m.is_drop();
        if !self.asked.plies {
            return ControlFlow::Continue(());
        }
        let captured = match m {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            _ => None,
        };
        self.plies.push(PlyRow {
            ply: at.ply as u32,
            board: at.board,
            move_number: before.fullmoves(),
            side: before.turn(),
            // As written when it needs no disambiguation (then it has none), else anew.
            // Neither it nor the UCI move is spelled here: a table spells a move once,
            // when its dictionary first meets it.
            san: written.san.canonical(before, m),
            uci: m.to_uci(before.is_chess960()),
            is_drop: m.is_drop(),
            piece: m.role(),
            captured,
            promotion: m.promotion(),
            check: false,
            mate: false,
            pockets: None,
            clock: None,
            elapsed: None,
            eval: None,
            nags: written.glyph.map(|g| g.nag()).into_iter().collect(),
        });
        if self.asked.fen {
            self.fens.open();
        }
        self.pending = Some((m, at));
        ControlFlow::Continue(())
    }

    fn played(&mut self, after: &Position) -> ControlFlow<()> {
        if let Some(watch) = &mut self.opening {
            let _ = watch.played(after);
        }
        let (Some((m, at)), Some(row)) = (self.pending.take(), self.plies.last_mut()) else {
            return ControlFlow::Continue(());
        };
        row.check = after.is_check();
        row.mate = row.check && after.is_checkmate();
        if after.variant().has_drops() {
            row.pockets = Some(*after.pockets());
        }
        if self.asked.fen {
            // Written straight onto the game's FENs: no formatter, no string a ply.
            let out = &mut self.fens.text;
            match (&mut self.pair, at.board) {
                (Some(pair), Some(board)) => {
                    pair.play_unchecked(board, m);
                    append_pair_fen(out, pair);
                }
                _ => {
                    let setup = after.to_setup();
                    let display = setup.display(FenDialect::Lichess);
                    match &mut self.board {
                        Some(board) => display.append_with(out, board),
                        None => display.append_to(out),
                    }
                }
            }
            self.fens.close();
        }
        ControlFlow::Continue(())
    }

    fn end(&mut self, boards: Boards<'_>) {
        let ended = |pos: &Position| pos.outcome();
        let (outcome, board) = match boards {
            Boards::One(pos) => (ended(pos), None),
            Boards::Two(m) => match m.outcome() {
                Some((board, o)) => (Some(o), Some(board)),
                None => (None, None),
            },
        };
        if let Some(o) = outcome {
            self.row.end = Some(match o.reason() {
                EndReason::Checkmate if self.last_was_drop => BoardEnd::DropMate,
                EndReason::Checkmate => BoardEnd::Checkmate,
                EndReason::Stalemate => BoardEnd::Stalemate,
                EndReason::Extinction => BoardEnd::Extinction,
                EndReason::InsufficientMaterial => BoardEnd::InsufficientMaterial,
            });
            self.row.end_board = board;
            self.row.winner = match o {
                Outcome::Decisive { winner, .. } => Some(winner),
                Outcome::Draw { .. } => None,
            };
        }
    }
}

impl Rows<'_> {
    /// The game's start in Lichess's dialect: its `[FEN]` as written (castling rights no
    /// rook allows, a Horde game's standard FEN, an en passant square no pawn can take
    /// on, each kept: a table read back warns of them as the source did), else the
    /// position's.
    fn start_fen(&self, pos: &Position) -> String {
        if let Some(tag) = self.fen_tag
            && let Ok(parsed) = crate::notation::fen::parse(&unescape(tag), None)
            && let Fen::Single(mut setup) = parsed.fen
        {
            // A pocket the variant has, empty when not written (Lichess's trailing `/`).
            if pos.variant().has_drops() && setup.pockets.is_none() {
                setup.pockets = Some(ByColor::default());
            }
            return setup.display(FenDialect::Lichess).to_string();
        }
        match standard_start_fen(pos) {
            Some(fen) => fen.to_owned(),
            None => pos.to_setup().display(FenDialect::Lichess).to_string(),
        }
    }
}

/// Adds a comment's annotations to a ply's row.
fn apply(row: &mut PlyRow, notes: Annotations) {
    if let Some(o) = notes.overtime {
        row.clock = Some(-seconds(o));
    }
    if let Some(c) = notes.clock {
        row.clock = Some(seconds(c));
    }
    if let Some(e) = notes.elapsed {
        row.elapsed = Some(seconds(e));
    }
    if notes.eval.is_some() {
        row.eval = notes.eval;
    }
}

/// A game's rows: its [`GameRow`], and with `asked.plies` a [`PlyRow`] per mainline
/// ply, built while the game is validated (the report is the one `validate` gives).
pub fn game_rows(game: &RawGame, opts: &Options, asked: RowOptions) -> GameRows {
    if game.too_large.is_some() {
        let report = visit_game(game, opts, &mut NoVisit);
        return GameRows {
            game: finish(GameRow::default(), &report),
            plies: Vec::new(),
            fens: Fens::default(),
            report,
        };
    }
    let text = game_text(&game.bytes);
    // Room for the plies at once (a ply takes 8 bytes of text or more), not grown copy by
    // copy.
    let room = (text.len() / 8).clamp(16, 512);
    let mut rows = Rows {
        text: &text,
        asked,
        row: GameRow::default(),
        plies: Vec::with_capacity(if asked.plies { room } else { 0 }),
        // A FEN takes some 60 bytes.
        fens: Fens {
            text: String::with_capacity(if asked.fen { room * 64 } else { 0 }),
            ends: Vec::with_capacity(if asked.fen { room } else { 0 }),
        },
        header_end: 0,
        variant_tag: None,
        fen_tag: None,
        depth: 0,
        mainline: 0,
        bughouse: false,
        over: false,
        pending: None,
        last_was_drop: false,
        pair: None,
        board: (asked.plies && asked.fen).then(BoardCache::new),
        opening: asked
            .openings
            .then(|| super::opening::OpeningWatch::new(None, false)),
    };
    let at = (game.line, game.column.max(1));
    let report = visit_text_at(game.number, at, &text, opts, &mut rows);
    let mut row = rows.row;
    if !asked.site_only {
        let last_value = rows.header_end.min(text.len());
        let start = match memchr::memchr(b']', &text.as_bytes()[last_value..]) {
            Some(n) if rows.header_end > 0 => last_value + n + 1,
            _ => last_value,
        };
        row.movetext = text[start..].trim().to_owned();
    }
    row.named_opening = rows.opening.as_ref().and_then(|w| w.opening());
    // The room left over is given back (in place): rows wait in the run's queues.
    let mut plies = rows.plies;
    plies.shrink_to_fit();
    let mut fens = rows.fens;
    fens.text.shrink_to_fit();
    fens.ends.shrink_to_fit();
    let mut game = finish(row, &report);
    // A start that could not be set up is kept as written, so that the table read back
    // fails as the source did (not replayed from the standard start).
    let as_written = |value: &str| unescape(value).into_owned();
    if game.variant.is_none() {
        game.variant = rows.variant_tag.map(|v| Cow::Owned(as_written(v)));
    }
    if game.fen.is_none() {
        game.fen = rows.fen_tag.map(as_written);
    }
    GameRows {
        game,
        plies,
        fens,
        report,
    }
}

/// The counts and verdict of the report in a row.
fn finish(mut row: GameRow, report: &GameReport) -> GameRow {
    row.variant = report.variant.map(|v| Cow::Borrowed(v.name()));
    row.plies = report.plies as u32;
    row.valid = report.status == Status::Ok;
    row.problems = report.problems.len() as u32;
    // The first error when the game has one (a warning before it, such as a Lichess
    // crazyhouse table's `variant-inferred`, would leave the error unlocated), else
    // the first warning.
    let first = report
        .problems
        .iter()
        .find(|p| p.severity == Severity::Error)
        .or(report.problems.first());
    row.first_problem = first.map(|p| FirstProblem {
        kind: p.kind.name(),
        line: p.line as u64,
        column: p.column as u32,
        ply: p.ply.map(|n| n as u32),
    });
    if !row.valid {
        row.end = None;
        row.end_board = None;
        row.winner = None;
    }
    row
}

struct NoVisit;
impl Visitor<'_> for NoVisit {}

/// A bughouse match's FEN pair in Lichess's dialect.
fn pair_fen(m: &Match) -> String {
    let mut fen = String::with_capacity(192);
    append_pair_fen(&mut fen, m);
    fen
}

/// Appends a bughouse match's FEN pair in Lichess's dialect to `out`.
fn append_pair_fen(out: &mut String, m: &Match) {
    let pair = [BoardId::A, BoardId::B].map(|b| m.board(b).to_setup());
    Fen::Pair(Box::new(pair))
        .display(FenDialect::Lichess)
        .append_to(out);
}

#[cfg(test)]
mod tests;
