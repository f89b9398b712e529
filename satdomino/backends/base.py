"""The backend protocol: a formula in, a status and a model out, by a deadline; and one
incremental session (``session``) for everything that asks a solver more than once."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..clock import NEVER, Deadline
from ..encode import CNF, Encodings, lower
from ..errors import BackendError
from ..model import Model
from ..process.run import ForkedRun, Run, finish_within
from ..result import Result, Status
from .session import Session

__all__ = ["Backend", "Formula", "Forms", "Group", "Result", "Session", "Status"]


class Forms:
    """One formula twice, as the Model and as its CNF: for a portfolio whose members read
    different forms. Both keep the model's variable numbers. The CNF is lowered when a
    member first asks for it: a member that starts late, or never, costs nothing before."""

    def __init__(self, model: Model, encodings: Encodings) -> None:
        self.model, self.encodings = model, encodings
        self._cnf: CNF | None = None
        self._lock = threading.Lock()

    @property
    def cnf(self) -> CNF:
        with self._lock:
            if self._cnf is None:
                self._cnf = lower(self.model, self.encodings)
            return self._cnf

    @property
    def lowered(self) -> CNF | None:
        """The CNF if a member asked for it, else None."""
        return self._cnf

    def add_clause(self, clause: list[int]) -> None:
        """To the model, and to the CNF if lowered (one lowered later has it from the model)."""
        with self._lock:
            self.model.add_clause(clause)
            if self._cnf is not None:
                self._cnf.clauses.append(list(clause))


Formula = CNF | Model | Forms


def form_for(formula: Formula, backend: Backend) -> Formula:
    """The form of ``formula`` that ``backend`` reads (a Forms split for one that reads a
    single form)."""
    if isinstance(formula, Forms) and backend.takes != "both":
        return formula.model if backend.takes == "model" else formula.cnf
    return formula


def sized(formula: Formula) -> CNF | Model:
    """The form a run's sizes are counted on: the CNF when there is one (a portfolio's, once
    lowered), else the Model."""
    if isinstance(formula, Forms):
        return formula.lowered or formula.model
    return formula


def size(formula: Formula) -> tuple[int, int]:
    """(variables, clauses) of a run: its CNF's (cardinality constraints counted as clauses),
    or else its Model's variables and constraints."""
    f = sized(formula)
    if isinstance(f, Model):
        return f.num_vars, len(f.constraints)
    return f.num_vars, len(f.clauses) + len(f.atmosts)


def release(formula: Formula) -> None:
    """Give up a run's formula once its answer is in: a CNF's clauses (a portfolio's, if
    lowered) are freed apart (``CNF.discard``)."""
    f = sized(formula)
    if isinstance(f, CNF):
        f.discard()


def not_built(name: str) -> BackendError:
    """The error of a backend whose C part the install could not build."""
    return BackendError(f"backend {name} is not built here (pip install needs a C compiler "
                        "for it); the other backends work without it")


@dataclass
class Backend:
    """One solver. ``takes`` says whether it reads the lowered CNF, the Model itself or (a
    portfolio of both kinds) both."""

    name: str
    takes: Literal["cnf", "model", "both"] = "cnf"
    native_card: bool = False  # accepts CNF.atmosts
    summary: str = ""

    takes_phases: bool = False  # honours the ``phases`` hint of ``solve``
    interruptible: bool = False  # its sessions solve in this process and stop on interrupt

    def solve(self, formula: Formula, assumptions: Sequence[int] = (),
              deadline: Deadline = NEVER, phases: Sequence[int] = ()) -> Result:
        """``phases``: literals the search should prefer (a hint, such as a known solution to
        search near); a backend without ``takes_phases`` ignores it. By default, ``start``'s
        run, stopped at the deadline (a backend defines ``solve``, ``start`` or both)."""
        run = self.start(formula, assumptions, phases)
        try:
            return finish_within(run, deadline)
        finally:
            run.close()

    def session(self, formula: Formula) -> Session:
        """One solver kept across calls on ``formula`` (``Session``). By default each solve
        starts again from the formula and the clauses added since."""
        return RestartSession(self, formula)

    def prepare(self) -> None:
        """Called before a puzzle is built, while this process is small: a backend that will
        fork a worker starts the fork server now (``forkserver``). Nothing by default."""

    def load(self) -> None:
        """Load the libraries a solve will need now (before a memory limit is set, say)
        rather than at the first solve. Nothing by default."""

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        """A solve another thread can stop (see ``process.run``). This default forks a child
        now, to be killed; backends that can stop in-process return a lighter Run."""
        return ForkedRun(self.solve, (formula, assumptions, NEVER, phases))

    def model_of(self, formula: Formula) -> Model:
        """The Model a backend that reads the model (``takes="model"``) was handed."""
        if not isinstance(formula, Model):
            raise BackendError(f"backend {self.name} reads the model")
        return formula

    def check(self, encodings: Encodings) -> None:
        """Refuse encodings this backend cannot take (native cardinality without support)."""
        if self.takes != "model" and encodings.native and not self.native_card:
            raise BackendError(f"backend {self.name} has no native cardinality constraints; "
                               "use minicard, gluecard3, gluecard4 or z3, or a clausal encoding")

    def formula(self, model: Model, encodings: Encodings) -> Formula:
        """What this backend reads: the Model itself, its CNF under ``encodings``, or both."""
        self.check(encodings)
        if self.takes == "model":
            return model
        return Forms(model, encodings) if self.takes == "both" else lower(model, encodings)


