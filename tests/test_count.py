"""Counting: each method alone and the race against brute force in every family, the exact
cover counter and the never-true pruning against enumeration of all assignments, approximate
counts within their bound, incomplete counts, the projection line of exported files."""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import time

import pytest

import satdomino
from satdomino import family, solve
from satdomino.analysis import count as count_module
from satdomino.analysis.approx import threshold
from satdomino.analysis.count import METHODS, count, never_true, terminal_progress
from satdomino.backends import base as base_module
from satdomino.clock import Deadline
from satdomino.encode import CNF, Encodings, lower
from satdomino.kernels import cover_count
from satdomino.kernels.cover_count import count_exact_covers, in_some_cover
from satdomino.process import progress
from satdomino.process.run import ForkedRun
from satdomino.puzzles import dominofit as F
from satdomino.puzzles import dominosa as D
from satdomino.puzzles import doodlefit as DF

from . import test_dominofit, test_dominosa_solve, test_doodlefit, test_pips
from .bruteforce import solutions
from .conftest import EXAMPLES

pytest.importorskip("pyganak")

# (family, boards, their true counts): the small boards each family's tests check by brute force
CASES = {
    "dominosa": (test_dominosa_solve.BOARDS[:16],
                 [len(solutions(b.grid)) for b in test_dominosa_solve.BOARDS[:16]]),
    "pips": (test_pips.BOARDS[:16], [len(t) for t in test_pips.TRUTH[:16]]),
    "dominofit": (test_dominofit.BOARDS, [len(t) for t in test_dominofit.TRUTH]),
    "doodlefit": (test_doodlefit.CASES, [len(t) for t in test_doodlefit.TRUTH]),
}
ALONE = [(kind, (method,)) for kind in CASES for method in METHODS
         if method != "dp" or family(kind).exact_count is not None]


def test_the_cases_have_none_one_and_many() -> None:
    for kind, (_, truth) in CASES.items():
        assert min(truth) <= 1 and max(truth) >= 2, kind
    assert {kind for kind, (m,) in ALONE if m == "dp"} == set(CASES)


@pytest.mark.parametrize("kind,methods", [*ALONE, *((k, METHODS) for k in CASES)],
                         ids=lambda x: x if isinstance(x, str) else "+".join(x))
def test_each_method_alone_and_the_race_agree_with_brute_force(kind: str, methods) -> None:
    fam = family(kind)
    boards, truth = CASES[kind]
    won = set()
    for board, n in zip(boards, truth, strict=True):
        if methods == ("dp",) and getattr(board, "cover", True) is False:
            continue  # Domino Fit's counter needs full cover: the other methods count these
        c = count(board, fam, methods=methods)
        assert (c.value, c.complete) == (n, True), (kind, methods, board)
        assert c.method in methods
        won.add(c.method)
    if len(methods) == 1:
        assert won == set(methods)  # the method asked for, never another


def test_the_race_settles_big_counts_by_an_exact_method() -> None:
    board, _ = D.planted(30, 1)  # 25,165,824 placements: enumeration could not
    c = count(board, family("dominosa"), timeout=120)
    assert (c.value, c.complete) == (25_165_824, True) and c.method in ("dp", "ganak")
    # the family's counter from the start; enumeration's head start unless the counter was
    # done while the model was built (a loaded machine builds slowly); then Ganak, unless the
    # counter was done by then
    assert c.raced[0] == "dp" and set(c.raced) <= {"dp", "enumeration", "ganak"}
    assert list(c.raced) == sorted(c.raced, key=["dp", "enumeration", "ganak"].index)
    alone = count(board, family("dominosa"), methods=("ganak",), timeout=120)
    assert (alone.value, alone.method) == (25_165_824, "ganak")


def _slower(fam, build_seconds: float = 0.0, count_seconds: float = 0.0):
    """The family with its default model built, and its counter counting, that much later."""
    name, build = next(iter(fam.models.items()))
    exact = fam.exact_count

    def slow_build(p):
        m = build(p)
        time.sleep(build_seconds)
        return m

    def slow_count(p):
        time.sleep(count_seconds)
        return exact(p)

    return dataclasses.replace(fam, models={**fam.models, name: slow_build},
                               exact_count=slow_count, quick_count=None)


def test_a_counter_that_answers_while_the_model_is_built_spares_its_encoding(
        monkeypatch) -> None:
    lowered = []
    monkeypatch.setattr(base_module, "lower", lambda *a: lowered.append(a) or lower(*a))
    fam = _slower(family("doodlefit"), build_seconds=0.5)
    board, n = test_doodlefit.CASES[-1], len(test_doodlefit.TRUTH[-1])
    c = count(board, fam)
    assert (c.value, c.method, c.raced, lowered) == (n, "dp", ("dp",), [])
    count(board, fam, methods=("enumeration",))
    assert lowered  # (the spy sees the lowering when there is one)


def test_a_count_the_family_gives_in_milliseconds_needs_no_race() -> None:
    built = []
    fam = family("doodlefit")
    name, build = next(iter(fam.models.items()))
    spied = dataclasses.replace(fam, models={name: lambda p: built.append(p) or build(p)})
    for board, truth in zip(test_doodlefit.CASES, test_doodlefit.TRUTH, strict=True):
        assert fam.quick_count(board) == len(truth)  # small: within its milliseconds
        c = count(board, spied)
        assert (c.value, c.method, c.raced) == (len(truth), "dp", ("dp",))
    assert built == []  # no model, no race
    [(_, drawn)] = DF.parse((EXAMPLES / "doodlefit" / "pentominoes-6x10.txt").read_text())
    pentominoes = dataclasses.replace(drawn, rotate=True, reflect=True)  # 9,356: 0.5 s
    assert fam.quick_count(pentominoes) is None
    assert count(pentominoes, spied).value == 9_356 and built


