//! The sequential decoder of a compressed stream: one decoder a frame, frame after frame
//! ([`Frames`]), and the step over a damaged zstd frame whose size pzstd announced or a
//! damaged bzip2 block.
//!
//! pzstd (Lichess's database files among its output) writes before each zstd frame a
//! skippable frame of four bytes that hold the frame's compressed size. A frame so
//! announced that does not decode, or whose bytes start no frame (its magic number
//! damaged), is stepped over: the text it gave before the damage was found has been read,
//! the rest of its text is lost, and reading goes on at the next frame, after one read
//! that fails with a [`DamagedFrame`] to say where the text breaks. A stream that ends
//! inside a frame so announced whose bytes start none is cut short: an error (not one
//! that ends right after an announcement: a skippable frame may end a stream).
//!
//! pzstd's announcement itself damaged is read as one, told by the frame's magic number
//! twelve bytes on (see `announcement`), the stream's first one too
//! ([`detect_in`](super::compressed::detect_in)). A file whose first bytes start no
//! frame, with pzstd's announcement after them (its first announcement and its frame's
//! first bytes damaged), is read from that frame on, the bytes before it a damaged
//! frame. Bytes that start no frame elsewhere in a zstd stream, after a frame that ended
//! (junk between frames), are stepped over the same way to the next announced frame;
//! with none after them they are trailing bytes. After a frame stepped over by its
//! announced size they stay trailing bytes: they may be the next frame's, past its
//! announcement, where a part's reader starts (see `after_step`).
//!
//! A BGZF block (a gzip member whose header gives its size, at most 64 KiB: pocketfen's
//! own gzip output, and `bgzip`'s) is decoded whole from its own bytes only, and its text
//! is handed out once its check (CRC-32 and size) has passed: one that does not decode
//! or fails its check is stepped over the same way, none of its text read (its trailer
//! tells how much it held).
//!
//! A bzip2 stream (one for a whole file as `bzip2` writes it, one for each 900 kB of
//! text as pbzip2 does) whose data does not decode loses the block its decoder failed
//! in: reading goes on at the next block, each decoded alone, up to the stream's end,
//! then at the next stream ([`Blocks`]). A stream that failed in its first block, with
//! no other block's magic found after it, is stepped over whole.
//!
//! Any other frame that does not decode (a gzip member of plain gzip, a zstd frame
//! without its size announced, or a frame or bzip2 stream cut short by the end of the
//! stream) stays an error that ends the text.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::{Arc, OnceLock};

use super::blocks::{After, Blocks, Decoder};
use super::compressed::{
    BZIP2_BLOCK, BZIP2_END, Compression, DamagedFrame, Decoded, FrameText, Len, Peek,
    SKIPPABLE_LOOK, Trailing, TrailingNote, announcement, announcement_in, bgzf_len,
    is_bzip2_header, starts_frame,
};

