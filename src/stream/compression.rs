//! Opening archives: files or stdin, plain or compressed (zstd, gzip, bzip2), detected by
//! their magic bytes and decompressed as a stream, frame after frame.
//!
//! A compressed archive is a sequence of frames (zstd frames, gzip members, bzip2
//! streams): `pzstd` writes a skippable frame (magic `0x184D2A50`–`0x184D2A5F`, RFC 8878
//! §3.1.2) before each zstd frame, Lichess's database files among them; `pbzip2` and
//! `cat a.gz b.gz` write several streams. Every frame is read. After the last complete
//! frame, bytes that start no frame (a tape's zero padding, an uploader's junk) end the
//! data: everything before them is read, and they are reported once
//! ([`Decoded::trailing`]) rather than failing the run. A frame that starts but does not
//! decode is real damage: a zstd frame whose size pzstd announced, a BGZF block or a
//! bzip2 block is stepped over (one read fails with a [`DamagedFrame`], and reading goes
//! on at the next frame or block); any other stays an error that ends the text.
//!
//! ```
//! use std::io::Read;
//! use pocketfen::stream::{Compression, decode};
//! let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
//! std::io::Write::write_all(&mut gz, b"1. e4 e5 *\n")?;
//! let mut bytes = gz.finish()?;
//! bytes.extend_from_slice(&[0; 512]); // a tape's zero padding
//! let mut decoded = decode(&bytes[..])?;
//! let mut text = String::new();
//! decoded.reader.read_to_string(&mut text)?;
//! assert_eq!((text.as_str(), decoded.compression), ("1. e4 e5 *\n", Compression::Gzip));
//! let trailing = decoded.trailing.get().expect("the padding is reported");
//! assert_eq!((trailing.len, trailing.zeros), (512, true));
//! # Ok::<_, std::io::Error>(())
//! ```

use std::fs::File;
#[cfg(feature = "compression")]
use std::io::BufReader;
use std::io::{self, BufRead, Read};
use std::path::Path;

pub(super) use super::compressed::Peek;
pub use super::compressed::{
    Compression, DamagedFrame, Decoded, FrameText, Trailing, TrailingNote,
};
#[cfg(feature = "compression")]
use super::frames::{Frames, Small};

/// Refuses a stream whose first bytes say it is a compression or an archive pocketfen
/// does not read (xz, lz4, lzip, zip, 7z, rar), naming it and how to read it instead.
pub(crate) fn refuse_unsupported(head: &[u8]) -> io::Result<()> {
    let (what, unpack) = match head {
        [0xfd, b'7', b'z', b'X', b'Z', 0, ..] => ("xz-compressed input", "xz -dc FILE"),
        [0x04, 0x22, 0x4d, 0x18, ..] | [0x02, 0x21, 0x4c, 0x18, ..] => {
            ("lz4-compressed input", "lz4 -dc FILE")
        }
        [b'L', b'Z', b'I', b'P', ..] => ("lzip-compressed input", "lzip -dc FILE"),
        [b'P', b'K', 3, 4, ..] | [b'P', b'K', 5, 6, ..] => ("a zip archive", "unzip -p FILE"),
        [b'7', b'z', 0xbc, 0xaf, 0x27, 0x1c, ..] => ("a 7z archive", "7z x -so FILE"),
        [b'R', b'a', b'r', b'!', 0x1a, 0x07, ..] => ("a rar archive", "unrar p -inul FILE"),
        _ => return Ok(()),
    };
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        format!(
            "{what} is not supported (pocketfen reads plain text, zstd, gzip and bzip2): read it through `{unpack} | pocketfen … -`"
        ),
    ))
}

/// Refuses a stream whose first decoded bytes are not text: UTF-16 (its byte-order
/// mark), or binary data (more than one byte in 16 of its first 4 KiB a control byte
/// that text does not hold). Of a compressed stream the first 4 KiB of text are
/// gathered, however its decoder hands them out (a zstd file's first frame may hold 22
/// bytes, and a parallel decoder hands out more at once), so that every way of reading
/// a file judges the same bytes; of plain text the first read is judged, so that a slow
/// pipe's first game is not held back. The refusal is the error of the first read.
pub(crate) struct TextCheck<R> {
    inner: R,
    /// How many first bytes to gather before judging (0: the first read's).
    gather: usize,
    /// The first bytes, gathered for the check and handed out from `at`.
    head: Vec<u8>,
    at: usize,
    checked: bool,
    /// An error met while gathering, after some bytes: given once they are read.
    pending: Option<io::Error>,
}

