"""``dlx``: exact cover by dancing links (``_dlx.c``, Knuth's Algorithm X) on a
Model made of exactly-one, at-most-one and exactly-k rows over plain variables: Dominosa's
and Doodle Fit's placement models. Each row is an item to cover once (k times; an at-most-one
row may also be covered by an option of its own that places nothing), each variable an
option covering its rows. A complete search that answers sat or unsat, and the fastest we
have on packings whose clauses CDCL finds hard (the pentominoes in a 3x20 box).

A clause (a blocking clause of ``--unique`` or enumeration) is met by finding more covers and
keeping the first that satisfies every clause; an assumption is one more item (x taken)
or one option fewer (x not). The search runs in this process without the GIL, stopped through
a flag it reads every 1,024 nodes: by a deadline, an interrupt, or (in the main thread) a
signal.
"""

from __future__ import annotations

import random
import threading
import time
from array import array
from collections.abc import Sequence
from contextlib import nullcontext
from itertools import accumulate

from ..clock import TimeUp
from ..errors import BackendError
from ..model import AtMostOne, Card, Clause, Define, ExactlyOne, Model
from ..process.run import Run
from ..process.sigterm import interrupted_by_signals
from .base import Backend, Formula, Result, not_built
from .program import exclusive_sums, with_sums

try:
    from . import _dlx
except ImportError:  # built without a C compiler
    _dlx = None  # type: ignore[assignment]


LIMIT = 1 << 24  # rows and options the kernel takes (its node numbers are C ints)
SUMMARY = "exact cover by dancing links (exactly-one / at-most-one / exactly-k rows only: " \
          "Dominosa, Doodle Fit)"


def dlx_built() -> bool:
    return _dlx is not None


class DlxBackend(Backend):
    def __init__(self, seed: int = 0) -> None:
        if _dlx is None:
            raise not_built("dlx")
        self.seed = seed
        super().__init__(name="dlx" if not seed else f"dlx:seed={seed}", takes="model",
                         summary=SUMMARY)

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        model = self.model_of(formula)
        return Run(lambda run: _search(model, assumptions, self.seed, run))


