"""One run of a sweep, in its own process: build, encode, solve, decode, verify; with a
wall-clock and a memory limit, killed cleanly on time-out, and its crash recorded, not ours.

The parent forks a child per run (``Child``); the child puts itself in a new process group, sets
RLIMIT_AS (``--memory`` MB above what it holds; under a limit it first execs a fresh interpreter),
does the work and writes one JSON row to a pipe, its peak memory and its outside solvers' (GNU
time's) included. The parent waits with ``select`` so a single thread can watch many children,
and kills the group past the limit, reading the peak memory of its processes first.
"""

from __future__ import annotations

import contextlib
import faulthandler
import json
import math
import os
import pickle
import random
import re
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..backends import get_backend
from ..backends.base import Forms, leaves, size
from ..backends.external import ExternalBackend, gnu_time, solver_peak_mb
from ..encode import CNF, Encodings
from ..export.dimacs import gbd_hash
from ..process import forkserver
from ..process.child import die_with_parent, group_peaks, peak_rss_mb
from ..puzzles import family, load_plugins

ALARM_GRACE = 5.0  # the child's own alarm fires this long after the parent should have killed it
# a run's limit counts from its first message; until then from its fork, with this much more for
# a fresh interpreter to start (under --memory: about 0.14 s)
START_GRACE = 2.0

# the columns of a results file, in order
COLUMNS = ["puzzle", "family", "parameters", "planted", "model", "amo", "card", "pb", "int",
           "backend", "seed", "status", "verified", "bug", "variables", "clauses",
           "instance_hash", "encode_seconds", "solve_seconds", "wall_seconds", "peak_mb",
           "timeout", "memory_mb", "note"]
# a run's identity: the same puzzle and configuration under other limits is another run
KEY = ("puzzle", "model", "amo", "card", "pb", "int", "backend", "seed", "timeout",
       "memory_mb")


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
        row = base_row(self)
        return tuple(str(row[k]) for k in KEY)


def engine_name(task: Task) -> str:
    """The backend a task runs: its name, or what ``auto`` picked (written ``auto: NAME``)."""
    return task.backend.removeprefix("auto: ")


def base_row(task: Task) -> dict[str, Any]:
    """The row's fields that the task alone decides (every executor starts from these)."""
    row: dict[str, Any] = dict.fromkeys(COLUMNS, "")
    row.update(puzzle=task.puzzle, family=task.kind,
               parameters=json.dumps(task.parameters, sort_keys=True),
               planted="yes" if task.planted else "no", model=task.model, backend=task.backend,
               seed=task.seed, timeout=float(task.timeout), memory_mb=task.memory_mb or "",
               **task.encodings)
    return row


def failed_row(task: Task, status: str, note: str) -> dict[str, Any]:
    row = base_row(task)
    row.update(status=status, note=note[:300])
    row["bug"] = bug(row)
    return row


def shuffled(cnf: CNF, seed: int) -> tuple[CNF, dict[int, int]]:
    """A copy of ``cnf`` with variables renamed and clauses and literals reordered by ``seed``,
    and the renaming (new id -> old id), so answers can be mapped back."""
    rng = random.Random(seed)
    ids = list(range(1, cnf.num_vars + 1))
    rng.shuffle(ids)
    back = dict(enumerate(ids, start=1))
    new = {old: i for i, old in back.items()}

    def rename(lits):
        out = [new[x] if x > 0 else -new[-x] for x in lits]
        rng.shuffle(out)
        return out

    clauses = [rename(c) for c in cnf.clauses]
    rng.shuffle(clauses)
    return CNF(cnf.num_vars, 0, clauses, [(rename(lits), k) for lits, k in cnf.atmosts]), back


