//! FEN in the dialects of Lichess, Xboard/WinBoard, Chess.com and the generic bracket form.
//!
//! ```
//! use pocketfen::notation::fen::{self, FenDialect};
//! let parsed = fen::parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Pq w KQkq - 0 1", None)?;
//! assert_eq!(parsed.dialect, Some(FenDialect::Lichess));
//! assert_eq!(
//!     fen::to_string(&parsed.fen, FenDialect::Xboard),
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
//! Each dialect prints as that site writes (see `shared/formats.md`):
//!
//! - [`FenDialect::Lichess`]: `…/RNBQKBNR/Pq`, pocket white then black, each P N B R Q,
//!   a trailing `/` for an empty pocket, `~` after promoted pieces.
//! - [`FenDialect::Xboard`]: `…/RNBQKBNR[Pq]`, same order, `[-]` when empty, `~`.
//! - [`FenDialect::Bracket`]: as Xboard but `[]` when empty (python-chess, shakmaty,
//!   chessops and Fairy-Stockfish read it).
//! - [`FenDialect::Chesscom`]: no `~`; the pocket after the full-move number and the
//!   promoted squares after it. Guesses, since no example shows them: an empty pocket is
//!   not written at all (so a crazyhouse position with empty pockets reads back as a
//!   pocketless FEN); when pieces are promoted but the pocket is empty the pocket is
//!   written `-`; several promoted squares are separated by spaces. Pocket order is
//!   canonical P N B R Q (Chess.com's own order varies).
//!
//! Castling letters print as they were read (standard, X-FEN or Shredder-FEN).

use std::fmt;
use std::fmt::Write as _;
use std::str::FromStr;

use nom::Parser;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{opt, recognize};
use nom::error::context;

use super::nomerr::{NomErr, Res, cut_fail, fail, locate};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::setup::{Castling, CastlingFlag, Fen, Pocket, Setup};
use crate::types::{ByColor, Color, Piece, Role, Square};

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

/// The FEN field a parse error is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FenField {
    Board,
    Pocket,
    Turn,
    Castling,
    EnPassant,
    Clocks,
    PromotedSquares,
    /// The whole record (the bughouse separator, or text after the last field).
    Record,
}

impl FenField {
    pub fn name(self) -> &'static str {
        match self {
            FenField::Board => "board",
            FenField::Pocket => "pocket",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Clocks => "clocks",
            FenField::PromotedSquares => "promoted squares",
            FenField::Record => "record",
        }
    }
}

/// A FEN that could not be read: where (byte column, 1-based), in which field, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFenError {
    pub column: usize,
    pub field: FenField,
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
    pub fen: Fen,
    pub dialect: Option<FenDialect>,
}

/// How a board's pocket was spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    None,
    Slash,
    BracketDash,
    Bracket,
    Chesscom,
}

impl Style {
    fn dialect(self) -> Option<FenDialect> {
        match self {
            Style::None => None,
            Style::Slash => Some(FenDialect::Lichess),
            Style::BracketDash => Some(FenDialect::Xboard),
            Style::Bracket => Some(FenDialect::Bracket),
            Style::Chesscom => Some(FenDialect::Chesscom),
        }
    }

    fn fits(self, d: FenDialect) -> bool {
        matches!(
            (self, d),
            (Style::None, _)
                | (Style::Slash, FenDialect::Lichess)
                | (
                    Style::BracketDash | Style::Bracket,
                    FenDialect::Xboard | FenDialect::Bracket
                )
                | (Style::Chesscom, FenDialect::Chesscom)
        )
    }
}

/// An error tagged with its field, still holding the remaining input.
struct Located<'a> {
    field: FenField,
    err: NomErr<'a>,
}

type FieldRes<'a, T> = Result<(&'a str, T), Located<'a>>;

/// Runs a field parser; any nom error becomes an error of that field.
fn field<'a, T>(f: FenField, res: Res<'a, T>) -> FieldRes<'a, T> {
    res.map_err(|e| match e {
        nom::Err::Error(err) | nom::Err::Failure(err) => Located { field: f, err },
        nom::Err::Incomplete(_) => Located {
            field: f,
            err: NomErr::new("", "more input"),
        },
    })
}

