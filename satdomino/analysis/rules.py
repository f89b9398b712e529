"""Named deductions for ``explain``: the candidates left in the puzzle's "exactly one of these"
constraints, and the rules that rule candidates out, each with a sentence a solver by hand
would say.

The rules are Simon Tatham's Dominosa deductions (his ``dominosa.c``), stated over any family's
exclusive constraints (a cell covered once, a piece placed once), so they apply wherever a
family's model has that shape:

- **one candidate left** (his Trivial): an exactly-one constraint with a single live
  candidate places it;
- **empties** (his Basic "square can only be one domino", "domino must overlap" and "local
  duplicate"): a candidate whose placing would rule out every candidate of some exactly-one
  constraint is out;
- **breaks**: a candidate whose placing, with the cells and pieces, would break one of the
  puzzle's other rules (a Pips region, a Domino Fit row sum) by unit propagation is out;
- **duplicates** (Basic "local duplicate"): a candidate whose placing would leave two squares
  that only one and the same piece could cover is out;
- **parity** (Basic): where every square must be covered by a two-square piece, a candidate
  that cuts the open squares into two even areas is out (each side would keep an odd number);
- **set** (his Hard set analysis): k squares showing the same number, no two joined by one
  placement, whose candidates all belong to k pieces, use those pieces up: the pieces'
  placements elsewhere are out. Where a double could cover two of the squares, his Extreme
  variants (ranked with chains): k squares with k-1 pieces need the double on two of them, k
  with k need it on one;
- **chain** (his Extreme forcing chains): an exactly-one constraint with two candidates left
  links them (one goes exactly when the other does not); a set of placements linked to go
  together that clashes with itself or leaves a constraint with no place is out, and so is
  what both sets of a chain would rule out (his "domino in both complementary chains");
- **contradiction** (``analysis/trial.py``): a candidate whose placing leads, one named
  constraint at a time, to a constraint with no place left or a rule broken, within 10
  steps, is out (the shortest such chains first).

What these do not settle is left to unit propagation and the solver, which ``explain`` tries
next.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import partial, reduce
from typing import Any

from ..model import AtMostOne, ExactlyOne, Model

# a rule's rank: the step level it gives (explain.LEVELS)
# Tatham grades a set with a double Extreme, with forcing chains
RANK = {"single": 1, "empties": 2, "breaks": 2, "duplicates": 2, "parity": 2, "set": 3,
        "double": 4, "chain": 4, "contradiction": 5}
SET_LIMIT = 16  # squares of one number beyond which set analysis is not tried (2^16 subsets)


@dataclass
class RuledOut:
    placement: int
    key: Hashable  # its name in the model
    rule: str  # the sentence: why it cannot be placed
    rank: int
    after: tuple[int, ...]  # earlier ruled-out placements the deduction needs
    placed: int  # how many placements had been made when it was deduced
    chain: tuple[str, ...] = ()  # a contradiction's named steps, in order


class _Mates:
    """Each placement's mates, the placements it shares an exclusive constraint with: made
    when asked, at most MATES_KEPT placements kept in them (all made at once, they took
    gigabytes on a 300-square packing with turned blocks)."""

    def __init__(self, member: dict[int, list]) -> None:
        self.member = member
        self._made: dict[int, set[int]] = {}
        self._held = 0  # placements in the sets made

    def __getitem__(self, x: int) -> set[int]:
        mates = self._made.get(x)
        if mates is None:
            if self._held > MATES_KEPT:
                self._made.clear()  # bounded: made again when asked again
                self._held = 0
            mates = self._made[x] = {y for c in self.member[x] for y in c.lits if y != x}
            self._held += len(mates)
        return mates

    def get(self, x: int, default: Any = ()) -> Any:
        """The mates of ``x`` (``default`` when it is in no exclusive constraint)."""
        return self[x] if x in self.member else default


MATES_KEPT = 4_000_000  # placements in all the sets kept: some 200 MB


class Candidates:
    """The live candidates of a model's exclusive constraints, given the placements made and
    the candidates ruled out by the named rules so far (``ruled``)."""

    def __init__(self, m: Model, constraints, describe: Callable[[Model, object], str],
                 squares: Callable[[Hashable], list] | None = None,
                 values: Callable[[Hashable], list | None] | None = None,
                 breaks: Callable[[set[int], set[int]], list[RuledOut]] | None = None,
                 contradictions: Callable[[set[int], set[int]], list[RuledOut]] | None = None
                 ) -> None:
        self.m = m
        self.breaks, self.contradictions = breaks, contradictions
        self.describe = describe
        self.exclusive = [c for c in constraints if isinstance(c, (ExactlyOne, AtMostOne))]
        self.exactly = [c for c in self.exclusive if isinstance(c, ExactlyOne)]
        self.member: dict[int, list] = {}  # the exclusive constraints it is in
        for c in self.exclusive:
            for x in c.lits:
                self.member.setdefault(x, []).append(c)
        self.mates = _Mates(self.member)  # placements that cannot go with it
        self.ruled: dict[int, RuledOut] = {}
        self.cover: dict[Hashable, ExactlyOne] = {}  # a square -> its "covered once" one
        self.square_of: dict[int, tuple] = {}  # a placement -> the squares it covers
        self.value: dict[Hashable, object] = {}  # a square -> the number it shows, if fixed
        if squares is not None:
            self._squares(squares, values)

    def _squares(self, squares, values) -> None:
        """Parity and set analysis need squares: each placement's two squares, and each square
        covered exactly once by an exactly-one constraint over the placements on it."""
        on: dict[Hashable, set[int]] = {}
        shown: dict[Hashable, set] = {}
        square_of = {}
        for x in self.m.projection:  # the placements (not a Pips cell's value, say)
            cells = [tuple(u) for u in squares(self.m.key(x))]
            if len(cells) != 2:
                return
            square_of[x] = tuple(cells)
            shows = (values(self.m.key(x)) if values else None) or [None, None]
            for u, v in zip(cells, shows, strict=True):
                on.setdefault(u, set()).add(x)
                shown.setdefault(u, set()).add(v)
        by_lits = {frozenset(c.lits): c for c in self.exactly}
        if any(frozenset(xs) not in by_lits for xs in on.values()):
            return  # a square some solutions leave uncovered
        self.square_of = square_of
        self.cover = {u: by_lits[frozenset(xs)] for u, xs in on.items()}
        self.value = {u: next(iter(v)) for u, v in shown.items()
                      if len(v) == 1 and None not in v}

    # the state --------------------------------------------------------------------------------

    def dead(self, placed: set[int]) -> set[int]:
        """Candidates that cannot be placed: those sharing a constraint with a placement, and
        the ruled-out ones."""
        out = {y for x in placed for y in self.mates.get(x, ())}
        return (out | set(self.ruled)) - placed

    def single(self, placed: set[int]) -> tuple[int, object] | None:
        """An open exactly-one constraint with one live candidate: (that candidate, it)."""
        return next(((left[0], c) for c, left in self._open(placed, self.dead(placed))
                     if len(left) == 1), None)

    def _open(self, placed: set[int], dead: set[int]) -> Iterator[tuple[ExactlyOne, list[int]]]:
        """The exactly-one constraints no placement fills yet, with their live candidates."""
        for c in self.exactly:
            if not placed.intersection(c.lits):
                yield c, [x for x in c.lits if x not in dead]

    def needs(self, lits, placed: set[int]) -> tuple[int, ...]:
        """The ruled-out placements among ``lits`` (what a deduction over them rests on)."""
        direct = {y for x in placed for y in self.mates.get(x, ())}
        return tuple(x for x in lits if x in self.ruled and x not in direct)

    def closure(self, xs) -> list[RuledOut]:
        """The ruled-out placements ``xs`` and everything their deductions needed, oldest
        first."""
        seen: set[int] = set()
        todo = [x for x in xs if x in self.ruled]
        while todo:
            x = todo.pop()
            if x not in seen and x in self.ruled:  # (a contradiction's facts: placed ones too)
                seen.add(x)
                todo.extend(self.ruled[x].after)
        return [r for x, r in self.ruled.items() if x in seen]  # in the order ruled out

    # the rules --------------------------------------------------------------------------------

    def rule_out(self, placed: set[int]) -> list[RuledOut]:
        """The easiest rule that rules something out now, applied throughout; [] when none
        does."""
        for rule in (self._empties, self.breaks, self._duplicates, self._parity, self._set,
                     partial(self._set, doubles=True), self._chains, self.contradictions):
            found = rule(placed, self.dead(placed)) if rule else []
            if found:
                self.ruled.update((r.placement, r) for r in found)
                return found
        return []

    def _name(self, c) -> str:
        return self.describe(self.m, c)

    def _empties(self, placed: set[int], dead: set[int]) -> list[RuledOut]:
        found: dict[int, RuledOut] = {}
        for c, live in self._open(placed, dead):
            if not live:
                continue
            # a candidate that rules out all of c shares a constraint with its first one
            for x in sorted(self.mates.get(live[0], ())):
                if x in dead or x in found or x in c.lits:
                    continue
                if all(y in self.mates[x] for y in live):
                    found[x] = RuledOut(x, self.m.key(x), "placing it would leave "
                                        f"{self._name(c)} with no place", RANK["empties"],
                                        self.needs(c.lits, placed), len(placed))
        return list(found.values())

    def _duplicates(self, placed: set[int], dead: set[int]) -> list[RuledOut]:
        found: list[RuledOut] = []
        for x in self.square_of:
            if x in dead or x in placed:
                continue
            touched = {u for y in self.mates[x] if y not in dead and y in self.square_of
                       for u in self.square_of[y]} - set(self.square_of[x])
            needing: dict[int, tuple] = {}  # a piece -> (it, the squares only it could cover)
            left: dict = {}
            for u in sorted(touched):
                left[u] = [y for y in self.cover[u].lits
                           if y not in dead and y not in self.mates[x]]
                if not left[u]:
                    continue  # the empties rule's case
                for c in set.intersection(*(set(self._pieces(y)) for y in left[u])):
                    needing.setdefault(id(c), (c, []))[1].append(u)
            # the first piece with two squares no one placement of it covers together
            pair = next(((piece, u, w) for piece, squares in needing.values()
                         for u, w in itertools.combinations(squares, 2)
                         if not any(w in self.square_of[y] for y in left[u])), None)
            if pair is not None:
                piece, u, w = pair
                found.append(RuledOut(
                    x, self.m.key(x), f"placing it would leave squares {u} and {w} both "
                    f"needing {self._name(piece)}", RANK["duplicates"],
                    self.needs(self.cover[u].lits + self.cover[w].lits, placed), len(placed)))
        return found

    def _pieces(self, y: int) -> list:
        """The exclusive constraints of a placement besides its squares' (its piece's)."""
        own = {id(self.cover[u]) for u in self.square_of[y]}
        return [c for c in self.member[y] if id(c) not in own]

    def _open_graph(self, placed: set[int], dead: set[int]):
        covered = {u for x in placed for u in self.square_of.get(x, ())}
        edges = [(x, *self.square_of[x]) for x in self.square_of
                 if x not in dead and x not in placed]
        return [u for u in self.cover if u not in covered], edges

    def _parity(self, placed: set[int], dead: set[int]) -> list[RuledOut]:
        squares, edges = self._open_graph(placed, dead)
        found = []
        for x, side, component in _bridges(squares, edges):
            total = len(component)
            if side % 2 == 0 and (total - side) % 2 == 0:
                # the missing edges of its area shaped the cut
                gone = tuple(y for y in self.ruled
                             if y in self.square_of and self.square_of[y][0] in component)
                found.append(RuledOut(x, self.m.key(x), "placing it would cut the open squares "
                                      f"into two odd areas ({side - 1} and {total - side - 1} "
                                      "squares)", RANK["parity"], gone, len(placed)))
        return found

    def _set(self, placed: set[int], dead: set[int], doubles: bool = False) -> list[RuledOut]:
        if not self.value:
            return []
        squares, _ = self._open_graph(placed, dead)
        piece_index: dict[int, int] = {}
        pieces: list = []
        found: dict[int, RuledOut] = {}
        by_value: dict[object, list] = {}
        for u in squares:
            if u in self.value:
                by_value.setdefault(self.value[u], []).append(u)
        for value, group in sorted(by_value.items(), key=lambda kv: str(kv[0])):
            if len(group) > SET_LIMIT:
                continue
            live = {u: [x for x in self.cover[u].lits if x not in dead] for u in group}
            masks, joined = self._masks(group, live, piece_index, pieces)
            done = 0
            for subset in (sum(1 << i for i in combo) for k in range(1, len(group) + 1)
                           for combo in itertools.combinations(range(len(group)), k)):
                if subset & done:
                    continue
                members = [i for i in range(len(group)) if subset >> i & 1]
                union = reduce(int.__or__, (masks[i] for i in members), 0)
                k = union.bit_count()
                linked = any(joined[i] & subset for i in members)
                if union < 0 or linked != doubles or not (
                        k == len(members) or linked and k == len(members) - 1):
                    continue
                chosen = {group[i] for i in members}
                used = [pieces[k] for k in range(len(pieces)) if union >> k & 1]
                out = self._set_out(chosen, used, live, dead, linked)
                out = [(x, why) for x, why in out if x not in found]
                if not out:
                    continue
                done |= subset
                where = ", ".join(str(group[i]) for i in members)
                names = ", ".join(self._name(c) for c in used)
                after = self.needs([x for u in chosen for x in self.cover[u].lits], placed)
                for x, why in out:
                    found[x] = RuledOut(x, self.m.key(x), f"the squares {where} showing "
                                        f"{value} can only take {names}{why}",
                                        RANK["double" if linked else "set"], after,
                                        len(placed))
        return list(found.values())

    def _masks(self, group: list, live: dict, piece_index: dict[int, int],
               pieces: list) -> tuple[list[int], list[int]]:
        """For each square of ``group``: the pieces its live candidates belong to (bits of
        ``pieces``; -1 if one belongs to none), and the squares of ``group`` one of them also
        covers (bits by position in ``group``)."""
        masks, joined = [], []
        for u in group:
            mask, near = 0, 0
            for x in live[u]:
                held = self._pieces(x)
                if not held:  # a candidate no piece limits: the square counts no piece
                    mask = -1
                    break
                for c in held:
                    if id(c) not in piece_index:
                        piece_index[id(c)] = len(pieces)
                        pieces.append(c)
                    mask |= 1 << piece_index[id(c)]
                a, b = self.square_of[x]
                other = b if a == u else a
                if other in group:
                    near |= 1 << group.index(other)
            masks.append(mask)
            joined.append(near)
        return masks, joined

    def _set_out(self, chosen: set, used: list, live: dict, dead: set[int],
                 joined: bool) -> list[tuple[int, str]]:
        """Set analysis on squares ``chosen`` whose candidates all belong to the pieces
        ``used``: the placements it rules out, each with the end of its sentence. Each piece
        goes once, so k squares need k pieces; a piece one placement of which covers two of
        the squares (a double) may serve two."""
        inside = {x for u in chosen for x in live[u]}

        def on(x: int) -> int:
            return sum(u in chosen for u in self.square_of[x])

        if not joined:
            return [(x, ", so none of them goes elsewhere") for c in used for x in c.lits
                    if x not in dead and x not in inside] if len(used) == len(chosen) else []
        doubles = {id(c): c for x in inside if on(x) == 2 for c in self._pieces(x)}
        if len(doubles) != 1:
            return []
        (double,) = doubles.values()
        name = self._name(double)
        if len(used) == len(chosen) - 1:  # the double must cover two of them
            return [(x, f": {name} must cover two of them") for c in used for x in c.lits
                    if x not in dead and (on(x) < 2 if c is double else on(x) == 0)]
        if len(used) == len(chosen):  # the double must cover at least one of them
            return [(x, f": {name} must cover one of them") for x in double.lits
                    if x not in dead and on(x) == 0]
        return []

    def _chains(self, placed: set[int], dead: set[int]) -> list[RuledOut]:
        """Forcing chains: where an exactly-one constraint has two candidates left, one goes
        exactly when the other does not; following such links gives two sets of placements,
        one of which happens. A set that clashes with itself, or leaves some constraint
        with no place, is out; and what both sets of a chain rule out is out."""
        sides, links = self._chain_sides(placed, dead)
        return (self._self_defeating(sides, links, placed, dead)
                or self._both_ways(sides, links, placed, dead))

    def _chain_sides(self, placed: set[int], dead: set[int]
                     ) -> tuple[dict[tuple[int, int], list[int]], dict[int, list]]:
        """The chains: (their sides, by (root, parity), the placements on each; the
        two-candidate constraints that link each root's set)."""
        parent: dict[int, tuple[int, int]] = {}  # placement -> (parent, parity to it)

        def find(x: int) -> tuple[int, int]:
            flip = 0
            while parent.get(x, (x, 0))[0] != x:
                x, f = parent[x]
                flip ^= f
            return x, flip

        links: dict[int, list] = {}
        nodes: set[int] = set()
        for c, live in self._open(placed, dead):
            if len(live) != 2:
                continue
            nodes.update(live)
            (a, fa), (b, fb) = find(live[0]), find(live[1])
            if a != b:
                parent[a] = (b, fa ^ fb ^ 1)
                links.setdefault(b, []).extend(links.pop(a, []))
            links.setdefault(b if a != b else a, []).append(c)
        sides: dict[tuple[int, int], list[int]] = {}
        for x in sorted(nodes):
            sides.setdefault(find(x), []).append(x)
        return sides, links

    def _self_defeating(self, sides: dict[tuple[int, int], list[int]], links: dict[int, list],
                        placed: set[int], dead: set[int]) -> list[RuledOut]:
        found: list[RuledOut] = []
        for (root, _), side in sorted(sides.items()):
            if len(side) < 2:
                continue
            members = set(side)
            why, emptied = None, ()  # type: tuple[str | None, tuple[int, ...]]
            clash = next(((x, y) for x in side for y in self.mates[x] if y in members), None)
            if clash is not None:
                shared = next(c for c in self.member[clash[0]] if clash[1] in c.lits)
                why = f"clash on {self._name(shared)}"
            else:
                killed = set().union(*(self.mates[x] for x in side)) | dead
                empty = next((c for c in self.exactly if not members.intersection(c.lits)
                              and not placed.intersection(c.lits)
                              and all(x in killed for x in c.lits)), None)
                if empty is not None:
                    why, emptied = f"leave {self._name(empty)} with no place", empty.lits
            if why is None:
                continue
            after = self.needs([x for c in links.get(root, []) for x in c.lits]
                               + list(emptied), placed)
            found += [RuledOut(x, self.m.key(x), f"placing it forces {len(side)} placements "
                               "(through squares and pieces with two candidates left) that "
                               f"{why}", RANK["chain"], after, len(placed)) for x in side]
        return found

    def _both_ways(self, sides: dict[tuple[int, int], list[int]], links: dict[int, list],
                   placed: set[int], dead: set[int]) -> list[RuledOut]:
        """One of a chain's two sets happens: what both would rule out is out."""
        for root in sorted({root for root, _ in sides}):
            one, other = sides.get((root, 0), []), sides.get((root, 1), [])
            if not one or not other:
                continue
            both = set().union(*(self.mates[x] for x in one)) & set().union(
                *(self.mates[x] for x in other))
            after = self.needs([x for c in links.get(root, []) for x in c.lits], placed)
            found = [RuledOut(x, self.m.key(x), f"either way of a chain of {len(one) + len(other)}"
                              " placements (through squares and pieces with two candidates "
                              "left) rules it out", RANK["chain"], after, len(placed))
                     for x in sorted(both - dead - placed - set(one) - set(other))]
            if found:
                return found
        return []


def _bridges(squares: list, edges: list) -> list[tuple[int, int, set]]:
    """Tarjan's bridges of the graph (``edges``: (id, u, v), parallel edges allowed): for each
    bridge, (its id, how many squares are on its child side, the squares of its component)."""
    adjacent: dict = {u: [] for u in squares}
    for x, u, v in edges:
        if u in adjacent and v in adjacent:
            adjacent[u].append((v, x))
            adjacent[v].append((u, x))
    order: dict = {}
    low: dict = {}
    size: dict = {}
    out = []
    for root in squares:
        if root in order:
            continue
        component: list = [root]
        found: list = []
        stack = [(root, None, iter(adjacent[root]))]
        order[root] = low[root] = len(order)
        size[root] = 1
        while stack:
            u, via, it = stack[-1]
            step = next(it, None)
            if step is None:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[u])
                    size[parent] += size[u]
                    if low[u] > order[parent]:
                        found.append((via, size[u]))
                continue
            v, x = step
            if x == via:
                continue
            if v in order:
                low[u] = min(low[u], order[v])
            else:
                order[v] = low[v] = len(order)
                size[v] = 1
                component.append(v)
                stack.append((v, x, iter(adjacent[v])))
        whole = set(component)
        out += [(x, side, whole) for x, side in found]
    return out
