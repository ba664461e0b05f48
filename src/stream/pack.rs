//! Writing a compressed archive on several threads, in independent frames that any
//! decoder reads and that pocketfen reads back in parallel (and can split):
//!
//! - zstd: frames of [`ZSTD_INPUT`] bytes of text, each after a skippable frame holding
//!   its compressed size, as `pzstd` writes them (so `pzstd -d` decodes them in
//!   parallel too);
//! - gzip: BGZF, the blocked gzip of htslib: members of at most 64 KiB, each carrying its
//!   size in a `BC` extra field, and the empty end-of-file block; `gzip -d` reads it as
//!   the concatenated members it is;
//! - bzip2: one stream per bzip2 block of text (100 kB times the level), as `pbzip2`
//!   writes them.
//!
//! ```
//! use std::io::{Read, Write};
//! use pocketfen::stream::{Compression, CompressedWriter, decode};
//! let mut w = CompressedWriter::new(Vec::new(), Compression::Zstd, None, 2)?;
//! w.write_all(b"[Event \"a\"]\n\n1. e4 e5 *\n")?;
//! let bytes = w.finish()?;
//! assert_eq!(&bytes[..4], &[0x50, 0x2a, 0x4d, 0x18]); // pzstd's skippable frame first
//! let mut text = String::new();
//! decode(&bytes[..])?.reader.read_to_string(&mut text)?;
//! assert_eq!(text, "[Event \"a\"]\n\n1. e4 e5 *\n");
//! # Ok::<_, std::io::Error>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use super::compression::Compression;

/// Text per zstd frame.
pub const ZSTD_INPUT: usize = 4 << 20;
/// Text per BGZF block: what fits a 64 KiB member even if deflate cannot shrink it.
const BGZF_INPUT: usize = 0xff00;
/// Text per job of BGZF blocks.
const BGZF_JOB: usize = 64 * BGZF_INPUT;
/// The empty BGZF block that ends a BGZF file.
const BGZF_EOF: [u8; 28] = [
    0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0, 0x1b, 0, 3, 0, 0, 0, 0, 0, 0, 0,
    0, 0,
];

/// The compression levels each format takes, and its default.
impl Compression {
    /// The levels this compression takes (`None` for plain text).
    pub fn levels(self) -> Option<(i32, i32)> {
        match self {
            Compression::None => None,
            Compression::Zstd => Some((1, 22)),
            Compression::Gzip | Compression::Bzip2 => Some((1, 9)),
        }
    }

    /// The level used when none is given: zstd 3 and gzip 6, as their tools do; bzip2 9.
    pub fn default_level(self) -> i32 {
        match self {
            Compression::Zstd => 3,
            Compression::Gzip => 6,
            Compression::Bzip2 => 9,
            Compression::None => 0,
        }
    }
}

/// A level outside what its compression takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelError {
    /// The compression.
    pub compression: Compression,
    /// The level asked for.
    pub level: i32,
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.compression.levels() {
            Some((lo, hi)) => write!(
                f,
                "{} takes levels {lo} to {hi}, not {}",
                self.compression.name(),
                self.level
            ),
            None => write!(f, "plain text has no compression level"),
        }
    }
}

impl std::error::Error for LevelError {}

/// A job: its number in the output, the text to compress.
type Job = (usize, Vec<u8>);

/// A writer that compresses into independent frames on `jobs` threads and writes them in
/// order to the inner writer. Call [`finish`](CompressedWriter::finish) at the end: it
/// writes the last frame (and BGZF's end-of-file block) and returns the inner writer.
pub struct CompressedWriter<W: Write> {
    inner: Option<W>,
    compression: Compression,
    level: i32,
    /// Text not yet sent.
    text: Vec<u8>,
    /// Text per job.
    job_size: usize,
    next_job: usize,
    next_write: usize,
    /// Compressed jobs that came back before their turn.
    done: BTreeMap<usize, io::Result<Vec<u8>>>,
    /// The workers (none with one job: it is done here).
    pool: Option<Pool>,
}