/// The decoder of the frame being read, or where the reader stands between frames.
enum Stage<R: Read> {
    Zstd(zstd::stream::read::Decoder<'static, Peek<R>>),
    Gzip(Box<flate2::bufread::GzDecoder<Peek<R>>>),
    /// A BGZF block: its text is decoded whole into `held_text` first.
    Bgzf(Box<flate2::bufread::GzDecoder<Peek<R>>>),
    Bzip2(Decoder<Peek<R>>),
    /// The blocks of a bzip2 stream after a damaged one.
    Blocks(Box<Blocks<R>>),
    /// Between frames, after one that pzstd announced was stepped over: its error is
    /// read first, then the next frame is started.
    Between(Peek<R>),
    Done,
}

/// Decodes every frame of a compressed stream, one decoder per frame, steps over the
/// damaged frames it can (each an error of one read, then the text after it), and stops
/// at bytes that start no frame (noting them).
pub(super) struct Frames<R: Read> {
    kind: Compression,
    stage: Stage<R>,
    trailing: TrailingNote,
    /// The stream's offset in its file, for the trailing bytes' and damaged frames'
    /// offsets.
    base: u64,
    /// Text bytes decoded so far.
    out: u64,
    /// Told the text bytes decoded before the first frame that starts at or after this
    /// offset of the stream (where the next part of a split archive begins).
    mark: Option<(u64, Arc<OnceLock<u64>>)>,
    /// The size pzstd announced for the next frame (its skippable frame just read).
    announced: Option<u64>,
    /// Where the frame being decoded ends in the stream, when it can be stepped over (a
    /// zstd frame whose size was announced, a BGZF block), and how much text its header
    /// (a BGZF block's trailer) says it holds.
    frame: Option<(u64, Option<FrameText>)>,
    /// Text bytes the frame being decoded has given.
    frame_out: u64,
    /// Where the frame being decoded starts in the stream.
    frame_start: u64,
    /// The last frame stepped over failed at the end of the bytes it was given (its
    /// decoder wanted more): read on, a frame's decoder would have read past its end.
    stepped_at_end: bool,
    /// The frame before was stepped over by the size pzstd announced for it (not ended
    /// by its decoder): bytes after it that start no frame may be the next frame's,
    /// the announced size too large, so they are not read on from (a reader of the next
    /// frame, starting at its announcement, could not tell).
    after_step: bool,
    /// The text of the BGZF block being read, decoded whole and checked, and how much of
    /// it has been handed out; `None` before it is decoded.
    held: Option<usize>,
    held_text: Vec<u8>,
    /// A zstd frame decoded past its announced end, up to the end of the stream.
    overran_at_end: bool,
    /// The error of the next read, found between frames: a frame that pzstd announced
    /// stepped over ([`DamagedFrame`]), or the stream cut short in it.
    pending: Option<io::Error>,
}

impl<R: Read> Frames<R> {
    /// Decodes the frames of `kind` from `src`, which starts at offset `base` of its file,
    /// noting in `trailing` the bytes that start no frame.
    pub(super) fn start(
        kind: Compression,
        src: Peek<R>,
        trailing: TrailingNote,
        base: u64,
    ) -> io::Result<Frames<R>> {
        let mut frames = Frames::new(kind, trailing, base, None);
        frames.next_frame(src)?;
        Ok(frames)
    }

    /// A decoder before its first frame; see [`decode_part`] for `mark`.
    fn new(
        kind: Compression,
        trailing: TrailingNote,
        base: u64,
        mark: Option<(u64, Arc<OnceLock<u64>>)>,
    ) -> Frames<R> {
        Frames {
            kind,
            stage: Stage::Done,
            trailing,
            base,
            out: 0,
            mark,
            announced: None,
            frame: None,
            frame_out: 0,
            frame_start: 0,
            stepped_at_end: false,
            after_step: false,
            held: None,
            held_text: Vec::new(),
            overran_at_end: false,
            pending: None,
        }
    }

