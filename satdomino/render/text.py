"""Box drawings of domino layouts on any set of grid cells, in plain ASCII."""

from __future__ import annotations

from collections.abc import Iterable

Cell = tuple[int, int]


def draw_board(labels: dict[Cell, str], pairs: Iterable[tuple[Cell, Cell]] = ()) -> str:
    """Cells with their labels; walls everywhere except between the two halves of a domino.

    Works for any set of cells (holes are left blank), so irregular boards draw too.
    """
    partner: dict[Cell, Cell] = {}
    for a, b in pairs:
        partner[a], partner[b] = b, a
    rows = 1 + max(r for r, _ in labels)
    cols = 1 + max(c for _, c in labels)
    width = max(len(s) for s in labels.values()) + 2

    def wall(a: Cell, b: Cell) -> bool:
        ina, inb = a in labels, b in labels
        return (ina or inb) and not (ina and inb and partner.get(a) == b)

    out = []
    for r in range(rows + 1):
        line = []
        for c in range(cols + 1):
            up = wall((r - 1, c - 1), (r - 1, c))
            down = wall((r, c - 1), (r, c))
            left = wall((r - 1, c - 1), (r, c - 1))
            right = wall((r - 1, c), (r, c))
            line.append("+" if up or down or left or right else " ")
            if c < cols:
                line.append(("-" if right else " ") * width)
        out.append("".join(line).rstrip())
        if r == rows:
            break
        line = []
        for c in range(cols + 1):
            line.append("|" if wall((r, c - 1), (r, c)) else " ")
            if c < cols:
                line.append(labels.get((r, c), "").center(width))
        out.append("".join(line).rstrip())
    return "\n".join(out) + "\n"


def dominosa_text(p, sol) -> str:
    from ..puzzles.dominosa import labels, solution_json

    parts = [draw_board(labels(p), sol.pairs if sol else ())]
    if sol:
        data = solution_json(p, sol)
        parts.append("layout:\n" + "\n".join(f"  {row}" for row in data["layout"]) + "\n")
        items = [f"{a}-{b} ({c1[0]},{c1[1]})({c2[0]},{c2[1]})" for (a, b), (c1, c2) in
                 ((d["pips"], d["cells"]) for d in data["dominoes"])]
        per_line = 4
        lines = ["  " + "   ".join(f"{s:<16}" for s in items[i:i + per_line]).rstrip()
                 for i in range(0, len(items), per_line)]
        parts.append("dominoes (pips: cells):\n" + "\n".join(lines) + "\n")
    return "\n".join(parts)