struct Pool {
    jobs: Option<Sender<Job>>,
    results: Receiver<(usize, io::Result<Vec<u8>>)>,
    workers: Vec<JoinHandle<()>>,
    window: usize,
}

impl<W: Write> fmt::Debug for CompressedWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CompressedWriter")
            .field("compression", &self.compression)
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

impl<W: Write> CompressedWriter<W> {
    /// Compresses into `inner` with `compression` at `level` (its default when `None`),
    /// on `jobs` threads (1: on the caller's).
    ///
    /// # Errors
    ///
    /// A [`LevelError`] (as `InvalidInput`) for a level the compression does not take.
    pub fn new(
        inner: W,
        compression: Compression,
        level: Option<i32>,
        jobs: usize,
    ) -> io::Result<CompressedWriter<W>> {
        let level = level.unwrap_or(compression.default_level());
        match compression.levels() {
            Some((lo, hi)) if (lo..=hi).contains(&level) => {}
            _ => {
                let e = LevelError { compression, level };
                return Err(io::Error::new(io::ErrorKind::InvalidInput, e));
            }
        }
        let job_size = match compression {
            Compression::Zstd => ZSTD_INPUT,
            Compression::Gzip => BGZF_JOB,
            _ => level as usize * 100_000,
        };
        let pool = (jobs > 1).then(|| {
            let (job_tx, job_rx) = channel::<Job>();
            let (result_tx, results) = channel();
            let job_rx = Arc::new(Mutex::new(job_rx));
            let workers = (0..jobs)
                .map(|_| {
                    let (job_rx, result_tx) = (Arc::clone(&job_rx), result_tx.clone());
                    thread::spawn(move || {
                        loop {
                            let job = match job_rx.lock() {
                                Ok(rx) => rx.recv(),
                                Err(_) => return,
                            };
                            let Ok((n, text)) = job else { return };
                            let out = compress(compression, level, &text);
                            if result_tx.send((n, out)).is_err() {
                                return;
                            }
                        }
                    })
                })
                .collect();
            Pool {
                jobs: Some(job_tx),
                results,
                workers,
                window: 2 * jobs,
            }
        });
        Ok(CompressedWriter {
            inner: Some(inner),
            compression,
            level,
            text: Vec::with_capacity(job_size),
            job_size,
            next_job: 0,
            next_write: 0,
            done: BTreeMap::new(),
            pool,
        })
    }

    /// Sends the text gathered as a job (or compresses it here), writing what is ready.
    fn submit(&mut self) -> io::Result<()> {
        let text = std::mem::replace(&mut self.text, Vec::with_capacity(self.job_size));
        let n = self.next_job;
        self.next_job += 1;
        let Some(pool) = &self.pool else {
            let out = compress(self.compression, self.level, &text)?;
            self.next_write += 1;
            return self.inner_mut().write_all(&out);
        };
        let sent = pool.jobs.as_ref().map(|tx| tx.send((n, text)));
        if !matches!(sent, Some(Ok(()))) {
            return Err(io::Error::other("a compression thread stopped"));
        }
        // Back-pressure: at most a window of jobs outstanding.
        while self.next_job - self.next_write > pool_window(&self.pool) {
            self.wait_one()?;
        }
        self.write_ready()
    }

    /// Waits for one job to come back.
    fn wait_one(&mut self) -> io::Result<()> {
        let Some(pool) = &self.pool else {
            return Ok(());
        };
        match pool.results.recv() {
            Ok((n, out)) => {
                self.done.insert(n, out);
                self.write_ready()
            }
            Err(_) => Err(io::Error::other("a compression thread stopped")),
        }
    }

    /// Writes the jobs that are next in order.
    fn write_ready(&mut self) -> io::Result<()> {
        while let Some(out) = self.done.remove(&self.next_write) {
            let out = out?;
            self.next_write += 1;
            self.inner_mut().write_all(&out)?;
        }
        Ok(())
    }

    fn inner_mut(&mut self) -> &mut W {
        self.inner
            .as_mut()
            .expect("the writer is there until finish")
    }

