//! Splits a PGN stream into games without parsing moves: the reader side of validation.
//!
//! A game is its tag section and its movetext. A new game starts at a line beginning with
//! `[` once the current game has movetext, outside `{…}` comments (which may span lines).
//! `;` comments run to the end of the line; `%` lines are escapes. Memory stays flat: only
//! the current game is held.

use std::io::{self, BufRead};

/// One game's raw bytes and where it starts.
#[derive(Debug, Clone)]
pub struct RawGame {
    /// 1-based number of the game in the stream.
    pub number: usize,
    /// 1-based line of the game's first byte.
    pub line: usize,
    pub bytes: Vec<u8>,
}

/// Reads games one by one from a buffered stream.
pub struct GameSplitter<R> {
    reader: R,
    line: usize,
    number: usize,
    pending: Option<(Vec<u8>, usize)>,
    in_comment: bool,
    bom_checked: bool,
    bytes_read: u64,
}

impl<R: BufRead> GameSplitter<R> {
    pub fn new(reader: R) -> GameSplitter<R> {
        GameSplitter {
            reader,
            line: 0,
            number: 0,
            pending: None,
            in_comment: false,
            bom_checked: false,
            bytes_read: 0,
        }
    }

    /// Bytes consumed from the stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The next game, or `None` at the end of the stream.
    ///
    /// # Errors
    ///
    /// The stream's I/O error (a truncated or corrupt compressed stream).
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        let (mut bytes, mut start) = self.pending.take().unwrap_or_default();
        // The game so far has movetext, or its tag section ended with a blank line: a tag
        // line now opens the next game.
        let mut has_movetext = false;
        let mut tags_ended = false;
        loop {
            let line_start = bytes.len();
            let n = self.reader.read_until(b'\n', &mut bytes)?;
            if n == 0 {
                break;
            }
            self.bytes_read += n as u64;
            self.line += 1;
            if !self.bom_checked {
                self.bom_checked = true;
                if bytes[line_start..].starts_with(b"\xef\xbb\xbf") {
                    bytes.drain(line_start..line_start + 3);
                }
            }
            let line = &bytes[line_start..];
            let first = line.iter().position(|c| !c.is_ascii_whitespace());
            let lead = first.map(|i| line[i]);
            let was_in_comment = self.in_comment;
            let starts_tag = !was_in_comment && lead == Some(b'[');
            if starts_tag && (has_movetext || tags_ended) {
                // This line opens the next game.
                let next = bytes.split_off(line_start);
                self.scan_comments(&next);
                self.pending = Some((next, self.line));
                return Ok(Some(self.finish(bytes, start)));
            }
            let blank = lead.is_none();
            if line_start == 0 {
                if blank {
                    bytes.clear();
                    continue;
                }
                start = self.line;
            } else if blank && !was_in_comment {
                tags_ended = true;
            }
            if !blank && !starts_tag && (was_in_comment || lead != Some(b'%')) {
                has_movetext = true;
            }
            self.scan_comments(&bytes[line_start..]);
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        Ok(Some(self.finish(bytes, start)))
    }

    fn finish(&mut self, bytes: Vec<u8>, start: usize) -> RawGame {
        self.number += 1;
        RawGame {
            number: self.number,
            line: start,
            bytes,
        }
    }

    /// Tracks whether a `{…}` comment is open at the end of `line` (`;` comments and
    /// quoted tag values do not open one). Jumps between the interesting bytes.
    fn scan_comments(&mut self, line: &[u8]) {
        let mut at = 0;
        let mut in_string = false;
        while at < line.len() {
            if self.in_comment {
                match memchr::memchr(b'}', &line[at..]) {
                    Some(n) => {
                        self.in_comment = false;
                        at += n + 1;
                    }
                    None => return,
                }
            } else {
                let hit = if in_string {
                    memchr::memchr(b'"', &line[at..])
                } else {
                    memchr::memchr3(b'{', b'"', b';', &line[at..])
                };
                let Some(n) = hit else { return };
                at += n;
                match line[at] {
                    b'"' => in_string = !in_string,
                    b'{' => self.in_comment = true,
                    _ => return, // `;`: the rest of the line is a comment
                }
                at += 1;
            }
        }
    }
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = io::Result<RawGame>;
    fn next(&mut self) -> Option<io::Result<RawGame>> {
        self.next_game().transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<(usize, usize, String)> {
        GameSplitter::new(s.as_bytes())
            .map(|g| {
                let g = g.unwrap();
                (g.number, g.line, String::from_utf8(g.bytes).unwrap())
            })
            .collect()
    }

    #[test]
    fn splits_on_tags_after_movetext() {
        let games = split("[A \"1\"]\n\n1. e4 e5 1-0\n\n[B \"2\"]\n[C \"3\"]\n1. d4 *\n");
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].0, games[0].1), (1, 1));
        assert_eq!((games[1].0, games[1].1), (2, 5));
        assert!(games[1].2.starts_with("[B"));
    }

    #[test]
    fn comments_spanning_lines_hide_brackets() {
        let games = split(
            "[A \"1\"]\n1. e4 {a comment\n[not a tag] still comment} e5 *\n[B \"2\"]\n1. d4 *\n",
        );
        assert_eq!(games.len(), 2);
        assert!(games[0].2.contains("[not a tag]"));
    }

    #[test]
    fn movetext_only_and_empty_games() {
        assert_eq!(split("1. e4 e5 *\n").len(), 1);
        assert_eq!(split("\n\n").len(), 0);
        // A tag section, a blank line and no movetext is a game of its own.
        assert_eq!(split("[A \"1\"]\n\n[B \"2\"]\n1. e4 *\n").len(), 2);
        // Without the blank line the tag sections run together into one game.
        assert_eq!(split("[A \"1\"]\n[B \"2\"]\n1. e4 *\n").len(), 1);
    }
}
