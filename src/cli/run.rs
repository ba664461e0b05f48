//! One function per subcommand.

use std::io::{self, BufRead, BufWriter, Write};

use anyhow::{Context, Result};

use super::args::{
    CheckArgs, Cli, Command, ConvertArgs, FenCommand, FenInput, LegalArgs, MoveFormat, MovesArgs,
    PerftArgs, ShowArgs, Site, UrlArgs,
};
use super::movetext::MoveTokens;
use pocketfen::bughouse::check_fen;
use pocketfen::draw::svg::{Marks, Style, fen_svg};
use pocketfen::notation::diagram::diagram;
use pocketfen::notation::fen::{self, FenPositionError};
use pocketfen::notation::mixed::resolve_move;
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::record::{
    BoardProblem, CheckRecord, ConvertRecord, FenErrorRecord, LineDialect, MoveRecord, UrlRecord,
};
use pocketfen::{Fen, Position, Rules, Severity, Variant, guess_variant};

/// Runs the command; `Ok(false)` when some input was invalid.
pub fn run(cli: Cli) -> Result<bool> {
    match cli.command {
        Command::Fen(FenCommand::Convert(args)) => convert(&args),
        Command::Fen(FenCommand::Check(args)) => check(&args),
        Command::Fen(FenCommand::Show(args)) => show(&args),
        Command::Fen(FenCommand::Url(args)) => url(&args),
        Command::Perft(args) => perft(&args),
        Command::Moves(args) => moves(&args),
        Command::Legal(args) => legal(&args),
        Command::Validate(args) => super::validate::validate(&args),
        Command::Replay(args) => super::replay::replay(&args),
        Command::Pgn(super::args::PgnCommand::Convert(args)) => super::convert::convert(&args),
        Command::Pgn(super::args::PgnCommand::Select(args)) => super::select::select(&args),
        Command::Pgn(super::args::PgnCommand::Dedupe(args)) => super::dedupe::dedupe(&args),
        Command::Pgn(super::args::PgnCommand::Split(args)) => super::split::split(&args),
        Command::Merge(args) => super::merge::merge(&args),
        Command::Completions(args) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(args.shell, &mut cmd, "pocketfen", &mut io::stdout().lock());
            Ok(true)
        }
        Command::Manpage(args) => {
            match &args.dir {
                None => super::manual::main_page(&mut io::stdout().lock())
                    .context("writing the manual page")?,
                Some(dir) => {
                    let written = super::manual::write_all(dir).with_context(|| {
                        format!("writing the manual pages to {}", dir.display())
                    })?;
                    for path in written {
                        println!("{}", path.display());
                    }
                }
            }
            Ok(true)
        }
    }
}

/// The FEN a shell split at its spaces, when `args` look like one (a board field with
/// its `/`s, then a side to move `w` or `b`): how many arguments it spans, and the
/// arguments joined again.
pub fn split_fen(args: &[String]) -> Option<(usize, String)> {
    let start = args.windows(2).position(|w| {
        w[0].matches('/').count() >= 7
            && !w[0].contains(' ')
            && matches!(w[1].as_str(), "w" | "b" | "W" | "B")
    })?;
    // The fields after the side to move: castling, en passant, the clocks, and
    // Chess.com's pocket and promoted squares.
    let field = |a: &str| {
        !a.is_empty()
            && (a == "-"
                || a.bytes().all(|b| b.is_ascii_digit())
                || a.bytes().all(|b| b"KQkqABCDEFGHabcdefgh".contains(&b))
                || a.bytes().all(|b| b"PNBRQKpnbrqk".contains(&b))
                || (a.len().is_multiple_of(2)
                    && a.as_bytes()
                        .chunks(2)
                        .all(|c| (b'a'..=b'h').contains(&c[0]) && (b'1'..=b'8').contains(&c[1]))))
    };
    let n = 2 + args[start + 2..]
        .iter()
        .take(6)
        .take_while(|a| field(a))
        .count();
    Some((n, args[start..start + n].join(" ")))
}

