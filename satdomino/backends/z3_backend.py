"""Z3 twice: on the lowered CNF (``z3``) and on native formulas from the Model (``z3-smt``)."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from functools import partial
from typing import Any

from ..clock import NEVER, Deadline
from ..encode import CNF
from ..errors import BackendError
from ..model import (
    PB,
    AtMostOne,
    Card,
    Clause,
    Define,
    ExactlyOne,
    IntLinear,
    IntView,
    Model,
    Op,
    compare,
)
from ..process.run import run_in_child
from .base import Backend, Formula, Result
from .session import Session


def _z3():
    import z3  # imported on demand: it is slow to load and most runs do not need it

    return z3


def _bools(z3: Any, num_vars: int) -> list:
    """The Z3 Boolean of every variable id (index 0 unused)."""
    return [None] + [z3.Bool(f"x{i}") for i in range(1, num_vars + 1)]


def _literals(c: object) -> int:
    """A model constraint's literals (a PB's terms, a definition's own variable too)."""
    return len(getattr(c, "lits", None) or getattr(c, "terms", None) or ()) + isinstance(
        c, Define)


def _lit(z3: Any, xs: list, v: int) -> Any:
    return xs[v] if v > 0 else z3.Not(xs[-v])


def model_to_z3(model: Model):
    """The Model as Z3 Boolean formulas with native cardinality / PB terms (PbEq, AtMost, ...)."""
    z3 = _z3()
    xs = _bools(z3, model.num_vars)
    lit = partial(_lit, z3, xs)
    ints = {key: z3.Int(f"i{k}") for k, key in enumerate(model.ints)}
    # native Ints, each with its finite domain
    out = [z3.Or([ints[key] == v for v in x.values]) for key, x in model.ints.items()]
    for c in model.constraints:
        match c:
            case Clause(lits):
                out.append(z3.Or([lit(x) for x in lits]))
            case AtMostOne(lits):
                out.append(z3.AtMost(*[lit(x) for x in lits], 1))
            case ExactlyOne(lits):
                out.append(z3.PbEq([(lit(x), 1) for x in lits], 1))
            case Card(lits, op, bound):
                out.append(_linear(z3, [(lit(x), 1) for x in lits], op, bound))
            case PB(terms, op, bound):
                out.append(_linear(z3, [(lit(x), w) for w, x in terms], op, bound))
            case Define(var, kind, lits):
                out.append(xs[var] == (z3.Or if kind == "or" else z3.And)([lit(x) for x in lits]))
            case IntView(var, x, op, k):
                out.append(xs[var] == (ints[x.key] == k if op == "==" else ints[x.key] >= k))
            case IntLinear(terms, bools, op, bound):
                total = z3.Sum([c * ints[x.key] for c, x in terms]
                               + [z3.If(lit(b), w, 0) for w, b in bools] or [z3.IntVal(0)])
                out.append(compare(total, op, bound))
    return xs, out


def _linear(z3: Any, terms: list, op: Op, bound: int) -> Any:
    """sum(w * x) op bound as Z3's native AtMost / AtLeast / PbLe / PbGe / PbEq."""
    if not terms:
        return z3.BoolVal(compare(0, op, bound))
    if all(w == 1 for _, w in terms) and op != "==":
        return (z3.AtMost if op == "<=" else z3.AtLeast)(*[x for x, _ in terms], bound)
    return {"<=": z3.PbLe, ">=": z3.PbGe, "==": z3.PbEq}[op](terms, bound)


# literals a formula may have: beyond it, building the Z3 formulas alone passed 1 GB (a
# 200-domino Pips board: some 3 million literals)
MAX_LITERALS = 1_000_000


