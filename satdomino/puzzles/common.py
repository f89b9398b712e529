"""What every puzzle family's parser shares."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..errors import PuzzleFormatError


@dataclass(frozen=True)
class Skipped:
    """A part of a file that is deliberately not a puzzle (a withdrawn NYT placeholder)."""

    reason: str


def whole_number(value: object, what: str, lo: int = -10**6, hi: int = 10**6) -> int:
    """``value`` if it is a JSON whole number in lo..hi (not a float, not a bool), else a clear
    error naming ``what``."""
    if type(value) is not int or not lo <= value <= hi:
        raise PuzzleFormatError(f"{what} must be a whole number in {lo}..{hi}, not {value!r}"[:160])
    return value


def load_json(text: str) -> Any:
    """Parsed JSON, or one clear PuzzleFormatError (huge numbers and deep nesting included)."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as e:
        msg = e.msg if isinstance(e, json.JSONDecodeError) else type(e).__name__
        raise PuzzleFormatError(f"invalid JSON ({msg})") from None


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
