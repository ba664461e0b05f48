//! FEN in the dialects of Lichess, Xboard/WinBoard, Chess.com and the generic bracket form.
//!
//! ```
//! use pocketfen::notation::fen::{self, FenDialect};
//! let parsed = fen::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Pq w KQkq - 0 1", None)?;
//! assert_eq!(parsed.dialect, Some(FenDialect::Lichess));
//! assert_eq!(
//!     parsed.fen.display(FenDialect::Xboard).to_string(),
//!     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pq] w KQkq - 0 1"
//! );
//! # Ok::<_, pocketfen::notation::fen::ParseFenError>(())
//! ```
//!
//! # Grammar
//!
//! ```text
//! record   = fen [ "|" fen ]                         ; a bughouse pair, boards A then B
//! fen      = board [pocket] [sep turn [sep castling [sep ep [sep tail]]]]
//! board    = rank 7("/" rank)                        ; rank 8 first
//! rank     = 1*(piece ["~"] / digit)                 ; exactly 8 squares
//! pocket   = "/" holdings                            ; Lichess (a 9th "rank")
//!          / "[" ("-" / holdings) "]"                ; Xboard and bracket forms
//! holdings = *([count] piece-letter)                 ; no kings
//! castling = "-" / 1*4(K Q k q A-H a-h)
//! ep       = "-" / square
//! tail     = [checks] [half [full]] [checks] [chesscom-pocket [squares]]
//! ```
//!
//! # Leniencies
//!
//! Real files need these; every one is accepted by every dialect's parser:
//!
//! - pocket letters in any order, and a digit count before a letter (`[N3P]` = `NPPP`,
//!   cutechess's old writer);
//! - `_` and tabs as field separators, and runs of separators;
//! - leading and trailing whitespace;
//! - 1 to 6 fields: missing fields default to `w - - 0 1` (4-field EPD and Chess.com's
//!   4-field `CurrentPosition` included);
//! - three-check counters, remaining (`3+3` after the e.p. field) or given (`+1+2` after
//!   the clocks), recognised and ignored;
//! - `~` after any piece, pawns and kings included (it is kept, and `fen check` reports it);
//! - `[]` and `[-]` both as an empty bracket pocket, and a Chess.com pocket of `-`;
//! - Chess.com promoted squares joined (`h1a8`), comma- or space-separated;
//! - a Chess.com pocket directly after the e.p. field (4-field form);
//! - `~` marks in a Chess.com FEN (added to its promoted squares).
//!
//! # Printing
//!
//! Each dialect prints as that site writes (the evidence is in docs/REFERENCE.md):
//!
//! - [`FenDialect::Lichess`]: `…/RNBQKBNR/Pq`, pocket white then black, each P N B R Q,
//!   a trailing `/` for an empty pocket, `~` after promoted pieces.
//! - [`FenDialect::Xboard`]: `…/RNBQKBNR[Pq]`, same order, `[-]` when empty, `~`.
//! - [`FenDialect::Bracket`]: `…/RNBQKBNR[Qp]`, each side Q R B N P (as python-chess and
//!   Fairy-Stockfish write it), `[]` when empty, `~`.
//! - [`FenDialect::Chesscom`]: the pocket after the full-move number, each side Q R B N
//!   P, not written when empty; no `~`, but the promoted squares after the last field
//!   (`… 0 1 NPq a1`, or `… 0 1 a1` with empty pockets), several separated by spaces.
//!
//! Castling letters print as they were read (standard, X-FEN or Shredder-FEN).

mod epd;
mod parse;
mod pasted;
mod write;

pub use pasted::{Pasted, UrlError, lichess_url, unwrap_pasted};

use std::fmt;
use std::str::FromStr;

use parse::{Located, one_fen, trim_ws};
pub use write::BoardCache;
pub(crate) use write::append_fields;
use write::{append_fen, append_setup};

use super::nomerr::{NomErr, locate};
use crate::position::{Position, PositionError};
use crate::setup::{Fen, Setup};
use crate::types::ByColor;
use crate::variant::{Rules, Variant, guess_variant};

