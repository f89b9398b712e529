"""One solver session (``Backend.session``) on every backend here: clauses added as it goes,
solves under assumptions, cores, unit propagation, enumeration with blocking clauses, a
deadline, and an interrupt from another thread; one deadline honoured from worker threads."""

from __future__ import annotations

import contextlib
import itertools
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import satdomino
from satdomino.backends import available_backends, get_backend
from satdomino.backends.pysat_backend import INTERRUPTIBLE
from satdomino.backends.session import blocking_clause
from satdomino.clock import Deadline, TimeUp
from satdomino.encode import CNF
from satdomino.errors import BackendError
from satdomino.family import Family
from satdomino.model import Model
from satdomino.puzzles import dominosa, family

from .test_portfolio import pigeonhole

# every solver that reads a CNF here, one by one (presets, portfolios and choices by size are
# made of these; highs, sls and dlx read the model and are tested apart below)
CNF_BACKENDS = [b for b in available_backends() if not b.startswith(("portfolio", "by-size"))
                and b not in ("highs", "sls", "dlx", "z3-smt", "cms-sls", "highs-fj",
                              "large-sat")]


def small() -> CNF:
    """x1 xor x2, x3 free, x4 = x1: four solutions over (x1, x2, x3)."""
    return CNF(4, 4, [[1, 2], [-1, -2], [-4, 1], [4, -1], [3, -3]])


def models_of(cnf: CNF, projection: list[int]) -> set[frozenset[int]]:
    out = set()
    for bits in itertools.product([False, True], repeat=cnf.num_vars):
        true = {i + 1 for i, b in enumerate(bits) if b}
        if all(any((x > 0) == (abs(x) in true) for x in c) for c in cnf.clauses):
            out.add(frozenset(true & set(projection)))
    return out


@pytest.mark.parametrize("name", CNF_BACKENDS)
def test_a_session_adds_solves_and_enumerates(name: str) -> None:
    cnf = small()
    with get_backend(name).session(cnf.copy()) as s:
        assert s.solve().status == "sat"
        answer = s.solve([1])
        assert answer.status == "sat" and {1, 4} <= answer.true_vars and 2 not in answer.true_vars
        assert s.solve([1, 2]).status == "unsat"
        with contextlib.suppress(BackendError):  # Kissat, outside binaries: no core
            assert set(s.core()) <= {1, 2}
        s.add([[3]])  # added for good
        assert all(3 in s.solve([x]).true_vars for x in (1, 2))
    with get_backend(name).session(cnf.copy()) as s:
        seen: list[frozenset[int]] = []
        found, ended = s.enumerate([1, 2, 3], seen.append)
        assert (found, ended) == (4, "all")
        assert {frozenset(t & {1, 2, 3}) for t in seen} == models_of(cnf, [1, 2, 3])
    with get_backend(name).session(cnf.copy()) as s:
        assert s.enumerate([1, 2, 3], lambda t: None, limit=3) == (3, "limit")


@pytest.mark.parametrize("name", [n for n in CNF_BACKENDS if n in INTERRUPTIBLE])
def test_an_in_process_session_propagates_and_keeps_what_it_learns(name: str) -> None:
    with get_backend(name).session(small()) as s:
        ok, lits = s.propagate([1])
        assert ok and {1, -2, 4} <= set(lits)
        assert not s.propagate([1, 2])[0]
        assert s.interruptible


@pytest.mark.parametrize("name", ["minisat22", "glucose4", "cadical195", "z3"])
def test_a_deadline_stops_a_session(name: str) -> None:
    with get_backend(name).session(pigeonhole(11)) as s:
        t0 = time.monotonic()
        answer = s.solve(deadline=Deadline.after(0.3))
        assert answer.status == "unknown" and time.monotonic() - t0 < 5
        # the session goes on: a question settled without search is still answered
        s.add([[-1]])
        assert s.solve([1], deadline=Deadline.after(30)).status == "unsat"


