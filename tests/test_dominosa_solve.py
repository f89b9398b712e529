"""Encodings x backends against an independent brute-force solver on many small boards."""

from __future__ import annotations

import random
import shutil

import pytest

from satdomino import Encodings, family, solve
from satdomino.encode import REGISTRY
from satdomino.kernels import cover_count
from satdomino.puzzles import dominosa as D

from .bruteforce import solutions
from .conftest import needs_sls

FAM = family("dominosa")


def random_numbering(n: int, rng: random.Random) -> D.Dominosa:
    """Numbers shuffled over the grid: right counts, often no solution, sometimes many."""
    values = [v for v in range(n + 1) for _ in range(n + 2)]
    rng.shuffle(values)
    cols = n + 2
    return D.Dominosa(tuple(tuple(values[r * cols:(r + 1) * cols]) for r in range(n + 1)))


def boards(count: int, seed: int) -> list[D.Dominosa]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        n = rng.randint(1, 4)
        out.append(D.planted(n, rng.randrange(10**6))[0] if i % 2 else random_numbering(n, rng))
    return out


BOARDS = boards(40, seed=2026)
TRUTH = [solutions(b.grid, limit=2) for b in BOARDS]


def test_boards_cover_all_cases() -> None:
    kinds = {min(len(t), 2) for t in TRUTH}
    assert kinds == {0, 1, 2}, "the random sample should hold unsat, unique and ambiguous boards"


def check(board: D.Dominosa, truth: list, **kw) -> None:
    out = solve(board, FAM, unique=True, **kw)
    if not truth:
        assert out.status == "unsat" and out.solution is None
        return
    assert out.status == "sat"
    assert D.verify(board, out.solution) == []
    assert frozenset(out.solution.pairs) in truth or len(truth) == 2
    assert out.unique == (len(truth) == 1)
    if not out.unique:
        assert out.other is not None and out.other != out.solution
        assert D.verify(board, out.other) == []


@pytest.mark.parametrize("amo", [e for e in REGISTRY["amo"] if e != "native"])
def test_every_amo_encoding_on_cadical(amo: str) -> None:
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        check(board, truth, encodings=Encodings(amo=amo))


@pytest.mark.parametrize("card", [e for e in REGISTRY["card"] if e != "native"])
def test_every_card_encoding_in_counted_model(card: str) -> None:
    for board, truth in zip(BOARDS[:16], TRUTH[:16], strict=True):
        check(board, truth, model="counted", encodings=Encodings(card=card))


@pytest.mark.parametrize("pb", list(REGISTRY["pb"]))
def test_every_pb_encoding_in_counted_model(pb: str) -> None:
    for board, truth in zip(BOARDS[:16], TRUTH[:16], strict=True):
        check(board, truth, model="counted", encodings=Encodings(pb=pb))


PYSAT_BACKENDS = ["cadical195", "cadical153", "kissat404", "glucose4", "minisat22", "lingeling",
                  "maplechrono", "mergesat3"]


@pytest.mark.parametrize("backend", [*PYSAT_BACKENDS, "z3", "z3-smt", "highs",
                                     "portfolio:minisat22+highs-fj",
                                     pytest.param("portfolio:minisat22+sls", marks=needs_sls),
                                     "auto"])
@pytest.mark.parametrize("model", ["placement", "counted"])
def test_backends(backend: str, model: str) -> None:
    for board, truth in zip(BOARDS[:14], TRUTH[:14], strict=True):
        check(board, truth, backend=backend, model=model)


def test_the_pruned_model_keeps_every_solution(monkeypatch) -> None:
    """Linear programming on from the first placement: no placement it rules out lies in any
    solution (all of them, by brute force), solve and uniqueness agree with brute force, and
    on the boards with solutions it rules out some."""
    monkeypatch.setattr(cover_count, "LP_FROM", 0)
    ruled_out = 0
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        m = D.build_pruned(board)
        out = {m.key(-c.lits[0])[2] for k, c in enumerate(m.constraints)
               if m.label(k) == "in no solution (by linear programming)"}
        assert not any(out & every for every in solutions(board.grid)), board
        ruled_out += len(out) if truth else 0
        check(board, truth, backend="minisat22", model="pruned")
    assert ruled_out > 0


@pytest.mark.parametrize("backend", ["minicard", "gluecard3", "gluecard4", "z3"])
def test_native_cardinality(backend: str) -> None:
    for board, truth in zip(BOARDS[:14], TRUTH[:14], strict=True):
        check(board, truth, backend=backend, model="counted",
              encodings=Encodings(amo="native", card="native"))


@pytest.mark.parametrize("binary", ["cadical", "picosat"])
def test_external_binaries(binary: str) -> None:
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not installed")
    for board, truth in zip(BOARDS[:10], TRUTH[:10], strict=True):
        check(board, truth, backend=f"external:{binary}")


