"""Dominosa (Simon Tatham; Helmut Simonis's "Dominoes"): a full double-N domino set hidden in a
grid of numbers with N+1 rows and N+2 columns. Find where each domino lies, each exactly once.

Formats read: Tatham game ids (``6:3120...``, numbers >= 10 as ``[12]``, one or more per file,
optionally ``name<TAB>id`` per line), a plain number grid optionally preceded by a ``rows cols``
line, and JSON objects or JSON lines with a ``problem`` (grid text) or ``game_id`` field and an
optional ``name``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass

from ...errors import PuzzleFormatError
from ...family import Parts, strict
from ...kernels.cover_count import count_exact_covers, lp_never_used
from ...model import Model
from ...render import svg, text
from ..common import attempt, domino_json, is_json, key_share, known_keys, load_json, share

Cell = tuple[int, int]
Pair = tuple[Cell, Cell]

_ID_HEAD = re.compile(r"(\d+)(?:[a-z][a-z0-9]*)?", re.ASCII)  # a game id before its colon
_TOKEN = re.compile(r"\[(\d+)\]|(\d)", re.ASCII)
_BRACKETED = re.compile(r"\[[0-9]+\]")


@dataclass(frozen=True)
class Dominosa:
    grid: tuple[tuple[int, ...], ...]

    def __post_init__(self) -> None:
        _validate(self.grid)

    @property
    def n(self) -> int:
        """The highest number: the set is double-n."""
        return len(self.grid) - 1

    @property
    def rows(self) -> int:
        """The number of rows of the grid (N + 1 for a double-N board)."""
        return len(self.grid)

    @property
    def cols(self) -> int:
        """The number of columns of the grid (N + 2 for a double-N board)."""
        return len(self.grid[0])

    def at(self, cell: Cell) -> int:
        """The number in ``cell`` (row, column)."""
        return self.grid[cell[0]][cell[1]]

    def cells(self) -> list[Cell]:
        """Every cell, row by row."""
        return [(r, c) for r in range(self.rows) for c in range(self.cols)]

    def edges(self) -> list[Pair]:
        """Adjacent cell pairs (first cell above or left of the second), row-major."""
        return grid_edges(self.rows, self.cols)

    def game_id(self) -> str:
        """The board as a Tatham game id (``N:`` and the numbers, those from 10 in brackets)."""
        numbers = (str(v) if v < 10 else f"[{v}]" for row in self.grid for v in row)
        return f"{self.n}:" + "".join(numbers)

    def grid_text(self) -> str:
        """The board as a number grid after a ``rows cols`` line."""
        width = len(str(self.n))
        lines = [f"{self.rows} {self.cols}"]
        lines += [" ".join(str(v).rjust(width) for v in row) for row in self.grid]
        return "\n".join(lines) + "\n"


def grid_edges(rows: int, cols: int) -> list[Pair]:
    """The adjacent cell pairs of a rows x cols grid: each cell with its right, then its lower
    neighbour, row-major."""
    return [((r, c), v) for r in range(rows) for c in range(cols)
            for v in ((r, c + 1), (r + 1, c)) if v[0] < rows and v[1] < cols]


def dominoes(n: int) -> list[tuple[int, int]]:
    """The double-n set, a <= b."""
    return [(a, b) for a in range(n + 1) for b in range(a, n + 1)]


def _validate(grid: tuple[tuple[int, ...], ...]) -> None:
    if not grid or not grid[0]:
        raise PuzzleFormatError("empty grid")
    rows, cols, n = len(grid), len(grid[0]), len(grid) - 1
    for r, row in enumerate(grid):
        if len(row) != cols:
            raise PuzzleFormatError(
                f"ragged grid: row {r} has {len(row)} numbers, row 0 has {cols} (rows "
                "count from 0)")
    if cols != rows + 1:
        raise PuzzleFormatError(
            f"a {rows}x{cols} grid fits no domino set: a double-N set needs N+1 rows and N+2 "
            f"columns (for {rows} rows: {rows + 1} columns)")
    for r, row in enumerate(grid):
        for c, v in enumerate(row):
            if not 0 <= v <= n:
                raise PuzzleFormatError(
                    f"number {v} at cell ({r}, {c}) is outside 0..{n} "
                    f"(a {rows}x{cols} grid holds the double-{n} set)")
    counts = Counter(v for row in grid for v in row)
    for v in range(n + 1):
        if counts[v] != n + 2:
            raise PuzzleFormatError(
                f"number {v} appears {counts[v]} times; the double-{n} set shows each number "
                f"{n + 2} times")


# parsing -----------------------------------------------------------------------------------------

MAX_N = 999  # far beyond any board a solver can take; bounds the numbers we read


def _number(token: str, line: int | None = None) -> int:
    if not re.fullmatch(r"-?\d{1,6}", token, re.ASCII):  # 0-9 only
        shown = token if len(token) <= 12 else token[:12] + "..."
        apart = " (numbers are written apart with spaces)" if "," in token else ""
        raise PuzzleFormatError((f"line {line}: " if line else "")
                                + f"{shown!r} is not a number in range{apart}")
    return int(token)


def parse_game_id(text: str) -> Dominosa:
    """A board from a Tatham game id such as ``2:221200101201``. Its numbers are counted
    before any is read (a regular expression over the whole id would backtrack, and hold a
    stack, as long as the id)."""
    stripped = text.strip()
    head, colon, body = stripped.partition(":")
    m = _ID_HEAD.fullmatch(head) if colon else None
    marked = _BRACKETED.sub("x", body)  # each number one character
    if m is None or not re.fullmatch(r"[0-9x]+", marked):
        stray = re.search(r"[^0-9\[\]]", body) if m else None
        raise PuzzleFormatError(
            f"game id: {stray.group()!r} at character {len(head) + 2 + stray.start()} is not "
            "a number" if stray else f"not a Dominosa game id: {stripped[:40]!r}")
    n = _number(m.group(1))
    if n > MAX_N:
        raise PuzzleFormatError(f"N={n} is too large (at most {MAX_N})")
    need = (n + 1) * (n + 2)
    values = [_number(a or b) for a, b in _TOKEN.findall(body)] if len(marked) <= need else []
    if len(marked) != need:
        raise PuzzleFormatError(
            f"game id for N={n} needs {need} numbers ({n + 1}x{n + 2}), it has {len(marked)}")
    return Dominosa(tuple(tuple(values[r * (n + 2):(r + 1) * (n + 2)]) for r in range(n + 1)))


def parse_grid(text: str) -> Dominosa:
    """A board from a number grid, optionally after a ``rows cols`` line. Its size is
    checked before its numbers are read: N at most MAX_N."""
    lines = [(i, line.split()) for i, line in enumerate(text.splitlines(), start=1)
             if line.strip()]
    if not lines:
        raise PuzzleFormatError("empty grid")
    widest = max(len(tokens) for _, tokens in lines)
    if len(lines) > MAX_N + 2 or widest > MAX_N + 2:
        raise PuzzleFormatError(f"a grid of {len(lines)} lines, up to {widest} numbers wide: "
                                f"larger than double-{MAX_N}, the largest board read")
    grid = [[_number(t, i) for t in tokens] for i, tokens in lines]
    if len(grid) > 1 and len(grid[0]) == 2:
        # a "rows cols" header: no grid of two or more rows has only two columns
        (h, w), grid = grid[0], grid[1:]
        if len({len(row) for row in grid}) == 1 and (len(grid), len(grid[0])) != (h, w):
            raise PuzzleFormatError(
                f"header says {h}x{w}, the grid below it is {len(grid)}x{len(grid[0])}")
    return Dominosa(tuple(tuple(row) for row in grid))


JSON_KEYS = {"problem", "game_id", "grid"}  # and the metadata (``common.METADATA``)


def _from_json(obj: object) -> Dominosa:
    if not isinstance(obj, dict):
        raise PuzzleFormatError("expected a JSON object")
    known_keys(obj, JSON_KEYS, "a Dominosa object")
    if obj.get("name") is not None and not isinstance(obj["name"], str):
        raise PuzzleFormatError("'name' must be a string")
    if isinstance(obj.get("problem"), str):
        return parse_grid(obj["problem"])
    if isinstance(obj.get("game_id"), str):
        return parse_game_id(obj["game_id"])
    grid = obj.get("grid")
    if isinstance(grid, list):
        if len(grid) > MAX_N + 1 or any(isinstance(row, list) and len(row) > MAX_N + 2
                                        for row in grid):
            raise PuzzleFormatError(f"'grid' is larger than double-{MAX_N}, the largest "
                                    "board read")
        if not all(isinstance(row, list) and all(type(v) is int for v in row) for row in grid):
            raise PuzzleFormatError("'grid' must be a list of rows of whole numbers")
        if any(abs(v) > 10**6 for row in grid for v in row):
            raise PuzzleFormatError("a number in 'grid' is out of range")
        return Dominosa(tuple(tuple(row) for row in grid))
    raise PuzzleFormatError(
        "a Dominosa object needs 'problem' (grid text), 'game_id' (text) or 'grid' (rows)")


def _is_game_id(field: str) -> bool:
    """Does ``field`` start as a game id does (``N:``, ``Ndt:``)? Only the few characters
    before the colon are matched: a regex over the whole field backtracks quadratically on a
    long run of digits."""
    head, colon, _ = field.partition(":")
    return bool(colon) and len(head) <= 24 and _ID_HEAD.fullmatch(head) is not None


def _fields(line: str) -> list[str]:
    return [f.strip() for f in line.split("\t")] if "\t" in line else line.split()


def _id_lines(text: str) -> list[tuple[str | None, str]] | None:
    """(name, game id) per line if the text is a list of game ids, else None."""
    out: list[tuple[str | None, str]] = []
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    for i, line in enumerate(lines):
        fields = _fields(line)
        ids = [f for f in fields if _is_game_id(f)]
        if not ids:
            if i == 0 and len(lines) > 1:  # a header row (as in a TSV)
                continue
            return None
        out.append((fields[0] if fields[0] != ids[0] else None, ids[0]))
    return out or None


def _attempt(make, arg: object) -> Dominosa | PuzzleFormatError:
    try:
        return make(arg)
    except PuzzleFormatError as e:
        return e
    except (ValueError, RecursionError, OverflowError) as e:  # a backstop for odd input
        return PuzzleFormatError(f"malformed input ({type(e).__name__})")


def parse_parts(text: str) -> Parts:
    """Every puzzle in ``text`` with its name, each parsed on its own: a part that is bad is
    returned as its PuzzleFormatError, so the good ones still count. A single unnamed puzzle
    has the name None; parts of a collection are named by the file or ``#k``."""
    stripped = text.strip()
    if not stripped:
        raise PuzzleFormatError("empty input")
    if stripped.startswith(("{", "[")):
        return _json_parts(stripped)
    ids = _id_lines(stripped)
    if ids is None:
        return [(None, _attempt(parse_grid, stripped))]
    return [(name or (f"#{i + 1}" if len(ids) > 1 else None), _attempt(parse_game_id, gid))
            for i, (name, gid) in enumerate(ids)]