class Cover:
    """A Model as exact cover: ``caps[i]`` how often item i is covered, ``options[k]`` the
    items option k covers, ``var[k]`` its model variable (0: an at-most-one row's option that
    places nothing), and the clauses, which filter the covers found. A variable defined as
    the exclusive OR of plain ones (``Define``, Doodle Fit's cell owners) is no option: a row
    naming it names them instead, and ``derived`` gives its value from theirs."""

    def __init__(self, model: Model, assumptions: Sequence[int] = (), seed: int = 0) -> None:
        rows: list[list[int]] = [[] for _ in range(model.num_vars + 1)]
        self.caps: list[int] = []
        self.clauses: list[tuple[int, ...]] = []
        self.defined = _exclusive_ors(model)
        empty: list[list[int]] = []
        for index, c in enumerate(model.constraints):
            if isinstance(c, Define) and c.var in self.defined:
                continue
            lits = getattr(c, "lits", ())
            if isinstance(c, Clause):
                self.clauses.append(lits)
                continue
            # an exactly-k row may not name an OR: k > 1 of its lits would count it k times
            exact = isinstance(c, ExactlyOne | AtMostOne) or (
                isinstance(c, Card) and c.op == "==" and self.defined.keys().isdisjoint(lits))
            lits = tuple(x for v in lits for x in self.defined.get(v, (v,)))
            if not exact or min(lits, default=1) < 1 or len(set(lits)) < len(lits):
                raise BackendError(f"dlx takes exactly-one and at-most-one rows over plain "
                                   f"variables or their exclusive ORs, exactly-k rows over plain "
                                   f"variables, and clauses; not '{model.label(index)}'")
            for v in lits:
                rows[v].append(len(self.caps))
            if isinstance(c, AtMostOne):
                empty.append([len(self.caps)])
            self.caps.append(max(c.bound, 0) if isinstance(c, Card) else 1)
            if isinstance(c, Card) and c.bound < 0:  # needed fewer than 0 times: never
                self.clauses.append(())
        if any(not 0 < abs(v) <= model.num_vars for v in assumptions):
            raise BackendError("dlx: an assumption names no variable of the model")
        if any(abs(v) in self.defined for v in assumptions):
            raise BackendError("dlx: an assumption names a defined variable, not an option")
        excluded = {-v for v in assumptions if v < 0}
        for v in assumptions:
            if v > 0:
                rows[v].append(len(self.caps))
                self.caps.append(1)
        options = [v for v in range(1, model.num_vars + 1) if v not in self.defined]
        loose = [v for v in options if not rows[v] and v not in excluded]
        if loose:
            raise BackendError(f"dlx: variable {loose[0]} is in no row (a free choice is no "
                               "exact cover)")
        chosen = [v for v in options if v not in excluded]
        self.options = [sorted(rows[v]) for v in chosen] + empty
        self.var = chosen + [0] * len(empty)
        if seed:  # another order of the options: each item tries its options in that order
            order = list(range(len(self.options)))
            random.Random(seed).shuffle(order)
            self.options = [self.options[k] for k in order]
            self.var = [self.var[k] for k in order]

    def derived(self, options: Sequence[int]) -> frozenset[int]:
        """The true variables of the cover that takes ``options``: theirs, and each defined
        variable one of whose lits they hold."""
        return with_sums(frozenset(self.var[k] for k in options) - {0}, self.defined)

    def meets_clauses(self, true: frozenset[int]) -> bool:
        return all(any((v in true) if v > 0 else (-v not in true) for v in clause)
                   for clause in self.clauses)

    def weights(self) -> array:
        """Each item's weight in the choice of the item to branch on: the items every one of
        its options settles besides it, when they all settle as many (a packing's block: its
        cells), else 1 (a cell that blocks of several sizes can cover). Where every option
        is as large (Dominosa, the pentominoes) the choice is plain fewest options left."""
        sizes: list[set[int]] = [set() for _ in self.caps]
        for option in self.options:
            for item in option:
                sizes[item].add(len(option) - 1)
        return array("i", [max(next(iter(s)), 1) if len(s) == 1 else 1 for s in sizes])

    def arrays(self) -> tuple[array, array, array]:
        nodes = sum(len(o) for o in self.options)
        if max(len(self.caps), len(self.options)) > LIMIT or nodes + len(self.caps) >= 2**31:
            raise BackendError(f"dlx: the cover is too large for it ({len(self.caps):,} rows, "
                               f"{len(self.options):,} options; at most {LIMIT:,} each)")
        return (array("i", self.caps),
                array("i", [0, *accumulate(len(o) for o in self.options)]),
                array("i", [i for o in self.options for i in o]))


def _exclusive_ors(model: Model) -> dict[int, tuple[int, ...]]:
    """The variables defined as an exclusive OR of plain variables, with those: a row over
    such a variable is a row over them (the other rows allow at most one of them)."""
    out = exclusive_sums(model)
    if len(out) < sum(isinstance(c, Define) for c in model.constraints) or any(
            x in out for xs in out.values() for x in xs):
        return {}  # another define, a variable defined twice or through another: not this case
    return out


def _search(model: Model, assumptions: Sequence[int], seed: int, run: Run) -> Result:
    t0 = time.perf_counter()
    try:  # Python loops (seconds at 2,000 Doodle Fit cells): a stop raises into them
        with run.setting_up():
            cover = Cover(model, assumptions, seed)
            caps, starts, items = cover.arrays()
            weights = cover.weights()
    except TimeUp:
        if not run.stopped:  # an enclosing deadline's, not this run's stop: on up
            raise
        return run.stopped_result(time.perf_counter() - t0)
    control = array("i", [0])

    def stop() -> None:
        control[0] = 1

    # searching without the GIL in the main thread: a signal (Ctrl-C, SIGTERM) stops it too
    here = threading.current_thread() is threading.main_thread()
    need = len(cover.clauses) + 1
    if () in cover.clauses:  # an empty clause: no cover meets it
        return Result("unsat", seconds=time.perf_counter() - t0)
    with run.stoppable(stop), interrupted_by_signals(stop) if here else nullcontext():
        while True:
            got = _dlx.dance(len(caps), caps, starts, items, control, -1.0, need, need,
                             weights)
            if got is None:
                return run.stopped_result(time.perf_counter() - t0)
            count, found = got
            for options in found:
                true = cover.derived(options)
                if cover.meets_clauses(true):
                    return Result("sat", true, seconds=time.perf_counter() - t0)
            if count < need:
                return Result("unsat", seconds=time.perf_counter() - t0)
            need *= 2  # the clauses ruled out more covers than there are clauses
