"""Counting distinct solutions: a race of methods, the first complete answer wins.

- ``enumeration``: SAT with blocking clauses on the projection, every solution found verified
  by the rule checker (wins when there are few);
- ``dp``: the family's exact counter, on placements (Dominosa: exact covers by parts; Pips:
  memoised over cells and regions; Domino Fit: rows swept from both ends, in C; Doodle Fit:
  the packing sweep in C);
- ``ganak``: the projected model counter Ganak (``pyganak``) on the model's CNF, for every
  family and every count view;
- ``approx`` (asked for, not raced): the ApproxMC algorithm on CryptoMiniSat (``approx``), an
  estimate within a factor (1 + epsilon) of the count with probability at least 1 - delta.

Enumeration first runs alone in this process for ``HEAD_START`` seconds (a MiniSat that stops on
an interrupt), which settles most small counts without a process; past that, the methods race in
forked children, one a core (enumeration goes on only when fewer than two other methods run),
and the losers are killed. What enumeration found is the lower bound a count stopped by the time
limit reports.
"""

from __future__ import annotations

import multiprocessing
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from ..backends import Backend, get_backend
from ..backends.base import add_clause
from ..backends.pysat_backend import INTERRUPTIBLE, PysatBackend, open_solver
from ..backends.z3_backend import Z3Backend
from ..encode import Encodings, lower
from ..errors import SatDominoError, UnknownNameError, VerificationError
from .cover_count import never_true
from .unique import blocking_clause, record_new


@dataclass
class Count:
    value: int
    method: str  # "enumeration", "dp", "ganak" or "approx" (incomplete: what ran, "dp+ganak")
    complete: bool  # False: stopped at --limit or the time limit (value is then a lower bound)
    seconds: float
    by: str = "placement"
    reason: str = ""  # why it is incomplete: "time limit", "--limit reached", ...
    epsilon: float | None = None  # for an approximate count: its guarantee
    delta: float | None = None


METHODS = ("enumeration", "dp", "ganak")
HEAD_START = 0.02  # seconds enumeration has alone, in this process
# in a race, enumeration gives up here: each solution adds a clause to its solver, and an exact
# method is running beside it
ENUMERATION_CAP = 100_000
Progress = Callable[[int, float], None]  # (solutions found so far, seconds): long counts


def count(puzzle: Any, family, *, model: str | None = None, backend: str | Backend = "auto",
          encodings: Encodings | Mapping[str, str] | None = None, limit: int | None = None,
          timeout: float | None = None, by: str = "placement", known=None,
          approx: bool = False, epsilon: float = 0.8, delta: float = 0.2,
          progress: Progress | None = None, methods: tuple[str, ...] = METHODS) -> Count:
    """Distinct solutions (``by`` "placement", or one of the family's ``count_views``:
    distinct grids, distinct tilings), by the first method of the race to finish (module
    docstring). ``limit`` stops enumeration at that many (the exact methods ignore it);
    ``timeout`` bounds the whole count; ``known``, an Outcome of ``solve`` on the same puzzle,
    settles unsat answers and proved uniqueness at once. ``approx``: ApproxMC's estimate
    instead. ``backend`` and ``encodings`` as in ``solve``; "auto" enumerates with MiniSat.
    ``progress`` is called about twice a second while the race runs; ``methods`` keeps only
    some of the race's members (``enumeration``, ``dp``, ``ganak``)."""
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

    if by != "placement" and by not in family.count_views:
        raise UnknownNameError(f"{family.kind} cannot count by {by!r}; it counts by "
                               f"{', '.join(['placement', *family.count_views])}")
    build = family.count_views[by] if by != "placement" else family.model(model)
    if approx:
        if not (0 < epsilon < 1e6 and 0 < delta < 1):
            raise SatDominoError("approximate counts need epsilon > 0 and 0 < delta < 1")
        value = _approx_within(puzzle, build, encodings, epsilon, delta, deadline)
        if value is None:
            return done(0, "approx", False, "time limit")
        out = done(value, "approx", True)
        out.epsilon, out.delta = epsilon, delta
        return out
    if known is not None and (known.status == "unsat" or known.unique is True):
        return done(0 if known.status == "unsat" else 1, "enumeration", True)
    unknown = set(methods) - set(METHODS)
    if unknown or not methods:
        raise UnknownNameError(f"counting methods are {', '.join(METHODS)}, not "
                               f"{', '.join(sorted(unknown)) or 'none'}")
    exact = family.exact_count if by == "placement" and "dp" in methods else None
    value, method, complete, why = _race(puzzle, family, build, backend, encodings, limit,
                                         deadline, exact, progress, methods)
    return done(value, method, complete, why)


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.perf_counter())


# the race ------------------------------------------------------------------------------------

