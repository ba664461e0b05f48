"""pocketfen with python-chess: boards in and out, chess.Move accepted, and every game of
the samples played through both libraries in step, the boards compared after every ply."""

import io
import shutil
import subprocess
import sys
import textwrap

import chess
import chess.pgn
import chess.variant
import pytest

import pocketfen
from conftest import GRAMMAR, SAMPLES


def sample_games():
    """(name, PGN text) of every game archive bundled: the samples (the .zst one through
    zstd when it is here) and the Chess960 games of the grammar tests."""
    paths = sorted(SAMPLES.glob("*.pgn")) + sorted((GRAMMAR / "pgn" / "real").glob("*960*.pgn"))
    for path in paths:
        yield path.name, path.read_text(encoding="utf-8-sig")
    for path in sorted(SAMPLES.glob("*.pgn.zst")):
        if shutil.which("zstd"):
            text = subprocess.run(["zstd", "-dc", str(path)], capture_output=True, check=True).stdout
            yield path.name, text.decode()


def same_board(pos, board, plies_since_pawn_drop):
    """pos.to_board() is the python-chess board, field for field; and the board read back
    is the position."""
    theirs = pos.to_board()
    # pocketfen resets the half-move clock on a pawn drop (as a pawn move); python-chess
    # counts on: the only difference between the two, and it is exact.
    assert pos.halfmove_clock == min(board.halfmove_clock, plies_since_pawn_drop)
    theirs.halfmove_clock = board.halfmove_clock
    assert theirs == board, (theirs.fen(), board.fen())
    assert type(theirs) is type(board) and theirs.chess960 == board.chess960
    if isinstance(board, chess.variant.CrazyhouseBoard):
        # (python-chess marks promotions in chess too, where nothing reads them.)
        assert theirs.promoted == board.promoted == pos.promoted
        for color in chess.COLORS:
            for pt in chess.PIECE_TYPES:
                assert pos.pockets[color].count(pt) == board.pockets[color].count(pt)
    back = pocketfen.Position.from_board(board)
    assert back.to_board() == board
    assert back.fen().split(" ")[:4] == pos.fen().split(" ")[:4]


def test_every_sample_game_in_step_with_python_chess():
    games = plies = 0
    for name, text in sample_games():
        stream = io.StringIO(text)
        while (game := chess.pgn.read_game(stream)) is not None:
            assert not game.errors, (name, game.errors)
            board = game.board()
            pos = pocketfen.Position.from_board(board)
            since_drop = 1000
            same_board(pos, board, since_drop)
            for move in game.mainline_moves():
                # The same legal moves, as equal objects with equal hashes.
                assert set(pos.generate_legal_moves()) == set(board.legal_moves), (name, board.fen())
                assert pos.is_legal(move)
                san = pos.san(move)
                assert san == board.san(move) or san == "P" + board.san(move), (san, board.san(move))
                assert pos.parse_san(san) == move
                since_drop = 0 if move.drop == chess.PAWN else since_drop + 1
                board.push(move)
                pos.push(move)
                plies += 1
                same_board(pos, board, since_drop)
                assert pos.is_check() == board.is_check()
            assert pos.move_stack == board.move_stack
            assert pos.is_checkmate() == board.is_checkmate()
            assert pos.is_stalemate() == board.is_stalemate()
            if board.is_checkmate() or board.is_stalemate() or board.is_variant_end():
                ours, theirs = pos.outcome(), board.outcome()
                assert (ours.termination.name, ours.winner) == (theirs.termination.name, theirs.winner)
                assert ours.result() == theirs.result()
            games += 1
    # Every sample was read: a few hundred games, tens of thousands of plies.
    assert games > 500 and plies > 30000, (games, plies)


def test_boards_in_and_out_with_pockets_promoted_castling_and_en_passant():
    # A promoted queen on a crazyhouse board, pockets on both sides.
    fen = "r3k2r/ppp2ppp/8/3pP3/8/8/PPP2PPP/R3K2Q~[NNp] w Kkq d6 0 12"
    board = chess.variant.CrazyhouseBoard(fen)
    pos = pocketfen.Position.from_board(board)
    assert pos.variant == "crazyhouse" and pos.promoted == chess.BB_H1
    assert pos.castling_rights == board.clean_castling_rights() == chess.BB_A8 | chess.BB_H8
    assert pos.ep_square == chess.D6 == board.ep_square
    assert str(pos.pockets[chess.WHITE]) == "nn" and len(pos.pockets[chess.BLACK]) == 1
    assert pos.piece_at(chess.H1) == chess.Piece(chess.QUEEN, chess.WHITE)
    assert pos.to_board() == board and pos.to_board().fen() == board.fen()
    # Horde and Chess960.
    horde = chess.variant.HordeBoard()
    assert pocketfen.Position.from_board(horde).to_board() == horde
    c960 = chess.Board.from_chess960_pos(100)
    pos960 = pocketfen.Position.from_board(c960)
    assert pos960.to_board() == c960 and pos960.to_board().chess960
    # Other python-chess variants are refused, by name.
    with pytest.raises(ValueError, match="atomic"):
        pocketfen.Position.from_board(chess.variant.AtomicBoard())
    # pocketfen's variants that python-chess lacks.
    for variant in ("loop", "chessgi", "bughouse"):
        with pytest.raises(ValueError, match=f"python-chess has no {variant} board"):
            pocketfen.Position(variant=variant).to_board()
    # An illegal board is a FenError with its problems.
    bad = chess.Board(None)
    with pytest.raises(pocketfen.FenError) as info:
        pocketfen.Position.from_board(bad)
    assert any("king" in p for p in info.value.problems)


