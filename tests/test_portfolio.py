"""Portfolios, named solver configurations and phase hints: answers against brute force, the
race's losers really killed, time limits kept, failures reported."""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from satdomino import family, solve
from satdomino.backends import PRESETS, available_backends, get_backend
from satdomino.backends.base import Backend, Result
from satdomino.backends.pysat_backend import INTERRUPTIBLE, NO_PHASES, solver_names
from satdomino.clock import Deadline
from satdomino.compare.sweep import run_local
from satdomino.encode import CNF, Encodings
from satdomino.errors import BackendError, SatDominoError
from satdomino.process.run import ForkedRun, Run
from satdomino.puzzles import dominosa as D

from .test_dominosa_solve import BOARDS, TRUTH, check

FAM = family("dominosa")
HAVE_CMS = shutil.which("cryptominisat5") is not None
needs_cms = pytest.mark.skipif(not HAVE_CMS, reason="cryptominisat5 is not installed")


def _script(tmp_path: Path, name: str, body: str) -> str:
    """An outside 'solver' that records its pid in ``name``.pid, then runs ``body``."""
    path = tmp_path / name
    # written whole or not at all: a solver killed at once leaves no empty pid file
    pid = tmp_path / f"{name}.pid"
    path.write_text(f'#!/bin/sh\necho $$ > "{pid}.tmp" && mv "{pid}.tmp" "{pid}"\n{body}\n')
    path.chmod(0o755)
    return f"external:{path}"


def _gone(pid_file: Path, within: float = 5.0) -> bool:
    """The process whose pid is in ``pid_file`` has ended and been reaped (or never started):
    a zombie left unreaped counts as not gone."""
    if not pid_file.exists():
        return True
    pid = int(pid_file.read_text())
    end = time.monotonic() + within
    while time.monotonic() < end:
        if not Path(f"/proc/{pid}").exists():
            return True
        time.sleep(0.05)
    return False


def test_portfolio_answers_match_brute_force() -> None:
    for board, truth in zip(BOARDS[:14], TRUTH[:14], strict=True):
        check(board, truth, backend="portfolio:cadical195+minisat22")


@needs_cms
def test_preset_and_portfolio_with_local_search_match_brute_force() -> None:
    for board, truth in zip(BOARDS[:14], TRUTH[:14], strict=True):
        check(board, truth, backend="cms-sls")
        check(board, truth, backend="portfolio:cms-sls+cadical195")


@needs_cms
def test_local_search_preset_solves_a_large_planted_board() -> None:
    board, _ = D.planted(60, seed=2)
    out = solve(board, FAM, backend="portfolio:minisat22+cms-sls", unique=True, timeout=120)
    assert out.status == "sat" and D.verify(board, out.solution) == []
    assert out.unique is False and D.verify(board, out.other) == []


def test_presets_resolve_to_their_configuration() -> None:
    for name, (target, _) in PRESETS.items():
        if not target.startswith("external:"):
            continue  # highs-fj: test_highs.py; large-sat: below
        binary = target.split()[0].split(":", 1)[1]
        if shutil.which(binary) is None:
            assert name not in available_backends()
            with pytest.raises(BackendError, match="not found"):
                get_backend(name)
            continue
        engine = get_backend(name)
        assert name in available_backends() and engine.name == name
        assert engine.argv[1:] == target.split()[1:]  # type: ignore[attr-defined]


def test_the_large_sat_preset_is_listed_exactly_when_its_solvers_are_here(monkeypatch) -> None:
    if HAVE_CMS:
        engine = get_backend("large-sat")
        assert "large-sat" in available_backends() and engine.name == "large-sat"
        assert engine.limit == 5000
        for side, jump_at in ((engine.small, 0.02), (engine.large, 0)):
            assert [m.name for m in side.members] == ["minisat22", "highs-fj", "cms-sls"]
            assert side.delays == [0, jump_at, 10] and side.yields == [0.08, None, None]
    monkeypatch.setattr("shutil.which", lambda name, *a, **k: None)  # no binary at all
    assert "large-sat" not in available_backends() and "cms-sls" not in available_backends()
    with pytest.raises(BackendError, match="not found"):
        get_backend("large-sat")


