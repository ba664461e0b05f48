"""validate, convert_pgn and replay: sources, options, records, errors, streaming, threads."""

import bz2
import gzip
import io
import json
import os
import pathlib
import resource
import threading

import pytest

import pocketfen
from conftest import GRAMMAR, SAMPLES, run_cli

ILLEGAL_DROP = GRAMMAR / "pgn" / "err" / "illegal-drop.pgn"
ERR = sorted((GRAMMAR / "pgn" / "err").glob("*.pgn"))
# Every game of the error files opens with an Event tag.
ERR_GAMES = sum(p.read_bytes().count(b"[Event ") for p in ERR)
BPGN_ERR = sorted((GRAMMAR / "bpgn" / "err").glob("*.bpgn"))


def without_time(records):
    for r in records:
        r = dict(r)
        r.pop("seconds", None)
        yield r


def test_records_are_the_clis_json(pocketfen_cli):
    for path in ERR + BPGN_ERR + sorted(SAMPLES.glob("*.pgn")):
        for args, kwargs in [([], {}), (["--strict", "--all"], {"strict": True, "all": True})]:
            ours = list(without_time(pocketfen.validate(str(path), **kwargs)))
            out = run_cli(pocketfen_cli, "validate", "-q", "--json", *args, path)
            theirs = [json.loads(l) for l in out.stdout.decode().splitlines()]
            assert ours == list(without_time(theirs)), path


def test_a_path_bytes_and_a_file_object_give_the_same_records():
    by_path = list(without_time(pocketfen.validate(ILLEGAL_DROP)))
    assert by_path[0]["type"] == "game" and by_path[-1]["type"] == "summary"
    assert by_path[0]["problems"][0]["kind"] == "not-in-pocket"
    assert (by_path[0]["problems"][0]["line"], by_path[0]["problems"][0]["column"]) == (5, 26)
    data = ILLEGAL_DROP.read_bytes()
    by_bytes = list(without_time(pocketfen.validate(data)))
    with open(ILLEGAL_DROP, "rb") as f:
        by_file = list(without_time(pocketfen.validate(f)))
    strip = lambda rs: [{k: v for k, v in r.items() if k != "file"} for r in rs]
    assert strip(by_bytes) == strip(by_path) == strip(by_file)
    assert by_bytes[0]["file"] == "<bytes>"
    assert by_file[0]["file"] == str(ILLEGAL_DROP)
    assert list(without_time(pocketfen.validate(pathlib.Path(ILLEGAL_DROP)))) == by_path


def test_compressed_sources_are_detected(tmp_path):
    data = b"".join(p.read_bytes() + b"\n\n" for p in ERR)
    plain = [{k: v for k, v in r.items() if k not in ("file", "seconds", "bytes")} for r in pocketfen.validate(data)]
    for name, packed in [("a.pgn.gz", gzip.compress(data)), ("a.pgn.bz2", bz2.compress(data))]:
        path = tmp_path / name
        path.write_bytes(packed)
        for source in (path, packed):
            got = [{k: v for k, v in r.items() if k not in ("file", "seconds", "bytes")} for r in pocketfen.validate(source)]
            assert got == plain, name
        summary = list(pocketfen.validate(path))[-1]
        assert summary["bytes"] == len(data)


