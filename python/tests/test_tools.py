"""`select` and `dedupe`: the games `pocketfen pgn select` and `pgn dedupe` write with the
same flags, yielded one by one."""

import pathlib

import pytest

import pocketfen
from conftest import SAMPLES, run_cli

STANDARD = SAMPLES / "lichess_standard_2025-05_sample438.pgn"
ZH = SAMPLES / "lichess_zh_2022-2025_bots75.pgn.zst"

# Keyword arguments and the command line's flags that ask for the same games.
SELECTIONS = [
    ({"tag": ["WhiteElo>=2000"]}, ["--tag", "WhiteElo>=2000"]),
    ({"tag": ["Opening~^Sicilian", "Result=1-0"]}, ["--tag", "Opening~^Sicilian", "--tag", "Result=1-0"]),
    ({"result": ["0-1"], "min_plies": 60}, ["--result", "0-1", "--min-plies", "60"]),
    ({"ends_in": "mate"}, ["--ends-in", "mate"]),
    ({"player": ["mohammadX1X"], "max_plies": 200}, ["--player", "mohammadX1X", "--max-plies", "200"]),
    ({"invalid": True, "strict": True}, ["--invalid", "--strict"]),
    ({"variant": "chess", "max_plies": 40, "to": "xboard"}, ["--variant", "chess", "--max-plies", "40", "--to", "xboard"]),
]


@pytest.mark.parametrize("kwargs,flags", SELECTIONS)
def test_select_yields_the_games_the_command_line_writes(pocketfen_cli, kwargs, flags):
    games = list(pocketfen.select(STANDARD, **kwargs))
    out = run_cli(pocketfen_cli, "pgn", "select", "-q", *flags, STANDARD)
    assert out.returncode in (0, 1), out.stderr
    written = out.stdout.decode()
    assert "".join(g if g.endswith("\n\n") else g + "\n" for g in games) == written
    # The selection chose some games and left some out: it was asked something.
    assert 0 < len(games) < 438 or kwargs.get("invalid")


def test_select_reads_compressed_crazyhouse_and_rewrites_for_a_site(pocketfen_cli):
    games = list(pocketfen.select(ZH, ends_in="drop-mate", to="lichess", jobs=2))
    out = run_cli(pocketfen_cli, "pgn", "select", "-q", "--ends-in", "drop-mate", "--to", "lichess", ZH)
    assert "".join(g if g.endswith("\n\n") else g + "\n" for g in games) == out.stdout.decode()
    assert games and all("[Variant \"Crazyhouse\"]" in g for g in games)


def test_dedupe_yields_each_game_once_as_the_command_line_does(pocketfen_cli, tmp_path):
    # Every game twice, the second copies with other tags: the same by moves, not by
    # moves and tags.
    text = STANDARD.read_text()
    twice = tmp_path / "twice.pgn"
    twice.write_text(text + "\n" + text.replace('[Event "', '[Event "copy of '))
    for by in ("moves", "moves-and-tags"):
        games = list(pocketfen.dedupe(twice, by=by))
        out = run_cli(pocketfen_cli, "pgn", "dedupe", "-q", "--by", by, twice)
        assert out.returncode == 0, out.stderr
        assert "".join(g if g.endswith("\n\n") else g + "\n" for g in games) == out.stdout.decode()
    assert len(list(pocketfen.dedupe(twice))) < len(list(pocketfen.dedupe(twice, by="moves-and-tags")))


def test_bad_selections_raise_and_name_the_argument():
    with pytest.raises(ValueError, match="tag"):
        pocketfen.select(STANDARD, tag=["WhiteElo"])
    with pytest.raises(ValueError, match="result"):
        pocketfen.select(STANDARD, result=["2-0"])
    with pytest.raises(ValueError, match="ends_in"):
        pocketfen.select(STANDARD, ends_in="resignation")
    with pytest.raises(ValueError, match="valid and invalid"):
        pocketfen.select(STANDARD, valid=True, invalid=True)
    with pytest.raises(ValueError, match="variant"):
        pocketfen.select(STANDARD, variant="xiangqi")
    with pytest.raises(ValueError, match="by"):
        pocketfen.dedupe(STANDARD, by="players")


@pytest.mark.parametrize(
    "kwargs,flags,pattern",
    [
        ({"every": 100}, ["--every", "100"], "part-{n:3}.pgn"),
        ({"every": 150}, ["--every", "150"], "z/part-{n}.pgn.zst"),
        ({"by_tag": "TimeControl"}, ["--by-tag", "TimeControl"], "by-{value}.pgn.gz"),
    ],
)
def test_split_writes_the_files_the_command_line_writes(pocketfen_cli, tmp_path, kwargs, flags, pattern):
    ours, theirs = tmp_path / "py", tmp_path / "cli"
    made = pocketfen.split(STANDARD, ours / pattern, **kwargs)
    out = run_cli(pocketfen_cli, "pgn", "split", "-q", *flags, "-o", theirs / pattern, STANDARD)
    assert out.returncode == 0, out.stderr
    assert sum(n for _, n in made) == 438 and len(made) > 2
    names = sorted(str(p.relative_to(ours)) for p in ours.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(theirs)) for p in theirs.rglob("*") if p.is_file())
    assert names == sorted(str(pathlib.Path(p).relative_to(ours)) for p, _ in made)
    for name in names:
        # Compressed files are read back the same: what each holds is one game set.
        assert list(pocketfen.dedupe(ours / name, by="moves-and-tags")) == list(
            pocketfen.dedupe(theirs / name, by="moves-and-tags")
        ), name


