//! `pgn select`: the games that meet every criterion, written exactly as they were read
//! (or rewritten for a site with `--to`), the others to `--rest`; `--count` counts them.

use std::sync::Arc;

use anyhow::{Context, Result};

use super::archive::{
    Archive, Dest, count, file_end, options, refuse_same, run_end, too_large, write_raw,
};
use super::args::SelectArgs;
use super::live;
use pocketfen::game::Rewrite;
use pocketfen::game::{Reaches, Selection};
use pocketfen::run::Task;
use pocketfen::run::record::RunRecord;
use pocketfen::stream::write_game;

pub fn select(args: &SelectArgs) -> Result<bool> {
    let sel = Arc::new(selection(args)?);
    let mut seen = TagNamesSeen::default();
    let games = args.input.games();
    let mut archive = Archive::open(&games, true)?;
    let jobs = pocketfen::run::jobs(args.input.jobs.unwrap_or(0));
    refuse_same(
        ("-o", args.output.as_deref()),
        ("--rest", args.rest.as_deref()),
    )?;
    let mut out = if args.count {
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
    let rewrite = match args.to {
        Some(target) => Some(Arc::new(Rewrite {
            target,
            style: target.drop_style(),
            layout: args.layout.layout(),
        })),
        None if args.layout.any() => anyhow::bail!(
            "--strip, --tags, --add-tags, -w and --ply-limit rewrite the games: say for which site (--to lichess, chesscom or xboard)"
        ),
        None => None,
    };
    let task = Task::Select(Arc::clone(&sel), rewrite);
    let run = archive.run(options(&games, args.strict, false), args.input.jobs, task);
    let line = archive.line();
    let (mut chosen, mut all_chosen) = (0usize, 0usize);
    let mut games_read = 0usize;
    // Games over --max-game-bytes: in no output.
    let mut unread = 0usize;
    let ended = archive.drive(run, |_, record| {
        match record {
            RunRecord::Selected(g) if g.raw.too_large.is_some() => {
                too_large(line, &g.file, g.game, g.line, g.raw.too_large.unwrap_or(0));
                unread += 1;
            }
            RunRecord::Selected(g) => {
                seen.add(&sel, &g);
                games_read += 1;
                if g.selected {
                    chosen += 1;
                    if let Some(out) = &mut out {
                        match &g.text {
                            Some(text) => write_game(&mut out.out, text.as_bytes())?,
                            None => write_raw(&mut out.out, &g.raw.bytes, g.line)?,
                        }
                    }
                } else if let Some(rest) = &mut rest {
                    write_raw(&mut rest.out, &g.raw.bytes, g.line)?;
                }
            }
            RunRecord::Summary(s) => {
                let what = format!(
                    "{chosen} of {} selected",
                    count(s.totals.games as u64, "game", "games")
                );
                file_end(line, args.input.quiet, &s, &what);
                all_chosen += chosen;
                chosen = 0;
            }
            RunRecord::Total(t) if t.files > 1 && !args.input.quiet => {
                live::note(
                    line,
                    format_args!(
                        "total: {}, {all_chosen} of {} selected",
                        count(t.files as u64, "file", "files"),
                        count(t.totals.games as u64, "game", "games")
                    ),
                );
            }
            _ => {}
        }
        Ok(())
    });
    let keep = ended.complete();
    // With `--count` and no `--rest` there is no output to keep.
    let wrote = keep && (out.is_some() || rest.is_some());
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
    if games_read > 0 && !ended.interrupted {
        seen.warn(&sel);
    }
    if args.count {
        println!("{all_chosen}");
    }
    run_end(ended.io_failed, (wrote, streamed), unread, "output", "")?;
    Ok(all_chosen > 0)
}

/// How many games lacking a tag criterion's tag lend their tag names, to find the name
/// a misspelt criterion meant.
const NAME_SAMPLES: usize = 1000;

/// The selection the arguments ask for. A tag criterion whose value starts like an
/// operator (`WhiteElo=>2400` is the exact value `>2400`) is warned of at once.
fn selection(args: &SelectArgs) -> Result<Selection> {
    let position = args
        .position
        .as_deref()
        .map(|fen| Reaches::new(fen, args.board_only))
        .transpose()
        .map_err(|e| anyhow::anyhow!("--position {e}"))?;
    for t in &args.tags {
        if let pocketfen::game::TagTest::Is(value) = &t.test
            && let Some(op) = value.chars().next().filter(|c| "<>=~!".contains(*c))
        {
            let rest = &value[op.len_utf8()..];
            let meant = match op {
                '<' | '>' => format!("{}{op}={rest}` or `{}{op}{rest}", t.name, t.name),
                '~' => format!("{}~{rest}", t.name),
                _ => format!("{}={rest}", t.name),
            };
            live::note(
                None,
                format_args!(
                    "warning: --tag `{}={value}` asks for the exact value `{value}`; did you mean `{meant}`?",
                    t.name
                ),
            );
        }
    }
    Ok(Selection {
        tags: args.tags.clone(),
        variant: args.variant,
        players: args.player.clone(),
        results: args.result.clone(),
        min_plies: args.min_plies,
        max_plies: args.max_plies,
        position,
        ends_in: args.ends_in,
        valid: match (args.valid, args.invalid) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        capture: None,
        eco: args.eco.clone(),
        opening: args
            .opening
            .iter()
            .map(|p| pocketfen::game::NamePattern::new(p))
            .collect(),
        capture_opening: None,
        name_samples: (!args.tags.is_empty())
            .then(|| Arc::new(std::sync::atomic::AtomicUsize::new(NAME_SAMPLES))),
    })
}

/// Which tag criteria no game of the input matched the name of, and the names the
/// input's games have: told after the run, each with the nearest name.
#[derive(Default)]
struct TagNamesSeen {
    present: u64,
    names: std::collections::BTreeSet<String>,
}

impl TagNamesSeen {
    /// Takes in a game's record; stops the sampling once every criterion's tag is seen.
    fn add(&mut self, sel: &Selection, g: &pocketfen::run::record::SelectedRecord) {
        self.present |= g.tags_present;
        if let Some(names) = &g.tag_names {
            for n in names.lines() {
                if !self.names.contains(n) {
                    self.names.insert(n.to_owned());
                }
            }
        }
        let all = if sel.tags.len() >= 64 {
            u64::MAX
        } else {
            (1u64 << sel.tags.len()) - 1
        };
        if self.present == all
            && let Some(samples) = &sel.name_samples
        {
            samples.store(0, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Warns of each criterion on a tag no game has, with the nearest name seen.
    fn warn(&self, sel: &Selection) {
        let mut told = Vec::new();
        for (i, t) in sel.tags.iter().enumerate().take(64) {
            if self.present & (1 << i) != 0 || told.contains(&t.name) {
                continue;
            }
            told.push(t.name.clone());
            let nearest = self
                .names
                .iter()
                .map(|n| (edit_distance(&n.to_lowercase(), &t.name.to_lowercase()), n))
                .filter(|(d, n)| {
                    let len = n.chars().count().max(t.name.chars().count());
                    *d <= match len {
                        0..=4 => 1,
                        5..=8 => 2,
                        _ => len / 4,
                    }
                })
                .min();
            let hint = match nearest {
                Some((_, n)) => format!("; did you mean [{n}]?"),
                None => String::new(),
            };
            live::note(
                None,
                format_args!(
                    "warning: --tag {}: no game of the input has a [{}] tag (tag names are case-sensitive){hint}",
                    t.name, t.name
                ),
            );
        }
    }
}

/// The Levenshtein distance between `a` and `b`, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (up + 1).min(row[j] + 1).min(diag + usize::from(ca != cb));
            diag = up;
        }
    }
    row[b.len()]
}
