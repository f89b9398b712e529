"""Doodle Fit (as in Xi Wang's 0-1 program) and polyomino packing: fit every block into the
shape exactly once, covering every shape cell exactly once. Blocks are not turned unless the
puzzle allows rotations (``rotate``) and mirror images (``reflect``), which makes classic packing
(the 12 pentominoes in a 6x10 box) a case of it.

Input, the published text format: the shape drawn with ``#``, then each block drawn with ``*``,
separated by lines ``---`` (leading spaces matter).
"""

from __future__ import annotations

import os
import random
import string
from array import array
from collections.abc import Callable, Collection
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import accumulate
from typing import overload

from ..analysis.repair import other_solution
from ..errors import PuzzleFormatError, SatDominoError
from ..family import Ask, AutoRule, Built, Family, Generator, Param, Parts, Reading, Sample, strict
from ..kernels.cover_count import connected_parts, recursion_limit
from ..model import Model
from ..render import svg
from .common import around, cell_text, grid_sweep, share, single

try:
    from ..kernels import _xcount
except ImportError:  # built without a C compiler: the same sweep in Python
    _xcount = None  # type: ignore[assignment]

Cell = tuple[int, int]
Shape = tuple[Cell, ...]  # sorted, normalised so the smallest row and column are 0
MAX_CELLS = 5000
# the count sweeps the whole shape for this long before it turns to the symmetries' orbits
QUICK_SWEEP = 0.01  # seconds


def normalise(cells) -> Shape:
    """The cells moved so that their smallest row and column are 0, sorted."""
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


@dataclass(frozen=True)
class DoodleFit:
    shape: frozenset[Cell]
    blocks: tuple[Shape, ...]
    rotate: bool = False
    reflect: bool = False

    def orientations(self, i: int) -> list[Shape]:
        """Block i's distinct allowed orientations (just itself unless turning is allowed)."""
        base = [self.blocks[i]]
        if self.reflect:
            base.append(normalise([(r, -c) for r, c in self.blocks[i]]))
        out = set(base)
        if self.rotate:
            for b in base:
                for _ in range(3):
                    b = normalise([(c, -r) for r, c in b])
                    out.add(b)
        return sorted(out)

    def classes(self) -> list[list[int]]:
        """The blocks in groups of interchangeable ones (the same allowed orientations), in
        order of first appearance: swapping two of a group gives the same picture, so it is
        not another solution."""
        groups: dict[frozenset[Shape], list[int]] = {}
        for i in range(len(self.blocks)):
            groups.setdefault(frozenset(self.orientations(i)), []).append(i)
        return list(groups.values())

    def placements(self, i: int) -> list[Shape]:
        """Every set of shape cells block i can cover: each orientation with its first cell on
        each cell of the shape where all its cells fall on the shape (the work follows the
        cells, not the drawing's bounding box, which spaces can make as wide as they like)."""
        r_low = min(r for r, _ in self.shape)
        c_low = min(c for _, c in self.shape)
        turned = self.orientations(i)
        # the shape as the bits of one integer, each row ``pad`` more bits than its widest
        # column, so a block's cell that lands past either side of a row lands on no bit
        pad = 1 + max(c for o in turned for _, c in o)
        stride = max(c for _, c in self.shape) - c_low + 1 + pad
        bits = sum(1 << ((r - r_low) * stride + c - c_low + pad) for r, c in self.shape)
        out = []
        for o in turned:
            r0, c0 = o[0]
            fits = bits  # where o's first cell can go: every other cell on the shape too
            for r, c in o[1:]:
                shift = (r - r0) * stride + c - c0
                fits &= bits >> shift if shift >= 0 else bits << -shift
            while fits:
                low = fits & -fits
                dr, dc = divmod(low.bit_length() - 1, stride)
                dr, dc = dr + r_low - r0, dc + c_low - pad - c0
                out.append(tuple((r + dr, c + dc) for r, c in o))
                fits ^= low
        return sorted(out)


# parsing -----------------------------------------------------------------------------------------

def _cells(section: list[tuple[int, str]], mark: str) -> set[Cell]:
    return {(r, c) for r, (_, line) in enumerate(section) for c, ch in enumerate(line)
            if ch == mark}


