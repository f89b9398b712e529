"""Pips: parsing, the placement model against brute force, and the NYT corpus."""

from __future__ import annotations

import dataclasses
import json
import random
import shutil
import time

import pytest

from satdomino import Encodings, family, solve
from satdomino.analysis.count import count
from satdomino.encode import REGISTRY
from satdomino.errors import PuzzleFormatError
from satdomino.puzzles import pips as P

from .conftest import EXAMPLES, needs_sls
from .pips_bruteforce import solutions

FAM = family("pips")


def small_boards(count: int, seed: int) -> list[P.Pips]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        board, sol = P.planted(rng.randint(2, 5), rng.randrange(10**6), max_pip=rng.choice([2, 6]))
        assert P.verify(board, sol) == []
        if i % 3 == 2:  # nudge one target: often no solution left
            regions = list(board.regions)
            k = next((j for j, r in enumerate(regions) if r.rule == "sum"), None)
            if k is not None:
                regions[k] = P.Region("sum", regions[k].nodes, regions[k].target + 1)
                board = P.Pips(board.nodes, board.edges, board.dominoes, tuple(regions), True)
        out.append(board)
    return out


BOARDS = small_boards(36, seed=11)
TRUTH = [solutions(b) for b in BOARDS]


def test_sample_has_unsat_unique_and_ambiguous_boards() -> None:
    assert {min(len(t), 2) for t in TRUTH} == {0, 1, 2}


def placement_set(board: P.Pips, sol: P.PipsSolution) -> frozenset:
    out = set()
    for (a, b), (u, v) in zip(board.dominoes, sol.pairs, strict=True):
        t = (min(a, b), max(a, b))
        if a == b:
            out.add((t, *sorted((u, v))))
        else:
            out.add((t, u, v) if a == t[0] else (t, v, u))
    return frozenset(out)


def check(board: P.Pips, truth: set, **kw) -> None:
    out = solve(board, FAM, unique=True, **kw)
    if not truth:
        assert out.status == "unsat"
        return
    assert out.status == "sat" and P.verify(board, out.solution) == []
    assert placement_set(board, out.solution) in truth
    assert out.unique == (len(truth) == 1)
    if not out.unique:
        assert placement_set(board, out.other) in truth
        assert placement_set(board, out.other) != placement_set(board, out.solution)


@pytest.mark.parametrize("pb", list(REGISTRY["pb"]))
def test_every_pb_encoding(pb: str) -> None:
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        check(board, truth, encodings=Encodings(pb=pb))


@pytest.mark.parametrize("encodings", [Encodings(amo=a, card=c) for a, c in [
    ("pairwise", "seqcounter"), ("ladder", "sortnetwrk"), ("bitwise", "cardnetwrk"),
    ("commander", "mtotalizer"), ("product", "kmtotalizer"), ("totalizer", "pkd-totalizer"),
    ("cardnetwrk", "pkd-sortnetwrk")]], ids=lambda e: f"{e.amo}+{e.card}")
def test_amo_and_card_encodings(encodings: Encodings) -> None:
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        check(board, truth, encodings=encodings)


@pytest.mark.parametrize("backend", ["cadical195", "kissat404", "glucose4", "minisat22", "z3",
                                     "z3-smt", "highs", "external:cadical", "external:picosat",
                                     pytest.param("portfolio:cadical195+sls", marks=needs_sls),
                                     "auto"])
def test_backends(backend: str) -> None:
    if backend.startswith("external:") and shutil.which(backend.split(":")[1]) is None:
        pytest.skip(f"{backend} is not installed")
    for board, truth in list(zip(BOARDS, TRUTH, strict=True))[:18]:
        check(board, truth, backend=backend)


def test_native_cardinality_on_minicard() -> None:
    for board, truth in list(zip(BOARDS, TRUTH, strict=True))[:18]:
        check(board, truth, backend="minicard", encodings=Encodings(amo="native", card="native"))


