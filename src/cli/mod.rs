//! The command line: argument parsing and one function per subcommand; the records it
//! prints are the library's (`pocketfen::record`).

mod archive;
mod args;
mod by_tag;
mod convert;
mod dedupe;
mod live;
mod manual;
mod merge;
mod movetext;
mod output;
mod replay;
mod run;
mod select;
mod split;
mod validate;

use std::io;
use std::process::ExitCode;

use clap::Parser;

/// Parses the arguments, runs the command and turns the result into an exit code:
/// 0 all input valid, 1 some input invalid, 2 usage or I/O error, 130 or 143 after
/// SIGINT or SIGTERM. A closed stdout (a
/// broken pipe, as under `| head`) ends the run quietly with 0.
pub fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // An unquoted FEN, split by the shell: one error that says to quote it.
            let args: Vec<String> = std::env::args_os()
                .skip(1)
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            if e.use_stderr()
                && let Some((n, fen)) = run::split_fen(&args)
            {
                eprintln!("pocketfen: {}", run::split_fen_error(n, &fen));
                return ExitCode::from(2);
            }
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    // An unquoted FEN that the arguments took anyway (`moves --fen` takes its fields as
    // moves): the same one error.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if let Some((n, fen)) = run::split_fen(&args) {
        eprintln!("pocketfen: {}", run::split_fen_error(n, &fen));
        return ExitCode::from(2);
    }
    let result = run::run(cli);
    // A run stopped by SIGINT or SIGTERM ends with 128 + the signal, as shells report
    // it, after printing what it found.
    if let Some(signal) = live::signal() {
        if let Err(e) = &result
            && !is_broken_pipe(e)
        {
            eprintln!("pocketfen: {e:#}");
        }
        return ExitCode::from(u8::try_from(128 + signal).unwrap_or(130));
    }
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pocketfen: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
