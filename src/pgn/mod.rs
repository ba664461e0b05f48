//! PGN archives: splitting a stream into games, tokenizing movetext with exact positions,
//! reading each game's header and start once ([`game`]), and replaying it through the
//! rules engine ([`validate`]), for reports or for re-export ([`convert`]).
//!
//! ```
//! use pocketfen::pgn::{GameProblemKind, Options, Status, validate_str};
//! use pocketfen::IllegalReason;
//! let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n";
//! let report = &validate_str(pgn, &Options::default())[0];
//! assert_eq!(report.status, Status::Illegal);
//! assert_eq!(report.problems[0].kind, GameProblemKind::Illegal(IllegalReason::NotInPocket));
//! assert_eq!((report.problems[0].line, report.problems[0].column), (3, 26));
//! ```

mod bpgn;
pub mod convert;
pub mod game;
pub mod input;
pub mod pipeline;
pub mod problem;
pub mod replay;
pub mod split;
mod step;
pub mod token;
pub mod validate;
pub mod visitor;
mod walk;

pub use convert::{Converted, Target, convert_game};
pub use game::{Boards, Format, MAX_VARIATION_DEPTH, MoveAt, Options};
pub use problem::{GameProblem, GameProblemKind, GameReport, ResultReading, Status, Totals};
pub use replay::{PlyText, replay_game};
pub use split::{DEFAULT_MAX_GAME_BYTES, GameSplitter, RawGame};
pub use validate::{validate_game, validate_str, visit_game, visit_text};
pub use visitor::{Skip, Visitor};
