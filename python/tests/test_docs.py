"""The API reference in docs/python is what pdoc makes of the installed package now: a
docstring or signature changed without the reference rebuilt fails here."""

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import ROOT

DOCS = ROOT / "docs" / "python"
PAGES = ["index.html", "pocketfen.html"]


def test_the_api_reference_is_current(tmp_path):
    try:
        import pdoc  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI installs pdoc before the Python tests")
        pytest.skip("pdoc is not installed")
    out = subprocess.run(
        [sys.executable, "-m", "pdoc", "-o", str(tmp_path), "pocketfen"], capture_output=True, text=True
    )
    assert out.returncode == 0 and "Warn" not in out.stderr, out.stderr
    rebuild = "rebuild it: target/py-venv/bin/pdoc -o docs/python pocketfen"
    for page in PAGES:
        built = (tmp_path / page).read_text()
        kept = (DOCS / page).read_text()
        # PyO3 lists a class's properties in an order that changes from run to run: the
        # pages are compared line by line, in any order.
        assert sorted(built.splitlines()) == sorted(kept.splitlines()), f"docs/python/{page} is stale: {rebuild}"
    page = (DOCS / "pocketfen.html").read_text()
    import pocketfen

    for name in pocketfen.__all__:
        if name != "__version__":
            assert f'id="{name}"' in page, name