@pytest.mark.parametrize("name", ["minisat22", "glucose4", "z3",
                                  "portfolio:minisat22+glucose4"])
def test_interrupt_from_another_thread(name: str) -> None:
    with get_backend(name).session(pigeonhole(11)) as s:
        threading.Timer(0.3, s.interrupt).start()
        t0 = time.monotonic()
        assert s.solve().status == "unknown"
        assert time.monotonic() - t0 < 5


@pytest.mark.parametrize("name", ["minisat22", "glucose4", "cadical195", "z3",
                                  "portfolio:minisat22+glucose4"])
def test_an_interrupt_between_solves_is_forgotten(name: str) -> None:
    with get_backend(name).session(small()) as s:
        s.interrupt()
        assert s.solve([1]).status == "sat"
        s.interrupt()
        assert s.solve([1, 2]).status == "unsat"


def test_a_deadline_for_a_solver_that_ignores_interrupt_kills_a_forked_copy() -> None:
    with get_backend("cadical195").session(small()) as s:
        s.add([[3]])
        # under a deadline CaDiCaL solves a copy of itself in a child: answers and cores come
        # back, and the session is as before for the next call
        assert s.solve([1, 2], deadline=Deadline.after(30)).status == "unsat"
        assert set(s.core()) <= {1, 2}
        assert 3 in s.solve([2], deadline=Deadline.after(30)).true_vars


@pytest.mark.parametrize("name", ["sls", "highs", "dlx"])
def test_a_model_backend_session_restarts_from_the_model(name: str) -> None:
    if name not in available_backends():
        pytest.skip(f"{name} is not available here")
    board = dominosa.planted(4, 1)[0]
    m = dominosa.build_placement(board)
    with get_backend(name).session(m) as s:
        first = s.solve(deadline=Deadline.after(30))
        assert first.status == "sat"
        s.add([blocking_clause(m.projection, first.true_vars)])
        second = s.solve(deadline=Deadline.after(5))
        if name in ("highs", "dlx"):  # double-4 boards have several solutions: a second one
            assert second.status == "sat"
        if second.status == "sat":  # sls finds it, or runs to the deadline
            assert second.true_vars & set(m.projection) != first.true_vars & set(m.projection)


def test_external_binaries_as_sessions() -> None:
    names = [b for b in available_backends() if b.startswith("external:")]
    if not names:
        pytest.skip("no solver binary on PATH")
    cnf = small()
    for name in names:
        with get_backend(name).session(cnf.copy()) as s:
            assert s.enumerate([1, 2, 3], lambda t: None) == (4, "all")


# one deadline, from any thread -----------------------------------------------------------------

def slow_family() -> Family:
    """Dominosa, with a model whose building is a long Python loop."""
    import dataclasses

    def slow(puzzle: object) -> Model:
        while True:
            time.sleep(0.001)

    return dataclasses.replace(family("dominosa"), models={"placement": slow})


def test_a_deadline_stops_building_from_worker_threads() -> None:
    board = dominosa.planted(6, 1)[0]
    fam = slow_family()
    t0 = time.monotonic()
    with ThreadPoolExecutor(max_workers=3) as pool:
        outs = list(pool.map(lambda _: satdomino.solve(board, fam, timeout=0.3), range(3)))
    assert time.monotonic() - t0 < 5
    assert all(o.status == "unknown" and "building" in o.reason for o in outs)
    # and the threads' alarms are gone: a solve without a limit is not cut short
    with ThreadPoolExecutor(max_workers=1) as pool:
        assert pool.submit(satdomino.solve, board, family("dominosa")).result().status == "sat"


