"""``sls``: our local search (``_sls.c``) on the Model as a 0-1 program.

It keeps "choice" rows satisfied: exactly-one rows such as "each domino lies in one place" or
"each block is placed once" (a model names them in ``Model.choices``; other disjoint
exactly-one rows join them, the integer variables' one-value rows first). A step moves a
choice's one to another variable of the row (a domino to another place) or flips a variable in
no choice, to repair a random violated row, with breakout weights on the rows and a short tabu.
A variable defined as the OR of literals of which at most one can hold (a Pips cell's value, from
the placements covering the cell) is replaced by their sum: a step then moves no definitions.
It answers sat, or runs until stopped: it cannot prove a formula unsatisfiable, so it belongs in
a portfolio with a complete solver (``auto`` pairs it with MiniSat).

The search runs in a thread of this process without the GIL, stopped or paused through two
flags it reads every 256 steps; nothing is forked. The C part is built by ``pip install``
(``setup.py``); without a C compiler the install goes on without it and ``sls`` says so.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Callable, Sequence

from ..errors import BackendError
from ..model import Model
from ..process.run import Run
from .base import Backend, Formula, Result, not_built
from .program import Sums, exclusive_sums, program_rows, with_sums

try:
    from . import _sls
except ImportError:  # built without a C compiler
    _sls = None  # type: ignore[assignment]

# bounds beyond any row's activity stand for infinity in the C search's 64-bit integers
_BIG = 2**62


def sls_built() -> bool:
    return _sls is not None


class SlsBackend(Backend):
    def __init__(self, seed: int = 0) -> None:
        if _sls is None:
            raise not_built("sls")
        self.seed = seed
        super().__init__(name="sls" if not seed else f"sls:seed={seed}", takes="model",
                         takes_phases=True,
                         summary="our local search on the 0-1 program (answers sat, or runs "
                                 "until stopped)")

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        model = self.model_of(formula)
        return Run(lambda run: _search(model, assumptions, phases, self.seed, run))


def _search(model: Model, assumptions: Sequence[int], phases: Sequence[int], seed: int,
            run: Run) -> Result:
    t0 = time.perf_counter()
    sums = exclusive_sums(model, keep={abs(lit) for lit in assumptions})
    args = _arrays(model, assumptions, phases, sums)
    control = array("i", [0, 0])  # [stop, pause], read by the search

    def flag(i: int, value: int) -> Callable[[], None]:
        return lambda: control.__setitem__(i, value)

    with run.pausable(flag(1, 1), flag(1, 0)), run.stoppable(flag(0, 1)):
        try:
            values = _sls.solve(*args, seed, -1.0, control)
        except (ValueError, TypeError) as e:  # rows the search cannot take
            raise BackendError(f"sls: {e}") from None
    if values is None:
        return run.stopped_result(time.perf_counter() - t0)
    true = frozenset(j + 1 for j in range(model.num_vars) if values[j])
    return Result("sat", with_sums(true, sums), time.perf_counter() - t0)


def _arrays(model: Model, assumptions: Sequence[int], phases: Sequence[int],
            sums: Sums) -> tuple:
    """The arguments of ``_sls.solve`` but the seed, the time limit and the flags: the rows
    (an assumption is one more row; ``sums`` substituted), the choice candidates in order, and
    the start."""
    import numpy as np

    rows = program_rows(model, sums)
    starts, index = rows.starts, rows.index  # int64 and int32 already
    value = np.asarray(rows.value, dtype=np.int64)
    lower, upper = (np.clip(np.nan_to_num(b, posinf=_BIG, neginf=-_BIG), -_BIG, _BIG)
                    for b in (rows.lower, rows.upper))
    if assumptions:  # x >= 1 or x <= 0
        lits = np.asarray(assumptions, dtype=np.int64)
        index = np.concatenate((index, np.abs(lits).astype(np.int32)))
        value = np.concatenate((value, np.ones(len(lits), dtype=np.int64)))
        starts = np.concatenate((starts, starts[-1] + np.arange(1, len(lits) + 1)))
        lower = np.concatenate((lower, np.where(lits > 0, 1, -_BIG)))
        upper = np.concatenate((upper, np.where(lits > 0, _BIG, 0)))
    if np.abs(value).max(initial=0) >= 2**31 or starts[-1] >= 2**31:
        raise BackendError("sls: the program is too large for its 32-bit arrays")
    num_rows = len(starts) - 1
    named = np.asarray(rows.first_row, dtype=np.int64)[list(model.choices)]
    # integer variables' one-value rows (before the first constraint's), then the rest from
    # the last row back: a model's item rows ("each domino once") usually come last
    one_value = int(rows.first_row[0]) if len(rows.first_row) else num_rows
    candidates = np.concatenate((named, np.arange(one_value), np.arange(num_rows - 1, -1, -1)))
    start = array("i")
    if phases:
        first = np.zeros(rows.num_cols + 1, dtype=np.int32)
        lits = np.asarray(phases, dtype=np.int64)
        lits = lits[np.abs(lits) <= rows.num_cols]
        first[lits[lits > 0]] = 1
        start = array("i", first.tobytes())
    return (rows.num_cols, _ints(starts), _ints(index), _ints(value), lower.astype(np.int64),
            upper.astype(np.int64), _ints(candidates), start)


def _ints(values) -> array:
    """A numpy integer array as ``array('i')`` (C ints: what the search's buffers are)."""
    import numpy as np

    return array("i", np.asarray(values, dtype=np.intc).tobytes())