def _json_parts(text: str) -> Parts:
    try:
        data = load_json(text)
        docs: list = data if isinstance(data, list) else [data]
    except PuzzleFormatError as whole:  # JSON lines, or broken JSON
        lines = [(i, line) for i, line in enumerate(text.splitlines(), start=1) if line.strip()]
        # not JSON lines (one of the first two may be broken): the whole text's error
        if not any(isinstance(attempt(load_json, line), dict) for _, line in lines[:2]):
            raise whole from None
        docs = [attempt(load_json, line, i) for i, line in lines]
    if not docs:
        raise PuzzleFormatError("no puzzles in this file")
    out: Parts = []
    for i, doc in enumerate(docs):
        name = doc.get("name") if isinstance(doc, dict) else None
        name = name if isinstance(name, str) else None
        part = doc if isinstance(doc, PuzzleFormatError) else _attempt(_from_json, doc)
        out.append((name if len(docs) == 1 else name or f"#{i + 1}", part))
    return out


def parse(text: str) -> list[tuple[str | None, Dominosa]]:
    """Every puzzle in ``text``; raises the first bad part's error, naming the part."""
    return strict(parse_parts(text))


def sniff(text: str) -> bool:
    """Does ``text`` look like Dominosa: JSON with problem, game_id or grid, game ids (one per
    line, maybe named), or a grid of numbers?"""
    head = text.lstrip()[:4096]
    if head.startswith(("{", "[")):
        return any(k in head for k in ('"problem"', '"game_id"', '"grid"'))
    first = next((ln for ln in head.splitlines() if ln.strip()), "")
    return any(_is_game_id(f) for f in _fields(first)) or _id_lines(head) is not None or all(
        re.fullmatch(r"[-\d\s]+", ln, re.ASCII) for ln in head.splitlines() if ln.strip())


