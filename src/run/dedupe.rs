//! `pgn dedupe`'s memory of the games it has kept: one entry per distinct game key
//! ([`crate::game::game_key`]), with where the game was first met, so that each later
//! copy is told as a duplicate of it.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::record::KeyedRecord;

/// The games kept so far, by key. Keys are 128-bit: 16 bytes and a place per distinct
/// game, whatever the games' size.
///
/// ```
/// use pocketfen::run::{Run, RunOptions, Task, dedupe::Kept};
/// use pocketfen::run::record::RunRecord;
/// use pocketfen::game::DedupeBy;
/// use pocketfen::stream::Source;
/// let pgn = "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 *\n\n[Event \"c\"]\n\n1. d4 *\n";
/// let mut kept = Kept::default();
/// let mut copies = Vec::new();
/// for record in Run::new(vec![Source::reader("g.pgn", pgn.as_bytes())], Task::Dedupe { by: DedupeBy::Moves }, RunOptions::default()) {
///     if let RunRecord::Keyed(game) = record {
///         if let Some(first) = kept.first_of(&game) {
///             copies.push((game.game, first.game));
///         }
///     }
/// }
/// assert_eq!(copies, [(2, 1)]);
/// assert_eq!(kept.len(), 2);
/// ```
#[derive(Debug, Default)]
pub struct Kept {
    seen: HashMap<u128, FirstSeen>,
    /// The archives' names, each once, in the order met.
    files: Vec<String>,
}

/// Where a kept game was first met: its archive, number and first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FirstSeen {
    file: u32,
    /// The game's number in its archive.
    pub game: usize,
    /// Its first line.
    pub line: usize,
}

impl Kept {
    /// `None` for a game whose key is new (it is kept from now on); for a copy, where the
    /// game it copies was first met.
    pub fn first_of(&mut self, game: &KeyedRecord) -> Option<FirstSeen> {
        if self.files.last() != Some(&game.file) {
            self.files.push(game.file.clone());
        }
        let file = (self.files.len() - 1) as u32;
        match self.seen.entry(game.key) {
            Entry::Vacant(v) => {
                v.insert(FirstSeen {
                    file,
                    game: game.game,
                    line: game.line,
                });
                None
            }
            Entry::Occupied(first) => Some(*first.get()),
        }
    }

    /// The name of the archive a kept game is in.
    pub fn file_of(&self, first: FirstSeen) -> &str {
        &self.files[first.file as usize]
    }

    /// How many distinct games are kept.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether none is.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }
}