def pigeonhole(holes: int) -> CNF:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable, and exponential for CDCL."""
    var = {(p, h): p * holes + h + 1 for p in range(holes + 1) for h in range(holes)}
    clauses = [[var[p, h] for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var[p, h], -var[q, h]] for h in range(holes)
                for p in range(holes + 1) for q in range(p)]
    return CNF(num_vars=len(var), model_vars=len(var), clauses=clauses)


@pytest.mark.parametrize("name", ["cadical195", "minisat22"])  # in a child; in-process
def test_the_losers_of_the_race_are_killed(tmp_path: Path, name: str) -> None:
    slow = _script(tmp_path, "slow", "sleep 60")
    t0 = time.monotonic()
    out = solve(D.planted(3, 1)[0], FAM, backend=f"portfolio:{slow}+{name}")
    assert out.status == "sat" and time.monotonic() - t0 < 20
    assert _gone(tmp_path / "slow.pid"), "the outside solver that lost is still running"


@pytest.mark.parametrize("name", sorted(INTERRUPTIBLE & set(solver_names())))
def test_interruptible_solvers_stop_at_the_time_limit(name: str, monkeypatch) -> None:
    """In-process (no fork), yet the limit really stops the search."""
    monkeypatch.setattr("os.fork", _no_fork)
    t0 = time.monotonic()
    out = get_backend(name).solve(pigeonhole(11), deadline=Deadline.after(0.3))
    assert out.status == "unknown" and out.note == "time limit"
    assert time.monotonic() - t0 < 5


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt in the tests that send it, even when pytest was started
    in the background of a script (which starts Python with SIGINT ignored)."""
    import signal

    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


@pytest.mark.usefixtures("ctrl_c_raises")
@pytest.mark.parametrize("name", ["minisat22", "portfolio:glucose4+minisat22"])
def test_ctrl_c_stops_an_in_process_search(name: str) -> None:
    """The waiting thread takes the KeyboardInterrupt and stops the search it waits for."""
    import os
    import signal
    import threading

    before = set(threading.enumerate())
    ctrl_c = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    ctrl_c.start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        get_backend(name).solve(pigeonhole(11), deadline=Deadline.after(60))
    assert time.monotonic() - t0 < 10
    ctrl_c.join()
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not left, "a solver thread outlived the interrupt"


@pytest.mark.usefixtures("ctrl_c_raises")
@pytest.mark.parametrize("portfolio", [False, True])
def test_ctrl_c_kills_an_outside_solver(tmp_path: Path, portfolio: bool) -> None:
    """An outside solver runs in its own session, so Ctrl-C does not reach it: we kill it."""
    import os
    import signal
    import threading

    slow = _script(tmp_path, "slow", "sleep 60")
    ctrl_c = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    ctrl_c.start()
    with pytest.raises(KeyboardInterrupt):
        get_backend(f"portfolio:{slow}+{slow}" if portfolio else slow).solve(
            pigeonhole(3), deadline=Deadline.after(60))
    ctrl_c.join()
    assert (tmp_path / "slow.pid").exists() and _gone(tmp_path / "slow.pid")


def _have_pidfd() -> bool:
    try:
        os.close(os.pidfd_open(os.getpid()))
        return True
    except (AttributeError, OSError):
        return False


@pytest.mark.skipif(not _have_pidfd(), reason="no pidfd here: the wait falls back to polling")
def test_an_outside_solver_with_a_time_limit_is_waited_for_without_polling(
        tmp_path: Path, monkeypatch) -> None:
    """Popen.wait(timeout=...) polls with sleeps of up to 50 ms, so an answer could wait that
    long to be seen: the wait must not sleep at all."""
    answers = _script(tmp_path, "answers", "sleep 0.3\necho 's SATISFIABLE'\necho 'v 1 -2 0'")

    def no_sleep(seconds: float) -> None:
        raise AssertionError(f"polled: time.sleep({seconds})")

    monkeypatch.setattr("time.sleep", no_sleep)
    res = get_backend(answers).solve(CNF(2, 2, [[1, 2], [-2]]), deadline=Deadline.after(30))
    assert res.status == "sat" and res.true_vars == frozenset({1})


@pytest.mark.parametrize("pidfd", [True, False])
def test_an_outside_solver_is_killed_at_its_time_limit(tmp_path: Path, monkeypatch,
                                                        pidfd: bool) -> None:
    """With a pidfd, and without one (another system: Popen.wait's polling)."""
    if not pidfd:
        def refused(pid: int) -> int:
            raise OSError("no pidfd here")

        monkeypatch.setattr("os.pidfd_open", refused, raising=False)
    answers = _script(tmp_path, "answers", "echo 's SATISFIABLE'\necho 'v 1 -2 0'")
    res = get_backend(answers).solve(CNF(2, 2, [[1, 2], [-2]]), deadline=Deadline.after(30))
    assert res.status == "sat" and res.true_vars == frozenset({1})
    slow = _script(tmp_path, "slow", "sleep 60")
    t0 = time.monotonic()
    res = get_backend(slow).solve(pigeonhole(3), deadline=Deadline.after(0.3))
    assert res.status == "unknown" and res.note == "time limit"
    assert time.monotonic() - t0 < 5
    assert (tmp_path / "slow.pid").exists() and _gone(tmp_path / "slow.pid")
    # a limit already spent (a direct caller's negative one, too) stops it at once
    assert get_backend(slow).solve(pigeonhole(3), deadline=Deadline.after(-1)).note == "time limit"


