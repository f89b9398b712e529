"""A portfolio, ``portfolio:A+B[+C...]`` of any backends: they race on the same puzzle; the
first definite answer (sat or unsat) wins and the others are stopped.

Members that read the Model (``highs``, ``z3-smt``) get it, the others its CNF, with the same
variable numbers. Each member runs as its ``Backend.start`` says: outside solvers and python-sat
solvers that honour ``interrupt`` from threads of this process (no fork, so an easy puzzle costs
no more than its fastest member), ``highs`` in a worker of the fork server (``forkserver``),
the others in forked children that are killed. A ``phases`` hint goes to the members that take
one, so a local search and a CDCL solver are quick both at a first solution and at a second
one near it.

A member written ``NAME@SECONDS`` starts that many seconds late, or sooner: once another member
has ended without an answer (it takes that member's core), or no member is running. On two
cores a second solver slows the first, even a sleeping forked child does (its pages are copied
as the first writes them), so ``minisat22+highs-fj@0.02+cms-sls@10`` leaves a puzzle MiniSat
solves within 20 ms to MiniSat alone.

A member written ``NAME@START..YIELD`` (or ``NAME@..YIELD``) yields its core at YIELD seconds
if a member is still waiting to start: it is paused, keeping what it has learnt (a python-sat
solver in this process is interrupted; a process gets SIGSTOP), the first waiting member starts
on its core, and it resumes on the next core that frees up once no member is waiting. A member
still loading its clauses yields once it searches; one that cannot be paused (an outside solver
in a ``compare`` run, which shares the run's process group, or ``z3``) runs on, and so does one
given phases to search near (it is the one expected to answer).
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Sequence

from ..clock import TimeUp, start
from ..errors import BackendError
from ..process.run import Run
from .base import Backend, Formula, Group, Result, form_for


class PortfolioBackend(Group):
    def __init__(self, members: list[Backend], delays: list[float] | None = None,
                 yields: list[float | None] | None = None) -> None:
        """``delays``: seconds each member waits before it starts (none by default);
        ``yields``: the time, in seconds from the start, at which each member yields its core
        to a waiting member (None: never)."""
        if len(members) < 2:
            raise BackendError("a portfolio needs two or more backends: portfolio:A+B")
        self.members = members
        self.delays = delays or [0.0] * len(members)
        self.yields = yields or [None] * len(members)
        names = [m.name + timing(d, y) for m, d, y in zip(members, self.delays, self.yields,
                                                          strict=True)]
        super().__init__(members, name="portfolio:" + "+".join(names),
                         summary="first answer of " + ", ".join(names))

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        return Run(lambda run: self._race(formula, assumptions, phases, run))

    def _race(self, formula: Formula, assumptions: Sequence[int], phases: Sequence[int],
              outer: Run) -> Result:
        """The race, stopped by a stop of ``outer`` (``Backend.solve``'s at the time limit)."""
        race = _Race(self, formula, assumptions, phases, outer)
        try:
            race.start_due()
            with outer.stoppable(race.stop):
                return race.run()
        finally:
            race.close()


Event = tuple[str, int, "Result | None", str]  # (kind, member's position, result, error)


class _Race:
    """One race of a portfolio's members (the module docstring says how it goes)."""

    def __init__(self, portfolio: PortfolioBackend, formula: Formula,
                 assumptions: Sequence[int], phases: Sequence[int], outer: Run) -> None:
        self.p, self.formula, self.outer = portfolio, formula, outer
        self.assumptions, self.phases = assumptions, phases
        self.t0 = time.perf_counter()
        # a member searching from given phases (near a known answer: --unique's second solve)
        # is the one expected to answer, and does not yield: pausing MiniSat at 80 ms, still
        # loading at Dominosa N = 100, left the uniqueness check to the local searches
        self.yields = [None if phases and m.takes_phases else y
                       for m, y in zip(portfolio.members, portfolio.yields, strict=True)]
        # the members in the order they start: those with no delay at once (every fork among
        # them before any thread), the others at their time or on a freed core
        self.waiting = sorted(range(len(portfolio.members)), key=lambda i: portfolio.delays[i])
        self.runs: list[tuple[int, Run]] = []  # (member, its run) in the order they started
        self.threads: list[threading.Thread] = []
        self.events: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.errors: list[str] = []
        self.unknown: list[str] = []
        self.ended: set[int] = set()  # positions in runs
        self.paused: list[int] = []  # positions in runs, in the order they yielded
        self.yielded: set[int] = set()  # a member yields once
        self.freed = 0  # cores no member has taken up

    def start_due(self) -> None:
        """Start the members with no delay (every fork before any thread)."""
        while self.waiting and self.p.delays[self.waiting[0]] == 0:
            self.start_next()
        self.freed = len(self.errors)

    def start_next(self) -> bool:
        """Start the first waiting member; False if it cannot start."""
        i = self.waiting.pop(0)
        m = self.p.members[i]
        try:
            # a member may be the first to read the CNF, lowered here, in Python (while the
            # others search, if it is late): a stop of the race cuts that short (the cells
            # model of a 600-cell Doodle Fit board has 8.9 M clauses)
            with self.outer.setting_up():
                form = form_for(self.formula, m)
            self.runs.append((i, m.start(form, self.assumptions, self.phases)))
            return True
        except TimeUp:
            if not self.outer.stopped:  # an enclosing deadline's, not the race's stop: on up
                raise
            self.unknown.append(f"{m.name}: stopped before it started")
            return False
        except Exception as e:  # this one cannot start; the others race on
            self.errors.append(f"{m.name}: {_why(e)}")
            return False

    def _member(self, pos: int, run: Run) -> None:
        try:
            self.events.put(("done", pos, run.result(), ""))
        except BaseException as e:  # report every failure; the other members race on
            self.events.put(("done", pos, None, _why(e)))

    def launch_next(self) -> None:
        """Members set up one after another, in the order they start, and search together:
        set-up holds the GIL, so overlapping two would only delay both."""
        events = self.events  # not self: a run must not hold the race in a cycle
        while len(self.threads) < len(self.runs):
            pos = len(self.threads)
            run = self.runs[pos][1]
            run.on_searching = lambda: events.put(("searching", -1, None, ""))
            self.threads.append(threading.Thread(target=self._member, args=(pos, run),
                                                 daemon=True))
            start(self.threads[-1])
            if not run.searching:
                return

    def stop(self) -> None:
        """From another thread: the race ends with "unknown" (a stopped run's answer)."""
        self.events.put(("stop", -1, None, ""))

    def run(self) -> Result:
        self.launch_next()
        while len(self.ended) < len(self.runs) or self.waiting:
            now = time.perf_counter()
            due = self.t0 + self.p.delays[self.waiting[0]] if self.waiting else None
            if self._start_or_resume(now, due):
                continue
            yield_due = self._yield_cores(now)
            if self.freed and self.waiting and self.events.empty():
                continue  # the core just given up goes to a waiting member
            wake = min((t for t in (due, yield_due) if t is not None), default=None)
            try:
                event = self.events.get(
                    timeout=None if wake is None else max(0.0, wake - time.perf_counter()))
            except queue.Empty:
                continue  # a member's time to start or yield has come
            answer = self._take(event)
            if answer is not None:
                return answer
            self.launch_next()  # the last one started is searching, or has ended
        if self.errors and not self.unknown:
            raise BackendError("every portfolio member failed: " + "; ".join(self.errors))
        return Result("unknown", seconds=time.perf_counter() - self.t0,
                      note="; ".join(self.unknown + self.errors))

    def _start_or_resume(self, now: float, due: float | None) -> bool:
        """A waiting member starts at its time, on a freed core, or when no member is left
        running; a paused member goes on on a freed core once no member waits for one;
        never before the news already in (an answer, say) is read."""
        running = len(self.runs) - len(self.ended) - len(self.paused)
        if due is not None and (self.freed or now >= due or running == 0) \
                and self.events.empty():
            if self.start_next() and self.freed:
                self.freed -= 1
            self.launch_next()
            return True
        if self.paused and not self.waiting and (self.freed or running == 0) \
                and self.events.empty():
            self.runs[self.paused.pop(0)][1].resume()
            self.freed = max(0, self.freed - 1)
            return True
        return False

    def _yield_cores(self, now: float) -> float | None:
        """A member yields its core at its time to a waiting member (one core for each; none
        while news is in: it may free a core or end the race); the next time one is due."""
        yield_due = None
        for pos, (i, run) in enumerate(self.runs):
            y = self.yields[i]
            if (y is None or pos in self.ended or pos in self.yielded
                    or self.freed >= len(self.waiting) or not self.events.empty()):
                continue
            if now < self.t0 + y:
                yield_due = min(yield_due or math.inf, self.t0 + y)
            elif run.searching:  # not while loading: then when it starts searching
                self.yielded.add(pos)  # once: a member searching that cannot pause, never
                if run.pause():
                    self.paused.append(pos)
                    self.freed += 1
        return yield_due

    def _take(self, event: Event) -> Result | None:
        """The race's answer, if this event ends it."""
        kind, pos, result, error = event
        if kind == "stop":
            return Result("unknown", seconds=time.perf_counter() - self.t0, note="stopped")
        if kind != "done":
            return None
        m = self.p.members[self.runs[pos][0]]
        self.ended.add(pos)
        if error or result is None:
            self.errors.append(f"{m.name}: {error}")
        elif result.status == "unknown":
            self.unknown.append(f"{m.name}: {result.note or 'no answer'}")
        else:
            return Result(result.status, result.true_vars, time.perf_counter() - self.t0,
                          note=f"answered by {m.name}")
        if pos in self.paused:  # it gave its core away already
            self.paused.remove(pos)
        else:
            self.freed += 1
        return None

    def close(self) -> None:
        """Every member has stopped when the race returns (a killed child is reaped in the
        background: see ForkedRun)."""
        for _, run in self.runs:
            run.stop()
        for t in self.threads:
            t.join()
        for _, run in self.runs[len(self.threads):]:  # never launched (a forked one is killed)
            run.close()
        self.runs.clear()  # what they hold (the formula) goes with the race
        self.threads.clear()


def timing(delay: float, yield_at: float | None) -> str:
    """A member's ``@START[..YIELD]`` suffix as the portfolio's name writes it."""
    start = f"{delay:g}" if delay else ""
    return f"@{start}..{yield_at:g}" if yield_at is not None else f"@{start}" if delay else ""


def _why(e: BaseException) -> str:
    return str(e) if isinstance(e, BackendError) else f"{type(e).__name__}: {e}"