def test_options_change_the_verdict():
    zh_game = b"1. e4 d5 2. exd5 Qxd5 3. P@e4 *\n"
    # No Variant tag: the drop makes it crazyhouse, with a warning at the drop; told
    # chess, the drop is illegal; told crazyhouse, it is fine without a warning.
    inferred = list(pocketfen.validate(zh_game, all=True))[0]
    assert (inferred["status"], inferred["variant"]) == ("ok", "crazyhouse")
    assert [(p["kind"], p["severity"], p["token"], p["column"]) for p in inferred["problems"]] == [
        ("variant-inferred", "warning", "P@e4", 26)
    ]
    assert list(pocketfen.validate(zh_game, variant="chess"))[0]["status"] == "illegal"
    assert list(pocketfen.validate(zh_game, variant="crazyhouse"))[0]["type"] == "summary"
    told = list(pocketfen.validate(zh_game, variant="crazyhouse", all=True))[0]
    assert (told["status"], told["problems"]) == ("ok", [])
    # A drop that mates, with drop-mate forbidden.
    mate = b'[Variant "Crazyhouse"]\n[FEN "7k/6pp/8/8/8/8/8/K7[R] w - - 0 1"]\n\n1. R@e8# 1-0\n'
    assert list(pocketfen.validate(mate))[0]["type"] == "summary"
    rec = list(pocketfen.validate(mate, drop_mate=False))[0]
    assert rec["problems"][0]["kind"] == "drop-mate"
    # Strict: a non-canonical spelling is a warning.
    sloppy = b"1. Ngf3 e5 *\n"
    assert list(pocketfen.validate(sloppy))[0]["type"] == "summary"
    kinds = [p["kind"] for p in list(pocketfen.validate(sloppy, strict=True))[0]["problems"]]
    assert "over-disambiguated" in kinds
    # Variations: an illegal move inside one counts only with variations=True.
    var = (GRAMMAR / "pgn" / "err" / "illegal-in-variation.pgn").read_bytes()
    assert list(pocketfen.validate(var))[0]["type"] == "summary"
    assert list(pocketfen.validate(var, variations=True))[0]["status"] == "illegal"


def test_jobs_do_not_change_the_records():
    data = b"".join(p.read_bytes() + b"\n\n" for p in ERR) * 50
    one = list(without_time(pocketfen.validate(data, jobs=1)))
    two = list(without_time(pocketfen.validate(data, jobs=2)))
    many = list(without_time(pocketfen.validate(data, jobs=7)))
    assert one == two == many
    assert ERR_GAMES >= 17
    assert one[-1]["games"] == 50 * ERR_GAMES


def test_bad_sources_and_names_raise():
    with pytest.raises(FileNotFoundError):
        pocketfen.validate("/no/such/archive.pgn")
    with pytest.raises(TypeError):
        pocketfen.validate(42)
    with pytest.raises(ValueError, match="unknown variant"):
        pocketfen.validate(b"", variant="atomic")
    with pytest.raises(ValueError, match="unknown target"):
        pocketfen.convert_pgn(b"", "fics")
    with pytest.raises(ValueError, match="drop style"):
        pocketfen.convert_pgn(b"", "lichess", drop_style="N@")
    with pytest.raises(ValueError, match="unknown emit"):
        pocketfen.replay(b"", emit="lan")


class Breaks(io.RawIOBase):
    """A binary stream that fails after its first chunk."""

    def __init__(self, first):
        self.first = first

    def readable(self):
        return True

    def read(self, n=-1):
        if self.first is None:
            self.raised = OSError("the disk went away")
            raise self.raised
        chunk, self.first = self.first, None
        return chunk


def test_a_broken_stream_gives_its_games_then_raises_the_streams_own_exception():
    game = ILLEGAL_DROP.read_bytes() + b"\n\n"
    stream = Breaks(game * 3)
    records = []
    with pytest.raises(OSError, match="the disk went away") as info:
        for r in pocketfen.validate(stream):
            records.append(r)
    # The exception is the stream's own object, not a copy or a wrapper.
    assert info.value is stream.raised
    # Every game read before the break was validated: the third ended with its result.
    assert [r["game"] for r in records] == [1, 2, 3]
    assert all(r["type"] == "game" for r in records)
    # Text mode is refused at once, with a clear reason.
    with pytest.raises(TypeError, match="binary mode"):
        pocketfen.validate(io.StringIO("1. e4 *"))
    with open(ILLEGAL_DROP) as text:
        with pytest.raises(TypeError, match="binary mode"):
            pocketfen.validate(text)
    # convert_pgn and replay too give the games before the break, then its exception.
    legal = b'[Event "x"]\n\n1. e4 e5 1-0\n\n'
    for run in (lambda s: pocketfen.replay(s, emit="san"), lambda s: pocketfen.convert_pgn(s, "lichess")):
        stream = Breaks(legal * 3)
        games = run(stream)
        assert len([next(games), next(games), next(games)]) == 3
        with pytest.raises(OSError) as info:
            next(games)
        assert info.value is stream.raised
        # And then nothing more.
        assert list(games) == []


