//! The command line: argument parsing (`args.rs`) and a file per command: the FEN
//! commands (`fen.rs`), the move commands (`moves.rs`), and the archive commands, which
//! share one run skeleton (`archive.rs`): `validate.rs`, `convert.rs`, `replay.rs`,
//! `select.rs`, `dedupe.rs`, `split.rs` and `merge.rs`. The records they print are the
//! library's (`pocketfen::record`, `pocketfen::run::record`).

mod archive;
mod args;
mod convert;
mod dedupe;
mod export;
mod fen;
mod fix;
mod live;
mod manual;
mod merge;
mod moves;
mod movetext;
mod output;
mod replay;
mod select;
mod split;
mod validate;

use std::io::{self, Write as _};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Parser;

use args::{Cli, Command, FenCommand};

/// Asks glibc's allocator to keep what it frees for the next allocation: blocks under
/// 32 MB from the heap, not each from a mapping of its own, and the heap's top given
/// back to the system only beyond 128 MB. Parquet's readers and writers take and free
/// megabytes for every batch of rows and every page; given back each time, the pages
/// were faulted in again (16,200 page faults reading a 22 MB games table, 4,950 so);
/// kept, `validate` of a games table takes 0.94 × the CPU time and `export --games`
/// 0.96 × (docs/PERFORMANCE.md, twelfth round). Only for a run that writes or reads
/// Parquet ([`touches_parquet`]): reading PGN gains nothing from it, and a game of tens
/// of megabytes would keep the heap it grew through (a 32 MB game's peak 54 MB instead
/// of 39 MB). Left alone when `GLIBC_TUNABLES` sets the allocator's own choices.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        if std::env::var_os("GLIBC_TUNABLES")
            .is_some_and(|t| t.to_string_lossy().contains("glibc.malloc."))
        {
            return;
        }
        // SAFETY: `mallopt` only sets the allocator's parameters; it is called before
        // any thread of the process is started (from `main`, the arguments just read).
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
            libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 20);
        }
    }
}

/// Whether `command` writes Parquet (`export`) or may read it: an input that the run
/// will read as Parquet ([`pocketfen::stream::is_parquet_file`], which never opens a
/// FIFO or a pipe), or a directory, which may hold some.
fn touches_parquet(command: &Command) -> bool {
    use args::PgnCommand;
    let files = match command {
        Command::Export(_) => return true,
        Command::Validate(a) => &a.games.files,
        Command::Replay(a) => &a.games.files,
        Command::Pgn(pgn) => match pgn.as_ref() {
            PgnCommand::Convert(a) => &a.games.files,
            PgnCommand::Select(a) => &a.input.files,
            PgnCommand::Dedupe(a) => &a.input.files,
            PgnCommand::Split(a) => &a.input.files,
            PgnCommand::Fix(a) => &a.input.files,
        },
        _ => return false,
    };
    files
        .iter()
        .any(|path| path.is_dir() || pocketfen::stream::is_parquet_file(path))
}

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
                && let Some((n, fen)) = split_fen(&args)
            {
                eprintln!("pocketfen: {}", split_fen_error(n, &fen));
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
    if let Some((n, fen)) = split_fen(&args) {
        eprintln!("pocketfen: {}", split_fen_error(n, &fen));
        return ExitCode::from(2);
    }
    if touches_parquet(&cli.command) {
        keep_freed_memory();
    }
    let result = run(cli);
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
            // A JSON record's write (serde_json keeps the I/O error's kind).
            || c.downcast_ref::<serde_json::Error>()
                .is_some_and(|j| j.io_error_kind() == Some(io::ErrorKind::BrokenPipe))
    })
}

/// Runs the command; `Ok(false)` when some input was invalid.
fn run(cli: Cli) -> Result<bool> {
    match cli.command {
        Command::Fen(FenCommand::Convert(args)) => fen::convert(&args),
        Command::Fen(FenCommand::Check(args)) => fen::check(&args),
        Command::Fen(FenCommand::Show(args)) => fen::show(&args),
        Command::Fen(FenCommand::Url(args)) => fen::url(&args),
        Command::Perft(args) => moves::perft(&args),
        Command::Moves(args) => moves::moves(&args),
        Command::Legal(args) => moves::legal(&args),
        Command::Opening(args) => moves::opening(&args),
        Command::Validate(args) => validate::validate(&args),
        Command::Replay(args) => replay::replay(&args),
        Command::Export(args) => export::export(&args),
        Command::Pgn(pgn) => match *pgn {
            args::PgnCommand::Convert(args) => convert::convert(&args),
            args::PgnCommand::Select(args) => select::select(&args),
            args::PgnCommand::Dedupe(args) => dedupe::dedupe(&args),
            args::PgnCommand::Split(args) => split::split(&args),
            args::PgnCommand::Fix(args) => fix::fix(&args),
        },
        Command::Merge(args) => merge::merge(&args),
        Command::Completions(args) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            // Written whole first: clap_complete panics when its writer fails (a
            // closed pipe, `| head`), and a failed write here is an error like others.
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut cmd, "pocketfen", &mut script);
            let mut out = io::stdout().lock();
            out.write_all(&script)
                .and_then(|()| out.flush())
                .context("writing the completions")?;
            Ok(true)
        }
        Command::Manpage(args) => {
            match &args.dir {
                None => manual::main_page(&mut io::stdout().lock())
                    .context("writing the manual page")?,
                Some(dir) => {
                    let written = manual::write_all(dir).with_context(|| {
                        format!("writing the manual pages to {}", dir.display())
                    })?;
                    for path in written {
                        println!("{}", path.display());
                    }
                }
            }
            Ok(true)
        }
    }
}

