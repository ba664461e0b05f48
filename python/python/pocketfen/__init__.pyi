# The types of the package; the documentation is the native module's docstrings.

import os
from types import TracebackType
from typing import IO, Generic, Iterable, Iterator, Literal, Mapping, Optional, Protocol, TypeVar, Union, overload

import chess
import pyarrow  # type: ignore[import-untyped, import-not-found, unused-ignore]
from typing_extensions import NotRequired, Self, TypedDict

__version__: str
__all__: list[str]

# The names of pocketfen's choices, as the library lists them (a test compares them).
Dialect = Literal["lichess", "xboard", "chesscom", "bracket"]
Target = Literal["lichess", "chesscom", "xboard"]
DropStyle = Literal["p-at", "at"]
Emit = Literal["fen", "san", "uci"]
VariantName = Literal["chess", "crazyhouse", "loop", "chessgi", "horde", "bughouse"]
Source = Union[str, "os.PathLike[str]", bytes, bytearray, IO[bytes]]
Severity = Literal["error", "warning"]
Color = bool
Square = int
PieceType = int

# Records, as `pocketfen validate --json` writes them (schema version 2).

class Problem(TypedDict):
    severity: Severity
    kind: str
    ply: Optional[int]
    token: Optional[str]
    line: int
    column: int
    reason: str
    fen_before: Optional[str]

class OpeningName(TypedDict):
    eco: str
    name: str
    ply: int

class GameRecord(TypedDict):
    type: Literal["game"]
    file: str
    game: int
    line: int
    variant: Optional[VariantName]
    plies: int
    status: Literal["ok", "illegal", "error"]
    result_reading: NotRequired[Literal["board", "team", "both"]]
    problems: list[Problem]
    opening: NotRequired[OpeningName]

class TrailingBytes(TypedDict):
    offset: int
    length: int
    zero_padding: bool

class CutGame(TypedDict):
    game: int
    line: int

class RestOfGame(TypedDict):
    game: int
    line: int
    last_line: int

class FrameText(TypedDict):
    by: str
    bytes: int

class TextBreak(TypedDict):
    compression: str
    offset: int
    length: int
    stream: NotRequired[int]
    reason: str
    text_read: int
    text: NotRequired[FrameText]
    line: int
    cut: NotRequired[CutGame]
    rest: NotRequired[RestOfGame]

class SplitPoint(TypedDict):
    offset: int
    skip: int
    print: str

class SplitInfo(TypedDict):
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
    row_groups: NotRequired[bool]

class SummaryRecord(TypedDict):
    type: Literal["summary"]
    version: int
    file: str
    games: int
    plies: int
    illegal_games: int
    error_games: int
    warnings: int
    skipped: NotRequired[int]
    lost: NotRequired[int]
    bytes: int
    seconds: NotRequired[float]
    complete: bool
    interrupted: NotRequired[bool]
    stream_error: NotRequired[str]
    trailing_bytes: NotRequired[TrailingBytes]
    breaks: NotRequired[list[TextBreak]]
    split: NotRequired[SplitInfo]

Record = Union[GameRecord, SummaryRecord]

class FenProblem(TypedDict):
    board: Optional[Literal["A", "B"]]
    severity: Severity
    kind: str
    message: str

class Part(TypedDict):
    split: str
    part: int
    of: int
    start: int
    end: int

Split = Union[str, tuple[int, int], Part]

class FenError(ValueError):
    """A FEN that does not parse (`.column`, `.field`, `.expected`, `.found` say
    where and why) or is not a legal position (those are None; `.problems` lists
    why)."""

    column: Optional[int]
    field: Optional[str]
    expected: Optional[str]
    found: Optional[str]
    problems: list[str]

class IllegalMoveError(ValueError):
    """A move that does not read or is not legal: `.kind` (`syntax`,
    `no-such-piece`, …, `game-over`) and `.reason`."""

    kind: str
    reason: str

def convert_fen(
    fen: str,
    to: Dialect,
    from_: Optional[Union[Dialect, Literal["auto"]]] = None,
    variant: str = "auto",
) -> str: ...

def check_fen(fen: str, variant: str = "auto") -> list[FenProblem]: ...

