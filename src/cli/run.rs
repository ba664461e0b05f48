//! One function per subcommand.

use std::io::{self, BufRead, BufWriter, Write};

use anyhow::{Context, Result};

use super::args::{
    CheckArgs, Cli, Command, ConvertArgs, FenCommand, FenInput, LegalArgs, MoveFormat, MovesArgs,
    PerftArgs, ShowArgs,
};
use pocketfen::bughouse::check_fen;
use pocketfen::draw::svg::{Marks, Style, fen_svg};
use pocketfen::notation::diagram::diagram;
use pocketfen::notation::fen::{self, FenPositionError};
use pocketfen::notation::mixed::resolve_move;
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::notation::uci::UciMove;
use pocketfen::record::{BoardProblem, CheckRecord, ConvertRecord, FenErrorRecord, MoveRecord};
use pocketfen::{Fen, Position, Rules, Severity, Variant, guess_variant};

/// Runs the command; `Ok(false)` when some input was invalid.
pub fn run(cli: Cli) -> Result<bool> {
    match cli.command {
        Command::Fen(FenCommand::Convert(args)) => convert(&args),
        Command::Fen(FenCommand::Check(args)) => check(&args),
        Command::Fen(FenCommand::Show(args)) => show(&args),
        Command::Perft(args) => perft(&args),
        Command::Moves(args) => moves(&args),
        Command::Legal(args) => legal(&args),
        Command::Validate(args) => super::validate::validate(&args),
        Command::Replay(args) => super::validate::replay(&args),
        Command::Pgn(super::args::PgnCommand::Convert(args)) => super::validate::convert(&args),
        Command::Merge(args) => super::validate::merge(&args),
        Command::Completions(args) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(args.shell, &mut cmd, "pocketfen", &mut io::stdout().lock());
            Ok(true)
        }
        Command::Manpage => {
            let cmd = <Cli as clap::CommandFactory>::command();
            clap_mangen::Man::new(cmd)
                .render(&mut io::stdout().lock())
                .context("writing the manual page")?;
            Ok(true)
        }
    }
}

