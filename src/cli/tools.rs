//! `pgn select`, `pgn dedupe` and `pgn split`: archive work that writes games exactly as
//! they were read, in input order, streaming, on every core.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};

use super::args::{DedupeArgs, SelectArgs, SplitArgs, ToolInput};
use super::by_tag::{TagFiles, TagNames};
use super::live::{self, Shared};
use super::output::{Packed, open_output, persist, refuse_input, write_raw};
use super::validate::{
    count, file_notes, files, options, progress, quiet_end, run_options, shown, sources,
    timing_text,
};
use pocketfen::game::{Reaches, Selection};
use pocketfen::run::record::{RunRecord, SummaryRecord};
use pocketfen::run::{Rewrite, Run, Task};
use pocketfen::stream::Compression;

/// An output file of these commands (stdout for `None`): compressed by its extension,
/// through a temporary file renamed at the end, never one of the inputs.
struct Dest {
    path: Option<PathBuf>,
    out: Packed,
    temp: Option<tempfile::NamedTempFile>,
}

impl Dest {
    fn open(flag: &str, path: Option<&Path>, inputs: &[PathBuf], jobs: usize) -> Result<Dest> {
        if let Some(p) = path {
            refuse_input(flag, p, inputs)?;
        }
        let compression = path.map_or(Compression::None, |p| {
            Compression::from_extension(&p.to_string_lossy())
        });
        let (w, temp) = open_output(path)?;
        let w: Box<dyn Write> = Box::new(io::BufWriter::with_capacity(1 << 16, w));
        let out = Packed::new(w, compression, None, jobs).map_err(|e| anyhow::anyhow!("{e}"))?;
        Ok(Dest {
            path: path.map(Path::to_owned),
            out,
            temp,
        })
    }

