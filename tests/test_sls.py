"""The local search ``sls`` (backends/_sls.c): every answer satisfies every constraint of the
model it was given, on random models of every constraint kind with a planted solution; it
stops, pauses and takes a start; bad arrays are refused, never a crash."""

from __future__ import annotations

import os
import random
import threading
import time
from array import array

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satdomino import family, solve
from satdomino.backends import get_backend
from satdomino.backends.sls import _arrays, sls_built
from satdomino.clock import Deadline
from satdomino.errors import UsageError
from satdomino.model import Model, holds
from satdomino.process.run import finish_within
from satdomino.puzzles import dominosa as D


def test_built_where_it_must_be() -> None:
    """CI sets SATDOMINO_REQUIRE_SLS: there the local search must have been compiled (a test
    run against a source tree without it would skip everything below)."""
    if os.environ.get("SATDOMINO_REQUIRE_SLS") and not sls_built():
        pytest.fail("sls is not built: install with pip install -e so it is built in place")


from .conftest import needs_sls  # noqa: E402


def planted_model(rng: random.Random) -> tuple[Model, dict[int, bool]]:
    """A model of every constraint kind, each made true by a hidden assignment."""
    m = Model("random")
    n = rng.randint(3, 14)
    xs = [m.var(i) for i in range(n)]
    value = {x: rng.random() < 0.4 for x in xs}

    def lit(x: int) -> int:
        return x if rng.random() < 0.5 else -x

    def true(lt: int) -> bool:
        return value[abs(lt)] == (lt > 0)

    # choices: disjoint groups with exactly one true variable each
    free = xs[:]
    rng.shuffle(free)
    while len(free) >= 3 and rng.random() < 0.5:
        group, free = free[:3], free[3:]
        for x in group:
            value[x] = False
        value[rng.choice(group)] = True
        m.exactly_one(group, choice=rng.random() < 0.7)
    for _ in range(rng.randint(1, 3 * n)):
        k = rng.randint(1, min(4, n))
        lits = [lit(x) for x in rng.sample(xs, k)]
        t = sum(map(true, lits))
        kind = rng.randrange(6)
        if kind == 0:
            lits = lits if t else [*lits[:-1], -lits[-1]]
            if any(map(true, lits)):
                m.add_clause(lits)
        elif kind == 1 and t <= 1:
            m.at_most_one(lits)
        elif kind == 2 and t == 1:
            m.exactly_one(lits)
        elif kind == 3:
            op = rng.choice(["<=", ">=", "=="])
            m.card(lits, op, t + {"<=": rng.randint(0, 1), ">=": -rng.randint(0, 1),
                                  "==": 0}[op])
        elif kind == 4:
            terms = [(rng.choice([-3, -2, -1, 1, 2, 3]), x) for x in lits]
            total = sum(w for w, x in terms if true(x))
            op = rng.choice(["<=", ">=", "=="])
            m.pb(terms, op, total)
        else:
            target = rng.choice(xs)
            others = [lit(x) for x in rng.sample([x for x in xs if x != target], min(2, n - 1))]
            how = rng.choice(["or", "and"])
            value_of = any(map(true, others)) if how == "or" else all(map(true, others))
            if value[target] == value_of:
                (m.define_or if how == "or" else m.define_and)(target, others)
    assert m.satisfied_by(value)
    return m, value


@needs_sls
def test_answers_satisfy_every_constraint_of_random_models() -> None:
    engine = get_backend("sls")
    rng = random.Random(7)
    for _ in range(300):
        m, _ = planted_model(rng)
        out = engine.solve(m, deadline=Deadline.after(10))
        assert out.status == "sat", m
        value = {x: x in out.true_vars for x in range(1, m.num_vars + 1)}
        assert m.satisfied_by(value), m.constraints


@needs_sls
def test_assumptions_and_seeds() -> None:
    rng = random.Random(3)
    for seed in range(40):
        m, value = planted_model(rng)
        assumptions = [x if value[x] else -x for x in rng.sample(sorted(value), 2)]
        out = get_backend(f"sls:seed={seed}").solve(m, assumptions, deadline=Deadline.after(10))
        assert out.status == "sat"
        assert all((abs(a) in out.true_vars) == (a > 0) for a in assumptions)


@needs_sls
def test_a_start_that_solves_is_the_answer() -> None:
    board, _ = D.planted(30, 4)
    m = D.build_placement(board)
    first = get_backend("sls").solve(m, deadline=Deadline.after(10))
    phases = [x if x in first.true_vars else -x for x in range(1, m.num_vars + 1)]
    for seed in range(3):  # every row holds from the start: no step is taken
        again = get_backend(f"sls:seed={seed}").solve(m, phases=phases, deadline=Deadline.after(10))
        assert again.true_vars == first.true_vars


@needs_sls
@pytest.mark.parametrize("n", [3, 8, 20, 45])
def test_dominosa_boards_every_answer_verified(n: int) -> None:
    for seed in range(3):
        board, _ = D.planted(n, seed)
        out = solve(board, family("dominosa"), backend="sls", timeout=30)
        assert out.status == "sat"  # solve() verified it against the rules


@needs_sls
def test_an_unsatisfiable_model_runs_until_stopped() -> None:
    m = Model("none")
    x = m.var("x")
    m.add_clause([x])
    m.add_clause([-x])
    t0 = time.monotonic()
    out = get_backend("sls").solve(m, deadline=Deadline.after(0.3))
    assert out.status == "unknown" and time.monotonic() - t0 < 2
    run = get_backend("sls").start(m)
    threading.Timer(0.2, run.pause).start()
    threading.Timer(0.4, run.stop).start()
    t0 = time.monotonic()
    out = run.result()  # paused, then stopped: it ends
    assert out.status == "unknown" and 0.35 < time.monotonic() - t0 < 3
    assert finish_within(get_backend("sls").start(m), Deadline.after(0.1)).status == "unknown"


