//! Parts of an archive (`--split K/N`): which part, where each lies in its file, and
//! what a part's summary says of it.

use std::fmt;
use std::io;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::Source;
use crate::pgn::input::TrailingNote;
use crate::pgn::part::{self, PartInfo};
use crate::pgn::split::{GameSplitter, PartEnd};
use crate::record::{SplitPoint, SplitRecord};

/// One of N parts of an archive (`--split K/N`): the games whose first line lies in
/// the K-th of N equal byte ranges of the file (for a compressed file, in the frames
/// that start there), each game in exactly one part. Each part's records number its
/// games and lines from 1; [`crate::merge`] joins the parts' records into those of one
/// run over the whole file.
///
/// ```
/// use pocketfen::archive::Split;
/// let split: Split = "2/8".parse()?;
/// assert_eq!((split.part, split.of), (2, 8));
/// assert_eq!(split.to_string(), "2/8");
/// assert!("9/8".parse::<Split>().is_err());
/// # Ok::<_, String>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The part, from 1.
    pub part: usize,
    /// The number of parts.
    pub of: usize,
}

impl Split {
    /// Part `part` of `of`, when there is such a part.
    ///
    /// # Errors
    ///
    /// A part out of range: parts are numbered 1 to `of`.
    pub fn new(part: usize, of: usize) -> Result<Split, String> {
        if part == 0 || of == 0 || part > of {
            return Err(format!(
                "there is no part {part} of {of}: parts are numbered 1 to N (K/N, 1 <= K <= N)"
            ));
        }
        Ok(Split { part, of })
    }
}

impl std::str::FromStr for Split {
    type Err = String;

    fn from_str(s: &str) -> Result<Split, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("`{s}` is no part: write K/N, for example 1/4"))?;
        let number = |t: &str| {
            t.trim().parse::<usize>().map_err(|_| {
                format!("`{s}` is no part: `{t}` is not a number (K/N, for example 1/4)")
            })
        };
        Split::new(number(k)?, number(n)?)
    }
}

impl fmt::Display for Split {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.part, self.of)
    }
}

/// Where one of the N parts of a file lies ([`parts`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartRange {
    /// Which part.
    pub split: Split,
    /// The file's byte its text is read from (a frame's first for a compressed file).
    pub start: u64,
    /// The file's byte the next part's text is read from (the file's size for the last).
    pub end: u64,
}

/// Where each of the `n` parts of `source` (a path or a [`Source::Seekable`]) lies, for
/// scheduling them (the Python package's `splits`): it also tells at once whether the
/// file can be split.
///
/// # Errors
///
/// No parts (`n` is 0), a source that cannot seek, a compressed file that is one
/// stream (the message says how to recompress it), or the file's I/O error.
pub fn parts(source: Source, n: usize) -> io::Result<Vec<PartRange>> {
    let (file, _) = source.into_file()?;
    (1..=n.max(1))
        .map(|k| {
            let split =
                Split::new(k, n).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
            let plan = part::plan(&file, k, n)?;
            Ok(PartRange {
                split,
                start: plan.begin,
                end: plan.end.unwrap_or(plan.size),
            })
        })
        .collect()
}

/// A part of a source, opened.
pub(super) struct Part {
    pub(super) games: GameSplitter<Box<dyn io::BufRead + Send>>,
    pub(super) trailing: TrailingNote,
    pub(super) state: PartState,
}

/// What a part's summary says of it.
pub(super) struct PartState {
    pub(super) split: Split,
    pub(super) plan: part::Plan,
    pub(super) modified: Option<u64>,
    pub(super) end: Arc<PartEnd>,
    pub(super) info: Arc<std::sync::Mutex<PartInfo>>,
}

impl PartState {
    /// The text bytes of the part's games, and its `split` record.
    pub(super) fn record(&self, options: u64, read: u64) -> (u64, SplitRecord) {
        let info = self.info.lock().unwrap_or_else(|e| e.into_inner());
        let stop = self.end.stop();
        let at = self.end.at.load(Ordering::Acquire);
        let hex = |h: u64| format!("{h:016x}");
        let end = match (stop, self.plan.end, info.end, info.next) {
            (Some(_), Some(offset), Some(p1), Some(t)) => Some(SplitPoint {
                offset,
                skip: p1 - t,
                print: hex(self.plan.end_print.unwrap_or(0)),
            }),
            _ => None,
        };
        let record = SplitRecord {
            part: self.split.part,
            of: self.split.of,
            size: self.plan.size,
            modified: self.modified,
            head: hex(self.plan.head),
            compression: self.plan.compression,
            start: info.start.map(|skip| SplitPoint {
                offset: self.plan.begin,
                skip,
                print: hex(self.plan.begin_print),
            }),
            end,
            aligned: stop.is_none_or(|(offset, _)| offset == at),
            lines: stop.map_or_else(
                || self.end.lines.load(Ordering::Acquire),
                |(_, line)| line - 1,
            ),
            options: hex(options),
        };
        (stop.map_or(read, |(offset, _)| offset), record)
    }
}
