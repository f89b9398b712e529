"""Lowering a Model to CNF with one chosen encoding per constraint kind."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from pysat.formula import IDPool

from ..model import (
    PB,
    AtMostOne,
    Card,
    Clause,
    Constraint,
    Define,
    ExactlyOne,
    IntLinear,
    IntVar,
    IntView,
    Model,
)
from . import amo as _amo  # noqa: F401  (fills the registry)
from . import card as _card  # noqa: F401
from . import ints as _ints  # noqa: F401
from . import pb as _pb  # noqa: F401
from .registry import CNF, KINDS, REGISTRY, Encode, Encoder, Sink, get, trivial_card

__all__ = ["CNF", "KINDS", "REGISTRY", "Encoder", "Encodings", "lower", "names"]


@dataclass(frozen=True)
class Encodings:
    """One encoding name per constraint kind."""

    amo: str = "seqcounter"
    card: str = "totalizer"
    pb: str = "best"
    int: str = "direct"

    def __post_init__(self) -> None:
        for kind in KINDS:
            get(kind, getattr(self, kind))  # fail early on unknown names

    def as_dict(self) -> dict[str, str]:
        """{kind: encoding name}, as ``stats.encodings`` shows it."""
        return asdict(self)

    @property
    def native(self) -> bool:
        """Does any kind use a native constraint (it needs a solver that takes it)?"""
        return any(get(kind, getattr(self, kind)).native for kind in KINDS)


def names(kind: str) -> list[str]:
    return list(REGISTRY[kind])


_BASIC = (ExactlyOne, AtMostOne, Clause)


def lower(model: Model, encodings: Encodings = Encodings()) -> CNF:
    """The CNF of ``model``: ids 1..model.num_vars unchanged, auxiliaries above, one pool."""
    pool = IDPool(start_from=model.num_vars + 1)
    cnf = CNF(num_vars=model.num_vars, model_vars=model.num_vars)
    out = Sink(cnf, pool)
    amo = get("amo", encodings.amo).encode
    card = get("card", encodings.card).encode
    pb = get("pb", encodings.pb).encode
    int_class = get("int", encodings.int).encode
    ints: dict = {}

    def int_of(x):  # every integer variable is encoded once, on first use
        if x.key not in ints:
            ints[x.key] = int_class(x, out, amo)
        return ints[x.key]

    for iv in model.ints.values():
        int_of(iv)
    for c in model.constraints:
        # the commonest kinds by type, before the match: its class patterns cost a test per
        # case (lowering N = 50 Dominosa with pairwise clauses took 5.7 ms, now 3.8)
        kind = type(c)
        if kind not in _BASIC:  # a subclass of one is lowered as its kind (holds() does so too)
            kind = next((k for k in _BASIC if isinstance(c, k)), kind)
        if kind is ExactlyOne or kind is AtMostOne:
            lits = c.lits  # type: ignore[union-attr]  # one of the kinds with lits
            if kind is ExactlyOne:
                out.clause(list(lits))
            if len(lits) > 1:
                amo(list(lits), out)
            continue
        if kind is Clause:
            out.clause(list(c.lits))  # type: ignore[union-attr]
            continue
        _lower_other(c, out, card, pb, int_of)
    cnf.num_vars = max(pool.top, model.num_vars)
    return cnf


def _lower_other(c: Constraint, out: Sink, card: Encode, pb: Encode,
                 int_of: Callable[[IntVar], Any]) -> None:
    """A constraint of the less common kinds, into ``out``."""
    match c:
        case Card(lits, op, bound):
            _lower_card(list(lits), op, bound, out, card)
        case PB(terms, op, bound):
            _lower_pb(terms, op, bound, out, pb, card)
        case Define(var, "or", lits):
            out.clause([-var, *lits])
            for y in lits:
                out.clause([-y, var])
        case Define(var, "and", lits):
            out.clause([var, *(-y for y in lits)])
            for y in lits:
                out.clause([-var, y])
        case IntView(var, xv, op, k):
            lit = int_of(xv).eq(k) if op == "==" else int_of(xv).ge(k)
            out.clause([-var, lit])
            out.clause([var, -lit])
        case IntLinear(terms, bools, op, bound):
            flat = list(bools)
            for coef, xv in terms:
                parts, const = int_of(xv).linear()
                flat += [(coef * w, lit) for w, lit in parts]
                bound -= coef * const
            _lower_pb([(w, lit) for w, lit in flat if w], op, bound, out, pb, card)
        case _:  # never silently dropped
            raise TypeError(f"cannot lower {c!r}")


def _lower_card(lits: list[int], op: str, bound: int, out: Sink, card) -> None:
    verdict = trivial_card(len(lits), op, bound)
    if verdict == "false":
        out.false()
    elif verdict is None:
        if bound == 0 or (op != "<=" and bound == len(lits)):
            # forced values: all false (sum <= 0) or all true (sum >= n)
            for x in lits:
                out.clause([-x] if bound == 0 else [x])
        else:
            card(lits, op, bound, out)


def _lower_pb(terms, op: str, bound: int, out: Sink, pb, card) -> None:
    # negative weights: w*x = w - (-w)*(not x), so flip the literal and move w to the bound
    norm: list[tuple[int, int]] = []
    for w, x in terms:
        if w < 0:
            norm.append((-w, -x))
            bound -= w
        else:
            norm.append((w, x))
    total = sum(w for w, _ in norm)
    if (op == "<=" and bound >= total) or (op == ">=" and bound <= 0):
        return
    if bound < 0 and op != ">=" or (bound > total and op != "<="):
        out.false()
        return
    pb(norm, op, bound, out)
