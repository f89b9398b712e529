"""Root-level deduction for Dominosa, run on the board before any SAT solving (the ``reduced``
model).

The board's placements (adjacent cell pairs, each carrying the domino its two numbers show)
are pruned to a fixpoint by rules that never remove a placement used by any solution:

- cell rule: a cell with one remaining placement gets it; then every other placement of that
  domino and every other placement touching its two cells is removed;
- domino rule: a domino with one remaining placement is placed (same removals);
- common-cell rule: if every remaining placement of a domino covers cell c, no other domino can
  lie on c, so c's placements of other dominoes are removed;
- matching rule: the remaining placements are edges of the bipartite grid graph (black and
  white checkerboard cells); a tiling is a perfect matching of it, so an edge lying in no
  perfect matching is removed (one maximum matching by Hopcroft-Karp, then the strongly
  connected components of the alternating digraph, as in Regin's all-different filtering);
- probing: a placement whose assumption leads, by the rules above except matching, to a cell
  or domino without placements is removed (failed literal).

Each removal is sound: it is implied by the rules of the puzzle and the placements that remain,
so the solution set is unchanged. The model then has one variable per placement of the board
(all of them, so decode, projection and uniqueness blocking work as in ``placement``), unit
clauses for removed and placed ones, and the exactly-one constraints over what remains.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import chain

from ...model import Model
from .board import Cell, Dominosa, Pair, domino_of, dominoes, place_key


class Conflict(Exception):
    """No solution is left."""


@dataclass
class Reduction:
    edges: list[Pair]
    alive: list[bool]
    unsat: bool = False


class _State:
    """Placements as edge ids with alive flags, counts per cell and per domino, and a trail for
    undoing what a probe removed."""

    def __init__(self, p: Dominosa) -> None:
        self.cols = p.cols
        self.ncells = p.rows * p.cols
        self.edges: list[Pair] = p.edges()
        dom_index = {d: i for i, d in enumerate(dominoes(p.n))}
        self.ndom = len(dom_index)
        # edge i: its cells ea[i], eb[i] (flat indices) and its domino ed[i]
        self.ea = [a[0] * self.cols + a[1] for a, _ in self.edges]
        self.eb = [b[0] * self.cols + b[1] for _, b in self.edges]
        self.ed = [dom_index[domino_of(p, e)] for e in self.edges]
        self.cell_edges: list[list[int]] = [[] for _ in range(self.ncells)]
        self.dom_edges: list[list[int]] = [[] for _ in range(self.ndom)]
        for i in range(len(self.edges)):
            self.cell_edges[self.ea[i]].append(i)
            self.cell_edges[self.eb[i]].append(i)
            self.dom_edges[self.ed[i]].append(i)
        self.alive = [True] * len(self.edges)
        self.ccount = [len(x) for x in self.cell_edges]
        self.dcount = [len(x) for x in self.dom_edges]
        self.trail: list[int] = []
        self.queue: list[tuple[int, int]] = []  # (kind 0 cell / 1 domino, index) to look at

    def kill(self, i: int) -> None:
        if not self.alive[i]:
            return
        self.alive[i] = False
        self.trail.append(i)
        a, b, d = self.ea[i], self.eb[i], self.ed[i]
        # every count is updated before a conflict is raised, so undo stays exact
        self.ccount[a] -= 1
        self.ccount[b] -= 1
        self.dcount[d] -= 1
        if self.ccount[a] == 0 or self.ccount[b] == 0 or self.dcount[d] == 0:
            raise Conflict
        self.queue += [(0, c) for c in (a, b) if self.ccount[c] == 1]
        if self.dcount[d] <= 3:
            self.queue.append((1, d))

    def place(self, i: int) -> None:
        """Edge i is in every solution that remains: remove everything that competes with it."""
        if not self.alive[i]:
            raise Conflict
        for j in chain(self.cell_edges[self.ea[i]], self.cell_edges[self.eb[i]],
                       self.dom_edges[self.ed[i]]):
            if j != i:
                self.kill(j)

    def propagate(self) -> None:
        q = self.queue
        while q:
            kind, x = q.pop()
            if kind == 0:
                if self.ccount[x] == 1:
                    self.place(next(j for j in self.cell_edges[x] if self.alive[j]))
            else:
                live = [j for j in self.dom_edges[x] if self.alive[j]]
                if len(live) == 1:
                    self.place(live[0])
                    continue
                # the cells every live placement covers: at most one, as two share at most one
                for c in set.intersection(*({self.ea[j], self.eb[j]} for j in live)):
                    for j in self.cell_edges[c]:
                        if self.ed[j] != x:
                            self.kill(j)

    def undo(self, mark: int) -> None:
        while len(self.trail) > mark:
            i = self.trail.pop()
            self.alive[i] = True
            for c in (self.ea[i], self.eb[i]):
                self.ccount[c] += 1
            self.dcount[self.ed[i]] += 1
        self.queue.clear()

    def initial_queue(self) -> None:
        self.queue.extend((0, c) for c in range(self.ncells) if self.ccount[c] <= 1)
        self.queue.extend((1, d) for d in range(self.ndom) if self.dcount[d] <= 3)
        if 0 in self.ccount or 0 in self.dcount:
            raise Conflict

    # matching --------------------------------------------------------------------------------
    def matching_prune(self) -> int:
        """Remove the alive edges that lie in no perfect matching; return how many."""
        cols = self.cols
        # as many black cells as white ones: N+1 or N+2 is even
        black = [c for c in range(self.ncells) if ((c // cols) + (c % cols)) % 2 == 0]
        # black cell -> its alive edges as (white cell, edge)
        adj = {b: [(self.eb[i] if self.ea[i] == b else self.ea[i], i)
                   for i in self.cell_edges[b] if self.alive[i]] for b in black}
        mate = _hopcroft_karp(black, adj, self.ncells)
        if mate is None:
            raise Conflict
        # digraph on cells: black -> white along unmatched edges, white -> black along matched
        succ: list[list[int]] = [[] for _ in range(self.ncells)]
        for b in black:
            succ[b] = [w for w, _ in adj[b] if mate[b] != w]
            succ[mate[b]].append(b)
        comp = _scc(succ)
        dead = [i for b in black for w, i in adj[b] if mate[b] != w and comp[b] != comp[w]]
        for i in dead:
            self.kill(i)
        return len(dead)

    # probing ---------------------------------------------------------------------------------
    def probe(self) -> int:
        removed = 0
        for i in range(len(self.edges)):
            # skip placements removed, or forced (nothing competes with them)
            a, b, d = self.ea[i], self.eb[i], self.ed[i]
            if not self.alive[i] or self.ccount[a] == self.ccount[b] == self.dcount[d] == 1:
                continue
            mark = len(self.trail)
            try:
                self.place(i)
                self.propagate()
                failed = False
            except Conflict:
                failed = True
            self.undo(mark)
            if failed:
                self.kill(i)
                self.propagate()
                removed += 1
        return removed


def _hopcroft_karp(left: list[int], adj: dict[int, list[tuple[int, int]]],
                   size: int) -> list[int] | None:
    """A perfect matching of the bipartite graph as mate[cell] (both sides), or None."""
    mate = [-1] * size
    for u in left:  # greedy start
        for v, _ in adj[u]:
            if mate[v] < 0:
                mate[u], mate[v] = v, u
                break
    while True:
        frontier = [u for u in left if mate[u] < 0]
        if not frontier:
            return mate
        dist = _layers(frontier, adj, mate)
        augmented = [_augment(root, adj, mate, dist) for root in frontier] if dist else []
        if not any(augmented):  # every free root is tried in each phase
            return None


def _layers(frontier: list[int], adj: dict[int, list[tuple[int, int]]],
            mate: list[int]) -> dict[int, int] | None:
    """The BFS layers from the free left vertices (None: no augmenting path)."""
    dist = dict.fromkeys(frontier, 0)
    found, layer = False, frontier
    while layer and not found:
        nxt = []
        for u in layer:
            for v, _ in adj[u]:
                w = mate[v]
                if w < 0:
                    found = True
                elif w not in dist:
                    dist[w] = dist[u] + 1
                    nxt.append(w)
        layer = nxt
    return dist if found else None


def _augment(root: int, adj: dict[int, list[tuple[int, int]]], mate: list[int],
             dist: dict[int, int]) -> bool:
    """An augmenting path from ``root`` along the layers (iterative DFS), applied; False if
    there is none (the vertices it met are dead ends from then on)."""
    inf = sys.maxsize
    stack = [(root, iter(adj[root]))]
    while stack:
        u, it = stack[-1]
        for v, _ in it:
            w = mate[v]
            if w < 0:  # augment along the stack
                vv = v
                for uu in reversed([s[0] for s in stack]):
                    prev = mate[uu]
                    mate[uu], mate[vv] = vv, uu
                    vv = prev
                return True
            if dist.get(w, inf) == dist[u] + 1:
                stack.append((w, iter(adj[w])))
                break
        else:
            dist[u] = inf  # dead end
            stack.pop()
    return False


def _scc(succ: list[list[int]]) -> list[int]:
    """Component id per node (iterative Tarjan: a node is on Tarjan's stack while it is
    visited and has no component yet)."""
    n = len(succ)
    index, low, comp = [-1] * n, [0] * n, [-1] * n
    stack: list[int] = []
    counter = ncomp = 0
    for s in range(n):
        if index[s] >= 0:
            continue
        work = [(s, 0)]  # (node, its next successor); a node is visited at its first step
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
            if k < len(succ[v]):
                work.append((v, k + 1))
                w = succ[v][k]
                if index[w] < 0:
                    work.append((w, 0))
                elif comp[w] < 0:
                    low[v] = min(low[v], index[w])
                continue
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                while comp[v] < 0:
                    comp[stack.pop()] = ncomp
                ncomp += 1
    return comp


def reduce_board(p: Dominosa, *, matching: bool = True, probing: bool = True) -> Reduction:
    """Prune the board's placements to a fixpoint of the rules in the module docstring."""
    st = _State(p)
    try:
        st.initial_queue()
        st.propagate()
        changed = True
        while changed:
            matched = st.matching_prune() if matching else 0
            st.propagate()  # nothing to do unless matching removed something
            changed = matched + (st.probe() if probing else 0) > 0
    except Conflict:
        return Reduction(st.edges, [False] * len(st.edges), unsat=True)
    return Reduction(st.edges, st.alive)


