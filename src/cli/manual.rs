//! The manual pages: one per command and subcommand (`pocketfen(1)`,
//! `pocketfen-validate(1)`, `pocketfen-fen-convert(1)`…), generated from the argument
//! definitions, with the EXIT STATUS and EXAMPLES sections clap does not know.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::CommandFactory;

use super::args::Cli;

/// What each exit code means, for the commands that judge their input.
const JUDGING_EXIT: &[(&str, &str)] = &[
    ("0", "All input was read and is valid."),
    (
        "1",
        "Some input is invalid (an illegal move, a FEN that does not parse, a warning under \
         --strict); the rest was still read and reported.",
    ),
    (
        "2",
        "A usage error (a bad option or value, an output that is an input) or an I/O error \
         (an input that cannot be opened or read whole); what could be read was reported.",
    ),
    (
        "130, 143",
        "Interrupted by SIGINT (Ctrl-C) or SIGTERM: the records found before it are printed, \
         and the summary says interrupted. A second signal quits at once.",
    ),
];

/// The exit codes of `pgn select`, as grep's.
const SELECT_EXIT: &[(&str, &str)] = &[
    ("0", "Some game was chosen."),
    ("1", "No game was chosen."),
    ("2", "A usage error or an I/O error."),
    (
        "130, 143",
        "Interrupted by SIGINT or SIGTERM (the outputs are left as they were).",
    ),
];

/// The exit codes of `export`: invalid games are rows, not failures.
const EXPORT_EXIT: &[(&str, &str)] = &[
    (
        "0",
        "The tables were written (games that are not valid are rows, with valid false).",
    ),
    (
        "2",
        "A usage error, an I/O error (the tables are removed), or games over \
         --max-game-bytes, which are in no table.",
    ),
    (
        "130, 143",
        "Interrupted by SIGINT or SIGTERM: the tables end with the games read before it, \
         and are kept.",
    ),
];

/// The exit codes of the commands that only print.
const PRINTING_EXIT: &[(&str, &str)] = &[
    ("0", "Done."),
    (
        "1",
        "The position given is invalid (a FEN that does not parse or is illegal).",
    ),
    ("2", "A usage error or an I/O error."),
];

/// Examples per command (its display name): what it does, and the command line.
/// The examples of each command, by its display names.
type Examples = &'static [(&'static str, &'static str)];

