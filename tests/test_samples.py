"""cnf_samples/ must be exactly what the code generates today."""

from __future__ import annotations

import json

import pytest

from satdomino.export.dimacs import gbd_hash_file, read_dimacs
from satdomino.generators.samples import FOLDER, write_all


@pytest.mark.slow  # the slow tier: python -m pytest -m slow
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


@pytest.mark.slow  # the slow tier: python -m pytest -m slow
def test_shipped_files_count_as_the_manifest_says() -> None:
    """Each file is a projected counting instance: its ``c p show`` line and Ganak give the
    manifest's count (distinct solutions, one fewer for a uniqueness instance)."""
    pyganak = pytest.importorskip("pyganak")
    from satdomino.fileio import open_text

    for row in json.loads((FOLDER / "manifest.json").read_text()):
        if row["count"] > 10**9:  # Pips's 1e11 takes Ganak minutes; the race's dp has it
            continue
        with open_text(FOLDER / row["file"]) as f:
            shows = [line.split()[3:-1] for line in f if line.startswith("c p show ")]
        assert len(shows) == 1, row["file"]
        nv, clauses = read_dimacs(FOLDER / row["file"])
        counter = pyganak.Counter()
        counter.new_vars(nv)
        counter.add_clauses(clauses)
        counter.set_sampling_set([int(x) for x in shows[0]])
        assert int(counter.count()) == row["count"], row["file"]
