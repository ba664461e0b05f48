//! What a compressed stream is made of: its [`Compression`], the bytes that trail its
//! last frame ([`Trailing`]), a frame stepped over as damaged ([`DamagedFrame`]), the
//! decoded stream handed out ([`Decoded`]), and the reader that looks ahead into the
//! compressed bytes and hands a frame's bytes to its decoder in aligned pieces (`Peek`).

use std::fmt;
use std::io::{self, BufRead, Read};
use std::sync::{Arc, OnceLock};

mod pzstd;
pub(super) use pzstd::{
    LOOK_FOR_PZSTD, control_bytes, detect_in, looks_binary, mostly_control, starts_as_damaged_pzstd,
};
#[cfg(feature = "compression")]
pub(super) use pzstd::{SKIPPABLE_LOOK, announcement, announcement_in, starts_frame};

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
    /// Reads the compression off the first bytes of a stream (four are enough, sixteen
    /// tell more): a zstd frame or skippable frame, or pzstd's announcement of a frame
    /// whose magic number is damaged, told by its size field (`04 00 00 00`, which no
    /// text holds) and the frame's magic number after it; a gzip member, a bzip2
    /// stream (its header damaged too, told by its first block's magic number), else
    /// plain text.
    pub fn detect(head: &[u8]) -> Compression {
        const ZSTD: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];
        match head {
            [0x28, 0xb5, 0x2f, 0xfd, ..] | [0x50..=0x5f, 0x2a, 0x4d, 0x18, ..] => Compression::Zstd,
            [_, _, _, _, 4, 0, 0, 0, _, _, _, _, rest @ ..] if rest.starts_with(&ZSTD) => {
                Compression::Zstd
            }
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', ..] => Compression::Bzip2,
            // A bzip2 stream whose header is damaged, told by its first block's magic
            // number right after it (π's digits, `1AY&SY`).
            [_, _, _, _, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59, ..] => Compression::Bzip2,
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

/// A frame that could not be decoded and was stepped over, its text after the damage
/// lost: a zstd frame whose size pzstd announced, or a bzip2 stream followed by another
/// (pbzip2's). It is the error of one read of a decoded stream
/// ([`decode`](super::decode), [`decode_with`](super::decode_with)), after which
/// reading goes on with the next frame's text.
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
#[non_exhaustive]
pub struct DamagedFrame {
    /// The frame's compression: [`Compression::Zstd`], [`Compression::Gzip`] (a BGZF
    /// block) or [`Compression::Bzip2`].
    pub compression: Compression,
    /// The frame's offset in the file (or stream), its announcing skippable frame not
    /// counted.
    pub offset: u64,
    /// Its compressed size: as announced (zstd), as its header's `BC` field says (a BGZF
    /// block), or up to the stream's end (bzip2: the byte after its end-of-stream mark,
    /// the next stream's start, or the end of the input).
    pub len: u64,
    /// When only a block of a bzip2 stream is stepped over: the stream's offset.
    /// `offset` and `len` are then the block's: the bytes that hold its bits, up to the
    /// next block's magic (or the stream's end, as above).
    pub stream: Option<u64>,
    /// What the decoder found (or, of a frame pzstd announced whose bytes start no
    /// frame, that they do not).
    pub reason: String,
    /// The bytes of text the frame gave before its damage was found (all handed out;
    /// a bzip2 block's own, which its decoder gives decoded alone too).
    pub read: u64,
    /// How much text the frame held, as far as its header (or a BGZF block's trailer)
    /// tells (a bzip2 stream's tells nothing).
    pub text: Option<FrameText>,
}

/// How much text a zstd frame holds, as its header tells (RFC 8878 §3.1.1.1), or a BGZF
/// block, as its trailer tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "by", content = "bytes", rename_all = "lowercase")
)]
#[non_exhaustive]
pub enum FrameText {
    /// Its header gives the size of its text (`Frame_Content_Size`).
    Header(u64),
    /// Its header gives its window only: pzstd, which announces the frames' sizes,
    /// puts at most four windows of text in a frame (four in every frame but the last,
    /// in today's pzstd), so it held at most this many bytes.
    Pzstd(u64),
    /// A gzip member's trailer gives the size of its text (`ISIZE`, RFC 1952 §2.3.1):
    /// a BGZF block's, whose size is known (at most 64 KiB).
    Trailer(u64),
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

/// How long the frame at the start of some bytes is.
#[cfg(feature = "compression")]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Len {
    /// This many bytes (perhaps more than are there yet).
    Known(usize),
    /// More bytes are needed to tell.
    Need,
    /// It cannot be told without decoding: decode the rest as one.
    Unknown,
}

