"""The pipeline: puzzle -> model -> (CNF | Z3) -> backend -> decode -> verify."""

from __future__ import annotations

import gc
import signal
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .analysis import blocking_clause
from .analysis.unique import record_new
from .auto import AUTO, Setup, setup
from .backends import Backend, Result, Status, get_backend
from .backends.base import Formula, add_clause, size
from .encode import Encodings
from .errors import UsageError, VerificationError
from .model import Model
from .puzzles import Family


@dataclass
class Outcome:
    """What ``solve`` found: ``status`` "sat", "unsat" or "unknown"; the ``solution`` (checked
    against the rules); with uniqueness asked, ``unique`` and, when not, ``other``, a second
    solution; ``stats`` (sizes, seconds, the backend, encodings and model that ran)."""

    status: Status
    solution: Any = None
    unique: bool | None = None
    other: Any = None  # a second, different solution when not unique
    count: Any = None  # an analysis.count.Count when counting was asked
    assignment: frozenset[int] = frozenset()  # the model variables true in ``solution``
    stats: dict = field(default_factory=dict)
    # why the answer, or the uniqueness check, is unknown: the solver's own word ("time
    # limit", "the feasibility jump found no solution", "out of memory", ...)
    reason: str = ""
    # what was solved: the family, the puzzle, and where it came from (for ``json``)
    family: Any = field(default=None, repr=False)
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
                       count_complete=self.count.complete, count_by=self.count.by)
            if self.count.method == "approx":
                rec.update(epsilon=self.count.epsilon, delta=self.count.delta)
        return rec


def solve(puzzle: Any, family: Family, *, model: str | None = None,
          backend: str | Backend = AUTO, encodings: Encodings | Mapping[str, str] | None = None,
          timeout: float | None = None, unique: bool = False) -> Outcome:
    """Solve one puzzle; with ``unique``, also decide whether its solution is the only one.

    ``backend`` "auto" (the default) picks the model, the encodings and the solver for the
    family and the puzzle's size (``satdomino.auto``); what is named wins: ``model``, a backend
    name or object, and ``encodings`` (an ``Encodings``, or a mapping naming some kinds, such
    as ``{"amo": "commander"}``). ``outcome.stats`` says what ran.

    Every solution returned has passed ``family.verify``; one that does not raises
    VerificationError (a bug in a model or encoding, never shown as an answer).
    """
    if timeout is not None and not 0 <= timeout <= MAX_TIMEOUT:  # nan fails this too
        raise UsageError(f"timeout must be between 0 and {MAX_TIMEOUT:g} seconds, "
                         f"not {timeout!r}")
    with _gc_paused():
        out = _solve(puzzle, family, setup(puzzle, family.kind, model, backend, encodings),
                     timeout, unique)
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


MAX_TIMEOUT = 1e6  # seconds; larger values overflow the waits of the process layer


class TimeUp(Exception):
    pass


@contextmanager
def ringing_after(timeout: float | None) -> Iterator[None]:
    """Raise TimeUp in the block once ``timeout`` seconds have passed: building a model and
    lowering it are Python loops that look at no clock (a large Pips puzzle took 3.3 s of a
    2 s limit). SIGALRM, so only in the main thread, and a C call that runs long finishes
    first; an alarm already set that rings sooner is left alone."""
    if timeout is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def ring(signum: int, frame: object) -> None:
        raise TimeUp

    previous = signal.signal(signal.SIGALRM, ring)
    t0 = time.monotonic()
    earlier, _ = signal.setitimer(signal.ITIMER_REAL, max(timeout, 1e-6))
    if 0 < earlier <= timeout:  # someone else's alarm (compare's backstop) comes first
        signal.setitimer(signal.ITIMER_REAL, earlier)
        signal.signal(signal.SIGALRM, previous)
        previous = None
    try:
        yield
    finally:
        if previous is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
            if earlier > 0:  # what was left of it
                signal.setitimer(signal.ITIMER_REAL,
                                 max(earlier - (time.monotonic() - t0), 1e-6))


def _solve(puzzle: Any, family: Family, chosen: Setup, timeout: float | None,
           unique: bool) -> Outcome:
    model, encodings = chosen.model, chosen.encodings
    engine = get_backend(chosen.backend) if isinstance(chosen.backend, str) else chosen.backend
    t0 = time.perf_counter()
    engine.prepare()
    # the time limit covers the whole puzzle: the solver gets what building left of it
    deadline = None if timeout is None else t0 + timeout
    try:
        with ringing_after(timeout):
            m = family.model(model)(puzzle)
            formula = engine.formula(m, encodings)
    except TimeUp:
        return Outcome("unknown", reason="time limit, while building and encoding",
                       stats={"variables": None, "clauses": None,
                              "encode_seconds": round(time.perf_counter() - t0, 6),
                              "solve_seconds": 0.0, "backend": chosen.label})
    n_vars, n_clauses = size(formula)
    encode_seconds = time.perf_counter() - t0

    def remaining() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    first = engine.solve(formula, time_limit=remaining())
    solve_seconds = first.seconds
    unique_seconds = None
    out = Outcome(first.status, reason=_why_unknown(first))
    if first.status == "sat":
        out.solution = _checked(puzzle, family, m, first)
        out.assignment = frozenset(x for x in first.true_vars if 0 < x <= m.num_vars)
        if unique:
            block = blocking_clause(m.projection, first.true_vars)
            add_clause(formula, block)
            # a second solution, if any, usually differs from the first in a few places: the
            # search starts from the first (what an incremental solver's saved phases would do)
            phases = near(first.true_vars, formula) if engine.takes_phases else ()
            second = engine.solve(formula, time_limit=remaining(), phases=phases)
            solve_seconds += second.seconds
            unique_seconds = second.seconds
            if second.status == "sat":
                seen: set[frozenset[int]] = set()
                for answer in (first, second):
                    record_new(m.projection, answer.true_vars, seen, engine.name,
                               again="the first solution again")
                out.unique = False
                out.other = _checked(puzzle, family, m, second)
            elif second.status == "unsat":
                out.unique = True
            else:
                out.reason = _why_unknown(second)
    out.stats = {
        "variables": n_vars,
        "clauses": n_clauses,
        "encode_seconds": round(encode_seconds, 6),
        "solve_seconds": round(solve_seconds, 6),
        **({} if unique_seconds is None else {"unique_seconds": round(unique_seconds, 6)}),
        "backend": chosen.label,
        "encodings": encodings.as_dict() if engine.takes != "model" else {"model": "native"},
        "model": m.name,
    }
    return out


def _why_unknown(result: Result) -> str:
    return (result.note or "no answer") if result.status == "unknown" else ""


def near(true_vars: frozenset[int], formula: Formula) -> list[int]:
    """Every variable of ``formula`` as the literal it has in an answer: phases to search near
    that answer."""
    n = formula.num_vars
    return [v if v in true_vars else -v for v in range(1, n + 1)]


def _checked(puzzle: Any, family: Family, m: Model, result: Result) -> Any:
    solution = family.decode(puzzle, m, result.true_vars)
    problems = family.verify(puzzle, solution)
    if problems:
        raise VerificationError(f"a {family.kind} layout decoded from the solver's answer breaks "
                                f"the rules: {'; '.join(problems[:3])}")
    return solution
