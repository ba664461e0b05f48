//! bzip2's blocks found at any bit and decoded one at a time: how reading goes on after
//! a damaged block, inside its stream, as `bzip2recover` recovers blocks.
//!
//! A bzip2 stream is `BZh` and a level digit, then its blocks, then an end-of-stream
//! mark and the stream's CRC. Blocks and the end follow one another bit after bit, each
//! starting with a 48-bit magic number (π's digits for a block, √π's for the end), a
//! block's own CRC after its magic. A block copied out of its stream, behind a new
//! header and before an end whose CRC is the block's, is a stream of its own that a
//! decoder reads and checks. A decoder that fails in a block is given up; the block it
//! failed in is found among the bytes it read ([`failed_block`]), and reading goes on at
//! the next block, each decoded alone ([`Blocks`]), up to the stream's end.

use std::io::{self, BufRead, Cursor, Read};

use super::compressed::{
    BZIP2_BLOCK as BLOCK, BZIP2_END as END, Compression, DamagedFrame, Peek, is_bzip2_header,
};

const MAGIC_BITS: u64 = 48;
/// A magic number and the CRC after it (a block's, or the stream's after the end).
const HEAD_BITS: u64 = 80;

/// For each byte, whether it can be the second byte that a magic number covers, at any
/// of the eight bits it can start at in the byte before: the test that leaves most
/// bytes unread bit by bit.
const SECOND: [bool; 256] = {
    let mut t = [false; 256];
    let magics = [BLOCK, END];
    let mut m = 0;
    while m < magics.len() {
        let mut shift = 0;
        while shift < 8 {
            t[((magics[m] >> (32 + shift)) & 0xff) as usize] = true;
            shift += 1;
        }
        m += 1;
    }
    t
};

/// A mark found in a bzip2 stream's bytes, at a bit counted from the bytes' start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::stream) enum Mark {
    /// A block's magic starts at this bit.
    Block(u64),
    /// The end-of-stream magic starts at this bit.
    End(u64),
    /// A stream starts at this byte: `BZh`, a level digit, then a block's magic or the
    /// end's.
    Stream(u64),
}

impl Mark {
    /// The bit it starts at.
    fn bit(self) -> u64 {
        match self {
            Mark::Block(b) | Mark::End(b) => b,
            Mark::Stream(byte) => byte * 8,
        }
    }
}

/// The first mark in `b` that starts at bit `from` or after (a stream's start only when
/// its `BZh` starts at bit `streams` or after; else its first magic is a block's or the
/// end's).
pub(in crate::stream) fn next_mark(b: &[u8], from: u64, streams: u64) -> Option<Mark> {
    let bits = b.len() as u64 * 8;
    let last = b.len().checked_sub(6)?;
    for i in usize::try_from(from / 8).ok()?..=last {
        if !SECOND[usize::from(b[i + 1])] {
            continue;
        }
        let mut word = [0u8; 8];
        let n = (b.len() - i).min(8);
        word[..n].copy_from_slice(&b[i..i + n]);
        let word = u64::from_be_bytes(word);
        for shift in 0..8 {
            let at = i as u64 * 8 + shift;
            if at < from || at + MAGIC_BITS > bits {
                continue;
            }
            let magic = (word >> (16 - shift)) & ((1 << MAGIC_BITS) - 1);
            if magic != BLOCK && magic != END {
                continue;
            }
            if shift == 0
                && let Some(h) = i.checked_sub(4)
                && h as u64 * 8 >= streams
                && is_bzip2_header(&b[h..])
            {
                return Some(Mark::Stream(h as u64));
            }
            return Some(if magic == BLOCK {
                Mark::Block(at)
            } else {
                Mark::End(at)
            });
        }
    }
    None
}

/// Where the blocks start that a decoder may have failed in, given the bytes it read
/// `b`, the bit its stream's first block starts at in them (`first`; `None` when they
/// start later) and the bits it had read (`read`): its stream's blocks whose magic starts
/// more than a byte before the bits read, in order (a decoder that fails at a block's
/// end, where it checks its CRC, has read at most a byte of the next block's magic).
/// The first block counts even when its magic is damaged.
fn block_starts(b: &[u8], first: Option<u64>, read: u64) -> Vec<u64> {
    let from = first.unwrap_or(0);
    let mut starts: Vec<u64> = first.into_iter().collect();
    let mut at = from;
    while let Some(Mark::Block(bit)) = next_mark(b, at, from) {
        if bit + 8 >= read {
            break;
        }
        if starts.last() != Some(&bit) {
            starts.push(bit);
        }
        at = bit + 1;
    }
    starts
}

