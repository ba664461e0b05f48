//! The FEN commands: `fen convert` (between dialects), `fen check` (legality), `fen show`
//! (a diagram or SVG) and `fen url` (an analysis board), one record per input line.

use std::borrow::Cow;
use std::io::{self, BufRead, BufWriter, Write};

use anyhow::{Context, Result};

use super::args::{CheckArgs, ConvertArgs, FenInput, ShowArgs, Site, UrlArgs};
use pocketfen::bughouse::check_fen;
use pocketfen::draw::svg::{Marks, Style, fen_svg};
use pocketfen::notation::diagram::diagram_as;
use pocketfen::notation::fen::{self, FenPositionError};
use pocketfen::record::{
    BoardProblem, CheckRecord, ConvertRecord, FenErrorRecord, LineDialect, UrlRecord,
};
use pocketfen::{Fen, Position, Rules, Severity, Variant, guess_variant};

/// Calls `f` with each record (1-based number, text): the arguments, `-` standing for
/// stdin's lines (as do no arguments), each ended by `\n`, `\r\n` or a lone `\r`, as old
/// Mac files end them (bytes that are not UTF-8 are replaced, and the parser then points
/// at them). A record is flushed as soon as it is written when `live`.
pub(super) fn for_each_record(
    input: &FenInput,
    mut f: impl FnMut(usize, &str) -> io::Result<()>,
) -> Result<()> {
    if let Some((n, fen)) = super::split_fen(&input.fens) {
        return Err(super::split_fen_error(n, &fen));
    }
    // Ctrl-C stops at the next line, with every line before it written.
    super::live::catch_signals();
    let mut n = 0;
    if input.fens.is_empty() {
        return stdin_records(&mut n, &mut f);
    }
    for fen in &input.fens {
        if super::live::stopped() {
            return Ok(());
        }
        if fen == "-" {
            stdin_records(&mut n, &mut f)?;
        } else {
            n += 1;
            f(n, fen)?;
        }
    }
    Ok(())
}

/// Calls `f` with each line of stdin, numbered on from `n`.
fn stdin_records(n: &mut usize, f: &mut impl FnMut(usize, &str) -> io::Result<()>) -> Result<()> {
    // Read on a thread of its own: Ctrl-C ends the input there, also while a read waits
    // on a terminal or a pipe, and every line read before is answered.
    let stdin = super::live::Stdin::new(super::live::catch_signals());
    let mut reader = io::BufReader::with_capacity(1 << 16, stdin);
    let mut buf = Vec::with_capacity(256);
    let first = *n;
    loop {
        buf.clear();
        if !read_line(&mut reader, &mut buf).context("reading stdin")? {
            return Ok(());
        }
        *n += 1;
        // A byte-order mark (files saved on Windows) is not part of the first FEN.
        if *n == first + 1 && buf.starts_with(b"\xef\xbb\xbf") {
            buf.drain(..3);
        }
        match std::str::from_utf8(&buf) {
            Ok(line) => f(*n, line)?,
            Err(_) => f(*n, &String::from_utf8_lossy(&buf))?,
        }
    }
}

/// Reads the next line into `buf`, without its end (`\n`, `\r\n` or a lone `\r`);
/// `false` at the end of the input.
fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(any);
        }
        any = true;
        match memchr::memchr2(b'\n', b'\r', chunk) {
            Some(n) => {
                let cr = chunk[n] == b'\r';
                buf.extend_from_slice(&chunk[..n]);
                reader.consume(n + 1);
                // A CR's LF may be in the next read.
                if cr && reader.fill_buf()?.first() == Some(&b'\n') {
                    reader.consume(1);
                }
                return Ok(true);
            }
            None => {
                let n = chunk.len();
                buf.extend_from_slice(chunk);
                reader.consume(n);
            }
        }
    }
}

