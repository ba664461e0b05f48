//! One part of a split archive (`--split K/N`): where its bytes begin and end in the file,
//! and the reader that hands its splitter exactly the games that belong to it.
//!
//! The file is cut into N byte ranges; a compressed file at the first frame (zstd frame,
//! BGZF block, bzip2 stream) that starts in each range, so that each part decodes on its
//! own. Part K reads its text from its range's start to the end of the file, but hands
//! the splitter only the games from its first *sync point* to the first sync point in
//! the next part's text. A sync point is a line start that the whole-file splitter is
//! bound to start a game at, told from the bytes after a line end at or after where the
//! search starts, whatever came before: a tag line (a whole tag pair at its first byte)
//! after one or more blank lines that follow a line of movetext (its first byte none of
//! `[`, `%`, `;`), lines ending at LF, CRLF or a lone CR as the splitter's do. Outside a
//! comment such a tag line starts a game because the game before has movetext; inside
//! one, the splitter closes a comment left open at a blank line before a tag line. Both parts
//! that meet at a boundary find the same sync point, as each reads the same bytes from
//! the same place: every game belongs to exactly one part.

use std::io::{self, BufRead, Read, Seek, SeekFrom};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};

use super::compression::Compression;
use super::split::PartEnd;
use super::sync::SyncScan;

/// Bytes read at a time when looking for a frame.
#[cfg(feature = "compression")]
const SEARCH: usize = 1 << 20;
/// The bytes hashed to tell that a file is unchanged between parts.
const PRINT: usize = 4096;

/// A reader that can seek: a file that a part of can be read
/// ([`Source::Seekable`](crate::stream::Source::Seekable)).
pub trait SeekRead: Read + Seek + Send {}
impl<T: Read + Seek + Send> SeekRead for T {}

/// A shared file: each reader of it seeks to where it stands before reading.
#[derive(Clone)]
pub(crate) struct SharedFile(pub(crate) Arc<Mutex<Box<dyn SeekRead>>>);

impl SharedFile {
    pub(crate) fn new(file: Box<dyn SeekRead>) -> SharedFile {
        SharedFile(Arc::new(Mutex::new(file)))
    }