const EXAMPLES: &[(&[&str], Examples)] = &[
    (
        &["pocketfen"],
        &[
            (
                "Validate a Lichess database dump, on all cores:",
                "pocketfen validate lichess_db_crazyhouse_rated_2025-01.pgn.zst",
            ),
            (
                "Convert a Chess.com FEN to Lichess's dialect:",
                "pocketfen fen convert --to lichess 'r1b1k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w KQkq - 0 12 NPbp'",
            ),
            (
                "Write every manual page where man finds them for a cargo-installed pocketfen:",
                "pocketfen manpage ~/.cargo/share/man/man1",
            ),
        ],
    ),
    (
        &["pocketfen-validate"],
        &[
            (
                "Validate a compressed archive, with an HTML report of its problems:",
                "pocketfen validate --html report.html games.pgn.zst",
            ),
            (
                "Every archive under a directory, as JSON Lines, without a progress line:",
                "pocketfen validate -q --json archives/ > problems.jsonl",
            ),
            (
                "Part 3 of 8 of a pzstd file (on another machine), then join the parts:",
                "pocketfen validate --json --split 3/8 big.pgn.zst > part3.jsonl\n\
                 pocketfen merge part1.jsonl part2.jsonl ... part8.jsonl",
            ),
        ],
    ),
    (
        &["pocketfen-replay"],
        &[
            (
                "The FEN after every ply, in Xboard's dialect:",
                "pocketfen replay --dialect xboard game.pgn",
            ),
            (
                "The UCI moves of every game, as JSON Lines:",
                "pocketfen replay --emit uci --json games.pgn",
            ),
        ],
    ),
    (
        &["pocketfen-export"],
        &[
            (
                "The games and plies of a Lichess dump as Parquet tables, then a query:",
                "pocketfen export --games games.parquet --plies plies.parquet lichess_db_crazyhouse_rated_2025-01.pgn.zst\n\
                 duckdb -c \"SELECT ending, count(*) FROM 'games.parquet' GROUP BY ALL\"",
            ),
            (
                "The games table by month, in Lichess's folder layout:",
                "pocketfen export -o table/ archives/",
            ),
            (
                "Validate Lichess's own Parquet files:",
                "pocketfen validate --variant crazyhouse data/year=2024/",
            ),
        ],
    ),
    (
        &["pocketfen-pgn", "pocketfen-pgn-convert"],
        &[
            (
                "Re-export a Lichess archive for Chess.com, compressed:",
                "pocketfen pgn convert --to chesscom -o out.pgn.zst lichess.pgn.zst",
            ),
            (
                "Keep the games that do not replay, unchanged:",
                "pocketfen pgn convert --to xboard --keep-broken games.pgn > xboard.pgn",
            ),
        ],
    ),
    (
        &["pocketfen-fen", "pocketfen-fen-convert"],
        &[
            (
                "Convert a file of FENs, one per line, to Xboard's dialect:",
                "pocketfen fen convert --to xboard - < positions.txt",
            ),
            (
                "Read a Lichess analysis URL:",
                "pocketfen fen convert --to bracket 'https://lichess.org/analysis/crazyhouse/8/8/8/4k3/8/8/8/4K3/Pp_w_-_-_0_1'",
            ),
        ],
    ),
    (
        &["pocketfen-fen-check"],
        &[(
            "Check positions, as JSON Lines:",
            "pocketfen fen check --json - < positions.txt",
        )],
    ),
    (
        &["pocketfen-fen-show"],
        &[
            (
                "Draw a position in the terminal:",
                "pocketfen fen show 'r3k2r/8/8/8/8/8/8/R3K2R[Qq] w KQkq - 0 1'",
            ),
            (
                "Draw it as SVG:",
                "pocketfen fen show --svg 'r3k2r/8/8/8/8/8/8/R3K2R[Qq] w KQkq - 0 1' > board.svg",
            ),
        ],
    ),
    (
        &["pocketfen-fen-url"],
        &[(
            "The Lichess analysis board of a crazyhouse position:",
            "pocketfen fen url --site lichess 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1'",
        )],
    ),
    (
        &["pocketfen-perft"],
        &[
            (
                "Count crazyhouse's start position to depth 4:",
                "pocketfen perft 4 --variant crazyhouse",
            ),
            (
                "Divide, from a FEN:",
                "pocketfen perft 3 --divide --fen 'r3k2r/8/8/8/8/8/8/R3K2R[Qq] w KQkq - 0 1'",
            ),
        ],
    ),
    (
        &["pocketfen-moves"],
        &[
            (
                "Play pasted movetext, and print the moves in UCI:",
                "pocketfen moves --to uci '1. e4 e5 2. Nf3 {a comment} Nc6'",
            ),
            (
                "Stream moves from a file:",
                "pocketfen moves --variant crazyhouse < moves.txt",
            ),
        ],
    ),
    (
        &["pocketfen-legal"],
        &[(
            "Every legal move of a crazyhouse position, drops included:",
            "pocketfen legal --fen 'r3k2r/8/8/8/8/8/8/R3K2R[Qq] w KQkq - 0 1'",
        )],
    ),
    (
        &["pocketfen-pgn-select"],
        &[
            (
                "Crazyhouse games of strong players that end in a drop-mate:",
                "pocketfen pgn select --variant zh --tag 'WhiteElo>=2400' --ends-in drop-mate db.pgn.zst",
            ),
            (
                "Separate what needs repair from what does not:",
                "pocketfen pgn select --invalid -o needs-repair.pgn --rest good.pgn archive.pgn",
            ),
            (
                "Count a player's games in a directory of archives:",
                "pocketfen pgn select --count --player JannLee archives/",
            ),
        ],
    ),
    (
        &["pocketfen-pgn-dedupe"],
        &[(
            "Keep one copy of each game of two years, the copies apart:",
            "pocketfen pgn dedupe -o unique.pgn --duplicates dups.pgn 2023.pgn 2024.pgn",
        )],
    ),
    (
        &["pocketfen-pgn-split"],
        &[
            (
                "Files of 10 000 games:",
                "pocketfen pgn split --every 10000 -o 'part-{n}.pgn' big.pgn.zst",
            ),
            (
                "A file per event:",
                "pocketfen pgn split --by-tag Event -o 'events/{value}.pgn' big.pgn",
            ),
        ],
    ),
    (
        &["pocketfen-merge"],
        &[(
            "Join the parts of a split run into the whole file's records:",
            "pocketfen merge part1.jsonl part2.jsonl part3.jsonl > all.jsonl",
        )],
    ),
    (
        &["pocketfen-completions"],
        &[(
            "Install bash completions for the current user:",
            "mkdir -p ~/.local/share/bash-completion/completions\n\
             pocketfen completions bash > ~/.local/share/bash-completion/completions/pocketfen",
        )],
    ),
    (
        &["pocketfen-manpage"],
        &[
            ("Read this manual:", "pocketfen manpage | man -l -"),
            (
                "Install every page for the current user (man looks beside ~/.cargo/bin):",
                "pocketfen manpage ~/.cargo/share/man/man1",
            ),
        ],
    ),
];

