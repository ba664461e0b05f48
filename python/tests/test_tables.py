"""games_table, plies_table and export: the tables read by pyarrow, Polars and DuckDB;
Lichess's columns of the same types as a table in Lichess's schema written by pyarrow;
the plies checked move by move against python-chess; special games column by column."""

import datetime
import io
import json
import pathlib
import re
import warnings

import chess
import chess.pgn
import chess.variant
import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pocketfen
from conftest import GRAMMAR, SAMPLES, run_cli

LICHESS_SAMPLE = SAMPLES / "lichess_standard_2025-05_sample438.pgn"
ZH_SAMPLE = SAMPLES / "lichess_zh_2018_JannLee-CrazyAra.pgn"
HORDE_SAMPLE = SAMPLES / "lichess_horde_2022_Daymon_Rivera-pripredi.pgn"
BUGHOUSE = GRAMMAR / "bpgn" / "ok" / "bughousedb_1934587.bpgn"

# Lichess's Parquet schema (the column types its files on Hugging Face have).
LICHESS_SCHEMA = pa.schema(
    [
        ("Event", pa.string()),
        ("Site", pa.string()),
        ("White", pa.string()),
        ("Black", pa.string()),
        ("Result", pa.string()),
        ("WhiteTitle", pa.string()),
        ("BlackTitle", pa.string()),
        ("WhiteElo", pa.int16()),
        ("BlackElo", pa.int16()),
        ("WhiteRatingDiff", pa.int16()),
        ("BlackRatingDiff", pa.int16()),
        ("UTCDate", pa.date32()),
        ("UTCTime", pa.time32("s")),
        ("ECO", pa.string()),
        ("Opening", pa.string()),
        ("Termination", pa.string()),
        ("TimeControl", pa.string()),
        ("movetext", pa.string()),
    ]
)


def lichess_games(pgn_path, n=50):
    """The first `n` games of a Lichess PGN, each as its text."""
    text = pathlib.Path(pgn_path).read_text()
    chunks = text.split("\n\n[Event ")[:n]
    return [c if c.startswith("[Event ") else "[Event " + c for c in chunks]


def lichess_parquet(path, pgn_path, **write_options):
    """The games of a Lichess PGN in Lichess's schema, written by pyarrow (tags read by
    python-chess, movetext as the text after the tags)."""
    columns = {name: [] for name in LICHESS_SCHEMA.names}
    for chunk in lichess_games(pgn_path):
        game = chess.pgn.read_game(__import__("io").StringIO(chunk))
        head, _, movetext = chunk.strip().partition("\n\n")
        for name in LICHESS_SCHEMA.names[:-1]:
            value = game.headers.get(name)
            t = LICHESS_SCHEMA.field(name).type
            if value is None or "?" in value:
                value = None
            elif t == pa.int16():
                value = int(value)
            elif t == pa.date32():
                value = datetime.date(*map(int, value.split(".")))
            elif t == pa.time32("s"):
                value = datetime.time(*map(int, value.split(":")))
            columns[name].append(value)
        columns["movetext"].append(movetext.strip())
    table = pa.table(columns, schema=LICHESS_SCHEMA)
    pq.write_table(table, path, **write_options)
    return table


def test_games_table_is_what_export_writes(tmp_path, pocketfen_cli):
    path = tmp_path / "games.parquet"
    plies = tmp_path / "plies.parquet"
    out = run_cli(pocketfen_cli, "export", "-q", "--games", path, "--plies", plies, SAMPLES)
    assert out.returncode == 0, out.stderr
    written = pq.read_table(path)
    ours = pocketfen.games_table(SAMPLES, jobs=2)
    assert ours.schema == written.schema
    assert ours.equals(written)
    assert pocketfen.plies_table(SAMPLES).equals(pq.read_table(plies))
    # What the Python function writes is the command's too.
    again = tmp_path / "again.parquet"
    result = pocketfen.export(SAMPLES, again)
    assert result == {"games": ours.num_rows, "plies": 0, "files": [str(again)]}
    assert pq.read_table(again).equals(written)


