"""Issue 25.4: parts of an archive read on their own (`split=`), their records merged,
and a validation run as Dask tasks on a local cluster of two worker processes."""

import importlib.util
import io
import shutil
import subprocess

import pytest

import pocketfen

from conftest import ROOT, SAMPLES, run_cli


def archive_text(megabytes):
    """Some megabytes of standard and crazyhouse games, numbered by an Event tag, with
    an illegal drop now and then."""
    parts = [
        (SAMPLES / "lichess_standard_2025-05_sample438.pgn").read_text(),
        (SAMPLES / "cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn").read_text(),
        '[Variant "Crazyhouse"]\n\n1. e4 d5 2. exd5 Qxd5 3. Q@e4 *\n\n',
    ]
    out, size, i = [], 0, 0
    while size < megabytes * 1_000_000:
        for p in parts:
            text = f'[Event "copy {i}"]\n{p}\n\n'
            out.append(text)
            size += len(text)
        i += 1
    return "".join(out).encode()


def untimed(records):
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


@pytest.fixture(scope="module")
def archive(tmp_path_factory):
    path = tmp_path_factory.mktemp("split") / "games.pgn"
    path.write_bytes(archive_text(4))
    return path


def parts_of(source, n, **kw):
    return [list(pocketfen.validate(source, split=s["split"], jobs=1, **kw))
            for s in pocketfen.splits(source, n)]


@pytest.mark.parametrize("n", [1, 3, 7])
def test_merged_parts_equal_one_run(archive, n):
    single = list(pocketfen.validate(archive, all=True))
    parts = parts_of(str(archive), n, all=True)
    assert all(p[-1]["split"]["of"] == n for p in parts)
    assert sum(p[-1]["games"] for p in parts) == single[-1]["games"]
    assert untimed(pocketfen.merge(parts)) == untimed(single)


def test_parts_of_file_objects_and_bytes(archive):
    single = untimed(pocketfen.validate(archive))
    with open(archive, "rb") as f:
        ranges = pocketfen.splits(f, 4)
        parts = [list(pocketfen.validate(f, split=(r["part"], r["of"]))) for r in ranges]
    assert [r["split"] for r in ranges] == ["1/4", "2/4", "3/4", "4/4"]
    assert ranges[0]["start"] == 0 and ranges[-1]["end"] == archive.stat().st_size
    assert [r["end"] for r in ranges[:-1]] == [r["start"] for r in ranges[1:]]
    merged = untimed(pocketfen.merge(parts))
    # The file object's records carry its name, the path's the path.
    assert [{**r, "file": "x"} for r in merged] == [{**r, "file": "x"} for r in single]
    data = archive.read_bytes()
    parts = [list(pocketfen.validate(data, split=s)) for s in pocketfen.splits(data, 3)]
    assert untimed(pocketfen.merge(parts))[-1]["games"] == single[-1]["games"]
    texts = ["".join(pocketfen.convert_pgn(archive, "lichess", split=f"{k}/3")) for k in (1, 2, 3)]
    assert "".join(texts) == "".join(pocketfen.convert_pgn(archive, "lichess"))


def test_parts_that_do_not_fit_are_refused(archive, tmp_path):
    parts = parts_of(archive, 3)
    # Parts given in any order are merged in theirs; twice or missing, refused.
    assert pocketfen.merge([parts[2], parts[0], parts[1]]) == pocketfen.merge(parts)
    with pytest.raises(ValueError, match="part 3 given: it is part 2, as part 2 given is: each part once"):
        pocketfen.merge([parts[0], parts[1], parts[1]])
    with pytest.raises(ValueError, match=r"split into 3 parts, and 2 are given \(missing: 3\)"):
        pocketfen.merge(parts[:2])
    with pytest.raises(ValueError, match="other options"):
        strict = list(pocketfen.validate(archive, split="2/3", strict=True))
        pocketfen.merge([parts[0], strict, parts[2]])
    other = tmp_path / "other.pgn"
    shutil.copy(archive, other)
    with pytest.raises(ValueError, match="not of"):
        pocketfen.merge([parts[0], list(pocketfen.validate(other, split="2/3")), parts[2]])
    with pytest.raises(ValueError, match="has no summary record"):
        pocketfen.merge([parts[0], parts[1][:-1], parts[2]])
    with pytest.raises(ValueError, match="there is no part 4 of 3"):
        pocketfen.validate(archive, split="4/3")
    with pytest.raises(TypeError, match="seek"):
        pocketfen.validate(io.BufferedReader(NoSeek(archive.read_bytes())), split="1/2")


class NoSeek(io.RawIOBase):
    """A stream that cannot seek."""

    def __init__(self, data):
        self.data = io.BytesIO(data)

    def readable(self):
        return True

    def seekable(self):
        return False

    def readinto(self, b):
        return self.data.readinto(b)


def test_one_stream_files_are_refused_and_frames_split(archive, tmp_path, pocketfen_cli):
    if shutil.which("zstd") is None:
        pytest.skip("zstd is needed (Debian package zstd; .ci/run installs it)")
    one = tmp_path / "one.pgn.zst"
    subprocess.run(["zstd", "-q", "-3", str(archive), "-o", str(one)], check=True)
    with pytest.raises(ValueError, match="one zstd frame.*pzstd"):
        pocketfen.splits(one, 4)
    # Over 4 MiB of text: pocketfen writes frames of 4 MiB each.
    big = tmp_path / "big.pgn"
    big.write_bytes(archive_text(10))
    archive = big
    framed = tmp_path / "framed.pgn.zst"
    out = run_cli(pocketfen_cli, "pgn", "convert", "-q", "--to", "lichess", "--level", "1",
                  "--keep-broken", "-o", framed, archive)
    # Exit 1: the illegal games are kept, as they were, and reported.
    assert out.returncode == 1 and framed.stat().st_size > 0, out.stderr
    single = untimed(pocketfen.validate(framed, all=True))
    assert untimed(pocketfen.merge(parts_of(framed, 3, all=True))) == untimed(single)


def load_example():
    spec = importlib.util.spec_from_file_location(
        "dask_validate", ROOT / "examples" / "dask_validate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_dask_local_cluster_validates_in_parts(tmp_path):
    pytest.importorskip("distributed", reason="dask[distributed] (.ci/run installs it)")
    path = tmp_path / "big.pgn"
    path.write_bytes(archive_text(30))
    example = load_example()
    merged = example.run(str(path), 6)
    single = list(pocketfen.validate(path))
    assert untimed(merged) == untimed(single)
    # One illegal game in each copy of the samples.
    assert merged[-1]["games"] > 10_000 and merged[-1]["illegal_games"] >= 20
    assert example.main([str(path), "4"]) == 0


def test_fsspec_files_split_as_object_storage_would(archive):
    fsspec = pytest.importorskip("fsspec", reason="fsspec (a dependency of dask)")
    fs = fsspec.filesystem("memory")
    with fs.open("/bucket/games.pgn", "wb") as f:
        f.write(archive.read_bytes())
    url = "memory://bucket/games.pgn"
    ranges = pocketfen.splits(fsspec.open(url, "rb").open(), 5)
    # Each part opens the file itself, as a worker of a cluster would.
    parts = [list(pocketfen.validate(fsspec.open(url, "rb").open(), split=r, all=True))
             for r in ranges]
    assert {p[-1]["file"] for p in parts} == {"/bucket/games.pgn"}
    merged = untimed(pocketfen.merge(parts))
    single = untimed(pocketfen.validate(archive, all=True))
    assert [{**r, "file": "x"} for r in merged] == [{**r, "file": "x"} for r in single]
