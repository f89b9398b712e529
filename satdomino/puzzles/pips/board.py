"""Pips (The New York Times, 2025): cover a board exactly with a given multiset of dominoes so
that every region's rule holds: sum == k, sum < k, sum > k, all equal, all different, or none.

The engine works on any adjacency graph; the NYT grid is one case of it. Formats read:
- NYT day files (``easy`` / ``medium`` / ``hard``; withdrawn null puzzles are skipped),
- single NYT puzzle objects (``dominoes``, ``regions`` and optionally ``solution``),
- the graph form: ``{"dominoes": [[2,4],...], "links": {"a": ["b","l"], ...},
  "constraints": [{"type": "sum", "nodes": ["f","g"], "target": 11}, ...]}``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ...clock import within
from ...errors import PuzzleFormatError
from ...family import Cell, Parts, Skipped, strict
from ...fileio import load_json
from ...kernels.cover_count import connected_parts, recursion_limit
from ...model import Model, Op
from ...render import svg, text
from ..common import METADATA, around, attempt, domino_json, grid_sweep, key_share, known_keys
from ..common import whole_number as _int

Node = Any  # (row, col) on grids, a name (str) in the graph form
RULES = ("empty", "sum", "less", "greater", "equals", "unequal")
TARGETED = ("sum", "less", "greater")
PARTS = ("easy", "medium", "hard")
# what each object may hold beside the metadata (``common.METADATA``), which is not read
DAY_KEYS = {*PARTS, "printDate", "editor"}
NYT_KEYS = {"dominoes", "regions", "solution", "backendId", "constructors"}
GRAPH_KEYS = {"dominoes", "links", "constraints"}
GRAPH_METADATA = METADATA - {"solution"}  # the graph form has no solution to read
ALL_KEYS = DAY_KEYS | NYT_KEYS | GRAPH_KEYS | {"indices", "nodes", "type", "target"}
MAX_PIPS = 99
MAX_DOMINOES = 10_000  # far beyond any published puzzle; checked before the board is built
DEAD = object()  # a region aggregate whose rule can no longer hold (``count_placements``)


@dataclass(frozen=True)
class Region:
    rule: str
    nodes: tuple[Node, ...]
    target: int | None = None

    def label(self) -> str:
        """The rule in words (``sum = 9``, ``all different``, ...)."""
        return {"sum": f"{self.target}", "less": f"<{self.target}", "greater": f">{self.target}",
                "equals": "=", "unequal": "≠", "empty": ""}[self.rule]


@dataclass(frozen=True)
class Pips:
    nodes: tuple[Node, ...]
    edges: tuple[tuple[Node, Node], ...]  # undirected, each once
    dominoes: tuple[tuple[int, int], ...]  # as given, in input order
    regions: tuple[Region, ...]
    grid: bool  # nodes are (row, col) cells
    official: tuple[tuple[Node, Node], ...] | None = None  # published solution, if given

    def neighbours(self) -> dict[Node, list[Node]]:
        """Each cell's adjacent cells."""
        adj: dict[Node, list[Node]] = {u: [] for u in self.nodes}
        for u, v in self.edges:
            adj[u].append(v)
            adj[v].append(u)
        return adj


# parsing -----------------------------------------------------------------------------------------

def _dominoes(raw: object) -> tuple[tuple[int, int], ...]:
    if not isinstance(raw, list) or not raw:
        raise PuzzleFormatError("'dominoes' must be a non-empty list of [a, b] pairs")
    if len(raw) > MAX_DOMINOES:
        raise PuzzleFormatError(f"{len(raw)} dominoes; at most {MAX_DOMINOES}")
    out = []
    for i, d in enumerate(raw):
        if not isinstance(d, list) or len(d) != 2:
            raise PuzzleFormatError(f"domino {i + 1} must be a pair [a, b], not {d!r}"[:120])
        out.append((_int(d[0], f"domino {i + 1}", 0, MAX_PIPS),
                    _int(d[1], f"domino {i + 1}", 0, MAX_PIPS)))
    return tuple(out)


def _cell(raw: object, what: str) -> tuple[int, int]:
    if not isinstance(raw, list) or len(raw) != 2:
        raise PuzzleFormatError(f"{what}: a cell must be [row, col], not {raw!r}"[:120])
    return (_int(raw[0], f"{what} row", 0, 999), _int(raw[1], f"{what} column", 0, 999))


def _region(raw: object, i: int, key: str, node) -> Region:
    if not isinstance(raw, dict):
        raise PuzzleFormatError(f"region {i + 1} must be an object")
    known_keys(raw, {"type", "target", key}, f"region {i + 1}", also=())
    rule = raw.get("type")
    if rule not in RULES:
        raise PuzzleFormatError(f"region {i + 1}: unknown type {rule!r}; "
                                f"known: {', '.join(RULES)}"[:160])
    target = None
    if rule in TARGETED:
        if "target" not in raw:
            raise PuzzleFormatError(f"region {i + 1} ({rule}) has no target")
        target = _int(raw["target"], f"region {i + 1} target")
    elif "target" in raw:  # it would be silently ignored
        raise PuzzleFormatError(f"region {i + 1} ({rule}) takes no target; only "
                                f"{', '.join(TARGETED)} do")
    nodes = raw.get(key)
    if not isinstance(nodes, list) or not nodes:
        raise PuzzleFormatError(f"region {i + 1} needs a non-empty '{key}' list")
    cells = tuple(node(x, f"region {i + 1}") for x in nodes)
    if len(set(cells)) != len(cells):
        raise PuzzleFormatError(f"region {i + 1} lists a cell twice")
    return Region(rule, cells, target)


