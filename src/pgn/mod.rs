//! PGN and BPGN archives, one game at a time: streams opened and decompressed
//! ([`open`], [`decode`]), split into games ([`GameSplitter`]), each game's header and
//! start read once by one reader, its movetext walked through the rules engine with
//! every problem located ([`validate_game`]), shown to a [`Visitor`], and written for a
//! site ([`convert_game`]) or ply by ply ([`replay_game`]). Runs over whole archives, on
//! all cores, are [`crate::archive`]'s.
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
pub(crate) mod convert;
pub(crate) mod game;
pub(crate) mod input;
mod open;
#[cfg(feature = "compression")]
mod pack;
pub(crate) mod part;
pub(crate) mod pipeline;
pub(crate) mod problem;
pub(crate) mod replay;
mod select;
pub(crate) mod split;
mod step;
pub(crate) mod token;
#[cfg(feature = "compression")]
mod unpack;
pub(crate) mod validate;
pub(crate) mod visitor;
mod walk;

pub use convert::{
    Converted, KeptTags, Layout, Target, convert_game, convert_game_with, convert_text,
    convert_text_with,
};
pub use game::{Boards, Format, MAX_VARIATION_DEPTH, MoveAt, Options};
pub use input::{Compression, Decoded, Trailing, TrailingNote, decode, open};
pub use open::{decode_with, open_with};
#[cfg(feature = "compression")]
pub use pack::{CompressedWriter, LevelError, ZSTD_INPUT};
pub use problem::{GameProblem, GameProblemKind, GameReport, ResultReading, Status, Totals};
pub use replay::{PlyText, replay_game};
pub use select::{
    Chosen, Compare, DedupeBy, Ending, Reaches, Selection, TagCriterion, TagTest, game_key,
    select_game,
};
pub use split::{DEFAULT_MAX_GAME_BYTES, GameSplitter, RawGame};
pub use validate::{validate_game, validate_str, visit_game, visit_text};
pub use visitor::{Skip, Visitor};