def test_convert_pgn_writes_what_validate_accepts():
    data = b"".join(p.read_bytes() + b"\n\n" for p in ERR)
    games = list(pocketfen.convert_pgn(data, "chesscom"))

    def only_variations_broken(r):
        # A variation's illegal move loses no game: convert writes it up to that move.
        errors = [p for p in r["problems"] if p["severity"] == "error"]
        return r["status"] == "illegal" and all(p["ply"] is None and p["reason"].endswith("(in a variation)") for p in errors)

    accepted = [
        r
        for r in pocketfen.validate(data, variations=True, all=True)
        if r["type"] == "game" and (r["status"] == "ok" or only_variations_broken(r))
    ]
    assert any(only_variations_broken(r) for r in accepted)
    assert len(games) == len(accepted)
    for text in games:
        assert "[Event" in text and text.rstrip().endswith(("*", "1-0", "0-1", "1/2-1/2"))
        again = list(pocketfen.validate(text.encode(), variations=True, all=True))
        assert again[0]["status"] == "ok"
    kept = list(pocketfen.convert_pgn(data, "chesscom", keep_broken=True))
    assert len(kept) == ERR_GAMES
    lichess = "\n".join(pocketfen.convert_pgn(SAMPLES / "chesscom_zh_2016_eekarf-JannLeeCrazyhouse_scalachess.pgn", "lichess"))
    assert "P@" in lichess
    bare = "\n".join(pocketfen.convert_pgn(SAMPLES / "chesscom_zh_2016_eekarf-JannLeeCrazyhouse_scalachess.pgn", "lichess", drop_style="at"))
    assert "P@" not in bare and " @" in bare


def test_replay_emits_fens_sans_and_ucis(pocketfen_cli):
    path = SAMPLES / "lichess_zh_2018_JannLee-CrazyAra.pgn"
    for emit in ("fen", "san", "uci"):
        ours = list(pocketfen.replay(path, emit=emit))
        out = run_cli(pocketfen_cli, "replay", "--emit", emit, path).stdout.decode()
        theirs, current = [], None
        for line in out.splitlines():
            if line.startswith("# "):
                current = (int(line.split(" game ")[1].split()[0]), [])
                theirs.append(current)
            else:
                current[1].append(line)
        assert ours == theirs, emit
    n, sans = next(pocketfen.replay(ILLEGAL_DROP, emit="san"))
    assert (n, sans) == (1, ["e4", "d5", "exd5", "Qxd5"])


def test_replay_yields_annotations_as_the_cli_records_them(pocketfen_cli):
    # The Lichess samples carry [%clk] and [%eval] on their moves; the cutechess one none.
    for name in ("lichess_zh_2018_JannLee-CrazyAra.pgn", "lichess_standard_2025-05_sample438.pgn",
                 "cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn"):
        path = SAMPLES / name
        ours = list(pocketfen.replay(path, emit="uci", annotations=True))
        out = run_cli(pocketfen_cli, "replay", "--json", "--emit", "uci", path).stdout.decode()
        records = [json.loads(line) for line in out.splitlines()]
        theirs = [
            (r["game"], r["plies"], r.get("annotations", [None] * len(r["plies"])))
            for r in records if r["type"] == "replayed"
        ]
        assert ours == theirs, name
        # Without asking, the plain pairs.
        assert [t[:2] for t in ours] == list(pocketfen.replay(path, emit="uci"))
    game, plies, notes = next(pocketfen.replay(SAMPLES / "lichess_zh_2018_JannLee-CrazyAra.pgn", annotations=True))
    assert len(notes) == len(plies)
    assert notes[0] == {"clock": 300.0, "cp": 152}
    assert all(isinstance(n["clock"], float) for n in notes)


def write_large(path, megabytes):
    game = (SAMPLES / "lichess_zh_2017_knightvuillaume-JannLee.pgn").read_bytes().rstrip() + b"\n\n"
    with open(path, "wb") as f:
        written = 0
        while written < megabytes << 20:
            f.write(game * 64)
            written += len(game) * 64
    return written