def _check_regions(regions: tuple[Region, ...]) -> None:
    """No cell in two regions (each is on the board: a grid's board is its regions' cells, and
    a graph's ``node`` takes only nodes)."""
    owner: dict = {}
    for i, r in enumerate(regions):
        for u in r.nodes:
            if u in owner:
                raise PuzzleFormatError(
                    f"regions {owner[u] + 1} and {i + 1} overlap at {_show(u)}")
            owner[u] = i


def _show(u: Node) -> str:
    return f"({u[0]},{u[1]})" if isinstance(u, tuple) else repr(u)


def _cover_error(cells: int, dominoes: int) -> PuzzleFormatError:
    return PuzzleFormatError(f"the board has {cells} cells but the {dominoes} dominoes cover "
                             f"{2 * dominoes}")


def _finish(nodes, edges, dominoes, regions, grid, official) -> Pips:
    if len(nodes) != 2 * len(dominoes):
        raise _cover_error(len(nodes), len(dominoes))
    if official is not None:  # its cells are on the board: from_nyt checked
        covered = Counter(u for pair in official for u in pair)
        if any(covered[u] != 1 for u in nodes):
            raise PuzzleFormatError("the given solution does not cover the board once, "
                                    "one domino per entry")
    return Pips(tuple(nodes), tuple(edges), dominoes, regions, grid, official)


def from_nyt(obj: dict) -> Pips:
    """A puzzle from one NYT puzzle object (dominoes, regions, optionally solution); anything else
    is a one-line PuzzleFormatError."""
    if not isinstance(obj, dict):
        raise PuzzleFormatError("a Pips puzzle must be a JSON object")
    known_keys(obj, NYT_KEYS, "a Pips puzzle")
    dominoes = _dominoes(obj.get("dominoes"))
    raw = obj.get("regions")
    if not isinstance(raw, list) or not raw:
        raise PuzzleFormatError("'regions' must be a non-empty list")
    regions = tuple(_region(r, i, "indices", _cell) for i, r in enumerate(raw))
    cells = sorted({u for r in regions for u in r.nodes})
    board = set(cells)
    _check_regions(regions)
    edges = [((r, c), (r2, c2)) for r, c in cells for r2, c2 in ((r, c + 1), (r + 1, c))
             if (r2, c2) in board]
    official = None
    if obj.get("solution"):  # absent, null or [] : no published solution
        sol = obj["solution"]
        if not isinstance(sol, list) or not all(isinstance(pair, list) and len(pair) == 2
                                                for pair in sol):
            raise PuzzleFormatError("'solution' must be a list of [[r, c], [r, c]] pairs")
        official = tuple((_cell(a, "solution"), _cell(b, "solution")) for a, b in sol)
        for u in (x for pair in official for x in pair):
            if u not in board:
                raise PuzzleFormatError(f"the solution covers {_show(u)}, outside every region")
        for a, b in official:
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                raise PuzzleFormatError(f"the solution pairs {_show(a)} and {_show(b)}, "
                                        "which are not neighbours")
    return _finish(cells, edges, dominoes, regions, True, official)


def from_graph(obj: dict) -> Pips:
    """A puzzle from the graph form: dominoes, links (each cell's neighbours) and constraints over
    named nodes."""
    if not isinstance(obj, dict):
        raise PuzzleFormatError("a Pips puzzle must be a JSON object")
    known_keys(obj, GRAPH_KEYS, "a Pips puzzle in the graph form", also=GRAPH_METADATA)
    dominoes = _dominoes(obj.get("dominoes"))
    links = obj.get("links")
    if not isinstance(links, dict) or not links:
        raise PuzzleFormatError("'links' must map each node to its neighbours")
    nodes = sorted(str(k) for k in links)
    for u, vs in links.items():  # all first: a bad one must not read as a missing link back
        if not u.isprintable():  # it is drawn and named in messages
            raise PuzzleFormatError(f"node name {u!r} holds a control character"[:120])
        if not isinstance(vs, list):
            raise PuzzleFormatError(f"links of {u!r} must be a list of node names"[:120])
    if len(links) != 2 * len(dominoes):  # before any link is followed
        raise _cover_error(len(links), len(dominoes))
    edges: set[tuple[str, str]] = set()
    for u, vs in links.items():
        for v in vs:
            if not isinstance(v, str) or v not in links:
                raise PuzzleFormatError(f"{u!r} links to {v!r}, which is not a node")
            if v == u:
                raise PuzzleFormatError(f"{u!r} links to itself")
            if not isinstance(links[v], list) or u not in links[v]:
                raise PuzzleFormatError(f"{u!r} links to {v!r} but {v!r} does not link back")
            edges.add((min(u, v), max(u, v)))

    def node(x: object, what: str) -> str:
        if not isinstance(x, str) or x not in links:
            raise PuzzleFormatError(f"{what}: {x!r} is not a node"[:120])
        return x

    raw = obj.get("constraints", [])
    if not isinstance(raw, list):
        raise PuzzleFormatError("'constraints' must be a list")
    regions = tuple(_region(r, i, "nodes", node) for i, r in enumerate(raw))
    _check_regions(regions)
    return _finish(nodes, sorted(edges), dominoes, regions, False, None)


