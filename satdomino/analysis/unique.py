"""Uniqueness: forbid the found placement on the projection variables, then solve again."""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Iterable

from ..errors import VerificationError


def blocking_clause(projection: Iterable[int], true_vars: frozenset[int]) -> list[int]:
    """The clause "some projection variable differs from this solution"."""
    return [-x if x in true_vars else x for x in projection]


def record_new(projection: Iterable[int], true_vars: frozenset[int],
               seen: set[bytes], solver: str,
               again: str = "a solution it had already given") -> None:
    """Add a solution to ``seen`` (each as a 128-bit digest of the projection variables it
    makes true: the same answer to the puzzle exactly when these are equal; a digest, so that
    millions of answers take tens of MB, not their variables'). One already there means
    ``solver`` broke the clause that forbids it: a count or a uniqueness verdict would be
    wrong."""
    answer = hashlib.blake2b(array("i", sorted(x for x in projection if x in true_vars))
                             .tobytes(), digest_size=16).digest()
    if answer in seen:
        raise VerificationError(f"{solver} answered {again}, against the clause that "
                                "forbids it")
    seen.add(answer)