def test_lichess_columns_have_lichess_types(tmp_path):
    theirs = tmp_path / "lichess.parquet"
    lichess_parquet(theirs, LICHESS_SAMPLE)
    ours = tmp_path / "ours.parquet"
    pocketfen.export(LICHESS_SAMPLE, ours)
    their_schema = pq.read_schema(theirs)
    our_schema = pq.read_schema(ours)
    assert our_schema.names[: len(LICHESS_SCHEMA)] == LICHESS_SCHEMA.names
    for field in their_schema:
        assert our_schema.field(field.name).type == field.type, field.name
    # DuckDB puts Lichess's rows and ours in one table, column by column.
    union = duckdb.sql(
        f"SELECT * FROM read_parquet('{theirs}') UNION ALL BY NAME "
        f"SELECT {', '.join(LICHESS_SCHEMA.names)} FROM read_parquet('{ours}')"
    )
    assert union.columns == LICHESS_SCHEMA.names
    rows = duckdb.sql(
        f"SELECT Site, WhiteElo, UTCDate, UTCTime, movetext FROM read_parquet('{theirs}') "
        f"EXCEPT SELECT Site, WhiteElo, UTCDate, UTCTime, movetext FROM read_parquet('{ours}')"
    ).fetchall()
    assert rows == [], rows[:3]
    # Polars concatenates them.
    both = pl.concat(
        [pl.read_parquet(theirs), pl.read_parquet(ours).select(LICHESS_SCHEMA.names)], how="vertical"
    )
    assert both.height == 50 + 438
    assert both.schema["WhiteElo"] == pl.Int16 and both.schema["UTCDate"] == pl.Date


def board_for(variant, fen):
    if variant == "crazyhouse":
        return chess.variant.CrazyhouseBoard(fen) if fen else chess.variant.CrazyhouseBoard()
    if variant == "horde":
        return chess.variant.HordeBoard(fen) if fen else chess.variant.HordeBoard()
    return chess.Board(fen) if fen else chess.Board()


def folder(tmp_path, named):
    """A folder holding these files under these names (a run reads it in name order)."""
    for name, source in named.items():
        (tmp_path / name).write_bytes(pathlib.Path(source).read_bytes())
    return tmp_path


