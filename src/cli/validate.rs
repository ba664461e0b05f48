//! `validate`, `pgn convert` and `replay`: runs of the library (`archive::Run`) over the
//! archives named, their records printed as text or JSON Lines, in input order whatever
//! the number of worker threads.

use std::fs::File;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use anyhow::{Context, Result};

use super::args::{GameArgs, PgnConvertArgs, ReplayArgs, ValidateArgs};
use pocketfen::Severity;
use pocketfen::archive::{Progress as Tick, ProgressFn, Run, RunOptions, Source, Task};
use pocketfen::draw::report::{FileTotals, HtmlReport};
use pocketfen::pgn::{CompressedWriter, Compression};
use pocketfen::pgn::{Format, GameProblem, Options, PlyText};
use pocketfen::record::{RunRecord, SummaryRecord};

/// How every game is read and judged.
fn options(games: &GameArgs, strict: bool, variations: bool) -> Options {
    Options {
        variant: games.variant,
        strict,
        variations,
        drop_mate: !games.no_drop_mate,
        format: games.format,
    }
}

/// The archives named, or stdin; one file with `--split`.
fn files(games: &GameArgs) -> Result<Vec<PathBuf>> {
    let files = if games.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        games.files.clone()
    };
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

/// The run's options: the games' options, the jobs (all cores by default) and the size
/// limit, with a progress line when one is shown.
fn run_options(
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
    }
}

