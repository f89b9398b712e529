"""One incremental solver session: what every analysis that asks a solver more than once talks
to (uniqueness, counting, explanations, the generators' repair loops, the cover counter).

``interrupt()`` from any thread ends the solve under way with "unknown" where the solver
listens (``interruptible``, or a solve running in a forked copy under a deadline; CaDiCaL,
Kissat and Lingeling solving here without one run on); one sent between solves is forgotten.
``Backend.session`` makes one: python-sat solvers keep one solver in this process, Z3 one Z3
solver, and any other backend solves again from the formula each time.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Callable, Iterable, Sequence
from typing import Literal

from ..clock import NEVER, Deadline
from ..errors import BackendError, VerificationError
from ..result import Result

# how an enumeration ended: every solution found, the limit reached, or stopped (deadline)
Ended = Literal["all", "limit", "stopped"]


def blocking_clause(projection: Iterable[int], true_vars: frozenset[int]) -> list[int]:
    """The clause "some projection variable differs from this solution"."""
    return [-x if x in true_vars else x for x in projection]


def record_new(projection: Iterable[int], true_vars: frozenset[int], seen: set[bytes],
               solver: str, again: str = "a solution it had already given") -> None:
    """Add a solution to ``seen`` as a 128-bit digest of the projection variables it makes
    true (so that millions of answers take tens of MB). One already there means ``solver``
    broke the clause that forbids it: a count or a uniqueness verdict would be wrong."""
    answer = hashlib.blake2b(array("i", sorted(x for x in projection if x in true_vars))
                             .tobytes(), digest_size=16).digest()
    if answer in seen:
        raise VerificationError(f"{solver} answered {again}, against the clause that "
                                "forbids it")
    seen.add(answer)


class Session:
    """One solver kept across calls (see the module docstring)."""

    name = "session"
    takes_phases = False  # honours ``phases`` in ``solve``
    interruptible = False  # solves in this process and stops at once on ``interrupt``

    def add(self, clauses: Iterable[Sequence[int]]) -> None:
        """Add clauses over the formula's variables (or new ones above them)."""
        raise NotImplementedError

    def solve(self, assumptions: Sequence[int] = (), *, deadline: Deadline = NEVER,
              conflicts: int | None = None, phases: Sequence[int] = ()) -> Result:
        """Solve under ``assumptions``; "unknown" at the deadline, after ``conflicts``
        conflicts (where the solver counts them), or on ``interrupt``."""
        raise NotImplementedError

    def core(self) -> list[int]:
        """The assumptions the last unsat answer needed (a subset of them)."""
        raise BackendError(f"{self.name} gives no unsatisfiable cores")

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        """(no conflict, the literals unit propagation gives) from ``assumptions``, without
        search."""
        raise BackendError(f"{self.name} does not propagate on demand")

    def interrupt(self) -> None:
        """From any thread: the solve under way ends soon with "unknown" (where the solver
        listens: see the module docstring); no effect between solves."""

    def enumerate(self, projection: Sequence[int], on_solution: Callable[[frozenset[int]], None],
                  *, deadline: Deadline = NEVER, limit: int | None = None) -> tuple[int, Ended]:
        """Solutions that differ on ``projection``, each given to ``on_solution`` (its true
        variables) and then blocked: (how many, how it ended)."""
        found = 0
        while limit is None or found < limit:
            answer = self.solve(deadline=deadline)
            if answer.status != "sat":
                return found, "all" if answer.status == "unsat" else "stopped"
            found += 1
            on_solution(answer.true_vars)
            self.add([blocking_clause(projection, answer.true_vars)])
        return found, "limit"

    def close(self) -> None:
        """Free the solver."""

    def __enter__(self) -> Session:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
