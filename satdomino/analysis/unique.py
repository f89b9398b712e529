"""Uniqueness: forbid the found placement on the projection variables, then solve again."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import VerificationError


def blocking_clause(projection: Iterable[int], true_vars: frozenset[int]) -> list[int]:
    """The clause "some projection variable differs from this solution"."""
    return [-x if x in true_vars else x for x in projection]


def record_new(projection: Iterable[int], true_vars: frozenset[int],
               seen: set[frozenset[int]], solver: str,
               again: str = "a solution it had already given") -> None:
    """Add a solution to ``seen`` (each as the projection variables it makes true: the same
    answer to the puzzle exactly when these are equal). One already there means ``solver``
    broke the clause that forbids it: a count or a uniqueness verdict would be wrong."""
    answer = frozenset(x for x in projection if x in true_vars)
    if answer in seen:
        raise VerificationError(f"{solver} answered {again}, against the clause that "
                                "forbids it")
    seen.add(answer)
