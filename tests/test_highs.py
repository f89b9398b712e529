"""The ``highs`` backend (HiGHS on the 0-1 program) alone, with options, and in portfolios with
CNF-reading members."""

from __future__ import annotations

import itertools
import os
import random
import time

import pytest

pytest.importorskip("highspy")

import pysolvers  # noqa: E402  (python-sat's C module)
from pysat.solvers import Solver  # noqa: E402

from satdomino import Model  # noqa: E402
from satdomino.backends import PRESETS, available_backends, get_backend  # noqa: E402
from satdomino.backends.base import Forms  # noqa: E402
from satdomino.backends.highs_backend import no_stdout, parse_options  # noqa: E402
from satdomino.backends.program import _plain_rows, _rows_one_by_one  # noqa: E402
from satdomino.clock import Deadline
from satdomino.encode import Encodings, lower  # noqa: E402
from satdomino.errors import UsageError  # noqa: E402
from satdomino.process import forkserver  # noqa: E402
from satdomino.process.child import descendants  # noqa: E402
from satdomino.puzzles import dominosa as D  # noqa: E402
from satdomino.puzzles import family  # noqa: E402
from satdomino.solve import solve  # noqa: E402


def random_model(rng: random.Random, n: int = 6) -> Model:
    """Every Boolean constraint kind of the IR, negative literals and weights included."""
    m = Model("random")
    xs = [m.var(i) for i in range(n)]

    def lits(k: int) -> list[int]:
        return [x if rng.random() < 0.6 else -x for x in rng.sample(xs, k)]

    for _ in range(rng.randint(2, 5)):
        kind = rng.choice(["clause", "amo", "eo", "card", "pb", "or", "and"])
        if kind == "clause":
            m.add_clause(lits(rng.randint(1, 3)))
        elif kind == "amo":
            m.at_most_one(lits(rng.randint(2, 4)))
        elif kind == "eo":
            m.exactly_one(lits(rng.randint(2, 4)))
        elif kind == "card":
            m.card(lits(rng.randint(2, 5)), rng.choice(["<=", ">=", "=="]), rng.randint(0, 3))
        elif kind == "pb":
            m.pb([(rng.choice([-3, -2, -1, 1, 2, 3]), x) for x in lits(rng.randint(2, 4))],
                 rng.choice(["<=", ">=", "=="]), rng.randint(-2, 3))
        else:
            target, *rest = rng.sample(xs, 3)
            (m.define_or if kind == "or" else m.define_and)(target, rest)
    return m


def brute(m: Model, assumptions: tuple[int, ...] = ()) -> list[tuple[bool, ...]]:
    n = m.num_vars
    out = []
    for bits in itertools.product([False, True], repeat=n):
        value = [None, *bits]
        if all(value[a] if a > 0 else not value[-a] for a in assumptions) \
                and m.satisfied_by(value):
            out.append(bits)
    return out


def assignment(m: Model, true_vars) -> list:
    return [None, *(v in true_vars for v in range(1, m.num_vars + 1))]


def positive_model(rng: random.Random, n: int = 5) -> Model:
    """Clauses, at-most-ones and exactly-ones over positive literals only: the rows the
    program builds in bulk (``_plain_rows``)."""
    m = Model("positive")
    xs = [m.var(i) for i in range(n)]
    for _ in range(rng.randint(0, 9)):
        add = rng.choice([m.add_clause, m.at_most_one, m.exactly_one])
        add(rng.sample(xs, rng.randint(1 if add == m.add_clause else 2, 4)))
    return m


@pytest.mark.parametrize("backend", ["highs", "highs-fj"])
def test_a_program_without_columns_is_decided(backend: str) -> None:
    # HiGHS calls it "empty", which read as "unknown (time limit)"
    engine = get_backend(backend)
    empty = Model("empty")
    assert engine.solve(empty).status == "sat"
    impossible = Model("impossible")
    impossible.add_clause([])  # a row 0 >= 1
    assert engine.solve(impossible).status == "unsat"