def _race(puzzle, family, build, backend, encodings, limit, deadline, exact,
          progress: Progress | None, methods: tuple[str, ...]) -> tuple[int, str, bool, str]:
    """(value, method, complete, why incomplete)."""
    from ..backends.run import ForkedRun

    engine = get_backend(backend) if isinstance(backend, str) else backend
    engine.prepare()  # before the puzzle is built, as ``solve`` does
    m = build(puzzle)
    formula = engine.formula(m, encodings)
    enumerator = _Enumerator(puzzle, family, m, engine)
    others = [x for x in (("dp", exact) if exact is not None else None,
                          ("ganak", _ganak) if "ganak" in methods and _ganak_available()
                          else None) if x]
    if not others and "enumeration" not in methods:
        raise SatDominoError(f"counting {family.kind} by {', '.join(methods)}: not available "
                             "here (no exact counter for this family or view, or no pyganak)")
    enumerating = "enumeration" in methods or not others
    found, finished = (enumerator.head_start(formula, limit, HEAD_START, deadline)
                       if enumerating else (0, None))
    if finished is not None:
        return found, "enumeration", finished, ""
    cap = limit if not others else min(limit or ENUMERATION_CAP, ENUMERATION_CAP)
    shared = multiprocessing.get_context("fork").Value("q", 0)
    runs: dict[str, ForkedRun] = {}
    t_start = time.perf_counter()
    try:
        # one process a core: with two exact methods running, enumeration (past its head
        # start, so not about to finish) would only slow them
        if enumerating and len(others) < 2:
            runs["enumeration"] = ForkedRun(enumerator.run, (formula, cap, shared))
        for name, fn in others:
            args = (puzzle,) if name == "dp" else (build, puzzle, encodings)
            runs[name] = ForkedRun(_exact_member, (fn, args))
        failures: list[str] = []
        enumeration_done: tuple[int, bool] | None = None
        while runs:
            left = _left(deadline)
            if left is not None and left <= 0:
                break
            ready = wait([r.connection for r in runs.values()],
                         timeout=0.5 if left is None else min(left, 0.5))
            if progress is not None:
                progress(shared.value, time.perf_counter() - t_start)
            for name, run in list(runs.items()):
                if run.connection not in ready:
                    continue
                del runs[name]
                try:
                    value, complete = run.result()
                except (SatDominoError, RecursionError, MemoryError) as e:
                    if str(e).startswith("VerificationError"):  # a bug or a lying solver
                        raise VerificationError(str(e).partition(": ")[2]) from None
                    failures.append(f"{name}: {e}")
                    continue
                if complete:
                    return value, name, True, ""
                if name == "enumeration":
                    enumeration_done = (value, complete)
                    if limit is not None and value >= limit:  # the user's limit: stop there
                        return value, "enumeration", False, ""
        best = max(found, enumeration_done[0] if enumeration_done else shared.value)
        # an incomplete count is enumeration's lower bound, or 0 from the methods that ran
        enumerated = found > 0 or enumeration_done is not None or "enumeration" in runs
        label = "enumeration" if enumerated else "+".join(name for name, _ in others)
        if runs:  # the deadline came first
            return best, label, False, "time limit"
        why = "; ".join(failures) or f"enumeration stopped at {ENUMERATION_CAP:,} solutions"
        return best, label, False, f"no method finished: {why}"
    finally:
        for run in runs.values():
            run.close()


def _exact_member(fn: Callable, args: tuple) -> tuple[int, bool]:
    return fn(*args), True


class _Enumerator:
    """Projected enumeration: every solution decoded and checked against the rules, then
    forbidden by a clause over the projection."""

    def __init__(self, puzzle, family, model, engine) -> None:
        self.puzzle, self.family, self.m, self.engine = puzzle, family, model, engine
        self.seen: set[bytes] = set()

    def check(self, true_vars: frozenset[int]) -> list[int]:
        """Verify a solution and record it; its blocking clause."""
        fam, m = self.family, self.m
        problems = fam.verify(self.puzzle, fam.decode(self.puzzle, m, true_vars))
        if problems:
            raise VerificationError(f"enumerated {fam.kind} layout breaks the rules: "
                                    f"{'; '.join(problems[:3])}")
        record_new(m.projection, true_vars, self.seen, self.engine.name)
        return blocking_clause(m.projection, true_vars)

    def head_start(self, formula, limit: int | None, seconds: float,
                   deadline: float | None) -> tuple[int, bool | None]:
        """Enumerate in this process for ``seconds`` (with a solver that stops on an
        interrupt): (found, True if all found / False if ``limit`` reached / None if not
        finished). Other solvers skip it (0, None)."""
        engine = self.engine
        if not (isinstance(engine, PysatBackend) and engine.name in INTERRUPTIBLE
                and engine.incremental and not getattr(formula, "atmosts", None)):
            return 0, None
        budget = seconds if deadline is None else min(seconds, _left(deadline) or 0.0)
        found = 0
        with open_solver(engine.name, formula) as s:
            timer = threading.Timer(budget, s.interrupt)
            timer.start()
            try:
                while limit is None or found < limit:
                    answer = s.solve_limited(expect_interrupt=True)
                    if answer is None:
                        return found, None
                    if not answer:
                        return found, True
                    found += 1
                    s.add_clause(self.check(frozenset(x for x in s.get_model() if x > 0)))
            finally:
                timer.cancel()
                timer.join()  # an interrupt under way must finish before the solver goes
        return found, False

    def run(self, formula, limit: int | None, shared) -> tuple[int, bool]:
        """Enumerate to the end or to ``limit`` (in a forked child), counting in ``shared``:
        (found, complete)."""
        self.seen.clear()
        engine = self.engine
        if isinstance(engine, Z3Backend):
            return _z3_session(formula, self.check, limit, shared)
        if isinstance(engine, PysatBackend) and engine.incremental:
            return _pysat_session(engine.name, formula, self.check, limit, shared)
        found = 0  # any other backend: one solver call per solution
        while limit is None or found < limit:
            result = engine.solve(formula)
            if result.status == "unsat":
                return found, True
            if result.status == "unknown":
                break
            found += 1
            shared.value = found
            add_clause(formula, self.check(result.true_vars))
        return found, False