SEED_GRAPH = {  # a non-grid board in the seed article's graph form: a ring of six nodes
    "dominoes": [[1, 2], [3, 3], [0, 4]],
    "links": {"a": ["b", "f"], "b": ["a", "c"], "c": ["b", "d"], "d": ["c", "e"],
              "e": ["d", "f"], "f": ["e", "a"]},
    "constraints": [{"type": "equals", "nodes": ["a", "b"]},
                    {"type": "sum", "nodes": ["c", "d"], "target": 4},
                    {"type": "less", "nodes": ["e"], "target": 2}],
}


def test_graph_form() -> None:
    [(name, board)] = P.parse(json.dumps(SEED_GRAPH))
    assert name is None
    assert not board.grid and len(board.edges) == 6
    truth = solutions(board)
    assert len(truth) == 2  # a-b 3|3, c-d 0|4 or 4|0 (two placements), e-f 1|2
    out = solve(board, FAM, unique=True)
    assert out.status == "sat" and P.verify(board, out.solution) == []
    assert out.unique == (len(truth) == 1)
    data = P.solution_json(board, out.solution)
    assert all(isinstance(u, str) for pair in data["solution"] for u in pair)
    assert data["values"][0][0] == "a"


@pytest.mark.parametrize("change, message", [
    (lambda o: o["links"].update(b="a"), "links of 'b' must be a list"),  # not "link back"
    (lambda o: o["links"].update({"a\x00": []}), "control character"),  # broke the SVG
])
def test_bad_graph_input(change, message) -> None:
    obj = json.loads(json.dumps(SEED_GRAPH))
    change(obj)
    with pytest.raises(PuzzleFormatError, match=message):
        P.parse(json.dumps(obj))
    with pytest.raises(PuzzleFormatError, match="JSON object"):
        P.from_nyt([])  # type: ignore[arg-type]


@pytest.mark.parametrize("change, message", [
    (lambda o: o["regions"][0].update(type="bigger"), "unknown type 'bigger'"),
    (lambda o: o["regions"][0].pop("target"), "has no target"),
    (lambda o: o["regions"][1]["indices"].append(o["regions"][0]["indices"][0]), "overlap"),
    (lambda o: o["dominoes"].append([1, 1]), "the board has"),
    (lambda o: o["dominoes"].__setitem__(0, [1, -1]), "whole number in 0..99"),
    (lambda o: o["solution"][0].__setitem__(0, [40, 40]), "outside every region"),
])
def test_bad_input(change, message) -> None:
    obj = {"dominoes": [[1, 2], [3, 3]],
           "regions": [{"indices": [[0, 0], [0, 1]], "type": "sum", "target": 3},
                       {"indices": [[1, 0], [1, 1]], "type": "equals"}],
           "solution": [[[0, 0], [0, 1]], [[1, 0], [1, 1]]]}
    assert P.parse(json.dumps(obj))  # the unchanged object is fine
    change(obj)
    with pytest.raises(PuzzleFormatError, match=message):
        P.parse(json.dumps(obj))


def test_nyt_corpus(corpus) -> None:
    files = sorted((corpus / "pips" / "nyt").glob("*.json"))
    assert len(files) == 64
    solved = skipped = 0
    for f in files:
        parts = P.parse_parts(f.read_text())
        for name, part in parts:
            if isinstance(part, P.Skipped):
                skipped += 1
                continue
            assert isinstance(part, P.Pips), (f.name, name, part)
            official = P.PipsSolution(part.official)
            assert P.verify(part, official) == [], (f.name, name)  # our checker accepts it
            out = solve(part, FAM)
            assert out.status == "sat" and P.verify(part, out.solution) == [], (f.name, name)
            solved += 1
    assert (solved, skipped) == (182, 10)


