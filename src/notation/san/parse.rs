//! The SAN grammar as nom parsers over bytes, one per rule (the grammar is in the module
//! above), and the shortcut for the shapes most moves take.

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while};
use nom::combinator::{opt, value};

use super::{CastlingSide, Glyph, Lan, ParseSanError, San, SanPlus, Spelling, Suffix};
use crate::notation::nomerr::{self, NomErr, byte_token_column, cut_fail, fail, quote};
use crate::types::{File, Rank, Role, Square};

type Res<'a, T> = nomerr::Res<'a, T, &'a [u8]>;

/// `file = "a" … "h"`
fn file(i: &[u8]) -> Res<'_, File> {
    match i {
        [c @ b'a'..=b'h', rest @ ..] => Ok((rest, File::new(c - b'a'))),
        _ => fail(i, "a file"),
    }
}

/// `rank = "1" … "8"`
fn rank(i: &[u8]) -> Res<'_, Rank> {
    match i {
        [c @ b'1'..=b'8', rest @ ..] => Ok((rest, Rank::new(c - b'1'))),
        _ => fail(i, "a rank"),
    }
}

/// `square = file rank`
fn square(i: &[u8]) -> Res<'_, Square> {
    let (rest, (f, r)) = (file, rank).parse(i).or_else(|_| fail(i, "a square"))?;
    Ok((rest, Square::from_coords(f, r)))
}

/// `ROLE = "N" / "B" / "R" / "Q" / "K"` (uppercase: a lowercase `b` is a file)
fn piece_letter(i: &[u8]) -> Res<'_, Role> {
    match i {
        [c @ (b'N' | b'B' | b'R' | b'Q' | b'K'), rest @ ..] => {
            Ok((rest, Role::from_char(*c as char).expect("a piece letter")))
        }
        _ => fail(i, "a piece letter"),
    }
}

/// `role = "P" / "N" / "B" / "R" / "Q" / "K"`, either case; whether it was lowercase.
fn any_role(i: &[u8]) -> Res<'_, (Role, bool)> {
    match i.split_first() {
        Some((&c, rest)) => match Role::from_char(c as char) {
            Some(r) => Ok((rest, (r, c.is_ascii_lowercase()))),
            None => fail(i, "a piece letter"),
        },
        None => fail(i, "a piece letter"),
    }
}

/// `null = "--" / "Z0"`
fn null(i: &[u8]) -> Res<'_, (San, Spelling)> {
    value(
        (San::Null, Spelling::default()),
        alt((tag("--"), tag("Z0"))),
    )
    .parse(i)
}

/// `castle = "O-O-O" / "O-O" / "0-0-0" / "0-0"`
fn castle(i: &[u8]) -> Res<'_, (San, Spelling)> {
    let (rest, (side, zero)) = alt((
        value((CastlingSide::QueenSide, false), tag("O-O-O")),
        value((CastlingSide::QueenSide, true), tag("0-0-0")),
        value((CastlingSide::KingSide, false), tag("O-O")),
        value((CastlingSide::KingSide, true), tag("0-0")),
    ))
    .parse(i)?;
    let spelling = Spelling {
        zero_castling: zero,
        ..Spelling::default()
    };
    Ok((rest, (San::Castle(side), spelling)))
}

/// `drop = [ role ] "@" square`; once `@` is read the square must follow.
fn drop(i: &[u8]) -> Res<'_, (San, Spelling)> {
    let (rest, role) = opt(any_role).parse(i)?;
    // Not a drop unless `@` follows: fail where the token starts, so that another rule's
    // error (a pawn move's) explains a token such as `b9`.
    let Ok((rest, _)) = tag::<_, _, NomErr<&[u8]>>("@").parse(rest) else {
        return fail(i, "a drop");
    };
    let Ok((rest, to)) = square(rest) else {
        return cut_fail(rest, "a square after `@`");
    };
    let (role, lowercase) = role.unwrap_or((Role::Pawn, false));
    let spelling = Spelling {
        lowercase_piece: lowercase,
        ..Spelling::default()
    };
    Ok((rest, (San::Put { role, to }, spelling)))
}

