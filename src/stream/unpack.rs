//! Decoding a compressed archive on several threads.
//!
//! A scanner thread reads the compressed bytes and cuts them where frames begin: it walks
//! a zstd frame's header and block headers to its end (RFC 8878 §3.1.1), steps over a
//! skippable frame by its size (pzstd's, which gives the size of the frame after it, is
//! never cut from that frame), reads a BGZF block's size off the `BC` field of its gzip
//! header, and finds where a bzip2 stream ends by the start of the next one (`BZh1`…`BZh9` followed by a block's or the end-of-stream magic:
//! pbzip2 starts each stream on a byte). Frames are grouped into chunks of a quarter
//! megabyte or more; decoder threads take the chunks in order and decode each into a
//! small bounded pipe; the reader reads the pipes in chunk order.
//!
//! Every chunk is decoded by the sequential decoder of `input` (its frames, its small
//! reads), so a chunk that decodes cleanly gives exactly the text a sequential read gives.
//! What cannot be cut — one frame, plain multi-member gzip, a frame larger than [`CAP`], a
//! header that does not parse, bytes that start no frame — is read by the reader itself,
//! sequentially, with the rest of the stream. And a chunk that does not end cleanly (an
//! error, a damaged frame stepped over, or bytes after a stream that start no frame) is
//! read again sequentially from its start, with everything after it: its decoder holds back its last [`HOLD`] bytes of
//! text until it has ended cleanly, so that what the reader already has is what the
//! sequential decoder gives too. So the text, the trailing bytes noted and the errors
//! met are those of a sequential read, for any number of threads.

use std::collections::VecDeque;
use std::io::{self, BufRead, Cursor, Read};
use std::sync::atomic::{AtomicU64, Ordering as Atomic};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use super::compression::{Compression, DamagedFrame, Peek, TrailingNote};
use super::frames::{Frames, SMALL_READ, Small};

/// Frames are grouped into chunks of at least this many compressed bytes: small enough
/// that a chunk's text (a few MB) fits its pipe, so that the decoders of later chunks can
/// run a whole chunk ahead of the reader. (The unit tests shrink the sizes, to meet every
/// boundary with little data.)
#[cfg(not(test))]
const CHUNK: usize = 256 << 10;
#[cfg(test)]
const CHUNK: usize = 4 << 10;
/// A frame longer than this (compressed) is not waited for: the rest of the stream is
/// read sequentially.
#[cfg(not(test))]
const CAP: usize = 16 << 20;
#[cfg(test)]
const CAP: usize = 48 << 10;
/// Decoded text travels in blocks of this size…
#[cfg(not(test))]
const BLOCK: usize = 256 << 10;
#[cfg(test)]
const BLOCK: usize = 16 << 10;
/// …at most this many wait in a chunk's pipe…
const PIPE: usize = 16;
/// …and a decoder holds back this many blocks until its chunk has ended cleanly: more
/// text than a damaged frame's last block gives (a bzip2 block is at most 900 kB).
const HOLD: usize = 4;

/// What a decoder sends through a chunk's pipe.
enum Block {
    Data(Vec<u8>),
    /// The chunk ended cleanly.
    End,
    /// It did not (an error, or bytes that start no frame): read it again sequentially.
    Unclean,
}

/// What the scanner sends the reader, in stream order.
enum Order {
    /// A chunk of whole frames at `base` in the compressed stream, and its pipe.
    Chunk {
        base: u64,
        bytes: Arc<Vec<u8>>,
        blocks: Receiver<Block>,
    },
    /// The rest of the stream, from `base`, to be read sequentially.
    Rest {
        base: u64,
        input: Box<dyn Read + Send>,
    },
    /// Nothing follows.
    End,
}

/// A chunk to decode and where its text goes.
struct Task {
    bytes: Arc<Vec<u8>>,
    out: SyncSender<Block>,
}

