"""The library on its own, as the package docstring shows it."""

from __future__ import annotations

import doctest

import satdomino


def test_package_docstring_example_runs() -> None:
    result = doctest.testmod(satdomino)
    assert result.attempted >= 3 and result.failed == 0


def test_model_ir_semantics() -> None:
    m = satdomino.Model("t")
    a, b, c = (m.var(k) for k in "abc")
    assert m.var("a") == a == 1 and m.key(c) == "c" and m.num_vars == 3
    m.card([a, b, c], ">=", 2)
    m.pb([(2, a), (-1, b)], "<=", 1)
    # a + b + c >= 2 and 2a - b <= 1: only assignments with a -> b
    ok = {(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)
          if m.satisfied_by([None, bool(x), bool(y), bool(z)])}
    assert ok == {(0, 1, 1), (1, 1, 0), (1, 1, 1)}
