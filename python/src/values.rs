//! The values a `Position` gives and takes, as python-chess has them: `Move`, `Piece`,
//! `Pocket`, `Outcome` and `Termination`, squares and piece types numbered as
//! python-chess numbers them.

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use pocketfen::notation::uci::UciMove;
use pocketfen::{Color, EndReason, Move, Outcome, Role, Square};

/// What `__reduce__` gives: the callable that rebuilds an object, and its arguments.
type Reduced<'py, A> = PyResult<(Bound<'py, PyAny>, A)>;

/// python-chess's number for a role: PAWN = 1 … KING = 6.
pub(crate) fn piece_type(role: Role) -> u8 {
    role as u8 + 1
}

/// The role of a python-chess piece type.
pub(crate) fn role(piece_type: u8) -> PyResult<Role> {
    match piece_type {
        1..=6 => Ok(Role::ALL[usize::from(piece_type - 1)]),
        _ => Err(PyValueError::new_err(format!(
            "piece type {piece_type}: expected 1 (pawn) to 6 (king)"
        ))),
    }
}

/// A square numbered as python-chess numbers it: a1 = 0, b1 = 1, … h8 = 63.
pub(crate) fn square(index: i64) -> PyResult<Square> {
    u8::try_from(index)
        .ok()
        .filter(|&i| i < 64)
        .map(Square::new)
        .ok_or_else(|| PyIndexError::new_err(format!("square {index}: expected 0 (a1) to 63 (h8)")))
}

/// How a game ended, named as python-chess names it (`chess.Termination`).
///
/// A member equals the `chess.Termination` of its name, hashes as it does, and has its
/// `value`.
#[pyclass(module = "pocketfen", frozen)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[allow(non_camel_case_types, clippy::upper_case_acronyms)]
pub(crate) enum Termination {
    /// The side to move is in check and has no legal move.
    CHECKMATE = 1,
    /// The side to move is not in check and has no legal move.
    STALEMATE = 2,
    /// Chess: neither side can ever checkmate.
    INSUFFICIENT_MATERIAL = 3,
    /// A variant's own win for the side to move.
    VARIANT_WIN = 8,
    /// A variant's own loss for the side to move: Horde's White without pieces.
    VARIANT_LOSS = 9,
    /// A variant's own draw.
    VARIANT_DRAW = 10,
}

#[pymethods]
impl Termination {
    /// python-chess's number for it (`chess.Termination.CHECKMATE.value` is 1).
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }

    /// Equal to the member of the same name, here or in `chess.Termination`.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(t) = other.cast::<Termination>() {
            return *t.get() == *self;
        }
        let is_termination = other
            .get_type()
            .name()
            .is_ok_and(|n| n.to_cow().is_ok_and(|n| n == "Termination"));
        is_termination
            && other
                .getattr("name")
                .and_then(|n| n.extract::<String>())
                .is_ok_and(|n| n == self.name())
    }

    /// The hash of its name, as an `enum.Enum` member's.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        PyString::new(py, self.name()).hash()
    }

    /// A member pickles as its name.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (Bound<'py, PyAny>, &'static str)> {
        let getattr = slf.py().import("builtins")?.getattr("getattr")?;
        Ok((
            getattr,
            (slf.as_any().get_type().into_any(), slf.get().name()),
        ))
    }

    /// The name, as `chess.Termination`'s (`CHECKMATE`).
    #[getter]
    fn name(&self) -> &'static str {
        match self {
            Termination::CHECKMATE => "CHECKMATE",
            Termination::STALEMATE => "STALEMATE",
            Termination::INSUFFICIENT_MATERIAL => "INSUFFICIENT_MATERIAL",
            Termination::VARIANT_WIN => "VARIANT_WIN",
            Termination::VARIANT_LOSS => "VARIANT_LOSS",
            Termination::VARIANT_DRAW => "VARIANT_DRAW",
        }
    }
}

/// The end of a game: `termination` (a `Termination`) and `winner` (True for White,
/// False for Black, None for a draw), as python-chess's `chess.Outcome`.
#[pyclass(name = "Outcome", module = "pocketfen", frozen)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyOutcome {
    /// Why the game ended.
    #[pyo3(get)]
    termination: Termination,
    /// True when White won, False when Black did, None for a draw.
    #[pyo3(get)]
    winner: Option<bool>,
}

#[pymethods]
impl PyOutcome {
    #[new]
    fn new(termination: Termination, winner: Option<bool>) -> Self {
        PyOutcome {
            termination,
            winner,
        }
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (Termination, Option<bool>)> {
        let o = slf.get();
        Ok((slf.get_type().into_any(), (o.termination, o.winner)))
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        let termination = self.termination.name();
        let winner = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!("Outcome(termination=Termination.{termination}, winner={winner})")
    }

    /// Equal to an Outcome, or a `chess.Outcome`, with the same termination and winner.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(o) = other.cast::<PyOutcome>() {
            return *o.get() == *self;
        }
        let winner = other
            .getattr("winner")
            .and_then(|w| w.extract::<Option<bool>>());
        let termination = other.getattr("termination");
        match (winner, termination) {
            (Ok(w), Ok(t)) => w == self.winner && self.termination.__eq__(&t),
            _ => false,
        }
    }

    /// The hash of `(termination, winner)`.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        (self.termination.__hash__(py)?, self.winner)
            .into_pyobject(py)?
            .hash()
    }
}