pub(super) fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Whether `fen` and `moves` flush per line: stdin or stdout is a terminal (a person or
/// a coprocess waits for each answer), or `--line-buffered`.
pub(super) fn interactive(forced: bool) -> bool {
    use std::io::IsTerminal;
    forced || io::stdin().is_terminal() || io::stdout().is_terminal()
}

pub(super) fn convert(args: &ConvertArgs) -> Result<bool> {
    let live = interactive(args.input.line_buffered);
    let mut out = stdout();
    let mut text = String::with_capacity(128);
    let mut json = Vec::with_capacity(256);
    let mut ok = true;
    for_each_record(&args.input, |n, line| {
        if line.trim().is_empty() {
            // Blank lines keep their place in text output and are skipped in JSON.
            if !args.input.json {
                out.write_all(b"\n")?;
            }
            return if live { out.flush() } else { Ok(()) };
        }
        let pasted = fen::unwrap_pasted(line);
        text.clear();
        let converted = pasted.as_ref().map_err(Clone::clone).and_then(|pasted| {
            // A URL's variant says what a FEN without pockets is (lila#16886).
            let conv = fen::Conversion {
                from: args.from,
                to: args.to,
                variant: args.variant.or(pasted.variant),
            };
            fen::convert_line(&pasted.fen, &conv, &mut text).map_err(|e| pasted.locate(e))
        });
        if let Err(e) = &converted {
            ok = false;
            if !args.input.json {
                // An empty line keeps output line N aligned with input line N.
                out.write_all(b"\n")?;
                out.flush()?;
                eprintln!("pocketfen: line {n}, {e}");
                return Ok(());
            }
        }
        json.clear();
        match &converted {
            Ok(dialect) => {
                if !args.input.json {
                    text.push('\n');
                    out.write_all(text.as_bytes())?;
                    return if live { out.flush() } else { Ok(()) };
                }
                // A pair's boards may be written in two dialects: each is named.
                let board_dialects = pasted
                    .as_ref()
                    .ok()
                    .and_then(|pasted| fen::parse(&pasted.fen, args.from).ok())
                    .filter(|p| matches!(p.fen, Fen::Pair(_)))
                    .map(|p| p.board_dialects);
                let record = ConvertRecord::Converted {
                    line: n,
                    input: line.into(),
                    dialect: LineDialect::of(*dialect, board_dialects),
                    output: Cow::from(&text),
                    board_dialects,
                };
                serde_json::to_writer(&mut json, &record).map_err(io::Error::from)?;
            }
            Err(e) => {
                let record = ConvertRecord::Error {
                    line: n,
                    input: line.into(),
                    error: FenErrorRecord::from(e),
                };
                serde_json::to_writer(&mut json, &record).map_err(io::Error::from)?;
            }
        }
        json.push(b'\n');
        out.write_all(&json)?;
        if live { out.flush() } else { Ok(()) }
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}

pub(super) fn url(args: &UrlArgs) -> Result<bool> {
    let live = interactive(args.input.line_buffered);
    let mut out = stdout();
    let mut ok = true;
    for_each_record(&args.input, |n, line| {
        if line.trim().is_empty() {
            // Blank lines keep their place in text output, as `fen convert`'s do.
            if !args.input.json {
                out.write_all(b"\n")?;
            }
            return if live { out.flush() } else { Ok(()) };
        }
        let url = fen::unwrap_pasted(line)
            .and_then(|pasted| {
                let p = fen::parse(&pasted.fen, None).map_err(|e| pasted.locate(e))?;
                Ok((p, pasted.variant))
            })
            .map_err(UrlFailure::Parse)
            .and_then(|(p, variant)| {
                let variant = args.variant.or(variant);
                match args.site {
                    Site::Lichess => fen::lichess_url(&p.fen, variant).map_err(UrlFailure::Url),
                }
            });
        match url {
            Ok(url) if args.input.json => {
                let record = UrlRecord::Url {
                    line: n,
                    input: line.into(),
                    url: Cow::from(&url),
                };
                serde_json::to_writer(&mut out, &record).map_err(io::Error::from)?;
                out.write_all(b"\n")?;
            }
            Ok(url) => writeln!(out, "{url}")?,
            Err(e) => {
                ok = false;
                if args.input.json {
                    let record = match &e {
                        UrlFailure::Parse(e) => UrlRecord::Error {
                            line: n,
                            input: line.into(),
                            error: FenErrorRecord::from(e),
                        },
                        UrlFailure::Url(e) => UrlRecord::NoBoard {
                            line: n,
                            input: line.into(),
                            reason: e.to_string().into(),
                        },
                    };
                    serde_json::to_writer(&mut out, &record).map_err(io::Error::from)?;
                    out.write_all(b"\n")?;
                } else {
                    // An empty line keeps output line N aligned with input line N.
                    out.write_all(b"\n")?;
                    out.flush()?;
                    match e {
                        UrlFailure::Parse(e) => eprintln!("pocketfen: line {n}, {e}"),
                        UrlFailure::Url(e) => eprintln!("pocketfen: line {n}: {e}"),
                    }
                }
            }
        }
        if live { out.flush() } else { Ok(()) }
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}

/// Why a line of `fen url` has no URL.
enum UrlFailure {
    Parse(fen::ParseFenError),
    Url(fen::UrlError),
}

impl std::fmt::Display for UrlFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UrlFailure::Parse(e) => e.fmt(f),
            UrlFailure::Url(e) => e.fmt(f),
        }
    }
}

fn board_names(fen: &Fen) -> &'static [Option<&'static str>] {
    match fen {
        Fen::Single(_) => &[None],
        Fen::Pair(_) => &[Some("A"), Some("B")],
    }
}

pub(super) fn check(args: &CheckArgs) -> Result<bool> {
    let live = interactive(args.input.line_buffered);
    let mut out = stdout();
    let mut ok = true;
    for_each_record(&args.input, |n, line| {
        if line.trim().is_empty() {
            return Ok(());
        }
        check_line(args, n, line, &mut out, &mut ok)?;
        if live { out.flush() } else { Ok(()) }
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}

/// Checks one line of `fen check`, and writes what it finds.
fn check_line(
    args: &CheckArgs,
    n: usize,
    line: &str,
    out: &mut impl Write,
    ok: &mut bool,
) -> io::Result<()> {
    {
        let parsed = fen::unwrap_pasted(line).and_then(|p| {
            let parsed = fen::parse(&p.fen, None).map_err(|e| p.locate(e))?;
            Ok((p.variant, parsed))
        });
        let (pasted_variant, parsed) = match parsed {
            Ok(p) => p,
            Err(e) => {
                *ok = false;
                return if args.input.json {
                    let rec = CheckRecord::Error {
                        line: n,
                        input: line.into(),
                        error: FenErrorRecord::from(&e),
                    };
                    writeln!(
                        out,
                        "{}",
                        serde_json::to_string(&rec).map_err(io::Error::other)?
                    )
                } else {
                    writeln!(out, "line {n}: error: syntax: {e}")
                };
            }
        };
        let variant = args
            .variant
            .or(pasted_variant)
            .unwrap_or_else(|| guess_variant(&parsed.fen));
        let problems = check_fen(&parsed.fen, variant);
        let valid = problems.iter().all(|(_, p)| p.severity != Severity::Error);
        *ok &= valid;
        if args.input.json {
            let problems = problems
                .iter()
                .map(|(b, p)| BoardProblem::new(*b, p))
                .collect();
            let rec = CheckRecord::Checked {
                line: n,
                input: line.into(),
                variant,
                valid,
                problems,
            };
            return writeln!(
                out,
                "{}",
                serde_json::to_string(&rec).map_err(io::Error::other)?
            );
        }
        if problems.is_empty() {
            return writeln!(out, "line {n}: ok: {variant}");
        }
        for (board, p) in &problems {
            match board {
                Some(b) => writeln!(out, "line {n}, board {b}: {p}")?,
                None => writeln!(out, "line {n}: {p}")?,
            }
        }
        Ok(())
    }
}

pub(super) fn show(args: &ShowArgs) -> Result<bool> {
    // (Checked here, not by clap: `--ascii` conflicting with `--svg` lifted clap's
    // requirement, and the options were dropped without a word.)
    if !args.svg && (args.size.is_some() || !args.last_move.is_empty()) {
        anyhow::bail!("--size and --last-move draw on the SVG diagram: give --svg");
    }
    let parsed = match fen::unwrap_pasted(&args.fen)
        .and_then(|p| fen::parse(&p.fen, None).map_err(|e| p.locate(e)))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pocketfen: {e}");
            return Ok(false);
        }
    };
    let mut out = stdout();
    if args.svg {
        let marks = last_move_marks(&args.last_move, parsed.fen.boards().len())?;
        let style = Style {
            flip: args.flip,
            square: args.size.unwrap_or(45),
        };
        writeln!(out, "{}", fen_svg(&parsed.fen, style, &marks))?;
        out.flush().context("writing stdout")?;
        return Ok(true);
    }
    for (setup, board) in parsed.fen.boards().iter().zip(board_names(&parsed.fen)) {
        if let Some(b) = board {
            writeln!(out, "board {b}:")?;
        }
        out.write_all(diagram_as(setup, args.ascii, args.flip).as_bytes())?;
    }
    out.flush().context("writing stdout")?;
    Ok(true)
}

/// The marks of `--last-move` per board (`UCI`, or `A:UCI` / `B:UCI` on a pair).
pub(super) fn last_move_marks(moves: &[String], boards: usize) -> Result<Vec<Marks>> {
    let mut marks = vec![Marks::default(); boards];
    for text in moves {
        let (board, squares) = super::args::last_move(text)
            .map_err(|e| anyhow::anyhow!("--last-move {text:?}: {e}"))?;
        if board >= boards {
            anyhow::bail!("--last-move {text:?}: board B is only in a bughouse pair");
        }
        marks[board].last_move = Some(squares);
    }
    Ok(marks)
}

/// Calls `f` with each position `legal` and `perft` work on, counted from 1, with its
/// record's number (a line of stdin, or an argument) and text (`None`: the variant's
/// start position): `--fen`, the FEN arguments (`-`: stdin's lines), or, with neither,
/// stdin's lines when stdin is not a terminal; the start position when there is none of
/// these. Blank lines are skipped.
pub(super) fn for_each_position(
    fen: Option<&String>,
    fens: &[String],
    mut f: impl FnMut(usize, usize, Option<&str>) -> io::Result<()>,
) -> Result<()> {
    use std::io::IsTerminal;
    let mut count = 0;
    let mut each = |record: usize, text: &str| -> io::Result<()> {
        if text.trim().is_empty() {
            return Ok(());
        }
        count += 1;
        f(count, record, Some(text))
    };
    if let Some(fen) = fen {
        each(1, fen)?;
    } else if !fens.is_empty() || !io::stdin().is_terminal() {
        let input = FenInput {
            fens: fens.to_vec(),
            json: false,
            line_buffered: false,
        };
        for_each_record(&input, &mut each)?;
    }
    if count == 0 && fens.is_empty() {
        f(1, 1, None)?;
    }
    Ok(())
}

/// The position `text` stands for under `variant`, the start position for `None`;
/// `None` after saying on stderr why it is refused (`line`: its number among several).
pub(super) fn position_of(
    text: Option<&str>,
    variant: Option<Variant>,
    drop_mate: bool,
    line: Option<usize>,
    pair: &str,
) -> Option<Position> {
    let mut pos = match text {
        None => Position::start(variant.unwrap_or(Variant::Chess)),
        Some(text) => match pasted_position(text, variant) {
            Ok((pos, dropped)) => {
                warn_dropped(dropped, line);
                pos
            }
            Err(e) => {
                fen_error(e, pair, line);
                return None;
            }
        },
    };
    pos.set_drop_mate(drop_mate);
    Some(pos)
}

/// The position of a `--fen` as pasted (a FEN, a Lichess URL, a `[FEN]` tag), under the
/// variant given, else the URL's, else the one the FEN suggests. Castling rights that no
/// king and rook allow (an editor's `KQkq` on any board) are dropped, as `validate` drops
/// them from a `[FEN]` tag and python-chess reads them: what was dropped comes back
/// beside the position, said for a warning ([`Position::dropped_castling`]).
pub(super) fn pasted_position(
    text: &str,
    variant: Option<Variant>,
) -> Result<(Position, Option<String>), FenPositionError> {
    let pasted = fen::unwrap_pasted(text).map_err(FenPositionError::Parse)?;
    let rules = variant.or(pasted.variant).map(Rules::new);
    match Position::from_fen(&pasted.fen, rules) {
        Ok(pos) => Ok((pos, None)),
        Err(FenPositionError::Parse(e)) => Err(FenPositionError::Parse(pasted.locate(e))),
        Err(FenPositionError::Illegal(e))
            if e.errors()
                .all(|p| p.kind == pocketfen::SetupProblemKind::InvalidCastlingRights) =>
        {
            let Ok(parsed) = fen::parse(&pasted.fen, None) else {
                return Err(FenPositionError::Illegal(e));
            };
            let rules = rules.unwrap_or_else(|| Rules::new(guess_variant(&parsed.fen)));
            let Fen::Single(setup) = parsed.fen else {
                return Err(FenPositionError::Pair);
            };
            let (clean, dropped) = Position::clean_castling(&setup, rules);
            match Position::from_setup(&clean, rules) {
                Ok(pos) if !dropped.is_empty() => {
                    Ok((pos, Some(Position::dropped_castling(&dropped))))
                }
                _ => Err(FenPositionError::Illegal(e)),
            }
        }
        Err(e) => Err(e),
    }
}

/// Warns of castling rights [`pasted_position`] dropped (`line`: the FEN's among
/// several, else `--fen`).
pub(super) fn warn_dropped(dropped: Option<String>, line: Option<usize>) {
    if let Some(why) = dropped {
        let at = line.map_or_else(|| "--fen".to_owned(), |n| format!("line {n}"));
        eprintln!("pocketfen: {at}: warning: impossible-castling: {why}: dropped");
    }
}

/// Prints why a FEN gives no position; `pair` says what the command does with one
/// board; `line` is its number among several.
pub(super) fn fen_error(e: FenPositionError, pair: &str, line: Option<usize>) {
    let at = match line {
        Some(n) => format!("line {n}"),
        None => "--fen".to_owned(),
    };
    match e {
        // `line N, column C: …`, as `fen convert` says it.
        FenPositionError::Parse(e) => eprintln!("pocketfen: {at}, {e}"),
        FenPositionError::Pair => {
            eprintln!("pocketfen: {at}: {pair}; give board A or B of the pair")
        }
        FenPositionError::Illegal(e) => {
            for p in e.errors() {
                eprintln!("pocketfen: {at}: {p}");
            }
        }
    }
}
