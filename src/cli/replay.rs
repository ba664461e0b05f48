//! `replay`: each game's mainline plies as FENs, SAN or UCI, a header line per game (or
//! JSON Lines), its errors on stderr.

use std::io::Write;

use anyhow::{Context, Result};

use super::archive::{Archive, json_line, options, quiet_end, shown_in, summary_text, total_text};
use super::args::ReplayArgs;
use super::live::{self, Out};
use pocketfen::Severity;
use pocketfen::game::{GameAt, PlyText};
use pocketfen::notation::printable;
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;

pub fn replay(args: &ReplayArgs) -> Result<bool> {
    let text = match args.emit {
        PlyText::Fen(_) => PlyText::Fen(args.dialect),
        PlyText::San(_) => PlyText::San(args.drop_style),
        PlyText::Uci => PlyText::Uci,
    };
    // Its output is the terminal's: no progress line.
    let mut archive = Archive::open(&args.games, false)?;
    let run = archive.run(
        options(&args.games, false, false),
        args.jobs,
        Task::Replay {
            text,
            annotations: args.json,
        },
    );
    let several = archive.paths.len() > 1;
    let mut out = Out::stdout(live::line_buffered(args.games.line_buffered), None);
    let mut ok = true;
    let mut failed = None;
    let ended = archive.drive(run, |_, record| {
        match &record {
            RunRecord::Replayed(r) => {
                ok &= r.problems.is_empty();
                let name = shown_in(&r.file, args.games.split);
                out.record(|w| {
                    if args.json {
                        return json_line(w, &record);
                    }
                    replay_header(w, &name, r.game as u64, r.line as u64)?;
                    w.write_all(r.text.as_bytes())
                })
                .context("writing the output")?;
                if !args.json {
                    out.flush().context("writing the output")?;
                    for p in r.problems.iter().filter(|p| p.severity == Severity::Error) {
                        live::note(None, p.display_error_in(&name, GameAt::of(r.game, r.line)));
                    }
                }
            }
            RunRecord::Summary(s) => {
                if args.json {
                    out.record(|w| json_line(w, &record))
                        .context("writing the output")?;
                }
                out.flush().context("writing the output")?;
                let name = printable(&s.file);
                let unread = s.totals.games == 0 && s.bytes == 0 && s.stream_error.is_some();
                if args.json || !s.opened || unread {
                } else if args.games.quiet {
                    quiet_end(None, &name, s);
                } else {
                    live::note(None, format_args!("{name}: {}", summary_text(s)));
                }
                if let (Some(e), None) = (&s.stream_error, &failed) {
                    let what = if s.opened { "reading" } else { "opening" };
                    failed = Some(format!("{name}: {what}: {e}"));
                }
            }
            RunRecord::Total(t) if t.files > 1 || (t.interrupted && several) => {
                if args.json {
                    out.record(|w| json_line(w, &record))
                        .context("writing the output")?;
                } else if !args.games.quiet {
                    out.flush().context("writing the output")?;
                    live::note(None, format_args!("total: {}", total_text(t)));
                }
            }
            _ => {}
        }
        Ok(())
    });
    ended.result?;
    out.flush().context("writing the output")?;
    if let Some(failed) = failed {
        anyhow::bail!("{failed}");
    }
    Ok(ok)
}

/// The line `replay` writes before a game's plies.
pub(super) fn replay_header(
    out: &mut dyn Write,
    name: &str,
    game: u64,
    line: u64,
) -> std::io::Result<()> {
    if line == 0 {
        // A table's row: no line of its own.
        writeln!(out, "# {name} row {game}")
    } else {
        writeln!(out, "# {name} game {game} (line {line})")
    }
}