/// Bytes written a bit at a time, each byte's highest bit first (as bzip2 writes them).
struct Bits {
    out: Vec<u8>,
    acc: u64,
    held: u32,
}

impl Bits {
    fn with_capacity(n: usize) -> Bits {
        Bits {
            out: Vec::with_capacity(n),
            acc: 0,
            held: 0,
        }
    }

    /// The low `n` bits of `v` (at most 32), highest first.
    fn put(&mut self, v: u64, n: u32) {
        self.acc = (self.acc << n) | (v & ((1 << n) - 1));
        self.held += n;
        while self.held >= 8 {
            self.held -= 8;
            self.out.push((self.acc >> self.held) as u8);
        }
        self.acc &= (1 << self.held) - 1;
    }

    /// The bits of `b` from bit `from` to bit `to`.
    fn copy(&mut self, b: &[u8], from: u64, to: u64) {
        let mut at = from;
        while at + 8 <= to {
            let i = (at / 8) as usize;
            let pair = u16::from_be_bytes([b[i], b.get(i + 1).copied().unwrap_or(0)]);
            self.put(u64::from(pair >> (8 - at % 8)), 8);
            at += 8;
        }
        while at < to {
            self.put(u64::from(b[(at / 8) as usize] >> (7 - at % 8)), 1);
            at += 1;
        }
    }

    /// The bytes, the last one's low bits zero.
    fn finish(mut self) -> Vec<u8> {
        if self.held > 0 {
            let pad = 8 - self.held;
            self.put(0, pad);
        }
        self.out
    }
}

/// The 32 bits of `b` from bit `at`.
fn bits32(b: &[u8], at: u64) -> u64 {
    let mut word = [0u8; 8];
    let i = (at / 8) as usize;
    let n = b.len().saturating_sub(i).min(8);
    word[..n].copy_from_slice(&b[i..i + n]);
    (u64::from_be_bytes(word) >> (32 - at % 8)) & 0xffff_ffff
}

/// The block of `b` from bit `from` (its magic) to bit `to` as a stream of its own: the
/// largest level's header (which takes any block), the block, and an end whose CRC is
/// the block's (a stream's CRC of one block is that block's).
pub(in crate::stream) fn lone_block(b: &[u8], from: u64, to: u64) -> Vec<u8> {
    let mut out = Bits::with_capacity(((to - from) / 8) as usize + 16);
    for &byte in b"BZh9" {
        out.put(u64::from(byte), 8);
    }
    out.copy(b, from, to);
    out.put(END >> 24, 24);
    out.put(END, 24);
    let crc = if from + HEAD_BITS <= b.len() as u64 * 8 {
        bits32(b, from + MAGIC_BITS)
    } else {
        0
    };
    out.put(crc, 32);
    out.finish()
}

/// The byte a stream ends at whose end-of-stream magic starts at bit `end` (its CRC and
/// the bits that fill its last byte after it).
fn stream_end(end: u64) -> u64 {
    (end + HEAD_BITS).div_ceil(8)
}

/// The bytes of a damaged bzip2 stream from a block on: each block decoded as a stream
/// of its own up to the stream's end, where the reader goes on with the next stream.
pub(super) struct Blocks<R> {
    src: Peek<R>,
    /// Bytes taken from `src`: from the block being read on (and those the search for
    /// its end took).
    bytes: Vec<u8>,
    /// The bytes consumed before `bytes[0]`.
    at: u64,
    /// The input has ended.
    eof: bool,
    /// The offsets that reports add to theirs: the file's of the stream's bytes, and the
    /// damaged stream's own.
    base: u64,
    stream: u64,
    /// The block being decoded.
    block: Option<Lone>,
    /// The mark after the block being decoded; `None` at the end of the input.
    next: Option<Mark>,
}

/// A block decoded alone: its first bit (counted from the first byte `src` read), its
/// decoder (`None` when its bytes were more than a block can be, and were let go), and
/// the text it gave.
struct Lone {
    from: u64,
    decoder: Option<Decoder<Cursor<Vec<u8>>>>,
    read: u64,
}