/// `sep = 1*(SP / HTAB / "_")`
fn sep(i: &str) -> Res<'_, &str> {
    take_while1(|c| c == ' ' || c == '_' || c == '\t').parse(i)
}

/// The next field's text, if a separator and a token that is not the pair separator follow.
fn next_field(i: &str) -> Option<&str> {
    let (rest, _) = sep(i).ok()?;
    if rest.is_empty() || rest.starts_with('|') {
        None
    } else {
        Some(rest)
    }
}

/// `rank = 1*(piece ["~"] / digit)`, exactly 8 squares, placed on rank `r` (0 = rank 1).
fn rank<'a>(mut i: &'a str, r: u8, board: &mut Board, promoted: &mut Bitboard) -> Res<'a, ()> {
    let mut file = 0u8;
    let start = i;
    loop {
        let mut chars = i.chars();
        match chars.next() {
            Some(d @ '1'..='8') => {
                file += d as u8 - b'0';
                if file > 8 {
                    return cut_fail(i, "a rank of exactly 8 squares");
                }
                i = chars.as_str();
            }
            Some(c) if Piece::from_char(c).is_some() => {
                if file >= 8 {
                    return cut_fail(i, "a rank of exactly 8 squares");
                }
                let sq = Square::new(r * 8 + file);
                board.put(sq, Piece::from_char(c).expect("piece letter"));
                i = chars.as_str();
                if let Some(rest) = i.strip_prefix('~') {
                    promoted.set(sq, true);
                    i = rest;
                }
                file += 1;
            }
            _ => break,
        }
    }
    match file {
        8 => Ok((i, ())),
        0 if i.len() == start.len() => fail(i, "a piece letter or a digit 1-8"),
        _ => cut_fail(i, "a rank of exactly 8 squares"),
    }
}

/// `board = rank 7("/" rank)`
fn board(mut i: &str) -> Res<'_, (Board, Bitboard)> {
    let mut board = Board::empty();
    let mut promoted = Bitboard::EMPTY;
    for r in (0..8u8).rev() {
        if r != 7 {
            i = match char::<&str, NomErr>('/').parse(i) {
                Ok((rest, _)) => rest,
                Err(_) => return cut_fail(i, "'/' and 8 ranks in all"),
            };
        }
        i = rank(i, r, &mut board, &mut promoted)
            .map_err(|e| match e {
                nom::Err::Error(e) => nom::Err::Failure(e),
                e => e,
            })?
            .0;
    }
    Ok((i, (board, promoted)))
}

/// `holdings = *([count] piece-letter)`; a digit count repeats the letter after it.
fn holdings(mut i: &str) -> Res<'_, ByColor<Pocket>> {
    let mut pockets = ByColor::<Pocket>::default();
    loop {
        let (rest, count) = opt(digit1).parse(i)?;
        let count: u32 = match count {
            Some(d) => match d.parse() {
                Ok(n) if n <= 255 => n,
                _ => return cut_fail(i, "a count of at most 255"),
            },
            None => 1,
        };
        let mut chars = rest.chars();
        match chars.next().and_then(Piece::from_char) {
            Some(p) if p.role == Role::King => {
                return cut_fail(
                    rest,
                    "a pocket piece (P N B R Q); kings never go into a pocket",
                );
            }
            Some(p) => {
                let slot = &mut pockets[p.color].0[p.role as usize];
                match u8::try_from(u32::from(*slot) + count) {
                    Ok(n) => *slot = n,
                    Err(_) => return cut_fail(i, "at most 255 of one piece in a pocket"),
                }
                i = chars.as_str();
            }
            None if count != 1 || rest.len() != i.len() => {
                return cut_fail(rest, "a pocket piece letter after the count");
            }
            None => return Ok((i, pockets)),
        }
    }
}

