"""Box drawings of domino layouts on any set of grid cells, in plain ASCII."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

Cell = tuple[int, int]


def counted(n: int, noun: str) -> str:
    """``n`` and the noun, plural unless ``n`` is 1: "1 step", "3 steps"."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def draw_board(labels: dict[Cell, str], pairs: Iterable[tuple[Cell, Cell]] = ()) -> str:
    """Cells with their labels; walls everywhere except between the two halves of a domino.
    Any set of cells draws (holes are left blank), irregular boards too."""
    return draw_groups(labels, {u: (a, b) for a, b in pairs for u in (a, b)})


def draw_groups(labels: Mapping[Cell, str], groups: Mapping[Cell, object]) -> str:
    """Cells with their labels; walls between cells of different groups (dominoes, regions)."""
    rows = 1 + max(r for r, _ in labels)
    cols = 1 + max(c for _, c in labels)
    width = max(len(s) for s in labels.values()) + 2

    def wall(a: Cell, b: Cell) -> bool:
        ina, inb = a in labels, b in labels
        same = ina and inb and a in groups and groups.get(a) == groups.get(b)
        return (ina or inb) and not same

    # each line a corner or wall, then what lies right of it: past the last column that is
    # blank, and stripped
    out = []
    for r in range(rows + 1):
        line = []
        for c in range(cols + 1):
            right = wall((r - 1, c), (r, c))  # a wall meets the corner: right, up, down, left
            line.append("+" if right or wall((r - 1, c - 1), (r - 1, c)) or wall((r, c - 1), (r, c))
                        or wall((r - 1, c - 1), (r, c - 1)) else " ")
            line.append(("-" if right else " ") * width)
        out.append("".join(line).rstrip())
        if r < rows:
            out.append("".join(("|" if wall((r, c - 1), (r, c)) else " ")
                               + labels.get((r, c), "").center(width)
                               for c in range(cols + 1)).rstrip())
    return "\n".join(out) + "\n"