pub(crate) fn outcome_of(o: Outcome) -> PyOutcome {
    let winner = match o {
        Outcome::Decisive { winner, .. } => Some(winner == Color::White),
        Outcome::Draw { .. } => None,
    };
    let termination = match o.reason() {
        EndReason::Checkmate => Termination::CHECKMATE,
        EndReason::Stalemate => Termination::STALEMATE,
        EndReason::InsufficientMaterial => Termination::INSUFFICIENT_MATERIAL,
        EndReason::Extinction => Termination::VARIANT_LOSS,
    };
    PyOutcome {
        termination,
        winner,
    }
}

/// A piece: `piece_type` (1 pawn … 6 king) and `color` (True for White), as
/// python-chess's `chess.Piece`, to which it compares equal.
#[pyclass(name = "Piece", module = "pocketfen", frozen)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct PyPiece {
    /// 1 (pawn) to 6 (king).
    #[pyo3(get)]
    pub(crate) piece_type: u8,
    /// True for White.
    #[pyo3(get)]
    pub(crate) color: bool,
}

#[pymethods]
impl PyPiece {
    #[new]
    fn new(piece_type: u8, color: bool) -> PyResult<Self> {
        role(piece_type)?;
        Ok(PyPiece { piece_type, color })
    }

    /// The piece of a letter (`Q` a white queen, `n` a black knight).
    #[staticmethod]
    fn from_symbol(symbol: &str) -> PyResult<Self> {
        let mut chars = symbol.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            return Err(PyValueError::new_err(format!(
                "piece symbol {symbol:?}: expected one of PNBRQK pnbrqk"
            )));
        };
        let role = Role::ALL
            .into_iter()
            .find(|r| r.char() == c.to_ascii_lowercase())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "piece symbol {symbol:?}: expected one of PNBRQK pnbrqk"
                ))
            })?;
        Ok(PyPiece {
            piece_type: piece_type(role),
            color: c.is_ascii_uppercase(),
        })
    }

    /// The letter: uppercase for White (`Q`), lowercase for Black (`n`).
    fn symbol(&self) -> String {
        let c = Role::ALL[usize::from(self.piece_type - 1)].char();
        if self.color {
            c.to_ascii_uppercase().to_string()
        } else {
            c.to_string()
        }
    }

    fn __str__(&self) -> String {
        self.symbol()
    }

    fn __repr__(&self) -> String {
        format!("Piece.from_symbol({:?})", self.symbol())
    }

    /// Equal to a Piece, or to anything with the same `piece_type` and `color` (a
    /// `chess.Piece`).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(pt) = other.getattr("piece_type").and_then(|p| p.extract::<u8>()) else {
            return false;
        };
        let Ok(color) = other.getattr("color").and_then(|c| c.extract::<bool>()) else {
            return false;
        };
        (pt, color) == (self.piece_type, self.color)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (u8, bool)> {
        let p = slf.get();
        Ok((slf.get_type().into_any(), (p.piece_type, p.color)))
    }

    /// The hash of the same `chess.Piece`.
    fn __hash__(&self) -> isize {
        isize::from(self.piece_type) + if self.color { -1 } else { 5 }
    }
}

/// A move: `from_square` and `to_square` (0 = a1 … 63 = h8), `promotion` and `drop`
/// (piece types, or None), as python-chess's `chess.Move`, to which it compares equal. A
/// drop goes from its square to its square; castling is the king's move (to the rook's
/// square in Chess960).
#[pyclass(name = "Move", module = "pocketfen", frozen)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct PyMove {
    /// Where the piece stands (the square dropped on, for a drop).
    #[pyo3(get)]
    pub(crate) from_square: u8,
    /// Where it goes.
    #[pyo3(get)]
    pub(crate) to_square: u8,
    /// The piece type a pawn promotes to.
    #[pyo3(get)]
    pub(crate) promotion: Option<u8>,
    /// The piece type dropped.
    #[pyo3(get)]
    pub(crate) drop: Option<u8>,
}

impl PyMove {
    pub(crate) fn from_uci(uci: UciMove) -> PyResult<PyMove> {
        match uci {
            UciMove::Normal {
                from,
                to,
                promotion,
            } => Ok(PyMove {
                from_square: from.index() as u8,
                to_square: to.index() as u8,
                promotion: promotion.map(piece_type),
                drop: None,
            }),
            UciMove::Put { role, to } => Ok(PyMove {
                from_square: to.index() as u8,
                to_square: to.index() as u8,
                promotion: None,
                drop: Some(piece_type(role)),
            }),
            UciMove::Null => Ok(PyMove {
                from_square: 0,
                to_square: 0,
                promotion: None,
                drop: None,
            }),
        }
    }