def _quick_counts(kind: str) -> int:
    """How many of the family's small cases its quick count answers; each answer is the
    brute-force count, and None comes only past its milliseconds (a loaded machine) or for a
    board it leaves to the race (Domino Fit without full cover: its proof takes longer)."""
    fam = family(kind)
    answered = 0
    for board, n in zip(*CASES[kind], strict=True):
        quick = fam.quick_count(board)
        assert quick in (None, n) and (quick is None or getattr(board, "cover", True))
        answered += quick == n
    return answered


def test_a_pips_board_of_a_few_dominoes_is_counted_before_any_race() -> None:
    fam = family("pips")
    assert _quick_counts("pips") >= 8  # of 16, each of at most 5 dominoes
    [ten] = [pz.data for pz in satdomino.read(EXAMPLES / "pips" / "planted-10.json")]
    assert len(ten.dominoes) == 10 and fam.quick_count(ten) is None  # to the race at once
    assert count(ten, fam).value == 463_960


def test_a_small_domino_fit_board_is_counted_before_any_race() -> None:
    fam = family("dominofit")
    assert _quick_counts("dominofit") >= 8  # of 16 with full cover, each of at most 20 squares
    big, _ = F.planted(11, 10, 1)
    assert fam.quick_count(big) is None and count(big, fam).value == F.count_placements(big)


def test_enumeration_gives_way_when_the_counter_answers(monkeypatch) -> None:
    monkeypatch.setattr(count_module, "HEAD_START", 60.0)  # an hour of it, but for the counter
    board, _ = D.planted(30, 1)  # 25,165,824 placements: enumeration could not
    c = count(board, _slower(family("dominosa"), count_seconds=0.3))
    assert (c.value, c.method, c.raced) == (25_165_824, "dp", ("dp", "enumeration"))
    assert c.seconds < 30  # (a wide margin: it gives way within milliseconds)


def test_a_time_limit_stops_the_encoding_for_enumeration(monkeypatch) -> None:
    def slow_lower(*args):
        for _ in range(1000):  # Python work, as lowering is: the deadline raises into it
            time.sleep(0.01)
        return lower(*args)

    monkeypatch.setattr(base_module, "lower", slow_lower)
    c = count(test_doodlefit.CASES[-1], family("doodlefit"), methods=("enumeration",),
              timeout=0.5)
    assert (c.complete, c.reason) == (False, "time limit, while building and encoding")
    assert c.seconds < 8  # (not the 10 s the lowering would take)


def _brute_covers(num_items: int, options: list[tuple[int, ...]]) -> int:
    return sum(1 for k in range(len(options) + 1) for pick in itertools.combinations(options, k)
               if sorted(i for o in pick for i in o) == list(range(num_items)))


def test_exact_cover_counter_against_every_subset() -> None:
    rng = random.Random(29)
    seen = set()
    for _ in range(300):
        items = rng.randint(0, 7)
        options = [tuple(sorted(rng.sample(range(items), rng.randint(1, min(3, items)))))
                   for _ in range(rng.randint(0, 11))] if items else []
        truth = _brute_covers(items, options)
        assert count_exact_covers(items, options) == truth, (items, options)
        kept = in_some_cover(items, options)
        assert _brute_covers(items, kept) == truth
        in_covers = {o for k in range(len(options) + 1)
                     for pick in itertools.combinations(options, k)
                     if sorted(i for o in pick for i in o) == list(range(items)) for o in pick}
        assert set(kept) == in_covers  # exactly the options of some cover
        seen.add(min(truth, 2))
    assert seen == {0, 1, 2}


def test_dominosa_counter_on_planted_boards_matches_ganak() -> None:
    fam = family("dominosa")
    for n, seed in [(8, 1), (12, 2), (20, 3)]:
        board, _ = D.planted(n, seed)
        assert D.count_placements(board) == count(board, fam, methods=("ganak",)).value


def test_never_true_finds_exactly_the_variables_false_in_every_model() -> None:
    rng = random.Random(7)
    for _ in range(150):
        nv = rng.randint(1, 7)
        clauses = [[rng.choice([-1, 1]) * rng.randint(1, nv) for _ in range(rng.randint(1, 3))]
                   for _ in range(rng.randint(1, 12))]
        models = [bits for bits in itertools.product([False, True], repeat=nv)
                  if all(any(bits[abs(x) - 1] == (x > 0) for x in c) for c in clauses)]
        projection = list(range(1, nv + 1))
        found = never_true(CNF(nv, nv, clauses), projection)
        if not models:
            assert found is None
        else:
            assert found == [x for x in projection if not any(m[x - 1] for m in models)]


