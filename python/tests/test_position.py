"""Position: moves, play, errors, FEN, outcome, perft, copy and repr."""

import copy

import chess
import chess.variant
import pytest

import pocketfen


def test_start_positions_and_variants():
    p = pocketfen.Position()
    assert p.variant == "chess" and p.turn is True and p.turn_name == "white"
    assert p.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert len(p.legal_moves()) == 20
    zh = pocketfen.Position(variant="crazyhouse")
    assert zh.fen("xboard") == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1"
    horde = pocketfen.Position(variant="horde")
    assert horde.fen().startswith("rnbqkbnr/pppppppp/8/1PP2PP1/")
    assert pocketfen.Position("8/8/8/8/8/8/8/4K2k[Q] w - - 0 1", variant="auto").variant == "crazyhouse"


def test_play_takes_san_or_uci_and_returns_canonical_san():
    p = pocketfen.Position(variant="crazyhouse")
    assert [p.play(m) for m in ["e4", "d7d5", "exd5", "Qxd5", "Nc3", "Qe6+"]] == [
        "e4", "d5", "exd5", "Qxd5", "Nc3", "Qe6+"
    ]
    assert p.is_check()
    assert p.play("Be2") == "Be2"
    assert p.play("P@e4") == "P@e4"
    uci = p.legal_moves("uci")
    assert len(uci) == len(p.legal_moves())
    assert all(len(m) in (4, 5) for m in uci)


def test_illegal_moves_raise_with_kind_and_reason_and_change_nothing():
    p = pocketfen.Position(variant="crazyhouse")
    before = p.fen()
    cases = {
        "Q@e4": "not-in-pocket",
        "Ke2": "no-such-piece",
        "e5": "no-such-piece",
        "Nz9": "syntax",
    }
    for move, kind in cases.items():
        with pytest.raises(pocketfen.IllegalMoveError) as info:
            p.play(move)
        assert isinstance(info.value, ValueError)
        assert info.value.kind == kind, move
        assert info.value.reason
        assert p.fen() == before
    # After mate, any move is game-over.
    mate = pocketfen.Position()
    for m in ["f3", "e5", "g4", "Qh4#"]:
        mate.play(m)
    assert mate.outcome().result() == mate.result() == "0-1"
    with pytest.raises(pocketfen.IllegalMoveError) as info:
        mate.play("a3")
    assert info.value.kind == "game-over"


def test_drop_mate_can_be_forbidden():
    # R@e8 (or any back-rank drop) mates.
    fen = "7k/6pp/8/8/8/8/8/K7[R] w - - 0 1"
    allowed = pocketfen.Position(fen, variant="crazyhouse")
    assert "R@e8#" in allowed.legal_moves()
    forbidden = pocketfen.Position(fen, variant="crazyhouse", drop_mate=False)
    assert "R@e8#" not in forbidden.legal_moves()
    with pytest.raises(pocketfen.IllegalMoveError):
        forbidden.play("R@e8")


def test_outcomes():
    stalemate = pocketfen.Position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.outcome().result() == "1/2-1/2"
    assert stalemate.outcome().termination == pocketfen.Termination.STALEMATE
    assert stalemate.outcome().winner is None
    assert pocketfen.Position().outcome() is None and pocketfen.Position().result() == "*"
    # Crazyhouse: lack of material never ends the game.
    bare = pocketfen.Position("8/8/8/4k3/8/8/8/4K3/ w - - 0 1", variant="crazyhouse")
    assert bare.outcome() is None
    dead = pocketfen.Position("8/8/8/4k3/8/8/8/4K3 w - - 0 1").outcome()
    assert (dead.termination, dead.winner) == (pocketfen.Termination.INSUFFICIENT_MATERIAL, None)


def test_fen_errors():
    with pytest.raises(pocketfen.FenError) as info:
        pocketfen.Position("8/8/8/8/8/8/8/8 w - - 0 1")
    assert info.value.column is None
    assert any("king" in p for p in info.value.problems)
    with pytest.raises(pocketfen.FenError) as info:
        pocketfen.Position("rnbqkbnr/pppppppp w")
    assert info.value.column is not None
    with pytest.raises(ValueError):
        pocketfen.Position().fen("fics")
    with pytest.raises(ValueError):
        pocketfen.Position().legal_moves("lan")


def test_perft_matches_python_chess():
    assert pocketfen.Position().perft(4) == 197281
    zh = pocketfen.Position(variant="crazyhouse")
    board = chess.variant.CrazyhouseBoard()

    def perft(b, depth):
        if depth == 0:
            return 1
        total = 0
        for m in list(b.legal_moves):
            b.push(m)
            total += perft(b, depth - 1)
            b.pop()
        return total

    assert zh.perft(3) == perft(board, 3)


def test_legal_moves_match_python_chess_along_a_game():
    p = pocketfen.Position(variant="crazyhouse")
    board = chess.variant.CrazyhouseBoard()
    for uci in ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "P@d4", "P@e5"]:
        ours = sorted(p.legal_moves("uci"))
        theirs = sorted(m.uci() for m in board.legal_moves)
        assert ours == theirs
        p.play(uci)
        board.push_uci(uci)


def test_copy_is_independent_and_repr_draws_the_pockets():
    p = pocketfen.Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Nq] w KQkq - 0 1", variant="crazyhouse")
    for c in (p.copy(), copy.copy(p), copy.deepcopy(p)):
        c.play("e4")
        assert c != p
        assert p.turn is True
    text = repr(p)
    assert text.startswith('Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Nq w KQkq - 0 1"')
    assert "white pocket: ♘" in text and "black pocket: ♛" in text
    assert str(p) == p.fen()


def test_everything_has_a_docstring():
    names = ["convert_fen", "check_fen", "validate", "convert_pgn", "replay", "Position", "FenError", "IllegalMoveError"]
    for name in names:
        assert (getattr(pocketfen, name).__doc__ or "").strip(), name
    for method in ["legal_moves", "play", "fen", "is_check", "outcome", "perft", "copy"]:
        assert (getattr(pocketfen.Position, method).__doc__ or "").strip(), method
    assert pocketfen.validate.__text_signature__ is not None
