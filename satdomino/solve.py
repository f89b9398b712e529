"""The pipeline: puzzle -> model -> (CNF | Z3) -> backend -> decode -> verify."""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .auto import AUTO, Setup, setup
from .backends import Backend, Result, Session, Status, get_backend
from .backends.base import Formula, release, size, sized
from .backends.session import blocking_clause, record_new
from .clock import NEVER, Deadline, TimeUp
from .encode import Encodings
from .errors import VerificationError
from .family import Family
from .model import Model
from .ranges import time_limit
from .result import Count


@dataclass
class Outcome:
    """What ``solve`` found: ``status`` "sat", "unsat" or "unknown"; the ``solution`` (checked
    against the rules); with uniqueness asked, ``unique`` and, when not, ``other``, a second
    solution; ``stats`` (sizes, seconds, the backend, encodings and model that ran)."""

    status: Status
    solution: Any = None
    unique: bool | None = None
    other: Any = None  # a second, different solution when not unique
    count: Count | None = None  # when counting was asked
    assignment: frozenset[int] = frozenset()  # the model variables true in ``solution``
    stats: dict = field(default_factory=dict)
    # why the answer, or the uniqueness check, is unknown: the solver's own word ("time
    # limit", "the feasibility jump found no solution", "out of memory", ...)
    reason: str = ""
    # what was solved: the family, the puzzle, and where it came from (for ``json``)
    family: Family[Any, Any] | None = field(default=None, repr=False)
    puzzle: Any = field(default=None, repr=False)
    source: str | None = None
    name: str | None = None

    def json(self) -> dict[str, Any]:
        """The record ``satdomino solve --json`` prints for this puzzle: file, puzzle, kind,
        status, solution, unique (and other, a second solution, when not unique), stats, and
        reason and the count fields when they apply (docs/formats.md)."""
        render = (self.family.solution_json if self.family is not None
                  else lambda _, sol: sol)
        rec: dict[str, Any] = {
            "file": self.source, "puzzle": self.name,
            "kind": self.family.kind if self.family is not None else None,
            "status": self.status,
            "solution": render(self.puzzle, self.solution) if self.solution else None,
            "unique": self.unique}
        if self.other is not None:
            rec["other"] = render(self.puzzle, self.other)
        rec["stats"] = self.stats
        if self.reason:
            rec["reason"] = self.reason
        if self.count is not None:
            rec.update(count=self.count.value, count_method=self.count.method,
                       count_complete=self.count.complete, count_by=self.count.by,
                       count_seconds=round(self.count.seconds, 3),
                       count_raced=list(self.count.raced))
            if self.count.method == "approx":
                rec.update(epsilon=self.count.epsilon, delta=self.count.delta)
            if self.count.method == "estimate":
                rec.update(count_error=self.count.error)
        return rec