/// Decodes `src`, a stream of `kind` whose first bytes have been looked at, on `jobs`
/// decoder threads and a scanner; the trailing bytes are noted in `trailing`.
pub(super) fn parallel<R: Read + Send + 'static>(
    src: Peek<R>,
    kind: Compression,
    jobs: usize,
    trailing: TrailingNote,
) -> ParallelReader {
    let (order_tx, order) = sync_channel(2 * jobs);
    let (task_tx, tasks) = sync_channel::<Task>(jobs);
    let tasks = Arc::new(Mutex::new(tasks));
    for _ in 0..jobs {
        let tasks = Arc::clone(&tasks);
        thread::spawn(move || {
            loop {
                // Take the next chunk (in order), then let the others take theirs.
                let task = match tasks.lock() {
                    Ok(queue) => queue.recv(),
                    Err(_) => return,
                };
                let Ok(task) = task else { return };
                decode_chunk(task, kind);
            }
        });
    }
    thread::spawn(move || Scanner::new(src, kind, task_tx, order_tx).run());
    ParallelReader {
        kind,
        order,
        source: Source::Between,
        block: Vec::new(),
        pos: 0,
        trailing,
        done: false,
        reached: Arc::new(AtomicU64::new(0)),
    }
}

/// Decodes one chunk with the sequential decoder into its pipe, holding back its last
/// blocks until it has ended cleanly. (It reads a block at a time, not in the small
/// reads of a sequential read: what a chunk that does not end cleanly gives is read
/// again sequentially anyway.)
fn decode_chunk(task: Task, kind: Compression) {
    let Task { bytes, out } = task;
    let trailing = TrailingNote::default();
    let Ok(mut reader) = Frames::start(kind, Peek::new(Shared(bytes, 0)), trailing.clone(), 0)
    else {
        let _ = out.send(Block::Unclean);
        return;
    };
    let mut held: VecDeque<Vec<u8>> = VecDeque::with_capacity(HOLD + 1);
    let mut block = Vec::with_capacity(BLOCK);
    loop {
        let len = block.len();
        block.resize(BLOCK, 0);
        match reader.read(&mut block[len..]) {
            Ok(0) => {
                block.truncate(len);
                break;
            }
            Ok(n) => block.truncate(len + n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => block.truncate(len),
            Err(_) => {
                let _ = out.send(Block::Unclean);
                return;
            }
        }
        if block.len() == BLOCK {
            held.push_back(std::mem::replace(&mut block, Vec::with_capacity(BLOCK)));
            if held.len() > HOLD {
                let front = held.pop_front().expect("more than HOLD blocks");
                if out.send(Block::Data(front)).is_err() {
                    return;
                }
            }
        }
    }
    if trailing.get().is_some() {
        let _ = out.send(Block::Unclean);
        return;
    }
    held.push_back(block);
    for data in held {
        if !data.is_empty() && out.send(Block::Data(data)).is_err() {
            return;
        }
    }
    let _ = out.send(Block::End);
}

/// A chunk's bytes, read from a shared buffer.
struct Shared(Arc<Vec<u8>>, usize);

impl Read for Shared {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let rest = &self.0[self.1..];
        let n = rest.len().min(buf.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.1 += n;
        Ok(n)
    }
}

/// How long the frame at the start of some bytes is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Len {
    /// This many bytes (perhaps more than are there yet).
    Known(usize),
    /// More bytes are needed to tell.
    Need,
    /// It cannot be told without decoding: decode the rest as one.
    Unknown,
}

