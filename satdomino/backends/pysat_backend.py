"""Every python-sat solver. A time limit interrupts the solvers that honour python-sat's
``interrupt`` (they release the GIL while solving); the others run in a forked child that is
killed."""

from __future__ import annotations

import inspect
import re
import time
from collections.abc import Callable, Sequence
from functools import cache
from itertools import repeat

import pysolvers
from pysat.solvers import Solver, SolverNames

from ..encode import CNF
from ..errors import BackendError
from .base import Backend, Result
from .child import run_in_child, run_limited
from .run import Run, finish_within

# solvers whose python-sat wrapper has no user phases (set_phases raises)
NO_PHASES = {"cadical103", "kissat404", "cryptosat"}
# solvers that stop on ``interrupt()`` from another thread (CaDiCaL, Kissat and Lingeling keep
# the GIL and ignore it); tests/test_portfolio.py checks each one
INTERRUPTIBLE = {"gluecard3", "gluecard4", "glucose3", "glucose4", "glucose42", "maplechrono",
                 "maplecm", "maplesat", "mergesat3", "minicard", "minisat22", "minisatep"}

# canonical names whose native library imports on this machine
_SKIP = {"ergo"}  # a stub without a real solver behind it in some builds


def solver_names() -> list[str]:
    names = []
    for name in vars(SolverNames):
        if name.startswith("_") or name in _SKIP:
            continue
        try:
            Solver(name=name).delete()
        except Exception:  # not built into this wheel
            continue
        names.append(name)
    return names


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


@cache
def _usual_add_clause(kind: type) -> tuple[Callable, str] | None:
    """(the native function, the handle's attribute) when ``kind.add_clause`` is the usual."""
    try:
        code = inspect.getsource(kind.add_clause)
    except (OSError, TypeError):
        return None
    outside_docstring = "".join(code.split('"""')[0::2])
    lines = [ln.strip() for ln in outside_docstring.splitlines() if ln.strip()]
    found = _USUAL_ADD_CLAUSE.fullmatch("\n".join(lines))
    fn = found and getattr(pysolvers, found["fn"], None)
    return None if fn is None else (fn, found["handle"])


def clause_adder(s: Solver) -> Callable[[list[list[int]]], None]:
    """A function that adds clauses to ``s``. Where python-sat's add_clause has the usual
    form, it calls the native function under it directly: two Python calls fewer per clause,
    a third of MiniSat's loading time. Otherwise ``append_formula``."""
    inner = s.solver
    usual = _usual_add_clause(type(inner))
    native = usual and getattr(inner, usual[1], None)
    if not native:
        return s.append_formula
    fn = usual[0]

    def add(clauses: list[list[int]]) -> None:
        # all() runs the calls in C and stops at the first False (the clauses are
        # unsatisfiable at the root; the solver ignores any more)
        if not all(map(fn, repeat(native), clauses)):
            inner.status = False

    return add


def _run(name: str, cnf: CNF, assumptions: Sequence[int],
         phases: Sequence[int] = ()) -> tuple[str, list[int]]:
    with open_solver(name, cnf) as s:
        if phases:
            s.set_phases(list(phases))
        if s.solve(assumptions=list(assumptions)):
            return "sat", [x for x in s.get_model() or [] if x > 0]
        return "unsat", []


def _interruptible(name: str, cnf: CNF, assumptions: Sequence[int], phases: Sequence[int],
                   run: Run) -> Result:
    t0 = time.perf_counter()
    with open_solver(name, cnf, stopped=lambda: run.stopped) as s:
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
            with Solver(name=name) as s:
                native = bool(s.supports_atmost())
        except Exception as e:
            raise BackendError(f"python-sat solver {name!r} is not available here ({e})") from None
        super().__init__(name=name, takes="cnf", native_card=native,
                         summary=f"python-sat {name}", takes_phases=name not in NO_PHASES)
        # Kissat takes no clause after a solve that searched (it aborts the process: "calling
        # 'kissat_add': incremental solving not supported"): a new solver for every solve
        self.incremental = not name.startswith("kissat")

    def _checked(self, formula) -> CNF:
        assert isinstance(formula, CNF)
        if formula.atmosts and not self.native_card:
            raise BackendError(f"backend {self.name} has no native cardinality constraints; "
                               "use minicard, gluecard3, gluecard4 or z3, or a clausal encoding")
        return formula

    def solve(self, formula, assumptions=(), time_limit=None, phases=()) -> Result:
        if time_limit is not None and self.name in INTERRUPTIBLE:
            return finish_within(self.start(formula, assumptions, phases), time_limit)
        formula = self._checked(formula)
        t0 = time.perf_counter()
        phases = phases if self.takes_phases else ()
        if time_limit is None:
            status, true = _run(self.name, formula, assumptions, phases)
            return Result(status, frozenset(true), time.perf_counter() - t0)
        return run_limited(self.name, _run, (self.name, formula, assumptions, phases), time_limit)

    def start(self, formula, assumptions=(), phases=()) -> Run:
        if self.name not in INTERRUPTIBLE:
            return super().start(formula, assumptions, phases)
        formula = self._checked(formula)
        phases = phases if self.takes_phases else ()
        return Run(lambda run: _interruptible(self.name, formula, assumptions, phases, run))


# python-sat solvers that can log a DRAT proof (the others raise NotImplementedError)
PROOF_SOLVERS = ("cadical195", "cadical153", "cadical103", "glucose4", "glucose42", "glucose3",
                 "gluecard3", "gluecard4", "lingeling", "maplechrono", "maplecm", "maplesat")


def _prove(name: str, clauses: list[list[int]]) -> tuple[str, list[str]]:
    with Solver(name=name, with_proof=True, bootstrap_with=clauses) as s:
        if s.solve():
            return "sat", []
        return "unsat", list(s.get_proof() or [])


def prove(name: str, clauses: list[list[int]], time_limit: float) -> tuple[str, list[str]]:
    """(status, DRAT proof lines when unsat) from a proof-logging python-sat solver, in a
    forked child killed after ``time_limit``."""
    if name not in PROOF_SOLVERS:
        raise BackendError(f"{name!r} cannot log proofs; choose from {', '.join(PROOF_SOLVERS)}")
    done, payload = run_in_child(name, _prove, (name, clauses), time_limit)
    return payload if done else ("unknown", [])