def likeness(text: str) -> float:
    """How much a text no family sniffs looks like Dominosa: its JSON keys, else its digits
    (a grid with a letter in it, or commas between its numbers)."""
    return key_share(text, JSON_KEYS) if is_json(text) else share(text, "0123456789")


# models ------------------------------------------------------------------------------------------

def domino_of(p: Dominosa, e: Pair) -> tuple[int, int]:
    """The domino (low, high) that placement ``e`` (two adjacent cells) shows."""
    (r, c), (r2, c2) = e
    a, b = p.grid[r][c], p.grid[r2][c2]  # not p.at: this runs once per placement
    return (a, b) if a <= b else (b, a)


def place_key(p: Dominosa, e: Pair) -> tuple:
    """The name of the variable "a domino lies on the cells of e"."""
    return ("place", domino_of(p, e), e)


def build_placement(p: Dominosa) -> Model:
    """One variable per adjacent pair of cells (which domino it is follows from the numbers);
    every cell covered exactly once, every domino of the set placed exactly once."""
    # named as place_key names them, in the order of p.edges(), in one pass over flat cell
    # indices that shares the cell and domino tuples (much faster than place_key per edge)
    cells, cols = p.cells(), p.cols
    flat = [v for row in p.grid for v in row]
    domino = [[(min(a, b), max(a, b)) for b in range(p.n + 1)] for a in range(p.n + 1)]
    keys: list[tuple] = []
    by_cell: list[list[int]] = [[] for _ in cells]
    by_domino: dict[tuple[int, int], list[int]] = {d: [] for d in dominoes(p.n)}
    for i in range(len(cells)):
        for j in (i + 1, i + cols) if (i + 1) % cols else (i + cols,):  # right, lower
            if j < len(cells):
                d = domino[flat[i]][flat[j]]
                keys.append(("place", d, (cells[i], cells[j])))
                x = len(keys)  # the id this key gets in a new model
                by_cell[i].append(x)
                by_cell[j].append(x)
                by_domino[d].append(x)
    m = Model("placement")
    m.projection = list(m.new_vars(keys))
    m.exactly_ones(by_cell, labels=lambda i: f"cell {cells[i]}")
    named = list(by_domino)
    m.exactly_ones(by_domino.values(), labels=lambda k: f"domino {named[k][0]}-{named[k][1]}",
                   choice=True)  # each domino lies somewhere once
    return m


