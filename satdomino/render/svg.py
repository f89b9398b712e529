"""SVG drawings: the board's cells with their labels, dominoes as rounded outlines, and the
pieces around a board that make a printed puzzle complete (a tray of dominoes, polyomino
blocks, clue badges, notes). A drawing is built on a ``Sheet`` that grows to fit what is put
on it; each board sits in a ``<g class="board">`` group, so marks can be laid over it later
(``overlay``: the steps of ``explain``)."""

from __future__ import annotations

import colorsys
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from html import escape as _escape

Cell = tuple[int, int]
SIZE = 40
MARGIN = 20
INK = "#222"
PAPER = "#f4f1ea"  # an empty cell
GRID = "#c9c2b3"
CHAR_W = 0.6  # a character's width in sans-serif, as a share of the font size (estimates)


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities: xml.sax.saxutils's escape, whose module imports
    urllib and ssl at every start."""
    return _escape(text, quote=False)


class Sheet:
    """A drawing being built: its elements, and the box they need (grown as they come)."""

    def __init__(self, title: str = "") -> None:
        self.title = title
        self.parts: list[str] = []
        # as wide as the title (about 9 px a character at 16 px): a narrow board cut it short
        self.right: float = MARGIN + 9 * len(title)
        self.bottom: float = MARGIN + (24 if title else 0)
        self.top = self.bottom  # where the content starts, under the title

    def add(self, parts: Iterable[str], right: float, bottom: float) -> None:
        """Elements that reach as far as ``right`` and ``bottom``."""
        self.parts += parts
        self.right, self.bottom = max(self.right, right), max(self.bottom, bottom)

    def text(self, x: float, y: float, words: str, size: int = 13, **style: str) -> None:
        """A line of text, its baseline at ``y``; ``style`` as SVG attributes (fill=...)."""
        extra = "".join(f' {k.replace("_", "-")}="{v}"' for k, v in style.items())
        self.add([f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}"{extra}>'
                  f'{escape(words)}</text>'], x + text_width(words, size), y + size / 3)

    def svg(self) -> str:
        """The finished drawing."""
        w, h = f"{self.right + MARGIN:.0f}", f"{self.bottom + MARGIN:.0f}"
        out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
               f'viewBox="0 0 {w} {h}" font-family="sans-serif">',
               f'<rect width="{w}" height="{h}" fill="white"/>']
        if self.title:
            out.append(f'<text x="{MARGIN}" y="{MARGIN + 8}" font-size="16">'
                       f'{escape(self.title)}</text>')
        return "\n".join([*out, *self.parts, "</svg>\n"])


def text_width(words: str, size: float) -> float:
    """About how wide ``words`` are at ``size`` px."""
    return CHAR_W * size * len(words)


def extent(cells: Iterable[Cell]) -> tuple[int, int]:
    """Rows and columns a set of cells spans from row and column 0."""
    cells = list(cells)
    return 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)


def board(sheet: Sheet, x: float, y: float, labels: Mapping[Cell, str],
          pairs: Iterable[tuple[Cell, Cell]] = (), fills: Mapping[Cell, str] | None = None,
          groups: Mapping[Cell, object] | None = None, size: float = SIZE) -> None:
    """A board at (x, y): cells (``fills`` colours some), ``pairs`` as domino outlines, the
    labels, and thick walls between cells of different ``groups`` (None: no group, no wall
    between two such cells; the board's edge is always walled when ``groups`` is given)."""
    s = size
    out = [f'<g class="board" transform="translate({x:g} {y:g})">']
    out += [f'<rect x="{c * s:g}" y="{r * s:g}" width="{s:g}" height="{s:g}" '
            f'fill="{(fills or {}).get((r, c), PAPER)}" stroke="{GRID}" stroke-width="1"/>'
            for r, c in labels]
    out += outlines(pairs, s)
    out += [f'<text x="{c * s + s / 2:g}" y="{r * s + s / 2 + 6 * s / SIZE:g}" '
            f'font-size="{17 * s / SIZE:g}" text-anchor="middle">{escape(label)}</text>'
            for (r, c), label in labels.items() if label]
    if groups is not None:
        out += walls(groups, s)
    rows, cols = extent(labels)
    sheet.add([*out, "</g>"], x + cols * s, y + rows * s)


def outlines(pairs: Iterable[tuple[Cell, Cell]], s: float = SIZE, stroke: str = INK,
             fill: str = 'fill="#fffdf8" fill-opacity="0.3"') -> list[str]:
    """Dominoes as rounded outlines over their two cells, a thin line between the halves."""
    out = []
    for a, b in pairs:
        r0, c0 = min(a[0], b[0]), min(a[1], b[1])
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        x, y = c0 * s + 3, r0 * s + 3
        out.append(f'<rect x="{x:g}" y="{y:g}" width="{(dc + 1) * s - 6:g}" '
                   f'height="{(dr + 1) * s - 6:g}" rx="7" {fill} stroke="{stroke}" '
                   f'stroke-width="2.5"/>')
        # the dividing line between the two halves, on the edge between their cells
        mx, my = x - 3 + s, y - 3 + s
        x1, y1, x2, y2 = (mx, y + 6, mx, y + s - 12) if dc else (x + 6, my, x + s - 12, my)
        out.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="#999" '
                   'stroke-width="1"/>')
    return out


