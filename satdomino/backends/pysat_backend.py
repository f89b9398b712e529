"""Every python-sat solver. A time limit interrupts the solvers that honour python-sat's
``interrupt`` (they release the GIL while solving); the others run in a forked child that is
killed."""

from __future__ import annotations

import functools
import inspect
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext, suppress
from itertools import repeat
from typing import Any

import pysolvers
from pysat.solvers import Solver, SolverNames

from ..clock import NEVER, Deadline, shielded, start
from ..encode import CNF
from ..errors import BackendError
from ..process.run import ForkedRun, Run, finish_within, run_in_child
from ..process.sigterm import interrupted_by_signals, stopped_natively
from .base import Backend, Formula, Result, Status
from .session import Ended, Session, blocking_clause

# solvers whose python-sat wrapper has no user phases (set_phases raises)
NO_PHASES = {"cadical103", "kissat404", "cryptosat"}
# solvers that stop on ``interrupt()`` from another thread (CaDiCaL, Kissat and Lingeling keep
# the GIL and ignore it); tests/test_portfolio.py checks each one
INTERRUPTIBLE = {"gluecard3", "gluecard4", "glucose3", "glucose4", "glucose42", "maplechrono",
                 "maplecm", "maplesat", "mergesat3", "minicard", "minisat22", "minisatep"}

_SKIP = {"ergo"}  # a stub without a real solver behind it in some builds


def solver_names() -> list[str]:
    """The canonical names whose native library imports on this machine."""
    names = []
    for name in vars(SolverNames):
        if not name.startswith("_") and name not in _SKIP:
            with suppress(Exception):  # not built into this wheel
                delete(Solver(name=name))
                names.append(name)
    return names


def delete(s: Solver) -> None:
    """``s.delete()``, shielded from TimeUp: one that lands between the native free and
    python-sat's note of it frees the solver again when the object goes (a double free: the
    process crashed at exit after ``export --uniqueness --timeout``)."""
    with shielded():
        s.delete()


@contextmanager
def owned(s: Solver) -> Iterator[Solver]:
    """``s`` for the block, deleted (shielded) after it."""
    try:
        yield s
    finally:
        delete(s)


def open_solver(name: str, cnf: CNF, stopped: Callable[[], bool] | None = None) -> Solver:
    """A python-sat solver holding the CNF's clauses and native at-most-k constraints.

    Loading holds the GIL and cannot be interrupted; clauses go in 4,096 at a time and, with
    ``stopped``, loading ends early (the solver holding part of them) once ``stopped()``."""
    s = Solver(name=name)
    add = clause_adder(s)
    for i in range(0, len(cnf.clauses), 4096):
        if stopped is not None and stopped():
            return s
        add(cnf.clauses[i:i + 4096])
    for lits, k in cnf.atmosts:
        s.add_atmost(lits, k)
    return s


# python-sat's add_clause, for every solver we know, is exactly this (docstring aside)
_USUAL_ADD_CLAUSE = re.compile(
    r"def add_clause\(self, clause, no_return=True\):\n"
    r"if self\.(?P<handle>\w+):\n"
    r"res = pysolvers\.(?P<fn>\w+_add_cl)\(self\.(?P=handle), clause\)\n"
    r"if res == False:\nself\.status = False\n"
    r"if not no_return:\nreturn res")


@functools.cache
def _usual_add_clause(kind: Any) -> tuple[Callable, str] | None:
    """(the native function, the handle's attribute) when ``kind.add_clause`` (a solver
    class's) is the usual."""
    try:
        code = inspect.getsource(kind.add_clause)
    except (OSError, TypeError):
        return None
    outside_docstring = "".join(code.split('"""')[0::2])
    lines = [ln.strip() for ln in outside_docstring.splitlines() if ln.strip()]
    found = _USUAL_ADD_CLAUSE.fullmatch("\n".join(lines))
    if found is None:
        return None
    fn = getattr(pysolvers, found["fn"], None)
    return None if fn is None else (fn, found["handle"])