def _no_fork():
    raise AssertionError("this run should not fork")


def test_in_process_and_outside_members_race_without_forking(tmp_path: Path,
                                                             monkeypatch) -> None:
    """python-sat members that honour interrupt, and outside solvers, run from threads: the
    in-process one answers (after about a second), the outside one, started first, is
    killed."""
    monkeypatch.setattr("os.fork", _no_fork)
    slow = _script(tmp_path, "slow", "sleep 60")
    res = get_backend(f"portfolio:{slow}+glucose4").solve(pigeonhole(8),
            deadline=Deadline.after(60))
    assert res.status == "unsat" and res.note == "answered by glucose4"
    assert (tmp_path / "slow.pid").exists() and _gone(tmp_path / "slow.pid")
    board, _ = D.planted(20, 1)
    out = solve(board, FAM, backend=f"portfolio:glucose4+{slow}", unique=True, timeout=60)
    assert out.status == "sat" and out.unique is False
    assert D.verify(board, out.solution) == [] and D.verify(board, out.other) == []
    # and a limit stops both: the in-process search by interrupt, the outside one by a kill
    (tmp_path / "slow.pid").unlink()
    t0 = time.monotonic()
    res = get_backend(f"portfolio:{slow}+minisat22").solve(pigeonhole(11),
            deadline=Deadline.after(0.5))
    assert res.status == "unknown" and res.note == "time limit"
    assert time.monotonic() - t0 < 5
    assert (tmp_path / "slow.pid").exists() and _gone(tmp_path / "slow.pid")


@pytest.mark.parametrize("session", [True, False])
def test_a_losing_outside_solver_is_killed_with_or_without_its_own_session(
        tmp_path: Path, session: bool) -> None:
    """compare's runs keep outside solvers in the run's process group (no session of their
    own): a loser must be killed all the same, not waited for."""
    slow = _script(tmp_path, "slow", "exec sleep 60")  # no child of its own left to orphan
    engine = get_backend(f"portfolio:{slow}+glucose4")
    engine.new_session = session  # type: ignore[attr-defined]
    t0 = time.monotonic()
    res = engine.solve(pigeonhole(8), deadline=Deadline.after(30))
    assert res.status == "unsat" and time.monotonic() - t0 < 15
    assert (tmp_path / "slow.pid").exists() and _gone(tmp_path / "slow.pid")


def test_loading_a_large_formula_stops_at_the_time_limit() -> None:
    """Loading clauses holds the GIL and cannot be interrupted: it goes in pieces."""
    big = pigeonhole(11)
    big.clauses = big.clauses * 8000  # 5.9 million clauses: about a second to load whole
    for name in ("minisat22", "portfolio:minisat22+glucose4"):
        t0 = time.monotonic()
        res = get_backend(name).solve(big, deadline=Deadline.after(0.1))
        assert res.status == "unknown" and time.monotonic() - t0 < 0.5, name


def test_a_member_that_cannot_start_does_not_sink_the_race() -> None:
    from satdomino.backends.portfolio import PortfolioBackend

    class Broken(Backend):
        def start(self, formula, assumptions=(), phases=()) -> Run:
            raise OSError("no more processes")

    out = PortfolioBackend([Broken("broken"), get_backend("minisat22")]).solve(pigeonhole(3))
    assert out.status == "unsat" and out.note == "answered by minisat22"
    with pytest.raises(BackendError, match="every portfolio member failed.*no more processes"):
        PortfolioBackend([Broken("a"), Broken("b")]).solve(pigeonhole(3))


def test_members_set_up_one_after_another() -> None:
    """A member's set-up (holding the GIL) starts once the previous member is searching."""
    order: list[str] = []

    class Member(Backend):
        def start(self, formula, assumptions=(), phases=()) -> Run:
            def work(run: Run) -> Result:
                order.append(f"{self.name} set-up")
                time.sleep(0.2 if self.name == "a" else 0.0)  # a long set-up
                with run.stoppable(lambda: None):
                    order.append(f"{self.name} searching")
                    time.sleep(0.2 if self.name == "a" else 0.0)
                return Result("sat" if self.name == "b" else "unknown")

            return Run(work)

    from satdomino.backends.portfolio import PortfolioBackend

    out = PortfolioBackend([Member("a"), Member("b")]).solve(pigeonhole(2))
    assert out.status == "sat" and out.note == "answered by b"
    assert order.index("a searching") < order.index("b set-up"), order


