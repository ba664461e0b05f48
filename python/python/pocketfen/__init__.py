"""pocketfen: FEN dialects, a rules engine and an archive validator for pocket chess
variants (Crazyhouse, Loop, Chessgi, Horde, Bughouse), at native speed.

- `convert_fen` and `check_fen` read a FEN in any dialect (Lichess, XBoard, Chess.com,
  brackets; bughouse pairs `A | B`) and write or check it;
- `Position` is one board of the rules engine, with the habits of a python-chess board
  (`push`, `pop`, `san`, `piece_at`, `outcome()`…) and `from_board`/`to_board` to trade
  boards with python-chess, which pocketfen does not need;
- `Match` is a bughouse match of two boards (captures to the partner's pocket, clocks,
  the drop-mate rule), read from and written to BPGN;
- `validate`, `convert_pgn`, `replay`, `select`, `dedupe`, `fix` and `split` read PGN and BPGN
  archives (plain, zstd, gzip, bzip2; a path, bytes or a binary file object) on every
  core, in bounded memory; `splits` and `merge` share one archive among processes or
  machines.

    >>> import pocketfen
    >>> pocketfen.convert_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3", "lichess")
    'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/ w KQkq - 2 3'
    >>> [r["type"] for r in pocketfen.validate(b'[Variant "Crazyhouse"]\\n\\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\\n')]
    ['summary']
"""

from typing import IO as _IO
from typing import Literal as _Literal
from typing import Optional as _Optional
from typing import Tuple as _Tuple
from typing import TypedDict as _TypedDict
from typing import Union as _Union

try:
    from typing import NotRequired as _NotRequired
except ImportError:  # Python before 3.11: the keys are all required at run time (the
    # stub, which type checkers read, still marks them).

    class _NotRequired:
        def __class_getitem__(cls, item):
            return item

from ._pocketfen import (
    FenError,
    IllegalMoveError,
    LegalMoves,
    Match,
    Move,
    Outcome,
    Piece,
    Pocket,
    Position,
    RunIterator,
    Termination,
    __version__,
    check_fen,
    convert_fen,
    convert_pgn,
    dedupe,
    export,
    fix,
    merge,
    replay,
    select,
    split,
    splits,
    validate,
)
from ._pocketfen import _table

# The records and arguments, named for annotations (`from pocketfen import GameRecord`);
# the stub gives type checkers the same, with the keys that may be absent marked so.

Dialect = _Literal["lichess", "xboard", "chesscom", "bracket"]
"""A FEN dialect's name."""
Target = _Literal["lichess", "chesscom", "xboard"]
"""A site `convert_pgn` and `select` write games for."""
DropStyle = _Literal["p-at", "at"]
"""How a pawn drop is written: `P@e4` (`p-at`) or `@e4` (`at`)."""
Emit = _Literal["fen", "san", "uci"]
"""What `replay` gives for each ply."""
VariantName = _Literal["chess", "crazyhouse", "loop", "chessgi", "horde", "bughouse"]
"""A variant's name, as records give it."""
Source = _Union[str, "os.PathLike[str]", bytes, bytearray, _IO[bytes]]
"""What an archive is read from: a path, bytes, or a binary file object."""


class Problem(_TypedDict):
    """One problem of a game: its `severity` (`error` or `warning`), `kind` (a stable
    name: `not-in-pocket`, `no-such-piece`, …), where it is (`line`, `column`, and for a
    move its `ply` and `token`), why (`reason`), and the position before it
    (`fen_before`, Lichess's dialect)."""

    severity: _Literal["error", "warning"]
    kind: str
    ply: _Optional[int]
    token: _Optional[str]
    line: int
    column: int
    reason: str
    fen_before: _Optional[str]


class OpeningName(_TypedDict):
    """A game's opening as Lichess names it (`validate(..., openings=True)`): its `eco`
    code, its `name`, and the `ply` whose position is named."""

    eco: str
    name: str
    ply: int


class GameRecord(_TypedDict):
    """A `game` record of `validate`: a game with problems (every game with
    `all=True`), numbered from 1, at its first `line`, with its `plies` read and its
    `status`; `result_reading` for a bughouse game (`board`, `team` or `both`)."""

    type: _Literal["game"]
    file: str
    game: int
    line: int
    variant: _Optional[str]
    plies: int
    status: _Literal["ok", "illegal", "error"]
    result_reading: _NotRequired[_Literal["board", "team", "both"]]
    problems: "list[Problem]"
    opening: _NotRequired["OpeningName"]


class TrailingBytes(_TypedDict):
    """Bytes read past after a compressed file's last complete frame."""

    offset: int
    length: int
    zero_padding: bool


class CutGame(_TypedDict):
    """The game a break in the text cut short: its number and first line."""

    game: int
    line: int