def _covers(num_items: int, options: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    return [pick for k in range(len(options) + 1) for pick in itertools.combinations(options, k)
            if sorted(i for o in pick for i in o) == list(range(num_items))]


def test_linear_programming_proves_only_options_that_lie_in_no_cover() -> None:
    rng = random.Random(41)
    proved = dead = coverless = proved_coverless = 0
    for _ in range(300):
        items = rng.randint(1, 7)
        options = [tuple(sorted(rng.sample(range(items), rng.randint(1, min(3, items)))))
                   for _ in range(rng.randint(1, 11))]
        covers = _covers(items, options)
        used = {o for pick in covers for o in pick}
        never = {k for k, o in enumerate(options) if o not in used}
        found = cover_count._lp_never_used(items, options)  # here, not in a child
        assert found <= never, (items, options)  # sound: never an option of some cover
        if covers:
            proved, dead = proved + len(found), dead + len(never)
        else:  # no cover: every option, once the relaxation is proved empty
            coverless += 1
            proved_coverless += found == set(range(len(options)))
    assert 3 * proved > 2 * dead  # where there are covers, it finds most
    assert coverless > 50 and 10 * proved_coverless > 9 * coverless


def test_a_board_with_no_solution_has_every_placement_ruled_out() -> None:
    board, _ = D.planted(50, 1)  # 5,151 placements; swapping two numbers leaves none
    grid = [list(row) for row in board.grid]
    grid[0][0], grid[0][1] = grid[0][1], grid[0][0]
    grid[5][7], grid[9][3] = grid[9][3], grid[5][7]
    broken = D.Dominosa(tuple(map(tuple, grid)))
    num_items, options = D.cover_items(broken)
    assert cover_count.lp_never_used(num_items, options) == set(range(len(options)))
    for model in ("placement", "pruned"):  # MiniSat refutes it unaided too
        assert solve(broken, family("dominosa"), model=model, backend="minisat22",
                     timeout=120).status == "unsat"


def test_linear_programming_that_fails_proves_nothing(monkeypatch) -> None:
    board, _ = D.planted(50, 1)
    monkeypatch.setattr(cover_count, "_proved", {})  # no answer kept from another test
    monkeypatch.setattr(cover_count, "_lp_never_used", lambda *_: os._exit(9))  # in the child
    assert cover_count.lp_never_used(*D.cover_items(board)) == set()
    assert solve(board, family("dominosa"), model="pruned", backend="minisat22").status == "sat"
    with pytest.raises(ValueError, match="below 2"):  # an item out of range
        count_exact_covers(2, [(0,), (1,), (-1,)])


def test_a_finished_proof_is_kept_and_one_cut_short_is_not(monkeypatch) -> None:
    num_items, options = D.cover_items(D.planted(50, 2)[0])
    monkeypatch.setattr(cover_count, "_proved", {})
    assert cover_count.lp_never_used(num_items, options, Deadline.after(0.05)) == set()
    found = cover_count.lp_never_used(num_items, options)  # not the cut answer
    assert len(found) > len(options) // 2

    def no_second_run(*_):
        raise AssertionError("linear programming ran again")

    monkeypatch.setattr(cover_count, "run_in_child", no_second_run)
    assert cover_count.lp_never_used(num_items, list(options)) == found


def test_the_bound_check_refuses_duals_that_do_not_prove_it() -> None:
    options = [(0,), (1,), (0, 1)]  # covers: {0}+{1} and {0,1}; every option lies in one
    for duals in ([0.5, 0.5], [0.0, 0.0], [1.0, -0.5], [0.4999999, 0.5], [float("nan"), 0.0],
                  [1e302, 0.0]):
        for weighted in ({0}, {2}, {0, 1, 2}):
            assert not cover_count._below_one(options, weighted, duals), (duals, weighted)
    options = [(0, 2), (1,), (0, 1)]  # item 2 needs option 0, which leaves option 2 out
    assert _covers(3, options) == [((0, 2), (1,))]
    # x2 = (x0 + x2) - (x0) = item 0's sum - item 2's sum = 1 - 1 = 0 at every point
    assert cover_count._below_one(options, {2}, [1.0, 0.0, -1.0])
    assert not cover_count._below_one(options, {1, 2}, [1.0, 0.0, -1.0])


def test_linear_programming_finds_every_dead_placement_of_a_planted_dominosa_board() -> None:
    board, _ = D.planted(60, 3)
    found = cover_count.lp_never_used(*D.cover_items(board))
    m = D.build_placement(board)  # one variable per placement, in the order of edges()
    assert [m.key(x)[2] for x in m.projection] == board.edges()
    never = never_true(lower(m, Encodings(amo="pairwise")), m.projection, "minisat22")
    assert never is not None and found == {x - 1 for x in never} and len(found) > 5000


_MOST = max(range(len(test_pips.BOARDS)), key=lambda i: len(test_pips.TRUTH[i]))
APPROX = [("dominosa", D.planted(12, 1)[0], 240), ("dominosa", D.planted(16, 1)[0], 3072),
          ("pips", test_pips.BOARDS[0], len(test_pips.TRUTH[0])),
          ("pips", test_pips.BOARDS[_MOST], len(test_pips.TRUTH[_MOST])),
          ("dominofit", test_dominofit.BOARDS[0], len(test_dominofit.TRUTH[0]))]


def test_approximate_count_cases_need_hashes() -> None:
    assert max(truth for _, _, truth in APPROX) > threshold(0.3)  # not all counted outright


@pytest.mark.slow  # the slow tier: python -m pytest -m slow
@pytest.mark.parametrize("epsilon", [0.8, 0.3])
def test_approximate_counts_are_within_their_bound(epsilon: float) -> None:
    for kind, board, truth in APPROX:
        # ApproxMC alone: an exact method, or the family's estimate, would win the race
        apart = dataclasses.replace(family(kind), estimate_count=None)
        c = count(board, apart, approx=True, epsilon=epsilon, delta=0.2, timeout=120,
                  methods=())
        assert c.complete and (c.method, c.epsilon, c.delta) == ("approx", epsilon, 0.2)
        assert truth / (1 + epsilon) <= c.value <= truth * (1 + epsilon), (kind, c.value, truth)


def test_approx_races_the_exact_methods() -> None:
    """An exact answer that comes first wins, and says so; the estimate alone keeps its
    guarantee."""
    board = D.planted(12, 1)[0]
    c = count(board, family("dominosa"), approx=True, timeout=120)
    assert (c.value, c.complete, c.epsilon) == (240, True, None) and c.method != "approx"
    assert c.raced[0] == "dp"
    # without the family's counter, which may be done before the others start: the
    # estimate races Ganak (which is several times faster here)
    c = count(board, family("dominosa"), approx=True, timeout=120, methods=("ganak",))
    assert set(c.raced) == {"ganak", "approx"} and c.method in c.raced
    assert c.value == 240 if c.method == "ganak" else c.epsilon == 0.8
    alone = count(board, family("dominosa"), approx=True, epsilon=0.8, timeout=120, methods=())
    assert (alone.method, alone.epsilon, alone.delta) == ("approx", 0.8, 0.2)
    assert 240 / 1.8 <= alone.value <= 240 * 1.8


def test_counts_cut_short_say_so() -> None:
    fam = family("dominofit")
    hard, _ = F.planted(30, 30, 1)  # no method counts it in seconds
    c = count(hard, fam, timeout=2)
    assert not c.complete and c.reason == "time limit"
    c = count(hard, fam, timeout=1, methods=("ganak",))
    assert (c.complete, c.method, c.reason, c.value) == (False, "ganak", "time limit", 0)
    assert c.raced == ("ganak",)
    # what the solve found bounds it from below: a solution, and a second one not unique
    out = solve(hard, fam, unique=True, timeout=60)
    assert (out.status, out.unique) == ("sat", False)
    c = count(hard, fam, timeout=1, methods=("ganak",), known=out)
    assert (c.complete, c.value) == (False, 2)
    c = count(hard, fam, timeout=1, methods=("ganak",), known=solve(hard, fam, timeout=60))
    assert (c.complete, c.value) == (False, 1)
    c = count(D.planted(12, 1)[0], family("dominosa"), limit=5, methods=("enumeration",))
    assert (c.value, c.complete, c.reason) == (5, False, "--limit reached")


def _satdomino(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satdomino.cli", *args], capture_output=True,
                          text=True, timeout=timeout)


@pytest.mark.slow  # the slow tier: python -m pytest -m slow
def test_cli_count_forms(tmp_path) -> None:
    board = tmp_path / "n12.txt"
    board.write_text(D.planted(12, 1)[0].game_id() + "\n")
    for form in (["--count", str(board)], ["--count=exact", str(board)],
                 [str(board), "--count"], ["--count", "exact", str(board)]):
        p = _satdomino("solve", "--json", *form)
        row = json.loads(p.stdout)
        assert p.returncode == 0 and (row["count"], row["count_complete"]) == (240, True), form
    p = _satdomino("solve", "--json", "--count", "approx", "--epsilon", "0.5", str(board))
    row = json.loads(p.stdout)  # raced: an exact method answers first, and says so
    assert (row["count"], row["count_complete"], row.get("epsilon")) == (240, True, None)
    assert row["count_method"] in ("enumeration", "dp", "ganak")
    hard = tmp_path / "fit.json"
    hard.write_text(json.dumps(F.to_json(F.planted(30, 30, 1)[0])))
    for how in ("exact", "approx"):  # an estimate cut short has no guarantee to print
        p = _satdomino("solve", "--count", how, "--timeout", "3", str(hard))
        assert p.returncode == 3 and "incomplete" in p.stdout, p.stdout + p.stderr
        assert "Traceback" not in p.stderr, p.stderr


def test_progress_is_shown_on_a_terminal_only(monkeypatch, capsys) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert terminal_progress("x") is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    show = terminal_progress("board")
    show(1234, 2.4, ("enumeration", "dp"))
    assert "board: counting by enumeration, dp, at least 1,234 so far, 2 s" in \
        capsys.readouterr().err
    show(1234, 7.6, ("dp", "ganak"))  # no enumeration running: no bound to show
    assert capsys.readouterr().err.endswith("board: counting by dp, ganak, 8 s\x1b[K")
    show(0, 3.0, ("dp (14 of 20 rows)", "ganak"))
    assert "counting by dp (14 of 20 rows), ganak, 3 s" in capsys.readouterr().err


def test_the_sweep_tells_a_parent_how_far_it_has_come() -> None:
    """The Domino Fit counter, forked while the race's control is told, writes the lines it
    has swept where the parent reads them, and whether they are rows or columns (a board
    wider than tall is swept by its columns); in process it writes to its own."""

    board = F.planted(8, 7, 2)[0]
    rows = progress.shared()
    assert progress.swept(rows) == ""  # nothing said yet
    with progress.telling(rows):
        run = ForkedRun(F.count_placements, (board,))
    try:
        value = run.result()
    finally:
        run.close()
    assert value == count(board, family("dominofit"), methods=("ganak",)).value > 0
    assert progress.swept(rows) == "8 of 8 columns"
    with progress.telling(rows):  # the same control, told rows now
        assert F.count_placements(board, lines="rows") == value  # here, the child's told
    assert progress.swept(rows) == "7 of 7 rows"
    assert progress.swept(progress.control()) == ""  # outside: a control of its own


def test_a_sweep_without_layers_says_so_and_its_child_gives_way(monkeypatch) -> None:
    """The sweep sets the control's [3] when it goes without its layers (none allowed), not
    when it has them; a forked child told to give way runs at nice 19 (the approx race does
    that to the exact counter once it goes without layers)."""

    board = F.planted(8, 7, 2)[0]
    with_layers = progress.shared()
    with progress.telling(with_layers):
        value = F.count_placements(board)
    assert not progress.without_layers(with_layers)
    monkeypatch.setattr(F, "MAX_LAYER_BYTES", 0)
    bare = progress.shared()
    with progress.telling(bare):
        assert F.count_placements(board) == value
    assert progress.without_layers(bare)
    assert not progress.without_layers(progress.control())  # its own, outside

    if os.getpriority(os.PRIO_PROCESS, 0) == 19:
        pytest.skip("this process already runs at nice 19")
    run = ForkedRun(time.sleep, (30,))
    try:
        pid = run._pid
        assert os.getpriority(os.PRIO_PROCESS, pid) < 19
        run.give_way()
        assert os.getpriority(os.PRIO_PROCESS, pid) == 19
    finally:
        run.close()


def test_exported_dimacs_states_its_projection_and_counts_by_it(tmp_path) -> None:
    import pyganak

    from satdomino.export.dimacs import read_dimacs

    board = tmp_path / "n12.txt"
    board.write_text(D.planted(12, 1)[0].game_id() + "\n")
    out = tmp_path / "n12.cnf"
    p = _satdomino("export", str(board), "-o", str(out))
    assert p.returncode == 0, p.stderr
    lines = out.read_text().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("p cnf"))
    show = lines[header + 1].split()
    assert show[:3] == ["c", "p", "show"] and show[-1] == "0"
    projection = [int(x) for x in show[3:-1]]
    assert projection == D.build_placement(D.planted(12, 1)[0]).projection
    nv, clauses = read_dimacs(out)
    counter = pyganak.Counter()
    counter.new_vars(nv)
    counter.add_clauses(clauses)
    counter.set_sampling_set(projection)
    assert int(counter.count()) == 240


