"""The package behaves as Python code does: Ctrl-C, the caller's exceptions, file objects
that misbehave, interpreter exit, OSErrors, threads, and what the module shows."""

import io
import itertools
import os
import pathlib
import resource
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import pocketfen
from conftest import GRAMMAR, SAMPLES

ILLEGAL_DROP = GRAMMAR / "pgn" / "err" / "illegal-drop.pgn"
STANDARD = SAMPLES / "lichess_standard_2025-05_sample438.pgn"
GAME = b'[Event "x"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n'


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def interrupt_after(seconds):
    """Sends this process SIGINT after `seconds`, as Ctrl-C in a terminal does; returns
    the time it was sent at (a list filled in by the timer)."""
    sent = []

    def fire():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(seconds, fire)
    timer.start()
    return timer, sent


def iterate_until_ctrl_c(records, after=0.3):
    """Iterates `records` until the SIGINT sent `after` seconds in raises
    KeyboardInterrupt: how long after the signal it came."""
    timer, sent = interrupt_after(after)
    with pytest.raises(KeyboardInterrupt):
        for _ in records:
            pass
    raised = time.monotonic()
    timer.join()
    return raised - sent[0]


class Endless(io.RawIOBase):
    """A stream of legal games that never ends, a little at a time (a slow pipe)."""

    def readable(self):
        return True

    def readinto(self, b):
        time.sleep(0.002)
        n = min(len(b), len(GAME))
        b[:n] = GAME[:n]
        return n


# 1. Ctrl-C works everywhere.


@pytest.mark.parametrize("jobs", [1, 2])
def test_ctrl_c_interrupts_iteration_at_once_and_the_rest_comes_after(jobs):
    records = pocketfen.validate(Endless(), all=True, jobs=jobs)
    first = next(records)
    assert first["type"] == "game"
    late = iterate_until_ctrl_c(records)
    assert late < 0.25, f"KeyboardInterrupt came {late:.2f} s after the signal"
    # The run was stopped: going on gives the games already read, then a summary that
    # says it was interrupted, and the end. (A signal is handled in the iterator's own
    # waits, nearly always; one that lands in the caller's loop leaves the run running,
    # as it would a generator: the bound keeps this test from waiting on it forever.)
    rest = list(itertools.islice(records, 5000))
    assert rest[-1]["type"] == "summary"
    assert rest[-1]["interrupted"] is True and rest[-1]["complete"] is False
    assert all(r["type"] == "game" for r in rest[:-1])


def test_ctrl_c_interrupts_validation_of_bytes_in_the_native_code():
    # Enough work for many seconds at one job; the interrupt must not wait for it.
    data = STANDARD.read_bytes() * 200
    records = pocketfen.validate(data, jobs=1, all=True)
    timer, sent = interrupt_after(0.3)
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        for _ in records:
            pass
    raised = time.monotonic()
    timer.join()
    assert raised - sent[0] < 0.25
    assert raised - start < 2.0


def test_ctrl_c_stops_perft_and_its_native_thread():
    timer, sent = interrupt_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        pocketfen.Position().perft(9)
    raised = time.monotonic()
    timer.join()
    assert raised - sent[0] < 0.25
    # The count stopped with the exception: no CPU is spent on it afterwards.
    before = cpu_seconds()
    time.sleep(0.5)
    assert cpu_seconds() - before < 0.1
    assert pocketfen.Position().perft(4) == 197281


# 2. Exceptions from the caller's file object come out unchanged, after the games read.


class RaisesAfter(io.RawIOBase):
    def __init__(self, data, exc):
        self.data, self.exc = data, exc

    def readable(self):
        return True

    def read(self, n=-1):
        if not self.data:
            raise self.exc
        chunk, self.data = self.data[: max(n, 1)], self.data[max(n, 1) :]
        return chunk


class Custom(Exception):
    pass