/// Bytes searched for a mark past which the bytes before go: more than any block
/// compresses to (a block's magic is then not one, or the block's bytes are damaged).
const SEARCHED: usize = 8 << 20;

/// A bzip2 stream's decoder that hands out a block's text only once the block's CRC has
/// passed: the text of a damaged block is never read, whether the damage stops its
/// decoding or only its check at its end finds it (a block's text is its
/// Burrows-Wheeler transform undone: damage there scrambles all of it, and games made of
/// it are games nobody played).
///
/// libbz2 reads a block's bits whole before it gives any of its text, and checks the
/// block's CRC once it has given the last of it, before it reads on: so when it stops
/// for want of input with room left for text, every block whose text it gave has been
/// checked. Input is offered up to the next magic number at most (a block's or the
/// stream's end's, found at any bit), so that it stops so between blocks, and the text
/// of the block being decoded, at most one block's (900 kB of text without long runs),
/// is held until then. (A magic damaged is not found: the decoder then reads on into it
/// and fails there in the call that gave the block's text, which is handed out when
/// the CRC in the block's header, read where the decoder was stopped, is the text's.)
pub(super) struct Decoder<R> {
    inner: R,
    data: bzip2::Decompress,
    /// Checked text: `held[given..]` not handed out yet.
    held: Vec<u8>,
    given: usize,
    /// The CRC in the header of the block whose magic the decoder was last stopped in.
    block_crc: Option<u32>,
    /// The last bytes the decoder took (up to [`TAIL`]).
    tail: [u8; TAIL],
    tail_len: usize,
    done: bool,
    failed: Option<io::Error>,
}

/// The bytes kept of those a decoder took: a block's magic and CRC that start in them,
/// 80 bits, end within the next bytes.
const TAIL: usize = 10;

/// The last [`TAIL`] bytes of `tail` and then `taken`.
fn keep_tail(tail: &mut [u8; TAIL], len: &mut usize, taken: &[u8]) {
    if taken.len() >= TAIL {
        tail.copy_from_slice(&taken[taken.len() - TAIL..]);
        *len = TAIL;
    } else {
        let kept = (TAIL - taken.len()).min(*len);
        tail.copy_within(*len - kept..*len, 0);
        tail[kept..kept + taken.len()].copy_from_slice(taken);
        *len = kept + taken.len();
    }
}

/// The CRC of the block whose magic starts in `tail`, the last bytes the decoder took,
/// and goes on in `ahead` (the decoder was stopped in it, or read past it): `None` when
/// there is none, or the bytes do not hold its CRC.
fn stopped_at(tail: &[u8], ahead: &[u8]) -> Option<u32> {
    let mut joined = [0u8; 2 * TAIL + 2];
    let ahead = &ahead[..ahead.len().min(joined.len() - tail.len())];
    joined[..tail.len()].copy_from_slice(tail);
    joined[tail.len()..tail.len() + ahead.len()].copy_from_slice(ahead);
    let joined = &joined[..tail.len() + ahead.len()];
    match next_mark(joined, 0, u64::MAX)? {
        Mark::Block(b) if b < tail.len() as u64 * 8 && joined.len() as u64 * 8 >= b + HEAD_BITS => {
            Some(bits32(joined, b + MAGIC_BITS) as u32)
        }
        _ => None,
    }
}

/// bzip2's CRC of a block's text (CRC-32, most significant bit first).
fn bzip2_crc(text: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in text {
        crc ^= u32::from(b) << 24;
        for _ in 0..8 {
            crc = (crc << 1)
                ^ if crc & 0x8000_0000 != 0 {
                    0x04c1_1db7
                } else {
                    0
                };
        }
    }
    !crc
}

impl<R: BufRead> Decoder<R> {
    /// Compressed bytes offered to libbz2 at a time.
    const OFFER: usize = 16 << 10;
    /// Room made for text at a time.
    const ROOM: usize = 64 << 10;

    pub(super) fn new(inner: R) -> Decoder<R> {
        Decoder {
            inner,
            data: bzip2::Decompress::new(false),
            held: Vec::new(),
            given: 0,
            block_crc: None,
            tail: [0; TAIL],
            tail_len: 0,
            done: false,
            failed: None,
        }
    }