/// The length of the BGZF block at the start of `b` (a gzip member), read off the `BC`
/// subfield of its header; a member without one is plain gzip.
#[cfg(feature = "compression")]
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
            FrameText::Header(n) | FrameText::Pzstd(n) | FrameText::Trailer(n) => n,
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
            // A BGZF block's text is handed out once its check has passed.
            (Some(FrameText::Trailer(n)), _) if self.read == 0 => {
                format!("its text is lost ({n} bytes, as its trailer says)")
            }
            (Some(text), Some(0)) => format!(
                "all its text was read before the damage was found ({} bytes, {}), and may be altered",
                text.bytes(),
                match text {
                    FrameText::Header(_) => "as its header says",
                    FrameText::Pzstd(_) => "the most a frame of pzstd's holds",
                    FrameText::Trailer(_) => "as its trailer says",
                }
            ),
            (Some(FrameText::Header(n)), Some(lost)) => {
                format!(
                    "the rest of its text is lost ({lost} of its {n} bytes, as its header says)"
                )
            }
            (Some(FrameText::Trailer(n)), Some(lost)) => {
                format!(
                    "the rest of its text is lost ({lost} of its {n} bytes, as its trailer says)"
                )
            }
            (Some(FrameText::Pzstd(n)), Some(lost)) => format!(
                "the rest of its text is lost (up to {lost} bytes: pzstd writes at most {n} bytes of text in a frame)"
            ),
            // A bzip2 block's text is handed out once its check has passed: text read is
            // a whole block's, checked (the decoder failed after it, in the next block's
            // magic number, damaged: what the break's bytes cover holds both).
            _ if self.stream.is_some() && self.read > 0 => format!(
                "{} bytes of its text were read, checked by their block's CRC, before the damage was found; the rest of it is lost (a bzip2 block does not tell its text's size)",
                self.read
            ),
            _ if self.stream.is_some() => {
                "its text is lost (a bzip2 block does not tell its size)".to_owned()
            }
            _ if self.compression == Compression::Bzip2 && self.read > 0 => format!(
                "the rest of its text is lost, after {} bytes read, checked by their blocks' CRCs (a bzip2 stream does not tell its text's size)",
                self.read
            ),
            _ if self.compression == Compression::Bzip2 => {
                "its text is lost (a bzip2 stream does not tell its size)".to_owned()
            }
            // Nothing read, and nothing told of its size (bytes that start no frame).
            _ if self.read == 0 && self.text.is_none() => {
                "its text, if it held any, is lost".to_owned()
            }
            _ => "the rest of its text is lost".to_owned(),
        }
    }
}

