"""Counting distinct solutions: SAT enumeration with blocking clauses on the projection (every
solution found is verified), and a family's exact counter where it has one."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..backends import Backend, get_backend
from ..backends.base import add_clause
from ..backends.child import run_in_child
from ..backends.pysat_backend import PysatBackend, open_solver
from ..backends.z3_backend import Z3Backend
from ..encode import Encodings
from ..errors import UnknownNameError, VerificationError
from .unique import blocking_clause, record_new


@dataclass
class Count:
    value: int
    method: str  # "enumeration" (SAT, blocking clauses) or "dp" (the family's exact counter)
    complete: bool  # False: stopped at --limit or the time limit (value is then a lower bound)
    seconds: float
    by: str = "placement"
    reason: str = ""  # why it is incomplete: "time limit", "--limit reached", ...


SWITCH = 200  # with an exact counter at hand, enumerate only this many before using it


def count(puzzle: Any, family, *, model: str | None = None, backend: str | Backend = "auto",
          encodings: Encodings | Mapping[str, str] | None = None, limit: int | None = None,
          timeout: float | None = None, by: str = "placement", known=None) -> Count:
    """Distinct solutions. By placement, a portfolio: SAT enumeration (fast when there are few)
    and, past SWITCH solutions, the family's exact counter if it has one. Without one, and for
    the other views (``by`` one of the family's ``count_views``: distinct grids, distinct
    tilings), projected enumeration runs to the end or to ``limit``. ``timeout`` bounds the
    whole count. ``known``: an Outcome of ``solve`` on the same puzzle, whose unsat answer or
    proved uniqueness is reused (both are exhaustive enumerations already). ``backend`` and
    ``encodings`` as in ``solve``; "auto" enumerates with a complete, incremental solver."""
    from ..auto import setup

    chosen = setup(puzzle, family.kind, model, backend, encodings, task="count")
    model, backend, encodings = chosen.model, chosen.backend, chosen.encodings
    t0 = time.perf_counter()
    deadline = None if timeout is None else t0 + timeout

    def done(value: int, method: str, complete: bool, why: str = "") -> Count:
        if not complete and not why:
            why = ("--limit reached" if limit is not None and value >= limit
                   else "time limit")
        return Count(value, method, complete, time.perf_counter() - t0, by, why)

    if known is not None and (known.status == "unsat" or known.unique is True):
        return done(0 if known.status == "unsat" else 1, "enumeration", True)
    if by != "placement":
        if by not in family.count_views:
            raise UnknownNameError(f"{family.kind} cannot count by {by!r}; it counts by "
                                   f"{', '.join(['placement', *family.count_views])}")
        build = family.count_views[by]
        found, complete = _enumerate(puzzle, family, build, backend, encodings, limit, deadline)
        return done(found, "enumeration", complete)
    exact = family.exact_count
    build = family.model(model)
    found, complete = _enumerate(puzzle, family, build, backend, encodings,
                                 SWITCH if exact else limit, deadline)
    if complete or exact is None or found < SWITCH:
        return done(found, "enumeration", complete)
    try:
        if deadline is None:
            return done(exact(puzzle), "dp", True)
        finished, value = run_in_child("exact counter", exact, (puzzle,), _left(deadline))
        return done(value, "dp", True) if finished else done(found, "enumeration", False)
    except RecursionError:  # a board too large for the counter's recursion
        return done(found, "enumeration", False,
                    "the exact counter's recursion is too deep for this board")


def _left(deadline: float) -> float:
    return max(0.0, deadline - time.perf_counter())


def _enumerate(puzzle, family, build, backend, encodings, limit, deadline) -> tuple[int, bool]:
    """Solutions that differ on the model's projection, each verified, up to ``limit``."""
    engine = get_backend(backend) if isinstance(backend, str) else backend
    engine.prepare()  # before the puzzle is built, as ``solve`` does
    m = build(puzzle)
    formula = engine.formula(m, encodings)

    seen: set[frozenset[int]] = set()

    def check(true_vars: frozenset[int]) -> list[int]:
        problems = family.verify(puzzle, family.decode(puzzle, m, true_vars))
        if problems:
            raise VerificationError(f"enumerated {family.kind} layout breaks the rules: "
                                    f"{'; '.join(problems[:3])}")
        record_new(m.projection, true_vars, seen, engine.name)
        return blocking_clause(m.projection, true_vars)

    if isinstance(engine, Z3Backend) or isinstance(engine, PysatBackend) and engine.incremental:
        session = _pysat_session if isinstance(engine, PysatBackend) else _z3_session
        if deadline is None:
            return session(engine.name, formula, check, limit, _Tally())
        # in a child that is killed at the deadline; it reports progress as it goes
        progress = multiprocessing.get_context("fork").Value("q", 0)
        finished, result = run_in_child(engine.name, session,
                                        (engine.name, formula, check, limit, progress),
                                        _left(deadline))
        return result if finished else (progress.value, False)
    found = 0  # any other backend: one solver call per solution
    while limit is None or found < limit:
        result = engine.solve(formula, time_limit=None if deadline is None else _left(deadline))
        if result.status == "unsat":
            return found, True
        if result.status == "unknown":
            break
        found += 1
        add_clause(formula, check(result.true_vars))
    return found, False


class _Tally:
    value = 0


def _pysat_session(name: str, cnf, check, limit: int | None, progress) -> tuple[int, bool]:
    """One python-sat solver kept across solutions: each blocking clause is added to it."""
    with open_solver(name, cnf) as s:
        while limit is None or progress.value < limit:
            if not s.solve():
                return progress.value, True
            progress.value += 1
            s.add_clause(check(frozenset(x for x in s.get_model() if x > 0)))
    return progress.value, False


def _z3_session(name: str, formula, check, limit: int | None, progress) -> tuple[int, bool]:
    """One Z3 solver kept across solutions (on the CNF or on the Model's native formulas)."""
    import z3

    from ..backends.z3_backend import true_ids, z3_clause, z3_solver

    s, xs = z3_solver(formula)
    while limit is None or progress.value < limit:
        answer = s.check()
        if answer == z3.unsat:
            return progress.value, True
        if answer != z3.sat:
            break
        progress.value += 1
        s.add(z3_clause(xs, check(frozenset(true_ids(s, xs)))))
    return progress.value, False
