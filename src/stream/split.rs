//! Splits a PGN stream into games without parsing moves: the reader side of validation.
//!
//! A game is its tag section and its movetext. A new game starts at a line beginning with
//! `[` once the current game has movetext, outside `{…}` comments (which may span lines).
//! `;` comments run to the end of the line; `%` lines are escapes. Memory stays flat: only
//! the current game is held.
//!
//! Lines end at LF, CRLF or a lone CR (old Mac files). A byte-order mark (U+FEFF) anywhere
//! between tokens is white space: files joined with `cat`, each with its BOM, split as
//! they should. Tags after a blank line but before any movetext belong to the same game
//! (python-chess reads them so), unless they repeat a tag name the game already has: then
//! the game had no movetext and they start the next one. A tag right after a result on
//! a line of movetext (`… 1-0[Event "b"]`: files joined by `cat`, the first without its
//! last line end) starts the next game there, at that column ([`RawGame::column`]).

use std::collections::HashSet;
use std::fmt;
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::DamagedFrame;
use super::token::{known_lead, trim_blank_start};
pub(crate) use comments::ends_with_result;
use comments::{CommentScan, scan_comments};
pub use gap::{CutGame, RestOfGame, TextBreak};

/// What the splitter does when its buffer holds no line end.
enum AtEnd {
    /// The stream ended: the line ends at this offset (the buffer's end).
    Line(usize),
    /// Look again (refilled, or a line set aside).
    Again,
    /// Hand out this game (none: the stream ended with no game left).
    Game(Option<RawGame>),
}

/// One game's raw bytes and where it starts (the default: no bytes, numbered 0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawGame {
    /// 1-based number of the game in the stream.
    pub number: usize,
    /// 1-based line of the game's first byte.
    pub line: usize,
    /// 1-based column (in characters) of the game's first byte on its line: 1, but for
    /// a game whose tags begin on the line of the last game's result (`1-0[Event "b"]`,
    /// files joined by `cat` without their last line end). 0 is read as 1.
    pub column: usize,
    /// Byte offset of the game's first byte in the stream (a leading byte-order mark
    /// counts).
    pub offset: u64,
    /// The game's bytes, tags and movetext (none for a game over the size limit).
    pub bytes: Vec<u8>,
    /// The size of a game over the splitter's limit, which was skipped, not kept.
    pub too_large: Option<u64>,
}

impl RawGame {
    /// A game of `bytes`, number 1 on line 1 (for a game held in memory).
    pub fn new(bytes: Vec<u8>) -> RawGame {
        RawGame {
            number: 1,
            line: 1,
            column: 1,
            offset: 0,
            bytes,
            too_large: None,
        }
    }
}

/// The largest game a splitter keeps by default (32 MiB); a larger one is skipped in
/// constant memory and handed out with its size only. Real games stay far below it (an
/// annotated game with every clock is some tens of KB).
pub const DEFAULT_MAX_GAME_BYTES: usize = 32 << 20;

/// How a splitter reads: its game size limit, the flag that stops it, and whom it tells
/// of its progress.
#[derive(Clone)]
pub struct SplitOptions {
    /// A game larger than this is skipped in constant memory and handed out with its
    /// size only ([`RawGame::too_large`]); [`DEFAULT_MAX_GAME_BYTES`] by default.
    pub max_game_bytes: usize,
    /// Once set, the splitter hands out no further game, inside a game of any size too
    /// ([`GameSplitter::stopped`] then says so).
    pub stop: Option<Arc<AtomicBool>>,
    /// Called with the bytes read and the games split after each game.
    pub progress: Option<Arc<dyn Fn(u64, usize) + Send + Sync>>,
}

impl Default for SplitOptions {
    fn default() -> SplitOptions {
        SplitOptions {
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            stop: None,
            progress: None,
        }
    }
}

