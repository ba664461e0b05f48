//! The `pocketfen` command line: a thin shell over the library (see `src/cli`).

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
