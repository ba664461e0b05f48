//! `validate`: every game replayed, its problems printed as text or JSON Lines (live on
//! a terminal or with `--line-buffered`), a summary per file, and with `--html` a report
//! with a card per game with problems.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};

use super::archive::{
    Archive, json_line, options, options_for, problem_lines, quiet_end, shown_in, summary_text,
    total_text,
};
use super::args::ValidateArgs;
use super::live::{self, Out};
use super::output::{open_output, persist, refuse_input};
use pocketfen::draw::report::{FileTotals, HtmlReport};
use pocketfen::game::GameAt;
use pocketfen::notation::printable;
use pocketfen::run::Task;
use pocketfen::run::record::{RunRecord, SummaryRecord};

pub fn validate(args: &ValidateArgs) -> Result<bool> {
    let mut archive = Archive::open(&args.games, true)?;
    if let Some(html) = &args.html {
        refuse_input("--html", html, &archive.paths)?;
        refuse_non_report(html)?;
    }
    let opts = options(&args.games, args.strict, args.variations);
    // The HTML report's file is opened first, so a bad path fails before any work.
    let mut html = match &args.html {
        Some(path) => {
            let (out, temp) = open_output(Some(path))?;
            let out = io::BufWriter::with_capacity(1 << 16, out);
            Some((HtmlReport::new(args.html_max), out, temp, path))
        }
        None => None,
    };
    archive.keep_bytes = html.is_some();
    archive.openings = args.openings;
    let run = archive.run(opts, args.jobs, Task::Validate { all: args.all });
    let line = archive.line();
    let mut out = Out::stdout(live::line_buffered(args.games.line_buffered), line);
    let several = archive.paths.len() > 1;
    let mut all_ok = true;
    // Whether the current file's section of the report is open.
    let mut in_file = false;
    let ended = archive.drive(run, |run, record| {
        let shown_here = |file: &str| shown_in(file, args.games.split);
        if let (Some((report, ..)), false) = (&mut html, in_file) {
            let file = match &record {
                RunRecord::Game(g) => Some(&g.file),
                RunRecord::Summary(s) => Some(&s.file),
                _ => None,
            };
            if let Some(file) = file {
                report.begin_file(&shown_here(file));
                in_file = true;
            }
        }
        match &record {
            RunRecord::Game(g) => {
                let r = &g.report;
                if let Some((report, ..)) = &mut html {
                    report.add_game(r, g.raw.as_ref(), &options_for(opts, &g.file));
                    if !report.wants_cards() {
                        run.stop_keeping_bytes();
                    }
                }
                out.record(|w| {
                    if args.json {
                        json_line(w, &record)
                    } else if r.problems.is_empty() {
                        writeln!(w, "{}", r.display_ok_in(&shown_here(&g.file)))
                    } else {
                        problem_lines(
                            w,
                            &shown_here(&g.file),
                            GameAt::of(r.number, r.line),
                            &r.problems,
                        )
                    }
                })
                .context("writing the report")?;
            }
            RunRecord::Summary(s) => {
                in_file = false;
                if args.json {
                    out.record(|w| json_line(w, &record))
                        .context("writing the report")?;
                }
                out.flush().context("writing the report")?;
                if let Some((report, ..)) = &mut html {
                    report.end_file(file_totals(s));
                }
                summary_line(line, args.games.quiet, s);
                all_ok &= s.totals.illegal_games == 0
                    && s.totals.error_games == 0
                    && !(args.strict && s.totals.warnings > 0);
            }
            // Several files: their total too (also when a stop left some unread).
            RunRecord::Total(t) if t.files > 1 || (t.interrupted && several) => {
                if args.json {
                    out.record(|w| json_line(w, &record))
                        .context("writing the report")?;
                }
                out.flush().context("writing the report")?;
                if !args.games.quiet {
                    live::note(line, format_args!("total: {}", total_text(t)));
                }
            }
            _ => {}
        }
        Ok(())
    });
    ended.result?;
    out.flush().context("writing the report")?;
    // The report is written whatever happened to the inputs, an interruption too: it
    // says what went wrong.
    if let Some((report, mut out, temp, path)) = html {
        report
            .write_to(&mut out)
            .and_then(|()| out.flush())
            .with_context(|| format!("writing {}", path.display()))?;
        drop(out);
        if let Some(temp) = temp {
            persist(temp, path)?;
        }
    }
    if ended.io_failed {
        anyhow::bail!("some input could not be read completely");
    }
    Ok(all_ok)
}

/// What a file's end says on stderr: its summary line (only that it was cut short with
/// `-q`), unless it could not be read at all (the reason is all there is to say then).
fn summary_line(line: Option<&live::Shared>, quiet: bool, s: &SummaryRecord) {
    let name = printable(&s.file);
    let unread = s.totals.games == 0 && s.bytes == 0 && s.stream_error.is_some();
    if !s.opened || unread {
    } else if quiet {
        quiet_end(line, &name, s);
    } else {
        live::end_line(line);
        live::note(line, format_args!("{name}: {}", summary_text(s)));
    }
}

/// A file's totals as the HTML report shows them.
fn file_totals(s: &SummaryRecord) -> FileTotals {
    FileTotals {
        totals: s.totals,
        seconds: s.seconds,
        stream_error: s.stream_error.clone(),
        interrupted: s.interrupted,
        trailing: s.trailing_bytes.map(|t| {
            pocketfen::stream::Trailing {
                compression: s.compression,
                offset: t.offset,
                len: t.length,
                zeros: t.zero_padding,
            }
            .to_string()
        }),
    }
}

/// Refuses an `--html` destination that holds something other than a report: the report
/// replaces an earlier one or an empty file, never an archive (`validate --html *.pgn`,
/// the shell's expansion putting the first archive after `--html`).
fn refuse_non_report(path: &Path) -> Result<()> {
    let Ok(mut file) = File::open(path) else {
        return Ok(());
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Ok(());
    }
    let mut head = [0u8; 64];
    let n = io::Read::read(&mut file, &mut head).unwrap_or(0);
    let text = String::from_utf8_lossy(&head[..n]);
    let start = text
        .trim_start_matches('\u{feff}')
        .trim_start()
        .to_ascii_lowercase();
    if start.is_empty() || start.starts_with("<!doctype html") || start.starts_with("<html") {
        return Ok(());
    }
    let first = text.lines().next().unwrap_or("");
    anyhow::bail!(
        "--html {}: this file holds no HTML report (it begins `{}`), and the report replaces only an earlier report or an empty file; if the shell expanded a pattern such as *.pgn after --html, give the report's name first",
        path.display(),
        pocketfen::notation::printable(&first.chars().take(40).collect::<String>())
    )
}
