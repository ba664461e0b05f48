//! Where an archive's bytes come from: a path, standard input or any reader, opened
//! whole (decoded on the workers when its frames allow) or as one part of a file.

use std::fmt;
use std::io::{self, Read, Seek};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use super::compression::{Compression, Decoded, ErrorFirst, TextCheck, TrailingNote, refusal_of};
use super::part::{self, NextStart, PartInfo, PartReader, SeekRead};
use super::parts::{Part, PartState, Split};
use super::split::{GameSplitter, PartEnd, SplitOptions};

/// Where an archive comes from.
pub enum Source {
    /// A file (plain or compressed), named by its path.
    Path(PathBuf),
    /// Standard input, named `<stdin>`.
    Stdin,
    /// Any reader (bytes, a Python file object), under a name for records; the name's
    /// ending (`.bpgn`, `.zst`) counts as a file name's does.
    Reader {
        /// The name records give it.
        name: String,
        /// The bytes, plain or compressed.
        reader: Box<dyn Read + Send>,
    },
    /// A reader that can seek (an open file, a Python file object from object storage):
    /// as [`Source::Reader`], and a part of it can be read ([`RunOptions::split`](crate::run::RunOptions::split)).
    Seekable {
        /// The name records give it.
        name: String,
        /// The bytes, plain or compressed.
        reader: Box<dyn SeekRead>,
    },
}

impl Source {
    /// A path, or standard input for `-`.
    pub fn path(path: impl Into<PathBuf>) -> Source {
        let path = path.into();
        if path == Path::new("-") {
            Source::Stdin
        } else {
            Source::Path(path)
        }
    }

    /// A reader that can seek, under a name: a part of it can be read.
    pub fn seekable(name: impl Into<String>, reader: impl Read + Seek + Send + 'static) -> Source {
        Source::Seekable {
            name: name.into(),
            reader: Box::new(reader),
        }
    }

    /// A reader under a name.
    pub fn reader(name: impl Into<String>, reader: impl Read + Send + 'static) -> Source {
        Source::Reader {
            name: name.into(),
            reader: Box::new(reader),
        }
    }

    /// The name records give it: the path (read lossily when it is not UTF-8), `<stdin>`,
    /// or the reader's name.
    pub fn name(&self) -> String {
        match self {
            Source::Path(p) => p.to_string_lossy().into_owned(),
            Source::Stdin => "<stdin>".to_owned(),
            Source::Reader { name, .. } | Source::Seekable { name, .. } => name.clone(),
        }
    }

    /// Opens the source, decoding on `jobs` threads; a file counts its bytes read in
    /// `read` (a compressed file's progress).
    pub(crate) fn open(self, jobs: usize, read: &Arc<AtomicU64>) -> io::Result<Decoded<'static>> {
        match self {
            Source::Path(p) => {
                let file = std::fs::File::open(&p)?;
                let size = file.metadata().ok().map(|m| m.len());
                let counted = Counted {
                    inner: file,
                    read: Arc::clone(read),
                };
                let mut decoded = crate::stream::decode_with(counted, jobs)?;
                decoded.size = size;
                Ok(decoded)
            }
            Source::Stdin => crate::stream::open_with("-", jobs),
            Source::Reader { reader, .. } => crate::stream::decode_with(reader, jobs),
            Source::Seekable { reader, .. } => crate::stream::decode_with(reader, jobs),
        }
    }

    /// The source as a file parts of it can be read from, and its modification time
    /// (nanoseconds since 1970, for a path).
    pub(crate) fn into_file(self) -> io::Result<(part::SharedFile, Option<u64>)> {
        match self {
            Source::Path(p) => {
                let f = std::fs::File::open(&p)?;
                let modified = f
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map(|d| d.as_nanos() as u64);
                Ok((part::SharedFile::new(Box::new(f)), modified))
            }
            Source::Seekable { reader, .. } => Ok((part::SharedFile::new(reader), None)),
            Source::Stdin | Source::Reader { .. } => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "cannot read a part of {}: --split needs a file, which can be read from anywhere, not a stream",
                    self.name()
                ),
            )),
        }
    }

    /// Opens part `split` of the source, as [`Part`] says.
    pub(crate) fn open_part(self, split: Split, max_game_bytes: usize) -> io::Result<Part> {
        let (file, modified) = self.into_file()?;
        let plan = part::plan(&file, split.part, split.of)?;
        let from = file.reader_from(plan.begin);
        let trailing;
        let (reader, next): (Box<dyn io::BufRead + Send>, NextStart) = match plan.compression {
            Compression::None => {
                trailing = TrailingNote::default();
                let next = plan
                    .end
                    .map_or(NextStart::Last, |e| NextStart::Known(e - plan.begin));
                (Box::new(io::BufReader::with_capacity(1 << 16, from)), next)
            }
            #[cfg(feature = "compression")]
            kind => {
                let cell = Arc::new(std::sync::OnceLock::new());
                let mark = plan.end.map(|e| (e - plan.begin, Arc::clone(&cell)));
                let decoded = super::frames::decode_part(from, kind, plan.begin, mark)?;
                trailing = decoded.trailing;
                let next = plan
                    .end
                    .map_or(NextStart::Last, |e| NextStart::Told(cell, e));
                (decoded.reader, next)
            }
            #[cfg(not(feature = "compression"))]
            _ => unreachable!("the plan refuses compressed files without the feature"),
        };
        // A file that is not text is refused by every part as by a whole run. The first
        // part judges its own text as a whole run does, after the damaged frames it
        // steps over and tells; a later part judges the file's first bytes, and its first
        // read is the refusal.
        let reader: Box<dyn io::BufRead + Send> = if split.part == 1 {
            Box::new(TextCheck::gathered(reader))
        } else {
            match head_refusal(&file, plan.compression) {
                Some(e) => Box::new(ErrorFirst::new(e, io::empty())),
                None => reader,
            }
        };
        let end = Arc::new(PartEnd::new());
        let info = Arc::new(std::sync::Mutex::new(PartInfo::default()));
        let reader = PartReader::new(
            reader,
            split.part == 1,
            next,
            Arc::clone(&end),
            Arc::clone(&info),
        );
        let boxed: Box<dyn io::BufRead + Send> = Box::new(reader);
        let mut games = GameSplitter::with_options(
            boxed,
            SplitOptions {
                max_game_bytes,
                ..SplitOptions::default()
            },
        );
        games.end_at(Arc::clone(&end));
        Ok(Part {
            games,
            trailing,
            state: PartState {
                split,
                plan,
                modified,
                end,
                info,
            },
        })
    }
}

/// Why the file of a part after the first is not text ([`refusal_of`]), judged on the
/// file's first bytes, not the part's (a file whose decoding fails first is not refused
/// here: its first part meets that failure as it reads).
fn head_refusal(file: &part::SharedFile, kind: Compression) -> Option<io::Error> {
    let from = file.reader_from(0);
    match kind {
        Compression::None => refusal_of(io::BufReader::new(from)),
        #[cfg(feature = "compression")]
        kind => refusal_of(super::frames::decode_part(from, kind, 0, None).ok()?.reader),
        #[cfg(not(feature = "compression"))]
        _ => None,
    }
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Source({:?})", self.name())
    }
}

/// A reader that counts the bytes read from it.
struct Counted<R> {
    inner: R,
    read: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}