/// The length of the zstd frame or skippable frame at the start of `b` (whose first four
/// bytes are a zstd magic number); of pzstd's skippable frame that announces the size of
/// the frame after it, the two together (they are never cut apart: a damaged frame is
/// stepped over by its announced size).
pub(super) fn zstd_len(b: &[u8]) -> Len {
    let magic = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    if magic & 0xffff_fff0 == 0x184d_2a50 {
        // Skippable: its size follows the magic.
        return match (b.get(4..8), b.get(8..12)) {
            (Some([4, 0, 0, 0]), Some(n)) => {
                Len::Known(12 + u32::from_le_bytes([n[0], n[1], n[2], n[3]]) as usize)
            }
            (Some([4, 0, 0, 0]), None) => Len::Need,
            (Some(s), _) => Len::Known(8 + u32::from_le_bytes([s[0], s[1], s[2], s[3]]) as usize),
            (None, _) => Len::Need,
        };
    }
    let Some(&descriptor) = b.get(4) else {
        return Len::Need;
    };
    if descriptor & 0x08 != 0 {
        return Len::Unknown; // the reserved bit
    }
    let single_segment = descriptor & 0x20 != 0;
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 3)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let mut at = 5 + usize::from(!single_segment) + dictionary + content_size;
    loop {
        let Some(h) = b.get(at..at + 3) else {
            return Len::Need;
        };
        let header = u32::from(h[0]) | u32::from(h[1]) << 8 | u32::from(h[2]) << 16;
        let size = (header >> 3) as usize;
        at += 3 + match (header >> 1) & 3 {
            0 | 2 => size, // raw, compressed
            1 => 1,        // one byte, repeated
            _ => return Len::Unknown,
        };
        if header & 1 != 0 {
            break; // the last block
        }
    }
    if descriptor & 0x04 != 0 {
        at += 4; // the content checksum
    }
    Len::Known(at)
}

/// The length of the BGZF block at the start of `b` (a gzip member), read off the `BC`
/// subfield of its header; a member without one is plain gzip.
pub(super) fn bgzf_len(b: &[u8]) -> Len {
    let Some(head) = b.get(..12) else {
        return Len::Need;
    };
    if head[2] != 8 || head[3] & 0x04 == 0 {
        return Len::Unknown; // not deflate, or no extra field
    }
    let xlen = usize::from(u16::from_le_bytes([head[10], head[11]]));
    let Some(mut extra) = b.get(12..12 + xlen) else {
        return Len::Need;
    };
    while let [si1, si2, l0, l1, rest @ ..] = extra {
        let slen = usize::from(u16::from_le_bytes([*l0, *l1]));
        let Some(data) = rest.get(..slen) else {
            return Len::Unknown;
        };
        if (*si1, *si2, slen) == (b'B', b'C', 2) {
            return Len::Known(usize::from(u16::from_le_bytes([data[0], data[1]])) + 1);
        }
        extra = &rest[slen..];
    }
    Len::Unknown
}

/// Where the next bzip2 stream starts in `b`, searching from `from` (a stream's start
/// is `BZh` and a block-size digit, then the first block's magic or the end-of-stream
/// magic, all on a byte).
pub(super) fn next_bzip2_stream(b: &[u8], from: usize) -> Option<usize> {
    const BLOCK_MAGIC: &[u8] = &[0x31, 0x41, 0x59, 0x26, 0x53, 0x59];
    const END_MAGIC: &[u8] = &[0x17, 0x72, 0x45, 0x38, 0x50, 0x90];
    let mut at = from;
    while let Some(i) = memchr::memmem::find(b.get(at..)?, b"BZh") {
        let start = at + i;
        if let Some(next) = b.get(start + 3..start + 10)
            && (b'1'..=b'9').contains(&next[0])
            && (&next[1..] == BLOCK_MAGIC || &next[1..] == END_MAGIC)
        {
            return Some(start);
        }
        at = start + 1;
    }
    None
}

/// Cuts the compressed stream into chunks of whole frames.
struct Scanner<R> {
    src: Peek<R>,
    kind: Compression,
    tasks: SyncSender<Task>,
    order: SyncSender<Order>,
    /// Compressed bytes not yet sent, from offset `base` of the stream.
    buf: Vec<u8>,
    base: u64,
    /// The bytes of `buf` that are whole frames, ready to go.
    cut: usize,
    /// How far the search for the next bzip2 stream has got (from `cut`).
    searched: usize,
    eof: bool,
}

