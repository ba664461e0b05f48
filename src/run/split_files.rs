//! `pgn split`'s files: numbered files of N games each (`part-{n}.pgn`), or a file per
//! value of a tag (`by-{value}.pgn`), each game written exactly as it was read
//! ([`crate::stream::write_game`]), compressed by the file's ending, through temporary
//! files that replace their destinations only when told to. The command line and the
//! Python package's `split` write through [`SplitFiles`]; where temporary files are made
//! and how they are renamed is an [`Outputs`]'s (the command line's also lets a second
//! Ctrl-C remove them).

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use super::record::SelectedRecord;
use crate::stream::{Compression, write_game};

/// How `pgn split` shares out the games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SplitBy {
    /// Files of this many games each, numbered from 1 in input order.
    Every(u64),
    /// A file per value of this tag (the games without it in one file of their own).
    Tag(String),
}

/// A file name pattern: text around one `{n}` (`{n:W}`: W digits, 1 to 20; `{n}` is 6)
/// for [`SplitBy::Every`], or one `{value}` for [`SplitBy::Tag`].
///
/// ```
/// use pocketfen::run::split_files::FilePattern;
/// let p = FilePattern::new("out/part-{n:3}.pgn.zst", false)?;
/// assert_eq!(p.numbered(7), std::path::Path::new("out/part-007.pgn.zst"));
/// assert!(FilePattern::new("part.pgn", false).is_err());
/// # Ok::<_, pocketfen::run::split_files::PatternError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePattern {
    before: String,
    after: String,
    width: usize,
}

/// Why a pattern cannot name the files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PatternError {
    /// A `{n}` in a pattern of files named by a tag's value.
    NumberInTagPattern,
    /// A `{value}` in a pattern of numbered files.
    ValueInNumberedPattern,
    /// No placeholder (or a `{n:W}` whose width is not 1 to 20).
    NoPlaceholder {
        /// Whether the files are named by a tag's value.
        by_tag: bool,
    },
    /// More than one placeholder.
    TwoPlaceholders {
        /// Whether the files are named by a tag's value.
        by_tag: bool,
    },
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = |by_tag: bool| {
            if by_tag {
                "a file per value: put {value} in the pattern, as in 'by-{value}.pgn'"
            } else {
                "numbered files: put {n} (or {n:W}, W digits) in the pattern, as in 'part-{n}.pgn'"
            }
        };
        match self {
            PatternError::NumberInTagPattern => {
                f.write_str("files named by a tag's value take {value}, not a number: drop the {n}")
            }
            PatternError::ValueInNumberedPattern => {
                f.write_str("numbered files take {n}, not a tag's value: drop the {value}")
            }
            PatternError::NoPlaceholder { by_tag } => write!(f, "{}", what(*by_tag)),
            PatternError::TwoPlaceholders { by_tag } => {
                write!(f, "one placeholder only: {}", what(*by_tag))
            }
        }
    }
}

impl std::error::Error for PatternError {}

impl FilePattern {
    /// Reads `pattern`, for files named by a tag's value when `by_tag`, else numbered.
    ///
    /// # Errors
    ///
    /// A pattern without its placeholder, with two, or with the other kind's.
    pub fn new(pattern: &str, by_tag: bool) -> Result<FilePattern, PatternError> {
        // `{N}` is `{n}` too (clap's help shows `{n}` as a line break).
        let pattern = pattern.replace("{N", "{n");
        let has_n = pattern.contains("{n");
        let has_value = pattern.contains("{value}");
        if by_tag && has_n {
            return Err(PatternError::NumberInTagPattern);
        }
        if !by_tag && has_value {
            return Err(PatternError::ValueInNumberedPattern);
        }
        let (at, len, width) = if by_tag {
            (pattern.find("{value}"), "{value}".len(), 0)
        } else {
            match pattern.find("{n") {
                Some(at) => {
                    let close = pattern[at..].find('}').map(|c| at + c);
                    let inner = close.map(|c| &pattern[at + 2..c]);
                    let width = match inner {
                        Some("") => Some(6),
                        Some(w) => w.strip_prefix(':').and_then(|w| w.parse::<usize>().ok()),
                        None => None,
                    };
                    match (close, width) {
                        (Some(c), Some(w)) if (1..=20).contains(&w) => (Some(at), c + 1 - at, w),
                        _ => (None, 0, 0),
                    }
                }
                None => (None, 0, 0),
            }
        };
        let Some(at) = at else {
            return Err(PatternError::NoPlaceholder { by_tag });
        };
        if pattern[at + len..].contains("{n") || pattern[at + len..].contains("{value}") {
            return Err(PatternError::TwoPlaceholders { by_tag });
        }
        Ok(FilePattern {
            before: pattern[..at].to_owned(),
            after: pattern[at + len..].to_owned(),
            width,
        })
    }