def _count(section: list[tuple[int, str]], mark: str, what: str) -> int:
    """The ``mark`` cells of a section (``what``: "the shape", "block 2"), after checking that
    it holds nothing else but spaces (a stray character, or a block drawn with the shape's
    mark, would be dropped)."""
    for number, line in section:
        if line.replace(mark, "").strip(" "):
            if set(line.strip()) == {"-"}:
                raise PuzzleFormatError(f"line {number}: {line.strip()[:20]!r} is not a "
                                        "separator (write '---')")
            column, ch = next((c, ch) for c, ch in enumerate(line, start=1)
                              if ch not in (mark, " "))
            raise PuzzleFormatError(f"line {number}, column {column}: {ch!r} in {what}, "
                                    f"which is drawn with {mark!r} and spaces")
    return sum(line.count(mark) for _, line in section)


def parse_text(text: str) -> DoodleFit:
    """A puzzle from the published text: the shape drawn with ``#``, then each block with ``*``,
    separated by ``---`` lines. Every size is checked before any cell is stored."""
    sections: list[list[tuple[int, str]]] = [[]]  # each line with its number
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() == "---":
            sections.append([])
        else:
            sections[-1].append((number, line.rstrip()))
    size = _count(sections[0], "#", "the shape")
    if not size:
        raise PuzzleFormatError("empty shape: draw it with '#' before the first '---'")
    if size > MAX_CELLS:
        raise PuzzleFormatError(f"the shape has {size} cells; at most {MAX_CELLS}")
    counts = [_count(section, "*", f"block {k}") for k, section in enumerate(sections[1:])]
    for k, n in enumerate(counts):
        if not n:
            raise PuzzleFormatError(f"block {k} is empty: draw it with '*'")
        if n > size:
            raise PuzzleFormatError(f"block {k} has {n} cells, more than the shape's {size}")
    if not counts:
        raise PuzzleFormatError("no blocks: each block follows a '---' line, drawn with '*'")
    if (total := sum(counts)) != size:
        raise PuzzleFormatError(f"the blocks have {total} cells in all, the shape {size}")
    blocks = tuple(normalise(_cells(section, "*")) for section in sections[1:])
    return DoodleFit(frozenset(_cells(sections[0], "#")), blocks)


def parse_parts(text: str) -> Parts:
    """The puzzle in ``text``, or its error."""
    return single(parse_text, text)


def parse(text: str) -> list[tuple[str | None, DoodleFit]]:
    """The puzzle in ``text``; an error raises."""
    return strict(parse_parts(text))


def sniff(text: str) -> bool:
    """Does ``text`` look like Doodle Fit (drawn with ``#`` and ``*``, parts split by ``---``)?"""
    lines = [ln.strip() for ln in text.splitlines()]
    return "---" in lines and set("".join(lines)) <= set("#*- ")


def _draw(cells: Collection[Cell], mark: Callable[[Cell], str]) -> str:
    """Cells drawn as text, ``mark(cell)`` on each, spaces between."""
    rows = 1 + max(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells)
    return "\n".join("".join(mark((r, c)) if (r, c) in cells else " " for c in range(cols))
                     .rstrip() for r in range(rows))


def format_text(p: DoodleFit) -> str:
    """The puzzle in the published text form ``parse_text`` reads."""
    return "\n---\n".join([_draw(p.shape, lambda u: "#"),
                           *(_draw(set(b), lambda u: "*") for b in p.blocks)]) + "\n"


# model -------------------------------------------------------------------------------------------

def _placed_blocks(m: Model, p: DoodleFit) -> list[tuple[list[int], dict[Cell, list[int]]]]:
    """One variable per (group of interchangeable blocks, cells covered), each group placed
    as often as it has blocks, the variables the projection; for each group, the variables
    of its placements on each cell."""
    out = []
    for group in p.classes():
        placements = p.placements(group[0])
        xs = [m.var(("group", group[0], cells)) for cells in placements]
        on: dict[Cell, list[int]] = {}
        for x, cells in zip(xs, placements, strict=True):
            for u in cells:
                on.setdefault(u, []).append(x)
        if len(group) == 1:
            m.exactly_one(xs, f"block {label(group[0])}", choice=True)  # placed once
        else:
            m.card(xs, "==", len(group), f"blocks {', '.join(map(label, group))} (alike)")
        out.append((group, on))
    m.projection = list(range(1, m.num_vars + 1))
    return out


