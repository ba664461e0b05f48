//! `validate`, `pgn convert` and `replay`: runs of the library (`run::Run`) over the
//! archives named, their records printed as text or JSON Lines, in input order whatever
//! the number of worker threads, live (flushed per record on a terminal or with
//! `--line-buffered`) and interruptible (Ctrl-C keeps what was found).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::args::{GameArgs, PgnConvertArgs, ReplayArgs, ValidateArgs};
use super::live::{self, Out, ProgressLine, Shared};
use super::output::{Packed, open_output, persist, refuse_input};
use pocketfen::Severity;
use pocketfen::draw::report::{FileTotals, HtmlReport};
use pocketfen::game::{Format, GameProblem, Options, PlyText};
use pocketfen::run::record::{RunRecord, SummaryRecord, TotalRecord};
use pocketfen::run::{ProgressFn, Run, RunOptions, Task};
use pocketfen::stream::Compression;
use pocketfen::stream::Source;

/// How every game is read and judged.
pub(super) fn options(games: &GameArgs, strict: bool, variations: bool) -> Options {
    Options {
        variant: games.variant,
        strict,
        variations,
        drop_mate: !games.no_drop_mate,
        format: games.format,
    }
}

/// The archives named, or stdin: a directory stands for the archives under it, in
/// sorted order; one file with `--split`. A directory with no archive in it, or one that
/// cannot be read, stays in the list: its source fails to open with the reason
/// ([`sources`]), as a missing file does, and every other input is still read.
pub(super) fn files(games: &GameArgs) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in &games.files {
        if path != Path::new("-") && path.is_dir() {
            match pocketfen::stream::archives_under(path) {
                Ok(found) if !found.is_empty() => files.extend(found),
                _ => files.push(path.clone()),
            }
        } else {
            files.push(path.clone());
        }
    }
    if files.is_empty() {
        files.push(PathBuf::from("-"));
        // As other tools do, a person at a terminal is told what is being waited for.
        if std::io::IsTerminal::is_terminal(&io::stdin()) {
            live::note(
                None,
                format_args!(
                    "reading PGN from the terminal: paste games and end with Ctrl-D, or name files (`pocketfen … FILE…`, `-h` for help)"
                ),
            );
        }
    }
    if let Some(split) = games.split {
        if files.len() > 1 {
            anyhow::bail!(
                "--split {split} reads a part of one file, and {} are given: run one part of each file",
                files.len()
            );
        }
        if files[0] == Path::new("-") {
            anyhow::bail!(
                "--split {split} needs a file, which can be read from anywhere: standard input can only be read from its start"
            );
        }
    }
    Ok(files)
}

/// The sources of the paths: `-` is standard input, read so that Ctrl-C ends the read;
/// a directory (one [`files`] found no archive in) fails to open, saying why.
pub(super) fn sources(paths: &[PathBuf], opts: &RunOptions) -> Vec<Source> {
    paths
        .iter()
        .map(|p| match &opts.stop {
            Some(stop) if p == Path::new("-") => {
                Source::reader("<stdin>", live::Stdin::new(std::sync::Arc::clone(stop)))
            }
            _ if p != Path::new("-") && p.is_dir() => {
                let why = match pocketfen::stream::archives_under(p) {
                    Err(e) => format!("a directory that cannot be read: {e}"),
                    Ok(_) => "a directory with no archive in it (*.pgn or *.bpgn, compressed with .zst, .gz or .bz2 or not)".to_owned(),
                };
                Source::reader(p.to_string_lossy(), Unopenable(why))
            }
            _ => Source::path(p),
        })
        .collect()
}

/// A source that fails at its first read, with the reason: its summary says it was not
/// opened, as a missing file's does.
struct Unopenable(String);

impl io::Read for Unopenable {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::other(self.0.clone()))
    }
}