    /// Starts the next frame, steps over one that pzstd announced whose bytes start none,
    /// notes trailing bytes, or ends at the end of the stream.
    fn next_frame(&mut self, mut src: Peek<R>) -> io::Result<()> {
        src.stop_recording();
        src.unlimit();
        let mut after_step = std::mem::take(&mut self.after_step);
        loop {
            if let Some((at, text)) = &self.mark
                && src.consumed() >= *at
            {
                let _ = text.set(self.out);
                self.mark = None;
            }
            let got = src.peek(16)?;
            if got.is_empty() {
                // (A skippable frame of four bytes may end a stream: RFC 8878 allows it.)
                self.announced = None;
                self.stage = Stage::Done;
                return Ok(());
            }
            let mut bytes = [0u8; 16];
            bytes[..got.len().min(16)].copy_from_slice(&got[..got.len().min(16)]);
            let head = &bytes[..got.len().min(16)];
            let next = Compression::detect(head);
            // A bzip2 stream whose header (`BZh` and the level's digit) is damaged, told by
            // the magic number of its first block (or its end) right after it, on a byte
            // as bzip2 and pbzip2 write it: read with the largest level's header, which
            // takes any block (nothing is lost: nothing is told).
            if (self.kind == Compression::Bzip2 || next == Compression::Bzip2)
                && !is_bzip2_header(head)
                && head.len() >= 10
                && matches!(
                    u64::from_be_bytes([
                        0, 0, head[4], head[5], head[6], head[7], head[8], head[9]
                    ]),
                    BZIP2_BLOCK | BZIP2_END
                )
            {
                src.consume(4);
                src.unread(b"BZh9");
                continue;
            }
            // Bytes of a zstd stream that start neither a frame nor a skippable one.
            let damaged = self.kind == Compression::Zstd && !starts_frame(head);
            // pzstd announced a frame here, but its bytes start none (its magic number is
            // damaged, perhaps into another compression's): it is stepped over by its
            // announced size, as a frame that does not decode is, and the bytes after it
            // are read as any others.
            // (A frame is at least 9 bytes; the parallel scanner keeps an announcement
            // and its frame together, so a chunk holds all of such a frame, as the whole
            // stream does. After an announcement left over from a stream cut short, and
            // joined with `cat` to another, the other's first bytes are taken for it.)
            if damaged && let Some(len @ 9..) = self.announced {
                self.announced = None;
                return self.step_over_unstarted(src, len);
            }
            // pzstd's announcement, a skippable frame of four bytes: the next frame's
            // size. One whose magic number is damaged is told by its size field and the
            // zstd frame after it, and read as one (it holds no text: nothing is lost;
            // the parallel scanner reads on from such bytes sequentially, and a part
            // starts at the frame after them).
            if let Some(size) = announcement(head, damaged, |end| {
                Ok(starts_frame(
                    src.peek(end + 4)?.get(end..).unwrap_or_default(),
                ))
            })? {
                self.kind = Compression::Zstd;
                self.announced = size;
                src.consume(12);
                // What follows an announcement is read as after any frame (the parallel
                // scanner's sequential rest may start at it).
                after_step = false;
                continue;
            }
            // Archives of different formats joined with `cat` are read whole: a frame of
            // another compression starts its own decoder; bytes that start none are
            // trailing.
            if next != Compression::None {
                self.kind = next;
            }
            if next != self.kind {
                let offset = self.base + src.consumed();
                // Bytes of a zstd stream that start no frame (at the file's start, or
                // junk after a frame that ended) are read on to the next frame pzstd
                // announced: those after it are not lost. A part's reader starts at an
                // announced frame, and the parallel decoder reads the frame before
                // such bytes again with them, so each meets them where a whole read
                // does. After a frame stepped over by its announced size they may be
                // the next frame's bytes past its announcement (the size damaged, or
                // bytes cut out): the text ends there, as a part's reader, starting
                // at that announcement, reads on.
                if self.kind == Compression::Zstd && !after_step {
                    return self.read_on_to_announced(src);
                }
                let (len, zeros) = src.drain()?;
                self.end_in_trailing(offset, len, zeros);
                return Ok(());
            }
            break;
        }
        let announced = self.announced.take();
        let start = src.consumed();
        // A header is at most 18 bytes (and no more than the frame's).
        self.frame = match (src.peek(18)?, announced) {
            (head @ [0x28, 0xb5, 0x2f, 0xfd, ..], Some(len)) => {
                let head = &head[..head.len().min(18).min(to_usize(len))];
                Some((start + len, FrameText::of_header(head)))
            }
            ([0x1f, 0x8b, ..], _) => bgzf_block(&mut src)?.map(|(len, text)| (start + len, text)),
            _ => None,
        };
        self.frame_out = 0;
        self.frame_start = start;
        self.held = None;
        src.align_here();
        match (self.kind, self.frame) {
            (Compression::Bzip2, _) => src.record_here(),
            // A BGZF block's decoder reads its block's bytes only: damage cannot lead it
            // on into the next block, and it meets the same bytes in a chunk as in the
            // whole stream.
            (Compression::Gzip, Some((end, _))) => src.limit_to(end),
            // A zstd frame's decoder is given the bytes after its frame too (a frame
            // longer than pzstd announced still decodes), and those it reads past the
            // frame's end are kept, to be read again if the frame does not decode.
            (Compression::Zstd, Some((end, _))) => src.record_past(end),
            _ => {}
        }
        self.stage = match self.kind {
            Compression::Zstd => {
                Stage::Zstd(zstd::stream::read::Decoder::with_buffer(src)?.single_frame())
            }
            Compression::Gzip if self.frame.is_some() => {
                Stage::Bgzf(Box::new(flate2::bufread::GzDecoder::new(src)))
            }
            Compression::Gzip => Stage::Gzip(Box::new(flate2::bufread::GzDecoder::new(src))),
            Compression::Bzip2 => Stage::Bzip2(Decoder::new(src)),
            Compression::None => Stage::Done,
        };
        Ok(())
    }