def build_placement(p: DoodleFit) -> Model:
    """One variable per (group of interchangeable blocks, cells covered): identical blocks
    share variables, as Pips's identical dominoes do, so an assignment is one picture. Each
    group placed as often as it has blocks, each cell covered once. A group is named by its
    first block, as the drawings label it."""
    m = Model("placement")
    by_cell: dict[Cell, list[int]] = {u: [] for u in p.shape}
    for _, on in _placed_blocks(m, p):
        for u, xs in on.items():
            by_cell[u].extend(xs)
    for u, xs in by_cell.items():
        m.exactly_one(xs, f"cell {u}")
    return m


def build_cells(p: DoodleFit) -> Model:
    """The placement model's variables and blocks, with each cell's cover said by its owner:
    a variable per (cell, block) that the block's placements on the cell define, exactly one
    owner (or placement of a group of alike blocks) per cell. CDCL learns which block owns a
    cell, where the placement model makes it learn placement by placement."""
    m = Model("cells")
    owners: dict[Cell, list[int]] = {u: [] for u in p.shape}
    for group, on in _placed_blocks(m, p):
        for u, xs in on.items():
            if len(group) > 1:  # alike blocks: their placements, which may not share u
                owners[u].extend(xs)
                continue
            y = m.var(("owner", u, group[0]))
            m.define_or(y, xs, f"cell {u} owned by block {label(group[0])}", exclusive=True)
            owners[u].append(y)
    for u, ys in owners.items():
        m.exactly_one(ys, f"cell {u}")
    return m


@dataclass(frozen=True)
class DoodleFitSolution:
    cells: tuple[Shape, ...]  # cells[i]: the shape cells block i covers


def decode(p: DoodleFit, model: Model, true_vars: frozenset[int]) -> DoodleFitSolution:
    """A group's placements go to its blocks in order (sorted: one picture, one answer)."""
    placed: dict[int, list[Shape]] = {}
    for x in model.projection:
        if x in true_vars:
            _, k, cells = model.key(x)
            placed.setdefault(k, []).append(cells)
    found = {i: cells for group in p.classes()
             for i, cells in zip(group, sorted(placed.get(group[0], [])), strict=False)}
    return DoodleFitSolution(tuple(found.get(i, ()) for i in range(len(p.blocks))))


def verify(p: DoodleFit, sol: DoodleFitSolution) -> list[str]:
    """Plain geometry: each block an allowed turn of itself, inside the shape, no overlaps,
    every shape cell covered."""
    problems = []
    if len(sol.cells) != len(p.blocks):
        return [f"{len(sol.cells)} blocks placed, the puzzle has {len(p.blocks)}"]
    seen: dict[Cell, int] = {}
    for i, cells in enumerate(sol.cells):
        if not cells or normalise(cells) not in p.orientations(i):
            problems.append(f"block {i} is not placed as itself (or an allowed turn of it)")
            continue
        for u in cells:
            if u not in p.shape:
                problems.append(f"block {i} covers {u}, outside the shape")
            if u in seen:
                problems.append(f"blocks {seen[u]} and {i} overlap at {u}")
            seen[u] = i
    if missing := sorted(set(p.shape) - set(seen)):
        problems.append(f"{len(missing)} shape cells are not covered, e.g. {missing[0]}")
    return problems


LABELS = string.digits + string.ascii_uppercase + string.ascii_lowercase


def label(i: int) -> str:
    """The character that draws block ``i``: 0-9, then A-Z, then a-z."""
    return LABELS[i] if i < len(LABELS) else "?"


def solution_json(p: DoodleFit, sol: DoodleFitSolution) -> dict:
    """The solution as ``solve --json`` gives it: {"placements": [{"block": i, "cells": [...]},
    ...]}."""
    return {"placements": [{"block": i, "cells": [list(u) for u in cells]}
                           for i, cells in enumerate(sol.cells)]}


