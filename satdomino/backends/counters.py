"""Counting solvers: Ganak's exact projected count (``pyganak``), and a CryptoMiniSat session
with native XOR constraints (``pycryptosat``) for ApproxMC's hashes (``analysis.approx``).
Both are optional: imported when first used, and said to be missing in one line."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterable, Sequence

from ..clock import NEVER, Deadline
from ..errors import BackendError
from ..result import Result
from .highs_backend import no_stdout
from .session import Session


def ganak_available() -> bool:
    return importlib.util.find_spec("pyganak") is not None


def ganak_count(clauses: list[list[int]], projection: Sequence[int], num_vars: int) -> int:
    """The exact number of assignments to ``projection`` that extend to models of
    ``clauses``, by Ganak (which prints comment lines on standard output whatever its
    verbosity: they go nowhere)."""
    try:
        import pyganak
    except ImportError:
        raise BackendError("exact model counting needs pyganak (pip install pyganak)") from None
    if any(not c for c in clauses):
        return 0
    with no_stdout():
        counter = pyganak.Counter()
        counter.new_vars(num_vars)
        counter.add_clauses(clauses)
        counter.set_sampling_set(list(projection))
        return int(counter.count())


class CmsSession(Session):
    """CryptoMiniSat in this process, with native XOR constraints (``add_xor``). It has no
    interrupt: a deadline is checked between solves (``analysis.approx`` runs it in a forked
    child that is killed)."""

    name = "cryptominisat"

    def __init__(self, clauses: Iterable[Sequence[int]], num_vars: int) -> None:
        try:
            import pycryptosat
        except ImportError:
            raise BackendError("approximate counts need pycryptosat (pip install pycryptosat)"
                               ) from None
        self._solver = pycryptosat.Solver(threads=1)
        self.add(clauses)

    def add(self, clauses: Iterable[Sequence[int]]) -> None:
        self._solver.add_clauses([list(c) for c in clauses])

    def add_xor(self, variables: Sequence[int], rhs: bool) -> None:
        """The XOR of ``variables`` (positive ids) is ``rhs``."""
        self._solver.add_xor_clause(list(variables), rhs)

    def solve(self, assumptions: Sequence[int] = (), *, deadline: Deadline = NEVER,
              conflicts: int | None = None, phases: Sequence[int] = ()) -> Result:
        t0 = time.perf_counter()
        if deadline.passed():
            return Result("unknown", note="time limit")
        ok, model = self._solver.solve(list(assumptions))
        if not ok:
            return Result("unsat", seconds=time.perf_counter() - t0)
        true = frozenset(x for x in range(1, len(model)) if model[x])
        return Result("sat", true, time.perf_counter() - t0)
