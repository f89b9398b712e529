"""Uniqueness: forbid the found placement on the projection variables, then solve again."""

from __future__ import annotations

from collections.abc import Iterable


def blocking_clause(projection: Iterable[int], true_vars: frozenset[int]) -> list[int]:
    """The clause "some projection variable differs from this solution"."""
    return [-x if x in true_vars else x for x in projection]
