"""What every puzzle family's parser shares."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleFormatError


@dataclass(frozen=True)
class Skipped:
    """A part of a file that is deliberately not a puzzle (a withdrawn NYT placeholder)."""

    reason: str


def strict(parts: list[tuple[str | None, Any]]) -> list[tuple[str | None, Any]]:
    """The puzzles among ``parts`` (skipped parts left out); raises the first bad part's
    error, naming the part."""
    out = []
    for name, part in parts:
        if isinstance(part, PuzzleFormatError):
            raise PuzzleFormatError(f"{name}: {part}" if name else str(part))
        if not isinstance(part, Skipped):
            out.append((name, part))
    return out


def single(make, text: str) -> list[tuple[str | None, Any]]:
    """The parts of a one-puzzle format: ``make(text)``, or its error as the only part."""
    try:
        return [(None, make(text))]
    except PuzzleFormatError as e:
        return [(None, e)]
