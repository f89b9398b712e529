"""A reason for "no solution" where a simple count shows it: never given for a puzzle that has a
solution (against brute force), and shown by solve in text and JSON."""

from __future__ import annotations

import json
import random

import pytest

from satdomino.cli import main
from satdomino.puzzles import dominosa as S
from satdomino.puzzles import family
from satdomino.puzzles import pips as P

from . import test_dominofit, test_doodlefit, test_pips
from .bruteforce import solutions
from .test_dominosa_solve import random_numbering


def _dominosa_cases() -> tuple[list[S.Dominosa], list[int]]:
    rng = random.Random(5)
    boards = [random_numbering(rng.randint(1, 3), rng) for _ in range(60)]
    return boards, [len(solutions(b.grid, limit=1)) for b in boards]


def _pips_cases() -> tuple[list[P.Pips], list[int]]:
    """The brute-forced boards, and those again with a sum region's target out of reach."""
    boards, truth = list(test_pips.BOARDS), [len(t) for t in test_pips.TRUTH]
    for b in test_pips.BOARDS:
        k = next((j for j, r in enumerate(b.regions) if r.rule == "sum"), None)
        if k is not None:
            regions = list(b.regions)
            regions[k] = P.Region("sum", regions[k].nodes, 7 * len(regions[k].nodes))
            boards.append(P.Pips(b.nodes, b.edges, b.dominoes, tuple(regions), b.grid))
            truth.append(0)  # more than six pips a cell
    return boards, truth


@pytest.mark.parametrize("kind, cases", [
    ("dominofit", lambda: (test_dominofit.BOARDS, [len(t) for t in test_dominofit.TRUTH])),
    ("doodlefit", lambda: (test_doodlefit.CASES, [len(t) for t in test_doodlefit.TRUTH])),
    ("pips", _pips_cases),
    ("dominosa", _dominosa_cases),
])
def test_a_reason_only_when_there_is_no_solution(kind, cases) -> None:
    obstacles = family(kind).obstacles
    assert obstacles is not None
    boards, truth = cases()
    shown = [bool(obstacles(b)) for b in boards]
    assert not any(s and n for s, n in zip(shown, truth, strict=True))
    if kind != "doodlefit":  # its planted cases all fit: the other families' samples do not
        assert any(shown), "no case with a reason: the test would prove nothing"


@pytest.mark.parametrize("text, reason", [
    ('{"width": 2, "height": 2, "top_numbers": [1, 1], "side_numbers": [1, 0]}',
     "the column sums total 2, the row sums 1"),
    ('{"width": 3, "height": 1, "top_numbers": [0, 1, 2], "side_numbers": [3]}',
     "3 white squares: pieces cover them two at a time"),
    ('{"dominoes": [[1, 1], [2, 2]], "regions": [{"type": "empty", '
     '"indices": [[0, 0], [0, 1], [0, 2], [2, 0]]}]}', "cell (2,0) has no neighbour"),
    ("0 1 0\n1 0 1\n", "domino 0-0: its numbers are nowhere side by side"),
    ("##\n##\n---\n****\n", "block 0 fits nowhere in the shape"),
])
def test_solve_shows_the_reason(capsys, tmp_path, text, reason) -> None:
    path = tmp_path / ("p.json" if text.startswith("{") else "p.txt")
    path.write_text(text)
    assert main(["solve", str(path)]) == 1
    out = capsys.readouterr().out
    assert ": no solution (" in out and reason in out.splitlines()[0], out
    assert main(["solve", str(path), "--json"]) == 1
    assert reason in json.loads(capsys.readouterr().out)["reason"]