class _Timed(Backend):
    """A member that notes when it starts (in ``started``), searches ``seconds`` unless
    stopped, then answers ``answer``; in a thread, or with ``fork`` in a forked child."""

    def __init__(self, name: str, answer: str, seconds: float, started: dict,
                 fork: bool = False) -> None:
        super().__init__(name)
        self.answer, self.seconds, self.started, self.fork = answer, seconds, started, fork

    def start(self, formula, assumptions=(), phases=()) -> Run:
        import threading

        self.started[self.name] = time.monotonic()
        if self.fork:
            return ForkedRun(_answer_after, (self.answer, self.seconds))
        stop = threading.Event()

        def work(run: Run) -> Result:
            with run.stoppable(stop.set):
                stopped = stop.wait(self.seconds)
            return Result("unknown" if stopped else self.answer)  # type: ignore[arg-type]

        return Run(work)


def _answer_after(answer: str, seconds: float) -> Result:
    time.sleep(seconds)
    return Result(answer)  # type: ignore[arg-type]


def _late(members: list[tuple], started: dict):
    """A portfolio of _Timed members given as (name, answer, seconds, delay[, fork])."""
    from satdomino.backends.portfolio import PortfolioBackend

    return PortfolioBackend([_Timed(n, a, s, started, *fork) for n, a, s, _, *fork in members],
                            [m[3] for m in members])


def test_a_late_member_starts_at_its_time() -> None:
    started: dict = {}
    t0 = time.monotonic()
    out = _late([("a", "sat", 60, 0), ("b", "unsat", 0, 0.3)], started).solve(pigeonhole(2))
    assert out.status == "unsat" and out.note == "answered by b"
    assert started["a"] - t0 < 0.3 <= started["b"] - t0 < 20


def test_a_late_member_takes_the_core_of_one_that_gave_up() -> None:
    """c waits 60 s, or until a member ends with no answer: a gives up after 0.2 s, while b
    searches on."""
    started: dict = {}
    t0 = time.monotonic()
    out = _late([("a", "unknown", 0.2, 0), ("b", "sat", 60, 0), ("c", "unsat", 0, 60)],
                started).solve(pigeonhole(2))
    assert out.note == "answered by c" and 0.2 <= started["c"] - t0 < 20


def test_a_late_member_is_not_started_when_the_race_is_over_first() -> None:
    started: dict = {}
    out = _late([("a", "sat", 0, 0), ("b", "sat", 0, 0.5)], started).solve(pigeonhole(2))
    assert out.note == "answered by a" and "b" not in started
    t0 = time.monotonic()  # a time limit that comes first
    out = _late([("a", "sat", 60, 0), ("b", "sat", 0, 30)], started).solve(pigeonhole(2),

                                                                                    deadline=Deadline.after(0.3))
    assert out.status == "unknown" and out.note == "time limit"
    assert time.monotonic() - t0 < 5 and "b" not in started


def test_each_freed_core_starts_one_waiting_member() -> None:
    started: dict = {}
    out = _late([("x", "sat", 0.6, 0), ("a", "unknown", 0.1, 0), ("b", "sat", 60, 60),
                 ("c", "sat", 60, 60)], started).solve(pigeonhole(2))
    assert out.note == "answered by x" and "b" in started and "c" not in started


def test_with_every_member_late_the_first_starts_at_once() -> None:
    started: dict = {}
    t0 = time.monotonic()
    out = _late([("a", "unknown", 0, 30), ("b", "sat", 0, 60)], started).solve(pigeonhole(2))
    assert out.note == "answered by b" and started["b"] - t0 < 20


def test_a_late_member_that_forks_starts_while_the_others_search(tmp_path: Path) -> None:
    """highs forks its child while the outside solver's thread waits for it; so does a member
    that answers from a child after its delay."""
    slow = _script(tmp_path, "slow", "sleep 60")
    for board, truth in zip(BOARDS[:10], TRUTH[:10], strict=True):
        check(board, truth, backend=f"portfolio:{slow}+highs@0.05")
    assert (tmp_path / "slow.pid").exists() and _gone(tmp_path / "slow.pid")
    started: dict = {}
    t0 = time.monotonic()
    out = _late([("a", "sat", 60, 0), ("b", "unsat", 0, 0.3, True)], started).solve(
        pigeonhole(2))
    assert out.note == "answered by b" and 0.3 <= started["b"] - t0 < 20


def test_late_members_are_written_name_at_seconds(tmp_path: Path) -> None:
    engine = get_backend("portfolio:minisat22+glucose4@0.02+cadical195@10")
    assert engine.name == "portfolio:minisat22+glucose4@0.02+cadical195@10"
    assert engine.delays == [0, 0.02, 10]  # type: ignore[attr-defined]
    folder = tmp_path / "solver@2"  # an @ with no number after it is part of a name
    folder.mkdir()
    answers = _script(folder, "answers", "echo 's SATISFIABLE'\necho 'v 1 0'")
    engine = get_backend(f"portfolio:{answers}+minisat22@5")
    assert engine.delays == [0, 5]  # type: ignore[attr-defined]
    assert engine.solve(CNF(1, 1, [[1]])).note == f"answered by {answers}"