def clause_adder(s: Solver) -> Callable[[list[list[int]]], None]:
    """A function that adds clauses to ``s``. Where python-sat's add_clause has the usual
    form, it calls the native function under it directly: two Python calls fewer per clause,
    a third of MiniSat's loading time. Otherwise ``append_formula``."""
    inner = s.solver
    usual = _usual_add_clause(inner.__class__)
    native = None if usual is None else getattr(inner, usual[1], None)
    if usual is None or not native:
        return s.append_formula

    def add(clauses: list[list[int]]) -> None:
        # all() runs the calls in C and stops at the first False (the clauses are
        # unsatisfiable at the root; the solver ignores any more)
        if not all(map(usual[0], repeat(native), clauses)):
            inner.status = False

    return add


def _run(name: str, cnf: CNF, assumptions: Sequence[int],
         phases: Sequence[int] = ()) -> tuple[Status, list[int]]:
    if name.startswith("kissat") and assumptions:  # it takes none: as unit clauses
        cnf = CNF(cnf.num_vars, cnf.model_vars, [*cnf.clauses, *([a] for a in assumptions)],
                  cnf.atmosts)
        assumptions = ()
    with open_solver(name, cnf) as s:
        if phases:
            s.set_phases(list(phases))
        if s.solve(assumptions=list(assumptions)):
            return "sat", [x for x in s.get_model() or [] if x > 0]
        return "unsat", []


def _interruptible(name: str, cnf: CNF, assumptions: Sequence[int], phases: Sequence[int],
                   run: Run) -> Result:
    t0 = time.perf_counter()
    with owned(open_solver(name, cnf, stopped=lambda: run.stopped)) as s:
        if run.stopped:
            return run.stopped_result(time.perf_counter() - t0)
        if phases:
            s.set_phases(list(phases))
        while True:
            # pausable first: a portfolio may pause it from the moment it counts as searching
            with run.pausable(s.interrupt), run.stoppable(s.interrupt):
                answer = s.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
            if answer is not None:
                break
            if not run.wait_while_paused():  # interrupted to stop, not to pause
                return run.stopped_result(time.perf_counter() - t0)
            s.clear_interrupt()  # resumed: solve on, with what it has learnt
        true = [x for x in s.get_model() or [] if x > 0] if answer else []
    return Result("sat" if answer else "unsat", frozenset(true), time.perf_counter() - t0)


class PysatBackend(Backend):
    def __init__(self, name: str) -> None:
        try:
            with owned(Solver(name=name)) as s:
                native = bool(s.supports_atmost())
        except Exception as e:
            raise BackendError(f"python-sat solver {name!r} is not available here ({e})") from None
        super().__init__(name=name, takes="cnf", native_card=native,
                         summary=f"python-sat {name}", takes_phases=name not in NO_PHASES)
        # Kissat takes no clause after a solve that searched (it aborts the process: "calling
        # 'kissat_add': incremental solving not supported"): a new solver for every solve
        self.incremental = not name.startswith("kissat")
        self.interruptible = name in INTERRUPTIBLE

    def _checked(self, formula: Formula) -> CNF:
        if not isinstance(formula, CNF):
            raise BackendError(f"backend {self.name} reads a CNF")
        if formula.atmosts and not self.native_card:
            raise BackendError(f"backend {self.name} has no native cardinality constraints; "
                               "use minicard, gluecard3, gluecard4 or z3, or a clausal encoding")
        return formula

    def solve(self, formula: Formula, assumptions: Sequence[int] = (),
              deadline: Deadline = NEVER, phases: Sequence[int] = ()) -> Result:
        if deadline.at is not None and self.interruptible:
            return finish_within(self.start(formula, assumptions, phases), deadline)
        args = (self.name, self._checked(formula), assumptions,
                phases if self.takes_phases else ())
        t0 = time.perf_counter()
        # with a deadline, in a forked child killed then: the solver does not stop on interrupt
        done, answer = (True, _run(*args)) if deadline.at is None \
            else run_in_child(self.name, _run, args, deadline)
        if not done:
            return Result("unknown", seconds=time.perf_counter() - t0, note="time limit")
        return Result(answer[0], frozenset(answer[1]), time.perf_counter() - t0)

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        if not self.interruptible:
            return super().start(formula, assumptions, phases)
        cnf = self._checked(formula)
        phases = phases if self.takes_phases else ()
        return Run(lambda run: _interruptible(self.name, cnf, assumptions, phases, run))

    def session(self, formula: Formula) -> Session:
        return PysatSession(self, self._checked(formula))


