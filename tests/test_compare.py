"""satdomino compare: isolated runs, limits, resumable CSV, summaries, plots, executors."""

from __future__ import annotations

import csv
import ctypes
import io
import json
import os
import platform
import signal
import time
from pathlib import Path

import pytest

from satdomino.backends import external
from satdomino.cli import main
from satdomino.compare import runner, summary
from satdomino.compare.sweep import (
    Progress,
    _values,
    done_keys,
    generated,
    puzzles,
    read_rows,
    run_local,
    sweep,
    tasks,
)
from satdomino.encode import Encodings
from satdomino.errors import UsageError

from .conftest import EXAMPLES

DEFAULTS = {k: [v] for k, v in Encodings().as_dict().items()}
TIMING = ("encode_seconds", "solve_seconds", "wall_seconds", "peak_mb")


def _tasks(specs: list[str], **kw) -> list[runner.Task]:
    args = {"models": [None], "encodings": DEFAULTS, "backends": ["cadical195"], "seeds": 1,
            "timeout": 30.0, "memory_mb": None}
    args.update(kw)
    return tasks(puzzles(specs), **args)


def test_generator_specs() -> None:
    assert _values("n", "40..60/10") == [40, 50, 60]
    assert _values("n", "3,5..6,3") == [3, 5, 6]
    assert [it.parameters["seed"] for it in generated("dominosa:n=3:seeds=3..3")] == [3]
    assert [it.parameters["seed"] for it in generated("dominosa:n=3:seeds=2")] == [1, 2]
    with pytest.raises(Exception, match="1 <= K <= 10000"):
        generated("dominosa:n=5:seeds=1000000000000")
    with pytest.raises(Exception, match="more than 10000 values"):
        generated("dominosa:n=5..999999999999")
    items = generated("dominosa:n=4..5:seeds=3")
    assert [it.label for it in items][:2] == ["dominosa:n=4:seed=1", "dominosa:n=4:seed=2"]
    assert len(items) == 6 and all(it.planted for it in items)
    assert items[4].parameters == {"n": 5, "seed": 2, "unique": False}
    with pytest.raises(Exception, match="unknown parameter 'm'"):
        generated("dominosa:m=4")
    with pytest.raises(Exception, match="bad value"):
        generated("dominosa:n=x")
    # said in the spec's words, not the command line's; a parameter given twice is refused
    with pytest.raises(UsageError, match=r"^dominosa:: needs n= between"):
        generated("dominosa:")
    with pytest.raises(UsageError, match="max_pip= must be between"):
        generated("pips:dominoes=3:max_pip=-1")
    with pytest.raises(UsageError, match="n= given twice"):
        generated("dominosa:n=4:n=5")


def test_sweep_rows_are_verified_and_complete(tmp_path) -> None:
    todo = _tasks(["dominosa:n=6:seeds=2", "pips:dominoes=6:seeds=1",
                   str(EXAMPLES / "dominofit" / "published-7x7.json")],
                  encodings={**DEFAULTS, "amo": ["pairwise", "ladder"]},
                  backends=["cadical195", "minisat22"], seeds=2)
    assert len(todo) == 4 * 2 * 2 * 2
    out = tmp_path / "r.csv"
    assert sweep(todo, out, jobs=2) == len(todo)
    rows = read_rows(out)
    assert len(rows) == len(todo) and list(rows[0]) == runner.COLUMNS
    assert {r["status"] for r in rows} == {"sat"} and {r["verified"] for r in rows} == {"yes"}
    assert not any(r["bug"] for r in rows)
    for r in rows:
        assert int(r["variables"]) > 0 and int(r["clauses"]) > 0 and len(r["instance_hash"]) == 32
        assert float(r["peak_mb"]) > 0
        # timed from the run's own start, not from when the sweep read its first message
        # (which can come after the run has ended: 19 of 96 rows were below their own parts)
        assert float(r["wall_seconds"]) >= float(r["encode_seconds"]) + float(r["solve_seconds"])
    # seed 0 is the CNF as built, another seed the same CNF shuffled: a different hash
    by_seed = {r["seed"]: r["instance_hash"] for r in rows
               if r["puzzle"] == "dominosa:n=6:seed=1" and r["amo"] == "pairwise"
               and r["backend"] == "minisat22"}
    assert len(set(by_seed.values())) == 2


