"""The encoding registry: one table per constraint kind, filled by ``@register`` entries."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pysat.formula import IDPool

from ..errors import UnknownNameError

KINDS = ("amo", "card", "pb", "int")


@dataclass
class CNF:
    """Clauses over ids 1..num_vars; ids 1..model_vars are the Model's own variables.

    ``atmosts`` holds native cardinality constraints (lits, k), meaning sum(lits) <= k, for
    backends that take them; every other backend gets a CNF without them.
    """

    num_vars: int
    model_vars: int
    clauses: list[list[int]] = field(default_factory=list)
    atmosts: list[tuple[list[int], int]] = field(default_factory=list)

    def copy(self) -> CNF:
        """An independent copy: clauses and at-most-k constraints can be added to it alone."""
        return CNF(self.num_vars, self.model_vars, [list(c) for c in self.clauses],
                   [(list(ls), k) for ls, k in self.atmosts])


class Sink:
    """Where an encoder writes: the growing CNF plus the shared variable pool."""

    def __init__(self, cnf: CNF, pool: IDPool) -> None:
        self.cnf = cnf
        self.pool = pool
        self._false: int | None = None
        self._true: int | None = None

    def fresh(self) -> int:
        return self.pool.id()

    def clause(self, lits: list[int]) -> None:
        if lits:
            self.cnf.clauses.append(lits)
        else:
            self.false()

    def clauses(self, clauses: list[list[int]]) -> None:
        for c in clauses:
            self.clause(c)

    def true(self) -> int:
        """A literal that is always true (its negation: always false)."""
        if self._true is None:
            self._true = self.fresh()
            self.cnf.clauses.append([self._true])
        return self._true

    def define_or(self, lits: list[int], y: int | None = None) -> int:
        """``y`` (a fresh variable if None) made equal to OR(lits)."""
        y = self.fresh() if y is None else y
        self.clause([-y, *lits])
        for x in lits:
            self.clause([-x, y])
        return y

    def define_and(self, lits: list[int], y: int | None = None) -> int:
        """``y`` (a fresh variable if None) made equal to AND(lits)."""
        y = self.fresh() if y is None else y
        self.clause([y, *(-x for x in lits)])
        for x in lits:
            self.clause([-y, x])
        return y

    def false(self) -> None:
        """Make the formula unsatisfiable without an empty clause (not every solver takes one)."""
        if self._false is None:
            self._false = self.fresh()
            self.cnf.clauses += [[self._false], [-self._false]]

    def atmost(self, lits: list[int], k: int) -> None:
        self.cnf.atmosts.append((list(lits), k))


Encode = Callable[..., Any]


@dataclass(frozen=True)
class Encoder:
    kind: str
    name: str
    summary: str
    encode: Encode
    native: bool = False  # needs a backend with native cardinality constraints


REGISTRY: dict[str, dict[str, Encoder]] = {kind: {} for kind in KINDS}
# amo/card/pb entries are functions that write clauses; int entries are IntEncoding classes


def register(kind: str, name: str, summary: str, *,
             native: bool = False) -> Callable[[Encode], Encode]:
    def wrap(fn: Encode) -> Encode:
        REGISTRY[kind][name] = Encoder(kind, name, summary, fn, native)
        return fn

    return wrap


def get(kind: str, name: str) -> Encoder:
    table = REGISTRY[kind]
    if not isinstance(name, str) or name not in table:
        raise UnknownNameError(f"unknown {kind} encoding {name!r}; choose from {', '.join(table)}")
    return table[name]

