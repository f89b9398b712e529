"""Domino Fit (the daily puzzle, as in Philippe Olivier's CP-SAT model): two kinds of piece in
unlimited supply, never rotated: a vertical domino with one dot on its top half, and a
horizontal domino with two dots on its right half. Black squares take no piece. The dots in each
row and column must add up to the clues. By default every other square is covered (the
published solutions cover all); ``cover=False`` is the published model's reading, which only
forbids overlaps.

Input: JSON with the model's names: ``width``, ``height``, ``blacks`` ([[w, h], ...], w = column,
h = row, origin top-left), ``top_numbers`` (column sums), ``side_numbers`` (row sums).
Output rows: ``1`` dot half of a vertical domino, ``|`` its blank half, ``-`` blank half of a
horizontal domino, ``2`` its dot half, ``X`` black, ``.`` uncovered.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import threading
from array import array
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..analysis.repair import other_solution
from ..clock import start
from ..errors import PuzzleFormatError, SatDominoError
from ..family import Ask, AutoRule, Built, Family, Generator, Param, Parts, Reading, Sample, strict
from ..kernels.lp_bound import proves_above
from ..model import Model
from ..process import progress
from ..render import svg
from .common import cell_text, key_share, known_keys, load_json, single
from .common import whole_number as _int

try:
    from . import _fitcount, _fitestimate
except ImportError:  # built without a C compiler: the other counting methods go on
    _fitcount = _fitestimate = None  # type: ignore[assignment]

Cell = tuple[int, int]  # (row, col)
Lines = Literal["rows", "columns"]  # which way the exact counter sweeps the board
MAX_SIDE = 200


@dataclass(frozen=True)
class DominoFit:
    width: int
    height: int
    blacks: frozenset[Cell]
    top: tuple[int, ...]  # column sums, left to right
    side: tuple[int, ...]  # row sums, top to bottom
    cover: bool = True

    def free(self, cell: Cell) -> bool:
        """Is ``cell`` on the board and not black?"""
        r, c = cell
        return 0 <= r < self.height and 0 <= c < self.width and cell not in self.blacks

    def pieces(self) -> list[tuple[str, Cell]]:
        """("V", top cell) and ("H", left cell) for every position a piece fits."""
        return [(kind, (r, c)) for r in range(self.height) for c in range(self.width)
                for kind, other in (("V", (r + 1, c)), ("H", (r, c + 1)))
                if self.free((r, c)) and self.free(other)]


def cells_of(kind: str, at: Cell) -> tuple[Cell, Cell]:
    """The two squares of a piece: ``kind`` "V" (vertical, ``at`` its top) or "H" (horizontal,
    ``at`` its left)."""
    r, c = at
    return ((r, c), (r + 1, c)) if kind == "V" else ((r, c), (r, c + 1))


def dots_of(kind: str, at: Cell) -> tuple[Cell, int]:
    """Where a piece's dots are, and how many: 1 on a vertical's top, 2 on a horizontal's right."""
    r, c = at
    return ((r, c), 1) if kind == "V" else ((r, c + 1), 2)


