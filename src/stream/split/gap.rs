//! Where the text breaks: a damaged frame of a compressed archive was stepped over
//! ([`DamagedFrame`]), its text after the damage lost.
//!
//! The game being read when the text breaks is cut short: it is left out, unless its
//! result had been read (then it is whole, and handed out). The text after the break
//! starts inside some game: it is left out up to the next *sync point* (the line at which
//! a `--split` part starts, found by the same search), where reading goes on. Each piece
//! left out takes the number of a game, so that the games after the break keep the
//! numbers a split run gives them, and counts as lost; line numbers go on counting the
//! lines of the text read, the break joining the line it cuts to the line after it.
//! A part of a split archive leaves the text after the break to the next part when its
//! own end comes first.

use std::io::BufRead;
use std::sync::atomic::Ordering;

use super::{Damage, GameSplitter};
use crate::stream::sync::SyncScan;
use crate::stream::{Compression, DamagedFrame, FrameText};

/// What a break read back without its compression was at.
#[cfg(feature = "serde")]
fn zstd() -> Compression {
    Compression::Zstd
}

/// A break in an archive's text, where a damaged frame of its compression was stepped
/// over: the frame, and what was left out around it (a summary's `breaks`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TextBreak {
    /// The damaged frame's compression (zstd when absent: breaks of runs before bzip2
    /// streams were stepped over).
    #[cfg_attr(feature = "serde", serde(default = "zstd"))]
    pub compression: Compression,
    /// The damaged frame's offset in the file.
    pub offset: u64,
    /// Its compressed size.
    pub length: u64,
    /// When only a block of a bzip2 stream was stepped over: the stream's offset
    /// (`offset` and `length` are then the block's).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub stream: Option<u64>,
    /// What its decoder found.
    pub reason: String,
    /// The bytes of text the frame gave before its damage was found.
    #[cfg_attr(feature = "serde", serde(default))]
    pub text_read: u64,
    /// How much text the frame held, as far as its header tells (the rest of it, after
    /// `text_read`, is lost).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub text: Option<FrameText>,
    /// The line of the text read that the break falls in (the break joins the line it
    /// cuts to the line after it).
    pub line: usize,
    /// The game cut short by the break, left out.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub cut: Option<CutGame>,
    /// The text after the break up to the next game, left out: the rest of a game.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub rest: Option<RestOfGame>,
}

/// The game a break cuts short: its number and first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CutGame {
    /// The number it takes.
    pub game: usize,
    /// Its first line.
    pub line: usize,
}

/// The text left out after a break: the number it takes, and its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RestOfGame {
    /// The number it takes.
    pub game: usize,
    /// Its first line (where the text breaks).
    pub line: usize,
    /// Its last line.
    pub last_line: usize,
}

impl TextBreak {
    /// The damaged frame it is at.
    pub fn frame(&self) -> DamagedFrame {
        DamagedFrame {
            compression: self.compression,
            offset: self.offset,
            len: self.length,
            stream: self.stream,
            reason: self.reason.clone(),
            read: self.text_read,
            text: self.text,
        }
    }

    /// The bytes of text lost after the damage, as far as the frame's header tells
    /// ([`DamagedFrame::text_lost`]), and whether that is the count (the header gave the
    /// frame's size; else at most it).
    pub fn text_lost(&self) -> Option<(u64, bool)> {
        let lost = self.frame().text_lost()?;
        Some((
            lost,
            matches!(
                self.text,
                Some(FrameText::Header(_) | FrameText::Trailer(_))
            ),
        ))
    }

    /// The break as a run over the whole file tells it, of a part whose games and lines
    /// come after `games` games and `lines` lines (`merge`).
    pub fn shifted(&self, games: usize, lines: usize) -> TextBreak {
        TextBreak {
            line: self.line + lines,
            cut: self.cut.map(|c| CutGame {
                game: c.game + games,
                line: c.line + lines,
            }),
            rest: self.rest.map(|r| RestOfGame {
                game: r.game + games,
                line: r.line + lines,
                last_line: r.last_line + lines,
            }),
            ..self.clone()
        }
    }
}

