"""Crazyhouse960 and Bughouse960 against pyffish (Fairy-Stockfish) with chess960=True.

Random games from random Chess960 starts, played by pyffish's own legal moves: at every
ply the set of legal moves in UCI must be the same, at some plies the perft to depth 2,
and the whole game, written as PGN with pychess-variants' variant tag, must validate.
"""

import os
import random

import pytest

import pocketfen

try:
    import pyffish as sf
except ImportError:
    if os.environ.get("CI"):
        raise
    pytest.skip("pyffish is not installed (.ci/run installs it)", allow_module_level=True)

FILES = "abcdefgh"


def chess960_start(rng):
    """A random Chess960 back rank (bishops on both colours, king between the rooks)."""
    rank = [None] * 8
    rank[rng.choice(range(0, 8, 2))] = "b"
    rank[rng.choice(range(1, 8, 2))] = "b"
    for piece in ("q", "n", "n"):
        rank[rng.choice([i for i, p in enumerate(rank) if p is None])] = piece
    free = [i for i, p in enumerate(rank) if p is None]
    for i, piece in zip(free, ("r", "k", "r")):
        rank[i] = piece
    black = "".join(rank)
    return black, black.upper()


def start_fen(rng, variant):
    black, white = chess960_start(rng)
    board = f"{black}/pppppppp/8/8/8/8/PPPPPPPP/{white}"
    # Shredder castling letters (the rooks' files), which both read.
    rooks = [FILES[i] for i, p in enumerate(black) if p == "r"]
    castling = "".join(f.upper() for f in reversed(rooks)) + "".join(reversed(rooks))
    # A bughouse board's pocket fills from the partner's board, which pyffish does not
    # play: its starts here hold a few pieces in each pocket instead.
    pocket = ""
    if variant == "bughouse":
        pocket = "".join(rng.choice("QRBNPPP") for _ in range(rng.randint(2, 6)))
        pocket += "".join(rng.choice("qrbnppp") for _ in range(rng.randint(2, 6)))
    return f"{board}[{pocket}] w {castling} - 0 1"


def square(name):
    """A square's index as python-chess numbers them (a1 = 0, h8 = 63)."""
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def is_castling(position, uci):
    """Chess960 castling as pyffish writes it: the king takes its own rook."""
    if "@" in uci:
        return False
    king, rook = position.piece_at(square(uci[:2])), position.piece_at(square(uci[2:4]))
    return (
        king is not None
        and rook is not None
        and king.symbol() in "Kk"
        and rook.symbol() == ("R" if king.symbol() == "K" else "r")
    )


def pocketfen_moves(fen, variant):
    position = pocketfen.Position(fen, variant=variant)
    # The start's castling letters are files (Shredder-FEN), so pocketfen writes
    # castling as pyffish does: the king takes its rook.
    return position, set(position.legal_moves("uci"))


def perft2(variant, fen):
    total = 0
    for move in sf.legal_moves(variant, fen, [], True):
        total += len(sf.legal_moves(variant, fen, [move], True))
    return total


@pytest.mark.parametrize("variant", ["crazyhouse", "bughouse"])
def test_legal_moves_and_perft_equal_pyffish_from_chess960_starts(variant):
    rng = random.Random(960)
    positions = drops = castles = perfts = 0
    for _ in range(12):
        fen = start_fen(rng, variant)
        for ply in range(90):
            theirs = set(sf.legal_moves(variant, fen, [], True))
            position, ours = pocketfen_moves(fen, variant)
            assert ours == theirs, (fen, sorted(ours ^ theirs))
            positions += 1
            drops += any("@" in m for m in theirs)
            if ply % 30 == 7:
                assert position.perft(2) == perft2(variant, fen), fen
                perfts += 1
            if not theirs:
                break
            # Castle when it can, so that Chess960 castling is played often.
            castling = sorted(m for m in theirs if is_castling(position, m))
            if castling and rng.random() < 0.5:
                move = castling[0]
                castles += 1
            else:
                move = rng.choice(sorted(theirs))
            fen = sf.get_fen(variant, fen, [move], True, False, True)
    assert positions >= 600 and drops >= 100 and castles >= 5 and perfts >= 20, (
        positions, drops, castles, perfts)


def test_crazyhouse960_games_written_by_pyffish_validate():
    rng = random.Random(1960)
    games = []
    plies = []
    for _ in range(10):
        start = start_fen(rng, "crazyhouse")
        moves = []
        for _ in range(100):
            legal = sf.legal_moves("crazyhouse", start, moves, True)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        san = sf.get_san_moves("crazyhouse", start, moves, True)
        body = " ".join((f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(san))
        games.append(f'[Variant "Crazyhouse960"]\n[FEN "{start}"]\n[SetUp "1"]\n\n{body} *\n')
        plies.append(len(moves))
    records = list(pocketfen.validate("\n".join(games).encode(), all=True))
    games_read = [r for r in records if r["type"] == "game"]
    assert [r["plies"] for r in games_read] == plies
    assert [(r["status"], r["problems"]) for r in games_read] == [("ok", [])] * len(plies)
    assert {r["variant"] for r in games_read} == {"crazyhouse"}
