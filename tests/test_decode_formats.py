"""Every export format answers back: export, an answer in the format's usual form (from the
outside tool when it is here, else written as that tool writes it), decode, check."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import satdomino
from satdomino.cli import main

from .conftest import EXAMPLES

FORMATS = {"opb": ".opb", "smt2": ".smt2", "lp": ".lp", "mathprog": ".mod"}
PUZZLES = [("dominosa/double3-grid.txt", None, None), ("pips/day.json", "hard", None),
           ("pips/day.json", "medium", "link-value"), ("dominofit/published-7x7.json", None, None),
           ("doodlefit/planted-20.txt", None, None)]
Z3 = shutil.which("z3") or str(Path(sys.executable).parent / "z3")


def _export(tmp_path: Path, example: str, part: str | None, model: str | None, suffix: str,
            *extra: str) -> Path:
    out = tmp_path / f"i{suffix}"
    argv = ["export", str(EXAMPLES / example), "-o", str(out), *extra]
    argv += ["--puzzle", part] if part else []
    argv += ["--model", model] if model else []
    assert main(argv) == 0
    return out


def written_answer(fmt: str, true: set[int], n: int) -> str:
    """An answer as the format's usual solver writes it (minisat+, z3 -model, a HiGHS
    solution file, glpsol's output of the MathProg model)."""
    xs = range(1, n + 1)
    if fmt == "opb":
        return "s SATISFIABLE\nv " + " ".join(("" if v in true else "-") + f"x{v}"
                                              for v in xs) + "\n"
    if fmt == "smt2":
        return "sat\n(\n" + "".join(f"  (define-fun x{v} () Bool\n    "
                                    f"{'true' if v in true else 'false'})\n" for v in xs) + ")\n"
    lines = [f"x{v} {int(v in true)}" for v in xs]
    if fmt == "lp":
        return ("Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n"
                f"# Columns {n}\n" + "\n".join(lines) + "\n")
    return "INTEGER OPTIMAL SOLUTION FOUND\n" + "\n".join(lines) + "\nModel has been processed\n"


def _solution(example: str, part: str | None, model: str | None) -> tuple[set[int], int]:
    [p] = satdomino.read(str(EXAMPLES / example), puzzle=part)
    out = p.solve(model=model, backend="cadical195")
    return set(out.assignment), p.family.model(model)(p.data).num_vars


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@pytest.mark.parametrize("example, part, model", PUZZLES)
def test_an_answer_in_each_format_decodes_and_a_damaged_one_is_refused(
        tmp_path, capsys, fmt, example, part, model) -> None:
    instance = _export(tmp_path, example, part, model, FORMATS[fmt])
    assert json.loads(Path(f"{instance}.map.json").read_text())["format"] == fmt
    true, n = _solution(example, part, model)
    answer = tmp_path / "answer.txt"
    answer.write_text(written_answer(fmt, true, n))
    capsys.readouterr()
    assert main(["decode", str(instance), str(answer), "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["status"] == "sat" and record["solution"]
    wrong = set(true) ^ {min(true)}  # one placement taken away: a cell left uncovered
    answer.write_text(written_answer(fmt, wrong, n))
    assert main(["decode", str(instance), str(answer)]) == 4
    err = capsys.readouterr().err.strip()
    assert "breaks" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_unsat_and_garbage_answers(tmp_path, capsys, fmt) -> None:
    example = "pips/planted-6-unique.json"
    instance = _export(tmp_path, example, None, None, FORMATS[fmt], "--uniqueness")
    answer = tmp_path / "a.txt"
    unsat = {"opb": "s UNSATISFIABLE\n", "smt2": "unsat\n",
             "lp": "Model status\nInfeasible\n", "mathprog": "PROBLEM HAS NO INTEGER FEASIBLE "
             "SOLUTION\n"}[fmt]
    answer.write_text(unsat)
    assert main(["decode", str(instance), str(answer)]) == 1
    true, n = _solution(example, None, None)  # the excluded solution itself
    answer.write_text(written_answer(fmt, true, n))
    assert main(["decode", str(instance), str(answer)]) == 4
    assert "excludes" in capsys.readouterr().err
    for garbage in ("", "hello\n", "s SATISFIABLE\nv x1 x1x\n", "sat\n((x1 maybe))\n"):
        answer.write_text(garbage)
        code = main(["decode", str(instance), str(answer)])
        err = capsys.readouterr().err.strip()
        assert code in (2, 4) and len(err.splitlines()) == 1, (garbage, err)


def _run(argv: list[str], out: Path | None = None) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    return out.read_text() if out is not None else done.stdout


# (format, tool, how it is run on INSTANCE writing OUT) for the tools that are here
TOOLS = [("opb", "minisat+", lambda i, o: _run(["minisat+", str(i)])),
         ("smt2", Z3, lambda i, o: _run([Z3, "-model", str(i)])),
         ("smt2", "cvc5", lambda i, o: _run(["cvc5", "--produce-models", "--dump-models",
                                             str(i)])),
         ("lp", "glpsol", lambda i, o: _run(["glpsol", "--lp", str(i), "-o", str(o)], o)),
         ("mathprog", "glpsol", lambda i, o: _run(["glpsol", "--math", str(i)]))]


@pytest.mark.parametrize("fmt, tool, run", TOOLS, ids=[f"{f}-{Path(t).name}" for f, t, _ in TOOLS])
@pytest.mark.parametrize("example, part, model", PUZZLES)
def test_round_trip_through_the_outside_tool(tmp_path, capsys, fmt, tool, run, example, part,
                                             model) -> None:
    if shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed (.ci/run installs it)")
    instance = _export(tmp_path, example, part, model, FORMATS[fmt])
    answer = tmp_path / "answer.txt"
    answer.write_text(run(instance, tmp_path / "report.txt"))
    capsys.readouterr()
    assert main(["decode", str(instance), str(answer), "--json"]) == 0, answer.read_text()[:300]
    assert json.loads(capsys.readouterr().out)["status"] == "sat"


def test_highs_solution_file_round_trip(tmp_path, capsys) -> None:
    highspy = pytest.importorskip("highspy")
    instance = _export(tmp_path, "pips/day.json", "hard", None, ".lp")
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(instance))
    h.run()
    h.writeSolution(str(tmp_path / "sol.txt"), 0)
    assert main(["decode", str(instance), str(tmp_path / "sol.txt")]) == 0


def test_standard_output_with_a_map_of_its_own(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["export", str(EXAMPLES / "dominosa" / "double3-grid.txt"), "-o", "-",
                 "--format", "opb", "--map", "m.json"]) == 0
    (tmp_path / "i.opb").write_text(capsys.readouterr().out)
    true, n = _solution("dominosa/double3-grid.txt", None, None)
    (tmp_path / "a.txt").write_text(written_answer("opb", true, n))
    assert main(["decode", "i.opb", "a.txt", "--map", "m.json"]) == 0
    assert main(["decode", "i.opb", "a.txt"]) == 2  # no i.opb.map.json
