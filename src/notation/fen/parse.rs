//! The FEN grammar as nom parsers, one per rule (see the grammar in the module above).

use nom::Parser;
use nom::bytes::complete::take_while1;
use nom::character::complete::{char, digit1, one_of};
use nom::combinator::{opt, recognize};
use nom::error::context;

use super::{FenDialect, FenField};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::notation::nomerr::{NomErr, Res, cut_fail, fail};
use crate::setup::{Castling, CastlingFlag, Pocket, Setup};
use crate::types::{ByColor, Color, Piece, Role, Square};

/// How a board's pocket was spelled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Style {
    None,
    Slash,
    BracketDash,
    Bracket,
    Chesscom,
}

impl Style {
    pub(super) fn dialect(self) -> Option<FenDialect> {
        match self {
            Style::None => None,
            Style::Slash => Some(FenDialect::Lichess),
            Style::BracketDash => Some(FenDialect::Xboard),
            Style::Bracket => Some(FenDialect::Bracket),
            Style::Chesscom => Some(FenDialect::Chesscom),
        }
    }

    pub(super) fn fits(self, d: FenDialect) -> bool {
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
pub(super) struct Located<'a> {
    pub(super) field: FenField,
    pub(super) err: NomErr<&'a str>,
}

pub(super) type FieldRes<'a, T> = Result<(&'a str, T), Located<'a>>;

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

/// The piece each byte names (`P` … `k`), for the rank parser's inner loop.
const PIECE_OF_BYTE: [Option<Piece>; 256] = {
    let mut table = [None; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = Piece::from_char(b as u8 as char);
        b += 1;
    }
    table
};

/// `rank = 1*(piece ["~"] / digit)`, exactly 8 squares, placed on rank `r` (0 = rank 1).
/// It reads bytes: every byte it accepts is ASCII, so it stops on a character boundary.
fn rank<'a>(i: &'a str, r: u8, board: &mut Board, promoted: &mut Bitboard) -> Res<'a, ()> {
    let bytes = i.as_bytes();
    let mut at = 0;
    let mut file = 0u8;
    let mut after_digit = false;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'1'..=b'8' if after_digit => {
                return cut_fail(
                    &i[at..],
                    "a piece letter (a run of empty squares is one digit, not two)",
                );
            }
            b'1'..=b'8' => {
                after_digit = true;
                file += b - b'0';
                if file > 8 {
                    return cut_fail(&i[at..], "a rank of exactly 8 squares");
                }
                at += 1;
            }
            _ => {
                let Some(piece) = PIECE_OF_BYTE[usize::from(b)] else {
                    break;
                };
                if file >= 8 {
                    return cut_fail(&i[at..], "a rank of exactly 8 squares");
                }
                after_digit = false;
                let sq = Square::new(r * 8 + file);
                // Each square of a rank is written once: it is still empty.
                board.put_on_empty(sq, piece);
                at += 1;
                if bytes.get(at) == Some(&b'~') {
                    promoted.set(sq, true);
                    at += 1;
                }
                file += 1;
            }
        }
    }
    let rest = &i[at..];
    // A `~` that follows no piece (a second one, or one after empty squares).
    if rest.starts_with('~') && at > 0 {
        return cut_fail(
            rest,
            "a piece letter, a digit 1-8 or `/` (a `~` marks the piece just before it, once)",
        );
    }
    // What ends a rank: `/`, the space before the side to move (`_` in a URL), a
    // bracket pocket, the end (looked at only for a rank that is short).
    let ends = || {
        rest.bytes()
            .next()
            .is_none_or(|b| matches!(b, b'/' | b'[' | b'_') || b.is_ascii_whitespace())
    };
    match file {
        8 => Ok((rest, ())),
        0 => fail(rest, "a piece letter or a digit 1-8"), // nothing read (each byte is a square)
        // A byte that is no square within the rank (`RNBQKBXR`): not a short rank.
        _ if !ends() => cut_fail(rest, "a piece letter or a digit 1-8"),
        _ => cut_fail(rest, "a rank of exactly 8 squares"),
    }
}

/// `board = rank 7("/" rank)`
fn board(mut i: &str) -> Res<'_, (Board, Bitboard)> {
    let mut board = Board::empty();
    let mut promoted = Bitboard::EMPTY;
    for r in (0..8u8).rev() {
        if r != 7 {
            i = match char::<&str, NomErr<&str>>('/').parse(i) {
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
        let (rest, digits) = opt(digit1).parse(i)?;
        let count: u32 = match digits {
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
                    first_char(rest),
                    "a pocket piece (P N B R Q); kings never go into a pocket",
                );
            }
            Some(p) => {
                let pocket = &mut pockets[p.color];
                match u8::try_from(u32::from(pocket.get(p.role)) + count) {
                    Ok(n) => {
                        pocket.set(p.role, n);
                    }
                    Err(_) => return cut_fail(i, "at most 255 of one piece in a pocket"),
                }
                i = chars.as_str();
            }
            None if digits.is_some() => {
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
            Some(_) => cut_fail(
                first_char(rest),
                "a pocket piece (P N B R Q, either case) or a space",
            ),
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
            None if style == Style::BracketDash => {
                cut_fail(first_char(rest), "']' after '-' (an empty pocket)")
            }
            None => cut_fail(
                first_char(rest),
                "a pocket piece (P N B R Q, either case) or ']'",
            ),
        };
    }
    Ok((i, None))
}

