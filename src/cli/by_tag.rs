//! The files of `pgn split --by-tag`: a name for each value that no other value shares on
//! any common file system, and the files themselves, compressed by their extension,
//! written through temporary files, at most 128 open at once.

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use pocketfen::stream::write_game;

use super::live;
use super::output::{Packed, refuse_input};
use pocketfen::stream::Compression;

/// A tag's value made safe for a file name, one name per value: ASCII letters, digits,
/// `.`, `-` and `_` are kept, every other character is written `%XX` (its UTF-8 bytes in
/// hex), so that no two values share a file, also where the file system normalises
/// Unicode (macOS: `Å` U+00C5 and U+212B are one name there); a value of dots only has
/// them escaped too (no `.` or `..`), as has the first letter of a name Windows keeps for
/// a device (`CON`, `NUL`, `COM1`…); the empty value is `%`, a game without the tag
/// `%none`, and a value whose name would pass 100 bytes is cut and given a fingerprint of
/// the whole. Letter case is kept: [`TagNames`] tells apart values that differ only in it.
pub(super) fn safe_name(value: Option<&str>) -> String {
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
        let print = pocketfen::stream::fingerprint(value.as_bytes());
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

/// The file name of each value of `--by-tag`, one per value on every common file system:
/// a value whose name differs from an earlier value's in letter case only (`Alice`,
/// `alice`: one file on macOS and Windows) gets `%~2`, `%~3`… after it, in the order the
/// values come (`%~` is in no other name).
#[derive(Default)]
pub(super) struct TagNames {
    /// The name of each value met.
    names: HashMap<Option<String>, String>,
    /// How many values share each name in lower case.
    folded: HashMap<String, u64>,
}

impl TagNames {
    pub(super) fn name(&mut self, value: Option<&str>) -> &str {
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

/// A file of `--by-tag` being written: a temporary file beside its destination, renamed
/// over it at the end, and its games.
struct TagFile {
    temp: tempfile::TempPath,
    games: u64,
}

/// The open files of `--by-tag`: at most `MAX_OPEN` at once, the least recently used
/// closed (its compressed stream ended) and reopened to append (a new stream, frame or
/// member: concatenated, they read as one) when more are needed. Each is compressed by
/// its extension, as `--every`'s are.
#[derive(Default)]
pub(super) struct TagFiles {
    open: HashMap<PathBuf, (Packed, u64)>,
    made: HashMap<PathBuf, TagFile>,
    clock: u64,
}

const MAX_OPEN: usize = 128;

impl TagFiles {
    pub(super) fn write(&mut self, path: &Path, inputs: &[PathBuf], bytes: &[u8]) -> Result<()> {
        self.clock += 1;
        if !self.open.contains_key(path) {
            if self.open.len() >= MAX_OPEN
                && let Some(old) = self
                    .open
                    .iter()
                    .min_by_key(|(_, (_, used))| *used)
                    .map(|(p, _)| p.clone())
                && let Some((mut w, _)) = self.open.remove(&old)
            {
                w.finish()
                    .with_context(|| format!("writing {}", old.display()))?;
            }
            let file = match self.made.get(path) {
                Some(f) => std::fs::OpenOptions::new().append(true).open(&f.temp),
                None => {
                    refuse_input("-o", path, inputs)?;
                    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        std::fs::create_dir_all(dir)
                            .with_context(|| format!("creating {}", dir.display()))?;
                    }
                    let temp = temp_beside(path)?;
                    let file = temp.reopen();
                    self.made.insert(
                        path.to_owned(),
                        TagFile {
                            temp: temp.into_temp_path(),
                            games: 0,
                        },
                    );
                    file
                }
            }
            .with_context(|| format!("opening {}", path.display()))?;
            let w: Box<dyn Write> = Box::new(io::BufWriter::with_capacity(1 << 16, file));
            let compression = Compression::from_name(&path.to_string_lossy());
            let packed =
                Packed::new(w, compression, None, 1).map_err(|e| anyhow::anyhow!("{e}"))?;
            self.open.insert(path.to_owned(), (packed, 0));
        }
        let (w, used) = self.open.get_mut(path).expect("open");
        *used = self.clock;
        write_game(w, bytes).with_context(|| format!("writing {}", path.display()))?;
        self.made.get_mut(path).expect("made").games += 1;
        Ok(())
    }

    /// Ends every file; when `keep`, renames each over its destination, else removes it.
    /// The files written and their games, by name.
    pub(super) fn finish(mut self, keep: bool) -> Result<Vec<(PathBuf, u64)>> {
        let mut result = Ok(());
        for (path, (mut w, _)) in self.open.drain() {
            if result.is_ok() {
                result = w
                    .finish()
                    .with_context(|| format!("writing {}", path.display()));
            }
        }
        let keep = keep && result.is_ok();
        let mut made: Vec<(PathBuf, u64)> = Vec::with_capacity(self.made.len());
        for (path, file) in self.made {
            let temp = file.temp.to_path_buf();
            if keep && result.is_ok() {
                if let Ok(meta) = std::fs::metadata(&path) {
                    let _ = std::fs::set_permissions(&file.temp, meta.permissions());
                }
                result = file
                    .temp
                    .persist(&path)
                    .map_err(|e| e.error)
                    .with_context(|| format!("writing {}", path.display()));
            }
            if let Some(mut partials) = live::partials_lock() {
                partials.retain(|p| *p != temp);
            }
            made.push((path, file.games));
        }
        result?;
        made.sort();
        Ok(made)
    }
}

/// A new temporary file beside `path`, as [`open_output`] makes one, known to the signal
/// handler (a second interrupt removes it).
fn temp_beside(path: &Path) -> Result<tempfile::NamedTempFile> {
    live::catch_signals();
    let mut partials = live::partials_lock();
    let (dir, made) = super::output::new_temp_beside(path);
    let temp = made.with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    if let Some(partials) = partials.as_deref_mut() {
        partials.push(temp.path().to_owned());
    }
    Ok(temp)
}

#[cfg(test)]
mod tests {
    use super::{TagNames, safe_name};

    /// No two values share a name, also where names compare ignoring letter case and
    /// Unicode normalisation (issue 33.6): non-ASCII is escaped, values differing in case
    /// only are numbered in the order they come, and device names are escaped.
    #[test]
    fn two_values_never_share_a_file_on_any_common_file_system() {
        let mut names = TagNames::default();
        let values = [
            "Crazyhouse",
            "crazyhouse",
            "CRAZYHOUSE",
            "Crazyhouse",
            "\u{c5}",
            "\u{212b}",
            "A\u{30a}",
            "con",
            "Lpt1.x",
            "com0",
        ];
        let got: Vec<String> = values
            .iter()
            .map(|v| names.name(Some(v)).to_owned())
            .collect();
        assert_eq!(
            got,
            [
                "Crazyhouse",
                "crazyhouse%~2",
                "CRAZYHOUSE%~3",
                "Crazyhouse",
                "%C3%85",
                "%E2%84%AB",
                "A%CC%8A",
                "%63on",
                "%4Cpt1.x",
                "com0"
            ]
        );
        let mut folded: Vec<String> = got.iter().map(|n| n.to_ascii_lowercase()).collect();
        folded.sort();
        folded.dedup();
        assert_eq!(folded.len(), got.len() - 1, "one value came twice");
        assert!(got.iter().all(|n| n.is_ascii()));
    }

    #[test]
    fn long_values_differing_after_the_cut_get_files_of_their_own() {
        let a = "x".repeat(120) + "a";
        let b = "x".repeat(120) + "b";
        let (na, nb) = (safe_name(Some(&a)), safe_name(Some(&b)));
        assert_ne!(na, nb);
        assert!(na.len() <= 100 && na.starts_with(&"x".repeat(80)), "{na}");
        // The same value always gets the same name.
        assert_eq!(safe_name(Some(&a)), na);
    }
}
