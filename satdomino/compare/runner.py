"""One run of a sweep, in its own process: build, encode, solve, decode, verify; with a
wall-clock and a memory limit, killed cleanly on time-out, and its crash recorded, not ours.

The parent forks a child per run (``Child``); the child puts itself in a new process group, sets
RLIMIT_AS, does the work and writes one JSON row to a pipe. The parent waits with ``select`` so a
single thread can watch many children, kills the group past the limit, and reads the child's
peak memory from ``wait4``.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import json
import math
import os
import random
import resource
import select
import signal
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

GRACE = 5.0  # seconds an outside binary gets past the limit to stop itself before the kill

# the columns of a results file, in order
COLUMNS = ["puzzle", "family", "parameters", "planted", "model", "amo", "card", "pb", "int",
           "backend", "seed", "status", "verified", "bug", "variables", "clauses",
           "instance_hash", "encode_seconds", "solve_seconds", "wall_seconds", "peak_mb",
           "timeout", "memory_mb", "note"]
KEY = ("puzzle", "model", "amo", "card", "pb", "int", "backend", "seed")  # a run's identity


@dataclass
class Task:
    """Everything one run needs; picklable, so a Dask worker can run it."""

    puzzle: str  # a label: file[part], or the generator spec of one puzzle
    kind: str
    instance: Any  # the parsed puzzle
    parameters: dict = field(default_factory=dict)
    planted: bool = False  # a solution exists by construction: UNSAT would be a bug
    model: str = ""
    encodings: dict = field(default_factory=dict)
    backend: str = "cadical195"
    seed: int = 0  # 0: the CNF as built; s > 0: variables renamed, clauses and literals shuffled
    timeout: float = 60.0
    memory_mb: int | None = None

    def key(self) -> tuple[str, ...]:
        e = self.encodings
        return (self.puzzle, self.model, e["amo"], e["card"], e["pb"], e["int"], self.backend,
                str(self.seed))


def shuffled(cnf, seed: int):
    """A copy of ``cnf`` with variables renamed and clauses and literals reordered by ``seed``,
    and the renaming (new id -> old id), so answers can be mapped back."""
    from ..encode import CNF

    rng = random.Random(seed)
    ids = list(range(1, cnf.num_vars + 1))
    rng.shuffle(ids)
    new = {old: i for i, old in enumerate(ids, start=1)}

    def rename(lits):
        out = [new[x] if x > 0 else -new[-x] for x in lits]
        rng.shuffle(out)
        return out

    clauses = [rename(c) for c in cnf.clauses]
    rng.shuffle(clauses)
    atmosts = [(rename(lits), k) for lits, k in cnf.atmosts]
    back = {i: old for old, i in new.items()}
    return CNF(cnf.num_vars, 0, clauses, atmosts), back


def execute(task: Task, report: Callable[[dict[str, Any]], None] = lambda row: None
            ) -> dict[str, Any]:
    """The run itself (in the child): a row without the parent's fields (wall, memory).
    ``report`` gets the sizes as soon as the formula is built, so a run killed while solving
    still has them."""
    from ..backends import get_backend
    from ..encode import CNF, Encodings
    from ..export.dimacs import gbd_hash
    from ..puzzles import family

    row: dict[str, Any] = {"variables": "", "clauses": "", "instance_hash": "",
                           "encode_seconds": "", "solve_seconds": "", "verified": "", "note": ""}
    fam = family(task.kind)
    t0 = time.perf_counter()
    m = fam.model(task.model)(task.instance)
    engine = get_backend(task.backend)
    formula = engine.formula(m, Encodings(**task.encodings))
    back = None
    if isinstance(formula, CNF):
        if task.seed:
            formula, back = shuffled(formula, task.seed)
        row.update(variables=formula.num_vars,
                   clauses=len(formula.clauses) + len(formula.atmosts),
                   instance_hash=gbd_hash(formula.clauses))
    else:
        row.update(variables=m.num_vars, clauses=len(m.constraints))
    row["encode_seconds"] = round(time.perf_counter() - t0, 4)
    report(row)
    # an outside binary stops itself at the limit; in-process solvers are killed by the parent
    limit = task.timeout if task.backend.startswith("external:") else None
    result = engine.solve(formula, time_limit=limit)
    row["solve_seconds"] = round(result.seconds, 4)
    row["status"] = {"unknown": "timeout"}.get(result.status, result.status)
    if result.note:
        row["note"] = result.note
    if result.status == "sat":  # every answer is decoded and checked by the rule checker
        true = result.true_vars if back is None else frozenset(back[x] for x in result.true_vars)
        try:
            problems = fam.verify(task.instance, fam.decode(task.instance, m, true))
        except (KeyError, ValueError, IndexError, TypeError) as e:
            problems = [f"the answer does not decode: {e}"]
        row["verified"] = "no" if problems else "yes"
        if problems:
            row["note"] = "; ".join(problems[:2])
    return row


class Child:
    """One forked run, watched by the parent."""

    def __init__(self, task: Task) -> None:
        self.task = task
        self.started = time.monotonic()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read)
            _child_main(task, write)
        os.close(write)
        self.pid, self.fd = pid, read
        self.data = b""

    @property
    def deadline(self) -> float:
        """The limit covers the whole run (building, encoding, solving), like solve --timeout."""
        grace = GRACE if self.task.backend.startswith("external:") else 0.0
        return self.started + self.task.timeout + grace

    def finish(self, killed: bool) -> dict[str, Any]:
        """Reap the child and make its row (after EOF on the pipe, or to kill it)."""
        if killed:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.pid, signal.SIGKILL)
        _, status, usage = os.wait4(self.pid, 0)
        os.close(self.fd)
        wall = time.monotonic() - self.started
        row = dict.fromkeys(COLUMNS, "")
        t = self.task
        row.update(puzzle=t.puzzle, family=t.kind, parameters=json.dumps(t.parameters,
                                                                            sort_keys=True),
                   planted="yes" if t.planted else "no", model=t.model, backend=t.backend,
                   seed=t.seed, timeout=t.timeout, memory_mb=t.memory_mb or "", **t.encodings)
        peak = usage.ru_maxrss / 1024  # kB on Linux
        # the child writes JSON lines: the sizes once encoded, then the whole row
        messages = []
        for line in self.data.decode(errors="replace").splitlines():
            try:
                messages.append(json.loads(line))
            except ValueError:
                break
        payload = messages[-1] if messages and "status" in messages[-1] else None
        if messages and payload is None:
            row.update(messages[-1])  # what was known when the run died
        if killed:
            row.update(status="timeout", note="killed at the time limit")
        elif payload is None:
            sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
            near = t.memory_mb and peak > 0.9 * t.memory_mb
            row.update(status="memout" if near else "crash",
                       note=f"died by signal {sig}" if sig else f"exit {os.WEXITSTATUS(status)}")
        else:
            peak = max(peak, payload.pop("children_peak_mb", 0.0))
            row.update(payload)
        row["wall_seconds"] = round(wall, 4)
        row["peak_mb"] = round(peak, 1)
        if row["status"] == "timeout" and row["solve_seconds"] == "":
            row["solve_seconds"] = round(wall - float(row["encode_seconds"] or 0), 4)
        row["bug"] = bug(row)
        return row


def bug(row: dict[str, Any]) -> str:
    """What is wrong with the answer itself, if anything (not a time-out or a crash)."""
    if row["verified"] == "no":
        return "wrong answer: fails the rule checker"
    if row["status"] == "unsat" and row["planted"] == "yes":
        return "UNSAT on a planted (solvable) puzzle"
    return ""


def _child_main(task: Task, fd: int) -> None:
    code = 0
    try:
        faulthandler.disable()  # a solver's crash is a result here, not a traceback to print
        os.setpgid(0, 0)  # killing the group also kills anything the solver started
        _die_with_parent()
        # a backstop if the parent cannot kill us: SIGALRM's default action ends the process
        signal.alarm(math.ceil(task.timeout + GRACE + 1))
        if task.memory_mb:
            limit = task.memory_mb * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        def send(message: dict[str, Any]) -> None:
            data = (json.dumps(message) + "\n").encode()
            while data:
                data = data[os.write(fd, data):]

        try:
            row = execute(task, send)
        except MemoryError:
            row = {"status": "memout", "note": "out of memory (MemoryError)"}
        except Exception as e:  # a solver or an encoder failing: recorded, the sweep goes on
            last = traceback.format_exception_only(type(e), e)[-1].strip()
            row = {"status": "error", "note": last[:300]}
        children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        row["children_peak_mb"] = children
        send(row)
    except BaseException:
        code = 70
    finally:
        os._exit(code)


def _die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies (a sweep killed hard leaves no runs
    behind). Elsewhere the alarm above is the only backstop."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(70)


def run_isolated(task: Task) -> dict[str, Any]:
    """One run in its own process, to the end or the limit (what a Dask worker calls)."""
    child = Child(task)
    while True:
        left = child.deadline - time.monotonic()
        if left <= 0:
            return child.finish(killed=True)
        ready, _, _ = select.select([child.fd], [], [], left)
        if ready:
            chunk = os.read(child.fd, 65536)
            if not chunk:
                return child.finish(killed=False)
            child.data += chunk
