"""Counting distinct solutions: a race of methods, the first complete answer wins.

- ``enumeration``: SAT with blocking clauses on the projection, every solution found verified
  by the rule checker (wins when there are few);
- ``dp``: the family's exact counter, on placements (Dominosa: exact covers by parts; Pips:
  memoised over cells and regions; Domino Fit: rows swept from both ends, in C; Doodle Fit:
  the packing sweep in C);
- ``ganak``: the projected model counter Ganak (``pyganak``) on the model's CNF, for every
  family and every count view;
- ``approx`` (when asked for, it joins the race): the ApproxMC algorithm on CryptoMiniSat
  (``approx``), an estimate within a factor (1 + epsilon) of the count with probability at
  least 1 - delta; and ``estimate``, the family's own estimate where it has one (Domino Fit:
  its exact sweep with the states thinned by priority sampling, the mean of runs over about
  ``ESTIMATE_SECONDS``), with its relative standard error. An exact method that finishes
  first answers exactly, and says so.

A family that can give a small count in milliseconds (``Family.quick_count``: Doodle Fit's)
answers here first, and there is no race. Otherwise the family's counter starts first, in a
forked child, and counts while the model is built; then it has as long again (at most
``HEAD_START``) to answer before the model is lowered for enumeration. Unless it has answered,
enumeration runs in this process for ``HEAD_START`` seconds (a MiniSat that stops on an
interrupt), which settles most small counts, and gives way as soon as the counter answers;
when neither has answered by then, the other methods join the race in forked children, one a
core (enumeration goes on only when fewer than two other methods run), and the losers are
killed. What enumeration found is the lower bound a count stopped by the time limit reports.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Mapping
from multiprocessing.connection import wait
from typing import Any

from ..auto import AUTO, setup
from ..backends import Backend, get_backend
from ..backends.base import Formula
from ..backends.counters import ganak_available, ganak_count
from ..backends.session import Ended, record_new
from ..clock import NEVER, Deadline, TimeUp
from ..encode import CNF, Encodings, lower
from ..errors import SatDominoError, UnknownNameError, VerificationError
from ..family import Family
from ..kernels.cover_count import never_true
from ..model import Model
from ..process import progress as counter_progress
from ..process.run import ForkedRun
from ..ranges import DELTA, EPSILON, LIMIT, time_limit
from ..result import Count
from .approx import approx_count

METHODS = ("enumeration", "dp", "ganak")
HEAD_START = 0.02  # seconds enumeration has alone, in this process
HEAD_SLICE = 0.004  # seconds: how often the head start looks whether the counter answered
ESTIMATE_SECONDS = 20.0  # the family's estimate runs this long (less with a nearer deadline)
# in a race, enumeration gives up here: each solution adds a clause to its solver, and an exact
# method is running beside it
ENUMERATION_CAP = 100_000
# long counts: (solutions enumerated so far, seconds, the methods still running, each as
# shown: "dp (14 of 20 rows)" once the family's counter says how far it has come)
Progress = Callable[[int, float, tuple[str, ...]], None]
# a family's estimate (``Family.estimate_count``): (puzzle, seconds, limit) -> (value, error)
Estimate = Callable[[Any, float, float | None], tuple[int, float]]
Build = Callable[[Any], Model]
Exact = tuple[str, Callable[..., Any], tuple]  # a method: its name, counter, arguments


def count(puzzle: Any, family: Family[Any, Any], *, model: str | None = None,
          backend: str | Backend = AUTO,
          encodings: Encodings | Mapping[str, str] | None = None, limit: int | None = None,
          timeout: float | None = None, by: str = "placement", known: Any = None,
          approx: bool = False, epsilon: float = 0.8, delta: float = 0.2,
          progress: Progress | None = None, methods: tuple[str, ...] = METHODS,
          deadline: Deadline = NEVER) -> Count:
    """Distinct solutions (``by`` "placement", or one of the family's ``count_views``:
    distinct grids, distinct tilings), by the first method of the race to finish (module
    docstring). ``limit`` stops enumeration at that many (the exact methods ignore it);
    ``timeout`` (or ``deadline``) bounds the whole count; ``known``, an Outcome of ``solve`` on
    the same puzzle, settles unsat answers and proved uniqueness at once, and its solutions
    bound a count cut short from below. ``approx``:
    ApproxMC's estimate joins the race (an exact answer that comes first wins). ``backend``
    and ``encodings`` as in ``solve``; "auto" enumerates with MiniSat. ``progress`` is called
    about twice a second while the race runs, with the solutions enumerated so far (a lower
    bound), the seconds and the methods still running;
    ``methods`` keeps only some of the race's exact members (``enumeration``, ``dp``,
    ``ganak``; none, with ``approx``: the estimate alone)."""
    limit_at = time_limit(timeout, deadline)
    LIMIT.check(limit)
    EPSILON.check(epsilon)
    DELTA.check(delta)
    chosen = setup(puzzle, family, model, backend, encodings, task="count")
    t0 = time.perf_counter()

    # what the solve found is a lower bound too: a solution, or two when it was not unique
    floor = 0 if known is None or known.status != "sat" else (
        2 if known.unique is False and by == "placement" else 1)

    def done(value: int, method: str, complete: bool, why: str = "",
             ran: tuple[str, ...] = ()) -> Count:
        if not complete and not why:
            why = ("--limit reached" if limit is not None and value >= limit
                   else "time limit")
        if not complete:
            value = max(value, floor)
        return Count(value, method, complete, time.perf_counter() - t0, by, why, raced=ran)

    _check_names(family, by, methods, approx)
    build = family.count_views[by] if by != "placement" else family.model(chosen.model)
    if known is not None and (known.status == "unsat" or known.unique is True):
        return done(0 if known.status == "unsat" else 1, "enumeration", True)
    engine = get_backend(chosen.backend) if isinstance(chosen.backend, str) else chosen.backend
    exact = family.exact_count if by == "placement" and "dp" in methods else None
    try:  # building and lowering are Python loops: the deadline stops them too
        with limit_at.interrupting():
            race = _Race(puzzle, family, build, engine, chosen.encodings, limit, limit_at,
                         exact, progress, methods, (epsilon, delta) if approx else None,
                         family.estimate_count if by == "placement" else None)
    except TimeUp:
        return done(0, "enumeration", False, "time limit, while building and encoding")
    out = done(*race.run(), ran=race.ran)
    if out.method == "approx":  # the estimate won: its guarantee goes with it
        out.epsilon, out.delta = epsilon, delta
    if out.method == "estimate":
        out.error = race.error
    return out


def _check_names(family: Family[Any, Any], by: str, methods: tuple[str, ...],
                 approx: bool) -> None:
    """Refuse a count view or a method the family does not have."""
    if by != "placement" and (not isinstance(by, str) or by not in family.count_views):
        raise UnknownNameError(f"{family.kind} cannot count by {by!r}; it counts by "
                               f"{', '.join(['placement', *family.count_views])}")
    unknown = set(methods) - set(METHODS)
    if unknown or not (methods or approx):
        raise UnknownNameError(f"counting methods are {', '.join(METHODS)}, not "
                               f"{', '.join(sorted(unknown)) or 'none'}")


class _Race:
    """The race of counting methods (module docstring): (value, method, complete, why
    incomplete)."""

    def __init__(self, puzzle: Any, family: Family[Any, Any], build: Build, engine: Backend,
                 encodings: Encodings, limit: int | None, deadline: Deadline,
                 exact: Callable[[Any], int] | None, progress: Progress | None,
                 methods: tuple[str, ...], approx: tuple[float, float] | None = None,
                 estimate: Estimate | None = None) -> None:
        self.engine = engine
        self.limit, self.deadline, self.progress = limit, deadline, progress
        self.swept = counter_progress.shared()  # the family's counter tells how far it has come
        self.runs: dict[str, ForkedRun] = {}
        # a count small enough for the family's counter to give here, in milliseconds
        self.quick = family.quick_count(puzzle) if exact and family.quick_count else None
        if self.quick is not None:
            return
        if exact is not None:  # from the start: building and the head start go on beside it
            with counter_progress.telling(self.swept):
                self.runs["dp"] = ForkedRun(_exact_member, (exact, (puzzle,)))
        built = time.perf_counter()
        try:
            self._build(puzzle, family, build, encodings, exact, methods, approx, estimate)
        except BaseException:
            self.close()
            raise
        self.build_seconds = time.perf_counter() - built

    def _build(self, puzzle: Any, family: Family[Any, Any], build: Build,
               encodings: Encodings, exact: Callable[[Any], int] | None,
               methods: tuple[str, ...], approx: tuple[float, float] | None,
               estimate: Estimate | None) -> None:
        engine, deadline = self.engine, self.deadline
        engine.prepare()  # before the puzzle is built, as ``solve`` does
        self.m = build(puzzle)
        engine.check(encodings)
        self.encodings = encodings
        self._formula: Formula | None = None  # lowered when enumeration first needs it
        self.enumerator = _Enumerator(puzzle, family, self.m, engine.name)
        self.others: list[Exact] = [("dp", exact, (puzzle,))] if exact else []
        if "ganak" in methods and ganak_available():
            self.others.append(("ganak", _ganak, (build, puzzle, encodings)))
        if approx is not None:  # estimates, raced: an exact answer that comes first wins
            self.others.append(("approx", _approx, (build, puzzle, encodings, *approx)))
            if estimate is not None:
                self.others.append(("estimate", _estimate, (estimate, puzzle, deadline)))
        if not self.others and "enumeration" not in methods:
            raise SatDominoError(f"counting {family.kind} by {', '.join(methods)}: not "
                                 "available here (no exact counter for this family or view, "
                                 "or no pyganak)")
        self.enumerating = "enumeration" in methods or not self.others
        self.error: float | None = None  # the winning estimate's relative standard error
        self.ran: tuple[str, ...] = ()  # the methods that ran, in the order they started

    def close(self) -> None:
        for run in self.runs.values():
            run.close()

    @property
    def formula(self) -> Formula:
        """The model as the engine reads it, lowered on first use (not at all when the
        family's counter answers first), under the count's deadline."""
        if self._formula is None:
            with self.deadline.interrupting():
                self._formula = self.engine.formula(self.m, self.encodings)
        return self._formula

    def _dp_answered(self, timeout: float = 0.0) -> bool:
        dp = self.runs.get("dp")
        return dp is not None and bool(wait([dp.connection], timeout=timeout))

    def run(self) -> tuple[int, str, bool, str]:
        if self.quick is not None:
            self.close()
            self.ran = ("dp",)
            return self.quick, "dp", True, ""
        # enumeration in this process for HEAD_START seconds, on a solver that stops on an
        # interrupt, unless the family's counter answers first: lowering the model for it
        # costs about what building it did, so the counter has that long before it starts
        left = self.deadline.left()
        head_start = self.enumerating and self.engine.interruptible and not self._dp_answered(
            min(HEAD_START, self.build_seconds, HEAD_START if left is None else left))
        try:
            found, ended = self._head_start() if head_start else (0, "stopped")
            self.ran = tuple(self.runs) + ("enumeration",) * head_start
            if ended != "stopped":
                return found, "enumeration", ended == "all", ""
            return self._race(found)
        except TimeUp:
            return 0, "enumeration", False, "time limit, while building and encoding"
        finally:
            self.close()

    def _head_start(self) -> tuple[int, Ended]:
        """Enumeration for HEAD_START seconds, in slices: it gives way as soon as the
        family's counter has answered (each solve keeps what the solver learnt)."""
        found = 0
        ended: Ended = "stopped"
        until = self.deadline.sooner(HEAD_START)
        with self.engine.session(self.formula) as s:
            while ended == "stopped" and not until.passed() and not self._dp_answered():
                more, ended = s.enumerate(
                    self.m.projection, self.enumerator.check,
                    deadline=until.sooner(HEAD_SLICE),
                    limit=None if self.limit is None else self.limit - found)
                found += more
        return found, ended

    def _race(self, found: int) -> tuple[int, str, bool, str]:
        cap = self.limit if not self.others else min(self.limit or ENUMERATION_CAP,
                                                      ENUMERATION_CAP)
        shared = multiprocessing.get_context("fork").Value("q", 0)
        failures: list[str] = []
        runs = dict(self.runs)  # those still to wait for (self.runs: those to close)
        dp = runs.get("dp")
        if dp is not None and wait([dp.connection], timeout=0):  # done before the others start
            del runs["dp"]
            answer = self._take("dp", dp, failures)
            if answer is not None:
                return answer[0], "dp", True, ""
        # one process a core: with two exact methods running, enumeration (past its head
        # start, so not about to finish) would only slow them
        if self.enumerating and len(self.others) < 2:
            runs["enumeration"] = ForkedRun(self.enumerator.run,
                                            (self.engine, self.formula, cap, shared))
        with_dp = "dp" in runs
        for name, fn, args in self.others:
            if name == "dp":  # the family's counter, running since the start
                continue
            member = _member_behind_dp if with_dp else _exact_member
            # the estimate answers with its error, at the exact counter's priority: with
            # approx, it is what was asked for
            runs[name] = (ForkedRun(fn, args) if name == "estimate"
                          else ForkedRun(member, (fn, args)))
        self.runs.update(runs)
        self.ran = tuple(dict.fromkeys(self.ran + tuple(runs)))
        return self._wait(runs, found, shared, failures)

    @staticmethod
    def _take(name: str, run: ForkedRun, failures: list[str]) -> tuple | None:
        """What a member that has finished answers: (value, complete, [error]), or None when
        it failed (and ``failures`` says why)."""
        try:
            return run.result()
        except (SatDominoError, RecursionError, MemoryError) as e:
            if str(e).startswith("VerificationError"):  # a bug or a lying solver
                raise VerificationError(str(e).partition(": ")[2]) from None
            failures.append(f"{name}: {e}")
            return None

    def _wait(self, runs: dict[str, ForkedRun], found: int, shared: Any,
              failures: list[str]) -> tuple[int, str, bool, str]:
        t_start = time.perf_counter()
        enumerated: int | None = None
        gave_way = False
        while runs:
            left = self.deadline.left()
            if left is not None and left <= 0:
                break
            ready = wait([r.connection for r in runs.values()],
                         timeout=0.5 if left is None else min(left, 0.5))
            if self.progress is not None:
                swept = counter_progress.swept(self.swept)
                self.progress(shared.value, time.perf_counter() - t_start,
                              tuple(f"{x} ({swept})" if x == "dp" and swept else x
                                    for x in runs))
            if (not gave_way and "estimate" in runs and "dp" in runs
                    and counter_progress.without_layers(self.swept)):
                # without its layers the family's counter is the slow way: the estimate,
                # which was asked for, goes first
                runs["dp"].give_way()
                gave_way = True
            for name, run in list(runs.items()):
                if run.connection not in ready:
                    continue
                del runs[name]
                answer = self._take(name, run, failures)
                if answer is None:
                    continue
                value, complete, *error = answer
                if complete:
                    self.error = error[0] if error else None
                    if self.error == 0:  # the estimate's sweep dropped nothing: the exact one
                        name, self.error = "dp", None
                    return value, name, True, ""
                enumerated = value
                if self.limit is not None and value >= self.limit:  # the user's limit
                    return value, "enumeration", False, ""
        best = max(found, enumerated if enumerated is not None else shared.value)
        # an incomplete count is enumeration's lower bound, or 0 from the methods that ran
        counted = found > 0 or enumerated is not None or "enumeration" in runs
        label = "enumeration" if counted else "+".join(name for name, *_ in self.others)
        if runs:  # the deadline came first
            return best, label, False, "time limit"
        why = "; ".join(failures) or f"enumeration stopped at {ENUMERATION_CAP:,} solutions"
        return best, label, False, f"no method finished: {why}"


def _exact_member(fn: Callable[..., int], args: tuple) -> tuple[int, bool]:
    return fn(*args), True


def _member_behind_dp(fn: Callable[..., int], args: tuple) -> tuple[int, bool]:
    """A method racing the family's counter, which may take every core (Domino Fit's
    does): it gives way to it on a busy machine, and has its core when the counter has one."""
    os.nice(19)
    return fn(*args), True


def _estimate(fn: Estimate, puzzle: Any, deadline: Deadline) -> tuple[int, bool, float]:
    """The family's estimate: (value, complete, relative standard error), taking
    ``ESTIMATE_SECONDS`` or 80% of the time left, and ending within 90% of it (the rest:
    time to report back)."""
    left = deadline.left()
    if left is None:
        value, error = fn(puzzle, ESTIMATE_SECONDS, None)
    else:
        value, error = fn(puzzle, min(ESTIMATE_SECONDS, 0.8 * left), 0.9 * left)
    return value, True, error


class _Enumerator:
    """Projected enumeration: every solution decoded and checked against the rules, then
    forbidden by a clause over the projection."""

    def __init__(self, puzzle: Any, family: Family[Any, Any], model: Model,
                 solver: str) -> None:
        self.puzzle, self.family, self.m, self.solver = puzzle, family, model, solver
        self.seen: set[bytes] = set()

    def check(self, true_vars: frozenset[int]) -> None:
        """Verify a solution and record it (once: a second time is the solver's bug)."""
        fam, m = self.family, self.m
        problems = fam.verify(self.puzzle, fam.decode(self.puzzle, m, true_vars))
        if problems:
            raise VerificationError(f"enumerated {fam.kind} layout breaks the rules: "
                                    f"{'; '.join(problems[:3])}")
        record_new(m.projection, true_vars, self.seen, self.solver)

    def run(self, engine: Backend, formula: Formula, limit: int | None,
            shared: Any) -> tuple[int, bool]:
        """Enumerate to the end or to ``limit`` (in a forked child), counting in ``shared``:
        (found, complete)."""
        self.seen.clear()

        def counted(true_vars: frozenset[int]) -> None:
            self.check(true_vars)
            shared.value += 1

        with engine.session(formula) as s:
            found, ended = s.enumerate(self.m.projection, counted, limit=limit)
        return found, ended == "all"


# model counters ------------------------------------------------------------------------------

def _clauses(build: Build, puzzle: Any, encodings: Encodings) -> tuple[CNF, list[int]]:
    """The CNF a model counter reads, and the projection; native encodings become clausal
    ones (a counter takes clauses only)."""
    clausal = {"card": "totalizer", "amo": "pairwise"}
    plain = Encodings(**{k: clausal.get(k, v) if v == "native" else v
                         for k, v in encodings.as_dict().items()})
    m = build(puzzle)
    return lower(m, plain), list(m.projection)


def _ganak(build: Build, puzzle: Any, encodings: Encodings) -> int:
    """The exact projected count by Ganak, told first which projection variables no model
    makes true."""
    cnf, projection = _clauses(build, puzzle, encodings)
    never = None if any(not c for c in cnf.clauses) else never_true(cnf, projection)
    if never is None:  # no model
        return 0
    return ganak_count(cnf.clauses + [[-x] for x in never], projection, cnf.num_vars)


def _approx(build: Build, puzzle: Any, encodings: Encodings, epsilon: float,
            delta: float) -> int:
    """The ApproxMC estimate (``analysis.approx``) on the model's CNF."""
    cnf, projection = _clauses(build, puzzle, encodings)
    if any(not c for c in cnf.clauses):
        return 0
    return approx_count(cnf.clauses, projection, cnf.num_vars, epsilon, delta)


def terminal_progress(label: str) -> Progress | None:
    """A progress line on stderr when stderr is a terminal, else None: the methods running,
    the solutions enumerated so far (while enumeration runs: a lower bound) and the time."""
    if not sys.stderr.isatty():
        return None

    def show(found: int, seconds: float, running: tuple[str, ...]) -> None:
        bound = f", at least {found:,} so far" if "enumeration" in running else ""
        print(f"\r{label}: counting by {', '.join(running) or 'nothing'}{bound}, "
              f"{seconds:.0f} s\x1b[K", end="", file=sys.stderr, flush=True)

    return show