impl<R: Read + Send + 'static> Scanner<R> {
    fn new(
        src: Peek<R>,
        kind: Compression,
        tasks: SyncSender<Task>,
        order: SyncSender<Order>,
    ) -> Scanner<R> {
        Scanner {
            src,
            kind,
            tasks,
            order,
            buf: Vec::new(),
            base: 0,
            cut: 0,
            searched: 0,
            eof: false,
        }
    }

    /// Cuts and sends until the end of the stream, or until the reader has gone.
    fn run(mut self) {
        loop {
            let have = self.buf.len() - self.cut;
            if have < 4 && !self.eof {
                if self.more().is_err() {
                    return self.rest();
                }
                continue;
            }
            if have == 0 {
                if self.send_cut().is_ok() {
                    let _ = self.order.send(Order::End);
                }
                return;
            }
            let frame = &self.buf[self.cut..];
            if Compression::detect(frame) != self.kind {
                return self.rest();
            }
            let len = match self.kind {
                Compression::Zstd => zstd_len(frame),
                Compression::Gzip => bgzf_len(frame),
                Compression::Bzip2 => match next_bzip2_stream(frame, self.searched.max(4)) {
                    Some(next) => Len::Known(next),
                    None if self.eof => Len::Known(have),
                    None => {
                        self.searched = have.saturating_sub(9);
                        Len::Need
                    }
                },
                Compression::None => Len::Unknown,
            };
            // A BGZF block is cut only where the next member (or the end) follows.
            let fits = |n: usize| {
                n <= have
                    && (self.kind != Compression::Gzip
                        || frame.get(n..n + 2).is_none_or(|m| m == [0x1f, 0x8b]))
            };
            match len {
                Len::Known(n) if n > 0 && fits(n) => {
                    self.cut += n;
                    self.searched = 0;
                    if self.cut >= CHUNK && self.send_cut().is_err() {
                        return;
                    }
                }
                Len::Known(n) if n > have && !self.eof && have <= CAP => {
                    if self.more().is_err() {
                        return self.rest();
                    }
                }
                Len::Need if !self.eof && have <= CAP => {
                    if self.more().is_err() {
                        return self.rest();
                    }
                }
                _ => return self.rest(),
            }
        }
    }

    /// Reads more of the stream into `buf`; at its end sets `eof`. `Err` on an I/O error:
    /// the rest (which meets it again, or not) is then read sequentially.
    fn more(&mut self) -> io::Result<()> {
        let read = self.src.fill_buf().map(|chunk| {
            self.buf.extend_from_slice(chunk);
            chunk.len()
        });
        match read {
            Ok(0) => self.eof = true,
            Ok(n) => self.src.consume(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
        Ok(())
    }

    /// Sends the whole frames cut so far as one chunk; `Err` when the reader has gone.
    fn send_cut(&mut self) -> Result<(), ()> {
        if self.cut == 0 {
            return Ok(());
        }
        let rest = self.buf.split_off(self.cut);
        let bytes = Arc::new(std::mem::replace(&mut self.buf, rest));
        let len = bytes.len() as u64;
        let (out, blocks) = sync_channel(PIPE);
        let chunk = Order::Chunk {
            base: self.base,
            bytes: Arc::clone(&bytes),
            blocks,
        };
        self.order.send(chunk).map_err(drop)?;
        self.tasks.send(Task { bytes, out }).map_err(drop)?;
        self.base += len;
        self.cut = 0;
        Ok(())
    }

    /// Sends the frames cut so far, then the rest of the stream, to be read sequentially.
    fn rest(mut self) {
        if self.send_cut().is_err() {
            return;
        }
        let head = std::mem::take(&mut self.buf);
        let rest = Order::Rest {
            base: self.base,
            input: Box::new(Cursor::new(head).chain(self.src)),
        };
        if self.order.send(rest).is_ok() {
            let _ = self.order.send(Order::End);
        }
    }
}

/// Where the reader's text comes from now.
enum Source {
    /// A chunk's pipe, of which `delivered` bytes of text have been handed out.
    Chunk {
        base: u64,
        bytes: Arc<Vec<u8>>,
        blocks: Receiver<Block>,
        delivered: u64,
    },
    /// The sequential decoder, its first `skip` bytes of text already handed out.
    Sequential {
        reader: Box<Small<Frames<Remaining>>>,
        note: TrailingNote,
        skip: u64,
    },
    /// Between chunks.
    Between,
}

/// The compressed stream from a chunk on: the chunk's bytes, then those of the chunks
/// and the rest that follow it, taken from the scanner as they are needed.
struct Remaining {
    current: Box<dyn Read + Send>,
    order: Option<Receiver<Order>>,
    /// The stream offset read up to, told to the progress line.
    offset: u64,
    reached: Arc<AtomicU64>,
}

impl Read for Remaining {
    /// Fills `buf` across the chunks' ends, as a file's reads would.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut filled = 0;
        while filled < buf.len() {
            let n = match self.current.read(&mut buf[filled..]) {
                Ok(n) => n,
                Err(e) if filled == 0 => return Err(e),
                Err(_) => break, // met again by the next read
            };
            filled += n;
            if n > 0 {
                self.offset += n as u64;
                self.reached.store(self.offset, Atomic::Relaxed);
                continue;
            }
            let next = self.order.as_ref().and_then(|o| o.recv().ok());
            self.current = match next {
                Some(Order::Chunk { bytes, .. }) => Box::new(Shared(bytes, 0)),
                Some(Order::Rest { input, .. }) => input,
                Some(Order::End) | None => {
                    self.order = None;
                    break;
                }
            };
        }
        Ok(filled)
    }
}

