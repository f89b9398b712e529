"""Proof by contradiction for ``explain``: a placement is out when placing it leads, one named
rule at a time, to a constraint with no place left or a rule broken, within MAX_STEPS steps.

The model's constraints propagate here in Python, each on its own, so every deduction has a
name and the facts it rests on: "cell (1, 2): only 2-2 at (1,2)-(1,3) left", "region B (sum 9)
then needs 6 on (2,1)". What a placement takes (the other candidates of its cell and its
piece) and what a value's name follows from are not counted as steps: a person sees them on
the board. The chain shown is what the contradiction needs, traced back from it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from dataclasses import dataclass, field

from ..model import PB, AtMostOne, Card, Clause, Define, ExactlyOne, Model

MAX_STEPS = 10  # named steps in a chain a person can follow, the contradiction included
SHOWN = 3  # facts of one step written out; more are counted


@dataclass
class Chain:
    """A refutation: the named steps from the assumption to the contradiction, and the facts
    given before it (placements made, candidates ruled out) it rests on."""

    steps: list[str]
    given: set[int]
    outer: set[int] = field(default_factory=set)  # facts of an enclosing trial it rests on
    size: int = 0  # its named steps, those of the chains nested in it counted in full


@dataclass
class _Event:
    constraint: int
    before: tuple[int, ...]  # the variables it rests on
    made: list[int]  # the literals it derives ([] for a contradiction)
    counted: bool  # a step a person makes (not what a placement takes, or a value's name)
    depth: int
    inner: Chain | None = None  # a candidate ruled out by a chain of its own (depth two)


class Trials:
    """Propagation by named constraints from a set of given facts, with causes kept."""

    def __init__(self, m: Model, labels: list[str], fact: Callable[[int], str]) -> None:
        self.constraints = list(m.constraints)
        self.labels = labels
        self.fact = fact  # a literal in words
        placements = set(m.projection)
        self.top = m.num_vars  # the model's own variables (a trial's facts)
        self.plain = [structure(c, placements) for c in self.constraints]
        self.watch: dict[int, list[int]] = {}
        for i, c in enumerate(self.constraints):
            for v in _vars(c):
                self.watch.setdefault(v, []).append(i)

    def settle(self, given: dict[int, bool]) -> _State | None:
        """What the ``given`` facts lead to by every constraint (a value a placement shows,
        a region's needs), to try assumptions from; None if they contradict."""
        state = _State(dict(given), given)
        if self._run(state, [(0, i) for i in range(len(self.constraints))]) is not None:
            return None
        return state

    def refute(self, assumed: int, settled: _State, stop: int = 0) -> Chain | None:
        """The shortest chain found from ``assumed`` (on the ``settled`` facts) to a
        contradiction of at most MAX_STEPS named steps, or None. With ``stop``, the facts of
        the first ``stop`` events are taken as given (an enclosing trial's)."""
        if settled.value.get(abs(assumed), assumed > 0) != (assumed > 0):
            # the facts rule it out already: the chain that does it
            made = settled.cause.get(abs(assumed))
            return None if made is None or made < stop else self._chain(settled, made, stop)
        state = settled.copy()
        state.value[abs(assumed)] = assumed > 0
        state.assumed = abs(assumed)
        conflict = self._run(state, [(0, i) for i in self.watch.get(abs(assumed), ())])
        return None if conflict is None else self._chain(state, conflict, stop)

    def refute_nested(self, assumed: int, settled: _State, candidates: list[int],
                      fails: Callable[[list[int], int], bool]) -> Chain | None:
        """Depth two: from ``assumed``, a candidate that a chain of its own refutes is ruled
        out (that chain one step of this one, counted in full), and so on until a
        contradiction; ``fails(facts, candidate)`` screens the candidates first."""
        state = settled.copy()
        state.value[assumed], state.assumed = True, assumed
        if self._run(state, [(0, i) for i in self.watch.get(assumed, ())]) is not None:
            return None  # it fails alone: not this rule's case
        while True:
            facts = [v if b else -v for v, b in state.value.items() if v <= self.top]
            for y in candidates:
                if state.value.get(y) is not None or not fails(facts, y):
                    continue
                inner = self.refute(y, state, stop=len(state.events))
                if inner is None:
                    continue
                depth = inner.size + max((state.depth.get(v, 0) for v in inner.outer),
                                         default=0)
                state.events.append(_Event(-1, tuple(inner.outer), [-y], True, depth, inner))
                state.value[y], state.cause[y], state.depth[y] = False, len(state.events) - 1, depth
                conflict = self._run(state, [(depth, i) for i in self.watch.get(y, ())])
                if conflict is not None:
                    return self._chain(state, conflict)
                break  # new facts: look again from the first candidate
            else:
                return None

    def _run(self, state: _State, queue: list[tuple[int, int]]) -> int | None:
        """Propagate, shallowest first, to a fixpoint or a contradiction (its event)."""
        value, depth, events = state.value, state.depth, state.events
        queued = set(queue)
        heapq.heapify(queue)
        while queue:
            d, i = heapq.heappop(queue)
            queued.discard((d, i))
            if d > MAX_STEPS:
                return None
            found = _propagate(self.constraints[i], value)
            if found is None:
                continue
            made, counted = found
            counted = counted or not self.plain[i]
            derived = {abs(x) for x in made}
            before = tuple(v for v in _vars(self.constraints[i])
                           if v in value and v not in derived)
            level = max((depth.get(v, 0) for v in before), default=0) + counted
            events.append(_Event(i, before, made, counted, level))
            if not made:
                return len(events) - 1
            for x in made:
                value[abs(x)] = x > 0
                state.cause[abs(x)] = len(events) - 1
                depth[abs(x)] = level
                for j in self.watch.get(abs(x), ()):
                    if (level, j) not in queued:
                        queued.add((level, j))
                        heapq.heappush(queue, (level, j))
        return None

    def _chain(self, state: _State, conflict: int, stop: int = 0) -> Chain | None:
        needed: set[int] = set()
        used: set[int] = set()
        outer: set[int] = set()
        todo = [conflict]
        while todo:
            k = todo.pop()
            if k in needed:
                continue
            needed.add(k)
            for v in state.events[k].before:
                if state.cause.get(v, -1) >= stop:
                    todo.append(state.cause[v])
                    continue
                if v == state.assumed:
                    continue
                if stop:  # an enclosing trial's fact (its assumption, or one it derived)
                    outer.add(v)
                if v in state.given and v not in state.cause:
                    used.add(v if state.given[v] else -v)
        # a step: what one named constraint (its clauses alike: a region's "equals") derives
        # at one depth
        steps: dict[tuple[str, int], list[_Event]] = {}
        for k in sorted(needed, key=lambda k: (state.events[k].depth, k)):
            e = state.events[k]
            if e.counted or not e.made:
                name = self.labels[e.constraint] if e.inner is None else f"#{k}"
                steps.setdefault((name, e.depth), []).append(e)
        if not steps:  # what placements take and values are named: the last of it, shown
            last = state.events[conflict]
            steps[(self.labels[last.constraint], last.depth)] = [last]
        size = sum(1 if es[0].inner is None else es[0].inner.size for es in steps.values())
        if size > MAX_STEPS:
            return None
        return Chain([self._text(label, es, state.value) for (label, _), es in steps.items()],
                     used, outer, size)

    def _text(self, label: str, events: list[_Event], value: dict[int, bool]) -> str:
        if events[0].inner is not None:
            return (f"placing {self.fact(-events[0].made[0])} would lead to a contradiction: "
                    + "; ".join(events[0].inner.steps))
        made = [x for e in events for x in e.made]
        if any(not e.made for e in events):
            c = self.constraints[events[-1].constraint]
            if isinstance(c, ExactlyOne):
                taken = any(_truth(value, x) for x in c.lits)
                return f"{label} {'is covered twice' if taken else 'has no place left'}"
            return f"{label} cannot hold"
        c = self.constraints[events[0].constraint]
        if isinstance(c, (ExactlyOne, Define)) and len(made) == 1 and made[0] > 0:
            return f"{label}: only {self.fact(made[0])} left"
        needs = [self.fact(x) for x in made if x > 0]
        bars = [self.fact(-x) for x in made if x < 0]
        parts = ([f"needs {_some(needs)}"] if needs else []) + (
            [f"rules out {_some(bars)}"] if bars else [])
        return f"{label} then " + " and ".join(parts)


@dataclass
class _State:
    """Facts, each with the event that set it (none: given) and its depth in counted steps."""

    value: dict[int, bool]
    given: dict[int, bool]
    cause: dict[int, int] = field(default_factory=dict)
    depth: dict[int, int] = field(default_factory=dict)
    events: list[_Event] = field(default_factory=list)
    assumed: int = 0

    def copy(self) -> _State:
        return _State(dict(self.value), self.given, dict(self.cause), dict(self.depth),
                      list(self.events))


def structure(c: object, placements: set[int]) -> bool:
    """Is ``c`` the board's structure (a cell or piece covered once, a value's name) rather
    than a rule? What a placement takes by it is no step; what a rule over values does is
    ("region B (unequal) then rules out 3 on (1,1)")."""
    return isinstance(c, Define) or isinstance(c, (ExactlyOne, AtMostOne)) and \
        placements.issuperset(c.lits)


def _some(facts: list[str]) -> str:
    more = len(facts) - SHOWN
    return ", ".join(facts[:SHOWN]) + (f" and {more} more" if more > 0 else "")


def _vars(c: object) -> list[int]:
    if isinstance(c, PB):
        return [abs(x) for _, x in c.terms]
    if isinstance(c, Define):
        return [c.var, *map(abs, c.lits)]
    return [abs(x) for x in getattr(c, "lits", ())]


def _truth(value: dict[int, bool], x: int) -> bool | None:
    v = value.get(abs(x))
    return None if v is None else v == (x > 0)


# a constraint's propagation: (the literals it derives, whether that is a counted step), ([],
# _) for a contradiction, or None when it derives nothing new
Found = tuple[list[int], bool] | None


def _propagate(c: object, value: dict[int, bool]) -> Found:
    if isinstance(c, (ExactlyOne, AtMostOne, Clause, Card)):
        lits = c.lits
        if isinstance(c, Clause):
            return _linear([(1, x) for x in lits], ">=", 1, value)
        if isinstance(c, Card):
            return _linear([(1, x) for x in lits], c.op, c.bound, value)
        return _exclusive(lits, isinstance(c, ExactlyOne), value)
    if isinstance(c, PB):
        return _linear(list(c.terms), c.op, c.bound, value)
    if isinstance(c, Define):
        return _define(c, value)
    return None


def _exclusive(lits: tuple[int, ...], exactly: bool, value: dict[int, bool]) -> Found:
    truths = [_truth(value, x) for x in lits]
    true = [x for x, t in zip(lits, truths, strict=True) if t]
    open_ = [x for x, t in zip(lits, truths, strict=True) if t is None]
    if len(true) > 1 or exactly and not true and not open_:
        return [], True
    if true:  # what the placement takes: not a step
        return ([-x for x in open_], False) if open_ else None
    if exactly and len(open_) == 1:
        return [open_[0]], True
    return None


def _linear(terms: list[tuple[int, int]], op: str, bound: int, value: dict[int, bool]) -> Found:
    """sum(weight * lit) op bound, propagated on its bounds."""
    low, high, open_ = 0, 0, []
    for w, x in terms:
        if w < 0:  # w*x = w - w*(not x)
            w, x, bound = -w, -x, bound - w
        t = _truth(value, x)
        if t is None:
            open_.append((w, x))
            high += w
        elif t:
            low += w
            high += w
    if op in ("<=", "==") and low > bound or op in (">=", "==") and high < bound:
        return [], True
    made = []
    for w, x in open_:
        if op in ("<=", "==") and low + w > bound:
            made.append(-x)
        elif op in (">=", "==") and high - w < bound:
            made.append(x)
    if op == "==" and not made:  # on its bounds only, an equation misses what a sum cannot
        sums = _sums(open_, bound - low)  # make (as its clauses, a BDD, propagate it)
        if sums is None:
            return [], True
        made = sums
    return (made, True) if made else None


def _sums(open_: list[tuple[int, int]], target: int) -> list[int] | None:
    """Each open term of sum(weight * lit) == target that must be true, or false, for some
    choice of the others to make the sum (None: no choice does)."""
    def reach(terms: list[tuple[int, int]]) -> int:  # bit s set: some subset sums to s
        bits = 1
        for w, _ in terms:
            bits |= bits << w
        return bits

    if target < 0 or not reach(open_) >> target & 1:
        return None
    made = []
    for i, (w, x) in enumerate(open_):
        others = reach(open_[:i] + open_[i + 1:])
        if not others >> target & 1:
            made.append(x)
        elif target < w or not others >> (target - w) & 1:
            made.append(-x)
    return made


def _define(c: Define, value: dict[int, bool]) -> Found:
    """var <-> OR(lits), or AND as its dual: what follows from the name is no step, the one
    way left for a value to be shown is."""
    sign = 1 if c.kind == "or" else -1  # AND(lits) = not OR(not lits)
    var, lits = sign * c.var, [sign * x for x in c.lits]
    v = _truth(value, var)
    truths = [_truth(value, x) for x in lits]
    if any(truths):
        return ([var], False) if v is None else ([], True) if v is False else None
    open_ = [x for x, t in zip(lits, truths, strict=True) if t is None]
    if not open_:
        return ([-var], False) if v is None else ([], True) if v else None
    if v is False:
        return [-x for x in open_], False
    if v and len(open_) == 1:
        return [open_[0]], True
    return None