    /// Ends the stream at `len` bytes from `offset` that start no frame, noted as
    /// trailing (`zeros`: all of them 0).
    fn end_in_trailing(&mut self, offset: u64, len: u64, zeros: bool) {
        self.trailing.set(Trailing {
            compression: self.kind,
            offset,
            len,
            zeros,
        });
        self.stage = Stage::Done;
    }

    /// Reads on from bytes of a zstd stream that start no frame (pzstd's output whose
    /// first announcement and its frame's first bytes are damaged, or junk), to the
    /// next frame that pzstd announced: the bytes before it are stepped over as a
    /// damaged frame (its error is the next read's). With no announced frame after
    /// them, they are trailing bytes, noted, and the stream ends.
    fn read_on_to_announced(&mut self, mut src: Peek<R>) -> io::Result<()> {
        let start = src.consumed();
        let (mut len, mut zeros, mut found) = (0u64, true, false);
        loop {
            let window = src.peek(1 << 16)?;
            if window.is_empty() {
                break;
            }
            // The stream's first byte here is none (it starts no frame); a later
            // window's first bytes are the last 15 of the one before, looked at again.
            let skip = usize::from(len == 0).min(window.len());
            let at = announcement_in(&window[skip..]).map(|j| j + skip);
            // An announcement may start in the last 15 bytes: they are looked at again.
            let take = match at {
                Some(j) => j,
                None if window.len() < 16 => window.len(),
                None => window.len() - 15,
            };
            zeros &= window[..take].iter().all(|&b| b == 0);
            src.consume(take);
            len += take as u64;
            if at.is_some() {
                found = true;
                break;
            }
        }
        let offset = self.base + start;
        if !found {
            self.end_in_trailing(offset, len, zeros);
            return Ok(());
        }
        self.stage = Stage::Between(src);
        self.pending = Some(io::Error::new(
            io::ErrorKind::InvalidData,
            DamagedFrame {
                compression: Compression::Zstd,
                offset,
                len,
                stream: None,
                reason: format!(
                    "its bytes start no zstd frame, and no frame was announced there; a frame that pzstd announced follows them at byte {}",
                    offset + len
                ),
                read: 0,
                text: None,
            },
        ));
        Ok(())
    }

    /// Steps over the frame of `len` bytes that pzstd announced at the start of `src`,
    /// whose bytes start no frame: its error is the next read's, and the frame after it
    /// is started at the read after (one error a read, however many such frames follow).
    /// A stream that ends inside it is cut short: an error that ends the text.
    fn step_over_unstarted(&mut self, mut src: Peek<R>, len: u64) -> io::Result<()> {
        let start = src.consumed();
        // Its header after the magic number may still tell its text, as far as a header
        // of pzstd's tells it (its window: the descriptor of bytes that start no frame
        // may be anything, and a content size read off it means nothing).
        let got = src.peek(18)?;
        let n = got.len().min(18).min(to_usize(len));
        let mut header = [0u8; 18];
        header[..n].copy_from_slice(&got[..n]);
        header[..4].copy_from_slice(&[0x28, 0xb5, 0x2f, 0xfd]);
        let text = FrameText::of_header(&header[..n]).filter(|t| matches!(t, FrameText::Pzstd(_)));
        let error = if src.skip(len)? {
            self.after_step = true;
            self.stage = Stage::Between(src);
            io::Error::new(
                io::ErrorKind::InvalidData,
                DamagedFrame {
                    compression: Compression::Zstd,
                    offset: self.base + start,
                    len,
                    stream: None,
                    reason: "its first bytes are not a zstd frame's magic number".to_owned(),
                    read: 0,
                    text,
                },
            )
        } else {
            let read = src.consumed() - start;
            self.stage = Stage::Done;
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!(
                    "the stream ends {read} bytes into the zstd frame at byte {} ({len} bytes, as pzstd announced it), whose first bytes are not a zstd frame's: it is cut short",
                    self.base + start
                ),
            )
        };
        self.pending = Some(error);
        Ok(())
    }