@pytest.mark.parametrize("options,message", [
    (["--epsilon", "0.5"], "--epsilon and --delta need --count approx"),
    (["--count", "--delta", "0.1"], "--epsilon and --delta need --count approx"),
    (["--count", "approx", "--limit", "3"], "--count approx does not enumerate"),
    (["--count", "approx", "--epsilon", "0"], "--epsilon must be a number from 0.01"),
    (["--count", "approx", "--delta", "1"], "--delta must be a number at least 1e-09 and below 1"),
])
def test_count_options_that_do_not_fit_are_refused(options, message) -> None:
    p = _satdomino("solve", *options, str(EXAMPLES / "dominosa" / "double6.txt"))
    assert p.returncode == 2 and message in p.stderr and p.stderr.count("\n") == 1, p.stderr


def test_approx_counts_free_projection_variables() -> None:
    from satdomino.analysis.approx import approx_count

    # variables no clause names are free: each doubles the count (found by a review)
    assert approx_count([[1]], [1, 2], 2) == 2
    assert approx_count([], [1, 2, 3], 3) == 8


def test_a_method_that_cannot_run_is_refused_not_replaced() -> None:
    from satdomino.errors import SatDominoError

    board = test_dominosa_solve.BOARDS[0]
    with pytest.raises(SatDominoError, match="not available"):
        count(board, family("dominosa"), by="tiling", methods=("dp",))  # placements only