def test_exact_counter_and_enumeration_agree_with_brute_force() -> None:
    enumerate_only = dataclasses.replace(FAM, exact_count=None)
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        assert P.count_placements(board) == len(truth)
        c = count(board, enumerate_only, methods=("enumeration",))
        assert (c.value, c.method, c.complete) == (len(truth), "enumeration", True)
        c = count(board, enumerate_only, backend="z3-smt", limit=3,  # the generic loop
                  methods=("enumeration",))
        assert c.value == min(3, len(truth)) and c.complete == (len(truth) < 3)
        if len(truth) <= 12:  # Kissat takes no clause after a solve (it aborted the
            # process): a new solver for each solution, which is slower
            c = count(board, enumerate_only, backend="kissat404", methods=("enumeration",))
            assert (c.value, c.complete) == (len(truth), True)


@pytest.mark.slow  # the slow tier: python -m pytest -m slow
def test_corpus_counts(corpus) -> None:
    """The exact counter against the corpus README's figures, SAT uniqueness on every puzzle,
    and SAT enumeration wherever it is cheap."""
    enumerate_only = dataclasses.replace(FAM, exact_count=None)
    known = {("2025-09-15", "hard"): 2_764_800, ("2025-10-05", "hard"): 344}
    for f in sorted((corpus / "pips" / "nyt").glob("*.json")):
        for name, board in P.parse(f.read_text()):
            n = P.count_placements(board)
            if (f.stem, name) in known:
                assert n == known[(f.stem, name)]
                c = count(board, FAM)  # the portfolio: past 200 solutions it switches to dp
                assert (c.value, c.method) == (n, "dp")
            out = solve(board, FAM, unique=True)
            assert out.unique == (n == 1), (f.name, name, n)
            if n <= 40:
                assert count(board, enumerate_only).value == n, (f.name, name)


@pytest.mark.parametrize("intenc", list(REGISTRY["int"]))
@pytest.mark.parametrize("backend", ["cadical195", "z3-smt"])
def test_link_value_model(intenc: str, backend: str) -> None:
    """The seed article's link/value model agrees with brute force: answers, uniqueness, and
    counts through its projection (links and values), which must be distinct placements."""
    enumerate_only = dataclasses.replace(FAM, exact_count=None)
    enc = Encodings(int=intenc)
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        check(board, truth, model="link-value", backend=backend, encodings=enc)
        if backend == "cadical195":
            c = count(board, enumerate_only, model="link-value", encodings=enc)
            assert (c.value, c.complete) == (len(truth), True)


@pytest.mark.parametrize("pb", ["bdd", "adder", "totalizer"])
def test_link_value_with_pb_encodings(pb: str) -> None:
    for board, truth in list(zip(BOARDS, TRUTH, strict=True))[:18]:
        check(board, truth, model="link-value", encodings=Encodings(int="order", pb=pb))


def test_corpus_link_value_agrees(corpus) -> None:
    for f in sorted((corpus / "pips" / "nyt").glob("*.json"))[::4]:
        for name, board in P.parse(f.read_text()):
            a = solve(board, FAM, unique=True)
            b = solve(board, FAM, unique=True, model="link-value",
                      encodings=Encodings(int="log"))
            assert b.status == "sat" and P.verify(board, b.solution) == [], (f.name, name)
            assert a.unique == b.unique, (f.name, name)


def _grid_and_tiling(placement: frozenset) -> tuple[frozenset, frozenset]:
    values, tiles = {}, set()
    for (a, b), u, v in placement:
        values[u], values[v] = a, b
        tiles.add(frozenset((u, v)))
    return frozenset(values.items()), frozenset(tiles)


def test_count_by_grid_and_tiling_match_brute_force() -> None:
    for board, truth in zip(BOARDS, TRUTH, strict=True):
        grids = {_grid_and_tiling(s)[0] for s in truth}
        tilings = {_grid_and_tiling(s)[1] for s in truth}
        assert count(board, FAM, by="grid").value == len(grids)
        assert count(board, FAM, by="tiling").value == len(tilings)
        assert count(board, FAM, by="tiling", limit=1).value == min(1, len(tilings))


