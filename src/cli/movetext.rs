//! The moves of `moves`, read from movetext as it is pasted from a PGN: move numbers
//! (`1.`, `1...`, `12.e4`), results, comments (`{…}`, `; …`), NAGs (`$1`), annotation
//! glyphs (`!?`), tag lines and variations (`(…)`, the main line only) are passed over.
//! It streams: time linear in the input and memory of its longest move, whatever the
//! lengths of its lines, comments or tokens.

use std::io::{self, BufRead};

/// The moves of a movetext, one at a time.
pub struct MoveTokens<R> {
    reader: R,
    /// The depth of variations the reader is in.
    depth: usize,
    /// The word being read.
    word: Vec<u8>,
    /// The result marker the main line ended with (a move after it is an error).
    result: Option<String>,
    /// Whether an error has ended the tokens.
    failed: bool,
}

/// A movetext that cannot be read: a comment or variation never closed, a `)` without
/// its `(`, a move after the result (an error of kind `InvalidData`).
fn broken(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

impl<R: BufRead> MoveTokens<R> {
    pub fn new(reader: R) -> MoveTokens<R> {
        MoveTokens {
            reader,
            depth: 0,
            word: Vec::new(),
            result: None,
            failed: false,
        }
    }

    /// The next byte, not consumed; `None` at the end.
    fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.reader.fill_buf() {
                Ok(b) => return Ok(b.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Consumes up to and including `end`; `false` when the input ends first.
    fn skip_past(&mut self, end: u8) -> io::Result<bool> {
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(false);
            }
            match memchr::memchr(end, chunk) {
                Some(n) => {
                    self.reader.consume(n + 1);
                    return Ok(true);
                }
                None => {
                    let n = chunk.len();
                    self.reader.consume(n);
                }
            }
        }
    }

    /// Reads a word (up to white space or a delimiter) into `self.word`.
    fn read_word(&mut self) -> io::Result<()> {
        self.word.clear();
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                return Ok(());
            }
            // A byte-order mark ends a word as white space does (`e4\u{feff}e5` is two
            // moves, as `validate` reads them).
            let end = chunk.iter().enumerate().position(|(i, &b)| {
                b.is_ascii_whitespace()
                    || is_delimiter(b)
                    || (b == 0xef && chunk[i..].starts_with(MARK))
            });
            let n = end.unwrap_or(chunk.len());
            self.word.extend_from_slice(&chunk[..n]);
            self.reader.consume(n);
            if end.is_some() {
                return Ok(());
            }
        }
    }
}

/// A byte-order mark, U+FEFF.
const MARK: &[u8] = "\u{feff}".as_bytes();

/// Takes the byte-order marks out of a word (one that a read cut in two: the word
/// reader ends a word at a whole one).
fn strip_marks(word: &mut Vec<u8>) {
    while let Some(at) = memchr::memmem::find(word, MARK) {
        word.drain(at..at + MARK.len());
    }
}

/// The bytes that end a word and start something else.
fn is_delimiter(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']')
}

/// Whether a word is a result marker, in any spelling the archive commands read.
fn is_result(word: &str) -> bool {
    pocketfen::game::read_result(word).is_some()
}

/// The move in a word, with a move number before it taken off (`12.e4`, `12...e5`);
/// `None` for a word that is no move (a move number, a result, a NAG, a glyph).
fn move_of(word: &str) -> Option<&str> {
    let digits = word.bytes().take_while(u8::is_ascii_digit).count();
    let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
    let word = if digits > 0 && dots > 0 {
        &word[digits + dots..]
    } else {
        word
    };
    let glyph = |c: char| matches!(c, '!' | '?' | '+' | '-' | '=' | '±' | '∓' | '∞' | '□');
    match word {
        "" | "*" | "1-0" | "0-1" | "1/2-1/2" | "½-½" | "0.5-0.5" => None,
        w if w.starts_with('$') => None,
        w if w.bytes().all(|b| b.is_ascii_digit() || b == b'.') => None,
        w if w.chars().all(glyph) && w != "--" => None,
        w => Some(w),
    }
}

impl<R: BufRead> Iterator for MoveTokens<R> {
    type Item = io::Result<String>;

    fn next(&mut self) -> Option<io::Result<String>> {
        if self.failed {
            return None;
        }
        let item = self.step();
        self.failed = matches!(item, Some(Err(_)));
        item
    }
}