@needs_sls
def test_models_it_cannot_take_are_refused_in_one_line() -> None:
    m = Model("ints")
    v = m.int_var("v", [1, 2, 3])
    m.int_linear([(1, v)], "==", 2)
    out = get_backend("sls").solve(m,
            deadline=Deadline.after(5))  # integer variables: one-value columns
    assert out.status == "sat"


ints = st.lists(st.integers(-3, 40), max_size=12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(-2, 12), starts=ints, var=ints, coef=ints, lo=ints, hi=ints, groups=ints,
       start=ints)
@needs_sls
def test_any_arrays_are_refused_or_solved_never_a_crash(n, starts, var, coef, lo, hi, groups,
                                                        start) -> None:
    from satdomino.backends import _sls

    args = (n, array("i", starts), array("i", var), array("i", coef), array("q", lo),
            array("q", hi), array("i", groups), array("i", start), 1, 0.05, array("i", [0, 0]))
    try:
        values = _sls.solve(*args)
    except (ValueError, TypeError):
        return
    assert values is None or len(values) == max(n, 0)


@needs_sls
def test_wrong_buffer_types_are_type_errors() -> None:
    from satdomino.backends import _sls

    m, _ = planted_model(random.Random(1))
    args = list(_arrays(m, (), (), {}))
    args[1] = array("q", args[1])  # 64-bit where C ints are expected
    with pytest.raises(TypeError):
        _sls.solve(*args, 1, 1.0, array("i", [0, 0]))
    with pytest.raises(UsageError):
        get_backend("sls:seed=x")


def exclusive_model(rng: random.Random) -> Model:
    """Variables split into exactly-one groups, some OR'd into variables marked exclusive
    (the Pips cell values' shape), and random rows over all of them, negations included."""
    m = Model("exclusive")
    xs = [m.var(("x", i)) for i in range(rng.randint(3, 8))]
    cut = rng.randint(1, len(xs) - 1)
    for group in (xs[:cut], xs[cut:]):
        m.exactly_one(group)
    defined = []
    for _ in range(rng.randint(1, 3)):
        group = rng.choice((xs[:cut], xs[cut:]))
        y = m.var(("y", len(defined)))
        m.define_or(y, rng.sample(group, rng.randint(1, len(group))), exclusive=True)
        defined.append(y)
    every = xs + defined
    for _ in range(rng.randint(1, 4)):
        lits = [v if rng.random() < 0.7 else -v for v in rng.sample(every, rng.randint(1, 3))]
        if rng.random() < 0.5:
            m.add_clause(lits)
        else:
            m.pb([(rng.randint(1, 3), v) for v in lits], rng.choice(("<=", ">=", "==")),
                 rng.randint(0, 4))
    return m


def test_sums_put_in_place_of_exclusive_definitions_keep_the_solutions() -> None:
    """The 0-1 program with exclusive OR definitions replaced by sums holds on exactly the
    assignments of the other variables that, completed, satisfy the model (brute force)."""
    from itertools import product

    import numpy as np

    from satdomino.backends.program import exclusive_sums, program_rows, with_sums

    rng = random.Random(5)
    checked = 0
    for _ in range(150):
        m = exclusive_model(rng)
        sums = exclusive_sums(m)
        assert sums and all(m.key(y)[0] == "y" for y in sums)
        rows = program_rows(m, sums)
        assert not set(rows.index.tolist()) & set(sums)  # no substituted variable is left
        free = [v for v in range(1, m.num_vars + 1) if v not in sums]
        for bits in product((0, 1), repeat=len(free)):
            x = np.zeros(m.num_vars + 1)
            x[free] = bits
            program = all(
                lo <= sum(rows.value[a:b] * x[rows.index[a:b]]) <= hi
                for a, b, lo, hi in zip(rows.starts[:-1], rows.starts[1:], rows.lower,
                                        rows.upper, strict=True))
            # the substituted variables set at random first: with_sums sets them by their sums
            wrong = {y for y in sums if rng.random() < 0.5}
            true = with_sums(frozenset(v for v, b in zip(free, bits, strict=True) if b) | wrong,
                             sums)
            value = [False] + [v in true for v in range(1, m.num_vars + 1)]
            assert program == all(holds(c, value) for c in m.constraints), m
            checked += program
    assert checked > 50  # solutions were there to agree on


@needs_sls
def test_sls_answers_pips_through_the_value_sums() -> None:
    """A planted Pips board solved by ``sls`` (its cells' values substituted): the answer
    passes the rule checker and sets every value variable as its placements say."""
    from satdomino.puzzles.pips import board as P

    p, _ = P.planted(30, 3)
    m = P.build_placement(p)
    result = get_backend("sls").solve(m, deadline=Deadline.after(60))
    assert result.status == "sat"
    assert not P.verify(p, P.decode(p, m, result.true_vars))
    value = [False] + [v in result.true_vars for v in range(1, m.num_vars + 1)]
    assert all(holds(c, value) for c in m.constraints)
    # started with every variable true (a phase hint), values included: still every one right
    again = get_backend("sls").solve(m, deadline=Deadline.after(60),
                                     phases=range(1, m.num_vars + 1))
    value = [False] + [v in again.true_vars for v in range(1, m.num_vars + 1)]
    assert again.status == "sat" and all(holds(c, value) for c in m.constraints)