def _one(obj: object) -> Pips | Skipped:
    if obj is None or (isinstance(obj, dict) and "dominoes" in obj and obj["dominoes"] is None):
        return Skipped("withdrawn puzzle (null placeholder)")
    if not isinstance(obj, dict):
        raise PuzzleFormatError("a Pips puzzle must be a JSON object")
    if "dominoes" not in obj:
        raise PuzzleFormatError("a Pips puzzle needs 'dominoes'")
    if "links" in obj:
        return from_graph(obj)
    if "constraints" in obj:
        raise PuzzleFormatError("'constraints' belong to the graph form, which needs 'links'")
    return from_nyt(obj)



def parse_parts(text: str) -> Parts:
    """Every puzzle in ``text`` (an NYT day file's easy / medium / hard, one puzzle, or the graph
    form), each part, its error, or Skipped for a withdrawn one."""
    data = load_json(text)
    if not isinstance(data, dict):
        raise PuzzleFormatError("a Pips file must hold a JSON object")
    if not any(k in data for k in PARTS):
        return [(None, attempt(_one, data))]
    known_keys(data, DAY_KEYS, "a Pips day file")
    return [(k, attempt(_one, data[k])) for k in PARTS if k in data]


def parse(text: str) -> list[tuple[str | None, Pips]]:
    """Every puzzle in ``text`` (skipped parts left out); raises the first bad part's error."""
    return strict(parse_parts(text))


def sniff(text: str) -> bool:
    """Does ``text`` look like Pips: a JSON object with dominoes, regions or links, or an NYT
    day file?"""
    head = text.lstrip()[:20000]
    return head.startswith("{") and any(
        k in head for k in ('"dominoes"', '"regions"', '"links"', '"easy"', '"hard"'))


def likeness(text: str) -> float:
    """How much JSON that no family sniffs looks like Pips: the share of its keys that are
    Pips's, or close to one."""
    return key_share(text, ALL_KEYS)


# the placement model -----------------------------------------------------------------------------

def domino_types(p: Pips) -> Counter:
    """How many of each domino (low, high) the set holds."""
    return Counter((min(a, b), max(a, b)) for a, b in p.dominoes)


def cell_domains(p: Pips) -> dict[Node, set[int]]:
    """The pips each cell can show, from the set's pips and its own region's rule alone
    (pips are never negative): sound pruning shared by the models and the counter."""
    pips = {k for d in p.dominoes for k in d}
    top = max(pips)
    out = {u: set(pips) for u in p.nodes}
    for r in (r for r in p.regions if r.rule in TARGETED):
        t, rest = r.target or 0, (len(r.nodes) - 1) * top  # the most the other cells show
        lo, hi = {"sum": (t - rest, t), "less": (0, t - 1), "greater": (t + 1 - rest, top)}[r.rule]
        for u in r.nodes:
            out[u] = {v for v in out[u] if lo <= v <= hi}
    return out


def placements(p: Pips) -> list[tuple[tuple[int, int], Node, Node]]:
    """(type (a <= b), u, v) with a on u and b on v, where both cells can show those pips;
    a double once per edge."""
    dom = cell_domains(p)
    return [(t, a_on, b_on) for t in sorted(domino_types(p)) for u, v in p.edges
            for a_on, b_on in (((u, v), (v, u)) if t[0] != t[1] else ((u, v),))
            if t[0] in dom[a_on] and t[1] in dom[b_on]]


def build_placement(p: Pips) -> Model:
    """One variable per (domino type, oriented pair of adjacent cells): identical dominoes share
    variables, so an assignment is exactly one distinct placement. Exactly one placement per
    cell, as many per type as the multiset holds, and the region rules over them."""
    m = Model("placement")
    touching: dict[Node, list[tuple[int, int]]] = {u: [] for u in p.nodes}  # (var, pip on u)
    by_type: dict[tuple[int, int], list[int]] = {t: [] for t in domino_types(p)}
    for t, u, v in placements(p):
        x = m.var(("place", t, u, v))
        touching[u].append((x, t[0]))
        touching[v].append((x, t[1]))
        by_type[t].append(x)
    m.projection = list(range(1, m.num_vars + 1))
    for u in p.nodes:
        m.exactly_one([x for x, _ in touching[u]], f"cell {u}")
    for t, count in domino_types(p).items():
        label = f"domino {t[0]}-{t[1]}"
        if count == 1:
            m.exactly_one(by_type[t], label, choice=True)  # the domino lies somewhere once
        else:
            m.card(by_type[t], "==", count, label)

    def value(u: Node, k: int) -> int:
        """The variable "cell u shows k", defined once on first use."""
        key = ("value", u, k)
        if not m.has(key):
            y = m.var(key)
            # one placement per cell: the value is the sum of its placements
            m.define_or(y, [x for x, pip in touching[u] if pip == k], f"cell {u}", exclusive=True)
        return m.var(key)

    values = sorted({k for d in p.dominoes for k in d})
    for r, label in zip(p.regions, region_labels(p), strict=True):
        if r.rule in TARGETED:
            # over the cells' values, not the placements: a region's sum over every placement
            # touching it made pindakaas's encoding grow to millions of clauses on big boards
            pips = {u: sorted({pip for _, pip in touching[u] if pip}) for u in r.nodes}
            m.pb([(k, value(u, k)) for u in r.nodes for k in pips[u]], *_bound(r), label)
        elif r.rule == "equals":
            for k in values:
                for u in r.nodes[1:]:
                    m.add_clause([-value(r.nodes[0], k), value(u, k)], label)
        elif r.rule == "unequal":
            for k in values:
                m.at_most_one([value(u, k) for u in r.nodes], label)
    return m


