"""SVG drawings: the board's cells with their labels, dominoes as rounded outlines."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

Cell = tuple[int, int]
SIZE = 40
MARGIN = 20


def draw_board(labels: dict[Cell, str], pairs: Iterable[tuple[Cell, Cell]] = (),
               title: str = "") -> str:
    rows = 1 + max(r for r, _ in labels)
    cols = 1 + max(c for _, c in labels)
    top = MARGIN + (24 if title else 0)
    w, h = 2 * MARGIN + cols * SIZE, top + MARGIN + rows * SIZE
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" font-family="sans-serif">',
           f'<rect width="{w}" height="{h}" fill="white"/>']
    if title:
        out.append(f'<text x="{MARGIN}" y="{MARGIN + 8}" font-size="16">{escape(title)}</text>')
    for (r, c) in labels:
        out.append(f'<rect x="{MARGIN + c * SIZE}" y="{top + r * SIZE}" width="{SIZE}" '
                   f'height="{SIZE}" fill="#f4f1ea" stroke="#c9c2b3" stroke-width="1"/>')
    for a, b in pairs:
        r0, c0 = min(a[0], b[0]), min(a[1], b[1])
        dr, dc = abs(a[0] - b[0]), abs(a[1] - b[1])
        x, y = MARGIN + c0 * SIZE + 3, top + r0 * SIZE + 3
        out.append(f'<rect x="{x}" y="{y}" width="{(dc + 1) * SIZE - 6}" '
                   f'height="{(dr + 1) * SIZE - 6}" rx="7" fill="#fffdf8" stroke="#222" '
                   f'stroke-width="2.5"/>')
        # the dividing line between the two halves
        if dc:
            lx = MARGIN + (c0 + 1) * SIZE
            out.append(f'<line x1="{lx}" y1="{y + 6}" x2="{lx}" y2="{y + SIZE - 12}" '
                       f'stroke="#999" stroke-width="1"/>')
        else:
            ly = top + (r0 + 1) * SIZE
            out.append(f'<line x1="{x + 6}" y1="{ly}" x2="{x + SIZE - 12}" y2="{ly}" '
                       f'stroke="#999" stroke-width="1"/>')
    for (r, c), label in labels.items():
        out.append(f'<text x="{MARGIN + c * SIZE + SIZE / 2}" y="{top + r * SIZE + SIZE / 2 + 6}" '
                   f'font-size="17" text-anchor="middle">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