def test_a_large_archive_streams_in_constant_memory(tmp_path):
    # 64 MB by default; POCKETFEN_LARGE_MB=1024 runs it on 1 GB (docs/TESTING.md).
    megabytes = int(os.environ.get("POCKETFEN_LARGE_MB", "64"))
    path = tmp_path / "large.pgn"
    size = write_large(path, megabytes)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    count = 0
    for record in pocketfen.validate(path, all=True):
        count += 1
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    assert record["type"] == "summary" and record["complete"]
    assert record["bytes"] == size and count == record["games"] + 1
    # ru_maxrss is in KB: the peak grew by less than 64 MB, whatever the file's size.
    assert after - before < 64 * 1024, (before, after)
    print(f"{size / 2**20:.0f} MB: peak RSS grew by {(after - before) / 1024:.1f} MB")


def test_two_threads_validate_at_once_and_the_gil_is_released(tmp_path):
    path = tmp_path / "large.pgn"
    write_large(path, 16)
    expected = [r for r in without_time(pocketfen.validate(path, jobs=1))]
    results = {}

    def work(name):
        results[name] = list(without_time(pocketfen.validate(path, jobs=1)))

    threads = [threading.Thread(target=work, args=(n,)) for n in ("a", "b")]
    for t in threads:
        t.start()
    spins = 0
    while any(t.is_alive() for t in threads):
        spins += 1
    for t in threads:
        t.join()
    assert results["a"] == expected and results["b"] == expected
    # The main thread ran while both validated: the GIL was free.
    assert spins > 1000


def test_an_iterator_dropped_early_stops_its_work(tmp_path):
    path = tmp_path / "large.pgn"
    write_large(path, 16)
    for _ in range(20):
        it = pocketfen.validate(path, all=True)
        assert next(it)["type"] == "game"
        del it
    # Nothing is left running that holds the file's records: a full run still works.
    assert list(pocketfen.validate(path))[-1]["complete"]


def test_timings_only_when_asked():
    """Issue 26.4: records are the same from run to run unless timings=True."""
    plain = list(pocketfen.validate(ILLEGAL_DROP))
    assert plain == list(pocketfen.validate(ILLEGAL_DROP))
    summary = plain[-1]
    assert summary["type"] == "summary" and summary["version"] == 2
    assert "seconds" not in summary
    timed = list(pocketfen.validate(ILLEGAL_DROP, timings=True))[-1]
    assert isinstance(timed["seconds"], float) and timed["seconds"] >= 0
    assert {k: v for k, v in timed.items() if k != "seconds"} == summary


def test_keep_broken_yields_nothing_for_a_game_over_the_size_limit():
    # A game over the 32 MiB limit is never read whole: convert_pgn(keep_broken=True)
    # cannot copy it and yields nothing for it (it yielded '' before, issue 33.7), while
    # the games around it come.
    small = b'[Event "a"]\n[Result "*"]\n\n1. e4 *\n\n'
    big = b'[Event "big"]\n[Result "*"]\n\n1. e4 {' + b"x" * (33 << 20) + b"} *\n\n"
    texts = list(pocketfen.convert_pgn(small + big + small, "lichess", keep_broken=True, jobs=1))
    assert len(texts) == 2 and all(t.startswith('[Event "a"]') for t in texts)


def test_help_shows_every_argument():
    # help() shows the text signature: split= is there for every archive function.
    for f in (pocketfen.validate, pocketfen.convert_pgn, pocketfen.replay):
        assert "split=None" in f.__text_signature__ or "split=None" in (f.__doc__ or "").splitlines()[0], f


def break_second_pzstd_frame(data):
    """pzstd's file with its second zstd frame made undecodable from its first block on
    (the block's type set to the reserved one): that frame's offset and size."""
    frames, at = [], 0
    while at + 12 <= len(data):
        size = int.from_bytes(data[at + 8 : at + 12], "little")
        frames.append((at + 12, size))
        at += 12 + size
    at, size = frames[1]
    descriptor = data[at + 4]
    single = descriptor & 0x20 != 0
    header = 5 + (not single) + [0, 1, 2, 4][descriptor & 3] + [int(single), 2, 4, 8][descriptor >> 6]
    data[at + header] |= 0b110
    return at, size