    pub(super) fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }

    pub(super) fn into_inner(self) -> R {
        self.inner
    }

    /// Decodes on until text has been checked, the stream has ended or the decoder has
    /// failed (`failed`, the text of the block it failed in dropped). An error reading
    /// the input is returned at once, the unchecked text dropped too.
    fn decode(&mut self) -> io::Result<()> {
        self.held.clear();
        self.given = 0;
        // Whether the decoder has given all the text it can (else it is given room for
        // more, and no input).
        let mut wants_input = true;
        loop {
            if self.held.capacity() - self.held.len() < Self::ROOM / 2 {
                self.held.reserve(Self::ROOM);
            }
            let (input, ended) = if wants_input {
                let input = self.inner.fill_buf()?;
                (input, input.is_empty())
            } else {
                (&[][..], false)
            };
            if wants_input {
                self.block_crc = stopped_at(&self.tail[..self.tail_len], input).or(self.block_crc);
            }
            // Up to the byte that the next magic number (a block's or the end's) starts
            // in: the decoder stops there for want of input, the block before checked,
            // before any bit of the next block can fail it. (A magic that the bytes at
            // hand cut is not seen: the offer then ends inside it, which is as good.)
            let mut n = input.len().min(Self::OFFER);
            if let Some(m) = next_mark(&input[..input.len().min(n + 6)], 0, 0) {
                n = n.min((m.bit() / 8) as usize + 1);
            }
            let (taken, had) = (self.data.total_in(), self.held.len());
            let status = self.data.decompress_vec(&input[..n], &mut self.held);
            let consumed = (self.data.total_in() - taken) as usize;
            keep_tail(&mut self.tail, &mut self.tail_len, &input[..consumed]);
            self.inner.consume(consumed);
            match status {
                Err(e) => {
                    // The text given since the decoder last stopped is a block's whole
                    // text: the block whose magic the decoder was stopped at last, which
                    // failed its check, or passed it when the failure came after (the
                    // next magic damaged, not found, and read on into). Its CRC tells.
                    if self.block_crc != Some(bzip2_crc(&self.held)) {
                        self.held.clear();
                    }
                    self.failed = Some(io::Error::new(io::ErrorKind::InvalidInput, e));
                    return Ok(());
                }
                Ok(bzip2::Status::StreamEnd) => {
                    self.done = true;
                    return Ok(());
                }
                Ok(_) => {}
            }
            // Stopped with room left: for want of input, all its text checked.
            wants_input = self.held.len() < self.held.capacity();
            if wants_input && !self.held.is_empty() {
                return Ok(());
            }
            if wants_input && ended && consumed == 0 && self.held.len() == had {
                self.failed = Some(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "decompression not finished but EOF reached",
                ));
                return Ok(());
            }
        }
    }
}

impl<R: BufRead> Read for Decoder<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.given < self.held.len() {
                let n = buf.len().min(self.held.len() - self.given);
                buf[..n].copy_from_slice(&self.held[self.given..self.given + n]);
                self.given += n;
                return Ok(n);
            }
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            if self.done {
                return Ok(0);
            }
            if let Err(e) = self.decode() {
                self.held.clear();
                return Err(e);
            }
        }
    }
}

/// What became of a damaged stream: its blocks after the damaged one to be read
/// ([`Blocks`]), or its end, from which the next stream is read.
pub(super) enum After<R> {
    Blocks(Box<Blocks<R>>),
    End(Peek<R>),
}