@pytest.mark.parametrize("exc", [Custom("from read()"), KeyboardInterrupt(), OSError(5, "Input/output error")])
@pytest.mark.parametrize("jobs", [1, 2])
def test_the_file_objects_exception_propagates_unchanged_after_the_games_read(exc, jobs):
    stream = RaisesAfter(GAME * 3 + ILLEGAL_DROP.read_bytes() + b"\n\n", exc)
    seen = []
    with pytest.raises(type(exc)) as info:
        for r in pocketfen.validate(stream, all=True, jobs=jobs):
            seen.append(r)
    assert info.value is exc
    # All four games were read before the exception, the last one illegal: all validated.
    assert [r["game"] for r in seen] == [1, 2, 3, 4]
    assert seen[-1]["status"] == "illegal"
    # replay and convert_pgn too.
    for run in (pocketfen.replay, lambda s: pocketfen.convert_pgn(s, "xboard")):
        stream = RaisesAfter(GAME * 2, exc)
        got = []
        with pytest.raises(type(exc)) as info:
            for g in run(stream):
                got.append(g)
        assert info.value is exc and len(got) == 2


def test_close_and_with_stop_the_run():
    records = pocketfen.validate(Endless(), all=True)
    next(records)
    records.close()
    assert list(records) == []
    with pocketfen.replay(Endless(), jobs=2) as games:
        assert next(games)[0] == 1
    assert list(games) == []


def test_an_exception_on_the_first_read_comes_with_the_first_item():
    records = pocketfen.validate(RaisesAfter(b"", Custom()))
    with pytest.raises(Custom):
        next(records)
    assert list(records) == []


LIVE_SCRIPT = textwrap.dedent(
    """
    import sys, pocketfen
    for r in pocketfen.validate(sys.stdin.buffer, all=True, jobs=1):
        print(r["type"], r.get("game"), flush=True)
    """
)


