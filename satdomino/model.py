"""The model IR: named Boolean variables and high-level constraints over them.

Variables are numbered 1..n in creation order, so a literal is a non-zero int (negative =
negated), exactly as in DIMACS and python-sat. Lowering to CNF (``satdomino.encode``) allocates
auxiliary variables above n from one shared pool, so ids 1..n keep their meaning in every CNF,
Z3 formula and solver model built from this Model.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, Literal

Op = Literal["<=", ">=", "=="]
OPS: tuple[Op, ...] = ("<=", ">=", "==")


@dataclass(frozen=True)
class Clause:
    lits: tuple[int, ...]


@dataclass(frozen=True)
class AtMostOne:
    lits: tuple[int, ...]


@dataclass(frozen=True)
class ExactlyOne:
    lits: tuple[int, ...]


@dataclass(frozen=True)
class Card:
    """sum(lits) op bound."""

    lits: tuple[int, ...]
    op: Op
    bound: int


@dataclass(frozen=True)
class PB:
    """sum(weight * lit) op bound, weights are non-zero ints."""

    terms: tuple[tuple[int, int], ...]  # (weight, literal)
    op: Op
    bound: int


@dataclass(frozen=True)
class Define:
    """var <-> OR(lits) (kind "or") or var <-> AND(lits) (kind "and"). ``exclusive``: the
    model's other constraints allow at most one of ``lits``, so var is also their sum (the 0-1
    program of our local search substitutes it)."""

    var: int
    kind: Literal["or", "and"]
    lits: tuple[int, ...]
    exclusive: bool = False


@dataclass(frozen=True)
class IntVar:
    """A small integer variable with a finite domain; lowering picks its encoding (``int``)."""

    key: Hashable
    values: tuple[int, ...]  # sorted, distinct


@dataclass(frozen=True)
class IntView:
    """Boolean model variable ``var`` <-> (x == k) (op "==") or (x >= k) (op ">=")."""

    var: int
    x: IntVar
    op: Literal["==", ">="]
    k: int


@dataclass(frozen=True)
class IntLinear:
    """sum(c * x for c, x in ints) + sum(w * lit for w, lit in bools) op bound."""

    ints: tuple[tuple[int, IntVar], ...]
    bools: tuple[tuple[int, int], ...]
    op: Op
    bound: int


Constraint = Clause | AtMostOne | ExactlyOne | Card | PB | Define | IntView | IntLinear


def holds(constraint: Constraint, value: dict[int, bool] | Sequence[bool],
          ints: dict[Hashable, int] | None = None) -> bool:
    """Evaluate one constraint under a full assignment (``value[var]``, and ``ints[key]`` for
    integer variables): the IR's semantics."""

    def lit(x: int) -> bool:
        return value[x] if x > 0 else not value[-x]

    match constraint:
        case Clause(lits):
            return any(lit(x) for x in lits)
        case AtMostOne(lits):
            return sum(lit(x) for x in lits) <= 1
        case ExactlyOne(lits):
            return sum(lit(x) for x in lits) == 1
        case Card(lits, op, bound):
            return compare(sum(lit(x) for x in lits), op, bound)
        case PB(terms, op, bound):
            return compare(sum(w for w, x in terms if lit(x)), op, bound)
        case Define(var, kind, lits):
            inner = any(lit(x) for x in lits) if kind == "or" else all(lit(x) for x in lits)
            return value[var] == inner
        case IntView(var, x, op, k):
            v = (ints or {})[x.key]
            return value[var] == (v == k if op == "==" else v >= k)
        case IntLinear(terms, bools, op, bound):
            total = sum(c * (ints or {})[x.key] for c, x in terms)
            return compare(total + sum(w for w, b in bools if lit(b)), op, bound)
    raise TypeError(f"not a constraint: {constraint!r}")


def compare(total: int, op: Op, bound: int) -> bool:
    return total <= bound if op == "<=" else total >= bound if op == ">=" else total == bound


Label = str | Callable[[int], str]  # a name, or a batch's names by position in the batch


