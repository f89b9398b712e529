"""Drawings a puzzle maker can print (issue 38): each family's SVG holds the whole puzzle with
every clue, so it can be solved from the page, and the answer key differs from it."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from satdomino import family, solve
from satdomino.analysis.explain import explain, numbered_svg
from satdomino.cli import main
from satdomino.puzzles import dominofit as F
from satdomino.puzzles import dominosa as D
from satdomino.puzzles import doodlefit as G
from satdomino.puzzles import pips as P
from satdomino.render import svg

from .conftest import EXAMPLES

NS = "{http://www.w3.org/2000/svg}"


def parse(drawing: str) -> ET.Element:
    """The drawing as XML (it must be well-formed)."""
    return ET.fromstring(drawing)


def texts(el: ET.Element) -> list[str]:
    """Every piece of writing in ``el``."""
    return [t.text or "" for t in el.iter(f"{NS}text")]


def board_cells(root: ET.Element) -> dict[tuple[int, int], ET.Element]:
    """The first board's cell squares by (row, col)."""
    group = next(g for g in root.iter(f"{NS}g") if g.get("class") == "board")
    return {(round(float(r.get("y", 0)) / svg.SIZE), round(float(r.get("x", 0)) / svg.SIZE)): r
            for r in group.findall(f"{NS}rect") if r.get("width") == str(svg.SIZE)}


def cell_writing(root: ET.Element) -> list[str]:
    """What the first board writes in its cells (17 px writing)."""
    group = next(g for g in root.iter(f"{NS}g") if g.get("class") == "board")
    return [t.text or "" for t in group.findall(f"{NS}text")]


def badges(root: ET.Element) -> list[str]:
    """The writing on the clue badges: each badge rectangle is followed by its text."""
    kids = list(root)
    return [kids[i + 1].text or "" for i, el in enumerate(kids) if el.get("class") == "badge"]


def draw_both(fam_kind: str, puzzle: object, sol: object) -> tuple[ET.Element, ET.Element]:
    """The puzzle's drawing and its answer key's, parsed; they differ."""
    fam = family(fam_kind)
    drawing, key = fam.render_svg(puzzle, None), fam.render_svg(puzzle, sol)
    assert drawing != key
    return parse(drawing), parse(key)


# Dominosa -------------------------------------------------------------------------------------

def test_dominosa_draws_every_number_and_its_set() -> None:
    board, sol = D.planted(6, seed=2)
    puzzle, key = draw_both("dominosa", board, sol)
    numbers = sorted(str(v) for row in board.grid for v in row)
    assert sorted(cell_writing(puzzle)) == sorted(cell_writing(key)) == numbers
    assert "Cut the grid into the 28 dominoes 0-0 to 6-6, each once." in texts(puzzle)
    assert not [r for r in puzzle.iter(f"{NS}rect") if r.get("rx") == "7"]  # no answers
    assert len([r for r in key.iter(f"{NS}rect") if r.get("rx") == "7"]) == 28


# Pips -----------------------------------------------------------------------------------------

def check_pips(p: P.Pips, sol: P.PipsSolution) -> None:
    """Every rule in a badge, every tray domino, empty cells until solved, touching regions
    apart in colour."""
    puzzle, key = draw_both("pips", p, sol)
    if p.grid:
        ruled = [r for r in p.regions if r.rule != "empty"]
        assert sorted(badges(puzzle)) == sorted(r.label() for r in ruled)
        assert badges(key) == badges(puzzle)  # drawn after the dominoes: over them
        assert not any(cell_writing(puzzle))  # the solver places the pips
        value = sol.values(p)
        assert sorted(cell_writing(key)) == sorted(str(value[u]) for u in p.nodes)
        check_touching_regions_differ(p, board_cells(puzzle))
    for root in (puzzle, key):
        tray = [g for g in root.iter(f"{NS}g") if g.get("class") == "tray-domino"]
        assert sorted(tuple(texts(g)) for g in tray) == sorted(
            (str(a), str(b)) for a, b in p.dominoes)


def check_touching_regions_differ(p: P.Pips, cells: dict) -> None:
    """Two cells side by side in different ruled regions have different fills; a cell without
    a rule is plain."""
    owner = {u: k for k, r in enumerate(p.regions) for u in r.nodes}
    ruled = {k for k, r in enumerate(p.regions) if r.rule != "empty"}
    for u, v in p.edges:
        if owner[u] != owner[v] and {owner[u], owner[v]} <= ruled:
            assert cells[u].get("fill") != cells[v].get("fill"), (u, v)
    for u in p.nodes:
        if owner[u] not in ruled:
            assert cells[u].get("fill") == svg.PAPER


@pytest.mark.parametrize("seed", range(20))
def test_planted_pips_boards_draw_every_clue_and_colour_touching_regions_apart(seed) -> None:
    check_pips(*P.planted(6 + 2 * seed, seed))


