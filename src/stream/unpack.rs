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
//! sequentially, with the rest of the stream and the frame before it (whether that frame
//! ends by itself or is stepped over tells how bytes after it that start no frame are
//! read). A damaged frame that pzstd announced, a
//! damaged BGZF block or a damaged bzip2 block, is stepped over in its chunk as a
//! sequential read steps over it (`frames`; a BGZF block's decoder reads its own bytes
//! only; what a bzip2 step finds depends on its stream's bytes only, and a stream whose
//! end mark the step does not find before the chunk's end leaves the chunk unclean), and
//! told through the chunk's pipe: the chunks after it are still decoded on the threads. And a
//! chunk that does not end cleanly (an error, a damaged frame whose decoder wanted more
//! than the chunk's bytes, or bytes after a stream that start no frame) is read again
//! sequentially from its start, with everything after it: its decoder holds back its last
//! [`HOLD`] blocks of text until it has ended cleanly or met a damaged frame stepped
//! over, so that what the reader already has is what the sequential decoder gives too.
//! So the text, the damaged frames, the trailing bytes noted and the errors met are
//! those of a sequential read, for any number of threads.

use std::collections::VecDeque;
use std::io::{self, BufRead, Cursor, Read};
use std::sync::atomic::{AtomicU64, Ordering as Atomic};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};
use std::thread;

