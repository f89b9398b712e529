"""``dlx``: the dancing-links kernel against brute force on random exact covers with
multiplicities, the backend against independent solvers on Dominosa and Doodle Fit (solve,
uniqueness, counting, assumptions), its refusals, and its stop."""

from __future__ import annotations

import itertools
import os
import random
import threading
import time
from array import array
from itertools import accumulate

import pytest

from satdomino import family, solve
from satdomino.analysis.count import count
from satdomino.backends import dlx, get_backend
from satdomino.backends.dlx import Cover, dlx_built
from satdomino.clock import Deadline
from satdomino.errors import BackendError, SatDominoError
from satdomino.model import Model
from satdomino.puzzles import dominosa, doodlefit, pips

from .bruteforce import solutions


def test_built_where_it_must_be() -> None:
    """CI sets SATDOMINO_REQUIRE_SLS (every C part must be built there): so must this one."""
    if os.environ.get("SATDOMINO_REQUIRE_SLS") and not dlx_built():
        pytest.fail("dlx is not built: install with pip install -e so it is built in place")


needs_dlx = pytest.mark.skipif(not dlx_built(), reason="dlx is not built (no C compiler)")


def _dance(caps: list[int], options: list[list[int]], max_count: int = 10**9,
           keep: int = 10**6, weights: list[int] | None = None):
    from satdomino.backends import _dlx

    arrays = (len(caps), array("i", caps), array("i", [0, *accumulate(len(o) for o in options)]),
              array("i", [i for o in options for i in o]), array("i", [0]), -1.0, max_count,
              keep)
    return _dlx.dance(*arrays) if weights is None else _dlx.dance(*arrays, array("i", weights))


def _every_cover(caps: list[int], options: list[list[int]]) -> list[list[int]]:
    """Every set of options that covers item i exactly caps[i] times, by trying them all."""
    found = []
    for k in range(len(options) + 1):
        for combo in itertools.combinations(range(len(options)), k):
            times = [0] * len(caps)
            for o in combo:
                for i in options[o]:
                    times[i] += 1
            if times == caps:
                found.append(list(combo))
    return found


@needs_dlx
def test_kernel_finds_every_cover_once() -> None:
    rng = random.Random(7)
    kinds = set()
    for _ in range(400):
        items = rng.randint(0, 6)
        caps = [rng.choice([0, 1, 1, 1, 2, 3]) for _ in range(items)]
        options = [sorted(rng.sample(range(items), rng.randint(1, items)))
                   for _ in range(rng.randint(0, 11))] if items else []
        truth = _every_cover(caps, options)
        n, found = _dance(caps, options)
        assert n == len(truth) and sorted(map(sorted, found)) == sorted(truth)
        weights = [rng.randint(1, 9) for _ in caps]  # another item to branch on: the same covers
        n, found = _dance(caps, options, weights=weights)
        assert n == len(truth) and sorted(map(sorted, found)) == sorted(truth)
        kinds.add((min(len(truth), 2), max(caps, default=0) > 1))
        if truth:  # stopped at the first: one of them
            n, [first] = _dance(caps, options, 1, 1)
            assert n == 1 and sorted(first) in truth
    assert kinds >= {(0, False), (1, False), (2, False), (0, True), (1, True), (2, True)}


@needs_dlx
@pytest.mark.parametrize("change, message", [
    (lambda c, s, i: (c, s[:-1], i), "inconsistent sizes"),
    (lambda c, s, i: ([-1] + c[1:], s, i), "negative"),
    (lambda c, s, i: (c, s, [5] + i[1:]), "in range, rising"),
    (lambda c, s, i: (c, s, i, [1]), "inconsistent sizes"),
    (lambda c, s, i: (c, s, i, [1, 0]), "a weight below 1"),
])
def test_kernel_refuses_bad_arrays(change, message) -> None:
    from satdomino.backends import _dlx

    caps, starts, items, *weights = change([1, 1], [0, 1, 2], [0, 1])
    with pytest.raises(ValueError, match=message):
        _dlx.dance(2, array("i", caps), array("i", starts), array("i", items),
                      array("i", [0]), -1.0, 10, 10, *(array("i", w) for w in weights))


@needs_dlx
def test_weights_are_what_every_option_settles() -> None:
    """A block's item weighs its cells (every option places them all); a cell that blocks of
    several sizes cover weighs 1; where every option is as large (Dominosa), all weigh the
    same, so the choice stays plain fewest options left."""
    p = doodlefit.DoodleFit(frozenset((0, c) for c in range(4)), (((0, 0), (0, 1), (0, 2)),
                                                                 ((0, 0),)))
    m = family("doodlefit").model("placement")(p)
    cover = Cover(m)
    by_row = dict(zip((m.label(i) for i in range(len(m.constraints))), cover.weights(),
                      strict=True))
    assert by_row["block 0"] == 3 and by_row["block 1"] == 1  # 1: a single cell
    assert by_row["cell (0, 0)"] == 1  # 0 or 1
    board = dominosa.planted(4, 1)[0]
    assert set(Cover(family("dominosa").model("placement")(board)).weights()) == {2}


