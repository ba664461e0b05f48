//! Telling duplicates: the key `pgn dedupe` compares, built from a game's start and main
//! line (and with [`DedupeBy::MovesAndTags`] its seven-tag roster) in one walk.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::ControlFlow;
use std::str::FromStr;

use super::header::{Boards, MoveAt, Options, unescape};
use super::problem::GameReport;
use super::validate::visit_game;
use super::visitor::Visitor;
use crate::moves::Move;
use crate::name::ParseValueError;
use crate::notation::san::SanPlus;
use crate::position::{Position, Severity};
use crate::stream::RawGame;

/// What `pgn dedupe` compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DedupeBy {
    /// The start position and the main line.
    #[default]
    Moves,
    /// Those, and the seven-tag roster.
    MovesAndTags,
}

impl FromStr for DedupeBy {
    type Err = ParseValueError;
    fn from_str(s: &str) -> Result<DedupeBy, ParseValueError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "moves" => Ok(DedupeBy::Moves),
            "moves-and-tags" => Ok(DedupeBy::MovesAndTags),
            _ => Err(ParseValueError::new(
                "dedupe key",
                format!("`{s}`: expected moves or moves-and-tags"),
            )),
        }
    }
}

impl fmt::Display for DedupeBy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DedupeBy::Moves => "moves",
            DedupeBy::MovesAndTags => "moves-and-tags",
        })
    }
}

/// A 128-bit key built one word at a time: each word is XORed in, the state multiplied
/// by an odd 128-bit constant (a bijection) and its high half folded into its low half,
/// so that every bit of every word reaches every bit of the key. Words are a packed
/// move each (one step per move), or eight bytes of other data.
struct Key128(u128);

impl Key128 {
    const MUL: u128 = 0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835;

    fn new(domain: u64) -> Key128 {
        let mut k = Key128(0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
        k.word(domain);
        k
    }

    #[inline]
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ u128::from(w)).wrapping_mul(Key128::MUL);
        self.0 ^= self.0 >> 67;
    }
}

impl Hasher for Key128 {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().expect("eight bytes")));
        }
        let rest = chunks.remainder();
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        // The length tells `ab` + `c` from `a` + `bc`.
        self.word(u64::from_le_bytes(last) ^ ((rest.len() as u64) << 60));
    }

    fn finish(&self) -> u64 {
        self.0 as u64
    }
}

/// A move as one word: its kind, squares and roles (what tells it from the other moves
/// of its position).
fn packed(m: Move) -> u64 {
    let sq = |s: crate::types::Square| s.index() as u64;
    let role = |r: crate::types::Role| r as u64 + 1;
    match m {
        Move::Normal {
            role: r,
            from,
            to,
            promotion,
            ..
        } => 1 | sq(from) << 4 | sq(to) << 10 | role(r) << 16 | promotion.map_or(0, role) << 20,
        Move::EnPassant { from, to } => 2 | sq(from) << 4 | sq(to) << 10,
        Move::Castle { king, rook } => 3 | sq(king) << 4 | sq(rook) << 10,
        Move::Put { role: r, to } => 4 | sq(to) << 10 | role(r) << 16,
    }
}

/// The seven-tag roster, in its order, then a bughouse match's four players (it has no
/// `White` and `Black`: two matches of other players were one).
const ROSTER: [&str; 11] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "WhiteA", "BlackA", "WhiteB",
    "BlackB",
];

/// Hashes a game's start and main line (and roster).
struct Keyer {
    hash: Key128,
    by: DedupeBy,
    roster: [Option<String>; 11],
}

impl<'t> Visitor<'t> for Keyer {
    fn tag(&mut self, name: &'t str, value: &'t str) -> ControlFlow<()> {
        if self.by == DedupeBy::MovesAndTags
            && let Some(i) = ROSTER.iter().position(|r| *r == name)
            && self.roster[i].is_none()
        {
            self.roster[i] = Some(unescape(value).into_owned());
        }
        ControlFlow::Continue(())
    }

