"""pocketfen: FEN dialects, a rules engine and an archive validator for pocket chess
variants (Crazyhouse, Loop, Chessgi, Horde, Bughouse), at native speed."""

import os
from typing import IO, Iterable, Iterator, Literal, Optional, Union

__version__: str

Dialect = Literal["lichess", "xboard", "chesscom", "bracket"]
Source = Union[str, "os.PathLike[str]", bytes, IO[bytes]]
Split = Union[str, tuple[int, int], dict]

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

def check_fen(fen: str, variant: str = "auto") -> list[dict]:
    """The problems of a position (or pair) as dicts with `board` (`A`, `B` or None),
    `severity` (`error` or `warning`), `kind` and `message`; empty for a legal position.
    Raises FenError when it does not parse."""

class Position:
    """A legal position of one board: the variant's start when `fen` is None, else the FEN
    in any dialect. `variant` is chess, crazyhouse, loop, chessgi, horde, bughouse (one
    board) or auto (read off the FEN). `drop_mate=False` forbids drops that checkmate.
    Raises FenError for a FEN that does not parse or is not legal."""

    def __init__(self, fen: Optional[str] = None, variant: str = "chess", drop_mate: bool = True) -> None: ...
    @property
    def variant(self) -> str:
        """The variant's name."""
    @property
    def turn(self) -> Literal["white", "black"]:
        """The side to move."""
    def legal_moves(self, fmt: Literal["san", "uci"] = "san") -> list[str]:
        """The legal moves in SAN (drops as `P@e4`) or UCI."""
    def play(self, move: str) -> str:
        """Plays a move given in SAN or UCI; returns its canonical SAN. Raises
        IllegalMoveError (the position is then unchanged)."""
    def fen(self, dialect: Dialect = "lichess") -> str:
        """The FEN in a dialect."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""
    def outcome(self) -> Optional[Literal["1-0", "0-1", "1/2-1/2"]]:
        """The result when the game has ended on the board, else None."""
    def perft(self, depth: int) -> int:
        """The number of move sequences of `depth` plies (computed without the GIL)."""
    def copy(self) -> "Position":
        """A copy that plays on independently."""
    def __copy__(self) -> "Position": ...
    def __deepcopy__(self, memo: object) -> "Position": ...
    def __eq__(self, other: object) -> bool: ...

class RecordIterator(Iterator[dict]):
    """The records of `validate`."""

    def __iter__(self) -> "RecordIterator": ...
    def __next__(self) -> dict: ...

class GameIterator(Iterator):
    """Converted games (str) or replayed games (tuples)."""

    def __iter__(self) -> "GameIterator": ...
    def __next__(self): ...

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
) -> Iterator[dict]:
    """Replays every game of a PGN or BPGN archive; yields the records of
    `pocketfen validate --json` (schema version 2) as dicts: a `game` record per game with
    problems (every game with all=True), then one `summary` (with the `seconds` it took
    when timings=True). `source` is a path (zstd,
    gzip and bzip2 detected), bytes, or a binary file object. jobs=0 uses every core;
    records come in input order. Runs without the GIL, in constant memory. With
    split="K/N" (or (K, N), or an item of splits()), only the K-th of N parts: game
    numbers and lines count from the part's start and the summary's `split` says where
    it lies; merge() joins the parts' records."""

def convert_pgn(
    source: Source,
    to: Literal["lichess", "chesscom", "xboard"],
    *,
    drop_style: Optional[Literal["p-at", "at"]] = None,
    keep_broken: bool = False,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> Iterator[str]:
    """Re-exports an archive for a site, one game per item, in input order. A game
    `validate` rejects is left out (passed through unchanged with keep_broken=True).
    jobs=0 uses every core. A read error of the stream raises OSError after the games
    before it. With split=, the games of one part: the parts' texts, joined in order,
    are the whole archive's."""

def replay(
    source: Source,
    emit: Literal["fen", "san", "uci"] = "fen",
    *,
    jobs: int = 0,
    split: Optional[Split] = None,
) -> Iterator[tuple[int, list[str]]]:
    """Replays every game; yields (game number, per-ply FEN after the move, SAN or UCI),
    in input order whatever `jobs` (0: every core). A game stops at its first illegal
    move. A read error of the stream raises OSError. With split=, one part's games,
    numbered from the part's start."""


def splits(source: Source, n: int) -> list[dict]:
    """The n parts of an archive (a path, bytes or a seekable binary file object), for
    validate/convert_pgn/replay(split=...) on other processes or machines: dicts with
    `split` ("K/N"), `part`, `of`, and the byte range `start`..`end` each part's text is
    read from. A compressed file must be in independent frames (pzstd, pbzip2, BGZF);
    a single-stream one raises ValueError saying how to recompress it."""

def merge(parts: Iterable[Iterable[dict]]) -> list[dict]:
    """Joins the records of parts 1 to N (in order) of a split validate run into those
    of one run over the whole file: games and lines renumbered, summaries summed.
    Raises ValueError naming the part that does not fit (another file, a changed file,
    other options, out of order or missing)."""
