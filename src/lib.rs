//! pocketfen: notation and rules for pocket chess variants.
pub mod attacks;
pub mod bitboard;
pub mod types;

pub use bitboard::Bitboard;
pub use types::{ByColor, ByRole, Color, File, ParseSquareError, Piece, Rank, Role, Square};
pub mod board;
pub mod notation;
pub mod setup;
pub use board::Board;
pub use setup::{Castling, CastlingFlag, CastlingSpec, Fen, Pocket, Setup};
pub mod moves;
pub mod perft;
pub mod position;
pub mod variant;
pub use moves::{Move, MoveList};
pub use position::{
    EndReason, IllegalMove, Outcome, Position, PositionError, Problem, ProblemKind, Severity,
};
pub use variant::{CaptureMode, Rules, Variant, guess_variant};