def execute(task: Task, report: Callable[[dict[str, Any]], None] = lambda row: None
            ) -> dict[str, Any]:
    """The run itself (in the child): a row without the parent's fields (wall, memory).
    ``report`` gets the sizes as soon as the formula is built, so a run killed while solving
    still has them."""
    row: dict[str, Any] = {}  # a field left out stays empty in the parent's row (base_row)
    fam = family(task.kind)
    t0 = time.perf_counter()
    engine = get_backend(engine_name(task))
    engine.prepare()  # before the puzzle is built, as ``solve`` does
    m = fam.model(task.model)(task.instance)
    formula = engine.formula(m, Encodings(**task.encodings))
    back = None
    if isinstance(formula, CNF) and task.seed:
        formula, back = shuffled(formula, task.seed)
    # a portfolio's CNF lowered now: a run's row names its instance, and encoding is timed
    form = formula.cnf if isinstance(formula, Forms) else formula
    row["variables"], row["clauses"] = size(form)
    if isinstance(form, CNF):
        row["instance_hash"] = gbd_hash(form.clauses)
    row["encode_seconds"] = round(time.perf_counter() - t0, 4)
    report(row)
    for member in leaves(engine):  # a portfolio's or a by-size choice's, or the engine itself
        if isinstance(member, ExternalBackend):
            member.new_session = False  # an outside binary stays in this run's process group
            member.measure_peak = True  # and its peak memory is measured (``solver_peak_mb``)
    result = engine.solve(formula)  # the parent kills the whole group at the limit
    # unknown is not the time limit (the parent kills at that): the solver gave up (a local
    # search, an outside solver's UNKNOWN) or ran out of memory
    memout = result.status == "unknown" and re.search(r"memory", result.note, re.I)
    row.update(solve_seconds=round(result.seconds, 4), note=result.note,
               status="memout" if memout else result.status)
    if result.status == "sat":  # every answer is decoded and checked by the rule checker
        try:
            true = (result.true_vars if back is None
                    else frozenset(back[x] for x in result.true_vars))
            problems = fam.verify(task.instance, fam.decode(task.instance, m, true))
        except (KeyError, ValueError, IndexError, TypeError) as e:
            problems = [f"the answer does not decode: {e}"]
        row["verified"] = "no" if problems else "yes"
        if problems:
            row["note"] = "; ".join(problems[:2])
    return row


STOPS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def held_stops() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done: a run forked but not yet on the
    watched list, or reaped but not yet off it, would be missed by the cleanup they start
    (its folder left, its process no one's). This thread's mask: the sweep has no other."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


class Child:
    """One forked run, watched by the parent (made inside ``held_stops``)."""

    def __init__(self, task: Task) -> None:
        gnu_time()  # looked for once, here, not inside every run's time
        self.task = task
        self.folder = tempfile.mkdtemp(prefix="satdomino-run-")  # the run's temporary files
        self.started = time.monotonic()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns
            os.close(read)
            _child_main(task, write, self.folder)
        os.close(write)
        with contextlib.suppress(OSError):  # also here: a kill may come before the child's own
            os.setpgid(pid, pid)
        self.pid, self.fd = pid, read
        self.data = b""
        self.began: float | None = None  # when its work started (its first message says)

    @property
    def deadline(self) -> float:
        """The limit covers the whole run (building, encoding, solving), like solve --timeout,
        for in-process and outside solvers alike; not the start of a fresh interpreter."""
        if self.began is None:
            return self.started + self.task.timeout + START_GRACE
        return self.began + self.task.timeout

    def receive(self, chunk: bytes) -> None:
        """Take what the run sent. Its work started when its first message says, by its own
        clock reading (the system's monotonic clock, the same in every process): not when
        this process got round to reading it, which may be after the run has ended."""
        self.data += chunk
        if self.began is None:
            self.began = time.monotonic()
            with contextlib.suppress(ValueError, TypeError):
                self.began = float(json.loads(self.data.split(b"\n", 1)[0])["began"])

    def finish(self, killed: bool) -> dict[str, Any]:
        """Reap the child and make its row (after EOF on the pipe, or to kill it)."""
        # the child writes JSON lines: its memory at the start, the sizes once encoded, then
        # the whole row; what it said before dying still counts
        known: dict[str, Any] = {}
        for line in self.data.decode(errors="replace").splitlines():
            try:
                known.update(json.loads(line))
            except ValueError:
                break
        finished = "status" in known
        # a run whose row never came (killed, crashed): what its processes reached, read
        # before they are killed
        live = None if finished else group_peaks(self.pid)
        # the whole group, after a run that ended too: nothing the run started outlives it (an
        # outside solver whose parent died before the solver asked to die with it). The group
        # is ours until the run, its leader, is reaped
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)
        _, status, usage = os.wait4(self.pid, 0)
        os.close(self.fd)
        wall = time.monotonic() - (self.began or self.started)
        stderr = _last_line(Path(self.folder) / "stderr")
        measured = solver_peak_mb(Path(self.folder))  # GNU time's, for outside solvers
        shutil.rmtree(self.folder, ignore_errors=True)
        t = self.task
        # ru_maxrss: kB; a crashed fork's own peak (an exec'd run's has the image it replaced)
        crashed_peak = None if t.memory_mb else usage.ru_maxrss / 1024
        row = base_row(t)
        row.update({k: v for k, v in known.items() if k in row}, wall_seconds=round(wall, 4),
                   peak_mb=_run_peak(known, live, self.pid, crashed_peak, measured))
        if killed:
            encoded = row["encode_seconds"] != ""
            row.update(status="timeout", note="killed at the time limit" + (
                "" if encoded else ", while building and encoding"))
            if encoded and row["solve_seconds"] == "":
                row["solve_seconds"] = round(wall - float(row["encode_seconds"]), 4)
        elif not finished:
            sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
            how = f"died by signal {sig}" if sig else f"exit {os.WEXITSTATUS(status)}"
            # under --memory a C++ solver that cannot allocate aborts (std::bad_alloc), and Z3
            # dereferences the null its allocator returns (a segmentation fault at 16 MB)
            memory = t.memory_mb and (sig in (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS)
                                      or "alloc" in stderr)
            if memory and sig != signal.SIGABRT:
                how += f" under --memory {t.memory_mb} (taken as out of memory)"
            row.update(status="memout" if memory else "crash",
                       note="; ".join(x for x in (how, stderr) if x)[:300])
        elif row["status"] == "error":
            if t.memory_mb and re.search(r"memory|alloc", f"{row['note']} {stderr}", re.I):
                row["status"] = "memout"
            if stderr:
                row["note"] = f"{row['note']}; {stderr}"[:300]
        row["bug"] = bug(row)
        return row


