"""Counting exact covers by propagation and independent parts: Dominosa's exact counter.

An exact cover problem has items and options (each a set of items); a cover picks options so
that every item lies in exactly one. Counting goes as a model counter would, on the problem's
own terms:

- first every option that lies in no cover is dropped. Linear programming finds most of them
  at once (``lp_never_used``: on planted Dominosa boards, every one); then a SAT call
  (MiniSat) settles each option that no cover found so far has used, each cover found
  vouching for all of its options;
- an item with one live option forces it; an item with none ends the branch (count 0);
- what is left falls apart into parts that share no item (connected through live options):
  their counts multiply;
- a part is split on its item with fewest live options, and each part's count is remembered
  by its set of items (a part reached again by another branch costs nothing).

What unit propagation leaves of a planted Dominosa board is one connected tangle, held together
by placements that lie in no solution; without them it falls apart into small parts of 6-12
items, which is why its counts are products like 2^a 3^b (N = 40: 3,361 placements, 905 in some
solution, 21 parts). Options are undone from a trail (as in dancing links), so a branch costs
what it changes.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TypeVar

from ..backends import get_backend
from ..backends.highs_backend import cover_lp, highs_installed, load_highs
from ..clock import NEVER, Deadline, TimeUp, armed_left
from ..encode import CNF, Encodings, lower
from ..errors import BackendError, OutOfTimeError
from ..model import Model
from ..process.run import run_in_child

LP_ZERO = 1e-6  # an option below this in an interior point of the relaxation is a candidate
LP_ROUNDS = 6
LP_FROM = 4000  # options: below, starting HiGHS costs more than the SAT calls it saves
LP_SCALE = 1 << 24
# the last problem lp_never_used finished, and its answer: ``solve --count`` builds the same
# board's model again for the count, and its forked methods inherit this
_proved: dict[tuple[int, tuple[tuple[int, ...], ...]], frozenset[int]] = {}


def count_exact_covers(num_items: int, options: Sequence[Sequence[int]],
                       deadline: Deadline = NEVER) -> int:
    """The number of ways to pick options (each a sequence of item numbers below
    ``num_items``) covering every item exactly once; OutOfTimeError past the deadline.
    Options are non-empty and name an item once."""
    if not _well_formed(num_items, options):
        raise ValueError(f"each option must name one or more items below {num_items}, each "
                         "once")
    try:  # a long Python search: the deadline stops it
        with deadline.interrupting():
            return _Counter(num_items, in_some_cover(num_items, options, deadline)).total()
    except TimeUp:
        raise OutOfTimeError("the exact cover count ran out of time") from None


def in_some_cover(num_items: int, options: Sequence[Sequence[int]],
                  deadline: Deadline = NEVER) -> list[Sequence[int]]:
    """The options that lie in at least one exact cover, in their order (none when there is
    no cover); linear programming stops at the deadline, the SAT calls do not."""
    proved = lp_never_used(num_items, options, deadline)
    options = [o for k, o in enumerate(options) if k not in proved]
    m = Model("exact cover")
    m.new_vars(range(len(options)))
    of_item: list[list[int]] = [[] for _ in range(num_items)]
    for k, o in enumerate(options):
        for i in o:
            of_item[i].append(k + 1)
    m.exactly_ones(of_item, labels=lambda i: f"item {i}")
    dead = never_true(lower(m, Encodings(amo="commander")), range(1, len(options) + 1),
                      solver="minisat22")
    if dead is None:
        return []
    gone = set(dead)
    return [o for k, o in enumerate(options) if k + 1 not in gone]


def lp_never_used(num_items: int, options: Sequence[Sequence[int]],
                  deadline: Deadline = NEVER) -> set[int]:
    """Indices of options that lie in no exact cover, each proved by the linear relaxation
    (empty when HiGHS is not installed or proves nothing).

    A point of the relaxation (by HiGHS's first-order method, which mostly ends inside it)
    gives the candidates D: the options at 0 there. Then the sum over D is maximised, and
    its dual values y (one per item) bound that sum for every point of the relaxation: sum(y)
    plus, over every option, what its weight (1 in D, else 0) exceeds the y of its items by.
    Checked in exact arithmetic, a bound below 1 proves that no cover, whose sum over D is a
    whole number, uses any option of D; otherwise the options that came out positive leave D
    and it is tried again. When the relaxation has no point, the duals of its elastic form
    (each item's sum may miss 1 at a cost) bound the sum of no option below 0: there is no
    cover, and every option is returned. HiGHS's answers need not be exact: a wrong one only
    fails the check (``_below_one``)."""
    deadline = deadline.sooner(armed_left())  # this thread's innermost one too, such as
    # the time limit of a model being built
    if (not highs_installed() or len(options) < LP_FROM or deadline.passed()
            or not _well_formed(num_items, options)):
        return set()
    problem = (num_items, tuple(map(tuple, options)))
    if problem in _proved:
        return set(_proved[problem])
    load_highs()
    try:  # HiGHS looks at no interrupt: it runs in a child, killed by the deadline or a signal
        done, dead = run_in_child("linear programming", _lp_never_used, (num_items, options),
                                  deadline)
    except BackendError:  # the child died (out of memory, say): nothing is proved
        return set()
    if not done:
        return set()
    _proved.clear()  # one problem kept: the last
    _proved[problem] = frozenset(dead)
    return dead


def _well_formed(num_items: int, options: Sequence[Sequence[int]]) -> bool:
    """Does each option name one or more items below ``num_items``, each once?"""
    return all(o and len(set(o)) == len(o) and all(0 <= i < num_items for i in o)
               for o in options)


def _lp_never_used(num_items: int, options: Sequence[Sequence[int]]) -> set[int]:
    relaxed = cover_lp(num_items, options, [0.0] * len(options))
    if relaxed is None:  # most likely no point at all: then no option lies in a cover
        elastic = cover_lp(num_items, options, [0.0] * len(options), elastic=True)
        if elastic is None:
            return set()
        empty = any(_below_one(options, set(), [sign * y for y in elastic[1]], 0)
                    for sign in (1, -1))
        return set(range(len(options))) if empty else set()
    dead = {k for k, x in enumerate(relaxed[0]) if x < LP_ZERO}
    for _ in range(LP_ROUNDS):
        if not dead:
            break
        relaxed = cover_lp(num_items, options, [float(k in dead) for k in range(len(options))])
        if relaxed is None:
            break
        values, duals = relaxed
        if _below_one(options, dead, duals):
            return dead
        positive = {k for k in dead if values[k] >= LP_ZERO}
        if not positive:
            break
        dead -= positive
    return set()


def _below_one(options: Sequence[Sequence[int]], weighted: set[int], duals: Sequence[float],
               one: int = 1) -> bool:
    """Is the bound that ``duals`` (any values: each gives a bound) put on the sum of the
    ``weighted`` options over the relaxation below ``one`` (``lp_never_used``)? Below 0 with
    nothing weighted, the relaxation is empty: there is no cover at all. The values are
    rounded to multiples of 1 / LP_SCALE, so that the bound is summed exactly in integers."""
    if not all(math.isfinite(v * LP_SCALE) for v in duals):
        return False
    y = [round(v * LP_SCALE) for v in duals]
    over = (LP_SCALE * (k in weighted) - sum(y[i] for i in o) for k, o in enumerate(options))
    return sum(y) + sum(d for d in over if d > 0) < one * LP_SCALE


def never_true(cnf: CNF, projection: Iterable[int],
               solver: str = "cadical195") -> list[int] | None:
    """The projection's variables that are false in every model (None: no model at all), by
    a SAT call for each one no model found so far has made true. Told as units, they cut a
    counter's search: Ganak counts planted 20x20 Domino Fit boards that it cannot in minutes
    in seconds once the quarter of placements that fit no solution are gone; dropped as
    options, they let a planted Dominosa board fall apart (``in_some_cover``)."""
    never: list[int] = []
    with get_backend(solver).session(cnf) as s:
        answer = s.solve()
        if answer.status != "sat":
            return None
        seen = set(answer.true_vars)
        for x in projection:
            if x in seen:
                continue
            answer = s.solve([x])
            if answer.status == "sat":
                seen.update(answer.true_vars)
            else:
                never.append(x)
                s.add([[-x]])
    return never


T = TypeVar("T", bound=Hashable)


@contextmanager
def recursion_limit(frames: int) -> Iterator[None]:
    """Python's recursion limit raised to at least ``frames`` inside the block (a memoised
    search recurses once per piece it places), and put back after it."""
    depth = sys.getrecursionlimit()
    sys.setrecursionlimit(max(depth, frames))
    try:
        yield
    finally:
        sys.setrecursionlimit(depth)


def connected_parts(nodes: Sequence[T], near: Callable[[T], Iterable[T]]) -> list[list[T]]:
    """``nodes`` in connected parts (``near(u)``: the nodes next to u; others are passed
    over), in the order of their first nodes in ``nodes``, each part from its first node on
    (depth first)."""
    left, parts = set(nodes), []
    for start in nodes:
        if start in left:
            left.discard(start)
            part, todo = [], [start]
            while todo:
                u = todo.pop()
                part.append(u)
                for v in near(u):
                    if v in left:
                        left.discard(v)
                        todo.append(v)
            parts.append(part)
    return parts


class _Counter:
    def __init__(self, num_items: int, options: Sequence[Sequence[int]]) -> None:
        self.options = [tuple(o) for o in options]
        self.of_item: list[list[int]] = [[] for _ in range(num_items)]
        for k, o in enumerate(self.options):
            for i in o:
                self.of_item[i].append(k)
        self.live_count = [len(ks) for ks in self.of_item]
        self.live = [True] * len(self.options)
        self.free = [True] * num_items
        self.trail: list[tuple[int, int]] = []  # (0, option killed) or (1, item covered)
        self.memo: dict[frozenset[int], int] = {}

    # changes, and their undoing -------------------------------------------------------------

    def _kill(self, k: int, pending: list[int]) -> None:
        self.live[k] = False
        self.trail.append((0, k))
        for j in self.options[k]:
            self.live_count[j] -= 1
            if self.free[j] and self.live_count[j] <= 1:
                pending.append(j)

    def _take(self, k: int, pending: list[int]) -> None:
        """Option k joins the cover: its items are covered, every option meeting them dies."""
        for i in self.options[k]:
            self.free[i] = False
            self.trail.append((1, i))
        for i in self.options[k]:
            for k2 in self.of_item[i]:
                if self.live[k2]:
                    self._kill(k2, pending)

    def _propagate(self, pending: list[int]) -> bool:
        """Take every forced option; False on an item left without one."""
        while pending:
            i = pending.pop()
            if not self.free[i]:
                continue
            if self.live_count[i] == 0:
                return False
            if self.live_count[i] == 1:
                self._take(next(k for k in self.of_item[i] if self.live[k]), pending)
        return True

    def _undo(self, mark: int) -> None:
        trail, live_count = self.trail, self.live_count
        while len(trail) > mark:
            what, x = trail.pop()
            if what:
                self.free[x] = True
            else:
                self.live[x] = True
                for j in self.options[x]:
                    live_count[j] += 1

    # counting ---------------------------------------------------------------------------------

    def total(self) -> int:
        if 0 in self.live_count or not self._propagate(
                [i for i, c in enumerate(self.live_count) if c == 1]):
            return 0
        with recursion_limit(20_000):  # a part nests in a part, deeply on big boards
            return self._product([i for i, f in enumerate(self.free) if f])

    def _parts(self, items: list[int]) -> list[list[int]]:
        """The free items among ``items`` grouped into parts joined by live options (which
        hold free items only)."""
        return connected_parts([i for i in items if self.free[i]], lambda i: (
            j for k in self.of_item[i] if self.live[k] for j in self.options[k]))

    def _product(self, items: list[int]) -> int:
        out = 1
        for part in sorted(self._parts(items), key=len):  # small parts first: a 0 ends it
            out *= self._part(part)
            if out == 0:
                return 0
        return out

    def _part(self, items: list[int]) -> int:
        key = frozenset(items)
        if (known := self.memo.get(key)) is not None:
            return known
        split = min(items, key=self.live_count.__getitem__)
        total = 0
        for k in [k for k in self.of_item[split] if self.live[k]]:
            mark = len(self.trail)
            pending: list[int] = []
            self._take(k, pending)
            if self._propagate(pending):
                total += self._product(items)
            self._undo(mark)
        self.memo[key] = total
        return total
