//! Differential test against shakmaty (a dev-dependency): random playouts from the start
//! positions and from the perft suites' positions, comparing after every ply the full
//! legal-move set (as UCI), check, checkmate, stalemate, variant end, and the position
//! (board, pockets, promoted marks, side, castling, en passant square, clocks).
//!
//! The half-move clock is compared only without drops: pocketfen resets it on pawn drops
//!, shakmaty does not. Castling is compared for the pocket variants and Horde;
//! in chess, whose suites include Chess960 starts, the two write the same rights with
//! other letters (`KQkq` against `HAha`), so the rights are compared as legal moves. Debug builds play a few thousand positions per variant; release builds
//! (`cargo test --release --test differential`, run by `.ci/run`) at least 200 000.
//! A failure prints the seed, the ply and the position.

use std::collections::BTreeSet;
use std::fs;

use pocketfen::notation::fen::FenDialect;
use pocketfen::{Move, Position, Rules, Setup, SetupProblemKind, Variant};
use shakmaty::fen::Fen;
use shakmaty::variant::{Crazyhouse, Horde};
use shakmaty::{CastlingMode, Chess, EnPassantMode};

mod common;

use common::Rng;

fn our_uci(pos: &Position) -> BTreeSet<String> {
    pos.legal_moves()
        .iter()
        .map(|m| m.to_uci(true).to_string())
        .collect()
}

fn their_uci<P: shakmaty::Position>(pos: &P) -> BTreeSet<String> {
    pos.legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Chess960).to_string())
        .collect()
}

/// FEN fields compared: board (with pocket and `~`), side, castling (unless `castling`
/// is false), the en passant square (both write it only when a capture is legal), the
/// half-move clock (when `halfmoves`) and the full-move number.
fn comparable(fen: &str, castling: bool, halfmoves: bool) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    format!(
        "{} {} {} {} {} {}",
        f[0],
        f[1],
        if castling { f[2] } else { "?" },
        f[3],
        if halfmoves { f[4] } else { "?" },
        f[5]
    )
}

fn their_fen<P: shakmaty::Position>(pos: &P) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Our FEN in shakmaty's spelling: brackets, `[]` when empty, pockets P N B R Q (our
/// Xboard dialect's order; the bracket dialect writes python-chess's Q R B N P).
fn our_fen(pos: &Position) -> String {
    pos.to_setup()
        .display(FenDialect::Xboard)
        .to_string()
        .replace("[-]", "[]")
}

/// Plays random games from `start` until `budget` positions have been compared.
fn playouts<P>(variant: Variant, starts: &[String], budget: usize, seed: u64) -> usize
where
    P: shakmaty::Position + shakmaty::FromSetup + Clone,
{
    let mut rng = Rng(seed);
    let mut compared = 0;
    let mut game = 0;
    while compared < budget {
        let fen = &starts[game % starts.len()];
        game += 1;
        let setup: Setup = fen.parse().expect("fen");
        let mut ours = Position::from_setup(&setup, Rules::new(variant))
            .or_else(|e| e.ignore(&[SetupProblemKind::ImpossibleCheck]))
            .expect("legal start");
        let mut theirs: P = fen
            .parse::<Fen>()
            .expect("shakmaty fen")
            .into_position(CastlingMode::Chess960)
            .or_else(|e| e.ignore_impossible_check())
            .expect("shakmaty position");
        for ply in 0..300 {
            let ctx = || {
                format!(
                    "seed {seed}, game {game}, ply {ply}, from {fen}: {}",
                    our_fen(&ours)
                )
            };
            compared += 1;
            let (a, b) = (our_uci(&ours), their_uci(&theirs));
            assert_eq!(a, b, "legal moves differ: {}", ctx());
            assert_eq!(ours.is_check(), theirs.is_check(), "check: {}", ctx());
            assert_eq!(
                ours.is_checkmate(),
                theirs.is_checkmate(),
                "checkmate: {}",
                ctx()
            );
            assert_eq!(
                ours.is_stalemate(),
                theirs.is_stalemate(),
                "stalemate: {}",
                ctx()
            );
            assert_eq!(
                ours.is_variant_end(),
                theirs.is_variant_end(),
                "variant end: {}",
                ctx()
            );
            assert_eq!(ours.count_legal(), a.len() as u64, "count: {}", ctx());
            let castling = variant != Variant::Chess;
            let halfmoves = !variant.has_drops();
            assert_eq!(
                comparable(&our_fen(&ours), castling, halfmoves),
                comparable(&their_fen(&theirs), castling, halfmoves),
                "position: {}",
                ctx()
            );
            if a.is_empty() || ours.is_variant_end() {
                let outcome = ours.outcome().expect("game over");
                if ours.is_variant_end() {
                    assert_eq!(outcome.result(), "0-1");
                }
                break;
            }
            let moves = ours.legal_moves();
            let m: Move = moves[(rng.next() % moves.len() as u64) as usize];
            let uci = m.to_uci(true).to_string();
            let their_move = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("uci")
                .to_move(&theirs)
                .unwrap_or_else(|e| panic!("{uci} rejected by shakmaty ({e}): {}", ctx()));
            ours.play_unchecked(m);
            theirs.play_unchecked(their_move);
        }
    }
    compared
}

fn budget() -> usize {
    if cfg!(debug_assertions) {
        4_000
    } else {
        300_000
    }
}

fn suite_fens(file: &str) -> Vec<String> {
    fs::read_to_string(format!("grammar-tests/perft/{file}"))
        .expect("suite")
        .lines()
        .filter_map(|l| l.strip_prefix("epd ").map(str::to_owned))
        .collect()
}

#[test]
fn chess_against_shakmaty() {
    let mut starts = [Setup::standard()]
        .iter()
        .map(|s| s.display(FenDialect::Bracket).to_string())
        .collect::<Vec<_>>();
    starts.extend(
        suite_fens("chess-tricky.perft")
            .into_iter()
            .filter(|f| !f.starts_with("kBQQ")),
    );
    starts.extend(suite_fens("chess960.perft").into_iter().step_by(40));
    assert!(playouts::<Chess>(Variant::Chess, &starts, budget(), 0x5eed_0001) >= budget());
}

#[test]
fn crazyhouse_against_shakmaty() {
    let mut starts = vec![
        Setup::crazyhouse_start()
            .display(FenDialect::Bracket)
            .to_string(),
    ];
    starts.extend(suite_fens("crazyhouse.perft"));
    starts.extend(suite_fens("crazyhouse-python-chess.perft"));
    assert!(
        playouts::<Crazyhouse>(Variant::Crazyhouse, &starts, budget(), 0x5eed_0002) >= budget()
    );
}

#[test]
fn horde_against_shakmaty() {
    let mut starts = vec![
        Setup::horde_start()
            .display(FenDialect::Bracket)
            .to_string(),
    ];
    starts.extend(suite_fens("horde.perft"));
    assert!(playouts::<Horde>(Variant::Horde, &starts, budget(), 0x5eed_0003) >= budget());
}