/// A file's name as the text output gives it: control characters escaped, so that a
/// newline in a name cannot forge a report line (JSON escapes them itself).
fn shown(name: &str) -> String {
    pocketfen::record::printable(name).into_owned()
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

/// The progress line on stderr, only when stderr is a terminal: bytes, games, speed and,
/// for a plain file, the time left.
struct ProgressLine {
    start: Instant,
    last: Instant,
    /// Each file's size, when known and plain (the bytes read then measure the progress).
    sizes: Vec<Option<u64>>,
    file: usize,
    shown: bool,
}

impl ProgressLine {
    /// The progress of a run over `paths`, if a line is wanted.
    fn new(
        quiet: bool,
        paths: &[PathBuf],
        split: Option<pocketfen::archive::Split>,
    ) -> Option<Arc<Mutex<ProgressLine>>> {
        if quiet || !io::stderr().is_terminal() {
            return None;
        }
        let now = Instant::now();
        Some(Arc::new(Mutex::new(ProgressLine {
            start: now,
            last: now,
            // A part is about its share of the file.
            sizes: paths
                .iter()
                .map(|p| plain_size(p).map(|s| s / split.map_or(1, |s| s.of as u64)))
                .collect(),
            file: 0,
            shown: false,
        })))
    }

    fn tick(&mut self, t: Tick) {
        if t.file != self.file {
            self.file = t.file;
            self.start = Instant::now();
        }
        if self.last.elapsed().as_millis() < 250 {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let rate = t.bytes as f64 / secs;
        let size = self.sizes.get(t.file.wrapping_sub(1)).copied().flatten();
        let eta = match size {
            Some(size) if rate > 0.0 => {
                format!(", ETA {:.0} s", size.saturating_sub(t.bytes) as f64 / rate)
            }
            _ => String::new(),
        };
        eprint!(
            "\r{:.1} MB, {} games, {:.1} MB/s{eta}   ",
            t.bytes as f64 / 1e6,
            t.games,
            rate / 1e6
        );
        self.shown = true;
    }

    /// Clears the line (before a summary).
    fn done(&mut self) {
        if std::mem::take(&mut self.shown) {
            eprint!("\r{:60}\r", "");
        }
    }
}

/// A file's size, when it is a plain (uncompressed) file: its bytes measure the progress.
fn plain_size(path: &Path) -> Option<u64> {
    if path == Path::new("-") {
        return None;
    }
    let mut file = File::open(path).ok()?;
    let size = file.metadata().ok()?.len();
    let mut head = [0u8; 4];
    let n = file.read(&mut head).ok()?;
    (Compression::detect(&head[..n]) == Compression::None).then_some(size)
}

/// The progress callback of a run, and the line it draws.
fn progress(
    quiet: bool,
    paths: &[PathBuf],
    split: Option<pocketfen::archive::Split>,
) -> (Option<Arc<Mutex<ProgressLine>>>, Option<ProgressFn>) {
    let line = ProgressLine::new(quiet, paths, split);
    let callback = line.as_ref().map(|l| {
        let l = Arc::clone(l);
        let f: ProgressFn = Arc::new(move |t| {
            if let Ok(mut l) = l.lock() {
                l.tick(t);
            }
        });
        f
    });
    (line, callback)
}

fn clear(line: &Option<Arc<Mutex<ProgressLine>>>) {
    if let Some(l) = line
        && let Ok(mut l) = l.lock()
    {
        l.done();
    }
}

/// Writes one JSON record and a line end.
fn json_line(out: &mut impl Write, record: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, record).map_err(io::Error::other)?;
    out.write_all(b"\n")
}

/// The problems of a game as `validate` prints them.
fn problem_lines(
    out: &mut impl Write,
    file: &str,
    game: usize,
    problems: &[GameProblem],
) -> io::Result<()> {
    for p in problems {
        writeln!(out, "{}", p.display_in(file, game))?;
    }
    Ok(())
}

/// A part in which no game starts says so: its file's games are all in the parts
/// before it.
fn empty_part_note(name: &str, s: &SummaryRecord) {
    if let Some(p) = &s.split
        && p.start.is_none()
        && s.opened
        && s.stream_error.is_none()
    {
        eprintln!(
            "pocketfen: {name}: part {}/{}: no game starts in this part: after its start the file has no tag line after a blank line that follows movetext (a point where a game surely starts), so the games there belong to the parts before it",
            p.part, p.of
        );
    }
}

/// What the end of a file says on stderr: its trailing bytes, and why it could not be
/// read whole (`false` then).
fn file_end(name: &str, s: &SummaryRecord) -> bool {
    empty_part_note(name, s);
    if let Some(t) = &s.trailing_bytes {
        eprintln!(
            "pocketfen: {name}: warning: {}",
            pocketfen::pgn::Trailing {
                compression: s.compression,
                offset: t.offset,
                len: t.length,
                zeros: t.zero_padding,
            }
        );
    }
    match &s.stream_error {
        None => true,
        Some(e) if !s.opened => {
            eprintln!("pocketfen: {name}: {e}");
            false
        }
        Some(e) => {
            eprintln!(
                "pocketfen: {name}: the stream ends in an error after {} games ({} bytes): {e}",
                s.games, s.bytes
            );
            false
        }
    }
}

pub fn validate(args: &ValidateArgs) -> Result<bool> {
    let paths = files(&args.games)?;
    let opts = options(&args.games, args.strict, args.variations);
    // The HTML report's file is opened first, so a bad path fails before any work.
    let mut html = match &args.html {
        Some(path) => {
            let (out, temp) = open_output(Some(path))?;
            Some((HtmlReport::new(args.html_max), out, temp, path))
        }
        None => None,
    };
    let (line, callback) = progress(args.quiet, &paths, args.games.split);
    let sources = paths.iter().map(Source::path).collect();
    let task = Task::Validate { all: args.all };
    let mut run = Run::new(
        sources,
        task,
        run_options(&args.games, opts, args.jobs, callback),
    );
    if html.is_some() {
        run = run.keep_bytes();
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
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
            report.begin_file(&shown(file));
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
                if args.json {
                    json_line(&mut out, &record).context("writing the report")?;
                } else if r.problems.is_empty() {
                    writeln!(out, "{}", r.display_ok_in(&shown(&g.file)))
                        .context("writing the report")?;
                } else {
                    problem_lines(&mut out, &shown(&g.file), r.number, &r.problems)
                        .context("writing the report")?;
                }
            }
            RunRecord::Summary(s) => {
                clear(&line);
                in_file = false;
                if args.json {
                    json_line(&mut out, &record).context("writing the report")?;
                }
                out.flush().context("writing the report")?;
                let name = shown(&s.file);
                if let Some((report, ..)) = &mut html {
                    report.end_file(FileTotals {
                        totals: totals_of(s),
                        seconds: s.seconds,
                        stream_error: s.stream_error.clone(),
                        trailing: s.trailing_bytes.map(|t| {
                            pocketfen::pgn::Trailing {
                                compression: s.compression,
                                offset: t.offset,
                                len: t.length,
                                zeros: t.zero_padding,
                            }
                            .to_string()
                        }),
                    });
                }
                if s.opened {
                    eprintln!("pocketfen: {name}: {}", summary_text(s));
                }
                io_failed |= !file_end(&name, s);
                all_ok &=
                    s.illegal_games == 0 && s.error_games == 0 && !(args.strict && s.warnings > 0);
            }
            // Several files: their total too.
            RunRecord::Total(t) if t.files > 1 && args.json => {
                json_line(&mut out, &record).context("writing the report")?;
                out.flush().context("writing the report")?;
            }
            _ => {}
        }
    }
    out.flush().context("writing the report")?;
    // The report is written whatever happened to the inputs: it says what went wrong.
    if let Some((report, mut out, temp, path)) = html {
        report
            .write_to(&mut out)
            .and_then(|()| out.flush())
            .with_context(|| format!("writing {}", path.display()))?;
        drop(out);
        remove_on_interrupt(None);
        if let Some(temp) = temp {
            persist(temp, path)?;
        }
    }
    if io_failed {
        anyhow::bail!("some input could not be read completely");
    }
    Ok(all_ok)
}