/// The first character of `i`, where a pocket's error names what it found (`K`, not
/// `K]` and the rest of the word).
fn first_char(i: &str) -> &str {
    &i[..i.chars().next().map_or(0, char::len_utf8)]
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
            Ok((_, sq)) if bb.contains(sq) => {
                return cut_fail(after_comma, "a promoted square not named before");
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
/// Returns where the first Chess.com field (pocket or promoted squares) starts, as the
/// length of the input from there, if there is one.
fn tail<'a>(mut i: &'a str, setup: &mut Setup, style: &mut Style) -> FieldRes<'a, Option<usize>> {
    let mut chesscom_at = None;
    #[derive(PartialEq, PartialOrd)]
    enum Seen {
        Ep,
        Half,
        Full,
        Pocket,
    }
    let mut seen = Seen::Ep;
    // The promoted squares listed so far (a square listed twice is an error; a `~` mark on
    // the board and a listed square may name the same one).
    let mut listed = Bitboard::EMPTY;
    // A Chess.com pocket read in place of a clock: the token and what it stood for.
    let mut for_clock: Option<(&'a str, &'static str)> = None;
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
        // Promoted squares without a pocket field (Chess.com omits an empty pocket): a
        // token that starts with a square (no pocket does: its counts come first; nor
        // does a clock), after the clocks or in place of the last of them.
        if seen <= Seen::Full && square(tok).is_ok() {
            chesscom_at.get_or_insert(tok.len());
            i = promoted_squares(tok, setup, &mut listed)?.0;
            *style = Style::Chesscom;
            seen = Seen::Pocket;
            continue;
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
                chesscom_at.get_or_insert(tok.len());
                *style = Style::Chesscom;
                for_clock = match seen {
                    Seen::Ep => Some((tok, "a half-move clock")),
                    Seen::Half => Some((tok, "a full-move number")),
                    _ => None,
                };
                seen = Seen::Pocket;
                i = rest;
                continue;
            }
        }
        if seen == Seen::Pocket {
            // A number after what was read as a pocket in place of a clock: that was
            // the clock, wrong (`- b 1`), not a Chess.com pocket (which no number follows).
            if let Some((pocket, clock_was)) = for_clock
                && clock(tok).is_ok_and(|(rest, _)| at_token_end(rest))
            {
                return Err(Located {
                    field: FenField::Clocks,
                    err: NomErr::new(pocket, clock_was),
                });
            }
            i = promoted_squares(tok, setup, &mut listed)?.0;
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
    Ok((i, chesscom_at))
}

/// A token of Chess.com promoted squares, added to the setup's: each a square with a piece
/// on it, none named in an earlier token (`listed`).
fn promoted_squares<'a>(
    tok: &'a str,
    setup: &mut Setup,
    listed: &mut Bitboard,
) -> FieldRes<'a, ()> {
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
    if (*listed & bb).any() {
        return Err(Located {
            field: FenField::PromotedSquares,
            err: NomErr::new(tok, "a promoted square not named before"),
        });
    }
    *listed |= bb;
    setup.promoted |= bb;
    Ok((rest, ()))
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
pub(super) fn one_fen(i: &str) -> FieldRes<'_, (Setup, Style, usize)> {
    let (i, (board, promoted)) = field(FenField::Board, board(i))?;
    let mut pocket_at = i.len();
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
                let chesscom_at;
                (i, chesscom_at) = tail(i, &mut setup, &mut style)?;
                if let Some(at) = chesscom_at {
                    pocket_at = at;
                }
            }
        }
    }
    if !at_token_end(i) {
        return Err(Located {
            field: FenField::Record,
            err: NomErr::new(i, "a space between fields"),
        });
    }
    // A promoted piece exists only where captures go to a pocket: a FEN that marks one but
    // spells no pocket (Chess.com omits an empty one) has empty pockets.
    if setup.promoted.any() && setup.pockets.is_none() {
        setup.pockets = Some(ByColor::default());
    }
    Ok((i, (setup, style, pocket_at)))
}

pub(super) fn trim_ws(i: &str) -> &str {
    i.trim_start_matches([' ', '\t', '_'])
}