/// `from = [ file ] [ rank ] [ "x" ]`, the whole of `head` (what stands before the
/// destination square of a piece move).
fn origin(head: &[u8]) -> Res<'_, (Option<File>, Option<Rank>, bool)> {
    let (rest, (f, r, x)) = (opt(file), opt(rank), opt(tag("x"))).parse(head)?;
    if !rest.is_empty() {
        return cut_fail(rest, "a file, a rank, `x` or the destination square");
    }
    Ok((rest, (f, r, x.is_some())))
}

/// `piece = ROLE [ file ] [ rank ] [ "x" ] square`: the longest run of files, ranks and
/// `x` after the letter ends in the destination square, and its head is the origin.
fn piece_move(i: &[u8]) -> Res<'_, (San, Spelling)> {
    let (body_start, role) = piece_letter(i)?;
    let (rest, body) =
        take_while(|c: u8| matches!(c, b'a'..=b'h' | b'1'..=b'8' | b'x')).parse(body_start)?;
    let Some((head, to)) = body
        .len()
        .checked_sub(2)
        .map(|n| body.split_at(n))
        .and_then(|(head, to)| square(to).ok().map(|(_, to)| (head, to)))
    else {
        return cut_fail(body_start, "a destination square");
    };
    let (_, (file, rank, capture)) = origin(head)?;
    let san = San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion: None,
    };
    Ok((rest, (san, Spelling::default())))
}

/// `promotion = [ "=" ] ROLE` (no pawn); once `=` is read the letter must follow. The
/// role, and how it was spelled.
fn promotion(i: &[u8]) -> Res<'_, Option<(Role, Spelling)>> {
    let (rest, equals) = opt(tag("=")).parse(i)?;
    match any_role(rest) {
        Ok((after, (role, lowercase))) if role != Role::Pawn => {
            let spelling = Spelling {
                promotion_without_equals: equals.is_none(),
                lowercase_piece: lowercase,
                ..Spelling::default()
            };
            Ok((after, Some((role, spelling))))
        }
        _ if equals.is_some() => cut_fail(rest, "a promotion piece (Q R B N)"),
        _ => Ok((i, None)),
    }
}

/// `pawn = [ file "x" ] square [ promotion ]`
fn pawn_move(i: &[u8]) -> Res<'_, (San, Spelling)> {
    let (rest, from) = opt((file, tag("x"))).parse(i)?;
    let Ok((rest, to)) = square(rest) else {
        return fail(rest, "a move (a square, a piece letter, `@` or castling)");
    };
    let (rest, promoted) = promotion(rest)?;
    let san = San::Normal {
        role: Role::Pawn,
        file: from.map(|(f, _)| f),
        rank: None,
        capture: from.is_some(),
        to,
        promotion: promoted.map(|(r, _)| r),
    };
    Ok((
        rest,
        (san, promoted.map_or_else(Spelling::default, |(_, s)| s)),
    ))
}

/// `san = null / castle / drop / piece-move / pawn-move`, the alternatives that can
/// start with the token's first byte tried in that order.
fn san(i: &[u8]) -> Res<'_, (San, Spelling)> {
    match i.first() {
        Some(b'-' | b'Z') => alt((null, drop, pawn_move)).parse(i),
        Some(b'O' | b'0') => alt((castle, drop, pawn_move)).parse(i),
        Some(b'N' | b'B' | b'R' | b'Q' | b'K') => alt((drop, piece_move)).parse(i),
        _ => alt((drop, pawn_move)).parse(i),
    }
}

/// `suffix = "#" / "+"`
fn suffix(i: &[u8]) -> Res<'_, Suffix> {
    alt((
        value(Suffix::Checkmate, tag("#")),
        value(Suffix::Check, tag("+")),
    ))
    .parse(i)
}

/// `glyph = "!!" / "??" / "!?" / "?!" / "!" / "?"`
fn glyph(i: &[u8]) -> Res<'_, Glyph> {
    alt((
        value(Glyph::Brilliant, tag("!!")),
        value(Glyph::Blunder, tag("??")),
        value(Glyph::Speculative, tag("!?")),
        value(Glyph::Dubious, tag("?!")),
        value(Glyph::Good, tag("!")),
        value(Glyph::Mistake, tag("?")),
    ))
    .parse(i)
}

