"""An independent Dominosa solver for tests: plain backtracking, no SAT, no model."""

from __future__ import annotations


def solutions(grid: list[list[int]] | tuple, limit: int = 10**9) -> list[frozenset]:
    """Every layout (as a frozenset of cell pairs) up to ``limit`` of them."""
    rows, cols = len(grid), len(grid[0])
    used: set[tuple[int, int]] = set()
    covered = [[False] * cols for _ in range(rows)]
    pairs: list[tuple] = []
    found: list[frozenset] = []

    def first_free():
        for r in range(rows):
            for c in range(cols):
                if not covered[r][c]:
                    return r, c
        return None

    def go() -> None:
        if len(found) >= limit:
            return
        cell = first_free()
        if cell is None:
            found.append(frozenset(pairs))
            return
        r, c = cell
        for r2, c2 in ((r, c + 1), (r + 1, c)):
            if r2 < rows and c2 < cols and not covered[r2][c2]:
                a, b = grid[r][c], grid[r2][c2]
                d = (min(a, b), max(a, b))
                if d in used:
                    continue
                used.add(d)
                covered[r][c] = covered[r2][c2] = True
                pairs.append(((r, c), (r2, c2)))
                go()
                pairs.pop()
                covered[r][c] = covered[r2][c2] = False
                used.discard(d)

    go()
    return found
