"""Uniqueness: forbid the found placement on the projection variables, then solve again."""

from __future__ import annotations

from collections.abc import Iterable


def blocking_clause(projection: Iterable[int], true_vars: frozenset[int]) -> list[int]:
    """The clause "some projection variable differs from this solution"."""
    return [-x if x in true_vars else x for x in projection]


def on_projection(projection: Iterable[int], true_vars: frozenset[int]) -> frozenset[int]:
    """The solution as the projection variables it makes true: two solutions are the same
    answer to the puzzle exactly when these are equal."""
    return frozenset(x for x in projection if x in true_vars)