/// A summary's counts.
fn totals_of(s: &SummaryRecord) -> pocketfen::pgn::Totals {
    pocketfen::pgn::Totals {
        games: s.games,
        plies: s.plies,
        illegal_games: s.illegal_games,
        error_games: s.error_games,
        warnings: s.warnings,
    }
}

/// A file's summary line: counts, time and speed.
fn summary_text(s: &SummaryRecord) -> String {
    // The time is kept to the millisecond: a file read faster counts one, so that a
    // tiny file does not show a billion games a second.
    let secs = s.seconds.max(1e-3);
    format!(
        "{}{} games, {} plies, {} illegal, {} unreadable, {} warnings; {:.2} s, {:.0} games/s, {:.1} MB/s{}",
        s.split
            .as_ref()
            .map_or(String::new(), |p| format!("part {}/{}: ", p.part, p.of)),
        s.games,
        s.plies,
        s.illegal_games,
        s.error_games,
        s.warnings,
        s.seconds,
        s.games as f64 / secs,
        s.bytes as f64 / 1e6 / secs,
        if s.compression == Compression::None {
            String::new()
        } else {
            format!(" ({} decompressed)", s.compression.name())
        },
    )
}

pub fn replay(args: &ReplayArgs) -> Result<bool> {
    let text = match args.emit {
        PlyText::Fen(_) => PlyText::Fen(args.dialect),
        PlyText::San(_) => PlyText::San(args.drop_style),
        PlyText::Uci => PlyText::Uci,
    };
    let paths = files(&args.games)?;
    let sources = paths.iter().map(Source::path).collect();
    let ropts = run_options(
        &args.games,
        options(&args.games, false, false),
        args.jobs,
        None,
    );
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut ok = true;
    for record in Run::new(sources, Task::Replay { text }, ropts) {
        if args.json {
            if let RunRecord::Replayed(r) = &record {
                ok &= r.problems.is_empty();
            }
            if matches!(record, RunRecord::Replayed(_) | RunRecord::Summary(_)) {
                json_line(&mut out, &record).context("writing the output")?;
            }
            if !matches!(record, RunRecord::Summary(_)) {
                continue;
            }
        }
        match record {
            RunRecord::Replayed(r) => {
                let name = shown(&r.file);
                replay_header(&mut out, &name, r.game as u64, r.line as u64)?;
                out.write_all(r.text.as_bytes())
                    .context("writing the output")?;
                for p in r.problems.iter().filter(|p| p.severity == Severity::Error) {
                    out.flush().context("writing the output")?;
                    ok = false;
                    eprintln!("pocketfen: {}", p.display_error_in(&name, r.game));
                }
            }
            RunRecord::Summary(s) => {
                out.flush().context("writing the output")?;
                let name = shown(&s.file);
                empty_part_note(&name, &s);
                if let Some(t) = &s.trailing_bytes {
                    eprintln!(
                        "pocketfen: {name}: warning: {}",
                        pocketfen::pgn::Trailing {
                            compression: s.compression,
                            offset: t.offset,
                            len: t.length,
                            zeros: t.zero_padding,
                        }
                    );
                }
                if let Some(e) = &s.stream_error {
                    let what = if s.opened { "reading" } else { "opening" };
                    anyhow::bail!("{name}: {what}: {e}");
                }
            }
            _ => {}
        }
    }
    out.flush().context("writing the output")?;
    Ok(ok)
}

