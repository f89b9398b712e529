"""Doodle Fit puzzles with exactly one solution, by repair: plant a packing, and while the
solver finds another, pass one square between two blocks so that both change shape."""

from __future__ import annotations

import random

from ..errors import SatDominoError
from .doodlefit import Cell, DoodleFit, DoodleFitSolution, normalise, planted
from .repair import other_solution


def unique_puzzle(cells: int, blocks: int, seed: int, deadline: float | None = None,
                  progress=None, rules: dict | None = None
                  ) -> tuple[DoodleFit, DoodleFitSolution, int]:
    """(a puzzle with exactly one solution, its planted solution, repairs made). Planted,
    then repaired: while the solver finds another packing, one square passes from a block the
    other packing puts elsewhere to a neighbouring block (both stay connected), so both blocks
    change shape and the planted packing still holds. ``rules``: readings (``rotate``,
    ``reflect``)."""
    if blocks > cells:
        raise SatDominoError("a Doodle Fit puzzle needs at least one cell per block")
    rng = random.Random(f"doodlefit-unique:{cells}:{blocks}:{seed}")
    p, sol = planted(cells, blocks, seed)
    p = DoodleFit(p.shape, p.blocks, **(rules or {}))
    parts = [list(part) for part in sol.cells]
    repairs = stuck = 0
    while True:
        if progress:
            progress(f"repair {repairs}")
        mine = {frozenset(x) for x in parts}
        other = other_solution(p, "doodlefit", mine,
                               lambda sol: {frozenset(x) for x in sol.cells}, deadline,
                               f"Doodle Fit puzzle of {cells} cells and {blocks} blocks")
        if other is None:
            return p, DoodleFitSolution(tuple(tuple(sorted(x)) for x in parts)), repairs
        theirs = {frozenset(x) for x in other.cells}
        moved = [i for i, x in enumerate(parts) if frozenset(x) not in theirs]
        owner = {u: i for i, x in enumerate(parts) for u in x}
        moves = [(u, i, owner[v]) for i in moved for u in parts[i] if len(parts[i]) > 1
                 for v in _around(u) if owner.get(v, i) != i
                 and _connected_without(parts[i], u)]
        if not moves or stuck > 20 + 5 * blocks:  # going round in circles: another shape
            seed += 1_000_003
            p, sol = planted(cells, blocks, seed)
            p = DoodleFit(p.shape, p.blocks, **(rules or {}))
            parts, stuck = [list(part) for part in sol.cells], 0
            continue
        u, i, j = rng.choice(moves)
        parts[i].remove(u)
        parts[j].append(u)
        p = DoodleFit(p.shape, tuple(normalise(x) for x in parts), **(rules or {}))
        repairs += 1
        stuck += 1


def _around(u: Cell) -> list[Cell]:
    r, c = u
    return [(r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)]


def _connected_without(part: list[Cell], u: Cell) -> bool:
    rest = set(part) - {u}
    start = next(iter(rest))
    seen, todo = {start}, [start]
    while todo:
        for v in _around(todo.pop()):
            if v in rest and v not in seen:
                seen.add(v)
                todo.append(v)
    return len(seen) == len(rest)
