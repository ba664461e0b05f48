//! The private nom error type shared by the parsers: where it failed and what was expected.

use nom::Input;
use nom::error::{ContextError, ErrorKind, FromExternalError, ParseError};

/// The nom error of every notation grammar (FEN, EPD, SAN, UCI), over `&str` or `&[u8]`:
/// the remaining input where parsing failed and a label for what was expected there.
/// The innermost label wins, so labels on small rules stay precise; of two alternatives
/// the one that got further wins, and on a tie the later one (nom's own rule).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NomErr<I> {
    pub at: I,
    pub expected: &'static str,
}

impl<I> NomErr<I> {
    pub fn new(at: I, expected: &'static str) -> NomErr<I> {
        NomErr { at, expected }
    }
}

const GENERIC: &str = "valid syntax";

impl<I: Input> ParseError<I> for NomErr<I> {
    fn from_error_kind(at: I, _: ErrorKind) -> Self {
        NomErr {
            at,
            expected: GENERIC,
        }
    }
    fn append(_: I, _: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        if self.at.input_len() < other.at.input_len() {
            self
        } else {
            other
        }
    }
}

impl<I> ContextError<I> for NomErr<I> {
    fn add_context(_: I, ctx: &'static str, mut other: Self) -> Self {
        if other.expected == GENERIC {
            other.expected = ctx;
        }
        other
    }
}

impl<I, E> FromExternalError<I, E> for NomErr<I> {
    fn from_external_error(at: I, _: ErrorKind, _: E) -> Self {
        NomErr {
            at,
            expected: GENERIC,
        }
    }
}

/// A parser's result over `I` (text unless told) with the shared error.
pub(crate) type Res<'a, T, I = &'a str> = nom::IResult<I, T, NomErr<I>>;

/// A recoverable error (`opt`/`alt` may try something else).
pub(crate) fn fail<I, T>(at: I, expected: &'static str) -> nom::IResult<I, T, NomErr<I>> {
    Err(nom::Err::Error(NomErr::new(at, expected)))
}

/// An error after a committing prefix: no alternative is tried.
pub(crate) fn cut_fail<I, T>(at: I, expected: &'static str) -> nom::IResult<I, T, NomErr<I>> {
    Err(nom::Err::Failure(NomErr::new(at, expected)))
}

/// The 1-based character column of the byte offset `offset` in `text` (the unit of every
/// column pocketfen reports, as PGN problems count them).
pub(crate) fn char_column(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    let mut cut = offset;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    text[..cut].chars().count() + 1
}

/// The 1-based character column of the byte offset `offset` in the bytes `token`, read as
/// UTF-8 (an invalid sequence counts as one character, as it prints as one `\u{fffd}`).
pub(crate) fn byte_token_column(token: &[u8], offset: usize) -> usize {
    let prefix = &token[..offset.min(token.len())];
    String::from_utf8_lossy(prefix).chars().count() + 1
}

/// The 1-based character column of `at` within `whole` (a slice of it, or else a suffix
/// of the same length), and a short snippet of what stands there.
pub(crate) fn locate(whole: &str, at: &str) -> (usize, String) {
    let (start, here) = (whole.as_ptr() as usize, at.as_ptr() as usize);
    let offset = if (start..=start + whole.len()).contains(&here) {
        here - start
    } else {
        whole.len().saturating_sub(at.len())
    };
    let word = &at[..at.find(char::is_whitespace).unwrap_or(at.len())];
    let found = if !word.is_empty() {
        quote(word, 12)
    } else if at.is_empty() {
        "end of input".to_owned()
    } else {
        "whitespace".to_owned()
    };
    (char_column(whole, offset), found)
}

/// `text` in backquotes for an error message: at most `max` characters (then `…`), and
/// control characters escaped, so hostile input cannot drive the reader's terminal.
pub(crate) fn quote(text: &str, max: usize) -> String {
    let clipped = match text.char_indices().nth(max) {
        Some((cut, _)) => &text[..cut],
        None => text,
    };
    let more = if clipped.len() < text.len() {
        "…"
    } else {
        ""
    };
    format!("`{}{more}`", super::printable(clipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One tie rule for every grammar: the alternative that got further wins, and of two
    /// that got as far, the later.
    #[test]
    fn the_further_alternative_wins_and_on_a_tie_the_later() {
        let (far, near) = (NomErr::new("b", "far"), NomErr::new("ab", "near"));
        assert_eq!(far.clone().or(near.clone()).expected, "far");
        assert_eq!(near.or(far).expected, "far");
        let (first, second) = (
            NomErr::new(&b"x"[..], "first"),
            NomErr::new(&b"x"[..], "second"),
        );
        assert_eq!(first.or(second).expected, "second");
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(char_column("aé b", 4), 4);
        assert_eq!(char_column("aé b", 2), 2); // inside the `é`: its column
        assert_eq!(char_column("ab", 9), 3);
        assert_eq!(byte_token_column("é4".as_bytes(), 2), 2);
        assert_eq!(byte_token_column(b"\xff\xfeN", 2), 3);
    }
}
