"""A Model as a 0-1 linear program in arrays: what HiGHS (``highs``) and our local search
(``sls``) read.

The rows are the LP writer's (``export.linear``): an exactly-one is one equality row, a clause a
``>= 1`` row, a negated literal (1 - x); integer variables get one column per value, with an
exactly-one row each (those rows come first). Column j (0-based) < num_vars is model variable
j + 1.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from itertools import chain
from typing import Any, NamedTuple

from ..export.linear import columns, constraint_rows
from ..model import AtMostOne, Clause, Define, ExactlyOne, Model

# the clause-like kinds: their row is sum(lits) op bound, with every coefficient 1 when
# every literal is positive (then no constant moves to the right side)
_PLAIN = {Clause: (1, math.inf), AtMostOne: (-math.inf, 1), ExactlyOne: (1, 1)}


class Rows(NamedTuple):
    """Row-wise arrays (numpy): row i's terms are ``index[starts[i]:starts[i + 1]]`` (1-based
    columns) with coefficients ``value[...]``, and ``lower[i] <= activity <= upper[i]`` (floats,
    infinite where open)."""

    starts: Any
    index: Any
    value: Any
    lower: Any
    upper: Any
    num_cols: int
    first_row: Any  # each constraint's first row, in model.constraints order


Sums = dict[int, tuple[int, ...]]  # variable -> the literals whose sum it is


def exclusive_sums(model: Model, keep: Collection[int] = ()) -> Sums:
    """The variables defined as the OR of literals of which at most one holds (``Define``'s
    ``exclusive``), but those in ``keep``: each is the sum of its literals, which
    ``program_rows`` can put in its place (a local search then moves no definitions)."""
    return {c.var: c.lits for c in model.constraints
            if isinstance(c, Define) and c.exclusive and c.kind == "or" and c.var > 0
            and c.var not in keep and min(c.lits, default=0) > 0}


def with_sums(true: frozenset[int], sums: Sums) -> frozenset[int]:
    """A solution of the program with ``sums`` substituted, each substituted variable set by
    its literals (the program has no row on it: a start may have left it either way)."""
    # difference(), not ``-``: frozenset - dict_keys is a set (dict_keys answers it)
    return true.difference(sums) | {y for y, lits in sums.items() if not true.isdisjoint(lits)}


def program_rows(model: Model, sums: Sums | None = None) -> Rows:
    """The rows of ``model``; with ``sums`` (``exclusive_sums``), each of those variables
    replaced by the sum of its literals and its definition left out."""
    import numpy as np

    cols, values, extra = columns(model)
    plain = None if extra or sums else _plain_rows(model.constraints)
    if plain is not None:
        first = np.arange(len(model.constraints), dtype=np.int64)
        return Rows(*plain, num_cols=len(cols), first_row=first)
    starts, index, value, lower, upper, first = _rows_one_by_one(model, values, extra, sums or {})
    return Rows(np.asarray(starts, dtype=np.int64), np.asarray(index, dtype=np.int32),
                np.asarray(value, dtype=float), np.asarray(lower, dtype=float),
                np.asarray(upper, dtype=float), len(cols), np.asarray(first, dtype=np.int64))


def _plain_rows(constraints: list) -> tuple[Any, Any, Any, Any, Any] | None:
    """(starts, index, value, lower, upper) as arrays when every constraint is clause-like
    with positive literals (a Dominosa or Pips model), else None: quicker than row by row,
    and no lists to convert after."""
    import numpy as np

    bounds = [_PLAIN.get(type(c)) for c in constraints]
    if None in bounds:
        return None
    lits = [c.lits for c in constraints]
    if not all(lits) or min(map(min, lits), default=1) <= 0:
        return None
    lengths = np.fromiter(map(len, lits), dtype=np.int64, count=len(lits))
    starts = np.concatenate(([0], np.cumsum(lengths)))
    index = np.fromiter(chain.from_iterable(lits), dtype=np.int32, count=int(starts[-1]))
    lower, upper = np.array(bounds, dtype=float).reshape(-1, 2).T
    return starts, index, np.ones(len(index)), lower, upper


def _rows_one_by_one(model: Model, values: dict, extra: list, sums: Sums) -> tuple:
    """(starts, index, value, lower, upper, first row of each constraint) as lists, a row at
    a time (integer variables, negative literals, cardinality and pseudo-Boolean
    constraints, ``sums`` substituted)."""
    starts: list[int] = [0]
    index: list[int] = []
    value: list[int] = []
    lower: list[float] = []
    upper: list[float] = []
    first: list[int] = []

    def add(terms: list[tuple[int, int]], op: str, bound: int) -> None:
        if sums and any(j + 1 in sums for _, j in terms):
            merged: dict[int, int] = {}
            for w, j in terms:
                for x in sums.get(j + 1, (j + 1,)):
                    merged[x - 1] = merged.get(x - 1, 0) + w
            terms = [(w, j) for j, w in merged.items() if w]
        index.extend(j + 1 for _, j in terms)  # 1-based, as a literal's variable
        value.extend(w for w, _ in terms)
        starts.append(len(index))
        lower.append(bound if op in (">=", "=") else -math.inf)
        upper.append(bound if op in ("<=", "=") else math.inf)

    for row in extra:
        add(*row)
    for c in model.constraints:
        first.append(len(starts) - 1)
        plain = _PLAIN.get(type(c))
        lits = getattr(c, "lits", ())
        if isinstance(c, Define) and c.var in sums:
            continue  # the variable's sum stands in its place
        if plain is not None and min(lits, default=0) > 0 and not any(x in sums for x in lits):
            index.extend(lits)
            value.extend([1] * len(lits))
            starts.append(len(index))
            lower.append(plain[0])
            upper.append(plain[1])
        else:
            for row in constraint_rows(c, values):
                add(*row)
    return starts, index, value, lower, upper, first
