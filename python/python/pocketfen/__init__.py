"""pocketfen: FEN dialects, a rules engine and an archive validator for pocket chess
variants (Crazyhouse, Loop, Chessgi, Horde, Bughouse), at native speed.

- `convert_fen` and `check_fen` read a FEN in any dialect (Lichess, XBoard, Chess.com,
  brackets; bughouse pairs `A | B`) and write or check it;
- `Position` is one board of the rules engine, with the habits of a python-chess board
  (`push`, `pop`, `san`, `piece_at`, `outcome()`…) and `from_board`/`to_board` to trade
  boards with python-chess, which pocketfen does not need;
- `validate`, `convert_pgn` and `replay` read PGN and BPGN archives (plain, zstd, gzip,
  bzip2; a path, bytes or a binary file object) on every core, in bounded memory;
  `splits` and `merge` share one archive among processes or machines.

    >>> import pocketfen
    >>> pocketfen.convert_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 2 3", "lichess")
    'r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/ w KQkq - 2 3'
    >>> [r["type"] for r in pocketfen.validate(b'[Variant "Crazyhouse"]\\n\\n1. e4 d5 2. exd5 Qxd5 3. P@e4 *\\n')]
    ['summary']
"""

from ._pocketfen import (
    FenError,
    IllegalMoveError,
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
    merge,
    replay,
    splits,
    validate,
)

__all__ = [
    "FenError",
    "IllegalMoveError",
    "Move",
    "Outcome",
    "Piece",
    "Pocket",
    "Position",
    "RunIterator",
    "Termination",
    "__version__",
    "check_fen",
    "convert_fen",
    "convert_pgn",
    "merge",
    "replay",
    "splits",
    "validate",
]

# The native module is an implementation detail: everything is here.
del _pocketfen  # noqa: F821 (bound by the import above)
