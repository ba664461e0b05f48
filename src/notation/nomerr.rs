//! The private nom error type shared by the parsers: where it failed and what was expected.

use nom::error::{ContextError, ErrorKind, FromExternalError, ParseError};

/// A nom error: the remaining input where parsing failed and a label for what was expected
/// there. The innermost label wins, so labels on small rules stay precise.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NomErr<'a> {
    pub at: &'a str,
    pub expected: &'static str,
}

impl<'a> NomErr<'a> {
    pub fn new(at: &'a str, expected: &'static str) -> NomErr<'a> {
        NomErr { at, expected }
    }
}

const GENERIC: &str = "valid syntax";

impl<'a> ParseError<&'a str> for NomErr<'a> {
    fn from_error_kind(at: &'a str, _: ErrorKind) -> Self {
        NomErr {
            at,
            expected: GENERIC,
        }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        // Prefer the alternative that got further.
        if other.at.len() < self.at.len() {
            other
        } else {
            self
        }
    }
}

impl<'a> ContextError<&'a str> for NomErr<'a> {
    fn add_context(_: &'a str, ctx: &'static str, mut other: Self) -> Self {
        if other.expected == GENERIC {
            other.expected = ctx;
        }
        other
    }
}

impl<'a, E> FromExternalError<&'a str, E> for NomErr<'a> {
    fn from_external_error(at: &'a str, _: ErrorKind, _: E) -> Self {
        NomErr {
            at,
            expected: GENERIC,
        }
    }
}

pub(crate) type Res<'a, T> = nom::IResult<&'a str, T, NomErr<'a>>;

/// A recoverable error (`opt`/`alt` may try something else).
pub(crate) fn fail<'a, T>(at: &'a str, expected: &'static str) -> Res<'a, T> {
    Err(nom::Err::Error(NomErr::new(at, expected)))
}

/// An error after a committing prefix: no alternative is tried.
pub(crate) fn cut_fail<'a, T>(at: &'a str, expected: &'static str) -> Res<'a, T> {
    Err(nom::Err::Failure(NomErr::new(at, expected)))
}

/// The 1-based byte column of `at` within `whole` (a slice of it, or else a suffix of the
/// same length), and a short snippet of what stands there.
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
    (offset + 1, found)
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
    format!("`{}{more}`", super::escape_controls(clipped))
}