/// `san-plus = san [ suffix ] [ glyph ]`, the whole token.
fn san_plus(i: &[u8]) -> Res<'_, SanPlus> {
    let (rest, ((san, spelling), suffix, glyph)) = (san, opt(suffix), opt(glyph)).parse(i)?;
    if !rest.is_empty() {
        return cut_fail(
            rest,
            "the end of the move (after it only `+`, `#` and `!`/`?` glyphs)",
        );
    }
    let plus = SanPlus {
        san,
        suffix,
        glyph,
        spelling,
    };
    Ok((rest, plus))
}

/// The shapes most moves in real games take (`e4`, `Nf3`, `exd5`, `Nxe5`, a piece's
/// move with a file or a rank (`Nbd2`, `R1xe2`), castling with letters, a drop with an
/// uppercase letter or none (`N@d5`, `@e4`), each with an optional `+` or `#`), read
/// without the general parser; `None` for anything else. Reads exactly what the grammar
/// reads for these shapes.
#[inline(always)]
fn common_shape(s: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match s {
        [body @ .., b'+'] => (body, Some(Suffix::Check)),
        [body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (s, None),
    };
    let file = |c: u8| matches!(c, b'a'..=b'h').then(|| File::new(c - b'a'));
    let role = |c: u8| match c {
        b'N' => Some(Role::Knight),
        b'B' => Some(Role::Bishop),
        b'R' => Some(Role::Rook),
        b'Q' => Some(Role::Queen),
        b'K' => Some(Role::King),
        _ => None,
    };
    let plus = |san| {
        Some(SanPlus {
            san,
            suffix,
            glyph: None,
            spelling: Spelling::default(),
        })
    };
    let normal = |role, file, rank, capture, to: [u8; 2]| {
        plus(San::Normal {
            role,
            file,
            rank,
            capture,
            to: Square::from_ascii(&to).ok()?,
            promotion: None,
        })
    };
    let put = |role, to: [u8; 2]| {
        plus(San::Put {
            role,
            to: Square::from_ascii(&to).ok()?,
        })
    };
    match *body {
        [f, r] => normal(Role::Pawn, None, None, false, [f, r]),
        [b'@', f, r] => put(Role::Pawn, [f, r]),
        [b'O', b'-', b'O'] => plus(San::Castle(CastlingSide::KingSide)),
        [b'O', b'-', b'O', b'-', b'O'] => plus(San::Castle(CastlingSide::QueenSide)),
        [p, f, r] => normal(role(p)?, None, None, false, [f, r]),
        [b'P', b'@', f, r] => put(Role::Pawn, [f, r]),
        [p, b'@', f, r] => put(role(p)?, [f, r]),
        [p, b'x', f, r] => match role(p) {
            Some(role) => normal(role, None, None, true, [f, r]),
            None => normal(Role::Pawn, Some(file(p)?), None, true, [f, r]),
        },
        [p, d, f, r] | [p, d, b'x', f, r] => {
            let (role, capture) = (role(p)?, body.len() == 5);
            match d {
                b'a'..=b'h' => normal(role, file(d), None, capture, [f, r]),
                b'1'..=b'8' => normal(role, None, Some(Rank::new(d - b'1')), capture, [f, r]),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `lan = [ ROLE / "P" ] square [ "-" / "x" ] square [ promotion ] [ suffix ] [ glyph ]`,
/// the whole token.
fn lan<'a>(i: &'a [u8]) -> Res<'a, Lan> {
    // An uppercase letter (a lowercase `b` is a file, as in `b8c6`).
    let role = |i: &'a [u8]| -> Res<'a, Role> {
        match i {
            [b'P', rest @ ..] => Ok((rest, Role::Pawn)),
            _ => piece_letter(i),
        }
    };
    let (rest, role) = opt(role).parse(i)?;
    let (rest, from) = square(rest)?;
    let (rest, sep) = opt(alt((tag("-"), tag("x")))).parse(rest)?;
    let Ok((rest, to)) = square(rest) else {
        return cut_fail(rest, "the destination square");
    };
    let (rest, (promoted, suffix, glyph)) = (promotion, opt(suffix), opt(glyph)).parse(rest)?;
    if !rest.is_empty() {
        return cut_fail(
            rest,
            "the end of the move (after it only `+`, `#` and `!`/`?` glyphs)",
        );
    }
    let lan = Lan {
        role,
        from,
        capture: sep == Some(&b"x"[..]),
        to,
        promotion: promoted.map(|(r, _)| r),
        suffix,
        glyph,
    };
    Ok((rest, lan))
}

impl Lan {
    /// Parses one long-algebraic token.
    ///
    /// # Errors
    ///
    /// [`ParseSanError`] with the column in the token and what was expected.
    pub fn from_ascii(s: &[u8]) -> Result<Lan, ParseSanError> {
        located(s, lan(s))
    }
}

/// Parses one token with the grammar; errors located in the token.
#[inline(never)]
fn parse(s: &[u8]) -> Result<SanPlus, ParseSanError> {
    located(s, san_plus(s))
}

/// A whole-token parse's result, its error located in the token `s`.
fn located<'a, T>(s: &'a [u8], res: Res<'a, T>) -> Result<T, ParseSanError> {
    match res {
        Ok((_, plus)) => Ok(plus),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            // The failure point is a suffix of `s` or of a part of it: its offset in `s`.
            let offset = (e.at.as_ptr() as usize)
                .saturating_sub(s.as_ptr() as usize)
                .min(s.len());
            let rest = String::from_utf8_lossy(&s[offset..]);
            // Quoted briefly: a hostile token may be megabytes long.
            let found = if rest.is_empty() {
                "end of token".to_owned()
            } else {
                quote(&rest, 24)
            };
            Err(ParseSanError {
                column: byte_token_column(s, offset),
                expected: e.expected,
                found,
            })
        }
        Err(nom::Err::Incomplete(_)) => Err(ParseSanError {
            column: byte_token_column(s, s.len()),
            expected: "a complete move",
            found: "end of token".to_owned(),
        }),
    }
}

impl SanPlus {
    /// The SAN `s` when it has one of the shapes most moves take (`e4`, `Nf3`, `exd5`,
    /// `Nbd2`, `O-O`, `N@d5`, with `+` or `#`), read as [`SanPlus::from_ascii`] reads it;
    /// `None` for any other token (which `from_ascii` then reads or refuses).
    #[inline(always)]
    pub(crate) fn from_common_shape(s: &[u8]) -> Option<SanPlus> {
        common_shape(s)
    }

    /// Parses one SAN token.
    ///
    /// # Errors
    ///
    /// [`ParseSanError`] with the column in the token and what was expected.
    #[inline(always)]
    pub fn from_ascii(s: &[u8]) -> Result<SanPlus, ParseSanError> {
        match common_shape(s) {
            Some(san) => Ok(san),
            None => parse(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut reads every token up to five bytes over the SAN alphabet exactly as
    /// the grammar does, and takes the common shapes.
    #[test]
    fn common_shapes_read_as_the_grammar_reads_them() {
        const ALPHABET: &[u8] = b"aeh18NKxP+#=Q@-O!";
        let mut taken = 0;
        let mut token = Vec::new();
        fn walk(token: &mut Vec<u8>, taken: &mut usize) {
            if let Some(fast) = common_shape(token) {
                assert_eq!(
                    Ok(fast),
                    parse(token),
                    "{:?}",
                    String::from_utf8_lossy(token)
                );
                *taken += 1;
            }
            if token.len() == 5 {
                return;
            }
            for &c in ALPHABET {
                token.push(c);
                walk(token, taken);
                token.pop();
            }
        }
        walk(&mut token, &mut taken);
        for common in [
            "e4", "Nf3", "exd5", "Nxe5+", "Kxh1#", "a8", "Qh5", "O-O", "O-O-O+", "N@d5", "@e4",
            "P@e4#", "Nbd2", "R1e2", "Nbxd2+", "R8xe1",
        ] {
            assert!(common_shape(common.as_bytes()).is_some(), "{common}");
        }
        assert!(taken > 100, "{taken}");
    }

    #[test]
    fn errors_name_column_expectation_and_what_stands_there() {
        for (input, column, expected, found) in [
            (
                "",
                1,
                "a move (a square, a piece letter, `@` or castling)",
                "end of token",
            ),
            (
                "e9",
                1,
                "a move (a square, a piece letter, `@` or castling)",
                "`e9`",
            ),
            ("Nz3", 2, "a destination square", "`z3`"),
            ("Nbd", 2, "a destination square", "`bd`"),
            (
                "Nxbd2",
                3,
                "a file, a rank, `x` or the destination square",
                "`bd2`",
            ),
            (
                "N1bd2",
                3,
                "a file, a rank, `x` or the destination square",
                "`bd2`",
            ),
            ("e8=", 4, "a promotion piece (Q R B N)", "end of token"),
            ("e8=P", 4, "a promotion piece (Q R B N)", "`P`"),
            ("N@", 3, "a square after `@`", "end of token"),
            (
                "e4x",
                3,
                "the end of the move (after it only `+`, `#` and `!`/`?` glyphs)",
                "`x`",
            ),
            (
                "Nf3 ",
                4,
                "the end of the move (after it only `+`, `#` and `!`/`?` glyphs)",
                "` `",
            ),
            (
                "O-O-",
                4,
                "the end of the move (after it only `+`, `#` and `!`/`?` glyphs)",
                "`-`",
            ),
            (
                "exz",
                3,
                "a move (a square, a piece letter, `@` or castling)",
                "`z`",
            ),
        ] {
            let e = parse(input.as_bytes()).unwrap_err();
            assert_eq!(
                (e.column, e.expected, e.found.as_str()),
                (column, expected, found),
                "{input}"
            );
        }
    }

    #[test]
    fn spellings_are_recorded() {
        let spelling = |s: &str| parse(s.as_bytes()).unwrap().spelling;
        assert!(spelling("0-0").zero_castling);
        assert!(!spelling("O-O").zero_castling);
        assert!(spelling("e8Q").promotion_without_equals);
        assert!(spelling("e8=q").lowercase_piece);
        assert!(!spelling("e8=q").promotion_without_equals);
        assert!(spelling("n@d5").lowercase_piece);
        assert_eq!(spelling("Nf3"), Spelling::default());
        assert_eq!(
            parse(b"@e4").unwrap().san,
            San::Put {
                role: Role::Pawn,
                to: "e4".parse().unwrap()
            }
        );
    }

    /// The fast path reads every common shape, for every piece letter, and reads it as the
    /// grammar does.
    #[test]
    fn common_shapes_are_read_fast_and_as_the_grammar_reads_them() {
        let mut tokens = Vec::new();
        for to in ["e4", "a1", "h8"] {
            tokens.push(to.to_owned());
            tokens.push(format!("dx{to}"));
            tokens.push(format!("@{to}"));
            tokens.push(format!("P@{to}"));
            for piece in ["N", "B", "R", "Q", "K"] {
                tokens.push(format!("{piece}{to}"));
                tokens.push(format!("{piece}x{to}"));
                tokens.push(format!("{piece}@{to}"));
                for from in ["a", "h", "1", "8"] {
                    tokens.push(format!("{piece}{from}{to}"));
                    tokens.push(format!("{piece}{from}x{to}"));
                }
            }
        }
        tokens.extend(["O-O".to_owned(), "O-O-O".to_owned()]);
        for token in tokens {
            for suffix in ["", "+", "#"] {
                let s = format!("{token}{suffix}");
                let fast = common_shape(s.as_bytes());
                assert!(fast.is_some(), "{s} takes the slow path");
                assert_eq!(fast, san_plus(s.as_bytes()).ok().map(|(_, p)| p), "{s}");
            }
        }
        for other in [
            "e8=Q", "0-0", "n@e4", "Pe4", "xe4", "e9", "Ni4", "Nb9d2", "Nbd9", "Nb1d2", "Nx@e4",
            "O-O-", "e4!", "Nf3?", "b@e4", "Z0", "--",
        ] {
            assert_eq!(common_shape(other.as_bytes()), None, "{other}");
        }
    }

    /// A token the grammar refuses is located at the byte where it goes wrong.
    #[test]
    fn errors_name_the_column() {
        for (token, column) in [("Nz5", 2), ("e9", 1), ("Nbd", 2), ("e4=", 4), ("O-O-X", 4)] {
            let e = parse(token.as_bytes()).unwrap_err();
            assert_eq!(e.column, column, "{token}: {e}");
        }
    }
}