def test_a_generated_hard_pips_puzzle_draws_its_regions_apart(tmp_path, capsys) -> None:
    out = tmp_path / "h.json"
    assert main(["generate", "pips", "--difficulty", "hard", "--unique", "--seed", "3",
                 "-o", str(out)]) == 0
    [(_, p)] = P.parse(out.read_text())
    check_pips(p, solve(p, family("pips")).solution)


def test_graph_pips_names_each_region_and_states_its_rule() -> None:
    [(_, p)] = P.parse((EXAMPLES / "pips" / "ring-graph.json").read_text())
    check_pips(p, solve(p, family("pips")).solution)
    writing = texts(parse(family("pips").render_svg(p, None)))
    assert {"A: all equal", "B: sum = 4", "C: sum < 2"} <= set(writing)
    assert {"a (A)", "b (A)", "c (B)", "e (C)", "f"} <= set(writing)


# Domino Fit -----------------------------------------------------------------------------------

def test_dominofit_draws_its_sums_black_squares_and_pieces() -> None:
    p, sol = F.planted(9, 7, seed=5)
    puzzle, key = draw_both("dominofit", p, sol)
    cells = board_cells(puzzle)
    assert {u for u, r in cells.items() if r.get("fill") == svg.INK} == set(p.blacks)
    assert len(cells) == p.width * p.height
    bold = [t for t in puzzle.iter(f"{NS}text") if t.get("font-size") == "15"]
    over = sorted((float(t.get("x", 0)), t.text) for t in bold if t.get("text-anchor") == "middle")
    beside = sorted((float(t.get("y", 0)), t.text) for t in bold if t.get("text-anchor") == "end")
    assert [v for _, v in over] == [str(v) for v in p.top]  # left to right
    assert [v for _, v in beside] == [str(v) for v in p.side]  # top to bottom
    assert "The dots in each row and each column add up to its number." in texts(puzzle)
    assert not [c for c in puzzle.iter(f"{NS}circle")
                if float(c.get("r", 0)) > 4]  # no dots on the board until solved
    dots = [c for c in key.iter(f"{NS}circle") if float(c.get("r", 0)) > 4]
    assert len(dots) == sum(1 if kind == "V" else 2 for kind, _ in sol.pieces)


# Doodle Fit -----------------------------------------------------------------------------------

def test_doodlefit_draws_every_block_beside_the_shape_named_as_the_key_names_it() -> None:
    p, sol = G.planted(30, 6, seed=4)
    puzzle, key = draw_both("doodlefit", p, sol)
    for root in (puzzle, key):
        blocks = [g for g in root.iter(f"{NS}g") if g.get("class") == "block"]
        assert [g.get("data-block") for g in blocks] == [G.label(i) for i in range(6)]
        assert [len(g.findall(f"{NS}rect")) for g in blocks] == [len(b) for b in p.blocks]
        assert [texts(g) for g in blocks] == [[G.label(i)] for i in range(6)]
    assert not any(cell_writing(puzzle))
    assert sorted(cell_writing(key)) == sorted(G.label(i) for i, cells in enumerate(sol.cells)
                                               for _ in cells)
    fills = {u: r.get("fill") for u, r in board_cells(key).items()}
    owner = {u: i for i, cells in enumerate(sol.cells) for u in cells}
    assert all(fills[u] != fills[v] for u in owner for v in ((u[0] + 1, u[1]), (u[0], u[1] + 1))
               if v in owner and owner[v] != owner[u])


# shared pieces --------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_colouring_keeps_touching_items_apart(seed) -> None:
    rng = random.Random(seed)
    n = 30
    touching: dict[int, set[int]] = {k: set() for k in range(n)}
    for _ in range(80):
        a, b = rng.sample(range(n), 2)
        touching[a].add(b)
        touching[b].add(a)
    number = svg.colouring(touching)
    assert all(number[a] != number[b] for a in touching for b in touching[a])
    assert len({svg.colour(k) for k in range(40)}) == 40  # enough fills for any colouring


def test_explain_draws_the_steps_on_a_pips_puzzle_with_their_pips() -> None:
    [(_, p)] = P.parse((EXAMPLES / "pips" / "planted-6-unique.json").read_text())
    fam = family("pips")
    out = explain(p, fam)
    assert out.complete
    drawing = numbered_svg(p, fam, out.steps[:3], "pips: 3 steps")
    root = parse(drawing)
    steps = [r for r in root.iter(f"{NS}rect") if r.get("class") == "step"]
    assert len(steps) == 3
    assert len([w for w in cell_writing(root) if w]) == 6  # the pips of the three laid
    assert sorted(badges(root)) == sorted(r.label() for r in p.regions if r.rule != "empty")
    assert "pips: 3 steps" in texts(root) and "Pips: 6 dominoes" not in "".join(texts(root))