def build_pruned(p: Dominosa) -> Model:
    """``placement``, with each placement that linear programming proves lies in no solution
    (``kernels.cover_count.lp_never_used``, from 4,000 placements) set false by a unit
    clause: on planted boards about one placement per domino is left, and MiniSat answers
    without a conflict."""
    m = build_placement(p)
    m.name = "pruned"
    for k in sorted(lp_never_used(*cover_items(p))):  # placement k of edges() is variable k + 1
        m.add_clause([-(k + 1)], "in no solution (by linear programming)")
    return m


def build_counted(p: Dominosa) -> Model:
    """``placement`` plus implied counts: the number of dominoes placed (a cardinality
    constraint) and, per number v, the halves showing v (a pseudo-Boolean constraint with
    weight 2 on v-v placements): both as the solver sees them through --card and --pb."""
    m = build_placement(p)
    m.name = "counted"
    edge_vars = [(e, m.var(place_key(p, e))) for e in p.edges()]
    m.card([x for _, x in edge_vars], "==", len(dominoes(p.n)), "the number of dominoes")
    for v in range(p.n + 1):
        terms = [((p.at(e[0]) == v) + (p.at(e[1]) == v), x) for e, x in edge_vars]
        m.pb([(w, x) for w, x in terms if w], "==", p.n + 2, f"the halves showing {v}")
    return m


def placement_json(p: Dominosa, key: tuple) -> dict:
    """A placement variable as ``solve --json`` shows a domino: its pips and cells."""
    return _shown(p, *key[2])


def _shown(p: Dominosa, u: Cell, v: Cell) -> dict:
    """A domino's pips and cells, in the order of its pips."""
    if p.at(u) > p.at(v):
        u, v = v, u
    return domino_json((p.at(u), p.at(v)), u, v)