def test_domino_fit_counter_against_ganak_on_planted_boards() -> None:
    import random

    rng = random.Random(29)
    seen = set()
    for _ in range(12):
        board, _ = F.planted(rng.randint(6, 11), rng.randint(6, 11), rng.randrange(10**6),
                             blacks=rng.choice([0.0, 0.1]))
        value = F.count_placements(board)
        assert value == count(board, family("dominofit"), methods=("ganak",)).value
        seen.add(min(value, 3))
    assert seen >= {1, 3}  # unique boards and boards with many solutions


def _fit_counts(board: F.DominoFit, budgets: tuple[int, ...], threads: tuple[int, ...],
                lines: tuple[F.Lines, ...] = ("rows", "columns")) -> list[int]:
    """The Domino Fit counter's answer with each layer budget, on each number of threads,
    swept by rows and by columns."""
    values = []
    for budget in budgets:
        saved, F.MAX_LAYER_BYTES = F.MAX_LAYER_BYTES, budget
        try:
            values += [F.count_placements(board, n, way) for n in threads for way in lines]
        finally:
            F.MAX_LAYER_BYTES = saved
    return values


def test_domino_fit_counter_with_and_without_its_layers() -> None:
    """The sweeps pruned by the layers' ranges of counts, by the bounds alone (no layers, or
    budgets they outgrow at each stage: sweeping the masks, listing their moves, their ranges
    with or without the lines', the moves listed both ways or only down), on one thread or
    three, by rows and by columns, and Ganak agree, on boards with many solutions, one, and
    none (a column clue moved to another column keeps the totals)."""
    import dataclasses
    import random

    rng = random.Random(41)
    seen = set()
    for k in range(16):
        board, _ = F.planted(rng.randint(4, 10), rng.randint(4, 10), rng.randrange(10**6),
                             blacks=rng.choice([0.0, 0.05, 0.1]))
        if k % 3 == 2:
            a, b = rng.sample(range(board.width), 2)
            top = list(board.top)
            top[a], top[b] = top[a] + 1, top[b] - 1
            board = dataclasses.replace(board, top=tuple(top))
        # 4-64 kB: on these boards, each way the layers can be built or given up (at 1 kB
        # steps: the moves listed only down, with the lines' ranges, come up once), as
        # seen swept by rows; by columns the same budgets, checked for agreement
        budgets = (F.MAX_LAYER_BYTES, 0, *range(4_000, 64_001, 1_000))
        values = _fit_counts(board, budgets, (1, 3))
        ganak = count(board, family("dominofit"), methods=("ganak",)).value
        assert values == [ganak] * len(values), (k, values, ganak)
        seen.add(min(ganak, 2))
    assert seen == {0, 1, 2}


def _tilings(width: int, height: int, free: set[tuple[int, int]]) -> list[set[tuple[int, int]]]:
    """Every domino tiling of the free squares, each as the set of its vertical pieces' tops."""
    out: list[set[tuple[int, int]]] = []

    def go(left: set[tuple[int, int]], tops: set[tuple[int, int]]) -> None:
        if not left:
            out.append(set(tops))
            return
        r, c = min(left)  # the first square left in reading order: its piece goes right or down
        for other, top in (((r, c + 1), None), ((r + 1, c), (r, c))):
            if other in left:
                go(left - {(r, c), other}, (tops | {top}) if top else tops)

    go(set(free), set())
    return out


