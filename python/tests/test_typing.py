"""The stub types the package for `mypy --strict` users: records are TypedDicts whose
fields they see, moves and boards are typed."""

import os
import subprocess
import sys
import textwrap

import pytest

GOOD = textwrap.dedent(
    """
    import pocketfen

    def illegal_games(path: str) -> list[tuple[str, int, str]]:
        found = []
        for record in pocketfen.validate(path, jobs=2):
            if record["type"] == "game":
                first = record["problems"][0]
                found.append((record["file"], record["game"], first["kind"]))
            else:
                games: int = record["games"]
                assert record["complete"] or games >= 0
        return found

    pos = pocketfen.Position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1")
    move: pocketfen.Move = pos.parse_san("e4")
    pos.push(move)
    white_to_move: bool = pos.turn
    pockets = pos.pockets
    knights = pockets[True].count(2) if pockets is not None else 0
    outcome = pos.outcome()
    winner = outcome.winner if outcome is not None else None
    for number, plies in pocketfen.replay(b"1. e4 *", emit="uci"):
        print(number + 1, plies[0].upper())
    problems = pocketfen.check_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    print(problems[0]["message"], knights, winner, white_to_move)

    import chess
    from pocketfen import GameRecord, Record

    board: chess.Board = pos.to_board()
    back = pocketfen.Position.from_board(board)
    assert back.move_stack == [] and pos.move_stack[-1] == chess.Move.from_uci("e2e4")
    for m in pos.legal_moves:
        assert pos.is_legal(m)

    def first_kind(record: GameRecord) -> str:
        return record["problems"][0]["kind"]

    def is_game(record: Record) -> bool:
        return record["type"] == "game"
    """
)

BAD = textwrap.dedent(
    """
    import pocketfen

    for record in pocketfen.validate("a.pgn"):
        if record["type"] == "game":
            print(record["gmae"])
        else:
            print(record["problems"])
    pos = pocketfen.Position()
    print(pos.turn + "x")
    pos.push(42)
    """
)


def mypy(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull, str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )


@pytest.fixture
def has_mypy():
    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI installs mypy before the Python tests")
        pytest.skip("mypy is not installed")


def test_strict_mypy_accepts_typed_use(tmp_path, has_mypy):
    out = mypy(tmp_path, "good.py", GOOD)
    assert out.returncode == 0, out.stdout


def test_strict_mypy_sees_the_fields_and_types(tmp_path, has_mypy):
    out = mypy(tmp_path, "bad.py", BAD)
    assert out.returncode == 1, out.stdout
    errors = [l for l in out.stdout.splitlines() if ": error:" in l]
    assert any(':6: error: TypedDict "GameRecord" has no key "gmae"' in e for e in errors), errors
    assert any(':8: error: TypedDict "SummaryRecord" has no key "problems"' in e for e in errors), errors
    assert any(":10: error: Unsupported operand types" in e for e in errors), errors
    assert any(":11: error: Argument 1 to \"push\"" in e for e in errors), errors
    assert len(errors) == 4, errors
