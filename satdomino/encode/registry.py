"""The encoding registry: one table per constraint kind, filled by ``@register`` entries."""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pysat.formula import IDPool

from ..clock import start
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

    def discard(self) -> None:
        """Give this CNF up: it is empty afterwards, and a large one's clauses are freed by a
        thread of their own, a slice at a time, so that no answer or stop waits for them
        (the 8.9 M clauses of a 600-cell Doodle Fit board's cells model take about as long
        to free as to lower; a partial one, cut short by its deadline, too)."""
        clauses, self.clauses = self.clauses, []
        if len(clauses) > FREE_APART:
            thread = threading.Thread(target=_free, args=(clauses,), daemon=True)
            with _freeing_lock:
                # the collector leaves what exists now alone until the free ends: a walk of
                # the clauses still to free took about a second at 2,000 Doodle Fit cells
                gc.freeze()
                _freeing.add(thread)
            try:
                start(thread)  # shielded: a TimeUp landing in Thread.start would hang it
            except BaseException:
                if thread.ident is None:  # it never started (no thread to be had, a Ctrl-C);
                    _freed(thread)  # not a TimeUp the shield raises once the thread runs
                raise


FREE_APART = 200_000  # clauses
_freeing: set[threading.Thread] = set()  # the threads freeing discarded clauses
_freeing_lock = threading.Lock()


def _free(clauses: list[list[int]]) -> None:
    try:
        while clauses:  # slices: one del of them all would hold the interpreter to its end
            del clauses[-20_000:]
    finally:
        _freed(threading.current_thread())


def _freed(thread: threading.Thread) -> None:
    """``thread`` frees no more; what waited for the last one runs."""
    with _freeing_lock:
        _freeing.discard(thread)
        if _freeing:
            return
        gc.unfreeze()
        done = list(_when_freed)
        del _when_freed[:len(done)]
    for then in done:
        then()


_when_freed: list[Callable[[], None]] = []


def when_freed(then: Callable[[], None]) -> None:
    """``then()`` once no discarded clauses are left to free (at once if none are)."""
    with _freeing_lock:
        if _freeing:
            _when_freed.append(then)
            return
    then()


def _forget_frees_after_fork() -> None:
    """A forked child has none of the threads freeing clauses (nor, perhaps, a lock one of
    them held), and waits for none. It stays frozen: unfrozen, its collector would walk (and
    so copy) the parent's pages."""
    global _freeing_lock
    _freeing_lock = threading.Lock()
    _freeing.clear()
    _when_freed.clear()


os.register_at_fork(after_in_child=_forget_frees_after_fork)


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

