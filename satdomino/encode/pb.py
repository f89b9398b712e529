"""Pseudo-Boolean encodings, all from pindakaas through python-sat's ``pysat.pb``."""

from __future__ import annotations

from pysat.pb import EncType, PBEnc

from .registry import Sink, register


def pb_encoder(encoding: int):
    """The pindakaas encoder ``encoding`` (a ``pysat.pb.EncType``) as a registry function."""

    def encode(terms: list[tuple[int, int]], op: str, bound: int, out: Sink) -> None:
        method = {"<=": PBEnc.leq, ">=": PBEnc.geq, "==": PBEnc.equals}[op]
        lits = [x for _, x in terms]
        weights = [w for w, _ in terms]
        out.clauses(method(lits, weights, bound, vpool=out.pool, encoding=encoding).clauses)

    return encode


for _name, _code, _summary in [
    ("best", EncType.best, "pindakaas picks per constraint (totalizer for general PB)"),
    ("bdd", EncType.bdd, "binary decision diagram (Een & Sorensson; Abio et al.)"),
    ("seqcounter", EncType.seqcounter, "weighted sequential counter (Holldobler et al.)"),
    ("sortnetwrk", EncType.sortnetwrk, "sorting networks over the weights' digits"),
    ("adder", EncType.adder, "binary adder circuit (Warners; Een & Sorensson)"),
    ("binmerge", EncType.binmerge, "watchdog with sorting networks (Manthey et al.)"),
    ("watchdog", EncType.watchdog, "global polynomial watchdog (Bailleux et al. 2009)"),
    ("totalizer", EncType.totalizer, "generalized totalizer (Joshi et al. 2015)"),
    ("mixedradix", EncType.mixedradix, "mixed-radix decomposition (Bofill et al.)"),
]:
    register("pb", _name, _summary)(pb_encoder(_code))
