//! `Position`, one board of the rules engine, with the habits of a python-chess board:
//! moves as `Move` objects (or SAN/UCI text, or python-chess's own `chess.Move`), a move
//! stack with `push` and `pop`, squares and piece types numbered as python-chess numbers
//! them, `turn` a bool, and `outcome()` an object.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};

use pyo3::exceptions::{PyIndexError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use pocketfen::notation::diagram::diagram;
use pocketfen::notation::fen::FenDialect;
use pocketfen::notation::mixed::{MoveTokenError, resolve_move};
use pocketfen::notation::san::{DropStyle, SanPlus};
use pocketfen::notation::uci::UciMove;
use pocketfen::{Color, Move, Rules, Variant};

use crate::{IllegalMoveError, dialect, fen_position_error, variant};

/// What `__reduce__` gives: the callable that rebuilds an object, and its arguments.
type Reduced<'py, A> = PyResult<(Bound<'py, PyAny>, A)>;

use crate::values::*;

/// The SAN of a legal move, drops as `P@e4`.
fn san_text(pos: &pocketfen::Position, m: Move) -> String {
    SanPlus::from_move(pos, m).to_string_with(DropStyle::Letter)
}

/// The legal moves as Move objects, in generation order.
fn moves_of(pos: &pocketfen::Position) -> Vec<PyMove> {
    pos.legal_moves()
        .iter()
        .map(|&m| PyMove::of(pos, m))
        .collect()
}

/// A move argument of a position's method: SAN or UCI text, a Move, or a `chess.Move`.
/// The error is the kind and reason of an IllegalMoveError.
fn read_move(
    obj: &Bound<'_, PyAny>,
    pos: &pocketfen::Position,
) -> PyResult<Result<Move, (String, String, String)>> {
    if let Ok(text) = obj.cast::<PyString>() {
        let text = text.to_cow()?;
        return Ok(resolve_move(&text, pos, false)
            .map(|(m, _)| m)
            .map_err(|e| (text.into_owned(), e.kind().to_owned(), e.message())));
    }
    let m = fields(obj).map_err(|_| {
        PyTypeError::new_err(format!(
            "a move is SAN or UCI text, a pocketfen.Move or a chess.Move, not {}",
            obj.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        ))
    })?;
    let uci = m.to_uci()?;
    let shown = uci.to_string();
    if let Some(outcome) = pos.outcome() {
        let e = MoveTokenError::GameOver(outcome);
        return Ok(Err((shown, e.kind().to_owned(), e.message())));
    }
    Ok(uci.to_move(pos).map_err(|e| {
        let e = MoveTokenError::Illegal(e);
        (shown, e.kind().to_owned(), e.message())
    }))
}

/// The IllegalMoveError of a move that cannot be played.
fn illegal(py: Python<'_>, (shown, kind, reason): (String, String, String)) -> PyErr {
    let err = IllegalMoveError::new_err(format!("{shown}: {kind}: {reason}"));
    let value = err.value(py);
    let _ = value.setattr("kind", kind);
    let _ = value.setattr("reason", reason);
    err
}

/// Position(fen=None, variant="auto", drop_mate=True)
/// --
///
/// A legal position of one board: the variant's start when `fen` is None, else the FEN in
/// any dialect (a python-chess FEN too). `variant` is `auto` (read off the FEN, as
/// `check_fen` does: pockets make it Crazyhouse, 36 white pawns Horde), `chess`,
/// `crazyhouse`, `loop`, `chessgi`, `horde` or `bughouse` (one board). `drop_mate=False`
/// forbids drops that checkmate. Raises FenError for a FEN that does not parse or is not
/// legal.
///
/// Moves are SAN or UCI text, `Move` objects or python-chess's `chess.Move`; squares and
/// piece types are numbered as in python-chess (a1 = 0, PAWN = 1).
#[pyclass(name = "Position", module = "pocketfen")]
#[derive(Clone)]
pub(crate) struct PyPosition {
    pub(crate) pos: pocketfen::Position,
    /// The positions before each move played, and the move.
    stack: Vec<(pocketfen::Position, Move)>,
}

