"""Every encoding allows exactly the input assignments its constraint allows.

For each input assignment we ask whether the clauses can be extended (auxiliaries are
existentially quantified): the clauses' meaning, not what one solver happened to return.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

import pytest
from pysat.solvers import Solver

from satdomino.encode import REGISTRY, Encodings, lower
from satdomino.model import AtMostOne, Clause, ExactlyOne, Model, compare


def allowed_assignments(model: Model, encodings: Encodings, n: int) -> set[tuple[bool, ...]]:
    cnf = lower(model, encodings)
    solver = "minicard" if cnf.atmosts else "minisat22"
    ok = set()
    with Solver(name=solver, bootstrap_with=cnf.clauses) as s:
        for lits, k in cnf.atmosts:
            s.add_atmost(lits, k)
        for bits in itertools.product([False, True], repeat=n):
            if s.solve(assumptions=[i + 1 if b else -(i + 1) for i, b in enumerate(bits)]):
                ok.add(bits)
    return ok


def projected_models(model: Model, encodings: Encodings) -> set[tuple[bool, ...]]:
    """Every assignment of the model's own variables that the clauses allow (auxiliaries
    existentially quantified), by complete enumeration with blocking clauses."""
    cnf = lower(model, encodings)
    n = model.num_vars
    out = set()
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            model_bits = s.get_model()[:n]
            out.add(tuple(x > 0 for x in model_bits))
            s.add_clause([-x for x in model_bits])
    return out


def fresh(n: int) -> tuple[Model, list[int]]:
    m = Model("t")
    return m, [m.var(i) for i in range(n)]


@pytest.mark.parametrize("name", list(REGISTRY["amo"]))
@pytest.mark.parametrize("exactly", [False, True])
def test_amo_and_exactly_one(name: str, exactly: bool) -> None:
    for n in range(9):
        m, xs = fresh(n)
        (m.exactly_one if exactly else m.at_most_one)(xs)
        got = allowed_assignments(m, Encodings(amo=name), n)
        want = {bits for bits in itertools.product([False, True], repeat=n)
                if (sum(bits) == 1 if exactly else sum(bits) <= 1)}
        assert got == want, (name, n)


@pytest.mark.parametrize("name", list(REGISTRY["card"]))
def test_cardinality(name: str) -> None:
    for n in range(6):
        for op in ("<=", ">=", "=="):
            for bound in range(-1, n + 2):
                m, xs = fresh(n)
                # mixed polarity: the encoders must handle negated literals
                lits = [x if x % 3 else -x for x in xs]
                m.card(lits, op, bound)
                got = allowed_assignments(m, Encodings(card=name), n)
                want = {bits for bits in itertools.product([False, True], repeat=n)
                        if compare(sum(b == (x > 0) for b, x in zip(bits, lits, strict=True)),
                                   op, bound)}
                assert got == want, (name, n, op, bound)


def test_totalizer_is_exact_and_cut_at_the_bound() -> None:
    # our own totalizer: python-sat's is O(n^2) for a small k over many literals
    for n in range(1, 10):
        for k in range(-1, n + 2):
            for op in ("<=", ">=", "=="):
                m, xs = fresh(n)
                lits = [x if x % 4 else -x for x in xs]
                m.card(lits, op, k)
                assert allowed_assignments(m, Encodings(card="totalizer"), n) == {
                    bits for bits in itertools.product([False, True], repeat=n)
                    if compare(sum(b == (x > 0) for b, x in zip(bits, lits, strict=True)),
                               op, k)}, (n, k, op)
    m, xs = fresh(1500)
    m.card(xs, "==", 3)
    assert len(lower(m, Encodings(card="totalizer")).clauses) < 30_000  # python-sat: 1.6 M


@pytest.mark.parametrize("name", list(REGISTRY["pb"]))
def test_pseudo_boolean(name: str) -> None:
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(1, 5)
        m, xs = fresh(n)
        terms = [(rng.choice([-3, -2, -1, 1, 2, 3, 5]), x if rng.random() < 0.7 else -x)
                 for x in xs]
        op = rng.choice(["<=", ">=", "=="])
        total = sum(abs(w) for w, _ in terms)
        bound = rng.randint(-total - 1, total + 1)
        m.pb(terms, op, bound)
        got = allowed_assignments(m, Encodings(pb=name), n)
        want = set()
        for bits in itertools.product([False, True], repeat=n):
            value = sum(w for w, x in terms if bits[abs(x) - 1] == (x > 0))
            if compare(value, op, bound):
                want.add(bits)
        assert got == want, (name, terms, op, bound)


def test_definitions_and_clauses() -> None:
    m, (a, b, c, d) = fresh(4)
    m.define_or(a, [b, -c])
    m.define_and(d, [b, c])
    m.add_clause([a, d])
    got = allowed_assignments(m, Encodings(), 4)
    want = {bits for bits in itertools.product([False, True], repeat=4)
            if m.satisfied_by([None, *bits])}
    assert got == want and 0 < len(want) < 16


def test_model_variables_keep_their_ids_and_pool_is_shared() -> None:
    m, xs = fresh(6)
    m.exactly_one(xs)
    m.card(xs, "<=", 2)
    m.pb([(2, xs[0]), (3, xs[1]), (1, xs[2])], ">=", 2)
    cnf = lower(m, Encodings(amo="commander", card="seqcounter", pb="bdd"))
    assert cnf.model_vars == 6
    used = {abs(x) for cl in cnf.clauses for x in cl}
    assert max(used) <= cnf.num_vars
    assert set(range(1, 7)) <= used  # model ids appear unchanged


@pytest.mark.parametrize("name", list(REGISTRY["int"]))
def test_integer_views_and_linear_sums(name: str) -> None:
    """Views x == k and x >= k over domains with holes, and a linear constraint over two
    integers and a Boolean: the clauses allow exactly the view values some (x, y, b) gives."""
    for dom_x, dom_y, (cx, cy, cb, op, bound) in [
        ((0, 1, 2, 3), (1, 2), (2, -1, 1, ">=", 2)),
        ((0, 2, 5), (0, 3, 4, 7), (1, 1, 3, "==", 7)),
        ((3,), (-1, 0, 2), (1, 2, -2, "<=", 4)),
    ]:
        m = Model("ints")
        b = m.var("b")
        x, y = m.int_var("x", dom_x), m.int_var("y", dom_y)
        views = [(x, "==", k) for k in range(-1, 7)] + [(x, ">=", k) for k in range(-1, 7)]
        views += [(y, "==", k) for k in range(-2, 8)]
        ids = [m.int_eq(v, k) if op2 == "==" else m.int_ge(v, k) for v, op2, k in views]
        m.int_linear([(cx, x), (cy, y)], op, bound, bools=[(cb, b)])
        n = m.num_vars
        got = projected_models(m, Encodings(int=name))
        want = set()
        for vx in dom_x:
            for vy in dom_y:
                for vb in (False, True):
                    if not compare(cx * vx + cy * vy + cb * vb, op, bound):
                        continue
                    val = {"x": vx, "y": vy}
                    bits = [False] * n
                    bits[b - 1] = vb
                    for (v, op2, k), vid in zip(views, ids, strict=True):
                        bits[vid - 1] = val[v.key] == k if op2 == "==" else val[v.key] >= k
                    want.add(tuple(bits))
        assert got == want, (name, dom_x, dom_y)


def test_a_constraint_lowering_does_not_know_is_refused_not_dropped() -> None:
    @dataclass(frozen=True)
    class Unknown:  # not one of the IR's kinds
        lits: tuple[int, ...]

    m, xs = fresh(2)
    m.constraints.append(Unknown(tuple(xs)))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="cannot lower"):
        lower(m)


@pytest.mark.parametrize("base", [ExactlyOne, AtMostOne, Clause])
def test_a_subclass_of_a_constraint_kind_is_lowered_as_that_kind(base) -> None:
    class Named(base):  # e.g. a family's own name for one of its rules
        pass

    m, xs = fresh(3)
    m.constraints.append(base(tuple(xs)))
    plain = lower(m).clauses
    m.constraints[-1] = Named(tuple(xs))
    assert lower(m).clauses == plain
