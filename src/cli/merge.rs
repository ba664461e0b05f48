//! `merge`: the records of a split run's parts (`--split K/N --json`), read once each and
//! put in order, renumbered into one run's, then the whole file's summary.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};

use super::archive::{file_notes, json_line, summary_text};
use super::replay::replay_header;
use pocketfen::notation::printable;
use pocketfen::run::merge::{Merge, game_text};
use pocketfen::run::record::RunRecord;

/// A part's JSON Lines, read from `source` (the part's `path`, or its copy): its records,
/// one per line, with where each is.
fn part_records(
    source: &Path,
    path: &Path,
) -> Result<impl Iterator<Item = Result<(usize, RunRecord)>>> {
    let name = path.display().to_string();
    let file = File::open(source).with_context(|| format!("opening {name}"))?;
    let reader = io::BufReader::with_capacity(1 << 16, file);
    Ok(io::BufRead::lines(reader)
        .enumerate()
        .filter(|(_, l)| l.as_ref().map_or(true, |l| !l.trim().is_empty()))
        .map(move |(i, line)| {
            let line = line.with_context(|| format!("reading {name}"))?;
            let record = serde_json::from_str(&line).map_err(|e| {
                anyhow::anyhow!(
                    "{name}:{}:{}: not a JSON record of pocketfen --json: {e}",
                    i + 1,
                    e.column()
                )
            })?;
            Ok((i + 1, record))
        }))
}

/// A part that is not a plain file (a pipe, `<(…)`, `/dev/stdin`) copied into a
/// temporary file as it is read, so that it is read once and its records can be read
/// again after the summaries are checked.
fn spooled(path: &Path) -> Result<Option<tempfile::NamedTempFile>> {
    let name = path.display().to_string();
    let meta = std::fs::metadata(path).with_context(|| format!("opening {name}"))?;
    if meta.is_file() {
        return Ok(None);
    }
    if meta.is_dir() {
        anyhow::bail!("{name}: is a directory, not a part's JSON Lines");
    }
    let mut from = File::open(path).with_context(|| format!("opening {name}"))?;
    let mut spool = tempfile::Builder::new()
        .prefix(".pocketfen-merge-")
        .tempfile()
        .context("creating a temporary file for a part read from a pipe")?;
    io::copy(&mut from, spool.as_file_mut()).with_context(|| format!("reading {name}"))?;
    Ok(Some(spool))
}

/// `merge`: the parts' records, renumbered, then the whole file's summary.
pub fn merge(args: &super::args::MergeArgs) -> Result<bool> {
    // Parts that cannot be read twice are read once, into temporary files.
    let mut spools = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        spools.push(spooled(path)?);
    }
    let sources: Vec<&Path> = args
        .parts
        .iter()
        .zip(&spools)
        .map(|(path, spool)| spool.as_ref().map_or(path.as_path(), |s| s.path()))
        .collect();
    // First the summaries, so that nothing is written for parts that do not fit.
    let mut summaries = Vec::with_capacity(args.parts.len());
    for (path, source) in args.parts.iter().zip(&sources) {
        let mut summary = None;
        for record in part_records(source, path)? {
            if let (line, RunRecord::Summary(s)) = record? {
                if summary.is_some() {
                    anyhow::bail!(
                        "{}:{line}: a second summary: a part is the output of one run over one file",
                        path.display()
                    );
                }
                summary = Some(s);
            }
        }
        let Some(summary) = summary else {
            anyhow::bail!(
                "{}: no summary record: the part's run did not finish (or this is not the output of --json)",
                path.display()
            );
        };
        summaries.push(summary);
    }
    let merge = Merge::new(&summaries).map_err(|e| {
        let path = args
            .parts
            .get(e.part.max(1) - 1)
            .map_or(String::new(), |p| p.display().to_string());
        anyhow::anyhow!("cannot merge: {path}: {}", e.message)
    })?;
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut ok = true;
    for (index, &given) in merge.order().iter().enumerate() {
        for record in part_records(sources[given], &args.parts[given])? {
            let (_, mut record) = record?;
            if matches!(record, RunRecord::Summary(_) | RunRecord::Total(_)) {
                continue;
            }
            merge.renumber(index, &mut record);
            if let RunRecord::Replayed(r) = &record {
                ok &= r.problems.is_empty();
            }
            if !args.text {
                json_line(&mut out, &record).context("writing the output")?;
                continue;
            }
            if let Some(text) = game_text(&record) {
                out.write_all(text.as_bytes())
                    .context("writing the output")?;
            } else if let RunRecord::Replayed(r) = &record {
                replay_header(&mut out, &printable(&r.file), r.game as u64, r.line as u64)
                    .context("writing the output")?;
                out.write_all(r.text.as_bytes())
                    .context("writing the output")?;
            }
        }
    }
    let s = merge.summary();
    let name = printable(&s.file);
    if args.text {
        out.flush().context("writing the output")?;
        eprintln!("pocketfen: {name}: {}", summary_text(s));
    } else {
        json_line(&mut out, &RunRecord::Summary(s.clone())).context("writing the output")?;
    }
    out.flush().context("writing the output")?;
    if !file_notes(None, &name, s) {
        anyhow::bail!("some input could not be read completely");
    }
    Ok(ok && s.totals.illegal_games == 0 && s.totals.error_games == 0)
}
