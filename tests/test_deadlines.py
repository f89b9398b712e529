"""Regression tests for the time-limit defects of a fuzz campaign (issue 37): one budget per
puzzle from before its input is read, building stopped by it with bounded memory, one rule for
combining exit statuses, and commands that go on after one puzzle fails. Each fails on the code
before its fix."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

import satdomino
import satdomino.cli.explain
import satdomino.cli.hint
import satdomino.cli.solve
from satdomino.analysis.drat import check_drat
from satdomino.analysis.explain import PAIRWISE_UP_TO, _lower_one
from satdomino.cli import main
from satdomino.cli.common import exit_status
from satdomino.clock import Deadline, TimeUp
from satdomino.inputs import load
from satdomino.model import AtMostOne, ExactlyOne
from satdomino.puzzles import FAMILIES, family

from .conftest import EXAMPLES, ROOT

DOUBLE6 = str(EXAMPLES / "dominosa" / "double6.txt")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err
    return code, cap.out, cap.err


def slow_reading(monkeypatch, kind: str, seconds: float) -> None:
    """The family ``kind`` takes ``seconds`` longer to parse (in small sleeps, so an alarm can
    stop it)."""
    fam = family(kind)

    def parse(text: str):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(0.001)
        return fam.parse(text)

    monkeypatch.setitem(FAMILIES, kind, dataclasses.replace(fam, parse=parse))


def cli(*argv: str, timeout: float = 120) -> tuple[subprocess.CompletedProcess, float, int]:
    """The command in a fresh interpreter: (what it did, seconds, its peak memory in MB: the
    high-water mark of its own memory, not ru_maxrss, which keeps the parent's at the fork)."""
    code = ("import sys; from satdomino.cli import main; code = main(sys.argv[1:]); "
            "print(next(int(line.split()[1]) // 1024 for line in open('/proc/self/status') "
            "if line.startswith('VmHWM')), file=sys.stderr); sys.exit(code)")
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                       timeout=timeout, cwd=ROOT)
    seconds = time.monotonic() - t0
    *said, peak = p.stderr.strip().splitlines()
    p.stderr = "\n".join(said)
    return p, seconds, int(peak)


# ---------------------------------------------------------- D4: a proof's far-away variables


def test_a_far_variable_in_a_proof_costs_no_memory() -> None:
    small = [[1, 2], [1, -2], [-1, 3], [-1, -3]]
    tracemalloc.start()
    try:
        out = check_drat(3, small, [(False, [-4_000_000]), (False, [])])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert not out.ok and "empty clause" in out.message
    assert peak < 10 * 2**20  # arrays for 8 million literals (1.3 GB in check-proof) before
    # new variables named anywhere (extended resolution) are checked as any others
    far = 4_000_000_000
    proof = [(False, [far, -1]), (False, [-far, 1]), (True, [7_000_000]), (True, [-1, far]),
             (False, [far, 5_000_000])]
    out = check_drat(2, [[1, 2]], proof)  # the last: its resolvent 5000000 | 1 is not RUP
    assert not out.ok and "lemma 3 (proof step 5)" in out.message
    assert "4000000000 5000000 0" in out.message  # shown in the proof's own names
    assert (out.lemmas, out.rat_lemmas, out.deletions, out.ignored_deletions) == (3, 2, 2, 1)


def test_check_proof_of_a_far_variable_is_quick(tmp_path, capsys) -> None:
    cnf = tmp_path / "u.cnf"
    code, _, _ = run(capsys, "export", str(EXAMPLES / "pips" / "planted-6-unique.json"), "-o",
                     str(cnf), "--uniqueness")
    assert code == 0
    proof = tmp_path / "p.drat"
    proof.write_text("-4000000 0\n")
    t0 = time.monotonic()
    code, out, _ = run(capsys, "check-proof", str(cnf), str(proof), "--timeout", "2",
                       "--no-drat-trim")
    assert code == 1 and "s NOT VERIFIED" in out
    assert time.monotonic() - t0 < 2 + 10  # 21 s before