def test_count_by_in_the_cli(capsys) -> None:
    from satdomino.cli import main

    path = str(EXAMPLES / "pips" / "planted-6-unique.json")
    for by in ("grid", "tiling"):
        assert main(["solve", path, "--json", "--count", "--count-by", by]) == 0
        rec = json.loads(capsys.readouterr().out)
        assert (rec["count"], rec["count_by"], rec["count_complete"]) == (1, by, True)
    dominosa = str(EXAMPLES / "dominosa" / "double6.txt")
    assert main(["solve", dominosa, "--count", "--count-by", "grid"]) == 2
    assert "cannot count by 'grid'" in capsys.readouterr().err
    assert main(["solve", dominosa, "--count-by", "tiling"]) == 2


@pytest.mark.parametrize("obj, message", [
    ({"regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}]}, "needs 'dominoes'"),
    ({"dominoes": [[1, 2]], "links": {"a": ["b"], "b": ["a"]},
      "regions": [{"indices": [[0, 0]], "type": "sum", "target": 1}]},
     "unknown key 'regions' in a Pips puzzle in the graph form"),
    ({"dominoes": [[1, 2]], "links": {"a": ["b"], "b": []}}, "does not link back"),
    ({"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}],
      "constraints": []}, "belong to the graph form"),
    ({"dominoes": [[1, 2], [3, 4]],
      "regions": [{"indices": [[0, 0], [0, 1], [1, 0], [1, 1]], "type": "empty"}],
      "solution": [[[0, 0], [1, 1]], [[0, 1], [1, 0]]]}, "not neighbours"),
])
def test_more_bad_input(obj, message) -> None:
    with pytest.raises(PuzzleFormatError, match=message):
        P.parse(json.dumps(obj))


def test_empty_solution_means_none_and_null_means_withdrawn() -> None:
    obj = {"dominoes": [[1, 2]], "regions": [{"indices": [[0, 0], [0, 1]], "type": "empty"}],
           "solution": []}
    [(_, board)] = P.parse(json.dumps(obj))
    assert board.official is None
    parts = P.parse_parts(json.dumps({"easy": obj, "hard": {"dominoes": None, "regions": []}}))
    assert isinstance(parts[1][1], P.Skipped)


def test_count_within_a_time_limit(capsys, tmp_path) -> None:
    from satdomino.cli import main

    wide = {"dominoes": [[a, b] for a in range(4) for b in range(a, 4)][:8],
            "regions": [{"indices": [[r, c] for r in range(4) for c in range(4)],
                         "type": "empty"}]}
    f = tmp_path / "wide.json"
    f.write_text(json.dumps(wide))
    t0 = time.perf_counter()
    code = main(["solve", str(f), "--json", "--count", "--count-by", "grid", "--timeout", "1"])
    rec = json.loads(capsys.readouterr().out)
    assert time.perf_counter() - t0 < 6
    assert code == 3 and rec["count_complete"] is False and rec["count"] > 0


def test_z3_enumeration_is_incremental() -> None:
    enumerate_only = dataclasses.replace(FAM, exact_count=None)
    # boards with up to 12 solutions (none, one and several): those with 141-532 solutions took
    # most of the time (160 and 168 alone 13 of 19 s)
    few = [(b, t) for b, t in zip(BOARDS, TRUTH, strict=True) if len(t) <= 12]
    assert {min(len(t), 2) for _, t in few} == {0, 1, 2}
    for board, truth in few:
        for backend in ("z3", "z3-smt"):
            c = count(board, enumerate_only, backend=backend)
            assert (c.value, c.complete) == (len(truth), True)
            c = count(board, enumerate_only, backend=backend, timeout=30)  # in a child
            assert (c.value, c.complete) == (len(truth), True)
