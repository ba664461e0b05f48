//! `validate` and `replay`: archives in, one report per game, in input order whatever the
//! number of worker threads.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::Instant;

use anyhow::{Context, Result};
use serde::Serialize;

use super::args::{Emit, FormatArg, GameArgs, PgnConvertArgs, ReplayArgs, TargetArg, ValidateArgs};
use pocketfen::draw::report::{FileTotals, HtmlReport};
use pocketfen::notation::escape_controls;
use pocketfen::notation::fen::FenDialect;
use pocketfen::notation::san::DropStyle;
use pocketfen::pgn::convert::{Converted, Target, convert_game};
use pocketfen::pgn::input;
use pocketfen::pgn::pipeline::run_ordered;
use pocketfen::pgn::replay::{PlyText, replay_game};
use pocketfen::pgn::{
    Format, GameProblem, GameReport, GameSplitter, Options, RawGame, ResultReading, Status, Totals,
    validate_game,
};
use pocketfen::{Severity, Variant};

/// The version of the JSON Lines schema written by `validate --json`.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Serialize)]
struct ProblemDto<'a> {
    severity: &'static str,
    kind: &'static str,
    ply: Option<usize>,
    token: Option<&'a str>,
    line: usize,
    column: usize,
    reason: &'a str,
    fen_before: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Record<'a> {
    Game {
        file: &'a str,
        game: usize,
        line: usize,
        variant: Option<&'static str>,
        plies: usize,
        status: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        result_reading: Option<&'static str>,
        problems: Vec<ProblemDto<'a>>,
    },
    Summary {
        version: u32,
        file: &'a str,
        games: usize,
        plies: u64,
        illegal_games: usize,
        error_games: usize,
        warnings: usize,
        bytes: u64,
        seconds: f64,
        complete: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        stream_error: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        trailing_bytes: Option<TrailingDto>,
    },
}

/// Bytes after the end of a compressed stream, read past.
#[derive(Serialize)]
struct TrailingDto {
    offset: u64,
    length: u64,
    zero_padding: bool,
}

impl From<&input::Trailing> for TrailingDto {
    fn from(t: &input::Trailing) -> TrailingDto {
        TrailingDto {
            offset: t.offset,
            length: t.len,
            zero_padding: t.zeros,
        }
    }
}

fn options(games: &GameArgs, path: &Path, strict: bool, variations: bool) -> Options {
    Options {
        variant: games.variant.and_then(|v| v.variant()),
        strict,
        variations,
        drop_mate: !games.no_drop_mate,
        format: match games.format {
            FormatArg::Bpgn => Format::Bpgn,
            FormatArg::Pgn => Format::Pgn,
            FormatArg::Auto => Format::from_path(&path.to_string_lossy()),
        },
    }
}

fn files(games: &GameArgs) -> Vec<PathBuf> {
    if games.files.is_empty() {
        vec![PathBuf::from("-")]
    } else {
        games.files.clone()
    }
}

/// A file's name as reports give it: `<stdin>` for `-`; any name, UTF-8 or not, read
/// lossily. `text` escapes control characters (a newline in a name must not forge a report
/// line); JSON escapes them itself.
fn display_name(path: &Path, text: bool) -> String {
    if path == Path::new("-") {
        return "<stdin>".to_owned();
    }
    let name = path.to_string_lossy();
    if text {
        escape_controls(&name).into_owned()
    } else {
        name.into_owned()
    }
}

struct Printer<'a, W: Write> {
    out: W,
    file: &'a str,
    json: bool,
    all: bool,
    totals: Totals,
    buf: Vec<u8>,
}

impl<W: Write> Printer<'_, W> {
    fn report(&mut self, r: &GameReport) -> io::Result<()> {
        self.totals.add(r);
        if r.problems.is_empty() && !self.all {
            return Ok(());
        }
        if self.json {
            let problems = r.problems.iter().map(dto).collect();
            let rec = Record::Game {
                file: self.file,
                game: r.number,
                line: r.line,
                variant: r.variant.map(Variant::name),
                plies: r.plies,
                status: r.status.name(),
                result_reading: r.result_reading.map(ResultReading::name),
                problems,
            };
            self.buf.clear();
            serde_json::to_writer(&mut self.buf, &rec).map_err(io::Error::other)?;
            self.buf.push(b'\n');
            return self.out.write_all(&self.buf);
        }
        if r.problems.is_empty() {
            let v = r.variant.map_or("?", Variant::name);
            return writeln!(
                self.out,
                "{}:{}:1: game {}: ok ({v}, {} plies)",
                self.file, r.line, r.number, r.plies
            );
        }
        for p in &r.problems {
            writeln!(self.out, "{}", p.display_in(self.file, r.number))?;
        }
        Ok(())
    }
}

