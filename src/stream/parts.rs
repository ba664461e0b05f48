//! Parts of an archive (`--split K/N`): which part, where each lies in its file, and
//! what a part's summary says of it.

use std::fmt;
use std::io;
use std::sync::Arc;

use super::Source;
use crate::stream::compression::TrailingNote;
use crate::stream::part::{self, PartInfo};
use crate::stream::split::{GameSplitter, PartEnd};

/// One of N parts of an archive (`--split K/N`): the games whose first line lies in
/// the K-th of N equal byte ranges of the file (for a compressed file, in the frames
/// that start there), each game in exactly one part. Each part's records number its
/// games and lines from 1; [`crate::run::merge`] joins the parts' records into those of one
/// run over the whole file.
///
/// ```
/// use pocketfen::stream::Split;
/// let split: Split = "2/8".parse()?;
/// assert_eq!((split.part, split.of), (2, 8));
/// assert_eq!(split.to_string(), "2/8");
/// assert!("9/8".parse::<Split>().is_err());
/// # Ok::<_, pocketfen::ParseValueError>(())
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
    pub fn new(part: usize, of: usize) -> Result<Split, crate::ParseValueError> {
        if part == 0 || of == 0 || part > of {
            return Err(crate::ParseValueError::new(
                "part",
                format!(
                    "there is no part {part} of {of}: parts are numbered 1 to N (K/N, 1 <= K <= N)"
                ),
            ));
        }
        Ok(Split { part, of })
    }
}

impl std::str::FromStr for Split {
    type Err = crate::ParseValueError;

    fn from_str(s: &str) -> Result<Split, crate::ParseValueError> {
        let bad = |message: String| crate::ParseValueError::new("part", message);
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| bad(format!("`{s}` is no part: write K/N, for example 1/4")))?;
        let number = |t: &str| {
            t.trim().parse::<usize>().map_err(|_| {
                bad(format!(
                    "`{s}` is no part: `{t}` is not a number (K/N, for example 1/4)"
                ))
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
/// No parts (`n` is 0), a source that cannot seek, a file of a compression or archive
/// pocketfen does not read (xz, zip, …), a compressed file that is one stream (the
/// message says how to recompress it), or the file's I/O error.
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
pub(crate) struct Part {
    pub(crate) games: GameSplitter<Box<dyn io::BufRead + Send>>,
    pub(crate) trailing: TrailingNote,
    pub(crate) state: PartState,
}

/// What a part's summary says of it.
pub(crate) struct PartState {
    pub(crate) split: Split,
    pub(crate) plan: part::Plan,
    pub(crate) modified: Option<u64>,
    pub(crate) end: Arc<PartEnd>,
    pub(crate) info: Arc<std::sync::Mutex<PartInfo>>,
}