def _bound(r: Region) -> tuple[Op, int]:
    """A targeted region's rule as (op, bound) on its sum."""
    t = r.target or 0
    bounds: dict[str, tuple[Op, int]] = {"sum": ("==", t), "less": ("<=", t - 1),
                                         "greater": (">=", t + 1)}
    return bounds[r.rule]


def obstacles(p: Pips) -> list[str]:
    """Counts that rule every solution out: a part of the board with an odd number of cells
    (a cell with no neighbour), a region whose target its cells cannot reach with any of the
    dominoes' pips."""
    found = []
    for part in connected_parts(p.nodes, p.neighbours().__getitem__):
        if len(part) == 1:
            found.append(f"cell {_show(part[0])} has no neighbour: no domino can cover it")
        elif len(part) % 2:
            found.append(f"the {len(part)} cells joined to {_show(part[0])} are an odd number: "
                         "dominoes cover two at a time")
    pips = sorted(v for d in p.dominoes for v in d)
    for label, r in zip(region_labels(p), p.regions, strict=True):
        if r.rule in TARGETED:
            t, lo, hi = r.target or 0, sum(pips[:len(r.nodes)]), sum(pips[-len(r.nodes):])
            if {"sum": not lo <= t <= hi, "less": lo >= t, "greater": hi <= t}[r.rule]:
                found.append(f"{label}: its {len(r.nodes)} cells hold {lo} to {hi} pips with "
                             "these dominoes")
    return found


def region_labels(p: Pips) -> list[str]:
    """Each region as explanations name it: its letter in the drawings, its rule and
    target ("region B (sum 9)")."""
    return [f"region {n} ({r.rule}{'' if r.target is None else f' {r.target}'})"
            for n, r in zip(region_names(p), p.regions, strict=True)]


def build_link_value(p: Pips) -> Model:
    """The seed article's two views in ONE model: link variables (which neighbours pair up)
    and an integer value per cell (its encoding chosen by --int), tied together: each link
    carries exactly one domino type, each type as often as the multiset holds it, each value
    on as many cells as the dominoes' halves show it, and the region rules over the values."""
    m = Model("link-value")
    links = {e: m.var(("link", *e)) for e in p.edges}
    values = sorted({k for d in p.dominoes for k in d})
    domains = cell_domains(p)
    cell = {u: m.int_var(("value", u), domains[u] or values, f"cell {u}") for u in p.nodes}
    if any(not d for d in domains.values()):
        m.add_clause([], "a cell no domino's pips fit")  # no solution
    eq = {(u, k): m.int_eq(cell[u], k) for u in p.nodes for k in values}
    m.projection = [*links.values(), *eq.values()]  # a layout is its links and values

    incident: dict[Node, list[int]] = {u: [] for u in p.nodes}
    for (u, v), x in links.items():
        incident[u].append(x)
        incident[v].append(x)
    for u in p.nodes:
        m.exactly_one(incident[u], f"cell {u}")

    halves = Counter(k for d in p.dominoes for k in d)
    for k in values:
        m.card([eq[(u, k)] for u in p.nodes], "==", halves[k], f"the halves showing {k}")

    types = domino_types(p)
    carries: dict[tuple[int, int], list[int]] = {t: [] for t in types}
    for (u, v), x in links.items():
        options = []
        link = f"link {u}-{v}"
        for t in types:
            ways = []
            for a, b in sorted({t, t[::-1]}):
                w = m.var(("shows", u, a, v, b))
                m.define_and(w, [eq[(u, a)], eq[(v, b)]], link)
                ways.append(w)
            d = m.var(("carries", u, v, t))
            m.add_clause([-d, x], link)  # a link carries a domino only if it is a link
            m.add_clause([-d, *ways], link)  # ... and its cells show that domino
            options.append(d)
            carries[t].append(d)
        m.add_clause([-x, *options], link)  # every link carries one domino of the set
    for t, count in types.items():
        m.card(carries[t], "==", count, f"domino {t[0]}-{t[1]}")

    for r, label in zip(p.regions, region_labels(p), strict=True):
        if r.rule in TARGETED:
            m.int_linear([(1, cell[u]) for u in r.nodes], *_bound(r), label=label)
        elif r.rule == "equals":
            for u in r.nodes[1:]:
                for k in values:
                    m.add_clause([-eq[(r.nodes[0], k)], eq[(u, k)]], label)
        elif r.rule == "unequal":
            for k in values:
                m.at_most_one([eq[(u, k)] for u in r.nodes], label)
    return m


