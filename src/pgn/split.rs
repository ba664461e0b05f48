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
    /// The game's bytes, tags and movetext.
    pub bytes: Vec<u8>,
}

/// Reads games one by one from a stream, in blocks: lines are found with `memchr` in
/// the block and a game is copied out once, whole.
#[derive(Debug)]
pub struct GameSplitter<R> {
    reader: R,
    /// Unconsumed bytes: the current game from `game_start`, lines scanned up to `scan`.
    buf: Vec<u8>,
    game_start: usize,
    scan: usize,
    eof: bool,
    /// Line number of the next line to scan.
    line: usize,
    /// Line number of the current game's first line (0 while it has none).
    start_line: usize,
    has_movetext: bool,
    tags_ended: bool,
    number: usize,
    in_comment: bool,
    /// Whether the last line scanned was blank.
    prev_blank: bool,
    bom_checked: bool,
    bytes_read: u64,
    /// How far the current line has been searched for its end (0: not searched).
    searched: usize,
}

const BLOCK: usize = 1 << 18;

impl<R: BufRead> GameSplitter<R> {
    /// Splits the games of `reader`.
    pub fn new(reader: R) -> GameSplitter<R> {
        GameSplitter {
            reader,
            buf: Vec::with_capacity(BLOCK),
            game_start: 0,
            scan: 0,
            eof: false,
            line: 1,
            start_line: 0,
            has_movetext: false,
            tags_ended: false,
            number: 0,
            in_comment: false,
            prev_blank: false,
            bom_checked: false,
            bytes_read: 0,
            searched: 0,
        }
    }

    /// Bytes consumed from the stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Reads more of the stream into the buffer; `false` at the end.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // Drop what earlier games used, then append a block.
        if self.game_start > 0 {
            self.buf.drain(..self.game_start);
            self.scan -= self.game_start;
            self.game_start = 0;
        }
        let chunk = loop {
            match self.reader.fill_buf() {
                Ok(c) => break c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if chunk.is_empty() {
            self.eof = true;
            return Ok(false);
        }
        let n = chunk.len();
        self.buf.extend_from_slice(chunk);
        self.reader.consume(n);
        self.bytes_read += n as u64;
        if !self.bom_checked && self.buf.len() >= 3 {
            self.bom_checked = true;
            if self.buf.starts_with(b"\xef\xbb\xbf") {
                self.buf.drain(..3);
            }
        }
        Ok(true)
    }

    /// The next game, or `None` at the end of the stream.
    ///
    /// # Errors
    ///
    /// The stream's I/O error (a truncated or corrupt compressed stream).
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        loop {
            // The next complete line, or the rest at the end of the stream. A long line is
            // searched once: after a refill the search goes on where it stopped.
            let from = self.scan.max(self.searched);
            let line_end = match memchr::memchr(b'\n', &self.buf[from..]) {
                Some(n) => {
                    self.searched = 0;
                    from + n + 1
                }
                None => {
                    let searched = self.buf.len();
                    let drained = self.game_start;
                    if self.fill()? {
                        // `fill` drops the bytes before the game's start.
                        self.searched = searched - drained.min(searched);
                        continue;
                    }
                    if self.scan == self.buf.len() {
                        return Ok(self.take_game(self.buf.len()));
                    }
                    self.buf.len()
                }
            };
            let line_start = self.scan;
            let line = &self.buf[line_start..line_end];
            let lead = line
                .iter()
                .position(|c| !c.is_ascii_whitespace())
                .map(|i| line[i]);
            let was_in_comment = self.in_comment;
            // A comment still open at a blank line followed by a tag line was never
            // closed: the tag line starts the next game, so one corrupt game does not
            // swallow the rest of the archive (its validation reports the open comment).
            let reopens = was_in_comment && self.prev_blank && super::token::starts_with_tag(line);
            let starts_tag = (!was_in_comment || reopens) && lead == Some(b'[');
            if starts_tag && (self.has_movetext || self.tags_ended) {
                // This line opens the next game: hand out the current one.
                let game = self.take_game(line_start);
                self.start_tag_line(line_start, line_end);
                return Ok(game);
            }
            let blank = lead.is_none();
            self.prev_blank = blank;
            if self.start_line == 0 {
                if blank {
                    self.game_start = line_end;
                } else {
                    self.start_line = self.line;
                }
            } else if blank && !was_in_comment {
                self.tags_ended = true;
            }
            if !blank && !starts_tag && (was_in_comment || lead != Some(b'%')) {
                self.has_movetext = true;
            }
            self.in_comment = scan_comments(self.in_comment, &self.buf[line_start..line_end]);
            self.scan = line_end;
            self.line += 1;
        }
    }

    /// Starts the next game at the tag line `start..end`.
    fn start_tag_line(&mut self, start: usize, end: usize) {
        self.game_start = start;
        self.start_line = self.line;
        self.in_comment = scan_comments(false, &self.buf[start..end]);
        self.prev_blank = false;
        self.scan = end;
        self.line += 1;
    }

    /// Hands out the current game (`game_start..end`), if it has any line.
    fn take_game(&mut self, end: usize) -> Option<RawGame> {
        let bytes = self.buf[self.game_start..end].to_vec();
        let line = self.start_line;
        self.game_start = end;
        self.start_line = 0;
        self.has_movetext = false;
        self.tags_ended = false;
        if line == 0 || bytes.iter().all(u8::is_ascii_whitespace) {
            return None;
        }
        self.number += 1;
        Some(RawGame {
            number: self.number,
            line,
            bytes,
        })
    }
}

/// Whether a `{…}` comment is open at the end of `line`, given whether one was open at its
/// start (`;` comments and quoted tag values open none). Jumps between interesting bytes.
fn scan_comments(mut in_comment: bool, line: &[u8]) -> bool {
    // Only braces open or close a comment (tag lines have none).
    if memchr::memchr2(b'{', b'}', line).is_none() {
        return in_comment;
    }
    // Comments do not nest, so without quotes or `;` the last brace decides: after a `}`
    // no comment is open, after a `{` one is (opened there or earlier).
    if memchr::memchr2(b'"', b';', line).is_none() {
        return match memchr::memrchr2(b'{', b'}', line) {
            Some(n) => line[n] == b'{',
            None => in_comment,
        };
    }
    let mut at = 0;
    let mut in_string = false;
    while at < line.len() {
        if in_comment {
            match memchr::memchr(b'}', &line[at..]) {
                Some(n) => {
                    in_comment = false;
                    at += n + 1;
                }
                None => return true,
            }
        } else {
            let hit = if in_string {
                memchr::memchr(b'"', &line[at..])
            } else {
                memchr::memchr3(b'{', b'"', b';', &line[at..])
            };
            let Some(n) = hit else { return false };
            at += n;
            match line[at] {
                b'"' => in_string = !in_string,
                b'{' => in_comment = true,
                _ => return false, // `;`: the rest of the line is a comment
            }
            at += 1;
        }
    }
    in_comment
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
    fn an_unclosed_comment_ends_at_a_blank_line_and_a_tag() {
        let games = split(
            "[A \"1\"]\n\n1. e4 {never closed\n\n[B \"2\"]\n\n1. d4 *\n\n[C \"3\"]\n\n1. c4 *\n",
        );
        assert_eq!(games.len(), 3);
        assert_eq!(games[1].1, 5);
        // Inside a comment, a blank line before text that is no tag changes nothing.
        let games = split("[A \"1\"]\n\n1. e4 {open\n\n[not a tag] }\n1-0\n");
        assert_eq!(games.len(), 1);
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
