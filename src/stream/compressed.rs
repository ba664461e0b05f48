//! What a compressed stream is made of: its [`Compression`], the bytes that trail its
//! last frame ([`Trailing`]), a frame stepped over as damaged ([`DamagedFrame`]), the
//! decoded stream handed out ([`Decoded`]), and the reader that looks ahead into the
//! compressed bytes and hands a frame's bytes to its decoder in aligned pieces (`Peek`).

use std::fmt;
use std::io::{self, BufRead, Read};
use std::sync::{Arc, OnceLock};

/// The compression of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// Zstandard (`.zst`, the Lichess database; with or without pzstd's skippable frames).
    Zstd,
    /// gzip.
    Gzip,
    /// bzip2.
    Bzip2,
}

impl Compression {
    /// Reads the compression off the first bytes of a stream (four are enough): a zstd
    /// frame or skippable frame, a gzip member, a bzip2 stream, else plain text.
    pub fn detect(head: &[u8]) -> Compression {
        match head {
            [0x28, 0xb5, 0x2f, 0xfd, ..] | [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Compression::Zstd,
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', ..] => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    /// Every compression, in declaration order.
    pub const ALL: [Compression; 4] = [
        Compression::None,
        Compression::Zstd,
        Compression::Gzip,
        Compression::Bzip2,
    ];

    /// `none`, `zstd`, `gzip` or `bzip2`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }

    /// What one frame of this compression is called in messages.
    fn frame(self) -> &'static str {
        match self {
            Compression::Zstd => "zstd frame",
            Compression::Gzip => "gzip member",
            Compression::Bzip2 => "bzip2 stream",
            Compression::None => "text",
        }
    }
}

/// Bytes after the last complete frame that start no frame: read past, not decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trailing {
    /// The stream's compression.
    pub compression: Compression,
    /// The offset of the first trailing byte in the compressed stream.
    pub offset: u64,
    /// How many bytes trail.
    pub len: u64,
    /// Whether they are all zero (padding).
    pub zeros: bool,
}

impl fmt::Display for Trailing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.zeros {
            "zero padding"
        } else {
            "not compressed data"
        };
        write!(
            f,
            "{} trailing byte{} after the last complete {} (from byte {}), {what}: ignored",
            self.len,
            if self.len == 1 { "" } else { "s" },
            self.compression.frame(),
            self.offset
        )
    }
}

/// A zstd frame that could not be decoded and was stepped over, its text after the
/// damage lost: the error of one read of a decoded stream ([`decode`](super::decode),
/// [`decode_with`](super::decode_with)), after which reading goes on with the next
/// frame's text.
///
/// It is the `get_ref` of an [`io::Error`] of kind [`io::ErrorKind::InvalidData`]:
///
/// ```
/// # fn f(e: &std::io::Error) -> Option<u64> {
/// use pocketfen::stream::DamagedFrame;
/// let frame = e.get_ref()?.downcast_ref::<DamagedFrame>()?;
/// # Some(frame.offset) }
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamagedFrame {
    /// The frame's offset in the file (or stream), its announcing skippable frame not
    /// counted.
    pub offset: u64,
    /// Its compressed size, as announced.
    pub len: u64,
    /// What the decoder found.
    pub reason: String,
    /// The bytes of text the frame gave before its damage was found (all handed out).
    pub read: u64,
    /// How much text the frame held, as far as its header tells.
    pub text: Option<FrameText>,
}

/// How much text a zstd frame holds, as its header tells (RFC 8878 §3.1.1.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "by", content = "bytes", rename_all = "lowercase")
)]
pub enum FrameText {
    /// Its header gives the size of its text (`Frame_Content_Size`).
    Header(u64),
    /// Its header gives its window only: pzstd, which announces the frames' sizes,
    /// puts at most four windows of text in a frame (four in every frame but the last,
    /// in today's pzstd), so it held at most this many bytes.
    Pzstd(u64),
}

/// The widths of a zstd frame header's fields after its descriptor (RFC 8878 §3.1.1.1).
#[cfg(feature = "compression")]
#[derive(Debug, Clone, Copy)]
pub(super) struct HeaderFields {
    /// The window descriptor's (none in a single segment).
    pub(super) window: usize,
    /// The dictionary ID's.
    pub(super) dictionary: usize,
    /// The content size's.
    pub(super) content: usize,
}