_SIDES = (((0, 1), (1, 0, 1, 1)), ((1, 0), (0, 1, 1, 1)), ((0, -1), (0, 0, 0, 1)),
          ((-1, 0), (0, 0, 1, 0)))  # (step to the neighbour, the shared edge in cell units)
OUTSIDE = object()  # the group of what is off the board


def walls(groups: Mapping[Cell, object], s: float = SIZE, stroke: str = INK,
          width: float = 3) -> list[str]:
    """A thick line on each cell side facing another group or the board's edge; two cells of
    no group (None) share no wall."""
    out = []
    for (r, c), g in groups.items():
        for (dr, dc), (x1, y1, x2, y2) in _SIDES:
            other = groups.get((r + dr, c + dc), OUTSIDE)
            if other != g and not (other is None and g is None):
                out.append(f'<line x1="{(c + x1) * s:g}" y1="{(r + y1) * s:g}" '
                           f'x2="{(c + x2) * s:g}" y2="{(r + y2) * s:g}" stroke="{stroke}" '
                           f'stroke-width="{width:g}" stroke-linecap="round"/>')
    return out


def draw_board(labels: Mapping[Cell, str], pairs: Iterable[tuple[Cell, Cell]] = (),
               title: str = "", fills: Mapping[Cell, str] | None = None,
               groups: Mapping[Cell, object] | None = None) -> str:
    """A whole drawing of one board (``board``) under its title."""
    sheet = Sheet(title)
    board(sheet, MARGIN, sheet.top, labels, pairs, fills, groups)
    return sheet.svg()


# colours -----------------------------------------------------------------------------------------

PALETTE = ("#f6c8c8", "#c8e0f6", "#d2f0c8", "#f6e6b4", "#e0ccf0", "#c8f0e8", "#f0d2b4",
           "#dcdcdc", "#f0c8e6", "#e6f0b4")