/// The line `replay` writes before a game's plies.
fn replay_header(out: &mut impl Write, name: &str, game: u64, line: u64) -> Result<()> {
    writeln!(out, "# {name} game {game} (line {line})").context("writing the output")
}

/// The temporary output file of a running `pgn convert -o`.
static PARTIAL: Mutex<Option<std::path::PathBuf>> = Mutex::new(None);

/// Sets the file to remove if the run is interrupted (Ctrl-C, SIGTERM): an interrupted
/// run leaves neither the output nor a partial file behind. `None` once it is renamed.
fn remove_on_interrupt(temp: Option<&std::path::Path>) {
    static HANDLER: std::sync::Once = std::sync::Once::new();
    if let Ok(mut partial) = PARTIAL.lock() {
        *partial = temp.map(std::path::Path::to_owned);
    }
    // SIGINT exits 130 and SIGTERM 143 (128 + the signal), as shells report them; without
    // a handler (it cannot be set) an interrupt leaves the temporary file.
    #[cfg(unix)]
    HANDLER.call_once(|| {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
            return;
        };
        std::thread::spawn(move || {
            if let Some(signal) = signals.forever().next() {
                if let Some(path) = PARTIAL.lock().ok().and_then(|mut p| p.take()) {
                    let _ = std::fs::remove_file(path);
                }
                eprintln!("pocketfen: interrupted; no output written");
                std::process::exit(128 + signal);
            }
        });
    });
}

/// Where `pgn convert` writes: stdout; a FIFO, a device or a symlink written through, as
/// `>` would (a symlink stays a symlink); or, for a regular file or a new one, a temporary
/// file beside it, created unpredictably and exclusively, renamed over it at the end (so
/// an interrupted or failed run leaves no partial output).
fn open_output(
    path: Option<&std::path::Path>,
) -> Result<(Box<dyn Write>, Option<tempfile::NamedTempFile>)> {
    let buffered = |w: Box<dyn Write>| -> Box<dyn Write> {
        Box::new(io::BufWriter::with_capacity(1 << 16, w))
    };
    let Some(path) = path else {
        return Ok((buffered(Box::new(io::stdout().lock())), None));
    };
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => {
            anyhow::bail!("{}: is a directory", path.display())
        }
        Ok(meta) if !meta.is_file() => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("opening {}", path.display()))?;
            return Ok((buffered(Box::new(file)), None));
        }
        _ => {}
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let prefix = format!(".{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".pocketfen.tmp");
    // A new destination gets the permissions `>` would give it (0666 less the umask), not
    // the temporary file's 0600.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    // The handler is in place before the file exists, and waits on the lock held here
    // until it knows the file: an interrupt at any moment leaves nothing behind.
    remove_on_interrupt(None);
    let mut partial = PARTIAL.lock().ok();
    let temp = builder
        .tempfile_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    if let Some(partial) = partial.as_deref_mut() {
        *partial = Some(temp.path().to_owned());
    }
    drop(partial);
    let file = temp
        .reopen()
        .with_context(|| format!("opening {}", temp.path().display()))?;
    Ok((buffered(Box::new(file)), Some(temp)))
}

