"""Real boards with known answers from ../shared/corpus (skipped when it is absent)."""

from __future__ import annotations

import json

import pytest

from satdomino import family, solve
from satdomino.puzzles import dominosa as D

FAM = family("dominosa")


def test_anchors(corpus) -> None:
    rows = (corpus / "dominosa" / "anchors.tsv").read_text().splitlines()[1:]
    assert len(rows) == 19
    for row in rows:
        name, gid, count, _grade, _full, letters = row.split("\t")
        board = D.parse_game_id(gid)
        published = None
        if letters != "(multiple)":  # ambiguous boards carry no single answer
            published = D.from_layout([letters[r * board.cols:(r + 1) * board.cols]
                                       for r in range(board.rows)])
            assert D.verify(board, published) == [], name  # our checker accepts the answer
        out = solve(board, FAM, unique=True)
        assert out.status == "sat", name
        assert D.verify(board, out.solution) == []
        assert out.unique == (count == "1"), name
        if count == "1":
            assert out.solution == published, name


def _partition(text: str) -> frozenset:
    grid = [line.split() for line in text.strip().splitlines()[1:]]
    cells: dict[str, list] = {}
    for r, row in enumerate(grid):
        for c, ident in enumerate(row):
            cells.setdefault(ident, []).append((r, c))
    return frozenset(tuple(sorted(v)) for v in cells.values())


@pytest.mark.parametrize("backend", ["cadical195", "z3-smt"])
def test_janko_dev(corpus, backend: str) -> None:
    lines = (corpus / "dominosa" / "janko-dev.jsonl").read_text().splitlines()
    assert len(lines) == 100
    for line in lines[: 100 if backend == "cadical195" else 25]:
        obj = json.loads(line)
        [(_, board)] = D.parse(obj["problem"])
        out = solve(board, FAM, unique=True, backend=backend)
        assert out.status == "sat" and out.unique is True, obj["name"]
        assert frozenset(out.solution.pairs) == _partition(obj["solution"]), obj["name"]
