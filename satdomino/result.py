"""What a solver answers: a status, the true variables, the seconds it took, and why when it
has no answer. Every layer from the process layer up speaks it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["sat", "unsat", "unknown"]


@dataclass
class Result:
    status: Status
    true_vars: frozenset[int] = frozenset()  # positive ids that are true (model variables at least)
    seconds: float = 0.0
    note: str = ""  # why unknown, for example
