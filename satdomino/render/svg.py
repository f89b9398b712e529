"""SVG drawings: the board's cells with their labels, dominoes as rounded outlines."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from xml.sax.saxutils import escape

Cell = tuple[int, int]
SIZE = 40
MARGIN = 20


def _start(w: str, h: str, title: str, view: str = "") -> list[str]:
    """The opening of a drawing: its size, a white ground, the title."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'{view}font-family="sans-serif">', f'<rect width="{w}" height="{h}" fill="white"/>']
    if title:
        out.append(f'<text x="{MARGIN}" y="{MARGIN + 8}" font-size="16">{escape(title)}</text>')
    return out


def draw_board(labels: Mapping[Cell, str], pairs: Iterable[tuple[Cell, Cell]] = (),
               title: str = "", fills: Mapping[Cell, str] | None = None,
               tags: Mapping[Cell, str] | None = None, groups: Mapping[Cell, object] | None = None
               ) -> str:
    """Cells with labels; ``fills`` colours cells (regions), ``tags`` writes a small note in a
    cell's corner (a region's rule), ``pairs`` draws dominoes as rounded outlines, ``groups``
    draws thick walls between cells of different groups (polyomino blocks)."""
    rows = 1 + max(r for r, _ in labels)
    cols = 1 + max(c for _, c in labels)
    top = MARGIN + (24 if title else 0)
    # as wide as the title too (about 9 px a character at 16 px): a narrow board cut it short
    w, h = 2 * MARGIN + max(cols * SIZE, 9 * len(title)), top + MARGIN + rows * SIZE
    out = _start(str(w), str(h), title, f'viewBox="0 0 {w} {h}" ')
    out += [f'<rect x="{MARGIN + c * SIZE}" y="{top + r * SIZE}" width="{SIZE}" height="{SIZE}" '
            f'fill="{(fills or {}).get((r, c), "#f4f1ea")}" stroke="#c9c2b3" stroke-width="1"/>'
            for r, c in labels]
    for a, b in pairs:
        r0, c0 = min(a[0], b[0]), min(a[1], b[1])
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        x, y = MARGIN + c0 * SIZE + 3, top + r0 * SIZE + 3
        out.append(f'<rect x="{x}" y="{y}" width="{(dc + 1) * SIZE - 6}" '
                   f'height="{(dr + 1) * SIZE - 6}" rx="7" fill="#fffdf8" fill-opacity="0.55" '
                   f'stroke="#222" stroke-width="2.5"/>')
        # the dividing line between the two halves, on the edge between their cells
        mx, my = x - 3 + SIZE, y - 3 + SIZE
        x1, y1, x2, y2 = (mx, y + 6, mx, y + SIZE - 12) if dc else (x + 6, my, x + SIZE - 12, my)
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#999" '
                   'stroke-width="1"/>')
    out += [f'<text x="{MARGIN + c * SIZE + SIZE / 2}" y="{top + r * SIZE + SIZE / 2 + 6}" '
            f'font-size="17" text-anchor="middle">{escape(label)}</text>'
            for (r, c), label in labels.items()]
    walled = groups or {}
    for (r, c), g in walled.items():  # a wall on each side facing another group
        x, y = MARGIN + c * SIZE, top + r * SIZE
        for (dr, dc), (x1, y1, x2, y2) in (((0, 1), (x + SIZE, y, x + SIZE, y + SIZE)),
                                          ((1, 0), (x, y + SIZE, x + SIZE, y + SIZE)),
                                          ((0, -1), (x, y, x, y + SIZE)),
                                          ((-1, 0), (x, y, x + SIZE, y))):
            if walled.get((r + dr, c + dc)) != g:
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#222" '
                           f'stroke-width="3" stroke-linecap="round"/>')
    out += [f'<text x="{MARGIN + c * SIZE + 4}" y="{top + r * SIZE + 11}" font-size="10" '
            f'fill="#553">{escape(tag)}</text>' for (r, c), tag in (tags or {}).items()]
    return "\n".join([*out, "</svg>\n"])


PALETTE = ("#f6c8c8", "#c8e0f6", "#d2f0c8", "#f6e6b4", "#e0ccf0", "#c8f0e8", "#f0d2b4",
           "#dcdcdc", "#f0c8e6", "#e6f0b4")


def draw_graph(labels: dict, pairs: Iterable[tuple] = (), edges: Iterable[tuple] = (),
               title: str = "", fills: dict | None = None, tags: dict | None = None) -> str:
    """Any graph: nodes on a circle, links as thin lines, dominoes as thick ones."""
    nodes = sorted(labels)
    radius = max(80, 22 * len(nodes) / math.pi)
    cx = cy = MARGIN + radius + 34
    top = 24 if title else 0
    pos = {u: (cx + radius * math.cos(2 * math.pi * i / len(nodes)),
               top + cy + radius * math.sin(2 * math.pi * i / len(nodes)))
           for i, u in enumerate(nodes)}
    size = 2 * cx
    out = _start(f"{size:.0f}", f"{size + top:.0f}", title)
    for links, style in ((edges, 'stroke="#bbb" stroke-width="1"'),  # dominoes over links
                         (pairs, 'stroke="#222" stroke-width="7" stroke-linecap="round"')):
        for u, v in links:
            (x1, y1), (x2, y2) = pos[u], pos[v]
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" {style}/>')
    for u in nodes:
        x, y = pos[u]
        fill = (fills or {}).get(u, "#f4f1ea")
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="15" fill="{fill}" stroke="#555"/>')
        out.append(f'<text x="{x:.1f}" y="{y + 5:.1f}" font-size="13" '
                   f'text-anchor="middle">{escape(labels[u])}</text>')
        # the node's name just outside the circle, away from the centre
        nx, ny = x + (x - cx) * 28 / radius, y + (y - top - cy) * 28 / radius
        name = str(u) + (f" {tags[u]}" if tags and u in tags else "")
        out.append(f'<text x="{nx:.1f}" y="{ny + 4:.1f}" font-size="11" fill="#666" '
                   f'text-anchor="middle">{escape(name)}</text>')
    return "\n".join([*out, "</svg>\n"])