    /// The name of file `n` (from 1).
    pub fn numbered(&self, n: u64) -> PathBuf {
        PathBuf::from(format!(
            "{}{:0w$}{}",
            self.before,
            n,
            self.after,
            w = self.width
        ))
    }

    /// The name of the file of a value named `name` ([`TagNames`]).
    pub fn valued(&self, name: &str) -> PathBuf {
        PathBuf::from(format!("{}{name}{}", self.before, self.after))
    }
}

/// A tag's value made safe for a file name, one name per value: ASCII letters, digits,
/// `.`, `-` and `_` are kept, every other character is written `%XX` (its UTF-8 bytes in
/// hex), so that no two values share a file, also where the file system normalises
/// Unicode (macOS: `Å` U+00C5 and U+212B are one name there); a value of dots only has
/// them escaped too (no `.` or `..`), as has the first letter of a name Windows keeps for
/// a device (`CON`, `NUL`, `COM1`…); the empty value is `%`, a game without the tag
/// `%none`, and a value whose name would pass 100 bytes is cut and given a fingerprint of
/// the whole. Letter case is kept: [`TagNames`] tells apart values that differ only in it.
pub fn safe_name(value: Option<&str>) -> String {
    let Some(value) = value else {
        return "%none".to_owned();
    };
    if value.is_empty() {
        return "%".to_owned();
    }
    let dots = value.bytes().all(|b| b == b'.');
    let device = is_device_name(value);
    let mut s = String::with_capacity(value.len());
    for (i, b) in value.bytes().enumerate() {
        let keep = (b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            && !(dots && b == b'.')
            && !(device && i == 0);
        if keep {
            s.push(char::from(b));
        } else {
            s.push_str(&format!("%{b:02X}"));
        }
    }
    if s.len() > 100 {
        let mut cut = 80;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        let print = crate::stream::fingerprint(value.as_bytes());
        s = format!("{}%{print:016x}", &s[..cut]);
    }
    s
}

/// Whether Windows keeps `value` (in any case, with or without an extension) for a
/// device: `CON`, `PRN`, `AUX`, `NUL`, `COM1`–`COM9`, `LPT1`–`LPT9`.
fn is_device_name(value: &str) -> bool {
    let stem = value.split('.').next().unwrap_or("").to_ascii_uppercase();
    matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && matches!(stem.as_bytes()[3], b'1'..=b'9'))
}

/// The file name of each value of a tag, one per value on every common file system: a
/// value whose name differs from an earlier value's in letter case only (`Alice`,
/// `alice`: one file on macOS and Windows) gets `%~2`, `%~3`… after it, in the order the
/// values come (`%~` is in no other name).
#[derive(Debug, Default)]
pub struct TagNames {
    /// The name of each value met.
    names: HashMap<Option<String>, String>,
    /// How many values share each name in lower case.
    folded: HashMap<String, u64>,
}

impl TagNames {
    /// The name of `value`'s file (`None`: a game without the tag).
    pub fn name(&mut self, value: Option<&str>) -> &str {
        let key = value.map(str::to_owned);
        if !self.names.contains_key(&key) {
            let name = safe_name(value);
            let seen = self.folded.entry(name.to_ascii_lowercase()).or_insert(0);
            *seen += 1;
            let name = match *seen {
                1 => name,
                k => format!("{name}%~{k}"),
            };
            self.names.insert(key.clone(), name);
        }
        &self.names[&key]
    }
}

/// Where [`SplitFiles`] makes its files: a temporary file for each destination, renamed
/// over it at the end or removed.
pub trait Outputs: Send {
    /// A new temporary file that will become `dest` (whose folder exists), opened for
    /// writing, and its path.
    ///
    /// # Errors
    ///
    /// One that cannot be made, or a `dest` that must not be written (an input).
    fn create(&mut self, dest: &Path) -> io::Result<(File, PathBuf)>;