def test_a_damaged_pzstd_frame_loses_only_its_own_games(tmp_path):
    import shutil
    import subprocess

    if shutil.which("pzstd") is None:
        pytest.skip("pzstd is needed (Debian package zstd; .ci/run installs it)")
    plain = tmp_path / "games.pgn"
    plain.write_bytes((SAMPLES / "lichess_standard_2025-05_sample438.pgn").read_bytes() * 6)
    packed = tmp_path / "games.pgn.zst"
    subprocess.run(["pzstd", "-q", "-f", "-1", "-p", "2", str(plain), "-o", str(packed)], check=True)
    data = bytearray(packed.read_bytes())
    at, size = break_second_pzstd_frame(data)
    packed.write_bytes(bytes(data))

    whole = [r for r in pocketfen.validate(plain, all=True) if r["type"] == "game"]
    records = list(pocketfen.validate(packed, all=True))
    summary = records[-1]
    games = [r for r in records if r["type"] == "game"]
    (brk,) = summary["breaks"]
    assert (brk["compression"], brk["offset"], brk["length"], summary["complete"]) == ("zstd", at, size, False)
    assert summary["stream_error"].startswith(f"the zstd frame at byte {at} ({size} bytes) cannot be decoded")
    # The games read are the undamaged file's first ones and its last ones, in order.
    whole = [dict(r, file=str(packed)) for r in whole]
    first = next(i for i, (a, b) in enumerate(zip(games, whole)) if a != b)
    assert first > 0
    tail = whole[len(whole) - (len(games) - first) :]
    strip = lambda r: {k: v for k, v in r.items() if k not in ("file", "game", "line")}  # noqa: E731
    assert [strip(r) for r in games[first:]] == [strip(r) for r in tail]
    assert summary["games"] == len(games) and 1 <= summary["lost"] <= 2
    # The text lost beyond those games: pzstd's frames but the last hold four windows
    # of text (at most), so the frame's header and what it gave tell what the file lacks.
    lost_text = brk["text"]["bytes"] - brk["text_read"]
    assert brk["text"]["by"] == "pzstd"
    assert lost_text == plain.stat().st_size - summary["bytes"]
    # The same from bytes in memory; the tables warn of the games lost and hold the rest.
    assert list(without_time(pocketfen.validate(bytes(data), all=True)))[:-1] == [
        dict(r, file="<bytes>") for r in without_time(games)
    ]
    pytest.importorskip("pyarrow")
    with pytest.warns(UserWarning, match=rf"{len(games)} games read, {summary['lost']} games? lost, and up to {lost_text} bytes of text \(about \d+ games, the text read averaging \d+ bytes a game\): the zstd frame at byte {at} "):
        table = pocketfen.games_table(packed)
    assert table.num_rows == len(games)


def assert_head_and_tail(games, whole):
    """The games read are the undamaged text's first ones (some) and its last ones, in
    order, numbered on past the games lost."""
    first = next(i for i, (a, b) in enumerate(zip(games, whole)) if a != b)
    assert first > 0
    tail = whole[len(whole) - (len(games) - first) :]
    strip = lambda r: {k: v for k, v in r.items() if k not in ("game", "line", "seconds")}  # noqa: E731
    assert [strip(r) for r in games[first:]] == [strip(r) for r in tail]


def test_a_damaged_bzip2_stream_loses_only_its_own_games(tmp_path):
    import bz2

    # pbzip2's layout: a bzip2 stream for each 100 kB of text; the third damaged where
    # its block starts, found before it gives any text.
    text = (SAMPLES / "lichess_standard_2025-05_sample438.pgn").read_bytes() * 2
    streams = [bytearray(bz2.compress(text[i : i + 100_000], 9)) for i in range(0, len(text), 100_000)]
    assert len(streams) >= 4
    for i in range(14, 22):
        streams[2][i] ^= 0xA5
    at = sum(map(len, streams[:2]))
    data = b"".join(streams)

    whole = [r for r in pocketfen.validate(text, all=True) if r["type"] == "game"]
    records = list(pocketfen.validate(data, all=True))
    summary = records[-1]
    games = [r for r in records if r["type"] == "game"]
    (brk,) = summary["breaks"]
    assert (brk["compression"], brk["offset"], brk["length"], brk["text_read"]) == ("bzip2", at, len(streams[2]), 0)
    assert "text" not in brk
    assert summary["complete"] is False and len(text) - summary["bytes"] == 100_000
    assert summary["stream_error"].startswith(f"the bzip2 stream at byte {at} ({len(streams[2])} bytes) cannot be decoded (")
    assert_head_and_tail(games, whole)
    pytest.importorskip("pyarrow")
    with pytest.warns(UserWarning, match=rf"{len(games)} games read, {summary['lost']} games? lost: the bzip2 stream at byte {at} "):
        table = pocketfen.games_table(data)
    assert table.num_rows == len(games)