class Group(Backend):
    """A backend made of others (a portfolio, a choice by size): what it reads, whether it
    takes native cardinality constraints and phases, and compare's process-group setting all
    follow its ``parts``."""

    def __init__(self, parts: list[Backend], name: str, summary: str) -> None:
        self.parts = parts
        kinds = {m.takes for m in parts}
        super().__init__(name=name, takes=kinds.pop() if len(kinds) == 1 else "both",
                         native_card=all(m.native_card for m in parts if m.takes != "model"),
                         takes_phases=any(m.takes_phases for m in parts), summary=summary)

    def prepare(self) -> None:
        for m in self.parts:
            m.prepare()

    def load(self) -> None:
        for m in self.parts:
            m.load()

    @property
    def new_session(self) -> bool:
        return all(getattr(m, "new_session", True) for m in self.parts)

    @new_session.setter
    def new_session(self, value: bool) -> None:  # compare's runs keep solvers in their group
        for m in self.parts:
            if hasattr(m, "new_session"):
                m.new_session = value


def leaves(backend: Backend) -> list[Backend]:
    """The single solvers ``backend`` runs: itself, or every part of a Group, nested ones
    opened too."""
    if isinstance(backend, Group):
        return [leaf for part in backend.parts for leaf in leaves(part)]
    return [backend]


class RestartSession(Session):
    """A session over a backend that keeps nothing between solves (a portfolio, an outside
    binary, HiGHS, ``sls``): each solve starts again from the formula, which the session owns
    and adds its clauses to; ``interrupt`` stops the run under way (a backend with no
    ``start`` of its own solves by its ``solve``, which only its deadline stops)."""

    def __init__(self, backend: Backend, formula: Formula) -> None:
        self.backend, self.formula = backend, formula
        self.name, self.takes_phases = backend.name, backend.takes_phases
        self._lock = threading.Lock()
        self._run: Run | None = None

    def add(self, clauses: Iterable[Sequence[int]]) -> None:
        for clause in clauses:
            add_clause(self.formula, list(clause))

    def solve(self, assumptions: Sequence[int] = (), *, deadline: Deadline = NEVER,
              conflicts: int | None = None, phases: Sequence[int] = ()) -> Result:
        if type(self.backend).start is Backend.start:  # no run of its own to stop: it solves
            return self.backend.solve(self.formula, assumptions, deadline, phases)
        run = self.backend.start(self.formula, assumptions, phases)
        with self._lock:
            self._run = run
        try:
            return finish_within(run, deadline)
        finally:
            with self._lock:
                self._run = None
            run.close()

    def interrupt(self) -> None:
        with self._lock:
            if self._run is not None:
                self._run.stop()


def add_clause(formula: Formula, clause: list[int]) -> None:
    """Add a clause over model variables to any kind of formula (a blocking clause)."""
    if isinstance(formula, Forms | Model):
        formula.add_clause(clause)
    else:
        formula.clauses.append(clause)