@pytest.mark.parametrize("make, count, seed, assume", [
    (random_model, 40, 7, True),  # every constraint kind: rows one by one
    (positive_model, 30, 5, False),  # rows built in bulk
])
def test_highs_agrees_with_brute_force(make, count: int, seed: int, assume: bool) -> None:
    rng = random.Random(seed)
    engine = get_backend("highs")
    seen = set()
    for _ in range(count):
        m = make(rng)
        assumptions = tuple(rng.sample([1, -2, 3, -4], rng.randint(0, 2))) if assume else ()
        truth = brute(m, assumptions)
        result = engine.solve(m, assumptions=assumptions)
        seen.add(result.status)
        if not truth:
            assert result.status == "unsat", m
        else:
            assert result.status == "sat", m
            value = assignment(m, result.true_vars)
            assert m.satisfied_by(value)
            assert all(value[a] if a > 0 else not value[-a] for a in assumptions)
    assert seen == {"sat", "unsat"}


def test_rows_built_in_bulk_are_the_rows_built_one_by_one() -> None:
    rng = random.Random(11)
    models = [positive_model(rng) for _ in range(30)]
    models.append(D.build_placement(D.planted(6, 1)[0]))
    for m in models:
        bulk = _plain_rows(m.constraints)
        assert bulk is not None, m
        for fast, slow in zip(bulk, _rows_one_by_one(m, {}, [], {})[:5], strict=True):
            assert list(fast) == list(slow), m
    negative, weighted = Model("negative"), Model("weighted")
    x, y = negative.var("x"), negative.var("y")
    negative.add_clause([x, -y])
    a, b = weighted.var("a"), weighted.var("b")
    weighted.pb([(2, a), (1, b)], "<=", 2)
    assert _plain_rows(negative.constraints) is None and _plain_rows(weighted.constraints) is None


def random_3sat(n: int, m: int, seed: int) -> Model:
    rng = random.Random(seed)
    model = Model("3sat")
    xs = [model.var(i) for i in range(n)]
    for _ in range(m):
        model.add_clause([x if rng.random() < 0.5 else -x for x in rng.sample(xs, 3)])
    return model


def test_jump_only_gives_up_where_branch_and_bound_decides() -> None:
    """An unsatisfiable random 3-SAT formula: every LP row holds at x = 1/2, so neither the
    presolve nor the first LP can refute it; the feasibility jump finds nothing."""
    m = random_3sat(30, 240, seed=1)
    with Solver(name="cadical195", bootstrap_with=lower(m, Encodings()).clauses) as s:
        assert not s.solve()
    out = get_backend("highs-fj").solve(m, deadline=Deadline.after(30))
    assert out.status == "unknown" and "feasibility jump" in out.note
    assert get_backend("highs").solve(m, deadline=Deadline.after(60)).status == "unsat"


def test_a_time_limit_stops_highs_and_leaves_no_process() -> None:
    board, _ = D.planted(60, seed=2)  # HiGHS's first LP here alone takes seconds
    before = set(descendants(os.getpid()))  # other tests' processes are not this one's
    t0 = time.perf_counter()
    out = solve(board, family("dominosa"), backend="highs:mip_heuristic_run_feasibility_jump"
                "=false", timeout=0.5)
    assert out.status == "unknown" and time.perf_counter() - t0 < 5
    # the killed worker is reaped in the background, once its memory is torn down; the fork
    # server that forked it stays, for the next solve
    before.add(forkserver.server().pid)
    end = time.monotonic() + 2
    while time.monotonic() < end and not set(descendants(os.getpid())) <= before:
        time.sleep(0.01)
    assert set(descendants(os.getpid())) <= before


