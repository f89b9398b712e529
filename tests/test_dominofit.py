"""Domino Fit: the published example, both models against brute force, bad input."""

from __future__ import annotations

import dataclasses
import itertools
import json
import random

import pytest

from satdomino import Encodings, family, solve
from satdomino.analysis.count import count
from satdomino.errors import PuzzleFormatError, SatDominoError
from satdomino.kernels import lp_bound
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


def _with_sums_of(p: F.DominoFit, pieces: list) -> F.DominoFit:
    """``p`` with the row and column sums of ``pieces``, and without full cover."""
    side, top = [0] * p.height, [0] * p.width
    for kind, at in pieces:
        (r, c), n = F.dots_of(kind, at)
        side[r] += n
        top[c] += n
    return dataclasses.replace(p, side=tuple(side), top=tuple(top), cover=False)


def test_counter_without_full_cover_answers_only_what_it_proves() -> None:
    """Without full cover, the exact counter answers where linear programming proves that
    every solution covers every square, and then as brute force does; it refuses every
    board with a solution that leaves squares empty (half of these: a planted solution less
    one piece)."""
    answered = refused = 0
    for seed in range(40):
        rng = random.Random(seed)
        p, sol = F.planted(rng.randint(2, 5), rng.randint(2, 4), seed)
        pieces = list(sol.pieces)
        if seed % 2:
            pieces.pop(rng.randrange(len(pieces)))  # its two squares stay empty
        q = _with_sums_of(p, pieces)
        truth = brute(q)
        empty = len(truth) != len(brute(dataclasses.replace(q, cover=True)))
        assert empty or seed % 2 == 0  # the planted solution less a piece is one
        try:
            n = F.count_placements(q)
        except SatDominoError as e:
            assert "leaving one empty" in str(e)
            refused += 1
            continue
        assert not empty and n == len(truth), seed
        answered += 1
    assert answered >= 15 and refused >= 15


def test_no_cover_count_by_the_family_counter() -> None:
    p, _ = F.planted(12, 12, 2)
    q = dataclasses.replace(p, cover=False)
    c = count(q, FAM, methods=("dp",))
    assert (c.value, c.method, c.complete) == (F.count_placements(p), "dp", True)


@pytest.mark.parametrize("seed", range(30))
def test_lp_bound_never_passes_the_least_whole_point(seed: int) -> None:
    """Whatever the multipliers (HiGHS's or random), the bound is at most the least cost of
    any 0-1 point meeting the rows, found by trying them all."""
    rng = random.Random(seed)
    n, m = rng.randint(1, 6), rng.randint(1, 4)
    cost = [rng.randint(-3, 3) for _ in range(n)]
    columns = [[(i, rng.randint(-2, 3)) for i in range(m) if rng.random() < 0.6]
               for _ in range(n)]
    lower = [rng.choice([None, rng.randint(-2, 2)]) for _ in range(m)]
    upper = [None if lo is None and rng.random() < 0.5 else (lo or 0) + rng.randint(0, 3)
             for lo in lower]
    points = [x for x in itertools.product((0, 1), repeat=n)
              if all((lo is None or v >= lo) and (hi is None or v <= hi)
                     for lo, hi, v in zip(lower, upper, (
                         sum(a * x[j] for j, col in enumerate(columns) for i2, a in col
                             if i2 == i) for i in range(m)), strict=True))]
    least = min((sum(c * v for c, v in zip(cost, x, strict=True)) for x in points),
                default=None)
    for _ in range(20):
        y = [rng.randint(-3, 3) * lp_bound.SCALE // rng.randint(1, 4) for _ in range(m)]
        b = lp_bound.bound(cost, columns, lower, upper, y)
        assert least is None or b <= least
    if least is not None:  # the relaxation holds every 0-1 point: nothing above least
        assert not lp_bound.proves_above(cost, columns, lower, upper, least)
