"""Drawings: text against a golden file, SVG as well-formed XML with one outline per domino."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from satdomino import family, solve
from satdomino.puzzles import dominosa as D
from satdomino.render import svg
from satdomino.render.text import draw_board

from .conftest import EXAMPLES, ROOT

FAM = family("dominosa")


def test_text_drawing_matches_golden() -> None:
    [(_, board)] = D.parse((EXAMPLES / "dominosa" / "double3-grid.txt").read_text())
    out = solve(board, FAM, unique=True)
    assert out.unique  # so the drawing cannot depend on which solution a solver finds
    golden = (ROOT / "tests" / "golden" / "double3-grid.txt").read_text()
    assert FAM.render_text(board, out.solution) + "\n" == golden


def test_irregular_boards_draw_holes_blank() -> None:
    labels = {(0, 0): "1", (0, 1): "2", (1, 1): "3", (1, 2): "4"}
    text = draw_board(labels, [((0, 0), (0, 1)), ((1, 1), (1, 2))])
    assert text == ("+---+---+\n"
                    "| 1   2 |\n"
                    "+---+---+---+\n"
                    "    | 3   4 |\n"
                    "    +---+---+\n")


def test_svg_has_one_outline_per_domino_and_every_number() -> None:
    board, sol = D.planted(5, seed=4)
    root = ET.fromstring(FAM.render_svg(board, sol))
    ns = "{http://www.w3.org/2000/svg}"
    outlines = [r for r in root.iter(f"{ns}rect") if r.get("rx")]
    assert len(outlines) == len(D.dominoes(5))
    texts = [t.text for t in root.iter(f"{ns}text")]  # the title, the numbers, the rule
    assert sorted(texts[1:-1]) == sorted(str(v) for row in board.grid for v in row)
    assert texts[-1] == "Cut the grid into the 21 dominoes 0-0 to 5-5, each once."


def test_a_narrow_board_is_as_wide_as_its_title() -> None:


    title = "dominosa: 10 steps, grade elimination"
    root = ET.fromstring(svg.draw_board({(0, 0): "1", (0, 1): "2"}, title=title))
    assert float(root.get("width")) >= 9 * len(title)  # about 9 px a character at 16 px
    assert float(ET.fromstring(svg.draw_board({(0, 0): "1"})).get("width")) == 80  # no title
