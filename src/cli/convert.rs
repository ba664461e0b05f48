//! `pgn convert`: every game written for a site (Lichess, Chess.com, XBoard), to stdout
//! or a file compressed by its extension, replaced only by a run that read all its input;
//! each file's end says what was written and what was left out, and why.

use std::collections::BTreeMap;
use std::io::{self, Write};

use anyhow::{Context, Result};
use pocketfen::stream::write_game;

use super::archive::{
    Archive, Ended, count, file_end, options, problem_lines, run_end, shown_in, timing_text,
};
use super::args::PgnConvertArgs;
use super::live::{self, Out};
use super::output::{open_output, persist, refuse_input};
use pocketfen::Severity;
use pocketfen::game::{GameAt, Rewrite};
use pocketfen::run::Task;
use pocketfen::run::record::{ConvertedRecord, RunRecord};
use pocketfen::stream::{ArchiveWriter, Compression};

/// What `pgn convert` did with a file's games: written, and left out (or copied
/// unchanged, with `--keep-broken`) by the kind of their first error.
#[derive(Default)]
struct Written {
    games: usize,
    refused: BTreeMap<&'static str, usize>,
    /// Games over `--max-game-bytes`: never read, so in no output, `--keep-broken` or not.
    unread: usize,
}

impl Written {
    /// Counts a game's record.
    fn add(&mut self, c: &ConvertedRecord, keep_broken: bool) {
        if c.refused && keep_broken && c.raw.is_none() {
            // Over the size limit: no bytes to copy.
            self.unread += 1;
        } else if c.refused {
            let kind = c
                .problems
                .iter()
                .find(|p| p.severity == Severity::Error)
                .or(c.problems.first())
                .map_or("refused", |p| p.kind.name());
            *self.refused.entry(kind).or_default() += 1;
        } else {
            self.games += 1;
        }
    }

    /// Adds a file's counts to the run's.
    fn merge(&mut self, file: &Written) {
        self.games += file.games;
        self.unread += file.unread;
        for (k, n) in &file.refused {
            *self.refused.entry(k).or_default() += n;
        }
    }

    fn text(&self, keep_broken: bool) -> String {
        let refused: usize = self.refused.values().sum();
        let mut text = count(self.games as u64, "game written", "games written");
        if keep_broken && self.unread > 0 {
            text.push_str(&format!(", {} over --max-game-bytes left out", self.unread));
        }
        if refused > 0 {
            let kinds: Vec<String> = self
                .refused
                .iter()
                .map(|(kind, n)| format!("{n} {kind}"))
                .collect();
            let what = if keep_broken {
                "copied unchanged"
            } else {
                "left out"
            };
            text.push_str(&format!(", {refused} {what} ({})", kinds.join(", ")));
        }
        text
    }
}

pub fn convert(args: &PgnConvertArgs) -> Result<bool> {
    let target = args.to;
    let style = args.drop_style.unwrap_or(target.drop_style());
    let mut archive = Archive::open(&args.games, true)?;
    if let Some(dest) = &args.output {
        refuse_input("-o", dest, &archive.paths)?;
    }
    let compression = args.output.as_deref().map_or(Compression::None, |p| {
        Compression::from_name(&p.to_string_lossy())
    });
    if let (Some(level), Compression::None) = (args.level, compression) {
        anyhow::bail!(
            "--level {level} compresses nothing: write to FILE.zst, FILE.gz or FILE.bz2 (-o)"
        );
    }
    let (dest, temp) = open_output(args.output.as_deref())?;
    let to_stdout = args.output.is_none();
    let live_out = to_stdout && live::line_buffered(args.games.line_buffered);
    // Standard output goes through `Out` (per game, when live); a file through `Packed`.
    let dest: Box<dyn Write> = if to_stdout {
        Box::new(Out::to(dest, live_out, archive.line()))
    } else {
        Box::new(io::BufWriter::with_capacity(1 << 16, dest))
    };
    let jobs = pocketfen::run::jobs(args.jobs.unwrap_or(0));
    let mut out = ArchiveWriter::new(dest, compression, args.level, jobs)?;
    let task = Task::Convert {
        to: std::sync::Arc::new(Rewrite {
            target,
            style,
            layout: args.layout.layout(),
        }),
        keep_broken: args.keep_broken,
    };
    let run = archive.run(options(&args.games, args.strict, true), args.jobs, task);
    let line = archive.line();
    let mut ok = true;
    let mut written = Written::default();
    let (mut all_written, mut files) = (Written::default(), 0);
    let mut ended = archive.drive(run, |_, record| {
        match record {
            RunRecord::Converted(c) => {
                ok &= !c.refused;
                written.add(&c, args.keep_broken);
                if !c.problems.is_empty() {
                    let mut said = Vec::new();
                    problem_lines(
                        &mut said,
                        &shown_in(&c.file, args.games.split),
                        GameAt::of(c.game, c.line),
                        &c.problems,
                    )?;
                    live::without_line(line, || io::stderr().write_all(&said))?;
                }
                match &c.raw {
                    Some(raw) => write_game(&mut out, &raw.bytes)?,
                    None => write_game(&mut out, c.text.as_bytes())?,
                }
                if live_out {
                    out.flush()?;
                }
            }
            RunRecord::Summary(s) => {
                out.flush()?;
                if s.opened {
                    files += 1;
                    all_written.merge(&written);
                    file_end(line, args.games.quiet, &s, &written.text(args.keep_broken));
                }
                written = Written::default();
            }
            RunRecord::Total(t) if files > 1 && !args.games.quiet => {
                live::note(
                    line,
                    format_args!(
                        "total: {}{}, {}{}",
                        if t.interrupted { "interrupted: " } else { "" },
                        count(files as u64, "file", "files"),
                        all_written.text(args.keep_broken),
                        timing_text(t.seconds, t.totals.games, t.bytes)
                    ),
                );
            }
            _ => {}
        }
        Ok(())
    });
    if ended.result.is_ok() {
        ended.result = out.finish().context("writing the output");
    }
    let kept = ended.complete();
    keep_or_drop(temp, args.output.as_deref(), &ended)?;
    ended.result.context("writing the output")?;
    let unread = all_written.unread + written.unread;
    run_end(
        ended.io_failed,
        (kept, to_stdout),
        unread,
        "output",
        ", --keep-broken or not",
    )?;
    Ok(ok)
}

/// The destination is replaced only by a run that read every input to its end (past
/// damage, whose games are lost): a failed or interrupted run drops the temporary file
/// and leaves an existing destination as it was.
fn keep_or_drop(
    temp: Option<tempfile::NamedTempFile>,
    output: Option<&std::path::Path>,
    ended: &Ended,
) -> Result<()> {
    let (Some(temp), Some(path)) = (temp, output) else {
        return Ok(());
    };
    if ended.complete() {
        return persist(temp, path);
    }
    live::set_partial(None);
    drop(temp);
    if ended.interrupted {
        super::archive::not_written(path);
    }
    Ok(())
}
