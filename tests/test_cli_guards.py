"""What the CLI refuses or catches so that no wrong answer or damaged file reaches a user: a
solver that repeats an answer it was forbidden, an answer to another instance, an output that
would overwrite an input, a stop by SIGTERM, and messages that stay on one line."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satdomino.backends.dlx import dlx_built
from satdomino.cli import main
from satdomino.process.sigterm import _sigterm
from satdomino.puzzles import dominofit, doodlefit, family
from satdomino.puzzles import dominosa as D
from satdomino.solve import solve

from .conftest import EXAMPLES, need_binary

DOUBLE6 = str(EXAMPLES / "dominosa" / "double6.txt")  # a board with one solution


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def repeating_solver(tmp_path: Path) -> str:
    """An outside 'solver' that answers every instance with one fixed, correct answer to
    double6's first solve: right the first time, wrong (a forbidden repeat) after."""
    board = D.parse(Path(DOUBLE6).read_text())[0][1]
    out = solve(board, family("dominosa"), backend="minisat22")
    answer = tmp_path / "answer.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, sorted(out.assignment))) + " 0\n")
    script = tmp_path / "repeat.py"
    script.write_text(f"import sys\nsys.stdout.write(open({str(answer)!r}).read())\n"
                      "sys.exit(10)\n")
    return f"external:{sys.executable} {script}"


def test_a_repeated_answer_is_caught_not_counted_as_a_second_solution(capsys, tmp_path) -> None:
    backend = repeating_solver(tmp_path)
    code, out, err = run(capsys, "solve", DOUBLE6, "--backend", backend)
    assert code == 0 and ": solved" in out  # the first answer is right
    code, out, err = run(capsys, "solve", DOUBLE6, "--backend", backend, "--unique")
    assert code == 4 and "NOT unique" not in out
    assert "answered the first solution again" in err and len(err.splitlines()) == 1
    code, out, err = run(capsys, "solve", DOUBLE6, "--backend", backend, "--count",
                         "--timeout", "30")
    # the lie is caught (exit 4), or Ganak's count, raced beside the lying enumeration, wins
    # first with the right number; never the wrong count
    assert "count: 2" not in out
    assert (code == 4 and "already given" in err) or (code == 0 and "count: 1 " in out)


def test_decode_checks_the_answer_against_the_instance_it_names(capsys, tmp_path) -> None:
    plain, unique = str(tmp_path / "d6.cnf"), str(tmp_path / "d6u.cnf")
    assert run(capsys, "export", DOUBLE6, "-o", plain)[0] == 0
    assert run(capsys, "export", DOUBLE6, "-o", unique, "--uniqueness")[0] == 0
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=CNF(from_file=plain).clauses) as s:
        assert s.solve()
        model = s.get_model()
    answer = tmp_path / "d6.out"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
    code, out, _ = run(capsys, "decode", plain, str(answer))
    assert code == 0 and "sat (answer checked" in out
    # the only solution, offered to the instance that forbids it: not "a second solution"
    code, out, err = run(capsys, "decode", unique, str(answer))
    assert code == 4 and "not unique" not in out and "breaks the clause" in err
    # a map beside another instance than the one it describes
    os.replace(unique, plain)
    code, _, err = run(capsys, "decode", plain, str(answer))
    assert code == 2 and "hashes differ" in err
    code, _, err = run(capsys, "decode", str(tmp_path / "ghost.cnf"), str(answer))
    assert code == 2 and len(err.splitlines()) == 1