#[cfg(feature = "compression")]
impl HeaderFields {
    /// Read off the frame header's descriptor; `None` when its reserved bit is set.
    pub(super) fn of(descriptor: u8) -> Option<HeaderFields> {
        if descriptor & 0x08 != 0 {
            return None;
        }
        let single_segment = descriptor & 0x20 != 0;
        Some(HeaderFields {
            window: usize::from(!single_segment),
            dictionary: [0, 1, 2, 4][usize::from(descriptor & 3)],
            content: match descriptor >> 6 {
                0 => usize::from(single_segment),
                1 => 2,
                2 => 4,
                _ => 8,
            },
        })
    }

    /// The header's length, its magic number and descriptor counted.
    pub(super) fn len(self) -> usize {
        5 + self.window + self.dictionary + self.content
    }
}

impl FrameText {
    /// Reads it off the first bytes of a zstd frame (its magic number first): the
    /// content size when the header gives it, else four windows; `None` when the bytes
    /// are too few or the header is not one.
    #[cfg(feature = "compression")]
    pub(crate) fn of_header(b: &[u8]) -> Option<FrameText> {
        let [0x28, 0xb5, 0x2f, 0xfd, descriptor, ..] = *b else {
            return None;
        };
        let fields = HeaderFields::of(descriptor)?;
        let content = fields.content;
        let field = b.get(fields.len() - content..fields.len())?;
        if content > 0 {
            let mut bytes = [0u8; 8];
            bytes[..content].copy_from_slice(field);
            let size = u64::from_le_bytes(bytes);
            // Two bytes count from 256.
            return Some(FrameText::Header(if content == 2 {
                size + 256
            } else {
                size
            }));
        }
        let w = *b.get(5)?;
        let log = 10 + u32::from(w >> 3);
        // A window beyond what a decoder takes by default (2^27) is no pzstd's (it
        // writes at most 2^23): a damaged header.
        if log > 27 {
            return None;
        }
        let base = 1u64 << log;
        Some(FrameText::Pzstd(
            4 * (base + (base >> 3) * u64::from(w & 7)),
        ))
    }

    /// The bytes of text it gives.
    pub fn bytes(self) -> u64 {
        match self {
            FrameText::Header(n) | FrameText::Pzstd(n) => n,
        }
    }
}

impl DamagedFrame {
    /// The damaged frame that `e` reports, if it reports one.
    pub fn of(e: &io::Error) -> Option<&DamagedFrame> {
        e.get_ref()?.downcast_ref::<DamagedFrame>()
    }

    /// The bytes of text lost after the damage, as far as the header tells: exact when it
    /// gives the content size, else the most a frame of pzstd's can have held beyond what
    /// was read (what was lost, unless the frame was the stream's last, which holds
    /// less); `None` when the header tells nothing, or less than was read (the header
    /// itself damaged).
    pub fn text_lost(&self) -> Option<u64> {
        self.text?.bytes().checked_sub(self.read)
    }

    /// What became of its text: the rest lost (`(… bytes …)`, `up to` the count for a
    /// frame of pzstd's), or all of it read, the damage found at its end.
    fn text_words(&self) -> String {
        match (self.text, self.text_lost()) {
            (Some(text), Some(0)) => format!(
                "all its text was read before the damage was found ({} bytes, {}), and may be altered",
                text.bytes(),
                match text {
                    FrameText::Header(_) => "as its header says",
                    FrameText::Pzstd(_) => "the most a frame of pzstd's holds",
                }
            ),
            (Some(FrameText::Header(n)), Some(lost)) => {
                format!(
                    "the rest of its text is lost ({lost} of its {n} bytes, as its header says)"
                )
            }
            (Some(FrameText::Pzstd(n)), Some(lost)) => format!(
                "the rest of its text is lost (up to {lost} bytes: pzstd writes at most {n} bytes of text in a frame)"
            ),
            _ => "the rest of its text is lost".to_owned(),
        }
    }
}

impl fmt::Display for DamagedFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the zstd frame at byte {} ({} bytes) cannot be decoded ({}): {}",
            self.offset,
            self.len,
            self.reason,
            self.text_words()
        )
    }
}

impl std::error::Error for DamagedFrame {}

/// Where a decoder leaves word of the bytes that trail its stream; read it once the
/// reader has reached its end.
#[derive(Debug, Clone, Default)]
pub struct TrailingNote(Arc<OnceLock<Trailing>>);

impl TrailingNote {
    /// The trailing bytes, once the reader has met them.
    pub fn get(&self) -> Option<&Trailing> {
        self.0.get()
    }

    /// Notes the trailing bytes (the first note stays).
    #[cfg(feature = "compression")]
    pub(super) fn set(&self, t: Trailing) {
        let _ = self.0.set(t);
    }
}

