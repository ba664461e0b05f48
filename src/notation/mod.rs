//! Text formats: FEN in every site's dialect, SAN with drops, and UCI.
//!
//! Each submodule pairs a nom parser with its printer.

pub mod diagram;
pub mod fen;
pub mod mixed;
pub mod san;
pub mod uci;

pub(crate) mod nomerr;

/// Appends the decimal digits of `n` (without the formatting machinery: FEN clocks and
/// PGN move numbers are written on hot paths).
#[inline]
pub(crate) fn push_number<S: san::Spell>(out: &mut S, n: u32) {
    let digit = |d: u32| char::from(b'0' + (d % 10) as u8);
    if n < 10 {
        out.put(digit(n));
    } else if n < 100 {
        out.put(digit(n / 10));
        out.put(digit(n));
    } else {
        push_number(out, n / 10);
        out.put(digit(n));
    }
}

/// `text` (a file's name, a tag, a token) as text output prints it: control characters
/// escaped (`\u{1b}`), so that a newline or an escape sequence in it can neither forge a
/// report line nor drive the reader's terminal, and so are the bidirectional embeddings,
/// overrides and isolates (U+202A to U+202E, U+2066 to U+2069), so that a player's name
/// cannot turn the rest of its line around (`Black` and `Event` shown backwards). JSON
/// output needs none of this: JSON escapes the controls itself, and its reader shows no
/// line. The one escaping function of messages and text output (the HTML report's too).
///
/// ```
/// use pocketfen::notation::printable;
/// assert_eq!(printable("games.pgn"), "games.pgn");
/// assert_eq!(printable("a\nb.pgn"), "a\\nb.pgn");
/// assert_eq!(printable("Tal\u{202e}lehcim"), "Tal\\u{202e}lehcim");
/// assert_eq!(printable("محمد"), "محمد");
/// ```
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char =
        |c: char| c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    if !text.contains(unsafe_char) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.into()
}
