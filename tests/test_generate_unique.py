"""Generators built unique (issue 31): each puzzle the framework calls unique is re-counted by
brute force, independent of SAT; the planted solution is in the output and passes the rule
checker; presets keep their sizes and bands; the CLI's --number, --difficulty all and
--scheduler."""

from __future__ import annotations

import json

import pytest

from satdomino import family
from satdomino import generators as gen
from satdomino.analysis.explain import CONTRADICTION, explain
from satdomino.analysis.explain import difficulty as difficulty_of
from satdomino.cli import main
from satdomino.family import Ask
from satdomino.puzzles import dominofit as F
from satdomino.puzzles import doodlefit as D
from satdomino.puzzles import pips as P
from satdomino.puzzles.pips import generate as pips_gen

from .pips_bruteforce import solutions as pips_solutions
from .test_dominofit import brute as fit_brute
from .test_doodlefit import brute as doodle_brute


def unique_board(width: int, height: int, seed: int):
    return F.unique_board(width, height, seed, Ask(unique=True))


def unique_puzzle(cells: int, blocks: int, seed: int):
    return D.unique_puzzle(cells, blocks, seed, Ask(unique=True))


def _grids(truth: set) -> set:
    out = set()
    for placement in truth:
        value = {}
        for (a, b), u, v in placement:
            value[u], value[v] = a, b
        out.add(frozenset(value.items()))
    return out


@pytest.mark.parametrize("unique_by", ["placement", "grid"])
def test_pips_built_unique_by_brute_force(unique_by: str) -> None:
    """Small unique Pips from the repair loop: brute force finds exactly one layout (or one
    pips grid), the planted one, and the puzzle's file carries it."""
    for seed in range(12):
        dominoes = 3 + seed % 4
        made = pips_gen.make(P.FAMILY, dominoes, seed, unique_by=unique_by)
        p = made.puzzle
        assert len(p.dominoes) == dominoes
        assert P.verify(p, made.solution) == [] and p.official == made.solution.pairs
        truth = pips_solutions(p)
        if unique_by == "placement":
            assert len(truth) == 1, (seed, len(truth))
        else:
            assert len(_grids(truth)) == 1, (seed, len(truth))
        assert P.from_nyt(P.to_nyt(p)).official == made.solution.pairs  # written and read


@pytest.mark.slow  # the slow tier: python -m pytest -m slow
def test_pips_presets_keep_their_sizes_and_bands() -> None:
    for difficulty, (low, high) in pips_gen.PRESETS.items():
        band = pips_gen.BANDS[difficulty]
        for seed in range(3 if difficulty == "hard" else 6):
            out = gen.made(P.FAMILY, {}, seed, unique=True, choices={"difficulty": difficulty})
            p = out.puzzle
            assert low <= len(p.dominoes) <= high
            assert len({tuple(sorted(d)) for d in p.dominoes}) == len(p.dominoes)  # no repeats
            assert family("pips").verify(p, out.solution) == []
            assert len(pips_solutions(p, limit=2)) == 1
            assert band.min_hard_steps <= out.hard_steps <= band.max_hard_steps
            # explain on the same puzzle reports what generate reported
            told = explain(p, family("pips"))
            hard = sum(s.level >= CONTRADICTION for s in told.steps)
            assert (hard, difficulty_of(told)[0]) == (out.hard_steps, out.grade), (difficulty, seed)
            assert max(s.level for s in told.steps) <= band.max_level