/// The FEN dialect of a site or tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FenDialect {
    /// Lichess: pocket as a 9th rank, `…/RNBQKBNR/Pq`; empty pocket = trailing `/`.
    Lichess,
    /// Xboard/WinBoard: `…/RNBQKBNR[Pq]`; empty pocket = `[-]`.
    Xboard,
    /// Chess.com: pocket after the full-move number, then the promoted squares.
    Chesscom,
    /// The generic bracket form `[Pq]`, empty `[]` (python-chess, shakmaty, chessops, Fairy-Stockfish).
    Bracket,
}

impl FenDialect {
    /// Every dialect.
    pub const ALL: [FenDialect; 4] = [
        FenDialect::Lichess,
        FenDialect::Xboard,
        FenDialect::Chesscom,
        FenDialect::Bracket,
    ];

    /// `lichess`, `xboard`, `chesscom` or `bracket`.
    pub const fn name(self) -> &'static str {
        match self {
            FenDialect::Lichess => "lichess",
            FenDialect::Xboard => "xboard",
            FenDialect::Chesscom => "chesscom",
            FenDialect::Bracket => "bracket",
        }
    }
}

impl fmt::Display for FenDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

use crate::Choice as _;

impl FromStr for FenDialect {
    type Err = crate::name::ParseNameError;
    /// `lichess`, `xboard`, `chesscom` or `bracket` (any letter case; `chess.com` too).
    fn from_str(s: &str) -> Result<FenDialect, crate::name::ParseNameError> {
        let l = s.trim().to_ascii_lowercase();
        FenDialect::ALL
            .into_iter()
            .find(|d| d.name() == l || (l == "chess.com" && *d == FenDialect::Chesscom))
            .ok_or_else(|| FenDialect::unknown(s))
    }
}

impl crate::Choice for FenDialect {
    const WHAT: &'static str = "dialect";
    const NAMES: &'static [&'static str] = &crate::name::names_of!(FenDialect::ALL);
}

/// The FEN field a parse error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenField {
    /// The piece placement.
    Board,
    /// The pocket (any dialect's spelling).
    Pocket,
    /// The side to move.
    Turn,
    /// The castling rights.
    Castling,
    /// The en passant square.
    EnPassant,
    /// The half-move clock and full-move number.
    Clocks,
    /// Chess.com's promoted squares.
    PromotedSquares,
    /// EPD operations (`bm Nf3;`) after the fields.
    Operations,
    /// The whole record (the bughouse separator, or text after the last field).
    Record,
}

impl FenField {
    /// Every field, in the order a FEN has them.
    pub const ALL: [FenField; 9] = [
        FenField::Board,
        FenField::Pocket,
        FenField::Turn,
        FenField::Castling,
        FenField::EnPassant,
        FenField::Clocks,
        FenField::PromotedSquares,
        FenField::Operations,
        FenField::Record,
    ];

    /// The field's name in messages (`board`, `pocket`, …).
    pub fn name(self) -> &'static str {
        match self {
            FenField::Board => "board",
            FenField::Pocket => "pocket",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Clocks => "clocks",
            FenField::PromotedSquares => "promoted squares",
            FenField::Operations => "EPD operations",
            FenField::Record => "record",
        }
    }
}

/// A FEN that could not be read: where (character column, 1-based), in which field, and
/// why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFenError {
    /// 1-based character column in the line.
    pub column: usize,
    /// The field it is in.
    pub field: FenField,
    /// What was expected there.
    pub expected: &'static str,
    /// What stands at the column (quoted), or `end of input`.
    pub found: String,
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "column {}: {}: expected {}, found {}",
            self.column,
            self.field.name(),
            self.expected,
            self.found
        )
    }
}

impl std::error::Error for ParseFenError {}

/// A parsed FEN line and the dialect its pocket was written in (`None`: no pocket, so
/// every dialect reads it the same).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedFen {
    /// One board or a bughouse pair.
    pub fen: Fen,
    /// The dialect the pocket was written in (`None`: no pocket); of a pair whose boards
    /// are written in two dialects, board A's.
    pub dialect: Option<FenDialect>,
    /// The dialect of each board's pocket (`[A, B]` of a pair; a single board's is the
    /// first).
    pub board_dialects: [Option<FenDialect>; 2],
    /// The EPD operations after the fields, when the line is EPD.
    pub epd: Option<Epd>,
}