def _open_files() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def _files_of_child() -> list[str]:
    return sorted(os.listdir("/proc/self/fd"))


def _die() -> None:
    os.kill(os.getpid(), signal.SIGTERM)


def _half_an_answer() -> None:
    """Send the header of a 100-byte message and 10 of its bytes, then end (exit 3)."""
    from satdomino.process import child

    os.write(child._reply.fileno(), (100).to_bytes(4, "big") + b"x" * 10)
    os._exit(3)


def _refuse_to_fork() -> int:
    raise OSError("no more processes")


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="no /proc here")
def test_forked_runs_keep_no_file_and_no_process(monkeypatch) -> None:
    """A child keeps only the standard files and its pipe (and the one listing them); a
    run's pipes are closed when it ends, is closed unread, its child dies (by a signal, or
    in the middle of its answer), or it cannot fork."""
    from satdomino.process.child import descendants

    before, procs = _open_files(), set(descendants(os.getpid()))
    assert len(ForkedRun(_files_of_child, ()).result()) == 5  # 0, 1, 2, the pipe, listdir's
    for _ in range(10):
        ForkedRun(time.sleep, (60,)).close()
    with pytest.raises(BackendError, match=r"died \(killed by signal 15\)"):
        ForkedRun(_die, ()).result()
    with pytest.raises(BackendError, match=r"died \(exit 3\)"):  # cut off mid-answer
        ForkedRun(_half_an_answer, ()).result()
    monkeypatch.setattr("sys.stdout", None)  # nothing to flush before the fork
    assert ForkedRun(abs, (-2,)).result() == 2
    monkeypatch.setattr("os.fork", _refuse_to_fork)
    with pytest.raises(OSError, match="no more processes"):
        ForkedRun(abs, (-2,))
    monkeypatch.undo()
    run = ForkedRun(time.sleep, (60,))
    threading.Timer(0.2, run.stop).start()
    t0 = time.monotonic()
    assert run.result().note == "stopped" and time.monotonic() - t0 < 5
    assert _open_files() == before
    end = time.monotonic() + 5  # killed children are reaped in the background
    while time.monotonic() < end and not set(descendants(os.getpid())) <= procs:
        time.sleep(0.01)
    assert set(descendants(os.getpid())) <= procs


def test_a_run_stopped_before_its_search_stops_at_once() -> None:
    run = Run(lambda r: Result("unknown"))
    calls: list[str] = []
    run.stop()
    with run.stoppable(lambda: calls.append("stop")):
        assert calls == ["stop"] and run.searching
    run2 = Run(lambda r: Result("unknown"))
    with run2.stoppable(lambda: calls.append("late")):
        pass
    run2.stop()  # after the block: its stopper must not run
    assert calls == ["stop"]


def test_time_limit_kills_every_member(tmp_path: Path) -> None:
    a = _script(tmp_path, "a", "sleep 60")
    b = _script(tmp_path, "b", "sleep 60")
    t0 = time.monotonic()
    out = solve(D.planted(3, 1)[0], FAM, backend=f"portfolio:{a}+{b}", timeout=1.5)
    assert out.status == "unknown" and time.monotonic() - t0 < 10
    assert _gone(tmp_path / "a.pid") and _gone(tmp_path / "b.pid")


def test_a_failing_member_does_not_sink_the_race(tmp_path: Path) -> None:
    broken = _script(tmp_path, "broken", "exit 1")
    out = solve(D.planted(3, 1)[0], FAM, backend=f"portfolio:{broken}+cadical195")
    assert out.status == "sat"
    other = _script(tmp_path, "other", "exit 3")
    with pytest.raises(BackendError, match="every portfolio member failed.*gave no answer"):
        solve(D.planted(3, 1)[0], FAM, backend=f"portfolio:{broken}+{other}")


@pytest.mark.parametrize("spec, message", [
    ("portfolio:cadical195", "two or more"),
    ("portfolio:", "two or more"),
    ("portfolio:cadical195+highs:no_such_option=1", "HiGHS refuses"),
    ("portfolio:cadical195+nosuch", "unknown backend"),
    ("portfolio:cadical195+minisat22@soon", "unknown backend 'minisat22@soon'"),
    ("portfolio:cadical195+minisat22@-1", "0 to 86400 seconds, not -1"),
    ("portfolio:cadical195+minisat22@1e9", "0 to 86400 seconds, not 1e9"),
])
def test_bad_portfolios(spec: str, message: str) -> None:
    with pytest.raises(SatDominoError, match=message):
        get_backend(spec)


def test_native_cardinality_only_when_every_member_has_it() -> None:
    assert get_backend("portfolio:minicard+gluecard4").native_card
    assert not get_backend("portfolio:minicard+cadical195").native_card