    /// Finishes the file; it replaces its destination only when `keep`.
    fn finish(mut self, keep: bool) -> Result<()> {
        self.out.finish().context("writing the output")?;
        match (self.temp, &self.path) {
            (Some(temp), Some(path)) if keep => persist(temp, path),
            (Some(temp), _) => {
                live::set_partial(None);
                drop(temp);
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// What the end of a file of these commands says: its notes, and (unless `-q`) `what`.
fn file_end(line: Option<&Shared>, input: &ToolInput, s: &SummaryRecord, what: &str) -> bool {
    let name = shown(&s.file);
    if s.opened {
        if input.quiet {
            quiet_end(line, &name, s);
        } else {
            live::end_line(line);
            live::note(
                line,
                format_args!(
                    "{name}: {}{what}{}",
                    if s.interrupted { "interrupted: " } else { "" },
                    timing_text(s.seconds, s.totals.games, s.bytes)
                ),
            );
        }
    }
    file_notes(line, &name, s)
}

/// Says that a game over `--max-game-bytes` is in no output: its bytes were never read
/// (the limit keeps memory bounded), so it can be neither copied nor judged.
fn too_large(line: Option<&Shared>, file: &str, game: usize, at: usize, size: u64) {
    live::note(
        line,
        format_args!(
            "{}:{at}:1: game {game}: error: game-too-large: the game is {size} bytes, over the size limit (--max-game-bytes): it is in no output",
            shown(file)
        ),
    );
}

/// The end of a run: an error when an input broke off, or when games over
/// `--max-game-bytes` (`unread`) are in no output (`what`: output or file).
fn run_end(io_failed: bool, unread: usize, what: &str) -> Result<()> {
    if io_failed {
        anyhow::bail!("some input could not be read completely");
    }
    if unread > 0 {
        anyhow::bail!(
            "{} over --max-game-bytes {} in no {what}: raise the limit to keep them",
            count(unread as u64, "game", "games"),
            if unread == 1 { "is" } else { "are" }
        );
    }
    Ok(())
}

/// Refuses two outputs that are one file (`-o x --rest x`): each would overwrite the
/// other's games.
fn refuse_same(a: (&str, Option<&Path>), b: (&str, Option<&Path>)) -> Result<()> {
    let (Some(pa), Some(pb)) = (a.1, b.1) else {
        return Ok(());
    };
    let key = |p: &Path| -> Option<PathBuf> {
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(dir).ok()?.join(p.file_name()?))
    };
    let same = match (std::fs::metadata(pa), std::fs::metadata(pb)) {
        (Ok(x), Ok(y)) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                x.dev() == y.dev() && x.ino() == y.ino()
            }
            #[cfg(not(unix))]
            {
                let _ = (x, y);
                key(pa) == key(pb)
            }
        }
        _ => key(pa).is_some() && key(pa) == key(pb),
    };
    if same {
        anyhow::bail!(
            "{} {} and {} {} are one file: each would overwrite the other's games",
            a.0,
            pa.display(),
            b.0,
            pb.display()
        );
    }
    Ok(())
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
        // A Lichess URL's variant, unless one is asked for.
        variant: args.variant.or(position.as_ref().and_then(|p| p.variant)),
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

pub fn select(args: &SelectArgs) -> Result<bool> {
    let sel = Arc::new(selection(args)?);
    let mut seen = TagNamesSeen::default();
    let games = args.input.games();
    let paths = files(&games)?;
    let jobs = pocketfen::run::jobs(args.input.jobs.unwrap_or(0));
    refuse_same(
        ("-o", args.output.as_deref()),
        ("--rest", args.rest.as_deref()),
    )?;
    let mut out = if args.count {
        None
    } else {
        Some(Dest::open("-o", args.output.as_deref(), &paths, jobs)?)
    };
    let mut rest = args
        .rest
        .as_deref()
        .map(|p| Dest::open("--rest", Some(p), &paths, jobs))
        .transpose()?;
    let (line, callback) = progress(&games, &paths);
    let line = line.as_ref();
    let ropts = run_options(
        &games,
        options(&games, args.strict, false),
        args.input.jobs,
        callback,
    );
    let rewrite = match args.to {
        Some(target) => Some(Arc::new(Rewrite {
            target,
            style: target.drop_style(),
            layout: args.layout.layout(),
        })),
        None if args.layout.any() => anyhow::bail!(
            "--strip, --tags, -w and --ply-limit rewrite the games: say for which site (--to lichess, chesscom or xboard)"
        ),
        None => None,
    };
    let run = Run::new(
        sources(&paths, &ropts),
        Task::Select(Arc::clone(&sel), rewrite),
        ropts,
    );
    let (mut chosen, mut all_chosen) = (0usize, 0usize);
    let mut games_read = 0usize;
    // Games over --max-game-bytes: in no output.
    let mut unread = 0usize;
    let mut io_failed = false;
    let mut interrupted = false;
    let result = (|| -> Result<()> {
        for record in run {
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
                                Some(text) => write_raw(&mut out.out, text.as_bytes())?,
                                None => write_raw(&mut out.out, &g.raw.bytes)?,
                            }
                        }
                    } else if let Some(rest) = &mut rest {
                        write_raw(&mut rest.out, &g.raw.bytes)?;
                    }
                }
                RunRecord::Summary(s) => {
                    interrupted |= s.interrupted;
                    let what = format!(
                        "{chosen} of {} selected",
                        count(s.totals.games as u64, "game", "games")
                    );
                    io_failed |= !file_end(line, &args.input, &s, &what);
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
        }
        Ok(())
    })();
    live::end_line(line);
    // A stop before the first file was opened leaves no summary to say so.
    interrupted |= live::stopped();
    let keep = result.is_ok() && !io_failed && !interrupted;
    if let Some(out) = out {
        out.finish(keep)?;
    }
    if let Some(rest) = rest {
        rest.finish(keep)?;
    }
    result.context("writing the output")?;
    if games_read > 0 && !interrupted {
        seen.warn(&sel);
    }
    if args.count {
        println!("{all_chosen}");
    }
    run_end(io_failed, unread, "output")?;
    Ok(all_chosen > 0)
}

/// Where a kept game is: its file's index, number and line.
#[derive(Clone, Copy)]
struct Seen {
    file: u32,
    game: usize,
    line: usize,
}