impl PyPosition {
    pub(crate) fn of(pos: pocketfen::Position) -> PyPosition {
        PyPosition {
            pos,
            stack: Vec::new(),
        }
    }

    fn legal(&self, py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Move> {
        read_move(obj, &self.pos)?.map_err(|e| illegal(py, e))
    }

    fn push_move(&mut self, m: Move) {
        self.stack.push((self.pos.clone(), m));
        self.pos.play_unchecked(m);
    }

    fn san_of(&self, m: Move) -> String {
        san_text(&self.pos, m)
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (fen = None, variant = "auto", drop_mate = true))]
    fn new(py: Python<'_>, fen: Option<&str>, variant: &str, drop_mate: bool) -> PyResult<Self> {
        let chosen = self::variant(variant)?;
        let mut pos = match fen {
            Some(text) => pocketfen::Position::from_fen(text, chosen.map(Rules::new))
                .map_err(|e| fen_position_error(py, &e))?,
            None => pocketfen::Position::start(chosen.unwrap_or(Variant::Chess)),
        };
        pos.set_drop_mate(drop_mate);
        Ok(PyPosition::of(pos))
    }

    /// from_board(board)
    /// --
    ///
    /// The position of a python-chess board: a `chess.Board` (Chess960 too), a
    /// `chess.variant.CrazyhouseBoard` or `HordeBoard`, with its pockets, promoted pieces,
    /// castling rights, en passant square and clocks, and its move stack: its moves are
    /// played from the board's `root()`, so that `pop()` undoes them as python-chess's
    /// does (a stack that does not replay here, a null move in it say, is left out, and
    /// the position is the board's). Raises ValueError for another variant, FenError for
    /// a position that is not legal.
    #[staticmethod]
    fn from_board(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Self> {
        let pos = crate::interop::from_board(py, board)?;
        let moves = board.getattr("move_stack")?;
        if moves.len()? == 0 {
            return Ok(PyPosition::of(pos));
        }
        let Ok(root) = crate::interop::from_board(py, &board.call_method0("root")?) else {
            return Ok(PyPosition::of(pos));
        };
        let mut replayed = PyPosition::of(root);
        for m in moves.try_iter()? {
            match read_move(&m?, &replayed.pos)? {
                Ok(m) => replayed.push_move(m),
                Err(_) => return Ok(PyPosition::of(pos)),
            }
        }
        // The stack leads to the board's position (its clocks aside: pocketfen resets
        // the half-move clock on a pawn drop, python-chess does not); the position is the
        // board's own, clocks and all, and the stack is the way back.
        let same = |p: &pocketfen::Position| {
            let mut s = p.to_setup();
            (s.halfmoves, s.fullmoves) = (0, 0);
            s
        };
        if same(&replayed.pos) != same(&pos) {
            return Ok(PyPosition::of(pos));
        }
        replayed.pos = pos;
        Ok(replayed)
    }

    /// The python-chess board of the position: `chess.Board` (with `chess960` set when
    /// castling is written Chess960-style), `chess.variant.CrazyhouseBoard` or
    /// `HordeBoard`, with no move stack. Raises ValueError for Loop, Chessgi and
    /// Bughouse, which python-chess does not have, and ImportError without python-chess.
    fn to_board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::interop::to_board(py, &self.pos)
    }

    /// The legal moves, as python-chess's `board.legal_moves`: iterated, they are Move
    /// objects (`for m in pos.legal_moves`, `len()`, `count()`, `move in`); called, the
    /// list of their texts, in SAN (`pos.legal_moves()`, drops as `P@e4`) or UCI
    /// (`pos.legal_moves("uci")`), as in earlier versions.
    #[getter]
    fn legal_moves(&self) -> LegalMoves {
        LegalMoves {
            pos: self.pos.clone(),
        }
    }

    /// The legal moves as Move objects, in generation order.
    fn generate_legal_moves(&self) -> Vec<PyMove> {
        moves_of(&self.pos)
    }