def test_plies_are_python_chess_moves(tmp_path):
    files = folder(tmp_path, {"a.pgn": LICHESS_SAMPLE, "b.pgn": ZH_SAMPLE, "c.pgn": HORDE_SAMPLE})
    games = pocketfen.games_table(files).to_pylist()
    plies = pocketfen.plies_table(files, fen=True).to_pylist()
    by_game = {}
    for p in plies:
        by_game.setdefault((p["file"], p["game"]), []).append(p)
    checked = 0
    for g in games:
        rows = by_game.get((g["file"], g["game"]), [])
        assert len(rows) == g["plies"]
        start = g["fen"] if g["variant"] == "crazyhouse" else None
        board = board_for(g["variant"], None if start and start.startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/") else start)
        for p in rows:
            move = board.parse_san(p["san"])
            assert p["uci"] == move.uci(), p
            assert p["is_drop"] == (move.drop is not None)
            assert p["promotion"] == (chess.piece_symbol(move.promotion).upper() if move.promotion else None)
            captured = board.piece_at(move.to_square) if not board.is_en_passant(move) else chess.Piece(chess.PAWN, not board.turn)
            assert p["captured"] == (captured.symbol().upper() if captured and move.drop is None else None), p
            assert p["side"] == ("white" if board.turn else "black")
            assert p["move_number"] == board.fullmove_number
            board.push(move)
            assert p["check"] == board.is_check()
            assert p["mate"] == board.is_checkmate()
            assert p["fen"].split(" ")[0].split("/")[:8] == board.board_fen(promoted=g["variant"] == "crazyhouse").split("/")
            if g["variant"] == "crazyhouse":
                white = "".join(sorted(str(board.pockets[chess.WHITE]).upper()))
                black = "".join(sorted(str(board.pockets[chess.BLACK])))
                assert "".join(sorted(p["white_pocket"])) == white
                assert "".join(sorted(p["black_pocket"])) == black
            else:
                assert p["white_pocket"] is None and p["black_pocket"] is None
            checked += 1
        if g["valid"] and g["ending"] == "checkmate":
            assert board.is_checkmate()
            assert g["winner"] == ("black" if board.turn else "white")
    assert checked > 28000


def test_special_games_column_by_column(tmp_path):
    promoted = tmp_path / "a_promoted.pgn"
    promoted.write_text(
        '[Event "Promoted"]\n[Site "https://lichess.org/abcdefgh"]\n[UTCDate "2024.01.31"]\n[UTCTime "12:00:05"]\n'
        '[WhiteElo "1500"]\n[BlackElo "1600"]\n[Variant "Crazyhouse"]\n[SetUp "1"]\n[FEN "4r2k/3P4/5n2/8/8/8/8/K7/ w - - 0 1"]\n\n'
        "1. dxe8=Q+ { [%clk 0:01:00] [%eval 3.5] } 1... Nxe8 { [%clk 0:00:58] } 2. R@e7 $2 { [%eval #4] } *\n"
    )
    chess960 = tmp_path / "b_chess960.pgn"
    chess960.write_text(
        '[Event "Fischer"]\n[Result "1/2-1/2"]\n[Variant "Chess960"]\n[SetUp "1"]\n[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]\n\n'
        "1. d4 d5 2. Nd3 Nd6 1/2-1/2\n"
    )
    horde_file = tmp_path / "c_horde.pgn"
    bughouse_file = tmp_path / "d_bughouse.bpgn"
    folder(tmp_path, {horde_file.name: HORDE_SAMPLE, bughouse_file.name: BUGHOUSE})
    games = pocketfen.games_table(tmp_path).to_pylist()
    plies = pocketfen.plies_table(tmp_path, fen=True).to_pylist()
    zh, c960, horde, bug = games
    assert zh["variant"] == "crazyhouse" and zh["fen"] == "4r2k/3P4/5n2/8/8/8/8/K7/ w - - 0 1"
    assert (zh["Event"], zh["Site"], zh["WhiteElo"], zh["BlackElo"]) == ("Promoted", "https://lichess.org/abcdefgh", 1500, 1600)
    assert zh["UTCDate"] == datetime.date(2024, 1, 31) and zh["UTCTime"] == datetime.time(12, 0, 5)
    assert (zh["plies"], zh["valid"], zh["problems"], zh["ending"], zh["winner"]) == (3, True, 0, None, None)
    assert zh["movetext"].startswith("1. dxe8=Q+ {") and zh["movetext"].endswith("$2 { [%eval #4] } *")
    assert zh["unfit"] is None and zh["WhiteA"] is None and zh["Date"] is None
    zh_plies = [p for p in plies if p["file"] == str(promoted)]
    first, second, third = zh_plies
    assert (first["san"], first["uci"], first["piece"], first["captured"], first["promotion"]) == ("dxe8=Q+", "d7e8q", "P", "R", "Q")
    assert (first["check"], first["white_pocket"], first["black_pocket"]) == (True, "R", "")
    assert first["fen"].startswith("4Q~2k/")
    assert (first["clock"], first["eval_cp"], first["eval_mate"], first["nags"]) == (60.0, 350, None, [])
    # The promoted queen taken goes to Black's pocket as a pawn.
    assert (second["san"], second["captured"], second["white_pocket"], second["black_pocket"]) == ("Nxe8", "Q", "R", "p")
    assert (second["clock"], second["side"], second["move_number"]) == (58.0, "black", 1)
    assert (third["san"], third["is_drop"], third["piece"], third["white_pocket"]) == ("R@e7", True, "R", "")
    assert (third["eval_mate"], third["nags"], third["ply"], third["board"]) == (4, [2], 3, None)

    assert c960["variant"] == "chess" and c960["fen"].startswith("bbqnnrkr/pppppppp/")
    assert (c960["plies"], c960["valid"], c960["Result"], c960["ending"]) == (4, True, "1/2-1/2", None)
    c960_plies = [p for p in plies if p["file"] == str(chess960)]
    assert [p["uci"] for p in c960_plies] == ["d2d4", "d7d5", "e1d3", "e8d6"]

    assert horde["variant"] == "horde" and horde["valid"]
    assert horde["fen"].startswith("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP")
    horde_plies = [p for p in plies if p["file"] == str(horde_file)]
    assert len(horde_plies) == horde["plies"] and horde_plies[0]["white_pocket"] is None

    text = BUGHOUSE.read_text()
    assert bug["variant"] == "bughouse" and bug["valid"]
    for seat in ("WhiteA", "BlackA", "WhiteB", "BlackB"):
        assert f'[{seat} "{bug[seat]}"]' in text
        assert f'[{seat}Elo "{bug[seat + "Elo"]}"]' in text
    bug_plies = [p for p in plies if p["file"] == str(bughouse_file)]
    assert bug["ending"] == ("drop-mate" if bug_plies[-1]["is_drop"] else "checkmate")
    assert bug["ending_board"] == bug_plies[-1]["board"]
    assert bug["winner"] == bug_plies[-1]["side"]
    assert {p["board"] for p in bug_plies} == {"A", "B"}
    assert all(" | " in p["fen"] for p in bug_plies)
    assert sum(p["clock"] is not None for p in bug_plies) == len(bug_plies)
    assert bug_plies[-1]["mate"]


def test_export_layout_is_read_by_polars_and_duckdb_with_its_partitions(tmp_path):
    result = pocketfen.export(SAMPLES, output_dir=tmp_path / "db")
    assert all(f.endswith("train-00000-of-00001.parquet") for f in result["files"])
    frame = pl.read_parquet(tmp_path / "db" / "**" / "*.parquet", hive_partitioning=True)
    assert frame.height == result["games"]
    dated = frame.filter(pl.col("UTCDate").is_not_null())
    assert (dated["UTCDate"].dt.year() == dated["year"].cast(pl.Int32)).all()
    assert (dated["UTCDate"].dt.month() == dated["month"].cast(pl.Int32)).all()
    counts = duckdb.sql(
        f"SELECT year, CAST(month AS INTEGER), count(*) FROM read_parquet('{tmp_path}/db/**/*.parquet', hive_partitioning = true) "
        "WHERE year = 2025 AND CAST(month AS INTEGER) = 5 GROUP BY ALL"
    ).fetchall()
    assert counts == [(2025, 5, 438)]


def test_compression_is_the_one_asked_for_and_the_rows_the_same(tmp_path):
    tables = {}
    for codec, footer in [("zstd", "ZSTD"), ("zstd:9", "ZSTD"), ("snappy", "SNAPPY"), ("none", "UNCOMPRESSED")]:
        games, plies = tmp_path / f"{codec}-g.parquet", tmp_path / f"{codec}-p.parquet"
        pocketfen.export(ZH_SAMPLE, games, plies, output_dir=tmp_path / codec, compression=codec)
        for path in [games, plies, *sorted((tmp_path / codec).rglob("*.parquet"))]:
            meta = pq.ParquetFile(path).metadata
            got = {meta.row_group(g).column(c).compression for g in range(meta.num_row_groups) for c in range(meta.num_columns)}
            assert got == {footer}, (codec, path)
        tables[codec] = (pq.read_table(games), pq.read_table(plies))
    for codec, (g, p) in tables.items():
        assert g.equals(tables["zstd"][0]) and p.equals(tables["zstd"][1]), codec
    with pytest.raises(ValueError, match="from 1 to 22"):
        pocketfen.export(ZH_SAMPLE, tmp_path / "x.parquet", compression="zstd:0")
    with pytest.raises(ValueError, match="compression `brotli`"):
        pocketfen.export(ZH_SAMPLE, tmp_path / "x.parquet", compression="brotli")
    assert not (tmp_path / "x.parquet").exists()


def test_a_table_without_pyarrow_is_refused_clearly_and_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="games or plies"):
        pocketfen._table(SAMPLES, "moves")
    with pytest.raises(ValueError, match="say what to write"):
        pocketfen.export(SAMPLES)
    with pytest.raises(ValueError, match="partition"):
        pocketfen.export(SAMPLES, output_dir=tmp_path / "x", partition="week")
    with pytest.raises(ValueError, match="plies"):
        pocketfen.export(SAMPLES, tmp_path / "g.parquet", fen=True)
    with pytest.raises(OSError, match="this is the input"):
        pocketfen.export(LICHESS_SAMPLE, LICHESS_SAMPLE)
    assert LICHESS_SAMPLE.read_text().startswith("[Event ")
    # A stream is read once by one consumer.
    stream = pocketfen._table(ZH_SAMPLE)
    assert pa.RecordBatchReader.from_stream(stream).read_all().num_rows == 1
    with pytest.raises(RuntimeError, match="already read"):
        pa.RecordBatchReader.from_stream(stream)