    /// Steps over the zstd frame or BGZF block being decoded, which failed with `e`,
    /// when its end is known and its decoder has not read past it: the error that says
    /// so, after which the next frame is read. `e` itself when it cannot be stepped over
    /// (the stream then ends).
    fn step_over(&mut self, e: io::Error) -> io::Error {
        let Some((end, text)) = self.frame else {
            return e;
        };
        // A decoder that read past its frame's end (a damaged block size made it want
        // more bytes than the frame has) gives those bytes back, when all were kept
        // (only such a decoder has recorded any).
        let (consumed, back) = match &self.stage {
            Stage::Zstd(d) => {
                let src = d.get_ref();
                (src.consumed(), src.recorded_past(end).map(<[u8]>::to_vec))
            }
            Stage::Bgzf(d) => (d.get_ref().consumed(), None),
            _ => return e,
        };
        if consumed > end && back.is_none() {
            return e;
        }
        let mut src = match std::mem::replace(&mut self.stage, Stage::Done) {
            Stage::Zstd(d) => d.finish(),
            Stage::Bgzf(d) => d.into_inner(),
            _ => return e,
        };
        if let Some(back) = back {
            src.stop_recording();
            src.unread(&back);
        }
        src.unlimit();
        // A frame cut short by the end of the stream is a truncated stream, not damage
        // with text after it.
        match src.skip(end - src.consumed()) {
            Ok(true) => {}
            Ok(false) => return e,
            Err(read) => return read,
        }
        // A BGZF block's decoder never reads past its block: a chunk's and the whole
        // stream's decoders of it fail alike.
        self.stepped_at_end =
            self.kind == Compression::Zstd && e.kind() == io::ErrorKind::UnexpectedEof;
        let damaged = self.damaged_frame(end, text, e.to_string());
        self.after_step = true;
        if let Err(read) = self.next_frame(src) {
            return read;
        }
        io::Error::new(io::ErrorKind::InvalidData, damaged)
    }

    /// Judges a zstd frame that decoded past the end pzstd announced for it. When a
    /// frame starts at its announced end, its damage (a block's size) led its decoder
    /// on into the frames after it: it is stepped over (the damaged frame returned),
    /// and the bytes it read past its end are read again. Else the decoder's end stands
    /// (the announcement was the damaged part).
    fn overran(&mut self, src: &mut Peek<R>) -> io::Result<Option<DamagedFrame>> {
        // (An announcement of fewer bytes than a frame has, 9, was never its frame's.)
        let frame = self.frame.filter(|(end, _)| *end >= self.frame_start + 9);
        let Some((end, text)) = frame.filter(|_| self.kind == Compression::Zstd) else {
            return Ok(None);
        };
        if src.consumed() < end {
            return self.ended_short(src, end, text);
        }
        let Some(back) = src.recorded_past(end).map(<[u8]>::to_vec) else {
            return Ok(None);
        };
        src.stop_recording();
        src.unread(&back);
        // A zstd frame or pzstd's announcement (a skippable frame) there?
        if !starts_frame(src.peek(4)?) {
            src.skip(back.len() as u64)?;
            // A chunk's decoder cannot tell whether the whole stream's would have read
            // on: its chunk is read again as a whole stream reads it.
            self.overran_at_end |= src.peek(1)?.is_empty();
            return Ok(None);
        }
        let reason = "its decoder read on past the end pzstd announced for it";
        Ok(Some(self.damaged_frame(end, text, reason.to_owned())))
    }

    /// Judges a zstd frame that decoded whole before the end pzstd announced for it
    /// (`end`; its damage made a block look like its last). When a frame starts at its
    /// announced end, at most 64 KiB on (what can be looked at), and none where its
    /// decoder ended, it is stepped over to its announced end; else the decoder's end
    /// stands (the bytes after it are read as
    /// any others). A frame whose announced end is the end of a chunk's bytes is not
    /// judged there: its chunk, whose bytes then start no frame, is read again as the
    /// whole stream reads it.
    fn ended_short(
        &mut self,
        src: &mut Peek<R>,
        end: u64,
        text: Option<FrameText>,
    ) -> io::Result<Option<DamagedFrame>> {
        let Some(short) = usize::try_from(end - src.consumed())
            .ok()
            .filter(|&n| n + 4 <= SKIPPABLE_LOOK)
        else {
            return Ok(None);
        };
        let ahead = src.peek(short + 4)?;
        if starts_frame(ahead) || !starts_frame(ahead.get(short..).unwrap_or_default()) {
            return Ok(None);
        }
        src.stop_recording();
        src.skip(short as u64)?;
        let reason =
            "its decoder ended before the end pzstd announced for it, where the next frame starts";
        Ok(Some(self.damaged_frame(end, text, reason.to_owned())))
    }