def _projected(keep: str) -> Callable[[Pips], Model]:
    def build(p: Pips) -> Model:
        m = build_link_value(p)
        m.projection = [x for x in m.projection if m.key(x)[0] == keep]
        return m

    return build


# --count-by: distinct pip grids (the values alone), distinct tilings (the links alone)
COUNT_VIEWS: dict[str, Callable[[Pips], Model]] = {"grid": _projected("int"),
                                                    "tiling": _projected("link")}


# solutions ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PipsSolution:
    pairs: tuple[tuple[Node, Node], ...]  # pairs[i] holds dominoes[i], dominoes[i][0] on [0]
    # a part of a layout (the steps of ``explain`` so far): the domino each pair holds
    held: tuple[tuple[int, int], ...] | None = None

    def values(self, p: Pips) -> dict[Node, int]:
        """The pips each cell shows."""
        held = p.dominoes if self.held is None else self.held
        return {u: k for d, pair in zip(held, self.pairs, strict=True)
                for u, k in zip(pair, d, strict=True)}


def _placed(p: Pips, model: Model, true_vars: frozenset[int]):
    """(type, cell showing its low pip, cell showing its high pip) read off either model."""
    if model.name == "link-value":  # every variable, whatever the projection holds
        value = {key[2][1]: key[3] for key, x in model.items()
                 if key[0] == "int" and key[1] == "==" and x in true_vars}
        for key, x in model.items():
            if key[0] == "link" and x in true_vars:
                u, v = key[1], key[2]
                if u not in value or v not in value:
                    continue  # not a layout (a wrong answer): verify will say what is missing
                if value[u] > value[v]:
                    u, v = v, u
                yield (value[u], value[v]), u, v
        return
    for x in model.projection:
        if x in true_vars:
            yield model.key(x)[1:]


def decode(p: Pips, model: Model, true_vars: frozenset[int]) -> PipsSolution:
    """Which domino lies on which two cells, which way round, from the true variables of ``model``.
    """
    free: dict[tuple[int, int], list[tuple[Node, Node]]] = {}
    for t, u, v in _placed(p, model, true_vars):
        free.setdefault(t, []).append((u, v))
    pairs, held = [], []
    for a, b in p.dominoes:
        stack = free.get((min(a, b), max(a, b)), [])
        if not stack:  # the model placed too few of this domino: verify will say so
            continue
        u, v = stack.pop()
        pairs.append((u, v) if a <= b else (v, u))
        held.append((a, b))
    return PipsSolution(tuple(pairs), None if len(pairs) == len(p.dominoes) else tuple(held))


def verify(p: Pips, sol: PipsSolution) -> list[str]:
    """Everything wrong with ``sol`` under the rules, by plain evaluation of the layout."""
    if len(sol.pairs) != len(p.dominoes):
        return [f"{len(sol.pairs)} dominoes placed, the set has {len(p.dominoes)}"]
    edges = {frozenset(e) for e in p.edges}
    covered = Counter(u for pair in sol.pairs for u in pair)
    problems = [f"{_show(u)} and {_show(v)} are not neighbours on the board"
                for u, v in sol.pairs if frozenset((u, v)) not in edges]
    problems += [f"{_show(u)} is covered {covered[u]} times" for u in p.nodes if covered[u] != 1]
    if problems:
        return problems
    value = sol.values(p)
    for r in p.regions:
        vs = [value[u] for u in r.nodes]
        if not {"empty": True, "sum": sum(vs) == r.target, "less": sum(vs) < (r.target or 0),
                "greater": sum(vs) > (r.target or 0), "equals": len(set(vs)) == 1,
                "unequal": len(set(vs)) == len(vs)}[r.rule]:
            problems.append(f"{r.rule} region {r.label()} at {_show(r.nodes[0])} fails with {vs}")
    return problems


def solution_json(p: Pips, sol: PipsSolution) -> dict:
    """The solution in the NYT form: each domino's two cells in the order of the input dominoes (its
    first pip on the first cell), and every cell's value."""
    value = sol.values(p)
    return {"solution": [[list(u) if isinstance(u, tuple) else u for u in pair]
                         for pair in sol.pairs],
            "values": [[*u, value[u]] if isinstance(u, tuple) else [u, value[u]]
                       for u in p.nodes]}


# generation --------------------------------------------------------------------------------------

