//! `export`: games as Parquet tables, a row per game (to one file, or a file per month
//! in Lichess's layout) and a row per ply.

use std::collections::BTreeMap;
use std::io::Write;

use anyhow::{Context, Result};

use super::archive::{Archive, count, file_end, options, refuse_same, run_end, too_large};
use super::args::ExportArgs;
use super::live;
use super::output::SplitOutputs;
use pocketfen::game::RowOptions;
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;
use pocketfen::table::{ExportFiles, ExportTargets};

pub fn export(args: &ExportArgs) -> Result<bool> {
    if args.games_table.is_none() && args.plies.is_none() && args.output.is_none() {
        anyhow::bail!(
            "say what to write: --games FILE.parquet (a row per game), --plies FILE.parquet (a row per ply) or -o DIR (the games table by month)"
        );
    }
    for path in [&args.games_table, &args.plies].into_iter().flatten() {
        if path.as_os_str() == "-" {
            anyhow::bail!("a Parquet table is written to a file, not to stdout: name one");
        }
        // Found before the run, not when its table is put in place after it.
        if path.is_dir() {
            anyhow::bail!(
                "{}: a directory; a Parquet table is written to a file: name one (or -o DIR for the games table by month)",
                path.display()
            );
        }
    }
    if let Some(dir) = &args.output
        && dir.exists()
        && !dir.is_dir()
    {
        anyhow::bail!(
            "{}: not a directory; -o names the directory the games table's months are written under",
            dir.display()
        );
    }
    refuse_same(
        ("--games", args.games_table.as_deref()),
        ("--plies", args.plies.as_deref()),
    )?;
    let mut archive = Archive::open(&args.input, true)?;
    let targets = ExportTargets {
        games: args.games_table.clone(),
        games_dir: args.output.clone(),
        partition: Some(args.partition),
        plies: args.plies.clone(),
        fen: args.fen,
        codec: Some(args.compression),
        split: args.input.split,
        encoders: ExportTargets::encoders_for(pocketfen::run::jobs(args.jobs.unwrap_or(0))),
    };
    let outputs = SplitOutputs {
        inputs: archive.paths.clone(),
    };
    let mut files = ExportFiles::open(Box::new(outputs), &targets)?;
    let rows = RowOptions {
        plies: args.plies.is_some(),
        fen: args.fen,
        openings: args.openings,
        site_only: !targets.games(),
    };
    let run = archive.run(
        options(&args.input, args.strict, false),
        args.jobs,
        Task::Export { rows },
    );
    let line = archive.line();
    let mut unread = 0usize;
    let (mut invalid, mut ply_rows) = (0usize, 0usize);
    let (mut all_invalid, mut all_plies) = (0usize, 0usize);
    let mut unfit: BTreeMap<&'static str, usize> = BTreeMap::new();
    let ended = archive.drive(run, |_, record| {
        match record {
            RunRecord::Exported(e) if e.too_large.is_some() => {
                too_large(line, &e.file, e.game, e.line, e.too_large.unwrap_or(0));
                unread += 1;
            }
            RunRecord::Exported(e) => {
                invalid += usize::from(!e.row.valid);
                ply_rows += e.plies.len();
                for tag in &e.row.unfit {
                    *unfit.entry(tag).or_default() += 1;
                }
                files.push(*e)?;
            }
            RunRecord::Summary(s) => {
                let mut what =
                    format!("{} exported", count(s.totals.games as u64, "game", "games"));
                if args.plies.is_some() {
                    what.push_str(&format!(", {}", count(ply_rows as u64, "ply", "plies")));
                }
                if invalid > 0 {
                    what.push_str(&format!(", {invalid} not valid"));
                }
                file_end(line, args.input.quiet, &s, &what);
                all_invalid += invalid;
                all_plies += ply_rows;
                (invalid, ply_rows) = (0, 0);
            }
            RunRecord::Total(t) if t.files > 1 && !args.input.quiet => {
                let mut what = format!(
                    "total: {}, {} exported",
                    count(t.files as u64, "file", "files"),
                    count(t.totals.games as u64, "game", "games")
                );
                if args.plies.is_some() {
                    what.push_str(&format!(", {}", count(all_plies as u64, "ply", "plies")));
                }
                if all_invalid > 0 {
                    what.push_str(&format!(", {all_invalid} not valid"));
                }
                live::note(line, format_args!("{what}"));
            }
            _ => {}
        }
        Ok(())
    });
    // An interrupted run keeps the rows it wrote: the files end there, whole. So does a
    // run that read past damage (its games lost, the others in the tables).
    let keep = ended.result.is_ok() && !ended.cut_short;
    let finished = files.finish(keep);
    ended.result.context("writing the tables")?;
    finished?;
    if !args.input.quiet {
        for (tag, n) in &unfit {
            live::note(
                line,
                format_args!(
                    "{tag}: {} did not fit the column (null in the table)",
                    count(*n as u64, "value", "values")
                ),
            );
        }
    }
    run_end(ended.io_failed, (keep, false), unread, "table", "")?;
    let _ = std::io::stderr().flush();
    Ok(true)
}
