//! What a file's name says of an archive: its compression, by its last ending (`.zst` or
//! `.zstd`, `.gz`, `.bz2`, in any letter case), and what it holds, by the ending before
//! (`.pgn`, `.bpgn`). The one reader of names: reading (`.bpgn` is bughouse), directory
//! walks (which files are archives) and outputs (`-o x.pgn.zstd` is compressed) all ask it.

use super::Compression;

/// The endings of compressed files, each with its compression.
const COMPRESSED: [(&str, Compression); 4] = [
    (".zst", Compression::Zstd),
    (".zstd", Compression::Zstd),
    (".gz", Compression::Gzip),
    (".bz2", Compression::Bzip2),
];

/// `name` without its compression's ending, and that compression (`None` for a name
/// without one).
fn split(name: &str) -> (&str, Compression) {
    for (ending, compression) in COMPRESSED {
        if let Some(stem) = strip_suffix_ignore_case(name, ending) {
            return (stem, compression);
        }
    }
    (name, Compression::None)
}

fn strip_suffix_ignore_case<'a>(name: &'a str, ending: &str) -> Option<&'a str> {
    let at = name.len().checked_sub(ending.len())?;
    (name.is_char_boundary(at) && name[at..].eq_ignore_ascii_case(ending)).then(|| &name[..at])
}

impl Compression {
    /// The compression a file name asks for by its ending: `.zst` (or `.zstd`), `.gz`,
    /// `.bz2`, in any letter case; plain text otherwise.
    ///
    /// ```
    /// use pocketfen::stream::Compression;
    /// assert_eq!(Compression::from_name("db.pgn.ZSTD"), Compression::Zstd);
    /// assert_eq!(Compression::from_name("db.pgn"), Compression::None);
    /// ```
    pub fn from_name(name: &str) -> Compression {
        split(name).1
    }
}

/// Whether a file name is an archive's: `.pgn` or `.bpgn`, then a compression's ending or
/// none, in any letter case; with the `parquet` feature, `.parquet` too.
pub fn is_archive_name(name: &str) -> bool {
    let stem = split(name).0;
    strip_suffix_ignore_case(stem, ".pgn").is_some()
        || is_bpgn_stem(stem)
        || (cfg!(feature = "parquet") && strip_suffix_ignore_case(name, ".parquet").is_some())
}

/// Whether a file name is a BPGN archive's (`.bpgn`, compressed or not, any letter case).
pub fn is_bpgn_name(name: &str) -> bool {
    is_bpgn_stem(split(name).0)
}

fn is_bpgn_stem(stem: &str) -> bool {
    strip_suffix_ignore_case(stem, ".bpgn").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_by_their_endings_in_any_case() {
        for (name, compression, archive, bpgn) in [
            ("games.pgn", Compression::None, true, false),
            ("games.PGN", Compression::None, true, false),
            ("games.pgn.zst", Compression::Zstd, true, false),
            ("x.pgn.zstd", Compression::Zstd, true, false),
            ("m.bpgn.zstd", Compression::Zstd, true, true),
            ("M.BPGN.ZST", Compression::Zstd, true, true),
            ("dir.pgn/matches.BPGN.zst", Compression::Zstd, true, true),
            ("matches.bpgn.gz", Compression::Gzip, true, true),
            ("matches.bpgn.Bz2", Compression::Bzip2, true, true),
            ("notes.txt.gz", Compression::Gzip, false, false),
            ("out.zst", Compression::Zstd, false, false),
            ("pgn", Compression::None, false, false),
            ("é.pgn", Compression::None, true, false),
            ("€", Compression::None, false, false),
        ] {
            assert_eq!(Compression::from_name(name), compression, "{name}");
            assert_eq!(is_archive_name(name), archive, "{name}");
            assert_eq!(is_bpgn_name(name), bpgn, "{name}");
        }
    }
}
