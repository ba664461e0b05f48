//! Names the command line, the Python package and PGN tags give pocketfen's choices
//! (variants, FEN dialects, sites, drop styles, formats): each is read by `FromStr` in
//! the library, with its aliases, and an unknown one is a [`ParseNameError`] that lists
//! the names.

use std::fmt;

/// A name that names none of a kind's choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseNameError {
    /// What was being named (`variant`, `dialect`, …).
    pub what: &'static str,
    /// The name as given.
    pub name: String,
    /// The names that are known.
    pub expected: &'static [&'static str],
}

impl ParseNameError {
    pub(crate) fn new(
        what: &'static str,
        name: &str,
        expected: &'static [&'static str],
    ) -> ParseNameError {
        ParseNameError {
            what,
            name: name.to_owned(),
            expected,
        }
    }
}

impl fmt::Display for ParseNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} `{}`: expected ",
            self.what,
            crate::notation::printable(&self.name)
        )?;
        for (i, name) in self.expected.iter().enumerate() {
            let sep = match i {
                0 => "",
                i if i + 1 == self.expected.len() => " or ",
                _ => ", ",
            };
            write!(f, "{sep}{name}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseNameError {}

/// A value that does not read: a tag criterion, a list of tags, a position to reach, a
/// way to deduplicate or to end, a part of a file. `what` names the kind of value,
/// `message` says which text and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseValueError {
    /// What was being read (`tag criterion`, `part`, …).
    pub what: &'static str,
    /// The text and why it does not read, in a sentence.
    pub message: String,
}

impl ParseValueError {
    pub(crate) fn new(what: &'static str, message: String) -> ParseValueError {
        ParseValueError { what, message }
    }
}

impl fmt::Display for ParseValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseValueError {}

/// A kind of choice the command line, the Python package and PGN tags name (a variant, a
/// FEN dialect, a site, a drop style, a format, what `replay` emits): each named once
/// here, in the library; the command line's lists of values, its manual pages and its
/// errors take the names from [`Choice::NAMES`], and `FromStr` reads them (with the
/// aliases tags and sites use).
///
/// ```
/// use pocketfen::{Choice, Variant};
/// assert_eq!(Variant::NAMES, ["chess", "crazyhouse", "loop", "chessgi", "horde", "bughouse"]);
/// for name in Variant::NAMES {
///     assert_eq!(name.parse::<Variant>().unwrap().name(), *name);
/// }
/// ```
pub trait Choice: std::str::FromStr<Err = ParseNameError> + Copy + Send + Sync + 'static {
    /// What a value is called in messages (`variant`, `dialect`, …).
    const WHAT: &'static str;
    /// Every value's name, in the order lists show them.
    const NAMES: &'static [&'static str];

    /// The error for `name`, which names none of the values.
    fn unknown(name: &str) -> ParseNameError {
        ParseNameError::new(Self::WHAT, name, Self::NAMES)
    }
}

/// The names of `$all` (an array of values with a `const fn name`), as a constant array.
macro_rules! names_of {
    ($all:expr) => {{
        const N: usize = $all.len();
        let mut names = [""; N];
        let mut i = 0;
        while i < N {
            names[i] = $all[i].name();
            i += 1;
        }
        names
    }};
}
pub(crate) use names_of;

/// A choice with one stable name per value (the names of the JSON records and of
/// docs/REFERENCE.md): what records serialize it to and read it back from.
#[cfg(feature = "serde")]
pub(crate) trait Named: Copy + 'static {
    /// What it is, in an error message (`variant`, `problem kind`, …).
    const WHAT: &'static str;

    /// Its name.
    fn name(self) -> &'static str;

    /// Every value.
    fn every() -> impl Iterator<Item = Self>;

    /// The value of this exact name.
    fn from_name(name: &str) -> Option<Self> {
        Self::every().find(|v| v.name() == name)
    }
}

/// Implements [`Named`] for types with a `name` and a list of every value.
#[cfg(feature = "serde")]
macro_rules! named {
    ($($t:ty: $what:literal, $every:expr;)*) => {$(
        impl Named for $t {
            const WHAT: &'static str = $what;

            fn name(self) -> &'static str {
                <$t>::name(self)
            }

            fn every() -> impl Iterator<Item = Self> {
                $every.into_iter()
            }
        }
    )*};
}

#[cfg(feature = "serde")]
pub(crate) use named;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_lists_the_names() {
        let e = ParseNameError::new("dialect", "fics\u{1b}", &["lichess", "xboard", "bracket"]);
        assert_eq!(
            e.to_string(),
            "unknown dialect `fics\\u{1b}`: expected lichess, xboard or bracket"
        );
    }
}
