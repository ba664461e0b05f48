//! Pictures: SVG diagrams of positions with their pockets ([`svg`]), and the HTML report
//! of a validation run, one card per problem with the position drawn ([`report`]).
//!
//! Everything is drawn by this crate: its own piece shapes, no external fonts, images or
//! scripts, so a diagram or report is one self-contained file.

mod page;
mod pieces;
pub mod report;
pub mod svg;
