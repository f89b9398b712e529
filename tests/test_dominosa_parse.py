from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satdomino.errors import PuzzleFormatError
from satdomino.puzzles import detect
from satdomino.puzzles import dominosa as D

TINY = "2:221200101201"  # a double-2 board (Kirkby), 3x4


def test_game_id_roundtrip_and_shape() -> None:
    p = D.parse_game_id(TINY)
    assert (p.n, p.rows, p.cols) == (2, 3, 4)
    assert p.grid[0] == (2, 2, 1, 2)
    assert p.game_id() == TINY


def test_bracketed_numbers_above_nine() -> None:
    board, _ = D.planted(12, seed=5)
    gid = board.game_id()
    assert "[12]" in gid and "[10]" in gid
    assert D.parse_game_id(gid) == board
    assert D.parse(gid) == [(None, board)]


def test_grid_with_and_without_header() -> None:
    board, _ = D.planted(5, seed=1)
    text = board.grid_text()
    assert text.splitlines()[0] == "6 7"
    assert D.parse(text) == [(None, board)]
    body = "\n".join(text.splitlines()[1:])
    assert D.parse(body) == [(None, board)]


def test_json_lines_and_id_lists_give_named_parts() -> None:
    a, _ = D.planted(3, seed=1)
    b, _ = D.planted(4, seed=2)
    jsonl = (f'{{"name": "one", "problem": "{a.grid_text().strip()}"}}\n'.replace("\n", "\\n",
             a.grid_text().strip().count("\n")) +
             f'{{"name": "two", "game_id": "{b.game_id()}"}}\n')
    assert D.parse(jsonl) == [("one", a), ("two", b)]
    tsv = f"name\tgame_id\tnote\nfirst\t{a.game_id()}\tx\nsecond\t{b.game_id()}\ty\n"
    assert D.parse(tsv) == [("first", a), ("second", b)]
    assert D.parse(f"{a.game_id()}\n{b.game_id()}\n") == [("#1", a), ("#2", b)]


def test_detection() -> None:
    assert detect(TINY).kind == "dominosa"
    assert detect("3 4\n2 2 1 2\n0 0 1 0\n1 2 0 1\n").kind == "dominosa"
    with pytest.raises(PuzzleFormatError):
        detect("hello world\n")


@pytest.mark.parametrize("text, message", [
    ("", "empty"),
    ("   \n\n", "empty"),
    ("2 2 1 2\n0 0 1\n1 2 0 1\n", "ragged grid: row 1 has 3 numbers"),
    ("2 2 1 2\n0 0 1 0\n1 2 0 7\n", "number 7 at cell (2, 3) is outside 0..2"),
    ("2 2 1 2\n0 0 1 0\n1 2 0 2\n", "number 1 appears 3 times"),
    ("2 2 1 2 1\n0 0 1 0 0\n1 2 0 2 2\n", "a 3x5 grid fits no domino set"),
    ("2:22120010120", "needs 12 numbers"),
    ("3 4\n2 2 1 2\n0 0 1 0\n", "header says 3x4"),
    ("2 2 x 2\n0 0 1 0\n1 2 0 1\n", "line 1: 'x' is not a number"),
    ('{"name": "a"}', "needs 'problem' (grid text), 'game_id' (text) or 'grid' (rows)"),
    ('{"game_id": "0:00"}\n{oops\n', "#2: line 2, column 2: not JSON"),
    ("1" * 5000 + " 0\n0 0 0\n", "not a number in range"),
    ("1" * 5000 + ":0", "not a number in range"),
    ("3:[" + "9" * 5000 + "]", "not a number in range"),
    ("1000:00", "N=1000 is too large"),
    ('{"grid": [[' + "9" * 5000 + "]]}", "a number with too many digits"),
    ('{"grid": [[0.5, 0.2]]}', "'grid' must be a list of rows of whole numbers"),
    ('{"grid": [[true, false]]}', "'grid' must be a list of rows of whole numbers"),
    ('{"name": 5, "game_id": "0:00"}', "'name' must be a string"),
    ("[" * 100000, "JSON nested more than 100 deep"),
    ("[]", "no puzzles in this file"),
    ("0 -1 0\n1 1 -1\n", "number -1 at cell (0, 1) is outside 0..1"),
    ("0 1\n2 3 4\n5\n", "ragged grid"),
])
def test_bad_input_has_a_clear_message(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=re.escape(message)):
        D.parse(text)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 14), seed=st.integers(0, 10**6))
def test_every_format_round_trips(n: int, seed: int) -> None:
    board, sol = D.planted(n, seed)
    assert D.verify(board, sol) == []
    assert D.parse(board.game_id()) == [(None, board)]
    assert D.parse(board.grid_text()) == [(None, board)]
    assert D.from_layout(sol.layout(board.rows, board.cols)) == sol


def test_each_part_of_a_collection_stands_alone() -> None:
    good, _ = D.planted(3, seed=1)
    text = (f"name\tgame_id\nmy puzzle\t{good.game_id()}\nshort one\t3:0123\n"
            f"third\t{good.game_id()}\n")
    parts = D.parse_parts(text)
    assert [name for name, _ in parts] == ["my puzzle", "short one", "third"]
    assert parts[0][1] == good and parts[2][1] == good
    assert isinstance(parts[1][1], PuzzleFormatError) and "needs 20 numbers" in str(parts[1][1])
    with pytest.raises(PuzzleFormatError, match="^short one: game id for N=3"):
        D.parse(text)
    jsonl = f'{{"game_id": "{good.game_id()}"}}\n{{broken\n{{"name": "x", "game_id": "1:0"}}\n'
    parts = D.parse_parts(jsonl)
    assert [n for n, _ in parts] == ["#1", "#2", "x"]
    assert parts[0][1] == good
    assert "line 2, column 2: not JSON" in str(parts[1][1])
    assert "needs 6 numbers" in str(parts[2][1])


@pytest.mark.parametrize("one", ["\u0661", "\u00b9"])  # Arabic-Indic one, superscript one
def test_numbers_are_ascii_digits_only(one) -> None:
    """Other scripts' digits and superscripts are refused alike."""
    for valid, other in (("2 3\n0 0 1\n0 1 1\n", f"2 3\n0 0 1\n0 1 {one}\n"),
                         ("1:001011", f"1:00{one}0{one}{one}")):
        assert D.parse(valid)
        with pytest.raises(PuzzleFormatError):
            D.parse(other)
