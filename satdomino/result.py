"""What a solver answers: a status, the true variables, the seconds it took, and why when it
has no answer (every layer from the process layer up speaks it); and what a count found."""

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


@dataclass
class Count:
    """How many distinct solutions ``analysis.count`` found, and how."""

    value: int
    # "enumeration", "dp", "ganak", "approx" or "estimate" (incomplete: what ran, "dp+ganak")
    method: str
    complete: bool  # False: stopped at --limit or the time limit (value is then a lower bound)
    seconds: float
    by: str = "placement"
    reason: str = ""  # why it is incomplete: "time limit", "--limit reached", ...
    epsilon: float | None = None  # for an approximate count: its guarantee
    delta: float | None = None
    error: float | None = None  # for the family's estimate: its relative standard error
    raced: tuple[str, ...] = ()  # the methods that took part (none: settled without a race)
