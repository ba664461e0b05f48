//! Text formats: FEN in every site's dialect, SAN with drops, and UCI.
//!
//! Each submodule pairs a nom parser with its printer.

pub mod diagram;
pub mod fen;
pub mod mixed;
pub mod san;
pub mod uci;

pub(crate) mod nomerr;

/// `text` with control characters escaped (`\u{1b}`): hostile input quoted in a message
/// must not drive the reader's terminal.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
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