def test_shuffled_cnf_is_the_same_formula() -> None:
    from satdomino.backends import get_backend
    from satdomino.encode import lower
    from satdomino.puzzles import dominosa as D

    board, _ = D.planted(5, 3)
    cnf = lower(D.build_placement(board), Encodings())
    mixed, back = runner.shuffled(cnf, 7)
    assert sorted(map(sorted, ([back[abs(x)] * (1 if x > 0 else -1) for x in c]
                               for c in mixed.clauses))) == sorted(map(sorted, cnf.clauses))
    assert get_backend("minisat22").solve(mixed).status == "sat"


def test_resume_runs_only_what_is_missing(tmp_path) -> None:
    todo = _tasks(["dominosa:n=5:seeds=3"], backends=["cadical195", "glucose4"])
    out = tmp_path / "r.csv"
    sweep(todo, out, jobs=2)
    lines = out.read_text().splitlines(keepends=True)
    # an interrupted sweep: two rows missing and the last one cut short by a hard kill,
    # after its key columns (it must run again all the same)
    out.write_text("".join(lines[:-3]) + lines[-3][:lines[-3].index(",sat,") + 3])
    assert sweep(todo, out, jobs=1) == 3
    rows = read_rows(out)
    assert len(rows) == len(todo) and len(done_keys(out)) == len(todo)
    assert sweep(todo, out, jobs=1) == 0  # nothing left: nothing runs


def test_time_limit_kills_the_run(tmp_path) -> None:
    todo = _tasks(["dominosa:n=60:seeds=1"], timeout=1.0)
    t0 = time.monotonic()
    rows = list(run_local(todo, jobs=1))
    assert time.monotonic() - t0 < 10
    (row,) = rows
    assert row["status"] == "timeout" and "killed" in row["note"]
    assert int(row["variables"]) > 20000  # known before the kill
    assert summary.runtime(row) == 2.0  # PAR-2 counts twice the limit


def test_memory_limit_is_recorded(tmp_path) -> None:
    (row,) = list(run_local(_tasks(["dominosa:n=80:seeds=1"], memory_mb=16), jobs=1))
    assert row["status"] == "memout"  # 16 MB above the interpreter: too little for N = 80


def test_a_fresh_interpreter_starts_outside_the_runs_time() -> None:
    # under --memory each run starts a new interpreter (about 0.12 s): not the run's time
    (row,) = list(run_local(_tasks(["dominosa:n=4:seeds=1"], memory_mb=500, timeout=0.1),
                            jobs=1))
    assert row["status"] == "sat" and float(row["wall_seconds"]) < 0.1, row


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc's heap")
def test_memory_limit_does_not_count_the_heap_the_sweep_freed() -> None:
    # 64 MB freed but kept by malloc (the last block pins the heap's top), as after a solve in
    # this process: a forked run could use it without growing, unseen by its address-space limit
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    blocks = [libc.malloc(64 * 1024) for _ in range(1000)]  # under mmap's threshold: the heap
    try:
        for block in blocks[:-1]:
            libc.free(block)
        (row,) = list(run_local(_tasks(["dominosa:n=80:seeds=1"], memory_mb=16), jobs=1))
    finally:
        libc.free(blocks[-1])
    assert row["status"] == "memout", row


def _solver(tmp_path, name: str, body: str) -> str:
    """The backend name of an outside 'solver': a shell script running ``body``."""
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\n{body}\n")
    path.chmod(0o755)
    return f"external:{path}"


def _hog(tmp_path, mb: int, then: str) -> str:
    """An outside 'solver' (a Python of its own) that holds ``mb`` MB resident, then runs
    ``then`` (Python)."""
    code = f"x = bytearray({mb} << 20); x[::4096] = bytes(len(x[::4096])); {then}"
    return _solver(tmp_path, "hog", f'exec python3 -c "{code}"')


@pytest.mark.skipif(external.gnu_time() is None or not external._DIE_WITH_PARENT,
                    reason="needs GNU time and setpriv")
