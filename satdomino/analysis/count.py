"""Counting distinct solutions: a family's exact counter where it has one, else enumeration
with blocking clauses on the projection variables (every solution found is verified)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..backends import Backend, get_backend
from ..backends.pysat_backend import PysatBackend
from ..encode import Encodings, lower
from ..errors import UnknownNameError, VerificationError
from .unique import blocking_clause


@dataclass
class Count:
    value: int
    method: str  # "enumeration" (SAT, blocking clauses) or "dp" (the family's exact counter)
    complete: bool  # False: enumeration stopped at --limit or the time limit
    seconds: float
    by: str = "placement"


SWITCH = 200  # with an exact counter at hand, enumerate only this many before using it


def count(puzzle: Any, family, *, model: str | None = None, backend: str | Backend = "cadical195",
          encodings: Encodings = Encodings(), limit: int | None = None,
          timeout: float | None = None, by: str = "placement", known=None) -> Count:
    """Distinct solutions. By placement, a portfolio: SAT enumeration with blocking clauses
    (fast when there are few, and every one found is verified); past SWITCH solutions, the
    family's exact counter if it has one. Without one, and for the other views (``by`` one of
    the family's ``count_views``: distinct grids, distinct tilings), projected enumeration runs
    to the end or to ``limit``. ``known``: an Outcome of ``solve`` on the same puzzle, whose
    unsat answer or proved uniqueness is reused (both are exhaustive enumerations already)."""
    t0 = time.perf_counter()
    if known is not None and (known.status == "unsat" or known.unique is True):
        # a solve that proved there is no placement, or exactly one, settles every view
        found = 0 if known.status == "unsat" else 1
        return Count(found, "enumeration", True, time.perf_counter() - t0, by)
    if by != "placement":
        if by not in family.count_views:
            raise UnknownNameError(f"{family.kind} cannot count by {by!r}; it counts by "
                                   f"{', '.join(['placement', *family.count_views])}")
        build = family.count_views[by]
        found, complete = _enumerate(puzzle, family, build, backend, encodings, limit, timeout)
        return Count(found, "enumeration", complete, time.perf_counter() - t0, by)
    cap = SWITCH if family.exact_count is not None else limit
    build = family.model(model)
    found, complete = _enumerate(puzzle, family, build, backend, encodings, cap, timeout)
    if not complete and family.exact_count is not None and found == SWITCH:
        return Count(family.exact_count(puzzle), "dp", True, time.perf_counter() - t0)
    return Count(found, "enumeration", complete, time.perf_counter() - t0)


def _enumerate(puzzle, family, build, backend, encodings, limit, timeout) -> tuple[int, bool]:
    """Solutions that differ on the model's projection, each verified, up to ``limit``."""
    t0 = time.perf_counter()
    engine = get_backend(backend) if isinstance(backend, str) else backend
    m = build(puzzle)
    formula = m if engine.takes == "model" else lower(m, encodings)

    def check(true_vars: frozenset[int]) -> list[int]:
        problems = family.verify(puzzle, family.decode(puzzle, m, true_vars))
        if problems:
            raise VerificationError(f"enumerated {family.kind} layout breaks the rules: "
                                    f"{'; '.join(problems[:3])}")
        return blocking_clause(m.projection, true_vars)

    if isinstance(engine, PysatBackend) and timeout is None:
        return _incremental(engine.name, formula, check, limit)
    deadline = None if timeout is None else t0 + timeout
    found = 0
    while limit is None or found < limit:
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        result = engine.solve(formula, time_limit=left)
        if result.status == "unsat":
            return found, True
        if result.status == "unknown":
            break
        found += 1
        clause = check(result.true_vars)
        if engine.takes == "model":
            formula.add_clause(clause)
        else:
            formula.clauses.append(clause)
    return found, False
def _incremental(name: str, cnf, check, limit: int | None) -> tuple[int, bool]:
    """One python-sat solver kept across solutions: each blocking clause is added to it."""
    from pysat.solvers import Solver

    found = 0
    with Solver(name=name, bootstrap_with=cnf.clauses) as s:
        for lits, k in cnf.atmosts:
            s.add_atmost(lits, k)
        while limit is None or found < limit:
            if not s.solve():
                return found, True
            found += 1
            s.add_clause(check(frozenset(x for x in s.get_model() if x > 0)))
    return found, False
