"""Loading clauses into python-sat solvers: the direct path through python-sat's native
add-clause functions must give every solver exactly the formula ``append_formula`` would."""

from __future__ import annotations

import itertools
import random

import pytest
from pysat.solvers import Solver

from satdomino.backends.pysat_backend import (
    INTERRUPTIBLE,
    _usual_add_clause,
    clause_adder,
    open_solver,
    solver_names,
)
from satdomino.encode import CNF

NAMES = solver_names()


def random_cnf(rng: random.Random, n: int) -> list[list[int]]:
    clauses = []
    for _ in range(rng.randint(1, 5 * n)):
        width = min(n, rng.choice([1, 2, 2, 3, 3, 3, 4]))
        clauses.append([v * rng.choice([1, -1]) for v in rng.sample(range(1, n + 1), width)])
    return clauses


def brute_sat(clauses: list[list[int]], n: int) -> bool:
    return any(all(any((lit > 0) == bits[abs(lit) - 1] for lit in c) for c in clauses)
               for bits in itertools.product([False, True], repeat=n))


@pytest.mark.parametrize("name", NAMES)
def test_loaded_formula_is_the_formula(name: str) -> None:
    rng = random.Random(name)
    for _ in range(40):
        n = rng.randint(1, 7)
        clauses = random_cnf(rng, n)
        expected = brute_sat(clauses, n)
        for stopped in (None, lambda: False):
            with open_solver(name, CNF(num_vars=n, model_vars=n, clauses=clauses), stopped) as s:
                assert s.solve() == expected, clauses
                if expected:
                    true = set(s.get_model())
                    assert all(any(lit in true for lit in c) for c in clauses)


@pytest.mark.parametrize("name", NAMES)
def test_conflict_at_the_root_while_loading(name: str) -> None:
    # MiniSat-like solvers answer False to the second clause; the rest must not matter
    with open_solver(name, CNF(num_vars=3, model_vars=3, clauses=[[1], [-1], [2, 3], [-2]])) as s:
        assert s.solve() is False


@pytest.mark.parametrize("name", sorted(INTERRUPTIBLE | {"cadical195"}))
def test_usual_solvers_load_through_the_native_function(name: str) -> None:
    # a python-sat whose add_clause changed shape falls back to append_formula (correct, a
    # third slower for MiniSat): this says so, rather than the benchmarks quietly slowing
    with Solver(name=name) as s:
        assert _usual_add_clause(type(s.solver)) is not None
        assert clause_adder(s) != s.append_formula


def test_unusual_add_clause_falls_back_to_append_formula() -> None:
    class Odd:
        def add_clause(self, clause, no_return=True):
            return None

    assert _usual_add_clause(Odd) is None
