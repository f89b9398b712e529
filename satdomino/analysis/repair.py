"""What the generators' repair loops share: the solver's other solution, if there is one, by
the deadline."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..clock import Deadline
from ..errors import OutOfTimeError
from ..family import Family
from ..solve import solve

# one solver, not auto's race (which one answers first depends on timing): the same seed
# gives the same puzzle
BACKEND = "cadical195"


def other_solution(puzzle: Any, family: Family[Any, Any], planted: Any,
                   key: Callable[[Any], Any], deadline: Deadline, what: str) -> Any:
    """A solution of ``puzzle`` other than ``planted`` (the same by ``key``), or None when
    the solver proves ``planted`` the only one; OutOfTimeError naming ``what`` at the
    deadline."""
    late = OutOfTimeError(f"no unique {what} within the time limit")
    if deadline.passed():
        raise late
    out = solve(puzzle, family, unique=True, deadline=deadline, backend=BACKEND)
    if out.unique is None:
        raise late
    return None if out.unique else out.other if key(out.solution) == planted else out.solution