def squares(p: Dominosa, key: tuple) -> list[Cell]:
    """The two squares a placement variable covers."""
    return list(key[2])


def obstacles(p: Dominosa) -> list[str]:
    """Dominoes whose two numbers stand on no two neighbouring cells."""
    shown = {domino_of(p, e) for e in grid_edges(p.rows, p.cols)}
    return [f"domino {a}-{b}: its numbers are nowhere side by side" for a, b in dominoes(p.n)
            if (a, b) not in shown]


def cover_items(p: Dominosa) -> tuple[int, list[tuple[int, int, int]]]:
    """The board as an exact cover: the items are its cells (row-major), then the dominoes;
    each placement, in the order of ``edges()``, covers its two cells and its domino."""
    cols, first_domino = p.cols, p.rows * p.cols
    domino_id = {d: first_domino + k for k, d in enumerate(dominoes(p.n))}
    return first_domino + len(domino_id), [
        (a[0] * cols + a[1], b[0] * cols + b[1], domino_id[domino_of(p, (a, b))])
        for a, b in p.edges()]


def count_placements(p: Dominosa) -> int:
    """The exact number of solutions, without SAT: an exact cover of the cells and the
    dominoes by the adjacent pairs, counted by propagation and independent parts
    (``kernels.cover_count``): boards that do not fall apart are left to other methods."""
    return count_exact_covers(*cover_items(p))


# solutions ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class DominosaSolution:
    pairs: tuple[Pair, ...]  # sorted; each pair with its first cell above/left of the second

    def layout(self, rows: int, cols: int) -> list[str]:
        """Tatham's per-cell letters: L/R halves of a horizontal domino, T/B of a vertical one."""
        grid = [["?"] * cols for _ in range(rows)]
        for (r1, c1), (r2, c2) in self.pairs:
            grid[r1][c1], grid[r2][c2] = "LR" if r1 == r2 else "TB"
        return ["".join(row) for row in grid]


def decode(p: Dominosa, model: Model, true_vars: frozenset[int]) -> DominosaSolution:
    """The placements the true variables of ``model`` choose."""
    pairs = [model.key(x)[2] for x in model.projection if x in true_vars]
    return DominosaSolution(tuple(sorted(pairs)))


def from_layout(layout: list[str]) -> DominosaSolution:
    """A solution from Tatham's letters (used to check published answers)."""
    for r, row in enumerate(layout):
        if bad := [ch for ch in row if ch not in "LRTB"]:
            raise PuzzleFormatError(f"layout letter {bad[0]!r} in row {r} is not L, R, T or B")
    return DominosaSolution(tuple(sorted(((r, c), (r, c + 1) if ch == "L" else (r + 1, c))
                                         for r, row in enumerate(layout)
                                         for c, ch in enumerate(row) if ch in "LT")))


def verify(p: Dominosa, sol: DominosaSolution) -> list[str]:
    """Everything wrong with ``sol`` under the puzzle's rules (empty: it is a solution).
    Plain Python over cells and numbers; it knows nothing of variables or encodings."""
    problems = []
    rows, cols = p.rows, p.cols
    on_board = []
    for a, b in sol.pairs:
        if not (0 <= a[0] < rows and 0 <= a[1] < cols and 0 <= b[0] < rows and 0 <= b[1] < cols):
            problems.append(f"domino {a}-{b} lies off the board")
            continue
        if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
            problems.append(f"cells {a} and {b} are not neighbours")
        on_board.append((a, b))
    cells = [cell for pair in on_board for cell in pair]
    used = [domino_of(p, e) for e in on_board]
    # the pairs left are on the board: rows x cols distinct cells are all of its cells, and as
    # many distinct dominoes as the set holds are the whole set (numbers are 0..n)
    if len(set(cells)) == len(cells) == rows * cols and \
            len(set(used)) == len(used) == (p.n + 1) * (p.n + 2) // 2:
        return problems
    covered, placed = Counter(cells), Counter(used)  # what is wrong, cell by cell, domino by domino
    problems += [f"cell {cell} is covered {covered[cell]} times" for cell in p.cells()
                 if covered[cell] != 1]
    return problems + [f"domino {a}-{b} is placed {placed[a, b]} times"
                       for a, b in dominoes(p.n) if placed[a, b] != 1]


