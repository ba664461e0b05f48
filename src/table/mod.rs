//! Games as tables (the `parquet` feature): the games table, a row per game with
//! Lichess's columns first, so that it can be read beside Lichess's own Parquet files, and
//! the plies table, a row per mainline ply; as Arrow record batches
//! ([`GamesBuilder`], [`PliesBuilder`]) and as Parquet files ([`TableWriter`]). The rows
//! come from [`crate::game::game_rows`], through a run's
//! [`Task::Export`](crate::run::Task::Export). docs/REFERENCE.md gives every column.
//!
//! ```
//! use pocketfen::game::{Options, RowOptions, game_rows};
//! use pocketfen::run::record::ExportedRecord;
//! use pocketfen::stream::RawGame;
//! use pocketfen::table::{GamesBuilder, TableWriter, WriteOptions};
//! let pgn = b"[Event \"Rated Blitz game\"]\n[UTCDate \"2024.05.01\"]\n\n1. e4 e5 *\n";
//! let rows = game_rows(&RawGame::new(pgn.to_vec()), &Options::default(), RowOptions::default());
//! let record = ExportedRecord {
//!     file: "g.pgn".into(), game: 1, line: 1, row: rows.game, plies: rows.plies,
//!     fens: rows.fens, too_large: None,
//! };
//! let mut table = TableWriter::new(GamesBuilder::new(), Vec::new(), WriteOptions::GAMES).unwrap();
//! table.push(&record).unwrap();
//! let file = table.finish().unwrap();
//! assert!(file.starts_with(b"PAR1") && file.ends_with(b"PAR1"));
//! ```

mod build;
mod files;
mod hybrid;
mod pages;
mod plies;
mod schema;
mod write;

pub use build::{GamesBuilder, PliesBuilder};
pub use files::{ExportFiles, ExportTargets, TableError};
pub use parquet::errors::ParquetError;
pub use plies::PliesFile;
pub use schema::{LICHESS_COLUMNS, LichessType, games_schema, plies_schema};
pub use write::{Codec, Partition, Rows, TableWriter, UNKNOWN_PARTITION, WriteOptions};