@needs_dlx
def test_dominosa_against_backtracking() -> None:
    fam = family("dominosa")
    for seed in range(12):
        board = dominosa.planted(2 + seed % 4, seed)[0]
        truth = solutions(board.grid)
        out = solve(board, fam, backend="dlx", unique=True)
        assert out.status == "sat" and out.unique == (len(truth) == 1)
        assert count(board, fam, backend="dlx", methods=("enumeration",)).value == len(truth)


@needs_dlx
def test_doodlefit_with_alike_blocks_and_assumptions() -> None:
    fam = family("doodlefit")
    for seed in range(10):
        p = doodlefit.planted(12 + seed, 3 + seed % 3, seed)[0]
        if seed % 2:  # two blocks alike: a row needed twice
            p = doodlefit.DoodleFit(p.shape, (p.blocks[0], *p.blocks[:-1]), p.rotate)
        m = fam.model("placement")(p)
        cover = Cover(m)
        truth = [frozenset(cover.var[k] for k in sol) - {0}
                 for sol in _dance(cover.caps, cover.options)[1]]
        by_cdcl = count(p, fam, backend="minisat22", methods=("enumeration",)).value
        assert len(truth) == by_cdcl
        engine = get_backend("dlx")
        for x in (1, 2, m.num_vars):
            for lit in (x, -x):
                want = [t for t in truth if (x in t) == (lit > 0)]
                got = engine.solve(m, [lit])
                assert got.status == ("sat" if want else "unsat")
                if want:
                    assert got.true_vars in want


@needs_dlx
def test_cell_owners_are_read_through_their_placements() -> None:
    """On the cells model a row over a cell's owners is a row over the placements that
    define them: the same covers as the placement model, each owner true exactly when one
    of its placements is; an assumption may not name an owner, and a define that is not an
    exclusive OR of plain variables is refused."""
    fam = family("doodlefit")
    for seed in range(8):
        p = doodlefit.planted(12 + seed, 3 + seed % 3, seed)[0]
        if seed % 2:
            p = doodlefit.DoodleFit(p.shape, (p.blocks[0], *p.blocks[:-1]), p.rotate)
        cells, placement = fam.model("cells")(p), fam.model("placement")(p)
        by_cells, by_placement = Cover(cells), Cover(placement)
        assert not by_placement.defined
        assert bool(by_cells.defined) == any(len(g) == 1 for g in p.classes())
        covers = [by_cells.derived(sol) for sol in _dance(by_cells.caps, by_cells.options)[1]]
        plain = {frozenset(by_placement.var[k] for k in sol) - {0}
                 for sol in _dance(by_placement.caps, by_placement.options)[1]}
        assert {t & set(cells.projection) for t in covers} == plain
        for true in covers:
            assert cells.satisfied_by({x: x in true for x in range(1, cells.num_vars + 1)})
        for owner in list(by_cells.defined)[:1]:
            with pytest.raises(BackendError, match="defined variable"):
                Cover(cells, [owner])
    m = Model("or of an or")
    a, b, c, d = (m.var(k) for k in "abcd")
    m.exactly_one([a, b])
    m.define_or(c, [a], exclusive=True)
    m.define_or(d, [c], exclusive=True)
    m.exactly_one([d])
    with pytest.raises(BackendError, match="dlx takes exactly-one"):
        get_backend("dlx").solve(m)
    # y + c == 2 read as a + b + c == 2 would take a and b for it (its only model: b, c, y)
    m = Model("an OR counted twice")
    a, b, c, y = (m.var(k) for k in "abcy")
    m.define_or(y, [a, b], exclusive=True)
    m.card([y, c], "==", 2)
    m.exactly_one([a, c])
    with pytest.raises(BackendError, match="exactly-k rows over plain variables"):
        get_backend("dlx").solve(m)
    m = Model("a NOR")  # -y <-> x1 or x2: y is false, not an OR to read through
    x1, x2, y, z = (m.var(k) for k in ("x1", "x2", "y", "z"))
    m.exactly_one([x1, x2])
    m.exactly_one([y, z])
    m.define_or(-y, [x1, x2], exclusive=True)
    with pytest.raises(BackendError, match="dlx takes exactly-one"):
        get_backend("dlx").solve(m)


def _every_model(m: Model) -> set[frozenset[int]]:
    """The true variables of every assignment that satisfies ``m``, by trying them all."""
    n = m.num_vars
    return {frozenset(v for v in range(1, n + 1) if bits >> (v - 1) & 1)
            for bits in range(1 << n)
            if m.satisfied_by({v: bool(bits >> (v - 1) & 1) for v in range(1, n + 1)})}