    /// is_legal(move)
    /// --
    ///
    /// Whether a move (SAN or UCI text, a Move, a `chess.Move`) is legal here; False for
    /// text that does not read, and once the game has ended.
    fn is_legal(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(read_move(r#move, &self.pos)?.is_ok())
    }

    /// play(move)
    /// --
    ///
    /// Plays a move (SAN or UCI text, a Move, a `chess.Move`) and returns its canonical
    /// SAN; `pop()` takes it back. Raises IllegalMoveError (`.kind`, `.reason`) when it
    /// does not read, is not legal, or the game has ended; the position is then
    /// unchanged.
    fn play(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.legal(py, r#move)?;
        let san = self.san_of(m);
        self.push_move(m);
        Ok(san)
    }

    /// push(move)
    /// --
    ///
    /// Plays a move, as `play()` does, returning None (python-chess's `push`).
    fn push(&mut self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.legal(py, r#move)?;
        self.push_move(m);
        Ok(())
    }

    /// Takes back the last move played and returns it; IndexError when there is none.
    fn pop(&mut self) -> PyResult<PyMove> {
        let (before, m) = self
            .stack
            .pop()
            .ok_or_else(|| PyIndexError::new_err("pop from an empty move stack"))?;
        self.pos = before;
        Ok(PyMove::of(&self.pos, m))
    }

    /// The last move played; IndexError when there is none.
    fn peek(&self) -> PyResult<PyMove> {
        let (before, m) = self
            .stack
            .last()
            .ok_or_else(|| PyIndexError::new_err("peek at an empty move stack"))?;
        Ok(PyMove::of(before, *m))
    }

    /// The moves played since the position was made, first to last.
    #[getter]
    fn move_stack(&self) -> Vec<PyMove> {
        self.stack.iter().map(|(p, m)| PyMove::of(p, *m)).collect()
    }

    /// san(move)
    /// --
    ///
    /// The SAN of a legal move (text, a Move, a `chess.Move`), without playing it.
    /// Raises IllegalMoveError.
    fn san(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.legal(py, r#move)?;
        Ok(self.san_of(m))
    }

    /// uci(move)
    /// --
    ///
    /// The UCI of a legal move (text, a Move, a `chess.Move`). Raises IllegalMoveError.
    fn uci(&self, py: Python<'_>, r#move: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.legal(py, r#move)?;
        Ok(m.to_uci(self.pos.is_chess960()).to_string())
    }

    /// parse_san(text)
    /// --
    ///
    /// The Move a SAN (or UCI) text names here. Raises IllegalMoveError.
    fn parse_san(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<PyMove> {
        let m = self.legal(py, text.as_any())?;
        Ok(PyMove::of(&self.pos, m))
    }

    /// parse_uci(text)
    /// --
    ///
    /// The Move a UCI text names here (SAN is a syntax error). Raises IllegalMoveError.
    fn parse_uci(&self, py: Python<'_>, text: &Bound<'_, PyString>) -> PyResult<PyMove> {
        let uci = text.to_cow()?;
        if let Err(e) = uci.parse::<UciMove>() {
            return Err(illegal(
                py,
                (uci.into_owned(), "syntax".to_owned(), e.to_string()),
            ));
        }
        self.parse_san(py, text)
    }

    /// fen(dialect="lichess")
    /// --
    ///
    /// The FEN in a dialect: `lichess`, `xboard`, `chesscom` or `bracket`.
    #[pyo3(signature = (dialect = "lichess"))]
    fn fen(&self, dialect: &str) -> PyResult<String> {
        Ok(self
            .pos
            .to_setup()
            .display(self::dialect(dialect)?)
            .to_string())
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.is_check()
    }

    /// Whether the side to move is checkmated.
    fn is_checkmate(&self) -> bool {
        self.pos.is_checkmate()
    }

    /// Whether the side to move is stalemated.
    fn is_stalemate(&self) -> bool {
        self.pos.is_stalemate()
    }

    /// Chess: whether neither side can ever checkmate (never in pocket variants).
    fn is_insufficient_material(&self) -> bool {
        self.pos.is_insufficient_material()
    }

    /// Whether the game has ended on the board (`outcome()` is not None).
    fn is_game_over(&self) -> bool {
        self.pos.outcome().is_some()
    }

    /// How the game has ended on the board (checkmate, stalemate, Horde's White without
    /// pieces, insufficient material in chess) as an Outcome, else None. Threefold
    /// repetition and the 50-move rule are claims, never automatic; unlike python-chess's
    /// `outcome()`, neither the 75-move rule nor fivefold repetition ends a game.
    fn outcome(&self) -> Option<PyOutcome> {
        self.pos.outcome().map(outcome_of)
    }

    /// The result: `1-0`, `0-1` or `1/2-1/2` when the game has ended on the board, else
    /// `*`.
    fn result(&self) -> &'static str {
        self.pos.outcome().map_or("*", |o| o.result())
    }

    /// perft(depth)
    /// --
    ///
    /// The number of move sequences of `depth` plies, counted without the GIL (and
    /// without holding the position: other threads may play on it). Ctrl-C stops it.
    fn perft(slf: PyRef<'_, Self>, depth: u32) -> PyResult<u64> {
        let pos = slf.pos.clone();
        let py = slf.py();
        drop(slf);
        if depth <= 3 {
            return Ok(crate::run::detached(py, || {
                pocketfen::perft::perft(&pos, depth)
            }));
        }
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            let (tx, rx) = channel();
            let (pos, stop) = (&pos, &stop);
            s.spawn(move || {
                let _ = tx.send(pocketfen::perft::perft_until(pos, depth, stop));
            });
            let rx = Mutex::new(rx);
            loop {
                let got = crate::run::detached(py, || {
                    rx.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .recv_timeout(crate::run::SLICE)
                });
                match got {
                    Ok(Some(n)) => return Ok(n),
                    Err(RecvTimeoutError::Timeout) => {
                        if let Err(e) = py.check_signals() {
                            stop.store(true, Ordering::Relaxed);
                            return Err(e);
                        }
                    }
                    Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                        return Err(PyRuntimeError::new_err("perft was stopped"));
                    }
                }
            }
        })
    }

    /// copy(stack=True)
    /// --
    ///
    /// A copy that plays on independently, with the move stack (`stack=False`: without).
    #[pyo3(signature = (stack = true))]
    fn copy(&self, stack: bool) -> Self {
        if stack {
            self.clone()
        } else {
            PyPosition::of(self.pos.clone())
        }
    }

    fn __copy__(&self) -> Self {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
        self.clone()
    }

    /// The variant's name.
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant().name()
    }

    /// The side to move: True for White, False for Black (`chess.WHITE`, `chess.BLACK`).
    #[getter]
    fn turn(&self) -> bool {
        self.pos.turn() == Color::White
    }

    /// The side to move as a word: `white` or `black` (what `turn` was in earlier versions).
    #[getter]
    fn turn_name(&self) -> &'static str {
        self.pos.turn().name()
    }