def test_chess_moves_are_taken_everywhere_and_equal_to_ours():
    pos = pocketfen.Position(variant="crazyhouse")
    e4 = chess.Move.from_uci("e2e4")
    assert pos.is_legal(e4) and pos.san(e4) == "e4" and pos.uci(e4) == "e2e4"
    assert pos.play(e4) == "e4"
    assert pos.peek() == e4 and hash(pos.peek()) == hash(e4) and e4 == pos.peek()
    assert pocketfen.Move.from_uci("N@d5") == chess.Move.from_uci("N@d5")
    assert not pos.is_legal(chess.Move.from_uci("N@d5"))  # black has no knight in hand
    with pytest.raises(pocketfen.IllegalMoveError) as info:
        pos.push(chess.Move.from_uci("e7e2"))
    assert info.value.kind == "no-such-piece"
    assert pos.pop() == e4 and pos.move_stack == []
    with pytest.raises(IndexError):
        pos.pop()
    with pytest.raises(TypeError, match="chess.Move"):
        pos.push(42)


def test_python_chess_habits_compare_equal_and_hash_alike():
    pos = pocketfen.Position()
    for m in ["f3", "e5", "g4", "Qh4#"]:
        pos.push(m)
    ours, theirs = pos.outcome(), pos.to_board().outcome()
    assert ours == theirs and ours.termination == chess.Termination.CHECKMATE
    assert hash(ours.termination) == hash(chess.Termination.CHECKMATE)
    assert ours.termination.value == chess.Termination.CHECKMATE.value
    assert ours.termination != chess.Termination.STALEMATE and ours.termination != 1
    for symbol in "PNBRQKpnbrqk":
        mine, other = pocketfen.Piece.from_symbol(symbol), chess.Piece.from_symbol(symbol)
        assert mine == other and other == mine and hash(mine) == hash(other) and mine in {other}
    # The null move, as python-chess writes it; no position plays it.
    null = pocketfen.Move.from_uci("0000")
    assert null == chess.Move.null() and not null and null.uci() == "0000" and pocketfen.Move(0, 0) == null
    with pytest.raises(pocketfen.IllegalMoveError) as info:
        pocketfen.Position().push(chess.Move.null())
    assert info.value.kind == "null-move"
    # legal_moves as python-chess's, and as called before.
    start = pocketfen.Position()
    assert len(start.legal_moves) == start.legal_moves.count() == 20 and start.legal_moves
    assert set(start.legal_moves) == set(chess.Board().legal_moves)
    assert chess.Move.from_uci("e2e4") in start.legal_moves and "Nf3" in start.legal_moves
    assert start.legal_moves()[:2] == ["Na3", "Nc3"] and start.legal_moves("uci")[0] == "b1a3"
    assert not pos.legal_moves and list(pos.legal_moves) == []
    # Positions of two variants are two positions, as python-chess's boards.
    assert pocketfen.Position(variant="crazyhouse") != pocketfen.Position(variant="loop")
    assert pocketfen.Position(variant="crazyhouse") != pocketfen.Position(variant="crazyhouse", drop_mate=False)
    assert pocketfen.Position(variant="chess") == pocketfen.Position(variant="chess", drop_mate=False)
    with pytest.raises(ValueError, match="same square"):
        pocketfen.Move.from_uci("a1a1")


def test_a_python_chess_fen_reads_with_its_variant():
    assert pocketfen.Position(chess.variant.CrazyhouseBoard().fen()).variant == "crazyhouse"
    assert pocketfen.Position(chess.variant.HordeBoard().fen()).variant == "horde"
    fen = chess.Board.from_chess960_pos(100).fen()
    assert pocketfen.Position(fen).fen() == fen


def test_python_chess_is_never_needed():
    script = textwrap.dedent(
        """
        import sys
        import pocketfen
        pos = pocketfen.Position(variant="crazyhouse")
        pos.push("e4"); pos.push(pos.parse_san("d5")); pos.san("exd5")
        list(pocketfen.validate(b"1. e4 *"))
        assert "chess" not in sys.modules, "pocketfen imported python-chess"
        sys.modules["chess"] = None  # python-chess not installed
        try:
            pos.to_board()
        except ImportError as e:
            assert "pip install chess" in str(e), e
        else:
            raise AssertionError("to_board without python-chess")
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr


def test_from_board_keeps_the_move_stack_so_pop_works():
    # As python-chess's own copy does (issue 33.24): the moves played on the board are
    # the position's too, and pop() undoes them.
    board = chess.variant.CrazyhouseBoard()
    for san in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "Bc4"]:
        board.push_san(san)
    pos = pocketfen.Position.from_board(board)
    assert [m.uci() for m in pos.move_stack] == [m.uci() for m in board.move_stack]
    assert pos.to_board() == board
    while board.move_stack:
        assert pos.pop() == board.pop()
        assert pos.to_board() == board
    # A stack that does not replay here (a null move) is left out; the position stays.
    nulled = chess.Board()
    nulled.push_san("e4")
    nulled.push(chess.Move.null())
    pos = pocketfen.Position.from_board(nulled)
    assert pos.move_stack == [] and pos.to_board().board_fen() == nulled.board_fen()