def games_and_plies(out):
    """`validate --json --all`'s games: (plies, status, problem kinds) each."""
    games = []
    for line in out.splitlines():
        r = json.loads(line)
        if r["type"] == "game":
            games.append((r["plies"], r["status"], [p["kind"] for p in r["problems"]]))
    return games


def test_a_damaged_row_group_loses_only_its_rows(tmp_path, pocketfen_cli):
    # Lichess's schema in row groups of 7 rows; the third group's movetext chunk starts
    # with a page header overwritten: its 7 games are lost, the 43 others read.
    path = tmp_path / "damaged.parquet"
    whole = lichess_parquet(path, LICHESS_SAMPLE, compression="zstd", row_group_size=7)
    group = pq.ParquetFile(path).metadata.row_group(2)
    chunk = next(group.column(i) for i in range(group.num_columns) if group.column(i).path_in_schema == "movetext")
    at = chunk.dictionary_page_offset if chunk.has_dictionary_page else chunk.data_page_offset
    data = bytearray(path.read_bytes())
    data[at : at + 12] = b"\xff" * 12
    path.write_bytes(bytes(data))
    where = r"row group 3 of 8 \(rows 15 to 21\) cannot be read"

    with pytest.warns(UserWarning, match=r"43 games read, 7 rows lost: " + where):
        table = pocketfen.games_table(path)
    kept = [i for i in range(50) if not 14 <= i <= 20]
    assert table.column("Site").to_pylist() == [whole.column("Site")[i].as_py() for i in kept]
    assert table.column("game").to_pylist() == [i + 1 for i in kept]
    # Records: each game by its row, and the summary's count and message.
    records = list(pocketfen.validate(path, all=True))
    assert [r["game"] for r in records if r["type"] == "game"] == [i + 1 for i in kept]
    summary = records[-1]
    assert (summary["lost"], summary["complete"]) == (7, False)
    assert re.match(where, summary["stream_error"])
    with pytest.warns(UserWarning, match=where):
        assert len(list(pocketfen.replay(path))) == 43
    # A warnings filter that makes it an error stops the work.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning):
            pocketfen.games_table(path)
    out = run_cli(pocketfen_cli, "validate", path)
    assert out.returncode == 2
    assert "7 lost (damaged row groups)" in out.stderr.decode()