def colour(i: int) -> str:
    """The i-th light fill: the palette, then more hues spread around the circle."""
    if i < len(PALETTE):
        return PALETTE[i]
    r, g, b = colorsys.hls_to_rgb((i * 0.618034) % 1, 0.85, 0.55)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def dark(fill: str) -> str:
    """A dark shade of a light fill, for white writing on it."""
    h, _, s = colorsys.rgb_to_hls(*(int(fill[k:k + 2], 16) / 255 for k in (1, 3, 5)))
    r, g, b = colorsys.hls_to_rgb(h, 0.3, min(1.0, s * 0.8))
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def colouring(touching: Mapping[int, set[int]]) -> dict[int, int]:
    """A colour number for each item so that touching items differ: greedy, in smallest-last
    order (at most six colours on a map of regions), each item taking the least used colour
    its neighbours leave free (so the colours spread over the palette)."""
    left = {k: set(v) for k, v in touching.items()}
    order = []
    while left:  # smallest-last: repeatedly take out an item of fewest neighbours left
        k = min(left, key=lambda k: (len(left[k]), k))
        order.append(k)
        for j in left.pop(k):
            left[j].discard(k)
    out: dict[int, int] = {}
    used: dict[int, int] = {}
    for k in reversed(order):
        taken = {out[j] for j in touching[k] if j in out}
        free = min((c for c in range(max(len(PALETTE), len(taken) + 1)) if c not in taken),
                   key=lambda c: (used.get(c, 0), c))
        out[k] = free
        used[free] = used.get(free, 0) + 1
    return out


def touching_groups(owner: Mapping[Cell, int]) -> dict[int, set[int]]:
    """Which groups of cells (``owner``: cell -> group) share an edge."""
    out: dict[int, set[int]] = {g: set() for g in owner.values()}
    for (r, c), g in owner.items():
        for other in (owner.get((r + 1, c)), owner.get((r, c + 1))):
            if other is not None and other != g:
                out[g].add(other)
                out[other].add(g)
    return out


# pieces around a board ---------------------------------------------------------------------------

def badge(x: float, y: float, words: str, fill: str, size: int = 13) -> list[str]:
    """A clue in a rounded label centred on (x, y): white bold writing on ``fill``, a white
    rim so it stands out on any cell or outline."""
    w, h = badge_width(words, size), size + 7
    return [f'<rect class="badge" x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" '
            f'height="{h}" rx="{h / 2 - 2:g}" fill="{fill}" stroke="white" stroke-width="1.5"/>',
            f'<text x="{x:.1f}" y="{y + size * 0.36:.1f}" font-size="{size}" font-weight="bold" '
            f'fill="white" text-anchor="middle">{escape(words)}</text>']


def badge_width(words: str, size: int = 13) -> float:
    """How wide ``badge`` draws ``words`` (bold writing is wider)."""
    return 1.12 * text_width(words, size) + 10


def flow(sizes: Sequence[tuple[float, float]], width: float, gap: float = 10
         ) -> tuple[list[tuple[float, float]], float, float]:
    """Items of these sizes laid in rows no wider than ``width`` (one at least per row): each
    item's offset, and the width and height they take."""
    at, x, y, row_h, widest = [], 0.0, 0.0, 0.0, 0.0
    for w, h in sizes:
        if x and x + w > width:
            x, y, row_h = 0.0, y + row_h + gap, 0.0
        at.append((x, y))
        widest, row_h, x = max(widest, x + w), max(row_h, h), x + w + gap
    return at, widest, y + row_h


def domino_tray(sheet: Sheet, x: float, y: float, width: float,
                dominoes: Sequence[tuple[int, int]], heading: str) -> float:
    """The dominoes to place, small and side by side in rows under ``heading``; the bottom."""
    half = 26
    sheet.text(x, y + 13, heading, 14, font_weight="bold")
    at, _, height = flow([(2 * half, half)] * len(dominoes), max(width, 6 * (2 * half + 10)))
    out = []
    for (a, b), (dx, dy) in zip(dominoes, at, strict=True):
        px, py = x + dx, y + 22 + dy
        out.append(f'<g class="tray-domino"><rect x="{px:g}" y="{py:g}" width="{2 * half}" '
                   f'height="{half}" rx="5" fill="white" stroke="{INK}" stroke-width="1.5"/>'
                   f'<line x1="{px + half:g}" y1="{py + 4:g}" x2="{px + half:g}" '
                   f'y2="{py + half - 4:g}" stroke="{INK}" stroke-width="1"/>')
        out += [f'<text x="{px + half * (k + 0.5):g}" y="{py + half / 2 + 5:g}" '
                f'font-size="15" text-anchor="middle">{v}</text>' for k, v in enumerate((a, b))]
        out.append("</g>")
    sheet.add(out, x + max([dx for dx, _ in at] + [0]) + 2 * half, y + 22 + height)
    return y + 22 + height