/// How many first bytes the text check looks at.
const TEXT_CHECK: usize = 4096;

impl<R> TextCheck<R> {
    /// Judges the first read of plain text.
    pub(crate) fn new(inner: R) -> TextCheck<R> {
        TextCheck::with_gather(inner, 0)
    }

    /// Judges the first 4 KiB of the text, gathered however `inner` hands them out: a
    /// decoder's text, or a file's first bytes read by a part of it.
    pub(crate) fn gathered(inner: R) -> TextCheck<R> {
        TextCheck::with_gather(inner, TEXT_CHECK)
    }

    fn with_gather(inner: R, gather: usize) -> TextCheck<R> {
        TextCheck {
            inner,
            gather,
            head: Vec::new(),
            at: 0,
            checked: false,
            pending: None,
        }
    }
}

impl<R: BufRead> TextCheck<R> {
    /// Gathers the first bytes and checks them.
    fn check(&mut self) -> io::Result<()> {
        self.checked = true;
        let want = self.gather.max(1);
        while self.head.len() < want {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if self.head.is_empty() => {
                    // A damaged frame stepped over before any text: its error, then the
                    // check of the text after it.
                    if DamagedFrame::of(&e).is_some() {
                        self.checked = false;
                    }
                    return Err(e);
                }
                Err(e) => {
                    self.pending = Some(e);
                    break;
                }
            };
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min(TEXT_CHECK.max(want) - self.head.len());
            self.head.extend_from_slice(&chunk[..n]);
            self.inner.consume(n);
        }
        match not_text(&self.head) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Why the first bytes of a decoded stream are not PGN text, if they are not.
fn not_text(head: &[u8]) -> Option<io::Error> {
    if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) {
        return Some(NotText::error(
            "UTF-16 text is not supported: convert it to UTF-8 first (`iconv -f UTF-16 -t UTF-8 FILE | pocketfen … -`)".to_owned(),
        ));
    }
    // Text may hold a stray control byte (a damaged archive's NUL); binary data is full
    // of them.
    let (control, looked) = super::compressed::control_bytes(head);
    super::compressed::mostly_control((control, looked)).then(|| {
        NotText::error(format!(
            "a binary file, not PGN text ({control} of its first {looked} bytes are control bytes)"
        ))
    })
}

/// The refusal of a stream that is not text ([`not_text`]), told from other errors.
#[derive(Debug)]
struct NotText(String);

impl NotText {
    fn error(message: String) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, NotText(message))
    }
}

impl std::fmt::Display for NotText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotText {}

/// A stream whose first read gives `error`, then reads `inner`: a refusal or an error
/// met while looking at a stream's first bytes, given where its first read would have
/// met it.
pub(crate) struct ErrorFirst<R> {
    error: Option<io::Error>,
    inner: R,
}

impl<R> ErrorFirst<R> {
    pub(crate) fn new(error: io::Error, inner: R) -> ErrorFirst<R> {
        ErrorFirst {
            error: Some(error),
            inner,
        }
    }
}

impl<R: BufRead> Read for ErrorFirst<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.inner.read(buf)
    }
}

impl<R: BufRead> BufRead for ErrorFirst<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
    }
}

/// Why a file's text is refused as not text, judged on the bytes a run over the whole
/// file judges: the first 4 KiB of plain text (a file's first read holds them), or of a
/// decoder's text (after the damaged frames it steps over). `None` when it is text, and
/// when the reading fails otherwise before the check (the first part meets that error
/// itself). A part of a file after the first judges the file so, and refuses it as the
/// whole run does; the first part reads its text through a [`TextCheck`] of its own.
pub(crate) fn refusal_of(reader: impl BufRead) -> Option<io::Error> {
    let mut check = TextCheck::gathered(reader);
    // Each damaged frame before any text is stepped over with an error of its own, as a
    // whole run steps over it; the frames end with the file.
    loop {
        match check.fill_buf() {
            Ok(_) => return None,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if DamagedFrame::of(&e).is_some() => {}
            Err(e) => {
                let refused = e.get_ref().is_some_and(|inner| inner.is::<NotText>());
                return refused.then_some(e);
            }
        }
    }
}

impl<R: BufRead> Read for TextCheck<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let chunk = self.fill_buf()?;
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for TextCheck<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if !self.checked {
            self.check()?;
        }
        if self.at < self.head.len() {
            return Ok(&self.head[self.at..]);
        }
        if let Some(e) = self.pending.take() {
            return Err(e);
        }
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if self.at < self.head.len() {
            self.at = (self.at + n).min(self.head.len());
            if self.at == self.head.len() {
                self.head = Vec::new();
                self.at = 0;
            }
        } else {
            self.inner.consume(n);
        }
    }
}

