"""The backend protocol: a formula in, a status and a model out, within a time limit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..encode import CNF, Encodings, lower
from ..errors import BackendError
from ..model import Model

if TYPE_CHECKING:
    from .run import Run

Status = Literal["sat", "unsat", "unknown"]


@dataclass
class Result:
    status: Status
    true_vars: frozenset[int] = frozenset()  # positive ids that are true (model variables at least)
    seconds: float = 0.0
    note: str = ""  # why unknown, for example


@dataclass
class Backend:
    """One solver. ``takes`` says whether it reads the lowered CNF or the Model itself."""

    name: str
    takes: Literal["cnf", "model"] = "cnf"
    native_card: bool = False  # accepts CNF.atmosts
    summary: str = ""

    takes_phases: bool = False  # honours the ``phases`` hint of ``solve``

    def solve(self, formula: CNF | Model, assumptions: Sequence[int] = (),
              time_limit: float | None = None, phases: Sequence[int] = ()) -> Result:
        """``phases``: literals the search should prefer (a hint, such as a known solution to
        search near); a backend without ``takes_phases`` ignores it."""
        raise NotImplementedError

    def start(self, formula: CNF | Model, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        """A solve another thread can stop (see ``run``). This default forks a child now, to
        be killed; backends that can stop in-process return a lighter Run."""
        from .run import ForkedRun

        return ForkedRun(self.solve, (formula, assumptions, None, phases))

    def check(self, encodings: Encodings) -> None:
        """Refuse encodings this backend cannot take (native cardinality without support)."""
        if self.takes == "cnf" and encodings.native and not self.native_card:
            raise BackendError(f"backend {self.name} has no native cardinality constraints; "
                               "use minicard, gluecard3, gluecard4 or z3, or a clausal encoding")

    def formula(self, model: Model, encodings: Encodings) -> CNF | Model:
        """What this backend reads: the Model itself, or its CNF under ``encodings``."""
        self.check(encodings)
        return model if self.takes == "model" else lower(model, encodings)


def add_clause(formula: CNF | Model, clause: list[int]) -> None:
    """Add a clause over model variables to either kind of formula (a blocking clause)."""
    if isinstance(formula, Model):
        formula.add_clause(clause)
    else:
        formula.clauses.append(clause)