    fn start(&mut self, boards: Boards<'_>) -> ControlFlow<()> {
        let mut position = |p: &Position| {
            let s = p.to_setup();
            (p.variant() as u8).hash(&mut self.hash);
            s.board.hash(&mut self.hash);
            s.pockets.hash(&mut self.hash);
            s.turn.hash(&mut self.hash);
            s.castling.hash(&mut self.hash);
            s.ep_square.hash(&mut self.hash);
        };
        match boards {
            Boards::One(p) => position(p),
            Boards::Two(m) => {
                position(m.board(crate::bughouse::BoardId::A));
                position(m.board(crate::bughouse::BoardId::B));
            }
        }
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &Position, _: &SanPlus, m: Move, at: MoveAt) -> ControlFlow<()> {
        if at.is_mainline() {
            let board = match at.board {
                None => 0,
                Some(b) => 1 + b.index() as u64,
            };
            self.hash.word(packed(m) | board << 30);
        }
        ControlFlow::Continue(())
    }
}

/// A game's key for `pgn dedupe`: a 128-bit hash of its variant, start position and main
/// line (with `MovesAndTags`, of its seven-tag roster too). A game that does not replay
/// is keyed by its bytes instead: only an identical copy duplicates it.
pub fn game_key(game: &RawGame, by: DedupeBy, opts: &Options) -> (u128, GameReport) {
    let mut k = Keyer {
        hash: Key128::new(1),
        by,
        roster: Default::default(),
    };
    let opts = Options {
        variations: false,
        ..*opts
    };
    let report = visit_game(game, &opts, &mut k);
    if report
        .problems
        .iter()
        .any(|p| p.severity == Severity::Error)
    {
        let mut h = Key128::new(2);
        h.write(&game.bytes);
        return (h.0, report);
    }
    for value in &k.roster {
        value.hash(&mut k.hash);
    }
    (k.hash.0, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(text: &str) -> RawGame {
        RawGame::new(text.as_bytes().to_vec())
    }

    #[test]
    fn keys_tell_games_by_start_and_main_line() {
        let opts = Options::default();
        let key = |t: &str, by| game_key(&game(t), by, &opts).0;
        let a = "[Event \"a\"]\n\n1. e4 {x} e5 (1... c5) 2. Nf3 $1 *\n";
        let b = "[Event \"b\"]\n\n1.e4 e5 2.Ngf3 1-0\n";
        assert_eq!(key(a, DedupeBy::Moves), key(b, DedupeBy::Moves));
        assert_ne!(
            key(a, DedupeBy::MovesAndTags),
            key(b, DedupeBy::MovesAndTags)
        );
        let c = "[Event \"a\"]\n\n1. e4 e5 *\n";
        assert_ne!(key(a, DedupeBy::Moves), key(c, DedupeBy::Moves));
        let zh = "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 *\n";
        assert_ne!(key(a, DedupeBy::Moves), key(zh, DedupeBy::Moves));
        // The start is the position: its clocks do not count.
        let fen = "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2\"]\n\n1. e4 e5 2. Nf3 *\n";
        assert_eq!(key(a, DedupeBy::Moves), key(fen, DedupeBy::Moves));
        let later = "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n\n1... e5 2. Nf3 *\n";
        assert_ne!(key(a, DedupeBy::Moves), key(later, DedupeBy::Moves));
        let broken = "[Event \"a\"]\n\n1. e4 e5 2. Qh6 *\n";
        assert_eq!(key(broken, DedupeBy::Moves), key(broken, DedupeBy::Moves));
        assert_ne!(
            key(broken, DedupeBy::Moves),
            key("[Event \"b\"]\n\n1. e4 e5 2. Qh6 *\n", DedupeBy::Moves)
        );
    }

    /// Two bughouse matches of other players, the same moves and roster (no `White` or
    /// `Black` in a match): not duplicates by moves and tags (they were: two aborted FICS
    /// matches of the same day, one lost).
    #[test]
    fn a_bughouse_matchs_players_are_part_of_its_tags_key() {
        let opts = Options::default();
        let key = |t: &str, by| game_key(&game(t), by, &opts).0;
        let m = |a: &str, b: &str| {
            format!(
                "[Event \"FICS rated bughouse match\"]\n[Date \"2022.01.03\"]\n[WhiteA \"{a}\"][BlackA \"x\"]\n[WhiteB \"{b}\"][BlackB \"y\"]\n[Result \"*\"]\n\n1A. e4 *\n"
            )
        };
        let (one, other) = (m("alice", "carol"), m("erin", "grace"));
        assert_eq!(key(&one, DedupeBy::Moves), key(&other, DedupeBy::Moves));
        assert_ne!(
            key(&one, DedupeBy::MovesAndTags),
            key(&other, DedupeBy::MovesAndTags)
        );
        assert_eq!(
            key(&one, DedupeBy::MovesAndTags),
            key(&m("alice", "carol"), DedupeBy::MovesAndTags)
        );
    }
}
