//! From bytes to games, knowing no chess: where an archive comes from ([`Source`]),
//! whether and how it is compressed ([`Compression`], [`decode`], [`open`]; frames decoded
//! on the workers by [`decode_with`] and [`open_with`]), compressed writing
//! ([`CompressedWriter`]), the PGN text's tokens, the game splitter ([`GameSplitter`]),
//! and the parts of a file that `--split K/N` reads ([`Split`], [`parts`]).
//!
//! ```
//! use pocketfen::stream::{GameSplitter, decode};
//! let text = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n";
//! let mut games = GameSplitter::new(decode(&text[..])?.reader);
//! let first = games.next_game()?.expect("a game");
//! assert_eq!((first.number, first.line), (1, 1));
//! assert_eq!(games.next_game()?.expect("a second game").line, 5);
//! assert!(games.next_game()?.is_none());
//! # Ok::<_, std::io::Error>(())
//! ```

#[cfg(feature = "compression")]
mod blocks;
#[cfg(feature = "serde")]
pub(crate) mod chesscom;
mod compressed;
mod compression;
mod dirs;
#[cfg(feature = "compression")]
mod frames;
mod names;
mod open;
#[cfg(feature = "compression")]
mod pack;
#[cfg(feature = "parquet")]
pub(crate) mod parquet;
pub(crate) mod part;
mod parts;
mod source;
pub(crate) mod split;
mod sync;
pub(crate) mod token;
#[cfg(feature = "compression")]
mod unpack;
mod write;

pub use compression::{
    Compression, DamagedFrame, Decoded, FrameText, Trailing, TrailingNote, decode, open,
};
pub use dirs::{NO_ARCHIVE, archives_under};

pub use names::{is_archive_name, is_bpgn_name};
pub use open::{decode_with, open_with};
#[cfg(feature = "compression")]
pub use pack::{CompressedWriter, LevelError, ZSTD_INPUT};
#[cfg(feature = "parquet")]
pub use parquet::is_parquet_file;
pub use part::SeekRead;
pub(crate) use parts::PartState;
pub use parts::{PartRange, Split, parts};
pub use source::Source;
pub use split::{
    CutGame, DEFAULT_MAX_GAME_BYTES, GameSplitter, RawGame, RestOfGame, SplitOptions, TextBreak,
};
pub use write::{ArchiveWriter, copied_game, row_as_pgn, write_game};

/// A 64-bit FNV-1a fingerprint of `bytes` (the one a split's records give in hex).
pub fn fingerprint(bytes: &[u8]) -> u64 {
    part::fnv1a(bytes)
}

/// The standard start as the games table's `fen` column writes it (Lichess's dialect;
/// `game::game_rows` writes it, the Parquet reader gives no `[FEN]` for it): chess's, and
/// that of the variants with pockets (a bughouse match: two of it, `A | B`).
pub(crate) const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// See [`STANDARD_FEN`].
pub(crate) const STANDARD_POCKET_FEN: &str =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1";

/// Whether a games table's `fen` is a standard start ([`STANDARD_FEN`]).
#[cfg(feature = "parquet")]
pub(crate) fn is_standard_fen(fen: &str) -> bool {
    fen == STANDARD_FEN
        || fen == STANDARD_POCKET_FEN
        || fen.split_once(" | ") == Some((STANDARD_POCKET_FEN, STANDARD_POCKET_FEN))
}

/// Whether `source` is a file that starts as a Chess.com JSON archive, or is named as
/// JSON (`.json`, compressed or not).
#[cfg(feature = "serde")]
pub(crate) fn chesscom_file(source: &Source) -> bool {
    use std::io::Read;
    let Source::Path(p) = source else {
        return false;
    };
    let name = p.to_string_lossy().to_ascii_lowercase();
    if [".json", ".json.gz", ".json.zst", ".json.bz2"]
        .iter()
        .any(|e| name.ends_with(e))
    {
        return true;
    }
    let mut head = [0u8; 64];
    let n = std::fs::File::open(p)
        .and_then(|mut f| f.read(&mut head))
        .unwrap_or(0);
    chesscom::looks_like_archive(&head[..n])
}
