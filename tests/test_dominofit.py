"""Domino Fit: the published example, both models against brute force, bad input."""

from __future__ import annotations

import dataclasses
import json

import pytest

from satdomino import Encodings, family, solve
from satdomino.analysis.count import count
from satdomino.errors import PuzzleFormatError
from satdomino.puzzles import dominofit as F

from .conftest import EXAMPLES

FAM = family("dominofit")
PUBLISHED = ["1X-2-2X", "|1-2X-2", "1|-21-2", "|1-2|11", "1|-21||", "|-2X|-2", "X-2-2-2"]


def brute(p: F.DominoFit) -> set[tuple]:
    """Every solution by backtracking over squares in order, no SAT."""
    free = [(r, c) for r in range(p.height) for c in range(p.width) if p.free((r, c))]
    used: set = set()
    chosen: list = []
    found = set()

    def sums_ok(final: bool) -> bool:
        rows, cols = [0] * p.height, [0] * p.width
        for kind, at in chosen:
            (r, c), n = F.dots_of(kind, at)
            rows[r] += n
            cols[c] += n
        if final:
            return rows == list(p.side) and cols == list(p.top)
        return all(a <= b for a, b in zip(rows, p.side, strict=True)) and all(
            a <= b for a, b in zip(cols, p.top, strict=True))

    def go(i: int) -> None:
        while i < len(free) and free[i] in used:
            i += 1
        if i == len(free):
            if sums_ok(True):
                found.add(tuple(sorted(chosen)))
            return
        cell = free[i]
        for kind in ("V", "H"):
            a, b = F.cells_of(kind, cell)
            if p.free(b) and b not in used:
                used.update((a, b))
                chosen.append((kind, cell))
                if sums_ok(False):
                    go(i + 1)
                chosen.pop()
                used.difference_update((a, b))
        if not p.cover:
            used.add(cell)  # this square stays empty
            go(i + 1)
            used.discard(cell)

    go(0)
    return found


def boards() -> list[F.DominoFit]:
    out = []
    for seed in range(24):
        p, sol = F.planted(3 + seed % 3, 3 + seed % 2, seed)
        assert F.verify(p, sol) == []
        if seed % 4 == 3:  # nudge a clue: often no solution left
            p = dataclasses.replace(p, side=(p.side[0] + 1, *p.side[1:]))
        out.append(dataclasses.replace(p, cover=seed % 3 != 2))
    return out


BOARDS = boards()
TRUTH = [brute(p) for p in BOARDS]


def test_sample_is_varied() -> None:
    assert {min(len(t), 2) for t in TRUTH} == {0, 1, 2}
    assert {p.cover for p in BOARDS} == {True, False}


@pytest.mark.parametrize("model", list(F.FAMILY.models))
@pytest.mark.parametrize("pb", ["best", "bdd", "adder", "totalizer"])
def test_models_against_brute_force(model: str, pb: str) -> None:
    enumerate_only = dataclasses.replace(FAM, exact_count=None)
    for p, truth in zip(BOARDS, TRUTH, strict=True):
        out = solve(p, FAM, model=model, encodings=Encodings(pb=pb), unique=True)
        assert out.status == ("sat" if truth else "unsat")
        if truth:
            assert F.verify(p, out.solution) == [] and out.solution.pieces in truth
            assert out.unique == (len(truth) == 1)
        c = count(p, enumerate_only, model=model, encodings=Encodings(pb=pb))
        assert (c.value, c.complete) == (len(truth), True)


@pytest.mark.parametrize("card", ["totalizer", "seqcounter", "cardnetwrk", "sortnetwrk"])
def test_counts_model_under_every_card_encoding(card: str) -> None:
    enumerate_only = dataclasses.replace(FAM, exact_count=None)
    for p, truth in zip(BOARDS, TRUTH, strict=True):
        c = count(p, enumerate_only, model="counts", encodings=Encodings(card=card))
        assert (c.value, c.complete) == (len(truth), True)


def test_fixed_counts_are_those_of_every_planted_solution() -> None:
    for seed in range(40):
        p, sol = F.planted(2 + seed % 9, 2 + seed % 7, seed)
        v_row, h_row = [0] * p.height, [0] * p.height
        v_col, h_col = [0] * p.width, [0] * p.width
        for kind, (r, c) in sol.pieces:
            (v_row if kind == "V" else h_row)[r] += 1
            (v_col if kind == "V" else h_col)[c] += 1
        assert F.fixed_counts(p) == F.FixedCounts(v_row, h_row, v_col, h_col)
        # a clue one off leaves no cover: either the counts say so or a count changes
        nudged = dataclasses.replace(p, top=(p.top[0] + 1, *p.top[1:]))
        assert F.fixed_counts(nudged) != F.fixed_counts(p)


def test_published_example() -> None:
    [(_, p)] = F.parse((EXAMPLES / "dominofit" / "published-7x7.json").read_text())
    for model in F.FAMILY.models:
        out = solve(p, FAM, model=model, unique=True, backend="z3-smt")
        assert F.rows(p, out.solution) == PUBLISHED and out.unique


@pytest.mark.parametrize("change, message", [
    (lambda o: o["top_numbers"].pop(), "needs 7 column sums"),
    (lambda o: o["side_numbers"].append(1), "needs 7 row sums"),
    (lambda o: o["blacks"].append([7, 0]), "off the 7x7 board"),
    (lambda o: o.pop("width"), "needs 'width'"),
    (lambda o: o.update(height=0), "height must be a whole number"),
    (lambda o: o["top_numbers"].__setitem__(0, -1), "column 0's sum"),
    (lambda o: o.update(blacks=5), "'blacks' must be a list"),  # was a raw TypeError
    (lambda o: o.update(blacks=True), "'blacks' must be a list"),
    (lambda o: o.update(black=o.pop("blacks")), "unknown key 'black'"),  # not silently ignored
])
def test_bad_input(change, message) -> None:
    obj = json.loads((EXAMPLES / "dominofit" / "published-7x7.json").read_text())
    change(obj)
    with pytest.raises(PuzzleFormatError, match=message):
        F.parse(json.dumps(obj))


def test_large_generated_boards_read_back_without_kind() -> None:
    # the blacks list of a 60x60 board ran past what the sniffer looked at
    p = F.planted(60, 60, 1)[0]
    text = json.dumps(F.to_json(p))
    assert len(text) > 4096 and F.sniff(text)
    assert F.parse(text) == [(None, p)]
    # one sum list missing: still ours, so the message can say what is missing
    partial = json.dumps({k: v for k, v in F.to_json(p).items() if k != "side_numbers"})
    assert F.sniff(partial)
    with pytest.raises(PuzzleFormatError, match="needs 'side_numbers'"):
        F.parse(partial)