    /// Reads at `offset` into `buf`, as many bytes as there are (up to its length).
    fn read_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<usize> {
        let mut f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f.seek(SeekFrom::Start(offset))?;
        let mut n = 0;
        while n < buf.len() {
            match f.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }

    /// The size of the file.
    pub(crate) fn size(&self) -> io::Result<u64> {
        let mut f = self.0.lock().unwrap_or_else(|e| e.into_inner());
        f.seek(SeekFrom::End(0))
    }

    /// A reader of the file from `offset` on.
    pub(crate) fn reader_from(&self, offset: u64) -> FileFrom {
        FileFrom {
            file: self.clone(),
            at: offset,
        }
    }
}

/// The rest of a shared file from some offset.
pub(crate) struct FileFrom {
    file: SharedFile,
    at: u64,
}

impl Read for FileFrom {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.file.read_at(self.at, buf)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// Where part K of N lies in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    pub(crate) compression: Compression,
    pub(crate) size: u64,
    /// Where its text starts: a byte of a plain file, a frame of a compressed one.
    pub(crate) begin: u64,
    /// Where the next part's text starts (none for the last part).
    pub(crate) end: Option<u64>,
    /// Fingerprints of the file's first bytes, and of those at `begin` and `end`.
    pub(crate) head: u64,
    pub(crate) begin_print: u64,
    pub(crate) end_print: Option<u64>,
}

/// Why a file cannot be split, or the part asked for does not exist.
fn refuse(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

/// Where part `part` (1-based) of `of` lies in `file`.
///
/// # Errors
///
/// A part out of range, a file of a compression or archive pocketfen does not read (xz,
/// zip, …: named, as a whole run names it), a compressed file that is one stream (it
/// cannot be read from anywhere but its start), or the file's I/O error.
pub(crate) fn plan(file: &SharedFile, part: usize, of: usize) -> io::Result<Plan> {
    if of == 0 || part == 0 || part > of {
        return Err(refuse(format!(
            "there is no part {part} of {of}: parts are numbered 1 to N (--split K/N)"
        )));
    }
    let size = file.size()?;
    let mut head = [0u8; 16];
    let n = file.read_at(0, &mut head)?;
    // A compression pocketfen does not read is refused by name, as a whole run refuses it.
    super::compression::refuse_unsupported(&head[..n])?;
    let mut compression = Compression::detect(&head[..n]);
    if compression == Compression::None {
        // pzstd's output whose start is damaged, as a whole run reads it.
        let mut look = vec![0u8; 4096];
        let n = file.read_at(0, &mut look)?;
        if super::compressed::looks_binary(&look[..n]) {
            look.resize(super::compressed::LOOK_FOR_PZSTD, 0);
            let n = file.read_at(0, &mut look)?;
            if super::compressed::starts_as_damaged_pzstd(&look[..n]) {
                compression = Compression::Zstd;
            }
        }
    }
    #[cfg(not(feature = "compression"))]
    if compression != Compression::None {
        return Err(refuse(format!(
            "{} input needs pocketfen built with its `compression` feature",
            compression.name()
        )));
    }
    #[cfg(feature = "compression")]
    if compression != Compression::None && of > 1 {
        cuttable(file, compression, size)?;
    }
    let cut = |k: usize| -> io::Result<u64> {
        let at = (u128::from(size) * (k as u128) / (of as u128)) as u64;
        match compression {
            _ if k == 0 => Ok(0),
            Compression::None => Ok(at),
            #[cfg(feature = "compression")]
            kind => next_frame(file, kind, at, size),
            #[cfg(not(feature = "compression"))]
            _ => Ok(at),
        }
    };
    let begin = cut(part - 1)?;
    let end = if part < of { Some(cut(part)?) } else { None };
    Ok(Plan {
        compression,
        size,
        begin,
        end,
        head: fingerprint(file, 0)?,
        begin_print: fingerprint(file, begin)?,
        end_print: end.map(|e| fingerprint(file, e)).transpose()?,
    })
}

/// FNV-1a of the (up to) 4 KiB at `offset`.
fn fingerprint(file: &SharedFile, offset: u64) -> io::Result<u64> {
    let mut buf = vec![0u8; PRINT];
    let n = file.read_at(offset, &mut buf)?;
    Ok(fnv1a(&buf[..n]))
}

/// The 64-bit FNV-1a hash of `bytes`: the fingerprints of parts (not for security).
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(feature = "compression")]
/// Whether a zstd file whose first bytes start no frame that can be measured (pzstd's
/// first announcement damaged) has pzstd's announcement of a frame after them, in its
/// first [`LOOK_FOR_PZSTD`](super::compressed::LOOK_FOR_PZSTD) bytes: pzstd's output,
/// which parts can be cut from, as from an undamaged one.
fn damaged_pzstd_start(file: &SharedFile, size: u64) -> io::Result<bool> {
    let mut buf = vec![0u8; super::compressed::LOOK_FOR_PZSTD.min(size as usize)];
    let n = file.read_at(0, &mut buf)?;
    Ok(n > 1 && super::compressed::announcement_in(&buf[1..n]).is_some())
}

#[cfg(feature = "compression")]
/// Checks that a compressed file is more than one stream.
fn cuttable(file: &SharedFile, kind: Compression, size: u64) -> io::Result<()> {
    let ok = match kind {
        Compression::Zstd => match frame_len(file, kind, 0, size)? {
            Some(len) => len < size,
            None => damaged_pzstd_start(file, size)?,
        },
        Compression::Gzip => frame_len(file, kind, 0, size)?.is_some(),
        Compression::Bzip2 => {
            // A second stream in the first MiB (pbzip2's hold 100 to 900 kB of text).
            let mut buf = vec![0u8; SEARCH.min(size as usize)];
            let n = file.read_at(0, &mut buf)?;
            next_bzip2(&buf[..n], 4).is_some()
        }
        Compression::None => true,
    };
    if ok {
        return Ok(());
    }
    let (what, how) = match kind {
        Compression::Zstd => (
            "one zstd frame (as `zstd` writes it)",
            "`zstd -dc FILE | pzstd -3 -o NEW.pgn.zst`",
        ),
        Compression::Gzip => (
            "one gzip stream (not BGZF blocks)",
            "`gzip -dc FILE | pzstd -3 -o NEW.pgn.zst`, or `bgzip` for BGZF",
        ),
        _ => (
            "one bzip2 stream (as `bzip2` writes it; `pbzip2` writes many)",
            "`bzip2 -dc FILE | pzstd -3 -o NEW.pgn.zst`, or `bzip2 -dc FILE | pbzip2 -9 > NEW.pgn.bz2`",
        ),
    };
    // pzstd cuts its input into frames of about 2 MB of text at level 1, 8 MB at 3 and
    // 32 MB at 19 (as Lichess's database files are): a smaller text stays one frame,
    // and a file that small is read whole in moments anyway.
    let small = if size < SMALL_FILE {
        format!(
            " A file this small ({:.1} MB) is read whole in moments: read it without --split.",
            size as f64 / 1e6
        )
    } else {
        String::new()
    };
    Err(refuse(format!(
        "cannot split it: it is {what}, which can only be decoded from its start.{small} To split it, recompress it in independent frames: {how} (pzstd cuts about 8 MB of text into each frame at level 3, 2 MB at -1, 32 MB at -19 as Lichess's database files; a part holds whole frames, so a text of fewer frames than parts leaves parts empty)"
    )))
}

/// A compressed file smaller than this is not worth splitting: it is read whole in a
/// moment, and recompressed it would be few frames.
#[cfg(feature = "compression")]
const SMALL_FILE: u64 = 16 << 20;

#[cfg(feature = "compression")]
/// The length of the frame at `at`, when its headers tell it (zstd: pzstd's skippable
/// frame and the frame after it, or a frame walked by its block headers up to 16 MiB;
/// gzip: a BGZF block's size; bzip2 streams tell none).
fn frame_len(file: &SharedFile, kind: Compression, at: u64, size: u64) -> io::Result<Option<u64>> {
    match kind {
        Compression::Zstd => {
            let mut len = SEARCH / 16;
            loop {
                let mut buf = vec![0u8; len.min((size - at) as usize)];
                let n = file.read_at(at, &mut buf)?;
                buf.truncate(n);
                if buf.len() < 4 || Compression::detect(&buf) != Compression::Zstd {
                    return Ok(None);
                }
                match super::unpack::zstd_len(&buf) {
                    // pzstd's skippable frame comes with the frame it sizes.
                    super::compressed::Len::Known(l) => {
                        return Ok(Some(l as u64).filter(|&l| at + l <= size));
                    }
                    super::compressed::Len::Need if len < 16 << 20 && buf.len() == len => len *= 4,
                    _ => return Ok(None),
                }
            }
        }
        Compression::Gzip => {
            let mut buf = vec![0u8; 64.min((size - at) as usize)];
            let n = file.read_at(at, &mut buf)?;
            buf.truncate(n);
            if !buf.starts_with(&[0x1f, 0x8b]) {
                return Ok(None);
            }
            Ok(match super::compressed::bgzf_len(&buf) {
                super::compressed::Len::Known(l) => Some(l as u64).filter(|&l| at + l <= size),
                _ => None,
            })
        }
        Compression::Bzip2 | Compression::None => Ok(None),
    }
}

#[cfg(feature = "compression")]
/// Whether a frame of `kind` starts at `at`, checked by its length: the next frame (or
/// the end of the file) follows it.
fn frame_at(file: &SharedFile, kind: Compression, at: u64, size: u64) -> io::Result<bool> {
    let Some(len) = frame_len(file, kind, at, size)? else {
        return Ok(false);
    };
    let next = at + len;
    if next == size {
        return Ok(true);
    }
    let mut head = [0u8; 4];
    let n = file.read_at(next, &mut head)?;
    Ok(Compression::detect(&head[..n]) == kind)
}

#[cfg(feature = "compression")]
/// Where the next bzip2 stream starts in `b` from `from`.
fn next_bzip2(b: &[u8], from: usize) -> Option<usize> {
    super::compressed::next_bzip2_stream(b, from)
}

#[cfg(feature = "compression")]
/// The first frame of `kind` that starts at or after `from` (`size` when none does).
fn next_frame(file: &SharedFile, kind: Compression, from: u64, size: u64) -> io::Result<u64> {
    let mut at = from;
    let mut buf = vec![0u8; SEARCH];
    let pzstd = kind == Compression::Zstd && announcement_at(file, 0)?;
    while at < size {
        let n = file.read_at(at, &mut buf)?;
        let b = &buf[..n];
        let mut i = 0;
        while i < n {
            // A candidate's start, and where to look on if it is none.
            let hit = match kind {
                Compression::Bzip2 => next_bzip2(b, i).map(|j| (j, j + 1)),
                Compression::Zstd => memchr::memchr2_iter(0xfd, 0x18, &b[i..])
                    .map(|j| i + j)
                    .find(|&j| j >= 3 && Compression::detect(&b[j - 3..]) == Compression::Zstd)
                    .map(|j| (j - 3, j + 1)),
                _ => memchr::memchr_iter(0x1f, &b[i..])
                    .map(|j| i + j)
                    .find(|&j| b.get(j + 1..j + 4) == Some(&[0x8b, 0x08, 0x04][..]) || j + 4 > n)
                    .map(|j| (j, j + 1)),
            };
            let Some((j, on)) = hit else { break };
            let candidate = at + j as u64;
            let found = match kind {
                // A stream's magic numbers (80 bits) are taken at their word.
                Compression::Bzip2 => true,
                // In pzstd's layout a part starts at an announced frame only: a frame
                // pzstd did not announce may follow junk, which the reader before it
                // steps over to the next announced frame, that frame with it.
                Compression::Zstd if pzstd => {
                    (announcement_at(file, candidate)?
                        || announced_at(file, kind, candidate)? < candidate)
                        && frame_at(file, kind, candidate, size)?
                }
                _ => frame_at(file, kind, candidate, size)?,
            };
            if found {
                return announced_at(file, kind, candidate);
            }
            i = on;
        }
        if n < SEARCH {
            break;
        }
        // The next window overlaps this one by a magic number's length.
        at += (n - 16) as u64;
    }
    Ok(size)
}

#[cfg(feature = "compression")]
/// Where the frame at `at` starts with pzstd's skippable frame that announces its size,
/// when one stands right before it (a range's start may fall inside that skippable
/// frame): a part starts with it, so that its first frame is stepped over when damaged,
/// as a run that reads on into it steps over it.
fn announced_at(file: &SharedFile, kind: Compression, at: u64) -> io::Result<u64> {
    if kind != Compression::Zstd || at < 12 {
        return Ok(at);
    }
    let mut head = [0u8; 16];
    if file.read_at(at - 12, &mut head)? < 16 {
        return Ok(at);
    }
    // As the sequential reader reads it: one whose magic number or size field is
    // damaged too.
    let damaged = !super::compressed::starts_frame(&head);
    let read = super::compressed::announcement(&head, damaged, |end| {
        let mut next = [0u8; 4];
        let n = file.read_at(at - 12 + end as u64, &mut next)?;
        Ok(super::compressed::starts_frame(&next[..n]))
    })?;
    Ok(match read {
        Some(Some(_)) => at - 12,
        _ => at,
    })
}

/// Whether pzstd's announcement of a frame starts at `at`.
#[cfg(feature = "compression")]
fn announcement_at(file: &SharedFile, at: u64) -> io::Result<bool> {
    let mut head = [0u8; 8];
    Ok(file.read_at(at, &mut head)? == 8 && head == [0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0])
}

/// Where the next part's text starts in this part's text: known for a plain file, told
/// by the decoder for a compressed one, none for the last part.
#[cfg_attr(not(feature = "compression"), allow(dead_code))]
pub(crate) enum NextStart {
    Known(u64),
    /// Told by the decoder once it reaches the next part's first frame, which starts at
    /// this offset of the file.
    Told(Arc<OnceLock<u64>>, u64),
    Last,
}

impl NextStart {
    fn get(&self) -> Option<u64> {
        match self {
            NextStart::Known(t) => Some(*t),
            NextStart::Told(t, _) => t.get().copied(),
            NextStart::Last => None,
        }
    }
}

/// What a part's reader found: where its games start, and how far past the next part's
/// start it read to finish its last game.
#[derive(Debug, Default)]
pub(crate) struct PartInfo {
    /// Text offset of the part's first game's line (its sync point; 0 for part 1).
    pub(crate) start: Option<u64>,
    /// Text offset at which the next part's text starts, once reached.
    pub(crate) next: Option<u64>,
    /// Text offset of the next part's first game (its sync point), once found.
    pub(crate) end: Option<u64>,
    /// Text bytes handed to the splitter.
    pub(crate) delivered: u64,
}

/// The text of one part: what its splitter reads.
pub(crate) struct PartReader {
    inner: Box<dyn BufRead + Send>,
    /// Text offset of the next byte `inner` hands out.
    pos: u64,
    /// Looking for the part's first sync point (parts after the first).
    start: Option<SyncScan>,
    /// Bytes held while the start is looked for, from text offset `held_at`.
    held: Vec<u8>,
    held_at: u64,
    /// The bytes of `held` handed out.
    given: usize,
    next: NextStart,
    end: Option<SyncScan>,
    /// How far the end's search has been fed.
    scanned: u64,
    part_end: Arc<PartEnd>,
    info: Arc<Mutex<PartInfo>>,
    done: bool,
}

impl PartReader {
    pub(crate) fn new(
        inner: Box<dyn BufRead + Send>,
        first: bool,
        next: NextStart,
        part_end: Arc<PartEnd>,
        info: Arc<Mutex<PartInfo>>,
    ) -> PartReader {
        if first {
            info.lock().unwrap_or_else(|e| e.into_inner()).start = Some(0);
        }
        PartReader {
            inner,
            pos: 0,
            start: (!first).then(|| SyncScan::new(0)),
            held: Vec::new(),
            held_at: 0,
            given: 0,
            next,
            end: None,
            scanned: 0,
            part_end,
            info,
            done: false,
        }
    }