    /// The pockets, indexed by colour as in python-chess (`pockets[chess.WHITE]`), or None
    /// in a variant without drops.
    #[getter]
    fn pockets<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        if !self.pos.variant().has_drops() {
            return Ok(None);
        }
        let p = self.pos.pockets();
        let pair = [pocket_of(&p.black), pocket_of(&p.white)];
        Ok(Some(PyTuple::new(py, pair)?))
    }

    /// piece_at(square)
    /// --
    ///
    /// The Piece on a square (0 = a1 … 63 = h8), or None.
    fn piece_at(&self, square: i64) -> PyResult<Option<PyPiece>> {
        let sq = self::square(square)?;
        Ok(self.pos.board().piece_at(sq).map(|p| PyPiece {
            piece_type: piece_type(p.role),
            color: p.color == Color::White,
        }))
    }

    /// The squares of promoted pieces, as a bitmask (python-chess's `board.promoted`).
    #[getter]
    fn promoted(&self) -> u64 {
        self.pos.promoted().0
    }

    /// The rook squares that keep a castling right, as a bitmask (python-chess's
    /// `board.castling_rights`).
    #[getter]
    fn castling_rights(&self) -> u64 {
        self.pos.castling_rights().0
    }

    /// The en passant square when a pawn could capture there, else None.
    #[getter]
    fn ep_square(&self) -> Option<usize> {
        self.pos.ep_square().map(|s| s.index())
    }

    /// Half-moves since the last capture or pawn move.
    #[getter]
    fn halfmove_clock(&self) -> u32 {
        self.pos.halfmoves()
    }

    /// The full-move number, from 1.
    #[getter]
    fn fullmove_number(&self) -> u32 {
        self.pos.fullmoves()
    }

    fn __str__(&self) -> String {
        self.pos.to_setup().display(FenDialect::Lichess).to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}, variant={:?})\n{}",
            self.pos.to_setup().display(FenDialect::Lichess).to_string(),
            self.pos.variant().name(),
            diagram(&self.pos.to_setup(), false).trim_end()
        )
    }

    /// A position pickles as its first FEN, variant, drop-mate rule and the moves played
    /// since (so a copy in another process can `pop()` them too).
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> Reduced<'py, (String, &'static str, bool, Vec<String>)> {
        let me = slf.borrow();
        let root = me.stack.first().map_or(&me.pos, |(p, _)| p);
        let fen = root.to_setup().display(FenDialect::Lichess).to_string();
        let moves = me
            .stack
            .iter()
            .map(|(p, m)| m.to_uci(p.is_chess960()).to_string())
            .collect();
        let restore = slf.get_type().getattr("_restore")?;
        Ok((
            restore,
            (
                fen,
                me.pos.variant().name(),
                me.pos.rules().drop_mate,
                moves,
            ),
        ))
    }

    /// The position `__reduce__` describes.
    #[staticmethod]
    fn _restore(
        py: Python<'_>,
        fen: &str,
        variant: &str,
        drop_mate: bool,
        moves: Vec<String>,
    ) -> PyResult<Self> {
        let mut me = PyPosition::new(py, Some(fen), variant, drop_mate)?;
        for uci in moves {
            let m = me.legal(py, PyString::new(py, &uci).as_any())?;
            me.push_move(m);
        }
        Ok(me)
    }

    /// Positions are equal when their FENs are (the move stacks are not compared).
    fn __eq__(&self, other: &Self) -> bool {
        let (a, b) = (self.pos.rules(), other.pos.rules());
        self.pos.to_setup() == other.pos.to_setup()
            && a.variant == b.variant
            && a.captures == b.captures
            // The drop-mate rule matters only where there are drops.
            && (a.drop_mate == b.drop_mate || !a.variant.has_drops())
    }
}

