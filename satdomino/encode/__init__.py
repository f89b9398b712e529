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
from .registry import CNF, KINDS, REGISTRY, Encode, Encoder, Sink, get

__all__ = ["CNF", "KINDS", "REGISTRY", "Encoder", "Encodings", "lower"]


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


_BASIC = (ExactlyOne, AtMostOne, Clause)


def lower(model: Model, encodings: Encodings = Encodings()) -> CNF:
    """The CNF of ``model``: ids 1..model.num_vars unchanged, auxiliaries above, one pool."""
    pool = IDPool(start_from=model.num_vars + 1)
    cnf = CNF(num_vars=model.num_vars, model_vars=model.num_vars)
    out = Sink(cnf, pool)
    amo, card, pb, int_class = (get(kind, getattr(encodings, kind)).encode for kind in KINDS)
    ints: dict = {}

    def int_of(x):  # every integer variable is encoded once, on first use
        if x.key not in ints:
            ints[x.key] = int_class(x, out, amo)
        return ints[x.key]

    try:
        _lower_into(model, out, amo, card, pb, int_of)
    except BaseException:  # cut short (a deadline's TimeUp, Ctrl-C): the clauses so far are
        # freed apart, not by the unwinding that the stop waits for
        cnf.discard()
        raise
    cnf.num_vars = max(pool.top, model.num_vars)
    return cnf


def _lower_into(model: Model, out: Sink, amo: Encode, card: Encode, pb: Encode,
                int_of: Callable[[IntVar], Any]) -> None:
    for iv in model.ints.values():
        int_of(iv)
    for c in model.constraints:
        # the commonest kinds by type, before the match: its class patterns cost a test per case
        kind: type | None = type(c)
        if kind not in _BASIC:  # a subclass of one is lowered as its kind (holds() does so too)
            kind = next((k for k in _BASIC if isinstance(c, k)), None)
            if kind is None:
                _lower_other(c, out, card, pb, int_of)
                continue
        lits = c.lits  # type: ignore[union-attr]  # one of the kinds with lits
        if kind is not AtMostOne:
            out.clause(list(lits))
        if kind is not Clause and len(lits) > 1:
            amo(list(lits), out)


def _lower_other(c: Constraint, out: Sink, card: Encode, pb: Encode,
                 int_of: Callable[[IntVar], Any]) -> None:
    """A constraint of the less common kinds, into ``out``."""
    match c:
        case Card(lits, op, bound):
            if _settled(len(lits), op, bound, out):
                return
            if bound == 0 or (op != "<=" and bound == len(lits)):
                # forced values: all false (sum <= 0) or all true (sum >= n)
                out.clauses([[-x] if bound == 0 else [x] for x in lits])
            else:
                card(list(lits), op, bound, out)
        case PB(terms, op, bound):
            _lower_pb(terms, op, bound, out, pb)
        case Define(var, "or", lits):
            out.define_or(list(lits), var)
        case Define(var, "and", lits):
            out.define_and(list(lits), var)
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
            _lower_pb([(w, lit) for w, lit in flat if w], op, bound, out, pb)
        case _:  # never silently dropped
            raise TypeError(f"cannot lower {c!r}")


def _settled(total: int, op: str, bound: int, out: Sink) -> bool:
    """Is ``sum op bound`` over weights summing to ``total`` decided by that alone? When it
    cannot hold, the formula is made false."""
    if (op == "<=" and bound >= total) or (op == ">=" and bound <= 0):
        return True
    if bound < 0 and op != ">=" or (bound > total and op != "<="):
        out.false()
        return True
    return False


def _lower_pb(terms, op: str, bound: int, out: Sink, pb) -> None:
    # negative weights: w*x = w - (-w)*(not x), so flip the literal and move w to the bound
    norm = [(abs(w), -x if w < 0 else x) for w, x in terms]
    bound -= sum(w for w, _ in terms if w < 0)
    if not _settled(sum(w for w, _ in norm), op, bound, out):
        pb(norm, op, bound, out)
