//! PGN archives: splitting a stream into games, tokenizing movetext with exact positions,
//! and replaying each game through the rules engine.
//!
//! ```
//! use pocketfen::pgn::{split::GameSplitter, validate::{validate_game, Options, Status}};
//! let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n";
//! let game = GameSplitter::new(pgn.as_bytes()).next().unwrap()?;
//! let report = validate_game(&game, &Options::default());
//! assert_eq!(report.status, Status::Illegal);
//! assert_eq!(report.problems[0].kind, "not-in-pocket");
//! assert_eq!((report.problems[0].line, report.problems[0].column), (3, 26));
//! # Ok::<_, std::io::Error>(())
//! ```

pub mod bpgn;
pub mod convert;
pub mod input;
pub mod split;
pub mod token;
pub mod validate;