fn dto(p: &GameProblem) -> ProblemDto<'_> {
    ProblemDto {
        severity: p.severity.name(),
        kind: p.kind.name(),
        ply: p.ply,
        token: p.token.as_deref(),
        line: p.line,
        column: p.column,
        reason: &p.reason,
        fen_before: p.fen_before.as_deref(),
    }
}

/// A progress line on stderr, only when stderr is a terminal.
struct Progress {
    on: bool,
    size: Option<u64>,
    start: Instant,
    last: Instant,
}

impl Progress {
    fn new(quiet: bool, size: Option<u64>, plain: bool) -> Progress {
        let now = Instant::now();
        Progress {
            on: !quiet && io::stderr().is_terminal(),
            size: size.filter(|_| plain),
            start: now,
            last: now,
        }
    }

    fn tick(&mut self, bytes: u64, games: usize) {
        if !self.on || self.last.elapsed().as_millis() < 250 {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        let rate = bytes as f64 / secs;
        let eta = match self.size {
            Some(size) if rate > 0.0 => {
                format!(", ETA {:.0} s", size.saturating_sub(bytes) as f64 / rate)
            }
            _ => String::new(),
        };
        eprint!(
            "\r{:.1} MB, {games} games, {:.1} MB/s{eta}   ",
            bytes as f64 / 1e6,
            rate / 1e6
        );
    }

    fn done(&self) {
        if self.on {
            eprint!("\r{:60}\r", "");
        }
    }
}

type Splitter = GameSplitter<Box<dyn io::BufRead + Send>>;

/// Opens an archive for reading games, with its progress line.
///
/// # Errors
///
/// Why the file cannot be read (printed by the caller; the other files still run).
fn open_games(
    path: &Path,
    games: &GameArgs,
    quiet: bool,
) -> io::Result<(Splitter, Progress, input::Compression, input::TrailingNote)> {
    let input = input::open(path)?;
    let progress = Progress::new(
        quiet,
        input.size,
        input.compression == input::Compression::None,
    );
    let splitter = GameSplitter::with_max_game_bytes(input.reader, games.max_game_bytes);
    Ok((splitter, progress, input.compression, input.trailing))
}

pub fn validate(args: &ValidateArgs) -> Result<bool> {
    let jobs = args
        .jobs
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // The HTML report's file is opened first, so a bad path fails before any work.
    let mut html = match &args.html {
        Some(path) => {
            let (out, temp) = open_output(Some(path))?;
            Some((HtmlReport::new(args.html_max), out, temp, path))
        }
        None => None,
    };
    // Set once the report has all its cards: the workers then stop keeping games' bytes.
    let cards_full = AtomicBool::new(html.is_none());
    let stdout = io::stdout();
    let mut all_ok = true;
    let mut io_failed = false;
    for path in files(&args.games) {
        let opts = options(&args.games, &path, args.strict, args.variations);
        let name = display_name(&path, !args.json);
        let shown = display_name(&path, true);
        if let Some((report, ..)) = &mut html {
            report.begin_file(&shown);
        }
        let start = Instant::now();
        let (mut splitter, mut progress, compression, trailing) =
            match open_games(&path, &args.games, args.quiet) {
                Ok(opened) => opened,
                Err(e) => {
                    eprintln!("pocketfen: {shown}: {e}");
                    io_failed = true;
                    if let Some((report, ..)) = &mut html {
                        report.end_file(FileTotals {
                            stream_error: Some(e.to_string()),
                            ..FileTotals::default()
                        });
                    }
                    if args.json {
                        // A file that cannot be opened still gets its summary, as a broken
                        // stream does: nothing read, not complete, and why.
                        let rec = Record::Summary {
                            version: SCHEMA_VERSION,
                            file: &name,
                            games: 0,
                            plies: 0,
                            illegal_games: 0,
                            error_games: 0,
                            warnings: 0,
                            bytes: 0,
                            seconds: 0.0,
                            complete: false,
                            stream_error: Some(e.to_string()),
                            trailing_bytes: None,
                        };
                        let mut out = stdout.lock();
                        writeln!(out, "{}", serde_json::to_string(&rec)?)
                            .and_then(|()| out.flush())
                            .context("writing the report")?;
                    }
                    continue;
                }
            };
        let mut printer = Printer {
            out: io::BufWriter::with_capacity(1 << 16, stdout.lock()),
            file: &name,
            json: args.json,
            all: args.all,
            totals: Totals::default(),
            buf: Vec::new(),
        };
        // A game with problems keeps its bytes while the report wants cards: its card is
        // drawn by replaying it.
        let work = |g: &RawGame| {
            let report = validate_game(g, &opts);
            let keep = !report.problems.is_empty() && !cards_full.load(Ordering::Relaxed);
            (report, keep.then(|| g.clone()))
        };
        let stream_error = run_ordered(
            &mut splitter,
            jobs,
            &work,
            &mut |(r, raw)| {
                if let Some((report, ..)) = &mut html {
                    report.add_game(&r, raw.as_ref(), &opts);
                    if !report.wants_cards() {
                        cards_full.store(true, Ordering::Relaxed);
                    }
                }
                printer.report(&r)
            },
            &mut |bytes, games| progress.tick(bytes, games),
        )
        .context("writing the report")?
        .map(|e| e.to_string());
        progress.done();
        let secs = start.elapsed().as_secs_f64();
        let t = &printer.totals;
        let bytes = splitter.bytes_read();
        if args.json {
            let rec = Record::Summary {
                version: SCHEMA_VERSION,
                file: &name,
                games: t.games,
                plies: t.plies,
                illegal_games: t.illegal_games,
                error_games: t.error_games,
                warnings: t.warnings,
                bytes,
                seconds: (secs * 1000.0).round() / 1000.0,
                complete: stream_error.is_none(),
                stream_error: stream_error.clone(),
                trailing_bytes: trailing.get().map(TrailingDto::from),
            };
            let line = serde_json::to_string(&rec)?;
            writeln!(printer.out, "{line}")?;
        }
        printer.out.flush().context("writing the report")?;
        if let Some((report, ..)) = &mut html {
            report.end_file(FileTotals {
                totals: *t,
                seconds: secs,
                stream_error: stream_error.clone(),
                trailing: trailing.get().map(ToString::to_string),
            });
        }
        eprintln!(
            "pocketfen: {shown}: {} games, {} plies, {} illegal, {} unreadable, {} warnings; {:.2} s, {:.0} games/s, {:.1} MB/s{}",
            t.games,
            t.plies,
            t.illegal_games,
            t.error_games,
            t.warnings,
            secs,
            t.games as f64 / secs.max(1e-9),
            bytes as f64 / 1e6 / secs.max(1e-9),
            if compression == input::Compression::None {
                String::new()
            } else {
                format!(" ({} decompressed)", compression.name())
            },
        );
        if let Some(t) = trailing.get() {
            eprintln!("pocketfen: {shown}: warning: {t}");
        }
        if let Some(e) = stream_error {
            eprintln!(
                "pocketfen: {shown}: the stream ends in an error after {} games ({bytes} bytes): {e}",
                t.games
            );
            io_failed = true;
        }
        all_ok &= t.illegal_games == 0 && t.error_games == 0 && !(args.strict && t.warnings > 0);
    }
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

pub fn replay(args: &ReplayArgs) -> Result<bool> {
    let text = match args.emit {
        Emit::Fen => PlyText::Fen(FenDialect::from(args.dialect)),
        Emit::San => PlyText::San(DropStyle::from(args.drop_style)),
        Emit::Uci => PlyText::Uci,
    };
    let mut out = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let mut ok = true;
    for path in files(&args.games) {
        let opts = options(&args.games, &path, false, false);
        let name = display_name(&path, true);
        let input = input::open(&path).with_context(|| format!("{name}: opening"))?;
        let trailing = input.trailing;
        let mut write_error = None;
        for game in GameSplitter::with_max_game_bytes(input.reader, args.games.max_game_bytes) {
            let game = game.with_context(|| format!("{name}: reading"))?;
            writeln!(out, "# {name} game {} (line {})", game.number, game.line)
                .context("writing the output")?;
            let report = replay_game(&game, &opts, text, &mut |line| {
                if write_error.is_none() {
                    write_error = out
                        .write_all(line.as_bytes())
                        .and_then(|()| out.write_all(b"\n"))
                        .err();
                }
            });
            if let Some(e) = write_error.take() {
                return Err(anyhow::Error::new(e).context("writing the output"));
            }
            for p in report
                .problems
                .iter()
                .filter(|p| p.severity == Severity::Error)
            {
                out.flush().context("writing the output")?;
                ok = false;
                eprintln!("pocketfen: {}", p.display_error_in(&name, report.number));
            }
        }
        if let Some(t) = trailing.get() {
            out.flush().context("writing the output")?;
            eprintln!("pocketfen: {name}: warning: {t}");
        }
    }
    out.flush().context("writing the output")?;
    Ok(ok)
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

/// The text lines of a game's problems, as `validate` prints them.
fn problem_lines(file: &str, r: &GameReport) -> String {
    let mut out = Vec::new();
    let mut p = Printer {
        out: &mut out,
        file,
        json: false,
        all: false,
        totals: Totals::default(),
        buf: Vec::new(),
    };
    let _ = p.report(r);
    String::from_utf8_lossy(&out).into_owned()
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
    let target = match args.to {
        TargetArg::Lichess => Target::Lichess,
        TargetArg::Chesscom => Target::Chesscom,
        TargetArg::Xboard => Target::Xboard,
    };
    let style = args.drop_style.map_or(target.drop_style(), DropStyle::from);
    let jobs = args
        .jobs
        .unwrap_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let (mut out, temp) = open_output(args.output.as_deref())?;
    let mut ok = true;
    let mut io_failed = false;
    let result = (|| -> Result<()> {
        for path in files(&args.games) {
            let opts = options(&args.games, &path, args.strict, true);
            let name = display_name(&path, true);
            let (mut splitter, mut progress, _, trailing) =
                match open_games(&path, &args.games, args.quiet) {
                    Ok(opened) => opened,
                    Err(e) => {
                        eprintln!("pocketfen: {name}: {e}");
                        io_failed = true;
                        continue;
                    }
                };
            let keep = args.keep_broken;
            // The game's bytes, what to say of it on stderr, and whether it was refused.
            let work = |g: &RawGame| -> (Vec<u8>, String, bool) {
                match convert_game(g, target, style, &opts) {
                    Converted::Game(text, warnings) => {
                        let said = if warnings.is_empty() {
                            String::new()
                        } else {
                            let report = GameReport {
                                number: g.number,
                                line: g.line,
                                variant: None,
                                plies: 0,
                                status: Status::Ok,
                                problems: warnings,
                                result_reading: None,
                            };
                            problem_lines(&name, &report)
                        };
                        (text.into_bytes(), said, false)
                    }
                    Converted::Refused(report) => {
                        let raw = if keep { g.bytes.clone() } else { Vec::new() };
                        (raw, problem_lines(&name, &report), true)
                    }
                }
            };
            let stream_error = run_ordered(
                &mut splitter,
                jobs,
                &work,
                &mut |(bytes, said, refused)| {
                    ok &= !refused;
                    eprint!("{said}");
                    out.write_all(&bytes)?;
                    if !bytes.is_empty() && !bytes.ends_with(b"\n\n") {
                        out.write_all(if bytes.ends_with(b"\n") {
                            b"\n"
                        } else {
                            b"\n\n"
                        })?;
                    }
                    Ok(())
                },
                &mut |bytes, games| progress.tick(bytes, games),
            )
            .context("writing the output")?;
            progress.done();
            if let Some(t) = trailing.get() {
                eprintln!("pocketfen: {name}: warning: {t}");
            }
            if let Some(e) = stream_error {
                eprintln!(
                    "pocketfen: {name}: the stream ends in an error after {} bytes: {e}",
                    splitter.bytes_read()
                );
                io_failed = true;
            }
        }
        out.flush().context("writing the output")?;
        Ok(())
    })();
    drop(out);
    remove_on_interrupt(None);
    // The destination is replaced only by a run that read all its input: a failed run
    // drops the temporary file and leaves an existing destination as it was.
    if let (Some(temp), Some(path)) = (temp, &args.output)
        && result.is_ok()
        && !io_failed
    {
        persist(temp, path)?;
    }
    result?;
    if io_failed {
        anyhow::bail!("some input could not be read completely");
    }
    Ok(ok)
}