@pytest.mark.parametrize("how", ["ended", "killed", "lost", "lost inside by-size"])
def test_an_outside_solvers_peak_is_its_own(tmp_path, how: str) -> None:
    # the sweep holding 300 MB must not show in the solver's peak: exec carries the forking
    # process's peak into the solver's ru_maxrss, which read 330 MB for a 7 MB CryptoMiniSat;
    # killed at the time limit, or stopped as a portfolio's loser, it was not counted at all
    ballast = bytearray(300 * 2**20)
    ballast[::4096] = b"x" * len(ballast[::4096])  # resident, not just reserved
    hog = _hog(tmp_path, 60, "print('s UNKNOWN')" if how == "ended"
               else "import time; time.sleep(60)")
    if how.startswith("lost"):
        winner = _solver(tmp_path, "winner", "sleep 1\necho 's UNSATISFIABLE'")
        hog = f"portfolio:{hog}+{winner}"
        if how != "lost":  # every formula has a variable or more: the portfolio's side
            hog = f"by-size:1:minisat22|{hog}"
    (row,) = list(run_local(_tasks(["dominosa:n=4:seeds=1"], backends=[hog],
                                   timeout=10.0 if how.startswith("lost") else 2.0), jobs=1))
    note = (f"answered by external:{tmp_path / 'winner'}" if how.startswith("lost")
            else {"ended": "solver said UNKNOWN", "killed": "killed at the time limit"}[how])
    assert row["note"] == note, row
    assert 60 < row["peak_mb"] < 100, row["peak_mb"]  # 60 MB and an interpreter
    del ballast


@pytest.mark.skipif(external.gnu_time() is None or not external._DIE_WITH_PARENT,
                    reason="needs GNU time and setpriv")
def test_a_solver_killed_by_a_signal_reads_the_same_under_gnu_time(tmp_path) -> None:
    segv = _solver(tmp_path, "segv", "kill -SEGV $$")
    (row,) = list(run_local(_tasks(["dominosa:n=4:seeds=1"], backends=[segv]), jobs=1))
    assert row["status"] == "error" and "(exit -11)" in row["note"], row  # not 139 (128 + 11)


def test_a_run_killed_before_it_said_its_size_has_no_peak(monkeypatch) -> None:
    # what it started with unknown: its peak above that is too (it read as the whole sweep)
    monkeypatch.setattr(runner, "_statm", lambda: time.sleep(30))  # the forked run stalls
    t0 = time.monotonic()
    (row,) = list(run_local(_tasks(["dominosa:n=4:seeds=1"], timeout=0.5), jobs=1))
    assert row["status"] == "timeout" and row["peak_mb"] == "", row
    assert time.monotonic() - t0 < 0.5 + runner.START_GRACE + 10  # its limit, not the 30 s stall


def test_nothing_a_run_started_outlives_it(tmp_path) -> None:
    # a process left in the run's group, as an outside solver would be whose parent died
    # before the solver asked to die with it (GNU time stands between them in compare's runs)
    left = tmp_path / "left.pid"
    leaves = _solver(tmp_path, "leaves", f"(sleep 60 & echo $! > {left})\necho 's UNKNOWN'")
    (row,) = list(run_local(_tasks(["dominosa:n=4:seeds=1"], backends=[leaves]), jobs=1))
    assert row["note"] == "solver said UNKNOWN", row
    pid = int(left.read_text())
    end = time.monotonic() + 5
    while time.monotonic() < end and _running(pid):
        time.sleep(0.05)
    assert not _running(pid)


