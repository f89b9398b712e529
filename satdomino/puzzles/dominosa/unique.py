"""Dominosa boards with exactly one solution: plant, sharpen, repair, prove.

1. Plant: a random tiling gets a random domino on each tile (the planted solution).
2. Sharpen: a short local search over the numbering (turn a planted domino end for end, or swap
   two planted dominoes; the planted layout stays a solution) that maximises the dominoes shown
   by exactly one pair of adjacent cells. Those are placed outright by any solver, and deduction
   cascades from them; without this step the proofs on large boards get hard.
3. Repair: an incremental SAT solver looks for a solution other than the planted one. Where it
   finds one, the cells where the two differ form alternating cycles; on every cycle at once we
   turn one planted domino end for end so that the alternative would use some domino twice
   (or, if no domino on the cycle allows that, swap it with a planted domino elsewhere). Repeat
   until there is no other solution; a tiling that will not settle is replaced by a new one.
4. Prove: the framework's own placement model, with the planted layout forbidden, is
   unsatisfiable (independent of the repair loop's clauses), and ``verify`` accepts the planted
   layout.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from itertools import combinations

from ...backends import Session, get_backend
from ...backends.session import blocking_clause
from ...clock import NEVER, Deadline
from ...encode import CNF, lower
from ...errors import OutOfTimeError, SatDominoError, VerificationError
from ...process.run import run_in_child
from . import board as B
from .board import Dominosa, DominosaSolution

SOLVER = "cadical195"
SHARPEN_STEPS_PER_TILE = 2  # measured: 0.5 already sharpens most boards, 2 leaves a margin


@dataclass(frozen=True)
class Stats:
    """How a board was made."""

    tilings: int  # tilings tried (more than 1 only when one would not settle)
    rounds: int  # SAT calls of the repair loop, over all tilings
    seconds: float  # everything, including the check
    check_seconds: float  # the framework's independent uniqueness proof


class _Board:
    """A planted tiling and its numbering on flat cell indices (r * cols + c). The numbering
    changes; the tiling never does, so it stays a solution."""

    def __init__(self, n: int, rng: random.Random) -> None:
        self.n, self.rows, self.cols = n, n + 1, n + 2
        rows, cols = self.rows, self.cols
        self.edges = [(r * cols + c, r2 * cols + c2)
                      for (r, c), (r2, c2) in B.grid_edges(rows, cols)]
        self.incident: list[list[int]] = [[] for _ in range(rows * cols)]
        for k, (a, b) in enumerate(self.edges):
            self.incident[a].append(k)
            self.incident[b].append(k)
        self.partner = [0] * (rows * cols)
        self.grid = [0] * (rows * cols)
        self.tiles: list[tuple[int, int]] = []
        dset = B.dominoes(n)
        rng.shuffle(dset)
        for ((r1, c1), (r2, c2)), (x, y) in zip(B.random_tiling(rows, cols, rng), dset,
                                                strict=True):
            a, b = r1 * cols + c1, r2 * cols + c2
            self.partner[a], self.partner[b] = b, a
            self.tiles.append((a, b))
            self.grid[a], self.grid[b] = (x, y) if rng.random() < 0.5 else (y, x)

    def domino(self, k: int) -> int:
        """The domino edge k shows, as one int."""
        a, b = self.grid[self.edges[k][0]], self.grid[self.edges[k][1]]
        return a * (self.n + 1) + b if a <= b else b * (self.n + 1) + a

    def around(self, cells) -> set[int]:
        """The edges whose domino changes when these cells change."""
        return {k for c in cells for k in self.incident[c]}

    def result(self) -> tuple[tuple[tuple[int, ...], ...], tuple]:
        cols = self.cols
        grid = tuple(tuple(self.grid[r * cols:(r + 1) * cols]) for r in range(self.rows))
        pairs = sorted(((a // cols, a % cols), (b // cols, b % cols)) for a, b in self.tiles)
        return grid, tuple(pairs)


def _move(board: _Board, rng: random.Random) -> dict[int, int] | None:
    """A random change of the numbering that keeps the planted layout a solution: turn one
    planted domino end for end, or swap two planted dominoes (each either way round)."""
    grid = board.grid
    a, b = rng.choice(board.tiles)
    if rng.random() < 0.5:
        return None if grid[a] == grid[b] else {a: grid[b], b: grid[a]}
    c, d = rng.choice(board.tiles)
    if c == a:
        return None
    x, y = (grid[c], grid[d]) if rng.random() < 0.5 else (grid[d], grid[c])
    return {a: x, b: y, c: grid[a], d: grid[b]}


def _sharpen(board: _Board, rng: random.Random, steps: int) -> None:
    """Hill-climb (sideways moves allowed) on the number of dominoes shown exactly once."""
    shown = [0] * ((board.n + 1) ** 2)
    for k in range(len(board.edges)):
        shown[board.domino(k)] += 1
    grid = board.grid
    for _ in range(steps):
        if (change := _move(board, rng)) is None:
            continue
        ks = board.around(change)
        old = {c: grid[c] for c in change}
        delta: Counter[int] = Counter()  # how the dominoes shown change
        delta.subtract(board.domino(k) for k in ks)
        for c, v in change.items():
            grid[c] = v
        delta.update(board.domino(k) for k in ks)
        if sum(shown[d] + k == 1 for d, k in delta.items()) < sum(shown[d] == 1 for d in delta):
            for c, v in old.items():  # worse: undo
                grid[c] = v
        else:
            for d, k in delta.items():
                shown[d] += k


class _Repairer:
    """An incremental solver for "a solution other than the planted one" under the board's
    current numbering, and the repairs that kill such solutions."""

    def __init__(self, board: _Board, rng: random.Random) -> None:
        self.board, self.rng = board, rng
        # placement variable k + 1 for edge k; every cell covered exactly once
        clauses = []
        for inc in board.incident:
            lits = [k + 1 for k in inc]
            clauses.append(lits)
            clauses += [[-x, -y] for x, y in combinations(lits, 2)]
        # not the planted layout (fixed, as the tiling is)
        planted = {*board.tiles}
        clauses.append([-(k + 1) for k, e in enumerate(board.edges) if e in planted])
        self.top = len(board.edges)  # the highest variable so far
        self.solver: Session = get_backend(SOLVER).session(CNF(self.top, self.top, clauses))
        # "each domino exactly once" depends on the numbering: each domino's clauses hang on
        # an activation literal, retired for good and replaced when a repair moves the domino
        self.showing: dict[int, set[int]] = {}
        for k in range(len(board.edges)):
            self.showing.setdefault(board.domino(k), set()).add(k)
        self.active: dict[int, int] = {}
        for d in sorted(self.showing):
            self._post(d)

    def _post(self, d: int) -> None:
        retired = [[-self.active[d]]] if d in self.active else []
        self.top += 1
        act = self.active[d] = self.top
        lits = [k + 1 for k in sorted(self.showing.get(d, ()))]
        self.solver.add([*retired, [-act, *lits],
                         *([-act, -x, -y] for x, y in combinations(lits, 2))])

    def other(self) -> list[int] | None:
        """The edges of a solution other than the planted one, or None if there is none."""
        answer = self.solver.solve([self.active[d] for d in sorted(self.active)])
        if answer.status != "sat":
            return None
        return [k for k in range(len(self.board.edges)) if k + 1 in answer.true_vars]

    def cycles(self, other: list[int]) -> list[list[int]]:
        """Where ``other`` differs from the planted layout: alternating cycles of cells
        [c0, T(c0), S(T(c0)), T(...), ...], so (cyc[2i], cyc[2i + 1]) are planted tiles and
        (cyc[2i + 1], cyc[2i + 2]) dominoes of the other solution."""
        partner = self.board.partner
        spartner: dict[int, int] = {}
        for k in other:
            a, b = self.board.edges[k]
            if partner[a] != b:
                spartner[a], spartner[b] = b, a
        seen: set[int] = set()
        out = []
        for start in sorted(spartner):
            if start in seen:
                continue
            c, cyc = start, [start, partner[start]]
            while (c := spartner[partner[c]]) != start:
                cyc += [c, partner[c]]
            seen.update(cyc)
            out.append(cyc)
        return out

    def repair(self, cycles: list[list[int]]) -> None:
        """Change the numbering so that no cycle can be swapped in as it stands."""
        grid, rng = self.board.grid, self.rng
        change: dict[int, int] = {}
        for cyc in cycles:
            m = len(cyc)
            # turning planted tile p-q (numbers a, b) end for end turns the other solution's
            # dominoes u-p, q-w from {xa, by} into {xb, ay}: a different multiset unless
            # a == b or x == y, so that solution, which used every domino once, no longer can
            flips = [(cyc[i], cyc[i + 1]) for i in range(0, m, 2)
                     if grid[cyc[i]] != grid[cyc[i + 1]]
                     and grid[cyc[i - 1]] != grid[cyc[(i + 2) % m]]
                     and not change.keys() & {cyc[i], cyc[i + 1]}]
            if flips:
                p, q = rng.choice(flips)
                change[p], change[q] = grid[q], grid[p]
                continue
            # only doubles, or equal numbers facing each other: swap one of the cycle's
            # planted dominoes with one elsewhere
            i = rng.randrange(0, m, 2)
            p, q = cyc[i], cyc[i + 1]
            for _ in range(20):
                a, b = rng.choice(self.board.tiles)
                if not change.keys() & {a, b, p, q}:
                    x, y = (grid[a], grid[b]) if rng.random() < 0.5 else (grid[b], grid[a])
                    change[a], change[b], change[p], change[q] = grid[p], grid[q], x, y
                    break
        self.apply(change)

    def apply(self, change: dict[int, int]) -> None:
        ks = self.board.around(change)
        before = {k: self.board.domino(k) for k in ks}
        for c, v in change.items():
            self.board.grid[c] = v
        after = {k: self.board.domino(k) for k in ks}
        for k in ks:
            self.showing[before[k]].discard(k)
            self.showing.setdefault(after[k], set()).add(k)
        for d in sorted({*before.values(), *after.values()}):
            self._post(d)


def _search(n: int, seed: int, sharpen: float
            ) -> tuple[tuple[tuple[int, ...], ...], tuple, int, int]:
    """(grid, planted pairs, tilings tried, rounds) of a board the repair loop found unique."""
    rng = random.Random(f"dominosa-unique:{n}:{seed}")  # a str seed hashes the same every run
    rounds = tilings = 0
    while True:
        tilings += 1
        board = _Board(n, rng)
        _sharpen(board, rng, round(sharpen * len(board.tiles)))
        rep = _Repairer(board, rng)
        try:
            # repair rounds before a tiling is given up: some tilings admit no unique
            # numbering (for N=1, three vertical dominoes) and small boards can go round in
            # circles; measured up to N=100, no board from N=9 up needed more than 30 rounds
            for _ in range(40 + 2 * n):
                rounds += 1
                other = rep.other()
                if other is None:
                    return (*board.result(), tilings, rounds)
                rep.repair(rep.cycles(other))
        finally:
            rep.solver.close()


def _late(n: int, seed: int) -> SatDominoError:
    return OutOfTimeError(f"no unique double-{n} Dominosa board (seed {seed}) within the "
                          "time limit")


def generate(n: int, seed: int, deadline: Deadline = NEVER, *,
             sharpen: float = SHARPEN_STEPS_PER_TILE
             ) -> tuple[Dominosa, DominosaSolution, Stats]:
    """``unique_board`` with statistics on how the board was made; ``sharpen`` is the
    local-search moves per tile (0 turns the step off, for comparison)."""
    if n < 0:
        raise SatDominoError("N must be at least 0")
    t0 = time.monotonic()
    if deadline.passed():
        raise _late(n, seed)
    if deadline.at is None:
        grid, pairs, tilings, rounds = _search(n, seed, sharpen)
    else:
        # python-sat cannot interrupt CaDiCaL: under a deadline the search runs in a forked
        # child that is killed when the deadline passes
        done, found = run_in_child("unique Dominosa search", _search, (n, seed, sharpen),
                                   deadline)
        if not done:
            raise _late(n, seed)
        grid, pairs, tilings, rounds = found
    board, sol = Dominosa(grid), DominosaSolution(pairs)
    if problems := B.verify(board, sol):
        raise VerificationError(f"planted Dominosa layout broken: {'; '.join(problems[:3])}")
    t1 = time.monotonic()
    # the repair loop's verdict, checked on the framework's own placement model
    proved = only_solution(board, sol, deadline)
    if proved is None:
        raise _late(n, seed)
    if not proved:
        raise VerificationError(f"double-{n} board (seed {seed}) has a second solution")
    t2 = time.monotonic()
    return board, sol, Stats(tilings, rounds, t2 - t0, t2 - t1)


def only_solution(board: Dominosa, sol: DominosaSolution, deadline: Deadline) -> bool | None:
    """Is ``sol`` the board's only solution, by the placement model with ``sol`` forbidden
    (None: not decided by the deadline)?"""
    m = B.build_placement(board)
    planted = frozenset(m.var(B.place_key(board, e)) for e in sol.pairs)
    with get_backend(SOLVER).session(lower(m)) as s:
        s.add([blocking_clause(m.projection, planted)])
        answer = s.solve(deadline=deadline)
    return None if answer.status == "unknown" else answer.status == "unsat"


def unique_board(n: int, seed: int, deadline: Deadline = NEVER
                 ) -> tuple[Dominosa, DominosaSolution]:
    """A double-``n`` Dominosa board with exactly one solution, and that solution; the same
    board for the same (n, seed). Past the deadline, OutOfTimeError."""
    return generate(n, seed, deadline)[:2]