def _last_line(path: Path) -> str:
    try:
        lines = path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return lines[-1].strip()[:200] if lines else ""


def bug(row: dict[str, Any]) -> str:
    """What is wrong with the answer itself, if anything (not a time-out or a crash)."""
    if row["verified"] == "no":
        return "wrong answer: fails the rule checker"
    if row["status"] == "unsat" and row["planted"] == "yes":
        return "UNSAT on a planted (solvable) puzzle"
    return ""


@contextlib.contextmanager
def _process_body() -> Iterator[None]:
    """A run's process ends with the block: exit 70 and a traceback (to the run's stderr, its
    last line the row's note) when it fails."""
    code = 0
    try:
        faulthandler.disable()  # a solver's crash is a result here, not a traceback to print
        yield
    except BaseException:
        code = 70
        traceback.print_exc()
    finally:
        os._exit(code)


def _child_main(task: Task, fd: int, folder: str) -> None:
    with _process_body():
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the parent's handler is not ours
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)  # held while the parent forked
        os.setpgid(0, 0)  # killing the group also kills anything the solver started
        die_with_parent()
        # a backstop if the parent cannot kill us: SIGALRM's default action ends the process
        signal.alarm(math.ceil(task.timeout + START_GRACE + ALARM_GRACE))
        # the run's files (an outside solver's CNF) go in a folder the parent removes, and its
        # chatter on stderr to a file, for the note, not over the progress bar
        os.dup2(os.open(Path(folder) / "stderr", os.O_WRONLY | os.O_CREAT, 0o600), 2)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        if task.memory_mb:
            # A forked child can reuse the heap it inherited (memory the parent freed but kept)
            # without growing, so RLIMIT_AS would not see it: after one N = 80 solve in the
            # parent, 15 MB of it. A fresh interpreter starts with none. The process group,
            # PDEATHSIG, the alarm and the redirections above survive exec.
            _exec_fresh(task, fd, folder)
        _run(task, fd, folder)


def _exec_fresh(task: Task, fd: int, folder: str) -> None:
    """Replace this process by a new interpreter that runs ``task`` (``_fresh_main``)."""
    path = Path(folder) / "task.pickle"
    # this sys.path first: unpickling the task imports satdomino, which it may need to find
    path.write_bytes(pickle.dumps((sys.path, pickle.dumps(task))))
    os.set_inheritable(fd, True)
    code = ("import sys, pickle; sys.path[:], task = pickle.load(open(sys.argv[2], 'rb')); "
            "from satdomino.compare.runner import _fresh_main; _fresh_main(pickle.loads(task))")
    # -P: the working directory is not put first on sys.path (a pickle.py there would shadow)
    os.execv(sys.executable, [sys.executable, "-P", "-c", code, str(fd), str(path)])


