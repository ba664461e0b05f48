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
    pub fn name(self) -> &'static str {
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

impl FromStr for FenDialect {
    type Err = crate::name::ParseNameError;
    /// `lichess`, `xboard`, `chesscom` or `bracket` (any letter case; `chess.com` too).
    fn from_str(s: &str) -> Result<FenDialect, crate::name::ParseNameError> {
        let l = s.trim().to_ascii_lowercase();
        FenDialect::ALL
            .into_iter()
            .find(|d| d.name() == l || (l == "chess.com" && *d == FenDialect::Chesscom))
            .ok_or_else(|| {
                crate::name::ParseNameError::new(
                    "dialect",
                    s,
                    &["lichess", "xboard", "chesscom", "bracket"],
                )
            })
    }
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
        _ => append_fen(out, &parsed.fen, conv.to),
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
            Printed::Setup(s) => append_setup(out, s, self.dialect),
            Printed::Fen(f) => append_fen(out, f, self.dialect),
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
mod tests {
    use super::*;

    fn conv(s: &str, d: FenDialect) -> String {
        parse(s, None).unwrap().fen.display(d).to_string()
    }

    #[test]
    fn lichess_to_every_dialect() {
        let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Pq w KQkq - 0 1";
        assert_eq!(conv(s, FenDialect::Lichess), s);
        assert_eq!(
            conv(s, FenDialect::Xboard),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Pq] w KQkq - 0 1"
        );
        assert_eq!(
            conv(s, FenDialect::Chesscom),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Pq"
        );
    }

