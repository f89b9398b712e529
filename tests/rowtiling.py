"""A fifth puzzle family that lives only in the tests: Row Tiling. Cover a rectangle with
dominoes so that each row holds as many horizontal dominoes as its clue says.

It shows what a family is: this one module, and one line, ``register(FAMILY)``. Nothing else
in satdomino knows it, yet solve (``--unique``, ``--count``), export and decode, explain,
hint, generate and compare all take it.

File format (JSON): ``{"rowtiling": [2, 0, 1], "width": 4}``: a clue per row, top to bottom.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from satdomino.errors import PuzzleFormatError
from satdomino.family import AutoRule, Family, Generator, Param, Parts
from satdomino.model import Model
from satdomino.puzzles.common import cell_text, load_json, single, whole_number
from satdomino.puzzles.dominosa import random_tiling
from satdomino.render import svg, text

Cell = tuple[int, int]
Piece = tuple[Cell, Cell]


@dataclass(frozen=True)
class RowTiling:
    width: int
    clues: tuple[int, ...]  # horizontal dominoes per row

    @property
    def height(self) -> int:
        return len(self.clues)

    def pieces(self) -> list[Piece]:
        """Every place a domino fits: horizontal ones first, then vertical ones."""
        w, h = self.width, self.height
        return ([((r, c), (r, c + 1)) for r in range(h) for c in range(w - 1)]
                + [((r, c), (r + 1, c)) for r in range(h - 1) for c in range(w)])


@dataclass(frozen=True)
class Tiling:
    pieces: tuple[Piece, ...]  # sorted


def parse_one(text: str) -> RowTiling:
    data = load_json(text)
    if not isinstance(data, dict) or not isinstance(data.get("rowtiling"), list):
        raise PuzzleFormatError("a Row Tiling puzzle is {\"rowtiling\": [clues], \"width\": W}")
    width = whole_number(data.get("width"), "width", 1, 40)
    clues = tuple(whole_number(v, f"row {i + 1}'s clue", 0, width // 2)
                  for i, v in enumerate(data["rowtiling"]))
    if not 1 <= len(clues) <= 40:
        raise PuzzleFormatError("a Row Tiling puzzle has 1 to 40 rows")
    return RowTiling(width, clues)


def parse(text: str) -> Parts:
    return single(parse_one, text)


def write(p: RowTiling) -> str:
    return json.dumps({"rowtiling": list(p.clues), "width": p.width}) + "\n"


def build(p: RowTiling) -> Model:
    """A variable per place a domino fits; each cell covered once; each row's horizontals as
    many as its clue."""
    m = Model("placement")
    pieces = p.pieces()
    m.projection = list(m.new_vars([("piece", u, v) for u, v in pieces]))
    on: dict[Cell, list[int]] = {(r, c): [] for r in range(p.height) for c in range(p.width)}
    across: list[list[int]] = [[] for _ in range(p.height)]
    for x, (u, v) in zip(m.projection, pieces, strict=True):
        on[u].append(x)
        on[v].append(x)
        if u[0] == v[0]:
            across[u[0]].append(x)
    for cell, xs in on.items():
        m.exactly_one(xs, f"cell {cell}")
    for r, xs in enumerate(across):
        m.card(xs, "==", p.clues[r], f"row {r} ({p.clues[r]} across)")
    return m


def decode(p: RowTiling, m: Model, true_vars: frozenset[int]) -> Tiling:
    return Tiling(tuple(sorted(m.key(x)[1:] for x in m.projection if x in true_vars)))


def verify(p: RowTiling, sol: Tiling) -> list[str]:
    """Plain counting over cells: no model."""
    problems = []
    seen: dict[Cell, int] = {}
    across = [0] * p.height
    for u, v in sol.pieces:
        if abs(u[0] - v[0]) + abs(u[1] - v[1]) != 1:
            problems.append(f"{u} and {v} are not neighbours")
        for w in (u, v):
            if not (0 <= w[0] < p.height and 0 <= w[1] < p.width):
                problems.append(f"{w} is off the board")
            seen[w] = seen.get(w, 0) + 1
        if u[0] == v[0] and 0 <= u[0] < p.height:
            across[u[0]] += 1
    problems += [f"cell {(r, c)} is covered {seen.get((r, c), 0)} times"
                 for r in range(p.height) for c in range(p.width) if seen.get((r, c)) != 1]
    problems += [f"row {r} has {across[r]} across, clue {p.clues[r]}"
                 for r in range(p.height) if across[r] != p.clues[r]]
    return problems


def labels(p: RowTiling) -> dict[Cell, str]:
    return {(r, c): "" for r in range(p.height) for c in range(p.width)}


def render_text(p: RowTiling, sol: Tiling | None) -> str:
    board = text.draw_board(labels(p), sol.pieces if sol else ())
    return "clues: " + " ".join(map(str, p.clues)) + "\n" + board


def render_svg(p: RowTiling, sol: Tiling | None) -> str:
    return svg.draw_board(labels(p), sol.pieces if sol else (), "Row Tiling")


def planted(params: dict[str, int], seed: int) -> tuple[RowTiling, Tiling]:
    w, h = params["width"], params["height"]
    pieces = random_tiling(h, w, random.Random(seed))
    clues = tuple(sum(1 for u, v in pieces if u[0] == v[0] == r) for r in range(h))
    return RowTiling(w, clues), Tiling(tuple(sorted(pieces)))


def _check(params: dict[str, int], choices: dict[str, str]) -> str | None:
    odd = params["width"] * params["height"] % 2
    return "needs an even number of squares (--width x --height)" if odd else None


def placement_json(p: RowTiling, key: Any) -> dict[str, Any]:
    return {"cells": [list(key[1]), list(key[2])]}


FAMILY: Family[RowTiling, Tiling] = Family(
    kind="rowtiling", title="Row Tiling", suffixes=(".json",),
    sniff=lambda s: s.lstrip().startswith("{") and '"rowtiling"' in s,
    parse=parse, formats={"json": write}, models={"placement": build},
    decode=decode, verify=verify,
    solution_json=lambda p, sol: {"pieces": [[list(u), list(v)] for u, v in sol.pieces]},
    render_text=render_text, render_svg=render_svg, placement_json=placement_json,
    placement_text=lambda shown: " ".join(map(cell_text, shown["cells"])),
    squares=lambda p, key: [key[1], key[2]], size=("cells", lambda p: p.width * p.height),
    auto=(AutoRule(0, "placement", {}, ("cadical195",), "a test family: one solver"),),
    generator=Generator(
        what="a Row Tiling puzzle (JSON)",
        params=(Param("width", "board width", 1, 12), Param("height", "board height", 1, 12)),
        planted=planted, named=lambda params: (f"{params['width']}x{params['height']} Row "
                                               "Tiling puzzle"),
        check=_check))