impl fmt::Display for DamagedFrame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, of) = match self.stream {
            Some(stream) => ("bzip2 block", format!(" of the stream at byte {stream}")),
            None => (self.compression.frame(), String::new()),
        };
        write!(
            f,
            "the {what} at byte {} ({} bytes){of} cannot be decoded ({}): {}",
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

/// The bytes that tell a bzip2 stream's start: `BZh`, its level, a magic number.
#[cfg(feature = "compression")]
pub(super) const BZIP2_START: usize = 10;

/// A bzip2 block's magic number (π's digits), 48 bits.
#[cfg(feature = "compression")]
pub(super) const BZIP2_BLOCK: u64 = 0x3141_5926_5359;
/// A bzip2 stream's end-of-stream magic number (√π's digits), 48 bits.
#[cfg(feature = "compression")]
pub(super) const BZIP2_END: u64 = 0x1772_4538_5090;

/// Whether `h` starts with a bzip2 stream's header: `BZh` and a block-size digit.
#[cfg(feature = "compression")]
pub(super) fn is_bzip2_header(h: &[u8]) -> bool {
    matches!(h, [b'B', b'Z', b'h', b'1'..=b'9', ..])
}

/// Where the next bzip2 stream starts in `b`, searching from `from` (a stream's start
/// is its header, then the first block's magic or the end-of-stream magic, all on a
/// byte).
#[cfg(feature = "compression")]
pub(super) fn next_bzip2_stream(b: &[u8], from: usize) -> Option<usize> {
    let (block, end) = (BZIP2_BLOCK.to_be_bytes(), BZIP2_END.to_be_bytes());
    let mut at = from;
    while let Some(i) = memchr::memmem::find(b.get(at..)?, b"BZh") {
        let start = at + i;
        if let Some(head) = b.get(start..start + BZIP2_START)
            && is_bzip2_header(head)
            && (head[4..] == block[2..] || head[4..] == end[2..])
        {
            return Some(start);
        }
        at = start + 1;
    }
    None
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
    /// The last bytes consumed since [`Peek::record_here`], while `recording`: a bzip2
    /// stream's, searched for the block its decoder failed in when it does not decode.
    record: Vec<u8>,
    /// Bytes consumed before the first one of `record`.
    record_at: u64,
    /// Off until [`Peek::record_here`] (or until `record_past`'s point is passed), and
    /// after [`Peek::take_recorded`].
    recording: bool,
    /// Recording starts once this many bytes are consumed ([`Peek::record_past`]).
    record_past: Option<u64>,
    /// A read of `inner` failed since [`Peek::take_read_failure`] was last asked.
    read_failed: bool,
    /// No byte at or past this many bytes consumed is handed out ([`Peek::limit_to`]).
    limit: Option<u64>,
}

/// The size of the pieces a frame's bytes are handed to its decoder in.
const ALIGN: u64 = 4 << 10;

/// The buffer's size (larger for a while when bytes are handed back): a BGZF block (at
/// most 64 KiB) and the first bytes after it fit.
const BUF: usize = 1 << 17;

/// At most this many bytes are recorded, and at least half as many once that many were
/// consumed: a bzip2 block holds at most 900 kB of text, which compresses to less than
/// a megabyte (about 1.9 MB at the very worst).
const RECORD: usize = 4 << 20;

impl<R: Read> Peek<R> {
    pub(super) fn new(inner: R) -> Peek<R> {
        Peek {
            inner,
            buf: vec![0; BUF].into_boxed_slice(),
            pos: 0,
            len: 0,
            consumed: 0,
            origin: None,
            record: Vec::new(),
            record_at: 0,
            recording: false,
            record_past: None,
            read_failed: false,
            limit: None,
        }
    }

    /// Hands out no byte at or past `end` bytes consumed (the stream seems to end there)
    /// until [`Peek::unlimit`]: a BGZF block's decoder is given its block's bytes only,
    /// however the bytes after them come, and cannot read on past its end.
    #[cfg(feature = "compression")]
    pub(super) fn limit_to(&mut self, end: u64) {
        self.limit = Some(end);
    }

    /// Hands out every byte again.
    #[cfg(feature = "compression")]
    pub(super) fn unlimit(&mut self) {
        self.limit = None;
    }

    /// How many bytes may be handed out before the limit.
    #[inline]
    fn room(&self) -> usize {
        self.limit.map_or(usize::MAX, |end| {
            usize::try_from(end.saturating_sub(self.consumed)).unwrap_or(usize::MAX)
        })
    }

    /// Whether a read of the underlying reader failed since this was last asked: the
    /// error a decoder passed on was then the file's, not damage in its data.
    #[cfg(feature = "compression")]
    pub(super) fn take_read_failure(&mut self) -> bool {
        std::mem::take(&mut self.read_failed)
    }

    /// Records the last bytes consumed from here on ([`Peek::take_recorded`]): at most
    /// [`RECORD`], at least half as many once that many were consumed.
    #[cfg(feature = "compression")]
    pub(super) fn record_here(&mut self) {
        self.record.clear();
        self.record_at = self.consumed;
        self.recording = true;
    }

    /// Records the bytes consumed past the first `at`, from when they are: a zstd
    /// frame's decoder that reads past the end pzstd announced for its frame (a damaged
    /// block size makes it want more) has its frame stepped over all the same, and
    /// reading goes on with those bytes. A decoder that stops at its frame's end, as
    /// an undamaged one does, records nothing.
    #[cfg(feature = "compression")]
    pub(super) fn record_past(&mut self, at: u64) {
        self.record.clear();
        self.recording = false;
        self.record_past = Some(at);
    }

    /// The bytes consumed past `at` since [`Peek::record_past`]`(at)`, all of them
    /// (`None` when some were not kept, or none were recorded so).
    #[cfg(feature = "compression")]
    pub(super) fn recorded_past(&self, at: u64) -> Option<&[u8]> {
        (self.recording && self.record_at == at && at + self.record.len() as u64 == self.consumed)
            .then_some(&self.record[..])
    }

    /// Records nothing, keeping the room the record had for the next.
    #[cfg(feature = "compression")]
    pub(super) fn stop_recording(&mut self) {
        self.record.clear();
        self.recording = false;
        self.record_past = None;
    }

    /// The bytes recorded and how many bytes were consumed before the first of them;
    /// `None` when not recording. Records no more.
    #[cfg(feature = "compression")]
    pub(super) fn take_recorded(&mut self) -> Option<(Vec<u8>, u64)> {
        let recording = std::mem::take(&mut self.recording);
        recording.then(|| (std::mem::take(&mut self.record), self.record_at))
    }

    /// Hands out `back` again before the bytes not yet consumed, as if the last of the
    /// bytes consumed had not been.
    #[cfg(feature = "compression")]
    pub(super) fn unread(&mut self, back: &[u8]) {
        let ahead = &self.buf[self.pos..self.len];
        let mut buf = Vec::with_capacity(back.len() + ahead.len() + BUF);
        buf.extend_from_slice(back);
        buf.extend_from_slice(ahead);
        let len = buf.len();
        buf.resize(len + BUF, 0);
        self.consumed -= back.len() as u64;
        self.buf = buf.into_boxed_slice();
        (self.pos, self.len) = (0, len);
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

    /// The bytes ahead already read (none are waited for: a live stream's first line
    /// is not held back).
    pub(super) fn buffered(&self) -> &[u8] {
        &self.buf[self.pos..self.len]
    }

    /// At least `n` bytes ahead, fewer only at the end of the stream.
    pub(super) fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        if self.len - self.pos < n {
            let ahead = self.len - self.pos;
            if self.buf.len() > BUF && ahead + n <= BUF {
                // Bytes handed back made it larger: back to its own size.
                let mut buf = vec![0; BUF].into_boxed_slice();
                buf[..ahead].copy_from_slice(&self.buf[self.pos..self.len]);
                self.buf = buf;
            } else {
                self.buf.copy_within(self.pos..self.len, 0);
            }
            self.len = ahead;
            self.pos = 0;
            while self.len < n {
                match self.inner.read(&mut self.buf[self.len..]) {
                    Ok(0) => break,
                    Ok(k) => self.len += k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.read_failed = true;
                        return Err(e);
                    }
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
            // Not past the limit: the bytes after a BGZF block are not read for it.
            let piece = piece.min(self.room());
            self.peek(piece)?;
            let n = piece.min(self.len - self.pos);
            return Ok(&self.buf[self.pos..self.pos + n]);
        }
        if self.pos == self.len {
            if self.buf.len() > BUF {
                self.buf = vec![0; BUF].into_boxed_slice();
            }
            self.pos = 0;
            self.len = loop {
                match self.inner.read(&mut self.buf) {
                    Ok(k) => break k,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        self.read_failed = true;
                        return Err(e);
                    }
                }
            };
        }
        let n = (self.len - self.pos).min(self.room());
        Ok(&self.buf[self.pos..self.pos + n])
    }

    fn consume(&mut self, n: usize) {
        let n = n.min(self.len - self.pos);
        if let Some(at) = self.record_past
            && self.consumed + n as u64 > at
        {
            // The first bytes past `at`: recorded from there on.
            self.record_past = None;
            let before = usize::try_from(at.saturating_sub(self.consumed)).unwrap_or(n);
            self.pos += before;
            self.consumed += before as u64;
            self.record.clear();
            self.record_at = self.consumed;
            self.recording = true;
            return self.consume(n - before);
        }
        if self.recording {
            if self.record.len() + n > RECORD {
                // The oldest go, half the record at a time.
                let gone = (self.record.len() + n - RECORD / 2).min(self.record.len());
                self.record.drain(..gone);
                self.record_at += gone as u64;
            }
            self.record
                .extend_from_slice(&self.buf[self.pos..self.pos + n]);
        }
        self.pos += n;
        self.consumed += n as u64;
    }
}
