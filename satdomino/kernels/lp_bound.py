"""A lower bound on a 0-1 program's objective, proved in exact arithmetic from the duals of
its linear relaxation: HiGHS finds the duals, and a wrong or inexact answer from it can only
weaken the bound, never make it false.

For any multipliers y of the rows, every x in [0, 1]^n with lower <= A x <= upper has
cost . x = y . A x + (cost - y A) . x >= sum of y_i times lower_i (y_i > 0) or upper_i
(y_i < 0) + the sum of the negative parts of cost - y A. The duals are rounded to multiples
of 1 / ``SCALE`` and summed in integers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from ..backends.highs_backend import box_lp_duals, highs_installed, load_highs
from ..clock import NEVER, Deadline
from ..errors import BackendError
from ..process.run import run_in_child

SCALE = 1 << 24
# HiGHS's methods, tried in turn until one's duals prove enough: on these degenerate 0-1
# relaxations each fails (stalls, or ends without usable duals) where another succeeds
ATTEMPTS: tuple[dict[str, str | float], ...] = (
    {"solver": "ipm", "run_crossover": "on"}, {"solver": "simplex"},
    {"solver": "simplex", "simplex_strategy": 4}, {"presolve": "off"})
SECONDS = 2.0  # each attempt's limit

Columns = Sequence[Sequence[tuple[int, int]]]


def proves_above(cost: Sequence[int], columns: Columns, lower: Sequence[int | None],
                 upper: Sequence[int | None], floor: int,
                 deadline: Deadline = NEVER) -> bool:
    """Is ``cost`` . x above ``floor`` over the whole relaxation (module docstring;
    ``columns``: each column's (row, coefficient) pairs, None for a missing row bound)?
    False when HiGHS is not installed, proves nothing, or is not done by the deadline (it
    runs in a forked child)."""
    if not highs_installed() or deadline.passed():
        return False
    load_highs()
    try:
        done, proved = run_in_child("linear programming", _attempts,
                                    (cost, columns, lower, upper, floor), deadline)
    except BackendError:  # the child died (out of memory, say): nothing is proved
        return False
    return bool(done and proved)


def _attempts(cost: Sequence[int], columns: Columns, lower: Sequence[int | None],
              upper: Sequence[int | None], floor: int) -> bool:
    low = [-math.inf if b is None else b for b in lower]
    high = [math.inf if b is None else b for b in upper]
    for options in ATTEMPTS:
        duals = box_lp_duals(cost, columns, low, high, {**options, "time_limit": SECONDS})
        if duals is None or not all(math.isfinite(v * SCALE) for v in duals):
            continue
        # HiGHS's sign convention aside, each sign gives a valid bound
        if any(bound(cost, columns, lower, upper, [sign * round(v * SCALE) for v in duals])
               > floor for sign in (1, -1)):
            return True
    return False


def bound(cost: Sequence[int], columns: Columns, lower: Sequence[int | None],
          upper: Sequence[int | None], y: list[int]) -> Fraction:
    """The bound the multipliers ``y`` (scaled by SCALE) prove; a multiplier whose side of
    its row has no bound is taken as 0."""
    y = list(y)
    rows = 0
    for i, (lo, hi) in enumerate(zip(lower, upper, strict=True)):
        side = lo if y[i] > 0 else hi
        if side is None:
            y[i] = 0
        else:
            rows += y[i] * side
    reduced = (SCALE * c - sum(a * y[i] for i, a in column)
               for c, column in zip(cost, columns, strict=True))
    return Fraction(rows + sum(d for d in reduced if d < 0), SCALE)