    fn info(&self) -> std::sync::MutexGuard<'_, PartInfo> {
        self.info.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Feeds the end's search the bytes of `chunk` (at text offset `at`) it has not seen.
    fn watch_end(&mut self, chunk_at: u64, chunk: &[u8]) {
        if self.end.is_none()
            && let Some(t) = self.next.get()
        {
            self.info().next = Some(t);
            self.end = Some(SyncScan::new(t));
        }
        let Some(end) = &mut self.end else { return };
        if end.found().is_some() {
            return;
        }
        let from = self.scanned.max(chunk_at);
        let skip = (from - chunk_at) as usize;
        if skip < chunk.len() {
            end.feed(&chunk[skip..], from);
            self.scanned = chunk_at + chunk.len() as u64;
        }
        if chunk.is_empty() {
            end.finish();
        }
        if let Some(p1) = end.found() {
            self.set_end(p1);
        }
    }

    fn set_end(&mut self, p1: u64) {
        let start = self.info().start;
        self.info().end = Some(p1);
        if let Some(p0) = start {
            self.part_end
                .at
                .store(p1.saturating_sub(p0), Ordering::Release);
        }
    }

    /// The text breaks here, at a damaged frame stepped over that starts at `frame` in
    /// the file: a sync point is looked for from here again, as the whole file's splitter
    /// looks for one after the break. The part's end's search starts again too when the
    /// frame is the next part's, which meets the break as well; a frame of this part's
    /// own that ends where the next part starts is a break the next part never sees, and
    /// its start (and so this part's end) is looked for as after any frame boundary.
    fn restart_at_break(&mut self, frame: u64) {
        let pos = self.pos;
        if self.start.is_some() {
            self.start = Some(SyncScan::at_break(pos));
            self.held.clear();
            self.given = 0;
        }
        if let NextStart::Told(_, begin) = self.next
            && frame >= begin
            && let Some(t) = self.next.get()
            && pos >= t
            && self.end.as_ref().is_none_or(|e| e.found().is_none())
        {
            self.info().next = Some(t);
            self.end = Some(SyncScan::at_break(pos));
            self.scanned = pos;
        }
    }