def test_decode_reads_an_answer_as_it_decodes_it_and_refuses_what_cannot_be_meant(
        capsys, tmp_path) -> None:
    unique = str(tmp_path / "d6u.cnf")
    assert run(capsys, "export", DOUBLE6, "-o", unique, "--uniqueness")[0] == 0
    board = D.parse(Path(DOUBLE6).read_text())[0][1]
    first = solve(board, family("dominosa"), backend="minisat22").assignment
    answers = {
        # only the true variables of the excluded solution: the rest read as false, that
        # assignment breaks the clause that excludes it (it was shown as a second solution)
        "partial": f"s SATISFIABLE\nv {' '.join(map(str, sorted(first)))} 0\n",
        "out of range": "s SATISFIABLE\nv 99999 0\n",
        "both values": "s SATISFIABLE\nv 5 -5 0\n",
        "no final 0": "s SATISFIABLE\nv 5 6\n",
        "two s lines": "s SATISFIABLE\ns UNSATISFIABLE\nv 5 0\n",
        "unknown": "s UNKNOWN\n",
        "unsat": "s UNSATISFIABLE\n",
    }
    results = {}
    for name, text in answers.items():
        path = tmp_path / f"{name.replace(' ', '_')}.out"
        path.write_text(text)
        results[name] = run(capsys, "decode", unique, str(path))
    code, out, err = results["partial"]
    assert code == 4 and "not unique" not in out and "read as false" in err
    for name in ("out of range", "both values", "no final 0", "two s lines"):
        code, out, err = results[name]
        assert code == 2 and out == "" and len(err.splitlines()) == 1, (name, err)
    code, out, _ = results["unknown"]
    assert code == 3 and "unknown" in out and "the only one" not in out
    code, out, _ = results["unsat"]
    assert code == 1 and "the only one" in out and "check-proof" in out  # a claim, said so
    # a compressed answer is read by its suffix, a missing one named
    with gzip.open(tmp_path / "a.out.gz", "wt") as f:
        f.write(answers["unsat"])
    assert run(capsys, "decode", unique, str(tmp_path / "a.out.gz"))[0] == 1
    code, _, err = run(capsys, "decode", unique, str(tmp_path / "none.out"))
    assert code == 2 and "none.out: no such file" in err


def test_outputs_never_overwrite_an_input_or_each_other(capsys, tmp_path) -> None:
    puzzle = tmp_path / "in.txt"
    puzzle.write_text(Path(DOUBLE6).read_text())
    named_cnf = tmp_path / "in.cnf"
    named_cnf.write_text(Path(DOUBLE6).read_text())
    cases = [
        (["solve", str(puzzle), "--svg", str(puzzle)], "an input"),
        (["export", str(named_cnf), "--kind", "dominosa", "-o", str(named_cnf)], "an input"),
        (["export", str(puzzle), "-o", str(tmp_path / "a.cnf"), "--uniqueness",
          "--proof", str(tmp_path / "a.cnf.map.json")], "the map"),
        (["export", str(puzzle), "-o", str(tmp_path / "b.cnf"), "--uniqueness",
          "--proof", str(tmp_path / "b.cnf")], "-o"),
    ]
    for argv, clash in cases:
        code, _, err = run(capsys, *argv)
        assert code == 2 and f"is also {clash}" in err and len(err.splitlines()) == 1, argv
    assert puzzle.read_text() == named_cnf.read_text() == Path(DOUBLE6).read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.cnf", "in.txt"]


@pytest.mark.parametrize("argv,words", [
    (["solve", DOUBLE6, "--backend", 'external:"unterminated'], "No closing quotation"),
    (["solve", DOUBLE6, "--backend", "portfolio:minisat22+external:'x"], "No closing quotation"),
    (["generate", "dominosa", "--n", "5", "--unique", "--timeout", "nan"], "--timeout"),
    (["generate", "dominosa", "--n", "5", "--unique", "--timeout", "inf"], "--timeout"),
    (["generate", "dominosa", "--n", "5", "--unique", "--timeout", "0"], "--timeout"),
    (["check-proof", DOUBLE6, str(EXAMPLES)], "not a file"),
    # found by the fuzzing of hint: open() refuses a null byte with ValueError, and pytest's
    # captured standard input refuses to be read with OSError
    (["hint", str(EXAMPLES / "dominofit" / "published-7x7.json"), "--given", "\0"],
     "a null byte in the name"),
    (["solve", "a\0b"], "a null byte in the name"),
    (["hint", str(EXAMPLES / "dominofit" / "published-7x7.json"), "--given", "-"],
     "standard input cannot be read"),
])
def test_bad_values_get_one_line_and_status_2(capsys, argv, words) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2 and words in err and len(err.splitlines()) == 1


