//! `Match`: a bughouse match of two boards, over the library's `bughouse::Match`: moves
//! played on either board (a capture handed to the partner board's pocket), clocks when
//! given, the drop-mate rule, the outcome, and BPGN read and written.

use std::ops::ControlFlow;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use pocketfen::bughouse::{BoardId, Match};
use pocketfen::game::{Format, GameAt, Options, RowOptions, Visitor, game_rows, visit_game};
use pocketfen::notation::fen::FenDialect;
use pocketfen::notation::mixed::resolve_move;
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::stream::{GameSplitter, RawGame};
use pocketfen::{Color, Fen, Move, Setup};

use crate::position::PyPosition;
use crate::values::{PyMove, PyOutcome, fields, outcome_of};
use crate::{IllegalMoveError, dialect};

/// The tags BPGN names the four players and their ratings with, in the order written.
const PLAYERS: [&str; 8] = [
    "WhiteA",
    "WhiteAElo",
    "BlackA",
    "BlackAElo",
    "WhiteB",
    "WhiteBElo",
    "BlackB",
    "BlackBElo",
];

/// A move played: its board, the move, its SAN, and the mover's clock after it.
#[derive(Clone)]
struct Played {
    board: BoardId,
    m: Move,
    san: String,
    clock: Option<f64>,
    /// The board's position before it (for its move number and side).
    turn: Color,
    number: u32,
}

fn board_id(name: &str) -> PyResult<BoardId> {
    match name {
        "A" | "a" => Ok(BoardId::A),
        "B" | "b" => Ok(BoardId::B),
        _ => Err(PyValueError::new_err(format!(
            "a board is \"A\" or \"B\", not {name:?}"
        ))),
    }
}

