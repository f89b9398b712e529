"""The 0-1 program export: glpsol (GLPK) solves what we write, and its answers decode into
layouts that pass the rule checker; no answer exactly when SAT finds none."""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess

import pytest

from satdomino import family, solve
from satdomino.export.linear import to_lp, to_mathprog
from satdomino.puzzles import dominofit, dominosa, doodlefit, pips

from .conftest import need_binary


def cases() -> list[tuple[str, object, str]]:
    out = []
    for seed in range(4):
        out.append(("dominosa", dominosa.planted(3, seed)[0], "counted"))
        out.append(("pips", pips.planted(4, seed)[0], "link-value"))
        out.append(("pips", pips.planted(4, seed + 10)[0], "placement"))
        fit = dominofit.planted(4, 4, seed)[0]
        if seed % 2:  # a nudged clue: sometimes no solution
            fit = dataclasses.replace(fit, side=(fit.side[0] + 1, *fit.side[1:]))
        out.append(("dominofit", fit, "dot-half"))
        doodle = dataclasses.replace(doodlefit.planted(10, 3, seed)[0], rotate=True)
        out.append(("doodlefit", doodle, "placement"))
    return out


@pytest.mark.parametrize("kind, puzzle, model", cases(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_glpsol_answers_verify(tmp_path, kind, puzzle, model) -> None:
    need_binary("glpsol")
    fam = family(kind)
    m = fam.model(model)(puzzle)
    mod = tmp_path / "p.mod"
    mod.write_text(to_mathprog(m))
    out = subprocess.run(["glpsol", "--math", str(mod)], capture_output=True, text=True,
                         timeout=60).stdout
    values = {int(a): int(b) for a, b in re.findall(r"^x(\d+) (\d+)$", out, re.M)}
    expected = solve(puzzle, fam, model=model).status
    if "NO PRIMAL FEASIBLE" in out or "NO INTEGER FEASIBLE" in out:
        assert expected == "unsat"
        return
    assert expected == "sat" and len(values) == m.num_vars, out[-500:]
    true = frozenset(i for i, v in values.items() if v == 1)
    assert fam.verify(puzzle, fam.decode(puzzle, m, true)) == []


def test_lp_file_solves_too(tmp_path) -> None:
    need_binary("glpsol")
    puzzle = pips.planted(5, 3)[0]
    m = family("pips").model("link-value")(puzzle)
    lp = tmp_path / "p.lp"
    lp.write_text(to_lp(m, ["a comment"]))
    sol = tmp_path / "p.txt"
    run = subprocess.run(["glpsol", "--lp", str(lp), "-o", str(sol)], capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0 and "INTEGER OPTIMAL" in sol.read_text()


def test_a_board_with_nothing_to_place_exports_in_every_format(tmp_path) -> None:
    """Every square black and a sum of 1: the counts model is one row with no terms (0 >= 1),
    which the LP and OPB texts still write with a column, and glpsol finds infeasible."""
    from satdomino.cli import main

    src = tmp_path / "black.json"
    src.write_text('{"width": 2, "height": 1, "top_numbers": [0, 0], "side_numbers": [1],'
                   ' "blacks": [[0, 0], [1, 0]]}')
    for fmt in ("lp", "mathprog", "opb", "smt2", "dimacs"):
        assert main(["export", str(src), "--format", fmt, "-o", str(tmp_path / f"p.{fmt}")]) == 0
    opb = (tmp_path / "p.opb").read_text()
    assert opb.startswith("* #variable= 1 #constraint= 1") and "+0 x1 >= 1 ;" in opb
    if shutil.which("glpsol"):
        run = subprocess.run(["glpsol", "--lp", str(tmp_path / "p.lp")], capture_output=True,
                             text=True, timeout=60)
        assert "NO PRIMAL FEASIBLE SOLUTION" in run.stdout, run.stdout[-500:]


def test_export_command(tmp_path, capsys) -> None:
    from satdomino.cli import main

    from .conftest import EXAMPLES

    src = str(EXAMPLES / "pips" / "planted-6-unique.json")
    for name in ("p.lp", "p.mod", "p.cnf.gz"):
        assert main(["export", src, "-o", str(tmp_path / name)]) == 0
    assert "Subject To" in (tmp_path / "p.lp").read_text()
    assert "s.t. c1:" in (tmp_path / "p.mod").read_text()
    day = {"easy": pips.to_nyt(pips.planted(3, 1)[0]), "hard": pips.to_nyt(pips.planted(4, 2)[0])}
    f = tmp_path / "day.json"
    f.write_text(__import__("json").dumps(day))
    assert main(["export", str(f), "-o", str(tmp_path / "x.lp")]) == 2
    assert "pick one with --puzzle" in capsys.readouterr().err
    assert main(["export", str(f), "--puzzle", "hard", "-o", str(tmp_path / "x.lp")]) == 0


@pytest.mark.parametrize("src, extra", [
    ("dominosa/double6.txt", []), ("pips/planted-10.json", ["--model", "link-value"]),
    ("dominofit/published-7x7.json", ["--model", "dot-half"]),
    ("doodlefit/pentominoes-6x10.txt", ["--rotate", "--reflect"]),
])
def test_export_outside_solver_decode(tmp_path, capsys, src, extra) -> None:
    """The researcher's round trip: DIMACS + map, any outside solver, `decode` verifies."""
    from satdomino.cli import main

    from .conftest import EXAMPLES

    cadical = need_binary("cadical")
    cnf = tmp_path / "p.cnf"
    assert main(["export", str(EXAMPLES / src), "-o", str(cnf), *extra]) == 0
    answer = tmp_path / "answer.txt"
    answer.write_text(subprocess.run([cadical, "-q", str(cnf)], capture_output=True,
                                     text=True, timeout=120).stdout)
    capsys.readouterr()
    assert main(["decode", str(cnf), str(answer), "--json"]) == 0
    rec = __import__("json").loads(capsys.readouterr().out)
    assert rec["status"] == "sat" and rec["solution"]
    # a wrong answer is caught (by the instance's own clauses, else by the rule checker),
    # never shown as a solution
    answer.write_text("s SATISFIABLE\nv 1 2 3 4 5 6 7 8 9 10 0\n")
    assert main(["decode", str(cnf), str(answer)]) == 4
    cap = capsys.readouterr()
    assert cap.out == "" and ("breaks the clause" in cap.err or "breaks the rules" in cap.err)


def test_decode_errors(tmp_path, capsys) -> None:
    from satdomino.cli import main

    (tmp_path / "a.txt").write_text("s SATISFIABLE\nv 1 0\n")
    assert main(["decode", str(tmp_path / "none.cnf"), str(tmp_path / "a.txt")]) == 2
    assert "map.json" in capsys.readouterr().err


def _opb_holds(text: str, true: set[int]) -> bool:
    lines = text.splitlines()
    n_vars, n_cons = map(int, re.findall(r"#variable= (\d+) #constraint= (\d+)", lines[0])[0])
    cons = [ln for ln in lines if not ln.startswith("*")]
    assert len(cons) == n_cons and all(ln.endswith(" ;") for ln in cons)
    for ln in cons:
        *terms, op, bound, _ = ln.split()
        names = [int(x[1:]) for x in terms[1::2]]
        assert all(1 <= v <= n_vars for v in names)
        total = sum(int(w) for w, v in zip(terms[::2], names, strict=True) if v in true)
        if not (total >= int(bound) if op == ">=" else total == int(bound)):
            return False
    return True


@pytest.mark.parametrize("kind, puzzle, model", cases(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_opb_holds_exactly_for_solutions(kind, puzzle, model) -> None:
    """Every OPB row holds for a solver's answer (extended to the integer binaries), and a
    blocked answer of the same model breaks some row."""
    from satdomino.export.linear import to_opb

    fam = family(kind)
    m = fam.model(model)(puzzle)
    out = solve(puzzle, fam, model=model)
    if out.status != "sat":
        return
    # the SAT answer over model variables, plus the value binaries the OPB adds for integers
    from satdomino.backends import get_backend
    from satdomino.encode import lower

    result = get_backend("cadical195").solve(lower(m))
    true = {x for x in result.true_vars if x <= m.num_vars}
    extra = m.num_vars
    for x in m.ints.values():
        value = next(k for k in x.values if m.int_eq(x, k) in true)
        for v in x.values:
            extra += 1
            if v == value:
                true.add(extra)
    text = to_opb(m)
    assert _opb_holds(text, true)
    flipped = set(true) ^ {m.projection[0]}
    assert not _opb_holds(text, flipped)


@pytest.mark.parametrize("kind, puzzle, model", cases(),
                         ids=lambda v: v if isinstance(v, str) else "")
def test_smt2_round_trip_through_z3(kind, puzzle, model) -> None:
    """Z3 reads our SMT-LIB file, agrees with its :status, and its model is a layout that
    passes the rule checker."""
    import z3

    from satdomino.export.linear import to_smt2

    fam = family(kind)
    m = fam.model(model)(puzzle)
    status = solve(puzzle, fam, model=model).status
    text = to_smt2(m, status, "test")
    assert text.startswith("(set-info :smt-lib-version 2.6)\n(set-logic QF_LIA)\n")
    assert f"(set-info :status {status})" in text and text.endswith("(check-sat)\n(exit)\n")
    assert_strict_smt2(text)
    s = z3.Solver()
    s.add(z3.parse_smt2_string(text))
    assert str(s.check()) == status
    if status == "sat":
        mz = s.model()
        true = frozenset(i for i in range(1, m.num_vars + 1)
                         if z3.is_true(mz.eval(z3.Bool(f"x{i}"), model_completion=True)))
        assert fam.verify(puzzle, fam.decode(puzzle, m, true)) == []


def assert_strict_smt2(text: str) -> None:
    """What SMT-LIB 2.6 refuses and Z3 forgives: a negative literal (``-1`` is a symbol there,
    ``(- 1)`` the number), and ``|`` or ``\\`` inside a quoted symbol."""
    quoted = re.findall(r"\|([^|]*)\|", text)
    assert all("\\" not in q for q in quoted), quoted
    bare = re.sub(r'\|[^|]*\||"[^"]*"', " ", text)
    assert not re.search(r"(?<![\w.])-\d", bare), re.search(r".{30}(?<![\w.])-\d.{10}", bare)


def test_smt2_with_negative_weights_and_an_odd_source_is_strict_smt_lib() -> None:
    """A uniqueness instance's clause (negative literals) becomes rows with weight -1, and a
    source name may hold ``|`` and ``\\``: the file stays strict SMT-LIB that Z3 reads."""
    import z3

    from satdomino.backends.session import blocking_clause
    from satdomino.export.linear import to_smt2

    fam = family("dominosa")
    board = dominosa.parse("2:221200101201")[0][1]
    out = solve(board, fam, unique=True)
    m = fam.model(None)(board)
    m.add_clause(blocking_clause(m.projection, out.assignment))
    text = to_smt2(m, "unsat" if out.unique else "sat", "a|b\\c.txt")
    assert "(- 1)" in text
    assert_strict_smt2(text)
    s = z3.Solver()
    s.add(z3.parse_smt2_string(text))
    assert str(s.check()) == ("unsat" if out.unique else "sat")
