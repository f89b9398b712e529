"""Doodle Fit / polyomino packing: brute-force exact cover, turning options, bad input."""

from __future__ import annotations

import dataclasses

import pytest

from satdomino import family, solve
from satdomino.analysis.count import count
from satdomino.backends.dlx import dlx_built
from satdomino.errors import PuzzleFormatError
from satdomino.puzzles import doodlefit as D

from .conftest import EXAMPLES, needs_sls

FAM = family("doodlefit")


def brute(p: D.DoodleFit) -> set[tuple]:
    """Exact cover by backtracking: the first uncovered cell must be covered by some block."""
    shape = sorted(p.shape)
    options = {i: p.placements(i) for i in range(len(p.blocks))}
    covered: set = set()
    chosen: dict[int, tuple] = {}
    found = set()

    def go() -> None:
        cell = next((u for u in shape if u not in covered), None)
        if cell is None:
            if len(chosen) == len(p.blocks):
                found.add(canonical(p, chosen))
            return
        for i, cells_list in options.items():
            if i in chosen:
                continue
            for cells in cells_list:
                if cell in cells and not covered & set(cells):
                    chosen[i] = cells
                    covered.update(cells)
                    go()
                    covered.difference_update(cells)
                    del chosen[i]

    go()
    return found


def canonical(p: D.DoodleFit, chosen: dict[int, tuple]) -> tuple:
    """One picture, one answer: swapping blocks with the same allowed orientations gives the
    same picture, so each such group's placements go to its blocks in sorted order."""
    out = dict(chosen)
    groups: dict[frozenset, list[int]] = {}
    for i in range(len(p.blocks)):
        groups.setdefault(frozenset(p.orientations(i)), []).append(i)
    for group in groups.values():
        out.update(zip(group, sorted(chosen[i] for i in group), strict=True))
    return tuple(out[i] for i in range(len(p.blocks)))


CASES = []
for seed in range(18):
    puzzle, _ = D.planted(8 + seed % 5, 2 + seed % 3, seed)
    CASES.append(dataclasses.replace(puzzle, rotate=seed % 3 > 0, reflect=seed % 3 == 2))
TRUTH = [brute(p) for p in CASES]


def test_sample_is_varied() -> None:
    assert {min(len(t), 2) for t in TRUTH} >= {1, 2}


@pytest.mark.parametrize("backend", ["cadical195", "z3-smt", "minisat22", "highs",
                                     pytest.param("dlx", marks=pytest.mark.skipif(
                                         not dlx_built(), reason="dlx is not built")),
                                     pytest.param("portfolio:minisat22+sls", marks=needs_sls),
                                     "auto"])
@pytest.mark.parametrize("model", list(FAM.models))
def test_against_brute_force(backend: str, model: str) -> None:
    enumerate_only = dataclasses.replace(FAM, exact_count=None)
    for p, truth in zip(CASES, TRUTH, strict=True):
        out = solve(p, FAM, backend=backend, unique=True, model=model)
        assert out.status == ("sat" if truth else "unsat") and out.stats["model"] == model
        if truth:
            assert D.verify(p, out.solution) == [] and out.solution.cells in truth
            assert out.unique == (len(truth) == 1)
        assert count(p, enumerate_only, backend=backend, model=model).value == len(truth)


def test_cells_model_names_each_cells_owner() -> None:
    """The owner of a cell is one block (alike blocks: one of their placements), defined by
    the block's placements on it, and a cover is the placement model's cover."""
    p = dataclasses.replace(CASES[4], blocks=(CASES[4].blocks[0], *CASES[4].blocks))
    cells, placement = FAM.model("cells")(p), FAM.model("placement")(p)
    assert cells.projection == placement.projection
    assert [cells.key(x) for x in cells.projection] == [placement.key(x)
                                                        for x in placement.projection]
    owners = [k for k, _ in cells.items() if k[0] == "owner"]
    assert owners and all(k[2] != 0 for k in owners)  # block 0 has an alike twin: no owner
    for sol in brute(p):
        true = {cells.var(("group", g[0], c)) for g in p.classes() for c in
                {sol[i] for i in g}}
        value = {x: x in true for x in cells.projection}
        for key, y in cells.items():
            if key[0] == "owner":
                value[y] = key[1] in sol[key[2]]
        assert cells.satisfied_by(value)
        y = next(y for key, y in cells.items() if key[0] == "owner")
        assert not cells.satisfied_by({**value, y: not value[y]})  # an owner is no free choice


