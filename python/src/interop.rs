//! python-chess boards in and out: `Position.from_board` reads a `chess.Board` (or a
//! Crazyhouse or Horde board of `chess.variant`) field by field, and `to_board` writes
//! one the same way. No FEN is written or parsed on either side, and python-chess is
//! imported only when one of them is called: pocketfen does not need it.

use pyo3::exceptions::{PyImportError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyList};

use pocketfen::notation::fen::FenPositionError;
use pocketfen::{
    Bitboard, ByColor, Castling, CastlingFlag, CastlingSpec, Color, Piece, Pocket, Role, Rules,
    Setup, Square, Variant,
};

use crate::fen_position_error;
use crate::values::{piece_type, square};

/// python-chess's board classes, imported once.
struct Classes {
    board: Py<PyAny>,
    crazyhouse: Py<PyAny>,
    horde: Py<PyAny>,
    pocket: Py<PyAny>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES.get_or_try_init(py, || {
        let import = |name: &str| {
            py.import(name).map_err(|e| {
                PyImportError::new_err(format!(
                    "python-chess is needed for boards of its own ({e}): pip install chess"
                ))
            })
        };
        let chess = import("chess")?;
        let variant = import("chess.variant")?;
        Ok(Classes {
            board: chess.getattr("Board")?.unbind(),
            crazyhouse: variant.getattr("CrazyhouseBoard")?.unbind(),
            horde: variant.getattr("HordeBoard")?.unbind(),
            pocket: variant.getattr("CrazyhousePocket")?.unbind(),
        })
    })
}

/// The role bitboards of a python-chess board, pawn first.
const ROLE_FIELDS: [&str; 6] = ["pawns", "knights", "bishops", "rooks", "queens", "kings"];

/// The position of a python-chess board: its pieces, promoted squares, pockets, side to
/// move, (clean) castling rights, en passant square and clocks. Its move stack is not
/// read.
pub(crate) fn from_board(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
) -> PyResult<pocketfen::Position> {
    let name: String = board.getattr("uci_variant")?.extract()?;
    let variant = match name.as_str() {
        "chess" => Variant::Chess,
        "crazyhouse" => Variant::Crazyhouse,
        "horde" => Variant::Horde,
        other => {
            return Err(PyValueError::new_err(format!(
                "a python-chess {other} board: pocketfen plays chess, chess960, crazyhouse and horde of python-chess's variants"
            )));
        }
    };
    let co: Vec<u64> = board.getattr("occupied_co")?.extract()?;
    let [black, white] = co[..] else {
        return Err(PyValueError::new_err(
            "the board's occupied_co is not [black, white]",
        ));
    };
    let mut setup = Setup::empty();
    for (role, field) in Role::ALL.into_iter().zip(ROLE_FIELDS) {
        let bb: u64 = board.getattr(field)?.extract()?;
        for (color, mask) in [(Color::White, white), (Color::Black, black)] {
            for sq in Bitboard(bb & mask) {
                setup.board.put(sq, Piece { color, role });
            }
        }
    }
    setup.promoted = Bitboard(board.getattr("promoted")?.extract()?);
    if variant == Variant::Crazyhouse {
        let pockets = board.getattr("pockets")?;
        let pocket = |color: bool| -> PyResult<Pocket> {
            let held = pockets.get_item(color)?;
            let mut p = Pocket::default();
            for r in Role::POCKET {
                let n: u8 = held.call_method1("count", (piece_type(r),))?.extract()?;
                p.set(r, n);
            }
            Ok(p)
        };
        setup.pockets = Some(ByColor {
            white: pocket(true)?,
            black: pocket(false)?,
        });
    }
    setup.turn = Color::from_white(board.getattr("turn")?.extract()?);
    let chess960: bool = board.getattr("chess960")?.extract()?;
    let rights: u64 = board.call_method0("clean_castling_rights")?.extract()?;
    setup.castling = castling(Bitboard(rights), chess960);
    setup.ep_square = board
        .getattr("ep_square")?
        .extract::<Option<i64>>()?
        .map(square)
        .transpose()?;
    setup.halfmoves = board.getattr("halfmove_clock")?.extract()?;
    setup.fullmoves = board.getattr("fullmove_number")?.extract()?;
    pocketfen::Position::from_setup(&setup, Rules::new(variant))
        .map_err(|e| fen_position_error(py, &FenPositionError::Illegal(e)))
}

/// Castling rights given as rook squares: `K`/`Q` for the corner rooks of a standard
/// board, the rook's file (as Chess960 writes them) otherwise.
fn castling(rooks: Bitboard, chess960: bool) -> Castling {
    let mut c = Castling::none();
    for sq in rooks {
        let color = if sq.index() < 8 {
            Color::White
        } else {
            Color::Black
        };
        let spec = match sq.index() % 8 {
            7 if !chess960 => CastlingSpec::KingSide,
            0 if !chess960 => CastlingSpec::QueenSide,
            _ => CastlingSpec::File(sq.file()),
        };
        c.push(CastlingFlag { color, spec });
    }
    c
}

/// The python-chess board of a position: `chess.Board` (Chess960 when castling is
/// written so), `chess.variant.CrazyhouseBoard` or `chess.variant.HordeBoard`, with no
/// move stack.
pub(crate) fn to_board<'py>(
    py: Python<'py>,
    pos: &pocketfen::Position,
) -> PyResult<Bound<'py, PyAny>> {
    let classes = classes(py)?;
    let class = match pos.variant() {
        Variant::Chess => &classes.board,
        Variant::Crazyhouse => &classes.crazyhouse,
        Variant::Horde => &classes.horde,
        other => {
            return Err(PyValueError::new_err(format!(
                "python-chess has no {} board (it has chess, chess960, crazyhouse and horde of pocketfen's variants)",
                other.name()
            )));
        }
    };
    let kwargs = PyDict::new(py);
    kwargs.set_item("chess960", pos.is_chess960())?;
    let board = class.bind(py).call_method("empty", (), Some(&kwargs))?;
    let b = pos.board();
    for (role, field) in Role::ALL.into_iter().zip(ROLE_FIELDS) {
        board.setattr(field, b.by_role(role).0)?;
    }
    let co = PyList::new(py, [b.by_color(Color::Black).0, b.by_color(Color::White).0])?;
    board.setattr("occupied_co", co)?;
    board.setattr("occupied", b.occupied().0)?;
    board.setattr("promoted", pos.promoted().0)?;
    board.setattr("turn", pos.turn() == Color::White)?;
    board.setattr("castling_rights", pos.castling_rights().0)?;
    board.setattr("ep_square", pos.ep_square().map(Square::index))?;
    board.setattr("halfmove_clock", pos.halfmoves())?;
    board.setattr("fullmove_number", pos.fullmoves())?;
    if pos.variant() == Variant::Crazyhouse {
        let pocket = |p: &Pocket| {
            let mut letters = String::new();
            for r in Role::POCKET {
                for _ in 0..p.get(r) {
                    letters.push(r.char());
                }
            }
            classes.pocket.bind(py).call1((letters,))
        };
        let pockets = PyList::new(
            py,
            [pocket(&pos.pockets().black)?, pocket(&pos.pockets().white)?],
        )?;
        board.setattr("pockets", pockets)?;
    }
    Ok(board)
}
