"""encodings/*.md state sizes and propagation strength measured by a script: they must still be
what the code does (times are the machine's and are not compared)."""

from __future__ import annotations

import re

import pytest

from benchmarks import encoding_tables as T
from satdomino.encode import REGISTRY


@pytest.mark.parametrize("kind", list(T.CASES))
def test_documented_sizes_are_current(kind: str) -> None:
    documented = T.documented_sizes(kind)
    assert set(documented) == set(REGISTRY[kind]) - T.NOT_CNF
    for name, cells in documented.items():
        assert cells == [T.sizes(case, kind, name) for case in T.CASES[kind]], name


@pytest.mark.parametrize("kind", ["amo", "card", "pb"])
def test_documented_propagation_strength_is_current(kind: str) -> None:
    text = (T.DOCS / f"{kind}.md").read_text()
    block = text[text.index(T.BEGIN):text.index(T.END)]
    for name, verdicts in T.up_columns(kind).items():
        if name in T.NOT_CNF:
            continue
        row = re.search(rf"^\| `{re.escape(name)}` \|(.*)\|$", block, flags=re.M)
        assert row is not None, name
        assert [c.strip() for c in row.group(1).split("|")][:len(verdicts)] == verdicts, name


def test_up_check_can_fail() -> None:
    """The checker is not vacuous: it tells a weak encoding from a strong one."""
    from satdomino.encode import Encodings

    models = T.constraint_models("card", "<=")
    assert all(T.up_consistent(m, Encodings(card="seqcounter")) for m in models)
    assert not all(T.up_consistent(m, Encodings(card="mtotalizer")) for m in models)
    assert T.unit_propagate([[1, 2], [-2, 3]], [], [-1]) == {-1, 2, 3}
    assert T.unit_propagate([[1, 2], [-2]], [], [-1]) is None
    assert T.unit_propagate([], [([1, 2, 3], 1)], [2]) == {2, -1, -3}