/// The legal moves of a position when it was asked for them (`Position.legal_moves`).
#[pyclass(module = "pocketfen", frozen)]
pub(crate) struct LegalMoves {
    pos: pocketfen::Position,
}

#[pymethods]
impl LegalMoves {
    /// __call__(fmt="san")
    /// --
    ///
    /// The moves as text: SAN (drops as `P@e4`) or UCI (`fmt="uci"`).
    #[pyo3(signature = (fmt = "san"))]
    fn __call__(&self, fmt: &str) -> PyResult<Vec<String>> {
        let pos = &self.pos;
        let moves = pos.legal_moves();
        match fmt {
            "san" => Ok(moves.iter().map(|&m| san_text(pos, m)).collect()),
            "uci" => Ok(moves
                .iter()
                .map(|m| m.to_uci(pos.is_chess960()).to_string())
                .collect()),
            _ => Err(PyValueError::new_err(format!(
                "unknown move format {fmt:?}: expected san or uci"
            ))),
        }
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyIterator>> {
        PyList::new(py, moves_of(&self.pos))?.try_iter()
    }

    fn __len__(&self) -> usize {
        self.pos.count_legal() as usize
    }

    fn __bool__(&self) -> bool {
        self.pos.count_legal() > 0
    }

    /// How many there are.
    fn count(&self) -> usize {
        self.__len__()
    }

    fn __contains__(&self, r#move: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(read_move(r#move, &self.pos)?.is_ok())
    }

    fn __repr__(&self) -> String {
        let sans: Vec<String> = self
            .pos
            .legal_moves()
            .iter()
            .map(|&m| san_text(&self.pos, m))
            .collect();
        format!("<LegalMoves ({})>", sans.join(", "))
    }
}
