//! pocketfen: notation and rules for pocket chess variants.
//!
//! - [`notation::fen`] reads the FEN dialects of Lichess, Xboard/WinBoard, Chess.com and
//!   the generic bracket form (and bughouse pairs `A | B`) into unvalidated [`Setup`]s,
//!   and prints each dialect exactly.
//! - [`Position`] is a legal position of any [`Variant`] (Chess, Crazyhouse, Loop, Chessgi,
//!   Horde, one Bughouse board), built from a `Setup` by validation, with legal move
//!   generation, play, outcome and [`perft`].
//! - [`notation::san`] and [`notation::uci`] read and write moves with drops;
//!   [`bughouse::Match`] plays two boards.
//! - The archive side follows the data: [`stream`] turns bytes (files, streams, compressed
//!   or not) into games without knowing chess; [`game`] validates, converts, replays and
//!   selects one game; [`run`] runs whole archives on every core in bounded memory, as an
//!   iterator of the typed records of [`run::record`] (what `--json` writes).
//!
//! ```
//! use pocketfen::notation::fen::{self, FenDialect};
//! use pocketfen::{Position, Rules, Setup, Variant};
//!
//! let setup: Setup = "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R/ b KQkq - 0 1".parse()?;
//! assert_eq!(
//!     setup.display(FenDialect::Xboard).to_string(),
//!     "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[-] b KQkq - 0 1"
//! );
//! let pos = Position::from_setup(&setup, Rules::new(Variant::Crazyhouse))?;
//! assert_eq!(pos.legal_moves().len(), 42);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs, missing_debug_implementations)]

mod attacks;
mod bitboard;
mod board;
pub mod bughouse;
pub mod draw;
pub mod game;
mod moves;
mod name;
pub mod notation;
pub mod opening;
pub mod perft;
mod position;
pub mod record;
pub mod run;
mod setup;
pub mod stream;
#[cfg(feature = "parquet")]
pub mod table;
mod types;
mod variant;

pub use bitboard::Bitboard;
pub use board::Board;
pub use moves::{CastlingSide, MAX_MOVES, Move, MoveList};
pub use name::{Choice, ParseNameError, ParseValueError};
pub use position::{
    EndReason, IllegalMove, IllegalReason, Outcome, Position, PositionError, Repetitions,
    SetupProblem, SetupProblemKind, Severity, SquareMoves,
};
pub use setup::{Castling, CastlingFlag, CastlingSpec, Fen, Pocket, Setup};
pub use types::{ByColor, ByRole, Color, File, ParseSquareError, Piece, Rank, Role, Square};
pub use variant::{CaptureMode, Rules, Variant, guess_variant};

/// The README's Rust example, compiled and run by `cargo test --doc`.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The movetext tokenizer and its line index, for the fuzz targets of `fuzz/` (which check
/// them against the text), behind the `fuzz` feature: no part of the API.
#[cfg(feature = "fuzz")]
pub mod fuzz {
    pub use crate::stream::token::{LineIndex, Token, TokenKind, Tokenizer};
}