    /// The frame being decoded, which ends at `end`, as stepped over for `reason`.
    fn damaged_frame(&self, end: u64, text: Option<FrameText>, reason: String) -> DamagedFrame {
        DamagedFrame {
            compression: self.kind,
            offset: self.base + self.frame_start,
            len: end - self.frame_start,
            stream: None,
            reason,
            read: self.frame_out,
            text,
        }
    }

    /// Whether a zstd frame decoded past its announced end up to the end of the stream
    /// (see [`Frames::overran`]).
    pub(super) fn overran_at_end(&self) -> bool {
        self.overran_at_end
    }

    /// Steps over the block of the bzip2 stream being decoded whose data did not decode
    /// (`e`), and goes on at the next block or, when it was the stream's last, at the
    /// next stream ([`Blocks::step_over`]). The error that says so; `e` itself when the
    /// bytes the decoder read were not kept (the stream then ends).
    fn step_over_block(&mut self, e: io::Error) -> io::Error {
        let Stage::Bzip2(d) = std::mem::replace(&mut self.stage, Stage::Done) else {
            return e;
        };
        let stepped = Blocks::step_over(
            d.into_inner(),
            self.base,
            self.frame_start,
            e.to_string(),
            self.frame_out,
        );
        let (damaged, after) = match stepped {
            Ok(Some(stepped)) => stepped,
            Ok(None) => return e,
            Err(read) => return read,
        };
        self.stepped_at_end = false;
        match after {
            After::Blocks(blocks) => self.stage = Stage::Blocks(blocks),
            After::End(src) => {
                if let Err(read) = self.next_frame(src) {
                    return read;
                }
            }
        }
        io::Error::new(io::ErrorKind::InvalidData, damaged)
    }

    /// Whether the last frame stepped over failed only because its bytes ended: a
    /// decoder given a stream's bytes up to that frame's end cannot tell whether the
    /// stream's decoder, given what follows too, would have read past the frame's end
    /// (then it is not stepped over).
    pub(super) fn stepped_at_end(&self) -> bool {
        self.stepped_at_end
    }
}

impl<R: Read> Read for Frames<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(e) = self.pending.take() {
                self.stepped_at_end = false;
                return Err(e);
            }
            let n = match &mut self.stage {
                Stage::Done => return Ok(0),
                // The frame stepped over has ended: on to the next one.
                Stage::Between(_) => 0,
                Stage::Zstd(d) => match d.read(buf) {
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => return Err(e),
                    // An error reading the file is no damage in the frame.
                    Err(e) if d.get_mut().take_read_failure() => return Err(e),
                    Err(e) => return Err(self.step_over(e)),
                },
                Stage::Gzip(d) => d.read(buf)?,
                Stage::Bgzf(d) => {
                    let at = match self.held {
                        Some(at) => at,
                        None => {
                            let size = match self.frame {
                                Some((_, Some(text))) => text.bytes(),
                                _ => 0,
                            };
                            match whole_block(d, size, &mut self.held_text) {
                                Ok(()) => {}
                                // An error reading the file is no damage in the block:
                                // the text ends.
                                Err(e) if d.get_mut().take_read_failure() => {
                                    self.stage = Stage::Done;
                                    return Err(e);
                                }
                                Err(e) => return Err(self.step_over(e)),
                            }
                            0
                        }
                    };
                    let n = buf.len().min(self.held_text.len() - at);
                    buf[..n].copy_from_slice(&self.held_text[at..at + n]);
                    self.held = Some(at + n);
                    n
                }
                Stage::Bzip2(d) => match d.read(buf) {
                    Ok(n) => n,
                    // What the decoder says of the data (not an error reading the file).
                    Err(e)
                        if !d.get_mut().take_read_failure()
                            && e.get_ref().is_some_and(|r| r.is::<bzip2::Error>()) =>
                    {
                        return Err(self.step_over_block(e));
                    }
                    Err(e) => return Err(e),
                },
                Stage::Blocks(b) => b.read(buf)?,
            };
            if n > 0 {
                self.out += n as u64;
                self.frame_out += n as u64;
                return Ok(n);
            }
            // The frame has ended: its reader goes on to the next one.
            let mut src = match std::mem::replace(&mut self.stage, Stage::Done) {
                Stage::Zstd(d) => d.finish(),
                Stage::Gzip(d) | Stage::Bgzf(d) => d.into_inner(),
                Stage::Bzip2(d) => d.into_inner(),
                Stage::Blocks(b) => b.into_rest(),
                Stage::Between(src) => src,
                Stage::Done => return Ok(0),
            };
            let overran = self.overran(&mut src)?;
            self.next_frame(src)?;
            if let Some(damaged) = overran {
                return Err(io::Error::new(io::ErrorKind::InvalidData, damaged));
            }
        }
    }
}