pub fn dedupe(args: &DedupeArgs) -> Result<bool> {
    let games = args.input.games();
    let paths = files(&games)?;
    let jobs = pocketfen::run::jobs(args.input.jobs.unwrap_or(0));
    refuse_same(
        ("-o", args.output.as_deref()),
        ("--duplicates", args.duplicates.as_deref()),
    )?;
    let mut out = Dest::open("-o", args.output.as_deref(), &paths, jobs)?;
    let mut dups = args
        .duplicates
        .as_deref()
        .map(|p| Dest::open("--duplicates", Some(p), &paths, jobs))
        .transpose()?;
    let (line, callback) = progress(&games, &paths);
    let line = line.as_ref();
    let ropts = run_options(
        &games,
        options(&games, false, false),
        args.input.jobs,
        callback,
    );
    let run = Run::new(sources(&paths, &ropts), Task::Dedupe { by: args.by }, ropts);
    // One entry per distinct game: its 128-bit key and where it is.
    let mut seen: HashMap<u128, Seen> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let (mut found, mut all_found) = (0usize, 0usize);
    let (mut unread, mut file_unread) = (0usize, 0usize);
    let mut io_failed = false;
    let mut interrupted = false;
    // The duplicates' lines, written to stderr 64 KiB at a time (an archive of copies
    // has a line per game), and before each summary.
    let mut said: Vec<u8> = Vec::new();
    let tell = |said: &mut Vec<u8>| -> io::Result<()> {
        let r = live::without_line(line, || io::stderr().write_all(said));
        said.clear();
        r
    };
    let result = (|| -> Result<()> {
        for record in run {
            match record {
                RunRecord::Keyed(g) if g.raw.too_large.is_some() => {
                    too_large(line, &g.file, g.game, g.line, g.raw.too_large.unwrap_or(0));
                    unread += 1;
                    file_unread += 1;
                }
                RunRecord::Keyed(g) => {
                    if names.last() != Some(&g.file) {
                        names.push(g.file.clone());
                    }
                    let file = (names.len() - 1) as u32;
                    match seen.entry(g.key) {
                        Entry::Vacant(v) => {
                            v.insert(Seen {
                                file,
                                game: g.game,
                                line: g.line,
                            });
                            write_raw(&mut out.out, &g.raw.bytes)?;
                        }
                        Entry::Occupied(first) => {
                            found += 1;
                            if let Some(d) = &mut dups {
                                write_raw(&mut d.out, &g.raw.bytes)?;
                            }
                            if !args.verbose {
                                continue;
                            }
                            let first = *first.get();
                            writeln!(
                                said,
                                "{}:{}: game {} duplicates game {} ({}:{})",
                                shown(&g.file),
                                g.line,
                                g.game,
                                first.game,
                                shown(&names[first.file as usize]),
                                first.line
                            )?;
                            if said.len() >= 1 << 16 {
                                tell(&mut said)?;
                            }
                        }
                    }
                }
                RunRecord::Summary(s) => {
                    tell(&mut said)?;
                    interrupted |= s.interrupted;
                    let what = format!(
                        "{}, {} kept",
                        count(s.totals.games as u64, "game", "games"),
                        s.totals.games - found - file_unread
                    );
                    file_unread = 0;
                    let what = if found > 0 {
                        format!("{what}, {}", count(found as u64, "duplicate", "duplicates"))
                    } else {
                        what
                    };
                    io_failed |= !file_end(line, &args.input, &s, &what);
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
        }
        Ok(())
    })();
    live::end_line(line);
    // A stop before the first file was opened leaves no summary to say so.
    interrupted |= live::stopped();
    let keep = result.is_ok() && !io_failed && !interrupted;
    out.finish(keep)?;
    if let Some(d) = dups {
        d.finish(keep)?;
    }
    result.context("writing the output")?;
    run_end(io_failed, unread, "output")?;
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

pub fn split(args: &SplitArgs) -> Result<bool> {
    let pattern = Pattern::new(&args.output, args.by_tag.is_some())?;
    let games = args.input.games();
    let paths = files(&games)?;
    let (line, callback) = progress(&games, &paths);
    let line = line.as_ref();
    let sel = Selection {
        capture: args.by_tag.clone(),
        ..Selection::default()
    };
    let ropts = run_options(
        &games,
        options(&games, false, false),
        args.input.jobs,
        callback,
    );
    let run = Run::new(
        sources(&paths, &ropts),
        Task::Select(Arc::new(sel), None),
        ropts,
    );
    let mut io_failed = false;
    let mut unread = 0usize;
    // --every: the file being written, its number and its games.
    let mut current: Option<(Dest, u64, u64)> = None;
    let mut numbered: Vec<(PathBuf, u64)> = Vec::new();
    let mut tagged = TagFiles::default();
    let mut names = TagNames::default();
    let result = (|| -> Result<()> {
        for record in run {
            match record {
                RunRecord::Selected(g) if g.raw.too_large.is_some() => {
                    too_large(line, &g.file, g.game, g.line, g.raw.too_large.unwrap_or(0));
                    unread += 1;
                }
                RunRecord::Selected(g) => {
                    if args.by_tag.is_some() {
                        let path = pattern.valued(names.name(g.captured.as_deref()));
                        tagged.write(&path, &paths, &g.raw.bytes)?;
                        continue;
                    }
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
                        current = Some((Dest::open("-o", Some(&path), &paths, 1)?, k, 0));
                    }
                    let (dest, _, n) = current.as_mut().expect("a file");
                    write_raw(&mut dest.out, &g.raw.bytes)?;
                    *n += 1;
                }
                RunRecord::Summary(s) => {
                    io_failed |= !file_end(
                        line,
                        &args.input,
                        &s,
                        &count(s.totals.games as u64, "game", "games"),
                    );
                }
                _ => {}
            }
        }
        Ok(())
    })();
    live::end_line(line);
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
    run_end(io_failed, unread, "file")?;
    Ok(true)
}