/// Renames a finished temporary file to its destination, which keeps its permissions.
fn persist(temp: tempfile::NamedTempFile, path: &Path) -> Result<()> {
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = std::fs::set_permissions(temp.path(), meta.permissions());
    }
    temp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

pub fn convert(args: &PgnConvertArgs) -> Result<bool> {
    let target = args.to;
    let style = args.drop_style.unwrap_or(target.drop_style());
    let paths = files(&args.games)?;
    let compression = args.output.as_deref().map_or(Compression::None, |p| {
        Compression::from_extension(&p.to_string_lossy())
    });
    if let (Some(level), Compression::None) = (args.level, compression) {
        anyhow::bail!(
            "--level {level} compresses nothing: write to FILE.zst, FILE.gz or FILE.bz2 (-o)"
        );
    }
    let (line, callback) = progress(args.quiet, &paths, args.games.split);
    let (out, temp) = open_output(args.output.as_deref())?;
    let mut out = Packed::new(
        out,
        compression,
        args.level,
        pocketfen::archive::jobs(args.jobs.unwrap_or(0)),
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let sources = paths.iter().map(Source::path).collect();
    let task = Task::Convert {
        target,
        style,
        keep_broken: args.keep_broken,
    };
    let ropts = run_options(
        &args.games,
        options(&args.games, args.strict, true),
        args.jobs,
        callback,
    );
    let mut ok = true;
    let mut io_failed = false;
    let result = (|| -> Result<()> {
        for record in Run::new(sources, task, ropts) {
            match record {
                RunRecord::Converted(c) => {
                    ok &= !c.refused;
                    let mut said = Vec::new();
                    problem_lines(&mut said, &shown(&c.file), c.game, &c.problems)?;
                    io::stderr().write_all(&said)?;
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
                }
                RunRecord::Summary(s) => {
                    clear(&line);
                    io_failed |= !convert_file_end(&shown(&s.file), &s);
                }
                _ => {}
            }
        }
        out.finish().context("writing the output")?;
        Ok(())
    })();
    remove_on_interrupt(None);
    // The destination is replaced only by a run that read all its input: a failed run
    // drops the temporary file and leaves an existing destination as it was.
    if let (Some(temp), Some(path)) = (temp, &args.output)
        && result.is_ok()
        && !io_failed
    {
        persist(temp, path)?;
    }
    result.context("writing the output")?;
    if io_failed {
        anyhow::bail!("some input could not be read completely");
    }
    Ok(ok)
}

/// `pgn convert`'s output: plain, or compressed by the destination's extension.
enum Packed {
    Plain(Option<Box<dyn Write>>),
    Compressed(Option<CompressedWriter<Box<dyn Write>>>),
}

impl Packed {
    fn new(
        out: Box<dyn Write>,
        compression: Compression,
        level: Option<i32>,
        jobs: usize,
    ) -> io::Result<Packed> {
        Ok(match compression {
            Compression::None => Packed::Plain(Some(out)),
            c => Packed::Compressed(Some(CompressedWriter::new(out, c, level, jobs)?)),
        })
    }

    /// Writes the last frame and flushes.
    fn finish(&mut self) -> io::Result<()> {
        match self {
            Packed::Plain(w) => w.take().map_or(Ok(()), |mut w| w.flush()),
            Packed::Compressed(w) => w.take().map_or(Ok(()), |w| w.finish().map(drop)),
        }
    }
}

impl Write for Packed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Packed::Plain(Some(w)) => w.write(buf),
            Packed::Compressed(Some(w)) => w.write(buf),
            _ => Err(io::Error::other("the output is finished")),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Packed::Plain(Some(w)) => w.flush(),
            Packed::Compressed(Some(w)) => w.flush(),
            _ => Ok(()),
        }
    }
}