/// What an EPD line holds beyond its position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Epd {
    /// The operations, in order.
    pub operations: Vec<EpdOperation>,
    /// The operations as written, with the white space before them (printed back
    /// unchanged after the fields).
    pub text: String,
    /// Whether the fields had the clocks (the perft suites' six fields).
    pub clocks: bool,
}

/// One EPD operation: `bm Nf3 Ng5;` is the opcode `bm` with two operands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EpdOperation {
    /// The opcode (`bm`, `id`, `hmvc`, `D1`, …).
    pub opcode: String,
    /// The operands as written (a string operand with its quotes).
    pub operands: Vec<String>,
}

/// Parses one FEN line: a single FEN or a bughouse pair `A | B`, in any dialect
/// (`from = None`) or in the given one (a pocket spelled in another dialect is an error;
/// every listed leniency is still accepted). A line with a `;` is EPD: four fields (or
/// six) and operations, whose `hmvc` and `fmvn` give the clocks the fields lack.
///
/// # Errors
///
/// [`ParseFenError`] with the character column, field and what was expected there.
pub fn parse(line: &str, from: Option<FenDialect>) -> Result<ParsedFen, ParseFenError> {
    parse_located(line, from).map(|(parsed, _)| parsed)
}

/// [`parse`], with the byte offset of each board's pocket in the line (of where one would
/// stand, after the board field, when it has none).
fn parse_located(
    line: &str,
    from: Option<FenDialect>,
) -> Result<(ParsedFen, [usize; 2]), ParseFenError> {
    let base = line.trim_end_matches(['\r', '\n']);
    let to_err = |l: Located<'_>| {
        let (column, found) = locate(base, l.err.at);
        ParseFenError {
            column,
            field: l.field,
            expected: l.err.expected,
            found,
        }
    };
    let mut boards = Vec::with_capacity(2);
    let mut pockets_at = [0; 2];
    let mut dialect = None;
    let mut board_dialects = [None; 2];
    let mut i = trim_ws(base);
    let mut epd = None;
    if let Some((fields, ops)) = epd::split(i) {
        let (_, operations) =
            epd::operations(ops.trim_start_matches([' ', '\t'])).map_err(to_err)?;
        let clocks = fields
            .trim_end_matches([' ', '\t'])
            .split([' ', '\t', '_'])
            .filter(|f| !f.is_empty())
            .count()
            > 4;
        epd = Some(Epd {
            operations,
            text: ops.trim_end().to_owned(),
            clocks,
        });
        i = fields;
    }
    loop {
        let (rest, (setup, style, pocket_at)) = one_fen(i).map_err(to_err)?;
        if let Some(d) = from
            && !style.fits(d)
        {
            let at = &i[i.len() - pocket_at..];
            let expected = match d {
                FenDialect::Lichess => "a Lichess pocket (`/` after the 8th rank) or none",
                FenDialect::Xboard | FenDialect::Bracket => "a bracket pocket (`[...]`) or none",
                FenDialect::Chesscom => "a Chess.com pocket (after the full-move number) or none",
            };
            return Err(to_err(Located {
                field: FenField::Pocket,
                err: NomErr::new(at, expected),
            }));
        }
        dialect = dialect.or(style.dialect());
        if let Some(d) = board_dialects.get_mut(boards.len()) {
            *d = style.dialect();
        }
        if let Some(at) = pockets_at.get_mut(boards.len()) {
            *at = i.as_ptr() as usize + (i.len() - pocket_at) - base.as_ptr() as usize;
        }
        boards.push(setup);
        let rest = trim_ws(rest);
        match rest.strip_prefix('|') {
            Some(next) if boards.len() == 1 => i = trim_ws(next),
            Some(_) => {
                return Err(to_err(Located {
                    field: FenField::Record,
                    err: NomErr::new(rest, "at most two boards (`A | B`)"),
                }));
            }
            None if rest.trim_end().is_empty() => break,
            None => {
                return Err(to_err(Located {
                    field: FenField::Record,
                    err: NomErr::new(rest, "the end of the FEN or ` | ` and a second board"),
                }));
            }
        }
    }
    let mut fen = match <[Setup; 2]>::try_from(boards) {
        Ok(pair) => Fen::Pair(Box::new(pair)),
        Err(mut one) => Fen::Single(one.pop().expect("one board")),
    };
    if let (Some(e), Fen::Single(setup)) = (&epd, &mut fen)
        && !e.clocks
    {
        for op in &e.operations {
            let number = op.operands.first().and_then(|n| n.parse().ok());
            match (op.opcode.as_str(), number) {
                ("hmvc", Some(n)) => setup.halfmoves = n,
                ("fmvn", Some(n)) => setup.fullmoves = n,
                _ => {}
            }
        }
    }
    Ok((
        ParsedFen {
            fen,
            dialect,
            board_dialects,
            epd,
        },
        pockets_at,
    ))
}