impl<R: Read> Blocks<R> {
    /// Steps over the block of the bzip2 stream starting at byte `start` (of the bytes
    /// `src` reads, which start at byte `base` of the file) whose decoder failed with
    /// `reason`, having given `read` bytes of text and read the bytes `src` recorded.
    /// The damaged block's report, and the reader after it; `None` when the block
    /// cannot be found in the bytes recorded, or the stream has no end (cut short).
    pub(super) fn step_over(
        mut src: Peek<R>,
        base: u64,
        start: u64,
        reason: String,
        read: u64,
    ) -> io::Result<Option<(DamagedFrame, After<R>)>> {
        let Some((bytes, at)) = src.take_recorded() else {
            return Ok(None);
        };
        let consumed = src.consumed() * 8;
        let mut blocks = Blocks {
            src,
            bytes,
            at,
            eof: false,
            base,
            stream: start,
            block: None,
            next: None,
        };
        // The stream's first block, when its start was kept.
        let first = (start + 4).checked_sub(at).map(|b| b * 8);
        let starts: Vec<u64> = block_starts(&blocks.bytes, first, consumed - at * 8)
            .into_iter()
            .map(|b| b + at * 8)
            .collect();
        let Some(mut i) = starts.len().checked_sub(1) else {
            return Ok(None);
        };
        let mut next = blocks.search(starts[i] + MAGIC_BITS)?;
        // A decoder thrown off by damage can read past the end of the block it fails
        // in, into the next one, which decodes alone: it failed before. (Only one block
        // back: a decoder that read a whole block past the damaged one cannot be told
        // from one that gave that block's text, and that block is then lost too.)
        let (mut given, whole) = blocks.alone(starts[i], next);
        if i > 0 && whole && consumed < blocks.block_end(next) {
            next = Some(Mark::Block(starts[i]));
            i -= 1;
            given = blocks.alone(starts[i], next).0;
        }
        let failed = starts[i];
        // A stream cut short: its text ends there, as any cut short stream's.
        if next.is_none() {
            return Ok(None);
        }
        let end = blocks.end_of(next);
        // A stream that failed in its first block and ended after it: stepped over whole.
        let whole = failed == (start + 4) * 8 && !matches!(next, Some(Mark::Block(_)));
        let from = if whole { start } else { failed / 8 };
        let frame = DamagedFrame {
            compression: Compression::Bzip2,
            offset: base + from,
            len: end.div_ceil(8) - from,
            stream: (!whole).then_some(base + start),
            reason,
            read: if whole { read } else { given.min(read) },
            text: None,
        };
        let after = match next {
            Some(Mark::Block(b)) => {
                blocks.start(b)?;
                After::Blocks(Box::new(blocks))
            }
            _ => After::End(blocks.rest(end / 8)),
        };
        Ok(Some((frame, after)))
    }

    /// Where the block or stream whose next mark is `next` ends, in stream bits: at the
    /// next block's magic, after the stream's end, or at the end of the input.
    fn end_of(&self, next: Option<Mark>) -> u64 {
        let input = (self.at + self.bytes.len() as u64) * 8;
        match next {
            Some(Mark::End(e)) => (stream_end(e) * 8).min(input),
            Some(m) => m.bit(),
            None => input,
        }
    }

    /// Where the bits of a block whose next mark is `next` end: the end's magic not
    /// counted.
    fn block_end(&self, next: Option<Mark>) -> u64 {
        match next {
            Some(Mark::End(e)) => e,
            next => self.end_of(next),
        }
    }

    /// Decodes alone the block from stream bit `from`, whose next mark is `next`: the
    /// text it gives before it fails, and whether it decodes whole (`false` when its
    /// bytes were let go).
    fn alone(&self, from: u64, next: Option<Mark>) -> (u64, bool) {
        let Some(mut decoder) = self.decoder(from, self.block_end(next)) else {
            return (0, false);
        };
        let mut buf = vec![0; 1 << 16];
        let mut given = 0;
        loop {
            match decoder.read(&mut buf) {
                Ok(0) => return (given, true),
                Ok(n) => given += n as u64,
                Err(_) => return (given, false),
            }
        }
    }

    /// The decoder of the block from stream bit `from` to bit `to`, alone; `None` when
    /// its bytes were let go.
    fn decoder(&self, from: u64, to: u64) -> Option<Decoder<Cursor<Vec<u8>>>> {
        let shift = self.at * 8;
        let lone = lone_block(&self.bytes, from.checked_sub(shift)?, to - shift);
        Some(Decoder::new(Cursor::new(lone)))
    }