/// The decoded text, read from the chunks' pipes in stream order.
pub(super) struct ParallelReader {
    kind: Compression,
    /// `None` once a sequential decoder reads the rest of the orders itself.
    order: Receiver<Order>,
    source: Source,
    block: Vec<u8>,
    pos: usize,
    trailing: TrailingNote,
    done: bool,
    /// How far into the compressed stream the text handed out reaches.
    reached: Arc<AtomicU64>,
}

impl ParallelReader {
    /// How far into the compressed stream the text handed out so far reaches (the end
    /// of the last chunk handed out whole, or the sequential decoder's reads): the
    /// scanner and the decoders read well ahead of it.
    pub(super) fn reached(&self) -> Arc<AtomicU64> {
        Arc::clone(&self.reached)
    }

    /// Reads sequentially from `base`, `input` first and then whatever follows it, the
    /// first `skip` bytes of text already handed out.
    fn sequential(&mut self, base: u64, input: Box<dyn Read + Send>, skip: u64) -> io::Result<()> {
        // The orders after this one go to the sequential decoder.
        let (_, empty) = sync_channel(0);
        let order = std::mem::replace(&mut self.order, empty);
        let remaining = Remaining {
            current: input,
            order: Some(order),
            offset: base,
            reached: Arc::clone(&self.reached),
        };
        let note = TrailingNote::default();
        let frames = Frames::start(self.kind, Peek::new(remaining), note.clone(), base)?;
        self.source = Source::Sequential {
            reader: Box::new(Small(frames)),
            note,
            skip,
        };
        Ok(())
    }

    /// The next text from the source, into `block`; `false` at the end of the stream.
    fn next_block(&mut self) -> io::Result<bool> {
        loop {
            match &mut self.source {
                Source::Between => match self.order.recv() {
                    Ok(Order::Chunk {
                        base,
                        bytes,
                        blocks,
                    }) => {
                        self.source = Source::Chunk {
                            base,
                            bytes,
                            blocks,
                            delivered: 0,
                        };
                    }
                    Ok(Order::Rest { base, input }) => self.sequential(base, input, 0)?,
                    Ok(Order::End) => return Ok(false),
                    Err(_) => return Err(io::Error::other("the archive's scanner thread stopped")),
                },
                Source::Chunk {
                    base,
                    bytes,
                    blocks,
                    delivered,
                } => match blocks.recv() {
                    Ok(Block::Data(data)) => {
                        *delivered += data.len() as u64;
                        self.block = data;
                        self.pos = 0;
                        return Ok(true);
                    }
                    Ok(Block::End) => {
                        self.reached
                            .fetch_max(*base + bytes.len() as u64, Atomic::Relaxed);
                        self.source = Source::Between;
                    }
                    Ok(Block::Unclean) | Err(_) => {
                        // Read it again, and what follows, as a sequential read would.
                        let (base, skip) = (*base, *delivered);
                        let input = Box::new(Shared(Arc::clone(bytes), 0));
                        self.sequential(base, input, skip)?;
                    }
                },
                Source::Sequential { reader, note, skip } => {
                    // The decoder's small reads, into the block handed out.
                    self.block.resize(SMALL_READ, 0);
                    let n = loop {
                        match reader.read(&mut self.block) {
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                            Err(e) => {
                                self.block.clear();
                                return Err(e);
                            }
                            Ok(n) => break n,
                        }
                    };
                    self.block.truncate(n);
                    self.pos = 0;
                    if n == 0 {
                        if let Some(t) = note.get() {
                            self.trailing.set(*t);
                        }
                        return Ok(false);
                    }
                    // Text handed out already from the chunk's pipe is not handed again.
                    let drop = (*skip).min(n as u64) as usize;
                    *skip -= drop as u64;
                    self.pos = drop;
                    if drop < n {
                        return Ok(true);
                    }
                }
            }
        }
    }
}

