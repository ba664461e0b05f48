//! perft speed against shakmaty, in one process: `cargo bench --bench perft`.
//!
//! Each row runs pocketfen's and shakmaty's perft on the same position, alternately,
//! `ROUNDS` times each, keeps the fastest run of each (the machine is noisy) and prints
//! nodes per second and the ratio pocketfen / shakmaty. Node counts are asserted equal.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pocketfen::{Position, Rules, Setup, Variant};
use shakmaty::fen::Fen;
use shakmaty::variant::{Crazyhouse, Horde};
use shakmaty::{CastlingMode, Chess};

const ROUNDS: usize = 5;

fn ours(fen: &str, variant: Variant) -> Position {
    Position::from_setup(&fen.parse::<Setup>().unwrap(), Rules::new(variant)).unwrap()
}

fn theirs<P: shakmaty::FromSetup + shakmaty::Position>(fen: &str) -> P {
    fen.parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Chess960)
        .unwrap()
}

fn best(f: &mut dyn FnMut() -> u64) -> (u64, Duration) {
    let start = Instant::now();
    let n = black_box(f());
    (n, start.elapsed())
}

fn row<P: shakmaty::FromSetup + shakmaty::Position + Clone>(
    name: &str,
    fen: &str,
    variant: Variant,
    depth: u32,
) {
    let pos = ours(fen, variant);
    let peer: P = theirs(fen);
    let (mut t_ours, mut t_theirs) = (Duration::MAX, Duration::MAX);
    let mut nodes = 0;
    for _ in 0..ROUNDS {
        let (a, ta) = best(&mut || pocketfen::perft::perft(&pos, depth));
        let (b, tb) = best(&mut || shakmaty::perft(&peer, depth));
        assert_eq!(a, b, "{name}: node counts differ");
        nodes = a;
        t_ours = t_ours.min(ta);
        t_theirs = t_theirs.min(tb);
    }
    let nps = |t: Duration| nodes as f64 / t.as_secs_f64() / 1e6;
    println!(
        "| {name:<34} | {depth} | {nodes:>11} | {:>8.1} | {:>8.1} | {:>5.2} |",
        nps(t_ours),
        nps(t_theirs),
        t_theirs.as_secs_f64() / t_ours.as_secs_f64()
    );
}

fn main() {
    // `cargo test` also builds and runs benches with `--bench`-less harness flags; do the
    // work only under `cargo bench`.
    if std::env::args().any(|a| a == "--test" || a == "--list") {
        return;
    }
    println!("| position | depth | nodes | pocketfen Mnodes/s | shakmaty Mnodes/s | ratio |");
    println!("| --- | --- | --- | --- | --- | --- |");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    row::<Chess>("chess start", start, Variant::Chess, 5);
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    row::<Chess>("kiwipete", kiwipete, Variant::Chess, 4);
    let zh_start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1";
    row::<Crazyhouse>("crazyhouse start", zh_start, Variant::Crazyhouse, 5);
    let zh_middle = "r2qk2r/ppp2ppp/2n5/2b5/2B5/5N2/PPP2PPP/R2QK2R[NBPPnbpp] w KQkq - 0 10";
    row::<Crazyhouse>(
        "crazyhouse middlegame, pockets NBPPnbpp",
        zh_middle,
        Variant::Crazyhouse,
        4,
    );
    let horde = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1";
    row::<Horde>("horde start", horde, Variant::Horde, 6);
}
