//! `pgn fix`: each game with its known faults repaired ([`pocketfen::game::fix_game`]),
//! every other game exactly as it was read; each repair listed under `-v`, `--dry-run`
//! or `--json`, and counted in the summaries.

use std::collections::BTreeMap;
use std::io::{self, Write};

use anyhow::{Context, Result};
use serde::Serialize;

use super::archive::{
    Archive, Dest, count, file_end, options, refuse_same, run_end, too_large, write_raw,
};
use super::args::FixArgs;
use super::live;
use pocketfen::game::{FixOptions, FixVerdict, GameAt, GameProblem, Repair, RepairKind};
use pocketfen::notation::printable;
use pocketfen::run::Task;
use pocketfen::run::record::{FixedRecord, RunRecord};
use pocketfen::stream::write_game;

/// What a file's games came to.
#[derive(Default)]
struct Counts {
    games: usize,
    repaired: usize,
    dropped: usize,
    unrepaired: usize,
    repairs: BTreeMap<RepairKind, usize>,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.games += other.games;
        self.repaired += other.repaired;
        self.dropped += other.dropped;
        self.unrepaired += other.unrepaired;
        for (k, n) in &other.repairs {
            *self.repairs.entry(*k).or_default() += n;
        }
    }

    /// `N games, R repaired (result 3, date 4), D dropped, U not valid, left as they
    /// were`.
    fn text(&self) -> String {
        let mut s = format!(
            "{}, {} repaired",
            count(self.games as u64, "game", "games"),
            self.repaired
        );
        if !self.repairs.is_empty() {
            let each: Vec<String> = self
                .repairs
                .iter()
                .map(|(k, n)| format!("{} {n}", k.name()))
                .collect();
            s.push_str(&format!(" ({})", each.join(", ")));
        }
        if self.dropped > 0 {
            s.push_str(&format!(", {} dropped", self.dropped));
        }
        if self.unrepaired > 0 {
            s.push_str(&format!(
                ", {} not valid, left as {}",
                self.unrepaired,
                if self.unrepaired == 1 {
                    "it was"
                } else {
                    "they were"
                }
            ));
        }
        s
    }
}

/// A JSON record of `pgn fix --json`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum FixJson<'a> {
    Repair {
        file: &'a str,
        game: usize,
        #[serde(flatten)]
        repair: &'a Repair,
        /// Whether the game was written repaired (false: tried, and the game left as
        /// it was, or dropped).
        made: bool,
    },
    Unrepaired {
        file: &'a str,
        game: usize,
        line: usize,
        error: Option<&'a GameProblem>,
    },
    Summary {
        file: &'a str,
        games: usize,
        repaired: usize,
        dropped: usize,
        unrepaired: usize,
        repairs: BTreeMap<&'static str, usize>,
        complete: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        stream_error: Option<&'a str>,
    },
}

/// `FILE:LINE: game N` (or `FILE: row N`).
fn game_at(file: &str, game: usize, line: usize) -> String {
    match GameAt::of(game, line) {
        GameAt::Game(n) => format!("{}:{line}: game {n}", printable(file)),
        GameAt::Row(n) => format!("{}: row {n}", printable(file)),
    }
}

/// A repair as a line of text: `FILE:LINE: game N: result: "1-0" -> "0-1"`.
fn repair_line(file: &str, f: &FixedRecord, r: &Repair) -> String {
    let at = match GameAt::of(f.game, f.line) {
        GameAt::Game(n) => format!("{}:{}: game {n}", printable(file), r.line),
        GameAt::Row(n) => format!("{}: row {n}", printable(file)),
    };
    let change = match (r.before.is_empty(), r.after.is_empty()) {
        (true, _) => format!("added {:?}", r.after),
        (false, true) if r.kind == RepairKind::Abandoned => "left out".to_owned(),
        (false, true) => format!("cut {:?}", r.before),
        (false, false) => format!("{:?} -> {:?}", r.before, r.after),
    };
    let tried = if f.verdict == FixVerdict::Unrepaired {
        " (not made: the game stays not valid)"
    } else {
        ""
    };
    format!("{at}: {}: {change}{tried}", r.kind.name())
}

