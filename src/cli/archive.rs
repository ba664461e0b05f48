//! What every archive command shares: its inputs (files, directories, stdin; one file
//! with `--split`), the run's options (jobs, size limit, timings, Ctrl-C, eager reading of
//! a slow pipe), the progress line, the loop over the run's records that notes how each
//! archive ended, and the text every command gives a file's end, a game over the size
//! limit and the run's end. Each command (`validate.rs`, `convert.rs`, `replay.rs`,
//! `select.rs`, `dedupe.rs`, `split.rs`) is its options, its sink for the records, and
//! its outputs.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::args::GameArgs;
use super::live::{self, ProgressLine, Shared};
use super::output::{open_output, persist, refuse_input};
use pocketfen::game::{Format, GameAt, GameProblem, Options};
use pocketfen::notation::printable;
use pocketfen::run::record::{RunRecord, SummaryRecord, TotalRecord};
use pocketfen::run::{ProgressFn, Run, RunOptions, Task};
use pocketfen::stream::{ArchiveWriter, Compression, Source, copied_game, write_game};

/// An archive command's inputs and progress line, from which its run starts.
pub(super) struct Archive {
    /// The archives to read, in order (`-` for stdin).
    pub(super) paths: Vec<PathBuf>,
    line: Option<Shared>,
    progress: Option<ProgressFn>,
    games: GameArgs,
    /// Whether the run keeps the bytes of games with problems (`validate --html`).
    pub(super) keep_bytes: bool,
    /// Whether `validate` names each game's opening in its record.
    pub(super) openings: bool,
}

/// How a run ended: whether an archive could not be read whole, whether one's reading
/// ended before its end, and whether the run was interrupted (Ctrl-C, SIGTERM); and the
/// error that ended it early, if any.
pub(super) struct Ended {
    /// Some archive was not read whole: it could not be opened, its reading ended in an
    /// error, or damage in it (a damaged frame stepped over, a damaged row group) lost
    /// games that reading went on past.
    pub(super) io_failed: bool,
    /// Some archive's reading ended before its end (not opened, or an error that ended
    /// it): damage read past does not count.
    pub(super) cut_short: bool,
    pub(super) interrupted: bool,
    pub(super) result: Result<()>,
}

impl Ended {
    /// Whether the outputs replace their destinations: the run read every input to its
    /// end (past damage whose games are lost, which the notes name) and wrote without
    /// error.
    pub(super) fn complete(&self) -> bool {
        self.result.is_ok() && !self.cut_short && !self.interrupted
    }
}

impl Archive {
    /// The inputs `games` names, and a progress line unless `-q` or `progress` is false
    /// (a command whose output is the terminal's).
    pub(super) fn open(games: &GameArgs, progress: bool) -> Result<Archive> {
        let paths = files(games)?;
        let (line, callback) = if progress {
            ProgressLine::start(games.quiet, &paths, games.split.map_or(1, |s| s.of as u64))
        } else {
            (None, None)
        };
        Ok(Archive {
            paths,
            line,
            progress: callback,
            games: games.clone(),
            keep_bytes: false,
            openings: false,
        })
    }

    /// The progress line, when one is shown.
    pub(super) fn line(&self) -> Option<&Shared> {
        self.line.as_ref()
    }

    /// Starts the run of `task`, reading games with `game` on `jobs` workers.
    pub(super) fn run(&mut self, game: Options, jobs: Option<usize>, task: Task) -> Run {
        let opts = RunOptions {
            keep_bytes: self.keep_bytes,
            openings: self.openings,
            ..run_options(&self.games, game, jobs, self.progress.take())
        };
        Run::new(sources(&self.paths, &opts), task, opts)
    }