    pub(crate) fn of(pos: &pocketfen::Position, m: Move) -> PyMove {
        PyMove::from_uci(m.to_uci(pos.is_chess960())).expect("a legal move is not null")
    }

    /// python-chess's null move, `Move(0, 0)` (`0000`).
    pub(crate) fn is_null(self) -> bool {
        self.from_square == 0
            && self.to_square == 0
            && self.drop.is_none()
            && self.promotion.is_none()
    }

    pub(crate) fn to_uci(self) -> PyResult<UciMove> {
        if self.is_null() {
            return Ok(UciMove::Null);
        }
        let to = square(self.to_square.into())?;
        Ok(match self.drop {
            Some(pt) => UciMove::Put {
                role: role(pt)?,
                to,
            },
            None => UciMove::Normal {
                from: square(self.from_square.into())?,
                to,
                promotion: self.promotion.map(role).transpose()?,
            },
        })
    }
}

#[pymethods]
impl PyMove {
    #[new]
    #[pyo3(signature = (from_square, to_square, promotion = None, drop = None))]
    fn new(
        from_square: i64,
        to_square: i64,
        promotion: Option<u8>,
        drop: Option<u8>,
    ) -> PyResult<Self> {
        let m = PyMove {
            from_square: square(from_square)?.index() as u8,
            to_square: square(to_square)?.index() as u8,
            promotion,
            drop,
        };
        m.to_uci()?;
        Ok(m)
    }

    /// The move of a UCI text (`e2e4`, `e7e8q`, `N@d5`).
    #[staticmethod]
    #[pyo3(name = "from_uci")]
    fn parse(uci: &str) -> PyResult<Self> {
        let parsed: UciMove =
            uci.parse()
                .map_err(|e: pocketfen::notation::uci::ParseUciError| {
                    PyValueError::new_err(format!("{uci:?}: {e}"))
                })?;
        if let UciMove::Normal { from, to, .. } = parsed
            && from == to
        {
            return Err(PyValueError::new_err(format!(
                "{uci:?}: a move from a square to the same square (the null move is 0000)"
            )));
        }
        PyMove::from_uci(parsed)
    }

    /// False for the null move (`0000`), as python-chess's.
    fn __bool__(&self) -> bool {
        !self.is_null()
    }

    /// The UCI text: `e2e4`, `e7e8q`, `N@d5`, `0000` for the null move.
    fn uci(&self) -> PyResult<String> {
        Ok(self.to_uci()?.to_string())
    }

    fn __str__(&self) -> PyResult<String> {
        self.uci()
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("Move.from_uci({:?})", self.uci()?))
    }

    /// Equal to a Move, or to anything with the same four fields (a `chess.Move`).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        fields(other).is_ok_and(|m| m == *self)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Reduced<'py, (u8, u8, Option<u8>, Option<u8>)> {
        let m = slf.get();
        Ok((
            slf.get_type().into_any(),
            (m.from_square, m.to_square, m.promotion, m.drop),
        ))
    }

    /// The hash of `(from_square, to_square, promotion, drop)`, as `chess.Move`'s.
    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        (self.from_square, self.to_square, self.promotion, self.drop)
            .into_pyobject(py)?
            .hash()
    }
}

/// The four fields of a move object (a Move, a `chess.Move`).
pub(crate) fn fields(obj: &Bound<'_, PyAny>) -> PyResult<PyMove> {
    if let Ok(m) = obj.cast::<PyMove>() {
        return Ok(*m.get());
    }
    let square_of = |name: &str| -> PyResult<u8> {
        let i: i64 = obj.getattr(name)?.extract()?;
        Ok(square(i)?.index() as u8)
    };
    Ok(PyMove {
        from_square: square_of("from_square")?,
        to_square: square_of("to_square")?,
        promotion: obj.getattr("promotion")?.extract()?,
        drop: obj.getattr("drop").map_or(Ok(None), |d| d.extract())?,
    })
}

/// A pocket: how many pieces of each type it holds (`count(chess.KNIGHT)`), as
/// python-chess's `CrazyhousePocket`.
#[pyclass(name = "Pocket", module = "pocketfen", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyPocket {
    pub(crate) counts: [u8; 5],
}

#[pymethods]
impl PyPocket {
    /// How many pieces of `piece_type` (1 pawn … 5 queen; 6, the king, is never held).
    fn count(&self, piece_type: u8) -> PyResult<u32> {
        Ok(match role(piece_type)? {
            Role::King => 0,
            r => u32::from(self.counts[r as usize]),
        })
    }

    /// The pieces held, of every type.
    fn __len__(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// The letters of the pieces, queens first (`qnpp`), as python-chess writes a pocket.
    fn __str__(&self) -> String {
        let mut s = String::new();
        for r in Role::POCKET.iter().rev() {
            for _ in 0..self.counts[*r as usize] {
                s.push(r.char());
            }
        }
        s
    }

    fn __repr__(&self) -> String {
        format!("Pocket({:?})", self.__str__())
    }
}

pub(crate) fn pocket_of(p: &pocketfen::Pocket) -> PyPocket {
    PyPocket {
        counts: Role::POCKET.map(|r| p.get(r)),
    }
}