fn examples(name: &str) -> Examples {
    EXAMPLES
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map_or(&[], |(_, examples)| *examples)
}

/// The exit codes of a command.
fn exit_codes(name: &str) -> &'static [(&'static str, &'static str)] {
    match name {
        "pocketfen-fen-show" | "pocketfen-perft" | "pocketfen-legal" => PRINTING_EXIT,
        "pocketfen-pgn-select" => SELECT_EXIT,
        "pocketfen-export" => EXPORT_EXIT,
        "pocketfen-completions" | "pocketfen-manpage" => &PRINTING_EXIT[..1],
        _ => JUDGING_EXIT,
    }
}

/// Text escaped for roff: backslashes, and hyphens as such (not as line-breaking
/// dashes); a line that starts with a dot or an apostrophe is protected.
fn roff(text: &str) -> String {
    let mut out = text.replace('\\', "\\e").replace('-', "\\-");
    if out.starts_with('.') || out.starts_with('\'') {
        out.insert_str(0, "\\&");
    }
    out
}

/// Writes the manual page of `cmd` (built, its display name set): clap's sections, then
/// EXIT STATUS and EXAMPLES.
fn render(cmd: &clap::Command, out: &mut dyn Write) -> io::Result<()> {
    let man = clap_mangen::Man::new(cmd.clone())
        .source(format!("pocketfen {}", env!("CARGO_PKG_VERSION")))
        .manual("pocketfen manual");
    man.render_title(out)?;
    man.render_name_section(out)?;
    man.render_synopsis_section(out)?;
    man.render_description_section(out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(out)?;
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        man.render_subcommands_section(out)?;
    }
    let name = cmd.get_display_name().unwrap_or(cmd.get_name());
    writeln!(out, ".SH \"EXIT STATUS\"")?;
    for (code, meaning) in exit_codes(name) {
        writeln!(out, ".TP\n{}\n{}", roff(code), roff(meaning))?;
    }
    let examples = examples(name);
    if !examples.is_empty() {
        writeln!(out, ".SH EXAMPLES")?;
        for (what, line) in examples {
            writeln!(out, ".PP\n{}\n.PP\n.RS 4\n.nf", roff(what))?;
            for l in line.lines() {
                writeln!(out, "{}", roff(l))?;
            }
            writeln!(out, ".fi\n.RE")?;
        }
    }
    writeln!(out, ".SH \"SEE ALSO\"")?;
    let mut see: Vec<String> = Vec::new();
    if name != "pocketfen" {
        see.push("pocketfen(1)".to_owned());
    }
    see.extend(
        cmd.get_subcommands()
            .filter(|s| !s.is_hide_set())
            .map(|s| format!("{}(1)", s.get_display_name().unwrap_or(s.get_name()))),
    );
    writeln!(out, "{}", roff(&see.join(", ")))?;
    man.render_version_section(out)
}

/// Every command and subcommand, built (their display names `pocketfen-fen-convert`…).
fn commands() -> Vec<clap::Command> {
    fn walk(cmd: &clap::Command, all: &mut Vec<clap::Command>) {
        all.push(cmd.clone());
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            walk(sub, all);
        }
    }
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let mut all = Vec::new();
    walk(&cmd, &mut all);
    all
}

/// Writes `pocketfen(1)` to `out`.
pub fn main_page(out: &mut dyn Write) -> io::Result<()> {
    render(&commands()[0], out)
}

/// Writes every page into `dir` (created when missing): the paths written.
pub fn write_all(dir: &Path) -> io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut written = Vec::new();
    for cmd in commands() {
        let name = cmd.get_display_name().unwrap_or(cmd.get_name()).to_owned();
        let path = dir.join(format!("{name}.1"));
        let mut page = Vec::new();
        render(&cmd, &mut page)?;
        std::fs::write(&path, page)?;
        written.push(path);
    }
    Ok(written)
}