/// The FEN a shell split at its spaces, when `args` look like one (a board field with
/// its `/`s, then a side to move `w` or `b`): how many arguments it spans, and the
/// arguments joined again.
pub(super) fn split_fen(args: &[String]) -> Option<(usize, String)> {
    let start = args.windows(2).position(|w| {
        w[0].matches('/').count() >= 7
            && !w[0].contains(' ')
            && matches!(w[1].as_str(), "w" | "b" | "W" | "B")
    })?;
    // The fields after the side to move: castling, en passant, the clocks, and
    // Chess.com's pocket and promoted squares.
    let field = |a: &str| {
        !a.is_empty()
            && (a == "-"
                || a.bytes().all(|b| b.is_ascii_digit())
                || a.bytes().all(|b| b"KQkqABCDEFGHabcdefgh".contains(&b))
                || a.bytes().all(|b| b"PNBRQKpnbrqk".contains(&b))
                || (a.len().is_multiple_of(2)
                    && a.as_bytes()
                        .chunks(2)
                        .all(|c| (b'a'..=b'h').contains(&c[0]) && (b'1'..=b'8').contains(&c[1]))))
    };
    let n = 2 + args[start + 2..]
        .iter()
        .take(6)
        .take_while(|a| field(a))
        .count();
    Some((n, args[start..start + n].join(" ")))
}

/// The error of a FEN given unquoted: one message, that says to quote it.
pub(super) fn split_fen_error(n: usize, fen: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "the FEN is given as {n} arguments: the shell splits an unquoted FEN at its spaces; quote it, as in '{fen}'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(args: &[&str]) -> Command {
        Cli::try_parse_from(std::iter::once("pocketfen").chain(args.iter().copied()))
            .unwrap()
            .command
    }

    #[test]
    fn the_allocator_is_asked_to_keep_memory_only_for_parquet() {
        let dir = tempfile::tempdir().unwrap();
        let table = dir.path().join("games.bin");
        std::fs::write(&table, b"PAR1 and the rest").unwrap();
        let pgn = dir.path().join("games.parquet");
        std::fs::write(&pgn, b"[Event \"?\"]\n\n1. e4 *\n").unwrap();
        let (table, pgn) = (table.to_str().unwrap(), pgn.to_str().unwrap());
        let folder = dir.path().to_str().unwrap();
        // Written: export, whatever it reads.
        assert!(touches_parquet(&command(&[
            "export",
            "--games",
            "g.parquet",
            pgn
        ])));
        // Read: a file that starts as Parquet does (by its bytes, not its name), or a
        // directory, in every archive command.
        for args in [
            vec!["validate", table],
            vec!["validate", pgn, table],
            vec!["replay", table],
            vec!["pgn", "convert", "--to", "xboard", table],
            vec!["pgn", "select", "--tag", "Event=x", table],
            vec!["pgn", "dedupe", table],
            vec!["pgn", "split", "--every", "2", "-o", "part-{n}.pgn", table],
            vec!["pgn", "fix", table],
            vec!["validate", folder],
        ] {
            assert!(touches_parquet(&command(&args)), "{args:?}");
        }
        for args in [
            vec!["validate", pgn],
            vec!["validate", "-"],
            vec!["validate"],
            vec!["validate", "no-such-file"],
            vec!["pgn", "select", "--tag", "Event=x", pgn],
            vec!["perft", "2"],
        ] {
            assert!(!touches_parquet(&command(&args)), "{args:?}");
        }
    }

    /// A FIFO is never opened to be looked at: its first bytes would be lost to the run,
    /// and its writer may go when this reader closes (the run then waits for another).
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_not_read_to_tell_parquet() {
        use std::io::{Read, Write};
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe.parquet");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // A writer offers Parquet's first bytes: looked at, the FIFO would say Parquet.
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(fifo) {
                    let _ = f.write_all(b"PAR1 and the rest");
                }
            })
        };
        let path = fifo.to_str().unwrap();
        assert!(!touches_parquet(&command(&["validate", path])));
        // All its bytes are still there for the run.
        let mut bytes = Vec::new();
        std::fs::File::open(&fifo)
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        writer.join().unwrap();
        assert_eq!(bytes, b"PAR1 and the rest");
    }
}