def test_domino_fit_sweep_counts_what_every_tiling_gives() -> None:
    """Small boards with black squares: every tiling enumerated, grouped by its vertical
    pieces' tops per row and count per column; the sweep's count for each such pair of
    clues (and for clues with a piece moved to another row or column, often none) is the
    group's size, with the layers and by the bounds alone. A state is dropped when its side
    cannot leave the other the horizontal pieces each line between columns needs: this is
    what shows that it never drops one that a tiling completes."""
    import collections
    from array import array

    from satdomino.puzzles import _fitcount

    rng = random.Random(13)
    checked = zeros = 0
    for _ in range(150):
        width, height = rng.randint(2, 6), rng.randint(2, 6)
        free = {(r, c) for r in range(height) for c in range(width) if rng.random() > 0.1}
        groups = collections.Counter(
            (tuple(sum(1 for t in tops if t[0] == r) for r in range(height)),
             tuple(sum(1 for t in tops if t[1] == c) for c in range(width)))
            for tops in _tilings(width, height, free))
        masks = array("q", [sum(1 << c for c in range(width) if (r, c) in free)
                            for r in range(height)])
        clues = list(groups)[:6]
        for rows, cols in list(clues):  # one piece moved: the totals kept
            i, j = rng.sample(range(width), 2)
            moved = list(cols)
            moved[i], moved[j] = moved[i] + 1, max(moved[j] - 1, 0)
            clues.append((rows, tuple(moved)))
        for rows, cols in clues:
            for layer_bytes in (F.MAX_LAYER_BYTES, 0):
                got = _fitcount.count(width, height, masks, array("i", rows),
                                      array("i", cols), 10**6, layer_bytes, array("i", [0]))
                assert got == groups.get((rows, cols), 0), (width, height, free, rows, cols)
            checked += 1
            zeros += (rows, cols) not in groups
    assert checked >= 400 and zeros >= 150


def _row_moves(open_: int, allowed: int, k: int, width: int) -> list[int]:
    """The moves of a row square by square, in Python: each square of ``open_`` is in x (when
    allowed, and the run before it is even), or the next square of a horizontal piece."""
    out: list[int] = []

    def go(c: int, x: int, left: int, run: int) -> None:
        if c == width:
            if left == 0 and run % 2 == 0:
                out.append(x)
            return
        if not (open_ >> c) & 1:  # a run ends
            if run % 2 == 0:
                go(c + 1, x, left, 0)
            return
        if left and (allowed >> c) & 1 and run % 2 == 0:
            go(c + 1, x | 1 << c, left - 1, 0)
        go(c + 1, x, left, run + 1)

    go(0, 0, k, 0)
    return out


def test_domino_fit_row_moves_are_every_split_of_the_row() -> None:
    """The C counter finds a row's moves run by run (each run's ways listed, grouped by their
    number of members), or member by member of x with bit arithmetic on runs (odd runs, their
    ends, squares at an even distance from a run's start); both here against a plain
    square-by-square search, on rows up to 64 squares wide (bit 63 included)."""
    from satdomino.puzzles import _fitcount

    rng = random.Random(29)
    found = empty = 0
    for case in range(400):
        width = rng.choice([1, 2, 5, 9, 17, 31, 40, 62, 63, 64, 64])
        open_, c = 0, rng.randint(0, 2)
        while c < width:  # runs of 1-12 squares, 1-3 apart: they start anywhere
            length = min(rng.randint(1, 12), width - c)
            open_ |= ((1 << length) - 1) << c
            c += length + rng.randint(1, 3)
        allowed = sum(1 << c for c in range(width) if rng.random() < rng.choice([0.3, 0.8, 1.0]))
        k = rng.randint(0, min(6, width))
        want = _row_moves(open_, allowed, k, width)
        for by_runs in (True, False):
            got = _fitcount.row_moves(open_, allowed, k, by_runs)
            assert sorted(got) == sorted(want) and len(set(got)) == len(got), (case, open_, k)
        found += len(want)
        empty += not want
    assert found > 2_000 and empty > 40
    # a run of 30 squares has 21,065 ways of at most 6 members: past the lists' room, so
    # the row goes member by member
    full = (1 << 30) - 1
    assert sorted(_fitcount.row_moves(full, full, 6)) == sorted(_row_moves(full, full, 6, 30))
    # square 63 taken with members left; 64 and 63 of 64 squares (past the runs' lists: one
    # way, and none, as the one square left is an odd run); no square
    row = (1 << 64) - 1
    for open_, k, moves in ((1 | 2 | 1 << 63, 3, [1 | 2 | 1 << 63]), (row, 64, [row]),
                            (row, 63, []), (0, 0, [0]), (0, 1, [])):
        for by_runs in (True, False):
            assert _fitcount.row_moves(open_, open_, k, by_runs) == moves
    with pytest.raises(ValueError):
        _fitcount.row_moves(1, 1, -1)


def test_domino_fit_counter_on_boards_of_one_to_three_rows() -> None:
    """The sweeps meet across one row (a board of one row) or two (every taller board, here
    right away); with and without layers, on one thread and two, against Ganak. Swept by
    columns too (the way these wide boards go by default), across their many columns."""
    import random

    rng = random.Random(7)
    for k in range(12):
        height = 1 + k % 3
        board, _ = F.planted(rng.randint(2, 9), height, rng.randrange(10**6),
                             blacks=rng.choice([0.0, 0.1]))
        values = _fit_counts(board, (F.MAX_LAYER_BYTES, 0), (1, 2))
        ganak = count(board, family("dominofit"), methods=("ganak",)).value
        assert values == [ganak] * 8, (k, values, ganak)


def test_domino_fit_counter_on_a_row_of_tops_across_a_wide_board() -> None:
    """Every square of the first row is a top: one solution. Finding a row's moves stops a
    branch that has fewer squares left than tops to place (without it, every subset of 60
    columns was tried, hours of it); the arrays' byte counts are checked."""
    from array import array

    from satdomino.puzzles import _fitcount

    board = F.DominoFit(60, 2, frozenset(), *F._sums(60, 2, [("V", (0, c)) for c in range(60)]))
    assert F.count_placements(board, lines="rows") == F.count_placements(board) == 1
    free = array("q", [(1 << 60) - 1] * 2)
    with pytest.raises(ValueError, match="0-254"):
        _fitcount.count(60, 2, free, array("i", [60, 0]), array("i", [255] + [1] * 59), 10,
                        0, array("i", [0]))


