"""What the families share: parsing helpers, and dominoes shown as placements."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ..errors import PuzzleFormatError
from ..family import Parts


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


def single(make: Callable[[Any], Any], text: Any) -> Parts:
    """The parts of a one-puzzle format: ``make(text)``, or its error as the only part."""
    try:
        return [(None, make(text))]
    except PuzzleFormatError as e:
        return [(None, e)]


def domino_json(pips: tuple[int, int], u: object, v: object) -> dict[str, Any]:
    """A domino placed, as JSON: its pips, and its cells in their order (a graph board's
    nodes by their names)."""
    return {"pips": list(pips), "cells": [list(x) if isinstance(x, tuple) else x for x in (u, v)]}


def domino_text(shown: dict[str, Any]) -> str:
    """A domino as ``domino_json`` shows it, in words: '3-5 at (2,4)-(2,5)'."""
    u, v = shown["cells"]
    return f"{shown['pips'][0]}-{shown['pips'][1]} at {cell_text(u)}-{cell_text(v)}"


def cell_text(u: object) -> str:
    """A square as (row,col); a node of a graph board by its name."""
    if isinstance(u, (list, tuple)):
        return "(" + ",".join(map(str, u)) + ")"
    return str(u)