/// A stream opened for reading: its decoded text, and what is known of it.
pub struct Decoded<'a> {
    /// The decoded bytes.
    pub reader: Box<dyn BufRead + Send + 'a>,
    /// The compression found.
    pub compression: Compression,
    /// The stream's size in bytes, when known (a file's).
    pub size: Option<u64>,
    /// The bytes after the last complete frame, once the reader has reached them.
    pub trailing: TrailingNote,
    /// How far into the compressed stream the text handed out so far reaches, when the
    /// reader decodes far ahead of it (the parallel decoder): a progress line's share
    /// of the file. `None`: the bytes read from the stream tell it.
    pub reached: Option<Arc<std::sync::atomic::AtomicU64>>,
}

impl fmt::Debug for Decoded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Decoded")
            .field("compression", &self.compression)
            .field("size", &self.size)
            .field("trailing", &self.trailing)
            .field("reached", &self.reached)
            .finish_non_exhaustive()
    }
}

/// A buffered reader that can look several bytes ahead (a frame's magic number) and
/// counts the bytes consumed (the offset of what trails the last frame).
///
/// Once told where a frame starts ([`Peek::align_here`]), it hands its decoder the
/// frame's bytes in pieces that end at every [`ALIGN`] bytes from there, however the
/// bytes came in: a decoder's output, and so what it decodes before meeting damage, is
/// then the same whether the frame is read from the file's start, from a part's or a
/// chunk's start (`--split`, the parallel decoder), or by any number of threads.
pub(super) struct Peek<R> {
    inner: R,
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    consumed: u64,
    /// Where the frame being read starts (bytes consumed then), once aligned.
    origin: Option<u64>,
}

/// The size of the pieces a frame's bytes are handed to its decoder in.
const ALIGN: u64 = 4 << 10;

impl<R: Read> Peek<R> {
    pub(super) fn new(inner: R) -> Peek<R> {
        Peek {
            inner,
            buf: vec![0; 1 << 16].into_boxed_slice(),
            pos: 0,
            len: 0,
            consumed: 0,
            origin: None,
        }
    }

    /// A frame starts here: from now on its bytes are handed out in pieces that end at
    /// every [`ALIGN`] bytes from here.
    #[cfg(feature = "compression")]
    pub(super) fn align_here(&mut self) {
        self.origin = Some(self.consumed);
    }

    /// The bytes consumed so far.
    #[cfg(feature = "compression")]
    pub(super) fn consumed(&self) -> u64 {
        self.consumed
    }

    /// Consumes the next `n` bytes: `false` when the stream ends first.
    #[cfg(feature = "compression")]
    pub(super) fn skip(&mut self, mut n: u64) -> io::Result<bool> {
        while n > 0 {
            let have = self.fill_buf()?.len() as u64;
            if have == 0 {
                return Ok(false);
            }
            let k = have.min(n);
            self.consume(k as usize);
            n -= k;
        }
        Ok(true)
    }

    /// At least `n` bytes ahead, fewer only at the end of the stream.
    pub(super) fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.len - self.pos < n {
            self.buf.copy_within(self.pos..self.len, 0);
            self.len -= self.pos;
            self.pos = 0;
            while self.len < n {
                match self.inner.read(&mut self.buf[self.len..]) {
                    Ok(0) => break,
                    Ok(k) => self.len += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(&self.buf[self.pos..self.len])
    }

    /// Reads to the end of the stream: how many bytes were left, and whether all were 0.
    #[cfg(feature = "compression")]
    pub(super) fn drain(&mut self) -> io::Result<(u64, bool)> {
        let (mut len, mut zeros) = (0, true);
        loop {
            let chunk = self.fill_buf()?;
            if chunk.is_empty() {
                return Ok((len, zeros));
            }
            zeros &= chunk.iter().all(|&b| b == 0);
            let n = chunk.len();
            len += n as u64;
            self.consume(n);
        }
    }
}

impl<R: Read> Read for Peek<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let chunk = self.fill_buf()?;
        let n = chunk.len().min(out.len());
        out[..n].copy_from_slice(&chunk[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Peek<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Some(origin) = self.origin {
            // Up to the next piece's end, all of it unless the stream ends first.
            let piece = (ALIGN - (self.consumed - origin) % ALIGN) as usize;
            self.peek(piece)?;
            let n = piece.min(self.len - self.pos);
            return Ok(&self.buf[self.pos..self.pos + n]);
        }
        if self.pos == self.len {
            self.pos = 0;
            self.len = loop {
                match self.inner.read(&mut self.buf) {
                    Ok(k) => break k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
        }
        Ok(&self.buf[self.pos..self.len])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.len - self.pos);
        self.pos += n;
        self.consumed += n as u64;
    }
}