def grow(start: tuple[Cell, Cell], dominoes: int, rng: random.Random,
         order: Callable[[Iterable[Cell]], list[Cell]] = sorted) -> list[tuple[Cell, Cell]]:
    """A connected board tiled by ``dominoes`` dominoes, grown one domino at a time from
    ``start`` and the cells at the edge of the board so far (which leaves NYT-like arms and
    holes), moved to row and column 0; ``order`` lists the covered cells to draw from."""
    pairs = [start]
    used = set(start)

    def free(cell: Cell) -> list[Cell]:
        return [w for w in around(cell) if w not in used]

    while len(pairs) < dominoes:
        a = rng.choice(order(u for u in used if free(u)))
        b = rng.choice(free(a))
        if nb := free(b):
            c = rng.choice(nb)
            pairs.append((b, c))
            used.update((b, c))
    r0 = min(r for r, _ in used)
    c0 = min(c for _, c in used)
    return [((a[0] - r0, a[1] - c0), (b[0] - r0, b[1] - c0)) for a, b in pairs]


def planted(dominoes: int, seed: int, max_pip: int = 6) -> tuple[Pips, PipsSolution]:
    """A random connected board grown domino by domino, random pips, and random regions whose
    rules hold for the planted layout (so it is solvable; often not uniquely)."""
    rng = random.Random(seed)
    # grown from far enough out that no cell falls below row or column 0, in the order of a
    # set's cells (as the shipped samples were made)
    pairs = grow(((2 * dominoes, 2 * dominoes), (2 * dominoes, 2 * dominoes + 1)), dominoes,
                 rng, list)
    doms = [(rng.randint(0, max_pip), rng.randint(0, max_pip)) for _ in pairs]
    value = {w: k for d, pair in zip(doms, pairs, strict=True)
             for w, k in zip(pair, d, strict=True)}
    regions = _random_regions(sorted(value), value, rng)
    drawn = Pips((), (), tuple(doms), tuple(regions), True, tuple(pairs))
    return from_nyt(to_nyt(drawn)), PipsSolution(tuple(pairs))  # from_nyt adds cells and links


def to_nyt(p: Pips) -> dict:
    """The NYT single-puzzle object of a grid puzzle (with its solution when known)."""
    obj: dict = {"dominoes": [list(d) for d in p.dominoes],
                 "regions": [{"indices": [list(u) for u in r.nodes], "type": r.rule,
                              **({"target": r.target} if r.target is not None else {})}
                             for r in p.regions]}
    if p.official is not None:
        obj["solution"] = [[list(u), list(v)] for u, v in p.official]
    return obj


def grow_region(first: Cell, size: int, left: set[Cell], rng: random.Random) -> list[Cell]:
    """A region of up to ``size`` cells grown from ``first`` into the cells ``left`` (which
    loses them), each further cell drawn from the neighbours of those so far."""
    group = [first]
    left.discard(first)
    while len(group) < size and (options := sorted({v for u in group for v in around(u)} & left)):
        group.append(rng.choice(options))
        left.discard(group[-1])
    return group


def _random_regions(cells, value, rng: random.Random) -> list[Region]:
    left = set(cells)
    regions = []
    while left:
        first = min(left) if rng.random() < 0.5 else rng.choice(sorted(left))
        group = grow_region(first, rng.choice([1, 2, 2, 3, 3, 4]), left, rng)
        vs = [value[u] for u in group]
        rules = ["sum", "sum", "less", "greater", "empty"]
        if len(group) > 1 and len(set(vs)) == 1:
            rules += ["equals"] * 3
        if len(group) > 1 and len(set(vs)) == len(vs):
            rules += ["unequal"] * 2
        rule = rng.choice(rules)
        if rule == "greater" and sum(vs) == 0:
            rule = "sum"
        target = {"sum": sum(vs), "less": sum(vs) + rng.randint(1, 3),
                  "greater": sum(vs) - rng.randint(1, min(3, sum(vs) or 1))}.get(rule)
        regions.append(Region(rule, tuple(group), target))
    return regions


# drawing -----------------------------------------------------------------------------------------

def region_names(p: Pips) -> list[str]:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    return [letters[i] if i < len(letters) else f"R{i}" for i in range(len(p.regions))]


_RULE_TEXT = {"empty": "no rule", "sum": "sum = {}", "less": "sum < {}", "greater": "sum > {}",
              "equals": "all equal", "unequal": "all different"}  # {}: the target


def render_text(p: Pips, sol: PipsSolution | None) -> str:
    """The board with its regions lettered and their rules listed, and the solution's pips when
    ``sol`` is given."""
    names = region_names(p)
    legend = "regions:\n" + "".join(
        f"  {n}: {_RULE_TEXT[r.rule].format(r.target)} ({text.counted(len(r.nodes), 'cell')})\n"
        for n, r in zip(names, p.regions, strict=True))
    value = sol.values(p) if sol else {}
    region_of = {u: n for n, r in zip(names, p.regions, strict=True) for u in r.nodes}
    if not p.grid:
        lines = [f"  {u}-{v}: {value[u]}|{value[v]}" for u, v in sol.pairs] if sol else []
        nodes = "nodes: " + " ".join(f"{u}[{region_of.get(u, '-')}]" for u in p.nodes) + "\n"
        return nodes + legend + ("dominoes:\n" + "\n".join(lines) + "\n" if sol else "")
    parts = [text.draw_groups(region_of, region_of), legend]
    if sol:
        parts.append("solution:\n" + text.draw_board({u: str(value[u]) for u in p.nodes},
                                                      sol.pairs))
    return "\n".join(parts)


