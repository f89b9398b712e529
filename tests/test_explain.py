"""``explain``: every step is forced by what came before it, every stated reason really is
unsatisfiable with the placement negated, and a complete explanation is the puzzle's solution;
in all four families, on small random boards."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from pysat.solvers import Solver

from satdomino import family
from satdomino.analysis.explain import LEVELS, _Groups, explain, step_json
from satdomino.cli import main
from satdomino.clock import NEVER
from satdomino.encode import lower
from satdomino.puzzles import dominosa as D
from satdomino.render.svg import STEP_COLOURS

from . import test_dominofit, test_dominosa_solve, test_doodlefit, test_pips
from .bruteforce import solutions
from .conftest import EXAMPLES, one_error


def _unique_pips() -> list:
    import satdomino

    return [p.data for f in ("day.json", "planted-6-unique.json")
            for p in satdomino.read(str(EXAMPLES / "pips" / f))
            if p.name != "hard"]  # 3,127,960 placements


CASES = {
    "dominosa": (test_dominosa_solve.BOARDS[:24],
                 [len(solutions(b.grid)) for b in test_dominosa_solve.BOARDS[:24]]),
    "pips": (test_pips.BOARDS[:12] + _unique_pips(),
             [len(t) for t in test_pips.TRUTH[:12]] + [1] * len(_unique_pips())),
    "dominofit": (test_dominofit.BOARDS, [len(t) for t in test_dominofit.TRUTH]),
    "doodlefit": (test_doodlefit.CASES, [len(t) for t in test_doodlefit.TRUTH]),
}


def _forced(cnf_clauses, placed: list[int], x: int) -> bool:
    """Independently of explain's solver: the puzzle, the placements before, and not x, is
    unsatisfiable."""
    with Solver(name="minisat22", bootstrap_with=cnf_clauses) as s:
        return not s.solve(assumptions=placed + [-x])


@pytest.mark.parametrize("kind", list(CASES))
def test_every_step_is_forced_and_complete_means_the_solution(kind: str) -> None:
    fam = family(kind)
    boards, truth = CASES[kind]
    outcomes = set()
    for board, n in zip(boards, truth, strict=True):
        out = explain(board, fam)
        m = fam.model(None)(board)
        clauses = lower(m).clauses
        placed: list[int] = []
        for step in out.steps:
            assert m.var(step.key) == step.placement
            assert _forced(clauses, placed, step.placement), (kind, board, step)
            assert step.level in LEVELS and step.uses
            placed.append(step.placement)
        if n == 1:
            assert out.complete and fam.verify(board, out.solution) == []
        else:
            assert not out.complete  # none, or more than one solution: nothing says which
            assert ("no solution" in out.reason) == (n == 0), out.reason
        outcomes.add((min(n, 2), out.complete))
    assert (1, True) in outcomes and (2, False) in outcomes, outcomes


@pytest.mark.parametrize("kind", list(CASES))
def test_stated_reasons_are_unsatisfiable_with_the_placement_negated(kind: str) -> None:
    fam = family(kind)
    for board, n in zip(*CASES[kind], strict=True):
        if n != 1:
            continue
        m = fam.model(None)(board)
        groups = _Groups(m, NEVER)
        try:
            placed: list[int] = []
            for step in explain(board, fam).steps:
                reason = groups.forced(placed, step.placement)
                assert reason is not None
                chosen = [a for a in reason if a in groups.index]
                earlier = [a for a in reason if a not in groups.index]
                # only those constraints and earlier placements: still a contradiction
                others = [-s for s in groups.selectors if s not in chosen]
                assert groups.solver.solve(chosen + others + earlier
                                           + [-step.placement]).status == "unsat"
                assert set(earlier) <= set(placed)
                placed.append(step.placement)
        finally:
            groups.close()


def test_levels_and_grades_on_examples(monkeypatch) -> None:
    import satdomino
    from satdomino.analysis import trial

    easy = satdomino.read(str(EXAMPLES / "dominosa" / "double6.txt"))[0].explain()
    assert easy.complete and easy.grade == "rule" and {s.level for s in easy.steps} == {1}
    assert len(easy.steps) == 28  # every domino of the double-6 set
    fit = satdomino.read(str(EXAMPLES / "dominofit" / "published-7x7.json"))[0].explain()
    assert fit.complete and fit.grade == "elimination" and {s.level for s in fit.steps} == {1, 2}
    # the counts model's rows: the published solution starts one vertical piece in row 0
    assert any("break row 0 sum 5: 1 vertical piece starts here" in r.rule
               for s in fit.steps for r in s.ruled_out)
    hard = {p.name: p for p in satdomino.read(str(EXAMPLES / "dominosa" / "collection.jsonl"))}
    chained = hard["double6-seed177"].explain()
    assert chained.complete and chained.grade == "contradiction"
    chains = [r.chain for s in chained.steps for r in s.ruled_out if r.chain]
    assert chains and all(1 <= len(c) <= trial.MAX_STEPS for c in chains)
    assert all(c[-1].endswith(("has no place left", "is covered twice")) for c in chains)
    monkeypatch.setattr(trial, "MAX_STEPS", 0)  # no proof by contradiction: the solver's turn
    solver = hard["double6-seed177"].explain()
    assert solver.complete and solver.grade.startswith("solver-")
    assert any(s.level == 7 and len(s.uses) > 2 for s in solver.steps)
    stopped = satdomino.read(str(EXAMPLES / "dominosa" / "double12.txt"))[0].explain()
    assert not stopped.complete and stopped.grade.endswith("+search")


def test_a_time_limit_keeps_the_steps_so_far() -> None:
    from satdomino.puzzles import dominosa

    board, _ = dominosa.planted(40, 1)
    out = explain(board, family("dominosa"), timeout=0.5)
    assert not out.complete and out.reason == "time limit"


def test_cli_explain_text_and_json() -> None:
    run = [sys.executable, "-m", "satdomino.cli", "explain"]
    p = subprocess.run([*run, "--json", str(EXAMPLES / "dominosa" / "double6.txt")],
                       capture_output=True, text=True, timeout=120)
    row = json.loads(p.stdout)
    assert p.returncode == 0 and row["complete"] and row["grade"] == "rule"
    assert {"placements", "rule", "uses", "level"} <= set(row["steps"][0])
    assert set(row["steps"][0]["placements"][0]) == {"pips", "cells"}
    p = subprocess.run([*run, str(EXAMPLES / "dominosa" / "double12.txt")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 1 and "stopped: nothing is forced" in p.stdout
    p = subprocess.run([*run, str(EXAMPLES / "nothing-here.txt")], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_step_json_shapes() -> None:
    for kind, keys in (("pips", {"pips", "cells"}), ("dominofit", {"piece", "at"}),
                       ("doodlefit", {"block", "cells"})):
        boards, truth = CASES[kind]
        board = next(b for b, n in zip(boards, truth, strict=True) if n == 1)
        out = explain(board, family(kind))
        assert set(step_json(board, family(kind), out.steps[0])["placements"][0]) == keys


def test_hint_continues_from_given_placements_and_catches_wrong_ones() -> None:
    from satdomino.analysis.explain import hint
    from satdomino.errors import SatDominoError

    for kind in CASES:
        fam = family(kind)
        boards, truth = CASES[kind]
        board = next(b for b, n in zip(boards, truth, strict=True) if n == 1)
        full = explain(board, fam)
        m = fam.model(None)(board)
        clauses = lower(m).clauses
        shown = [step_json(board, fam, s)["placements"][0] for s in full.steps]
        for k in range(len(shown)):
            nxt = hint(board, fam, shown[:k])
            (step,) = nxt.steps
            placed = [s.placement for s in full.steps[:k]]
            assert step.placement not in placed and _forced(clauses, placed, step.placement)
        done = hint(board, fam, shown)
        assert done.complete and not done.steps
        in_solution = {s.placement for s in full.steps}
        wrong = next((x for x in m.projection if x not in in_solution), None)
        if wrong is not None:  # a real placement that no solution has
            shape = fam.placement_json
            with pytest.raises(SatDominoError, match="in no solution"):
                hint(board, fam, [shape(board, m.key(wrong))])
        with pytest.raises(SatDominoError, match="not a placement"):
            hint(board, fam, [{"nothing": 1}])


def test_cli_hint_reads_a_dominosa_layout_and_refuses_bad_ones(tmp_path) -> None:
    board = str(EXAMPLES / "dominosa" / "double3-grid.txt")
    run = [sys.executable, "-m", "satdomino.cli", "hint", board]
    p = subprocess.run([*run, "--json"], capture_output=True, text=True, timeout=60)
    first = json.loads(p.stdout)
    assert p.returncode == 0 and first["step"]["level"] == 1 and not first["solved"]
    # the solved layout, one domino taken out
    layout = ["LRLRT", "TLRTB", "BLRBT", "LRLRB"]
    given = tmp_path / "given.txt"
    given.write_text("\n".join(["..LRT", *layout[1:]]) + "\n")
    p = subprocess.run([*run, "--given", str(given), "--json"], capture_output=True,
                       text=True, timeout=60)
    row = json.loads(p.stdout)
    assert p.returncode == 0 and row["step"]["placements"][0]["cells"] in (
        [[0, 0], [0, 1]], [[0, 1], [0, 0]])
    given.write_text("\n".join(layout) + "\n")
    p = subprocess.run([*run, "--given", str(given)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("solved")
    for bad in ("LLLRT\nTLRTB\nBLRBT\nLRLRB\n", "LRT\n", "[1, 2]", "{"):
        p = subprocess.run([*run, "--given", bad], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, (bad, p.stderr)


def test_coordinates_agree_between_given_errors_and_explain(tmp_path) -> None:
    """One convention: (row, column) from 0 in --given, in errors about it, and in explain."""
    board = str(EXAMPLES / "dominosa" / "double3-grid.txt")
    run = [sys.executable, "-m", "satdomino.cli"]
    told = json.loads(subprocess.run([*run, "explain", "--json", board], capture_output=True,
                                     text=True, timeout=60).stdout)
    (u, v) = told["steps"][0]["placements"][0]["cells"]
    text = subprocess.run([*run, "explain", board], capture_output=True, text=True,
                          timeout=60).stdout
    assert f"({u[0]},{u[1]})-({v[0]},{v[1]})" in text or f"({v[0]},{v[1]})-({u[0]},{u[1]})" in text
    rows = [["."] * 5 for _ in range(4)]
    rows[u[0]][u[1]] = "X"  # a bad letter on the square explain placed first
    p = subprocess.run([*run, "hint", board, "--given", "\n".join(map("".join, rows)) + "\n"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and f"cell ({u[0]}, {u[1]})" in p.stderr, p.stderr
    given = [{"pips": told["steps"][0]["placements"][0]["pips"], "cells": [u, v]}]
    p = subprocess.run([*run, "hint", board, "--given", json.dumps(given), "--json"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and [u, v] not in [
        json.loads(p.stdout)["step"]["placements"][0]["cells"]]


def test_the_numbered_board_shows_each_step_on_its_two_squares() -> None:
    import satdomino
    from satdomino.analysis.explain import numbered_board

    for path in ("dominosa/double3-grid.txt", "dominofit/published-7x7.json"):
        p = satdomino.read(str(EXAMPLES / path))[0]
        out = p.explain()
        numbers = numbered_board(p.data, p.family, out.steps).split()
        assert sorted(numbers) == sorted(str(k) for k in range(1, len(out.steps) + 1)
                                         for _ in range(2))
        partial = numbered_board(p.data, p.family, out.steps[:3]).split()
        assert partial.count(".") == len(numbers) - 6


def test_puzzle_hint_in_the_library() -> None:
    import satdomino

    p = satdomino.read(str(EXAMPLES / "dominosa" / "double6.txt"))[0]
    first = p.hint()
    assert len(first.steps) == 1 and first.steps[0].level == 1
    # readable as the CLI prints it: the placement in words, then its rule
    printed = subprocess.run([sys.executable, "-m", "satdomino.cli", "hint",
                              str(EXAMPLES / "dominosa" / "double6.txt")],
                             capture_output=True, text=True, timeout=120).stdout
    assert str(first.steps[0]) == first.steps[0].text and first.steps[0].text in printed
    assert re.fullmatch(r"\d-\d at \(\d,\d\)-\(\d,\d\): .+", first.steps[0].text)
    assert p.hint([step_json(p.data, p.family, s)["placements"][0]
                   for s in p.explain().steps]).complete


def test_cli_explain_draws_numbered_steps(tmp_path) -> None:
    import re

    out = tmp_path / "steps.svg"
    p = subprocess.run([sys.executable, "-m", "satdomino.cli", "explain", "--svg", str(out),
                        str(EXAMPLES / "dominosa" / "double3-grid.txt"),
                        str(EXAMPLES / "doodlefit" / "planted-20.txt")],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    first = (tmp_path / "steps-1.svg").read_text()
    # drawn on the puzzle: its numbers stay, each step's number in a badge of its level
    [(_, board)] = D.parse((EXAMPLES / "dominosa" / "double3-grid.txt").read_text())
    numbers = re.findall(r'font-size="17" text-anchor="middle">(\d+)</text>', first)
    assert sorted(numbers) == sorted(str(v) for row in board.grid for v in row)
    steps = re.findall(r'font-weight="bold" fill="(#[0-9a-f]+)" text-anchor="middle">(\d+)<',
                       first)
    assert sorted(int(k) for _, k in steps) == list(range(1, 11))
    assert {ink for ink, _ in steps} == {STEP_COLOURS[0]}  # every step by a single rule
    assert ">rule</text>" in first and "dominosa: 10 steps, grade rule" in first
    assert first.count('rx="7"') == 10  # each placed domino outlined
    ET.fromstring(first)
    assert "stroke-width=\"3\"" in (tmp_path / "steps-2.svg").read_text()  # blocks walled off


def _unique_dominosa() -> list:
    from satdomino.puzzles.dominosa import unique as dominosa_unique

    return [dominosa_unique.generate(n, seed)[0] for n in (4, 5, 6) for seed in range(1, 21)]


RULE_WORDS = {"empties": "would leave", "duplicates": "both needing",
              "parity": "odd areas", "set": "can only take", "set with a double": "must cover",
              "chain": "placing it forces", "chain, both ways": "either way of a chain",
              "contradiction": "leads to a contradiction"}


def test_every_named_elimination_is_sound_and_each_rule_is_used() -> None:
    """Each placement a named rule ruled out is in no solution with the placements made before
    it (MiniSat on the plain CNF); on generated unique boards every rule is needed somewhere,
    and a step's level is at least its eliminations'."""
    fam = family("dominosa")
    rules_seen: set[str] = set()
    checked = 0
    for board in _unique_dominosa() + CASES["dominosa"][0]:
        m = fam.model(None)(board)
        clauses = lower(m).clauses
        placements = [s.placement for s in explain(board, fam).steps]
        for step in explain(board, fam).steps:
            for r in step.ruled_out:
                with Solver(name="minisat22", bootstrap_with=clauses) as s:
                    assert not s.solve(assumptions=placements[:r.placed] + [r.placement]), r
                rules_seen.update(kind for kind, words in RULE_WORDS.items() if words in r.rule)
                assert step.level >= r.rank
                checked += 1
    assert checked > 100
    assert rules_seen == set(RULE_WORDS), rules_seen


@pytest.mark.parametrize("kind", ["pips", "dominofit", "doodlefit"])
def test_named_eliminations_are_sound_in_the_other_families(kind: str) -> None:
    fam = family(kind)
    for board in CASES[kind][0]:
        m = fam.model(None)(board)
        clauses = lower(m).clauses
        steps = explain(board, fam).steps
        placements = [s.placement for s in steps]
        for step in steps:
            for r in step.ruled_out:
                with Solver(name="minisat22", bootstrap_with=clauses) as s:
                    assert not s.solve(assumptions=placements[:r.placed] + [r.placement])


@pytest.mark.parametrize("kind", list(CASES))
def test_each_fact_a_contradiction_chain_derives_is_implied(kind: str) -> None:
    """The named propagation behind proofs by contradiction, checked fact by fact by MiniSat on
    the plain CNF: from the placements a step had, with one more candidate assumed, every
    literal it derives (to its fixpoint, or to the contradiction) follows; a contradiction it
    finds is one; and every chain it reports is within its bound."""
    import random

    from satdomino.analysis.trial import MAX_STEPS, Trials

    fam, rng, derived, refuted = family(kind), random.Random(7), 0, 0
    boards = [b for b, n in zip(*CASES[kind], strict=True) if n > 0][:8]  # some solution
    for board in boards:
        m = fam.model(None)(board)
        clauses = lower(m).clauses
        trials = Trials(m, [m.label(i) for i in range(len(m.constraints))], str)
        placed = [s.placement for s in explain(board, fam).steps][:2]
        settled = trials.settle(dict.fromkeys(placed, True))
        assert settled is not None
        for x in rng.sample(list(m.projection), min(12, len(m.projection))):
            state = settled.copy()
            state.value[x] = True
            conflict = trials._run(state, [(0, i) for i in trials.watch.get(x, ())])
            with Solver(name="minisat22", bootstrap_with=clauses) as s:
                if conflict is not None:  # (a fixpoint cut at MAX_STEPS is sound as well)
                    assert not s.solve(assumptions=placed + [x])
                    refuted += 1
                for v, b in state.value.items():
                    if v not in settled.value:
                        assert not s.solve(assumptions=placed + [x, -v if b else v]), (v, b)
                        derived += 1
            chain = trials.refute(x, settled)
            assert chain is None or 1 <= len(chain.steps) <= MAX_STEPS
    assert derived > 50 and refuted > 0, (derived, refuted)


def test_every_proof_by_contradiction_refutes_a_placement_of_no_solution() -> None:
    """Checked without the encoding or a solver: on unique generated Dominosa boards, each
    placement a chain rules out is not a domino of the one layout plain backtracking finds
    (and the rule checker passes); each chain ends in its contradiction within 10 steps."""
    from satdomino.analysis.trial import MAX_STEPS
    from satdomino.puzzles.dominosa import DominosaSolution

    fam, chains = family("dominosa"), 0
    for board in _unique_dominosa():
        (layout,) = solutions(board.grid, 2)
        if not any(r.chain for s in explain(board, fam).steps for r in s.ruled_out):
            continue
        assert fam.verify(board, DominosaSolution(tuple(sorted(layout)))) == []
        for step in explain(board, fam).steps:
            for r in step.ruled_out:
                if r.chain:
                    cells = tuple(sorted(fam.squares(board, r.key)))  # type: ignore[misc]
                    assert cells not in layout, (r.rule, r.chain)
                    assert len(r.chain) <= MAX_STEPS and r.chain[-1].endswith(
                        ("no place left", "is covered twice"))
                    chains += 1
    assert chains > 10, chains


def test_bridges_match_brute_force_on_random_graphs() -> None:
    """Tarjan's bridges with parallel edges, against "removing it splits its component"."""
    import random

    from satdomino.analysis.rules import _bridges

    def parts(nodes, edges):
        seen, out = set(), []
        for s in nodes:
            if s in seen:
                continue
            seen.add(s)
            todo, part = [s], {s}
            while todo:
                u = todo.pop()
                for _, a, b in edges:
                    for v in ((b,) if a == u else (a,) if b == u else ()):
                        if v not in seen:
                            seen.add(v)
                            part.add(v)
                            todo.append(v)
            out.append(part)
        return out

    rng = random.Random(7)
    for _ in range(300):
        nodes = list(range(rng.randint(1, 9)))
        edges = [(k, rng.choice(nodes), rng.choice(nodes)) for k in range(rng.randint(0, 12))]
        edges = [e for e in edges if e[1] != e[2]]
        found = {x: (side, comp) for x, side, comp in _bridges(nodes, edges)}
        whole = parts(nodes, edges)
        for x, _, _ in edges:
            rest = [e for e in edges if e[0] != x]
            split = parts(nodes, rest)
            assert (len(split) > len(whole)) == (x in found), (nodes, edges, x)
            if x in found:
                side, comp = found[x]
                sizes = sorted(len(p) for p in split if p <= comp)
                assert comp in whole and sorted([side, len(comp) - side]) == sizes