def test_domino_fit_counter_where_a_column_needs_64_pieces() -> None:
    """A column of 64 or more vertical pieces is past the layers' sets: the bounds count it."""
    import random

    rng = random.Random(5)
    pieces = [("V", (r, 0)) for r in range(0, 140, 2)]
    for r in range(140):
        if rng.random() < 0.5:
            pieces.append(("H", (r, 1)))
    covered = {cell for kind, at in pieces for cell in F.cells_of(kind, at)}
    for r in range(139):
        if (r, 1) not in covered and (r + 1, 1) not in covered:
            pieces.append(("V", (r, 1)))
            covered.update({(r, 1), (r + 1, 1)})
    blacks = frozenset((r, c) for r in range(140) for c in range(3) if (r, c) not in covered)
    board = F.DominoFit(3, 140, blacks, *F._sums(3, 140, pieces))
    assert max(F.fixed_counts(board).v_col) >= 64
    assert F.count_placements(board) == count(board, family("dominofit"),
                                              methods=("ganak",)).value >= 1


def test_domino_fit_counter_where_a_row_needs_64_pieces() -> None:
    """Read across its diagonal, the board of the test above: 140 squares wide and 3 tall,
    swept by its columns, with 70 horizontal pieces in its first row (a count per row past
    the layers' sets), with the layers and without them."""
    rng = random.Random(5)
    pieces = [("H", (0, c)) for c in range(0, 140, 2)]
    for c in range(140):
        if rng.random() < 0.5:
            pieces.append(("V", (1, c)))
    covered = {cell for kind, at in pieces for cell in F.cells_of(kind, at)}
    for c in range(139):
        if (1, c) not in covered and (1, c + 1) not in covered:
            pieces.append(("H", (1, c)))
            covered.update({(1, c), (1, c + 1)})
    blacks = frozenset((r, c) for r in range(3) for c in range(140) if (r, c) not in covered)
    board = F.DominoFit(140, 3, blacks, *F._sums(140, 3, pieces))
    assert max(F.fixed_counts(board).h_row) >= 64
    values = _fit_counts(board, (F.MAX_LAYER_BYTES, 0), (1,), ("columns",))
    assert values == [count(board, family("dominofit"), methods=("ganak",)).value] * 2
    assert values[0] >= 1


def test_domino_fit_counter_on_a_board_64_squares_wide() -> None:
    """Swept by rows, bit 63 of the masks is set; by columns (the default) 64 lines."""
    board, _ = F.planted(64, 3, 3, blacks=0.3)
    assert board.free((0, 63)) or board.free((1, 63)) or board.free((2, 63))  # bit 63 set
    assert F.count_placements(board, lines="rows") == F.count_placements(board) == count(
        board, family("dominofit"), methods=("ganak",)).value


def test_domino_fit_counter_sweeps_the_shorter_side() -> None:
    """A board wider than tall goes by its columns: boards wider than the masks' 64 squares
    are counted, as Ganak counts them, and boards over 64 squares on both sides are refused
    in one line."""
    from satdomino.errors import SatDominoError

    rng = random.Random(3)
    for width in (65, 70, 90):
        board, _ = F.planted(width, rng.randint(2, 4), rng.randrange(10**6), blacks=0.15)
        value = F.count_placements(board)
        assert value == count(board, family("dominofit"), methods=("ganak",)).value >= 1
        raced = count(board, family("dominofit"))  # dp, or enumeration on a loaded machine
        assert (raced.value, raced.complete) == (value, True)
        with pytest.raises(SatDominoError, match=f"lines of at most 64 squares; this "
                           f"board's rows have {width}"):
            F.count_placements(board, lines="rows")
    big = F.DominoFit(65, 65, frozenset(), (0,) * 65, (0,) * 65)
    with pytest.raises(SatDominoError, match="64 squares on a side"):
        F.count_placements(big)
    with pytest.raises(ValueError, match="'rows' or 'columns'"):
        F.count_placements(board, lines="diagonals")  # type: ignore[arg-type]


def test_domino_fit_counter_stops_when_told_while_one_state_has_millions_of_moves() -> None:
    """An empty 40x12 board: the first row alone has millions of masks. ``control`` set from
    another thread stops the layers and the sweeps alike (the bound is wide: no timing)."""
    import threading
    import time
    from array import array

    from satdomino.puzzles import _fitcount

    board, _ = F.planted(40, 12, 1, blacks=0.0)
    fixed = F.fixed_counts(board)
    free = array("q", [sum(1 << c for c in range(40) if board.free((r, c))) for r in range(12)])
    for layer_bytes in (F.MAX_LAYER_BYTES, 0):
        control = array("i", [0])
        threading.Timer(0.5, control.__setitem__, (0, 1)).start()
        t0 = time.monotonic()
        assert _fitcount.count(40, 12, free, array("i", fixed.v_row), array("i", fixed.v_col),
                               10**7, layer_bytes, control) is None
        assert time.monotonic() - t0 < 60


def test_packing_sweep_remembers_a_key_longer_than_its_first_pool() -> None:
    from array import array

    from satdomino.kernels import _xcount

    # one cell, one option, 140,000 groups: a state's key outgrows the memo's first pool
    assert _xcount.sweep(1, array("i", [256] * 140_000), array("i", [0, 1]), array("i", [0]),
                         array("i", [0]), array("i", [0]), -1.0) == 1


def test_domino_fit_counter_refuses_what_it_cannot_count() -> None:
    import dataclasses

    from satdomino.errors import SatDominoError

    board, solution = F.planted(6, 6, 1)
    # without full cover, and with the sums of the planted solution less a piece: that is
    # a solution with two squares empty, which no proof can rule out
    side, top = [0] * board.height, [0] * board.width
    for kind, at in solution.pieces[1:]:
        (r, c), n = F.dots_of(kind, at)
        side[r] += n
        top[c] += n
    holed = dataclasses.replace(board, side=tuple(side), top=tuple(top), cover=False)
    with pytest.raises(SatDominoError, match="every square covered"):
        F.count_placements(holed)
    big, _ = F.planted(30, 30, 1)
    saved = F.COUNT_BYTES
    F.COUNT_BYTES = 1000 * 48  # 1,000 states of a 30-wide board (32 + 16 bytes)
    try:
        with pytest.raises(SatDominoError, match="past 1,000 states held at once"):
            F.count_placements(big)
    finally:
        F.COUNT_BYTES = saved


