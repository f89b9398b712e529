"""Domino Fit boards with exactly one solution, by repair: plant a board, and while the solver
finds another solution, turn one planted piece that the other does not have black."""

from __future__ import annotations

import dataclasses
import random

from .dominofit import DominoFit, DominoFitSolution, cells_of, dots_of, planted
from .repair import other_solution


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
        other = other_solution(p, "dominofit", pieces, lambda sol: set(sol.pieces), deadline,
                               f"{width}x{height} Domino Fit board")
        if other is None:
            return p, DominoFitSolution(tuple(sorted(pieces))), repairs
        kind, at = rng.choice(sorted(pieces - set(other.pieces)))
        pieces.discard((kind, at))
        (r, c), n = dots_of(kind, at)
        top, side = list(p.top), list(p.side)
        top[c] -= n
        side[r] -= n
        p = DominoFit(width, height, p.blacks | set(cells_of(kind, at)), tuple(top),
                      tuple(side), p.cover)
        repairs += 1