/// Wraps `inner` in the decoder its first bytes call for.
///
/// # Errors
///
/// I/O errors reading the first bytes, or a compressed stream when pocketfen is built
/// without its `compression` feature.
pub fn decode<'a, R: Read + Send + 'a>(inner: R) -> io::Result<Decoded<'a>> {
    let mut src = Peek::new(inner);
    refuse_unsupported(src.peek(8)?)?;
    let compression = super::compressed::detect_in(&mut src)?;
    let trailing = TrailingNote::default();
    let reader: Box<dyn BufRead + Send + 'a> = match compression {
        Compression::None => Box::new(src),
        #[cfg(feature = "compression")]
        kind => {
            let frames = Frames::start(kind, src, trailing.clone(), 0)?;
            Box::new(BufReader::with_capacity(1 << 16, Small(frames)))
        }
        #[cfg(not(feature = "compression"))]
        other => {
            return Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "{} input needs pocketfen built with its `compression` feature",
                    other.name()
                ),
            ));
        }
    };
    let reader = match compression {
        Compression::None => TextCheck::new(reader),
        _ => TextCheck::gathered(reader),
    };
    Ok(Decoded {
        reader: Box::new(reader),
        compression,
        size: None,
        trailing,
        reached: None,
    })
}

/// Opens `path` (`-` for stdin) for reading, decompressing as needed, with the file's
/// size when known. [`open_with`](super::open_with) decodes on several threads.
///
/// # Errors
///
/// The error of opening the file or of reading its first bytes.
pub fn open(path: impl AsRef<Path>) -> io::Result<Decoded<'static>> {
    let path = path.as_ref();
    if path == Path::new("-") {
        return decode(io::stdin());
    }
    let file = File::open(path)?;
    let size = file.metadata().ok().map(|m| m.len());
    let mut decoded = decode(file)?;
    decoded.size = size;
    Ok(decoded)
}

#[cfg(all(test, feature = "compression"))]
mod tests {
    use super::*;
    use std::io::Write;

    const PGN: &[u8] = b"[Event \"x\"]\n\n1. e4 e5 *\n";

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn bzip2(bytes: &[u8]) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// A skippable frame (magic `0x184D2A5n`, little-endian, then a 4-byte length).
    fn skippable(n: u8, content: &[u8]) -> Vec<u8> {
        let mut out = vec![0x50 | n, 0x2a, 0x4d, 0x18];
        out.extend_from_slice(&(content.len() as u32).to_le_bytes());
        out.extend_from_slice(content);
        out
    }

    /// The text, the compression and the trailing bytes of a stream read to its end.
    fn read_all(bytes: &[u8]) -> io::Result<(String, Compression, Option<Trailing>)> {
        let mut d = decode(bytes)?;
        let mut s = String::new();
        d.reader.read_to_string(&mut s)?;
        Ok((s, d.compression, d.trailing.get().copied()))
    }

    #[test]
    fn every_compression_round_trips() {
        let text = String::from_utf8(PGN.to_vec()).unwrap();
        for (bytes, c) in [
            (PGN.to_vec(), Compression::None),
            (gzip(PGN), Compression::Gzip),
            (bzip2(PGN), Compression::Bzip2),
            (zstd::encode_all(PGN, 3).unwrap(), Compression::Zstd),
        ] {
            assert_eq!(read_all(&bytes).unwrap(), (text.clone(), c, None));
        }
    }

    /// Issue 23.1: skippable frames before and between zstd frames (pzstd's layout) are
    /// skipped and every frame is read; `detect` knows the skippable magic.
    #[test]
    fn skippable_frames_and_every_frame_are_read() {
        let mut bytes = Vec::new();
        for (n, part) in [&b"[Event \"a\"]\n\n"[..], b"1. e4 ", b"e5 *\n"]
            .iter()
            .enumerate()
        {
            let frame = zstd::encode_all(*part, 3).unwrap();
            bytes.extend(skippable(n as u8, &(frame.len() as u32).to_le_bytes()));
            bytes.extend(frame);
        }
        assert_eq!(&bytes[..4], &[0x50, 0x2a, 0x4d, 0x18]);
        assert_eq!(Compression::detect(&bytes), Compression::Zstd);
        assert_eq!(
            Compression::detect(&[0x5f, 0x2a, 0x4d, 0x18]),
            Compression::Zstd
        );
        assert_eq!(
            Compression::detect(&[0x60, 0x2a, 0x4d, 0x18]),
            Compression::None
        );
        let (text, c, trailing) = read_all(&bytes).unwrap();
        assert_eq!(text, "[Event \"a\"]\n\n1. e4 e5 *\n");
        assert_eq!((c, trailing), (Compression::Zstd, None));
        // A skippable frame at the very end is no trailing junk.
        bytes.extend(skippable(3, b"metadata"));
        assert_eq!(read_all(&bytes).unwrap().2, None);
    }