/// The error of a FEN given unquoted: one message, that says to quote it.
pub fn split_fen_error(n: usize, fen: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "the FEN is given as {n} arguments: the shell splits an unquoted FEN at its spaces; quote it, as in '{fen}'"
    )
}

/// Calls `f` with each record (1-based number, text): the arguments, `-` standing for
/// stdin's lines (as do no arguments), each ended by `\n`, `\r\n` or a lone `\r`, as old
/// Mac files end them (bytes that are not UTF-8 are replaced, and the parser then points
/// at them). A record is flushed as soon as it is written when `live`.
fn for_each_record(
    input: &FenInput,
    mut f: impl FnMut(usize, &str) -> io::Result<()>,
) -> Result<()> {
    if let Some((n, fen)) = split_fen(&input.fens) {
        return Err(split_fen_error(n, &fen));
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

fn stdout() -> BufWriter<io::StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}

/// Whether `fen` and `moves` flush per line: stdin or stdout is a terminal (a person or
/// a coprocess waits for each answer), or `--line-buffered`.
fn interactive(forced: bool) -> bool {
    use std::io::IsTerminal;
    forced || io::stdin().is_terminal() || io::stdout().is_terminal()
}

fn convert(args: &ConvertArgs) -> Result<bool> {
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
        // A URL's variant says what a FEN without pockets is (lila#16886).
        let conv = fen::Conversion {
            from: args.from,
            to: args.to,
            variant: args.variant.or(pasted.variant),
        };
        text.clear();
        let converted = fen::convert_line(&pasted.fen, &conv, &mut text);
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
                let board_dialects = fen::parse(&pasted.fen, args.from)
                    .ok()
                    .filter(|p| matches!(p.fen, Fen::Pair(_)))
                    .map(|p| p.board_dialects);
                let record = ConvertRecord::Converted {
                    line: n,
                    input: line,
                    dialect: LineDialect::of(*dialect, board_dialects),
                    output: &text,
                    board_dialects,
                };
                serde_json::to_writer(&mut json, &record).map_err(io::Error::other)?;
            }
            Err(e) => {
                let record = ConvertRecord::Error {
                    line: n,
                    input: line,
                    error: FenErrorRecord::from(e),
                };
                serde_json::to_writer(&mut json, &record).map_err(io::Error::other)?;
            }
        }
        json.push(b'\n');
        out.write_all(&json)?;
        if live { out.flush() } else { Ok(()) }
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}

fn url(args: &UrlArgs) -> Result<bool> {
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
        let pasted = fen::unwrap_pasted(line);
        let url = fen::parse(&pasted.fen, None)
            .map_err(|e| e.to_string())
            .and_then(|p| {
                let variant = args.variant.or(pasted.variant);
                match args.site {
                    Site::Lichess => fen::lichess_url(&p.fen, variant).map_err(|e| e.to_string()),
                }
            });
        match url {
            Ok(url) if args.input.json => {
                let record = UrlRecord::Url {
                    line: n,
                    input: line,
                    url: &url,
                };
                serde_json::to_writer(&mut out, &record).map_err(io::Error::other)?;
                out.write_all(b"\n")?;
            }
            Ok(url) => writeln!(out, "{url}")?,
            Err(e) => {
                ok = false;
                if args.input.json {
                    let record = UrlRecord::Error {
                        line: n,
                        input: line,
                        error: &e,
                    };
                    serde_json::to_writer(&mut out, &record).map_err(io::Error::other)?;
                    out.write_all(b"\n")?;
                } else {
                    // An empty line keeps output line N aligned with input line N.
                    out.write_all(b"\n")?;
                    out.flush()?;
                    eprintln!("pocketfen: line {n}: {e}");
                }
            }
        }
        if live { out.flush() } else { Ok(()) }
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}

fn board_names(fen: &Fen) -> &'static [Option<&'static str>] {
    match fen {
        Fen::Single(_) => &[None],
        Fen::Pair(_) => &[Some("A"), Some("B")],
    }
}

