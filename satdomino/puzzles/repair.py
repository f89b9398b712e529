"""What the repair loops of the generators share (``dominofit_unique``, ``doodlefit_unique``):
the solver's other solution, if there is one, within the time left."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ..errors import OutOfTimeError
from ..solve import solve
from . import family

# one solver, not auto's race (which one answers first depends on timing): the same seed
# gives the same puzzle
BACKEND = "cadical195"


def other_solution(puzzle: Any, kind: str, planted: Any, key: Callable[[Any], Any],
                   deadline: float | None, what: str) -> Any:
    """A solution of ``puzzle`` other than ``planted`` (the same by ``key``), or None when
    the solver proves ``planted`` the only one; OutOfTimeError naming ``what`` at the
    deadline."""
    left = None if deadline is None else deadline - time.monotonic()
    late = OutOfTimeError(f"no unique {what} within the time limit")
    if left is not None and left <= 0:
        raise late
    out = solve(puzzle, family(kind), unique=True, timeout=left, backend=BACKEND)
    if out.unique is None:
        raise late
    if out.unique:
        return None
    return out.other if key(out.solution) == planted else out.solution
