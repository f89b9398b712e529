"""A portfolio: several backends race on the same CNF, each in its own process; the first
definite answer (sat or unsat) wins and the others are killed.

Written ``portfolio:A+B[+C...]`` with any CNF-reading backends (python-sat names, presets,
``external:CMD``, ``z3``). A ``phases`` hint goes to every member; those that cannot take one
simply race without it, so a portfolio of a local-search configuration and CaDiCaL is quick
both at finding a first solution and at finding a second one near it.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from multiprocessing.connection import wait

from ..errors import BackendError
from .base import Backend, Result
from .child import die_with_parent


def _member(conn, member: Backend, formula, assumptions, phases) -> None:
    die_with_parent()  # killing the portfolio (or its run) kills the members too
    try:
        conn.send(("ok", member.solve(formula, assumptions, time_limit=None, phases=phases)))
    except BaseException as e:  # report every failure; the other members race on
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


class PortfolioBackend(Backend):
    def __init__(self, members: list[Backend]) -> None:
        if len(members) < 2:
            raise BackendError("a portfolio needs two or more backends: portfolio:A+B")
        for m in members:
            if m.takes != "cnf":
                raise BackendError(f"portfolio member {m.name} does not read CNF")
        self.members = members
        super().__init__(name="portfolio:" + "+".join(m.name for m in members), takes="cnf",
                         native_card=all(m.native_card for m in members),
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
        ctx = multiprocessing.get_context("fork")
        t0 = time.perf_counter()
        deadline = None if time_limit is None else t0 + time_limit
        running = {}
        started = []
        for m in self.members:
            recv, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_member, args=(send, m, formula, assumptions, phases),
                               daemon=True)
            proc.start()
            send.close()
            running[recv] = (m, proc)
            started.append(proc)
        errors: list[str] = []
        unknown: list[str] = []
        try:
            while running:
                left = None if deadline is None else max(0.0, deadline - time.perf_counter())
                ready = wait(list(running), timeout=left)
                if not ready:
                    return Result("unknown", seconds=time.perf_counter() - t0,
                                  note="time limit")
                for conn in ready:
                    m, proc = running.pop(conn)
                    try:
                        kind, payload = conn.recv()
                    except EOFError:
                        proc.join(1)
                        errors.append(f"{m.name}: the process died (exit {proc.exitcode})")
                        continue
                    finally:
                        conn.close()
                    if kind == "error":
                        errors.append(f"{m.name}: {payload}")
                    elif payload.status == "unknown":
                        unknown.append(f"{m.name}: {payload.note or 'no answer'}")
                    else:
                        return Result(payload.status, payload.true_vars,
                                      time.perf_counter() - t0, note=f"answered by {m.name}")
        finally:
            for conn, (_, proc) in running.items():
                if proc.is_alive():
                    os.kill(proc.pid, signal.SIGKILL)  # its outside solver dies with it
                conn.close()
            for proc in started:  # the finished ones too: no zombies left behind
                proc.join()
        if errors and not unknown:
            raise BackendError("every portfolio member failed: " + "; ".join(errors))
        return Result("unknown", seconds=time.perf_counter() - t0,
                      note="; ".join(unknown + errors))