    #[test]
    fn empty_pockets_per_dialect() {
        let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
        assert_eq!(
            conv(s, FenDialect::Xboard),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1"
        );
        assert_eq!(
            conv(s, FenDialect::Bracket),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"
        );
        assert_eq!(
            conv(s, FenDialect::Chesscom),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
        assert_eq!(
            conv("8/8/8/8/8/8/8/8[-] w - - 0 1", FenDialect::Lichess),
            "8/8/8/8/8/8/8/8/ w - - 0 1"
        );
    }

    #[test]
    fn chesscom_promoted_squares_become_marks() {
        let s = "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 NNBRpr h1";
        let p = parse(s, None).unwrap();
        assert_eq!(p.dialect, Some(FenDialect::Chesscom));
        // Written in Q R B N P order, as Chess.com's one real export (`QNrp`) has it.
        assert_eq!(
            p.fen.display(FenDialect::Chesscom).to_string(),
            "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q w - - 0 26 RBNNrp h1"
        );
        assert_eq!(
            p.fen.display(FenDialect::Lichess).to_string(),
            "r2q1r1k/2p1ppb1/p2p2pp/3P1p2/B6B/2N2NPp/1PP2P1K/3Q3q~/NNBRpr w - - 0 26"
        );
        for joined in ["h1a8", "h1,a8"] {
            let fen = format!("r6k/8/8/8/8/8/8/7q w - - 0 26 Q {joined}");
            let p = parse(&fen, None).unwrap();
            assert_eq!(p.fen.boards()[0].promoted.count(), 2, "{joined}");
        }
        let p = parse("r6k/8/8/8/8/8/8/7q w - - 0 26 Q h1 a8", None).unwrap();
        assert_eq!(p.fen.boards()[0].promoted.count(), 2);
    }

    #[test]
    fn leniencies() {
        let canon = "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp] b - - 39 20";
        for s in [
            "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[rN2Np] b - - 39 20",
            "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp]_b_-_-_39_20",
            "  r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp]   b  -  - 39 20  ",
            "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp] b - - 3+3 39 20",
            "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNrp] b - - 39 20 +0+2",
        ] {
            assert_eq!(conv(s, FenDialect::Bracket), canon, "{s}");
        }
        assert_eq!(
            conv("8/8/8/8/8/8/8/K6k b - -", FenDialect::Lichess),
            "8/8/8/8/8/8/8/K6k b - - 0 1"
        );
        assert_eq!(
            conv(
                "8/5p2/5Pkq/2pp1Q2/6P1/3p3P/1PP4K/r7 b - - QNrp",
                FenDialect::Lichess
            ),
            "8/5p2/5Pkq/2pp1Q2/6P1/3p3P/1PP4K/r7/NQpr b - - 0 1"
        );
    }

    /// Issue 23.13: EPD's four fields and its operations, in the standard's form and the
    /// perft suites'; `hmvc`/`fmvn` are the clocks; a broken operation is located.
    #[test]
    fn epd_lines() {
        let p = parse(
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3; bm Bb5 Bc4; id \"a; b\";",
            None,
        )
        .unwrap();
        let Fen::Single(setup) = &p.fen else {
            panic!("one board")
        };
        assert_eq!((setup.halfmoves, setup.fullmoves), (2, 3));
        let epd = p.epd.unwrap();
        assert!(!epd.clocks);
        let ops: Vec<(&str, Vec<&str>)> = epd
            .operations
            .iter()
            .map(|o| {
                (
                    o.opcode.as_str(),
                    o.operands.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            ops,
            [
                ("hmvc", vec!["2"]),
                ("fmvn", vec!["3"]),
                ("bm", vec!["Bb5", "Bc4"]),
                ("id", vec!["\"a; b\""])
            ]
        );
        let perft = parse("8/8/8/8/8/8/8/K6k w - - 5 9 ;D1 3 ;D2 9", None).unwrap();
        let epd = perft.epd.unwrap();
        assert!(epd.clocks);
        assert_eq!(epd.operations.len(), 2);
        assert_eq!(perft.fen.boards()[0].fullmoves, 9);
        // A plain FEN is no EPD.
        assert!(
            parse("8/8/8/8/8/8/8/K6k w - - 0 1", None)
                .unwrap()
                .epd
                .is_none()
        );
        for (line, column, expected) in [
            (
                "8/8/8/8/8/8/8/K6k w - - bm Kb1;; id 1;",
                32,
                "an EPD opcode",
            ),
            ("8/8/8/8/8/8/8/K6k w - - 1bm Kb1;", 25, "an EPD opcode"),
            ("8/8/8/8/8/8/8/K6k w - - id \"open;", 28, "a `\"`"),
            (
                "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;4D 9",
                36,
                "an EPD opcode",
            ),
        ] {
            let e = parse(line, None).unwrap_err();
            assert_eq!(
                (e.column, e.field),
                (column, FenField::Operations),
                "{line}: {e}"
            );
            assert!(e.expected.starts_with(expected), "{line}: {e}");
        }
        let e = parse(
            "8/8/8/8/8/8/8/K6k w - - id 1; | 8/8/8/8/8/8/8/K6k w - -",
            None,
        )
        .unwrap_err();
        assert_eq!(e.field, FenField::Record, "{e}");
    }

    /// Issue 23.14: each dialect writes the pocket in its home programs' order (Lichess and
    /// Xboard P N B R Q, the bracket form and Chess.com Q R B N P), white's letters first.
    #[test]
    fn pocket_order_per_dialect() {
        let s = "4k3/8/8/8/8/8/8/4K3/qrbnpQRBNP w - - 0 1";
        let fen = parse(s, None).unwrap().fen;
        for (d, pocket) in [
            (FenDialect::Lichess, "/PNBRQpnbrq "),
            (FenDialect::Xboard, "[PNBRQpnbrq] "),
            (FenDialect::Bracket, "[QRBNPqrbnp] "),
            (FenDialect::Chesscom, " 0 1 QRBNPqrbnp"),
        ] {
            let printed = fen.display(d).to_string();
            assert!(printed.contains(pocket), "{d}: {printed}");
        }
    }

    #[test]
    fn bughouse_pair() {
        let a = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
        let s = format!("{a} | {a}");
        let p = parse(&s, None).unwrap();
        assert_eq!(p.fen.boards().len(), 2);
        assert_eq!(p.fen.display(FenDialect::Lichess).to_string(), s);
        assert!(parse(&format!("{s} | {a}"), None).is_err());
    }

    #[test]
    fn errors_name_column_and_field() {
        let cases = [
            (
                "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                18,
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",
                35,
                FenField::Board,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                45,
                FenField::Turn,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkX - 0 1",
                50,
                FenField::Castling,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                52,
                FenField::EnPassant,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Kq] w KQkq - 0 1",
                45,
                FenField::Pocket,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[q w KQkq - 0 1",
                46,
                FenField::Pocket,
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
                56,
                FenField::Clocks,
            ),
        ];
        for (s, col, f) in cases {
            let e = parse(s, None).unwrap_err();
            assert_eq!((e.column, e.field), (col, f), "{s}: {e}");
        }
    }

    /// After the en passant square: what each place expects, and a number after the
    /// full-move number is read as a Chess.com pocket count (which needs its piece).
    #[test]
    fn the_fields_after_en_passant_say_what_they_expect() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -";
        for (tail, column, field, expected) in [
            (
                " x",
                54,
                FenField::Clocks,
                "a half-move clock, a three-check counter or a Chess.com pocket",
            ),
            (
                " 0 x",
                56,
                FenField::Clocks,
                "a full-move number or a Chess.com pocket",
            ),
            (
                " 0 1 7",
                59,
                FenField::Pocket,
                "a pocket piece letter after the count",
            ),
            (
                " 0 1 !",
                58,
                FenField::Pocket,
                "a Chess.com pocket (P N B R Q, either case) or the end of the FEN",
            ),
        ] {
            let s = format!("{start}{tail}");
            let e = parse(&s, None).unwrap_err();
            assert_eq!(
                (e.column, e.field, e.expected),
                (column, field, expected),
                "{s}: {e}"
            );
        }
    }

    /// A pocket count must be followed by the piece it counts, whatever the count (1 too),
    /// in each pocket style; the error is after the digits.
    #[test]
    fn a_pocket_count_needs_its_piece() {
        let board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";
        for (pocket, after) in [
            ("[P1]", 47),
            ("[1]", 46),
            ("[P30]", 48),
            ("/Q2 ", 47),
            ("/1 ", 46),
        ] {
            let s = format!("{board}{pocket} w KQkq - 0 1");
            let e = parse(&s, None).unwrap_err();
            assert_eq!(
                (e.column, e.field, e.expected),
                (
                    after,
                    FenField::Pocket,
                    "a pocket piece letter after the count"
                ),
                "{s}: {e}"
            );
        }
    }

    #[test]
    fn dialect_is_enforced_when_given() {
        let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
        assert!(parse(s, Some(FenDialect::Xboard)).is_ok());
        let e = parse(s, Some(FenDialect::Lichess)).unwrap_err();
        assert_eq!((e.column, e.field), (44, FenField::Pocket));
    }

    /// Issue 14.7: a Chess.com pocket where another dialect is expected is located where
    /// the pocket starts.
    #[test]
    fn a_foreign_pocket_is_located_where_it_starts() {
        let line = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 Pq";
        let e = parse(line, Some(FenDialect::Lichess)).unwrap_err();
        assert_eq!((e.column, e.field), (58, FenField::Pocket));
        assert_eq!(e.found, "`Pq`");
        let e = parse(&format!("{line} a1"), Some(FenDialect::Xboard)).unwrap_err();
        assert_eq!(e.column, 58);
        let squares = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 a1";
        assert_eq!(
            parse(squares, Some(FenDialect::Lichess))
                .unwrap_err()
                .column,
            58
        );
    }

    /// `read_back` says what a print parses back as, in every dialect, for the positions
    /// of random games (with and without pockets, promoted pieces and en passant squares)
    /// and for a full-move number of 0.
    #[test]
    fn read_back_is_what_a_print_parses_as() {
        let mut setups: Vec<Setup> = crate::position::testing::random_positions()
            .iter()
            .step_by(5)
            .map(Position::to_setup)
            .collect();
        let mut zero = setups[0].clone();
        zero.fullmoves = 0;
        setups.push(zero);
        let mut empty_pockets = Position::start(crate::variant::Variant::Crazyhouse).to_setup();
        setups.push(empty_pockets.clone());
        empty_pockets.fullmoves = 0;
        setups.push(empty_pockets);
        let mut changed = 0;
        for setup in &setups {
            for d in FenDialect::ALL {
                let printed = setup.display(d).to_string();
                let back: Setup = printed.parse().unwrap();
                assert_eq!(back, read_back(setup, d), "{printed}");
                changed += usize::from(back != *setup);
            }
        }
        assert!(changed >= 4, "{changed}");
    }

    #[test]
    fn position_errors_and_debug_say_what_they_are() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let e =
            Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", None).unwrap_err();
        let parse_error = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x", None).unwrap_err();
        assert_eq!(e.to_string(), parse_error.to_string());
        assert!(e.to_string().contains("side to move"), "{e}");
        let pair = format!("{start} | {start}");
        let e = Position::from_fen(&pair, None).unwrap_err();
        assert_eq!(e.to_string(), "a bughouse pair; give board A or B");
        let e = Position::from_fen("4k3/8/8/8/8/8/8/4K2K w - - 0 1", None).unwrap_err();
        assert!(matches!(e, FenPositionError::Illegal(_)));
        assert!(e.to_string().contains("king"), "{e}");
        let p = Position::from_fen(start, None).unwrap();
        assert_eq!(
            format!("{p:?}"),
            format!(
                "Position(rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1, {:?})",
                p.rules()
            )
        );
        // A pair read as one board is refused at its `|`.
        let e = pair.parse::<Setup>().unwrap_err();
        assert_eq!(e.column, start.len() + 2);
        assert_eq!(e.field, FenField::Record);
    }

    /// Columns count characters, as PGN problems do: the `é`s of an EPD string operand
    /// before the error are one column each, not two.
    #[test]
    fn error_columns_count_characters() {
        let ascii = parse(r#"4k3/8/8/8/8/8/8/4K3 w - - id "ee"; c0 "x"#, None).unwrap_err();
        let accents = parse(r#"4k3/8/8/8/8/8/8/4K3 w - - id "éé"; c0 "x"#, None).unwrap_err();
        assert_eq!((ascii.column, accents.column), (39, 39));
        assert_eq!(accents.field, FenField::Operations);
    }
}
