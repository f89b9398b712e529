"""The unique-board generator: counts against the brute force, determinism, the deadline."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from satdomino import family, solve
from satdomino.clock import Deadline
from satdomino.errors import SatDominoError
from satdomino.puzzles import dominosa as D
from satdomino.puzzles.dominosa.unique import generate, unique_board

from .bruteforce import solutions

FAM = family("dominosa")


@pytest.mark.parametrize("n", range(7))
def test_small_boards_have_exactly_one_solution(n: int) -> None:
    for seed in range(30):
        board, sol = unique_board(n, seed)
        assert board.n == n
        assert D.verify(board, sol) == []
        found = solutions(board.grid, limit=2)  # backtracking, no SAT
        assert found == [frozenset(sol.pairs)], (n, seed, board.game_id())


def test_a_tiling_that_will_not_settle_is_replaced() -> None:
    # N=1: three vertical dominoes admit no unique numbering; seed 10 meets such dead ends
    board, sol, stats = generate(1, 10)
    assert stats.tilings > 1
    assert solutions(board.grid, limit=2) == [frozenset(sol.pairs)]


def test_deterministic_per_n_and_seed() -> None:
    assert unique_board(9, 4) == unique_board(9, 4)
    assert unique_board(9, 4)[0] != unique_board(9, 5)[0]
    # the deadline only bounds the time (it moves the search into a child process)
    assert unique_board(9, 4, deadline=Deadline.after(60)) == unique_board(9, 4)


def test_same_board_in_another_process() -> None:
    code = ("from satdomino.puzzles.dominosa.unique import unique_board; "
            "print(unique_board(12, 3)[0].game_id())")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": str(h)}).stdout
            for h in (1, 2)}
    assert outs == {unique_board(12, 3)[0].game_id() + "\n"}


def test_double_30_is_proved_unique_by_the_framework() -> None:
    board, sol = unique_board(30, 1)
    assert (board.rows, board.cols) == (31, 32)
    assert D.verify(board, sol) == []
    out = solve(board, FAM, unique=True)
    assert out.status == "sat" and out.unique is True
    assert out.solution == sol


def test_deadline_already_passed() -> None:
    with pytest.raises(SatDominoError, match="within the time limit"):
        unique_board(5, 1, deadline=Deadline(time.monotonic() - 1))


def test_deadline_passing_during_the_search() -> None:
    t0 = time.monotonic()
    with pytest.raises(SatDominoError, match="within the time limit"):
        unique_board(60, 1, deadline=Deadline(t0 + 0.02))
    assert time.monotonic() - t0 < 2  # the search was stopped, not waited for


def test_negative_n() -> None:
    with pytest.raises(SatDominoError, match="at least 0"):
        unique_board(-1, 1)
