"""Counting distinct solutions: a family's exact counter where it has one, else enumeration
with blocking clauses on the projection variables (every solution found is verified)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from ..backends import Backend, get_backend
from ..backends.pysat_backend import PysatBackend
from ..encode import Encodings, lower
from ..errors import VerificationError
from .unique import blocking_clause


@dataclass
class Count:
    value: int
    method: str  # "dp" (the family's exact counter) or "enumeration"
    complete: bool  # False: enumeration stopped at the limit or the time limit
    seconds: float


def count(puzzle: Any, family, *, model: str | None = None, backend: str | Backend = "cadical195",
          encodings: Encodings = Encodings(), limit: int | None = None,
          timeout: float | None = None) -> Count:
    t0 = time.perf_counter()
    if family.exact_count is not None:
        return Count(family.exact_count(puzzle), "dp", True, time.perf_counter() - t0)
    engine = get_backend(backend) if isinstance(backend, str) else backend
    m = family.model(model)(puzzle)
    formula = m if engine.takes == "model" else lower(m, encodings)

    def check(true_vars: frozenset[int]) -> list[int]:
        problems = family.verify(puzzle, family.decode(puzzle, m, true_vars))
        if problems:
            raise VerificationError(f"enumerated {family.kind} layout breaks the rules: "
                                    f"{'; '.join(problems[:3])}")
        return blocking_clause(m.projection, true_vars)

    if isinstance(engine, PysatBackend) and timeout is None:
        found, complete = _incremental(engine.name, formula, check, limit)
        return Count(found, "enumeration", complete, time.perf_counter() - t0)
    deadline = None if timeout is None else t0 + timeout
    found = 0
    while limit is None or found < limit:
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        result = engine.solve(formula, time_limit=left)
        if result.status == "unsat":
            return Count(found, "enumeration", True, time.perf_counter() - t0)
        if result.status == "unknown":
            break
        found += 1
        clause = check(result.true_vars)
        if engine.takes == "model":
            formula.add_clause(clause)
        else:
            formula.clauses.append(clause)
    return Count(found, "enumeration", False, time.perf_counter() - t0)


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