    /// Hands each record of `run` to `each` (which gets the run too, to change what it
    /// keeps), and after each archive's summary says on stderr what its end needs to say
    /// ([`file_notes`]); stops at the first error `each` gives. Clears the progress line.
    pub(super) fn drive(
        &self,
        mut run: Run,
        mut each: impl FnMut(&Run, RunRecord) -> Result<()>,
    ) -> Ended {
        let line = self.line();
        let (mut io_failed, mut cut_short, mut interrupted) = (false, false, false);
        let result = loop {
            let Some(record) = run.next() else {
                break Ok(());
            };
            let summary = match &record {
                RunRecord::Summary(s) => Some(s.clone()),
                _ => None,
            };
            if let Err(e) = each(&run, record) {
                break Err(e);
            }
            if let Some(s) = summary {
                interrupted |= s.interrupted;
                io_failed |= !file_notes(line, &printable(&s.file), &s);
                cut_short |= !s.opened || s.ended_early;
            }
        };
        live::end_line(line);
        // A stop before the first file was opened leaves no summary to say so.
        interrupted |= live::stopped();
        Ended {
            io_failed,
            cut_short,
            interrupted,
            result,
        }
    }
}

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
                    Ok(_) => pocketfen::stream::NO_ARCHIVE.to_owned(),
                };
                Source::reader(p.to_string_lossy(), Unopenable(why))
            }
            _ => Source::path(p),
        })
        .collect()
}

/// A source that fails at its first read, with the reason: its summary says it was not
/// opened, as a missing file's does.
pub(super) struct Unopenable(String);

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
        keep_bytes: false,
        openings: false,
        // Games that come slowly down a pipe are worked on one by one, so that each
        // record comes as its game does.
        eager: live::line_buffered(games.line_buffered)
            && (games.files.is_empty() || games.files.iter().any(|f| f == Path::new("-")))
            && live::stdin_is_slow(),
    }
}

/// A file's name as a game's text lines show it: with `--split K/N`, the part too
/// (`FILE (part 3/12)`), since the part's lines and games count from its own start
/// (`merge` gives the whole file's).
pub(super) fn shown_in(name: &str, split: Option<pocketfen::stream::Split>) -> String {
    match split {
        Some(split) => format!("{} (part {split})", printable(name)),
        None => printable(name).into_owned(),
    }
}

