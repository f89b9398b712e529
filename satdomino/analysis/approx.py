"""Approximate projected counts with a guarantee: the ApproxMC algorithm (Chakraborty, Meel and
Vardi, IJCAI 2016), run here on CryptoMiniSat (``pycryptosat``), whose native XOR constraints
and Gaussian elimination make the hashes cheap.

Random XOR constraints over the projection split the solutions into cells of about equal size;
with m of them, a cell holds about count / 2^m. Each round finds the fewest hashes m whose cell
holds fewer than ``threshold`` solutions (counted by enumeration), and estimates cell x 2^m;
the answer is the median of the rounds. With threshold and rounds as in the paper, the estimate
lies within a factor (1 + epsilon) of the count with probability at least 1 - delta.

Not pyapproxmc: its 4.3 and 4.4 wheels lose a factor of two for every variable that their
preprocessing (Arjun) finds free, so that ``x1 = x2`` counts 1, and Dominosa boards come out
16-1,000 times too small. ``tests/test_count.py`` keeps this module to the bound.
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from collections.abc import Sequence

from ..backends.counters import CmsSession
from ..backends.session import blocking_clause
from ..errors import SatDominoError


def threshold(epsilon: float) -> int:
    """Cell size below which a cell's solutions are counted (the paper's 1 + 9.84 (1 + e /
    (1 + e)) (1 + 1 / e)^2)."""
    return int(1 + 9.84 * (1 + epsilon / (1 + epsilon)) * (1 + 1 / epsilon) ** 2)


def rounds(delta: float) -> int:
    """How many estimates the median is taken over: ceil(17 log2(3 / delta))."""
    return math.ceil(17 * math.log2(3 / delta))


def approx_count(clauses: Sequence[Sequence[int]], projection: Sequence[int], num_vars: int,
                 epsilon: float = 0.8, delta: float = 0.2, seed: int = 1) -> int:
    """An estimate of the number of distinct assignments to ``projection`` among the models of
    ``clauses``: within a factor (1 + epsilon) with probability at least 1 - delta."""
    solver = CmsSession(clauses, num_vars)
    # a projection variable no clause names must still be in the solver's models (it is free:
    # it doubles the count)
    solver.add([[x, -x] for x in projection])
    counter = _Cells(solver, list(projection), num_vars, threshold(epsilon))
    exact = counter.cell([])
    if exact < counter.threshold:  # few: counted outright
        return exact
    rng = random.Random(seed)
    estimates = []
    m_hint = 1
    for _ in range(rounds(delta)):
        m, cell = counter.fewest_hashes(rng, m_hint)
        if m is None:  # every hash used and still a full cell: cannot happen with n hashes
            raise SatDominoError("approximate count: no cell size below the threshold")
        m_hint = m
        estimates.append(cell * 2 ** m)
    return int(statistics.median_low(estimates))


class _Cells:
    """Counting the solutions in one cell (the models satisfying the first m hashes) up to the
    threshold, on one incremental solver: hashes and blocking clauses carry an activation
    variable, so each can be switched off for good."""

    def __init__(self, solver: CmsSession, projection: list[int], num_vars: int,
                 threshold: int) -> None:
        self.solver, self.projection, self.threshold = solver, projection, threshold
        self.new_vars = itertools.count(num_vars + 1)

    def cell(self, active: list[int]) -> int:
        """Solutions (distinct on the projection) with the hashes ``active`` switched on, up
        to the threshold."""
        b = next(self.new_vars)  # this call's blocking clauses hold while b is assumed
        hashed = [-a for a in active]
        found = 0
        while found < self.threshold:
            # b only once a clause has it: CryptoMiniSat refuses an assumption on a variable
            # no clause uses
            answer = self.solver.solve(hashed + [b] if found else hashed)
            if answer.status == "unsat":
                break
            found += 1
            self.solver.add([[-b, *blocking_clause(self.projection, answer.true_vars)]])
        if found:
            self.solver.add([[-b]])
        return found

    def fewest_hashes(self, rng: random.Random, hint: int) -> tuple[int | None, int]:
        """(m, cell size) for the least m whose cell is below the threshold (cells shrink as
        hashes are added), searched by doubling from ``hint`` and then halving."""
        n = len(self.projection)
        hashes: list[int] = []  # their activation variables, made as they are needed
        sizes: dict[int, int] = {}

        def size(m: int) -> int:
            while len(hashes) < m:
                # a random XOR over the projection (each variable with probability 1/2, a
                # random right side) that holds when its activation variable is false
                a = next(self.new_vars)
                chosen = [x for x in self.projection if rng.random() < 0.5]
                self.solver.add_xor([*chosen, a], rng.random() < 0.5)
                hashes.append(a)
            if m not in sizes:
                sizes[m] = self.cell(hashes[:m])
            return sizes[m]

        lo, hi = 0, max(1, min(hint, n))  # lo: known full (m = 0 is, or we would be exact)
        while size(hi) >= self.threshold:
            if hi == n:
                return None, 0
            lo, hi = hi, min(n, hi * 2)
        while hi - lo > 1:  # size(lo) full, size(hi) below
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if size(mid) >= self.threshold else (lo, mid)
        return hi, sizes[hi]
