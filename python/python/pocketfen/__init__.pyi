"""pocketfen: FEN dialects, a rules engine and an archive validator for pocket chess
variants (Crazyhouse, Loop, Chessgi, Horde, Bughouse), at native speed."""

import os
from types import TracebackType
from typing import IO, Generic, Iterable, Iterator, Literal, Optional, Protocol, TypeVar, Union

from typing_extensions import NotRequired, Self, TypedDict

__version__: str
__all__: list[str]

Dialect = Literal["lichess", "xboard", "chesscom", "bracket"]
Source = Union[str, "os.PathLike[str]", bytes, bytearray, IO[bytes]]
Severity = Literal["error", "warning"]
Color = bool
Square = int
PieceType = int

# Records, as `pocketfen validate --json` writes them (schema version 2).

class Problem(TypedDict):
    """One problem of a game: where (line, column, ply, token) and why."""

    severity: Severity
    kind: str
    ply: Optional[int]
    token: Optional[str]
    line: int
    column: int
    reason: str
    fen_before: Optional[str]

class GameRecord(TypedDict):
    """A game with problems (every game with `all=True`)."""

    type: Literal["game"]
    file: str
    game: int
    line: int
    variant: Optional[str]
    plies: int
    status: Literal["ok", "illegal", "error"]
    result_reading: NotRequired[Literal["board", "team", "both"]]
    problems: list[Problem]

class TrailingBytes(TypedDict):
    """Bytes read past after the last complete compressed frame."""

    offset: int
    length: int
    zero_padding: bool

class SplitPoint(TypedDict):
    offset: int
    skip: int
    print: str

class SplitInfo(TypedDict):
    """Where a part (`split=`) lies in its file, for `merge`."""

    part: int
    of: int
    size: int
    modified: Optional[int]
    head: str
    compression: Literal["none", "zstd", "gzip", "bzip2"]
    start: Optional[SplitPoint]
    end: Optional[SplitPoint]
    aligned: bool
    lines: int
    options: str

class SummaryRecord(TypedDict):
    """The last record of a run over one source."""

    type: Literal["summary"]
    version: int
    file: str
    games: int
    plies: int
    illegal_games: int
    error_games: int
    warnings: int
    bytes: int
    seconds: NotRequired[float]
    complete: bool
    interrupted: NotRequired[bool]
    stream_error: NotRequired[str]
    trailing_bytes: NotRequired[TrailingBytes]
    split: NotRequired[SplitInfo]

Record = Union[GameRecord, SummaryRecord]

class FenProblem(TypedDict):
    """A problem of a position, from `check_fen`."""

    board: Optional[Literal["A", "B"]]
    severity: Severity
    kind: str
    message: str

class Part(TypedDict):
    """One part of an archive, from `splits`."""

    split: str
    part: int
    of: int
    start: int
    end: int

Split = Union[str, tuple[int, int], Part]

class FenError(ValueError):
    """A FEN that does not parse (`column`, `field`, `expected`, `found` say where and
    why) or is not a legal position (those are None; `problems` says why)."""

    column: Optional[int]
    field: Optional[str]
    expected: Optional[str]
    found: Optional[str]
    problems: list[str]

class IllegalMoveError(ValueError):
    """A move that does not read or is not legal: `kind` (`syntax`, `no-such-piece`, …,
    `game-over`) and `reason`."""

    kind: str
    reason: str

def convert_fen(
    fen: str,
    to: Dialect,
    from_: Optional[Union[Dialect, Literal["auto"]]] = None,
    variant: str = "auto",
) -> str:
    """The FEN (or bughouse pair `A | B`) in the dialect `to`. `from_` names the dialect to
    read (None or "auto": any). Raises FenError when it does not parse."""

def check_fen(fen: str, variant: str = "auto") -> list[FenProblem]:
    """The problems of a position (or pair): `board` (`A`, `B` or None), `severity`,
    `kind` and `message`; empty for a legal position. Raises FenError when it does not
    parse."""

class _MoveLike(Protocol):
    """A move object: a `Move`, or python-chess's `chess.Move`."""

    @property
    def from_square(self) -> int: ...
    @property
    def to_square(self) -> int: ...
    @property
    def promotion(self) -> Optional[int]: ...
    @property
    def drop(self) -> Optional[int]: ...