def build_reduced(p: Dominosa) -> Model:
    """The ``placement`` model over the placements that survive ``reduce_board``: removed ones
    are set false and forced ones true by unit clauses; all placement variables stay in the
    projection."""
    red = reduce_board(p)
    m = Model("reduced")
    xs = [m.var(place_key(p, e)) for e in red.edges]
    m.projection = list(xs)
    if red.unsat:
        m.add_clause([xs[0]], "no solution (found by deduction)")
        m.add_clause([-xs[0]], "no solution (found by deduction)")
        return m
    by_cell: dict[Cell, list[int]] = {c: [] for c in p.cells()}
    by_domino: dict[tuple[int, int], list[int]] = {d: [] for d in dominoes(p.n)}
    for e, x, ok in zip(red.edges, xs, red.alive, strict=True):
        if not ok:
            m.add_clause([-x], "ruled out by deduction")
            continue
        by_cell[e[0]].append(x)
        by_cell[e[1]].append(x)
        by_domino[domino_of(p, e)].append(x)
    named = [*(f"cell {c}" for c in by_cell), *(f"domino {a}-{b}" for a, b in by_domino)]
    for lits, label in zip([*by_cell.values(), *by_domino.values()], named, strict=True):
        (m.add_clause if len(lits) == 1 else m.exactly_one)(lits, label)  # one left: a unit
    return m