def _pysat_session(name: str, cnf, check, limit: int | None, shared) -> tuple[int, bool]:
    """One python-sat solver kept across solutions: each blocking clause is added to it."""
    with open_solver(name, cnf) as s:
        while limit is None or shared.value < limit:
            if not s.solve():
                return shared.value, True
            shared.value += 1
            s.add_clause(check(frozenset(x for x in s.get_model() if x > 0)))
    return shared.value, False


def _z3_session(formula, check, limit: int | None, shared) -> tuple[int, bool]:
    """One Z3 solver kept across solutions (on the CNF or on the Model's native formulas)."""
    import z3

    from ..backends.z3_backend import true_ids, z3_clause, z3_solver

    s, xs = z3_solver(formula)
    while limit is None or shared.value < limit:
        answer = s.check()
        if answer == z3.unsat:
            return shared.value, True
        if answer != z3.sat:
            break
        shared.value += 1
        s.add(z3_clause(xs, check(frozenset(true_ids(s, xs)))))
    return shared.value, False


# model counters ------------------------------------------------------------------------------

def _clauses(build, puzzle, encodings: Encodings) -> tuple[list[list[int]], list[int], int]:
    """The CNF a model counter reads: (clauses, projection, variables); native encodings
    become clausal ones (a counter takes clauses only)."""
    plain = Encodings(**{k: ("totalizer" if k == "card" else "pairwise" if k == "amo"
                             else v) if v == "native" else v
                         for k, v in encodings.as_dict().items()})
    m = build(puzzle)
    cnf = lower(m, plain)
    return cnf.clauses, list(m.projection), cnf.num_vars


def _ganak_available() -> bool:
    try:
        import pyganak  # noqa: F401
    except ImportError:
        return False
    return True


def _ganak(build, puzzle, encodings: Encodings) -> int:
    """The exact projected count by Ganak (which prints comment lines on standard output
    whatever its verbosity: they go nowhere)."""
    import pyganak

    from ..backends.highs_backend import _no_stdout

    clauses, projection, num_vars = _clauses(build, puzzle, encodings)
    if any(not c for c in clauses):
        return 0
    never = never_true(clauses, projection)
    if never is None:
        return 0
    clauses = clauses + [[-x] for x in never]
    with _no_stdout():
        counter = pyganak.Counter()
        counter.new_vars(num_vars)
        counter.add_clauses(clauses)
        counter.set_sampling_set(projection)
        return int(counter.count())


def _approx(build, puzzle, encodings: Encodings, epsilon: float, delta: float) -> int:
    """The ApproxMC estimate (``analysis.approx``) on the model's CNF."""
    from .approx import approx_count

    clauses, projection, num_vars = _clauses(build, puzzle, encodings)
    if any(not c for c in clauses):
        return 0
    return approx_count(clauses, projection, num_vars, epsilon, delta)


def _approx_within(puzzle, build, encodings, epsilon, delta, deadline) -> int | None:
    """``_approx`` in a forked child killed at the deadline (None then)."""
    from ..backends.child import run_in_child

    left = _left(deadline)
    if left is None:
        return _approx(build, puzzle, encodings, epsilon, delta)
    finished, value = run_in_child("approxmc", _approx,
                                   (build, puzzle, encodings, epsilon, delta), left)
    return value if finished else None


def terminal_progress(label: str) -> Progress | None:
    """A progress line on stderr (the count so far) when stderr is a terminal, else None."""
    if not sys.stderr.isatty():
        return None

    def show(found: int, seconds: float) -> None:
        print(f"\r{label}: counting, {found} found so far ({seconds:.0f} s)\x1b[K", end="",
              file=sys.stderr, flush=True)

    return show
