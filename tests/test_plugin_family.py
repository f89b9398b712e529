"""A family defined only in the tests (``rowtiling``), registered in one line, through every
command and the library, checked against a brute force: what adding a family takes."""

from __future__ import annotations

import csv
import dataclasses
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import satdomino
from satdomino.analysis.count import METHODS, count
from satdomino.backends import get_backend
from satdomino.cli import main
from satdomino.encode import CNF
from satdomino.export.dimacs import read_dimacs
from satdomino.puzzles import load_plugins, unregister

from .rowtiling import FAMILY, RowTiling, Tiling, verify


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    satdomino.register(FAMILY)  # the one line
    yield
    unregister(FAMILY.kind)


def brute(p: RowTiling) -> set[tuple]:
    """Every tiling that keeps the clues: each tiling of the board (the first open cell
    covered rightwards or downwards), kept when the rule checker passes it."""
    cells = [(r, c) for r in range(p.height) for c in range(p.width)]
    found: set[tuple] = set()

    def tile(covered: frozenset, pieces: list) -> None:
        u = next((c for c in cells if c not in covered), None)
        if u is None:
            sol = Tiling(tuple(sorted(pieces)))
            if not verify(p, sol):
                found.add(sol.pieces)
            return
        for v in ((u[0], u[1] + 1), (u[0] + 1, u[1])):
            if v[0] < p.height and v[1] < p.width and v not in covered:
                tile(covered | {u, v}, [*pieces, (u, v)])

    tile(frozenset(), [])
    return found


BOARDS = [RowTiling(4, (2, 0, 0, 2)), RowTiling(4, (1, 1, 1, 1)), RowTiling(3, (1, 1)),
          RowTiling(2, (0, 0, 1)), RowTiling(4, (2, 1, 2)), RowTiling(2, (1, 1, 1))]


@pytest.mark.parametrize("board", BOARDS)
def test_the_library_solves_and_counts_against_brute_force(board: RowTiling) -> None:
    [puzzle] = satdomino.parse(FAMILY.write(board))
    assert puzzle.kind == "rowtiling"
    truth = brute(board)
    out = puzzle.solve(unique=True)
    assert out.status == ("sat" if truth else "unsat")
    if truth:
        assert out.solution.pieces in truth and out.unique == (len(truth) == 1)
    assert puzzle.count().value == len(truth)
    for method in METHODS:  # each alone (this family has no exact counter of its own)
        if method != "dp":
            assert count(board, FAMILY, methods=(method,)).value == len(truth)


def write(tmp_path: Path, board: RowTiling) -> str:
    path = tmp_path / "board.json"
    path.write_text(FAMILY.write(board))
    return str(path)