pub fn fix(args: &FixArgs) -> Result<bool> {
    let to_stdout = args
        .output
        .as_deref()
        .is_none_or(|o| o == std::path::Path::new("-"));
    if args.json && to_stdout && !args.dry_run {
        anyhow::bail!(
            "--json writes the repairs to stdout: give the games a file with -o, or list the repairs only with --dry-run"
        );
    }
    let games = args.input.games();
    let mut archive = Archive::open(&games, true)?;
    let jobs = pocketfen::run::jobs(args.input.jobs.unwrap_or(0));
    refuse_same(
        ("-o", args.output.as_deref()),
        ("--rest", args.rest.as_deref()),
    )?;
    let mut out = if args.dry_run {
        None
    } else {
        Some(Dest::open(
            "-o",
            args.output.as_deref(),
            &archive.paths,
            jobs,
        )?)
    };
    let mut rest = args
        .rest
        .as_deref()
        .map(|p| Dest::open("--rest", Some(p), &archive.paths, jobs))
        .transpose()?;
    let task = Task::Fix {
        fix: FixOptions {
            drop_abandoned: args.drop_abandoned,
            plycount: args.plycount,
        },
    };
    let run = archive.run(options(&games, false, false), args.input.jobs, task);
    let line = archive.line();
    let (mut file, mut all) = (Counts::default(), Counts::default());
    let mut unread = 0usize;
    let stdout = io::stdout();
    let mut listed = io::BufWriter::new(stdout.lock());
    // Lines for stderr (repairs under -v, games left unrepaired), written before each
    // summary or 64 KiB at a time.
    let mut said: Vec<u8> = Vec::new();
    let tell = |said: &mut Vec<u8>| -> io::Result<()> {
        let r = live::without_line(line, || io::stderr().write_all(said));
        said.clear();
        r
    };
    let ended = archive.drive(run, |_, record| {
        match record {
            RunRecord::Fixed(f) if f.raw.too_large.is_some() => {
                too_large(line, &f.file, f.game, f.line, f.raw.too_large.unwrap_or(0));
                unread += 1;
            }
            RunRecord::Fixed(f) => {
                file.games += 1;
                let made = matches!(f.verdict, FixVerdict::Repaired | FixVerdict::Dropped);
                match f.verdict {
                    FixVerdict::Repaired => file.repaired += 1,
                    FixVerdict::Dropped => file.dropped += 1,
                    FixVerdict::Unrepaired => file.unrepaired += 1,
                    FixVerdict::Unchanged => {}
                }
                if f.verdict == FixVerdict::Repaired {
                    for r in &f.repairs {
                        *file.repairs.entry(r.kind).or_default() += 1;
                    }
                }
                for r in &f.repairs {
                    if args.json {
                        let rec = FixJson::Repair {
                            file: &f.file,
                            game: f.game,
                            repair: r,
                            made,
                        };
                        serde_json::to_writer(&mut listed, &rec)?;
                        listed.write_all(b"\n")?;
                    } else if args.dry_run {
                        writeln!(listed, "{}", repair_line(&f.file, &f, r))?;
                    } else if args.verbose {
                        writeln!(said, "{}", repair_line(&f.file, &f, r))?;
                    }
                }
                if f.verdict == FixVerdict::Unrepaired {
                    if args.json {
                        let rec = FixJson::Unrepaired {
                            file: &f.file,
                            game: f.game,
                            line: f.line,
                            error: f.error.as_ref(),
                        };
                        serde_json::to_writer(&mut listed, &rec)?;
                        listed.write_all(b"\n")?;
                    } else {
                        match &f.error {
                            Some(p) => writeln!(
                                said,
                                "{}; not repaired, written as it was",
                                p.display_in(&f.file, GameAt::of(f.game, f.line))
                            )?,
                            None => writeln!(
                                said,
                                "{}: not valid; not repaired, written as it was",
                                game_at(&f.file, f.game, f.line)
                            )?,
                        }
                    }
                }
                if said.len() >= 1 << 16 {
                    tell(&mut said)?;
                }
                match (&f.verdict, &f.text) {
                    (FixVerdict::Dropped, _) => {}
                    // A table's row or a JSON entry is written as PGN writes a game,
                    // its tags one per line.
                    (FixVerdict::Repaired, Some(text)) if f.line == 0 => {
                        if let Some(out) = &mut out {
                            write_raw(&mut out.out, text.as_bytes(), 0)?;
                        }
                    }
                    (FixVerdict::Repaired, Some(text)) => {
                        if let Some(out) = &mut out {
                            write_game(&mut out.out, text.as_bytes())?;
                        }
                    }
                    (FixVerdict::Unrepaired, _) if rest.is_some() => {
                        if let Some(rest) = &mut rest {
                            write_raw(&mut rest.out, &f.raw.bytes, f.line)?;
                        }
                    }
                    _ => {
                        if let Some(out) = &mut out {
                            write_raw(&mut out.out, &f.raw.bytes, f.line)?;
                        }
                    }
                }
            }
            RunRecord::Summary(s) => {
                tell(&mut said)?;
                if args.json {
                    let rec = FixJson::Summary {
                        file: &s.file,
                        games: file.games,
                        repaired: file.repaired,
                        dropped: file.dropped,
                        unrepaired: file.unrepaired,
                        repairs: file.repairs.iter().map(|(k, n)| (k.name(), *n)).collect(),
                        complete: s.complete,
                        stream_error: s.stream_error.as_deref(),
                    };
                    serde_json::to_writer(&mut listed, &rec)?;
                    listed.write_all(b"\n")?;
                }
                listed.flush()?;
                file_end(line, args.input.quiet, &s, &file.text());
                all.add(&file);
                file = Counts::default();
            }
            RunRecord::Total(t) if t.files > 1 && !args.input.quiet => {
                live::note(
                    line,
                    format_args!(
                        "total: {}, {}",
                        count(t.files as u64, "file", "files"),
                        all.text()
                    ),
                );
            }
            _ => {}
        }
        Ok(())
    });
    let _ = tell(&mut said);
    let _ = listed.flush();
    let keep = ended.complete();
    let streamed = [&out, &rest]
        .iter()
        .any(|d| d.as_ref().is_some_and(Dest::is_stdout));
    if let Some(out) = out {
        out.finish(keep, ended.interrupted)?;
    }
    if let Some(rest) = rest {
        rest.finish(keep, ended.interrupted)?;
    }
    ended.result.context("writing the output")?;
    run_end(ended.io_failed, (keep, streamed), unread, "output", "")?;
    Ok(all.unrepaired == 0)
}