def test_a_deadline_stops_solving_counting_and_explaining_from_a_worker_thread() -> None:
    hard = dominosa.planted(100, 1)[0]  # plain CDCL takes minutes on such boards
    [puzzle] = satdomino.parse(hard.game_id())

    def work() -> tuple:
        t0 = time.monotonic()
        out = puzzle.solve(backend="minisat22", timeout=0.5)
        t1 = time.monotonic()
        counted = puzzle.count(timeout=0.5)
        t2 = time.monotonic()
        told = puzzle.explain(timeout=0.5)
        return out, counted, told, t1 - t0, t2 - t1, time.monotonic() - t2

    with ThreadPoolExecutor(max_workers=1) as pool:
        out, counted, told, *took = pool.submit(work).result()
    assert out.status == "unknown" and not counted.complete and told.reason == "time limit"
    assert max(took) < 10, took  # half a second asked: a wide margin for a loaded machine


def test_a_time_up_swallowed_by_a_destructor_is_raised_again_without_a_report(
        monkeypatch: pytest.MonkeyPatch) -> None:
    reports: list = []
    monkeypatch.setattr(sys, "unraisablehook", reports.append)

    class Slow:
        def __del__(self) -> None:
            time.sleep(0.5)  # the alarm rings in here, where Python can only report it

    with pytest.raises(TimeUp), Deadline.after(0.1).interrupting():
        Slow()
    assert reports == []


