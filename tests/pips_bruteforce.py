"""An independent Pips solver for tests: backtracking over cells, no SAT, no model."""

from __future__ import annotations

from collections import Counter


def solutions(p, limit: int = 10**6) -> set[frozenset]:
    """Distinct placements: frozensets of (domino type a <= b, cell showing a, cell showing b),
    a double's two cells in sorted order (it has no way round)."""
    adj = p.neighbours()
    left = Counter((min(a, b), max(a, b)) for a, b in p.dominoes)
    value: dict = {}
    placed: list = []
    found: set[frozenset] = set()
    region_of = {u: r for r in p.regions for u in r.nodes}

    def region_ok(r) -> bool:
        vs = [value[u] for u in r.nodes if u in value]
        done = len(vs) == len(r.nodes)
        if r.rule == "sum":
            return sum(vs) == r.target if done else sum(vs) <= r.target
        if r.rule == "less":
            return sum(vs) < r.target
        if r.rule == "greater":
            return sum(vs) > r.target if done else True
        if r.rule == "equals":
            return len(set(vs)) <= 1
        if r.rule == "unequal":
            return len(set(vs)) == len(vs)
        return True

    def go() -> None:
        if len(found) >= limit:
            return
        free = next((u for u in p.nodes if u not in value), None)
        if free is None:
            found.add(frozenset(placed))
            return
        for v in adj[free]:
            if v in value:
                continue
            for t in [t for t, n in left.items() if n]:
                for a, b in {(t[0], t[1]), (t[1], t[0])}:
                    value[free], value[v] = a, b
                    ok = all(region_ok(region_of[u]) for u in (free, v) if u in region_of)
                    if ok:
                        left[t] -= 1
                        if t[0] == t[1]:
                            placed.append((t, *sorted((free, v))))
                        else:
                            placed.append((t, free, v) if a == t[0] else (t, v, free))
                        go()
                        placed.pop()
                        left[t] += 1
                    del value[free], value[v]

    go()
    return found