class RestOfGame(_TypedDict):
    """The text left out after a break, up to the next game: the number it takes, and
    its first and last lines."""

    game: int
    line: int
    last_line: int


class FrameText(_TypedDict):
    """How much text a damaged frame held, as its header tells it: `by` "header" (its
    content size, exact), "pzstd" (four windows, the most pzstd writes in a frame) or
    "trailer" (a BGZF block's text size, exact), and the `bytes`."""

    by: str
    bytes: int


class TextBreak(_TypedDict):
    """Where a compressed text broke: the damaged frame stepped over (its
    `compression`, "zstd" for a frame of pzstd's, "gzip" for a BGZF block or "bzip2"
    for a bzip2 stream or block; its `offset` in the file, compressed `length` and
    the decoder's `reason`; for a block of a bzip2 stream stepped over alone, the
    `stream`'s offset; the `text_read` it gave before its damage, and the `text` its
    header (or a BGZF block's trailer) says it held, when it says), the `line` the
    break falls in, and what was left out around it."""

    compression: str
    offset: int
    length: int
    stream: _NotRequired[int]
    reason: str
    text_read: int
    text: _NotRequired[FrameText]
    line: int
    cut: _NotRequired[CutGame]
    rest: _NotRequired[RestOfGame]


class SplitPoint(_TypedDict):
    """Where a part of a split run starts or ends."""

    offset: int
    skip: int
    print: str


class SplitInfo(_TypedDict):
    """Where a part (`split=`) lies in its file, for `merge`."""

    part: int
    of: int
    size: int
    modified: _Optional[int]
    head: str
    compression: _Literal["none", "zstd", "gzip", "bzip2"]
    start: _Optional[SplitPoint]
    end: _Optional[SplitPoint]
    aligned: bool
    lines: int
    options: str
    row_groups: _NotRequired[bool]


class SummaryRecord(_TypedDict):
    """The `summary` record that ends a run over a source: its counts, whether it was
    read `complete`ly; `seconds` with `timings=True`, `interrupted` after Ctrl-C,
    `stream_error` when the stream ended in an error (or names the damage that reading
    went on past: a Parquet file's damaged row groups whose `lost` rows could not be
    read, or the `breaks` in a compressed text where a damaged frame was stepped over
    and its `lost` games left out), `trailing_bytes`, and `split` for a part."""

    type: _Literal["summary"]
    version: int
    file: str
    games: int
    plies: int
    illegal_games: int
    error_games: int
    warnings: int
    skipped: _NotRequired[int]
    lost: _NotRequired[int]
    bytes: int
    seconds: _NotRequired[float]
    complete: bool
    interrupted: _NotRequired[bool]
    stream_error: _NotRequired[str]
    trailing_bytes: _NotRequired[TrailingBytes]
    breaks: _NotRequired["list[TextBreak]"]
    split: _NotRequired[SplitInfo]


Record = _Union[GameRecord, SummaryRecord]
"""A record of `validate`: tell them apart by `record["type"]`."""


class Annotation(_TypedDict):
    """What a ply's comments say, from `replay(…, annotations=True)`: the mover's
    `clock`, a `correspondence_clock` and the `elapsed` move time in seconds
    (`[%clk]`, `[%clkc]`, `[%emt]`); the evaluation in centipawns `cp` or as `mate` in
    N (negative: Black mates) with its `depth` (`[%eval]`); `arrows` (`"Ge2e4"`,
    `[%cal]`) and `highlights` (`"Rd4"`, `[%csl]`). Only the keys present are given.
    In a bughouse match, `[%clk]` is `elapsed` (Chess.com's bughouse clocks are per-move
    times) and a plain number is the `clock` (bughouse-db's `{298.21}`; below zero,
    `{-0.576}`, when the time ran out)."""

    clock: _NotRequired[float]
    correspondence_clock: _NotRequired[float]
    elapsed: _NotRequired[float]
    cp: _NotRequired[int]
    mate: _NotRequired[int]
    depth: _NotRequired[int]
    arrows: _NotRequired["list[str]"]
    highlights: _NotRequired["list[str]"]


class ExportResult(_TypedDict):
    """What `export` wrote: the rows of each table and the files."""

    games: int
    plies: int
    files: "list[str]"


class FenProblem(_TypedDict):
    """A problem of a position, from `check_fen`: the `board` of a pair (`A`, `B`, or
    None), `severity`, `kind` and `message`."""

    board: _Optional[_Literal["A", "B"]]
    severity: _Literal["error", "warning"]
    kind: str
    message: str


class Part(_TypedDict):
    """One part of an archive, from `splits`: `split` (`"K/N"`), `part`, `of`, and the
    byte range `start`..`end` its text is read from."""

    split: str
    part: int
    of: int
    start: int
    end: int