    /// Compresses what is left, writes every frame (and BGZF's end-of-file block), and
    /// returns the inner writer, flushed.
    ///
    /// # Errors
    ///
    /// The inner writer's error, or a compression error.
    pub fn finish(mut self) -> io::Result<W> {
        if !self.text.is_empty() {
            self.submit()?;
        }
        while self.next_write < self.next_job {
            self.wait_one()?;
        }
        if self.compression == Compression::Gzip {
            self.inner_mut().write_all(&BGZF_EOF)?;
        }
        if let Some(pool) = &mut self.pool {
            pool.jobs = None;
            for w in pool.workers.drain(..) {
                let _ = w.join();
            }
        }
        let mut inner = self.inner.take().expect("the writer is there until finish");
        inner.flush()?;
        Ok(inner)
    }
}

fn pool_window(pool: &Option<Pool>) -> usize {
    pool.as_ref().map_or(1, |p| p.window)
}

impl<W: Write> Write for CompressedWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = self.job_size - self.text.len();
        let n = room.min(buf.len());
        self.text.extend_from_slice(&buf[..n]);
        if self.text.len() == self.job_size {
            self.submit()?;
        }
        Ok(n)
    }

    /// Writes the frames already compressed; text gathered for the next frame waits for
    /// it (a frame is only written whole).
    fn flush(&mut self) -> io::Result<()> {
        self.write_ready()?;
        self.inner_mut().flush()
    }
}

/// Compresses one job's text into its frames.
fn compress(compression: Compression, level: i32, text: &[u8]) -> io::Result<Vec<u8>> {
    match compression {
        Compression::Zstd => {
            let frame = zstd::bulk::compress(text, level)?;
            let mut out = Vec::with_capacity(frame.len() + 12);
            out.extend_from_slice(&[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0]);
            out.extend_from_slice(
                &u32::try_from(frame.len())
                    .map_err(io::Error::other)?
                    .to_le_bytes(),
            );
            out.extend_from_slice(&frame);
            Ok(out)
        }
        Compression::Gzip => {
            let mut out = Vec::with_capacity(text.len() / 3);
            for block in text.chunks(BGZF_INPUT) {
                bgzf_block(&mut out, block, level)?;
            }
            Ok(out)
        }
        Compression::Bzip2 => {
            let mut e = bzip2::write::BzEncoder::new(
                Vec::with_capacity(text.len() / 3),
                bzip2::Compression::new(level as u32),
            );
            e.write_all(text)?;
            e.finish()
        }
        Compression::None => Ok(text.to_vec()),
    }
}