impl Read for ParallelReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let chunk = self.fill_buf()?;
        let n = chunk.len().min(out.len());
        out[..n].copy_from_slice(&chunk[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ParallelReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos >= self.block.len() && !self.done {
            match self.next_block() {
                Ok(true) => {}
                Ok(false) => self.done = true,
                // A damaged frame stepped over: the text goes on after it.
                Err(e) if DamagedFrame::of(&e).is_some() => return Err(e),
                Err(e) => {
                    self.done = true;
                    return Err(e);
                }
            }
        }
        Ok(&self.block[self.pos.min(self.block.len())..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.block.len());
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use super::super::compression::{Trailing, decode};
    use super::super::open::decode_with;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Text that compresses somewhat, as PGN does.
    fn text(rng: &mut Rng, len: usize) -> Vec<u8> {
        let words: [&[u8]; 8] = [
            b"e4 ",
            b"Nf3 ",
            b"{ [%clk 0:05:00] } ",
            b"1-0\n\n",
            b"[Event \"x\"]\n",
            b"Qxd5+ ",
            b"\n",
            b"P@e4 ",
        ];
        let mut out = Vec::with_capacity(len + 32);
        while out.len() < len {
            if rng.below(3) == 0 {
                out.push(b'a' + rng.below(26) as u8);
            } else {
                out.extend_from_slice(words[rng.below(words.len())]);
            }
        }
        out.truncate(len);
        out
    }

    fn zstd_frame(data: &[u8], level: i32, checksum: bool) -> Vec<u8> {
        let mut e = zstd::stream::Encoder::new(Vec::new(), level).unwrap();
        e.include_checksum(checksum).unwrap();
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn skippable(n: u8, content: &[u8]) -> Vec<u8> {
        let mut out = vec![0x50 | n, 0x2a, 0x4d, 0x18];
        out.extend_from_slice(&(content.len() as u32).to_le_bytes());
        out.extend_from_slice(content);
        out
    }

    fn gzip_member(data: &[u8], bgzf: bool) -> Vec<u8> {
        if !bgzf {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(data).unwrap();
            return e.finish().unwrap();
        }
        let mut d = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        d.write_all(data).unwrap();
        let body = d.finish().unwrap();
        let mut out = vec![
            0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0,
        ];
        out.extend_from_slice(&((18 + body.len() + 8 - 1) as u16).to_le_bytes());
        out.extend_from_slice(&body);
        let mut crc = flate2::Crc::new();
        crc.update(data);
        out.extend_from_slice(&crc.sum().to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out
    }

    fn bzip2_stream(data: &[u8]) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::new(1));
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A random archive of one kind: frames of random sizes (some larger than the cap),
    /// skippable frames, junk between frames, trailing zeros or junk, a cut or a flipped
    /// byte.
    fn archive(rng: &mut Rng, kind: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let frames = 1 + rng.below(12);
        let bgzf = rng.below(4) != 0;
        for i in 0..frames {
            let len = match rng.below(4) {
                0 => rng.below(200),
                1 => rng.below(6_000),
                2 => rng.below(40_000),
                _ => rng.below(300_000),
            };
            let data = text(rng, len);
            match kind {
                0 => {
                    if rng.below(2) == 0 {
                        let frame = zstd_frame(&data, 1 + rng.below(5) as i32, rng.below(2) == 0);
                        out.extend(skippable(0, &(frame.len() as u32).to_le_bytes()));
                        out.extend(frame);
                    } else {
                        out.extend(zstd_frame(&data, 1, rng.below(2) == 0));
                    }
                    if rng.below(8) == 0 {
                        out.extend(skippable(rng.below(16) as u8, b"metadata"));
                    }
                }
                1 => out.extend(gzip_member(
                    &data,
                    bgzf && (i < frames - 1 || rng.below(2) == 0),
                )),
                _ => out.extend(bzip2_stream(&data)),
            }
            if rng.below(40) == 0 {
                out.extend_from_slice(b"junk between frames");
            }
        }
        match rng.below(6) {
            0 => out.extend(std::iter::repeat_n(0, rng.below(3000))),
            1 => out.extend_from_slice(b"not a frame at all"),
            2 => out.extend_from_slice(&[0x28, 0xb5]),
            _ => {}
        }
        match rng.below(8) {
            0 => {
                let cut = rng.below(out.len() + 1);
                out.truncate(cut);
            }
            1 if !out.is_empty() => {
                let at = rng.below(out.len());
                out[at] ^= 1 << rng.below(8);
            }
            _ => {}
        }
        out
    }

    /// What a reader of `bytes` gets: the text up to the end or the error, the error's
    /// words, the trailing bytes noted.
    fn read(bytes: &[u8], jobs: usize) -> (Vec<u8>, Option<String>, Option<Trailing>) {
        let decoded = if jobs == 1 {
            decode(bytes)
        } else {
            decode_with(std::io::Cursor::new(bytes.to_vec()), jobs)
        };
        let mut d = match decoded {
            Ok(d) => d,
            Err(e) => return (Vec::new(), Some(e.to_string()), None),
        };
        let mut text = Vec::new();
        let mut buf = [0u8; 1000];
        let error = loop {
            match d.reader.read(&mut buf) {
                Ok(0) => break None,
                Ok(n) => text.extend_from_slice(&buf[..n]),
                Err(e) => break Some(e.to_string()),
            }
        };
        (text, error, d.trailing.get().copied())
    }

    /// Issue 25.1: decoding on several threads reads what one thread reads, for any
    /// number of jobs: the same text and the same trailing bytes, on random zstd
    /// (pzstd's layout or not), gzip (BGZF or not) and bzip2 archives with junk between
    /// frames, padding, cuts and flipped bits; and damage is an error after the same
    /// text, to the decoder's last block (where a decoder stops before an error depends
    /// on how its input arrives, a file's reads or a pipe's, with one thread too).
    #[test]
    fn every_job_count_reads_what_one_thread_reads() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut seen = [0usize; 4];
        for case in 0..240 {
            let kind = case % 3;
            let bytes = archive(&mut rng, kind);
            let one = read(&bytes, 1);
            for jobs in [2, 3] {
                let many = read(&bytes, jobs);
                let same = match (&one.1, &many.1) {
                    (None, None) => many == one,
                    (Some(_), Some(_)) => {
                        let (short, long) = if one.0.len() <= many.0.len() {
                            (&one.0, &many.0)
                        } else {
                            (&many.0, &one.0)
                        };
                        // A bzip2 block at level 1 is 100 kB of text.
                        long.starts_with(short) && long.len() - short.len() <= 128 << 10
                    }
                    _ => false,
                };
                assert!(
                    same,
                    "case {case} (kind {kind}, {} bytes), {jobs} jobs: {:?} / {:?} / {:?} against {:?} / {:?} / {:?}",
                    bytes.len(),
                    many.0.len(),
                    many.1,
                    many.2,
                    one.0.len(),
                    one.1,
                    one.2
                );
            }
            seen[0] += usize::from(one.1.is_some());
            seen[1] += usize::from(one.2.is_some());
            seen[2] += usize::from(bytes.len() > super::CAP);
            seen[3] += usize::from(one.1.is_none() && one.2.is_none());
        }
        // Errors, trailing bytes, archives longer than the cap (of many chunks, with
        // frames longer than the cap) and clean ones all came up.
        assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
    }
}
