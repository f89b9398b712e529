"""Integer encodings: how a small integer variable becomes Boolean variables.

Each entry gives, for one IntVar, literals for "x == k" and "x >= k" and x as a weighted sum of
literals plus a constant (for linear constraints over integers).
"""

from __future__ import annotations

from ..model import IntVar
from .registry import Sink, register


class IntEncoding:
    def __init__(self, x: IntVar, out: Sink, amo) -> None:
        self.x, self.out, self.amo = x, out, amo
        self._eq: dict[int, int] = {}
        self._ge: dict[int, int] = {}

    def eq(self, k: int) -> int:
        if k not in self.x.values:
            return -self.out.true()
        if k not in self._eq:
            self._eq[k] = self._make_eq(k)
        return self._eq[k]

    def ge(self, k: int) -> int:
        vs = self.x.values
        if k <= vs[0]:
            return self.out.true()
        if k > vs[-1]:
            return -self.out.true()
        if k not in self._ge:
            self._ge[k] = self._make_ge(k)
        return self._ge[k]

    def _make_ge(self, k: int) -> int:  # default: OR of the values at least k
        return self.out.define_or([self.eq(v) for v in self.x.values if v >= k])

    def _make_eq(self, k: int) -> int:
        raise NotImplementedError

    def linear(self) -> tuple[list[tuple[int, int]], int]:
        raise NotImplementedError


@register("int", "direct", "one-hot: a literal per value, exactly one true (uses --amo)")
class Direct(IntEncoding):
    def __init__(self, x, out, amo) -> None:
        super().__init__(x, out, amo)
        self.bits = {v: out.fresh() for v in x.values}
        out.clause(list(self.bits.values()))
        if len(self.bits) > 1:
            amo(list(self.bits.values()), out)

    def _make_eq(self, k: int) -> int:
        return self.bits[k]

    def linear(self):
        return [(v, b) for v, b in self.bits.items() if v], 0


@register("int", "order", "order / ladder: a literal per 'x >= v', a chain between them")
class Order(IntEncoding):
    def __init__(self, x, out, amo) -> None:
        super().__init__(x, out, amo)
        self.steps = [out.fresh() for _ in x.values[1:]]  # steps[i-1] <-> x >= values[i]
        for hi, lo in zip(self.steps[1:], self.steps, strict=False):
            out.clause([-hi, lo])

    def _make_eq(self, k: int) -> int:
        i = self.x.values.index(k)  # x >= values[i] and not x >= values[i + 1]
        lits = self.steps[max(i - 1, 0):i] + [-s for s in self.steps[i:i + 1]]
        if len(lits) == 2:
            return self.out.define_and(lits)
        return lits[0] if lits else self.out.true()

    def _make_ge(self, k: int) -> int:
        i = next(i for i, v in enumerate(self.x.values) if v >= k)
        return self.steps[i - 1]

    def linear(self):
        vs = self.x.values
        return [(vs[i] - vs[i - 1], s) for i, s in enumerate(self.steps, start=1)], vs[0]


@register("int", "log", "binary: ceil(log2(range)) bits, values outside the domain forbidden")
class Log(IntEncoding):
    def __init__(self, x, out, amo) -> None:
        super().__init__(x, out, amo)
        lo, hi = x.values[0], x.values[-1]
        self.bits = [out.fresh() for _ in range((hi - lo).bit_length())]
        allowed = {v - lo for v in x.values}
        for offset in range(1 << len(self.bits)):
            if offset not in allowed:
                out.clause([-b if offset >> i & 1 else b for i, b in enumerate(self.bits)])

    def _make_eq(self, k: int) -> int:
        offset = k - self.x.values[0]
        lits = [b if offset >> i & 1 else -b for i, b in enumerate(self.bits)]
        return self.out.define_and(lits) if lits else self.out.true()

    def linear(self):
        return [(1 << i, b) for i, b in enumerate(self.bits)], self.x.values[0]