def block_tray(sheet: Sheet, x: float, y: float, width: float, blocks: Sequence[Sequence[Cell]],
               names: Sequence[str], fills: Sequence[str], heading: str) -> float:
    """Polyomino blocks drawn small in rows under ``heading``, each with its name in its first
    cell; the bottom."""
    s = SIZE / 2
    sheet.text(x, y + 13, heading, 14, font_weight="bold")
    sizes = [(extent(b)[1] * s, extent(b)[0] * s) for b in blocks]
    at, _, height = flow(sizes, max(width, 18 * s), gap=s)
    for i, (cells, (dx, dy)) in enumerate(zip(blocks, at, strict=True)):
        px, py = x + dx, y + 22 + dy
        out = [f'<g class="block" data-block="{escape(names[i])}" '
               f'transform="translate({px:g} {py:g})">']
        out += [f'<rect x="{c * s:g}" y="{r * s:g}" width="{s:g}" height="{s:g}" '
                f'fill="{fills[i]}" stroke="{GRID}" stroke-width="0.8"/>' for r, c in cells]
        out += walls(dict.fromkeys(cells, 0), s, width=2)
        r, c = min(cells)
        out.append(f'<text x="{c * s + s / 2:g}" y="{r * s + s / 2 + 5:g}" font-size="13" '
                   f'font-weight="bold" text-anchor="middle">{escape(names[i])}</text></g>')
        sheet.add(out, px + sizes[i][0], py + sizes[i][1])
    return y + 22 + height


def notes(sheet: Sheet, x: float, y: float, lines: Iterable[str]) -> float:
    """Lines of small print (the rules); the bottom."""
    for line in lines:
        y += 17
        sheet.text(x, y, line, 13, fill="#333")
    return y + 4


# graphs ------------------------------------------------------------------------------------------

def graph(sheet: Sheet, x: float, y: float, labels: Mapping, pairs: Iterable[tuple] = (),
          edges: Iterable[tuple] = (), fills: Mapping | None = None,
          names: Mapping | None = None) -> float:
    """Any graph with its top-left at (x, y): nodes on a circle, links as thin lines,
    dominoes as thick ones, each node's name (``names``, else itself) outside its circle;
    the bottom."""
    nodes = sorted(labels, key=str)
    radius = max(80, 22 * len(nodes) / math.pi)
    cx, cy = x + radius + 54, y + radius + 34
    pos = {u: (cx + radius * math.cos(2 * math.pi * i / len(nodes)),
               cy + radius * math.sin(2 * math.pi * i / len(nodes)))
           for i, u in enumerate(nodes)}
    out = []
    for links, style in ((edges, 'stroke="#bbb" stroke-width="1"'),  # dominoes over links
                         (pairs, f'stroke="{INK}" stroke-width="7" stroke-linecap="round"')):
        for u, v in links:
            (x1, y1), (x2, y2) = pos[u], pos[v]
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}/>')
    for u in nodes:
        px, py = pos[u]
        out.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="15" '
                   f'fill="{(fills or {}).get(u, PAPER)}" stroke="#555"/>')
        out.append(f'<text x="{px:.1f}" y="{py + 5:.1f}" font-size="13" '
                   f'text-anchor="middle">{escape(labels[u])}</text>')
        # the node's name just outside the circle, away from the centre
        nx, ny = px + (px - cx) * 30 / radius, py + (py - cy) * 30 / radius
        out.append(f'<text x="{nx:.1f}" y="{ny + 4:.1f}" font-size="11" fill="#555" '
                   f'text-anchor="middle">{escape((names or {}).get(u, str(u)))}</text>')
    sheet.add(out, cx + radius + 54, cy + radius + 34)
    return cy + radius + 34