impl<R: BufRead> MoveTokens<R> {
    fn step(&mut self) -> Option<io::Result<String>> {
        loop {
            let byte = match self.peek() {
                Ok(Some(b)) => b,
                Ok(None) if self.depth > 0 => {
                    return Some(Err(broken(
                        "a variation `(` is never closed by its `)`".to_owned(),
                    )));
                }
                Ok(None) => return None,
                Err(e) => return Some(Err(e)),
            };
            let closed = |found: io::Result<bool>, what: &str| match found {
                Ok(true) => Ok(()),
                Ok(false) => Err(broken(what.to_owned())),
                Err(e) => Err(e),
            };
            let step = match byte {
                b if b.is_ascii_whitespace() => {
                    self.reader.consume(1);
                    Ok(())
                }
                // A byte-order mark: white space.
                0xef if self.reader.fill_buf().is_ok_and(|c| c.starts_with(MARK)) => {
                    self.reader.consume(MARK.len());
                    Ok(())
                }
                b'{' => closed(
                    self.skip_past(b'}'),
                    "a `{` comment is never closed by its `}`",
                ),
                b';' => self.skip_past(b'\n').map(drop),
                // A tag pair (`[Event "…"]`) pasted with the moves.
                b'[' => closed(self.skip_past(b']'), "a `[` tag is never closed by its `]`"),
                b'(' => {
                    self.depth += 1;
                    self.reader.consume(1);
                    Ok(())
                }
                b')' if self.depth == 0 => Err(broken("a `)` with no `(` before it".to_owned())),
                b')' => {
                    self.depth -= 1;
                    self.reader.consume(1);
                    Ok(())
                }
                b'}' => Err(broken("a `}` with no `{` before it".to_owned())),
                b']' => {
                    self.reader.consume(1);
                    Ok(())
                }
                _ => {
                    if let Err(e) = self.read_word() {
                        return Some(Err(e));
                    }
                    // A byte-order mark (a file saved by Notepad starts with one) is
                    // white space, as `validate` reads it.
                    strip_marks(&mut self.word);
                    if self.word.is_empty() {
                        continue;
                    }
                    let word = String::from_utf8_lossy(&self.word).into_owned();
                    if self.depth > 0 {
                        continue;
                    }
                    if is_result(&word) {
                        self.result.get_or_insert(word);
                        continue;
                    }
                    if let Some(m) = move_of(&word) {
                        if let Some(r) = &self.result {
                            return Some(Err(broken(format!(
                                "`{m}` after the result `{r}`: the game is over"
                            ))));
                        }
                        return Some(Ok(m.to_owned()));
                    }
                    Ok(())
                }
            };
            if let Err(e) = step {
                return Some(Err(e));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<String> {
        MoveTokens::new(text.as_bytes())
            .collect::<io::Result<_>>()
            .unwrap()
    }

    #[test]
    fn pasted_movetext_gives_its_main_line() {
        let text = "[Event \"x\"]\n[Site \"y\"]\n\n1. e4 {best by test} e5 2.Nf3 $1 Nc6!? (2... d6 3. d4) \
                    3. Bb5 ; a comment to the end of the line\n3... a6 4. P@e5 @d4 0-0 O-O-O 1/2-1/2";
        assert_eq!(
            moves(text),
            [
                "e4", "e5", "Nf3", "Nc6!?", "Bb5", "a6", "P@e5", "@d4", "0-0", "O-O-O"
            ]
        );
        assert_eq!(moves("1-0 * 12. 12... !? $14"), Vec::<String>::new());
        assert_eq!(moves("e2e4 e7e5 -- N@f3"), ["e2e4", "e7e5", "--", "N@f3"]);
        // Nested variations, and comments inside them.
        assert_eq!(moves("1. e4 (1. d4 (1. c4 {x)}) d5) e5"), ["e4", "e5"]);
        // Byte-order marks are white space: at the start, between tokens, alone.
        assert_eq!(
            moves("\u{feff}1. e4 e5 \u{feff} 2. Nf3\u{feff}"),
            ["e4", "e5", "Nf3"]
        );
        // Inside a token too: it ends it.
        assert_eq!(moves("1. e4\u{feff}e5 2.\u{feff}Nf3"), ["e4", "e5", "Nf3"]);
    }

    /// What cannot be read is an error, after the moves before it.
    #[test]
    fn broken_movetext_is_an_error_after_the_moves_before_it() {
        for (text, says) in [
            ("e4 e5 {unterminated", "never closed by its `}`"),
            ("e4 (e3", "`(` is never closed"),
            ("e4 ) e5", "a `)` with no `(`"),
            ("e4 } e5", "a `}` with no `{`"),
            ("e4 e5 * Nf3", "`Nf3` after the result `*`"),
            ("e4 e5 1-0 2. Nf3", "`Nf3` after the result `1-0`"),
        ] {
            let mut tokens = MoveTokens::new(text.as_bytes());
            assert_eq!(tokens.next().unwrap().unwrap(), "e4", "{text}");
            let err = tokens.find_map(Result::err).expect(text);
            assert_eq!(err.kind(), io::ErrorKind::InvalidData);
            assert!(err.to_string().contains(says), "{text}: {err}");
        }
    }

    /// A token longer than any buffer, read through a reader that gives one byte at a
    /// time: whole, in one piece.
    #[test]
    fn a_long_token_is_read_whole_across_reads() {
        let long = "x".repeat(100_000);
        let text = format!("1. e4 {long} e5");
        let reader = io::BufReader::with_capacity(7, text.as_bytes());
        let got: Vec<String> = MoveTokens::new(reader).map(Result::unwrap).collect();
        assert_eq!(got, ["e4".to_owned(), long, "e5".to_owned()]);
    }
}