def test_orientations() -> None:
    L = D.DoodleFit(frozenset(), (D.normalise([(0, 0), (1, 0), (2, 0), (2, 1)]),))
    assert len(L.orientations(0)) == 1
    assert len(dataclasses.replace(L, rotate=True).orientations(0)) == 4
    assert len(dataclasses.replace(L, rotate=True, reflect=True).orientations(0)) == 8
    assert len(dataclasses.replace(L, reflect=True).orientations(0)) == 2
    square = D.DoodleFit(frozenset(), (((0, 0), (0, 1), (1, 0), (1, 1)),), True, True)
    assert len(square.orientations(0)) == 1


def test_pentominoes_pack_as_drawn_and_not_when_one_is_turned() -> None:
    [(_, p)] = D.parse((EXAMPLES / "doodlefit" / "pentominoes-6x10.txt").read_text())
    assert len(p.blocks) == 12 and len(p.shape) == 60
    assert solve(p, FAM).status == "sat"  # the example is drawn as one packing has them
    i, bar = next((i, b) for i, b in enumerate(p.blocks) if len({r for r, _ in b}) == 1)
    upright = p.blocks[:i] + (D.normalise([(c, 0) for _, c in bar]),) + p.blocks[i + 1:]
    assert solve(dataclasses.replace(p, blocks=upright), FAM).status == "unsat"  # 5 x 1 bar
    out = solve(dataclasses.replace(p, rotate=True, reflect=True), FAM)
    assert out.status == "sat" and D.verify(dataclasses.replace(p, rotate=True, reflect=True),
                                            out.solution) == []


@pytest.mark.parametrize("text, message", [
    ("---\n*\n", "empty shape"),
    ("##\n", "no blocks"),
    ("##\n---\n\n", "block 0 is empty"),
    ("##\n---\n***\n", "more than the shape"),
    ("###\n---\n**\n", "the blocks have 2 cells in all, the shape 3"),
])
def test_bad_input(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError, match=message):
        D.parse(text)


def test_text_round_trip_and_drawing() -> None:
    p, sol = D.planted(15, 4, seed=3)
    assert D.parse(D.format_text(p)) == [(None, p)]
    drawing = D.render_text(p, sol)
    assert sorted(ch for ch in drawing if ch not in " \n") == sorted(
        D.label(i) for i, cells in enumerate(sol.cells) for _ in cells)


def test_exact_counter_matches_brute_force() -> None:
    for p, truth in zip(CASES, TRUTH, strict=True):
        assert D.count_placements(p) == len(truth)


def test_identical_blocks_swapped_are_the_same_solution() -> None:
    # two single-cell blocks in a two-cell shape: one picture, so unique (it was "NOT unique")
    [(_, p)] = D.parse("##\n---\n*\n---\n*\n")
    out = solve(p, FAM, unique=True)
    assert out.unique and D.verify(p, out.solution) == []
    assert D.count_placements(p) == 1
    assert count(p, dataclasses.replace(FAM, exact_count=None)).value == 1
    # a group is what the allowed turns make alike: an L and its mirror image only when
    # reflecting is allowed
    [(_, q)] = D.parse("##\n#\n  #\n ##\n---\n**\n*\n---\n *\n**\n")
    assert [len(g) for g in q.classes()] == [1, 1]
    assert [len(g) for g in dataclasses.replace(q, rotate=True).classes()] == [2]