def test_games_from_a_slow_pipe_come_as_they_arrive():
    proc = subprocess.Popen([sys.executable, "-c", LIVE_SCRIPT], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        # One game, and the first line of the next: the first is complete, and its
        # record comes while the pipe stays open.
        proc.stdin.write(GAME + b'[Event "y"]\n')
        proc.stdin.flush()
        assert proc.stdout.readline() == b"game 1\n"
        proc.stdin.write(b"\n1. d4 *\n")
        proc.stdin.close()
        assert proc.stdout.read().splitlines() == [b"game 2", b"summary None"]
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()


def test_ctrl_c_and_exit_with_a_read_that_never_returns():
    # stdin is a pipe nobody writes to: the read blocks. SIGINT ends the program, which
    # exits without hanging on that read.
    proc = subprocess.Popen([sys.executable, "-c", LIVE_SCRIPT], stdin=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        start = time.monotonic()
        _, err = proc.communicate(timeout=20)
        assert time.monotonic() - start < 5
        assert b"KeyboardInterrupt" in err and b"panicked" not in err and b"Fatal" not in err, err
    finally:
        proc.kill()


def test_a_stop_iteration_from_read_is_a_runtime_error_not_an_end():
    # As a generator's (PEP 479): the run must not look finished when it was cut short.
    stop = StopIteration()
    records = pocketfen.validate(RaisesAfter(GAME * 3, stop), all=True)
    seen = []
    with pytest.raises(RuntimeError, match="raised StopIteration") as info:
        for r in records:
            seen.append(r)
    assert info.value.__cause__ is stop and len(seen) == 3


def test_a_read_may_return_a_memoryview_or_bytearray():
    for kind in (memoryview, bytearray):
        class Views(io.RawIOBase):
            def __init__(self):
                self.data = GAME * 50

            def readable(self):
                return True

            def read(self, n=-1):
                chunk, self.data = self.data[:100], self.data[100:]
                return kind(chunk)

        assert list(pocketfen.validate(Views()))[-1]["games"] == 50, kind


# 3. A read(n) that gives more than n bytes.


class Generous(io.RawIOBase):
    """Returns a megabyte whatever it is asked for."""

    def __init__(self, data):
        self.data = data

    def readable(self):
        return True

    def read(self, n=-1):
        chunk, self.data = self.data[: 1 << 20], self.data[1 << 20 :]
        return chunk


def test_every_byte_a_generous_read_returns_is_used():
    data = GAME * 20000
    summary = list(pocketfen.validate(Generous(data)))[-1]
    assert (summary["games"], summary["bytes"], summary["complete"]) == (20000, len(data), True)
    plies = [n for n, _ in pocketfen.replay(Generous(data), emit="uci")]
    assert len(plies) == 20000


# 4. Interpreter exit with a live iterator.

EXIT_SCRIPT = textwrap.dedent(
    """
    import io, sys, time, pocketfen
    class Slow(io.RawIOBase):
        def readable(self): return True
        def readinto(self, b):
            time.sleep(0.001)
            data = b'[Event "x"]\\n\\n1. e4 e5 1-0\\n\\n'
            b[:len(data)] = data
            return len(data)
    kind = sys.argv[1]
    if kind == "file":
        it = pocketfen.validate(open(sys.argv[2], "rb"), all=True, jobs=2)
    elif kind == "slow":
        it = pocketfen.validate(Slow(), all=True, jobs=int(sys.argv[2]))
    else:
        it = pocketfen.replay(Slow(), jobs=2)
    next(it)
    if sys.argv[-1] == "exit":
        sys.exit(0)
    """
)


DAEMON_SCRIPT = textwrap.dedent(
    """
    import io, sys, threading, time, pocketfen
    class Slow(io.RawIOBase):
        def readable(self): return True
        def readinto(self, b):
            data = b'[Event "x"]\\n\\n1. e4 e5 1-0\\n\\n'
            b[:len(data)] = data
            return len(data)
    def validating():
        while True:
            for _ in pocketfen.validate(sys.argv[2]): pass
    def slow():
        while True:
            for _ in pocketfen.validate(Slow(), jobs=2): pass
    def perft():
        while True:
            pocketfen.Position().perft(4)
    target = {"validate": validating, "slow": slow, "perft": perft}[sys.argv[1]]
    for _ in range(2):
        threading.Thread(target=target, daemon=True).start()
    time.sleep(0.05)
    """
)


def test_exit_is_clean_while_daemon_threads_work_in_pocketfen():
    # A daemon thread is in the middle of pocketfen's work when the interpreter exits.
    for kind in ("validate", "slow", "perft"):
        for _ in range(8):
            out = subprocess.run(
                [sys.executable, "-c", DAEMON_SCRIPT, kind, str(STANDARD)], capture_output=True, timeout=60
            )
            assert (out.returncode, out.stderr.decode()[-300:]) == (0, ""), kind


IDLE_SCRIPT = textwrap.dedent(
    """
    import os, sys, threading, time, pocketfen
    kind = sys.argv[1]
    if kind == "stdin":
        it = pocketfen.validate(sys.stdin.buffer)
    elif kind == "pipe-daemon":
        r, w = os.pipe()
        f = os.fdopen(r, "rb")
        threading.Thread(target=lambda: list(pocketfen.validate(f)), daemon=True).start()
    elif kind == "closed":
        it = pocketfen.validate(sys.stdin.buffer, jobs=2)
        it.close()
    time.sleep(0.2)
    """
)


def test_exit_is_prompt_and_clean_with_a_pipe_that_never_gives_data():
    # The run waits for the pipe outside Python: exit neither waits for it nor crashes.
    for kind in ("stdin", "pipe-daemon", "closed"):
        proc = subprocess.Popen(
            [sys.executable, "-c", IDLE_SCRIPT, kind], stdin=subprocess.PIPE, stderr=subprocess.PIPE
        )
        start = time.monotonic()
        try:
            assert proc.wait(timeout=20) == 0, kind
            assert time.monotonic() - start < 3, kind
            assert proc.stderr.read() == b"", kind
        finally:
            proc.kill()


def test_exit_waits_for_a_read_in_progress_in_python_then_is_clean():
    # A file object's own read() is Python code: exit waits for it to return (as for a
    # thread of Python's), then ends cleanly.
    script = textwrap.dedent(
        """
        import io, time, pocketfen
        class Slow(io.RawIOBase):
            def readable(self): return True
            def read(self, n=-1):
                time.sleep(1.0)
                return b""
        it = pocketfen.validate(Slow())
        time.sleep(0.1)
        """
    )
    start = time.monotonic()
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=30)
    assert (out.returncode, out.stderr) == (0, b"")
    assert time.monotonic() - start >= 1.0


def test_the_interpreter_exits_cleanly_with_a_live_iterator(tmp_path):
    big = tmp_path / "big.pgn"
    big.write_bytes(STANDARD.read_bytes() * 20)
    cases = [["file", str(big)], ["slow", "1"], ["slow", "2"], ["replay"], ["slow", "2", "exit"]]
    for case in cases:
        for _ in range(4):
            out = subprocess.run([sys.executable, "-c", EXIT_SCRIPT, *case], capture_output=True, timeout=60)
            assert (out.returncode, out.stderr.decode()) == (0, ""), case


# 5. OSErrors as Python makes them; str sources; "-".


def test_a_missing_file_is_file_not_found_error_as_open_raises_it(tmp_path):
    missing = tmp_path / "missing.pgn"
    for call in (pocketfen.validate, pocketfen.replay, lambda s: pocketfen.convert_pgn(s, "lichess"),
                 lambda s: pocketfen.splits(s, 2), lambda s: pocketfen.validate(s, split="1/2")):
        for given in (str(missing), missing):
            with pytest.raises(FileNotFoundError) as info:
                call(given)
            e = info.value
            with pytest.raises(FileNotFoundError) as python:
                open(missing, "rb")
            assert (e.errno, e.strerror, e.filename) == (2, "No such file or directory", str(missing))
            assert str(e) == str(python.value)
    # A directory is walked as the command line walks it (issue 33.24); one with no
    # archive in it says so. A part is read of one file only.
    with pytest.raises(ValueError, match="a directory with no archive in it"):
        pocketfen.validate(str(tmp_path))
    with pytest.raises(IsADirectoryError) as info:
        pocketfen.validate(str(tmp_path), split="1/2")
    assert info.value.errno == 21 and info.value.filename == str(tmp_path)
    # As open(): an empty name is not found, a NUL byte is a ValueError.
    with pytest.raises(FileNotFoundError):
        pocketfen.validate("")
    for nul in ("a\0b.pgn", pathlib.Path("a\0b.pgn")):
        with pytest.raises(ValueError, match="embedded null byte"):
            pocketfen.validate(nul)

    class BytesPath:
        def __fspath__(self):
            return os.fsencode(str(missing))

    with pytest.raises(FileNotFoundError) as info:
        pocketfen.validate(BytesPath())
    assert info.value.filename == str(missing)


def test_pgn_text_given_as_a_str_is_a_type_error_that_says_to_pass_bytes():
    text = GAME.decode()
    for given in (text, text.strip(), "1. e4 e5 *"):
        with pytest.raises(TypeError, match=r"pass the text as bytes \(text.encode\(\)\)"):
            pocketfen.validate(given)
    assert list(pocketfen.validate(text.encode()))[-1]["games"] == 1
    with pytest.raises(TypeError, match="source is a path"):
        pocketfen.validate(42)


def test_dash_is_the_file_named_dash(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_bytes(ILLEGAL_DROP.read_bytes())
    for kwargs in ({}, {"split": "1/1"}):
        records = list(pocketfen.validate("-", **kwargs))
        assert records[0]["file"] == "-" and records[0]["status"] == "illegal", kwargs
    assert len(pocketfen.splits("-", 1)) == 1


# 6. Threads.


def test_play_from_another_thread_while_perft_runs():
    pos = pocketfen.Position()
    result = []
    worker = threading.Thread(target=lambda: result.append(pos.perft(6)))
    worker.start()
    played = 0
    while worker.is_alive() or played == 0:
        pos.play("e4")
        pos.pop()
        played += 1
    worker.join()
    assert result == [119060324] and played > 1


def test_positions_moves_and_pieces_pickle_as_python_chess_boards_do():
    import copy
    import pickle

    pos = pocketfen.Position(variant="crazyhouse", drop_mate=False)
    for m in ["e4", "d5", "exd5", "Qxd5", "Nc3", "Qa5", "P@e4"]:
        pos.play(m)
    back = pickle.loads(pickle.dumps(pos))
    assert back == pos and back.move_stack == pos.move_stack and back.variant == "crazyhouse"
    back.pop()
    assert back.fen() == "rnb1kbnr/ppp1pppp/8/q7/8/2N5/PPPP1PPP/R1BQKBNR/Pp w KQkq - 2 4"
    # drop_mate=False came along: a drop that mates stays illegal.
    mate_in_drop = pocketfen.Position("k7/8/1K6/8/8/8/8/8/Q w - - 0 1", variant="crazyhouse", drop_mate=False)
    assert not pickle.loads(pickle.dumps(mate_in_drop)).is_legal("Q@a7")
    assert mate_in_drop.copy().is_legal("Q@d5") and not copy.deepcopy(mate_in_drop).is_legal("Q@a7")
    checkmate = pocketfen.Termination.CHECKMATE
    for obj in (pocketfen.Move.from_uci("N@d5"), pocketfen.Move.from_uci("e7e8q"), pocketfen.Piece.from_symbol("q"),
                checkmate, pocketfen.Outcome(checkmate, False), pocketfen.Outcome(pocketfen.Termination.STALEMATE, None)):
        assert pickle.loads(pickle.dumps(obj)) == obj


# 7. What the module shows.


def test_the_module_has_a_docstring_and_no_internal_module():
    assert pocketfen.__doc__ and pocketfen.__doc__.startswith("pocketfen: FEN dialects")
    assert not any(isinstance(v, type(pocketfen)) for v in vars(pocketfen).values())
    public = [n for n in dir(pocketfen) if not n.startswith("_")]
    assert sorted(public) == sorted(n for n in pocketfen.__all__ if not n.startswith("_"))
    # The record types exist at run time too, for annotations and isinstance-free use.
    from pocketfen import GameRecord, Record, SummaryRecord  # noqa: F401

    assert "result_reading" not in GameRecord.__required_keys__
    assert {"games", "complete"} <= SummaryRecord.__required_keys__
    for name in public:
        obj = getattr(pocketfen, name)
        if not (callable(obj) or isinstance(obj, type)) or name in ("Dialect", "DropStyle", "Emit", "Record", "Source", "Split", "Target", "VariantName"):
            continue  # an alias of typing's, documented where it is defined
        assert obj.__doc__, name
        if isinstance(obj, type):
            assert obj.__module__ == "pocketfen", name


def test_the_stub_matches_the_module():
    stub = pathlib.Path(pocketfen.__file__).with_name("__init__.pyi")
    assert stub.exists() and (stub.parent / "py.typed").exists()
    text = stub.read_text()
    for name in pocketfen.__all__:
        if name != "__version__":
            assert f"def {name}(" in text or f"class {name}" in text or f"\n{name} = " in text, name
    for name in dir(pocketfen.Position):
        if not name.startswith("_"):
            assert f"def {name}(" in text, name
    import ast

    # The records are written twice, for run time and in the stub (which shadows the
    # package for type checkers): their keys, and which are required, are the same.
    tree = ast.parse(text)
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and any(getattr(b, "id", "") == "TypedDict" for b in node.bases):
            runtime = getattr(pocketfen, node.name)
            fields = {f.target.id: ast.unparse(f.annotation) for f in node.body if isinstance(f, ast.AnnAssign)}
            assert set(fields) == set(runtime.__annotations__), node.name
            optional = {k for k, a in fields.items() if a.startswith("NotRequired[")}
            assert optional == set(runtime.__optional_keys__), node.name
    # Where the stub has a docstring (the reference shows it), it is the module's.
    for node in ast.parse(text).body:
        if isinstance(node, ast.ClassDef) and hasattr(pocketfen, node.name):
            doc = ast.get_docstring(node)
            if doc is not None:
                assert doc.split() == getattr(pocketfen, node.name).__doc__.split(), node.name


# Hostile input, directories and forks (issue 33).


def test_ctrl_c_stops_the_native_thread_inside_a_hostile_game(tmp_path):
    # Tag lines, each after a blank line, and no movetext: one game, split in quadratic
    # time once (minutes for this size). Now it is read in linear time; with the file
    # repeated it still takes seconds, and Ctrl-C stops the run's thread inside the game.
    hostile = tmp_path / "hostile.pgn"
    line = "".join(f'[T{i} "v"]\n\n' for i in range(400_000))
    hostile.write_text(line * 8)
    records = pocketfen.validate(hostile, jobs=1)
    assert iterate_until_ctrl_c(records) < 0.25
    # The promise is a stop within a second: the game in hand may finish its checks (about
    # 0.1 s of CPU here), then the thread must be idle. Before the fix it ran for minutes.
    time.sleep(1.0)
    before = cpu_seconds()
    time.sleep(0.5)
    assert cpu_seconds() - before < 0.05, "the run's thread went on after Ctrl-C"
    rest = list(records)
    assert rest[-1]["type"] == "summary" and rest[-1]["interrupted"] is True


def test_a_directory_is_read_as_the_command_line_reads_it(tmp_path):
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.pgn").write_bytes(ILLEGAL_DROP.read_bytes())
    (tmp_path / "a.pgn").write_bytes(GAME)
    (tmp_path / ".hidden.pgn").write_bytes(ILLEGAL_DROP.read_bytes())
    (tmp_path / "notes.txt").write_text("not an archive")
    summaries = [r for r in pocketfen.validate(tmp_path) if r["type"] == "summary"]
    assert [s["file"] for s in summaries] == [str(tmp_path / "a.pgn"), str(tmp_path / "b" / "z.pgn")]
    cli = subprocess.run(
        [str(pathlib.Path(__file__).parents[2] / "target" / "debug" / "pocketfen"), "validate", "--json", "-q", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    if cli.returncode != 127 and cli.stdout:
        import json

        files = [json.loads(l)["file"] for l in cli.stdout.splitlines() if '"summary"' in l]
        assert files == [s["file"] for s in summaries]
    assert [g for g, _ in pocketfen.replay(tmp_path)] == [1, 1]


def test_a_child_forked_while_a_thread_waits_in_an_iterator_exits_normally():
    # A thread of the parent waits in a pocketfen iterator on a pipe that gives nothing;
    # the child forked then has no such thread, exits with its own code, and an iterator
    # it inherited says it cannot be iterated there.
    script = textwrap.dedent(
        """
        import os, sys, threading, time
        import pocketfen
        r, w = os.pipe()
        records = pocketfen.validate(os.fdopen(r, "rb"), jobs=1)
        waiting = threading.Thread(target=lambda: list(records), daemon=True)
        waiting.start()
        time.sleep(0.3)
        pid = os.fork()
        if pid == 0:
            try:
                next(records)
                code = 3
            except RuntimeError as e:
                code = 7 if "before a fork" in str(e) else 4
            sys.exit(code)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        os.close(w)
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "child 7" in done.stdout, done.stdout + done.stderr
