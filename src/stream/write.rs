//! Writing a game's bytes into an archive: the one rule every command that copies or
//! rewrites games follows.

use std::io::{self, Write};

/// Writes a game's bytes as they were, with the blank line that ends a game when its
/// text lacks one (the last game of a file without a final line end), in the game's own
/// line ends (CR LF when it has one).
///
/// ```
/// let mut out = Vec::new();
/// pocketfen::stream::write_game(&mut out, b"[Event \"a\"]\n\n1. e4 *")?;
/// pocketfen::stream::write_game(&mut out, b"[Event \"b\"]\r\n\r\n1. d4 *\r\n")?;
/// assert_eq!(out, b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\r\n\r\n1. d4 *\r\n\r\n");
/// # Ok::<_, std::io::Error>(())
/// ```
pub fn write_game(out: &mut dyn Write, bytes: &[u8]) -> io::Result<()> {
    out.write_all(bytes)?;
    if bytes.is_empty() || bytes.ends_with(b"\n\n") || bytes.ends_with(b"\r\n\r\n") {
        return Ok(());
    }
    // In the game's own line ends.
    let end: &[u8] = if memchr::memmem::find(bytes, b"\r\n").is_some() {
        b"\r\n"
    } else {
        b"\n"
    };
    if !bytes.ends_with(b"\n") {
        out.write_all(end)?;
    }
    out.write_all(end)
}
