//! SAN and UCI: round trips for every legal move of every variant, and a differential test
//! against shakmaty's SAN.

use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::notation::uci::UciMove;
use pocketfen::{Position, Rules, Setup, Variant};
use shakmaty::fen::Fen;
use shakmaty::variant::{Crazyhouse, Horde};
use shakmaty::{CastlingMode, Chess};

mod common;

use common::Rng;

fn positions(variant: Variant, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(count);
    let start = Position::start(variant);
    let mut pos = start.clone();
    while out.len() < count {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.is_variant_end() || pos.fullmoves() > 120 {
            pos = start.clone();
            continue;
        }
        out.push(pos.clone());
        let m = moves[(rng.next() % moves.len() as u64) as usize];
        pos.play_unchecked(m);
    }
    out
}

fn count() -> usize {
    if cfg!(debug_assertions) { 300 } else { 3000 }
}

#[test]
fn every_legal_move_round_trips_through_san_and_uci() {
    let mut checked = 0;
    for (n, variant) in Variant::ALL.into_iter().enumerate() {
        for pos in positions(variant, count(), 0xbad5eed + n as u64) {
            for m in pos.legal_moves() {
                let san = SanPlus::from_move(&pos, m);
                for style in [DropStyle::Letter, DropStyle::Bare] {
                    let text = san.to_string_with(style);
                    let parsed: SanPlus = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
                    let (back, defects) = parsed
                        .resolve(&pos, true)
                        .unwrap_or_else(|e| panic!("{text} in {pos:?}: {e}"));
                    assert_eq!(back, m, "{text} in {pos:?}");
                    assert!(defects.is_empty(), "{text} in {pos:?}: {defects:?}");
                }
                let uci = m.to_uci(pos.is_chess960()).to_string();
                let back = uci
                    .parse::<UciMove>()
                    .unwrap()
                    .to_move(&pos)
                    .unwrap_or_else(|e| panic!("{uci} in {pos:?}: {e}"));
                assert_eq!(back, m, "{uci}");
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

fn differential<P: shakmaty::Position + shakmaty::FromSetup + Clone>(
    variant: Variant,
    seed: u64,
) -> usize {
    let mut checked = 0;
    for pos in positions(variant, count(), seed) {
        let fen = pos
            .to_setup()
            .display(pocketfen::notation::fen::FenDialect::Bracket)
            .to_string();
        let theirs: P = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        for m in theirs.legal_moves() {
            let their_san = shakmaty::san::SanPlus::from_move(theirs.clone(), m).to_string();
            let their_uci = m.to_uci(CastlingMode::Standard).to_string();
            let ours: SanPlus = their_san
                .parse()
                .unwrap_or_else(|e| panic!("{their_san}: {e}"));
            let (our_move, _) = ours
                .resolve(&pos, false)
                .unwrap_or_else(|e| panic!("{their_san} in {fen}: {e}"));
            assert_eq!(
                our_move.to_uci(false).to_string(),
                their_uci,
                "{their_san} in {fen}"
            );
            assert_eq!(
                SanPlus::from_move(&pos, our_move).to_string_with(DropStyle::Bare),
                their_san,
                "{fen}"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn shakmaty_san_resolves_to_the_same_move_and_prints_the_same() {
    assert!(differential::<Chess>(Variant::Chess, 11) > 1000);
    assert!(differential::<Crazyhouse>(Variant::Crazyhouse, 12) > 1000);
    assert!(differential::<Horde>(Variant::Horde, 13) > 1000);
}

fn pos(fen: &str, variant: Variant) -> Position {
    Position::from_setup(&fen.parse::<Setup>().unwrap(), Rules::new(variant)).unwrap()
}

#[test]
fn drop_mate_forbidden_is_reported_as_such() {
    let mut p = pos("6k1/8/5P2/8/8/8/8/K7[Q] w - - 0 1", Variant::Crazyhouse);
    p.set_drop_mate(false);
    let e = "Q@g7#"
        .parse::<SanPlus>()
        .unwrap()
        .resolve(&p, false)
        .unwrap_err();
    assert_eq!(e.kind, pocketfen::IllegalReason::DropMate);
}