class PysatSession(Session):
    """One python-sat solver in this process. A solver that stops on ``interrupt`` solves
    here under a deadline too; one that does not (CaDiCaL, Kissat, Lingeling) solves here
    with no deadline, and under one in a forked child (a copy of the solver, killed at the
    deadline: what the child learns is lost, the answer and its core are not)."""

    def __init__(self, backend: PysatBackend, cnf: CNF) -> None:
        self.name, self.takes_phases = backend.name, backend.takes_phases
        self.incremental, self.interruptible = backend.incremental, backend.interruptible
        self._cnf = cnf
        self._added: list[list[int]] = []  # for a solver made again for each solve (Kissat)
        self._solver = open_solver(self.name, cnf)
        self._add = clause_adder(self._solver)
        self._core: list[int] | None = None
        self._core_here = True  # the last answer's core is the solver's own to give
        self._lock = threading.Lock()
        self._child: ForkedRun | None = None
        self._timer: threading.Timer | None = None
        self._armed: float | None = None  # the deadline the watchdog is set for

    def add(self, clauses: Iterable[Sequence[int]]) -> None:
        batch = [list(c) for c in clauses]
        if self.incremental:
            self._add(batch)
        else:  # kept for the solver made for the next solve
            self._added += batch

    def solve(self, assumptions: Sequence[int] = (), *, deadline: Deadline = NEVER,
              conflicts: int | None = None, phases: Sequence[int] = ()) -> Result:
        t0 = time.perf_counter()
        if not self.incremental:  # a fresh solver for each solve, the assumptions as units
            delete(self._solver)
            self._solver = open_solver(self.name, self._cnf)
            clause_adder(self._solver)([*self._added, *([a] for a in assumptions)])
            assumptions = ()
        s = self._solver
        if phases and self.takes_phases:
            s.set_phases(list(phases))
        if deadline.at is not None and not self.interruptible:
            answer, true, self._core = self._in_child(list(assumptions), conflicts, deadline)
            self._core_here = False
        else:
            answer = self._here(s, list(assumptions), conflicts, deadline)
            true = [x for x in s.get_model() or [] if x > 0] if answer else []
            self._core, self._core_here = None, True  # asked of the solver when wanted
        if answer is None:
            return Result("unknown", seconds=time.perf_counter() - t0,
                          note="time limit" if deadline.passed() else "stopped")
        return Result("sat" if answer else "unsat", frozenset(true), time.perf_counter() - t0)

    def _here(self, s: Solver, assumptions: list[int], conflicts: int | None,
              deadline: Deadline) -> bool | None:
        if self.interruptible:
            self._arm(deadline)
            s.clear_interrupt()
            if deadline.passed():  # its interrupt may have come before the clear
                return None
        return _solve_on(s, assumptions, conflicts, self.interruptible)

    def _arm(self, deadline: Deadline) -> None:
        """One watchdog a session, interrupting the solver at the deadline: a solve costs
        microseconds here, a thread a hundred."""
        if deadline.at == self._armed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer.join()  # an interrupt under way ends before the solver is used again
        self._armed = deadline.at
        left = deadline.left()
        self._timer = None if left is None else threading.Timer(left, self._solver.interrupt)
        if self._timer is not None:
            self._timer.daemon = True
            start(self._timer)

    def _in_child(self, assumptions: list[int], conflicts: int | None,
                  deadline: Deadline) -> tuple[bool | None, list[int], list[int] | None]:
        if deadline.passed():
            return None, [], None
        run = ForkedRun(_solve_copy, (self._solver, assumptions, conflicts))
        with self._lock:
            self._child = run
        try:
            answer = run.result() if run.ready(deadline.left()) else None
            return answer if isinstance(answer, tuple) else (None, [], None)  # or stopped
        finally:
            with self._lock:
                self._child = None
            run.close()

    def core(self) -> list[int]:
        if self._core is None and self._core_here and self.incremental:
            with suppress(NotImplementedError):  # Lingeling has none
                self._core = list(self._solver.get_core() or [])
        if self._core is None:  # Kissat takes its assumptions as units: no core either
            raise BackendError(f"{self.name} gives no unsatisfiable core here")
        return self._core

    def propagate(self, assumptions: Sequence[int]) -> tuple[bool, list[int]]:
        ok, lits = self._solver.propagate(assumptions=list(assumptions))
        return bool(ok), list(lits or [])

    def interrupt(self) -> None:
        with self._lock:
            if self._child is not None:
                self._child.stop()
        if self.interruptible:
            self._solver.interrupt()

    def enumerate(self, projection: Sequence[int], on_solution: Callable[[frozenset[int]], None],
                  *, deadline: Deadline = NEVER, limit: int | None = None) -> tuple[int, Ended]:
        if not self.incremental or (deadline.at is not None and not self.interruptible):
            return super().enumerate(projection, on_solution, deadline=deadline, limit=limit)
        s, found = self._solver, 0
        if self.interruptible:
            self._arm(deadline)
            s.clear_interrupt()
        while limit is None or found < limit:
            if deadline.passed():
                return found, "stopped"
            answer = _solve_on(s, [], None, self.interruptible)
            if not answer:
                return found, "all" if answer is False else "stopped"
            true = frozenset(x for x in s.get_model() if x > 0)
            found += 1
            on_solution(true)
            self._add([blocking_clause(projection, true)])
        return found, "limit"

    def close(self) -> None:
        self._arm(NEVER)
        delete(self._solver)


