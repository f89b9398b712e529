"""cnf_samples/ must be exactly what the code generates today."""

from __future__ import annotations

import json

from satdomino.export.dimacs import read_dimacs
from satdomino.export.samples import FOLDER, write_all


def test_samples_match_the_code(tmp_path) -> None:
    shipped = json.loads((FOLDER / "manifest.json").read_text())
    rebuilt = write_all(tmp_path)
    assert rebuilt == shipped
    assert {r["status"] for r in shipped} == {"SAT", "UNSAT"}


def test_shipped_files_hold_what_the_manifest_says() -> None:
    from satdomino.encode import CNF
    from satdomino.export.dimacs import clause_hash

    for row in json.loads((FOLDER / "manifest.json").read_text()):
        nv, clauses = read_dimacs(FOLDER / row["file"])
        assert (nv, len(clauses)) == (row["variables"], row["clauses"])
        assert clause_hash(CNF(nv, 0, clauses)) == row["sha256_clauses"]
