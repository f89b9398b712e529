"""Regression tests for the fourteen defects of a fuzz campaign (issue 28): inputs that made
the program slow, hungry, crash or exit with the wrong status. Each fails on the code before
its fix."""

from __future__ import annotations

import csv
import dataclasses
import gzip
import json
import time
from pathlib import Path

import pytest

from satdomino.cli import main
from satdomino.compare.runner import COLUMNS
from satdomino.inputs import MAX_INPUT_BYTES, load
from satdomino.puzzles import FAMILIES, family
from satdomino.puzzles import dominosa as D

from .conftest import EXAMPLES


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err
    return code, cap.out, cap.err


def one_line_error(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("satdomino:"), err
    for word in words:
        assert word in lines[0], err


def test_1_long_runs_of_digits_parse_in_linear_time(tmp_path, capsys) -> None:
    for size in (100_000, 1_000_000):
        path = tmp_path / "ones.txt"
        path.write_text("1" * size)
        t0 = time.monotonic()
        code, _, err = run(capsys, "solve", str(path), "--timeout", "5")
        assert code == 2 and time.monotonic() - t0 < 10  # 29 s at 100,000 before
    t0 = time.monotonic()
    D.parse_parts(("1" * 50_000 + " ") * 20)
    assert time.monotonic() - t0 < 5  # quadratic: minutes


def test_1_the_time_limit_covers_reading_and_parsing(tmp_path, capsys, monkeypatch) -> None:
    fam = family("dominosa")

    def slow(text):
        while True:
            time.sleep(0.001)

    monkeypatch.setitem(FAMILIES, "dominosa", dataclasses.replace(fam, parse=slow))
    path = tmp_path / "board.txt"
    path.write_text("2:221200101201")
    t0 = time.monotonic()
    [item] = load([str(path)], "dominosa", timeout=0.2)
    assert item.timed_out and time.monotonic() - t0 < 10  # not stopped: never returns
    code, out, _ = run(capsys, "solve", str(path), "--kind", "dominosa", "--timeout", "0.2",
                       "--json")
    rec = json.loads(out)
    assert code == 3 and rec["status"] == "unknown" and "reading and parsing" in rec["reason"]


def test_2_check_proof_memory_follows_the_header(tmp_path, capsys) -> None:
    (tmp_path / "bv.cnf").write_text("p cnf 3 2\n99999999 0\n-99999999 0\n")
    (tmp_path / "e.drat").write_text("0\n")
    t0 = time.monotonic()
    code, _, err = run(capsys, "check-proof", str(tmp_path / "bv.cnf"),
                       str(tmp_path / "e.drat"))
    assert code == 2 and time.monotonic() - t0 < 2
    one_line_error(err, "beyond the header's 3")


@pytest.mark.parametrize("cnf, proof, words", [
    ("p cnf 2 2\n1 0\n-1 0\n", "1" * 4400 + " 0\n", "is not a literal"),
    ("p cnf 1000000000000000000000000000000 1\n1 0\n", "0\n", "not DIMACS CNF"),
    ("p cnf 2 1\n" + "1" * 5000 + " 0\n", "0\n", "not DIMACS CNF"),
])
def test_3_check_proof_numbers_out_of_range(tmp_path, capsys, cnf, proof, words) -> None:
    (tmp_path / "f.cnf").write_text(cnf)
    (tmp_path / "p.drat").write_text(proof)
    code, _, err = run(capsys, "check-proof", str(tmp_path / "f.cnf"), str(tmp_path / "p.drat"))
    assert code == 2
    one_line_error(err, words)


@pytest.fixture
def exported(tmp_path) -> Path:
    out = tmp_path / "board.cnf"
    assert main(["export", str(EXAMPLES / "dominosa" / "double3-grid.txt"), "-o",
                 str(out)]) == 0
    return out


@pytest.mark.parametrize("damage", [
    lambda m: "[" * 100_000 + "]" * 100_000,
    lambda m: json.dumps({k: v for k, v in m.items() if k != "model_variables"}),
    lambda m: json.dumps({k: v for k, v in m.items() if k != "source"}),
    lambda m: json.dumps({**m, "readings": 1.5}),
    lambda m: json.dumps({**m, "readings": {"bogus": True}}),
    lambda m: json.dumps({**m, "input": ["x"]}),
    lambda m: json.dumps([m]),
])
def test_4_damaged_maps_are_refused(exported, capsys, damage) -> None:
    capsys.readouterr()
    mapping = Path(f"{exported}.map.json")
    mapping.write_text(damage(json.loads(mapping.read_text())))
    answer = exported.parent / "answer.txt"
    answer.write_text("s SATISFIABLE\nv 1 0\n")
    code, _, err = run(capsys, "decode", str(exported), str(answer))
    assert code == 2
    one_line_error(err, "is not a satdomino map")


@pytest.mark.parametrize("content", [b"plain text, no newline", b"a,b\n1,2\n3,4",
                                     b"\xff\xfe\x00bad", ",".join(COLUMNS[:-1]).encode() + b"\n"])
def test_5_compare_never_touches_a_file_that_is_not_its_own(tmp_path, capsys, content) -> None:
    out = tmp_path / "runs.csv"
    out.write_bytes(content)
    code, _, err = run(capsys, "compare", "dominosa:n=2", "--backend", "minisat22", "-o",
                       str(out), "--no-progress")
    assert code == 2 and out.read_bytes() == content
    one_line_error(err, "not a satdomino compare results file")


def test_5_a_results_file_resumes(tmp_path, capsys) -> None:
    out = tmp_path / "runs.csv"
    argv = ["compare", "dominosa:n=2", "--backend", "minisat22", "-o", str(out),
            "--no-progress"]
    assert run(capsys, *argv)[0] == 0 and run(capsys, *argv)[0] == 0
    with out.open() as f:
        assert len(list(csv.DictReader(f))) == 1


def test_6_doodle_fit_cost_follows_its_cells(tmp_path, capsys) -> None:
    lines = (EXAMPLES / "doodlefit" / "pentominoes-6x10.txt").read_text().split("\n")
    last_shape_row = lines.index("---") - 1
    lines[last_shape_row] = " " * 100_000 + lines[last_shape_row]
    path = tmp_path / "wide.txt"
    path.write_text("\n".join(lines))
    t0 = time.monotonic()
    code, _, _ = run(capsys, "solve", str(path), "--rotate", "--reflect")
    assert code == 1 and time.monotonic() - t0 < 5  # 12 s to encode before


@pytest.mark.parametrize("values", ["-1 0", "0"])
def test_7_an_all_false_answer_is_read_and_checked(exported, capsys, values) -> None:
    answer = exported.parent / "answer.txt"
    answer.write_text(f"s SATISFIABLE\nv {values}\n")
    code, _, err = run(capsys, "decode", str(exported), str(answer))
    assert code == 4
    one_line_error(err, "breaks the clause")


def test_8_an_instance_format_needs_an_output(capsys) -> None:
    code, out, err = run(capsys, "generate", "dominosa", "--n", "3", "--format", "dimacs")
    assert code == 2 and out == ""
    one_line_error(err, "-o")


def test_9_option_values_have_ranges(capsys) -> None:
    t0 = time.monotonic()
    code, _, err = run(capsys, "solve", str(EXAMPLES / "dominosa" / "double6.txt"),
                       "--backend", "highs:threads=1000000")
    assert code == 2 and time.monotonic() - t0 < 5
    one_line_error(err, "threads")
    for argv in (["compare", "dominosa:n=2", "--jobs", "100000", "-o", "x.csv"],
                 ["compare", "dominosa:n=2", "--seeds", "10000000", "-o", "x.csv"],
                 ["generate", "pips", "--dominoes", "4", "--unique", "--number", "10000000"]):
        code, _, err = run(capsys, *argv)
        assert code == 2
        one_line_error(err)


def test_10_a_count_cut_short_says_why(capsys, tmp_path) -> None:
    # a board solved in under a second that no counting method finishes in seconds
    path = tmp_path / "board.json"
    assert main(["generate", "dominofit", "--width", "30", "--height", "30", "--seed", "1",
                 "-o", str(path)]) == 0
    code, out, _ = run(capsys, "solve", str(path), "--count", "--timeout", "3", "--json")
    rec = json.loads(out)
    assert code == 3 and rec["status"] == "sat" and rec["count_complete"] is False
    assert rec["reason"] == "the count is incomplete (time limit)"


def test_11_a_segfault_under_a_memory_limit_is_memout(tmp_path, capsys) -> None:
    out = tmp_path / "runs.csv"
    code, _, _ = run(capsys, "compare", "dominosa:n=12", "--backend", "z3,z3-smt", "--memory",
                     "16", "--timeout", "30", "-o", str(out), "--no-progress")
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert rows and all(r["status"] in ("memout", "sat") for r in rows), rows


def test_12_a_proof_is_read_to_its_end_and_a_bom_is_text(tmp_path, capsys) -> None:
    (tmp_path / "f.cnf").write_text("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    (tmp_path / "junk.drat").write_text("2 0\n0\nthis is not a proof\n")
    code, _, err = run(capsys, "check-proof", str(tmp_path / "f.cnf"),
                       str(tmp_path / "junk.drat"), "--no-drat-trim")
    assert code == 2
    one_line_error(err, "is not a literal")
    (tmp_path / "bom.drat").write_bytes(b"\xef\xbb\xbf2 0\n0\n")
    code, out, _ = run(capsys, "check-proof", str(tmp_path / "f.cnf"),
                       str(tmp_path / "bom.drat"), "--no-drat-trim")
    assert code == 0 and "s VERIFIED" in out


def test_13_nothing_to_solve_is_not_success(tmp_path, capsys) -> None:
    day = json.loads((EXAMPLES / "pips" / "day.json").read_text())
    path = tmp_path / "withdrawn.json"
    path.write_text(json.dumps({**day, "easy": None, "medium": None, "hard": None}))
    code, out, err = run(capsys, "solve", str(path))
    assert code == 2 and out == "" and "withdrawn" in err
    path.write_text(json.dumps({**day, "medium": None}))
    code, out, err = run(capsys, "solve", str(path), "--puzzle", "medium")
    assert code == 2 and out == "" and "withdrawn" in err


def test_14_inputs_have_a_size_cap(tmp_path, capsys) -> None:
    t0 = time.monotonic()
    code, _, err = run(capsys, "solve", "/dev/zero")
    assert code == 2 and time.monotonic() - t0 < 5
    one_line_error(err, "MiB")
    bomb = tmp_path / "ones.txt.gz"
    with gzip.open(bomb, "wb") as f:
        chunk = b"1" * 2**20
        for _ in range(MAX_INPUT_BYTES // len(chunk) + 1):
            f.write(chunk)
    code, _, err = run(capsys, "solve", str(bomb))
    assert code == 2
    one_line_error(err, "once decompressed")


def test_z3_refuses_a_formula_too_large_to_build_in_memory(monkeypatch) -> None:
    """Z3's Python objects take some 650 bytes a literal: a 200-domino Pips board's 2.3
    million literals passed 1 GB while building. Beyond the cap: one clear refusal."""
    import satdomino
    from satdomino.backends import z3_backend
    from satdomino.errors import BackendError

    p = satdomino.read(str(EXAMPLES / "dominosa" / "double6.txt"))[0]
    assert p.solve(backend="z3").status == "sat"  # under the cap
    monkeypatch.setattr(z3_backend, "MAX_LITERALS", 100)
    for backend in ("z3", "z3-smt"):
        with pytest.raises(BackendError, match="more than 100; use a python-sat solver"):
            p.solve(backend=backend)