/// The options a file's games are read with: its format from its name when `auto`.
pub(super) fn options_for(opts: Options, name: &str) -> Options {
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
    // (An I/O error comes back as itself, its kind kept: a closed pipe ends the run
    // quietly, as it does for text.)
    serde_json::to_writer(&mut *out, record).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// The problems of a game as `validate` prints them.
pub(super) fn problem_lines(
    out: &mut dyn Write,
    file: &str,
    game: GameAt,
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
        let why = if p.row_groups {
            "a part of a Parquet file holds the row groups that start in its bytes, and none does here (row groups larger than the parts leave parts empty: split into fewer parts)".to_owned()
        } else if p.compression == pocketfen::stream::Compression::None {
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
        // Rows lost in damaged row groups, or games at breaks in a compressed text (a
        // damaged frame stepped over), the others read.
        Some(e) if s.totals.lost > 0 || !s.breaks.is_empty() => {
            let (one, many) = if s.breaks.is_empty() {
                ("row", "rows")
            } else {
                ("game", "games")
            };
            live::note(
                line,
                format_args!(
                    "{name}: {} read, {} lost{}: {e}",
                    count(s.totals.games as u64, "game", "games"),
                    count(s.totals.lost as u64, one, many),
                    s.text_lost()
                        .map_or(String::new(), |t| format!(", and {t}")),
                ),
            );
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
        "{}{}{}, {}, {} illegal, {} unreadable, {}{}{}{}{}",
        if s.interrupted { "interrupted: " } else { "" },
        s.split
            .as_ref()
            .map_or(String::new(), |p| format!("part {}/{}: ", p.part, p.of)),
        count(s.totals.games as u64, "game", "games"),
        count(s.totals.plies, "ply", "plies"),
        s.totals.illegal_games,
        s.totals.error_games,
        count(s.totals.warnings as u64, "warning", "warnings"),
        skipped_text(s.totals.skipped),
        lost_text(
            s.totals.lost,
            &match (s.breaks.is_empty(), s.text_lost()) {
                (true, _) => "damaged row groups".to_owned(),
                (false, None) => "damaged frames".to_owned(),
                (false, Some(t)) => format!(
                    "damaged frames, with {}{} bytes of text",
                    if t.exact { "" } else { "up to " },
                    t.bytes
                ),
            }
        ),
        timing_text(s.seconds, s.totals.games, s.bytes),
        if s.compression == Compression::None {
            String::new()
        } else {
            format!(" ({} decompressed)", s.compression.name())
        },
    )
}

/// The grand total line of several files.
pub(super) fn total_text(t: &TotalRecord) -> String {
    format!(
        "{}{}, {}, {}, {} illegal, {} unreadable, {}{}{}{}",
        if t.interrupted { "interrupted: " } else { "" },
        count(t.files as u64, "file", "files"),
        count(t.totals.games as u64, "game", "games"),
        count(t.totals.plies, "ply", "plies"),
        t.totals.illegal_games,
        t.totals.error_games,
        count(t.totals.warnings as u64, "warning", "warnings"),
        skipped_text(t.totals.skipped),
        lost_text(t.totals.lost, "damaged input"),
        timing_text(t.seconds, t.totals.games, t.bytes),
    )
}

/// `, N lost (damaged row groups)`: the rows of a Parquet file that could not be read,
/// or the games left out where a compressed text breaks (`damaged frames`).
fn lost_text(lost: usize, why: &str) -> String {
    if lost == 0 {
        String::new()
    } else {
        format!(", {lost} lost ({why})")
    }
}

/// `, N skipped (no moves)`: the entries of a Chess.com JSON archive without a game.
fn skipped_text(skipped: usize) -> String {
    if skipped == 0 {
        String::new()
    } else {
        format!(", {skipped} skipped (no moves)")
    }
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

/// An output file of `pgn select`, `dedupe` and `split` (stdout for `None`): compressed by its extension,
/// through a temporary file renamed at the end, never one of the inputs.
pub(super) struct Dest {
    path: Option<PathBuf>,
    pub(super) out: ArchiveWriter,
    temp: Option<tempfile::NamedTempFile>,
}

impl Dest {
    pub(super) fn open(
        flag: &str,
        path: Option<&Path>,
        inputs: &[PathBuf],
        jobs: usize,
    ) -> Result<Dest> {
        // `-o -` is stdout, as `-` is stdin among the inputs.
        let path = path.filter(|p| p.as_os_str() != "-");
        if let Some(p) = path {
            refuse_input(flag, p, inputs)?;
        }
        let compression = path.map_or(Compression::None, |p| {
            Compression::from_name(&p.to_string_lossy())
        });
        let (w, temp) = open_output(path)?;
        let w: Box<dyn Write> = Box::new(io::BufWriter::with_capacity(1 << 16, w));
        let out = ArchiveWriter::new(w, compression, None, jobs)?;
        Ok(Dest {
            path: path.map(Path::to_owned),
            out,
            temp,
        })
    }

    /// Whether it is standard output (its games are out as soon as they are written).
    pub(super) fn is_stdout(&self) -> bool {
        self.path.is_none()
    }

    /// Finishes the file; it replaces its destination only when `keep`, and an
    /// `interrupted` run says it did not (the counts said before are of games read, in
    /// no file).
    pub(super) fn finish(mut self, keep: bool, interrupted: bool) -> Result<()> {
        self.out.finish().context("writing the output")?;
        match (self.temp, &self.path) {
            (Some(temp), Some(path)) if keep => persist(temp, path),
            (Some(temp), path) => {
                live::set_partial(None);
                drop(temp);
                if let (true, Some(path)) = (interrupted, path) {
                    not_written(path);
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// The note of an interrupted run's output file left as it was (the games it counted
/// are in no file).
pub(super) fn not_written(path: &Path) {
    live::note(
        None,
        format_args!(
            "interrupted; {} not written",
            printable(&path.to_string_lossy())
        ),
    );
}

/// What the end of a file of `pgn convert`, `select`, `dedupe` and `split` says: `what`,
/// and the time it took (with `quiet`, only that it was cut short).
pub(super) fn file_end(line: Option<&Shared>, quiet: bool, s: &SummaryRecord, what: &str) {
    let name = printable(&s.file);
    if !s.opened {
        return;
    }
    if quiet {
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

/// Says that a game over `--max-game-bytes` is in no output: its bytes were never read
/// (the limit keeps memory bounded), so it can be neither copied nor judged.
pub(super) fn too_large(line: Option<&Shared>, file: &str, game: usize, at: usize, size: u64) {
    live::note(
        line,
        format_args!(
            "{}: error: game-too-large: the game is {size} bytes, over the size limit (--max-game-bytes): it is in no output",
            GamePlace {
                file,
                game,
                line: at
            }
        ),
    );
}

/// Writes a game as it was read; a table's row (line 0, its tags on one line) as PGN
/// writes a game, a tag per line.
pub(super) fn write_raw(out: &mut dyn Write, bytes: &[u8], line: usize) -> io::Result<()> {
    write_game(out, &copied_game(bytes, line))
}

/// Where a game is, as messages name it: `FILE:LINE:1: game N`, or `FILE: row N` for a
/// table's row (line 0).
pub(super) struct GamePlace<'a> {
    pub(super) file: &'a str,
    pub(super) game: usize,
    pub(super) line: usize,
}

impl std::fmt::Display for GamePlace<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let file = printable(self.file);
        match GameAt::of(self.game, self.line) {
            GameAt::Game(n) => write!(f, "{file}:{}:1: game {n}", self.line),
            GameAt::Row(n) => write!(f, "{file}: row {n}"),
        }
    }
}

/// The end of a run: an error when an input broke off or was damaged, or when games
/// over `--max-game-bytes` (`unread`) are in no output (`what`: output, table or file;
/// `despite` what else could not keep them).
/// `kept`: the outputs were kept (a run that read past damage keeps them); `streamed`:
/// some went to standard output, whose games are out as they are written.
pub(super) fn run_end(
    io_failed: bool,
    (kept, streamed): (bool, bool),
    unread: usize,
    what: &str,
    despite: &str,
) -> Result<()> {
    let too_large = || {
        format!(
            "{} over --max-game-bytes {} in no {what}{despite}: raise the limit to keep them",
            count(unread as u64, "game", "games"),
            if unread == 1 { "is" } else { "are" }
        )
    };
    if io_failed {
        if kept {
            let also = if unread > 0 {
                format!("; {}", too_large())
            } else {
                String::new()
            };
            anyhow::bail!(
                "some input was damaged: the {what}s hold every game read, all but those lost (named above){also}"
            );
        }
        // The games counted above as written are in no output file: say so.
        if streamed {
            anyhow::bail!(
                "some input could not be read completely: the games counted above went to standard output as they were read, and no {what} file was written (one there before is as it was)"
            );
        }
        anyhow::bail!(
            "some input could not be read completely: no {what} was written (one there before is as it was), so the games counted above are in none; read the inputs that end cleanly alone to keep theirs"
        );
    }
    if unread > 0 {
        anyhow::bail!("{}", too_large());
    }
    Ok(())
}

/// Refuses two outputs that are one file (`-o x --rest x`): each would overwrite the
/// other's games.
pub(super) fn refuse_same(a: (&str, Option<&Path>), b: (&str, Option<&Path>)) -> Result<()> {
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
    // Files that exist are one file through links too; names of files still to be
    // made, by their folder.
    let same = if pa.exists() && pb.exists() {
        pocketfen::run::split_files::same_file(pa, pb)
    } else {
        key(pa).is_some() && key(pa) == key(pb)
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