def _sums(width: int, height: int, pieces) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The dots of these pieces per column and per row (dots off the board left out)."""
    top, side = [0] * width, [0] * height
    for kind, at in pieces:
        (r, c), n = dots_of(kind, at)
        if 0 <= r < height and 0 <= c < width:
            side[r] += n
            top[c] += n
    return tuple(top), tuple(side)


# parsing -----------------------------------------------------------------------------------------

KEYS = {"width", "height", "blacks", "top_numbers", "side_numbers"}


def from_json(obj: object) -> DominoFit:
    """A board from its JSON object (width, height, blacks, top_numbers, side_numbers); anything
    else is a one-line PuzzleFormatError."""
    if not isinstance(obj, dict):
        raise PuzzleFormatError("a Domino Fit puzzle must be a JSON object")
    known_keys(obj, KEYS, "a Domino Fit puzzle")
    for key in ("width", "height", "top_numbers", "side_numbers"):
        if key not in obj:
            raise PuzzleFormatError(f"a Domino Fit puzzle needs '{key}'")
    w = _int(obj["width"], "width", 1, MAX_SIDE)
    h = _int(obj["height"], "height", 1, MAX_SIDE)
    for key, size, what in (("top_numbers", w, "column sums (the width)"),
                            ("side_numbers", h, "row sums (the height)")):
        got = obj[key]
        if not isinstance(got, list) or len(got) != size:
            raise PuzzleFormatError(f"'{key}' needs {size} {what}, "
                                    f"not {len(got) if isinstance(got, list) else repr(got)}")
    top = tuple(_int(v, f"column {i}'s sum", 0, 2 * h) for i, v in enumerate(obj["top_numbers"]))
    side = tuple(_int(v, f"row {i}'s sum", 0, 2 * w) for i, v in enumerate(obj["side_numbers"]))
    given = obj.get("blacks", [])
    if not isinstance(given, list):
        raise PuzzleFormatError(f"'blacks' must be a list of [column, row], not {given!r}"[:80])
    blacks = set()
    for b in given:
        if not isinstance(b, list) or len(b) != 2:
            raise PuzzleFormatError(f"a black square must be [w, h], not {b!r}"[:80])
        col = _int(b[0], "black square column", 0, 10**6)
        row = _int(b[1], "black square row", 0, 10**6)
        if col >= w or row >= h:
            raise PuzzleFormatError(f"black square [{col}, {row}] is off the {w}x{h} board")
        blacks.add((row, col))
    return DominoFit(w, h, frozenset(blacks), top, side)


def parse_parts(text: str) -> Parts:
    """Every board in ``text`` (one JSON object), each part or its error."""
    return single(from_json, load_json(text))


def parse(text: str) -> list[tuple[str | None, DominoFit]]:
    """Every board in ``text``; the first error raises."""
    return strict(parse_parts(text))


def sniff(text: str) -> bool:
    """Does ``text`` look like a Domino Fit board (JSON with either sum list)? The whole text
    is searched: a large board's "blacks" list can come first and run long; a file missing
    one sum list is ours, and its parse says what is missing."""
    return text.lstrip().startswith("{") and '"dominoes"' not in text and (
        '"top_numbers"' in text or '"side_numbers"' in text)


# models ------------------------------------------------------------------------------------------

def _model(p: DominoFit, name: str, pieces: list[tuple[str, Cell]],
           key: Callable[[str, Cell], tuple], counted: bool = False) -> Model:
    """A variable ``key(kind, at)`` per piece, in the order given; each free square covered
    once (or at most once), the dot sums; ``counted`` (with every square covered): the sums as
    the counts of pieces they fix (``fixed_counts``)."""
    m = Model(name)
    covering: dict[Cell, list[int]] = {(r, c): [] for r in range(p.height)
                                       for c in range(p.width) if p.free((r, c))}
    dots, placed = [], []
    for kind, at in pieces:
        x = m.var(key(kind, at))
        for cell in cells_of(kind, at):
            covering[cell].append(x)
        dots.append((*dots_of(kind, at), x))
        placed.append((kind, at, x))
    m.projection = list(range(1, m.num_vars + 1))
    for cell, xs in covering.items():
        if p.cover:
            m.exactly_one(xs, f"square {cell}")
        elif len(xs) > 1:
            m.at_most_one(xs, f"square {cell}")
    if counted and p.cover:
        _counts(m, p, placed)
        return m
    for r in range(p.height):
        m.pb([(n, x) for (rr, _), n, x in dots if rr == r], "==", p.side[r],
             f"row {r} sum {p.side[r]}")
    for c in range(p.width):
        m.pb([(n, x) for (_, cc), n, x in dots if cc == c], "==", p.top[c],
             f"column {c} sum {p.top[c]}")
    return m


def _counts(m: Model, p: DominoFit, placed: list[tuple[str, Cell, int]]) -> None:
    """The sums as cardinality rows: each row's and column's counts of vertical and of
    horizontal pieces (``fixed_counts``)."""
    fixed = fixed_counts(p)
    if fixed is None:
        m.add_clause([], "the sums with every square covered")  # no solution
        return
    lines: dict[tuple[str, int, int], list[int]] = {}  # (kind, 0 row / 1 column, which)
    for kind, (r, c), x in placed:
        lines.setdefault((kind, 0, r), []).append(x)
        lines.setdefault((kind, 1, c), []).append(x)
    for line, index, sums, counts in (
            ("row", 0, p.side, {"V": (fixed.v_row, True), "H": (fixed.h_row, False)}),
            ("column", 1, p.top, {"V": (fixed.v_col, False), "H": (fixed.h_col, True)})):
        for k, total in enumerate(sums):
            for kind, (per_line, starting) in counts.items():
                m.card(lines.get((kind, index, k), []), "==", per_line[k],
                       f"{line} {k} sum {total}: {_pieces(per_line[k], kind, starting)}")


def _pieces(n: int, kind: str, starting: bool) -> str:
    """'2 vertical pieces start here', '1 horizontal piece', ..."""
    noun = f"{n} {'vertical' if kind == 'V' else 'horizontal'} piece{'' if n == 1 else 's'}"
    return noun + (f" start{'s' if n == 1 else ''} here" if starting else "")


def build_placement(p: DominoFit) -> Model:
    """One variable per position a piece fits."""
    return _model(p, "placement", p.pieces(), lambda kind, at: ("piece", kind, at))


def build_counts(p: DominoFit) -> Model:
    """The placement model with each sum stated as the counts of pieces it fixes when every
    square is covered: cardinality rows, which propagate far better than sums of ones and
    twos. Without full cover the sums fix no counts, and this is the placement model."""
    return _model(p, "counts", p.pieces(), lambda kind, at: ("piece", kind, at), counted=True)


def build_dot_half(p: DominoFit) -> Model:
    """The published model: grids ``ones`` (a vertical's dotted top here) and ``twos`` (a
    horizontal's dotted right half here), indexed by the dotted square, with non-overlap over
    the squares each piece covers."""
    # its variables by dotted square, row-major, a vertical piece before a horizontal one
    order = sorted(p.pieces(), key=lambda piece: (dots_of(*piece)[0], piece[0] == "H"))
    return _model(p, "dot-half", order, lambda kind, at: (
        "ones" if kind == "V" else "twos", dots_of(kind, at)[0]))


def obstacles(p: DominoFit) -> list[str]:
    """Counts that rule every solution out: the clues' totals, and with every square covered
    the number of white squares (each piece covers two and shows one or two dots)."""
    found = []
    if sum(p.top) != sum(p.side):
        found.append(f"the column sums total {sum(p.top)}, the row sums {sum(p.side)}")
    white = sum(p.free((r, c)) for r in range(p.height) for c in range(p.width))
    if p.cover and white % 2:
        found.append(f"{white} white squares: pieces cover them two at a time")
    elif p.cover and not white // 2 <= sum(p.side) <= white:
        found.append(f"{white // 2} pieces cover the {white} white squares and show {white // 2} "
                     f"to {white} dots; the rows ask for {sum(p.side)}")
    return found


@dataclass(frozen=True)
class FixedCounts:
    v_row: list[int]  # vertical pieces whose top is in each row
    h_row: list[int]  # horizontal pieces in each row
    v_col: list[int]  # vertical pieces in each column
    h_col: list[int]  # horizontal pieces whose left square is in each column


def fixed_counts(p: DominoFit) -> FixedCounts | None:
    """The counts of pieces the sums fix when every square is covered, or None when no such
    cover meets them. Row r + 1's free squares less its sum are the vertical pieces reaching
    down into it, so the row sums fix how many verticals start in each row, and then how many
    horizontals each row has (sum = verticals starting + 2 x horizontals). Swept left to right,
    a column's sum less twice the horizontals ending in it is its verticals, and its free
    squares less theirs and the horizontals ending in it are the horizontals starting in it."""
    in_row = [sum(p.free((r, c)) for c in range(p.width)) for r in range(p.height)]
    if p.side[0] != in_row[0]:  # nothing reaches down into the first row
        return None
    v_row = [in_row[r + 1] - p.side[r + 1] for r in range(p.height - 1)] + [0]
    h_row = [(s - v) // 2 for s, v in zip(p.side, v_row, strict=True)]
    if min(v_row) < 0 or any((s - v) % 2 or s < v for s, v in zip(p.side, v_row, strict=True)):
        return None
    v_col, h_col, ending = [], [], 0  # ending: horizontals whose right square is in the column
    for c in range(p.width):
        squares = sum(p.free((r, c)) for r in range(p.height))
        verticals = p.top[c] - 2 * ending
        ending = squares - 2 * verticals - ending
        if verticals < 0 or ending < 0:
            return None
        v_col.append(verticals)
        h_col.append(ending)
    if ending:  # horizontals starting in the last column
        return None
    return FixedCounts(v_row, h_row, v_col, h_col)


def covers_every_square(p: DominoFit) -> bool:
    """Does every solution cover every free square, even where the rules let squares stay
    empty (``cover=False``)? Proved by linear programming (``kernels.lp_bound``): over the
    relaxation (each square covered at most once, the sums met, each piece from 0 to 1),
    the fewest pieces is above half the free squares less 1; a solution's pieces are a whole
    number, each covering two squares, so they cover all. False when nothing is proved."""
    if sum(p.side) != sum(p.top):  # no solution at all
        return True
    squares = sum(p.free((r, c)) for r in range(p.height) for c in range(p.width))
    if squares % 2:
        return False
    rows: dict[Any, int] = {}
    columns = []
    for kind, at in p.pieces():
        (r, c), n = dots_of(kind, at)
        column = [(rows.setdefault(("sum", "row", r), len(rows)), n),
                  (rows.setdefault(("sum", "column", c), len(rows)), n)]
        columns.append(column + [(rows.setdefault(u, len(rows)), 1)
                                 for u in cells_of(kind, at)])
    clue = {("sum", "row", r): v for r, v in enumerate(p.side)} | {
        ("sum", "column", c): v for c, v in enumerate(p.top)}
    order = sorted(rows, key=rows.__getitem__)
    if any(clue.get(key, 0) for key in clue if key not in rows):
        return False  # a sum no piece can meet
    return proves_above([1] * len(columns), columns, [clue.get(key) for key in order],
                        [clue.get(key, 1) for key in order], squares // 2 - 1)


# the memory the counter's states may take at once (each side's, and the row being made): a
# quarter of the machine's memory, at most 6 GiB
COUNT_BYTES = min(6 << 30, os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4)
# the counter's sets of counts per mask (``_fitcount.c``): past this it counts without them
MAX_LAYER_BYTES = 256 << 20


def _sweep_args(p: DominoFit, threads: int, layer_bytes: int | None = None,
                control: progress.Control | None = None,
                lines: Lines | None = None) -> list[Any] | None:
    """The C sweep's arguments (``_fitcount.c``) up to ``threads``, with ``layer_bytes`` of
    layers (None: ``MAX_LAYER_BYTES``, read at the call), ``control`` (None: the counting
    race's, which tells it the lines swept) and ``lines`` (None: along the shorter side),
    or None when the sums admit no full cover. Without full cover, those of the full-cover
    reading once ``covers_every_square`` proves it the same (both the count and the estimate
    come here).

    The sweep's masks run along the board's shorter side: a board wider than tall is swept
    column by column, read across its diagonal. There its horizontal pieces are the vertical
    ones the C sweep counts (their left squares its tops, ``FixedCounts.h_col`` a line and
    ``h_row`` a column), and each column's squares left between them must fall into even
    runs, for the vertical pieces. The states' counts are then a row's each: fewer of them,
    and so fewer states (planted 40x10 boards: 8-14 ms by columns, 20 s to over 60 s by
    rows)."""
    if lines not in (None, "rows", "columns"):
        raise ValueError(f"lines is 'rows' or 'columns', not {lines!r}")
    if not p.cover:
        if not covers_every_square(p):
            raise SatDominoError("the exact counter needs every square covered, and no "
                                 "solution leaving one empty was ruled out")
        p = replace(p, cover=True)
    across = p.width > p.height if lines is None else lines == "columns"
    side = p.height if across else p.width  # the squares of a line
    if lines is None and side > 64:
        raise SatDominoError("the exact counter takes boards up to 64 squares on a side")
    if side > 64:
        raise SatDominoError(f"the exact counter sweeps lines of at most 64 squares; this "
                             f"board's {lines} have {side}")
    if _fitcount is None:
        raise SatDominoError("the exact counter is not built (no C compiler)")
    fixed = fixed_counts(p)
    if fixed is None:
        return None
    width, height = (p.height, p.width) if across else (p.width, p.height)
    free = [sum(1 << k for k in range(width) if p.free((k, line) if across else (line, k)))
            for line in range(height)]
    signed = [m - (1 << 64) if m >> 63 else m for m in free]  # array("q") of 64-bit masks
    tops, per_column = (fixed.h_col, fixed.h_row) if across else (fixed.v_row, fixed.v_col)
    # a state: a byte a column (rounded up to 8) and its number (16 bytes)
    max_states = COUNT_BYTES // ((width + 7) // 8 * 8 + 16)
    told = progress.control() if control is None else control
    progress.say_lines(told, "columns" if across else "rows")
    return [width, height, array("q", signed), array("i", tops), array("i", per_column),
            max_states, MAX_LAYER_BYTES if layer_bytes is None else layer_bytes, told,
            threads or len(os.sched_getaffinity(0))]


def count_placements(p: DominoFit, threads: int = 0, lines: Lines | None = None) -> int:
    """The exact number of solutions with every square covered, without SAT; without full
    cover (``cover=False``), where linear programming proves that every solution covers
    every square anyway (``covers_every_square``; else SatDominoError).

    Covering everything turns the clues into counts of vertical pieces per row and per column
    (``fixed_counts``). The horizontal pieces then fill what is left of each row, which they
    can exactly when it falls into runs of even length. The count of such sets of verticals is
    taken by sweeping the rows from both ends, each state kept only when the counts the other
    side can give its columns complete it (``_fitcount.c``), on ``threads`` threads (0: one
    for each core this process may use); a board wider than tall is swept by its columns
    (``lines``: "rows" or "columns" to choose; see ``_sweep_args``). Boards it does not take
    raise SatDominoError, and the other counting methods go on."""
    args = _sweep_args(p, threads, lines=lines)
    if args is None:
        return 0
    value = _fitcount.count(*args)
    if value is None:
        raise SatDominoError(f"the exact counter went past {args[5]:,} states held at once")
    return int(value)


# a full-cover board of at most this many squares is counted in process, before any race:
# planted ones count well within ``QUICK_SECONDS`` (from 12x12, some take longer)
QUICK_SQUARES = 100
QUICK_SECONDS = 0.005


def quick_count(p: DominoFit) -> int | None:
    """``count_placements`` of a full-cover board of at most ``QUICK_SQUARES`` squares when
    one thread finds it within ``QUICK_SECONDS``, else None."""
    if not p.cover or p.width * p.height > QUICK_SQUARES or _fitcount is None:
        return None
    stop = array("i", [0])  # the sweep stops when it is set
    args = _sweep_args(p, 1, control=stop)
    if args is None:
        return 0
    timer = threading.Timer(QUICK_SECONDS, stop.__setitem__, (0, 1))
    start(timer)
    try:
        value = _fitcount.count(*args)
    finally:
        timer.cancel()
    return None if value is None else int(value)


# states the estimate keeps from above after each row: on planted 20x20 boards, runs of
# about half a second, each within 10-15% of the count
ESTIMATE_STATES = 100_000
# the estimate's sets of counts per mask: wider boards need more than the exact counter's
ESTIMATE_LAYER_BYTES = min(2 << 30, COUNT_BYTES // 3)


def estimate_placements(p: DominoFit, seconds: float = 20.0, limit: float | None = None,
                        threads: int = 0, budget: int = ESTIMATE_STATES,
                        seed: int = 1) -> tuple[int, float]:
    """An estimate of ``count_placements(p)`` and its relative standard error, for boards
    whose exact count needs more states than memory holds.

    Each run is the exact counter's sweep with weights for numbers of ways, the states from
    above thinned to ``budget`` a row by priority sampling (``_fitcount.c``), so that its
    expectation is the count; runs with seeds ``seed``, ``seed + 1``, ... go on while another
    fits in ``seconds``, building the layers included (at least two runs, at most 100), and
    the estimate is their mean. With a ``limit`` (seconds), a second run that would end past
    it keeps fewer states, as many as the first run's time says fit (at least a sixteenth).
    The error is the standard error of that mean over the mean, from the runs' spread: a
    statistic, not a guarantee. A run that drops no state is the exact count (error 0).
    SatDominoError when fewer than two runs come to more than 0 (the fillings are too rare
    among the states kept to say anything)."""
    args = _sweep_args(p, threads, ESTIMATE_LAYER_BYTES)
    if args is None:
        return 0, 0.0
    if _fitestimate is None:
        raise SatDominoError("the estimator is not built (no C compiler)")
    # the C call's limit 0 is none
    hard = 0.0 if limit is None else max(limit, 1e-9)
    out = _fitestimate.count(*(args + [budget, seed, 100, seconds, hard]))
    if out is None:
        raise SatDominoError("the estimate was stopped")
    runs, thinned = out
    if not thinned:  # the count: doubles hold it exactly below 2^53, the exact sweep above
        return (round(runs[0]) if runs[0] < 2**53 else count_placements(p, threads)), 0.0
    kept = sum(1 for v in runs if v)
    if kept < 2:  # fillings too rare among the kept states: no estimate, not a count of 0
        raise SatDominoError(f"the estimate's runs kept a filling of the board in {kept} of "
                             f"{len(runs)}: too few to say")
    mean = statistics.fmean(runs)
    return round(mean), statistics.stdev(runs) / len(runs) ** 0.5 / mean


def placement_json(p: DominoFit, key: tuple) -> dict:
    """A piece variable: its kind ("V" or "H") and its top or left square."""
    _, kind, at = key
    return {"piece": kind, "at": list(at)}


def placement_text(shown: dict) -> str:
    """A piece as ``placement_json`` shows it, in words: 'V at (2,4)'."""
    return f"{shown['piece']} at {cell_text(shown['at'])}"


def squares(p: DominoFit, key: tuple) -> list[Cell]:
    """The two squares a piece variable covers."""
    return list(cells_of(key[1], key[2]))


# solutions ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DominoFitSolution:
    pieces: tuple[tuple[str, Cell], ...]  # ("V", top cell) / ("H", left cell), sorted


def decode(p: DominoFit, model: Model, true_vars: frozenset[int]) -> DominoFitSolution:
    """The pieces the true placement variables of ``model`` put on the board."""
    keys = [model.key(x) for x in model.projection if x in true_vars]
    # ("piece", kind, at), or the dot-half model's ("ones", at) and ("twos", dotted right half:
    # the piece starts one square left)
    return DominoFitSolution(tuple(sorted(
        key[1:] if key[0] == "piece" else ("V", key[1]) if key[0] == "ones"
        else ("H", (key[1][0], key[1][1] - 1)) for key in keys)))


def rows(p: DominoFit, sol: DominoFitSolution) -> list[str]:
    """The solution as text rows, in the symbols of the module docstring."""
    grid = [["X" if (r, c) in p.blacks else "." for c in range(p.width)]
            for r in range(p.height)]
    for kind, at in sol.pieces:
        (r, c), (r2, c2) = cells_of(kind, at)
        grid[r][c], grid[r2][c2] = "1|" if kind == "V" else "-2"
    return ["".join(row) for row in grid]


def verify(p: DominoFit, sol: DominoFitSolution) -> list[str]:
    """Everything wrong with ``sol``: plain counting over squares, no model."""
    problems = []
    used: dict[Cell, int] = {}
    for kind, at in sol.pieces:
        if kind not in ("V", "H"):
            problems.append(f"unknown piece {kind!r}")
            continue
        for cell in cells_of(kind, at):
            if not p.free(cell):
                problems.append(f"a piece at {at} lies on a black or outside square {cell}")
            used[cell] = used.get(cell, 0) + 1
    col_dots, row_dots = _sums(p.width, p.height, [pc for pc in sol.pieces if pc[0] in ("V", "H")])
    problems += [f"square {c} is covered {k} times" for c, k in used.items() if k > 1]
    if p.cover:
        problems += [f"square {(r, c)} is not covered" for r in range(p.height)
                     for c in range(p.width) if p.free((r, c)) and (r, c) not in used]
    problems += [f"row {r} has {row_dots[r]} dots, clue {p.side[r]}"
                 for r in range(p.height) if row_dots[r] != p.side[r]]
    problems += [f"column {c} has {col_dots[c]} dots, clue {p.top[c]}"
                 for c in range(p.width) if col_dots[c] != p.top[c]]
    return problems


def solution_json(p: DominoFit, sol: DominoFitSolution) -> dict:
    """The solution as ``solve --json`` gives it: {"rows": [...]}."""
    return {"rows": rows(p, sol)}


def render_text(p: DominoFit, sol: DominoFitSolution | None) -> str:
    """The board (with ``sol`` drawn when given), its sums in the margins."""
    body = rows(p, sol or DominoFitSolution(()))
    width = max(len(str(v)) for v in p.side)
    lines = [f"column sums: {' '.join(map(str, p.top))}"]
    lines += [f"  {str(s).rjust(width)} {row}" for s, row in zip(p.side, body, strict=True)]
    return "\n".join(lines) + "\n"


def render_svg(p: DominoFit, sol: DominoFitSolution | None) -> str:
    """The puzzle as SVG: the board with its black squares, the column sums over the columns
    and the row sums beside the rows, the two pieces and the rules under it; with ``sol`` the
    answer key: the pieces laid, with their dots."""
    sheet = svg.Sheet(f"Domino Fit {p.width}x{p.height}" + (" (answer key)" if sol else ""))
    s = svg.SIZE
    x0 = svg.MARGIN + svg.text_width(str(max(p.side)), 15) + 12
    y0 = sheet.top + 26
    for c, v in enumerate(p.top):
        sheet.text(x0 + c * s + s / 2, y0 - 9, str(v), 15, font_weight="bold",
                   text_anchor="middle")
    for r, v in enumerate(p.side):
        sheet.text(x0 - 9, y0 + r * s + s / 2 + 5, str(v), 15, font_weight="bold",
                   text_anchor="end")
    pieces = sol.pieces if sol else ()
    svg.board(sheet, x0, y0, {(r, c): "" for r in range(p.height) for c in range(p.width)},
              [cells_of(*piece) for piece in pieces], dict.fromkeys(p.blacks, svg.INK))
    for (r, c), n in (dots_of(*piece) for piece in pieces):
        sheet.add(_dots(x0 + c * s + s / 2, y0 + r * s + s / 2, n, 4.5), 0, 0)
    _pieces_legend(sheet, svg.MARGIN, y0 + p.height * s + 14, p.cover)
    return sheet.svg()


def _dots(x: float, y: float, n: int, radius: float) -> list[str]:
    """One dot at (x, y), or two across the square's diagonal."""
    d = 1.6 * radius
    at = [(x, y)] if n == 1 else [(x - d, y - d), (x + d, y + d)]
    return [f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{svg.INK}"/>' for cx, cy in at]


def _pieces_legend(sheet: svg.Sheet, x: float, y: float, cover: bool) -> None:
    """The two pieces, drawn small, and the rules."""
    sheet.text(x, y + 13, "Pieces (as many as needed, never turned):", 14, font_weight="bold")
    s, top = 24, y + 24
    out = [f'<rect x="{x:g}" y="{top:g}" width="{s}" height="{2 * s}" rx="4" fill="white" '
           f'stroke="{svg.INK}" stroke-width="1.5"/>',
           f'<line x1="{x + 4:g}" y1="{top + s:g}" x2="{x + s - 4:g}" y2="{top + s:g}" '
           f'stroke="{svg.INK}"/>', *_dots(x + s / 2, top + s / 2, 1, 3.5),
           f'<rect x="{x + 2 * s:g}" y="{top + s / 2:g}" width="{2 * s}" height="{s}" rx="4" '
           f'fill="white" stroke="{svg.INK}" stroke-width="1.5"/>',
           f'<line x1="{x + 3 * s:g}" y1="{top + s / 2 + 4:g}" x2="{x + 3 * s:g}" '
           f'y2="{top + 1.5 * s - 4:g}" stroke="{svg.INK}"/>',
           *_dots(x + 3.5 * s, top + s, 2, 3.5)]
    sheet.add(out, x + 4 * s, top + 2 * s)
    svg.notes(sheet, x, top + 2 * s, [
        "The dots in each row and each column add up to its number.",
        "Black squares stay empty; " + ("every other square is covered."
                                        if cover else "pieces never overlap.")])


def planted(width: int, height: int, seed: int, blacks: float = 0.1) -> tuple[DominoFit,
                                                                          DominoFitSolution]:
    """A random board: random black squares, then pieces laid at random until none fits; the
    squares left uncovered turn black, so the puzzle is solvable with full cover."""
    rng = random.Random(seed)
    black = {(r, c) for r in range(height) for c in range(width) if rng.random() < blacks}
    used: set[Cell] = set(black)
    pieces = []
    for r in range(height):
        for c in range(width):
            if (r, c) in used:
                continue
            options = [k for k, (dr, dc) in (("V", (1, 0)), ("H", (0, 1)))
                       if r + dr < height and c + dc < width and (r + dr, c + dc) not in used]
            if options:
                kind = rng.choice(options)
                pieces.append((kind, (r, c)))
                used.update(cells_of(kind, (r, c)))
            else:  # no later square looks back at this one
                black.add((r, c))
    return (DominoFit(width, height, frozenset(black), *_sums(width, height, pieces)),
            DominoFitSolution(tuple(sorted(pieces))))


def to_json(p: DominoFit) -> dict:
    """The board as the JSON object ``from_json`` reads."""
    return {"width": p.width, "height": p.height,
            "top_numbers": list(p.top), "side_numbers": list(p.side),
            "blacks": [[c, r] for r, c in sorted(p.blacks)]}


def unique_board(width: int, height: int, seed: int, ask: Ask
                 ) -> tuple[DominoFit, DominoFitSolution, int]:
    """(a board with exactly one solution, its planted solution, repairs made). Planted, then
    repaired: while the solver finds another solution, one planted piece that the other
    solution does not have turns black (its dots leave the sums), which the other solution
    breaks and the planted one, less that piece, keeps. ``ask.readings``: ``cover``."""
    rng = random.Random(f"dominofit-unique:{width}:{height}:{seed}")
    p, sol = planted(width, height, seed)
    p = replace(p, cover=ask.readings.get("cover", p.cover))
    pieces = set(sol.pieces)
    repairs = 0
    while True:
        if ask.progress:
            ask.progress(f"repair {repairs}, {len(p.blacks)} black squares")
        other = other_solution(p, FAMILY, pieces, lambda sol: set(sol.pieces), ask.deadline,
                               f"{width}x{height} Domino Fit board")
        if other is None:
            return p, DominoFitSolution(tuple(sorted(pieces))), repairs
        kind, at = rng.choice(sorted(pieces - set(other.pieces)))
        pieces.discard((kind, at))  # the sums stay those of the planted pieces left
        p = DominoFit(width, height, p.blacks | set(cells_of(kind, at)),
                      *_sums(width, height, pieces), p.cover)
        repairs += 1


GENERATOR: Generator[DominoFit, DominoFitSolution] = Generator(
    what="a Domino Fit board (JSON)",
    params=(Param("width", "board width", 2, MAX_SIDE),
            Param("height", "board height", 2, MAX_SIDE)),
    planted=lambda params, seed: planted(params["width"], params["height"], seed),
    named=lambda params: f"{params['width']}x{params['height']} Domino Fit board",
    build=lambda params, seed, ask: Built(*unique_board(params["width"], params["height"],
                                                        seed, ask)),
    how_unique="pieces turned black until SAT proves it unique")

FAMILY: Family[DominoFit, DominoFitSolution] = Family(
    kind="dominofit", title="Domino Fit", suffixes=(".json",), sniff=sniff, parse=parse_parts,
    likeness=lambda text: key_share(text, KEYS),
    formats={"json": lambda p: json.dumps(to_json(p)) + "\n"},
    models={"counts": build_counts, "placement": build_placement, "dot-half": build_dot_half},
    decode=decode, verify=verify, solution_json=solution_json, render_text=render_text,
    render_svg=render_svg, placement_json=placement_json, placement_text=placement_text,
    squares=squares, size=("squares", lambda p: p.width * p.height),
    auto=(AutoRule(0, "counts", {}, ("cadical195",),
                   "the sums as counts, CaDiCaL alone: planted 40x40 boards 0.4-1.6 s, HiGHS "
                   "2.8-3.8 s, the sums as written none in 30 s; our local search does not help"),
          AutoRule(2000, "counts", {}, ("portfolio:cadical195+highs", "cadical195"),
                   "from 2,000 squares CaDiCaL races HiGHS's branch and bound on the same rows: "
                   "planted 60x60 boards 4.0-4.7 s, where CaDiCaL alone takes 13-49 s")),
    generator=GENERATOR, exact_count=count_placements, quick_count=quick_count,
    estimate_count=estimate_placements,
    obstacles=obstacles,
    samples=(Sample({"width": 9, "height": 9}, 1, "dot-half", {"pb": "totalizer"}),
             Sample({"width": 6, "height": 6}, 2, "placement", uniqueness=True)),
    readings=(Reading("cover", "--no-cover", False, "squares may stay empty (only overlaps "
                      "are forbidden: the published model's reading)"),))
