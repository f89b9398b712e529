"""At-most-one encodings. Exactly-one = at-most-one + the clause of all literals."""

from __future__ import annotations

import math
from itertools import combinations

from pysat.card import CardEnc, EncType

from .registry import Sink, register


def _pysat(encoding: int):
    def encode(lits: list[int], out: Sink) -> None:
        out.clauses(CardEnc.atmost(lits, 1, vpool=out.pool, encoding=encoding).clauses)

    return encode


@register("amo", "pairwise", "one binary clause per pair: n(n-1)/2 clauses, no new variables")
def pairwise(lits: list[int], out: Sink) -> None:
    # map(list, combinations(...)) builds every clause in C: a third faster than a generator
    out.cnf.clauses.extend(map(list, combinations([-x for x in lits], 2)))


for _name, _summary in [
    ("seqcounter", "Sinz's sequential counter: n-1 new variables, 3n-4 clauses"),
    ("ladder", "ladder / regular encoding (Gent & Nightingale)"),
    ("bitwise", "binary encoding: log2(n) new variables, n log2(n) clauses"),
    ("totalizer", "totalizer of Bailleux & Boufkhad with bound 1"),
    ("cardnetwrk", "cardinality network of Asin et al. with bound 1"),
]:
    register("amo", _name, _summary)(_pysat(getattr(EncType, _name)))


@register("amo", "commander", "commander encoding (Klieber & Kwon), groups of 3, recursive")
def commander(lits: list[int], out: Sink, group: int = 3) -> None:
    while len(lits) > group + 1:
        commanders = []
        for i in range(0, len(lits), group):
            part = lits[i:i + group]
            if len(part) == 1:
                commanders.append(part[0])
                continue
            pairwise(part, out)
            c = out.fresh()
            for x in part:
                out.clause([-x, c])  # any member true -> its commander true
            commanders.append(c)
        lits = commanders
    pairwise(lits, out)


@register("amo", "product", "2-product encoding (Chen): 2 sqrt(n) + O(n^1/4) new variables")
def product(lits: list[int], out: Sink) -> None:
    n = len(lits)
    if n <= 4:
        pairwise(lits, out)
        return
    p = math.ceil(math.sqrt(n))
    q = math.ceil(n / p)
    rows = [out.fresh() for _ in range(p)]
    cols = [out.fresh() for _ in range(q)]
    for k, x in enumerate(lits):
        i, j = divmod(k, q)
        out.clause([-x, rows[i]])
        out.clause([-x, cols[j]])
    product(rows, out)
    product(cols, out)


@register("amo", "native", "the solver's own at-most-k constraint (minicard, gluecard, z3)",
          native=True)
def native(lits: list[int], out: Sink) -> None:
    out.atmost(lits, 1)
