#!/usr/bin/env python3
"""The tables' speed and memory, pocketfen against itself and two peers, in one run.

    cargo build --release
    target/py-venv/bin/pip install pyarrow chess rust-pgn-reader-python-binding
    target/py-venv/bin/python benches/tables.py            # 100 MB of mixed games
    target/py-venv/bin/python benches/tables.py --mb 1024  # the memory row on 1 GB

A mixed archive (the samples' standard, crazyhouse and horde games, repeated to the size
asked) is read by whole processes of the release binary, one core (`-j 1`), user + system
CPU time from `wait4`, the median of three interleaved rounds, and the ratios printed
beside their targets (docs/PERFORMANCE.md):

- `export --games` against `validate` (target >= 0.8), `--plies` (>= 0.5), `--plies
  --fen` (>= 0.3), and `export --games --compression snappy`;
- the bound that zstd sets: the same tables written uncompressed, so that zstd's cost
  (zstd's time less the uncompressed one's) is measured; were everything but `validate`
  and zstd free, the ratio would be `validate / (validate + zstd's cost)`;
- `validate` of the games table (zstd, snappy and uncompressed) against `validate` of
  the same games as PGN (>= 1.0);
- peak RSS of `export --games --plies -j 2` (target: under 256 MB for 1 GB);
- the peers, on the standard games alone (they read no variant): python-chess reading
  the PGN into a pyarrow table, the usual pipeline (pocketfen's `export --games` should
  be >= 100 x faster), and rust-pgn-reader-python-binding parsing the Parquet
  `movetext` column on one thread (it parses and plays the moves without reporting
  illegal ones; the ratio is reported).
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
STANDARD = SAMPLES / "lichess_standard_2025-05_sample438.pgn"
MIXED = [
    STANDARD,
    SAMPLES / "cutechess_zh_2019_CrazyAra-vs-Stockfish.pgn",
    SAMPLES / "lichess_zh_2018_JannLee-CrazyAra.pgn",
    SAMPLES / "lichess_zh_2017_knightvuillaume-JannLee.pgn",
    SAMPLES / "lichess_horde_2022_Daymon_Rivera-pripredi.pgn",
]


def build(path, sources, megabytes):
    """`sources` repeated into `path` up to `megabytes`; its size."""
    unit = b"".join(p.read_bytes().rstrip() + b"\n\n" for p in sources)
    with open(path, "wb") as f:
        written = 0
        while written < megabytes << 20:
            f.write(unit)
            written += len(unit)
    return written


def run(args):
    """CPU seconds (user + system), wall seconds and peak RSS in MB of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode()
    proc.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        sys.exit(f"{' '.join(map(str, args))}: exit {code}: {err}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


def medians(commands, rounds=3):
    """Each command's median CPU time, median wall time and largest RSS, the commands
    interleaved."""
    times = {name: [] for name in commands}
    walls = {name: [] for name in commands}
    rss = {name: 0.0 for name in commands}
    for _ in range(rounds):
        for name, args in commands.items():
            t, w, m = run(args)
            times[name].append(t)
            walls[name].append(w)
            rss[name] = max(rss[name], m)
    med = lambda d: {name: statistics.median(v) for name, v in d.items()}
    return med(times), med(walls), rss


def python_chess_table(pgn_path, out_path):
    """The usual pipeline: python-chess reads each game, its tags and moves go into a
    pyarrow table written to Parquet. CPU seconds."""
    import chess.pgn
    import pyarrow as pa
    import pyarrow.parquet as pq

    start = time.process_time()
    rows = {k: [] for k in ("Event", "Site", "White", "Black", "Result", "WhiteElo", "BlackElo", "movetext")}
    with open(pgn_path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            for k in rows:
                if k != "movetext":
                    rows[k].append(game.headers.get(k))
            board = game.board()
            sans = []
            for move in game.mainline_moves():
                sans.append(board.san(move))
                board.push(move)
            rows["movetext"].append(" ".join(sans))
    pq.write_table(pa.table(rows), out_path)
    return time.process_time() - start


def pgn_reader_binding(parquet_path):
    """rust-pgn-reader-python-binding on the `movetext` column, one thread. CPU seconds."""
    import pyarrow.parquet as pq
    import rust_pgn_reader_python_binding as r

    column = pq.read_table(parquet_path, columns=["movetext"]).column("movetext")
    start = time.process_time()
    parsed = r.parse_games(column, num_threads=1)
    took = time.process_time() - start
    return took, parsed.num_games


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=int, default=100, help="size of the mixed archive (MB)")
    ap.add_argument("--peer-mb", type=int, default=8, help="size of the peers' standard archive (MB)")
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "pocketfen"))
    opts = ap.parse_args()
    bin = opts.bin
    if not pathlib.Path(bin).exists():
        sys.exit(f"{bin}: build it first (cargo build --release)")
    with tempfile.TemporaryDirectory(prefix="pocketfen-tables-") as tmp:
        tmp = pathlib.Path(tmp)
        mixed = tmp / "mixed.pgn"
        size = build(mixed, MIXED, opts.mb)
        games, plies, fens = tmp / "games.parquet", tmp / "plies.parquet", tmp / "fens.parquet"
        snappy = tmp / "snappy.parquet"
        bare, bare_fens = tmp / "bare.parquet", tmp / "bare-fens.parquet"
        commands = {
            "validate": [bin, "validate", "-q", "-j", "1", mixed],
            "export --games": [bin, "export", "-q", "-j", "1", "--games", games, mixed],
            "export --plies": [bin, "export", "-q", "-j", "1", "--plies", plies, mixed],
            "export --plies --fen": [bin, "export", "-q", "-j", "1", "--plies", fens, "--fen", mixed],
            "export --games, snappy": [bin, "export", "-q", "-j", "1", "--games", snappy, "--compression", "snappy", mixed],
            "export --games, none": [bin, "export", "-q", "-j", "1", "--games", bare, "--compression", "none", mixed],
            "export --plies --fen, none": [bin, "export", "-q", "-j", "1", "--plies", bare_fens, "--fen",
                                           "--compression", "none", mixed],
        }
        t, wall, rss = medians(commands)
        read, read_wall, _ = medians(
            {
                "validate PGN": [bin, "validate", "-q", "-j", "1", mixed],
                "validate table": [bin, "validate", "-q", "-j", "1", games],
                "validate table, snappy": [bin, "validate", "-q", "-j", "1", snappy],
                "validate table, none": [bin, "validate", "-q", "-j", "1", bare],
            }
        )
        _, _, memory = run([bin, "export", "-q", "-j", "2", "--games", games, "--plies", plies, mixed])
        print(f"mixed archive: {size / 1e6:.0f} MB; games table {games.stat().st_size / 1e6:.1f} MB, "
              f"plies table {plies.stat().st_size / 1e6:.1f} MB, with FENs {fens.stat().st_size / 1e6:.1f} MB")
        print("-j 1: one thread reads, replays and encodes the Parquet pages")
        print(f"{'':28}{'CPU s':>7}{'wall s':>8}{'MB/s':>7}{'x validate (CPU)':>18}{'(wall)':>8}{'target':>9}")
        targets = {"export --games": 0.8, "export --plies": 0.5, "export --plies --fen": 0.3,
                   "export --games, snappy": 0.8}
        for name, secs in t.items():
            target = f">= {targets[name]}" if name in targets else ""
            print(f"{name:28}{secs:7.2f}{wall[name]:8.2f}{size / 1e6 / wall[name]:7.1f}"
                  f"{t['validate'] / secs:18.2f}{wall['validate'] / wall[name]:8.2f}{target:>9}")
        print(f"{'validate, table vs PGN':28}{read['validate table']:7.2f}{read_wall['validate table']:8.2f}{'':7}"
              f"{read['validate PGN'] / read['validate table']:18.2f}"
              f"{read_wall['validate PGN'] / read_wall['validate table']:8.2f}{'>= 1.0':>9}")
        print(f"{'  the same, snappy':28}{read['validate table, snappy']:7.2f}{read_wall['validate table, snappy']:8.2f}{'':7}"
              f"{read['validate PGN'] / read['validate table, snappy']:18.2f}"
              f"{read_wall['validate PGN'] / read_wall['validate table, snappy']:8.2f}{'>= 1.0':>9}")
        print(f"{'  the same, uncompressed':28}{read['validate table, none']:7.2f}{read_wall['validate table, none']:8.2f}{'':7}"
              f"{read['validate PGN'] / read['validate table, none']:18.2f}"
              f"{read_wall['validate PGN'] / read_wall['validate table, none']:8.2f}{'':>9}")
        for table, plain in [("export --games", "export --games, none"), ("export --plies --fen", "export --plies --fen, none")]:
            cost = t[table] - t[plain]
            print(f"zstd's cost in {table}: {cost:.2f} s CPU; with all else free, "
                  f"{t['validate'] / (t['validate'] + cost):.2f} x validate (target >= {targets[table]})")
        print(f"snappy games table {snappy.stat().st_size / 1e6:.1f} MB")
        print(f"peak RSS, export --games --plies -j 2 on {size / 1e6:.0f} MB: {memory:.0f} MB (target < 256 MB for 1 GB)")

        # The peers, on standard games.
        standard = tmp / "standard.pgn"
        psize = build(standard, [STANDARD], opts.peer_mb)
        table = tmp / "standard.parquet"
        # pocketfen's side takes a tenth of a second: the median of five runs each.
        ours = statistics.median(run([bin, "export", "-q", "-j", "1", "--games", table, standard])[0]
                                 for _ in range(5))
        ours_read = statistics.median(run([bin, "validate", "-q", "-j", "1", table])[0] for _ in range(5))
        try:
            theirs = python_chess_table(standard, tmp / "python-chess.parquet")
            print(f"python-chess + pyarrow on {psize / 1e6:.0f} MB: {theirs:.1f} s, pocketfen export --games "
                  f"{ours:.2f} s: {theirs / ours:.0f} x faster (target >= 100)")
        except ImportError as e:
            print(f"python-chess + pyarrow: not installed ({e})")
        try:
            took, n = pgn_reader_binding(table)
            print(f"rust-pgn-reader-python-binding parse_games, 1 thread, {n} games: {took:.2f} s; "
                  f"pocketfen validate of the table {ours_read:.2f} s: {took / ours_read:.2f} x")
        except ImportError as e:
            print(f"rust-pgn-reader-python-binding: not installed ({e})")


if __name__ == "__main__":
    main()