def solve(puzzle: Any, family: Family, *, model: str | None = None,
          backend: str | Backend = AUTO, encodings: Encodings | Mapping[str, str] | None = None,
          timeout: float | None = None, unique: bool = False,
          deadline: Deadline = NEVER) -> Outcome:
    """Solve one puzzle; with ``unique``, also decide whether its solution is the only one.

    ``backend`` "auto" (the default) picks the model, the encodings and the solver for the
    family and the puzzle's size (``satdomino.auto``); what is named wins: ``model``, a backend
    name or object, and ``encodings`` (an ``Encodings``, or a mapping naming some kinds, such
    as ``{"amo": "commander"}``). ``timeout`` seconds (or a ``deadline``, whichever comes first)
    cover building the model too. ``outcome.stats`` says what ran.

    Every solution returned has passed ``family.verify``; one that does not raises
    VerificationError (a bug in a model or encoding, never shown as an answer).
    """
    limit = time_limit(timeout, deadline)
    with _gc_paused():
        out = _solve(puzzle, family, setup(puzzle, family, model, backend, encodings), limit,
                     unique)
    out.family, out.puzzle = family, puzzle
    return out


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Building and lowering a model allocate many small tuples and lists and free none of
    them: the cyclic collector would scan them again and again for nothing (a third of the
    time to build and lower the 61x62 Dominosa board of N = 60)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _solve(puzzle: Any, family: Family, chosen: Setup, deadline: Deadline,
           unique: bool) -> Outcome:
    engine = get_backend(chosen.backend) if isinstance(chosen.backend, str) else chosen.backend
    t0 = time.perf_counter()
    engine.prepare()
    session = None
    try:  # building, lowering and loading are Python loops: the deadline stops them too
        with deadline.interrupting():
            m = family.model(chosen.model)(puzzle)
            formula = engine.formula(m, chosen.encodings)
            session = engine.session(formula)
    except TimeUp:
        if session is not None:
            session.close()
        return Outcome("unknown", reason="time limit, while building and encoding",
                       stats={"variables": None, "clauses": None,
                              "encode_seconds": round(time.perf_counter() - t0, 6),
                              "solve_seconds": 0.0, "backend": chosen.label})
    out = Outcome("unknown", stats={"variables": None, "clauses": None,
                                    "encode_seconds": round(time.perf_counter() - t0, 6)})
    with session:
        _answer(out, puzzle, family, m, session, formula, deadline, unique)
    n_vars, n_clauses = size(formula)  # after: a portfolio lowers its CNF when a member asks
    release(formula)
    out.stats.update(
        variables=n_vars, clauses=n_clauses, backend=chosen.label,
        encodings=chosen.encodings.as_dict() if engine.takes != "model" else {"model": "native"},
        model=m.name)
    return out


def _answer(out: Outcome, puzzle: Any, family: Family, m: Model, session: Session,
            formula: Formula, deadline: Deadline, unique: bool) -> None:
    """The solve (and with ``unique`` the second solve, which must differ on the
    projection), into ``out``."""
    first = session.solve(deadline=deadline)
    out.status, out.reason = first.status, _why_unknown(first)
    seconds = first.seconds
    if first.status == "unsat" and family.obstacles is not None:
        out.reason = "; ".join(family.obstacles(puzzle)[:3])
    if first.status == "sat":
        out.solution = checked(puzzle, family, m, first.true_vars)
        out.assignment = frozenset(x for x in first.true_vars if 0 < x <= m.num_vars)
    if unique and first.status == "sat":
        session.add([blocking_clause(m.projection, first.true_vars)])
        # a second solution, if any, usually differs from the first in a few places: the
        # search starts from the first (what an incremental solver's saved phases would do)
        phases = near(first.true_vars, formula) if session.takes_phases else ()
        second = session.solve(deadline=deadline, phases=phases)
        seconds += second.seconds
        out.stats["unique_seconds"] = round(second.seconds, 6)
        if second.status == "sat":
            seen: set[bytes] = set()
            for answer in (first, second):
                record_new(m.projection, answer.true_vars, seen, session.name,
                           again="the first solution again")
            out.unique = False
            out.other = checked(puzzle, family, m, second.true_vars)
        elif second.status == "unsat":
            out.unique = True
        else:
            out.reason = _why_unknown(second)
    out.stats["solve_seconds"] = round(seconds, 6)


def _why_unknown(result: Result) -> str:
    return (result.note or "no answer") if result.status == "unknown" else ""


def near(true_vars: frozenset[int], formula: Formula) -> list[int]:
    """Every variable of ``formula`` as the literal it has in an answer: phases to search near
    that answer."""
    return [v if v in true_vars else -v for v in range(1, sized(formula).num_vars + 1)]


def checked(puzzle: Any, family: Family, m: Model, true_vars: frozenset[int]) -> Any:
    """The layout the true variables of ``m`` describe, checked by the family's rules
    (VerificationError if it breaks them: a bug, never shown)."""
    solution = family.decode(puzzle, m, true_vars)
    problems = family.verify(puzzle, solution)
    if problems:
        raise VerificationError(f"a {family.kind} layout decoded from the solver's answer breaks "
                                f"the rules: {'; '.join(problems[:3])}")
    return solution
