//! One game of PGN or BPGN, as the splitter ([`crate::stream`]) hands it out: its header and
//! start read once by one reader, its movetext walked through the rules engine with
//! every problem located ([`validate_game`]), shown to a [`Visitor`], and written for a
//! site ([`convert_game`]) or ply by ply ([`replay_game`]). Runs over whole archives, on
//! all cores, are [`crate::run`]'s.
//!
//! ```
//! use pocketfen::game::{GameProblemKind, Options, Status, validate_str};
//! use pocketfen::IllegalReason;
//! let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n";
//! let report = &validate_str(pgn, &Options::default())[0];
//! assert_eq!(report.status, Status::Illegal);
//! assert_eq!(report.problems[0].kind, GameProblemKind::Illegal(IllegalReason::NotInPocket));
//! assert_eq!((report.problems[0].line, report.problems[0].column), (3, 26));
//! ```

mod annotation;
mod bpgn;
pub(crate) mod convert;
mod dedupe;
mod fix;
pub(crate) mod header;
mod opening;
pub(crate) mod problem;
pub(crate) mod replay;
mod row;
mod select;
mod step;
pub(crate) mod validate;
pub(crate) mod visitor;
mod walk;

pub use crate::stream::token::read_result;
pub use annotation::{
    AnnotationError, Annotations, Arrow, Eval, Highlight, Mark, read_annotations,
};
pub use convert::{Converted, KeptTags, Layout, Rewrite, Target, convert_game, convert_text};
pub use dedupe::{DedupeBy, game_key};
pub use fix::{FixOptions, FixVerdict, Fixed, Repair, RepairKind, fix_game};
pub use header::{Boards, Format, MAX_VARIATION_DEPTH, MoveAt, Options};
pub use opening::{EcoSet, NamePattern, OpeningField, OpeningWatch, classify_game};
pub use problem::{
    GameAt, GameProblem, GameProblemKind, GameReport, ResultReading, Status, Totals,
};
pub use replay::{PlyText, replay_annotated, replay_game};
#[cfg(all(test, feature = "parquet"))]
pub(crate) use row::days_from_civil;
pub use row::{
    BoardEnd, Fens, FirstProblem, GameRow, GameRows, PlyRow, RowOptions, game_rows, pocket_letters,
};
pub use select::{Chosen, Compare, Ending, Reaches, Selection, TagCriterion, TagTest, select_game};
pub use validate::{game_text, validate_game, validate_str, visit_game, visit_text};
pub use visitor::{Skip, Visitor};