/// Calls `f` with each record (1-based number, text): the arguments, else stdin's lines
/// (ended by `\n`, `\r\n` or a lone `\r`, as old Mac files end them; bytes that are not
/// UTF-8 are replaced, and the parser then points at them).
fn for_each_record(
    input: &FenInput,
    mut f: impl FnMut(usize, &str) -> io::Result<()>,
) -> Result<()> {
    if !input.fens.is_empty() {
        for (n, fen) in input.fens.iter().enumerate() {
            f(n + 1, fen)?;
        }
        return Ok(());
    }
    let stdin = io::stdin();
    let mut reader = io::BufReader::with_capacity(1 << 16, stdin.lock());
    let mut buf = Vec::with_capacity(256);
    let mut n = 0;
    loop {
        buf.clear();
        if !read_line(&mut reader, &mut buf).context("reading stdin")? {
            return Ok(());
        }
        n += 1;
        // A byte-order mark (files saved on Windows) is not part of the first FEN.
        if n == 1 && buf.starts_with(b"\xef\xbb\xbf") {
            buf.drain(..3);
        }
        match std::str::from_utf8(&buf) {
            Ok(line) => f(n, line)?,
            Err(_) => f(n, &String::from_utf8_lossy(&buf))?,
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

fn convert(args: &ConvertArgs) -> Result<bool> {
    let conv = fen::Conversion {
        from: args.from,
        to: args.to,
        variant: args.variant,
    };
    let mut out = stdout();
    let mut text = String::with_capacity(128);
    let mut json = Vec::with_capacity(256);
    let mut ok = true;
    for_each_record(&args.input, |n, line| {
        if line.trim().is_empty() {
            // Blank lines keep their place in text output and are skipped in JSON.
            return if args.input.json {
                Ok(())
            } else {
                out.write_all(b"\n")
            };
        }
        text.clear();
        let converted = fen::convert_line(line, &conv, &mut text);
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
                    return out.write_all(text.as_bytes());
                }
                let record = ConvertRecord::Converted {
                    line: n,
                    input: line,
                    dialect: *dialect,
                    output: &text,
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
        out.write_all(&json)
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
    let mut out = stdout();
    let mut ok = true;
    for_each_record(&args.input, |n, line| {
        if line.trim().is_empty() {
            return Ok(());
        }
        let parsed = match fen::parse(line, None) {
            Ok(p) => p,
            Err(e) => {
                ok = false;
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
        let variant = args.variant.unwrap_or_else(|| guess_variant(&parsed.fen));
        let problems = check_fen(&parsed.fen, variant);
        let valid = problems.iter().all(|(_, p)| p.severity != Severity::Error);
        ok &= valid;
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
    })?;
    out.flush().context("writing stdout")?;
    Ok(ok)
}

fn show(args: &ShowArgs) -> Result<bool> {
    let parsed = match fen::parse(&args.fen, None) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pocketfen: {e}");
            return Ok(false);
        }
    };
    let mut out = stdout();
    if args.svg {
        let Some(marks) = last_move_marks(&args.last_move, parsed.fen.boards().len()) else {
            return Ok(false);
        };
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

/// The marks of `--last-move` per board (`UCI`, or `A:UCI` / `B:UCI` on a pair); `None`
/// after saying what is wrong.
fn last_move_marks(moves: &[String], boards: usize) -> Option<Vec<Marks>> {
    let mut marks = vec![Marks::default(); boards];
    for text in moves {
        let (board, uci) = match text.split_once(':') {
            Some((b, rest)) if b.eq_ignore_ascii_case("a") => (0, rest),
            Some((b, rest)) if b.eq_ignore_ascii_case("b") => (1, rest),
            Some(_) => {
                eprintln!("pocketfen: --last-move {text:?}: a board is named A or B");
                return None;
            }
            None => (0, text.as_str()),
        };
        if board >= boards {
            eprintln!("pocketfen: --last-move {text:?}: board B is only in a bughouse pair");
            return None;
        }
        let squares = match UciMove::from_ascii(uci.as_bytes()) {
            Ok(UciMove::Normal { from, to, .. }) => (Some(from), to),
            Ok(UciMove::Put { to, .. }) => (None, to),
            Ok(UciMove::Null) => {
                eprintln!("pocketfen: --last-move {text:?}: a null move moves nothing");
                return None;
            }
            Err(e) => {
                eprintln!("pocketfen: --last-move {text:?}: {e}");
                return None;
            }
        };
        marks[board].last_move = Some(squares);
    }
    Some(marks)
}

fn perft(args: &PerftArgs) -> Result<bool> {
    let variant = args.variant;
    let pos = match &args.fen {
        Some(text) => match Position::from_fen(text, variant.map(Rules::new)) {
            Ok(pos) => pos,
            Err(e) => {
                fen_error(e, "perft counts one board");
                return Ok(false);
            }
        },
        None => Position::start(variant.unwrap_or(Variant::Chess)),
    };
    let mut out = stdout();
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
    out.flush().context("writing stdout")?;
    Ok(true)
}

/// Prints why `--fen` gives no position; `pair` says what the command does with one
/// board.
fn fen_error(e: FenPositionError, pair: &str) {
    match e {
        FenPositionError::Parse(e) => eprintln!("pocketfen: --fen: {e}"),
        FenPositionError::Pair => {
            eprintln!("pocketfen: --fen: {pair}; give board A or B of the pair")
        }
        FenPositionError::Illegal(e) => {
            for p in e.errors() {
                eprintln!("pocketfen: --fen: {p}");
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
            let mut pos = Position::from_fen(text, args.variant.map(Rules::new))
                .map_err(|e| fen_error(e, "one board is played here"))?;
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

/// The whitespace-separated words of a reader, one at a time: a move list of any length
/// in the memory of its longest word.
struct Words<R> {
    reader: R,
    buf: Vec<u8>,
    at: usize,
    eof: bool,
}

/// How much of stdin `moves` looks at to guess the variant (a drop: crazyhouse).
const GUESS_WINDOW: usize = 64 << 10;

impl<R: BufRead> Words<R> {
    fn new(reader: R) -> Words<R> {
        Words {
            reader,
            buf: Vec::new(),
            at: 0,
            eof: false,
        }
    }

    /// Reads more; `false` at the end.
    fn fill(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        self.buf.drain(..self.at);
        self.at = 0;
        let chunk = self.reader.fill_buf()?;
        if chunk.is_empty() {
            self.eof = true;
            return Ok(false);
        }
        let n = chunk.len();
        self.buf.extend_from_slice(chunk);
        self.reader.consume(n);
        Ok(true)
    }

    /// The unread input, at least `n` bytes of it when there are so many.
    fn look_ahead(&mut self, n: usize) -> io::Result<&[u8]> {
        while self.buf.len() - self.at < n && self.fill()? {}
        Ok(&self.buf[self.at..])
    }
}

impl<R: BufRead> Iterator for Words<R> {
    type Item = io::Result<String>;
    fn next(&mut self) -> Option<io::Result<String>> {
        loop {
            let rest = &self.buf[self.at..];
            let start = rest.iter().position(|b| !b.is_ascii_whitespace());
            if let Some(s) = start
                && let Some(len) = rest[s..].iter().position(u8::is_ascii_whitespace)
            {
                let word = String::from_utf8_lossy(&rest[s..s + len]).into_owned();
                self.at += s + len;
                return Some(Ok(word));
            }
            match self.fill() {
                Ok(true) => {}
                Ok(false) => {
                    let rest = &self.buf[self.at..];
                    let word = String::from_utf8_lossy(rest.trim_ascii()).into_owned();
                    self.at = self.buf.len();
                    return (!word.is_empty()).then_some(Ok(word));
                }
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

fn moves(args: &MovesArgs) -> Result<bool> {
    // From the arguments, or streamed from stdin (the variant guessed from its start).
    let mut stdin_words = args
        .moves
        .is_empty()
        .then(|| Words::new(io::BufReader::with_capacity(1 << 16, io::stdin().lock())));
    let guess_from: Vec<String> = match &mut stdin_words {
        None => args.moves.clone(),
        Some(words) => {
            let head = words.look_ahead(GUESS_WINDOW).context("reading stdin")?;
            if head.contains(&b'@') {
                vec!["@".to_owned()]
            } else {
                Vec::new()
            }
        }
    };
    let tokens: Box<dyn Iterator<Item = io::Result<String>>> = match stdin_words {
        None => Box::new(args.moves.iter().cloned().map(Ok)),
        Some(words) => Box::new(words),
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
        let token = &token.context("reading stdin")?;
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
                        "pocketfen: move {index} ({token}): {kind}: {message} (position {fen})"
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
                    eprintln!("pocketfen: move {index} ({token}): strict: {d}");
                }
            }
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
    let Ok(pos) = start_position(&args.position, &[]) else {
        return Ok(false);
    };
    let style = args.output.drop_style;
    let mut list: Vec<String> = pos
        .legal_moves()
        .into_iter()
        .map(|m| move_text(&pos, m, args.output.to, style))
        .collect();
    list.sort();
    let mut out = stdout();
    for m in list {
        writeln!(out, "{m}")?;
    }
    out.flush().context("writing stdout")?;
    Ok(true)
}
