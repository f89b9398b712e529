"""The documentation site builds with warnings as errors (mkdocs.yml: strict), its API
reference from the docstrings and its tutorial from the notebook."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT


def test_the_docs_site_builds_strictly(tmp_path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    api = (tmp_path / "site" / "api" / "index.html").read_text()
    for name in ("Puzzle", "decode", "Outcome", "Deadline", "Family", "Encodings"):
        assert name in api
    tutorial = (tmp_path / "site" / "tutorial" / "index.html").read_text()
    assert "Bring your own solver" in tutorial and "puzzle.decode" in tutorial
