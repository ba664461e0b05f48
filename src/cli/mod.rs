//! The command line: argument parsing and one function per subcommand; the records it
//! prints are the library's (`pocketfen::record`).

mod args;
mod run;
mod validate;

use std::io;
use std::process::ExitCode;

use clap::Parser;

/// Parses the arguments, runs the command and turns the result into an exit code:
/// 0 all input valid, 1 some input invalid, 2 usage or I/O error. A closed stdout (a
/// broken pipe, as under `| head`) ends the run quietly with 0.
pub fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match run::run(cli) {
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