/// Appends one BGZF block of `text` (at most [`BGZF_INPUT`] bytes).
fn bgzf_block(out: &mut Vec<u8>, text: &[u8], level: i32) -> io::Result<()> {
    let mut deflate = flate2::write::DeflateEncoder::new(
        Vec::with_capacity(text.len() / 2),
        flate2::Compression::new(level as u32),
    );
    deflate.write_all(text)?;
    let body = deflate.finish()?;
    // Header (18 bytes), body, CRC-32 and size (8 bytes): BSIZE is the total less one.
    let bsize = u16::try_from(18 + body.len() + 8 - 1)
        .map_err(|_| io::Error::other("a BGZF block grew past 64 KiB"))?;
    out.extend_from_slice(&[
        0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 0xff, 6, 0, b'B', b'C', 2, 0,
    ]);
    out.extend_from_slice(&bsize.to_le_bytes());
    out.extend_from_slice(&body);
    let mut crc = flate2::Crc::new();
    crc.update(text);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};

    use super::*;
    use crate::stream::decode_with;

    fn text(len: usize) -> Vec<u8> {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                b" \neNfx3d5[]\"QK+#"[(seed % 16) as usize]
            })
            .collect()
    }

    /// Issue 25.2: every compression, on one thread or several, written in odd pieces,
    /// reads back as the text; zstd in pzstd's layout (a skippable frame with the size
    /// before each frame of at most `ZSTD_INPUT`), gzip as BGZF (every member with its
    /// `BC` size, the end-of-file block last), bzip2 as streams of one block of text.
    #[test]
    fn compressed_output_reads_back_in_independent_frames() {
        let body = text(3 * ZSTD_INPUT + 12_345);
        for compression in [Compression::Zstd, Compression::Gzip, Compression::Bzip2] {
            for jobs in [1, 3] {
                let mut w = CompressedWriter::new(Vec::new(), compression, Some(1), jobs).unwrap();
                for piece in body.chunks(77_777) {
                    w.write_all(piece).unwrap();
                }
                let bytes = w.finish().unwrap();
                for read_jobs in [1, 2] {
                    let mut back = Vec::new();
                    decode_with(std::io::Cursor::new(bytes.clone()), read_jobs)
                        .unwrap()
                        .reader
                        .read_to_end(&mut back)
                        .unwrap();
                    assert!(
                        back == body,
                        "{compression:?}, {jobs} jobs, read with {read_jobs}"
                    );
                }
                let frames = count_frames(compression, &bytes);
                let want = match compression {
                    Compression::Zstd => body.len().div_ceil(ZSTD_INPUT),
                    Compression::Gzip => body.len().div_ceil(BGZF_INPUT) + 1,
                    _ => body.len().div_ceil(100_000),
                };
                assert_eq!(frames, want, "{compression:?}");
            }
        }
    }

    /// The frames of a stream written here, walked by their own sizes (bzip2: counted by
    /// their starts).
    fn count_frames(compression: Compression, bytes: &[u8]) -> usize {
        let u16_at = |i: usize| usize::from(u16::from_le_bytes([bytes[i], bytes[i + 1]]));
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().unwrap()) as usize;
        let (mut at, mut n) = (0, 0);
        match compression {
            Compression::Zstd => {
                while at < bytes.len() {
                    assert_eq!(&bytes[at..at + 8], &[0x50, 0x2a, 0x4d, 0x18, 4, 0, 0, 0]);
                    assert_eq!(u32_at(at + 12), 0xFD2F_B528);
                    at += 12 + u32_at(at + 8);
                    n += 1;
                }
            }
            Compression::Gzip => {
                while at < bytes.len() {
                    assert_eq!(&bytes[at..at + 4], &[0x1f, 0x8b, 8, 4]);
                    assert_eq!(&bytes[at + 12..at + 16], &[b'B', b'C', 2, 0]);
                    at += u16_at(at + 16) + 1;
                    n += 1;
                }
                assert!(bytes.ends_with(&BGZF_EOF));
            }
            _ => n = memchr::memmem::find_iter(bytes, b"BZh1").count(),
        }
        assert_eq!(
            at,
            if compression == Compression::Bzip2 {
                0
            } else {
                bytes.len()
            }
        );
        n
    }

    #[test]
    fn levels_are_checked_and_extensions_read() {
        for (c, bad) in [
            (Compression::Zstd, 23),
            (Compression::Gzip, 0),
            (Compression::Bzip2, 10),
        ] {
            let e = CompressedWriter::new(Vec::new(), c, Some(bad), 1).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            assert!(e.to_string().contains(&format!("not {bad}")), "{e}");
        }
        assert!(CompressedWriter::new(Vec::new(), Compression::None, None, 1).is_err());
        let names = ["a.pgn.zst", "A.PGN.GZ", "x.bz2", "x.pgn", "x.zstd", "x.tgz"];
        let got: Vec<Compression> = names.iter().map(|n| Compression::from_name(n)).collect();
        let (z, g, b, plain) = (
            Compression::Zstd,
            Compression::Gzip,
            Compression::Bzip2,
            Compression::None,
        );
        assert_eq!(got, [z, g, b, plain, z, plain]);
    }

    /// An empty output is a valid stream of each kind (BGZF: its end-of-file block).
    #[test]
    fn an_empty_output_reads_as_empty() {
        for c in [Compression::Zstd, Compression::Gzip, Compression::Bzip2] {
            let bytes = CompressedWriter::new(Vec::new(), c, None, 2)
                .unwrap()
                .finish()
                .unwrap();
            let mut back = Vec::new();
            crate::stream::compression::decode(&bytes[..])
                .unwrap()
                .reader
                .read_to_end(&mut back)
                .unwrap();
            assert!(back.is_empty(), "{c:?}");
        }
    }
}