def test_lichess_parquet_is_read_by_every_archive_command(tmp_path, pocketfen_cli):
    # Lichess's schema written by pyarrow: zstd pages in row groups of 7 rows, and
    # snappy pages in Lichess's folder layout.
    zstd = tmp_path / "zstd.parquet"
    table = lichess_parquet(zstd, LICHESS_SAMPLE, compression="zstd", row_group_size=7)
    assert pq.ParquetFile(zstd).num_row_groups == 8
    snappy = tmp_path / "db" / "year=2025" / "month=05" / "train-00000-of-00001.parquet"
    snappy.parent.mkdir(parents=True)
    pq.write_table(table, snappy, compression="snappy", row_group_size=16)
    assert pq.ParquetFile(snappy).metadata.row_group(0).column(0).compression == "SNAPPY"
    # The same games as PGN.
    pgn = tmp_path / "same.pgn"
    pgn.write_text("\n\n".join(lichess_games(LICHESS_SAMPLE)) + "\n")

    def cli(*args):
        out = run_cli(pocketfen_cli, *args)
        return out.returncode, out.stdout.decode(), out.stderr.decode()

    code, expected, _ = cli("validate", "-q", "--json", "--all", pgn)
    replayed = cli("replay", "-q", "--emit", "san", pgn)[1].splitlines()
    moves_only = [l for l in replayed if not l.startswith("# ")]
    for source in (zstd, tmp_path / "db"):
        code, out, err = cli("validate", "-q", "--json", "--all", source)
        assert code == 0, err
        assert games_and_plies(out) == games_and_plies(expected)
        code, out, err = cli("replay", "-q", "--emit", "san", source)
        assert [l for l in out.splitlines() if not l.startswith("# ")] == moves_only
        # pgn convert: the same movetext as the PGN's, game by game.
        code, out, err = cli("pgn", "convert", "-q", "--to", "lichess", source)
        code2, out2, _ = cli("pgn", "convert", "-q", "--to", "lichess", pgn)
        moves = lambda text: [l for l in text.splitlines() if l and not l.startswith("[")]
        assert code == 0 and moves(out) == moves(out2), err
        # pgn select, dedupe and split.
        white = table.column("White")[3].as_py()
        code, out, err = cli("pgn", "select", "--count", "--player", white, source)
        assert out.strip() == cli("pgn", "select", "--count", "--player", white, pgn)[1].strip()
        code, out, err = cli("pgn", "dedupe", source)
        assert code == 0 and out.count("[Event ") == 50, err
        # The rows come out as PGN writes games, a tag per line: python-chess reads them.
        first = chess.pgn.read_game(io.StringIO(out))
        assert first.headers["White"] == table.column("White")[0].as_py()
        assert first.headers["Site"] == table.column("Site")[0].as_py()
        assert len(list(first.mainline_moves())) == games_and_plies(expected)[0][0]
        parts = tmp_path / f"split-{source.name}"
        parts.mkdir()
        code, out, err = cli("pgn", "split", "-q", "--every", "20", "-o", parts / "p-{N}.pgn", source)
        assert code == 0, err
        assert sorted(p.name for p in parts.iterdir()) == ["p-000001.pgn", "p-000002.pgn", "p-000003.pgn"]
        assert sum(p.read_text().count("[Event ") for p in parts.iterdir()) == 50
        # export: the games table of a Lichess table has its rows.
        again = tmp_path / f"again-{source.name}.parquet"
        code, out, err = cli("export", "-q", "--games", again, source)
        assert code == 0, err
        ours = pq.read_table(again)
        assert ours.num_rows == 50
        assert ours.select(LICHESS_SCHEMA.names).to_pylist() == pq.read_table(zstd).select(LICHESS_SCHEMA.names).cast(
            ours.select(LICHESS_SCHEMA.names).schema
        ).to_pylist()
    # Parts are row groups: the two halves hold every game once.
    halves = [games_and_plies(cli("validate", "-q", "--json", "--all", "--split", f"{k}/2", zstd)[1]) for k in (1, 2)]
    assert halves[0] and halves[1] and halves[0] + halves[1] == games_and_plies(expected)
    # Python reads it as the command does: a path, bytes, a file object.
    assert [r["plies"] for r in pocketfen.validate(zstd, all=True) if r["type"] == "game"] == [
        g[0] for g in games_and_plies(expected)
    ]
    with open(zstd, "rb") as f:
        assert len(list(pocketfen.replay(f))) == 50
    assert len(list(pocketfen.replay(zstd.read_bytes()))) == 50
    assert pocketfen.games_table(zstd).num_rows == 50
    chosen = list(pocketfen.select(zstd))
    fourth = chess.pgn.read_game(io.StringIO(chosen[3]))
    assert fourth.headers["White"] == table.column("White")[3].as_py()
    assert len(list(fourth.mainline_moves())) == games_and_plies(expected)[3][0]