def render_text(p: DoodleFit, sol: DoodleFitSolution | None) -> str:
    """The shape drawn with block numbers (0-9, then A-Z, a-z), as the published script prints
    it; '#' where no solution is known."""
    owner = {u: label(i) for i, cells in enumerate(sol.cells) for u in cells} if sol else {}
    return _draw(p.shape, lambda u: owner.get(u, "#")) + "\n"


def render_svg(p: DoodleFit, sol: DoodleFitSolution | None) -> str:
    """The puzzle as SVG: the shape, and every block beside it, named as the solution names
    it (0-9, A-Z, a-z), with the turns allowed; with ``sol`` the answer key: the shape cut
    into the blocks (touching blocks coloured apart), each block in the colour it has there."""
    sheet = svg.Sheet(f"Doodle Fit: {len(p.blocks)} blocks" + (" (answer key)" if sol else ""))
    owner = {u: i for i, cells in enumerate(sol.cells if sol else ()) for u in cells}
    number = svg.colouring(svg.touching_groups(owner) | {
        i: set() for i in range(len(p.blocks)) if i not in owner.values()})
    fills = [svg.colour(number[i] if sol else i) for i in range(len(p.blocks))]
    labels = dict.fromkeys(p.shape, "") | {u: label(i) for u, i in owner.items()}
    svg.board(sheet, svg.MARGIN, sheet.top, labels, (), {u: fills[i] for u, i in owner.items()},
              owner or dict.fromkeys(p.shape, 0))
    bottom = svg.block_tray(sheet, svg.MARGIN, sheet.bottom + 16, sheet.right - svg.MARGIN,
                            p.blocks, [label(i) for i in range(len(p.blocks))], fills,
                            "Blocks to fit, each once:")
    turns = ("may be rotated and mirrored" if p.rotate and p.reflect else "may be rotated"
             if p.rotate else "may be mirrored" if p.reflect else "are not turned")
    svg.notes(sheet, svg.MARGIN, bottom, [f"Cover every cell of the shape; the blocks {turns}."])
    return sheet.svg()


def planted(cells: int, blocks: int, seed: int) -> tuple[DoodleFit, DoodleFitSolution]:
    """A random connected shape cut into ``blocks`` random connected blocks."""
    rng = random.Random(seed)
    shape = {(0, 0)}
    while len(shape) < cells:
        shape.add(rng.choice(around(rng.choice(sorted(shape)))))
    shape_t = normalise(shape)
    owner: dict[Cell, int | None] = dict.fromkeys(shape_t)
    owner.update((u, i) for i, u in enumerate(rng.sample(shape_t, blocks)))
    while any(v is None for v in owner.values()):  # grow the blocks into free neighbours
        u = rng.choice([u for u, v in owner.items() if v is not None])
        nb = [v for v in around(u) if owner.get(v, 0) is None]
        if nb:
            owner[rng.choice(nb)] = owner[u]
    parts = [tuple(sorted(u for u, v in owner.items() if v == i)) for i in range(blocks)]
    return (DoodleFit(frozenset(shape_t), tuple(normalise(part) for part in parts)),
            DoodleFitSolution(tuple(parts)))


# the grid's four turns and their mirror images, as (r, c) -> (a r + b c, d r + e c)
TURNS = ((1, 0, 0, 1), (0, -1, 1, 0), (-1, 0, 0, -1), (0, 1, -1, 0),
         (1, 0, 0, -1), (0, 1, 1, 0), (-1, 0, 0, 1), (0, -1, -1, 0))


def symmetries(shape: frozenset[Cell], placements: list[list[Shape]]) -> list[dict[Cell, Cell]]:
    """The turns and mirror images of the grid that map the shape onto itself and each group's
    placements onto themselves (the identity first): each maps packings to packings."""
    out = []
    for a, b, d, e in TURNS:
        image = {u: (a * u[0] + b * u[1], d * u[0] + e * u[1]) for u in shape}
        dr = min(r for r, _ in shape) - min(r for r, _ in image.values())
        dc = min(c for _, c in shape) - min(c for _, c in image.values())
        move = {u: (r + dr, c + dc) for u, (r, c) in image.items()}
        if set(move.values()) == shape and all(
                {tuple(sorted(move[u] for u in cells)) for cells in group} == set(group)
                for group in placements):
            out.append(move)
    return out