@pytest.mark.parametrize("name", [n for n in solver_names() if n not in NO_PHASES])
def test_phases_steer_an_unconstrained_search(name: str) -> None:
    """With nothing forcing any value, a solver that takes phases answers with them."""
    cnf = CNF(num_vars=6, model_vars=6, clauses=[[v, -v] for v in range(1, 7)])
    want = [1, -2, 3, -4, -5, 6]
    engine = get_backend(name)
    assert engine.takes_phases
    result = engine.solve(cnf, phases=want)
    assert result.status == "sat" and result.true_vars == {1, 3, 6}
    opposite = engine.solve(cnf, phases=[-x for x in want],
            deadline=Deadline.after(30))  # in a child too
    assert opposite.true_vars == {2, 4, 5}


def test_uniqueness_search_starts_from_the_first_solution() -> None:
    """The second solve of a uniqueness check is steered to the first solution: on a planted
    board with many solutions the second one found differs from it in a few dominoes."""
    board, _ = D.planted(30, seed=4)
    out = solve(board, FAM, unique=True)
    assert out.unique is False
    moved = set(out.solution.pairs) ^ set(out.other.pairs)
    assert 0 < len(moved) <= 12, len(moved)


def test_portfolio_in_compare_rows_are_verified() -> None:
    from .test_compare import _tasks

    todo = _tasks(["dominosa:n=5:seeds=2"], backends=["portfolio:cadical195+minisat22"])
    rows = list(run_local(todo, 1))
    assert len(rows) == 2 and all(r["status"] == "sat" and r["verified"] for r in rows)
    assert all("answered by" in r["note"] for r in rows)


# members that yield their core: NAME@START..YIELD -------------------------------------------

class _Worker(Backend):
    """A member that answers ``answer`` after ``seconds`` of running (time paused does not
    count), in a thread; it notes in ``log`` when it starts, pauses and resumes."""

    def __init__(self, name: str, answer: str, seconds: float, log: list) -> None:
        super().__init__(name)
        self.answer, self.seconds, self.log = answer, seconds, log

    def start(self, formula, assumptions=(), phases=()) -> Run:
        self.log.append((self.name, "start", time.monotonic()))
        interrupt = threading.Event()

        def pause() -> None:
            self.log.append((self.name, "pause", time.monotonic()))
            interrupt.set()

        def work(run: Run) -> Result:
            left = self.seconds
            while True:  # as a python-sat solver's work: interrupted, then waits
                t = time.monotonic()
                with run.stoppable(interrupt.set), run.pausable(pause):
                    interrupted = interrupt.wait(left)
                left -= time.monotonic() - t
                if not interrupted:
                    return Result(self.answer)  # type: ignore[arg-type]
                if not run.wait_while_paused():
                    return Result("unknown", note="stopped")
                self.log.append((self.name, "resume", time.monotonic()))
                interrupt.clear()

        return Run(work)


def _yielding(members: list[tuple], log: list):
    """A portfolio of _Worker members given as (name, answer, seconds, delay, yield)."""
    from satdomino.backends.portfolio import PortfolioBackend

    return PortfolioBackend([_Worker(n, a, s, log) for n, a, s, _, _ in members],
                            [m[3] for m in members], [m[4] for m in members])


def test_a_member_yields_its_core_and_goes_on_where_it_stopped() -> None:
    """a needs 1.2 s of running and yields at 0.2 s to c (waiting 60 s); b gives up at
    1 s, and a takes its core and finishes: 0.8 s paused, 1 s more of running."""
    log: list = []
    t0 = time.monotonic()
    out = _yielding([("a", "sat", 1.2, 0, 0.2), ("b", "unknown", 1.0, 0, None),
                     ("c", "unknown", 3.0, 60, None)], log).solve(pigeonhole(2),
                                                                  deadline=Deadline.after(30))
    took = time.monotonic() - t0
    assert out.note == "answered by a"
    when = {(name, what): t - t0 for name, what, t in log}
    assert 0.2 <= when["a", "pause"] < when["c", "start"] < 1.0  # the yield, not b's end
    assert 1.0 <= when["a", "resume"] < 2.0
    assert 1.9 <= took < 10  # a paused, not searching, from 0.2 to 1 s


def test_a_member_yields_only_to_a_waiting_member() -> None:
    log: list = []
    out = _yielding([("a", "sat", 0.4, 0, 0.1), ("b", "unknown", 0.05, 0, None)],
                    log).solve(pigeonhole(2))
    assert out.note == "answered by a" and ("a", "pause") not in {x[:2] for x in log}


