"""cnf_samples/ must be exactly what the code generates today."""

from __future__ import annotations

import json

import pytest

from satdomino.export.dimacs import gbd_hash_file, read_dimacs
from satdomino.export.samples import FOLDER, write_all


def test_samples_match_the_code(tmp_path) -> None:
    shipped = json.loads((FOLDER / "manifest.json").read_text())
    rebuilt = write_all(tmp_path)
    assert rebuilt == shipped
    for row in shipped:  # the maps too: decode must rebuild the same puzzle
        name = row["file"] + ".map.json"
        assert (tmp_path / name).read_text() == (FOLDER / name).read_text()
    assert {r["status"] for r in shipped} == {"SATISFIABLE", "UNSATISFIABLE"}
    assert {r["family"] for r in shipped} == {"dominosa", "pips", "dominofit", "doodlefit"}


def test_shipped_files_hold_what_the_manifest_says() -> None:
    for row in json.loads((FOLDER / "manifest.json").read_text()):
        nv, clauses = read_dimacs(FOLDER / row["file"])
        assert (nv, len(clauses)) == (row["variables"], row["clauses"])
        assert gbd_hash_file(FOLDER / row["file"]) == row["hash"]


def test_hashes_agree_with_gbdc() -> None:
    gbdc = pytest.importorskip("gbdc")
    for row in json.loads((FOLDER / "manifest.json").read_text()):
        assert gbdc.gbdhash(str(FOLDER / row["file"])) == row["hash"]