class _MoveLike(Protocol):
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
    CHECKMATE: "Termination"
    STALEMATE: "Termination"
    INSUFFICIENT_MATERIAL: "Termination"
    VARIANT_WIN: "Termination"
    VARIANT_LOSS: "Termination"
    VARIANT_DRAW: "Termination"
    @property
    def name(self) -> str: ...
    @property
    def value(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Outcome:
    def __init__(self, termination: Termination, winner: Optional[Color]) -> None: ...
    @property
    def termination(self) -> Termination: ...
    @property
    def winner(self) -> Optional[Color]: ...
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2"]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Piece:
    def __init__(self, piece_type: PieceType, color: Color) -> None: ...
    @staticmethod
    def from_symbol(symbol: str) -> "Piece": ...
    @property
    def piece_type(self) -> PieceType: ...
    @property
    def color(self) -> Color: ...
    def symbol(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Move:
    def __init__(
        self,
        from_square: Square,
        to_square: Square,
        promotion: Optional[PieceType] = None,
        drop: Optional[PieceType] = None,
    ) -> None: ...
    @staticmethod
    def from_uci(uci: str) -> "Move": ...
    @property
    def from_square(self) -> Square: ...
    @property
    def to_square(self) -> Square: ...
    @property
    def promotion(self) -> Optional[PieceType]: ...
    @property
    def drop(self) -> Optional[PieceType]: ...
    def uci(self) -> str: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Pocket:
    def count(self, piece_type: PieceType) -> int: ...
    def __len__(self) -> int: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class LegalMoves:
    def __call__(self, fmt: Literal["san", "uci"] = "san") -> list[str]: ...
    def __iter__(self) -> Iterator[Move]: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...
    def count(self) -> int: ...
    def __contains__(self, move: object) -> bool: ...

BoardName = Literal["A", "B"]

class Match:
    def __init__(
        self,
        fen: Optional[str] = None,
        *,
        drop_mate: bool = True,
        tags: Optional[Mapping[str, object]] = None,
    ) -> None: ...
    @staticmethod
    def from_bpgn(text: str, *, drop_mate: bool = True) -> "Match": ...
    def play(self, board: BoardName, move: MoveArg, clock: Optional[float] = None) -> str: ...
    def board(self, board: BoardName) -> "Position": ...
    def fen(self, dialect: Dialect = "lichess") -> str: ...
    @property
    def moves(self) -> list[tuple[BoardName, "Move", str, Optional[float]]]: ...
    @property
    def tags(self) -> dict[str, str]: ...
    def set_tag(self, name: str, value: str) -> None: ...
    @property
    def drop_mate(self) -> bool: ...
    def outcome(self) -> Optional[tuple[BoardName, Outcome]]: ...
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2", "*"]: ...
    def bpgn(self) -> str: ...
    def copy(self) -> "Match": ...

class Position:
    def __init__(self, fen: Optional[str] = None, variant: str = "auto", drop_mate: bool = True) -> None: ...
    @staticmethod
    def from_board(board: chess.Board) -> "Position": ...
    def to_board(self) -> chess.Board: ...
    @property
    def variant(self) -> str: ...
    @property
    def turn(self) -> Color: ...
    @property
    def turn_name(self) -> Literal["white", "black"]: ...
    @property
    def pockets(self) -> Optional[tuple[Pocket, Pocket]]: ...
    @property
    def promoted(self) -> int: ...
    @property
    def castling_rights(self) -> int: ...
    @property
    def ep_square(self) -> Optional[Square]: ...
    @property
    def halfmove_clock(self) -> int: ...
    @property
    def fullmove_number(self) -> int: ...
    @property
    def move_stack(self) -> list[Move]: ...
    def piece_at(self, square: Square) -> Optional[Piece]: ...
    @property
    def legal_moves(self) -> "LegalMoves": ...
    def generate_legal_moves(self) -> list[Move]: ...
    def is_legal(self, move: MoveArg) -> bool: ...
    def play(self, move: MoveArg) -> str: ...
    def push(self, move: MoveArg) -> None: ...
    def pop(self) -> Move: ...
    def peek(self) -> Move: ...
    def san(self, move: MoveArg) -> str: ...
    def uci(self, move: MoveArg) -> str: ...
    def parse_san(self, text: str) -> Move: ...
    def parse_uci(self, text: str) -> Move: ...
    def fen(self, dialect: Dialect = "lichess") -> str: ...
    def is_check(self) -> bool: ...
    def is_checkmate(self) -> bool: ...
    def is_stalemate(self) -> bool: ...
    def is_insufficient_material(self) -> bool: ...
    def is_game_over(self) -> bool: ...
    def outcome(self) -> Optional[Outcome]: ...
    def result(self) -> Literal["1-0", "0-1", "1/2-1/2", "*"]: ...
    def perft(self, depth: int) -> int: ...
    def copy(self, stack: bool = True) -> "Position": ...
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: object) -> "Position": ...
    def __eq__(self, other: object) -> bool: ...

_T = TypeVar("_T")

class RunIterator(Iterator[_T], Generic[_T]):
    def __iter__(self) -> Self: ...
    def __next__(self) -> _T: ...
    def close(self) -> None: ...
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
    openings: bool = False,
) -> RunIterator[Record]: ...

