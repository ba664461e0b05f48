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
/// report line nor drive the reader's terminal. JSON output needs none of this: JSON
/// escapes them itself. The one escaping function of messages and text output.
///
/// ```
/// use pocketfen::notation::printable;
/// assert_eq!(printable("games.pgn"), "games.pgn");
/// assert_eq!(printable("a\nb.pgn"), "a\\nb.pgn");
/// ```
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(char::is_control) {
        return text.into();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.into()
}