class Model:
    """A named set of Boolean variables and constraints built by one puzzle family.

    ``projection`` lists the variables a decoder reads (the puzzle's own placement variables);
    uniqueness and counting are over these. Every constraint carries a label in the puzzle's
    words ("cell (2, 4)", "domino 3-5", "region B (sum 9)"): explanations and reasons name
    constraints by it, and constraints of one label are one rule of the puzzle.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._ids: dict[Hashable, int] = {}
        self._names: list[Hashable] = [None]  # index 0 unused: ids start at 1
        self.constraints: list[Constraint] = []
        self.projection: list[int] = []
        # indices into ``constraints`` of the exactly-one constraints that say which of its
        # alternatives an item takes (where a domino lies, which value an integer has): a
        # local search keeps these satisfied and moves between their alternatives
        self.choices: list[int] = []
        self.ints: dict[Hashable, IntVar] = {}
        self._views: dict[tuple[Hashable, str, int], int] = {}
        self._int_labels: dict[Hashable, str] = {}
        # (first constraint index, label) per batch of constraints added together
        self._label_starts: list[int] = []
        self._labels: list[tuple[int, Label | None]] = []

    def _labelled(self, label: Label | None) -> None:
        """The constraints added next carry ``label`` (a function: by position in the batch)."""
        first = len(self.constraints)
        if self._labels and self._labels[-1][1] is label and not callable(label):
            return  # the same name again: one entry covers both
        self._label_starts.append(first)
        self._labels.append((first, label))

    def label(self, index: int) -> str:
        """The label of constraint ``index`` (one without a label is named by its kind)."""
        k = bisect_right(self._label_starts, index) - 1
        first, label = self._labels[k] if k >= 0 else (0, None)
        if label is None:
            return f"{type(self.constraints[index]).__name__} {index}"
        return label(index - first) if callable(label) else label

    # variables -------------------------------------------------------------------------------
    def var(self, key: Hashable) -> int:
        """The id of the variable named ``key``, created on first use."""
        if key not in self._ids:
            self._ids[key] = len(self._names)
            self._names.append(key)
        return self._ids[key]

    def new_vars(self, keys: Sequence[Hashable]) -> range:
        """Ids for ``keys``, each a name not used before, in their order: ``var`` for each, in
        one step (an N = 50 Dominosa board, 51x52 cells, names 5,201 placements)."""
        first = len(self._names)
        self._ids.update(zip(keys, range(first, first + len(keys)), strict=True))
        if len(self._ids) != first - 1 + len(keys):  # a name used twice: undo, then say which
            self._ids = dict(zip(self._names[1:], range(1, first), strict=True))
            again = next(k for i, k in enumerate(keys) if k in self._ids or k in keys[:i])
            raise ValueError(f"variable {again!r} is named twice in model {self.name!r}")
        self._names.extend(keys)
        return range(first, first + len(keys))

    def has(self, key: Hashable) -> bool:
        """Is a variable named ``key`` already in the model?"""
        return key in self._ids

    def key(self, vid: int) -> Any:
        """The name of variable ``vid`` (a negative literal names its variable): whatever
        hashable the model named it by, so a decoder can take it apart."""
        return self._names[abs(vid)]

    def items(self) -> Iterable[tuple[Any, int]]:
        """Every (name, id) pair."""
        return self._ids.items()

    @property
    def num_vars(self) -> int:
        """The number of model variables (ids 1..num_vars)."""
        return len(self._names) - 1

    # constraints ----------------------------------------------------------------------------
    def _lits(self, lits: Iterable[int]) -> tuple[int, ...]:
        out = tuple(lits)
        n = self.num_vars
        # min/max run in C: one pass each instead of a Python loop over every literal
        if out and (0 in out or max(out) > n or min(out) < -n):
            bad = next(x for x in out if x == 0 or abs(x) > n)
            raise ValueError(f"literal {bad} is not a variable of model {self.name!r}")
        return out

    def _add(self, constraint: Constraint, label: Label | None) -> None:
        self._labelled(label)
        self.constraints.append(constraint)

    def add_clause(self, lits: Iterable[int], label: str | None = None) -> None:
        """At least one of ``lits`` is true."""
        self._add(Clause(self._lits(lits)), label)

    def at_most_one(self, lits: Iterable[int], label: str | None = None) -> None:
        """At most one of ``lits`` is true."""
        self._add(AtMostOne(self._lits(lits)), label)

    def exactly_one(self, lits: Iterable[int], label: str | None = None,
                    choice: bool = False) -> None:
        """Exactly one of ``lits``; ``choice``: they are an item's alternatives (``choices``)."""
        if choice:
            self.choices.append(len(self.constraints))
        self._add(ExactlyOne(self._lits(lits)), label)

    def exactly_ones(self, groups: Iterable[Iterable[int]],
                     labels: Callable[[int], str] | None = None, choice: bool = False) -> None:
        """``exactly_one`` of each group, its literals checked in one pass over all groups;
        ``labels(k)`` names the k-th; ``choice``: each group is an item's alternatives (see
        ``choices``)."""
        tuples = list(map(tuple, groups))
        flat = list(chain.from_iterable(tuples))
        if flat and (min(flat) < 1 or max(flat) > self.num_vars):  # not all positive ids
            self._lits(flat)
        if choice:
            self.choices.extend(range(len(self.constraints), len(self.constraints) + len(tuples)))
        self._labelled(labels)
        self.constraints.extend(map(ExactlyOne, tuples))

    def card(self, lits: Iterable[int], op: Op, bound: int, label: str | None = None) -> None:
        """``sum(lits) op bound``, op one of <=, >=, ==."""
        if op not in OPS:
            raise ValueError(f"unknown comparison {op!r}")
        self._add(Card(self._lits(lits), op, bound), label)

    def pb(self, terms: Iterable[tuple[int, int]], op: Op, bound: int,
           label: str | None = None) -> None:
        """sum(w * x for w, x in terms) op bound."""
        if op not in OPS:
            raise ValueError(f"unknown comparison {op!r}")
        pairs = tuple((int(w), x) for w, x in terms if w != 0)
        self._lits(x for _, x in pairs)
        self._add(PB(pairs, op, bound), label)

    def define_or(self, var: int, lits: Iterable[int], label: str | None = None,
                  exclusive: bool = False) -> None:
        """``var`` is true exactly when one of ``lits`` is; ``exclusive``: the other
        constraints allow at most one of them (``Define``)."""
        self._add(Define(self._lits([var])[0], "or", self._lits(lits), exclusive), label)

    def define_and(self, var: int, lits: Iterable[int], label: str | None = None) -> None:
        """``var`` is true exactly when all of ``lits`` are."""
        self._add(Define(self._lits([var])[0], "and", self._lits(lits)), label)

    # integer variables ---------------------------------------------------------------------
    def int_var(self, key: Hashable, values: Iterable[int], label: str | None = None) -> IntVar:
        """An integer variable named ``key`` taking one of ``values`` (declared once; again with the
        same values, the same variable); ``label`` names it in its views' labels ("cell (2, 4)":
        "cell (2, 4) == 3")."""
        if label is not None:
            self._int_labels[key] = label
        dom = tuple(sorted(set(values)))
        if not dom:
            raise ValueError(f"integer variable {key!r} has an empty domain")
        if key in self.ints and self.ints[key].values != dom:
            raise ValueError(f"integer variable {key!r} declared twice with other values")
        return self.ints.setdefault(key, IntVar(key, dom))

    def _view(self, x: IntVar, op: Literal["==", ">="], k: int) -> int:
        if (x.key, op, k) not in self._views:
            self._views[x.key, op, k] = vid = self.var(("int", op, x.key, k))
            self._add(IntView(vid, x, op, k), f"{self._int_labels.get(x.key, x.key)} {op} {k}")
        return self._views[x.key, op, k]

    def int_eq(self, x: IntVar, k: int) -> int:
        """A Boolean model variable that is true exactly when x == k."""
        return self._view(x, "==", k)

    def int_ge(self, x: IntVar, k: int) -> int:
        """A Boolean model variable that is true exactly when x >= k."""
        return self._view(x, ">=", k)

    def int_linear(self, ints: Iterable[tuple[int, IntVar]], op: Op, bound: int,
                   bools: Iterable[tuple[int, int]] = (), label: str | None = None) -> None:
        """``sum(c * x) + sum(w * lit) op bound`` over integer variables ``ints`` and Boolean
        ``bools``."""
        if op not in OPS:
            raise ValueError(f"unknown comparison {op!r}")
        bs = tuple((int(w), x) for w, x in bools if w != 0)
        self._lits(x for _, x in bs)
        self._add(IntLinear(tuple((int(c), x) for c, x in ints if c), bs, op, bound), label)

    def satisfied_by(self, value: dict[int, bool] | Sequence[bool],
                     ints: dict[Hashable, int] | None = None) -> bool:
        """Does the assignment (``value[var]``, and ``ints[key]`` for integer variables)
        satisfy every constraint? The IR's meaning."""
        return self.broken(value, ints) is None

    def broken(self, value: dict[int, bool] | Sequence[bool],
               ints: dict[Hashable, int] | None = None) -> int | None:
        """The index of the first constraint the assignment breaks (None: none), as
        ``satisfied_by`` reads it. An integer variable missing from ``ints`` takes the value its
        views say: the ``k`` of a true ``x == k``, else the largest ``k`` of a true
        ``x >= k``, else its smallest value."""
        known = dict(ints or {})
        views = [c for c in self.constraints if isinstance(c, IntView) and c.x.key not in known]
        for c in sorted(views, key=lambda c: (c.op == "==", c.k)):  # == views decide last
            if value[c.var]:
                known[c.x.key] = c.k
        for key, x in self.ints.items():
            known.setdefault(key, x.values[0])
        return next((i for i, c in enumerate(self.constraints) if not holds(c, value, known)),
                    None)

    def __repr__(self) -> str:
        return f"Model({self.name!r}, {self.num_vars} vars, {len(self.constraints)} constraints)"