impl Position {
    /// The position of a one-board FEN in any dialect, under `rules` (when `None`, the
    /// default rules of the variant guessed from the FEN: see [`guess_variant`]).
    ///
    /// ```
    /// use pocketfen::{Position, Rules, Variant};
    /// let pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2N/Pp w - - 0 1", None)?;
    /// assert_eq!(pos.variant(), Variant::Crazyhouse);
    ///
    /// // Loop's rules, and a drop may not give mate.
    /// let rules = Rules::new(Variant::Loop).with_drop_mate(false);
    /// let pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2N/Pp w - - 0 1", Some(rules))?;
    /// assert_eq!(pos.rules(), rules);
    /// # Ok::<_, pocketfen::notation::fen::FenPositionError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`FenPositionError`]: the FEN does not parse, is a bughouse pair, or is not a legal
    /// position of the variant.
    pub fn from_fen(text: &str, rules: Option<Rules>) -> Result<Position, FenPositionError> {
        let parsed = parse(text, None).map_err(FenPositionError::Parse)?;
        let rules = rules.unwrap_or_else(|| Rules::new(guess_variant(&parsed.fen)));
        let Fen::Single(setup) = parsed.fen else {
            return Err(FenPositionError::Pair);
        };
        Position::from_setup(&setup, rules).map_err(FenPositionError::Illegal)
    }
}

/// A FEN that gives no position to play from.
#[derive(Debug, Clone)]
pub enum FenPositionError {
    /// It does not parse.
    Parse(ParseFenError),
    /// It is a bughouse pair (one board is played at a time).
    Pair,
    /// It is not a legal position of the variant.
    Illegal(PositionError),
}

impl fmt::Display for FenPositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenPositionError::Parse(e) => e.fmt(f),
            FenPositionError::Pair => f.write_str("a bughouse pair; give board A or B"),
            FenPositionError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenPositionError {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fen = self.to_setup().display(FenDialect::Bracket).to_string();
        write!(f, "Position({fen}, {:?})", self.rules())
    }
}

impl FromStr for Fen {
    type Err = ParseFenError;
    /// Parses a FEN or a bughouse pair in any dialect.
    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        parse(s, None).map(|p| p.fen)
    }
}

impl FromStr for Setup {
    type Err = ParseFenError;
    /// Parses a single-board FEN in any dialect.
    fn from_str(s: &str) -> Result<Setup, ParseFenError> {
        match parse(s, None)?.fen {
            Fen::Single(setup) => Ok(setup),
            Fen::Pair(_) => {
                let at = s.find('|').unwrap_or(0);
                Err(ParseFenError {
                    column: super::nomerr::char_column(s, at),
                    field: FenField::Record,
                    expected: "a single board, not a bughouse pair",
                    found: "`|`".to_owned(),
                })
            }
        }
    }
}

