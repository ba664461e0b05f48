"""convert_fen and check_fen, and their errors."""

import pytest

import pocketfen
from conftest import SAMPLES, run_cli

START_BRACKET = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"


def test_each_dialect_is_written_exactly():
    assert pocketfen.convert_fen(START_BRACKET, "lichess") == (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
    )
    assert pocketfen.convert_fen(START_BRACKET, "xboard") == (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1"
    )
    zh = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R/Qp b KQkq - 3 3"
    assert pocketfen.convert_fen(zh, "bracket") == (
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Qp] b KQkq - 3 3"
    )
    assert pocketfen.convert_fen(zh, "chesscom") == (
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 3 3 Qp"
    )


def test_promoted_pieces_and_pairs():
    promoted = "4k3/8/8/8/8/8/8/4K2Q~/ w - - 0 40"
    assert pocketfen.convert_fen(promoted, "chesscom") == "4k3/8/8/8/8/8/8/4K2Q w - - 0 40 h1"
    # A promoted square makes it crazyhouse: the empty pocket is written (issue 23.7).
    back = pocketfen.convert_fen("4k3/8/8/8/8/8/8/4K2Q w - - 0 40 h1", "xboard")
    assert back == "4k3/8/8/8/8/8/8/4K2Q~[-] w - - 0 40"
    assert pocketfen.convert_fen("4k3/8/8/8/8/8/8/4K2Q w - - 0 40 - h1", "lichess") == (
        "4k3/8/8/8/8/8/8/4K2Q~/ w - - 0 40"
    )
    pair = START_BRACKET + " | " + START_BRACKET
    converted = pocketfen.convert_fen(pair, "lichess")
    assert converted.count(" | ") == 1
    assert converted.split(" | ")[1] == pocketfen.convert_fen(START_BRACKET, "lichess")


def test_variant_says_whether_a_pocket_is_written():
    plain = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert pocketfen.convert_fen(plain, "lichess", variant="crazyhouse") == (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
    )
    assert pocketfen.convert_fen(START_BRACKET, "lichess", variant="chess") == plain
    with pytest.raises(pocketfen.FenError) as info:
        pocketfen.convert_fen(plain.replace(" w", "[Q] w"), "lichess", variant="chess")
    assert info.value.field == "pocket"
    with pytest.raises(ValueError, match="unknown variant"):
        pocketfen.convert_fen(plain, "lichess", variant="shogi")


def test_from_restricts_the_dialect_read():
    lichess = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1"
    assert pocketfen.convert_fen(lichess, "xboard", from_="lichess").endswith("[-] w KQkq - 0 1")
    assert pocketfen.convert_fen(lichess, "xboard", from_="auto").endswith("[-] w KQkq - 0 1")
    with pytest.raises(pocketfen.FenError):
        pocketfen.convert_fen(START_BRACKET, "xboard", from_="lichess")


def test_fen_error_says_where_and_why():
    with pytest.raises(pocketfen.FenError) as info:
        pocketfen.convert_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "lichess")
    e = info.value
    assert isinstance(e, ValueError)
    assert e.column == 45
    assert e.field == "side to move"
    assert "w" in e.expected
    assert e.found == "`x`"
    assert "column 45" in str(e)


def test_unknown_names_are_value_errors():
    with pytest.raises(ValueError, match="unknown dialect"):
        pocketfen.convert_fen(START_BRACKET, "fics")
    with pytest.raises(ValueError, match="unknown variant"):
        pocketfen.check_fen(START_BRACKET, variant="atomic")


def test_check_fen_lists_problems_as_the_cli_does(pocketfen_cli):
    assert pocketfen.check_fen(START_BRACKET) == []
    problems = pocketfen.check_fen("4k3/8/8/8/8/8/8/P3K3[] w - - 0 1")
    assert problems == [
        {
            "board": None,
            "severity": "error",
            "kind": "pawns-on-backrank",
            "message": "pawns on the first or last rank: a1",
        }
    ]
    # The same problems as `fen check --json`, for every line of a sample list.
    import json

    lines = [l for l in (SAMPLES / "crazyhouse-fens.txt").read_text().splitlines() if l.strip()]
    lines += ["8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/P3K3[] w - - 0 1"]
    out = run_cli(pocketfen_cli, "fen", "check", "--json", stdin="\n".join(lines).encode())
    records = [json.loads(l) for l in out.stdout.decode().splitlines()]
    assert len(records) == len(lines)
    for line, record in zip(lines, records):
        assert pocketfen.check_fen(line) == record["problems"], line


def test_check_fen_takes_a_variant_and_a_pair():
    horde_with_king = "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPKPPP w kq - 0 1"
    kinds = {p["kind"] for p in pocketfen.check_fen(horde_with_king, variant="horde")}
    assert kinds == {"unexpected-king"}
    # Read as chess (auto), the same FEN has other problems.
    assert "unexpected-king" not in {p["kind"] for p in pocketfen.check_fen(horde_with_king)}
    pair = START_BRACKET + " | " + "8/8/8/8/8/8/8/8[] w - - 0 1"
    problems = pocketfen.check_fen(pair, variant="bughouse")
    assert {p["board"] for p in problems if p["kind"] == "missing-king"} == {"B"}
    with pytest.raises(pocketfen.FenError):
        pocketfen.check_fen("not a fen")
