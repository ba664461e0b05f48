//! The archives under a directory, found as the command line and Python find them.

use std::io;
use std::path::{Path, PathBuf};

use super::is_archive_name;

/// What is said of a directory with no archive under it ([`archives_under`] finds none).
pub const NO_ARCHIVE: &str = if cfg!(feature = "parquet") {
    "a directory with no archive in it (*.pgn or *.bpgn, compressed with .zst, .zstd, .gz or .bz2 or not, or *.parquet)"
} else {
    "a directory with no archive in it (*.pgn or *.bpgn, compressed with .zst, .zstd, .gz or .bz2 or not)"
};

/// The archives under `dir`, in sorted order, as ripgrep walks: hidden entries (their
/// names start with `.`) are left out, symbolic links to directories are not followed,
/// and a file is an archive by its name ([`is_archive_name`]). `validate DIR` on the
/// command line and `validate("DIR")` in Python read these.
///
/// # Errors
///
/// A directory that cannot be read.
pub fn archives_under(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)?.collect::<io::Result<_>>()?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, files)?;
        } else if is_archive_name(&name.to_string_lossy()) && (kind.is_file() || path.is_file()) {
            files.push(path);
        }
    }
    Ok(())
}