class Z3Backend(Backend):
    """``z3`` reads the CNF (clauses, plus native at-most-k if given); ``z3-smt`` the Model."""

    def __init__(self, smt: bool) -> None:
        super().__init__(name="z3-smt" if smt else "z3", takes="model" if smt else "cnf",
                         native_card=True,
                         summary="Z3 on native formulas" if smt else "Z3 on the CNF")

    def solve(self, formula: Formula, assumptions: Sequence[int] = (),
              deadline: Deadline = NEVER, phases: Sequence[int] = ()) -> Result:
        args = (self.name, self._form(formula), assumptions, deadline)
        t0 = time.perf_counter()
        # building the formulas in Python can itself take long: with a deadline the whole call
        # runs in a forked child that is killed then (Z3's own timeout is set too)
        done, answer = (True, _solve_once(*args)) if deadline.at is None \
            else run_in_child(self.name, _solve_once, args, deadline)
        return answer if done else Result("unknown", seconds=time.perf_counter() - t0,
                                          note="time limit")

    def load(self) -> None:
        _z3()

    def _form(self, formula: Formula) -> CNF | Model:
        if not isinstance(formula, CNF | Model):
            raise BackendError(f"backend {self.name} reads one form of the formula")
        size = (sum(map(len, formula.clauses)) + sum(len(ls) for ls, _ in formula.atmosts)
                if isinstance(formula, CNF) else sum(map(_literals, formula.constraints)))
        if size > MAX_LITERALS:
            raise BackendError(
                f"{self.name} builds a Python object for every literal (some 650 bytes each): "
                f"this formula has {size:,} literals, more than {MAX_LITERALS:,}; use a "
                "python-sat solver (--backend cadical195), or z3 on the exported DIMACS file")
        return formula

    def session(self, formula: Formula) -> Session:
        return Z3Session(self.name, self._form(formula))


class Z3Session(Session):
    """One Z3 solver in this process; a deadline is Z3's own timeout, and ``interrupt`` its
    context's."""

    interruptible = True

    def __init__(self, name: str, formula: CNF | Model) -> None:
        z3 = _z3()
        self.name, self._solver = name, z3.Solver()
        self._core: list[int] = []
        if isinstance(formula, Model):
            self._xs, fs = model_to_z3(formula)
            self._solver.add(fs)
            return
        self._xs = _bools(z3, formula.num_vars)
        self.add(formula.clauses)
        lit = partial(_lit, z3, self._xs)
        self._solver.add([z3.AtMost(*[lit(x) for x in ls], k) for ls, k in formula.atmosts])

    def add(self, clauses: Iterable[Sequence[int]]) -> None:
        z3 = _z3()
        self._solver.add([z3.Or([_lit(z3, self._xs, v) for v in c]) for c in clauses])

    def solve(self, assumptions: Sequence[int] = (), *, deadline: Deadline = NEVER,
              conflicts: int | None = None, phases: Sequence[int] = ()) -> Result:
        z3 = _z3()
        t0 = time.perf_counter()
        left = deadline.left()
        self._solver.set("timeout", 2**32 - 1 if left is None else max(1, int(left * 1000)))
        exprs = [_lit(z3, self._xs, a) for a in assumptions]
        by_id = {e.get_id(): a for e, a in zip(exprs, assumptions, strict=True)}
        answer = self._solver.check(exprs)
        seconds = time.perf_counter() - t0
        if answer == z3.sat:
            m = self._solver.model()
            true = frozenset(i for i in range(1, len(self._xs))
                             if z3.is_true(m.eval(self._xs[i], model_completion=True)))
            return Result("sat", true, seconds)
        if answer == z3.unsat:
            self._core = [by_id[c.get_id()] for c in self._solver.unsat_core()
                          if c.get_id() in by_id]
            return Result("unsat", seconds=seconds)
        why = self._solver.reason_unknown()  # "out of memory" under a memory limit, say
        if why in ("timeout", "canceled"):  # its own limit, or an interrupt
            why = "time limit" if deadline.passed() else "stopped"
        return Result("unknown", seconds=seconds, note=why)

    def core(self) -> list[int]:
        return self._core

    def interrupt(self) -> None:
        self._solver.ctx.interrupt()


def _solve_once(name: str, formula: CNF | Model, assumptions: Sequence[int],
                deadline: Deadline) -> Result:
    return Z3Session(name, formula).solve(assumptions, deadline=deadline)
