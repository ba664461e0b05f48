"""Shared paths and helpers of the pocketfen Python tests."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GRAMMAR = ROOT / "grammar-tests"
SAMPLES = ROOT / "samples"


def cli():
    """The pocketfen binary of this checkout (built by `cargo build`), or None."""
    for profile in ("debug", "release"):
        exe = ROOT / "target" / profile / "pocketfen"
        if exe.exists():
            return exe
    return None


@pytest.fixture
def pocketfen_cli():
    exe = cli()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("CI builds target/debug/pocketfen before the Python tests")
        pytest.skip("no pocketfen binary in target/: run `cargo build` first")
    return exe


def run_cli(exe, *args, stdin=None):
    return subprocess.run([str(exe), *map(str, args)], input=stdin, capture_output=True)
