"""`Match`: a bughouse match of two boards, checked against the command line on the
corpus's BPGN files (grammar-tests/bpgn/ok), and played move by move."""

import pytest

import pocketfen
from conftest import GRAMMAR, run_cli

BPGN = sorted((GRAMMAR / "bpgn" / "ok").glob("*.bpgn"))


def read(path):
    return path.read_bytes().decode("utf-8", errors="replace") if "latin1" not in path.name else path.read_bytes().decode("latin-1")


def read_fen(path):
    """The [FEN] pair of the file's first game, or None."""
    for line in read(path).splitlines():
        if line.startswith('[FEN "'):
            return line[6:-2]
        if line.strip() and not line.startswith("["):
            return None
    return None


def cli_plies(exe, path, emit):
    """The (board, text) of each ply of the file's first game, as `replay` gives them."""
    out = run_cli(exe, "replay", "--emit", emit, path)
    assert out.returncode in (0, 1), out.stderr
    games = out.stdout.decode().split("# ")[1:]
    lines = games[0].splitlines()[1:] if games else []
    return [tuple(line.split(" ", 1)) for line in lines]


@pytest.mark.parametrize("path", BPGN, ids=lambda p: p.name)
def test_from_bpgn_plays_what_the_command_line_replays(pocketfen_cli, path):
    match = pocketfen.Match.from_bpgn(read(path))
    sans = cli_plies(pocketfen_cli, path, "san")
    assert [(board, san) for board, _, san, _ in match.moves] == sans
    # Played again move by move, each board after each ply is the FEN `replay` gives.
    fens = cli_plies(pocketfen_cli, path, "fen")
    again = pocketfen.Match(read_fen(path))
    for (board, move, san, clock), (b, fen) in zip(match.moves, fens):
        assert board == b
        assert again.play(board, move, clock) == san
        assert again.board(board).fen() == fen
    # Written back as BPGN: the command line reads the same plies, and so does Match.
    written = match.bpgn()
    again = pocketfen.Match.from_bpgn(written)
    assert again.moves == match.moves
    assert again.fen() == match.fen()
    for name in ("WhiteA", "BlackA", "WhiteB", "BlackB", "WhiteAElo", "BlackBElo"):
        # (A player the match does not name is written `?`.)
        assert again.tags.get(name) == match.tags.get(name, None if name.endswith("Elo") else "?")
    out = run_cli(pocketfen_cli, "validate", "--format", "bpgn", "-", stdin=written.encode())
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"{len(sans)} plies" in out.stderr.decode() or f"{len(sans)} ply" in out.stderr.decode()


def test_clocks_players_and_ratings_survive_a_round_trip():
    path = GRAMMAR / "bpgn" / "ok" / "bughousedb_1934587.bpgn"
    match = pocketfen.Match.from_bpgn(read(path))
    clocks = [clock for _, _, _, clock in match.moves]
    import re

    first = float(re.search(r"\{([0-9.]+)\}", read(path)).group(1))
    assert all(c is not None for c in clocks) and clocks[0] == pytest.approx(first)
    tags = match.tags
    assert tags["WhiteA"] and tags["BlackB"] and tags["WhiteAElo"].isdigit()
    written = match.bpgn()
    assert f'[WhiteA "{tags["WhiteA"]}"]' in written and f'[BlackBElo "{tags["BlackBElo"]}"]' in written
    assert [c for _, _, _, c in pocketfen.Match.from_bpgn(written).moves] == pytest.approx(clocks)
    assert match.result() == "1-0" and match.outcome()[0] == "A"


def test_captures_go_to_the_partner_and_drop_mate_is_a_match_option():
    m = pocketfen.Match(tags={"WhiteA": "w1", "BlackA": "b1", "WhiteB": "w2", "BlackB": "b2"})
    assert m.play("B", "e4", clock=179.5) == "e4"
    m.play("B", "d5")
    assert m.play("B", "exd5") == "exd5"
    # White on B captured a black pawn: Black on A (White-B's partner) may drop it.
    assert m.board("A").fen().endswith("/p w KQkq - 0 1")
    m.play("A", "e4")
    assert m.play("A", "P@e5") == "P@e5"
    with pytest.raises(pocketfen.IllegalMoveError) as e:
        m.play("A", "N@e3")
    assert e.value.kind == "not-in-pocket"
    with pytest.raises(ValueError, match="a board is"):
        m.play("C", "e4")
    assert m.moves[0][0] == "B" and m.moves[0][3] == 179.5
    written = m.bpgn()
    assert "1B. e4 {179.5} 1b. d5 2B. exd5 1A. e4 1a. P@e5 *" in written
    assert '[WhiteA "w1"]' in written and '[Variant "Bughouse"]' in written
    # A drop that mates: legal by default, refused when drop-mate is forbidden.
    fen = "6k1/5ppp/8/8/8/8/8/4K3/Q w - - 0 1 | 4k3/8/8/8/8/8/8/4K3/ w - - 0 1"
    allowed = pocketfen.Match(fen)
    assert allowed.play("A", "Q@d8") == "Q@d8#"
    assert allowed.outcome()[0] == "A" and allowed.result() == "1-0"
    with pytest.raises(pocketfen.IllegalMoveError):
        allowed.play("B", "e4")
    forbidden = pocketfen.Match(fen, drop_mate=False)
    with pytest.raises(pocketfen.IllegalMoveError):
        forbidden.play("A", "Q@d8")
    assert forbidden.play("A", "Q@a1") == "Q@a1"
    # A drop that checks without mating stays legal.
    check = pocketfen.Match("6k1/5pp1/8/8/8/8/8/4K3/Q w - - 0 1 | 4k3/8/8/8/8/8/8/4K3/ w - - 0 1", drop_mate=False)
    assert check.play("A", "Q@d8") == "Q@d8+"
    assert '[FEN "' in allowed.bpgn()


def test_bpgn_validate_and_replay_records_are_typed_as_for_pgn():
    path = GRAMMAR / "bpgn" / "ok" / "bughousedb_1934587.bpgn"
    records = list(pocketfen.validate(path, all=True))
    game, summary = records
    assert game["type"] == "game" and game["variant"] == "bughouse" and game["status"] == "ok"
    assert game["result_reading"] in ("board", "team", "both")
    assert summary["games"] == 1
    number, plies = next(iter(pocketfen.replay(path, emit="san")))
    assert number == 1 and plies[0] == "A e4"


def test_the_match_writes_its_own_variant_and_start_once():
    fen = "6k1/5ppp/8/8/8/8/8/4K3/Q w - - 0 1 | 4k3/8/8/8/8/8/8/4K3/ w - - 0 1"
    m = pocketfen.Match(fen, tags={"Variant": "bughouse", "FEN": "x", "SetUp": "0", "Event": "e"})
    m.set_tag("Variant", "Bughouse")
    written = m.bpgn()
    assert written.count("[Variant ") == 1 and written.count("[FEN ") == 1 and written.count("[SetUp ") == 1
    assert '[Event "e"]' in written
    assert pocketfen.Match.from_bpgn(written).fen() == m.fen()