def region_fills(p: Pips) -> list[str | None]:
    """A fill for each region, touching regions always apart (None: a region without a rule,
    drawn plain)."""
    owner = {u: k for k, r in enumerate(p.regions) if r.rule != "empty" for u in r.nodes}
    touching: dict[int, set[int]] = {k: set() for k in set(owner.values())}
    for u, v in p.edges:
        a, b = owner.get(u), owner.get(v)
        if a is not None and b is not None and a != b:
            touching[a].add(b)
            touching[b].add(a)
    number = svg.colouring(touching)
    return [svg.colour(number[k]) if k in number else None for k in range(len(p.regions))]


def render_svg(p: Pips, sol: PipsSolution | None) -> str:
    """The puzzle as SVG: the board, its regions coloured (touching ones apart) and walled,
    each rule in a badge, and the dominoes to place; with ``sol`` the answer key: the pips
    and the dominoes laid (a part of a layout: those laid so far)."""
    fills = region_fills(p)
    value = sol.values(p) if sol else {}
    labels = {u: str(value[u]) if u in value else "" for u in p.nodes}
    n = len(p.dominoes)
    sheet = svg.Sheet(f"Pips: {n} domino{'' if n == 1 else 'es'}"
                      + (" (answer key)" if sol else ""))
    pairs = sol.pairs if sol else ()
    bottom = (_grid_svg if p.grid else _graph_svg)(sheet, p, labels, pairs, fills)
    bottom = svg.domino_tray(sheet, svg.MARGIN, bottom + 16, sheet.right - svg.MARGIN,
                             p.dominoes, "Dominoes to place:")
    # a graph's badges spell their rules out; a grid's are the NYT's short signs
    svg.notes(sheet, svg.MARGIN, bottom + 4, [
        "Lay every domino on two neighbouring cells.", "Regions: a number is the sum of the "
        "pips, <n and >n", "a sum under or over n, = all equal, ≠ all different."]
        if p.grid else ["Lay every domino on two linked nodes."])
    return sheet.svg()


def _grid_svg(sheet: svg.Sheet, p: Pips, labels: dict, pairs: Iterable,
              fills: list[str | None]) -> float:
    """The board on ``sheet``, each rule in a badge on its region's bottom-right corner (on
    the region's edge, over any domino); the bottom."""
    x0, y0 = svg.MARGIN, sheet.top
    cell_fill = {u: f for f, r in zip(fills, p.regions, strict=True) if f for u in r.nodes}
    groups = {u: (k if fills[k] else None) for k, r in enumerate(p.regions) for u in r.nodes}
    svg.board(sheet, x0, y0, labels, pairs, cell_fill, groups)  # a grid's cells: its regions'
    for f, r in zip(fills, p.regions, strict=True):
        if f:
            row, col = max(r.nodes)
            x, y = x0 + (col + 1) * svg.SIZE, y0 + (row + 1) * svg.SIZE
            sheet.add(svg.badge(x, y, r.label(), svg.dark(f)), x + 30, y + 12)
    return sheet.bottom


def _graph_svg(sheet: svg.Sheet, p: Pips, labels: dict, pairs: Iterable,
               fills: list[str | None]) -> float:
    """The graph on ``sheet``, each node named with its region's letter, and the regions'
    rules under it as badges in their colours; the bottom."""
    names = region_names(p)
    fill = {u: f for f, r in zip(fills, p.regions, strict=True) if f for u in r.nodes}
    tag = {u: f"{u} ({n})" for n, f, r in zip(names, fills, p.regions, strict=True) if f
           for u in r.nodes}
    bottom = svg.graph(sheet, svg.MARGIN, sheet.top, labels, pairs, p.edges, fill, tag)
    ruled = [(f"{n}: {_RULE_TEXT[r.rule].format(r.target)}", f)
             for n, f, r in zip(names, fills, p.regions, strict=True) if f is not None]
    at, _, height = svg.flow([(svg.badge_width(w), 20) for w, _ in ruled],
                             sheet.right - svg.MARGIN)
    for (words, f), (dx, dy) in zip(ruled, at, strict=True):
        x = svg.MARGIN + dx + svg.badge_width(words) / 2
        sheet.add(svg.badge(x, bottom + dy + 10, words, svg.dark(f)), x, bottom + dy)
    return bottom + height


# exact counting ----------------------------------------------------------------------------------

def _sweep_order(p: Pips) -> list[Node]:
    """Cells in an order with a narrow frontier: grids along their longer side, other graphs
    breadth-first from a cell of least degree."""
    if p.grid:
        return grid_sweep(p.nodes)
    adj = p.neighbours()
    order: list[Node] = []  # also the queue: order[k] is the next cell to look around
    seen, k = set(), 0
    for start in sorted(p.nodes, key=lambda u: (len(adj[u]), str(u))):
        if start not in seen:
            seen.add(start)
            order.append(start)
            while k < len(order):
                fresh = [v for v in sorted(adj[order[k]], key=str) if v not in seen]
                seen.update(fresh)
                order += fresh
                k += 1
    return order


