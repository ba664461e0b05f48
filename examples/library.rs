//! pocketfen as a library, written as a program that depends on it would be:
//! `cargo run --example library` (from the project root, for the bundled sample).

use pocketfen::game::{Options, validate_str};
use pocketfen::notation::fen::{self, FenDialect};
use pocketfen::notation::mixed::resolve_move;
use pocketfen::run::record::RunRecord;
use pocketfen::run::{Run, RunOptions, Task};
use pocketfen::stream::Source;
use pocketfen::{Position, Variant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A Lichess crazyhouse FEN in Chess.com's dialect.
    let lichess = "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/2N2N2/PPPP1PPP/R1BQK2R/Pp w KQkq - 4 5";
    let parsed = fen::parse(lichess, None)?;
    println!("{}", parsed.fen.display(FenDialect::Chesscom));

    // Play a drop and print the position, in Lichess's dialect.
    let mut pos = Position::from_fen(
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/8/PPPP1PPP/RNBQKB1R/N w KQkq - 0 3",
        Some(Variant::Crazyhouse.into()),
    )?;
    let (m, _) = resolve_move("N@f3", &pos, false)?;
    pos.play(m)?;
    println!("{}", pos.to_setup().display(FenDialect::Lichess));

    // Validate a PGN string and list its problems.
    let pgn = "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 Q@e4 *\n";
    for report in validate_str(pgn, &Options::default()) {
        for p in &report.problems {
            println!("{}", p.display_in("string", report.number));
        }
    }

    // Validate a whole archive (compressed, on every core): its records in input order.
    let sample = Source::path("samples/lichess_zh_2022-2025_bots75.pgn.zst");
    for record in Run::new(
        vec![sample],
        Task::Validate { all: false },
        RunOptions::default(),
    ) {
        match record {
            RunRecord::Game(game) => {
                println!("game {}: {:?}", game.report.number, game.report.problems)
            }
            RunRecord::Summary(s) => println!(
                "{}: {} games, {} plies",
                s.file, s.totals.games, s.totals.plies
            ),
            _ => {}
        }
    }
    Ok(())
}