def convert_pgn(
    source: Source,
    to: Target,
    *,
    drop_style: Optional[DropStyle] = None,
    keep_broken: bool = False,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[str]: ...

def select(
    source: Source,
    *,
    tag: Iterable[str] = (),
    variant: Optional[str] = None,
    player: Iterable[str] = (),
    result: Iterable[Literal["1-0", "0-1", "1/2-1/2", "*"]] = (),
    min_plies: Optional[int] = None,
    max_plies: Optional[int] = None,
    position: Optional[str] = None,
    board_only: bool = False,
    ends_in: Optional[Literal["mate", "checkmate", "stalemate", "drop-mate"]] = None,
    valid: bool = False,
    invalid: bool = False,
    strict: bool = False,
    to: Optional[Target] = None,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[str]: ...

def dedupe(
    source: Source,
    *,
    by: Literal["moves", "moves-and-tags"] = "moves",
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[str]: ...

class Repair(TypedDict):
    what: Literal[
        "tag-escape", "variant", "impossible-castling", "date", "round",
        "moves-after-end", "result", "result-marker", "plycount", "abandoned",
    ]
    line: int
    before: str
    after: str

class FixedGame(TypedDict):
    file: str
    game: int
    line: int
    verdict: Literal["unchanged", "repaired", "dropped", "unrepaired"]
    text: Optional[str]
    repairs: list[Repair]
    error: Optional[Problem]

def fix(
    source: Source,
    *,
    drop_abandoned: bool = False,
    plycount: bool = False,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[FixedGame]: ...

def split(
    source: Source,
    output: Union[str, "os.PathLike[str]"],
    *,
    every: Optional[int] = None,
    by_tag: Optional[str] = None,
    jobs: int = 0,
) -> list[tuple[str, int]]: ...

def games_table(
    source: Source,
    *,
    strict: bool = False,
    jobs: int = 0,
    split: Optional[Split] = None,
    openings: bool = False,
) -> "pyarrow.Table": ...
def plies_table(
    source: Source,
    *,
    fen: bool = False,
    strict: bool = False,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> "pyarrow.Table": ...

class ExportResult(TypedDict):
    """What `export` wrote: the rows of each table and the files."""

    games: int
    plies: int
    files: list[str]

def export(
    source: Source,
    games: Optional[Union[str, "os.PathLike[str]"]] = None,
    plies: Optional[Union[str, "os.PathLike[str]"]] = None,
    *,
    fen: bool = False,
    output_dir: Optional[Union[str, "os.PathLike[str]"]] = None,
    partition: Literal["year/month", "year"] = "year/month",
    compression: str = "zstd",
    strict: bool = False,
    jobs: int = 0,
    split: Optional[Split] = None,
    openings: bool = False,
) -> ExportResult: ...

class Annotation(TypedDict):
    """What a ply's comments say, from `replay(…, annotations=True)`: the mover's
    `clock`, a `correspondence_clock` and the `elapsed` move time in seconds
    (`[%clk]`, `[%clkc]`, `[%emt]`); the evaluation in centipawns `cp` or as `mate` in
    N (negative: Black mates) with its `depth` (`[%eval]`); `arrows` (`"Ge2e4"`,
    `[%cal]`) and `highlights` (`"Rd4"`, `[%csl]`). Only the keys present are given.
    In a bughouse match, `[%clk]` is `elapsed` (Chess.com's bughouse clocks are per-move
    times) and a plain number is the `clock` (bughouse-db's `{298.21}`; below zero,
    `{-0.576}`, when the time ran out)."""

    clock: NotRequired[float]
    correspondence_clock: NotRequired[float]
    elapsed: NotRequired[float]
    cp: NotRequired[int]
    mate: NotRequired[int]
    depth: NotRequired[int]
    arrows: NotRequired[list[str]]
    highlights: NotRequired[list[str]]

@overload
def replay(
    source: Source,
    emit: Emit = "fen",
    *,
    annotations: Literal[False] = False,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[tuple[int, list[str]]]: ...
@overload
def replay(
    source: Source,
    emit: Emit = "fen",
    *,
    annotations: Literal[True],
    jobs: int = 0,
    split: Optional[Split] = None,
) -> RunIterator[tuple[int, list[str], list[Optional[Annotation]]]]: ...

def splits(source: Source, n: int) -> list[Part]: ...

def merge(parts: Iterable[Iterable[Record]]) -> list[Record]: ...