    /// Issue 23.2: bytes after the last complete frame end the data, with a note of
    /// where they start and what they are; concatenated members are all read.
    #[test]
    fn trailing_bytes_are_noted_not_fatal() {
        let two_members = [gzip(b"1. e4 *\n"), gzip(b"1. d4 *\n")].concat();
        let cases: [(Vec<u8>, &[u8], Compression); 4] = [
            (two_members, &[0; 1000], Compression::Gzip),
            (gzip(PGN), b"garbage after the stream\n", Compression::Gzip),
            (
                zstd::encode_all(PGN, 3).unwrap(),
                b"\x00\x01junk",
                Compression::Zstd,
            ),
            (bzip2(PGN), b"BZ", Compression::Bzip2),
        ];
        for (stream, tail, c) in cases {
            let bytes = [&stream[..], tail].concat();
            let (text, got_c, trailing) = read_all(&bytes).unwrap();
            assert!(text.ends_with("*\n"), "{c:?}: {text:?}");
            assert_eq!(got_c, c);
            let t = trailing.expect("trailing bytes are noted");
            assert_eq!((t.offset, t.len), (stream.len() as u64, tail.len() as u64));
            assert_eq!(t.zeros, tail.iter().all(|&b| b == 0));
        }
        let t = Trailing {
            compression: Compression::Gzip,
            offset: 30,
            len: 512,
            zeros: true,
        };
        assert_eq!(
            t.to_string(),
            "512 trailing bytes after the last complete gzip member (from byte 30), zero padding: ignored"
        );
    }

    /// A second frame that starts but does not decode is damage, not trailing bytes.
    #[test]
    fn a_broken_second_frame_is_an_error() {
        let first = gzip(PGN);
        let second = gzip(&PGN.repeat(50));
        let bytes = [&first[..], &second[..second.len() / 2]].concat();
        assert!(read_all(&bytes).is_err());
        let first = zstd::encode_all(PGN, 3).unwrap();
        let bytes = [&first[..], &first[..first.len() - 3]].concat();
        assert!(read_all(&bytes).is_err());
    }

    /// Everything decoded before the damage reaches the reader, to the last few KB.
    #[test]
    fn truncated_streams_keep_what_came_before() {
        let body: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n").into_bytes())
            .collect();
        let gz = gzip(&body);
        let zst = zstd::encode_all(&body[..], 3).unwrap();
        // (bzip2 decodes whole blocks of up to 900 kB: half of this body gives nothing.)
        for stream in [&gz[..gz.len() / 2], &zst[..zst.len() / 2]] {
            let mut r = decode(stream).unwrap().reader;
            let mut got = Vec::new();
            let mut buf = [0u8; 1000];
            let err = loop {
                match r.read(&mut buf) {
                    Ok(0) => panic!("a truncated stream must end in an error"),
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                    Err(e) => break e,
                }
            };
            assert!(
                got.len() > body.len() / 4,
                "{} bytes before {err}",
                got.len()
            );
            assert!(body.starts_with(&got));
        }
    }

    #[test]
    fn truncated_streams_are_errors() {
        let zst = zstd::encode_all(&PGN.repeat(100)[..], 3).unwrap();
        let mut r = decode(&zst[..zst.len() / 2]).unwrap().reader;
        let mut s = String::new();
        assert!(r.read_to_string(&mut s).is_err());
    }

    /// The look-ahead works across reads that return a byte at a time.
    #[test]
    fn peeking_across_short_reads() {
        struct OneByte<'a>(&'a [u8]);
        impl Read for OneByte<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let Some((&b, rest)) = self.0.split_first() else {
                    return Ok(0);
                };
                buf[0] = b;
                self.0 = rest;
                Ok(1)
            }
        }
        let bytes = [
            zstd::encode_all(PGN, 3).unwrap(),
            zstd::encode_all(PGN, 3).unwrap(),
        ]
        .concat();
        let mut d = decode(OneByte(&bytes)).unwrap();
        let mut s = String::new();
        d.reader.read_to_string(&mut s).unwrap();
        assert_eq!(s.as_bytes(), [PGN, PGN].concat());
        assert!(d.trailing.get().is_none());
    }
}
