"""``by-size:VARS:SMALL|LARGE``: each formula goes to the side its size picks, answers match
brute force on both sides, and bad specs are refused."""

from __future__ import annotations

import pytest

from satdomino import family
from satdomino.backends import get_backend
from satdomino.backends.base import Backend, Result, size
from satdomino.backends.by_size import BySizeBackend
from satdomino.clock import NEVER, Deadline
from satdomino.encode import CNF, lower
from satdomino.errors import SatDominoError

from .test_dominosa_solve import BOARDS, TRUTH, check

FAM = family("dominosa")


class _Recording(Backend):
    """A real solver that notes the size of every formula it is given (solve or start)."""

    def __init__(self, name: str, seen: list) -> None:
        self.inner, self.seen = get_backend(name), seen
        super().__init__(name=name, takes=self.inner.takes, takes_phases=True)

    def solve(self, formula, assumptions=(), deadline=NEVER, phases=()) -> Result:
        self.seen.append((self.name, size(formula)[0], type(formula).__name__))
        return self.inner.solve(formula, assumptions, deadline, phases)

    def start(self, formula, assumptions=(), phases=()):
        self.seen.append((self.name, size(formula)[0], type(formula).__name__))
        return self.inner.start(formula, assumptions, phases)


def _cnf_size(board) -> int:
    """The variables of a board's CNF (auxiliary ones included): what by-size counts."""
    return size(lower(FAM.model(None)(board)))[0]


def _limit() -> int:
    """A size between the smallest and the largest of the test boards."""
    sizes = sorted(_cnf_size(b) for b in BOARDS)
    limit = sizes[len(sizes) // 2]
    assert sizes[0] < limit <= sizes[-1]
    return limit


@pytest.mark.parametrize("small, large", [("minisat22", "glucose4"),
                                          ("z3-smt", "portfolio:minisat22+cadical195")])
def test_each_formula_goes_to_the_side_its_size_picks(small: str, large: str) -> None:
    limit, seen = _limit(), []
    engine = BySizeBackend(limit, _Recording(small, seen), _Recording(large, seen))
    assert engine.takes == ("cnf" if small == "minisat22" else "both")
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        seen.clear()
        check(board, truth, backend=engine)  # solved, and uniqueness decided, on one side
        side = small if _cnf_size(board) < limit else large
        form = "Model" if side == "z3-smt" else "CNF"  # a Forms is split for the side
        assert seen and all((name, kind) == (side, form) for name, _, kind in seen), seen


def test_by_size_is_written_by_size_vars_small_bar_large() -> None:
    spec = "by-size:5000:portfolio:minisat22@..0.08+glucose4@0.02|cadical195"
    engine = get_backend(spec)
    assert isinstance(engine, BySizeBackend) and engine.name == spec
    assert engine.limit == 5000 and engine.large.name == "cadical195"
    assert engine.small.delays == [0, 0.02] and engine.small.yields == [0.08, None]
    small_cnf = CNF(num_vars=3, model_vars=3, clauses=[[1, 2], [-1], [3]])
    out = get_backend("by-size:4:minisat22|glucose4").solve(small_cnf)
    assert out.status == "sat" and out.true_vars == {2, 3}


@pytest.mark.parametrize("spec, message", [
    ("by-size:", "write by-size:VARS:SMALL|LARGE"),
    ("by-size:1.5:minisat22|glucose4", "write by-size:VARS"),
    ("by-size:10:minisat22", "write by-size:VARS"),
    ("by-size:10:|glucose4", "write by-size:VARS"),
    ("by-size:10:minisat22|", "write by-size:VARS"),
    ("by-size:10:minisat22|nosuch", "unknown backend 'nosuch'"),
])
def test_bad_by_size_specs(spec: str, message: str) -> None:
    with pytest.raises(SatDominoError, match=message):
        get_backend(spec)


def test_a_time_limit_reaches_the_side_that_solves() -> None:
    from .test_portfolio import pigeonhole

    out = get_backend("by-size:10:glucose4|minisat22").solve(pigeonhole(11),
            deadline=Deadline.after(0.3))
    assert out.status == "unknown" and out.note == "time limit"
