//! What a run does with each game.

use std::sync::Arc;

use crate::game::{DedupeBy, Layout, PlyText, Selection, Target};
use crate::notation::san::DropStyle;

/// What a run does with each game.
#[derive(Debug, Clone)]
pub enum Task {
    /// `validate`: a [`RunRecord::Game`](super::RunRecord::Game) for each game with problems (each game when `all`).
    Validate {
        /// Every game gets a record, not only those with problems.
        all: bool,
    },
    /// `pgn convert`: a [`RunRecord::Converted`](super::RunRecord::Converted) for each game.
    Convert {
        /// The site to write for.
        target: Target,
        /// How pawn drops are written.
        style: DropStyle,
        /// A game `validate` refuses is handed back unchanged (its bytes in the
        /// record's `raw`) instead of left out.
        keep_broken: bool,
        /// What the games keep, and how their lines are laid out.
        layout: Arc<Layout>,
    },
    /// `replay`: a [`RunRecord::Replayed`](super::RunRecord::Replayed) for each game.
    Replay {
        /// What each ply's text is.
        text: PlyText,
    },
    /// `pgn select` and `pgn split`: a [`RunRecord::Selected`](super::RunRecord::Selected) for each game, its bytes
    /// with it, and whether it meets the selection; with a [`Rewrite`], each chosen game
    /// rewritten too (in the record's `text`; a game that does not replay keeps only its
    /// bytes).
    Select(Arc<Selection>, Option<Arc<Rewrite>>),
    /// `pgn dedupe`: a [`RunRecord::Keyed`](super::RunRecord::Keyed) for each game, its bytes with it, and its key
    /// ([`game_key`](crate::game::game_key)).
    Dedupe {
        /// What makes two games the same.
        by: DedupeBy,
    },
}

/// How `pgn select` rewrites the games it chooses: for a site, laid out as asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewrite {
    /// The site to write for.
    pub target: Target,
    /// How pawn drops are written.
    pub style: DropStyle,
    /// What the games keep, and how their lines are laid out.
    pub layout: Layout,
}