def _random_rows(rng: random.Random, exclusive: bool) -> tuple[Model, list[list[int]]]:
    """A small model of rows over plain variables and ORs of them, the ORs ``exclusive`` or
    not, and the lits of each OR (drawn from ``rng``: give two models the same seed)."""
    m = Model("random")
    xs = [m.var(("x", i)) for i in range(rng.randint(3, 6))]
    ys = [m.var(("y", j)) for j in range(rng.randint(1, 2))]
    parts = [rng.sample(xs, rng.randint(1, 3)) for _ in ys]
    cut = rng.randint(1, len(xs) - 1)  # every plain variable in a row
    m.exactly_one(xs[:cut])
    m.at_most_one(xs[cut:])
    for _ in range(rng.randint(1, 3)):
        row = rng.sample(xs + ys, rng.randint(1, 3))
        kind = rng.choice(("one", "most", "k"))
        if kind == "one":
            m.exactly_one(row)
        elif kind == "most":
            m.at_most_one(row)
        else:
            m.card(row, "==", rng.randint(1, len(row)))
    for y, part in zip(ys, parts, strict=True):
        m.define_or(y, part, exclusive=exclusive)
    return m, parts


@needs_dlx
def test_random_rows_over_exclusive_ors_against_every_assignment() -> None:
    """An OR is claimed exclusive where every model allows at most one of its lits: what dlx
    enumerates (blocking each answer) is then every model, or it refuses in one line."""
    engine, read = get_backend("dlx"), 0
    for seed in range(500):
        plain, parts = _random_rows(random.Random(seed), exclusive=False)
        truth = _every_model(plain)
        if any(sum(x in t for x in part) > 1 for t in truth for part in parts):
            continue
        m, found = _random_rows(random.Random(seed), exclusive=True)[0], set()
        try:
            while (out := engine.solve(m)).status == "sat":
                assert out.true_vars in truth and out.true_vars not in found
                found.add(out.true_vars)
                m.add_clause([-v if v in out.true_vars else v for v in range(1, m.num_vars + 1)])
        except BackendError as e:
            assert "dlx takes" in str(e) or "in no row" in str(e)
            continue
        assert out.status == "unsat" and found == truth
        read += 1
    assert read > 120


@needs_dlx
def test_seeded_order_finds_the_same_packings() -> None:
    """``dlx:seed=K`` tries the options in another order: the same answers, every one
    checked, and the same count."""
    fam = family("doodlefit")
    for seed in range(6):
        p = doodlefit.planted(14 + 2 * seed, 4, seed)[0]
        want = count(p, fam, backend="dlx", methods=("enumeration",)).value
        for k in (1, 2):
            out = solve(p, fam, backend=f"dlx:seed={k}", unique=True)
            assert out.status == "sat" and out.unique == (want == 1)
            assert count(p, fam, backend=f"dlx:seed={k}", methods=("enumeration",)).value == want
    assert get_backend("dlx:seed=3").name == "dlx:seed=3"
    for bad in ("dlx:seed=x", "dlx:seed=-1", "dlx:order=3"):
        with pytest.raises(SatDominoError, match="dlx:seed=K"):
            get_backend(bad)


@needs_dlx
def test_models_it_cannot_take_get_one_line() -> None:
    with pytest.raises(BackendError, match="dlx takes exactly-one"):
        solve(pips.planted(4, 1)[0], family("pips"), backend="dlx")
    m = Model("free")
    m.var("x")
    with pytest.raises(SatDominoError, match="in no row"):
        get_backend("dlx").solve(m)


@needs_dlx
def test_a_cover_too_large_for_the_kernel_gets_one_line(monkeypatch) -> None:
    """Past 2^24 rows or options the kernel's numbers would not fit: said before the search
    (the limit lowered here, so that the test builds a small board)."""
    monkeypatch.setattr(dlx, "LIMIT", 10)
    with pytest.raises(BackendError, match="too large for it"):
        solve(dominosa.planted(3, 1)[0], family("dominosa"), backend="dlx")


@needs_dlx
def test_a_deadline_and_an_interrupt_stop_it() -> None:
    """A 300-cell board with no packing in reach (no order of dlx's found one within 10 s):
    the deadline ends the search (checked every 1,024 nodes), and so does a session's
    interrupt from another thread."""
    p = doodlefit.planted(300, 40, 1)[0]
    fam = family("doodlefit")
    t0 = time.perf_counter()
    out = solve(p, fam, backend="dlx", timeout=0.3)
    assert out.status == "unknown" and time.perf_counter() - t0 < 60
    session = get_backend("dlx").session(fam.model("placement")(p))
    threading.Timer(0.3, session.interrupt).start()
    result = session.solve(deadline=Deadline.after(120))
    assert result.status == "unknown"


@needs_dlx
def test_rows_no_cover_can_meet() -> None:
    engine = get_backend("dlx")
    m = Model("none")
    xs = [m.var(k) for k in "abc"]
    m.exactly_one(xs)
    m.card(xs[:2], "==", -1)
    assert engine.solve(m).status == "unsat"
    m = Model("empty clause")
    xs = [m.var(k) for k in "ab"]
    m.exactly_one(xs)
    assert engine.solve(m).status == "sat"
    m.add_clause([])
    assert engine.solve(m).status == "unsat"
    with pytest.raises(BackendError, match="no variable"):
        engine.solve(m, [7])