fn check(args: &CheckArgs) -> Result<bool> {
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
    let pasted = fen::unwrap_pasted(line);
    {
        let parsed = match fen::parse(&pasted.fen, None) {
            Ok(p) => p,
            Err(e) => {
                *ok = false;
                return if args.input.json {
                    let rec = CheckRecord::Error {
                        line: n,
                        input: line,
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
            .or(pasted.variant)
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
                input: line,
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

fn show(args: &ShowArgs) -> Result<bool> {
    let parsed = match fen::parse(&fen::unwrap_pasted(&args.fen).fen, None) {
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
            square: args.size,
        };
        writeln!(out, "{}", fen_svg(&parsed.fen, style, &marks))?;
        out.flush().context("writing stdout")?;
        return Ok(true);
    }
    for (setup, board) in parsed.fen.boards().iter().zip(board_names(&parsed.fen)) {
        if let Some(b) = board {
            writeln!(out, "board {b}:")?;
        }
        out.write_all(diagram(setup, args.ascii).as_bytes())?;
    }
    out.flush().context("writing stdout")?;
    Ok(true)
}

/// The marks of `--last-move` per board (`UCI`, or `A:UCI` / `B:UCI` on a pair).
fn last_move_marks(moves: &[String], boards: usize) -> Result<Vec<Marks>> {
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
fn for_each_position(
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
fn position_of(
    text: Option<&str>,
    variant: Option<Variant>,
    drop_mate: bool,
    line: Option<usize>,
    pair: &str,
) -> Option<Position> {
    let mut pos = match text {
        None => Position::start(variant.unwrap_or(Variant::Chess)),
        Some(text) => match pasted_position(text, variant) {
            Ok(pos) => pos,
            Err(e) => {
                fen_error(e, pair, line);
                return None;
            }
        },
    };
    pos.set_drop_mate(drop_mate);
    Some(pos)
}

fn perft(args: &PerftArgs) -> Result<bool> {
    if let Some((n, fen)) = split_fen(&args.fens) {
        return Err(split_fen_error(n, &fen));
    }
    let variant = args.variant;
    let mut out = stdout();
    let mut ok = true;
    let several =
        args.fen.is_none() && (args.fens.len() != 1 || args.fens.iter().any(|f| f == "-"));
    let live = interactive(false);
    for_each_position(args.fen.as_ref(), &args.fens, |n, record, text| {
        let line = args.fen.is_none().then_some(record);
        if args.divide && n > 1 {
            writeln!(out)?;
        }
        let Some(pos) = position_of(text, variant, true, line, "perft counts one board") else {
            ok = false;
            // One line per position read: output lines stay those of the input.
            if !args.divide && several {
                writeln!(out)?;
            }
            return Ok(());
        };
        if args.divide && args.depth > 0 {
            let mut rows: Vec<(String, u64)> = pocketfen::perft::divide(&pos, args.depth)
                .into_iter()
                .map(|(m, n)| (m.to_uci(pos.is_chess960()).to_string(), n))
                .collect();
            rows.sort();
            for (uci, n) in &rows {
                writeln!(out, "{uci}: {n}")?;
            }
            writeln!(out, "{}", rows.iter().map(|r| r.1).sum::<u64>())?;
        } else {
            writeln!(out, "{}", pocketfen::perft::perft(&pos, args.depth))?;
        }
        if live {
            out.flush()?;
        }
        Ok(())
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}

/// The position of a `--fen` as pasted (a FEN, a Lichess URL, a `[FEN]` tag), under the
/// variant given, else the URL's, else the one the FEN suggests.
fn pasted_position(text: &str, variant: Option<Variant>) -> Result<Position, FenPositionError> {
    let pasted = fen::unwrap_pasted(text);
    Position::from_fen(&pasted.fen, variant.or(pasted.variant).map(Rules::new))
}

/// Prints why a FEN gives no position; `pair` says what the command does with one
/// board; `line` is its number among several.
fn fen_error(e: FenPositionError, pair: &str, line: Option<usize>) {
    let at = match line {
        Some(n) => format!("line {n}"),
        None => "--fen".to_owned(),
    };
    match e {
        FenPositionError::Parse(e) => eprintln!("pocketfen: {at}: {e}"),
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

/// Builds the start position of `moves`/`legal`; `Err` when the message is printed.
/// Without `--fen`, `--variant auto` takes crazyhouse when a move is a drop.
fn start_position(args: &super::args::PositionArgs, tokens: &[String]) -> Result<Position, ()> {
    let drop_mate = !args.no_drop_mate;
    match &args.fen {
        Some(text) => {
            let mut pos = pasted_position(text, args.variant)
                .map_err(|e| fen_error(e, "one board is played here", None))?;
            pos.set_drop_mate(drop_mate);
            Ok(pos)
        }
        None => {
            let drops = tokens.iter().any(|t| t.contains('@'));
            let variant = args.variant.unwrap_or(if drops {
                Variant::Crazyhouse
            } else {
                Variant::Chess
            });
            let mut pos = Position::start(variant);
            pos.set_drop_mate(drop_mate);
            Ok(pos)
        }
    }
}

fn move_text(pos: &Position, m: pocketfen::Move, to: MoveFormat, style: DropStyle) -> String {
    match to {
        MoveFormat::San => SanPlus::from_move(pos, m).to_string_with(style),
        MoveFormat::Uci => m.to_uci(pos.is_chess960()).to_string(),
    }
}

/// How much of stdin `moves` looks at to guess the variant (a drop: crazyhouse); on a
/// terminal, only what is typed first.
const GUESS_WINDOW: usize = 64 << 10;

/// The start of stdin, up to [`GUESS_WINDOW`] (what is there, on a terminal or when
/// `live`), read ahead to guess the variant from.
fn stdin_head(reader: &mut impl BufRead, live: bool) -> io::Result<Vec<u8>> {
    let mut head = Vec::new();
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(head);
        }
        let n = chunk.len().min(GUESS_WINDOW - head.len());
        head.extend_from_slice(&chunk[..n]);
        reader.consume(n);
        if live || head.len() >= GUESS_WINDOW {
            return Ok(head);
        }
    }
}

/// A token as messages show it: its first 40 characters, then `…`.
fn clipped(token: &str) -> std::borrow::Cow<'_, str> {
    match token.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &token[..at]).into(),
        None => token.into(),
    }
}

fn moves(args: &MovesArgs) -> Result<bool> {
    let live = interactive(args.line_buffered);
    // From the arguments (one movetext, however it is split into them), or streamed from
    // stdin, the variant guessed from its start.
    let (tokens, guess_from): (Box<dyn Iterator<Item = io::Result<String>>>, Vec<String>) =
        if args.moves.is_empty() {
            // Ctrl-C ends the input, also while a read waits: the moves before it are played.
            let mut stdin = io::BufReader::with_capacity(
                1 << 16,
                super::live::Stdin::new(super::live::catch_signals()),
            );
            let head = stdin_head(&mut stdin, live).context("reading stdin")?;
            let guess = if head.contains(&b'@') {
                vec!["@".to_owned()]
            } else {
                Vec::new()
            };
            let reader = io::Read::chain(io::Cursor::new(head), stdin);
            (Box::new(MoveTokens::new(reader)), guess)
        } else {
            // One argument per line: a `;` comment ends with its argument.
            let text = args.moves.join("\n");
            let tokens: Vec<io::Result<String>> = MoveTokens::new(text.as_bytes()).collect();
            let guess = tokens
                .iter()
                .filter_map(|t| t.as_ref().ok())
                .filter(|t| t.contains('@'))
                .cloned()
                .collect();
            (Box::new(tokens.into_iter()), guess)
        };
    let Ok(mut pos) = start_position(&args.position, &guess_from) else {
        return Ok(false);
    };
    let dialect = args.dialect;
    let style = args.output.drop_style;
    let fen_of = |p: &Position| p.to_setup().display(dialect).to_string();
    let mut out = stdout();
    let mut ok = true;
    let emit =
        |out: &mut BufWriter<io::StdoutLock<'static>>, rec: &MoveRecord<'_>| -> io::Result<()> {
            serde_json::to_writer(&mut *out, rec).map_err(io::Error::other)?;
            out.write_all(b"\n")
        };
    let mut plies = 0;
    for (i, token) in tokens.enumerate() {
        let token = &match token {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                // Movetext that cannot be read: said after the moves before it.
                if args.json {
                    emit(
                        &mut out,
                        &MoveRecord::Error {
                            index: i + 1,
                            token: "",
                            kind: "syntax",
                            message: e.to_string(),
                            fen: fen_of(&pos),
                        },
                    )?;
                } else {
                    out.flush()?;
                    eprintln!("pocketfen: move {}: syntax: {e}", i + 1);
                }
                out.flush()?;
                return Ok(false);
            }
            Err(e) => return Err(e).context("reading stdin"),
        };
        let shown = clipped(token);
        let index = i + 1;
        plies = index;
        let resolved = resolve_move(token, &pos, args.strict).map_err(|e| (e.kind(), e.message()));
        let (m, defects) = match resolved {
            Ok(r) => r,
            Err((kind, message)) => {
                let fen = fen_of(&pos);
                if args.json {
                    emit(
                        &mut out,
                        &MoveRecord::Error {
                            index,
                            token,
                            kind,
                            message,
                            fen,
                        },
                    )?;
                } else {
                    out.flush()?;
                    eprintln!(
                        "pocketfen: move {index} ({shown}): {kind}: {message} (position {fen})"
                    );
                }
                out.flush()?;
                return Ok(false);
            }
        };
        let text = move_text(&pos, m, args.output.to, style);
        let san = SanPlus::from_move(&pos, m).to_string_with(style);
        let uci = m.to_uci(pos.is_chess960()).to_string();
        pos.play_unchecked(m);
        ok &= defects.is_empty();
        if args.json {
            let defects = defects.iter().map(ToString::to_string).collect();
            emit(
                &mut out,
                &MoveRecord::Move {
                    index,
                    token,
                    san,
                    uci,
                    fen: fen_of(&pos),
                    defects,
                },
            )?;
        } else {
            writeln!(out, "{text}")?;
            if !defects.is_empty() {
                out.flush()?;
                for d in &defects {
                    eprintln!("pocketfen: move {index} ({shown}): strict: {d}");
                }
            }
        }
        if live {
            out.flush()?;
        }
    }
    let outcome = pos.outcome().map(|o| o.result());
    if args.json {
        emit(
            &mut out,
            &MoveRecord::End {
                plies,
                fen: fen_of(&pos),
                outcome,
            },
        )?;
    } else {
        writeln!(out, "{}", fen_of(&pos))?;
    }
    out.flush().context("writing stdout")?;
    Ok(ok)
}

fn legal(args: &LegalArgs) -> Result<bool> {
    if let Some((n, fen)) = split_fen(&args.fens) {
        return Err(split_fen_error(n, &fen));
    }
    let style = args.output.drop_style;
    let mut out = stdout();
    let mut ok = true;
    let live = interactive(false);
    for_each_position(args.fen.as_ref(), &args.fens, |n, record, text| {
        let line = args.fen.is_none().then_some(record);
        if n > 1 {
            writeln!(out)?;
        }
        let Some(pos) = position_of(
            text,
            args.variant,
            !args.no_drop_mate,
            line,
            "one board is played here",
        ) else {
            ok = false;
            return Ok(());
        };
        let mut list: Vec<String> = pos
            .legal_moves()
            .into_iter()
            .map(|m| move_text(&pos, m, args.output.to, style))
            .collect();
        list.sort();
        for m in list {
            writeln!(out, "{m}")?;
        }
        if live {
            out.flush()?;
        }
        Ok(())
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}
