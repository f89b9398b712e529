"""The ``reduced`` Dominosa model (root-level deduction before SAT) against brute force."""

from __future__ import annotations

import random

import pytest

from satdomino import family, solve
from satdomino.backends.session import blocking_clause
from satdomino.encode import Encodings, lower
from satdomino.puzzles import dominosa as D
from satdomino.puzzles.dominosa.reduce import _hopcroft_karp, reduce_board

from .bruteforce import solutions
from .test_dominosa_solve import random_numbering

FAM = family("dominosa")


def perturbed(n: int, rng: random.Random) -> D.Dominosa:
    """A planted board with a few pairs of cells swapped (counts stay right): often unsat or
    ambiguous."""
    grid = [list(row) for row in D.planted(n, rng.randrange(10**6))[0].grid]
    for _ in range(rng.randint(1, 2)):
        r1, c1 = rng.randrange(n + 1), rng.randrange(n + 2)
        r2, c2 = rng.randrange(n + 1), rng.randrange(n + 2)
        grid[r1][c1], grid[r2][c2] = grid[r2][c2], grid[r1][c1]
    return D.Dominosa(tuple(map(tuple, grid)))


def boards(count: int, seed: int) -> list[D.Dominosa]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        n = rng.randint(1, 5)
        kind = i % 3
        out.append(D.planted(n, rng.randrange(10**6))[0] if kind == 0
                   else perturbed(n, rng) if kind == 1 else random_numbering(n, rng))
    return out


BOARDS = boards(150, seed=7)
TRUTH = [set(solutions(b.grid)) for b in BOARDS]


def all_solutions(board: D.Dominosa, limit: int = 10**6) -> set[frozenset]:
    """Every solution of the reduced model, by SAT with blocking clauses."""
    from pysat.solvers import Solver

    m = D.build_reduced(board)
    cnf = lower(m, Encodings())
    found = set()
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
        while s.solve() and len(found) < limit:
            true = frozenset(x for x in s.get_model() if x > 0)
            sol = D.decode(board, m, true)
            assert D.verify(board, sol) == []
            found.add(frozenset(sol.pairs))
            s.add_clause(blocking_clause(m.projection, true))
    return found


def test_sample_has_unsat_unique_and_ambiguous_boards() -> None:
    kinds = {min(len(t), 2) for t in TRUTH}
    assert kinds == {0, 1, 2}


def test_reduction_keeps_every_solution() -> None:
    """No placement used by some solution is removed, and the solution set is the same."""
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        red = reduce_board(board)
        alive = {e for e, ok in zip(red.edges, red.alive, strict=True) if ok}
        for sol in truth:
            assert not red.unsat
            assert set(sol) <= alive
        if red.unsat:
            assert not truth


@pytest.mark.parametrize("flags", [{"matching": False, "probing": False},
                                   {"matching": True, "probing": False},
                                   {"matching": False, "probing": True}])
def test_each_rule_alone_is_sound(flags: dict) -> None:
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        red = reduce_board(board, **flags)
        alive = {e for e, ok in zip(red.edges, red.alive, strict=True) if ok}
        assert not (red.unsat and truth)
        for sol in truth:
            assert set(sol) <= alive


def test_same_solution_sets_as_brute_force() -> None:
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        assert all_solutions(board) == truth


def test_solve_and_uniqueness_agree_with_brute_force() -> None:
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        out = solve(board, FAM, model="reduced", unique=True)
        if not truth:
            assert out.status == "unsat" and out.solution is None
            continue
        assert out.status == "sat"
        assert D.verify(board, out.solution) == []
        assert frozenset(out.solution.pairs) in truth
        assert out.unique == (len(truth) == 1)
        if not out.unique:
            assert out.other is not None and out.other != out.solution
            assert frozenset(out.other.pairs) in truth


def test_projection_covers_every_placement() -> None:
    board, _ = D.planted(6, 3)
    m = D.build_reduced(board)
    keys = {m.key(x) for x in m.projection}
    assert keys == {D.place_key(board, e) for e in board.edges()}


def test_larger_planted_boards_keep_the_planted_solution() -> None:
    for n, seed in [(10, 1), (20, 2), (30, 3), (40, 4)]:
        board, planted_sol = D.planted(n, seed)
        red = reduce_board(board)
        alive = {e for e, ok in zip(red.edges, red.alive, strict=True) if ok}
        assert not red.unsat and set(planted_sol.pairs) <= alive
        out = solve(board, FAM, model="reduced")
        assert out.status == "sat" and D.verify(board, out.solution) == []


def test_hopcroft_karp_finds_perfect_matching_or_none() -> None:
    # a 2x2 square: two perfect matchings
    adj = {0: [(1, 0), (2, 1)], 3: [(1, 2), (2, 3)]}
    mate = _hopcroft_karp([0, 3], adj, 4)
    assert mate is not None and {mate[0], mate[3]} == {1, 2}
    # both black cells see only white cell 1: no perfect matching
    assert _hopcroft_karp([0, 3], {0: [(1, 0)], 3: [(1, 2)]}, 4) is None
