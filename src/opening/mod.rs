//! Opening names: Lichess's list (lichess-org/chess-openings, CC0, 3,807 named lines, in
//! `src/opening/*.tsv`), compiled into the library, and the classification Lichess applies
//! to Standard and Crazyhouse games: the name of the deepest position of the game that the
//! list names, so that a transposition gets the name of the position it reached.
//!
//! A position is named by its pieces, the side to move, the castling rights and the en
//! passant square when a capture there is legal (a crazyhouse position's pockets and
//! promoted marks do not count, as Lichess's opening keys leave them out). Lines are
//! replayed by pocketfen's own engine the first time a name is asked for.
//!
//! ```
//! use pocketfen::opening::{self, Classifier};
//! use pocketfen::{Position, Variant};
//!
//! let mut pos = Position::start(Variant::Chess);
//! let mut game = Classifier::new(&pos).expect("a standard start");
//! for san in ["e4", "c5", "Nf3", "d6"] {
//!     let m = san.parse::<pocketfen::notation::san::San>().unwrap().to_move(&pos).unwrap();
//!     pos.play(m).unwrap();
//!     game.push(&pos);
//! }
//! let named = game.opening().unwrap();
//! assert_eq!((named.eco, named.name), ("B50", "Sicilian Defense: Modern Variations"));
//! assert_eq!(named.ply, 4);
//! assert!(opening::all().len() > 3_000);
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::notation::san::SanPlus;
use crate::position::Position;
use crate::types::Color;
use crate::variant::Variant;

/// The five files of the list, in order (A to E).
const FILES: [&str; 5] = [
    include_str!("a.tsv"),
    include_str!("b.tsv"),
    include_str!("c.tsv"),
    include_str!("d.tsv"),
    include_str!("e.tsv"),
];

/// One named line of the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// Its ECO code (`B50`).
    pub eco: &'static str,
    /// Its name (`Sicilian Defense: Modern Variations`).
    pub name: &'static str,
    /// Its moves, as the list writes them (`1. e4 c5 2. Nf3 d6`).
    pub pgn: &'static str,
    /// How many plies the line has.
    pub plies: usize,
}

/// A game's opening: the named line, and the ply after which its position stood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Named {
    /// ECO code.
    pub eco: &'static str,
    /// Name.
    pub name: &'static str,
    /// The ply of the game (1 = after White's first move) whose position is named.
    pub ply: usize,
    /// The line of the list that names it.
    pub line: &'static Opening,
}

/// The hasher of keys that are hashes already ([`Position::placement_key`]).
#[derive(Debug, Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        // Keys come mixed: one is its own hash.
        self.0 = self.0.rotate_left(5) ^ n;
    }
}

/// A list of named lines, each replayed to the position it names.
#[derive(Debug)]
pub struct Book {
    lines: Vec<Opening>,
    /// The position each line reaches, to the first line of the list that names it.
    by_key: HashMap<u64, usize, BuildHasherDefault<KeyHasher>>,
    /// The longest line: a game's plies after it cannot be named.
    max_plies: usize,
    /// The standard start (a game from elsewhere is not named).
    start: Position,
}

impl Book {
    /// The list compiled into the library (lichess-org/chess-openings, 2026-07-22), read
    /// the first time it is asked for.
    pub fn lichess() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::from_tsv(&FILES))
    }

    /// A book of files in the list's form: tab-separated `eco`, `name`, `pgn`, one header
    /// line each (another version of Lichess's list, for instance). A line whose moves do
    /// not play names nothing.
    pub fn from_tsv(files: &[&'static str]) -> Book {
        let mut rows: Vec<(&'static str, &'static str, &'static str)> = Vec::with_capacity(4_000);
        for file in files {
            for row in file.lines().skip(1) {
                let mut cols = row.split('\t');
                if let (Some(eco), Some(name), Some(pgn)) = (cols.next(), cols.next(), cols.next())
                {
                    rows.push((eco, name, pgn));
                }
            }
        }
        // Lines are replayed in the order of their moves, each from the longest prefix it
        // shares with the line before (most lines extend another): a third of the plies.
        let mut order: Vec<usize> = (0..rows.len()).collect();
        order.sort_by_key(|&i| rows[i].2);
        let start = Position::start(Variant::Chess);
        let mut reached: Vec<Option<(Position, usize)>> = vec![None; rows.len()];
        // The previous line's tokens and the positions after each of them.
        let mut tokens: Vec<&str> = Vec::new();
        let mut positions: Vec<Position> = vec![start.clone()];
        for i in order {
            let line: Vec<&str> = rows[i]
                .2
                .split_ascii_whitespace()
                .filter(|t| !t.ends_with('.'))
                .collect();
            let shared = tokens.iter().zip(&line).take_while(|(a, b)| a == b).count();
            tokens.truncate(shared);
            positions.truncate(shared + 1);
            let mut ok = true;
            for &token in &line[shared..] {
                let pos = positions.last().expect("the start").clone();
                match play_san(pos, token) {
                    Some(next) => {
                        tokens.push(token);
                        positions.push(next);
                    }
                    None => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                reached[i] = Some((positions.last().expect("the start").clone(), line.len()));
            }
        }
        let mut lines = Vec::with_capacity(rows.len());
        let mut by_key = HashMap::with_capacity_and_hasher(rows.len(), Default::default());
        let mut max_plies = 0;
        for ((eco, name, pgn), reached) in rows.into_iter().zip(reached) {
            // A line whose moves do not play names nothing.
            let Some((pos, plies)) = reached else {
                continue;
            };
            max_plies = max_plies.max(plies);
            by_key.entry(pos.placement_key()).or_insert(lines.len());
            lines.push(Opening {
                eco,
                name,
                pgn,
                plies,
            });
        }
        Book {
            lines,
            by_key,
            max_plies,
            start,
        }
    }

    /// Its named lines, in order.
    pub fn lines(&self) -> &[Opening] {
        &self.lines
    }

    /// The line that names `pos`, if any (whatever the variant: the pieces, side,
    /// castling rights and en passant square are compared).
    pub fn of_position(&self, pos: &Position) -> Option<&Opening> {
        self.by_key
            .get(&pos.placement_key())
            .map(|&i| &self.lines[i])
    }
}

fn book() -> &'static Book {
    Book::lichess()
}

/// `pos` after the SAN `token`, if it plays.
fn play_san(mut pos: Position, token: &str) -> Option<Position> {
    let san = SanPlus::from_ascii(token.as_bytes()).ok()?;
    let m = san.san.to_move(&pos).ok()?;
    pos.play(m).ok()?;
    Some(pos)
}

/// The position after a line of the list (`1. e4 c5 2. Nf3`), and its plies.
#[cfg(test)]
fn replay_line(pgn: &str) -> Option<(Position, usize)> {
    let mut pos = Position::start(Variant::Chess);
    let mut plies = 0;
    for token in pgn.split_ascii_whitespace() {
        if token.ends_with('.') {
            continue;
        }
        pos = play_san(pos, token)?;
        plies += 1;
    }
    Some((pos, plies))
}

/// Every named line of the compiled-in list, in its order (A00 to E99).
pub fn all() -> &'static [Opening] {
    book().lines()
}

