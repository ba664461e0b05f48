//! Text formats: FEN in every site's dialect (and, later, SAN and UCI).
//!
//! Each submodule pairs a nom parser with its printer.

pub mod fen;
pub mod san;
pub mod uci;

pub(crate) mod nomerr;