/// Decodes a BGZF block's text whole into `text`: `size` bytes, as its trailer says, and
/// then the member's end, where its decoder checks the CRC-32 and the size.
fn whole_block<R: Read>(
    d: &mut flate2::bufread::GzDecoder<Peek<R>>,
    size: u64,
    text: &mut Vec<u8>,
) -> io::Result<()> {
    text.clear();
    text.resize(to_usize(size), 0);
    d.read_exact(text)?;
    let mut more = [0u8; 1];
    loop {
        match d.read(&mut more) {
            Ok(0) => return Ok(()),
            Ok(_) => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    "more text than its trailer says",
                ));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// The BGZF block at the start of `src`: its length and the text its trailer says it
/// holds (at most 64 KiB), when its header's `BC` field gives a length at which the next
/// gzip member or the end of the stream follows (where the parallel scanner cuts BGZF
/// blocks too): a damaged block is stepped over only to where the next one surely
/// starts.
fn bgzf_block<R: Read>(src: &mut Peek<R>) -> io::Result<Option<(u64, Option<FrameText>)>> {
    // Deflate, with an extra field.
    let &[_, _, 8, flags, _, _, _, _, _, _, x0, x1, ..] = src.peek(12)? else {
        return Ok(None);
    };
    if flags & 0x04 == 0 {
        return Ok(None);
    }
    let fixed = 12 + usize::from(u16::from_le_bytes([x0, x1]));
    let Len::Known(len) = bgzf_len(src.peek(fixed)?) else {
        return Ok(None);
    };
    let block = src.peek(len + 2)?;
    // Its header, an empty deflate stream (two bytes) and its trailer at least.
    if len < fixed + 10 || block.len() < len {
        return Ok(None);
    }
    if block
        .get(len..len + 2)
        .is_some_and(|next| next != [0x1f, 0x8b])
    {
        return Ok(None);
    }
    let trailer = [
        block[len - 4],
        block[len - 3],
        block[len - 2],
        block[len - 1],
    ];
    let size = u32::from_le_bytes(trailer);
    if size > 1 << 16 {
        return Ok(None);
    }
    Ok(Some((
        len as u64,
        Some(FrameText::Trailer(u64::from(size))),
    )))
}

/// `n`, or `usize::MAX` when it does not fit.
fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// Hands a decoder small output buffers: a decoder that meets a truncated or corrupt
/// stream returns the error in place of everything it decoded in that call, so small
/// calls lose at most the last few kilobytes before the damage.
pub(super) struct Small<R>(pub(super) R);

impl<R: Read> Read for Small<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(SMALL_READ);
        self.0.read(&mut buf[..n])
    }
}

pub(super) const SMALL_READ: usize = 8 << 10;

/// Decodes the frames of `kind` from `inner`, which starts at offset `base` of its file
/// (for the trailing bytes' offset), and sets `mark.1` to the text bytes decoded before
/// the first frame at or after offset `mark.0` of `inner` (never set when the stream
/// ends before such a frame): one part of a split archive.
pub(crate) fn decode_part<R: Read + Send + 'static>(
    inner: R,
    kind: Compression,
    base: u64,
    mark: Option<(u64, Arc<OnceLock<u64>>)>,
) -> io::Result<Decoded<'static>> {
    let trailing = TrailingNote::default();
    let mut frames = Frames::new(kind, trailing.clone(), base, mark);
    frames.next_frame(Peek::new(inner))?;
    Ok(Decoded {
        reader: Box::new(BufReader::with_capacity(1 << 16, Small(frames))),
        compression: kind,
        size: None,
        trailing,
        reached: None,
    })
}

#[cfg(test)]
mod bzip2_tests;
#[cfg(test)]
pub(super) mod tests;
