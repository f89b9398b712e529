"""The backend protocol: a formula in, a status and a model out, within a time limit."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from ..encode import CNF
from ..model import Model

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

    def solve(self, formula: CNF | Model, assumptions: Sequence[int] = (),
              time_limit: float | None = None) -> Result:
        raise NotImplementedError