NAMES = {"a": "north", "b": "b1", "c": "c22", "d": "dd", "e": "east", "f": "f"}


def _named_graph(tmp_path) -> str:
    """examples/pips/ring-graph.json with its nodes renamed as NAMES says."""
    data = json.loads((EXAMPLES / "pips" / "ring-graph.json").read_text())
    data["links"] = {NAMES[u]: [NAMES[v] for v in vs] for u, vs in data["links"].items()}
    for c in data["constraints"]:
        c["nodes"] = [NAMES[u] for u in c["nodes"]]
    path = tmp_path / "ring.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_graph_node_names_go_out_and_come_back_whole(tmp_path, capsys) -> None:
    """Issue 37: a graph-form Pips's node names (north, b1) whole in explain --json, and a
    placement written as solve shows it, from either end, taken by hint --given."""
    path = _named_graph(tmp_path)
    assert main(["explain", path, "--json"]) == 1  # two solutions: it stops
    steps = json.loads(capsys.readouterr().out)["steps"]
    shown = [u for s in steps for p in s["placements"] for u in p["cells"]]
    assert shown and set(shown) <= set(NAMES.values())
    assert main(["solve", path, "--json"]) == 0
    solution = json.loads(capsys.readouterr().out)["solution"]["solution"]
    dominoes = json.loads(Path(path).read_text())["dominoes"]
    # each domino as solve shows it (its first pip on its first node), and turned round
    for (a, b), (u, v) in zip(dominoes, solution, strict=True):
        for given in ({"pips": [a, b], "cells": [u, v]}, {"pips": [b, a], "cells": [v, u]}):
            assert main(["hint", path, "--given", json.dumps([given]), "--json"]) == 0
            out = json.loads(capsys.readouterr().out)
            step = out["step"] or {"placements": []}
            for p in step["placements"]:
                assert set(p["cells"]) <= set(NAMES.values())
    one_error(capsys, ["hint", path, "--given", '[{"pips": [3, 3], "cells": ["n", "b1"]}]'],
              "not a placement")