def bgzf_block(text):
    """A BGZF block of `text` (at most 64 KiB of it): a gzip member whose `BC` extra
    field gives its size less one."""
    import struct
    import zlib

    z = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = z.compress(text) + z.flush()
    size = 18 + len(body) + 8
    head = b"\x1f\x8b\x08\x04" + b"\0" * 4 + b"\x00\xff" + struct.pack("<HBBHH", 6, 66, 67, 2, size - 1)
    return head + body + struct.pack("<II", zlib.crc32(text), len(text))


def test_a_damaged_bgzf_block_loses_only_its_own_games():
    # BGZF, as pocketfen and htslib's bgzip write gzip: blocks of 65280 bytes of text;
    # the fifth damaged in its middle.
    text = (SAMPLES / "lichess_standard_2025-05_sample438.pgn").read_bytes() * 2
    pieces = [text[i : i + 65280] for i in range(0, len(text), 65280)]
    blocks = [bytearray(bgzf_block(p)) for p in pieces]
    assert len(blocks) >= 8
    k = 4
    mid = len(blocks[k]) // 2
    for i in range(mid, mid + 24):
        blocks[k][i] ^= 0x5A
    at = sum(map(len, blocks[:k]))
    data = b"".join(blocks)

    whole = [r for r in pocketfen.validate(text, all=True) if r["type"] == "game"]
    records = list(pocketfen.validate(data, all=True))
    summary = records[-1]
    games = [r for r in records if r["type"] == "game"]
    (brk,) = summary["breaks"]
    assert (brk["compression"], brk["offset"], brk["length"]) == ("gzip", at, len(blocks[k]))
    assert brk["text"] == {"by": "trailer", "bytes": 65280}
    # The damaged block's text is missing, and only that (a block's text is handed out
    # once its check passes).
    assert brk["text_read"] == 0 and len(text) - summary["bytes"] == 65280
    assert summary["stream_error"].startswith(f"the gzip member at byte {at} ({len(blocks[k])} bytes) cannot be decoded (")
    assert f"its text is lost (65280 bytes, as its trailer says); the text breaks at line {brk['line']}" in summary["stream_error"]
    assert_head_and_tail(games, whole)


def test_a_damaged_bzip2_block_loses_only_its_own_games():
    import bz2

    # One stream, as `bzip2 -1` writes it: a block for each 100 kB of text.
    text = (SAMPLES / "lichess_standard_2025-05_sample438.pgn").read_bytes() * 2
    data = bytearray(bz2.compress(text, 1))
    bits = bin(int.from_bytes(data, "big"))[2:].zfill(8 * len(data))
    magic = f"{0x314159265359:048b}"
    starts = []
    at = bits.find(magic)
    while at >= 0:
        starts.append(at)
        at = bits.find(magic, at + 1)
    assert len(starts) >= 10
    # The seventh block's start pointer set past any block's end: found before it gives
    # any text.
    k = 6
    for bit in range(starts[k] + 80, starts[k] + 104):
        data[bit // 8] |= 0x80 >> (bit % 8)

    whole = [r for r in pocketfen.validate(text, all=True) if r["type"] == "game"]
    records = list(pocketfen.validate(bytes(data), all=True))
    summary = records[-1]
    games = [r for r in records if r["type"] == "game"]
    (brk,) = summary["breaks"]
    offset, length = starts[k] // 8, -(-starts[k + 1] // 8) - starts[k] // 8
    assert (brk["compression"], brk["offset"], brk["length"], brk["stream"]) == ("bzip2", offset, length, 0)
    assert "text" not in brk
    # One block's text is missing: at most 100 kB, and most of it.
    assert 90_000 < len(text) - summary["bytes"] <= 100_000
    assert summary["stream_error"].startswith(f"the bzip2 block at byte {offset} ({length} bytes) of the stream at byte 0 cannot be decoded (")
    assert_head_and_tail(games, whole)