def _box(h: int, w: int, blocks: list[str], rotate: bool = True, reflect: bool = True,
         holes: frozenset = frozenset()) -> D.DoodleFit:
    """An h x w box (less ``holes``) and blocks drawn as rows of '*' split by '/'."""
    shapes = tuple(D.normalise([(r, c) for r, row in enumerate(b.split("/"))
                                for c, ch in enumerate(row) if ch == "*"]) for b in blocks)
    shape = frozenset((r, c) for r in range(h) for c in range(w)) - holes
    return D.DoodleFit(shape, shapes, rotate, reflect)


SYMMETRIC = [
    _box(2, 4, ["**"] * 4),  # one group of four alike
    _box(3, 3, ["***"] * 3),
    _box(3, 4, ["**/*"] * 4),
    _box(4, 4, ["****", "**/**", "*/*/**", "*/*/**"]),
    _box(4, 4, ["*/*/**"] * 4),
    _box(4, 4, ["**/*"] * 4, holes=frozenset({(1, 1), (1, 2), (2, 1), (2, 2)})),
    _box(2, 6, ["**/*", "**/*", "***", "*", "**"]),
    _box(3, 5, ["*/*/*/**", "**/**/*", "***/*/*"]),
    _box(4, 5, ["*/*/*/**", "**/**/*", "*/**/*/*", ".*/**/*/*"]),  # no packing
    _box(3, 4, ["**/*", "**/*", "***", "***"], rotate=False, reflect=False),
    _box(3, 3, ["**/*", "**/*", "*", "*", "*"], reflect=False),
]


def test_counting_by_orbits_on_boards_that_turn_onto_themselves() -> None:
    """Boxes whose turns map the puzzle onto itself: the counter counts one placement per
    orbit and weighs it (``symmetries``); brute force counts every packing."""
    turned = 0
    for p in SYMMETRIC:
        moves = D.symmetries(p.shape, [p.placements(g[0]) for g in p.classes()])
        turned += len(moves) > 1
        assert D.count_placements(p) == len(brute(p)), p
    assert turned >= 6


def test_the_sweep_packs_blocks_that_span_64_cells_and_more(monkeypatch) -> None:
    """The C sweep tests a block spanning fewer than 64 cells of the sweep as one word of
    bits, and a longer one cell by cell: both against brute force and the Python sweep."""
    cases = [_box(1, 70, ["*" * 65, "**", "***"]),  # spans 64, 1 and 2 cells
             _box(2, 40, ["*" * 33, "*" * 33, "*" * 7, "****", "***"]),  # 64 in sweep order
             _box(2, 40, ["*" * 32, "*" * 32, "****/****", "**/**", "**/**"])]  # 62
    counted = [D.count_placements(p) for p in cases]
    assert counted == [len(brute(p)) for p in cases] and min(counted) > 1
    monkeypatch.setattr(D, "_xcount", None)
    assert [D.count_placements(p) for p in cases] == counted


@pytest.mark.parametrize("h, w, distinct", [(3, 20, 2), (4, 15, 368), (5, 12, 1010),
                                            (6, 10, 2339)])
def test_pentominoes_in_a_box_as_the_literature_counts(h: int, w: int, distinct: int) -> None:
    """The 12 pentominoes (turned and mirrored) fill these boxes in 2, 368, 1,010 and 2,339
    ways up to the box's four symmetries (Haselgrove 1960; Knuth, "Dancing Links", 2000): four
    times as many packings, none of them symmetric."""
    [(_, p)] = D.parse((EXAMPLES / "doodlefit" / "pentominoes-6x10.txt").read_text())
    box = _box(h, w, [], holes=frozenset())
    p = dataclasses.replace(p, shape=box.shape, rotate=True, reflect=True)
    assert D.count_placements(p) == 4 * distinct


def test_pentominoes_in_a_square_with_a_hole() -> None:
    """8x8 less its central 2x2: 65 packings up to the square's eight symmetries (Scott 1958)."""
    [(_, p)] = D.parse((EXAMPLES / "doodlefit" / "pentominoes-6x10.txt").read_text())
    hole = frozenset({(3, 3), (3, 4), (4, 3), (4, 4)})
    p = dataclasses.replace(p, shape=_box(8, 8, [], holes=hole).shape, rotate=True,
                            reflect=True)
    assert D.count_placements(p) == 8 * 65