def test_a_member_searching_from_given_phases_does_not_yield() -> None:
    """With phases (--unique's second solve) the member that takes them runs on past its
    yield time; without phases, or not taking them, it yields to the waiting member."""
    for phases, takes, paused in [((1, -2), True, False), ((), True, True),
                                  ((1, -2), False, True)]:
        log: list = []
        engine = _yielding([("a", "sat", 0.4, 0, 0.1), ("b", "unknown", 0.3, 60, None)], log)
        engine.members[0].takes_phases = takes
        out = engine.solve(pigeonhole(2), phases=phases, deadline=Deadline.after(30))
        assert out.note == "answered by a"
        assert (("a", "pause") in {x[:2] for x in log}) is paused, (phases, takes)


def test_a_paused_member_is_stopped_when_another_answers() -> None:
    log: list = []
    t0 = time.monotonic()
    out = _yielding([("a", "sat", 60, 0, 0.1), ("b", "sat", 0.3, 60, None)],
                    log).solve(pigeonhole(2))
    assert out.note == "answered by b" and time.monotonic() - t0 < 5
    assert ("a", "resume") not in {x[:2] for x in log}


def _php(holes: int) -> CNF:
    """Pigeons holes+1 into ``holes`` holes: unsatisfiable, and slow for CDCL from 9 holes."""
    var = {(p, h): p * holes + h + 1 for p in range(holes + 1) for h in range(holes)}
    clauses = [[var[p, h] for h in range(holes)] for p in range(holes + 1)]
    clauses += [[-var[p, h], -var[q, h]] for h in range(holes)
                for p in range(holes + 1) for q in range(p + 1, holes + 1)]
    return CNF(len(var), len(clauses), clauses)


def test_a_paused_minisat_uses_no_cpu_and_resumes() -> None:
    """In this process: interrupted, it waits; resumed, it solves on to the right answer."""
    run = get_backend("minisat22").start(_php(8))
    box: list = []
    worker = threading.Thread(target=lambda: box.append(run.result()), daemon=True)
    worker.start()
    try:
        end = time.monotonic() + 10
        while not run.pause() and worker.is_alive() and time.monotonic() < end:
            time.sleep(0.001)  # until it searches
        assert run.paused
        time.sleep(0.05)  # the interrupt takes effect
        cpu = time.process_time()
        time.sleep(0.3)
        assert time.process_time() - cpu < 0.05 and worker.is_alive()
        run.resume()
        worker.join(60)
        assert box and box[0].status == "unsat"
    finally:
        run.stop()
        worker.join(10)


def _state(pid: int) -> str:
    """A process's state letter (T: stopped by a signal)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_processes_are_paused_by_sigstop(tmp_path: Path) -> None:
    """A forked child, and an outside solver with what it started (its process group)."""
    from satdomino.process.child import descendants

    spinner = _script(tmp_path, "spin", "sh -c 'while :; do :; done' & while :; do :; done")
    before = set(descendants(os.getpid()))

    def forked() -> tuple[Run, Callable[[], set[int]]]:  # forked here, in the main thread
        run = ForkedRun(time.sleep, (60,))
        return run, lambda: set(descendants(os.getpid())) - before

    def outside() -> tuple[Run, Callable[[], set[int]]]:  # started from the run's thread
        def group() -> set[int]:
            pid_file = tmp_path / "spin.pid"
            if not pid_file.exists() or not pid_file.read_text().strip():
                return set()
            pid = int(pid_file.read_text())
            return {pid, *descendants(pid)} if Path(f"/proc/{pid}").exists() else set()

        return get_backend(spinner).start(CNF(1, 1, [[1]])), group

    for make in (forked, outside):
        run, processes = make()
        worker = threading.Thread(target=run.result, daemon=True)
        worker.start()
        end = time.monotonic() + 10
        while len(processes()) < (1 if make is forked else 2) and time.monotonic() < end:
            time.sleep(0.01)
        pids = processes()
        while not run.pause() and time.monotonic() < end:  # until it waits for its solver
            time.sleep(0.01)
        assert pids and run.paused
        time.sleep(0.1)
        assert {_state(p) for p in pids} == {"T"}
        run.resume()
        time.sleep(0.1)
        assert "T" not in {_state(p) for p in pids}
        assert run.pause()  # stopped while paused: killed all the same
        run.stop()
        worker.join(10)
        assert not worker.is_alive()
        end = time.monotonic() + 5  # killed, and reaped in the background
        while any(_alive(p) for p in pids) and time.monotonic() < end:
            time.sleep(0.01)
        assert not any(_alive(p) for p in pids), make.__name__


def _alive(pid: int) -> bool:
    try:
        return _state(pid) != "Z"
    except OSError:
        return False


def test_yielding_members_are_written_name_at_start_dot_dot_yield() -> None:
    engine = get_backend("portfolio:minisat22@..0.08+glucose4@0.02+cadical195@0.01..10")
    assert engine.name == "portfolio:minisat22@..0.08+glucose4@0.02+cadical195@0.01..10"
    assert engine.delays == [0, 0.02, 0.01]  # type: ignore[attr-defined]
    assert engine.yields == [0.08, None, 10]  # type: ignore[attr-defined]
    for spec, message in [("minisat22@0.5..0.1", "after it starts"),
                          ("minisat22@..1e9", "0 to 86400 seconds, not 1e9")]:
        with pytest.raises(SatDominoError, match=message):
            get_backend(f"portfolio:{spec}+glucose4")
    with pytest.raises(SatDominoError, match="unknown backend"):
        get_backend("portfolio:minisat22@..soon+glucose4")


def test_portfolios_with_yielding_members_match_brute_force() -> None:
    """MiniSat yields at once to a member that never answers and goes on when another gives
    up, so every answer is a resumed MiniSat's; and real solvers racing after a yield."""
    from satdomino.backends.portfolio import PortfolioBackend

    for board, truth in zip(BOARDS[:10], TRUTH[:10], strict=True):
        log: list = []
        engine = PortfolioBackend(
            [get_backend("minisat22"), _Worker("quits", "unknown", 0.05, log),
             _Worker("never", "sat", 60, log)], [0, 0, 10], [0.001, None, None])
        out = solve(board, family("dominosa"), backend=engine, unique=True)
        if out.status == "sat":
            assert D.verify(board, out.solution) == []
        check(board, truth, backend=engine)
        check(board, truth, backend="portfolio:glucose4@..0.001+cadical195@5+minisat22@5")


