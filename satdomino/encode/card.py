"""Cardinality encodings: sum(lits) <= k, >= k or == k."""

from __future__ import annotations

from pysat.card import CardEnc, EncType
from pysat.pb import EncType as PBType

from .pb import pb_encoder
from .registry import Sink, register


def _pysat(encoding: int):
    def encode(lits: list[int], op: str, bound: int, out: Sink) -> None:
        if op in ("<=", "=="):
            out.clauses(CardEnc.atmost(lits, bound, vpool=out.pool, encoding=encoding).clauses)
        if op in (">=", "=="):
            out.clauses(CardEnc.atleast(lits, bound, vpool=out.pool, encoding=encoding).clauses)

    return encode


@register("card", "totalizer", "totalizer (Bailleux & Boufkhad 2003), counts cut at k + 1: "
          "O(n k) clauses")
def totalizer(lits: list[int], op: str, bound: int, out: Sink) -> None:
    """Our own: python-sat's totalizer does not cut its counts at the bound (at most 3 of
    1,500 literals: 1.1 million clauses, against 10,000 for its sequential counter), and
    writes at-least-k as at-most-(n - k) of the negations (O(n^2) for a small k)."""
    n = len(lits)
    if op in ("<=", "=="):
        if bound < 0:
            out.clause([])
        elif bound == 0:
            out.clauses([[-x] for x in lits])
        elif bound < n:
            out.clause([-_counts(lits, bound + 1, "up", out)[bound]])
    if op in (">=", "=="):
        if bound > n:
            out.clause([])
        elif bound == n:
            out.clauses([[x] for x in lits])
        elif bound == 1:
            out.clause(list(lits))
        elif bound > 1:
            out.clause([_counts(lits, bound, "down", out)[bound - 1]])


def _counts(xs: list[int], cut: int, way: str, out: Sink) -> list[int]:
    """The totalizer's tree over ``xs``: literals c_1..c_m (m = min(len(xs), cut)) with, for
    way "up", c_j true when at least j of xs are (c_m: at least m), and for way "down",
    c_j true only when at least j are."""
    if len(xs) == 1:
        return list(xs)
    half = len(xs) // 2
    left, right = _counts(xs[:half], cut, way, out), _counts(xs[half:], cut, way, out)
    top = [out.fresh() for _ in range(min(len(left) + len(right), cut))]
    for a in range(len(left) + 1):
        for b in range(len(right) + 1):
            # (pairs beyond the cut follow from those that reach it)
            if way == "up" and 0 < a + b <= len(top):  # a on the left, b on the right: a + b
                out.clause(([-left[a - 1]] if a else []) + ([-right[b - 1]] if b else [])
                           + [top[a + b - 1]])
            elif way == "down" and a + b < len(top):  # fewer than a + 1 and b + 1: fewer
                out.clause([-top[a + b]] + left[a:a + 1] + right[b:b + 1])
    return top


def _pindakaas(encoding: int):
    weighted = pb_encoder(encoding)

    def encode(lits: list[int], op: str, bound: int, out: Sink) -> None:
        weighted([(1, x) for x in lits], op, bound, out)

    return encode


for _name, _code, _summary in [
    ("seqcounter", EncType.seqcounter, "sequential counter (Sinz 2005): O(nk) clauses"),
    ("sortnetwrk", EncType.sortnetwrk, "odd-even sorting network (Batcher; Een & Sorensson)"),
    ("cardnetwrk", EncType.cardnetwrk, "cardinality network (Asin et al. 2011): O(n log^2 k)"),
    ("mtotalizer", EncType.mtotalizer, "modulo totalizer (Ogawa et al. 2013)"),
    ("kmtotalizer", EncType.kmtotalizer, "k-modulo totalizer (Morgado et al. 2014)"),
]:
    register("card", _name, _summary)(_pysat(_code))

register("card", "pkd-sortnetwrk", "pindakaas's sorting-network encoder")(
    _pindakaas(PBType.sortnetwrk))
register("card", "pkd-totalizer", "pindakaas's totalizer encoder")(_pindakaas(PBType.totalizer))


@register("card", "native", "the solver's own at-most-k constraint (minicard, gluecard, z3)",
          native=True)
def native(lits: list[int], op: str, bound: int, out: Sink) -> None:
    if op in ("<=", "=="):
        out.atmost(lits, bound)
    if op in (">=", "=="):
        out.atmost([-x for x in lits], len(lits) - bound)
