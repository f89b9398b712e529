"""The library on its own, as the package docstring shows it."""

from __future__ import annotations

import doctest
import gc

import pytest

import satdomino
from satdomino.backends.highs_backend import highs_installed
from satdomino.model import Model
from satdomino.puzzles import dominosa

from .conftest import EXAMPLES


def test_package_docstring_example_runs() -> None:
    result = doctest.testmod(satdomino)
    assert result.attempted >= 3 and result.failed == 0


def test_model_ir_semantics() -> None:
    m = satdomino.Model("t")
    a, b, c = (m.var(k) for k in "abc")
    assert m.var("a") == a == 1 and m.key(c) == "c" and m.num_vars == 3
    m.card([a, b, c], ">=", 2)
    m.pb([(2, a), (-1, b)], "<=", 1)
    # a + b + c >= 2 and 2a - b <= 1: only assignments with a -> b
    ok = {(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)
          if m.satisfied_by([None, bool(x), bool(y), bool(z)])}
    assert ok == {(0, 1, 1), (1, 1, 0), (1, 1, 1)}


def test_model_ir_semantics_with_integer_variables() -> None:
    m = satdomino.Model("t")
    x = m.int_var("x", [0, 1, 2])
    two, ge1 = m.int_eq(x, 2), m.int_ge(x, 1)
    m.int_linear([(1, x)], ">=", 2)  # so x == 2: both views true
    ok = {(p, q) for p in (0, 1) for q in (0, 1) if m.satisfied_by({two: bool(p), ge1: bool(q)})}
    assert ok == {(1, 1)}  # x is read from its views
    assert not m.satisfied_by({two: True, ge1: True}, ints={"x": 1})  # or given
    assert m.satisfied_by({two: True, ge1: True}, ints={"x": 2})


def test_new_vars_names_in_order_and_refuses_a_name_used_twice() -> None:
    m = satdomino.Model("t")
    assert m.var("a") == 1
    assert list(m.new_vars(["b", "c"])) == [2, 3]
    assert [m.key(i) for i in (1, 2, 3)] == ["a", "b", "c"] and m.var("c") == 3
    for keys in (["d", "a"], ["e", "e"]):  # used before; twice in the same call
        with pytest.raises(ValueError, match=f"variable '{keys[1]}' is named twice"):
            m.new_vars(keys)
        # the model is as it was: no id for the new names, the old ones unchanged
        assert m.num_vars == 3 and not m.has("d") and not m.has("e")
        assert [m.var(k) for k in "abc"] == [1, 2, 3]


def test_exactly_ones_is_exactly_one_per_group_and_checks_every_literal() -> None:
    m, one_by_one = satdomino.Model("t"), satdomino.Model("t")
    for model in (m, one_by_one):
        model.new_vars("abcd")
    groups = [[1, 2], [3], [-4, 1, 2], []]
    m.exactly_ones(groups)
    for g in groups:
        one_by_one.exactly_one(g)
    assert m.constraints == one_by_one.constraints
    for bad, lit in (([[1, 0]], 0), ([[2], [5]], 5), ([[-5, 1]], -5)):
        with pytest.raises(ValueError, match=f"literal {lit} is not a variable"):
            m.exactly_ones(bad)
    assert len(m.constraints) == len(groups)


def test_solve_refuses_a_time_limit_it_cannot_keep() -> None:
    import math

    import satdomino
    from satdomino.puzzles import dominosa

    [(_, board)] = dominosa.parse("2:221200101201")
    for bad in (math.inf, math.nan, -1.0):  # inf was an OverflowError deep in select()
        with pytest.raises(satdomino.SatDominoError, match="timeout must be"):
            satdomino.solve(board, satdomino.family("dominosa"), timeout=bad)


@pytest.mark.parametrize("backend", ["minisat22", "highs-fj", "portfolio:minisat22+highs-fj",
                                     "z3"])
def test_a_solve_leaves_its_model_to_reference_counting(backend: str) -> None:
    """Nothing of a solve keeps its Model alive in a reference cycle: the cyclic collector
    would otherwise scan the whole Model once the solve turns it back on (3-7 ms at Dominosa
    N = 50, after the answer) before freeing it. A HiGHS run held it through its own method."""
    if "highs" in backend and not highs_installed():
        pytest.skip("highspy is not installed")
    board, _ = dominosa.planted(6, seed=2)
    gc.collect()
    gc.disable()
    try:
        before = sum(isinstance(o, Model) for o in gc.get_objects())
        out = satdomino.solve(board, satdomino.family("dominosa"), backend=backend,
                              unique=True, timeout=60)
        after = sum(isinstance(o, Model) for o in gc.get_objects())
    finally:
        gc.enable()
    assert out.status == "sat" and after == before


@pytest.mark.parametrize("example", ["dominosa/double6.txt", "pips/day.json",
                                     "dominofit/published-7x7.json", "doodlefit/planted-20.txt"])
@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "minicard"])
def test_bring_your_own_solver_round_trip(example, solver) -> None:
    """cnf() to a python-sat solver the test drives itself, decode() back: a checked layout;
    blocking it and solving again agrees with solve(unique=True)."""
    from pysat.solvers import Solver

    puzzle = satdomino.read(str(EXAMPLES / example))[0]
    enc = puzzle.cnf(encodings={"card": "native"} if solver == "minicard" else None)
    assert set(enc.projection) <= set(enc.variables.values())
    with Solver(name=solver, bootstrap_with=enc.formula) as s:
        assert s.solve()
        out = puzzle.decode(s.get_model())
        assert out.status == "sat" and puzzle.family.verify(puzzle.data, out.solution) == []
        assert puzzle.decode(dict.fromkeys(out.assignment, True)).solution == out.solution
        s.add_clause([-v for v in out.assignment if v in set(enc.projection)])
        assert (not s.solve()) == puzzle.solve(unique=True).unique


def test_decode_names_the_constraint_or_rule_an_assignment_breaks() -> None:
    puzzle = satdomino.read(str(EXAMPLES / "dominosa" / "double6.txt"))[0]
    with pytest.raises(satdomino.SatDominoError, match="breaks cell"):
        puzzle.decode([])  # nothing placed: the first cell is uncovered
    enc = puzzle.cnf()
    good = puzzle.solve().assignment
    two = sorted(good)[:1] + [v for v in enc.variables.values() if v not in good][:1]
    with pytest.raises(satdomino.SatDominoError, match="breaks"):
        puzzle.decode(list(good) + two)
    with pytest.raises(TypeError, match="must"):
        puzzle.decode(["1"])


@pytest.mark.parametrize("call, value", [("get_backend", None), ("get_backend", 5),
                                         ("family", ["x"]), ("family", {})])
def test_a_name_of_the_wrong_type_is_the_library_s_own_error(call: str, value) -> None:
    with pytest.raises(satdomino.SatDominoError):
        getattr(satdomino, call)(value)


@pytest.mark.parametrize("at", ["x", float("nan"), True, [1]])
def test_a_deadline_that_is_no_point_in_time_is_refused(at) -> None:
    with pytest.raises(satdomino.SatDominoError):
        satdomino.Deadline(at)
