"""Regression tests for the reading side of a fuzz campaign's defects (issue 37): JSON read in
one place, sizes checked before anything is built, detection that names the likely family's
error, every family's JSON keys checked, proofs bounded and named when they are no DRAT. Each
fails on the code before its fix."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from satdomino.cli import main
from satdomino.errors import PuzzleFormatError
from satdomino.family import strict
from satdomino.fileio import MAX_JSON_DEPTH, load_json
from satdomino.puzzles import detect, family
from satdomino.puzzles import doodlefit as DF
from satdomino.puzzles.dominosa import board as DB
from satdomino.puzzles.pips import board as PB

from .conftest import EXAMPLES, one_error

DOUBLE6 = str(EXAMPLES / "dominosa" / "double6.txt")
GRID = EXAMPLES / "dominosa" / "double3-grid.txt"
PUBLISHED = str(EXAMPLES / "dominofit" / "published-7x7.json")


# JSON: one reader -----------------------------------------------------------------------------

def test_deeply_nested_given_placements_are_one_line(tmp_path, capsys) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "\n")
    one_error(capsys, ["hint", DOUBLE6, "--given", str(deep)], "deep.json: JSON nested")


def test_a_json_syntax_error_names_its_file_line_and_column(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('[\n {"pips": [1, 2]\n  "cells": []}]\n')
    one_error(capsys, ["hint", DOUBLE6, "--given", str(bad)],
              "bad.json: line 3, column 3: not JSON: expecting ',' delimiter")


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 900, 990, 5000])
def test_nesting_beyond_the_bound_is_refused_however_deep(depth) -> None:
    """Below Python's own limit too: code recursing over a value 950 deep (repr, ==) would
    run out of stack where the parser did not."""
    assert load_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    with pytest.raises(PuzzleFormatError, match="nested more than"):
        load_json('{"a": ' + "[" * depth + "]" * depth + "}")


def test_every_family_and_command_reads_json_alike(tmp_path, capsys) -> None:
    deep = "[" * 3000 + "]" * 3000
    for kind in ("pips", "dominofit", "dominosa"):
        path = tmp_path / f"{kind}.json"
        path.write_text(deep)
        one_error(capsys, ["solve", str(path), "--kind", kind], "nested more than")
    cnf = tmp_path / "f.cnf"
    assert main(["export", str(GRID), "-o", str(cnf)]) == 0
    Path(f"{cnf}.map.json").write_text('{"kind": "dominosa",\n "x" 1}')
    (tmp_path / "answer.txt").write_text("s UNSATISFIABLE\n")
    capsys.readouterr()
    one_error(capsys, ["decode", str(cnf), str(tmp_path / "answer.txt")],
              "f.cnf.map.json is not a satdomino map (line 2, column 6: not JSON")


# --given: its own file, its own errors ---------------------------------------------------------

@pytest.mark.parametrize("puzzle", [PUBLISHED, DOUBLE6])
def test_a_missing_given_file_is_named_as_missing(tmp_path, capsys, puzzle) -> None:
    missing = str(tmp_path / "missing.json")
    one_error(capsys, ["hint", puzzle, "--given", missing], f"{missing}: no such file")
    one_error(capsys, ["hint", puzzle, "--given", str(tmp_path)], "is a directory")


def test_a_dominosa_layout_in_a_file_is_still_read(tmp_path, capsys) -> None:
    given = tmp_path / "partial.txt"
    given.write_text("LRLRT\nTLRTB\nBLRBT\nLRLRB\n")
    assert main(["hint", str(GRID), "--given", str(given)]) == 0
    assert capsys.readouterr().out.startswith("solved")
    given.write_text("LRL\n")
    one_error(capsys, ["hint", str(GRID), "--given", str(given)], "partial.txt: a layout of")


# sizes checked before anything is built ----------------------------------------------------------

def _forbidden(*args, **kwargs):
    raise AssertionError("built before its size was checked")


def test_doodlefit_shape_size_is_checked_before_its_cells_are_stored(monkeypatch) -> None:
    monkeypatch.setattr(DF, "_cells", _forbidden)
    drawing = "\n".join(["#" * 2000] * 2000) + "\n---\n*\n"
    with pytest.raises(PuzzleFormatError, match="4000000 cells; at most 5000"):
        DF.parse_text(drawing)
    with pytest.raises(PuzzleFormatError, match="the blocks have 1 cells in all"):
        DF.parse_text("##\n---\n*\n")


def test_dominosa_sizes_are_checked_before_numbers_are_read(monkeypatch) -> None:
    monkeypatch.setattr(DB, "_TOKEN", None)  # a game id's numbers are not listed
    with pytest.raises(PuzzleFormatError, match="needs 1001000 numbers"):
        DB.parse_game_id("999:" + "1" * 2_000_000)
    monkeypatch.setattr(DB, "_number", _forbidden)
    with pytest.raises(PuzzleFormatError, match="larger than double-999"):
        DB.parse_grid("\n".join(["0 1"] * 1200))
    with pytest.raises(PuzzleFormatError, match="larger than double-999"):
        DB.parse_grid(" ".join(["0"] * 1200))
    with pytest.raises(PuzzleFormatError, match="'grid' is larger than double-999"):
        DB.parse(json.dumps({"grid": [[0] * 1002]}))


def test_pips_sizes_are_checked_before_the_board_is_built(monkeypatch) -> None:
    monkeypatch.setattr(PB, "_int", _forbidden)
    many = [[1, 2]] * (PB.MAX_DOMINOES + 1)
    with pytest.raises(PuzzleFormatError, match="dominoes; at most"):
        PB.from_nyt({"dominoes": many, "regions": []})
    monkeypatch.undo()
    links = {f"n{i}": [] for i in range(100_000)}
    with pytest.raises(PuzzleFormatError, match="the board has 100000 cells but the 1 domino"):
        PB.from_graph({"dominoes": [[1, 2]], "links": links})


# detection names the likely family's error -------------------------------------------------------

@pytest.mark.parametrize("change, words", [
    (lambda t: t.replace("3 0 1 1 2", "3 0 O 1 2"),
     ["looks like Dominosa: line 3: 'O' is not a number", "use --kind"]),
    (lambda t: t.replace(" ", ","), ["looks like Dominosa: line 1: '4,5'", "spaces"]),
])
def test_a_damaged_dominosa_grid_gets_its_own_error(tmp_path, capsys, change, words) -> None:
    path = tmp_path / "board.txt"
    path.write_text(change(GRID.read_text()))
    with pytest.raises(PuzzleFormatError, match="looks like Dominosa"):
        detect(path.read_text())
    one_error(capsys, ["solve", str(path)], *words)


def test_a_doodlefit_drawing_with_short_separators_gets_its_own_error(tmp_path, capsys) -> None:
    text = (EXAMPLES / "doodlefit" / "planted-20.txt").read_text()
    path = tmp_path / "drawing.txt"
    path.write_text(text.replace("\n---\n", "\n--\n"))
    one_error(capsys, ["solve", str(path)], "looks like Doodle Fit: line 6: '--' is not a "
              "separator (write '---')")
    path.write_text("hello world\n")
    one_error(capsys, ["solve", str(path)], "cannot tell what puzzle this is")


def test_json_with_misspelt_keys_only_is_read_by_the_family_it_resembles() -> None:
    with pytest.raises(PuzzleFormatError, match="looks like Domino Fit: unknown key 'widht'"):
        detect('{"widht": 3, "heigth": 2}')
    assert detect('{"problem": "2 3\\n0 0 1\\n0 1 1"}').kind == "dominosa"


@pytest.mark.parametrize("drawing, where", [
    ("###\n#x#\n---\n***\n***\n", "line 2, column 2: 'x' in the shape"),
    ("##\n---\n*#\n", "line 3, column 2: '#' in block 0"),
    ("##\n---\n*\t*\n", "line 3, column 2: '\\t' in block 0"),
])
def test_doodlefit_refuses_any_unexpected_character(drawing, where) -> None:
    [(_, part)] = family("doodlefit").parse(drawing)
    assert isinstance(part, PuzzleFormatError) and where in str(part), part


# every family's JSON keys ------------------------------------------------------------------------

def _pips_example() -> dict:
    return json.loads((EXAMPLES / "pips" / "planted-6-unique.json").read_text())


@pytest.mark.parametrize("kind, obj, message", [
    ("pips", {**_pips_example(), "regoins": []}, "unknown key 'regoins' in a Pips puzzle; "
     "did you mean 'regions'?"),
    ("pips", {"easy": _pips_example(), "medum": None}, "unknown key 'medum' in a Pips day "
     "file; did you mean 'medium'?"),
    ("pips", {**_pips_example(), "regions": [{"indice": [[0, 0]], "type": "empty"}]},
     "unknown key 'indice' in region 1; did you mean 'indices'?"),
    ("pips", {**_pips_example(), "regions": [
        {"indices": [[0, 0], [0, 1]], "type": "equals", "target": 3}]},
     "region 1 (equals) takes no target"),
    ("pips", {"dominoes": [[1, 2]], "links": {"a": ["b"], "b": ["a"]}, "constraint": []},
     "did you mean 'constraints'?"),
    ("dominosa", {"gameid": "2:221200101201"}, "unknown key 'gameid' in a Dominosa object; "
     "did you mean 'game_id'?"),
    ("dominofit", {"width": 1, "height": 1, "top_numbers": [0], "side_numbers": [0],
                   "black": []}, "unknown key 'black' in a Domino Fit puzzle; did you mean "
     "'blacks'?"),
])
def test_unknown_keys_are_refused_in_every_family(kind, obj, message) -> None:
    with pytest.raises(PuzzleFormatError, match=re.escape(message)):
        strict(family(kind).parse(json.dumps(obj)))


def test_metadata_keys_are_still_allowed() -> None:
    obj = {**_pips_example(), "id": 7, "backendId": "x", "constructors": "y", "name": "n"}
    [(_, part)] = family("pips").parse(json.dumps(obj))
    assert not isinstance(part, PuzzleFormatError), part
    [(_, part)] = family("dominosa").parse(json.dumps(
        {"name": "a", "game_id": "2:221200101201", "solution": "..."}))
    assert not isinstance(part, PuzzleFormatError), part


def test_json_lines_keep_their_good_parts_when_the_first_is_broken() -> None:
    text = '{"game_id": "0:0\n{"game_id": "0:00"}\n'
    parts = family("dominosa").parse(text)
    assert [n for n, _ in parts] == ["#1", "#2"]
    assert "line 1, column 13: not JSON" in str(parts[0][1]) and parts[1][1].n == 0
    pretty = '{\n  "game_id": "0:00"\n  "name": "x"\n}\n'  # one object, a comma missing
    with pytest.raises(PuzzleFormatError, match="^line 3, column 3: not JSON"):
        family("dominosa").parse(pretty)
    with pytest.raises(PuzzleFormatError, match="line 4: 'O' is not a number"):
        DB.parse_grid("\n\n0 0\n1 O\n")  # lines counted as the file has them


def test_a_letter_in_a_game_id_is_named_where_it_is() -> None:
    with pytest.raises(PuzzleFormatError, match="game id: 'O' at character 7 is not a number"):
        DB.parse("2:2212O0101201")
    with pytest.raises(PuzzleFormatError, match="not a Dominosa game id"):
        DB.parse("2:22[12")