/// A clock as BPGN writes it: whole seconds as `179`, else up to milliseconds (`179.5`).
fn clock_text(secs: f64) -> String {
    if secs.fract() == 0.0 {
        format!("{secs:.0}")
    } else {
        let t = format!("{secs:.3}");
        t.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// `value` escaped for a tag.
fn escaped(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tags of a game, in order, unescaped (the walk stops after them).
#[derive(Default)]
struct Tags(Vec<(String, String)>);

impl<'t> Visitor<'t> for Tags {
    fn tag(&mut self, name: &'t str, value: &'t str) -> ControlFlow<()> {
        let value = value.replace("\\\"", "\"").replace("\\\\", "\\");
        self.0.push((name.to_owned(), value));
        ControlFlow::Continue(())
    }
    fn start(&mut self, _: pocketfen::game::Boards<'_>) -> ControlFlow<()> {
        ControlFlow::Break(())
    }
}

/// Match(fen=None, *, drop_mate=True, tags=None)
/// --
///
/// A bughouse match: two boards, A and B, where White on A partners Black on B. Both
/// boards start at the standard start, or at a FEN pair `A | B` in any dialect. A move
/// played on one board that captures hands the piece to the partner board's pocket, in
/// the partner's colour (a promoted piece as a pawn). `drop_mate=False` forbids drops
/// that checkmate (other drop checks stay legal). `tags` (a mapping) are the match's
/// BPGN tags: `WhiteA`, `WhiteAElo`, `BlackA`… for the players and their ratings, and any
/// other (`Event`, `Site`, `Date`, `TimeControl`).
#[pyclass(name = "Match", module = "pocketfen")]
#[derive(Clone)]
pub(crate) struct PyMatch {
    game: Match,
    start: Match,
    start_fen: Option<String>,
    played: Vec<Played>,
    tags: Vec<(String, String)>,
    drop_mate: bool,
}

impl PyMatch {
    fn new_from(fen: Option<&str>, drop_mate: bool) -> PyResult<PyMatch> {
        let game = match fen {
            None => Match::new(),
            Some(text) => {
                let parsed: Fen = text
                    .parse()
                    .map_err(|e| PyValueError::new_err(format!("fen: {e}")))?;
                let Fen::Pair(pair) = parsed else {
                    return Err(PyValueError::new_err(
                        "fen: a match needs a pair of boards, `A | B`",
                    ));
                };
                let [a, b]: &[Setup; 2] = &pair;
                Match::from_setups(a, b).map_err(|(board, e)| {
                    PyValueError::new_err(format!("fen: board {}: {e}", board.letter()))
                })?
            }
        }
        .with_drop_mate(drop_mate);
        let start_fen = fen.map(|_| pair_fen(&game, FenDialect::Lichess));
        Ok(PyMatch {
            start: game.clone(),
            game,
            start_fen,
            played: Vec::new(),
            tags: Vec::new(),
            drop_mate,
        })
    }

    /// Plays `m` (legal) on `board`.
    fn push(&mut self, board: BoardId, m: Move, clock: Option<f64>) -> String {
        let pos = self.game.board(board);
        let san = SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter);
        let (turn, number) = (pos.turn(), pos.fullmoves());
        self.game.play_unchecked(board, m);
        self.played.push(Played {
            board,
            m,
            san: san.clone(),
            clock,
            turn,
            number,
        });
        san
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Both boards' FEN, `A | B`.
fn pair_fen(game: &Match, d: FenDialect) -> String {
    let fen = |id| game.board(id).to_setup().display(d).to_string();
    format!("{} | {}", fen(BoardId::A), fen(BoardId::B))
}

#[pymethods]
impl PyMatch {
    #[new]
    #[pyo3(signature = (fen = None, *, drop_mate = true, tags = None))]
    fn new(fen: Option<&str>, drop_mate: bool, tags: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut m = PyMatch::new_from(fen, drop_mate)?;
        if let Some(tags) = tags {
            for (k, v) in tags.iter() {
                m.tags.push((k.str()?.to_string(), v.str()?.to_string()));
            }
        }
        Ok(m)
    }

    /// Match.from_bpgn(text, *, drop_mate=True)
    /// --
    ///
    /// The match of a BPGN game (the first of `text`): its tags, its start (`[FEN]`),
    /// every mainline move with its clock (`{179}`, `{[%clk 0:02:59]}`). Raises
    /// ValueError, located as `validate` locates it, when a move is not legal.
    #[staticmethod]
    #[pyo3(signature = (text, *, drop_mate = true))]
    fn from_bpgn(text: &str, drop_mate: bool) -> PyResult<Self> {
        let mut games = GameSplitter::new(text.as_bytes());
        let raw = match games.next_game() {
            Ok(Some(g)) => RawGame {
                number: 1,
                line: 1,
                offset: 0,
                ..g
            },
            _ => return Err(PyValueError::new_err("no game in the text")),
        };
        let opts = Options {
            format: Format::Bpgn,
            drop_mate,
            ..Options::default()
        };
        let made = game_rows(
            &raw,
            &opts,
            RowOptions {
                plies: true,
                ..RowOptions::default()
            },
        );
        if let Some(p) = made
            .report
            .problems
            .iter()
            .find(|p| p.severity == pocketfen::Severity::Error)
        {
            return Err(PyValueError::new_err(format!(
                "{}",
                p.display_in("<bpgn>", GameAt::of(1, 1))
            )));
        }
        let mut tags = Tags::default();
        visit_game(&raw, &opts, &mut tags);
        let start = tags
            .0
            .iter()
            .find(|(n, _)| n == "FEN")
            .map(|(_, v)| v.clone());
        let mut m = PyMatch::new_from(start.as_deref(), drop_mate)?;
        m.tags = tags
            .0
            .into_iter()
            .filter(|(n, _)| !matches!(n.as_str(), "FEN" | "SetUp" | "Variant"))
            .collect();
        for ply in &made.plies {
            let board = ply.board.unwrap_or(BoardId::A);
            let pos = m.game.board(board);
            let mv = ply.uci.to_move(pos).map_err(|_| {
                PyValueError::new_err(format!("ply {}: {} is not legal", ply.ply, ply.uci))
            })?;
            m.push(board, mv, ply.clock);
        }
        Ok(m)
    }

    /// play(board, move, clock=None)
    /// --
    ///
    /// Plays a legal move on board `"A"` or `"B"` (SAN or UCI text, a Move, or a
    /// chess.Move) and returns its SAN; `clock` is the mover's time left after it, in
    /// seconds (written into BPGN). Raises IllegalMoveError when it is not legal there
    /// (not that side's turn on that board, a piece its pocket lacks, a drop that mates
    /// when drop-mate is forbidden), or when the match has ended.
    #[pyo3(signature = (board, r#move, clock = None))]
    fn play(
        &mut self,
        py: Python<'_>,
        board: &str,
        r#move: &Bound<'_, PyAny>,
        clock: Option<f64>,
    ) -> PyResult<String> {
        let id = board_id(board)?;
        let pos = self.game.board(id);
        let illegal = |shown: &str, kind: &str, reason: String| {
            let err = IllegalMoveError::new_err(format!("{shown}: {kind}: {reason}"));
            let value = err.value(py);
            let _ = value.setattr("kind", kind);
            let _ = value.setattr("reason", reason.as_str());
            err
        };
        if let Some((ended, _)) = self.game.outcome() {
            return Err(illegal(
                "move",
                "game-over",
                format!("the match has ended on board {}", ended.letter()),
            ));
        }
        let m = if let Ok(text) = r#move.cast::<PyString>() {
            let text = text.to_cow()?;
            resolve_move(&text, pos, false)
                .map(|(m, _)| m)
                .map_err(|e| illegal(&text, e.kind(), e.message()))?
        } else {
            let mv = fields(r#move).map_err(|_| {
                PyTypeError::new_err("a move is SAN or UCI text, a pocketfen.Move or a chess.Move")
            })?;
            let uci = mv.to_uci()?;
            uci.to_move(pos)
                .map_err(|e| illegal(&uci.to_string(), "illegal", e.to_string()))?
        };
        Ok(self.push(id, m, clock))
    }

    /// board(board)
    /// --
    ///
    /// A copy of board `"A"` or `"B"` as a Position (its pocket holds what the partner
    /// board handed over).
    fn board(&self, board: &str) -> PyResult<PyPosition> {
        Ok(PyPosition::of(self.game.board(board_id(board)?).clone()))
    }

    /// fen(dialect="lichess")
    /// --
    ///
    /// Both boards as a FEN pair `A | B`, in a dialect.
    #[pyo3(signature = (dialect = "lichess"))]
    fn fen(&self, dialect: &str) -> PyResult<String> {
        Ok(pair_fen(&self.game, self::dialect(dialect)?))
    }

    /// The moves played, in order: `(board, move, san, clock)` tuples.
    #[getter]
    fn moves(&self) -> Vec<(&'static str, PyMove, String, Option<f64>)> {
        let mut replay = self.start.clone();
        self.played
            .iter()
            .map(|p| {
                let mv = PyMove::of(replay.board(p.board), p.m);
                replay.play_unchecked(p.board, p.m);
                (p.board.name(), mv, p.san.clone(), p.clock)
            })
            .collect()
    }

    /// The match's tags, as a new dict.
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in &self.tags {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// Sets a tag (a player: `WhiteA`, `BlackB`; a rating: `WhiteAElo`…).
    fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(t) => t.1 = value.to_owned(),
            None => self.tags.push((name.to_owned(), value.to_owned())),
        }
    }

    /// Whether a drop may checkmate.
    #[getter]
    fn drop_mate(&self) -> bool {
        self.drop_mate
    }

    /// outcome()
    /// --
    ///
    /// None while the match goes on; when a checkmate on either board has ended it, the
    /// board (`"A"` or `"B"`) and the Outcome there.
    fn outcome(&self) -> Option<(&'static str, PyOutcome)> {
        self.game
            .outcome()
            .map(|(board, o)| (board.name(), outcome_of(o)))
    }

    /// The result from the view of the board the match ended on (`1-0` when White won
    /// there), as bughousedb and Chess.com write it; `*` while it goes on.
    fn result(&self) -> &'static str {
        self.game.outcome().map_or("*", |(_, o)| o.result())
    }

    /// bpgn()
    /// --
    ///
    /// The match as BPGN: its tags (the four players and their ratings in BPGN's
    /// order, then the others, the Result, `[Variant "Bughouse"]` and the start's FEN
    /// pair when it is not the standard one), then the moves numbered by board and side
    /// (`1A.`, `1a.`, `1B.`, `1b.`), each followed by its clock in seconds when it has
    /// one (`{179.5}`), and the result.
    fn bpgn(&self) -> String {
        let mut out = String::new();
        let push = |out: &mut String, name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escaped(value)));
        };
        for name in ["Event", "Site", "Date", "Round"] {
            push(&mut out, name, self.tag(name).unwrap_or("?"));
        }
        for name in PLAYERS {
            if let Some(v) = self.tag(name) {
                push(&mut out, name, v);
            } else if !name.ends_with("Elo") {
                push(&mut out, name, "?");
            }
        }
        for (name, value) in &self.tags {
            // The match writes its own Result, Variant and start.
            let known = [
                "Event", "Site", "Date", "Round", "Result", "Variant", "FEN", "SetUp",
            ]
            .contains(&name.as_str())
                || PLAYERS.contains(&name.as_str());
            if !known {
                push(&mut out, name, value);
            }
        }
        let result = match self.result() {
            "*" => self.tag("Result").unwrap_or("*"),
            r => r,
        };
        push(&mut out, "Result", result);
        push(&mut out, "Variant", "Bughouse");
        if let Some(fen) = &self.start_fen {
            push(&mut out, "SetUp", "1");
            push(&mut out, "FEN", fen);
        }
        out.push('\n');
        let mut line = String::new();
        let mut words: Vec<String> = Vec::with_capacity(self.played.len() * 2 + 1);
        for p in &self.played {
            let letter = match (p.board, p.turn) {
                (BoardId::A, Color::White) => 'A',
                (BoardId::A, Color::Black) => 'a',
                (BoardId::B, Color::White) => 'B',
                (BoardId::B, Color::Black) => 'b',
            };
            words.push(format!("{}{letter}. {}", p.number, p.san));
            if let Some(c) = p.clock {
                words.push(format!("{{{}}}", clock_text(c)));
            }
        }
        words.push(result.to_owned());
        // Lines of at most 80 characters, as PGN's export format asks.
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 80 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }

    /// copy()
    /// --
    ///
    /// An independent copy of the match.
    fn copy(&self) -> Self {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!("Match('{}')", pair_fen(&self.game, FenDialect::Lichess))
    }
}
