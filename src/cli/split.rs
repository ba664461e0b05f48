//! `pgn split`: the games into numbered files of `--every N` games, or one file per value
//! of a tag (`--by-tag`), each game exactly as it was read, compressed by the files'
//! extension.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};

use super::archive::{Archive, Dest, count, file_end, options, run_end, too_large};
use super::args::SplitArgs;
use super::by_tag::{TagFiles, TagNames};
use super::live;
use pocketfen::game::Selection;
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;
use pocketfen::stream::write_game;

pub fn split(args: &SplitArgs) -> Result<bool> {
    let pattern = Pattern::new(&args.output, args.by_tag.is_some())?;
    let games = args.input.games();
    let mut archive = Archive::open(&games, true)?;
    let sel = Selection {
        capture: args.by_tag.clone(),
        ..Selection::default()
    };
    let task = Task::Select(Arc::new(sel), None);
    let run = archive.run(options(&games, false, false), args.input.jobs, task);
    let (line, paths) = (archive.line(), &archive.paths);
    let mut unread = 0usize;
    // --every: the file being written, its number and its games.
    let mut current: Option<(Dest, u64, u64)> = None;
    let mut numbered: Vec<(PathBuf, u64)> = Vec::new();
    let mut tagged = TagFiles::default();
    let mut names = TagNames::default();
    let ended = archive.drive(run, |_, record| {
        match record {
            RunRecord::Selected(g) if g.raw.too_large.is_some() => {
                too_large(line, &g.file, g.game, g.line, g.raw.too_large.unwrap_or(0));
                unread += 1;
            }
            RunRecord::Selected(g) if args.by_tag.is_some() => {
                let path = pattern.valued(names.name(g.captured.as_deref()));
                tagged.write(&path, paths, &g.raw.bytes)?;
            }
            RunRecord::Selected(g) => {
                let every = args.every.unwrap_or(u64::MAX);
                if current.as_ref().is_some_and(|(_, _, n)| *n >= every) {
                    let (dest, k, n) = current.take().expect("a file");
                    dest.finish(true)?;
                    numbered.push((pattern.numbered(k), n));
                }
                if current.is_none() {
                    let k = numbered.len() as u64 + 1;
                    let path = pattern.numbered(k);
                    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                        std::fs::create_dir_all(dir)
                            .with_context(|| format!("creating {}", dir.display()))?;
                    }
                    current = Some((Dest::open("-o", Some(&path), paths, 1)?, k, 0));
                }
                let (dest, _, n) = current.as_mut().expect("a file");
                write_game(&mut dest.out, &g.raw.bytes)?;
                *n += 1;
            }
            RunRecord::Summary(s) => {
                let what = count(s.totals.games as u64, "game", "games");
                file_end(line, &args.input, &s, &what);
            }
            _ => {}
        }
        Ok(())
    });
    let result = ended.result;
    // Every game read is in a file whole, an interrupted run's too: its last file holds
    // the games read before the stop.
    if let Some((dest, k, n)) = current.take() {
        dest.finish(result.is_ok())?;
        if result.is_ok() {
            numbered.push((pattern.numbered(k), n));
        }
    }
    // An interrupted run's files are kept, as `--every`'s: they hold the games read
    // before the stop.
    let made = tagged.finish(result.is_ok())?;
    result.context("writing the output")?;
    if !args.input.quiet {
        let files = if args.by_tag.is_some() {
            &made
        } else {
            &numbered
        };
        let total: u64 = files.iter().map(|(_, n)| n).sum();
        live::note(
            None,
            format_args!(
                "wrote {} ({})",
                count(files.len() as u64, "file", "files"),
                count(total, "game", "games")
            ),
        );
    }
    run_end(ended.io_failed, unread, "file")?;
    Ok(true)
}

/// A `pgn split` file name pattern: text around one `{n}` (`{n:W}`) or `{value}`.
struct Pattern {
    before: String,
    after: String,
    width: usize,
}

impl Pattern {
    fn new(pattern: &str, by_tag: bool) -> Result<Pattern> {
        // `{N}` is `{n}` too (clap's help shows `{n}` as a line break).
        let pattern = pattern.replace("{N", "{n");
        let has_n = pattern.contains("{n");
        let has_value = pattern.contains("{value}");
        if by_tag && has_n {
            anyhow::bail!(
                "-o '{pattern}': --by-tag names its files by {{value}}, not by a number: drop the {{n}}"
            );
        }
        if !by_tag && has_value {
            anyhow::bail!(
                "-o '{pattern}': --every names its files by {{n}}, not by a tag's value: drop the {{value}}"
            );
        }
        let what = if by_tag {
            "--by-tag writes a file per value: put {value} in the pattern, as in 'by-{value}.pgn'"
        } else {
            "--every writes numbered files: put {n} (or {n:W}, W digits) in the pattern, as in 'part-{n}.pgn'"
        };
        let (at, len, width) = if by_tag {
            (pattern.find("{value}"), "{value}".len(), 0)
        } else {
            match pattern.find("{n") {
                Some(at) => {
                    let close = pattern[at..].find('}').map(|c| at + c);
                    let inner = close.map(|c| &pattern[at + 2..c]);
                    let width = match inner {
                        Some("") => Some(6),
                        Some(w) => w.strip_prefix(':').and_then(|w| w.parse::<usize>().ok()),
                        None => None,
                    };
                    match (close, width) {
                        (Some(c), Some(w)) if (1..=20).contains(&w) => (Some(at), c + 1 - at, w),
                        _ => (None, 0, 0),
                    }
                }
                None => (None, 0, 0),
            }
        };
        let Some(at) = at else {
            anyhow::bail!("-o '{pattern}': {what}");
        };
        if pattern[at + len..].contains("{n") || pattern[at + len..].contains("{value}") {
            anyhow::bail!("-o '{pattern}': one placeholder only: {what}");
        }
        Ok(Pattern {
            before: pattern[..at].to_owned(),
            after: pattern[at + len..].to_owned(),
            width,
        })
    }

    fn numbered(&self, n: u64) -> PathBuf {
        PathBuf::from(format!(
            "{}{:0w$}{}",
            self.before,
            n,
            self.after,
            w = self.width
        ))
    }

    fn valued(&self, name: &str) -> PathBuf {
        PathBuf::from(format!("{}{name}{}", self.before, self.after))
    }
}
