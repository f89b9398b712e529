"""A portfolio: several backends race on the same puzzle; the first definite answer (sat or
unsat) wins and the others are stopped.

Written ``portfolio:A+B[+C...]`` with any backends (python-sat names, presets,
``external:CMD``, ``z3``, ``z3-smt``, ``highs``); members that read the Model (``highs``,
``z3-smt``) get it, the others its CNF, both with the same variable numbers. Each member runs
as its ``Backend.start`` says: outside solvers and python-sat solvers that honour
``interrupt`` run from threads of this process (no fork, so an easy puzzle costs no more than
its fastest member); the others in forked children that are killed. A ``phases`` hint goes to
every member; those that cannot take one simply race without it, so a portfolio of a
local-search configuration and a CDCL solver is quick both at finding a first solution and at
finding a second one near it.

A member written ``NAME@SECONDS`` starts that many seconds late, or sooner: as soon as another
member has ended without an answer (it takes that member's core), or no member is running. On
a machine with two cores a second solver slows the first, even a sleeping forked child does
(its pages are copied as the first writes them), so ``minisat22+highs-fj@0.02+cms-sls@10``
leaves a puzzle MiniSat solves within 20 ms to MiniSat alone, and starts CryptoMiniSat when
HiGHS's jump gives up. ``highs`` runs in a worker of the fork server (``forkserver``; a fork
of this process where pidfds do not work), which neither copies this process nor slows the
others as a fork of it would.

A member written ``NAME@START..YIELD`` (or ``NAME@..YIELD``, starting at once) yields its core
at YIELD seconds if a member is still waiting to start: it is paused, keeping what it has
learnt (a python-sat solver in this process is interrupted; a process gets SIGSTOP), the first
waiting member starts on its core, and it resumes on the next core that frees up (a member
that ended without an answer) once no member is waiting. So a solver that wins the easy
puzzles early need not hold its core through the hard ones: in
``minisat22@..0.08+highs-fj@0.02+cms-sls@10`` CryptoMiniSat starts at 80 ms on MiniSat's
core, and MiniSat goes on (with its learnt clauses and phases, from a restart) if HiGHS's
jump gives up. A member still loading its clauses yields once it searches; one that cannot be
paused (an outside solver in a ``compare`` run, which shares the run's process group, or an
in-process backend with no pause, such as ``z3``) runs on, and so does one given phases to
search near (it is the one expected to answer).
"""

from __future__ import annotations

import math
import queue
import threading
import time

