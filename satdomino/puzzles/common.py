"""What the families share: parsing helpers, and dominoes shown as placements."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Collection
from typing import Any

from ..errors import PuzzleFormatError
from ..family import Parts
from ..fileio import load_json as load_json  # every family reads JSON through it

# keys other tools keep beside a puzzle, allowed and not read
METADATA = frozenset({"name", "title", "source", "author", "date", "id", "difficulty",
                      "comment", "solution", "generator"})


def whole_number(value: object, what: str, lo: int = -10**6, hi: int = 10**6) -> int:
    """``value`` if it is a JSON whole number in lo..hi (not a float, not a bool), else a clear
    error naming ``what``."""
    if type(value) is not int or not lo <= value <= hi:
        raise PuzzleFormatError(f"{what} must be a whole number in {lo}..{hi}, not {value!r}"[:160])
    return value


def known_keys(obj: dict, keys: Collection[str], what: str,
               also: Collection[str] = METADATA) -> None:
    """A clear error for the first key of ``obj`` neither among ``keys`` nor ``also`` (the
    metadata allowed and not read): a misspelt key would silently read as another puzzle. The
    error names the allowed key closest to it, else the ``keys``."""
    for key in obj:
        if key not in keys and key not in also:
            shown = str(key)[:40]  # difflib's time grows with the lengths compared
            close = difflib.get_close_matches(shown, sorted({*keys, *also}), n=1)
            hint = (f"did you mean {close[0]!r}?" if close
                    else f"it takes {', '.join(sorted(keys))}")
            raise PuzzleFormatError(f"unknown key {shown!r} in {what}; {hint}")


def attempt(make: Callable[..., Any], *args: Any) -> Any:
    """``make(*args)``, or the PuzzleFormatError it raises (a part that cannot be read)."""
    try:
        return make(*args)
    except PuzzleFormatError as e:
        return e


def single(make: Callable[[Any], Any], text: Any) -> Parts:
    """The parts of a one-puzzle format: ``make(text)``, or its error as the only part."""
    return [(None, attempt(make, text))]


def around(cell: tuple[int, int]) -> list[tuple[int, int]]:
    """The four squares next to ``cell``: right, below, left, above."""
    r, c = cell
    return [(r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)]


def grid_sweep(cells: Collection[tuple[int, int]]) -> list[tuple[int, int]]:
    """Squares in the order a sweep takes them: row by row, or column by column where they
    span more columns than rows, so that its frontier runs across the shorter side."""
    rows = 1 + max(r for r, _ in cells) - min(r for r, _ in cells)
    cols = 1 + max(c for _, c in cells) - min(c for _, c in cells)
    return sorted(cells, key=(lambda u: u) if rows >= cols else (lambda u: (u[1], u[0])))


def domino_json(pips: tuple[int, int], u: object, v: object) -> dict[str, Any]:
    """A domino placed, as JSON: its pips, and its cells in their order (a graph board's
    nodes by their names)."""
    return {"pips": list(pips), "cells": [list(x) if isinstance(x, tuple) else x for x in (u, v)]}


def domino_text(shown: dict[str, Any]) -> str:
    """A domino as ``domino_json`` shows it, in words: '3-5 at (2,4)-(2,5)'; one number on
    one square (a Pips cell's value) as '6 on (2,1)'."""
    if len(shown["cells"]) == 1:
        return f"{shown['pips'][0]} on {cell_text(shown['cells'][0])}"
    u, v = shown["cells"]
    return f"{shown['pips'][0]}-{shown['pips'][1]} at {cell_text(u)}-{cell_text(v)}"


def cell_text(u: object) -> str:
    """A square as (row,col); a node of a graph board by its name."""
    if isinstance(u, (list, tuple)):
        return "(" + ",".join(map(str, u)) + ")"
    return str(u)


LOOKED_AT = 1 << 16  # how much of a text likeness reads: its start tells
_KEY = re.compile(r'"((?:[^"\\\n]|\\.){1,40})"\s*:')


def share(text: str, alphabet: str) -> float:
    """The share of the characters (spaces aside) of the start of ``text`` that are in
    ``alphabet``: how much a drawing or a grid of numbers looks like one."""
    head = "".join(text[:LOOKED_AT].split())
    return sum(map(head.count, alphabet)) / len(head) if head else 0.0


def is_json(text: str) -> bool:
    """Does ``text`` start as a JSON object or array does?"""
    return text.lstrip().startswith(("{", "["))


def key_share(text: str, keys: Collection[str]) -> float:
    """The share of the JSON keys at the start of ``text`` (the metadata aside) that are
    ``keys``, or close to one (misspelt)."""
    if not is_json(text):
        return 0.0
    found = [m.group(1) for m in _KEY.finditer(text, 0, LOOKED_AT)
             if m.group(1) not in METADATA][:50]  # every family's metadata tells nothing
    ours = [k for k in found if k in keys or difflib.get_close_matches(k, keys, n=1)]
    return len(ours) / len(found) if found else 0.0
