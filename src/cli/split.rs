//! `pgn split`: the games into numbered files of `--every N` games, or one file per value
//! of a tag (`--by-tag`), each game exactly as it was read, compressed by the files'
//! extension (the library's `run::split_files`).

use std::sync::Arc;

use anyhow::{Context, Result};

use super::archive::{Archive, count, file_end, options, run_end, too_large};
use super::args::SplitArgs;
use super::live;
use super::output::SplitOutputs;
use pocketfen::game::OpeningField;
use pocketfen::game::Selection;
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;
use pocketfen::run::split_files::{FilePattern, PatternError, SplitBy, SplitFiles};

pub fn split(args: &SplitArgs) -> Result<bool> {
    let opening = args.by.as_deref().map(|by| match by {
        "eco" => OpeningField::Eco,
        _ => OpeningField::Name,
    });
    let by = match (&args.by_tag, opening) {
        (Some(tag), _) => SplitBy::Tag(tag.clone()),
        (None, Some(OpeningField::Eco)) => SplitBy::Tag("ECO".to_owned()),
        (None, Some(OpeningField::Name)) => SplitBy::Tag("Opening".to_owned()),
        (None, None) => SplitBy::Every(args.every.unwrap_or(u64::MAX)),
    };
    let pattern = FilePattern::new(&args.output, matches!(by, SplitBy::Tag(_)))
        .map_err(|e| anyhow::anyhow!("-o '{}': {}", args.output, pattern_error(e)))?;
    let games = args.input.games();
    let mut archive = Archive::open(&games, true)?;
    let sel = Selection {
        capture: args.by_tag.clone(),
        capture_opening: opening,
        ..Selection::default()
    };
    let task = Task::Select(Arc::new(sel), None);
    let run = archive.run(options(&games, false, false), args.input.jobs, task);
    let line = archive.line();
    let outputs = SplitOutputs {
        inputs: archive.paths.clone(),
    };
    let mut files = SplitFiles::new(pattern, by, outputs);
    let mut unread = 0usize;
    let ended = archive.drive(run, |_, record| {
        match record {
            RunRecord::Selected(g) if g.raw.too_large.is_some() => {
                too_large(line, &g.file, g.game, g.line, g.raw.too_large.unwrap_or(0));
                unread += 1;
            }
            RunRecord::Selected(g) => files.write(&g)?,
            RunRecord::Summary(s) => {
                let what = count(s.totals.games as u64, "game", "games");
                file_end(line, args.input.quiet, &s, &what);
            }
            _ => {}
        }
        Ok(())
    });
    // Every game read is in a file whole, an interrupted run's too: its files hold the
    // games read before the stop.
    let made = files.finish(ended.result.is_ok())?;
    ended.result.context("writing the output")?;
    if !args.input.quiet {
        let total: u64 = made.iter().map(|(_, n)| n).sum();
        live::note(
            None,
            format_args!(
                "wrote {} ({})",
                count(made.len() as u64, "file", "files"),
                count(total, "game", "games")
            ),
        );
    }
    // (Its files are kept whatever broke off: they hold the games read.)
    run_end(ended.io_failed, (true, false), unread, "file", "")?;
    Ok(true)
}

/// A pattern's error in the command line's words.
fn pattern_error(e: PatternError) -> String {
    let what = |by_tag: bool| {
        if by_tag {
            "--by-tag writes a file per value: put {value} in the pattern, as in 'by-{value}.pgn'"
        } else {
            "--every writes numbered files: put {n} (or {n:W}, W digits) in the pattern, as in 'part-{n}.pgn'"
        }
    };
    match e {
        PatternError::NumberInTagPattern => {
            "--by-tag names its files by {value}, not by a number: drop the {n}".to_owned()
        }
        PatternError::ValueInNumberedPattern => {
            "--every names its files by {n}, not by a tag's value: drop the {value}".to_owned()
        }
        PatternError::NoPlaceholder { by_tag } => what(by_tag).to_owned(),
        PatternError::TwoPlaceholders { by_tag } => {
            format!("one placeholder only: {}", what(by_tag))
        }
    }
}