/// The line of the compiled-in list that names `pos`, if any.
pub fn of_position(pos: &Position) -> Option<&'static Opening> {
    book().of_position(pos)
}

/// Whether Lichess names the openings of `variant`'s games: Standard and Crazyhouse (not
/// Chess960, Horde, Bughouse, Loop or Chessgi).
pub fn names_variant(variant: Variant) -> bool {
    matches!(variant, Variant::Chess | Variant::Crazyhouse)
}

/// The classification of one game, fed the position after each ply.
#[derive(Debug, Clone)]
pub struct Classifier {
    book: &'static Book,
    ply: usize,
    best: Option<Named>,
}

impl Classifier {
    /// A classifier by the compiled-in list for a game that starts at `start`: none unless
    /// the start is the standard one of a variant Lichess names openings in (a game from
    /// another position, or a Chess960 one, has no opening name).
    pub fn new(start: &Position) -> Option<Classifier> {
        Classifier::with_book(start, book())
    }

    /// As [`Classifier::new`], by another list.
    pub fn with_book(start: &Position, book: &'static Book) -> Option<Classifier> {
        let standard = &book.start;
        (names_variant(start.variant())
            && !start.is_chess960()
            && start.board() == standard.board()
            && start.promoted().is_empty()
            && start.turn() == Color::White
            && start.castling_rights() == standard.castling_rights()
            && start.ep_square().is_none()
            && Color::ALL.iter().all(|&c| start.pockets()[c].is_empty()))
        .then_some(Classifier {
            book,
            ply: 0,
            best: None,
        })
    }

    /// The position after the next ply.
    pub fn push(&mut self, pos: &Position) {
        self.ply += 1;
        if self.ply > self.book.max_plies {
            return;
        }
        if let Some(line) = self.book.of_position(pos) {
            self.best = Some(Named {
                eco: line.eco,
                name: line.name,
                ply: self.ply,
                line,
            });
        }
    }

    /// Whether a further ply could still change the name.
    pub fn is_open(&self) -> bool {
        self.ply < self.book.max_plies
    }

    /// The deepest named position so far.
    pub fn opening(&self) -> Option<Named> {
        self.best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_the_list_plays_and_names_its_own_position() {
        let book = Book::lichess();
        let rows: usize = FILES.iter().map(|f| f.lines().count() - 1).sum();
        assert_eq!(book.lines.len(), rows);
        assert_eq!(rows, 3_807);
        let mut own = 0;
        for line in &book.lines {
            let (pos, plies) = replay_line(line.pgn).unwrap();
            assert_eq!(plies, line.plies);
            let named = of_position(&pos).unwrap();
            // A position two lines reach is named by one of them.
            if named == line {
                own += 1;
            } else {
                assert_eq!(
                    replay_line(named.pgn).unwrap().0.placement_key(),
                    pos.placement_key()
                );
            }
        }
        assert!(own > 3_700, "{own}");
    }

    #[test]
    fn the_key_leaves_pockets_out_and_keeps_the_side_and_castling() {
        let with = |fen: &str, variant| {
            Position::from_setup(&fen.parse().unwrap(), crate::variant::Rules::new(variant))
                .unwrap()
        };
        let a = with(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            Variant::Chess,
        );
        let b = with(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR[Nq] b KQkq - 0 1",
            Variant::Crazyhouse,
        );
        assert_eq!(a.placement_key(), b.placement_key());
        let c = with(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
            Variant::Chess,
        );
        let d = with(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b Kkq - 0 1",
            Variant::Chess,
        );
        assert_ne!(a.placement_key(), c.placement_key());
        assert_ne!(a.placement_key(), d.placement_key());
        assert_eq!(of_position(&a).unwrap().name, "King's Pawn Game");
    }
}