def count_placements(p: Pips) -> int:
    """The exact number of distinct placements (which domino on which two cells, which way
    round; identical dominoes interchangeable, a double without a way round).

    A memoised search over cells in board order: the state is the set of covered cells, how
    many of each domino type are used, and the running aggregate of every open region (its
    sum, common value or set of values). It shares nothing with the SAT models, so it also
    checks them."""
    go, start = _memo_search(p)
    with recursion_limit(2 * len(p.dominoes) + 200):  # one frame per domino
        return go(*start)


# a board of at most this many dominoes is counted in process, before any race: on the NYT
# boards such a count takes well under ``QUICK_SECONDS``, and larger ones up to seconds
QUICK_DOMINOES = 7
QUICK_SECONDS = 0.005


def quick_count(p: Pips) -> int | None:
    """``count_placements`` of a board of at most ``QUICK_DOMINOES`` dominoes when it
    finishes within ``QUICK_SECONDS``, else None."""
    if len(p.dominoes) > QUICK_DOMINOES:
        return None
    return within(QUICK_SECONDS, lambda: count_placements(p))


def _tables(p: Pips) -> tuple:
    """What the search reads, by cell number in sweep order: neighbours, region, allowed
    pips (bits); by domino type: how many, its ways round; by region: rule, target."""
    nodes = _sweep_order(p)  # the covered-cell frontier is what the memo pays for
    index, near = {u: i for i, u in enumerate(nodes)}, p.neighbours()
    adj = [[index[v] for v in near[u]] for u in nodes]
    types = sorted(domino_types(p).items())
    ways = [[t] if t[0] == t[1] else [t, t[::-1]] for t, _ in types]
    owner = {u: k for k, r in enumerate(p.regions) for u in r.nodes}
    region = [owner.get(u, -1) for u in nodes]
    domains = cell_domains(p)
    return (adj, region, [sum(1 << v for v in domains[u]) for u in nodes],
            [m for _, m in types], ways, max(max(t) for t, _ in types),
            [r.rule for r in p.regions], [r.target or 0 for r in p.regions])


def _aggregator(rules: list[str], targets: list[int], top: int
                ) -> Callable[[int, Any, int, int], Any]:
    def add(k: int, agg: Any, v: int, left: int) -> Any:
        """Region k's aggregate after one more cell showing v (``left`` cells still open), or
        the sentinel DEAD when the rule can no longer hold."""
        rule, t = rules[k], targets[k]
        if rule in TARGETED:
            s = (agg or 0) + v
            if rule == "sum":
                return s if s <= t and s + left * top >= t else DEAD
            if rule == "less":
                return s if s < t else DEAD
            return s if s + left * top > t else DEAD
        if rule == "equals":
            return v if agg is None or agg == v else DEAD
        if rule == "unequal":
            bits = agg or 0
            return DEAD if bits >> v & 1 else bits | 1 << v
        return 0

    return add


def _memo_search(p: Pips) -> tuple[Callable[..., int], tuple]:
    """The search (``count_placements``) and its first state."""
    adj, region, allowed, mult, ways, top, rules, targets = _tables(p)
    add = _aggregator(rules, targets, top)
    full = (1 << len(adj)) - 1
    memo: dict = {}

    def go(mask: int, used: tuple, aggs: tuple, left: tuple) -> int:
        if mask == full:
            return 1
        key = (mask, used, aggs)  # ``left`` follows from ``mask``
        if key in memo:
            return memo[key]
        i = (~mask & (mask + 1)).bit_length() - 1  # the first free cell
        total = 0
        for j in adj[i]:
            if mask >> j & 1:
                continue
            covered = mask | 1 << i | 1 << j
            if any(not covered >> x & 1 and all(covered >> y & 1 for y in adj[x])
                   for x in (*adj[i], *adj[j])):
                continue  # a free cell next to j would be left with no free neighbour
            for ti, options in enumerate(ways):
                if used[ti] == mult[ti]:
                    continue
                used2 = used[:ti] + (used[ti] + 1,) + used[ti + 1:]
                for a, b in options:
                    if not (allowed[i] >> a & 1 and allowed[j] >> b & 1):
                        continue
                    aggs2, left2 = list(aggs), list(left)
                    for cell, v in ((i, a), (j, b)):
                        k = region[cell]
                        if k >= 0:
                            left2[k] -= 1
                            aggs2[k] = add(k, aggs2[k], v, left2[k])
                            if aggs2[k] is DEAD:
                                break
                            if left2[k] == 0:
                                aggs2[k] = None  # closed, and its rule held
                    else:
                        total += go(covered, used2, tuple(aggs2), tuple(left2))
        memo[key] = total
        return total

    return go, (0, (0,) * len(mult), (None,) * len(p.regions),
                tuple(len(r.nodes) for r in p.regions))


def placement_json(p: Pips, key: tuple) -> dict:
    """A placement variable for ``explain``: the domino's pips, each on its cell (a cell's
    value variable: the value on the cell)."""
    if key[0] == "value":
        return {"pips": [key[2]], "cells": [list(key[1]) if isinstance(key[1], tuple) else key[1]]}
    return domino_json(*key[1:])


def squares(p: Pips, key: tuple) -> list[Cell] | None:
    """The two squares a placement covers (None on a board given as a graph)."""
    return [key[2], key[3]] if p.grid else None