impl std::fmt::Display for TextBreak {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}; the text breaks at line {}, ",
            self.frame(),
            self.line
        )?;
        let mut left = Vec::new();
        if let Some(c) = self.cut {
            left.push(format!("game {} (from line {}, cut short)", c.game, c.line));
        }
        if let Some(r) = self.rest {
            let lines = if r.last_line > r.line {
                format!("lines {} to {}", r.line, r.last_line)
            } else {
                format!("line {}", r.line)
            };
            left.push(format!("{lines} (the rest of a game: game {})", r.game));
        }
        if left.is_empty() {
            f.write_str("nothing else is left out")
        } else {
            write!(f, "left out: {}", left.join(" and "))
        }
    }
}

/// A break in the text whose next sync point is being looked for.
#[derive(Debug)]
pub(super) struct Gap {
    frame: DamagedFrame,
    scan: SyncScan,
    /// Where the text after the break starts in the splitter's buffer.
    pub(super) from: usize,
    /// The line the break falls in.
    line: usize,
    /// The game cut short by the break: its number and first line.
    cut: Option<(usize, usize)>,
    /// Whether the text after the break left out holds anything but white space, and
    /// whether its last byte ended a line.
    text: bool,
    ends_line: bool,
    /// Whether the last byte left out was a CR (an LF after it ends no second line).
    cr: bool,
}

/// The line ends in `bytes` as the splitter counts them (LF, CRLF, a lone CR); `cr` says
/// whether the byte before them was a CR, and is left saying whether their last one is.
fn line_ends(bytes: &[u8], cr: &mut bool) -> usize {
    let mut n = 0;
    let mut cr_at = None;
    for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
        if bytes[i] == b'\r' {
            n += 1;
            cr_at = Some(i);
        } else if !(i == 0 && *cr) && (i == 0 || cr_at != Some(i - 1)) {
            n += 1;
        }
    }
    if let Some(&last) = bytes.last() {
        *cr = last == b'\r';
    }
    n
}

impl<R: BufRead> GameSplitter<R> {
    /// The text breaks here: the game being read is handed out or cut short, and the text
    /// after the break is looked through for the next sync point. `false` when the
    /// stream ends here instead (a part's end comes before the break).
    pub(super) fn meet_gap(&mut self, frame: DamagedFrame) -> bool {
        let at = self.bytes_read;
        // The text read ends in a CR that ended its line: an LF after the break joins it
        // (a CRLF of the text read), as the lines are counted.
        let after_cr = self.scan == self.buf.len() && self.buf.last() == Some(&b'\r');
        if let Some(g) = self.gap.take() {
            // A second break before a sync point: the text held since the first is left
            // out with it.
            self.leave_out(self.buf.len(), g);
        }
        let end = self.end.as_ref().map(|e| e.at.load(Ordering::Acquire));
        if self.start_line != 0 && end.is_some_and(|e| self.game_offset >= e) {
            // The game belongs to the next part: handed out as at the stream's end, and
            // the part's reader stops at it.
            self.buf.truncate(self.scan);
            self.eof = true;
            return false;
        }
        // Where the line the break cuts starts (it was not read whole).
        let cut_line_at = self.offset_of(self.scan);
        // A game over the size limit kept none of its lines: whether it ended is not known.
        // (A line set aside alone, white space or a tag line over the limit, is the line
        // the break cuts: it is dropped with it.)
        let ended = self.skipped.is_none() && self.game_has_ended();
        let mut cut = None;
        if self.start_line == 0 || ended {
            self.buf.truncate(self.scan);
            self.partial = None;
            if self.start_line == 0 {
                // White space over the size limit before the break belongs to no game.
                self.skipped = None;
            }
        } else {
            self.number += 1;
            self.lost += 1;
            cut = Some((self.number, self.start_line));
            self.buf.truncate(self.game_start);
            self.scan = self.game_start;
            self.clear_game();
            self.in_comment = false;
            self.prev_blank = false;
            self.skipped = None;
            self.partial = None;
        }
        self.searched = 0;
        self.blank_to = None;
        let gap = Gap {
            frame,
            scan: SyncScan::at_break(at),
            from: self.buf.len(),
            line: self.line,
            cut,
            text: false,
            ends_line: true,
            cr: after_cr,
        };
        if let Some(e) = end
            && at > e
        {
            // The next part starts before the break, in the line it cuts (its first game's
            // first line, found from its first bytes): the text after the break is that
            // part's, and so is the break but for the game it cut short here (`merge`
            // joins the two halves).
            if let Some(part_end) = &self.end
                && cut_line_at == e
            {
                let mut stop = part_end.stop.lock().unwrap_or_else(|p| p.into_inner());
                stop.get_or_insert((e, self.line));
            }
            if gap.cut.is_some() {
                self.close_gap(gap);
            }
            self.eof = true;
            return false;
        }
        self.gap = Some(gap);
        true
    }