def _running(pid: int) -> bool:
    """Not ended (an ended process may wait as a zombie for whoever adopted it to reap it)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    except OSError:
        return False


def test_crash_and_error_are_recorded_and_the_sweep_goes_on(monkeypatch) -> None:
    todo = _tasks(["dominosa:n=4:seeds=2"])
    real = runner.execute

    def flaky(task, report=lambda row: None):
        if task.puzzle.endswith("seed=1"):
            os.kill(os.getpid(), signal.SIGSEGV)  # the solver dies
        return real(task, report)

    monkeypatch.setattr(runner, "execute", flaky)
    rows = sorted(run_local(todo, jobs=2), key=lambda r: r["puzzle"])
    assert rows[0]["status"] == "crash" and "signal 11" in rows[0]["note"]
    assert rows[1]["status"] == "sat"
    monkeypatch.undo()
    (row,) = list(run_local(_tasks(["dominosa:n=4:seeds=1"], backends=["external:false"]), 1))
    assert row["status"] == "error" and "false" in row["note"]


def test_wrong_answers_are_bugs(monkeypatch, tmp_path, capsys) -> None:
    def liar(task, report=lambda row: None):
        return {"status": "unsat", "verified": "", "note": ""}

    monkeypatch.setattr(runner, "execute", liar)
    (row,) = list(run_local(_tasks(["dominosa:n=4:seeds=1"]), jobs=1))
    assert row["bug"] == "UNSAT on a planted (solvable) puzzle" and not summary.solved(row)
    code = main(["compare", "dominosa:n=4:seeds=1", "-o", str(tmp_path / "r.csv"),
                 "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 4 and "BUG dominosa:n=4:seed=1" in out


def _row(config: str, status: str, wall: float, timeout: float = 10.0) -> dict:
    row = dict.fromkeys(runner.COLUMNS, "")
    row.update(model="placement", amo="seqcounter", card="totalizer", pb="best", int="direct",
               backend=config, status=status, wall_seconds=str(wall), solve_seconds=str(wall),
               timeout=str(timeout), puzzle=f"p{wall}", seed="0")
    return row


def test_par2_and_medians() -> None:
    rows = [_row("a", "sat", 1.0), _row("a", "timeout", 10.0), _row("a", "unsat", 3.0),
            _row("b", "sat", 2.0), _row("b", "crash", 0.1), _row("b", "timeout", 10.0)]
    lines = {ln.config: ln for ln in summary.summarise(rows)}
    assert lines["a"].solved == 2 and lines["a"].par2 == pytest.approx((1 + 20 + 3) / 3)
    assert lines["a"].median == 3.0
    assert lines["b"].solved == 1 and lines["b"].par2 == pytest.approx((2 + 20 + 20) / 3)
    assert lines["b"].median == float("inf") and lines["b"].failures == 1
    text = summary.table(rows)
    firsts = [line.split()[0] for line in text.splitlines()[2:4]]
    assert "PAR-2" in text and firsts == ["a", "b"]  # more solved first


def test_plots_are_written(tmp_path) -> None:
    rows = [_row(c, "sat" if i % 3 else "timeout", 0.1 * (i + 1)) for c in ("a", "b")
            for i in range(6)]
    summary.cactus(rows, tmp_path / "c.svg")
    summary.scatter(rows, tmp_path / "s.png")
    assert "<svg" in (tmp_path / "c.svg").read_text()
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    with pytest.raises(Exception, match=".svg, .png or .pdf"):
        summary.cactus(rows, tmp_path / "c.txt")


def test_progress_bar_only_on_a_terminal(monkeypatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    p = Progress(2, enabled=True)
    p.update({"status": "sat"})
    p.update({"status": "timeout"})
    assert "2/2 runs, 1 unsolved, ETA" in err.getvalue()
    quiet = io.StringIO()
    monkeypatch.setattr("sys.stderr", quiet)
    Progress(1).update({"status": "sat"})  # StringIO is not a terminal
    assert quiet.getvalue() == ""


def test_cli_compare(tmp_path, capsys) -> None:
    out = tmp_path / "r.csv"
    args = ["compare", "dominosa:n=5:seeds=2", str(EXAMPLES / "pips" / "planted-10.json"),
            "--amo", "seqcounter,commander", "--model", "placement,counted", "-o", str(out),
            "--plot", str(tmp_path / "c.svg"), "--scatter", str(tmp_path / "s.svg"),
            "--jobs", "2"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "10 runs of this sweep (10 run now, 0 from before)" in text  # counted: Dominosa only
    assert "PAR-2" in text and (tmp_path / "c.svg").exists() and (tmp_path / "s.svg").exists()
    assert main(args) == 0
    assert "(0 run now, 10 from before)" in capsys.readouterr().out
    with out.open() as f:
        assert {r["model"] for r in csv.DictReader(f)} == {"placement", "counted"}


@pytest.mark.parametrize("extra, message", [
    (["--amo", "nosuch"], "unknown amo encoding"),
    (["--model", "nosuch"], "belongs to none"),
    (["--backend", "nosuch"], "unknown backend"),
    (["--timeout", "0"], "--timeout"),
    (["--amo", ","], "at least one"),
    (["--scheduler", "bogus"], "scheduler"),
    (["--scatter", "s.svg"], "two configurations"),
    (["--plot", "p.txt"], ".svg, .png or .pdf"),
    (["--memory", "10000000000000"], "--memory"),
])
def test_cli_compare_errors(tmp_path, capsys, extra, message, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["compare", "dominosa:n=3", "-o", str(tmp_path / "r.csv"), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_compare_refuses_a_foreign_csv(tmp_path, capsys) -> None:
    out = tmp_path / "r.csv"
    out.write_text("a,b\n1,2\n")
    assert main(["compare", "dominosa:n=3", "-o", str(out)]) == 2
    assert "not a satdomino compare results file" in capsys.readouterr().err
    assert out.read_text() == "a,b\n1,2\n"


def test_dask_gives_the_same_rows(tmp_path) -> None:
    distributed = pytest.importorskip("distributed")
    todo = _tasks(["dominosa:n=5:seeds=2", "doodlefit:cells=12:blocks=3:seeds=1"],
                  backends=["cadical195", "minisat22"])
    local, remote = tmp_path / "local.csv", tmp_path / "dask.csv"
    sweep(todo, local, jobs=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        sweep(todo, remote, scheduler=cluster.scheduler_address)

    def comparable(path):
        return sorted(json.dumps({k: v for k, v in r.items() if k not in TIMING},
                                 sort_keys=True) for r in read_rows(path))

    assert comparable(local) == comparable(remote)


def test_cli_compare_readings_of_the_rules(tmp_path, capsys) -> None:
    src = str(EXAMPLES / "doodlefit" / "pentominoes-6x10.txt")
    out = tmp_path / "r.csv"
    assert main(["compare", src, "-o", str(out), "--jobs", "1"]) == 0
    assert main(["compare", src, "--rotate", "--reflect", "-o", str(out), "--jobs", "1"]) == 0
    rows = {r["puzzle"].rsplit("/", 1)[-1]: r for r in read_rows(out)}
    assert set(rows) == {"pentominoes-6x10.txt", "pentominoes-6x10.txt (rotate, reflect)"}
    assert all(r["status"] == "sat" and r["verified"] == "yes" for r in rows.values())


def test_solver_aliases_run_once_under_the_solvers_name() -> None:
    todo = _tasks(["dominosa:n=3:seeds=1"], backends=["glucose3", "g3", "glucose30"])
    assert [t.backend for t in todo] == ["glucose3"]


def test_a_sweep_holds_each_run_once_and_limits_are_part_of_a_run(tmp_path) -> None:
    twice = _tasks(["dominosa:n=4:seeds=1", "dominosa:n=4:seeds=1"], backends=["cadical195"] * 2)
    assert len(twice) == 1
    out = tmp_path / "r.csv"
    assert sweep(_tasks(["dominosa:n=4:seeds=1"], timeout=5.0), out) == 1
    assert sweep(_tasks(["dominosa:n=4:seeds=1"], timeout=5.0), out) == 0
    assert sweep(_tasks(["dominosa:n=4:seeds=1"], timeout=9.0), out) == 1  # another limit


def test_summary_keeps_families_apart() -> None:
    rows = [_row("a", "sat", 1.0), _row("a", "sat", 2.0)]
    rows[1]["family"] = "pips"
    rows[0]["family"] = "dominosa"
    names = [ln.config for ln in summary.summarise(rows)]
    assert sorted(names) == ["dominosa", "pips"]


def test_impossible_combinations_are_refused_up_front() -> None:
    with pytest.raises(Exception, match="no native cardinality"):
        _tasks(["dominosa:n=4"], encodings={**DEFAULTS, "amo": ["native"]})
    with pytest.raises(Exception, match="at least one"):
        _tasks(["dominosa:n=4"], encodings={**DEFAULTS, "amo": []})