    /// Renames the finished `temp` over `dest`.
    ///
    /// # Errors
    ///
    /// The rename's.
    fn persist(&mut self, temp: &Path, dest: &Path) -> io::Result<()>;

    /// Removes `temp`, which will not be kept.
    fn discard(&mut self, temp: &Path);
}

/// [`Outputs`] of the standard library alone: `.NAME.PID-K.pocketfen.tmp` beside each
/// destination, created exclusively, renamed with the destination's permissions when it
/// has one; never over one of `inputs` (the same file, also through links).
#[derive(Debug, Default)]
pub struct TempFiles {
    inputs: Vec<PathBuf>,
    made: u64,
}

impl TempFiles {
    /// Files that will never replace one of `inputs`.
    pub fn new(inputs: Vec<PathBuf>) -> TempFiles {
        TempFiles { inputs, made: 0 }
    }
}

impl Outputs for TempFiles {
    fn create(&mut self, dest: &Path) -> io::Result<(File, PathBuf)> {
        if let Some(input) = self.inputs.iter().find(|i| same_file(i, dest)) {
            return Err(io::Error::new(
                io::ErrorKind::AlreadyExists,
                format!(
                    "{}: this is the input {}; writing it would destroy what is read: write elsewhere",
                    dest.display(),
                    input.display()
                ),
            ));
        }
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = dest
            .file_name()
            .map_or("out".into(), |n| n.to_string_lossy());
        loop {
            self.made += 1;
            let temp = dir.join(format!(
                ".{name}.{}-{}.pocketfen.tmp",
                std::process::id(),
                self.made
            ));
            match File::options().write(true).create_new(true).open(&temp) {
                Ok(file) => return Ok((file, temp)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn persist(&mut self, temp: &Path, dest: &Path) -> io::Result<()> {
        rename_over(temp, dest)
    }

    fn discard(&mut self, temp: &Path) {
        let _ = std::fs::remove_file(temp);
    }
}

/// Renames a finished temporary file over `dest`, which keeps its permissions when it
/// exists.
///
/// # Errors
///
/// The rename's.
pub fn rename_over(temp: &Path, dest: &Path) -> io::Result<()> {
    if let Ok(meta) = std::fs::metadata(dest) {
        let _ = std::fs::set_permissions(temp, meta.permissions());
    }
    std::fs::rename(temp, dest)
}

/// Whether `a` and `b` are one existing file (the same device and inode on Unix, through
/// links; the same canonical path elsewhere).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        x.dev() == y.dev() && x.ino() == y.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (x, y);
        std::fs::canonicalize(a).ok() == std::fs::canonicalize(b).ok()
    }
}

/// An output file being written: its temporary file and its games.
struct Made {
    temp: PathBuf,
    games: u64,
}

/// The most files open at once: the least recently used one is closed (its compressed
/// stream ended) and reopened to append (a new stream, frame or member: concatenated,
/// they read as one) when another is needed.
const MAX_OPEN: usize = 128;

/// The files of one `pgn split`: each game in its file, in input order.
pub struct SplitFiles {
    pattern: FilePattern,
    by: SplitBy,
    outputs: Box<dyn Outputs>,
    names: TagNames,
    /// Each file made, by destination.
    made: HashMap<PathBuf, Made>,
    /// The open ones, and when each was last written.
    open: HashMap<PathBuf, (crate::stream::ArchiveWriter<io::BufWriter<File>>, u64)>,
    clock: u64,
    /// With [`SplitBy::Every`]: the file being filled and the files done, in order.
    current: Option<(PathBuf, u64)>,
    done: Vec<(PathBuf, u64)>,
}

impl fmt::Debug for SplitFiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SplitFiles")
            .field("pattern", &self.pattern)
            .field("by", &self.by)
            .field("files", &self.made.len())
            .finish_non_exhaustive()
    }
}

/// An I/O error of the file `path`: what was done, which file, and why.
fn at(path: &Path, doing: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{doing} {}: {e}", path.display()))
}

impl SplitFiles {
    /// Files named by `pattern`, shared out `by` a number or a tag, made by `outputs`.
    pub fn new(pattern: FilePattern, by: SplitBy, outputs: impl Outputs + 'static) -> SplitFiles {
        SplitFiles {
            pattern,
            by,
            outputs: Box::new(outputs),
            names: TagNames::default(),
            made: HashMap::new(),
            open: HashMap::new(),
            clock: 0,
            current: None,
            done: Vec::new(),
        }
    }