    /// Makes the next bytes of the text ready; a break in it restarts the searches for
    /// sync points and is the error.
    fn fill_inner(&mut self) -> io::Result<()> {
        match fill(&mut *self.inner) {
            Ok(_) => Ok(()),
            Err(e) => {
                if let Some(frame) = super::DamagedFrame::of(&e) {
                    self.restart_at_break(frame.offset);
                }
                Err(e)
            }
        }
    }

    /// Reads on until the part's first sync point, holding the bytes from it. A break
    /// in the text before it is passed over: the search starts again after it.
    fn find_start(&mut self) -> io::Result<()> {
        loop {
            match self.fill_inner() {
                Err(e) if super::DamagedFrame::of(&e).is_some() => continue,
                other => other?,
            }
            let chunk = fill(&mut *self.inner)?;
            let at = self.pos;
            let n = chunk.len();
            let chunk = chunk.to_vec();
            self.inner.consume(n);
            self.pos += n as u64;
            let scan = self.start.as_mut().expect("looking for the start");
            if n == 0 {
                scan.finish();
            } else {
                scan.feed(&chunk, at);
            }
            let found = scan.found();
            let hold = scan.hold_from();
            // The bytes that may still be the start are kept, from the chunk's start on.
            if self.held.is_empty() {
                self.held_at = at;
            }
            self.held.extend_from_slice(&chunk);
            let keep = found.or(hold).unwrap_or(self.pos);
            if keep > self.held_at {
                let drop = ((keep - self.held_at) as usize).min(self.held.len());
                self.held.drain(..drop);
                self.held_at += drop as u64;
            }
            self.watch_end(at, &chunk);
            if let Some(p0) = found {
                self.start = None;
                self.info().start = Some(p0);
                let end = self.info().end;
                if let Some(p1) = end {
                    self.set_end(p1);
                }
                return Ok(());
            }
            if n == 0 {
                self.start = None;
                self.done = true;
                return Ok(());
            }
        }
    }
}

/// The next bytes of a reader, retried when interrupted.
fn fill(r: &mut dyn BufRead) -> io::Result<&[u8]> {
    loop {
        match r.fill_buf() {
            Ok(_) => break,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    r.fill_buf()
}

impl Read for PartReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let b = self.fill_buf()?;
            let n = b.len().min(buf.len());
            buf[..n].copy_from_slice(&b[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for PartReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start.is_some() {
            self.find_start()?;
        }
        if self.done {
            return Ok(&[]);
        }
        if self.given < self.held.len() {
            return Ok(&self.held[self.given..]);
        }
        if !self.held.is_empty() {
            self.held = Vec::new();
            self.given = 0;
        }
        let at = self.pos;
        let needs_end = !matches!(self.next, NextStart::Last)
            && self.end.as_ref().is_none_or(|e| e.found().is_none());
        if needs_end {
            // Only the bytes from the next part's start on are looked at (it is known
            // before the decoder hands out any of them): those chunks are copied.
            // The decoder tells the next part's start as it reaches it: after the fill.
            self.fill_inner()?;
            let chunk = fill(&mut *self.inner)?;
            let next = self.next.get();
            if chunk.is_empty() || next.is_some_and(|t| at + chunk.len() as u64 > t) {
                let chunk = chunk.to_vec();
                self.watch_end(at, &chunk);
            }
        }
        fill(&mut *self.inner)
    }

    fn consume(&mut self, n: usize) {
        self.info().delivered += n as u64;
        if self.given < self.held.len() {
            self.given += n;
            return;
        }
        self.inner.consume(n);
        self.pos += n as u64;
    }
}