MoveArg = Union[str, "Move", _MoveLike]

class Termination:
    """How a game ended, named as python-chess's `chess.Termination`."""

    CHECKMATE: "Termination"
    STALEMATE: "Termination"
    INSUFFICIENT_MATERIAL: "Termination"
    VARIANT_WIN: "Termination"
    VARIANT_LOSS: "Termination"
    VARIANT_DRAW: "Termination"

class Outcome:
    """The end of a game, as python-chess's `chess.Outcome`."""

    @property
    def termination(self) -> Termination:
        """Why the game ended."""
    @property
    def winner(self) -> Optional[Color]:
        """True when White won, False when Black did, None for a draw."""
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2"]:
        """The result."""

class Piece:
    """A piece, as python-chess's `chess.Piece` (and equal to one)."""

    def __init__(self, piece_type: PieceType, color: Color) -> None: ...
    @staticmethod
    def from_symbol(symbol: str) -> "Piece":
        """The piece of a letter (`Q` a white queen, `n` a black knight)."""
    @property
    def piece_type(self) -> PieceType:
        """1 (pawn) to 6 (king)."""
    @property
    def color(self) -> Color:
        """True for White."""
    def symbol(self) -> str:
        """The letter: uppercase for White."""
    def __hash__(self) -> int: ...

class Move:
    """A move, as python-chess's `chess.Move` (and equal to one, with the same hash): a
    drop goes from its square to its square; castling is the king's move."""

    def __init__(
        self,
        from_square: Square,
        to_square: Square,
        promotion: Optional[PieceType] = None,
        drop: Optional[PieceType] = None,
    ) -> None: ...
    @staticmethod
    def from_uci(uci: str) -> "Move":
        """The move of a UCI text (`e2e4`, `e7e8q`, `N@d5`)."""
    @property
    def from_square(self) -> Square:
        """Where the piece stands (the square dropped on, for a drop)."""
    @property
    def to_square(self) -> Square:
        """Where it goes."""
    @property
    def promotion(self) -> Optional[PieceType]:
        """The piece type a pawn promotes to."""
    @property
    def drop(self) -> Optional[PieceType]:
        """The piece type dropped."""
    def uci(self) -> str:
        """The UCI text."""
    def __hash__(self) -> int: ...

class Pocket:
    """A pocket, as python-chess's `CrazyhousePocket`."""

    def count(self, piece_type: PieceType) -> int:
        """How many pieces of a type it holds."""
    def __len__(self) -> int: ...

