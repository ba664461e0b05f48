//! `pgn dedupe`: each game once, exactly as it was read, its later copies left out (or
//! written to `--duplicates`), each told with the game it copies under `-v`.

use std::io::{self, Write};

use anyhow::{Context, Result};

use super::archive::{
    Archive, Dest, count, file_end, options, refuse_same, run_end, too_large, write_raw,
};
use super::args::DedupeArgs;
use super::live;
use pocketfen::game::GameAt;
use pocketfen::notation::printable;
use pocketfen::run::Task;
use pocketfen::run::dedupe::Kept;
use pocketfen::run::record::RunRecord;

pub fn dedupe(args: &DedupeArgs) -> Result<bool> {
    let games = args.input.games();
    let mut archive = Archive::open(&games, true)?;
    let jobs = pocketfen::run::jobs(args.input.jobs.unwrap_or(0));
    refuse_same(
        ("-o", args.output.as_deref()),
        ("--duplicates", args.duplicates.as_deref()),
    )?;
    let mut out = Dest::open("-o", args.output.as_deref(), &archive.paths, jobs)?;
    let mut dups = args
        .duplicates
        .as_deref()
        .map(|p| Dest::open("--duplicates", Some(p), &archive.paths, jobs))
        .transpose()?;
    let run = archive.run(
        options(&games, false, false),
        args.input.jobs,
        Task::Dedupe { by: args.by },
    );
    let line = archive.line();
    let mut kept = Kept::default();
    let (mut found, mut all_found) = (0usize, 0usize);
    let (mut unread, mut file_unread) = (0usize, 0usize);
    // The duplicates' lines, written to stderr 64 KiB at a time (an archive of copies
    // has a line per game), and before each summary.
    let mut said: Vec<u8> = Vec::new();
    let tell = |said: &mut Vec<u8>| -> io::Result<()> {
        let r = live::without_line(line, || io::stderr().write_all(said));
        said.clear();
        r
    };
    let ended = archive.drive(run, |_, record| {
        match record {
            RunRecord::Keyed(g) if g.raw.too_large.is_some() => {
                too_large(line, &g.file, g.game, g.line, g.raw.too_large.unwrap_or(0));
                unread += 1;
                file_unread += 1;
            }
            RunRecord::Keyed(g) => match kept.first_of(&g) {
                None => write_raw(&mut out.out, &g.raw.bytes, g.line)?,
                Some(first) => {
                    found += 1;
                    if let Some(d) = &mut dups {
                        write_raw(&mut d.out, &g.raw.bytes, g.line)?;
                    }
                    if args.verbose {
                        let first_file = printable(kept.file_of(first));
                        let dup = match GameAt::of(g.game, g.line) {
                            GameAt::Game(n) => {
                                format!("{}:{}: game {n}", printable(&g.file), g.line)
                            }
                            GameAt::Row(n) => format!("{}: row {n}", printable(&g.file)),
                        };
                        let of = match GameAt::of(first.game, first.line) {
                            GameAt::Game(n) => format!("game {n} ({first_file}:{})", first.line),
                            GameAt::Row(n) => format!("row {n} ({first_file})"),
                        };
                        writeln!(said, "{dup} duplicates {of}")?;
                        if said.len() >= 1 << 16 {
                            tell(&mut said)?;
                        }
                    }
                }
            },
            RunRecord::Summary(s) => {
                tell(&mut said)?;
                let mut what = format!(
                    "{}, {} kept",
                    count(s.totals.games as u64, "game", "games"),
                    s.totals.games - found - file_unread
                );
                file_unread = 0;
                if found > 0 {
                    what.push_str(&format!(
                        ", {}",
                        count(found as u64, "duplicate", "duplicates")
                    ));
                }
                file_end(line, args.input.quiet, &s, &what);
                all_found += found;
                found = 0;
            }
            RunRecord::Total(t) if t.files > 1 && !args.input.quiet => {
                live::note(
                    line,
                    format_args!(
                        "total: {}, {}, {} kept, {}",
                        count(t.files as u64, "file", "files"),
                        count(t.totals.games as u64, "game", "games"),
                        t.totals.games - all_found - unread,
                        count(all_found as u64, "duplicate", "duplicates")
                    ),
                );
            }
            _ => {}
        }
        Ok(())
    });
    let keep = ended.complete();
    let streamed = out.is_stdout() || dups.as_ref().is_some_and(Dest::is_stdout);
    out.finish(keep, ended.interrupted)?;
    if let Some(d) = dups {
        d.finish(keep, ended.interrupted)?;
    }
    ended.result.context("writing the output")?;
    run_end(ended.io_failed, (keep, streamed), unread, "output", "")?;
    Ok(true)
}