    /// Feeds the bytes appended to the buffer from `from` (at text offset `offset`) to the
    /// search for the sync point, and leaves out the bytes before what may still be it;
    /// at the end of the stream (`at_end`), all that is left.
    pub(super) fn look_for_sync(&mut self, from: usize, at_end: bool) {
        let Some(mut g) = self.gap.take() else { return };
        let offset = self.bytes_read - (self.buf.len() - from) as u64;
        if at_end {
            g.scan.finish();
        } else {
            g.scan.feed(&self.buf[from..], offset);
        }
        let found = g.scan.found();
        let keep = found.or(g.scan.hold_from()).unwrap_or(self.bytes_read);
        let keep = if at_end && found.is_none() {
            self.buf.len()
        } else {
            self.buf.len() - (self.bytes_read - keep) as usize
        };
        self.drop_left(&mut g, keep);
        self.searched = 0;
        if found.is_some() || at_end {
            self.close_gap(g);
        } else {
            self.gap = Some(g);
        }
    }

    /// The breaks met, what they left out and how many games, once the games have
    /// ended: taken once. A break whose sync point was never reached (the run stopped) is
    /// closed, what was held of the text after it left out.
    pub(super) fn take_breaks(&mut self) -> Option<Damage> {
        if let Some(g) = self.gap.take() {
            self.leave_out(self.buf.len(), g);
        }
        (!self.breaks.is_empty()).then(|| {
            let breaks = std::mem::take(&mut self.breaks);
            Damage {
                message: breaks
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("; "),
                games: std::mem::take(&mut self.lost),
                breaks,
            }
        })
    }

    /// Leaves out the buffer's bytes of the text after the break from its start to `to`,
    /// and closes the break.
    fn leave_out(&mut self, to: usize, mut g: Gap) {
        self.drop_left(&mut g, to);
        self.close_gap(g);
    }

    /// Drops the buffer's bytes of the text after the break from its start to `to`,
    /// counting their lines and whether they held text.
    fn drop_left(&mut self, g: &mut Gap, to: usize) {
        let left = &self.buf[g.from..to];
        self.line += line_ends(left, &mut g.cr);
        if let Some(&last) = left.last() {
            g.ends_line = matches!(last, b'\n' | b'\r');
        }
        g.text |= !super::trim_blank_start(left).is_empty();
        self.buf.drain(g.from..to);
    }

    /// Clears what is known of the game being read, which starts at `game_start` now (a
    /// game handed out, or cut short by a break).
    pub(super) fn clear_game(&mut self) {
        self.start_line = 0;
        self.start_column = 1;
        self.after_result_line = false;
        self.has_movetext = false;
        self.tags_ended = false;
        self.tag_names.clear();
        self.tags_read_to = self.game_start;
        self.tags_closed = false;
        self.blank_to = None;
    }

    /// Says what the break left out.
    fn close_gap(&mut self, g: Gap) {
        let rest = g.text.then(|| {
            // A game whose result was read before the break is handed out after it, at
            // the sync point: it keeps the number before the text left out.
            let game = if self.start_line != 0 {
                self.deferred += 1;
                self.number + 1 + self.deferred
            } else {
                self.number += 1;
                self.number
            };
            self.lost += 1;
            RestOfGame {
                game,
                line: g.line,
                last_line: (self.line - usize::from(g.ends_line)).max(g.line),
            }
        });
        self.breaks.push(TextBreak {
            compression: g.frame.compression,
            offset: g.frame.offset,
            length: g.frame.len,
            stream: g.frame.stream,
            reason: g.frame.reason,
            text_read: g.frame.read,
            text: g.frame.text,
            line: g.line,
            cut: g.cut.map(|(game, line)| CutGame { game, line }),
            rest,
        });
    }
}

#[cfg(test)]
mod tests;