/// `pocket = "/" holdings / "[" ("-" / holdings) "]"`
fn pocket(i: &str) -> Res<'_, Option<(Style, ByColor<Pocket>)>> {
    if let Some(rest) = i.strip_prefix('/') {
        let (rest, p) = holdings(rest)?;
        return match rest.chars().next() {
            None | Some(' ' | '_' | '\t' | '|') => Ok((rest, Some((Style::Slash, p)))),
            Some(_) => cut_fail(rest, "a pocket piece (P N B R Q, either case) or a space"),
        };
    }
    if let Some(rest) = i.strip_prefix('[') {
        let (rest, style, p) = match rest.strip_prefix('-') {
            Some(rest) => (rest, Style::BracketDash, ByColor::default()),
            None => {
                let (rest, p) = holdings(rest)?;
                (rest, Style::Bracket, p)
            }
        };
        return match rest.strip_prefix(']') {
            Some(rest) => Ok((rest, Some((style, p)))),
            None => cut_fail(rest, "a pocket piece (P N B R Q, either case) or ']'"),
        };
    }
    Ok((i, None))
}

/// `turn = "w" / "b"`
fn turn(i: &str) -> Res<'_, Color> {
    let (rest, c) = context("`w` or `b`", one_of("wb")).parse(i)?;
    Ok((rest, Color::from_white(c == 'w')))
}

/// `castling = "-" / 1*4(K Q k q A-H a-h)`, no letter twice.
fn castling(i: &str) -> Res<'_, Castling> {
    if let Some(rest) = i.strip_prefix('-') {
        return Ok((rest, Castling::none()));
    }
    let (rest, letters) = context(
        "`-` or castling letters (KQkq, or files A-H/a-h)",
        take_while1(|c: char| CastlingFlag::from_char(c).is_some()),
    )
    .parse(i)?;
    let mut out = Castling::none();
    for (n, c) in letters.char_indices() {
        if !out.push(CastlingFlag::from_char(c).expect("castling letter")) {
            return cut_fail(&i[n..], "at most four distinct castling letters");
        }
    }
    Ok((rest, out))
}

/// `square = file rank`
fn square(i: &str) -> Res<'_, Square> {
    match i.as_bytes() {
        [f @ b'a'..=b'h', r @ b'1'..=b'8', ..] => {
            Ok((&i[2..], Square::new((r - b'1') * 8 + (f - b'a'))))
        }
        _ => fail(i, "a square (a1-h8)"),
    }
}

/// `ep = "-" / square`
fn ep(i: &str) -> Res<'_, Option<Square>> {
    if let Some(rest) = i.strip_prefix('-') {
        return Ok((rest, None));
    }
    let (rest, sq) = context("`-` or an en passant square", square).parse(i)?;
    Ok((rest, Some(sq)))
}

/// `clock = 1*DIGIT` (a u32).
fn clock(i: &str) -> Res<'_, u32> {
    let (rest, d) = digit1(i)?;
    match d.parse() {
        Ok(n) => Ok((rest, n)),
        Err(_) => cut_fail(i, "a number below 2^32"),
    }
}

/// `checks = 1*DIGIT "+" 1*DIGIT / "+" 1*DIGIT "+" 1*DIGIT` (three-check counters, ignored).
fn checks(i: &str) -> Res<'_, &str> {
    recognize((opt(char('+')), digit1, char('+'), digit1)).parse(i)
}

/// `squares = square *([","] square)` (Chess.com promoted squares), each one occupied
/// (a mark on an empty square could not be written in any other dialect).
fn squares(mut i: &str, occupied: Bitboard) -> Res<'_, Bitboard> {
    let (rest, first) = square(i)?;
    if !occupied.contains(first) {
        return cut_fail(i, "a promoted square with a piece on it");
    }
    let mut bb = Bitboard::from_square(first);
    i = rest;
    loop {
        let after_comma = i.strip_prefix(',').unwrap_or(i);
        match square(after_comma) {
            Ok((_, sq)) if !occupied.contains(sq) => {
                return cut_fail(after_comma, "a promoted square with a piece on it");
            }
            Ok((rest, sq)) => {
                bb.set(sq, true);
                i = rest;
            }
            Err(_) if after_comma.len() != i.len() => {
                return cut_fail(after_comma, "a square (a1-h8) after ','");
            }
            Err(_) => return Ok((i, bb)),
        }
    }
}

/// Whether the token at `i` ends here (a separator, `|` or end).
fn at_token_end(i: &str) -> bool {
    matches!(i.chars().next(), None | Some(' ' | '_' | '\t' | '|'))
}