impl fmt::Debug for SplitOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SplitOptions")
            .field("max_game_bytes", &self.max_game_bytes)
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
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
    /// The column of the current game's first byte on that line (see [`RawGame::column`]).
    start_column: usize,
    /// The current game began after a result on its first line, and only blank lines
    /// have followed that line: a tag line after them starts the next game, as after
    /// any line of movetext (the rule `--split` parts meet by, `part.rs`).
    after_result_line: bool,
    has_movetext: bool,
    tags_ended: bool,
    number: usize,
    in_comment: bool,
    /// Whether the last line scanned was blank.
    prev_blank: bool,
    bom_checked: bool,
    /// Whether a CR has been read: until then lines end at LF alone (a cheaper search).
    cr: bool,
    bytes_read: u64,
    /// How far the current line has been searched for its end (0: not searched).
    searched: usize,
    max_game_bytes: usize,
    /// The bytes of the current game dropped so far, when it is over the limit.
    skipped: Option<u64>,
    /// What is known of a line too long to keep whole, its bytes dropped so far.
    partial: Option<PartialLine>,
    /// Told of the bytes read and games split after each game.
    progress: Option<ProgressHook>,
    /// Stream offset of the current game's first line.
    game_offset: u64,
    /// A part's end: no game starting at or after it is handed out.
    end: Option<Arc<PartEnd>>,
    /// A read error met after a game that had ended (its result read): the game is handed
    /// out first, then the error.
    pending: Option<io::Error>,
    /// The names (in lower case) of the current game's tags read so far, for
    /// [`GameSplitter::repeats_a_tag`]: each line of a tag section is read once.
    tag_names: HashSet<String>,
    /// Where the tag section stops being read for names: the buffer's bytes before it
    /// are in `tag_names`.
    tags_read_to: usize,
    /// Whether the tag section was seen to end (a token other than a tag or a comment
    /// line): no names after it count.
    tags_closed: bool,
    /// How far the line at `scan` is known to be blank, as `(scan, end)`: a long line of
    /// white space is looked at once, not again after each refill.
    blank_to: Option<(usize, usize)>,
    /// Once set, the splitter stops where it is, inside a game too, and hands out no
    /// further game.
    stop: Option<Arc<AtomicBool>>,
    /// Whether the stop flag ended the stream.
    stopped: bool,
    /// A break in the text (a damaged frame stepped over) whose next sync point is
    /// being looked for.
    gap: Option<gap::Gap>,
    /// What each break in the text left out, and how many games.
    breaks: Vec<gap::TextBreak>,
    lost: usize,
    /// Numbers taken by text left out after a game still held: the next game handed out
    /// takes its number first.
    deferred: usize,
    /// A break met when the text before it ended in a CR: no LF can follow that CR, so
    /// it ends its line, which is read before the break is met (as an LF's line is).
    break_after_cr: Option<DamagedFrame>,
}

/// Where a part of an archive ends (`--split`), set by its reader once found, and where
/// its splitter stopped.
#[derive(Debug)]
pub(crate) struct PartEnd {
    /// Stream offset of the first game of the next part (`u64::MAX` until found).
    pub(crate) at: AtomicU64,
    /// The first game at or after `at`: its offset and line.
    pub(crate) stop: Mutex<Option<(u64, usize)>>,
    /// The lines read, when the stream ended before `at`.
    pub(crate) lines: AtomicUsize,
}

impl PartEnd {
    pub(crate) fn new() -> PartEnd {
        PartEnd {
            at: AtomicU64::new(u64::MAX),
            stop: Mutex::new(None),
            lines: AtomicUsize::new(0),
        }
    }

    /// The first game at or after the end, once the splitter has met it.
    pub(crate) fn stop(&self) -> Option<(u64, usize)> {
        *self.stop.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The progress callback of a splitter: told the bytes read and the games split.
struct ProgressHook(Arc<dyn Fn(u64, usize) + Send + Sync>);

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook")
    }
}

/// The start of a line whose bytes were dropped (its game is over the size limit).
#[derive(Debug)]
struct PartialLine {
    lead: Option<u8>,
    tag_like: bool,
    comments: CommentScan,
    dropped: u64,
}

const BLOCK: usize = 1 << 18;