def test_a_misspelt_unique_in_a_generator_spec_is_refused(capsys, tmp_path) -> None:
    code, _, err = run(capsys, "compare", "dominosa:n=4:seeds=1:unique=maybe", "--backend",
                       "minisat22", "-o", str(tmp_path / "runs.csv"))
    assert code == 2 and "unique= takes yes or no" in err and len(err.splitlines()) == 1


def test_names_from_files_cannot_break_a_message_into_lines(capsys, tmp_path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"name": "evil\nTraceback (most recent call last):",
                               "game_id": "6:zz"}) + "\n")
    code, _, err = run(capsys, "solve", str(bad))
    assert code == 2 and len(err.splitlines()) == 1 and "[evil\\nTraceback" in err


def test_a_results_file_is_not_started_when_the_scheduler_cannot_be_reached(capsys,
                                                                           tmp_path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "runs.csv"
    code, _, err = run(capsys, "compare", DOUBLE6, "--backend", "minisat22", "-o", str(out),
                       "--scheduler", "garbage")
    assert code == 2 and "Dask scheduler" in err and not out.exists()


@pytest.mark.parametrize("command", [["solve"], ["compare", "--jobs", "2", "-o", "runs.csv"]])
def test_sigterm_stops_like_ctrl_c_and_leaves_no_temporary_file(tmp_path, command) -> None:
    """`timeout` and service managers stop a program with SIGTERM (GNU timeout sends it twice:
    to the program, then to its process group): the outside solvers' temporary files must go,
    as they do on Ctrl-C."""
    need_binary("cadical")
    board = tmp_path / "b.txt"
    board.write_text(D.planted(100, 4)[0].game_id())  # minutes for CaDiCaL
    temp = tmp_path / "tmp"
    temp.mkdir()
    p = subprocess.Popen([sys.executable, "-m", "satdomino.cli", command[0], str(board),
                          "--backend", "external:cadical,external:cadical --sat"
                          if command[0] == "compare" else "external:cadical",
                          "--amo", "pairwise", *command[1:]],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env={**os.environ, "TMPDIR": str(temp)}, cwd=tmp_path)
    deadline = time.monotonic() + 90
    while not any(temp.iterdir()) and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.02)  # until a run has begun
    if not any(temp.iterdir()):  # say what the program did instead
        p.kill()
        out, err = p.communicate()
        pytest.fail(f"no run began (exit {p.returncode}): {err[-500:]!r} {out[-200:]!r}")
    time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    time.sleep(0.005)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=30)
    assert p.returncode == 128 + signal.SIGTERM and err.strip().endswith("satdomino: terminated")
    assert list(temp.iterdir()) == []


@pytest.mark.parametrize("backend", ["cadical195", "minisat22"])
@pytest.mark.parametrize("sig, code, said", [(signal.SIGTERM, 128 + signal.SIGTERM, "terminated"),
                                              (signal.SIGINT, 130, "interrupted")])