def test_a_resumed_minisat_answers_right() -> None:
    """MiniSat yields at once to a member that never answers, and answers once the other
    gives up, after its pause: the unsatisfiable pigeonhole problem, proved by a resumed
    solver."""
    from satdomino.backends.portfolio import PortfolioBackend

    log: list = []
    engine = PortfolioBackend(
        [get_backend("minisat22"), _Worker("quits", "unknown", 0.2, log),
         _Worker("never", "sat", 60, log)], [0, 0, 10], [0.001, None, None])
    # 8 holes: MiniSat's tenths of a second outlast its yield timer even on a loaded
    # machine, where 7 holes' hundredths sometimes did not
    out = engine.solve(_php(8), deadline=Deadline.after(30))  # a resume that never comes: unknown
    assert out.status == "unsat" and out.note == "answered by minisat22"
    assert ("never", "start") in {x[:2] for x in log}  # MiniSat's core went to it


def _race_on_a_slow_lowering(monkeypatch, delay: float):
    """A race of a member that reads the model (60 s of search) and one, ``delay`` s late,
    that reads the CNF, whose lowering is 30 s of Python looking at no clock and no flag;
    (the race, its formula, the event set when lowering starts, the members started)."""
    import satdomino.backends.base as base
    from satdomino.backends.portfolio import PortfolioBackend
    from satdomino.model import Model

    lowering = threading.Event()

    def slow_lowering(model, encodings):
        lowering.set()
        t = time.monotonic()
        while time.monotonic() - t < 30:
            time.sleep(0.001)
        return CNF(model.num_vars, model.num_vars)

    monkeypatch.setattr(base, "lower", slow_lowering)
    started: dict = {}
    reader = _Timed("reader", "sat", 60, started)
    reader.takes = "model"
    race = PortfolioBackend([reader, _Timed("late", "sat", 0, started)], [0, delay])
    m = Model("two")
    m.exactly_one(m.new_vars([("x", 0), ("x", 1)]), "one")
    return race, race.formula(m, Encodings()), lowering, started


@pytest.mark.parametrize("delay", [0.05, 0.0])
def test_a_stop_cuts_short_the_cnf_a_member_is_lowering(monkeypatch, delay: float) -> None:
    """The CNF a member reads is lowered when it starts, in Python, a late one's while the
    others search: the time limit stops that too (it once ran to its end first: minutes at
    2,000 Doodle Fit cells, and seconds at 200x200 Domino Fit with no delay)."""
    race, formula, lowering, started = _race_on_a_slow_lowering(monkeypatch, delay)
    t0 = time.monotonic()
    out = race.solve(formula, deadline=Deadline.after(0.5))
    assert lowering.is_set() and "late" not in started
    assert out.status == "unknown" and time.monotonic() - t0 < 20  # not the 60 s


def test_an_enclosing_deadline_is_not_taken_for_the_race_s_stop(monkeypatch) -> None:
    """A TimeUp from the caller's own deadline, landing while a member's CNF is lowered,
    leaves the race at once, as it did before lowering could be stopped."""
    from satdomino.clock import TimeUp

    race, formula, lowering, _ = _race_on_a_slow_lowering(monkeypatch, 0.05)
    t0 = time.monotonic()
    with pytest.raises(TimeUp), Deadline.after(0.5).interrupting():
        race.solve(formula)
    assert lowering.is_set() and time.monotonic() - t0 < 20  # not the reader's 60 s
