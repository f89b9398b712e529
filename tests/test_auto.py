"""``auto``: which configuration each family and size gets, that what a user names wins, and
that it solves, verified, with no solver binary on PATH (what ``pip install`` alone gives)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from satdomino import Encodings, family, solve
from satdomino.analysis.count import count
from satdomino.auto import AUTO, FALLBACK, NATIVE, describe, setup
from satdomino.backends import get_backend, resolves
from satdomino.backends.sls import sls_built
from satdomino.cli import main
from satdomino.errors import UsageError
from satdomino.generators import planted
from satdomino.puzzles import FAMILIES

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PUZZLES = {"dominosa": planted(family("dominosa"), {"n": 12}, 1),
           "pips": planted(family("pips"), {"dominoes": 8}, 1),
           "dominofit": planted(family("dominofit"), {"width": 6, "height": 6}, 1),
           "doodlefit": planted(family("doodlefit"), {"cells": 20, "blocks": 4}, 1)}


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_the_rule_of_each_family(kind: str) -> None:
    rule = family(kind).rule(PUZZLES[kind])
    chosen = setup(PUZZLES[kind], family(kind), None, AUTO, None)
    first_here = next(b for b in rule.backends if resolves(b))
    assert chosen.picked and chosen.backend == first_here and chosen.model == rule.model
    assert chosen.encodings == Encodings(**rule.encodings)
    assert chosen.label == f"auto: {first_here}"


def test_the_rules_as_measured() -> None:
    """The choices docs/benchmarks.md justifies: Dominosa races MiniSat and the local search on
    pairwise clauses (from N = 100 on the model pruned by linear programming, and a second
    search takes MiniSat's core at 1 s), Domino Fit
    CaDiCaL on the sums as counts (racing HiGHS from 2,000 squares), Pips CaDiCaL, Doodle Fit
    dancing links (from 200 cells racing CaDiCaL on the cell owners, from 400 on commander
    clauses)."""
    assert [(r.size, r.backends[0]) for r in family("dominosa").auto] == [
        (0, "portfolio:minisat22+sls@0.02"),
        (100, "portfolio:minisat22@..1+sls@0.02+sls:seed=1@600")]
    assert [(r.model, r.encodings) for r in family("dominosa").auto] == [
        ("placement", {"amo": "pairwise"}), ("pruned", {"amo": "pairwise"})]
    assert [(r.size, r.model, r.backends) for r in family("dominofit").auto] == [
        (0, "counts", ("cadical195",)),
        (2000, "counts", ("portfolio:cadical195+highs", "cadical195"))]
    assert family("pips").auto[0].backends == ("cadical195",)
    assert [(r.size, r.model, r.encodings, r.backends) for r in family("doodlefit").auto] == [
        (0, "placement", {}, ("dlx", "minisat22")),
        (200, "cells", {"amo": "pairwise"}, ("portfolio:dlx+cadical195@0.5", "cadical195")),
        (400, "cells", {"amo": "commander"}, ("portfolio:dlx+cadical195@0.5", "cadical195"))]
    if sls_built():
        assert [r["backend"] for r in describe(FAMILIES.values())
                if r["family"] == "dominosa"] == [
            "portfolio:minisat22+sls@0.02", "portfolio:minisat22@..1+sls@0.02+sls:seed=1@600"]


def test_what_is_named_wins() -> None:
    board = PUZZLES["dominosa"]
    # a named backend: the rule is off, plain defaults for the rest
    named = setup(board, family("dominosa"), None, "cadical195", None)
    assert (named.backend, named.encodings, named.model, named.picked) == \
        ("cadical195", Encodings(), None, False)
    # a named encoding: auto still picks the backend, the rest of the rule stays
    amo = setup(board, family("dominosa"), None, AUTO, {"amo": "commander"})
    assert amo.encodings.amo == "commander" and amo.picked
    assert amo.backend == setup(board, family("dominosa"), None, AUTO, None).backend
    # a whole Encodings is every kind named
    whole = setup(board, family("dominosa"), "counted", AUTO, Encodings())
    assert whole.encodings == Encodings() and whole.model == "counted"
    # native encodings need a solver that takes them
    native = setup(board, family("dominosa"), None, AUTO, {"amo": "native"})
    assert native.backend == NATIVE
    get_backend(NATIVE).check(native.encodings)
    # counting enumerates with a complete, incremental solver
    assert setup(board, family("dominosa"), None, AUTO, None, task="count").backend == "minisat22"
    with pytest.raises(UsageError):
        setup(board, family("dominosa"), None, AUTO, {"amok": "pairwise"})
    with pytest.raises(UsageError):
        get_backend("auto")


def test_without_the_local_search_it_falls_back(monkeypatch) -> None:
    import satdomino.auto as auto

    monkeypatch.setattr(auto, "resolves", lambda name: "sls" not in name)
    chosen = setup(PUZZLES["dominosa"], family("dominosa"), None, AUTO, None)
    assert chosen.backend == family("dominosa").auto[0].backends[1]
    monkeypatch.setattr(auto, "resolves", lambda name: name == FALLBACK)
    big = planted(family("pips"), {"dominoes": 30}, 1)
    assert family("pips").rule(big).size == 30
    assert setup(big, family("pips"), None, AUTO, None).backend == FALLBACK


@pytest.mark.parametrize("kind", list(PUZZLES))
def test_auto_solves_and_counts_every_family(kind: str) -> None:
    puzzle, fam = PUZZLES[kind], family(kind)
    out = solve(puzzle, fam, unique=True)  # verified inside, or VerificationError
    assert out.status == "sat" and out.unique is not None
    assert out.stats["backend"].startswith("auto: ")
    assert count(puzzle, fam, limit=5).value >= 1


EXAMPLE_FILES = ["dominosa/double6.txt", "pips/planted-6-unique.json",
                 "dominofit/published-7x7.json", "doodlefit/planted-20.txt"]


@pytest.mark.parametrize("name", EXAMPLE_FILES)
def test_no_solver_binary_on_path(name: str, monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing to run from PATH at all
    assert main(["solve", str(EXAMPLES / name), "--unique", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "sat" and rec["unique"] is not None
    assert rec["stats"]["backend"].startswith("auto: ")
    encodings = rec["stats"]["encodings"]  # none for a backend that reads the model (dlx)
    assert set(encodings) >= {"amo", "card", "pb", "int"} or encodings == {"model": "native"}
    assert main(["solve", str(EXAMPLES / name)]) == 0
    text = capsys.readouterr().out
    assert "auto picked: model " in text and text.count("\n   auto picked:") == 1


def test_explicit_options_in_the_cli(capsys) -> None:
    double6 = str(EXAMPLES / "dominosa" / "double6.txt")
    assert main(["solve", double6, "--json", "--amo", "commander"]) == 0
    st = json.loads(capsys.readouterr().out)["stats"]
    assert st["encodings"]["amo"] == "commander" and st["backend"].startswith("auto: ")
    assert main(["solve", double6, "--json", "--backend", "glucose4"]) == 0
    st = json.loads(capsys.readouterr().out)["stats"]
    assert st["backend"] == "glucose4" and st["encodings"] == Encodings().as_dict()
    assert main(["solve", double6]) == 0
    assert "auto picked: model placement, amo=pairwise" in capsys.readouterr().out


def test_compare_without_a_backend_runs_auto_and_names_its_pick(tmp_path, capsys) -> None:
    import csv

    out = tmp_path / "runs.csv"
    assert main(["compare", "dominosa:n=8:seeds=1", "pips:dominoes=4", "-o", str(out),
                 "--no-progress", "--timeout", "30"]) == 0
    with out.open() as f:
        rows = {r["family"]: r for r in csv.DictReader(f)}
    picked = setup(PUZZLES["dominosa"], family("dominosa"), None, AUTO, None).backend
    assert rows["dominosa"]["backend"] == f"auto: {picked}"
    assert rows["dominosa"]["amo"] == "pairwise" and rows["dominosa"]["status"] == "sat"
    assert rows["pips"]["backend"] == "auto: cadical195" and rows["pips"]["verified"] == "yes"
