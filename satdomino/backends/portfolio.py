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
"""

from __future__ import annotations

import queue
import threading
import time

from ..errors import BackendError
from .base import Backend, Forms, Formula, Result
from .run import Run


class PortfolioBackend(Backend):
    def __init__(self, members: list[Backend]) -> None:
        if len(members) < 2:
            raise BackendError("a portfolio needs two or more backends: portfolio:A+B")
        self.members = members
        kinds = {m.takes for m in members}
        takes = kinds.pop() if len(kinds) == 1 else "both"
        super().__init__(name="portfolio:" + "+".join(m.name for m in members), takes=takes,
                         native_card=all(m.native_card for m in members if m.takes != "model"),
                         takes_phases=any(m.takes_phases for m in members),
                         summary="first answer of " + ", ".join(m.name for m in members))

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
        runs: list[tuple[Backend, Run]] = []
        errors: list[str] = []
        try:  # every fork happens here, before any thread starts
            for m in self.members:
                try:
                    runs.append((m, m.start(_form(formula, m), assumptions, phases)))
                except Exception as e:  # this one cannot start; the others race on
                    errors.append(f"{m.name}: {_why(e)}")
        except BaseException:
            for _, run in runs:
                run.close()
            raise
        if not runs:
            raise BackendError("every portfolio member failed: " + "; ".join(errors))
        events: queue.SimpleQueue = queue.SimpleQueue()

        def race(m: Backend, run: Run) -> None:
            try:
                events.put(("done", m, run.result(), ""))
            except BaseException as e:  # report every failure; the other members race on
                events.put(("done", m, None, _why(e)))

        # Members set up one after another, in the order given, and search together: set-up
        # holds the GIL, so overlapping two would only delay both.
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
            ended = 0
            while ended < len(runs):
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                try:
                    kind, m, result, error = events.get(timeout=left)
                except queue.Empty:
                    return Result("unknown", seconds=time.perf_counter() - t0,
                                  note="time limit")
                if kind == "done":
                    ended += 1
                    if error:
                        errors.append(f"{m.name}: {error}")
                    elif result.status == "unknown":
                        unknown.append(f"{m.name}: {result.note or 'no answer'}")
                    else:
                        return Result(result.status, result.true_vars,
                                      time.perf_counter() - t0, note=f"answered by {m.name}")
                launch_next()  # the last one started is searching, or has ended
        finally:
            for _, run in runs:
                run.stop()
            for t in threads:  # every member has ended, its process reaped, when we return
                t.join()
            for _, run in runs[len(threads):]:  # never started (a forked one is reaped)
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