use super::compressed::{HeaderFields, Len, bgzf_len, next_bzip2_stream};
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
    /// A damaged frame was stepped over (its offset in the chunk): the chunk goes on.
    Damaged(DamagedFrame),
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
/// blocks until it has ended cleanly or met a damaged frame that a sequential read steps
/// over too. It asks the decoder for text in the sequential read's small reads, so that a
/// damaged frame gives the text it gives there before its damage is found.
fn decode_chunk(task: Task, kind: Compression) {
    let Task { bytes, out } = task;
    let trailing = TrailingNote::default();
    let Ok(mut reader) = Frames::start(kind, Peek::new(Shared(bytes, 0)), trailing.clone(), 0)
    else {
        let _ = out.send(Block::Unclean);
        return;
    };
    let mut held: VecDeque<Vec<u8>> = VecDeque::with_capacity(HOLD + 1);
    let mut block = Vec::with_capacity(BLOCK + SMALL_READ);
    loop {
        let len = block.len();
        block.resize(len + SMALL_READ, 0);
        match reader.read(&mut block[len..]) {
            Ok(0) => {
                block.truncate(len);
                break;
            }
            Ok(n) => block.truncate(len + n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => block.truncate(len),
            Err(e) => {
                block.truncate(len);
                // A damaged frame stepped over where a sequential read steps over it
                // too: the text before it is what that read gives, and the chunk goes
                // on after it.
                let Some(frame) = DamagedFrame::of(&e).filter(|_| !reader.stepped_at_end()) else {
                    let _ = out.send(Block::Unclean);
                    return;
                };
                if !send_held(&mut held, &mut block, &out)
                    || out.send(Block::Damaged(frame.clone())).is_err()
                {
                    return;
                }
                continue;
            }
        }
        if block.len() >= BLOCK {
            held.push_back(std::mem::replace(
                &mut block,
                Vec::with_capacity(BLOCK + SMALL_READ),
            ));
            if held.len() > HOLD {
                let front = held.pop_front().expect("more than HOLD blocks");
                if out.send(Block::Data(front)).is_err() {
                    return;
                }
            }
        }
    }
    if trailing.get().is_some() || reader.overran_at_end() {
        let _ = out.send(Block::Unclean);
        return;
    }
    if send_held(&mut held, &mut block, &out) {
        let _ = out.send(Block::End);
    }
}

/// Sends the blocks held back and the block being filled (its text now final), which
/// starts anew; `false` when the reader has gone.
fn send_held(held: &mut VecDeque<Vec<u8>>, block: &mut Vec<u8>, out: &SyncSender<Block>) -> bool {
    held.push_back(std::mem::replace(
        block,
        Vec::with_capacity(BLOCK + SMALL_READ),
    ));
    held.drain(..)
        .filter(|data| !data.is_empty())
        .all(|data| out.send(Block::Data(data)).is_ok())
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

/// The length of the zstd frame or skippable frame at the start of `b` (whose first four
/// bytes are a zstd magic number); of pzstd's skippable frame that announces the size of
/// the frame after it, the two together (they are never cut apart: a damaged frame is
/// stepped over by its announced size).
pub(super) fn zstd_len(b: &[u8]) -> Len {
    let magic = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    if magic & 0xffff_fff0 == 0x184d_2a50 {
        // A skippable frame of pzstd's magic number and another size than four, with a
        // zstd frame's magic number where pzstd puts its frame, may be an announcement
        // with its size field damaged: the sequential reader judges it.
        if magic == 0x184d_2a50 && b.get(4..8).is_some_and(|s| s != [4, 0, 0, 0]) {
            match b.get(12..16) {
                None => return Len::Need,
                Some([0x28, 0xb5, 0x2f, 0xfd]) => return Len::Unknown,
                Some(_) => {}
            }
        }
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
    if magic != 0xfd2f_b528 {
        // Bytes that start no frame (an announcement whose magic number is damaged).
        return Len::Unknown;
    }
    let Some(&descriptor) = b.get(4) else {
        return Len::Need;
    };
    let Some(fields) = HeaderFields::of(descriptor) else {
        return Len::Unknown; // the reserved bit
    };
    let mut at = fields.len();
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
    /// Where the last of them starts: it goes with the next chunk, or with the rest of
    /// the stream when the rest is read sequentially (a frame stepped over by its
    /// announced size or not tells how bytes after it that start no frame are read).
    last: usize,
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
            last: 0,
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
            // A BGZF block is cut only where the next member (or the stream's end)
            // follows, as the sequential decoder steps over a damaged one only there.
            let gzip = self.kind == Compression::Gzip;
            let fits = |n: usize| {
                n <= have
                    && (!gzip
                        || match frame.get(n..n + 2) {
                            Some(next) => next == [0x1f, 0x8b],
                            None => self.eof,
                        })
            };
            match len {
                Len::Known(n) if n > 0 && fits(n) => {
                    self.last = self.cut;
                    self.cut += n;
                    self.searched = 0;
                    if self.last >= CHUNK && self.send_before_last().is_err() {
                        return;
                    }
                }
                Len::Known(n) if (n > have || gzip && n + 2 > have) && !self.eof && have <= CAP => {
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

    /// Sends the whole frames cut so far but the last as one chunk; `Err` when the
    /// reader has gone.
    fn send_before_last(&mut self) -> Result<(), ()> {
        let (cut, last) = (self.cut, self.last);
        self.cut = last;
        self.send_cut()?;
        self.cut = cut - last;
        Ok(())
    }

    /// Sends the whole frames cut so far as one chunk; `Err` when the reader has gone.
    fn send_cut(&mut self) -> Result<(), ()> {
        self.last = 0;
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

    /// Sends the frames cut so far but the last, then the rest of the stream from the
    /// last, to be read sequentially.
    fn rest(mut self) {
        self.cut = self.last;
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
    /// A chunk's pipe, of which `handed` has been handed out.
    Chunk {
        base: u64,
        bytes: Arc<Vec<u8>>,
        blocks: Receiver<Block>,
        handed: Handed,
    },
    /// The sequential decoder, what `skip` counts already handed out.
    Sequential {
        reader: Box<Small<Frames<Remaining>>>,
        note: TrailingNote,
        skip: Handed,
    },
    /// Between chunks.
    Between,
}

/// What a chunk's pipe has handed out: bytes of text, and damaged frames stepped over
/// (each told once: their offsets, oldest first).
#[derive(Debug, Clone, Default)]
struct Handed {
    text: u64,
    damaged: VecDeque<u64>,
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

    /// Reads sequentially from `base`, `input` first and then whatever follows it, what
    /// `skip` counts already handed out.
    fn sequential(
        &mut self,
        base: u64,
        input: Box<dyn Read + Send>,
        skip: Handed,
    ) -> io::Result<()> {
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
                            handed: Handed::default(),
                        };
                    }
                    Ok(Order::Rest { base, input }) => {
                        self.sequential(base, input, Handed::default())?
                    }
                    Ok(Order::End) => return Ok(false),
                    Err(_) => return Err(io::Error::other("the archive's scanner thread stopped")),
                },
                Source::Chunk {
                    base,
                    bytes,
                    blocks,
                    handed,
                } => match blocks.recv() {
                    Ok(Block::Data(data)) => {
                        handed.text += data.len() as u64;
                        self.block = data;
                        self.pos = 0;
                        return Ok(true);
                    }
                    Ok(Block::End) => {
                        self.reached
                            .fetch_max(*base + bytes.len() as u64, Atomic::Relaxed);
                        self.source = Source::Between;
                    }
                    Ok(Block::Damaged(mut frame)) => {
                        frame.offset += *base;
                        frame.stream = frame.stream.map(|s| s + *base);
                        handed.damaged.push_back(frame.offset);
                        return Err(io::Error::new(io::ErrorKind::InvalidData, frame));
                    }
                    Ok(Block::Unclean) | Err(_) => {
                        // Read it again, and what follows, as a sequential read would.
                        let (base, skip) = (*base, std::mem::take(handed));
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
                            // A damaged frame the chunk's pipe told already (the same frame:
                            // another would be told).
                            Err(e)
                                if DamagedFrame::of(&e)
                                    .is_some_and(|d| skip.damaged.front() == Some(&d.offset)) =>
                            {
                                skip.damaged.pop_front();
                            }
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
                    let drop = skip.text.min(n as u64) as usize;
                    skip.text -= drop as u64;
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
mod tests;
