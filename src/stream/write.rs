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

/// The text of a game read from a table's row (a game at line 0, whose tags the row's
/// columns gave on its first line) as PGN's export format writes a game: a tag per line,
/// a blank line, the movetext. What `pgn select`, `dedupe` and `split` write of a row.
///
/// ```
/// use pocketfen::stream::row_as_pgn;
/// let row = b"[Event \"Rated \\\"Blitz\\\"] [x\"] [Site \"a\"]\n1. e4 *\n";
/// assert_eq!(
///     &row_as_pgn(row)[..],
///     b"[Event \"Rated \\\"Blitz\\\"] [x\"]\n[Site \"a\"]\n\n1. e4 *\n"
/// );
/// assert_eq!(&row_as_pgn(b"\n1. e4 *\n")[..], b"1. e4 *\n");
/// ```
pub fn row_as_pgn(bytes: &[u8]) -> Vec<u8> {
    let (tags, movetext) = match memchr::memchr(b'\n', bytes) {
        Some(n) => (&bytes[..n], &bytes[n + 1..]),
        None => (bytes, &b""[..]),
    };
    let mut out = Vec::with_capacity(bytes.len() + 64);
    let (mut quoted, mut escaped) = (false, false);
    for (i, &b) in tags.iter().enumerate() {
        match b {
            _ if escaped => escaped = false,
            b'\\' if quoted => escaped = true,
            b'"' => quoted = !quoted,
            // The blank between one tag's `]` and the next one's `[`.
            b' ' if !quoted && i > 0 && tags[i - 1] == b']' && tags.get(i + 1) == Some(&b'[') => {
                out.push(b'\n');
                continue;
            }
            _ => {}
        }
        out.push(b);
    }
    if !out.is_empty() {
        out.extend_from_slice(b"\n\n");
    }
    out.extend_from_slice(movetext);
    out
}

/// A game's bytes as the commands that copy games out write them: as they were read, and
/// a table's row (a game at line 0) as [`row_as_pgn`] makes it.
pub fn copied_game(bytes: &[u8], line: usize) -> std::borrow::Cow<'_, [u8]> {
    if line == 0 {
        std::borrow::Cow::Owned(row_as_pgn(bytes))
    } else {
        std::borrow::Cow::Borrowed(bytes)
    }
}

/// An archive being written: plain, or compressed (zstd, gzip, bzip2) in frames on
/// `jobs` threads ([`super::CompressedWriter`]), as its name's ending asks
/// ([`super::Compression::from_name`]).
pub enum ArchiveWriter<W: Write = Box<dyn Write>> {
    /// Plain text (none once finished).
    Plain(Option<W>),
    /// Compressed (none once finished).
    #[cfg(feature = "compression")]
    Compressed(Option<super::CompressedWriter<W>>),
}

impl<W: Write> std::fmt::Debug for ArchiveWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ArchiveWriter::Plain(_) => "ArchiveWriter::Plain",
            #[cfg(feature = "compression")]
            ArchiveWriter::Compressed(_) => "ArchiveWriter::Compressed",
        })
    }
}

impl<W: Write> ArchiveWriter<W> {
    /// Writes into `out`, compressed as `compression` says at `level` (none: the
    /// compression's default) on `jobs` threads.
    ///
    /// # Errors
    ///
    /// A level the compression does not take, or a compression this build cannot write
    /// (without the `compression` feature).
    pub fn new(
        out: W,
        compression: super::Compression,
        level: Option<i32>,
        jobs: usize,
    ) -> io::Result<ArchiveWriter<W>> {
        match compression {
            super::Compression::None => Ok(ArchiveWriter::Plain(Some(out))),
            #[cfg(feature = "compression")]
            c => Ok(ArchiveWriter::Compressed(Some(
                super::CompressedWriter::new(out, c, level, jobs)?,
            ))),
            #[cfg(not(feature = "compression"))]
            c => {
                let _ = (level, jobs);
                Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    format!("writing {} needs the `compression` feature", c.name()),
                ))
            }
        }
    }

    /// Writes the last frame and flushes; writing after it is an error.
    ///
    /// # Errors
    ///
    /// The output's.
    pub fn finish(&mut self) -> io::Result<()> {
        match self {
            ArchiveWriter::Plain(w) => w.take().map_or(Ok(()), |mut w| w.flush()),
            #[cfg(feature = "compression")]
            ArchiveWriter::Compressed(w) => w.take().map_or(Ok(()), |w| w.finish().map(drop)),
        }
    }
}

impl<W: Write> Write for ArchiveWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            ArchiveWriter::Plain(Some(w)) => w.write(buf),
            #[cfg(feature = "compression")]
            ArchiveWriter::Compressed(Some(w)) => w.write(buf),
            _ => Err(io::Error::other("the output is finished")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            ArchiveWriter::Plain(Some(w)) => w.flush(),
            #[cfg(feature = "compression")]
            ArchiveWriter::Compressed(Some(w)) => w.flush(),
            _ => Ok(()),
        }
    }
}