def test_verify_rejects_broken_layouts() -> None:
    board, sol = D.planted(4, seed=3)
    assert D.verify(board, sol) == []
    pairs = list(sol.pairs)
    assert D.verify(board, D.DominosaSolution(tuple(pairs[1:])))  # a domino missing
    (a, b), (c, d) = pairs[0], pairs[1]
    assert D.verify(board, D.DominosaSolution(((a, d), (c, b), *pairs[2:])))  # not adjacent
    assert D.verify(board, D.DominosaSolution((pairs[0], *pairs)))  # overlap


def _breaks_rules(board: D.Dominosa, pairs: list) -> bool:
    """The rules read independently of ``verify``: the pairs cover every cell of the board once,
    each pair is two neighbours, and their numbers are the domino set."""
    if sorted(cell for pair in pairs for cell in pair) != board.cells():
        return True
    if any(abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in pairs):
        return True
    shown = sorted(tuple(sorted((board.at(a), board.at(b)))) for a, b in pairs)
    return shown != sorted(D.dominoes(board.n))


def _mutated(pairs: list, rng: random.Random) -> list:
    """A planted layout with one change: a 2x2 block of two dominoes turned (every cell still
    covered once, the dominoes shown may change), a domino dropped, doubled, or moved, or two
    dominoes trading cells (every cell still covered once, the pairs mostly not neighbours)."""
    pairs = list(pairs)
    at = set(pairs)
    blocks = [(p, q) for p in pairs for q in pairs
              if q == tuple((r + (p[0][0] == p[1][0]), c + (p[0][1] == p[1][1])) for r, c in p)]
    kind = rng.choice(["turn", "turn", "drop", "double", "move", "swap"])
    if kind == "turn" and blocks:
        (a, b), (c, d) = rng.choice(blocks)
        at -= {(a, b), (c, d)}
        at |= {(a, c), (b, d)}
        return sorted(at)
    i = rng.randrange(len(pairs))
    if kind == "swap" and len(pairs) > 1:  # two dominoes trade second cells: mostly not neighbours
        j = rng.choice([j for j in range(len(pairs)) if j != i])
        (a, b), (c, d) = pairs[i], pairs[j]
        pairs[i], pairs[j] = (a, d), (c, b)
        return pairs
    if kind == "drop":
        return pairs[:i] + pairs[i + 1:]
    if kind == "double":
        return pairs + [pairs[i]]
    (r, c), _ = pairs[i]
    dr, dc = rng.choice([(0, 1), (1, 0), (0, -1), (-1, 0)])
    pairs[i] = ((r, c), (r + dr, c + dc))
    return pairs


def test_verify_agrees_with_the_rules_on_changed_layouts() -> None:
    rng = random.Random(5)
    verdicts = set()
    for n in range(1, 8):
        for seed in range(6):
            board, sol = D.planted(n, seed)
            for _ in range(30):
                pairs = _mutated(list(sol.pairs), rng)
                broken = _breaks_rules(board, pairs)
                assert bool(D.verify(board, D.DominosaSolution(tuple(pairs)))) == broken
                verdicts.add(broken)
    assert verdicts == {True, False}  # both kinds of layout were met


def test_planted_boards_are_solutions() -> None:
    for n in range(12):
        board, sol = D.planted(n, seed=n)
        assert D.verify(board, sol) == []


def test_enumeration_count_matches_brute_force() -> None:
    from satdomino.analysis.count import count

    for board in BOARDS[:20]:
        c = count(board, FAM, methods=("enumeration",))
        assert c.complete and c.method == "enumeration"
        assert c.value == len(solutions(board.grid))


@pytest.mark.parametrize("n,seed", [(0, 0), (1, 1), (3, 2), (6, 3)])
def test_placement_model_names_every_edge_as_place_key_does(n: int, seed: int) -> None:
    """The one-pass builder against the rules read from the board edge by edge: a variable per
    edge, named by place_key, in the order of edges(); a cell's and a domino's exactly-one."""
    board = D.planted(n, seed)[0] if n else D.Dominosa(((0, 0),))  # n = 0: one 0-0 domino
    m = D.build_placement(board)
    edges = board.edges()
    assert [m.key(x) for x in range(1, m.num_vars + 1)] == [D.place_key(board, e) for e in edges]
    assert m.projection == list(range(1, len(edges) + 1))
    groups = {}
    for x, e in enumerate(edges, 1):
        for owner in (("cell", e[0]), ("cell", e[1]), ("domino", D.domino_of(board, e))):
            groups.setdefault(owner, []).append(x)
    expected = [groups.get(("cell", c), []) for c in board.cells()]
    expected += [groups.get(("domino", d), []) for d in D.dominoes(board.n)]
    assert [list(c.lits) for c in m.constraints] == expected
    assert all(type(c).__name__ == "ExactlyOne" for c in m.constraints)