def test_other_writers_types_are_read_as_lichess_types_are(tmp_path, pocketfen_cli):
    # The same games as other writers type them: Polars' Categorical and pyarrow's
    # dictionaries, binary movetext, pandas' float ratings and timestamp dates.
    plain = tmp_path / "plain.parquet"
    table = lichess_parquet(plain, LICHESS_SAMPLE)
    # One illegal game, so that a movetext read as empty would be seen.
    moves = table.column("movetext").to_pylist()
    moves[5] = "1. e4 e5 2. Ke3 1-0"
    table = table.set_column(table.schema.get_field_index("movetext"), "movetext", pa.array(moves))
    pq.write_table(table, plain)
    categorical = tmp_path / "polars.parquet"
    strings = ["Event", "Site", "White", "Opening", "movetext"]
    pl.from_arrow(table).with_columns([pl.col(c).cast(pl.Categorical) for c in strings]).write_parquet(
        categorical
    )
    assert pa.types.is_dictionary(pq.read_schema(categorical).field("movetext").type)
    dictionary = tmp_path / "dictionary.parquet"
    encoded = table
    for name in strings:
        i = encoded.schema.get_field_index(name)
        encoded = encoded.set_column(i, name, encoded.column(name).dictionary_encode())
    pq.write_table(encoded, dictionary)
    assert pa.types.is_dictionary(pq.read_schema(dictionary).field("Site").type)
    pandas_like = tmp_path / "pandas.parquet"
    converted = table
    for name, t in [("movetext", pa.binary()), ("WhiteElo", pa.float64()), ("UTCDate", pa.timestamp("ns"))]:
        converted = converted.set_column(converted.schema.get_field_index(name), name, converted.column(name).cast(t))
    pq.write_table(converted, pandas_like)

    def cli(*args):
        out = run_cli(pocketfen_cli, *args)
        return out.returncode, out.stdout.decode(), out.stderr.decode()

    code, expected, _ = cli("validate", "-q", "--json", "--all", plain)
    assert code == 1 and games_and_plies(expected)[5] == (2, "illegal", ["no-such-piece"])
    cli("export", "-q", "--games", tmp_path / "g.parquet", "--plies", tmp_path / "p.parquet", plain)
    games, plies = pq.read_table(tmp_path / "g.parquet"), pq.read_table(tmp_path / "p.parquet")
    for source in (categorical, dictionary, pandas_like):
        code, out, err = cli("validate", "-q", "--json", "--all", source)
        assert code == 1 and games_and_plies(out) == games_and_plies(expected), (source, err)
        g, p = tmp_path / f"g-{source.stem}.parquet", tmp_path / f"p-{source.stem}.parquet"
        code, _, err = cli("export", "-q", "--games", g, "--plies", p, source)
        assert code == 0, err
        # Every column as from Lichess's own types, but where the file is: `file`.
        ours = pq.read_table(g).drop(["file"])
        assert ours.to_pylist() == games.drop(["file"]).to_pylist(), source
        assert pq.read_table(p).column("Site").to_pylist() == plies.column("Site").to_pylist()
        assert plies.column("Site").null_count == 0
    # A float rating that is no integer is null in the table, and counted.
    fractional = tmp_path / "fractional.parquet"
    elo = converted.column("WhiteElo").to_pylist()
    elo[0] = 1500.5
    pq.write_table(converted.set_column(converted.schema.get_field_index("WhiteElo"), "WhiteElo", pa.array(elo)), fractional)
    code, _, err = cli("export", "--games", tmp_path / "f.parquet", fractional)
    assert pq.read_table(tmp_path / "f.parquet").column("WhiteElo")[0].as_py() is None
    assert "WhiteElo: 1 value did not fit the column" in err
    # A movetext or a tag of a type that holds no games is refused, its type named.
    numbers = tmp_path / "numbers.parquet"
    pq.write_table(pa.table({"White": ["x"], "movetext": [1]}), numbers)
    code, _, err = cli("validate", numbers)
    assert code == 2 and "column `movetext` is of type Int64" in err
    lists = tmp_path / "lists.parquet"
    pq.write_table(pa.table({"White": [["x"]], "movetext": ["1. e4 *"]}), lists)
    code, _, err = cli("validate", lists)
    assert code == 2 and "column `White` is of type List(" in err


def test_games_table_names_openings_when_asked():
    # The same names as validate's records; null without openings=True.
    named = pocketfen.games_table(LICHESS_SAMPLE, openings=True)
    records = [r for r in pocketfen.validate(LICHESS_SAMPLE, all=True, openings=True) if r["type"] == "game"]
    assert named.num_rows == len(records)
    got = named.select(["opening_eco", "opening_name", "opening_ply"]).to_pylist()
    want = [
        {"opening_eco": r["opening"]["eco"], "opening_name": r["opening"]["name"], "opening_ply": r["opening"]["ply"]}
        if "opening" in r
        else {"opening_eco": None, "opening_name": None, "opening_ply": None}
        for r in records
    ]
    assert got == want
    assert sum(1 for g in got if g["opening_eco"]) > 400
    plain = pocketfen.games_table(LICHESS_SAMPLE)
    assert plain.column("opening_eco").null_count == plain.num_rows
    # A DuckDB user counts openings by the moves, beside Lichess's own tag.
    top = duckdb.sql("SELECT opening_eco, count(*) AS n FROM named GROUP BY 1 ORDER BY n DESC LIMIT 1").fetchall()
    assert top[0][1] > 5
