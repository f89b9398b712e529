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
HiGHS's jump gives up. A late member that forks (``highs``) forks while the others search
(see ``ForkedRun``).
"""

from __future__ import annotations

import queue
import threading
import time

from ..errors import BackendError
from .base import Backend, Forms, Formula, Result
from .run import Run


class PortfolioBackend(Backend):
    def __init__(self, members: list[Backend], delays: list[float] | None = None) -> None:
        """``delays``: seconds each member waits before it starts (none by default)."""
        if len(members) < 2:
            raise BackendError("a portfolio needs two or more backends: portfolio:A+B")
        self.members = members
        self.delays = delays or [0.0] * len(members)
        kinds = {m.takes for m in members}
        takes = kinds.pop() if len(kinds) == 1 else "both"
        names = [m.name + (f"@{d:g}" if d else "") for m, d in zip(members, self.delays,
                                                                    strict=True)]
        super().__init__(name="portfolio:" + "+".join(names), takes=takes,
                         native_card=all(m.native_card for m in members if m.takes != "model"),
                         takes_phases=any(m.takes_phases for m in members),
                         summary="first answer of " + ", ".join(names))

    @property
    def new_session(self) -> bool:
        return all(getattr(m, "new_session", True) for m in self.members)

    @new_session.setter
    def new_session(self, value: bool) -> None:  # compare's runs keep solvers in their group
        for m in self.members:
            if hasattr(m, "new_session"):
                m.new_session = value

    def solve(self, formula, assumptions=(), time_limit=None, phases=()) -> Result:
        t0 = time.perf_counter()
        deadline = None if time_limit is None else t0 + time_limit
        # the members in the order they start: those with no delay at once (every fork among
        # them before any thread), the others at their time or on a freed core
        waiting = sorted(range(len(self.members)), key=lambda i: self.delays[i])
        runs: list[tuple[Backend, Run]] = []
        errors: list[str] = []

        def start_next() -> bool:
            """Start the first waiting member; False if it cannot start."""
            m = self.members[waiting.pop(0)]
            try:
                runs.append((m, m.start(_form(formula, m), assumptions, phases)))
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

        def race(m: Backend, run: Run) -> None:
            try:
                events.put(("done", m, run.result(), ""))
            except BaseException as e:  # report every failure; the other members race on
                events.put(("done", m, None, _why(e)))

        # Members set up one after another, in the order they start, and search together:
        # set-up holds the GIL, so overlapping two would only delay both.
        threads: list[threading.Thread] = []

        def launch_next() -> None:
            while len(threads) < len(runs):
                m, run = runs[len(threads)]
                run.on_searching = lambda: events.put(("searching", None, None, ""))
                threads.append(threading.Thread(target=race, args=(m, run), daemon=True))
                threads[-1].start()
                if not run.searching:
                    return

        unknown: list[str] = []
        try:
            launch_next()
            ended, freed = 0, len(errors)  # freed: cores no member has taken up
            while ended < len(runs) or waiting:
                now = time.perf_counter()
                if deadline is not None and now >= deadline and events.empty():
                    return Result("unknown", seconds=now - t0, note="time limit")
                due = t0 + self.delays[waiting[0]] if waiting else None
                # a waiting member starts at its time, on a freed core, or when no member is
                # left running; never before the news already in (an answer, say) is read
                if (due is not None and (freed or now >= due or ended == len(runs))
                        and events.empty()):
                    if start_next() and freed:
                        freed -= 1
                    launch_next()
                    continue
                wake = min((t for t in (deadline, due) if t is not None), default=None)
                try:
                    kind, m, result, error = events.get(
                        timeout=None if wake is None else max(0.0, wake - time.perf_counter()))
                except queue.Empty:
                    continue  # the time limit, or a waiting member's time, has come
                if kind == "done":
                    ended += 1
                    if error:
                        errors.append(f"{m.name}: {error}")
                    elif result.status == "unknown":
                        unknown.append(f"{m.name}: {result.note or 'no answer'}")
                    else:
                        return Result(result.status, result.true_vars,
                                      time.perf_counter() - t0, note=f"answered by {m.name}")
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


def _form(formula: Formula, member: Backend) -> Formula:
    """The form of ``formula`` that ``member`` reads."""
    if isinstance(formula, Forms) and member.takes != "both":
        return formula.model if member.takes == "model" else formula.cnf
    return formula


def _why(e: BaseException) -> str:
    return str(e) if isinstance(e, BackendError) else f"{type(e).__name__}: {e}"
