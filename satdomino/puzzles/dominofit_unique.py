"""Domino Fit boards with exactly one solution, by repair: plant a board, and while the solver
finds another solution, turn one planted piece that the other does not have black."""

from __future__ import annotations

import dataclasses
import random
import time

from ..errors import OutOfTimeError
from ..solve import solve
from . import family
from .dominofit import DominoFit, DominoFitSolution, cells_of, dots_of, planted


def unique_board(width: int, height: int, seed: int, deadline: float | None = None,
                 progress=None, rules: dict | None = None
                 ) -> tuple[DominoFit, DominoFitSolution, int]:
    """(a board with exactly one solution, its planted solution, repairs made). Planted, then
    repaired: while the solver finds another solution, one planted piece that the other
    solution does not have turns black (its dots leave the sums), which the other solution
    breaks and the planted one, less that piece, keeps. ``rules``: readings (``cover``)."""
    rng = random.Random(f"dominofit-unique:{width}:{height}:{seed}")
    p, sol = planted(width, height, seed)
    p = dataclasses.replace(p, **(rules or {}))
    pieces = set(sol.pieces)
    repairs = 0
    while True:
        if progress:
            progress(f"repair {repairs}, {len(p.blacks)} black squares")
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise OutOfTimeError(f"no unique {width}x{height} Domino Fit board within the time "
                                 "limit")
        # one solver, not auto's race: the same seed gives the same board
        out = solve(p, family("dominofit"), unique=True, timeout=left, backend="cadical195")
        if out.unique is None:
            raise OutOfTimeError(f"no unique {width}x{height} Domino Fit board within the "
                                 "time limit")
        if out.unique:
            return p, DominoFitSolution(tuple(sorted(pieces))), repairs
        other = out.other if set(out.solution.pieces) == pieces else out.solution
        kind, at = rng.choice(sorted(pieces - set(other.pieces)))
        pieces.discard((kind, at))
        (r, c), n = dots_of(kind, at)
        top, side = list(p.top), list(p.side)
        top[c] -= n
        side[r] -= n
        p = DominoFit(width, height, p.blacks | set(cells_of(kind, at)), tuple(top),
                      tuple(side), p.cover)
        repairs += 1