def test_drat_trim_out_of_time_exits_3(tmp_path, capsys, monkeypatch) -> None:
    """drat-trim's time limit was 'error: ...', exit 2; the built-in checker's was 3."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "drat-trim"
    exe.write_text('#!/bin/sh\necho "s TIMEOUT"\n')
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    (tmp_path / "f.cnf").write_text("p cnf 1 2\n1 0\n-1 0\n")
    (tmp_path / "p.drat").write_text("0\n")
    code, out, err = run(capsys, "check-proof", str(tmp_path / "f.cnf"),
                         str(tmp_path / "p.drat"), "--timeout", "1")
    assert code == 3 and "ran out of time" in err and "s UNKNOWN" in err


# ------------------------------------------------------------------------- D18: Dask schedulers


def test_generate_on_an_unreachable_scheduler_gives_up_within_the_limit(capsys) -> None:
    pytest.importorskip("distributed")
    t0 = time.monotonic()
    code, _, err = run(capsys, "generate", "dominosa", "--n", "3", "--scheduler",
                       "tcp://127.0.0.1:1", "--timeout", "0.5")
    assert code == 2 and "cannot reach the Dask scheduler" in err
    assert len(err.strip().splitlines()) == 1
    assert time.monotonic() - t0 < 0.5 + 6  # Dask's own 10 s before


def test_compare_on_a_scheduler_without_dask_is_one_line(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    code, _, err = run(capsys, "compare", "dominosa:n=3", "--scheduler", "tcp://127.0.0.1:1",
                       "-o", str(tmp_path / "runs.csv"))
    assert code == 2 and len(err.strip().splitlines()) == 1 and "needs Dask" in err
    assert not Path(tmp_path / "runs.csv").exists() or \
        len(Path(tmp_path / "runs.csv").read_text().splitlines()) <= 1


# ------------------------------------------------------------------ D3: building under the limit


def test_explain_lowers_long_at_most_ones_in_linear_size() -> None:
    """A Doodle Fit cell with thousands of candidate placements was lowered pairwise for
    explain: millions of clauses per cell, gigabytes in all."""
    fam = family("doodlefit")
    puzzle, _ = fam.generator.planted({"cells": 120, "blocks": 15}, 1)
    m = fam.model(None)(dataclasses.replace(puzzle, rotate=True, reflect=True))
    ones = [c for c in m.constraints if isinstance(c, (ExactlyOne, AtMostOne))]
    assert max(len(c.lits) for c in ones) > 4 * PAIRWISE_UP_TO  # long ones are there
    for c in ones:
        assert len(_lower_one(m, c).clauses) <= 3 * len(c.lits) + PAIRWISE_UP_TO ** 2 // 2


@pytest.mark.parametrize("kind, params, command", [
    ("doodlefit", ["--cells", "300", "--blocks", "40"], ["explain", "--rotate", "--reflect",
                                                         "--timeout", "2"]),
    ("pips", ["--dominoes", "200"], ["hint", "--timeout", "1"]),
])
def test_explain_and_hint_stop_at_the_limit_with_bounded_memory(tmp_path, kind, params,
                                                                 command) -> None:
    puzzle = str(tmp_path / ("p.json" if kind == "pips" else "p.txt"))
    assert main(["generate", kind, *params, "--seed", "1", "-o", puzzle]) == 0
    p, seconds, peak = cli(command[0], puzzle, *command[1:])
    limit = float(command[-1])
    assert p.returncode == 3, p.stderr
    assert "stopped: time limit" in p.stdout or "no hint: time limit" in p.stdout
    assert seconds < limit + 10 and peak < 300  # Doodle Fit: 500 MB at 2 s here before


def test_explain_keeps_the_board_it_built_within_the_limit(tmp_path) -> None:
    """The numbered board came from the model built again after the time limit: a large
    puzzle took as long again (and its memory) after explain had stopped."""
    out = satdomino.read(DOUBLE6)[0].explain()
    assert out.board is not None and len(out.board[0]) == 56
    path = tmp_path / "big.txt"
    assert main(["generate", "doodlefit", "--cells", "1500", "--blocks", "200", "--seed", "1",
                 "-o", str(path)]) == 0
    p, seconds, _ = cli("explain", str(path), "--rotate", "--reflect", "--timeout", "1",
                        "--svg", str(tmp_path / "steps.svg"))
    assert p.returncode == 3 and "stopped: time limit" in p.stdout, p.stderr
    assert "no drawing (the time ran out before the board was built)" in p.stderr
    assert seconds < 1 + 10  # (the board's model alone took 10 s and 900 MB before)


# ------------------------------------------------------- D3, D11: one budget, reading included


@pytest.mark.parametrize("command, module, name", [
    ("solve", satdomino.cli.solve, "solve"),
    ("explain", satdomino.cli.explain, "explain"),
    ("hint", satdomino.cli.hint, "hint"),
])
def test_the_budget_of_a_puzzle_counts_its_reading(capsys, monkeypatch, command, module,
                                                   name) -> None:
    slow_reading(monkeypatch, "dominosa", 0.6)
    given: list[Deadline] = []
    work = getattr(module, name)

    def spy(*args, **kwargs):
        given.append(kwargs["deadline"].sooner(kwargs.get("timeout")))
        return work(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    run(capsys, command, DOUBLE6, "--timeout", "5")
    left = given[0].left()
    assert left is not None and left < 5 - 0.5  # the budget started before the reading


def test_item_deadline_shares_reading_among_parts(tmp_path) -> None:
    path = tmp_path / "two.jsonl"
    lines = (EXAMPLES / "dominosa" / "collection.jsonl").read_text().splitlines()[:2]
    path.write_text("\n".join(lines) + "\n")
    items = load([str(path)])
    assert len(items) == 2 and items[0].read_seconds == items[1].read_seconds > 0
    assert items[0].deadline(None).at is None
    left = items[0].deadline(10).left()
    assert left is not None and left <= 10 - items[0].read_seconds


# ------------------------------------------- D9, D10: time limits while reading, one exit rule


def test_hint_that_runs_out_of_time_reading_exits_3(tmp_path, capsys, monkeypatch) -> None:
    slow_reading(monkeypatch, "dominosa", 30)
    t0 = time.monotonic()
    code, out, err = run(capsys, "hint", DOUBLE6, "--timeout", "0.5")
    assert code == 3 and out.strip() == "no hint: time limit, while reading and parsing"
    assert time.monotonic() - t0 < 0.5 + 10  # (exit 2, "error: time limit" before)
    code, out, _ = run(capsys, "hint", DOUBLE6, "--timeout", "0.5", "--json")
    assert code == 3 and '"reason": "time limit, while reading and parsing"' in out


@pytest.mark.parametrize("command", ["solve", "explain"])
def test_bad_input_wins_over_a_time_limit(tmp_path, capsys, monkeypatch, command) -> None:
    slow_reading(monkeypatch, "dominosa", 30)
    bad = tmp_path / "bad.json"
    bad.write_text('{"dominoes": "none"}\n')
    code, _, err = run(capsys, command, str(bad), DOUBLE6, "--timeout", "0.5")
    assert code == 2 and "time limit, while reading" in err  # 3 for explain before
    code, _, _ = run(capsys, command, DOUBLE6, str(bad), "--timeout", "0.5")
    assert code == 2


def test_exit_status_rule() -> None:
    assert exit_status([]) == 0 and exit_status([0, 1]) == 1 and exit_status([1, 3]) == 3
    assert exit_status([3, 2, 1]) == 2 and exit_status([2, 4, 3]) == 4


def test_explain_goes_on_after_a_layout_fails_the_rule_checker(capsys, monkeypatch) -> None:
    fam = family("dominosa")
    monkeypatch.setitem(FAMILIES, "dominosa",
                        dataclasses.replace(fam, verify=lambda puzzle, solution: ["planted"]))
    pips = str(EXAMPLES / "pips" / "planted-6-unique.json")
    code, out, err = run(capsys, "explain", DOUBLE6, pips, DOUBLE6, "--json")
    assert code == 4
    assert err.count("internal error") == 2  # both Dominosa ones (the first only, before)
    assert '"kind": "pips"' in out and '"complete": true' in out


@pytest.mark.parametrize("output", ["out.cnf", "out.opb"])
def test_export_stops_building_at_its_limit_and_writes_nothing(capsys, tmp_path, monkeypatch,
                                                               output) -> None:
    # found by the fuzz campaign: a 200-domino Pips export ran 68 s past --timeout 0.5
    fam = family("dominosa")

    def slow(puzzle):  # a model whose building is a long Python loop
        while True:
            time.sleep(0.001)

    monkeypatch.setitem(fam.models, "placement", slow)
    t0 = time.monotonic()
    code, _, err = run(capsys, "export", str(EXAMPLES / "dominosa" / "double6.txt"), "-o",
                       str(tmp_path / output), "--timeout", "0.3")
    assert code == 3 and "nothing written" in err and err.count("\n") == 1, err
    assert time.monotonic() - t0 < 10  # not stopped: never returns
    assert list(tmp_path.iterdir()) == []


def test_reading_the_instance_back_for_its_proof_is_within_the_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """export --proof reads the written instance again; on a 200-domino Pips board that took
    2 s past a 2 s limit. A reading that never ends is stopped at the deadline."""
    import satdomino.cli.export as export

    def endless(path):  # Python work that looks at no clock, as parsing does
        while True:
            pass

    monkeypatch.setattr(export, "read_dimacs", endless)
    cnf = tmp_path / "i.cnf"
    cnf.write_text("p cnf 1 1\n1 0\n")
    t0 = time.monotonic()
    code, record = export.write_proof(str(cnf), str(tmp_path / "p.drat"), "auto",
                                      Deadline.after(0.3))
    assert (code, record) == (3, None) and not (tmp_path / "p.drat").exists()
    assert time.monotonic() - t0 < 30  # stopped, not run on (a wide margin for load)


def test_an_interruptible_block_is_stopped_once_by_its_function_and_only_inside() -> None:
    from satdomino.clock import interruptible

    got: list[str] = []
    ready, rung = threading.Event(), threading.Event()

    def work() -> None:
        try:
            with interruptible() as interrupt:
                box.append(interrupt)
                ready.set()
                t = time.monotonic()
                while time.monotonic() - t < 30:  # Python work that looks at no flag
                    time.sleep(0.001)
            got.append("ran to its end")
        except TimeUp:
            got.append("stopped")
            t = time.monotonic()
            while time.monotonic() - t < 0.2:  # where a second ring would land
                time.sleep(0.001)
        rung.wait()
        with interruptible():  # a new block: the old function rings nothing here
            time.sleep(0.05)
        got.append("after")

    box: list = []
    thread = threading.Thread(target=work)
    thread.start()
    assert ready.wait(10)
    box[0]()
    t = time.monotonic()
    while not got and time.monotonic() - t < 10:
        time.sleep(0.001)
    box[0]()  # a second stop, while the first one's TimeUp is handled: nothing
    time.sleep(0.3)
    box[0]()  # again, after its block ended: nothing
    rung.set()
    thread.join(30)
    assert got == ["stopped", "after"]


def test_a_large_cnf_discarded_is_freed_apart_and_then_the_next_waits_no_more() -> None:
    from satdomino.encode import CNF
    from satdomino.encode.registry import FREE_APART, when_freed

    cnf = CNF(3, 3, [[1, -2, 3] for _ in range(FREE_APART + 1)])
    freed = threading.Event()
    cnf.discard()
    when_freed(freed.set)
    assert cnf.clauses == [] and freed.wait(30)
    called: list[int] = []
    when_freed(lambda: called.append(1))  # nothing left to free: at once
    assert called == [1]


def test_a_child_forked_while_clauses_are_freed_waits_for_no_free() -> None:
    import os

    from satdomino.encode import CNF
    from satdomino.encode.registry import FREE_APART, when_freed

    cnf = CNF(3, 3, [[1, -2, 3] for _ in range(4 * FREE_APART)])
    cnf.discard()
    pid = os.fork()
    if pid == 0:  # the thread freeing them is the parent's alone
        called: list[int] = []
        when_freed(lambda: called.append(1))
        os._exit(0 if called == [1] else 1)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def test_a_free_that_cannot_start_a_thread_keeps_no_one_waiting(monkeypatch) -> None:
    import satdomino.encode.registry as registry
    from satdomino.encode import CNF

    def no_thread(thread: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    idle = threading.Event()
    registry.when_freed(idle.set)  # what earlier tests gave up is freed first
    assert idle.wait(60)
    monkeypatch.setattr(registry, "start", no_thread)
    with pytest.raises(RuntimeError):
        CNF(1, 1, [[1]] * (registry.FREE_APART + 1)).discard()
    called: list[int] = []
    registry.when_freed(lambda: called.append(1))
    assert called == [1]