    /// Writes a game of a run of [`super::Task::Select`] (whose selection captures the
    /// tag, with [`SplitBy::Tag`]) into its file.
    ///
    /// # Errors
    ///
    /// A file that cannot be made or written, named in the error.
    pub fn write(&mut self, game: &SelectedRecord) -> io::Result<()> {
        let path = match &self.by {
            SplitBy::Tag(_) => {
                let name = self.names.name(game.captured.as_deref());
                self.pattern.valued(name)
            }
            SplitBy::Every(every) => {
                let every = *every;
                if let Some((path, n)) = self.current.take() {
                    if n >= every {
                        self.close(&path)?;
                        let made = self.made.remove(&path).expect("a file made");
                        self.outputs
                            .persist(&made.temp, &path)
                            .map_err(|e| at(&path, "writing", e))?;
                        self.done.push((path, n));
                    } else {
                        self.current = Some((path, n));
                    }
                }
                let (path, n) = self
                    .current
                    .get_or_insert_with(|| (self.pattern.numbered(self.done.len() as u64 + 1), 0));
                *n += 1;
                path.clone()
            }
        };
        self.write_to(
            &path,
            &crate::stream::copied_game(&game.raw.bytes, game.line),
        )
    }

    /// Writes `bytes` into the file `path`, opening it (or opening it again) first.
    fn write_to(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.clock += 1;
        if !self.open.contains_key(path) {
            if self.open.len() >= MAX_OPEN
                && let Some(old) = self
                    .open
                    .iter()
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(p, _)| p.clone())
            {
                self.close(&old)?;
            }
            let file = match self.made.get(path) {
                Some(made) => File::options().append(true).open(&made.temp),
                None => {
                    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        std::fs::create_dir_all(dir).map_err(|e| at(dir, "creating", e))?;
                    }
                    self.outputs.create(path).map(|(file, temp)| {
                        self.made.insert(path.to_owned(), Made { temp, games: 0 });
                        file
                    })
                }
            }
            .map_err(|e| at(path, "opening", e))?;
            let out = io::BufWriter::with_capacity(1 << 16, file);
            let compression = Compression::from_name(&path.to_string_lossy());
            let writer = crate::stream::ArchiveWriter::new(out, compression, None, 1)?;
            self.open.insert(path.to_owned(), (writer, 0));
        }
        let (w, used) = self.open.get_mut(path).expect("open");
        *used = self.clock;
        write_game(w, bytes).map_err(|e| at(path, "writing", e))?;
        self.made.get_mut(path).expect("made").games += 1;
        Ok(())
    }

    /// Closes the open file `path` (its compressed stream ended).
    fn close(&mut self, path: &Path) -> io::Result<()> {
        match self.open.remove(path) {
            Some((mut w, _)) => w.finish().map_err(|e| at(path, "writing", e)),
            None => Ok(()),
        }
    }

    /// Ends every file; when `keep`, renames each over its destination, else removes
    /// them. The files written and their games, by name with [`SplitBy::Tag`], in order
    /// with [`SplitBy::Every`].
    ///
    /// # Errors
    ///
    /// The first file that cannot be finished or renamed (the others are removed).
    pub fn finish(mut self, keep: bool) -> io::Result<Vec<(PathBuf, u64)>> {
        let mut result = Ok(());
        let paths: Vec<PathBuf> = self.open.keys().cloned().collect();
        for path in paths {
            let closed = self.close(&path);
            if result.is_ok() {
                result = closed;
            }
        }
        let mut made: Vec<(PathBuf, Made)> = self.made.drain().collect();
        made.sort_by(|a, b| a.0.cmp(&b.0));
        let mut written = std::mem::take(&mut self.done);
        for (path, file) in made {
            if keep && result.is_ok() {
                result = self
                    .outputs
                    .persist(&file.temp, &path)
                    .map_err(|e| at(&path, "writing", e));
                written.push((path, file.games));
            } else {
                self.outputs.discard(&file.temp);
            }
        }
        result?;
        if let SplitBy::Tag(_) = self.by {
            written.sort();
        }
        Ok(written)
    }
}

#[cfg(test)]
mod tests;
