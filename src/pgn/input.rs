//! Opening archives: files or stdin, plain or compressed (zstd, gzip, bzip2), detected by
//! their magic bytes and decompressed as a stream.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

/// The compression of a stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// Zstandard (`.zst`, the Lichess database).
    Zstd,
    /// gzip.
    Gzip,
    /// bzip2.
    Bzip2,
}

impl Compression {
    /// Reads the compression off the first bytes of a stream.
    pub fn detect(head: &[u8]) -> Compression {
        match head {
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [b'B', b'Z', b'h', ..] => Compression::Bzip2,
            _ => Compression::None,
        }
    }

    /// `none`, `zstd`, `gzip` or `bzip2`.
    pub fn name(self) -> &'static str {
        match self {
            Compression::None => "none",
            Compression::Zstd => "zstd",
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
        }
    }
}

/// Hands a decoder small output buffers: a decoder that meets a truncated or corrupt
/// stream returns the error in place of everything it decoded in that call, so small
/// calls lose at most the last few kilobytes before the damage.
#[cfg(feature = "compression")]
struct Small<R>(R);

#[cfg(feature = "compression")]
impl<R: Read> Read for Small<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = buf.len().min(SMALL_READ);
        self.0.read(&mut buf[..n])
    }
}

#[cfg(feature = "compression")]
const SMALL_READ: usize = 8 << 10;

/// Wraps `inner` in the decoder its first bytes call for.
///
/// # Errors
///
/// I/O errors reading the first bytes or setting up the decoder.
pub fn decode<'a, R: Read + Send + 'a>(
    inner: R,
) -> io::Result<(Box<dyn BufRead + Send + 'a>, Compression)> {
    let mut buffered = BufReader::with_capacity(1 << 16, inner);
    let compression = Compression::detect(buffered.fill_buf()?);
    let reader: Box<dyn BufRead + Send + 'a> = match compression {
        Compression::None => Box::new(buffered),
        #[cfg(feature = "compression")]
        Compression::Zstd => Box::new(BufReader::with_capacity(
            1 << 16,
            Small(zstd::stream::read::Decoder::with_buffer(buffered)?),
        )),
        #[cfg(feature = "compression")]
        Compression::Gzip => Box::new(BufReader::with_capacity(
            1 << 16,
            Small(flate2::bufread::MultiGzDecoder::new(buffered)),
        )),
        #[cfg(feature = "compression")]
        Compression::Bzip2 => Box::new(BufReader::with_capacity(
            1 << 16,
            Small(bzip2::bufread::MultiBzDecoder::new(buffered)),
        )),
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
    Ok((reader, compression))
}

/// Opens `path` (`-` for stdin) for reading, decompressing as needed. Returns the reader,
/// its compression and the file size when known.
///
/// # Errors
///
/// The error of opening the file or of reading its first bytes.
pub fn open(
    path: impl AsRef<Path>,
) -> io::Result<(Box<dyn BufRead + Send>, Compression, Option<u64>)> {
    let path = path.as_ref();
    if path == Path::new("-") {
        let (r, c) = decode(io::stdin())?;
        return Ok((r, c, None));
    }
    let file = File::open(path)?;
    let size = file.metadata().ok().map(|m| m.len());
    let (r, c) = decode(file)?;
    Ok((r, c, size))
}

#[cfg(all(test, feature = "compression"))]
mod tests {
    use super::*;
    use std::io::Write;

    const PGN: &[u8] = b"[Event \"x\"]\n\n1. e4 e5 *\n";

    fn read_all(bytes: &[u8]) -> (String, Compression) {
        let (mut r, c) = decode(bytes).unwrap();
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        (s, c)
    }

    #[test]
    fn every_compression_round_trips() {
        let gz = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(PGN).unwrap();
            e.finish().unwrap()
        };
        let bz = {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            e.write_all(PGN).unwrap();
            e.finish().unwrap()
        };
        let zst = zstd::encode_all(PGN, 3).unwrap();
        for (bytes, c) in [
            (PGN, Compression::None),
            (&gz[..], Compression::Gzip),
            (&bz[..], Compression::Bzip2),
            (&zst[..], Compression::Zstd),
        ] {
            assert_eq!(
                read_all(bytes),
                (String::from_utf8(PGN.to_vec()).unwrap(), c)
            );
        }
    }

    /// Everything decoded before the damage reaches the reader, to the last few KB.
    #[test]
    fn truncated_streams_keep_what_came_before() {
        let body: Vec<u8> = (0..20_000)
            .flat_map(|i| format!("[Event \"{i}\"]\n\n1. e4 *\n\n").into_bytes())
            .collect();
        let gz = {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&body).unwrap();
            e.finish().unwrap()
        };
        let zst = zstd::encode_all(&body[..], 3).unwrap();
        for stream in [&gz[..gz.len() / 2], &zst[..zst.len() / 2]] {
            let (mut r, _) = decode(stream).unwrap();
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
        let (mut r, _) = decode(&zst[..zst.len() / 2]).unwrap();
        let mut s = String::new();
        assert!(r.read_to_string(&mut s).is_err());
    }
}