class Repair(_TypedDict):
    """One repair of `fix`: `what` it mends, the `line` of the text it changes, and that
    text `before` and `after` (empty: none)."""

    what: _Literal[
        "tag-escape", "variant", "impossible-castling", "date", "round",
        "moves-after-end", "result", "result-marker", "plycount", "abandoned",
    ]
    line: int
    before: str
    after: str


class FixedGame(_TypedDict):
    """A game of `fix`: its `verdict`, its `text` as `pgn fix` writes it (None when
    dropped), its `repairs` (tried and not made for an `unrepaired` game) and the
    first `error` of a game left as it was."""

    file: str
    game: int
    line: int
    verdict: _Literal["unchanged", "repaired", "dropped", "unrepaired"]
    text: _Optional[str]
    repairs: "list[Repair]"
    error: _Optional[Problem]


Split = _Union[str, _Tuple[int, int], Part]
"""A part to read: `"K/N"`, `(K, N)` or an item of `splits()`."""


__all__ = [
    "Annotation",
    "CutGame",
    "Dialect",
    "DropStyle",
    "Emit",
    "ExportResult",
    "FenError",
    "FenProblem",
    "FixedGame",
    "FrameText",
    "GameRecord",
    "IllegalMoveError",
    "LegalMoves",
    "Match",
    "Move",
    "OpeningName",
    "Outcome",
    "Part",
    "Piece",
    "Pocket",
    "Position",
    "Problem",
    "Record",
    "Repair",
    "RestOfGame",
    "RunIterator",
    "Source",
    "Split",
    "SplitInfo",
    "SplitPoint",
    "SummaryRecord",
    "Target",
    "Termination",
    "TextBreak",
    "TrailingBytes",
    "VariantName",
    "__version__",
    "check_fen",
    "convert_fen",
    "convert_pgn",
    "dedupe",
    "export",
    "fix",
    "games_table",
    "merge",
    "plies_table",
    "replay",
    "select",
    "split",
    "splits",
    "validate",
]

def _read_table(stream):
    try:
        import pyarrow
    except ImportError as e:  # pyarrow is needed for tables only
        raise ImportError("games_table and plies_table return pyarrow Tables: pip install pyarrow") from e
    return pyarrow.RecordBatchReader.from_stream(stream).read_all()


def games_table(
    source: Source, *, strict: bool = False, jobs: int = 0, split: "_Optional[Split]" = None, openings: bool = False
):
    """The games table of an archive as a `pyarrow.Table`, a row per game: Lichess's
    columns with Lichess's types (`Event`, `Site`, `White`, `Black`, `Result`,
    `WhiteTitle`, `BlackTitle`, `WhiteElo`…`BlackRatingDiff` as int16, `UTCDate` as
    date32, `UTCTime` as time32, `ECO`, `Opening`, `Termination`, `TimeControl`,
    `movetext`), then pocketfen's (`variant`, `fen`, `plies`, `ending`, `ending_board`,
    `winner`, `valid`, `problems`, the first problem's `problem_kind`, `problem_line`,
    `problem_column`, `problem_ply`, the source's `file`, `game`, `line`, bughouse's four
    players and ratings, `Date`, `unfit`, and with `openings=True` the opening Lichess
    names from the moves in `opening_eco`, `opening_name`, `opening_ply`, else null), as
    `pocketfen export --games` writes them. The
    batches come from the native module through the Arrow C stream interface, with no copy
    through Python objects. `source`, `strict`, `jobs` and `split` are as `validate`'s; a
    game over the size limit is in no table. Rows lost in a Parquet file's damaged row
    groups, and games lost where a compressed text breaks at a damaged frame, are a
    UserWarning, the others in the table. Needs pyarrow."""
    return _read_table(_table(source, "games", strict=strict, jobs=jobs, split=split, openings=openings))


def plies_table(
    source: Source, *, fen: bool = False, strict: bool = False, jobs: int = 0, split: "_Optional[Split]" = None
):
    """The plies table of an archive as a `pyarrow.Table`, a row per mainline ply: the
    game's `file`, `game` and `Site`, `ply`, `board` (bughouse), `move_number`, `side`,
    `san`, `uci`, `is_drop`, `piece`, `captured`, `promotion`, `check`, `mate`, the
    pockets after it (`white_pocket`, `black_pocket`), `clock` and `elapsed` in seconds,
    `eval_cp` or `eval_mate`, `nags`, and with `fen=True` the FEN after it, as
    `pocketfen export --plies` writes them. Rows lost in a Parquet file's damaged row
    groups, and games lost where a compressed text breaks at a damaged frame, are a
    UserWarning, the others' plies in the table. Needs pyarrow."""
    return _read_table(_table(source, "plies", fen=fen, strict=strict, jobs=jobs, split=split))


# The native module is an implementation detail: everything is here.
del _pocketfen  # noqa: F821 (bound by the import above)