from ..errors import BackendError
from .base import Backend, Group, Result, form_for
from .run import Run


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

    def solve(self, formula, assumptions=(), time_limit=None, phases=()) -> Result:
        t0 = time.perf_counter()
        deadline = None if time_limit is None else t0 + time_limit
        # a member searching from given phases (near a known answer: --unique's second solve)
        # is the one expected to answer, and does not yield: pausing MiniSat at 80 ms, still
        # loading at Dominosa N = 100, left the uniqueness check to the local searches
        yields = [None if phases and m.takes_phases else y
                  for m, y in zip(self.members, self.yields, strict=True)]
        # the members in the order they start: those with no delay at once (every fork among
        # them before any thread), the others at their time or on a freed core
        waiting = sorted(range(len(self.members)), key=lambda i: self.delays[i])
        runs: list[tuple[int, Run]] = []  # (member, its run) in the order they started
        errors: list[str] = []

        def start_next() -> bool:
            """Start the first waiting member; False if it cannot start."""
            i = waiting.pop(0)
            m = self.members[i]
            try:
                runs.append((i, m.start(form_for(formula, m), assumptions, phases)))
                return True
            except Exception as e:  # this one cannot start; the others race on
                errors.append(f"{m.name}: {_why(e)}")
                return False

        try:
            while waiting and self.delays[waiting[0]] == 0:
                start_next()
        except BaseException:
            for _, run in runs:
                run.close()
            raise
        events: queue.SimpleQueue = queue.SimpleQueue()

        def race(pos: int, run: Run) -> None:
            try:
                events.put(("done", pos, run.result(), ""))
            except BaseException as e:  # report every failure; the other members race on
                events.put(("done", pos, None, _why(e)))

        # Members set up one after another, in the order they start, and search together:
        # set-up holds the GIL, so overlapping two would only delay both.
        threads: list[threading.Thread] = []

        def launch_next() -> None:
            while len(threads) < len(runs):
                pos = len(threads)
                run = runs[pos][1]
                run.on_searching = lambda: events.put(("searching", -1, None, ""))
                threads.append(threading.Thread(target=race, args=(pos, run), daemon=True))
                threads[-1].start()
                if not run.searching:
                    return

        unknown: list[str] = []
        ended: set[int] = set()  # positions in runs
        paused: list[int] = []  # positions in runs, in the order they yielded
        yielded: set[int] = set()  # a member yields once
        try:
            launch_next()
            freed = len(errors)  # cores no member has taken up
            while len(ended) < len(runs) or waiting:
                now = time.perf_counter()
                if deadline is not None and now >= deadline and events.empty():
                    return Result("unknown", seconds=now - t0, note="time limit")
                running = len(runs) - len(ended) - len(paused)
                due = t0 + self.delays[waiting[0]] if waiting else None
                # a waiting member starts at its time, on a freed core, or when no member is
                # left running; never before the news already in (an answer, say) is read
                if (due is not None and (freed or now >= due or running == 0)
                        and events.empty()):
                    if start_next() and freed:
                        freed -= 1
                    launch_next()
                    continue
                # a paused member goes on on a freed core once no member waits for one
                if paused and not waiting and (freed or running == 0) and events.empty():
                    runs[paused.pop(0)][1].resume()
                    freed = max(0, freed - 1)
                    continue
                # a member yields its core at its time to a waiting member (one core for each;
                # none while news is in: it may free a core or end the race)
                yield_due = None
                for pos, (i, run) in enumerate(runs):
                    y = yields[i]
                    if (y is None or pos in ended or pos in yielded or freed >= len(waiting)
                            or not events.empty()):
                        continue
                    if now < t0 + y:
                        yield_due = min(yield_due or math.inf, t0 + y)
                    elif run.searching:  # not while loading: then when it starts searching
                        yielded.add(pos)  # once: a member searching that cannot pause, never
                        if run.pause():
                            paused.append(pos)
                            freed += 1
                if freed and waiting and events.empty():
                    continue  # the core just given up goes to a waiting member
                wake = min((t for t in (deadline, due, yield_due) if t is not None),
                           default=None)
                try:
                    kind, pos, result, error = events.get(
                        timeout=None if wake is None else max(0.0, wake - time.perf_counter()))
                except queue.Empty:
                    continue  # the time limit, or a member's time to start or yield, has come
                if kind == "done":
                    m = self.members[runs[pos][0]]
                    ended.add(pos)
                    if error:
                        errors.append(f"{m.name}: {error}")
                    elif result.status == "unknown":
                        unknown.append(f"{m.name}: {result.note or 'no answer'}")
                    else:
                        return Result(result.status, result.true_vars,
                                      time.perf_counter() - t0, note=f"answered by {m.name}")
                    if pos in paused:  # it gave its core away already
                        paused.remove(pos)
                    else:
                        freed += 1
                launch_next()  # the last one started is searching, or has ended
        finally:
            for _, run in runs:
                run.stop()
            for t in threads:  # every member has stopped when we return (a killed child is
                # reaped in the background: see ForkedRun)
                t.join()
            for _, run in runs[len(threads):]:  # never launched (a forked one is killed)
                run.close()
        if errors and not unknown:
            raise BackendError("every portfolio member failed: " + "; ".join(errors))
        return Result("unknown", seconds=time.perf_counter() - t0,
                      note="; ".join(unknown + errors))


def timing(delay: float, yield_at: float | None) -> str:
    """A member's ``@START[..YIELD]`` suffix as the portfolio's name writes it."""
    if yield_at is not None:
        return f"@{delay:g}..{yield_at:g}" if delay else f"@..{yield_at:g}"
    return f"@{delay:g}" if delay else ""


def _why(e: BaseException) -> str:
    return str(e) if isinstance(e, BackendError) else f"{type(e).__name__}: {e}"