/// The run's options: the games' options, the jobs (all cores by default), the size
/// limit, the timings when asked for, a stop on Ctrl-C, and a progress line when one is
/// shown.
pub(super) fn run_options(
    games: &GameArgs,
    game: Options,
    jobs: Option<usize>,
    progress: Option<ProgressFn>,
) -> RunOptions {
    RunOptions {
        game,
        jobs: jobs.unwrap_or(0),
        max_game_bytes: games.max_game_bytes,
        progress,
        split: games.split,
        timings: games.timings,
        stop: Some(live::catch_signals()),
        // Games that come slowly down a pipe are worked on one by one, so that each
        // record comes as its game does.
        eager: live::line_buffered(games.line_buffered)
            && (games.files.is_empty() || games.files.iter().any(|f| f == Path::new("-")))
            && live::stdin_is_slow(),
    }
}

/// The progress line of a run over `paths`, unless `-q`.
pub(super) fn progress(
    games: &GameArgs,
    paths: &[PathBuf],
) -> (Option<Shared>, Option<ProgressFn>) {
    ProgressLine::start(games.quiet, paths, games.split.map_or(1, |s| s.of as u64))
}

/// A file's name as the text output gives it: control characters escaped, so that a
/// newline in a name cannot forge a report line (JSON escapes them itself).
pub(super) fn shown(name: &str) -> String {
    pocketfen::record::printable(name).into_owned()
}

/// A file's name as a game's text lines show it: with `--split K/N`, the part too
/// (`FILE (part 3/12)`), since the part's lines and games count from its own start
/// (`merge` gives the whole file's).
fn shown_in(name: &str, split: Option<pocketfen::stream::Split>) -> String {
    match split {
        Some(split) => format!("{} (part {split})", shown(name)),
        None => shown(name),
    }
}

/// The options a file's games are read with: its format from its name when `auto`.
fn options_for(opts: Options, name: &str) -> Options {
    if opts.format == Format::Auto {
        Options {
            format: Format::from_path(name),
            ..opts
        }
    } else {
        opts
    }
}

