//! Files joined by `cat`, the first without its last line end: the next game's first
//! tag line on the line of the last game's result (`… 1-0[Event "b"]`), where the next
//! game starts, at that column ([`RawGame::column`]).

use std::io::BufRead;

use super::comments::{CommentScan, ends_with_result};
use super::{GameSplitter, RawGame};

impl<R: BufRead> GameSplitter<R> {
    /// The game before, handed out, when the line `line_start..line_end` (of movetext,
    /// a comment open at its start or not) holds a tag right after a result: the next
    /// game starts there. Not in a game over the limit, with its line: whether that line
    /// was read whole depends on where the blocks of the stream fall.
    pub(super) fn start_after_result(
        &mut self,
        line_start: usize,
        line_end: usize,
        in_comment: bool,
    ) -> Option<Option<RawGame>> {
        if self.skipped.is_some() || line_end - self.game_start > self.max_game_bytes {
            return None;
        }
        let pos = tag_after_result(&self.buf[line_start..line_end], in_comment)?;
        if self.start_line == 0 {
            // The game's first line (a game of movetext alone).
            self.start_line = self.line;
            self.game_offset = self.offset_of(self.game_start);
        }
        let at = line_start + pos;
        let column = self.buf[line_start..at]
            .iter()
            .filter(|&&b| b & 0xc0 != 0x80)
            .count()
            + 1;
        let (game, moved) = self.take_game(at);
        self.start_tag_line(at - moved, line_end - moved, column);
        self.after_result_line = true;
        self.read_tag_run();
        Some(game)
    }
}

/// Where in `line` (a line of movetext, a comment open at its start or not, that ends
/// with `]`) a tag begins right after a result: a `[` and a letter, the text before it
/// ending with a result token (and white space or a byte-order mark), outside comments,
/// quoted text and a `;` comment.
fn tag_after_result(line: &[u8], in_comment: bool) -> Option<usize> {
    // The line ends with the tag (files joined by `cat` put the next game's first tag
    // line on the last line of the game before): a line of movetext seldom ends with
    // `]`, and the `[` of every clock comment is looked at only then.
    if line.trim_ascii_end().last() != Some(&b']') {
        return None;
    }
    memchr::memchr_iter(b'[', line).find(|&pos| {
        line[pos + 1..]
            .trim_ascii_start()
            .first()
            .is_some_and(u8::is_ascii_alphabetic)
            // (A byte-order mark before it, of a file joined on, is white space.)
            && ends_with_result(
                line[..pos]
                    .strip_suffix(b"\xEF\xBB\xBF")
                    .unwrap_or(&line[..pos]),
            )
            && {
                let mut scan = CommentScan::line(in_comment);
                scan.feed(&line[..pos], false);
                scan.in_text()
            }
    })
}