# the last puzzle ``quick_count`` did not finish: ``count_placements`` after it, in this
# process or in a child forked since (the counting race's), does not sweep it again
_unfinished: list[DoodleFit] = []


def quick_count(p: DoodleFit) -> int | None:
    """The number of packings when the C sweep of the whole shape finds it within
    ``QUICK_SWEEP`` seconds, else None (so is it without the C sweep)."""
    if _xcount is None:
        return None
    index, groups = _sweep_order(p)
    return _quick_sweep(p, index, groups, [p.placements(group[0]) for group in groups])


def _quick_sweep(p: DoodleFit, index: dict[Cell, int], groups: list[list[int]],
                 placements: list[list[Shape]]) -> int | None:
    whole = _sweep(index, groups, placements, (), QUICK_SWEEP)
    _unfinished[:] = [p] if whole is None else []
    return whole


def _sweep_order(p: DoodleFit) -> tuple[dict[Cell, int], list[list[int]]]:
    """Each cell's place in the sweep (along the shape's longer side), and the groups of
    interchangeable blocks."""
    return {u: i for i, u in enumerate(grid_sweep(p.shape))}, p.classes()


def _count_in_c(p: DoodleFit, index: dict[Cell, int], groups: list[list[int]]) -> int:
    """The count by the C sweep. When turns or mirror images map the puzzle onto itself, the
    packings holding a placement number as many as those holding its image: the sweep counts
    them for one placement of each orbit of one group (the group with the fewest orbits), and
    each is weighed by its orbit's size; every packing holds as many of the group's placements
    as the group has blocks. The orbits are counted on every core at once."""
    placements = [p.placements(group[0]) for group in groups]
    whole = None if p in _unfinished else _quick_sweep(p, index, groups, placements)
    if whole is not None:  # small: done before the symmetries would have been found
        return whole
    moves = symmetries(p.shape, placements)
    if len(moves) == 1 or not groups:
        return _sweep(index, groups, placements, ())
    orbits = [_orbits(group, moves) for group in placements]
    g = min(range(len(groups)), key=lambda k: len(orbits[k]))
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # the sweep lets go of the GIL
        counts = pool.map(lambda cells: _sweep(index, groups, placements, (g, cells)),
                          [cells for cells, _ in orbits[g]])
        total = sum(size * n for (_, size), n in zip(orbits[g], counts, strict=True))
    return total // len(groups[g])


def _orbits(group: list[Shape], moves: list[dict[Cell, Cell]]) -> list[tuple[Shape, int]]:
    """One placement of each orbit of ``group`` under ``moves``, and the orbit's size."""
    seen: set[Shape] = set()
    out = []
    for cells in group:
        if cells not in seen:
            orbit = {tuple(sorted(m[u] for u in cells)) for m in moves}
            seen |= orbit
            out.append((cells, len(orbit)))
    return out


@overload
def _sweep(index: dict[Cell, int], groups: list[list[int]], placements: list[list[Shape]],
           placed: tuple[int, Shape] | tuple[()]) -> int: ...
@overload
def _sweep(index: dict[Cell, int], groups: list[list[int]], placements: list[list[Shape]],
           placed: tuple[int, Shape] | tuple[()], seconds: float) -> int | None: ...
def _sweep(index: dict[Cell, int], groups: list[list[int]], placements: list[list[Shape]],
           placed: tuple[int, Shape] | tuple[()], seconds: float = -1.0) -> int | None:
    """The C sweep's count, with ``placed`` = (group, cells) laid first when given: the cells
    left numbered in sweep order, each placement as its cell ids, flat, and where each
    starts. None when it takes more than ``seconds`` (given)."""
    caps = [len(g) for g in groups]
    taken: set[Cell] = set()
    if placed:
        caps[placed[0]] -= 1
        taken = set(placed[1])
    left = {u: k for k, u in enumerate(u for u in index if u not in taken)}
    options = sorted((sorted(left[u] for u in cells), g) for g, group in enumerate(placements)
                     for cells in group if taken.isdisjoint(cells))
    return _xcount.sweep(len(left), array("i", caps),
                         array("i", [0, *accumulate(len(ids) for ids, _ in options)]),
                         array("i", [k for ids, _ in options for k in ids]),
                         array("i", [g for _, g in options]), array("i", [0]), seconds)


