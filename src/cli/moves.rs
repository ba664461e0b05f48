//! The move commands: `moves` (a game played move by move), `legal` (a position's legal
//! moves) and `perft`.

use std::borrow::Cow;
use std::io::{self, BufRead, BufWriter, Write};

use anyhow::{Context, Result};

use super::args::{LegalArgs, MoveFormat, MovesArgs, OpeningArgs, PerftArgs};
use super::fen::{
    fen_error, for_each_position, interactive, pasted_position, position_of, stdout, warn_dropped,
};
use super::movetext::MoveTokens;
use pocketfen::notation::fen::FenPositionError;
use pocketfen::notation::mixed::resolve_move;
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::record::MoveRecord;
use pocketfen::{Position, Variant};

pub(super) fn perft(args: &PerftArgs) -> Result<bool> {
    if let Some((n, fen)) = super::split_fen(&args.fens) {
        return Err(super::split_fen_error(n, &fen));
    }
    let variant = args.variant;
    let mut out = stdout();
    let mut ok = true;
    let several =
        args.fen.is_none() && (args.fens.len() != 1 || args.fens.iter().any(|f| f == "-"));
    let live = interactive(args.line_buffered);
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

/// Builds the start position of `moves`; `Err` when the `--fen` gives none. Without
/// `--fen`, `--variant auto` takes crazyhouse when a move is a drop.
fn start_position(
    args: &super::args::PositionArgs,
    tokens: &[String],
) -> Result<Position, FenPositionError> {
    let drop_mate = !args.no_drop_mate;
    match &args.fen {
        Some(text) => {
            let (mut pos, dropped) = pasted_position(text, args.variant)?;
            warn_dropped(dropped, None);
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

pub(super) fn moves(args: &MovesArgs) -> Result<bool> {
    let live = interactive(args.line_buffered);
    let (tokens, guess_from) = move_input(args, live)?;
    let mut pos = match start_position(&args.position, &guess_from) {
        Ok(pos) => pos,
        // With `--json`, the error is a record too (the `--fen` as move 0).
        Err(e) if args.json => {
            let (kind, message) = match &e {
                FenPositionError::Parse(p) => ("syntax".into(), p.to_string()),
                FenPositionError::Pair => (
                    "pair".into(),
                    "one board is played here; give board A or B of the pair".to_owned(),
                ),
                FenPositionError::Illegal(p) => {
                    let errors: Vec<_> = p.errors().collect();
                    let kind = errors.first().map_or("illegal-position", |p| p.kind.name());
                    let message: Vec<&str> = errors.iter().map(|p| p.message.as_str()).collect();
                    (kind.into(), message.join("; "))
                }
            };
            let record = MoveRecord::Error {
                index: 0,
                token: args.position.fen.as_deref().unwrap_or_default().into(),
                kind,
                message,
                fen: args.position.fen.clone().unwrap_or_default(),
            };
            let mut out = stdout();
            emit(&mut out, &record)?;
            out.flush().context("writing stdout")?;
            return Ok(false);
        }
        Err(e) => {
            fen_error(e, "one board is played here", None);
            return Ok(false);
        }
    };
    let dialect = args.dialect;
    let style = args.output.drop_style;
    let fen_of = |p: &Position| p.to_setup().display(dialect).to_string();
    let mut out = stdout();
    let mut ok = true;
    let mut plies = 0;
    for (i, token) in tokens.enumerate() {
        let token = &match token {
            Ok(t) => t,
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                // Movetext that cannot be read: said after the moves before it.
                let text = format!("pocketfen: move {}: syntax: {e}", i + 1);
                let record = MoveRecord::Error {
                    index: i + 1,
                    token: "".into(),
                    kind: "syntax".into(),
                    message: e.to_string(),
                    fen: fen_of(&pos),
                };
                refuse(&mut out, args.json, &record, &text)?;
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
                let text = format!(
                    "pocketfen: move {index} ({shown}): {kind}: {message} (position {fen})"
                );
                let record = MoveRecord::Error {
                    index,
                    token: token.into(),
                    kind: kind.into(),
                    message,
                    fen,
                };
                refuse(&mut out, args.json, &record, &text)?;
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
                    token: token.into(),
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
                outcome: outcome.map(Cow::from),
            },
        )?;
    } else {
        writeln!(out, "{}", fen_of(&pos))?;
    }
    out.flush().context("writing stdout")?;
    Ok(ok)
}

/// Writes one JSON record of `moves`.
fn emit(out: &mut BufWriter<io::StdoutLock<'static>>, rec: &MoveRecord<'_>) -> io::Result<()> {
    serde_json::to_writer(&mut *out, rec).map_err(io::Error::from)?;
    out.write_all(b"\n")
}

/// The move that ends `moves`: its record with `--json`, else `text` on stderr after the
/// moves before it.
fn refuse(
    out: &mut BufWriter<io::StdoutLock<'static>>,
    json: bool,
    record: &MoveRecord<'_>,
    text: &str,
) -> io::Result<()> {
    if json {
        emit(out, record)?;
    } else {
        out.flush()?;
        eprintln!("{text}");
    }
    out.flush()
}

/// The move tokens, from the arguments (one movetext, however it is split into them) or
/// streamed from stdin, and what the variant is guessed from (a drop in the start).
#[allow(clippy::type_complexity)]
fn move_input(
    args: &MovesArgs,
    live: bool,
) -> Result<(Box<dyn Iterator<Item = io::Result<String>>>, Vec<String>)> {
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
        Ok((Box::new(MoveTokens::new(reader)), guess))
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
        Ok((Box::new(tokens.into_iter()), guess))
    }
}

pub(super) fn legal(args: &LegalArgs) -> Result<bool> {
    if let Some((n, fen)) = super::split_fen(&args.fens) {
        return Err(super::split_fen_error(n, &fen));
    }
    let style = args.output.drop_style;
    let mut out = stdout();
    let mut ok = true;
    let live = interactive(args.line_buffered);
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

/// `opening`: the opening of each move list (the arguments, or each line of stdin).
pub fn opening(args: &OpeningArgs) -> Result<bool> {
    if !pocketfen::opening::names_variant(args.variant) {
        anyhow::bail!(
            "Lichess names the openings of chess and crazyhouse games only, not of {}",
            args.variant
        );
    }
    let mut out = BufWriter::new(io::stdout().lock());
    let mut ok = true;
    let live = interactive(args.line_buffered);
    let mut one = |movetext: &str, place: &str, out: &mut dyn Write| -> Result<()> {
        let named = if args.fen {
            named_position(movetext, args.variant)
        } else {
            opening_of(movetext, args.variant)
        };
        match named {
            Ok(named) => {
                let line = match (args.json, named) {
                    (true, Some(n)) if args.fen => {
                        serde_json::json!({"eco": n.eco, "name": n.name, "ply": null}).to_string()
                    }
                    (true, Some(n)) => {
                        serde_json::json!({"eco": n.eco, "name": n.name, "ply": n.ply}).to_string()
                    }
                    (false, Some(n)) if args.fen => format!("{}\t{}", n.eco, n.name),
                    (true, None) => {
                        serde_json::json!({"eco": null, "name": null, "ply": null}).to_string()
                    }
                    (false, Some(n)) => format!("{}\t{}\t{}", n.eco, n.name, n.ply),
                    (false, None) => "?".to_owned(),
                };
                writeln!(out, "{line}")?;
            }
            Err(e) => {
                ok = false;
                eprintln!("pocketfen: {place}{e}");
                let line = if args.json {
                    serde_json::json!({"error": e}).to_string()
                } else {
                    "?".to_owned()
                };
                writeln!(out, "{line}")?;
            }
        }
        // An answer per line, at once, to a person or a coprocess.
        if live {
            out.flush()?;
        }
        Ok(())
    };
    if args.moves.is_empty() || args.moves == ["-"] {
        for (i, line) in io::stdin().lock().lines().enumerate() {
            let line = line.context("reading stdin")?;
            one(&line, &format!("line {}: ", i + 1), &mut out)?;
        }
    } else {
        one(&args.moves.join(" "), "", &mut out)?;
    }
    out.flush()?;
    Ok(ok)
}

/// The opening that names the position of a FEN (any dialect; `variant` unless its
/// pockets say crazyhouse), or why the FEN does not read.
fn named_position(
    fen: &str,
    variant: Variant,
) -> std::result::Result<Option<pocketfen::opening::Named>, String> {
    let (pos, _) = pasted_position(fen.trim(), Some(variant)).map_err(|e| format!("FEN: {e}"))?;
    Ok(
        pocketfen::opening::of_position(&pos).map(|line| pocketfen::opening::Named {
            eco: line.eco,
            name: line.name,
            ply: line.plies,
            line,
        }),
    )
}

/// The deepest named position of `movetext` played from `variant`'s start, or why a move
/// of it does not play (`move 3 (Nxe5): …`).
fn opening_of(
    movetext: &str,
    variant: Variant,
) -> std::result::Result<Option<pocketfen::opening::Named>, String> {
    let mut pos = Position::start(variant);
    let mut classifier =
        pocketfen::opening::Classifier::new(&pos).expect("a variant's standard start");
    for (ply, token) in MoveTokens::new(movetext.as_bytes()).enumerate() {
        let token = token.map_err(|e| e.to_string())?;
        let (m, _) = resolve_move(&token, &pos, false)
            .map_err(|e| format!("ply {} ({token}): {e}", ply + 1))?;
        pos.play_unchecked(m);
        classifier.push(&pos);
    }
    Ok(classifier.opening())
}