def _estimate_runs(board: F.DominoFit, budget: int, runs: int) -> tuple[list[float], int]:
    """The Domino Fit estimate's single runs on one thread, and whether they thinned."""
    args = F._sweep_args(board, 1)
    assert args is not None and F._fitestimate is not None
    out = F._fitestimate.count(*args, budget, 1, runs, 1e9)
    assert out is not None
    return out


def test_domino_fit_estimate_averages_to_the_count_on_small_boards() -> None:
    """Thinned to 4 states a row, the runs' mean lies within 4 standard errors of the exact
    count (a sweep that kept the plain weights of the states it keeps, not max(w, tau), is
    biased low and fails here)."""
    rng = random.Random(41)
    checked = 0
    while checked < 6:
        board, _ = F.planted(rng.randint(6, 10), rng.randint(6, 10), rng.randrange(10**6),
                             blacks=0.1)
        exact = F.count_placements(board)
        if exact < 30:
            continue
        values, thinned = _estimate_runs(board, 4, 400)
        assert thinned and len(values) == 400
        mean, error = statistics.fmean(values), statistics.stdev(values) / 20
        assert abs(mean - exact) <= 4 * error, (board, exact, mean, error)
        checked += 1


def test_domino_fit_estimate_that_drops_nothing_is_the_count() -> None:
    rng = random.Random(43)
    for _ in range(8):
        board, _ = F.planted(rng.randint(4, 12), rng.randint(4, 12), rng.randrange(10**6),
                             blacks=rng.choice([0.0, 0.1]))
        assert F.estimate_placements(board, seconds=5) == (F.count_placements(board), 0.0)


def test_domino_fit_estimate_that_drops_nothing_keeps_every_digit() -> None:
    """A 6x80 board with a 63-bit count, swept without thinning: the doubles' sum is off
    in its last digits, so the answer comes from the exact sweep."""
    board, _ = F.planted(6, 80, 0, blacks=0.0)
    exact = F.count_placements(board)
    args = F._sweep_args(board, 1)
    assert args is not None and F._fitestimate is not None
    assert F._fitestimate.count(*args, F.ESTIMATE_STATES, 1, 1, 1.0)[1] == 0  # not thinned
    assert exact > 2**62 and F.estimate_placements(board, 5) == (exact, 0.0)


def test_domino_fit_estimate_is_the_same_for_the_same_seed_on_any_threads() -> None:
    """Each state's draw is a hash of the seed, the row and the state, not of the order the
    threads made the states in (equal up to the order of floating-point sums)."""
    board, _ = F.planted(18, 18, 2, blacks=0.07)
    values = [F.estimate_placements(board, 0, threads=n, budget=2000)[0]  # two runs
              for n in (1, 2, 3, 2, 3)]
    assert max(values) - min(values) <= 1e-9 * max(values)


def test_approx_races_the_family_estimate(monkeypatch) -> None:
    """With ApproxMC out of the way, the family's estimate answers under approx, with its
    error; the exact counter answers first where it can, and the estimate's unthinned sweep
    is named as exact."""
    monkeypatch.setattr(count_module, "_approx", lambda *args: time.sleep(600))
    thinned = dataclasses.replace(
        family("dominofit"),
        estimate_count=lambda p, seconds, limit: F.estimate_placements(p, seconds, limit,
                                                                       budget=20))
    board, _ = F.planted(16, 16, 1, blacks=0.05)  # 39,264 solutions
    exact = F.count_placements(board)
    c = count(board, thinned, approx=True, methods=(), timeout=120)
    assert (c.method, c.complete) == ("estimate", True) and c.error is not None
    assert 0 < c.error < 1 and abs(c.value - exact) <= 6 * c.error * c.value
    c = count(board, family("dominofit"), approx=True, timeout=120)
    assert (c.value, c.method, c.error) == (exact, "dp", None)


@pytest.mark.slow  # the slow tier: python -m pytest -m slow
def test_cli_states_an_estimate_and_its_error(tmp_path) -> None:
    """A 20x20 board whose exact count needs more states than fit (blacks=0.07, seed 17)."""
    board, _ = F.planted(20, 20, 17, blacks=0.07)
    path = tmp_path / "board.json"
    path.write_text(json.dumps(F.to_json(board)))
    run = _satdomino("solve", "--count", "approx", str(path), "--timeout", "40")
    assert run.returncode == 0, run.stderr
    assert "count: about " in run.stdout and "(estimate, standard error " in run.stdout
    run = _satdomino("solve", "--count", "approx", str(path), "--timeout", "40", "--json")
    rec = json.loads(run.stdout)
    assert rec["count_method"] == "estimate" and 0 < rec["count_error"] < 0.2
    assert 10**14 < rec["count"] < 10**15


def test_domino_fit_estimate_keeps_fewer_states_in_a_second_run_past_its_limit() -> None:
    """A second run that would end past the limit keeps fewer states (a sixteenth of the
    budget here, the limit having passed): it is the run of that budget on its own."""
    board, _ = F.planted(18, 18, 2, blacks=0.07)
    args = F._sweep_args(board, 1, F.ESTIMATE_LAYER_BYTES)
    assert args is not None and F._fitestimate is not None
    both, thinned = F._fitestimate.count(*(args + [2000, 1, 2, 0.0, 1e-9]))
    free, _ = F._fitestimate.count(*(args + [2000, 1, 2, 0.0]))
    alone, _ = F._fitestimate.count(*(args + [2000 // 16 + 1, 2, 1, 0.0]))
    assert thinned and len(both) == 2 and both[0] == free[0]
    assert both[1] == alone[0] != free[1]