def obstacles(p: DoodleFit) -> list[str]:
    """Counts that rule every solution out: the blocks' cells against the shape's, a block
    that fits nowhere."""
    cells = sum(len(b) for b in p.blocks)
    found = [] if cells == len(p.shape) else [
        f"the blocks have {cells} cells, the shape {len(p.shape)}"]
    return found + [f"block {i} fits nowhere in the shape" for i in range(len(p.blocks))
                    if not p.placements(i)]


def count_placements(p: DoodleFit) -> int:
    """The exact number of packings (which group of interchangeable blocks covers which
    cells), without SAT: cells are swept along the shape's longer side, the first free cell
    must be the first cell of the placement that covers it, and the count of what is left is
    remembered by state (the free cells from there on, how many blocks of each group are used).
    In C (``kernels/_xcount.c``) when it is built, else the same search in Python."""
    index, groups = _sweep_order(p)
    if _xcount is not None:
        return _count_in_c(p, index, groups)
    order = list(index)
    # a group's used count is a digit of ``used``: digit g has weight unit[g], base size + 1
    unit = list(accumulate((len(group) + 1 for group in groups), lambda a, b: a * b, initial=1))
    # (group, cell mask) by first cell
    starting: list[list[tuple[int, int]]] = [[] for _ in order]
    for g, group in enumerate(groups):
        for cells_ in p.placements(group[0]):
            ids = [index[u] for u in cells_]
            starting[min(ids)].append((g, sum(1 << k for k in ids)))
    full = (1 << len(order)) - 1
    memo: dict[tuple[int, int], int] = {}

    def go(mask: int, used: int) -> int:
        if mask == full:
            return 1
        key = (mask, used)
        if key not in memo:
            i = (~mask & (mask + 1)).bit_length() - 1  # the first free cell
            memo[key] = sum(go(mask | m, used + unit[g]) for g, m in starting[i]
                            if used // unit[g] % (len(groups[g]) + 1) < len(groups[g])
                            and not mask & m)
        return memo[key]

    with recursion_limit(2 * len(p.blocks) + 200):  # one frame per block
        return go(0, 0)


def placement_json(p: DoodleFit, key: tuple) -> dict:
    """A placement variable for ``explain``: the block (the first of its interchangeable
    ones), as ``solve --json`` numbers blocks, and the cells it covers."""
    _, block, cells = key
    return {"block": block, "cells": [list(u) for u in cells]}


def placement_text(shown: dict) -> str:
    """A placement as ``placement_json`` shows it, in words."""
    return f"block {label(shown['block'])} on " + " ".join(map(cell_text, shown["cells"]))


def squares(p: DoodleFit, key: tuple) -> list[Cell]:
    """The cells a placement variable covers."""
    return list(key[2])


def unique_puzzle(cells: int, blocks: int, seed: int, ask: Ask
                  ) -> tuple[DoodleFit, DoodleFitSolution, int]:
    """(a puzzle with exactly one solution, its planted solution, repairs made). Planted,
    then repaired: while the solver finds another packing, one square passes from a block the
    other packing puts elsewhere to a neighbouring block (both stay connected), so both blocks
    change shape and the planted packing still holds. ``ask.readings``: ``rotate``,
    ``reflect``."""
    if blocks > cells:
        raise SatDominoError("a Doodle Fit puzzle needs at least one cell per block")
    rng = random.Random(f"doodlefit-unique:{cells}:{blocks}:{seed}")
    repairs = 0
    while True:  # a planted shape, repaired until it is unique or goes round in circles
        p, sol = planted(cells, blocks, seed)
        p = DoodleFit(p.shape, p.blocks, **ask.readings)
        parts = [list(part) for part in sol.cells]
        for stuck in range(22 + 5 * blocks):
            if ask.progress:
                ask.progress(f"repair {repairs}")
            other = other_solution(p, FAMILY, {frozenset(x) for x in parts},
                                   lambda sol: {frozenset(x) for x in sol.cells}, ask.deadline,
                                   f"Doodle Fit puzzle of {cells} cells and {blocks} blocks")
            if other is None:
                return p, DoodleFitSolution(tuple(tuple(sorted(x)) for x in parts)), repairs
            theirs = {frozenset(x) for x in other.cells}
            owner = {u: i for i, x in enumerate(parts) for u in x}
            moves = [(u, i, owner[v]) for i, x in enumerate(parts)
                     if frozenset(x) not in theirs and len(x) > 1 for u in x for v in around(u)
                     if owner.get(v, i) != i
                     and len(connected_parts([w for w in x if w != u], around)) == 1]
            if not moves or stuck > 20 + 5 * blocks:
                break
            u, i, j = rng.choice(moves)
            parts[i].remove(u)
            parts[j].append(u)
            p = DoodleFit(p.shape, tuple(normalise(x) for x in parts), **ask.readings)
            repairs += 1
        seed += 1_000_003