def _solve_on(s: Solver, assumptions: list[int], conflicts: int | None,
              interruptible: bool = False) -> bool | None:
    """One solve of ``s``: within ``conflicts`` conflicts (None: no budget), and stopping on
    an interrupt if it is ``interruptible``."""
    try:
        if conflicts is None and not interruptible:
            return s.solve(assumptions=assumptions)
        s.conf_budget(-1 if conflicts is None else conflicts)
        # searching without the GIL, in the main thread: a signal interrupts it
        here = interruptible and threading.current_thread() is threading.main_thread()
        with interrupted_by_signals(s.interrupt) if here else nullcontext():
            return s.solve_limited(assumptions=assumptions, expect_interrupt=interruptible)
    except pysolvers.error as e:  # its SIGINT handler stopped it: Ctrl-C, or a bridged SIGTERM
        if "keyboard interrupt" not in str(e):
            raise
        stopped_natively()


def _solve_copy(s: Solver, assumptions: list[int],
                conflicts: int | None) -> tuple[bool | None, list[int], list[int] | None]:
    """In a forked child: the answer of its copy of the solver, the true variables and the
    core (None where the solver gives none)."""
    answer = _solve_on(s, assumptions, conflicts)
    true = [x for x in s.get_model() or [] if x > 0] if answer else []
    core = None
    with suppress(NotImplementedError):  # Kissat, Lingeling: no cores
        core = list(s.get_core() or []) if answer is False else None
    return answer, true, core


# python-sat solvers that can log a DRAT proof (the others raise NotImplementedError)
PROOF_SOLVERS = ("cadical195", "cadical153", "cadical103", "glucose4", "glucose42", "glucose3",
                 "gluecard3", "gluecard4", "lingeling", "maplechrono", "maplecm", "maplesat")


def _prove(name: str, clauses: list[list[int]]) -> tuple[str, list[str]]:
    with owned(Solver(name=name, with_proof=True, bootstrap_with=clauses)) as s:
        return ("sat", []) if s.solve() else ("unsat", list(s.get_proof() or []))


def prove(name: str, clauses: list[list[int]], deadline: Deadline) -> tuple[str, list[str]]:
    """(status, DRAT proof lines when unsat) from a proof-logging python-sat solver, in a
    forked child killed at the deadline."""
    if name not in PROOF_SOLVERS:
        raise BackendError(f"{name!r} cannot log proofs; choose from {', '.join(PROOF_SOLVERS)}")
    done, payload = run_in_child(name, _prove, (name, clauses), deadline)
    return payload if done else ("unknown", [])