def test_options_are_checked_by_highs_and_refused_in_one_line() -> None:
    assert parse_options("presolve=off, random_seed=3,mip_rel_gap=0.5, jump_only=true") == {
        "presolve": "off", "random_seed": 3, "mip_rel_gap": 0.5, "jump_only": True}
    with pytest.raises(UsageError, match="refuses the option no_such_option=1"):
        get_backend("highs:no_such_option=1")
    with pytest.raises(UsageError, match="refuses the option presolve=sometimes"):
        get_backend("highs:presolve=sometimes")
    with pytest.raises(UsageError, match="OPTION=VALUE"):
        get_backend("highs:presolve")
    with pytest.raises(UsageError, match="jump_only is true or false"):
        get_backend("highs:jump_only=yes")


def test_a_highspy_that_fails_to_load_leaves_its_presets_out(monkeypatch) -> None:
    """As when OR-Tools, with its own HiGHS, is loaded first: the listing goes on."""
    def clash(options: dict):
        raise ImportError("undefined symbol")

    monkeypatch.setattr("satdomino.backends.highs_backend._highs", clash)
    listed = available_backends()
    assert "highs-fj" not in listed and "large-sat" not in listed and "minisat22" in listed


def test_highs_is_listed_and_its_preset_resolves() -> None:
    assert "highs" in available_backends() and "highs-fj" in available_backends()
    engine = get_backend("highs-fj")
    assert engine.name == "highs-fj" and engine.takes == "model"
    assert engine.options == parse_options(PRESETS["highs-fj"][0].split(":", 1)[1])


def test_a_portfolio_of_model_and_cnf_readers_gets_both_forms() -> None:
    engine = get_backend("portfolio:minisat22+highs-fj")
    assert engine.takes == "both" and get_backend("portfolio:highs+z3-smt").takes == "model"
    board, _ = D.planted(6, seed=3)
    formula = engine.formula(D.build_placement(board), Encodings(amo="pairwise"))
    assert isinstance(formula, Forms) and formula.cnf.num_vars == formula.model.num_vars
    out = solve(board, family("dominosa"), backend=engine, encodings=Encodings(amo="pairwise"),
                unique=True)
    assert out.status == "sat" and out.stats["encodings"]["amo"] == "pairwise"
    # the uniqueness check blocked the first solution in both forms: a second one differs
    assert out.unique is False and out.other.pairs != out.solution.pairs



def test_highs_prints_nothing_of_its_own_to_standard_output() -> None:
    """HiGHS 1.16 prints a banner as each Highs object is made; ``--json`` output must stay
    one JSON object (the options are checked in this process, the solve runs in a child)."""
    import json
    import subprocess
    import sys

    gid = D.planted(4, 1)[0].game_id()
    p = subprocess.run([sys.executable, "-m", "satdomino.cli", "solve", "-", "--json",
                        "--backend", "highs:random_seed=1"], input=gid, capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["status"] == "sat"


def test_silencing_highs_flushes_c_stdout_only_not_streams_others_abandoned() -> None:
    """python-sat's Cadical195 with a proof, deleted before its proof is read, leaves a FILE*
    holding the proof's tail over a descriptor it closed. Silencing HiGHS's banner must not
    flush that tail into whatever file has taken the number since (it once reached the fork
    server's socket, and the server took it for a job)."""
    rng = random.Random(0)  # a satisfiable formula on which CaDiCaL learns clauses
    formula = [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, 13), 3)]
               for _ in range(60)]
    s = Solver(name="cadical195", bootstrap_with=formula, with_proof=True)
    assert s.solve()
    number, stream = s.solver.prfile.fileno(), s.solver.prfp
    read, write = os.pipe()
    s.delete()  # the proof unread: its tail stays in the abandoned stream
    os.dup2(write, number)  # a file of ours now has the abandoned stream's number
    os.set_blocking(read, False)
    try:
        with no_stdout():
            print("not shown", flush=True)
        with pytest.raises(BlockingIOError):
            os.read(read, 4096)  # nothing of the proof's tail came through
    finally:
        pysolvers.flushpr(stream)  # the tail goes here, not into a later file (only this
        # stream: a fflush(NULL) here would be the very thing this test is about)
        tail = os.read(read, 4096)
        for fd in (read, write, number):
            os.close(fd)
    assert tail  # there was a tail to leak: the check above could have failed