    /// The first mark from stream bit `from` on, reading on as far as it takes (keeping
    /// the last [`SEARCHED`] bytes or more).
    fn search(&mut self, from: u64) -> io::Result<Option<Mark>> {
        let streams = from;
        let mut from = from;
        loop {
            let shift = self.at * 8;
            let rel = from.saturating_sub(shift);
            if let Some(m) = next_mark(&self.bytes, rel, streams.saturating_sub(shift)) {
                let m = match m {
                    Mark::Block(b) => Mark::Block(b + shift),
                    Mark::End(b) => Mark::End(b + shift),
                    Mark::Stream(s) => Mark::Stream(s + self.at),
                };
                // The mark's head read whole: a block's magic and CRC, or the end's and
                // the stream's CRC to its last byte (cut there, the next stream's first
                // bytes were taken for trailing ones, and every stream after it lost).
                let head_end = match m {
                    Mark::End(e) => stream_end(e),
                    Mark::Block(b) => (b + HEAD_BITS).div_ceil(8),
                    Mark::Stream(_) => 0,
                };
                while self.at + (self.bytes.len() as u64) < head_end && self.take_more()? {}
                return Ok(Some(m));
            }
            if self.eof {
                return Ok(None);
            }
            // The bits whose magic the next bytes complete start in the last six bytes
            // (and a stream's `BZh` four before).
            let len = self.bytes.len();
            from = from.max((self.at + len.saturating_sub(6) as u64) * 8);
            if len > SEARCHED {
                let gone = len - 16;
                self.bytes.drain(..gone);
                self.at += gone as u64;
            }
            self.take_more()?;
        }
    }

    /// Takes the next bytes of the input into `bytes`; `false` at its end (`eof`).
    fn take_more(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let chunk = self.src.fill_buf()?;
        if chunk.is_empty() {
            self.eof = true;
            return Ok(false);
        }
        let n = chunk.len();
        self.bytes.extend_from_slice(chunk);
        self.src.consume(n);
        Ok(true)
    }

    /// Starts decoding the block whose magic is at stream bit `from`.
    fn start(&mut self, from: u64) -> io::Result<()> {
        // The bytes before the block's are done with (all of them, when a search that
        // failed let the block's go too).
        let gone = ((from / 8).saturating_sub(self.at) as usize).min(self.bytes.len());
        self.bytes.drain(..gone);
        self.at += gone as u64;
        self.next = self.search(from + MAGIC_BITS)?;
        self.block = Some(Lone {
            from,
            decoder: self.decoder(from, self.block_end(self.next)),
            read: 0,
        });
        Ok(())
    }

    /// The reader at stream byte `end`, the bytes taken after it handed back.
    fn rest(mut self, end: u64) -> Peek<R> {
        let from = (end.saturating_sub(self.at) as usize).min(self.bytes.len());
        self.src.unread(&self.bytes[from..]);
        self.src
    }

    /// The next text of the blocks: `Ok(0)` at the stream's end ([`Blocks::into_rest`]
    /// then gives the reader after it), a [`DamagedFrame`] for a block that does not
    /// decode, after which reading goes on at the next block; a stream that the end of
    /// the input cuts short (no end mark after its last block) ends the text.
    pub(super) fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(lone) = &mut self.block {
                let failed = match &mut lone.decoder {
                    Some(d) => match d.read(buf) {
                        Ok(0) => None,
                        Ok(n) => {
                            lone.read += n as u64;
                            return Ok(n);
                        }
                        Err(e) => Some(e.to_string()),
                    },
                    None => Some("longer than any block: its bytes were let go".to_owned()),
                };
                let (from, read) = (lone.from / 8, lone.read);
                self.block = None;
                if let Some(reason) = failed {
                    if self.next.is_none() {
                        return Err(io::Error::new(
                            io::ErrorKind::UnexpectedEof,
                            format!("the bzip2 stream ends in a block cut short ({reason})"),
                        ));
                    }
                    let to = self.end_of(self.next).div_ceil(8);
                    let frame = DamagedFrame {
                        compression: Compression::Bzip2,
                        offset: self.base + from,
                        len: to - from,
                        stream: Some(self.base + self.stream),
                        reason,
                        read,
                        text: None,
                    };
                    return Err(io::Error::new(io::ErrorKind::InvalidData, frame));
                }
            }
            match self.next {
                Some(Mark::Block(b)) => self.start(b)?,
                // Its blocks read, the stream's end mark not found: cut short.
                None => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the bzip2 stream ends without its end mark",
                    ));
                }
                // (A block that decodes whole up to the next stream's start: the end mark
                // missing, the text whole.)
                Some(Mark::End(_) | Mark::Stream(_)) => return Ok(0),
            }
        }
    }

    /// The reader after the stream's end, once [`Blocks::read`] has given `Ok(0)`.
    pub(super) fn into_rest(self) -> Peek<R> {
        let end = self.end_of(self.next) / 8;
        self.rest(end)
    }
}

#[cfg(test)]
mod tests;