/// The fields after the e.p. square: clocks, check counters, Chess.com pocket and squares.
fn tail<'a>(mut i: &'a str, setup: &mut Setup, style: &mut Style) -> FieldRes<'a, ()> {
    #[derive(PartialEq, PartialOrd)]
    enum Seen {
        Ep,
        Half,
        Full,
        Pocket,
    }
    let mut seen = Seen::Ep;
    while let Some(tok) = next_field(i) {
        if let Ok((rest, _)) = checks(tok)
            && seen <= Seen::Full
            && at_token_end(rest)
        {
            i = rest;
            continue;
        }
        if seen < Seen::Full {
            let number = match clock(tok) {
                Err(nom::Err::Failure(err)) => {
                    return Err(Located {
                        field: FenField::Clocks,
                        err,
                    });
                }
                other => other.ok(),
            };
            if let Some((rest, n)) = number
                && at_token_end(rest)
            {
                if seen == Seen::Ep {
                    setup.halfmoves = n;
                    seen = Seen::Half;
                } else {
                    setup.fullmoves = n;
                    seen = Seen::Full;
                }
                i = rest;
                continue;
            }
        }
        if seen < Seen::Pocket {
            let is_dash = tok.starts_with('-') && at_token_end(&tok[1..]);
            if is_dash || tok.starts_with(|c: char| c.is_ascii_digit() || "PNBRQpnbrq".contains(c))
            {
                if *style != Style::None {
                    return Err(Located {
                        field: FenField::Pocket,
                        err: NomErr::new(tok, "no second pocket (this FEN already has one)"),
                    });
                }
                let (rest, p) = if is_dash {
                    (&tok[1..], ByColor::default())
                } else {
                    field(FenField::Pocket, holdings(tok))?
                };
                if !at_token_end(rest) {
                    return Err(Located {
                        field: FenField::Pocket,
                        err: NomErr::new(
                            rest,
                            "a pocket piece (P N B R Q, either case) or a space",
                        ),
                    });
                }
                setup.pockets = Some(p);
                *style = Style::Chesscom;
                seen = Seen::Pocket;
                i = rest;
                continue;
            }
        }
        if seen == Seen::Pocket {
            let (rest, bb) = field(
                FenField::PromotedSquares,
                squares(tok, setup.board.occupied()),
            )?;
            if !at_token_end(rest) {
                return Err(Located {
                    field: FenField::PromotedSquares,
                    err: NomErr::new(rest, "a square (a1-h8), ',' or a space"),
                });
            }
            setup.promoted |= bb;
            i = rest;
            continue;
        }
        let expected = match seen {
            Seen::Ep => "a half-move clock, a three-check counter or a Chess.com pocket",
            Seen::Half => "a full-move number or a Chess.com pocket",
            _ => "a Chess.com pocket (P N B R Q, either case) or the end of the FEN",
        };
        let f = if seen < Seen::Full {
            FenField::Clocks
        } else {
            FenField::Pocket
        };
        return Err(Located {
            field: f,
            err: NomErr::new(tok, expected),
        });
    }
    Ok((i, ()))
}

/// A field parser that must consume its whole token; leftovers are an error of that field.
fn whole_token<'a, T>(f: FenField, res: Res<'a, T>, expected: &'static str) -> FieldRes<'a, T> {
    let (rest, out) = field(f, res)?;
    if at_token_end(rest) {
        Ok((rest, out))
    } else {
        Err(Located {
            field: f,
            err: NomErr::new(rest, expected),
        })
    }
}