def test_a_python_sat_search_in_the_main_thread_stops_at_once(tmp_path, sig, code, said,
                                                               backend) -> None:
    """With no time limit a python-sat solver searches in the main thread (no forked child),
    in C, where Python's own handlers wait: for CaDiCaL (holding the GIL) SIGTERM waited
    minutes and Ctrl-C printed python-sat's traceback; for MiniSat (without it) both waited
    (``explain`` on a 300-cell Doodle Fit board). Both end the program with one line."""
    if _sigterm is None:
        pytest.skip("the SIGTERM bridge is not built (no C compiler)")
    board = tmp_path / "b.txt"
    board.write_text(D.planted(100, 4)[0].game_id())  # minutes for CaDiCaL
    p = subprocess.Popen([sys.executable, "-m", "satdomino.cli", "solve", str(board),
                          "--backend", backend, "--amo", "pairwise"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(3)  # built and searching (a loaded machine may still be building: fine)
        assert p.poll() is None, p.communicate()
        p.send_signal(sig)
        _, err = p.communicate(timeout=30)
    finally:
        p.kill()  # not left running when the signal failed to stop it
        p.wait()
    assert p.returncode == code and err.strip() == f"satdomino: {said}", err


def giving_up_solver(tmp_path: Path) -> str:
    """An outside 'solver' that reads nothing and says UNKNOWN at once, as a local search that
    stops, or a solver with its own limit, does."""
    script = tmp_path / "unknown.py"
    script.write_text("print('s UNKNOWN')\n")
    return f"external:{sys.executable} {script}"


def test_an_unknown_answer_says_why_not_always_the_time_limit(capsys, tmp_path) -> None:
    backend = giving_up_solver(tmp_path)
    code, out, err = run(capsys, "solve", DOUBLE6, "--backend", backend)
    assert code == 3 and "unknown (solver said UNKNOWN)" in out and "time limit" not in out
    code, out, _ = run(capsys, "solve", DOUBLE6, "--backend", backend, "--json")
    assert code == 3 and json.loads(out)["reason"] == "solver said UNKNOWN"
    code, out, _ = run(capsys, "solve", DOUBLE6, "--backend", "minisat22", "--timeout", "1e-9")
    assert code == 3 and "unknown (time limit" in out
    # in a sweep, a solver that gives up is not a time-out
    csv = tmp_path / "r.csv"
    assert run(capsys, "compare", DOUBLE6, "--backend", backend, "-o", str(csv))[0] == 0
    rows = csv.read_text().splitlines()
    header, row = rows[0].split(","), rows[1].split(",")
    assert row[header.index("status")] == "unknown"
    assert row[header.index("note")] == "solver said UNKNOWN"


def test_running_out_of_memory_is_one_line_and_no_answer(capsys, tmp_path, monkeypatch) -> None:
    # what a memory limit (ulimit -v) does to a large encoding: building it raises MemoryError
    fam = family("dominosa")

    def too_large(puzzle):
        raise MemoryError

    monkeypatch.setitem(fam.models, "placement", too_large)
    code, out, err = run(capsys, "solve", DOUBLE6)
    assert code == 3 and out == "" and err.count("\n") == 1 and "out of memory" in err
    code, out, err = run(capsys, "solve", DOUBLE6, "--json")
    record = json.loads(out)
    assert code == 3 and record["status"] == "unknown" and "out of memory" in record["reason"]
    target = tmp_path / "d6.cnf"
    code, out, err = run(capsys, "export", DOUBLE6, "-o", str(target))
    assert code == 3 and err.count("\n") == 1 and "out of memory" in err
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_a_uniqueness_instance_out_of_time_is_no_answer_not_bad_input(capsys, tmp_path) -> None:
    target = tmp_path / "u.cnf"
    code, out, err = run(capsys, "export", DOUBLE6, "-o", str(target), "--uniqueness",
                         "--timeout", "1e-9")
    assert code == 3 and "time limit" in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


def test_the_time_limit_stops_building_and_encoding_too(capsys, monkeypatch) -> None:
    fam = family("dominosa")
    build = fam.models["placement"]

    def slow(puzzle):  # a model whose building is a long Python loop
        while True:
            time.sleep(0.001)

    monkeypatch.setitem(fam.models, "placement", slow)
    t0 = time.monotonic()
    code, out, _ = run(capsys, "solve", DOUBLE6, "--timeout", "0.3")
    assert time.monotonic() - t0 < 10  # not stopped: never returns
    assert code == 3 and "unknown (time limit, while building and encoding)" in out
    monkeypatch.setitem(fam.models, "placement", build)
    # and the alarm is gone afterwards: a solve without a limit is not cut short
    signal.setitimer(signal.ITIMER_REAL, 0)
    assert run(capsys, "solve", DOUBLE6)[0] == 0
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_generate_unique_stops_at_its_time_limit(capsys) -> None:
    t0 = time.monotonic()
    code, out, err = run(capsys, "generate", "pips", "--dominoes", "30", "--unique",
                         "--timeout", "0.2")
    assert time.monotonic() - t0 < 3 and code == 3 and out == ""
    assert "within the time limit" in err and len(err.splitlines()) == 1


@pytest.mark.skipif(not dlx_built(), reason="dlx is not built (no C compiler)")
@pytest.mark.parametrize("sig, code, said", [(signal.SIGTERM, 128 + signal.SIGTERM, "terminated"),
                                              (signal.SIGINT, 130, "interrupted")])
def test_the_dancing_links_search_stops_at_once(tmp_path, sig, code, said) -> None:
    """``dlx`` searches in the main thread without the GIL: it took neither signal until its
    stop flag was registered for them."""
    if _sigterm is None:
        pytest.skip("the SIGTERM bridge is not built (no C compiler)")
    board = tmp_path / "b.txt"
    # no order of dlx's has solved a planted 300-cell board within 10 s
    board.write_text(doodlefit.format_text(doodlefit.planted(300, 40, 1)[0]))
    p = subprocess.Popen([sys.executable, "-m", "satdomino.cli", "solve", "--backend", "dlx",
                          str(board)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(3)
        if p.poll() is not None:  # a fast machine found the packing: nothing to stop
            pytest.skip("solved before the signal")
        p.send_signal(sig)
        _, err = p.communicate(timeout=30)
    finally:
        p.kill()
        p.wait()
    assert p.returncode == code and err.strip() == f"satdomino: {said}", err


def _grandchildren(pid: int) -> list[int]:
    """The children of ``pid``'s children (Linux /proc; none where it cannot be read)."""
    def children(p: int) -> list[int]:
        try:
            return [int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split()]
        except OSError:
            return []
    return [g for c in children(pid) for g in children(c)]


@pytest.mark.parametrize("sig, code, said", [(signal.SIGTERM, 128 + signal.SIGTERM, "terminated"),
                                              (signal.SIGINT, 130, "interrupted")])
def test_a_race_with_a_fork_server_worker_stops_with_one_line(tmp_path, sig, code, said) -> None:
    """A 60x60 Domino Fit board: auto races CaDiCaL and HiGHS, HiGHS in a worker of the fork
    server. The server, forked while the signal bridge was on, closed the bridge's wakeup
    file, and printed "Exception ignored ... Bad file descriptor" when the stopped worker's
    SIGCHLD came."""
    if not Path("/proc/self/task").is_dir():
        pytest.skip("no /proc to see the worker by")
    board = tmp_path / "b.json"
    board.write_text(family("dominofit").formats["json"](dominofit.planted(60, 60, 2)[0]))
    p = subprocess.Popen([sys.executable, "-m", "satdomino.cli", "solve", str(board)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 60
        while not _grandchildren(p.pid) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)  # until HiGHS's worker runs
        if p.poll() is not None or not _grandchildren(p.pid):
            pytest.skip("no worker seen running (solved first, or HiGHS not installed)")
        time.sleep(0.2)
        p.send_signal(sig)
        _, err = p.communicate(timeout=30)
    finally:
        p.kill()
        p.wait()
    assert p.returncode == code and err == f"satdomino: {said}\n", err


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_a_damaged_compressed_input_is_named_for_what_is_wrong(capsys, tmp_path,
                                                               suffix: str) -> None:
    import bz2
    import lzma

    packed = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}[suffix](
        b"2:221200101201\n")
    (tmp_path / f"cut.txt{suffix}").write_bytes(packed[:len(packed) - 8])
    (tmp_path / f"not.txt{suffix}").write_bytes(b"2:221200101201\n")
    code, _, err = run(capsys, "solve", str(tmp_path / f"cut.txt{suffix}"))
    assert code == 2 and err.strip().endswith(f"{suffix} data cut short (the file ends too soon)")
    code, _, err = run(capsys, "solve", str(tmp_path / f"not.txt{suffix}"))
    assert code == 2 and err.strip().endswith(f"not {suffix}-compressed data"), err