/// How `fen convert` turns a line into another dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Conversion {
    /// The dialect to read (`None`: any; with one, a pocket spelled another way is an
    /// error).
    pub from: Option<FenDialect>,
    /// The dialect to write.
    pub to: FenDialect,
    /// The variant the positions are of (`None`: told from each line, see
    /// [`guess_variant`]). A pocket variant's boards are written with their pockets, empty
    /// ones too (a FEN that says nothing of a pocket then gets one); a variant without
    /// drops is written without, and a pocket with pieces is an error.
    pub variant: Option<Variant>,
}

impl Conversion {
    /// Any dialect to `to`, the variant told from each line.
    pub fn to(to: FenDialect) -> Conversion {
        Conversion {
            from: None,
            to,
            variant: None,
        }
    }
}

/// Converts one FEN (or EPD) line to `conv.to`, appending it to `out`: the work of
/// `pocketfen fen convert` per line. The en passant square is written only when an en
/// passant capture there is legal (as everywhere pocketfen writes a FEN); an EPD line
/// stays EPD, its operations as written. Returns the dialect the line was read in.
///
/// ```
/// use pocketfen::notation::fen::{self, Conversion, FenDialect};
/// use pocketfen::Variant;
/// let mut out = String::new();
/// let conv = Conversion { variant: Some(Variant::Crazyhouse), ..Conversion::to(FenDialect::Lichess) };
/// fen::convert_line("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2", &conv, &mut out)?;
/// assert_eq!(out, "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 2");
/// # Ok::<_, fen::ParseFenError>(())
/// ```
///
/// # Errors
///
/// [`ParseFenError`] when the line does not parse, or has a pocket or promoted pieces
/// that `conv.variant` has none of; `out` is unchanged.
pub fn convert_line(
    line: &str,
    conv: &Conversion,
    out: &mut String,
) -> Result<Option<FenDialect>, ParseFenError> {
    let (mut parsed, pockets_at) = parse_located(line, conv.from)?;
    let base = line.trim_end_matches(['\r', '\n']);
    // A pair is bughouse, as `fen check` says: both boards get their pockets.
    let variant = conv
        .variant
        .or_else(|| matches!(parsed.fen, Fen::Pair(_)).then_some(Variant::Bughouse));
    if let Some(variant) = variant {
        set_variant(&mut parsed.fen, variant, base, &pockets_at)?;
    }
    let variant = variant.unwrap_or_else(|| guess_variant(&parsed.fen));
    for setup in parsed.fen.boards_mut() {
        setup.ep_square = Position::fen_ep_square(setup, Rules::new(variant));
    }
    match (&parsed.epd, &parsed.fen) {
        (Some(epd), Fen::Single(setup))
            if conv.to == FenDialect::Chesscom
                && (setup.promoted.any()
                    || setup
                        .pockets
                        .is_some_and(|p| p.white.count() + p.black.count() > 0)) =>
        {
            let ops = base.rfind(epd.text.trim_start()).unwrap_or(base.len());
            let (column, found) = locate(base, &base[ops..]);
            return Err(ParseFenError {
                column,
                field: FenField::Operations,
                expected: "an EPD line without pocket pieces or promoted pieces for Chess.com's dialect (its pocket and squares would read as EPD opcodes)",
                found,
            });
        }
        (Some(epd), Fen::Single(setup)) => {
            write::append_fields(out, setup, conv.to, epd.clocks);
            out.push_str(&epd.text);
        }
        _ => append_fen(out, &parsed.fen, conv.to, None),
    }
    Ok(parsed.dialect)
}