def test_a_swallowed_time_up_rings_again_while_the_block_runs_on(capfd) -> None:
    """Building a Z3 formula spends much of its time in ``__del__``s: a block that kept
    going after its one TimeUp was swallowed there ran 17 s past a 3 s limit. Ringing again
    prints nothing (starting its timer once raised a TimeUp inside the hook: a traceback)."""

    class Half:
        def __del__(self) -> None:
            busy(0.005)

    def busy(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            pass

    t0 = time.monotonic()
    with pytest.raises(TimeUp), Deadline.after(0.1).interrupting():
        while time.monotonic() - t0 < 60:  # half its time in a __del__, half out
            Half()
            busy(0.005)
    assert time.monotonic() - t0 < 30
    assert "Traceback" not in capfd.readouterr().err


def test_no_time_up_lands_in_a_shielded_block_it_comes_as_the_block_ends() -> None:
    """A TimeUp that lands in ``Thread.start`` can leave the new thread dead and the starter
    waiting for it forever (one ``explain --timeout`` in some 500 hung so): thread starts are
    shielded, and the deadline that came meanwhile is raised as the shield ends."""
    from satdomino.clock import shielded, start

    finished = []
    with pytest.raises(TimeUp), Deadline.after(0.05).interrupting():
        with shielded():
            end = time.monotonic() + 0.5
            while time.monotonic() < end:  # Python work the alarm would land in, unshielded
                pass
            finished.append(True)
        raise AssertionError("not reached: the shield's end raises the TimeUp")
    assert finished
    threads = [threading.Thread(target=time.sleep, args=(0.01,)) for _ in range(200)]
    with pytest.raises(TimeUp), Deadline.after(0.02).interrupting():
        for t in threads:  # starting threads as the alarm rings: each start whole
            start(t)
            t.join()
    assert all(not t.is_alive() for t in threads)


def _busy(seconds: float) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:  # Python work, which a deadline raises into
        pass
    return "done"


def test_within_gives_the_answer_or_none_and_never_hides_the_callers_deadline() -> None:
    from satdomino.clock import within

    assert within(5.0, lambda: _busy(0.01)) == "done"
    t0 = time.monotonic()
    assert within(0.05, lambda: _busy(60)) is None
    assert time.monotonic() - t0 < 30  # (stopped, not run out)
    with pytest.raises(TimeUp), Deadline.after(0.05).interrupting():
        within(60, lambda: _busy(60))  # the enclosing deadline comes first: it raises on
        raise AssertionError("not reached")


def test_deadlines_and_shields_work_under_a_tracer() -> None:
    """Under coverage, pdb or cProfile (a trace or profile function), a TimeUp taken back
    must not leave the interpreter looping: clearing it with NULL did, where a generator
    resumed (the first python-sat backend made hung ``cProfile`` runs of ``solve``)."""
    script = """if True:
        import sys, time
        sys.settrace(lambda *a: None)
        from satdomino.backends import get_backend
        from satdomino.clock import Deadline, TimeUp, shielded
        get_backend("cadical195")  # a shielded delete
        try:
            with Deadline.after(0.05).interrupting():
                while True:
                    pass
        except TimeUp:
            pass
        try:
            with Deadline.after(0.05).interrupting():
                with shielded():
                    time.sleep(0.2)  # rings inside the shield: raised as it ends
        except TimeUp:
            pass
        get_backend("minisat22")
        print("done")
    """
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "done", out.stderr


def test_nested_deadlines_the_sooner_rings() -> None:
    t0 = time.monotonic()
    with pytest.raises(TimeUp), Deadline.after(0.2).interrupting(), \
            Deadline.after(60).interrupting():
        while True:
            time.sleep(0.001)
    assert time.monotonic() - t0 < 5
    with Deadline.after(60).interrupting():  # the block ends first: nothing rings after it
        pass
    time.sleep(0.05)


def test_interrupt_kills_a_forked_copy_and_cores_are_never_made_up() -> None:
    with get_backend("cadical195").session(pigeonhole(11)) as s:
        threading.Timer(0.3, s.interrupt).start()
        t0 = time.monotonic()
        answer = s.solve(deadline=Deadline.after(60))  # a copy in a child: killed
        assert answer.status == "unknown" and time.monotonic() - t0 < 10
    for name, deadline in (("kissat404", Deadline.after(30)), ("kissat404", Deadline())):
        with get_backend(name).session(small()) as s:
            assert s.solve([1, 2], deadline=deadline).status == "unsat"
            with pytest.raises(BackendError):  # its assumptions went in as units
                s.core()


def test_a_forked_run_dropped_unfinished_takes_its_child_with_it() -> None:
    import os

    from satdomino.process.child import descendants
    from satdomino.process.run import ForkedRun

    run = ForkedRun(time.sleep, (60,))
    pid = run._pid
    assert pid in descendants(os.getpid())
    del run  # no cleanup ran (as when a TimeUp lands in it): it is freed, the child killed
    end = time.monotonic() + 10
    while pid in descendants(os.getpid()) and time.monotonic() < end:
        time.sleep(0.01)
    assert pid not in descendants(os.getpid())


def test_a_block_inside_one_whose_deadline_has_rung_stops_at_once() -> None:
    with pytest.raises(TimeUp), Deadline.after(0.05).interrupting():
        try:
            time.sleep(1)  # the outer alarm rings here
            while True:
                time.sleep(0.001)
        except TimeUp:
            with Deadline.after(60).interrupting():  # entered late: raises at once
                while True:
                    time.sleep(0.001)


def test_standard_input_that_never_comes_stops_at_the_time_limit() -> None:
    import subprocess
    import sys

    t0 = time.monotonic()
    with subprocess.Popen([sys.executable, "-m", "satdomino", "solve", "-", "--timeout", "1"],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as p:
        _, err = _wait_without_closing(p)
    assert p.returncode == 3 and "time limit, while reading" in err
    assert time.monotonic() - t0 < 30


def _wait_without_closing(p) -> tuple[str, str]:
    """The process's output, its standard input held open (a writer that never writes)."""
    p.wait(timeout=60)
    return p.stdout.read(), p.stderr.read()


def test_a_solver_is_deleted_whole_when_the_deadline_comes_during_it() -> None:
    """python-sat's delete frees the native solver, then notes it; a TimeUp between the two
    freed it again when the object went (a double free: export --uniqueness crashed at exit)."""
    from satdomino.backends.pysat_backend import delete

    class Native:
        handle: object = "native"

        def delete(self) -> None:
            end = time.monotonic() + 0.3
            while time.monotonic() < end:  # Python work between the free and the note of it
                pass
            self.handle = None

    solver = Native()
    with pytest.raises(TimeUp), Deadline.after(0.05).interrupting():
        delete(solver)  # type: ignore[arg-type]
    assert solver.handle is None