# marks over a finished drawing -------------------------------------------------------------------

# a step's badge by its level (1 to 7: ``analysis/explain.py``'s LEVELS), easy to hard
STEP_COLOURS = ("#2e7d32", "#1565c0", "#6a1b9a", "#c25e00", "#ad1457", "#8d5524", "#b71c1c")


def step_marks(pieces: Iterable[tuple[Sequence[Cell], int, int]]) -> list[str]:
    """A badge with the step number on each (cells, number, level) piece, in the level's
    colour: a domino's on the line between its halves (clear of both labels), a larger
    piece's in its first cell's corner."""
    out = []
    for cells, number, level in pieces:
        if len(cells) == 2:
            (r1, c1), (r2, c2) = cells
            x, y = ((c1 + c2) / 2 + 0.5) * SIZE, ((r1 + r2) / 2 + 0.5) * SIZE
        else:
            r, c = min(cells)
            x, y = c * SIZE + 9, r * SIZE + 9
        ink, w = STEP_COLOURS[level - 1], max(18, text_width(str(number), 11) * 1.15 + 8)
        # white with a coloured rim: apart from the clue badges, which are filled
        out += [f'<rect class="step" x="{x - w / 2:.1f}" y="{y - 9:.1f}" width="{w:.1f}" '
                f'height="18" rx="9" fill="white" stroke="{ink}" stroke-width="2.5"/>',
                f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="11" font-weight="bold" '
                f'fill="{ink}" text-anchor="middle">{number}</text>']
    return out


_BOARD = re.compile(r'<g class="board" transform="translate\(([-0-9.e]+) ([-0-9.e]+)\)">')
_TITLE = re.compile(f'<text x="{MARGIN}" y="{MARGIN + 8}" font-size="16">[^<]*</text>\n')
_ROOT = re.compile(r'<svg [^>]*>\n<rect width="[0-9.]+" height="[0-9.]+" fill="white"/>')


def overlay(drawing: str, title: str, marks: list[str], legend: list[tuple[str, str]],
            heading: str) -> str:
    """``drawing`` (made here) under a new ``title``, with ``marks`` laid over its first
    board, in the board's cell coordinates (``SIZE`` a cell), and a legend under it:
    ``heading``, then each (colour, words) as a dot and its words."""
    found, root = _BOARD.search(drawing), _ROOT.search(drawing)
    if found is None or root is None:
        raise ValueError("no board to mark in this drawing")
    w, h = (float(v) for v in re.findall(r'(?:width|height)="([0-9.]+)"', root.group(0))[:2])
    drawing = _TITLE.sub("", drawing, count=1)
    sheet = Sheet(title)
    sheet.right, sheet.bottom = max(sheet.right, w - MARGIN), h - MARGIN
    sheet.add([f'<g class="marks" transform="translate({found.group(1)} {found.group(2)})">',
               *marks, "</g>"], 0, 0)
    x, y = float(MARGIN), h - 4
    sheet.text(x, y + 13, heading, 13, font_weight="bold")
    x += text_width(heading, 13) + 14
    for fill, words in legend:
        sheet.add([f'<circle cx="{x + 7:g}" cy="{y + 9:g}" r="7" fill="{fill}"/>'], x, y + 16)
        sheet.text(x + 18, y + 13, words, 13)
        x += 18 + text_width(words, 13) + 14
    body = drawing[root.end():drawing.rindex("</svg>")].strip("\n")
    root_line, ground, rest = sheet.svg().split("\n", 2)
    return "\n".join([root_line, ground, body, rest])