def test_solve_unique_and_count_on_the_command_line(tmp_path, capsys) -> None:
    path = write(tmp_path, RowTiling(4, (1, 1, 1, 1)))
    assert main(["solve", path, "--unique", "--count", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["kind"] == "rowtiling" and rec["status"] == "sat"
    assert rec["count"] == len(brute(RowTiling(4, (1, 1, 1, 1)))) and rec["count_complete"]
    assert rec["unique"] is (rec["count"] == 1)
    assert main(["solve", path, "--kind", "rowtiling", "--svg", str(tmp_path / "t.svg")]) == 0
    assert "clues: 1 1 1 1" in capsys.readouterr().out
    assert (tmp_path / "t.svg").read_text().startswith("<svg")


def test_export_then_decode_an_outside_answer(tmp_path, capsys) -> None:
    board = RowTiling(4, (2, 0, 0, 2))
    path, cnf = write(tmp_path, board), str(tmp_path / "b.cnf")
    assert main(["export", path, "-o", cnf]) == 0
    capsys.readouterr()
    num_vars, clauses = read_dimacs(cnf)  # solved as an outside solver would
    true = get_backend("minisat22").solve(CNF(num_vars, num_vars, clauses)).true_vars
    answer = tmp_path / "answer.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(
        str(x if x in true else -x) for x in range(1, num_vars + 1)) + " 0\n")
    assert main(["decode", cnf, str(answer), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["kind"] == "rowtiling" and rec["status"] == "sat"
    assert [tuple(map(tuple, piece)) for piece in rec["solution"]["pieces"]] in [
        [tuple(map(tuple, piece)) for piece in tiling] for tiling in brute(board)]


def test_explain_and_hint(tmp_path, capsys) -> None:
    board = next(b for b in BOARDS if len(brute(b)) == 1)
    path = write(tmp_path, board)
    assert main(["explain", path, "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["complete"] and rec["steps"]
    assert all(step["placements"][0]["cells"] for step in rec["steps"])
    first = rec["steps"][0]["placements"]
    assert main(["hint", path, "--given", json.dumps(first), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["step"] is not None
    [puzzle] = satdomino.read(path)
    assert puzzle.explain().complete and puzzle.hint().steps


def test_generate_planted_and_unique(tmp_path, capsys) -> None:
    assert main(["generate", "rowtiling", "--width", "4", "--height", "4", "--seed", "3"]) == 0
    [puzzle] = satdomino.parse(capsys.readouterr().out)
    assert puzzle.solve().status == "sat"
    out = tmp_path / "u.json"
    assert main(["generate", "rowtiling", "--width", "4", "--height", "3", "--unique",
                 "-o", str(out)]) == 0
    assert "exactly one solution" in capsys.readouterr().err
    [puzzle] = satdomino.read(str(out))
    assert len(brute(puzzle.data)) == 1
    assert main(["generate", "rowtiling", "--width", "3", "--height", "3"]) == 2
    assert "even number of squares" in capsys.readouterr().err
    cnf = tmp_path / "g.cnf"
    assert main(["generate", "rowtiling", "--width", "4", "--height", "4", "-o", str(cnf)]) == 0
    assert "c family: rowtiling" in cnf.read_text()


def test_compare_over_files_and_a_generator_spec(tmp_path, capsys) -> None:
    path = write(tmp_path, RowTiling(4, (1, 1, 1, 1)))
    rows = tmp_path / "runs.csv"
    assert main(["compare", path, "rowtiling:width=4:height=4:seeds=2", "--backend",
                 "minisat22,glucose4", "-o", str(rows), "--no-progress",
                 "--timeout", "30"]) == 0
    with rows.open() as f:
        found = list(csv.DictReader(f))
    assert len(found) == 6 and {r["family"] for r in found} == {"rowtiling"}
    assert all(r["status"] == "sat" and r["verified"] == "yes" for r in found)
    capsys.readouterr()


def test_the_registry_refuses_a_kind_twice() -> None:
    satdomino.register(FAMILY)  # the same family again: nothing changes
    with pytest.raises(satdomino.SatDominoError, match="registered already"):
        satdomino.register(dataclasses.replace(FAMILY, title="another"))


def _cli(*args: str, families: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SATDOMINO_FAMILIES": families}
    return subprocess.run([sys.executable, "-m", "satdomino", *args], capture_output=True,
                          text=True, timeout=120, env=env, cwd=Path(__file__).parent.parent)


def test_the_command_line_takes_families_named_in_the_environment(tmp_path) -> None:
    path = write(tmp_path, RowTiling(4, (2, 1, 1)))
    p = _cli("solve", path, "--count", "--json", families="tests.rowtiling")
    row = json.loads(p.stdout)
    assert p.returncode == 0 and (row["kind"], row["count"]) == ("rowtiling", len(brute(
        RowTiling(4, (2, 1, 1))))), p.stderr
    # compare --memory runs each solve in a fresh interpreter: it loads the family too
    rows = tmp_path / "runs.csv"
    p = _cli("compare", path, "--backend", "minisat22", "--memory", "500", "-o", str(rows),
             "--no-progress", families="tests.rowtiling:FAMILY")
    with rows.open() as f:
        found = list(csv.DictReader(f))
    assert p.returncode == 0 and [r["status"] for r in found] == ["sat"], p.stderr
    for bad in ("tests.no_such_module", "tests.rowtiling:RowTiling", "tests.rowtiling:nothing"):
        p = _cli("solve", path, families=bad)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, p.stderr
        assert "SATDOMINO_FAMILIES" in p.stderr and "Traceback" not in p.stderr


def test_load_plugins_registers_once() -> None:
    unregister(FAMILY.kind)
    load_plugins(" tests.rowtiling , tests.rowtiling:FAMILY ")
    assert satdomino.family("rowtiling") is FAMILY
    with pytest.raises(satdomino.SatDominoError, match="not a satdomino Family"):
        load_plugins("tests.rowtiling:verify")