def solution_json(p: Dominosa, sol: DominosaSolution) -> dict:
    """The solution as ``solve --json`` gives it: Tatham's per-cell letters and each domino with its
    cells, in the order of its pips."""
    items = sorted((_shown(p, a, b) for a, b in sol.pairs), key=lambda d: (d["pips"], d["cells"]))
    return {"layout": sol.layout(p.rows, p.cols), "dominoes": items}


def labels(p: Dominosa) -> dict[Cell, str]:
    """Each cell's number as text."""
    return {cell: str(p.at(cell)) for cell in p.cells()}


def render_text(p: Dominosa, sol: DominosaSolution | None) -> str:
    """The board with domino outlines, Tatham's letters and the list of dominoes."""
    parts = [text.draw_board(labels(p), sol.pairs if sol else ())]
    if sol:
        data = solution_json(p, sol)
        parts.append("layout:\n" + "\n".join(f"  {row}" for row in data["layout"]) + "\n")
        items = [f"{a}-{b} ({c1[0]},{c1[1]})({c2[0]},{c2[1]})" for (a, b), (c1, c2) in
                 ((d["pips"], d["cells"]) for d in data["dominoes"])]
        lines = ["  " + "   ".join(f"{s:<16}" for s in items[i:i + 4]).rstrip()
                 for i in range(0, len(items), 4)]
        parts.append("dominoes (pips: cells):\n" + "\n".join(lines) + "\n")
    return "\n".join(parts)


def render_svg(p: Dominosa, sol: DominosaSolution | None) -> str:
    """The puzzle as SVG: the grid of numbers and the rule; with ``sol`` the answer key:
    its dominoes outlined."""
    sheet = svg.Sheet(f"Dominosa double-{p.n}" + (" (answer key)" if sol else ""))
    svg.board(sheet, svg.MARGIN, sheet.top, labels(p), sol.pairs if sol else ())
    svg.notes(sheet, svg.MARGIN, sheet.bottom + 4, [
        f"Cut the grid into the {len(dominoes(p.n))} dominoes 0-0 to {p.n}-{p.n}, each once."])
    return sheet.svg()


# generation --------------------------------------------------------------------------------------

def random_tiling(rows: int, cols: int, rng: random.Random, sweeps: int = 20) -> list[Pair]:
    """A random domino tiling: start from all-horizontal (or, with an odd number of columns,
    all-vertical) dominoes and rotate random 2x2 blocks holding two parallel dominoes,
    ``sweeps`` x cells times."""
    if rows * cols % 2:
        raise ValueError("an odd number of cells has no domino tiling")
    # x ^ 1 pairs 2k with 2k + 1: all horizontal, or (an odd number of columns) all vertical
    partner = {(r, c): (r, c ^ 1) if cols % 2 == 0 else (r ^ 1, c)
               for r in range(rows) for c in range(cols)}
    for _ in range(sweeps * rows * cols if rows > 1 and cols > 1 else 0):  # else no 2x2 block
        r, c = rng.randrange(rows - 1), rng.randrange(cols - 1)
        a, b, d, e = (r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)
        if partner[a] == b and partner[d] == e:  # two horizontals -> two verticals
            partner[a], partner[d], partner[b], partner[e] = d, a, e, b
        elif partner[a] == d and partner[b] == e:  # two verticals -> two horizontals
            partner[a], partner[b], partner[d], partner[e] = b, a, e, d
    return sorted({tuple(sorted((x, y))) for x, y in partner.items()})  # type: ignore[misc]


def planted(n: int, seed: int) -> tuple[Dominosa, DominosaSolution]:
    """A random board with a known solution: random tiling, random domino on each tile, random
    orientation. Satisfiable by construction; usually not unique for larger n."""
    if n < 0:
        raise PuzzleFormatError("N must be at least 0")
    rng = random.Random(seed)
    tiles = random_tiling(n + 1, n + 2, rng)
    dset = dominoes(n)
    rng.shuffle(dset)
    grid = [[0] * (n + 2) for _ in range(n + 1)]
    for (a, b), (x, y) in zip(tiles, dset, strict=True):
        grid[a[0]][a[1]], grid[b[0]][b[1]] = (y, x) if rng.random() < 0.5 else (x, y)
    return Dominosa(tuple(map(tuple, grid))), DominosaSolution(tuple(sorted(tiles)))