/// Gives each board the pockets `variant` has: empty ones for a pocket variant when the
/// FEN spelled none, none for a variant without drops (an error when it held pieces, or a
/// piece is marked promoted).
fn set_variant(
    fen: &mut Fen,
    variant: Variant,
    base: &str,
    pockets_at: &[usize; 2],
) -> Result<(), ParseFenError> {
    let error = |offset: usize, field, expected| {
        let (column, found) = locate(base, &base[offset.min(base.len())..]);
        ParseFenError {
            column,
            field,
            expected,
            found,
        }
    };
    for (n, setup) in fen.boards_mut().iter_mut().enumerate() {
        if variant.has_drops() {
            setup.pockets.get_or_insert_with(ByColor::default);
            continue;
        }
        if let Some(p) = setup.pockets.take()
            && !(p.white.is_empty() && p.black.is_empty())
        {
            return Err(error(
                pockets_at[n],
                FenField::Pocket,
                "no pocket with pieces (the variant has no drops)",
            ));
        }
        if setup.promoted.any() {
            let board_start = if n == 0 {
                0
            } else {
                base.find('|').unwrap_or(0)
            };
            let mark = base[board_start..]
                .find('~')
                .map_or(board_start, |m| board_start + m);
            return Err(error(
                mark,
                FenField::Board,
                "no promoted-piece mark `~` (the variant has no drops)",
            ));
        }
    }
    Ok(())
}

/// A FEN (one board, or a bughouse pair) as a dialect writes it: what
/// [`Setup::display`] and [`Fen::display`] give. It is [`fmt::Display`], and
/// [`FenDisplay::append_to`] writes it into a buffer without the formatting machinery.
///
/// ```
/// use pocketfen::notation::fen::FenDialect;
/// use pocketfen::Setup;
/// let setup = Setup::crazyhouse_start();
/// assert_eq!(
///     setup.display(FenDialect::Lichess).to_string(),
///     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
/// );
/// let mut out = String::from("FEN: ");
/// setup.display(FenDialect::Xboard).append_to(&mut out);
/// assert!(out.ends_with("RNBQKBNR[-] w KQkq - 0 1"));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct FenDisplay<'a> {
    what: Printed<'a>,
    dialect: FenDialect,
}

#[derive(Debug, Clone, Copy)]
enum Printed<'a> {
    Setup(&'a Setup),
    Fen(&'a Fen),
}

impl FenDisplay<'_> {
    /// Appends the FEN to `out`.
    pub fn append_to(&self, out: &mut String) {
        match self.what {
            Printed::Setup(s) => append_setup(out, s, self.dialect, None),
            Printed::Fen(f) => append_fen(out, f, self.dialect, None),
        }
    }

    /// Appends the FEN to `out` as [`FenDisplay::append_to`] does, its board written
    /// from the board `cache` wrote last (faster for a game's positions, ply after ply).
    pub fn append_with(&self, out: &mut String, cache: &mut BoardCache) {
        match self.what {
            Printed::Setup(s) => append_setup(out, s, self.dialect, Some(cache)),
            Printed::Fen(f) => append_fen(out, f, self.dialect, Some(cache)),
        }
    }
}

impl fmt::Display for FenDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::with_capacity(96);
        self.append_to(&mut out);
        f.write_str(&out)
    }
}

impl Setup {
    /// This board's FEN in `dialect` (see [`FenDisplay`]).
    pub fn display(&self, dialect: FenDialect) -> FenDisplay<'_> {
        FenDisplay {
            what: Printed::Setup(self),
            dialect,
        }
    }
}

impl Fen {
    /// This FEN line in `dialect`: one board, or a pair joined by ` | ` (see
    /// [`FenDisplay`]).
    pub fn display(&self, dialect: FenDialect) -> FenDisplay<'_> {
        FenDisplay {
            what: Printed::Fen(self),
            dialect,
        }
    }
}

/// The setup that a print of `setup` in `dialect` parses back as: `setup` itself, with a
/// full-move number of 0 read (and written) as 1 and empty pockets for promoted pieces
/// without a pocket, in every dialect but Chess.com's, which also writes no pocket field
/// when the pockets are empty and nothing is promoted.
pub fn read_back(setup: &Setup, dialect: FenDialect) -> Setup {
    let mut s = setup.clone();
    s.fullmoves = s.fullmoves.max(1);
    if s.promoted.any() && s.pockets.is_none() {
        s.pockets = Some(ByColor::default());
    }
    if dialect == FenDialect::Chesscom
        && let Some(p) = s.pockets
        && p.white.is_empty()
        && p.black.is_empty()
        && s.promoted.is_empty()
    {
        s.pockets = None;
    }
    s
}

#[cfg(test)]
mod tests;