/// `fen = board [pocket] [sep turn [sep castling [sep ep [sep tail]]]]`
fn one_fen(i: &str) -> FieldRes<'_, (Setup, Style, usize)> {
    let (i, (board, promoted)) = field(FenField::Board, board(i))?;
    let pocket_at = i.len();
    let (mut i, pocket) = field(FenField::Pocket, pocket(i))?;
    if !at_token_end(i) {
        return Err(Located {
            field: FenField::Board,
            err: NomErr::new(
                i,
                "the end of the board field (8 ranks, then an optional pocket)",
            ),
        });
    }
    let (mut style, pockets) = match pocket {
        Some((s, p)) => (s, Some(p)),
        None => (Style::None, None),
    };
    let mut setup = Setup {
        board,
        promoted,
        pockets,
        ..Setup::empty()
    };
    if let Some(tok) = next_field(i) {
        let expected = "a space after the one-letter side to move (`w` or `b`)";
        (i, setup.turn) = whole_token(FenField::Turn, turn(tok), expected)?;
        if let Some(tok) = next_field(i) {
            let expected = "castling letters (KQkq, or files A-H/a-h)";
            (i, setup.castling) = whole_token(FenField::Castling, castling(tok), expected)?;
            if let Some(tok) = next_field(i) {
                let expected = "a space after the en passant square (or `-`)";
                (i, setup.ep_square) = whole_token(FenField::EnPassant, ep(tok), expected)?;
                i = tail(i, &mut setup, &mut style)?.0;
            }
        }
    }
    if !at_token_end(i) {
        return Err(Located {
            field: FenField::Record,
            err: NomErr::new(i, "a space between fields"),
        });
    }
    Ok((i, (setup, style, pocket_at)))
}

fn trim_ws(i: &str) -> &str {
    i.trim_start_matches([' ', '\t', '_'])
}

/// Parses one FEN line: a single FEN or a bughouse pair `A | B`, in any dialect
/// (`from = None`) or in the given one (a pocket spelled in another dialect is an error;
/// every listed leniency is still accepted).
///
/// # Errors
///
/// [`ParseFenError`] with the byte column, field and what was expected there.
pub fn parse(line: &str, from: Option<FenDialect>) -> Result<ParsedFen, ParseFenError> {
    let to_err = |l: Located<'_>| {
        let (column, found) = locate(line, l.err.at);
        ParseFenError {
            column,
            field: l.field,
            expected: l.err.expected,
            found,
        }
    };
    let mut boards = Vec::with_capacity(2);
    let mut dialect = None;
    let mut i = trim_ws(line.trim_end_matches(['\r', '\n']));
    loop {
        let (rest, (setup, style, pocket_at)) = one_fen(i).map_err(to_err)?;
        if let Some(d) = from
            && !style.fits(d)
        {
            let at = &i[i.len() - pocket_at..];
            let at = if style == Style::Chesscom { rest } else { at };
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
    let fen = match <[Setup; 2]>::try_from(boards) {
        Ok(pair) => Fen::Pair(Box::new(pair)),
        Err(mut one) => Fen::Single(one.pop().expect("one board")),
    };
    Ok(ParsedFen { fen, dialect })
}

impl fmt::Debug for crate::position::Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fen = setup_to_string(&self.to_setup(), FenDialect::Bracket);
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
                    column: at + 1,
                    field: FenField::Record,
                    expected: "a single board, not a bughouse pair",
                    found: "`|`".to_owned(),
                })
            }
        }
    }
}

fn write_pocket_letters(out: &mut String, pockets: &ByColor<Pocket>) {
    for color in Color::ALL {
        for role in Role::POCKET {
            let c = Piece { color, role }.char();
            for _ in 0..pockets[color].get(role) {
                out.push(c);
            }
        }
    }
}