def test_domino_fit_and_doodle_fit_built_unique_by_brute_force() -> None:
    repaired = [0, 0]
    for seed in range(10):
        p, sol, fixes = unique_board(5 + seed % 2, 5 + seed // 2 % 2, seed)
        assert F.verify(p, sol) == [] and fit_brute(p) == {sol.pieces}
        q, qsol, changes = unique_puzzle(14 + seed, 4 + seed % 2, seed)
        assert D.verify(q, qsol) == []
        assert len(doodle_brute(q)) == 1
        repaired[0] += fixes > 0
        repaired[1] += changes > 0
    assert min(repaired) >= 2, repaired  # the repair loops did the work on some boards


def test_domino_fit_repairs_turn_pieces_black() -> None:
    # a 12x12 board planted with several solutions comes out unique after repairs
    planted, _ = F.planted(12, 12, 1)
    p, sol, repairs = unique_board(12, 12, 1)
    assert repairs > 0 and p.blacks > planted.blacks
    assert F.verify(p, sol) == []


def test_cli_number_difficulty_all_and_grid(tmp_path, capsys) -> None:
    out = tmp_path / "day.json"
    assert main(["generate", "pips", "--difficulty", "all", "--unique", "--seed", "4",
                 "--number", "2", "-o", str(out)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and all("easy: seed" in line and "hard: seed" in line for line in err)
    for k in (1, 2):
        day = json.loads((tmp_path / f"day-{k}.json").read_text())
        assert {"easy", "medium", "hard"} <= set(day) and day["generator"].startswith(
            "satdomino generate pips --difficulty all")
        parts = P.parse((tmp_path / f"day-{k}.json").read_text())
        assert [name for name, _ in parts] == ["easy", "medium", "hard"]
        for _, part in parts:
            assert len(pips_solutions(part, limit=2)) == 1
    assert main(["generate", "pips", "--dominoes", "4", "--unique", "--unique-by", "grid"]) == 0
    p = P.from_nyt(json.loads(capsys.readouterr().out))
    assert len(_grids(pips_solutions(p))) == 1
    assert main(["generate", "pips", "--dominoes", "4", "--number", "2"]) == 2
    assert "name them with -o" in capsys.readouterr().err
    assert main(["generate", "dominosa", "--n", "4", "--unique", "--number", "3"]) == 0
    ids = capsys.readouterr().out.split()
    assert len(ids) == 3 and len(set(ids)) == 3


def test_cli_generate_on_dask_matches_local(tmp_path, capsys) -> None:
    distributed = pytest.importorskip("distributed")
    local, remote = tmp_path / "l.json", tmp_path / "r.json"
    argv = ["generate", "pips", "--difficulty", "medium", "--unique", "--number", "3"]
    assert main([*argv, "-o", str(local)]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert main([*argv, "-o", str(remote), "--scheduler", cluster.scheduler_address]) == 0
    for k in (1, 2, 3):
        assert (tmp_path / f"l-{k}.json").read_text() == (tmp_path / f"r-{k}.json").read_text()
    capsys.readouterr()


def test_progress_shows_on_a_terminal_only(monkeypatch, capsys) -> None:
    import sys

    from satdomino.cli import generate as cli_generate

    assert cli_generate.terminal_progress("x") is None  # captured stderr: not a terminal
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    show = cli_generate.terminal_progress("generate pips seed 1")
    assert show is not None
    made = pips_gen.make(P.FAMILY, 9, 1, progress=show)
    err = capsys.readouterr().err
    assert err.startswith("\rgenerate pips seed 1: board 1, repair 0") and made.puzzle


def test_review_cases_max_pip_grid_bands_and_clues() -> None:
    # repairs that give a domino new pips stay within --max-pip
    for max_pip in (0, 1, 3):
        for seed in range(4):
            p = gen.made(P.FAMILY, {"max_pip": max_pip}, seed, unique=True,
                         choices={"difficulty": "medium"}).puzzle
            assert max(max(d) for d in p.dominoes) <= max_pip
    # unique by grid has no band to keep (explain grades layouts), and says what it is
    out = gen.made(P.FAMILY, {"dominoes": 2}, 69, unique=True,
                   choices={"difficulty": "easy", "unique_by": "grid"})
    assert out.grade is None and "exactly one pips grid" in out.summary()
    # a split never leaves a rule that says nothing ("greater than -1", a one-cell "equals")
    value = {(0, 0): 3, (0, 1): 0}
    assert pips_gen._holding("greater", [(0, 1)], value) == "sum"
    assert pips_gen._holding("equals", [(0, 0)], value) == "sum"
    assert pips_gen._holding("unequal", [(0, 0)], value) == "empty"
    assert pips_gen._holding("greater", [(0, 0)], value) == "greater"


def test_domino_fit_repair_is_deterministic_on_large_boards() -> None:
    # auto races solvers on boards this large; the repair uses one, so a seed is a puzzle
    first = unique_board(20, 20, 0)[0]
    assert unique_board(20, 20, 0)[0] == first


def test_explain_stops_at_its_time_limit_inside_the_named_rules() -> None:
    import time

    from satdomino.puzzles.dominosa import unique as dominosa_unique

    board = dominosa_unique.generate(60, 1)[0]
    t0 = time.monotonic()
    out = explain(board, family("dominosa"), timeout=0.5)
    assert out.reason == "time limit" and time.monotonic() - t0 < 6


@pytest.mark.parametrize(("kind", "params"), [("dominosa", {"n": 6}), ("dominofit", {
    "width": 6, "height": 6}), ("doodlefit", {"cells": 24, "blocks": 5})])
def test_the_difficulty_generate_reports_is_what_explain_gives_the_same_puzzle(
        kind: str, params: dict) -> None:
    graded = 0
    for seed in range(3):
        out = gen.made(family(kind), params, seed, unique=True)
        if out.grade is None:  # not graded within its 2 s: nothing to compare
            continue
        told = explain(out.puzzle, family(kind))
        assert (difficulty_of(told)[0], sum(s.level >= CONTRADICTION for s in told.steps)) \
            == (out.grade, out.hard_steps), (kind, seed)
        graded += 1
    assert graded