/// What the end of a converted file says on stderr (`false`: it was not read whole).
fn convert_file_end(name: &str, s: &SummaryRecord) -> bool {
    empty_part_note(name, s);
    if let Some(t) = &s.trailing_bytes {
        eprintln!(
            "pocketfen: {name}: warning: {}",
            pocketfen::pgn::Trailing {
                compression: s.compression,
                offset: t.offset,
                len: t.length,
                zeros: t.zero_padding,
            }
        );
    }
    match &s.stream_error {
        None => true,
        Some(e) if !s.opened => {
            eprintln!("pocketfen: {name}: {e}");
            false
        }
        Some(e) => {
            eprintln!(
                "pocketfen: {name}: the stream ends in an error after {} bytes: {e}",
                s.bytes
            );
            false
        }
    }
}

/// A part's JSON Lines, read: its records, one per line, with where each is.
fn part_records(path: &Path) -> Result<impl Iterator<Item = Result<(usize, serde_json::Value)>>> {
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("opening {name}"))?;
    let reader = io::BufReader::with_capacity(1 << 16, file);
    Ok(io::BufRead::lines(reader)
        .enumerate()
        .filter(|(_, l)| l.as_ref().map_or(true, |l| !l.trim().is_empty()))
        .map(move |(i, line)| {
            let line = line.with_context(|| format!("reading {name}"))?;
            let value = serde_json::from_str(&line).map_err(|e| {
                anyhow::anyhow!(
                    "{name}:{}:{}: not a JSON record of pocketfen --json: {e}",
                    i + 1,
                    e.column()
                )
            })?;
            Ok((i + 1, value))
        }))
}

/// `merge`: the parts' records, renumbered, then the whole file's summary.
pub fn merge(args: &super::args::MergeArgs) -> Result<bool> {
    // First the summaries, so that nothing is written for parts that do not fit.
    let mut summaries = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        let mut summary = None;
        for record in part_records(path)? {
            let (line, value) = record?;
            if value.get("type").and_then(serde_json::Value::as_str) == Some("summary") {
                if summary.is_some() {
                    anyhow::bail!(
                        "{}:{line}: a second summary: a part is the output of one run over one file",
                        path.display()
                    );
                }
                summary = Some(value);
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
    let merge = pocketfen::merge::Merge::new(&summaries).map_err(|e| {
        let path = args
            .parts
            .get(e.part.max(1) - 1)
            .map_or(String::new(), |p| p.display().to_string());
        anyhow::anyhow!("cannot merge: {path}: {}", e.message)
    })?;
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut ok = true;
    for (index, path) in args.parts.iter().enumerate().take(merge.parts_used()) {
        for record in part_records(path)? {
            let (_, mut value) = record?;
            let kind = value
                .get("type")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned);
            if matches!(kind.as_deref(), Some("summary" | "total")) {
                continue;
            }
            merge.renumber(index, &mut value);
            if matches!(kind.as_deref(), Some("replayed")) {
                ok &= value
                    .get("problems")
                    .and_then(serde_json::Value::as_array)
                    .is_none_or(Vec::is_empty);
            }
            if !args.text {
                json_line(&mut out, &value).context("writing the output")?;
                continue;
            }
            if let Some(text) = pocketfen::merge::game_text(&value) {
                out.write_all(text.as_bytes())
                    .context("writing the output")?;
            } else if kind.as_deref() == Some("replayed") {
                let get = |k: &str| {
                    value
                        .get(k)
                        .and_then(serde_json::Value::as_u64)
                        .unwrap_or(0)
                };
                let file = value
                    .get("file")
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("?");
                replay_header(&mut out, &shown(file), get("game"), get("line"))?;
                for ply in value
                    .get("plies")
                    .and_then(serde_json::Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    writeln!(out, "{}", ply.as_str().unwrap_or(""))
                        .context("writing the output")?;
                }
            }
        }
    }
    let s = merge.summary();
    let name = shown(&s.file);
    if args.text {
        out.flush().context("writing the output")?;
        eprintln!("pocketfen: {name}: {}", summary_text(s));
    } else {
        json_line(&mut out, &RunRecord::Summary(s.clone())).context("writing the output")?;
    }
    out.flush().context("writing the output")?;
    if !file_end(&name, s) {
        anyhow::bail!("some input could not be read completely");
    }
    Ok(ok && s.illegal_games == 0 && s.error_games == 0)
}