GENERATOR: Generator[DoodleFit, DoodleFitSolution] = Generator(
    what="a Doodle Fit puzzle (the published text form)",
    params=(Param("cells", "cells in the shape", 1, 2000),
            Param("blocks", "number of blocks (1 to cells)", 1, 2000)),
    planted=lambda params, seed: planted(params["cells"], params["blocks"], seed),
    named=lambda params: (f"Doodle Fit puzzle of {params['cells']} cells and "
                          f"{params['blocks']} blocks"),
    build=lambda params, seed, ask: Built(*unique_puzzle(params["cells"], params["blocks"],
                                                         seed, ask)),
    how_unique="blocks recut until SAT proves it unique",
    check=lambda params, choices: ("needs --blocks at most --cells"
                                   if params["blocks"] > params["cells"] else None))

FAMILY: Family[DoodleFit, DoodleFitSolution] = Family(
    kind="doodlefit", title="Doodle Fit", suffixes=(".txt", ".doodle"), sniff=sniff,
    likeness=lambda text: share(text, "#*-"),
    parse=parse_parts, formats={"text": format_text},
    models={"placement": build_placement, "cells": build_cells},
    decode=decode, verify=verify, solution_json=solution_json, render_text=render_text,
    render_svg=render_svg, placement_json=placement_json, placement_text=placement_text,
    squares=squares, size=("cells", lambda p: len(p.shape)),
    auto=(AutoRule(0, "placement", {}, ("dlx", "minisat22"),
                   "dancing links, branching on the block or cell with the fewest options "
                   "for what they place: the pentominoes in 6x10 and 3x20 boxes within 15 ms, "
                   "where CDCL takes 0.15-3 s; planted boards to 150 cells within 0.25 s"),
          AutoRule(200, "cells", {"amo": "pairwise"},
                   ("portfolio:dlx+cadical195@0.5", "cadical195"),
                   "from 200 cells dancing links races CaDiCaL from 0.5 s on the model that "
                   "names each cell's owner (dlx reads it as the placement model): planted "
                   "boards (seeds 1-12) 7 of 12 at 200 cells within 10 s, 8 at 225 and 2 at "
                   "250 within 30 s, where two orders of dlx solved 7, 4 and 1"),
          AutoRule(400, "cells", {"amo": "commander"},
                   ("portfolio:dlx+cadical195@0.5", "cadical195"),
                   "from 400 cells, where neither encoding solved a planted board in 20 s "
                   "(seeds 1-3), the same race on commander clauses, linear in the owners: "
                   "600 cells 0.57 M clauses and 0.35 GB at 10 s, against pairwise's 8.9 M "
                   "and 2.26 GB; 2,000 cells 5.6 M against 239 M (73 s to lower)")),
    generator=GENERATOR, exact_count=count_placements, quick_count=quick_count,
    obstacles=obstacles,
    samples=(Sample({"cells": 40, "blocks": 8}, 1, "placement", readings={"rotate": True}),),
    readings=(Reading("rotate", "--rotate", True, "blocks may be rotated"),
              Reading("reflect", "--reflect", True, "blocks may be mirrored")))