def test_split_refuses_bad_patterns_and_never_writes_over_its_source(tmp_path):
    with pytest.raises(ValueError, match="every=N .* or by_tag"):
        pocketfen.split(STANDARD, tmp_path / "x-{n}.pgn")
    with pytest.raises(ValueError, match=r"put \{n\}"):
        pocketfen.split(STANDARD, tmp_path / "x.pgn", every=10)
    with pytest.raises(ValueError, match=r"drop the \{n\}"):
        pocketfen.split(STANDARD, tmp_path / "x-{n}.pgn", by_tag="Site")
    source = tmp_path / "part-1.pgn"
    source.write_bytes(STANDARD.read_bytes())
    with pytest.raises(OSError, match="writing it would destroy what is read"):
        pocketfen.split(source, tmp_path / "part-{n:1}.pgn", every=1000)
    assert source.read_bytes() == STANDARD.read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == ["part-1.pgn"]


FAULTS = pathlib.Path(__file__).resolve().parents[2] / "grammar-tests" / "fix" / "faults.pgn"


def test_fix_yields_the_games_and_repairs_the_command_line_gives(pocketfen_cli):
    import json

    games = list(pocketfen.fix(FAULTS, drop_abandoned=True, jobs=2))
    assert [g["game"] for g in games] == list(range(1, 12))
    out = run_cli(pocketfen_cli, "pgn", "fix", "-q", "--drop-abandoned", FAULTS)
    assert out.returncode == 1, out.stderr
    written = [g["text"] for g in games if g["text"] is not None]
    assert "".join(t if t.endswith("\n\n") else t + "\n" for t in written) == out.stdout.decode()
    verdicts = [g["verdict"] for g in games]
    assert verdicts.count("repaired") == 8
    assert verdicts[0] == "unchanged" and verdicts[9] == "dropped" and verdicts[10] == "unrepaired"
    assert games[10]["error"]["kind"] == "no-such-piece" and games[10]["error"]["token"] == "Ke3"
    # The repairs are the records `pgn fix --json` gives, game by game.
    listed = run_cli(pocketfen_cli, "pgn", "fix", "-q", "--json", "--dry-run", "--drop-abandoned", FAULTS)
    records = [json.loads(line) for line in listed.stdout.decode().splitlines()]
    expected = [
        (r["game"], r["what"], r["line"], r["before"], r["after"]) for r in records if r["type"] == "repair"
    ]
    got = [(g["game"], r["what"], r["line"], r["before"], r["after"]) for g in games for r in g["repairs"]]
    assert got == expected
    assert any(r["what"] == "result" and r["after"] == "0-1" for r in games[1]["repairs"])
    # Without drop_abandoned the abandoned game is kept as it was.
    kept = list(pocketfen.fix(FAULTS))
    assert kept[9]["verdict"] == "unchanged" and "Abandoned" in kept[9]["text"]


CHESSCOM = pathlib.Path(__file__).resolve().parents[2] / "grammar-tests" / "chesscom" / "archive.json"


def test_chesscom_json_archives_are_read_as_the_command_line_reads_them(pocketfen_cli):
    import json

    # From a path, from bytes and from a file object: the same records as the CLI's.
    out = run_cli(pocketfen_cli, "validate", "--json", CHESSCOM)
    expected = [json.loads(line) for line in out.stdout.decode().splitlines()]
    for source in (CHESSCOM, CHESSCOM.read_bytes(), open(CHESSCOM, "rb")):
        records = list(pocketfen.validate(source))
        assert [r["type"] for r in records] == ["game", "summary"]
        assert records[0]["game"] == 7 and records[0]["problems"][0]["kind"] == "unknown-variant"
        assert records[-1]["skipped"] == 2 and records[-1]["games"] == 5
        assert {**records[0], "file": ""} == {**expected[0], "file": ""}
    # select gives the crazyhouse entry as PGN, its Link from the JSON's url.
    games = list(pocketfen.select(CHESSCOM, variant="crazyhouse"))
    assert len(games) == 1 and '[Link "https://www.chess.com/game/live/160000003"]' in games[0]


def test_latin1_games_come_back_with_their_characters(tmp_path):
    # An old archive's Latin-1 names (`é` is the byte E9), read as every command reads
    # them: as the Latin-1 characters they are, not replaced.
    game = '[Event "Caf\xe9 Ren\xe9"]\n[White "M\xfcller"]\n[Black "Ba"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
    source = tmp_path / "latin1.pgn"
    source.write_bytes(game.encode("latin-1"))
    # The game has no Round tag: fix repairs it, and its text is the repaired one.
    fixed = list(pocketfen.fix(source))[0]
    assert fixed["verdict"] == "repaired" and '[Round "-"]' in fixed["text"]
    for text in (list(pocketfen.select(source))[0], list(pocketfen.dedupe(source))[0], fixed["text"]):
        assert '[Event "Café René"]' in text and '[White "Müller"]' in text
        assert "\ufffd" not in text
