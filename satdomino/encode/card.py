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


def _pindakaas(encoding: int):
    weighted = pb_encoder(encoding)

    def encode(lits: list[int], op: str, bound: int, out: Sink) -> None:
        weighted([(1, x) for x in lits], op, bound, out)

    return encode


for _name, _code, _summary in [
    ("seqcounter", EncType.seqcounter, "sequential counter (Sinz 2005): O(nk) clauses"),
    ("sortnetwrk", EncType.sortnetwrk, "odd-even sorting network (Batcher; Een & Sorensson)"),
    ("cardnetwrk", EncType.cardnetwrk, "cardinality network (Asin et al. 2011): O(n log^2 k)"),
    ("totalizer", EncType.totalizer, "totalizer (Bailleux & Boufkhad 2003): O(n log n) vars"),
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