class Position:
    """A legal position of one board: the variant's start when `fen` is None, else the FEN
    in any dialect. `variant` is auto (read off the FEN), chess, crazyhouse, loop,
    chessgi, horde or bughouse (one board). `drop_mate=False` forbids drops that
    checkmate. Raises FenError for a FEN that does not parse or is not legal. Moves are
    SAN or UCI text, Move objects or python-chess's chess.Move."""

    def __init__(self, fen: Optional[str] = None, variant: str = "auto", drop_mate: bool = True) -> None: ...
    @staticmethod
    def from_board(board: object) -> "Position":
        """The position of a python-chess board (chess.Board, Chess960, CrazyhouseBoard,
        HordeBoard)."""
    def to_board(self) -> object:
        """The python-chess board of the position (needs python-chess)."""
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def turn(self) -> Color:
        """The side to move: True for White."""
    @property
    def turn_name(self) -> Literal["white", "black"]:
        """The side to move as a word."""
    @property
    def pockets(self) -> Optional[tuple[Pocket, Pocket]]:
        """The pockets, indexed by colour (`pockets[True]` is White's); None without drops."""
    @property
    def promoted(self) -> int:
        """The squares of promoted pieces, a bitmask."""
    @property
    def castling_rights(self) -> int:
        """The rook squares that keep a castling right, a bitmask."""
    @property
    def ep_square(self) -> Optional[Square]:
        """The en passant square when a pawn could capture there."""
    @property
    def halfmove_clock(self) -> int:
        """Half-moves since the last capture or pawn move."""
    @property
    def fullmove_number(self) -> int:
        """The full-move number."""
    @property
    def move_stack(self) -> list[Move]:
        """The moves played, first to last."""
    def piece_at(self, square: Square) -> Optional[Piece]:
        """The piece on a square, or None."""
    def legal_moves(self, fmt: Literal["san", "uci"] = "san") -> list[str]:
        """The legal moves as text, in SAN (drops as `P@e4`) or UCI."""
    def generate_legal_moves(self) -> list[Move]:
        """The legal moves as Move objects."""
    def is_legal(self, move: MoveArg) -> bool:
        """Whether a move is legal here."""
    def play(self, move: MoveArg) -> str:
        """Plays a move; returns its canonical SAN. Raises IllegalMoveError (the position
        is then unchanged)."""
    def push(self, move: MoveArg) -> None:
        """Plays a move (python-chess's push)."""
    def pop(self) -> Move:
        """Takes back the last move; IndexError when there is none."""
    def peek(self) -> Move:
        """The last move played; IndexError when there is none."""
    def san(self, move: MoveArg) -> str:
        """The SAN of a legal move, without playing it."""
    def uci(self, move: MoveArg) -> str:
        """The UCI of a legal move."""
    def parse_san(self, text: str) -> Move:
        """The Move a SAN (or UCI) text names here."""
    def parse_uci(self, text: str) -> Move:
        """The Move a UCI text names here."""
    def fen(self, dialect: Dialect = "lichess") -> str:
        """The FEN in a dialect."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def is_checkmate(self) -> bool:
        """Whether the side to move is checkmated."""
    def is_stalemate(self) -> bool:
        """Whether the side to move is stalemated."""
    def is_insufficient_material(self) -> bool:
        """Chess: whether neither side can ever checkmate."""
    def is_game_over(self) -> bool:
        """Whether the game has ended on the board."""
    def outcome(self) -> Optional[Outcome]:
        """How the game has ended on the board, else None."""
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2", "*"]:
        """The result, `*` while the game goes on."""
    def perft(self, depth: int) -> int:
        """The number of move sequences of `depth` plies (without the GIL; Ctrl-C stops
        it)."""
    def copy(self, stack: bool = True) -> "Position":
        """A copy that plays on independently."""
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: object) -> "Position": ...
    def __eq__(self, other: object) -> bool: ...

_T = TypeVar("_T")

class RunIterator(Iterator[_T], Generic[_T]):
    """The items of a run over an archive. Ctrl-C interrupts it; `close()` (or leaving a
    `with` block) stops it."""

    def __iter__(self) -> Self: ...
    def __next__(self) -> _T: ...
    def close(self) -> None:
        """Stops the run: the iteration ends."""
    def __enter__(self) -> Self: ...
    def __exit__(
        self,
        kind: Optional[type[BaseException]],
        value: Optional[BaseException],
        traceback: Optional[TracebackType],
    ) -> bool: ...

def validate(
    source: Source,
    *,
    variant: Optional[str] = None,
    strict: bool = False,
    variations: bool = False,
    drop_mate: bool = True,
    jobs: int = 0,
    all: bool = False,
    split: Optional[Split] = None,
    timings: bool = False,
) -> RunIterator[Record]:
    """Replays every game of a PGN or BPGN archive; yields the records of
    `pocketfen validate --json` (schema version 2) as dicts."""

def convert_pgn(
    source: Source,
    to: Literal["lichess", "chesscom", "xboard"],
    *,
    drop_style: Optional[Literal["p-at", "at"]] = None,
    keep_broken: bool = False,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[str]:
    """Re-exports an archive for a site, one game per item, in input order."""

def replay(
    source: Source,
    emit: Literal["fen", "san", "uci"] = "fen",
    *,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[tuple[int, list[str]]]:
    """Replays every game; yields (game number, per-ply FEN, SAN or UCI)."""

def splits(source: Source, n: int) -> list[Part]:
    """The n parts of an archive, for validate/convert_pgn/replay(split=...)."""

def merge(parts: Iterable[Iterable[Record]]) -> list[Record]:
    """Joins the records of parts 1 to N of a split validate run."""
