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
            crate::notation::escape_controls(&self.name)
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