/// Writes one JSON record and a line end.
pub(super) fn json_line(out: &mut dyn Write, record: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// The problems of a game as `validate` prints them.
fn problem_lines(
    out: &mut dyn Write,
    file: &str,
    game: usize,
    problems: &[GameProblem],
) -> io::Result<()> {
    for p in problems {
        writeln!(out, "{}", p.display_in(file, game))?;
    }
    Ok(())
}

/// `n` and its noun, singular for one.
pub(super) fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// What the end of a file says on stderr besides its summary: that no game starts in a
/// part, its trailing bytes, and why it could not be read whole (`false` then).
pub(super) fn file_notes(line: Option<&Shared>, name: &str, s: &SummaryRecord) -> bool {
    if let Some(p) = &s.split
        && (p.start.is_none() || (p.start == p.end && s.totals.games == 0))
        && s.opened
        && s.stream_error.is_none()
        && !s.interrupted
    {
        let why = if p.compression == pocketfen::stream::Compression::None {
            "after its start the file has no tag line after a blank line that follows movetext (a point where a game surely starts), so the games there belong to the parts before it".to_owned()
        } else {
            format!(
                "a part holds the games that begin in the {} frames that start in its bytes, and none does here: no frame starts there, or the frames that do hold the rest of a game begun before (frames larger than the parts leave parts empty: split into fewer parts)",
                p.compression.name()
            )
        };
        live::note(
            line,
            format_args!(
                "{name}: part {}/{}: no game starts in this part: {why}",
                p.part, p.of
            ),
        );
    }
    if let Some(t) = &s.trailing_bytes {
        live::note(
            line,
            format_args!(
                "{name}: warning: {}",
                pocketfen::stream::Trailing {
                    compression: s.compression,
                    offset: t.offset,
                    len: t.length,
                    zeros: t.zero_padding,
                }
            ),
        );
    }
    match &s.stream_error {
        None => true,
        Some(e) if !s.opened => {
            live::note(line, format_args!("{name}: {e}"));
            false
        }
        // Nothing read: the file is not what it should be (binary, UTF-16, damaged).
        Some(e) if s.totals.games == 0 && s.bytes == 0 => {
            live::note(
                line,
                format_args!("{name}: the stream ends in an error before any text: {e}"),
            );
            false
        }
        Some(e) => {
            live::note(
                line,
                format_args!(
                    "{name}: the stream ends in an error after {} ({} bytes): {e}",
                    count(s.totals.games as u64, "game", "games"),
                    s.bytes
                ),
            );
            false
        }
    }
}

/// The time and speed of a summary, when the run gives timings.
pub(super) fn timing_text(seconds: Option<f64>, games: usize, bytes: u64) -> String {
    let Some(seconds) = seconds else {
        return String::new();
    };
    // The time is kept to the millisecond: a file read faster counts one, so that a
    // tiny file does not show a billion games a second.
    let secs = seconds.max(1e-3);
    format!(
        "; {seconds:.2} s, {:.0} games/s, {:.1} MB/s",
        games as f64 / secs,
        bytes as f64 / 1e6 / secs
    )
}

/// A file's summary line: counts, and time and speed with `--timings`.
pub(super) fn summary_text(s: &SummaryRecord) -> String {
    format!(
        "{}{}{}, {}, {} illegal, {} unreadable, {}{}{}",
        if s.interrupted { "interrupted: " } else { "" },
        s.split
            .as_ref()
            .map_or(String::new(), |p| format!("part {}/{}: ", p.part, p.of)),
        count(s.totals.games as u64, "game", "games"),
        count(s.totals.plies, "ply", "plies"),
        s.totals.illegal_games,
        s.totals.error_games,
        count(s.totals.warnings as u64, "warning", "warnings"),
        timing_text(s.seconds, s.totals.games, s.bytes),
        if s.compression == Compression::None {
            String::new()
        } else {
            format!(" ({} decompressed)", s.compression.name())
        },
    )
}

/// The grand total line of several files.
fn total_text(t: &TotalRecord) -> String {
    format!(
        "{}{}, {}, {}, {} illegal, {} unreadable, {}{}",
        if t.interrupted { "interrupted: " } else { "" },
        count(t.files as u64, "file", "files"),
        count(t.totals.games as u64, "game", "games"),
        count(t.totals.plies, "ply", "plies"),
        t.totals.illegal_games,
        t.totals.error_games,
        count(t.totals.warnings as u64, "warning", "warnings"),
        timing_text(t.seconds, t.totals.games, t.bytes),
    )
}

/// What a file's end says when `-q` leaves out its summary: only that it was cut short.
pub(super) fn quiet_end(line: Option<&Shared>, name: &str, s: &SummaryRecord) {
    if s.interrupted {
        live::note(
            line,
            format_args!(
                "{name}: interrupted after {}",
                count(s.totals.games as u64, "game", "games")
            ),
        );
    }
}

pub fn validate(args: &ValidateArgs) -> Result<bool> {
    let paths = files(&args.games)?;
    if let Some(html) = &args.html {
        refuse_input("--html", html, &paths)?;
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
    let (line, callback) = progress(&args.games, &paths);
    let line = line.as_ref();
    let task = Task::Validate { all: args.all };
    let ropts = run_options(&args.games, opts, args.jobs, callback);
    let mut run = Run::new(sources(&paths, &ropts), task, ropts);
    if html.is_some() {
        run = run.keep_bytes();
    }
    let mut out = Out::stdout(live::line_buffered(args.games.line_buffered), line);
    let quiet = args.games.quiet;
    let mut all_ok = true;
    let mut io_failed = false;
    // Whether the current file's section of the report is open.
    let mut in_file = false;
    while let Some(record) = run.next() {
        if let (Some((report, ..)), false, RunRecord::Game(_) | RunRecord::Summary(_)) =
            (&mut html, in_file, &record)
        {
            let file = match &record {
                RunRecord::Game(g) => &g.file,
                RunRecord::Summary(s) => &s.file,
                _ => unreachable!("a game or a summary"),
            };
            report.begin_file(&shown_in(file, args.games.split));
            in_file = true;
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
                        writeln!(
                            w,
                            "{}",
                            r.display_ok_in(&shown_in(&g.file, args.games.split))
                        )
                    } else {
                        problem_lines(
                            w,
                            &shown_in(&g.file, args.games.split),
                            r.number,
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
                let name = shown(&s.file);
                if let Some((report, ..)) = &mut html {
                    report.end_file(FileTotals {
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
                    });
                }
                // Nothing read (a file that is not text): the reason is all there is to say.
                let unread = s.totals.games == 0 && s.bytes == 0 && s.stream_error.is_some();
                if !s.opened || unread {
                } else if quiet {
                    quiet_end(line, &name, s);
                } else {
                    live::end_line(line);
                    live::note(line, format_args!("{name}: {}", summary_text(s)));
                }
                io_failed |= !file_notes(line, &name, s);
                all_ok &= s.totals.illegal_games == 0
                    && s.totals.error_games == 0
                    && !(args.strict && s.totals.warnings > 0);
            }
            // Several files: their total too (also when a stop left some unread).
            RunRecord::Total(t) if t.files > 1 || (t.interrupted && paths.len() > 1) => {
                if args.json {
                    out.record(|w| json_line(w, &record))
                        .context("writing the report")?;
                }
                out.flush().context("writing the report")?;
                if !quiet {
                    live::note(line, format_args!("total: {}", total_text(t)));
                }
            }
            _ => {}
        }
    }
    live::end_line(line);
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
    if io_failed {
        anyhow::bail!("some input could not be read completely");
    }
    Ok(all_ok)
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
        pocketfen::record::printable(&first.chars().take(40).collect::<String>())
    )
}

pub fn replay(args: &ReplayArgs) -> Result<bool> {
    let text = match args.emit {
        PlyText::Fen(_) => PlyText::Fen(args.dialect),
        PlyText::San(_) => PlyText::San(args.drop_style),
        PlyText::Uci => PlyText::Uci,
    };
    let paths = files(&args.games)?;
    let ropts = run_options(
        &args.games,
        options(&args.games, false, false),
        args.jobs,
        None,
    );
    let mut out = Out::stdout(live::line_buffered(args.games.line_buffered), None);
    let mut ok = true;
    let mut failed = None;
    for record in Run::new(sources(&paths, &ropts), Task::Replay { text }, ropts) {
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
                        live::note(None, p.display_error_in(&name, r.game));
                    }
                }
            }
            RunRecord::Summary(s) => {
                if args.json {
                    out.record(|w| json_line(w, &record))
                        .context("writing the output")?;
                }
                out.flush().context("writing the output")?;
                let name = shown(&s.file);
                let unread = s.totals.games == 0 && s.bytes == 0 && s.stream_error.is_some();
                if args.json || !s.opened || unread {
                } else if args.games.quiet {
                    quiet_end(None, &name, s);
                } else {
                    live::note(None, format_args!("{name}: {}", summary_text(s)));
                }
                if !file_notes(None, &name, s) && failed.is_none() {
                    let what = if s.opened { "reading" } else { "opening" };
                    failed = Some(format!(
                        "{name}: {what}: {}",
                        s.stream_error.as_deref().unwrap_or("")
                    ));
                }
            }
            RunRecord::Total(t) if t.files > 1 || (t.interrupted && paths.len() > 1) => {
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
    }
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
) -> io::Result<()> {
    writeln!(out, "# {name} game {game} (line {line})")
}

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
    let paths = files(&args.games)?;
    if let Some(dest) = &args.output {
        refuse_input("-o", dest, &paths)?;
    }
    let compression = args.output.as_deref().map_or(Compression::None, |p| {
        Compression::from_extension(&p.to_string_lossy())
    });
    if let (Some(level), Compression::None) = (args.level, compression) {
        anyhow::bail!(
            "--level {level} compresses nothing: write to FILE.zst, FILE.gz or FILE.bz2 (-o)"
        );
    }
    let (line, callback) = progress(&args.games, &paths);
    let line = line.as_ref();
    let (dest, temp) = open_output(args.output.as_deref())?;
    let to_stdout = args.output.is_none();
    let live_out = to_stdout && live::line_buffered(args.games.line_buffered);
    // Standard output goes through `Out` (per game, when live); a file through `Packed`.
    let dest: Box<dyn Write> = if to_stdout {
        Box::new(Out::to(dest, live_out, line))
    } else {
        Box::new(io::BufWriter::with_capacity(1 << 16, dest))
    };
    let mut out = Packed::new(
        dest,
        compression,
        args.level,
        pocketfen::run::jobs(args.jobs.unwrap_or(0)),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let task = Task::Convert {
        to: std::sync::Arc::new(pocketfen::run::Rewrite {
            target,
            style,
            layout: args.layout.layout(),
        }),
        keep_broken: args.keep_broken,
    };
    let ropts = run_options(
        &args.games,
        options(&args.games, args.strict, true),
        args.jobs,
        callback,
    );
    let sources = sources(&paths, &ropts);
    let mut ok = true;
    let mut io_failed = false;
    let mut interrupted = false;
    let mut written = Written::default();
    let (mut all_written, mut files) = (Written::default(), 0);
    let result = (|| -> Result<()> {
        for record in Run::new(sources, task, ropts) {
            match record {
                RunRecord::Converted(c) => {
                    ok &= !c.refused;
                    if c.refused && args.keep_broken && c.raw.is_none() {
                        // Over the size limit: no bytes to copy.
                        written.unread += 1;
                    } else if c.refused {
                        let kind = c
                            .problems
                            .iter()
                            .find(|p| p.severity == Severity::Error)
                            .or(c.problems.first())
                            .map_or("refused", |p| p.kind.name());
                        *written.refused.entry(kind).or_default() += 1;
                    } else {
                        written.games += 1;
                    }
                    if !c.problems.is_empty() {
                        let mut said = Vec::new();
                        problem_lines(
                            &mut said,
                            &shown_in(&c.file, args.games.split),
                            c.game,
                            &c.problems,
                        )?;
                        live::without_line(line, || io::stderr().write_all(&said))?;
                    }
                    let bytes = match &c.raw {
                        Some(raw) => &raw.bytes[..],
                        None => c.text.as_bytes(),
                    };
                    out.write_all(bytes)?;
                    if !bytes.is_empty() && !bytes.ends_with(b"\n\n") {
                        out.write_all(if bytes.ends_with(b"\n") {
                            b"\n"
                        } else {
                            b"\n\n"
                        })?;
                    }
                    if live_out {
                        out.flush()?;
                    }
                }
                RunRecord::Summary(s) => {
                    out.flush()?;
                    let name = shown(&s.file);
                    interrupted |= s.interrupted;
                    if s.opened {
                        files += 1;
                        all_written.games += written.games;
                        all_written.unread += written.unread;
                        for (k, n) in &written.refused {
                            *all_written.refused.entry(k).or_default() += n;
                        }
                        if args.games.quiet {
                            quiet_end(line, &name, &s);
                        } else {
                            live::end_line(line);
                            live::note(
                                line,
                                format_args!(
                                    "{name}: {}{}{}",
                                    if s.interrupted { "interrupted: " } else { "" },
                                    written.text(args.keep_broken),
                                    timing_text(s.seconds, s.totals.games, s.bytes)
                                ),
                            );
                        }
                    }
                    written = Written::default();
                    io_failed |= !file_notes(line, &name, &s);
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
        }
        live::end_line(line);
        out.finish().context("writing the output")?;
        Ok(())
    })();
    // The destination is replaced only by a run that read all its input: a failed or
    // interrupted run drops the temporary file and leaves an existing destination as
    // it was.
    // A stop before the first file was opened leaves no summary to say so.
    interrupted |= live::stopped();
    if let (Some(temp), Some(path)) = (temp, &args.output) {
        if result.is_ok() && !io_failed && !interrupted {
            persist(temp, path)?;
        } else {
            live::set_partial(None);
            drop(temp);
            if interrupted {
                live::note(
                    None,
                    format_args!(
                        "interrupted; {} not written",
                        shown(&path.to_string_lossy())
                    ),
                );
            }
        }
    }
    result.context("writing the output")?;
    if io_failed {
        anyhow::bail!("some input could not be read completely");
    }
    if all_written.unread + written.unread > 0 {
        let n = all_written.unread + written.unread;
        anyhow::bail!(
            "{} over --max-game-bytes {} in no output, --keep-broken or not: raise the limit to keep them",
            count(n as u64, "game", "games"),
            if n == 1 { "is" } else { "are" }
        );
    }
    Ok(ok)
}