def _fresh_main(task: Task) -> None:
    """``_child_main``'s second half, in the interpreter that ``_exec_fresh`` started."""
    with _process_body():
        fd, path = int(sys.argv[1]), Path(sys.argv[2])
        path.unlink()
        # loaded before the limit, as a forked run inherits them (the backend: in ``_run``);
        # a family of the caller's is known here only if SATDOMINO_FAMILIES names it
        load_plugins()
        family(task.kind)
        gnu_time()
        _run(task, fd, str(path.parent))


def _run(task: Task, fd: int, folder: str) -> None:
    """Set the memory limit, run ``task`` and send its row (JSON lines) to ``fd``."""
    tempfile.tempdir = folder

    def send(message: dict[str, Any]) -> None:
        data = (json.dumps(message) + "\n").encode()
        while data:
            data = data[os.write(fd, data):]

    with contextlib.suppress(Exception):  # a library that loads lazily: before the limit
        get_backend(engine_name(task)).load()  # (if it fails, it fails again in the run)
    size, resident = _statm()
    send({"start_rss_mb": resident, "began": time.monotonic()})
    if task.memory_mb:  # MB on top of what the process holds now (executors differ there)
        limit = int((size + task.memory_mb) * 2**20)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    try:
        row = execute(task, send)
    except MemoryError:
        row = {"status": "memout", "note": "out of memory (MemoryError)"}
    except Exception as e:  # a solver or an encoder failing: recorded, the sweep goes on
        last = traceback.format_exception_only(type(e), e)[-1].strip()
        row = {"status": "error", "note": last[:300]}
    row["peak_rss_mb"] = peak_rss_mb(os.getpid())
    # forked children (a python-sat solver run apart): their peak counts from what they
    # inherited, as this process's does (an outside solver's own is in GNU time's files)
    row["children_peak_mb"] = max(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                                  forkserver.workers_peak_mb())  # HiGHS's workers
    send(row)


def _run_peak(known: dict[str, Any], live: dict[int, tuple[str, float]] | None, pid: int,
              crashed_peak: float | None, measured: float) -> float | str:
    """The peak memory (MB) a run added, or an outside solver's own, whichever is larger; ""
    if unknown. ``known``: what the run sent; ``live``: its group's processes, read before a
    kill; ``measured``: the outside solvers' largest."""
    start, own, children = (known.get(k) for k in (
        "start_rss_mb", "peak_rss_mb", "children_peak_mb"))
    if start is None:  # killed or dead before it said what it started with
        return ""
    solver = measured
    if live is not None:
        run_exe, own = live.pop(pid, ("", own))  # a zombie (a crash) has no figure left
        # the others: outside solvers (their own peak), forks of the run (from its start)
        solver = max([solver, *(peak - (start if exe == run_exe else 0.0)
                                for exe, peak in live.values())])
    own = crashed_peak if own is None else own
    added = [x - start for x in (own, children) if x is not None]
    return round(max([*added, solver]), 1) if added or solver else ""


def _statm() -> tuple[float, float]:
    """(virtual size, resident size) of this process in MB (Linux /proc; zeros elsewhere)."""
    try:
        pages = Path("/proc/self/statm").read_text().split()
    except OSError:
        return 0.0, 0.0
    unit = os.sysconf("SC_PAGE_SIZE") / 2**20
    return int(pages[0]) * unit, int(pages[1]) * unit


def watch(children: list[Child]) -> Iterator[tuple[Child, bool]]:
    """(child, killed) as children end or reach their limit, watched from one thread."""
    running = {c.fd: c for c in children}
    while running:
        wait = max(0.0, min(c.deadline for c in running.values()) - time.monotonic())
        ready, _, _ = select.select(list(running), [], [], wait)
        for fd in ready:
            chunk = os.read(fd, 65536)
            if chunk:
                running[fd].receive(chunk)
            else:
                yield running.pop(fd), False
        now = time.monotonic()
        for fd, child in list(running.items()):
            if now >= child.deadline:
                yield running.pop(fd), True


def run_isolated(task: Task) -> dict[str, Any]:
    """One run in its own process, to the end or the limit (what a Dask worker calls)."""
    load_plugins()  # the worker's SATDOMINO_FAMILIES, before the fork
    child = Child(task)
    try:
        (_, killed), = watch([child])
    except BaseException:
        child.finish(killed=True)
        raise
    return child.finish(killed)