/// The size from which a game takes the buffer instead of a copy of its bytes.
const HAND_OVER: usize = 4 * BLOCK;

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
            start_column: 1,
            after_result_line: false,
            has_movetext: false,
            tags_ended: false,
            number: 0,
            in_comment: false,
            prev_blank: false,
            bom_checked: false,
            cr: false,
            bytes_read: 0,
            searched: 0,
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            skipped: None,
            partial: None,
            progress: None,
            game_offset: 0,
            end: None,
            pending: None,
            tag_names: HashSet::new(),
            tags_read_to: 0,
            tags_closed: false,
            blank_to: None,
            stop: None,
            stopped: false,
            gap: None,
            breaks: Vec::new(),
            lost: 0,
            deferred: 0,
            break_after_cr: None,
        }
    }

    /// Stops as soon as `stop` is set, within the current game too: the game being read
    /// is dropped and [`GameSplitter::next_game`] gives `None` from then on
    /// ([`GameSplitter::stopped`] tells why).
    pub(crate) fn stop_on(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    /// Whether the stop flag ([`SplitOptions::stop`]) ended the stream.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Hands out no game that starts at or after `end` (once it is known): the games of
    /// one part of a split archive.
    pub(crate) fn end_at(&mut self, end: Arc<PartEnd>) {
        self.end = Some(end);
    }

    /// The stream offset of the buffer's byte `i`.
    fn offset_of(&self, i: usize) -> u64 {
        self.bytes_read - (self.buf.len() - i) as u64
    }

    /// Calls `progress` with the bytes read and the games split after each game.
    pub(crate) fn on_progress(&mut self, progress: impl Fn(u64, usize) + Send + Sync + 'static) {
        self.progress = Some(ProgressHook(Arc::new(progress)));
    }

    /// Splits the games of `reader` as `opts` say.
    pub fn with_options(reader: R, opts: SplitOptions) -> GameSplitter<R> {
        GameSplitter {
            max_game_bytes: opts.max_game_bytes.max(1),
            stop: opts.stop,
            progress: opts.progress.map(ProgressHook),
            ..GameSplitter::new(reader)
        }
    }

    /// Bytes consumed from the stream so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Reads more of the stream into the buffer; `false` at the end. After a break in the
    /// text, it reads on to the next sync point.
    fn fill(&mut self) -> io::Result<bool> {
        loop {
            let more = self.fill_once()?;
            if !more || self.gap.is_none() {
                return Ok(more);
            }
            // A stop is honoured while the text after a break is looked through too.
            if self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                return Ok(true);
            }
        }
    }

    /// Reads a block of the stream into the buffer; `false` at the end.
    fn fill_once(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // Drop what earlier games used, then append a block.
        if self.game_start > 0 {
            let drained = self.game_start;
            self.buf.drain(..drained);
            self.scan -= drained;
            self.searched = self.searched.saturating_sub(drained);
            self.game_start = 0;
            if let Some(g) = &mut self.gap {
                g.from -= drained;
            }
            self.tags_read_to = self.tags_read_to.saturating_sub(drained);
            self.blank_to = match self.blank_to {
                Some((at, end)) if at >= drained => Some((at - drained, end - drained)),
                _ => None,
            };
        }
        if let Some(frame) = self.break_after_cr.take()
            && !self.meet_gap(frame)
        {
            return Ok(false);
        }
        let n = loop {
            let e = match self.reader.fill_buf() {
                Ok(c) => break c.len(),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => e,
            };
            // A damaged frame stepped over: the text breaks, and goes on after it.
            if let Some(frame) = DamagedFrame::of(&e) {
                if self.scan < self.buf.len() && self.buf.last() == Some(&b'\r') {
                    // The line the CR ends is read first.
                    self.break_after_cr = Some(frame.clone());
                    return Ok(true);
                }
                if self.meet_gap(frame.clone()) {
                    continue;
                }
                return Ok(false);
            }
            // Whether the game has ended is asked only here: asked at every refill, it
            // would look again at every blank line that trails a game.
            if !self.game_has_ended() {
                return Err(e);
            }
            // What was read is a whole game: it is handed out as at the end of the stream
            // (the start of a line after it is dropped), then the error.
            let scan = self.scan;
            self.buf.truncate(scan);
            self.pending = Some(e);
            self.eof = true;
            return Ok(false);
        };
        if n == 0 {
            self.look_for_sync(self.buf.len(), true);
            self.eof = true;
            return Ok(false);
        }
        let from = self.buf.len();
        // `fill_buf` gives the same bytes again until they are consumed.
        let chunk = self.reader.fill_buf()?;
        self.cr = self.cr || memchr::memchr(b'\r', chunk).is_some();
        self.buf.extend_from_slice(chunk);
        self.reader.consume(n);
        self.bytes_read += n as u64;
        if !self.bom_checked && self.buf.len() >= 3 {
            self.bom_checked = true;
            // The stream's own mark only: the buffer still holds the stream's first
            // bytes (read a byte at a time, a first line `\n` may be gone already, and
            // a mark after it is white space like any other, whatever the read sizes).
            let from_start = self.bytes_read == self.buf.len() as u64;
            if from_start && self.buf.starts_with(b"\xef\xbb\xbf") {
                // No line was read before it (it has no line end), but the bytes of it
                // were searched for one when they came a byte or two at a time.
                self.buf.drain(..3);
                self.searched = self.searched.saturating_sub(3);
            }
        }
        self.look_for_sync(from.min(self.buf.len()), false);
        Ok(true)
    }

    /// Whether the lines read of the current game end with its result (`1-0`, `0-1`,
    /// `1/2-1/2`, `*`) outside a comment: a game complete whatever comes after.
    fn game_has_ended(&self) -> bool {
        self.start_line != 0
            && self.has_movetext
            && !self.in_comment
            && ends_with_result(&self.buf[self.game_start..self.scan])
    }

    /// The next game, or `None` at the end of the stream.
    ///
    /// # Errors
    ///
    /// The stream's I/O error (a truncated or corrupt compressed stream). A game whose
    /// result was read before the error is handed out first.
    pub fn next_game(&mut self) -> io::Result<Option<RawGame>> {
        let game = self.next_any_game()?;
        if game.is_none()
            && let Some(e) = self.pending.take()
        {
            return Err(e);
        }
        if let (Some(end), None) = (&self.end, &game) {
            end.lines.store(self.line - 1, Ordering::Release);
        }
        if let (Some(end), Some(g)) = (&self.end, &game)
            && g.offset >= end.at.load(Ordering::Acquire)
        {
            end.stop
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert((g.offset, g.line));
            self.eof = true;
            self.buf.clear();
            self.scan = 0;
            self.game_start = 0;
            self.searched = 0;
            self.start_line = 0;
            self.partial = None;
            self.skipped = None;
            return Ok(None);
        }
        Ok(game)
    }

    /// The next game, ignoring a part's end.
    fn next_any_game(&mut self) -> io::Result<Option<RawGame>> {
        loop {
            // Looked at for each line and each refill: a stop is honoured inside a game of
            // any size too.
            if self.stopped
                || self
                    .stop
                    .as_ref()
                    .is_some_and(|s| s.load(Ordering::Relaxed))
            {
                self.stopped = true;
                return Ok(None);
            }
            // The next complete line, or the rest at the end of the stream. A long line is
            // searched once: after a refill the search goes on where it stopped.
            let from = self.scan.max(self.searched);
            let final_cr = self.break_after_cr.is_some();
            let line_end = match line_end(&self.buf, from, self.cr, final_cr) {
                Some(end) => {
                    self.searched = 0;
                    end
                }
                None => match self.at_buffer_end()? {
                    AtEnd::Line(end) => end,
                    AtEnd::Again => continue,
                    AtEnd::Game(game) => return Ok(game),
                },
            };
            if let Some(game) = self.read_line(line_end) {
                return Ok(game);
            }
        }
    }

    /// No line end in the buffer: the line so far set aside when the game is over the
    /// limit, then a refill, or at the end of the stream the rest as the last line.
    fn at_buffer_end(&mut self) -> io::Result<AtEnd> {
        // Over the limit? A line that may start the next game (a tag line, or
        // one blank so far) counts alone, so that whether a game is too large
        // does not depend on where the blocks of the stream fall.
        // (A line set aside already cannot start a game: its lead is not
        // needed.)
        let lead = match self.partial {
            None => self.lead_so_far(),
            Some(_) => None,
        };
        let may_start_a_game = self.partial.is_none() && matches!(lead, None | Some(b'['));
        let over = if may_start_a_game {
            self.buf.len() - self.scan > self.max_game_bytes
        } else {
            self.buf.len() - self.game_start > self.max_game_bytes
        };
        if over {
            // As `read_line` decides, on what the buffer holds of the line (a tag pair,
            // or a tag's name, alone over the limit is not read whole): a tag line after
            // the game's movetext starts the next game, and so does one after a blank
            // line that repeats a tag name of the section; a tag line after a blank line
            // does even inside a comment left open.
            let tag_line = may_start_a_game && lead == Some(b'[') && self.start_line != 0;
            let reopens = tag_line
                && self.in_comment
                && self.prev_blank
                && super::token::starts_with_tag(&self.buf[self.scan..]);
            if tag_line
                && (!self.in_comment || reopens)
                && (self.has_movetext
                    || (self.tags_ended
                        && (self.after_result_line
                            || self.repeats_a_tag(self.scan, self.buf.len()))))
            {
                // A tag line that starts the next game, which is over the limit: this
                // one is handed out first.
                let (game, _) = self.take_game(self.scan);
                // The next game opens no comment before its first line (as
                // `start_tag_line` reads it).
                self.in_comment = false;
                self.set_aside_partial_line();
                if game.is_some() {
                    return Ok(AtEnd::Game(game));
                }
                return Ok(AtEnd::Again);
            }
            self.set_aside_partial_line();
        }
        // A CR at the end of the buffer ends its line only if no LF follows:
        // it is looked at again after the refill.
        self.searched = self.buf.len() - usize::from(self.buf.last() == Some(&b'\r'));
        if self.fill()? {
            // `fill` moved `searched` back by the bytes it dropped.
            return Ok(AtEnd::Again);
        }
        // The end of the stream: the rest is the line, searched no further.
        self.searched = 0;
        if self.scan == self.buf.len() && self.partial.is_none() {
            return Ok(AtEnd::Game(self.take_game(self.buf.len()).0));
        }
        Ok(AtEnd::Line(self.buf.len()))
    }

    /// Reads the line that ends at `line_end`: the game handed out when the line opens
    /// the next one, else none (the line joins the current game).
    #[inline]
    fn read_line(&mut self, line_end: usize) -> Option<Option<RawGame>> {
        let line_start = self.scan;
        let line = &self.buf[line_start..line_end];
        let first = |l: &[u8]| trim_blank_start(l).first().copied();
        let (lead, tag_like, mut comments, dropped) = match self.partial.take() {
            Some(p) => (
                p.lead.or_else(|| first(line)),
                p.tag_like,
                p.comments,
                p.dropped,
            ),
            None => (
                first(line),
                self.in_comment && super::token::starts_with_tag(line),
                CommentScan::line(self.in_comment),
                0,
            ),
        };
        let was_in_comment = self.in_comment;
        // A comment still open at a blank line followed by a tag line was never
        // closed: the tag line starts the next game, so one corrupt game does not
        // swallow the rest of the archive (its validation reports the open comment).
        let reopens = was_in_comment && self.prev_blank && tag_like;
        let starts_tag = (!was_in_comment || reopens) && lead == Some(b'[');
        // A tag after the result on a line of movetext starts the next game there.
        if !starts_tag
            && dropped == 0
            && lead != Some(b'%')
            && let Some(game) = self.start_after_result(line_start, line_end, was_in_comment)
        {
            return Some(game);
        }
        if starts_tag
            && (self.has_movetext
                || (self.tags_ended
                    && (self.after_result_line || self.repeats_a_tag(line_start, line_end))))
        {
            // This line opens the next game: hand out the current one.
            let (game, moved) = self.take_game(line_start);
            self.start_tag_line(line_start - moved, line_end - moved, 1);
            if dropped > 0 {
                // Its beginning was dropped: the new game is over the limit too.
                self.skipped = Some(dropped);
            } else if line_end - line_start > self.max_game_bytes {
                // Its first line alone is over the limit: it keeps none of it.
                self.skipped = Some((line_end - line_start) as u64);
                self.game_start = line_end - moved;
            }
            self.read_tag_run();
            return Some(game);
        }
        let blank = lead.is_none();
        self.prev_blank = blank;
        self.after_result_line &= blank;
        if self.start_line == 0 {
            if blank {
                self.game_start = line_end;
            } else {
                self.start_line = self.line;
                self.game_offset = self.offset_of(self.game_start);
            }
        } else if blank && !was_in_comment {
            self.tags_ended = true;
        }
        // `%` escape lines and `;` comment lines are no movetext (the tag section may
        // hold them).
        if !blank && !starts_tag && (was_in_comment || !matches!(lead, Some(b'%' | b';'))) {
            self.has_movetext = true;
        }
        comments.feed(&self.buf[line_start..line_end], true);
        self.in_comment = comments.in_comment;
        self.scan = line_end;
        self.line += 1;
        // A game over the limit keeps none of its lines.
        if self.start_line != 0
            && (self.skipped.is_some() || line_end - self.game_start > self.max_game_bytes)
        {
            *self.skipped.get_or_insert(0) += (line_end - self.game_start) as u64;
            self.game_start = line_end;
        }
        if starts_tag {
            self.read_tag_run();
        }
        None
    }

    /// After a line of the tag section, reads the tag lines that follow it in the buffer
    /// at once, as line by line would read them: the lines that begin with `[` (no white
    /// space before it), each ending in the buffer. Only when nothing in them can matter
    /// but their number: no comment open, no CR read (lines end at LF), no brace in them
    /// (no comment opens or closes), no blank line in the section yet (a tag line cannot
    /// start the next game), and the game within its size limit with them.
    ///
    /// A tag section of many lines is read with one search a line (for its end or a
    /// brace), not with each line's whole reading.
    fn read_tag_run(&mut self) {
        // (A tag line after movetext has started the next game: the game read so far
        // has none. A line set aside was taken up by the line just read. A game over
        // the limit drops its lines one by one, so that the buffer never holds them.)
        if self.in_comment
            || self.cr
            || self.tags_ended
            || self.start_line == 0
            || self.skipped.is_some()
        {
            return;
        }
        // The run ends before the first line that holds a brace, would take the game
        // over the limit, or does not end in the buffer: that line is read alone, and
        // the next run starts after it (each line is looked at once, whatever the
        // section holds).
        let rest = &self.buf[self.scan..];
        let room = self
            .max_game_bytes
            .saturating_sub(self.scan - self.game_start);
        let mut end = 0;
        let mut lines = 0;
        while rest.get(end) == Some(&b'[') {
            let Some(n) = memchr::memchr3(b'\n', b'{', b'}', &rest[end..]) else {
                break;
            };
            let next = end + n + 1;
            if rest[end + n] != b'\n' || next > room {
                break;
            }
            end = next;
            lines += 1;
        }
        if lines == 0 {
            return;
        }
        self.scan += end;
        self.line += lines;
        self.prev_blank = false;
        self.after_result_line = false;
    }

    /// The first byte of the line at `scan` read so far that is not white space, once it
    /// is known ([`known_lead`]). The white space already looked at is not looked at
    /// again: a line of white space alone takes linear time however it is refilled.
    fn lead_so_far(&mut self) -> Option<u8> {
        let from = match self.blank_to {
            Some((at, end)) if at == self.scan && end <= self.buf.len() => end,
            _ => self.scan,
        };
        let rest = trim_blank_start(&self.buf[from..]);
        self.blank_to = Some((self.scan, self.buf.len() - rest.len()));
        known_lead(rest)
    }

    /// Whether the tag line `start..end` names a tag that the current game's tag section
    /// (before `start`) already has: after a blank line and no movetext, that line starts
    /// the next game, and a line of new tags continues this one.
    ///
    /// The section's names are gathered as it grows, each line read once: a section of
    /// many tag lines, each after a blank line, takes linear time.
    fn repeats_a_tag(&mut self, start: usize, end: usize) -> bool {
        let from = self.tags_read_to.max(self.game_start);
        if !self.tags_closed && from < start {
            let text = String::from_utf8_lossy(&self.buf[from..start]);
            let names = &mut self.tag_names;
            let open = super::token::tag_lines(&text, |name| {
                names.insert(name.to_ascii_lowercase());
            });
            self.tags_closed = !open;
        }
        self.tags_read_to = start;
        let text = String::from_utf8_lossy(&self.buf[start..end]);
        let mut repeats = false;
        super::token::tag_lines(&text, |name| {
            repeats |= self.tag_names.contains(&name.to_ascii_lowercase());
        });
        repeats
    }

    /// Drops the bytes of a game over the limit in the middle of a line, keeping what the
    /// rest of the line needs to be read: its first byte, whether it looks like a tag,
    /// and the comment state. A CR at the very end stays: whether it ends the line depends
    /// on the byte after it.
    fn set_aside_partial_line(&mut self) {
        let cr = self.buf.last() == Some(&b'\r') && self.buf.len() > self.scan;
        let mut keep = usize::from(cr);
        // The first bytes of a byte-order mark that the buffer ends in stay too, while the
        // line's first byte is not known: the mark is white space only whole.
        if self.partial.as_ref().is_none_or(|p| p.lead.is_none()) {
            let rest = trim_blank_start(&self.buf[self.scan..self.buf.len() - keep]);
            if known_lead(rest).is_none() {
                keep += rest.len();
            }
        }
        let chunk = &self.buf[self.scan..self.buf.len() - keep];
        let in_comment = self.in_comment;
        let p = self.partial.get_or_insert_with(|| PartialLine {
            lead: None,
            tag_like: in_comment && super::token::starts_with_tag(chunk),
            comments: CommentScan::line(in_comment),
            dropped: 0,
        });
        if p.lead.is_none() {
            p.lead = known_lead(chunk);
        }
        p.comments.feed(chunk, false);
        p.dropped += chunk.len() as u64;
        if self.start_line == 0 && p.lead.is_some() {
            self.start_line = self.line;
            self.game_offset = self.offset_of(self.game_start);
        }
        let dropped = self.buf.len() - keep - self.game_start;
        *self.skipped.get_or_insert(0) += dropped as u64;
        self.buf.drain(self.game_start..self.game_start + dropped);
        self.scan = self.game_start;
        self.searched = self.game_start;
        self.tags_read_to = self.game_start;
        self.blank_to = None;
    }

    /// Starts the next game at the tag line `start..end`.
    fn start_tag_line(&mut self, start: usize, end: usize, column: usize) {
        self.game_start = start;
        self.game_offset = self.offset_of(start);
        self.start_line = self.line;
        self.start_column = column;
        self.in_comment = scan_comments(false, &self.buf[start..end]);
        self.prev_blank = false;
        self.scan = end;
        self.line += 1;
    }

    /// Hands out the current game (`game_start..end`), if it has any line; a game over the
    /// limit with its size only. Also returns by how many bytes the buffer's contents
    /// moved towards its start (positions in it must be moved back as much).
    ///
    /// A game is copied out, but a large one takes the buffer itself and leaves a new one
    /// holding what follows it, so that the game's bytes are never held twice.
    fn take_game(&mut self, end: usize) -> (Option<RawGame>, usize) {
        let (line, column) = (self.start_line, self.start_column);
        let skipped = self.skipped.take();
        let mut moved = 0;
        let bytes = if skipped.is_some() {
            Vec::new()
        } else if end - self.game_start >= HAND_OVER {
            let mut rest = Vec::with_capacity(BLOCK.max(self.buf.len() - end));
            rest.extend_from_slice(&self.buf[end..]);
            let mut game = std::mem::replace(&mut self.buf, rest);
            game.truncate(end);
            game.drain(..self.game_start);
            game.shrink_to_fit();
            self.scan -= end;
            self.searched = self.searched.saturating_sub(end);
            moved = end;
            game
        } else {
            self.buf[self.game_start..end].to_vec()
        };
        let size = skipped.map(|s| s + (end - self.game_start) as u64);
        self.game_start = end - moved;
        self.clear_game();
        if line == 0 || (size.is_none() && trim_blank_start(&bytes).is_empty()) {
            return (None, moved);
        }
        self.number += 1;
        let number = self.number;
        self.number += std::mem::take(&mut self.deferred);
        if let Some(ProgressHook(progress)) = &self.progress {
            progress(self.bytes_read, number);
        }
        let game = RawGame {
            number,
            line,
            column,
            offset: self.game_offset,
            bytes,
            too_large: size,
        };
        (Some(game), moved)
    }
}

/// The end of the line that `from` is in (after its LF, CRLF or lone CR; LF alone when the
/// stream has had no CR), if the buffer shows it: a CR in the buffer's last byte may still
/// be the first half of a CRLF, unless it is `final_cr` (the text breaks after it).
#[inline]
fn line_end(buf: &[u8], from: usize, cr: bool, final_cr: bool) -> Option<usize> {
    if !cr {
        return memchr::memchr(b'\n', &buf[from..]).map(|n| from + n + 1);
    }
    let n = from + memchr::memchr2(b'\n', b'\r', &buf[from..])?;
    match (buf[n], buf.get(n + 1)) {
        (b'\n', _) => Some(n + 1),
        (_, Some(b'\n')) => Some(n + 2),
        (_, Some(_)) => Some(n + 1),
        (_, None) => final_cr.then_some(n + 1),
    }
}

impl<R: BufRead> Iterator for GameSplitter<R> {
    type Item = io::Result<RawGame>;
    fn next(&mut self) -> Option<io::Result<RawGame>> {
        self.next_game().transpose()
    }
}

mod comments;
mod games;
pub(crate) mod gap;
mod joined;

pub(crate) use games::{Damage, Games};

#[cfg(test)]
mod tests;