fn write_board(out: &mut String, setup: &Setup, marks: bool) {
    for rank in (0..8u8).rev() {
        let mut empty = 0u8;
        for file in 0..8u8 {
            let sq = Square::new(rank * 8 + file);
            match setup.board.piece_at(sq) {
                Some(p) => {
                    if empty > 0 {
                        out.push((b'0' + empty) as char);
                        empty = 0;
                    }
                    out.push(p.char());
                    if marks && setup.promoted.contains(sq) {
                        out.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push((b'0' + empty) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
}

/// Appends `setup` as `dialect` writes it.
pub fn append_setup(out: &mut String, setup: &Setup, dialect: FenDialect) {
    write_board(out, setup, dialect != FenDialect::Chesscom);
    if let Some(p) = &setup.pockets {
        match dialect {
            FenDialect::Lichess => {
                out.push('/');
                write_pocket_letters(out, p);
            }
            FenDialect::Xboard | FenDialect::Bracket => {
                out.push('[');
                if dialect == FenDialect::Xboard && p.white.is_empty() && p.black.is_empty() {
                    out.push('-');
                } else {
                    write_pocket_letters(out, p);
                }
                out.push(']');
            }
            FenDialect::Chesscom => {}
        }
    }
    out.push(' ');
    out.push(setup.turn.char());
    out.push(' ');
    if setup.castling.is_empty() {
        out.push('-');
    }
    for f in setup.castling.iter() {
        out.push(f.char());
    }
    out.push(' ');
    match setup.ep_square {
        Some(sq) => {
            let _ = write!(out, "{sq}");
        }
        None => out.push('-'),
    }
    let _ = write!(out, " {} {}", setup.halfmoves, setup.fullmoves);
    if dialect == FenDialect::Chesscom
        && let Some(p) = &setup.pockets
    {
        let empty = p.white.is_empty() && p.black.is_empty();
        if !empty || setup.promoted.any() {
            out.push(' ');
            if empty {
                out.push('-');
            }
            write_pocket_letters(out, p);
            for sq in setup.promoted {
                let _ = write!(out, " {sq}");
            }
        }
    }
}

/// Appends a FEN line (one board, or a pair joined by ` | `) as `dialect` writes it.
pub fn append_fen(out: &mut String, fen: &Fen, dialect: FenDialect) {
    for (n, setup) in fen.boards().iter().enumerate() {
        if n > 0 {
            out.push_str(" | ");
        }
        append_setup(out, setup, dialect);
    }
}

/// Converts one FEN line (any dialect, or `from`) to `to`, appending it to `out`: the
/// work of `pocketfen fen convert` per line. Returns the dialect the line was read in.
///
/// # Errors
///
/// [`ParseFenError`] when the line does not parse; `out` is unchanged.
pub fn convert_line(
    line: &str,
    from: Option<FenDialect>,
    to: FenDialect,
    out: &mut String,
) -> Result<Option<FenDialect>, ParseFenError> {
    let parsed = parse(line, from)?;
    append_fen(out, &parsed.fen, to);
    Ok(parsed.dialect)
}

/// A FEN line as `dialect` writes it.
pub fn to_string(fen: &Fen, dialect: FenDialect) -> String {
    let mut out = String::with_capacity(96);
    append_fen(&mut out, fen, dialect);
    out
}

/// A single board as `dialect` writes it.
pub fn setup_to_string(setup: &Setup, dialect: FenDialect) -> String {
    let mut out = String::with_capacity(96);
    append_setup(&mut out, setup, dialect);
    out
}

/// The setup that a print of `setup` in `dialect` parses back as: `setup` itself in
/// every dialect but Chess.com's, which writes no pocket field when the pockets are empty
/// and nothing is promoted, and no promoted squares without a pocket field.
pub fn read_back(setup: &Setup, dialect: FenDialect) -> Setup {
    let mut s = setup.clone();
    if dialect == FenDialect::Chesscom {
        match s.pockets {
            None => s.promoted = Bitboard::EMPTY,
            Some(p) if p.white.is_empty() && p.black.is_empty() && s.promoted.is_empty() => {
                s.pockets = None;
            }
            Some(_) => {}
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn conv(s: &str, d: FenDialect) -> String {
        to_string(&parse(s, None).unwrap().fen, d)
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
        assert_eq!(to_string(&p.fen, FenDialect::Chesscom), s);
        assert_eq!(
            to_string(&p.fen, FenDialect::Lichess),
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
        let canon = "r4rk1/p2bppbp/6p1/2qpP3/5P2/2NBPQPp/PPP4P/R1B3K1[NNNpr] b - - 39 20";
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

    #[test]
    fn bughouse_pair() {
        let a = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";
        let s = format!("{a} | {a}");
        let p = parse(&s, None).unwrap();
        assert_eq!(p.fen.boards().len(), 2);
        assert_eq!(to_string(&p.fen, FenDialect::Lichess), s);
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

    #[test]
    fn dialect_is_enforced_when_given() {
        let s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
        assert!(parse(s, Some(FenDialect::Xboard)).is_ok());
        let e = parse(s, Some(FenDialect::Lichess)).unwrap_err();
        assert_eq!((e.column, e.field), (44, FenField::Pocket));
    }
}
