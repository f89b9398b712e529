"""The built-in DRAT checker: real solver proofs accepted, broken ones rejected, every input
format read the same."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import random
import shutil
import stat
import subprocess
import time
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP
from pysat.formula import CNF
from pysat.solvers import Solver

from satdomino import fileio
from satdomino.analysis.drat import (
    ProofCheck,
    _Checker,
    check_drat,
    check_drat_files,
    drat_trim,
    is_binary_proof,
    parse_proof_lines,
    read_proof,
)
from satdomino.cli import main
from satdomino.clock import Deadline
from satdomino.errors import SatDominoError

from .conftest import one_error

Steps = list[tuple[bool, list[int]]]


def random3(n: int, m: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[v if rng.random() < 0.5 else -v for v in rng.sample(range(1, n + 1), 3)]
            for _ in range(m)]


def num_vars(clauses: list[list[int]]) -> int:
    return max(abs(lit) for c in clauses for lit in c)


def solver_proof(name: str, clauses: list[list[int]]) -> list[str]:
    with Solver(name=name, bootstrap_with=clauses, with_proof=True) as s:
        assert s.solve() is False
        return s.get_proof()


def steps_of(lines: list[str]) -> Steps:
    return list(parse_proof_lines(lines))


def binary_drat(steps: Steps) -> bytes:
    """Binary DRAT as drat-trim's write_lit writes it."""
    out = bytearray()
    for deletion, lits in steps:
        out += b"d" if deletion else b"a"
        for lit in [*lits, 0]:
            u = 2 * abs(lit) + (lit < 0)
            while u > 127:
                out.append(128 | (u & 127))
                u >>= 7
            out.append(u)
    return bytes(out)


def text_drat(steps: Steps) -> str:
    return "".join(("d " if d else "") + " ".join(map(str, [*lits, 0])) + "\n"
                   for d, lits in steps)


PHP6 = PHP(6).clauses  # 7 pigeons, 6 holes
RANDOM = random3(60, 400, 1)
FORMULAS = {"php6": PHP6, "random60": RANDOM}


@pytest.fixture(scope="module")
def proofs() -> dict[tuple[str, str], list[str]]:
    return {(solver, name): solver_proof(solver, cnf)
            for solver in ("cadical195", "glucose4", "lingeling")
            for name, cnf in FORMULAS.items()}


# ----------------------------------------------------------------------------- accepted


@pytest.mark.parametrize("solver", ["cadical195", "glucose4", "lingeling"])
@pytest.mark.parametrize("name", list(FORMULAS))
def test_solver_proofs_verify(proofs, solver: str, name: str) -> None:
    cnf = FORMULAS[name]
    result = check_drat(num_vars(cnf), cnf, steps_of(proofs[solver, name]))
    assert isinstance(result, ProofCheck)
    assert result.ok, result.message
    assert result.message.startswith("VERIFIED")
    assert result.lemmas > 0 and result.rat_lemmas == 0


def test_unit_propagation_alone() -> None:
    assert check_drat(2, [[1, 2], [-1], [-2]], []).ok
    assert check_drat(1, [[1], []], []).ok  # an empty clause in the formula
    sat = check_drat(2, [[1, 2], [-1]], [])
    assert not sat.ok and "without deriving the empty clause" in sat.message


@pytest.mark.parametrize("formula", [[[1, 2], [-1], [-2]], [[1], []]])
def test_a_self_refuting_formula_still_refuses_a_file_that_is_not_a_proof(
        tmp_path: Path, formula) -> None:
    # Dominosa uniqueness instances often refute themselves: "garbage" passed as their proof
    cnf = tmp_path / "f.cnf"
    cnf.write_text(f"p cnf 2 {len(formula)}\n" + "".join(
        " ".join(map(str, c)) + " 0\n" for c in formula))
    junk = tmp_path / "junk.drat"
    junk.write_text("garbage\n")
    with pytest.raises(SatDominoError, match="junk.drat"):
        check_drat_files(cnf, junk)
    proof = tmp_path / "p.drat"
    proof.write_text("1 0\n0\n")
    assert "not needed" in check_drat_files(cnf, proof).message


def test_units_reaching_a_conflict_need_no_empty_clause(proofs) -> None:
    # The empty clause is RUP exactly when the top level is in conflict, so a proof whose
    # last units already conflict is complete without it (drat-trim agrees).
    steps = steps_of(proofs["cadical195", "php6"])
    assert steps[-1] == (False, [])
    result = check_drat(num_vars(PHP6), PHP6, steps[:-1])
    assert result.ok and result.steps < len(steps)


def test_variables_beyond_num_vars_grow_the_arrays(proofs) -> None:
    # Told only 1 variable: the arrays grow while the formula loads, and again mid-proof when a
    # definition introduces variable 1000 (with the top-level trail already set).
    steps = steps_of(proofs["cadical195", "random60"])
    middle = len(steps) // 2
    definition = [(False, [-1000, 1001]), (False, [-1000, 1002]), (False, [1000, -1001, -1002])]
    result = check_drat(1, RANDOM, steps[:middle] + definition + steps[middle:])
    assert result.ok, result.message
    assert result.rat_lemmas == 3
    half = RANDOM[:200]  # satisfiable: growing must not make a wrong proof pass
    assert not check_drat(1, half, steps[:middle] + definition + steps[middle:]).ok


def test_grow_keeps_both_signs() -> None:
    checker = _Checker(3)
    checker.add([7, 8])
    checker.add([-9])
    checker.add([-2, -3, 4])
    assert not checker.propagate()
    before = {lit: (checker.val[lit], checker.bins[lit], checker.watches[lit])
              for v in range(1, 17) for lit in (v, -v)}
    checker.grow(100)
    assert checker.cap == 100 and len(checker.val) == 201
    assert {lit: (checker.val[lit], checker.bins[lit], checker.watches[lit])
            for v in range(1, 17) for lit in (v, -v)} == before
    assert checker.val[-9] == 1 and checker.val[9] == -1 and checker.val[100] == 0


# ----------------------------------------------------------------------------- rejected


def test_lemma_neither_rup_nor_rat_is_rejected(proofs) -> None:
    # PHP variable 1 is "pigeon 1 in hole 1": not RUP (pigeon 1 has other holes) and not RAT
    # (the resolvents with the hole's at-most-one clauses are not RUP either).
    steps = steps_of(proofs["glucose4", "php6"])
    result = check_drat(num_vars(PHP6), PHP6, [(False, [1]), *steps])
    assert not result.ok
    assert "lemma 1 (proof step 1)" in result.message and "neither RUP nor RAT" in result.message
    assert result.lemmas == 1 and result.steps == 1


def test_proof_for_another_formula_is_rejected(proofs) -> None:
    # Half of the random formula is satisfiable: no proof at all may refute it.
    half = RANDOM[:200]
    with Solver(name="cadical195", bootstrap_with=half) as s:
        assert s.solve() is True
    for solver in ("cadical195", "glucose4", "lingeling"):
        result = check_drat(60, half, steps_of(proofs[solver, "random60"]))
        assert not result.ok, solver
        assert result.message.startswith("NOT VERIFIED")
    other = check_drat(60, random3(60, 400, 2), steps_of(proofs["cadical195", "random60"]))
    assert not other.ok


def test_dropping_the_conflict_is_rejected(proofs) -> None:
    for solver in ("cadical195", "glucose4", "lingeling"):
        steps = steps_of(proofs[solver, "php6"])
        full = check_drat(num_vars(PHP6), PHP6, steps)
        assert full.ok
        # Drop the empty clause and the lemmas that brought the top level to its conflict.
        cut = check_drat(num_vars(PHP6), PHP6, steps[:full.steps - 1])
        assert not cut.ok, solver
        assert "ends without deriving the empty clause" in cut.message
        # An explicit empty clause in their place does not follow.
        empty = check_drat(num_vars(PHP6), PHP6, [*steps[:full.steps - 1], (False, [])])
        assert not empty.ok and "empty clause" in empty.message


def test_truncated_proof_is_rejected(proofs) -> None:
    steps = steps_of(proofs["lingeling", "random60"])
    result = check_drat(60, RANDOM, steps[:len(steps) // 2])
    assert not result.ok


# ----------------------------------------------------------------------------- RAT


# a & b | a & -b | -a & c | -a & -c: unsatisfiable, but not by unit propagation alone;
# variables 4 and 5 are free.
SMALL = [[1, 2], [1, -2], [-1, 3], [-1, -3]]
REFUTE = [(False, [1]), (False, [])]
DEFINE = [(False, [-40, 4]), (False, [-40, 5]), (False, [40, -4, -5])]  # 40 <-> 4 & 5


def test_extended_resolution_definition_is_rat() -> None:
    # Fresh x = 40 (beyond the 5 variables declared): each clause is RAT on its first literal.
    result = check_drat(5, SMALL, [*DEFINE, *REFUTE])
    assert result.ok, result.message
    assert result.rat_lemmas == 3 and result.lemmas == 4


def test_rat_pivot_is_the_first_literal() -> None:
    # c | -x with c = 41 fresh is blocked on c (no clause holds -c) ...
    ok = check_drat(5, SMALL, [*DEFINE, (False, [41, -40]), *REFUTE])
    assert ok.ok and ok.rat_lemmas == 4
    # ... but not on -x: its resolvent with x | -4 | -5 is c | -4 | -5, not RUP.
    bad = check_drat(5, SMALL, [*DEFINE, (False, [-40, 41]), *REFUTE])
    assert not bad.ok and "lemma 4 (proof step 4)" in bad.message


def test_blocked_clause_with_tautological_resolvents() -> None:
    # 4 | -5 is not RUP, but its only resolvent on 4, with -4 | 5, is a tautology. On -5 it
    # is not RAT: the resolvent with 5 | 6 is 4 | 6, not RUP.
    formula = [*SMALL, [-4, 5], [5, 6]]
    result = check_drat(6, formula, [(False, [4, -5]), *REFUTE])
    assert result.ok and result.rat_lemmas == 1
    bad = check_drat(6, formula, [(False, [-5, 4]), *REFUTE])
    assert not bad.ok and "lemma 1" in bad.message


# ----------------------------------------------------------------------------- deletions


def test_deletion_is_honoured() -> None:
    assert check_drat(3, SMALL, [(False, [1]), (False, [])]).ok
    # Without a | b, a is neither RUP nor RAT; the literal order of a deletion does not matter.
    result = check_drat(3, SMALL, [(True, [2, 1]), (False, [1]), (False, [])])
    assert not result.ok and result.deletions == 1 and result.ignored_deletions == 0


def test_deleting_units_and_reasons_is_ignored() -> None:
    formula = [[5], [-5, 6], [-6, 1, 2], [1, -2], [-1, 3], [-1, -3]]
    # 6 is implied by unit 5 through -5 | 6: deleting either keeps 6 at top level, as in
    # drat-trim. The check stays sound: the ignored clauses were in the database anyway.
    proof = [(True, [5]), (True, [6, -5]), (True, [7, 8]), (False, [1]), (False, [])]
    result = check_drat(8, formula, proof)
    assert result.ok, result.message
    assert result.deletions == 3 and result.ignored_deletions == 3
    assert "3 deletion(s)" in result.message


def test_deleting_a_reason_cannot_fake_a_refutation() -> None:
    # a, -a | b is satisfiable. Really deleting -a | b (the reason of b) while keeping b at top
    # level would make -b RAT (no clause holds b) and then a conflict: a false refutation.
    for formula, proof in (([[1], [-1, 2]], [(True, [-1, 2]), (False, [-2]), (False, [])]),
                           ([[1], [-1, 2]], [(True, [2, -1]), (False, [-2]), (False, [])]),
                           ([[1], [-1, 2, 3], [-3]],
                            [(True, [-1, 2, 3]), (False, [-2]), (False, [])]),
                           ([[1], [2]], [(True, [1]), (False, [-1]), (False, [])])):
        result = check_drat(3, formula, proof)
        assert not result.ok, (formula, proof)
        assert result.ignored_deletions == 1 and "neither RUP nor RAT" in result.message


def test_duplicate_clauses_delete_one_copy() -> None:
    formula = [[1, 2], [1, 2], [1, -2], [-1, 3], [-1, -3]]
    assert check_drat(3, formula, [(True, [1, 2]), (False, [1]), (False, [])]).ok
    both = check_drat(3, formula, [(True, [1, 2]), (True, [2, 1]), (False, [1]), (False, [])])
    assert not both.ok and both.ignored_deletions == 0


# ----------------------------------------------------------------------------- reading


def test_text_and_binary_read_the_same(tmp_path: Path, proofs) -> None:
    steps = steps_of(proofs["cadical195", "php6"])
    (tmp_path / "p.drat").write_text(text_drat(steps))
    (tmp_path / "p.bin").write_bytes(binary_drat(steps))
    assert not is_binary_proof((tmp_path / "p.drat").read_bytes())
    assert is_binary_proof((tmp_path / "p.bin").read_bytes())
    assert list(read_proof(tmp_path / "p.drat")) == steps
    assert list(read_proof(tmp_path / "p.bin")) == steps
    # Big literals take several varint bytes; a deletion may come first.
    odd = [(True, [300000, -70000]), (False, [-1, 128, -129, 2 ** 30]), (False, [])]
    (tmp_path / "odd.bin").write_bytes(binary_drat(odd))
    assert list(read_proof(tmp_path / "odd.bin")) == odd


@pytest.mark.parametrize("suffix,opener", [(".gz", gzip.open), (".xz", lzma.open),
                                           (".bz2", bz2.open)])
def test_compressed_proofs(tmp_path: Path, proofs, suffix: str, opener) -> None:
    steps = steps_of(proofs["glucose4", "random60"])
    for kind, data in (("txt", text_drat(steps).encode()), ("bin", binary_drat(steps))):
        path = tmp_path / f"proof.{kind}{suffix}"
        with opener(path, "wb") as f:
            f.write(data)
        assert list(read_proof(path)) == steps
    assert check_drat(60, RANDOM, read_proof(tmp_path / f"proof.bin{suffix}")).ok


def test_text_format_details(tmp_path: Path) -> None:
    path = tmp_path / "p.drat"
    path.write_text("c a comment\n1 2\n 3 0 d 4 0\n\nd 5\n6 0 -7 0\n")
    assert list(read_proof(path)) == [(False, [1, 2, 3]), (True, [4]), (True, [5, 6]),
                                      (False, [-7])]
    assert list(read_proof(tmp_path / "p.drat")) == list(parse_proof_lines(path.read_bytes()
                                                                          .splitlines()))
    empty = tmp_path / "empty.drat"
    empty.write_bytes(b"")
    assert list(read_proof(empty)) == []


@pytest.mark.parametrize("content,where", [
    (b"1 2 0\n3 x 0\n", "line 2: 'x' is not a literal"),
    (b"1 2 0\n3 d 4 0\n", "line 2: 'd' inside a clause"),
    (b"1 2 0\n3 4\n", "line 2: the proof ends inside a clause"),
    (b"a\x02\x04\x00a\x06", "ends inside a clause (offset 6)"),
    (b"a\x02\x00q\x04\x00", "byte 0x71 at offset 3 is neither 'a' nor 'd'"),
    (b"a\x02\x01\x00", "literal -0 at offset 2"),
])
def test_malformed_proofs(tmp_path: Path, content: bytes, where: str) -> None:
    path = tmp_path / "bad.drat"
    path.write_bytes(content)
    with pytest.raises(SatDominoError, match="bad.drat") as info:
        list(read_proof(path))
    assert where in str(info.value)
    assert "\n" not in str(info.value)


def test_unreadable_proofs(tmp_path: Path) -> None:
    with pytest.raises(SatDominoError, match="cannot read proof"):
        list(read_proof(tmp_path / "missing.drat"))
    broken = tmp_path / "broken.drat.gz"
    broken.write_bytes(gzip.compress(b"1 2 0\n" * 1000)[:40])
    with pytest.raises(SatDominoError, match="cannot read proof"):
        list(read_proof(broken))
    notxz = tmp_path / "plain.drat.xz"
    notxz.write_bytes(b"1 2 0\n")
    with pytest.raises(SatDominoError, match="cannot read proof"):
        list(read_proof(notxz))


def test_malformed_steps_are_errors() -> None:
    with pytest.raises(SatDominoError, match="formula clause 1 contains the literal 0"):
        check_drat(3, [[1, 0, 2]], [])
    with pytest.raises(SatDominoError, match="proof step 2 contains the literal 0"):
        check_drat(3, SMALL, [(True, [0]), (False, [1, 0])])


def test_deadline(proofs) -> None:
    steps = steps_of(proofs["cadical195", "php6"])
    with pytest.raises(SatDominoError, match="proof check ran out of time"):
        check_drat(num_vars(PHP6), PHP6, steps, deadline=Deadline(time.monotonic() - 1))
    assert check_drat(num_vars(PHP6), PHP6, steps, deadline=Deadline.after(600)).ok


# ----------------------------------------------------------------------------- CaDiCaL binary


def test_cadical_binary_proof(tmp_path: Path) -> None:
    exe = shutil.which("cadical")
    if exe is None:
        pytest.skip("cadical is not installed")
    cnf = tmp_path / "php6.cnf"
    CNF(from_clauses=PHP6).to_file(str(cnf))
    binary, text = tmp_path / "php6.drat", tmp_path / "php6.txt"
    for proof, flag in ((binary, "--binary=true"), (text, "--binary=false")):
        run = subprocess.run([exe, "-q", flag, str(cnf), str(proof)], capture_output=True,
                             text=True, timeout=60)
        assert run.returncode == 20, run.stdout + run.stderr
    assert is_binary_proof(binary.read_bytes()[:4096])
    assert not is_binary_proof(text.read_bytes()[:4096])
    steps = list(read_proof(binary))
    assert steps == list(read_proof(text))
    result = check_drat_files(cnf, binary)
    assert result.ok, result.message
    assert result.lemmas > 100
    # The same proof against a satisfiable part of the formula fails.
    with Solver(name="cadical195", bootstrap_with=PHP6[:-10]) as s:
        assert s.solve() is True
    assert not check_drat(num_vars(PHP6), PHP6[:-10], steps).ok


# ----------------------------------------------------------------------------- drat-trim


def fake_drat_trim(folder: Path, script: str) -> None:
    exe = folder / "drat-trim"
    exe.write_text("#!/bin/sh\n" + script)
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)


def test_drat_trim_missing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert drat_trim(tmp_path / "f.cnf", tmp_path / "p.drat", 10) is None


def test_drat_trim_output_is_parsed(tmp_path: Path, monkeypatch) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    cnf = tmp_path / "f.cnf.xz"
    with lzma.open(cnf, "wt") as f:
        f.write("p cnf 1 2\n1 0\n-1 0\n")
    proof = tmp_path / "p.drat.gz"
    with gzip.open(proof, "wt") as f:
        f.write("0\n")
    # The fake checks that it got plain files (drat-trim reads no compression).
    fake_drat_trim(bin_dir, 'head -c 1 "$1" | grep -q p && head -c 1 "$2" | grep -q 0 || exit 3\n'
                   'printf "c 1 of 1 lemmas in core\\nc 0 RAT lemmas in core\\n'
                   '\\rs VERIFIED\\n"\n')
    result = drat_trim(cnf, proof, 10)
    assert result is not None and result.ok and result.lemmas == 1
    fake_drat_trim(bin_dir, 'echo "c RAT check failed on all possible pivots"; '
                   'printf "\\ns NOT VERIFIED\\n"; exit 1\n')
    result = drat_trim(cnf, proof, 10)
    assert result is not None and not result.ok and "NOT VERIFIED" in result.message
    fake_drat_trim(bin_dir, 'echo "s TIMEOUT"\n')
    with pytest.raises(SatDominoError, match="ran out of time"):
        drat_trim(cnf, proof, 1)
    fake_drat_trim(bin_dir, 'echo "c ERROR: something"\n')
    with pytest.raises(SatDominoError, match="no verdict"):
        drat_trim(cnf, proof, 10)


# ----------------------------------------------------------------------------- soundness


def test_mutated_proofs_never_refute_satisfiable_formulas() -> None:
    """Random small formulas, solver proofs mutated at random (lemmas dropped or invented, any
    clause deleted, units and reasons included, literal order shuffled): whatever the checker
    accepts must be unsatisfiable, by an independent solver. Unmutated proofs pass."""
    rng = random.Random(7)
    accepted = rejected = satisfiable = 0
    for case in range(150):
        n = rng.randint(5, 12)
        formula = random3(n, rng.randint(4 * n, 7 * n), case)
        formula += [[rng.choice([-1, 1]) * rng.randint(1, n)] for _ in range(rng.randint(0, 1))]
        formula += [[rng.choice([-1, 1]) * v for v in rng.sample(range(1, n + 1), 2)]
                    for _ in range(rng.randint(0, n))]
        with Solver(name="cadical195", bootstrap_with=formula, with_proof=True) as s:
            found_model = s.solve()
            # read even when unused: python-sat leaves an unread proof's tail in a C stream
            # over a descriptor it closes, for the next fflush(NULL) to write elsewhere
            steps = steps_of(s.get_proof())
        if found_model:
            continue
        assert check_drat(n, formula, steps).ok
        for _ in range(6):
            target = list(formula)
            for _ in range(rng.choice([0, 0, 1, 3, len(target) // 6, len(target) // 3])):
                target.pop(rng.randrange(len(target)))  # maybe satisfiable now
            mutated: Steps = []
            known = [list(c) for c in target]
            for deletion, lits in steps:
                roll = rng.random()
                if roll < 0.1:
                    continue  # drop the step
                if roll < 0.2:
                    size = rng.randint(0, 3)
                    fresh = [rng.choice([-1, 1]) * rng.randint(1, n + 2) for _ in range(size)]
                    mutated.append((False, fresh))
                    known.append(fresh)
                if roll > 0.85 and known:
                    victim = list(rng.choice(known))
                    rng.shuffle(victim)
                    mutated.append((True, victim))
                mutated.append((deletion, lits))
                if not deletion:
                    known.append(lits)
            result = check_drat(n, target, mutated)
            if result.ok:
                accepted += 1
                with Solver(name="minisat22", bootstrap_with=target) as s:
                    assert s.solve() is False, (target, mutated, result)
            else:
                rejected += 1
                with Solver(name="minisat22", bootstrap_with=target) as s:
                    satisfiable += s.solve()
    # Both outcomes were exercised, on satisfiable targets too.
    assert accepted > 50 and rejected > 100 and satisfiable > 50


# issue 37: proofs bounded, and named when they are no DRAT

def test_a_compressed_proof_bomb_is_refused_before_any_work(tmp_path, capsys) -> None:
    cnf = tmp_path / "u.cnf"
    cnf.write_text("p cnf 1 2\n1 0\n-1 0\n")
    bomb = tmp_path / "bomb.drat.gz"
    with gzip.open(bomb, "wb", compresslevel=1) as f:  # 70 MiB of digits, in chunks
        chunk = b"1" * 2**20
        for _ in range(fileio.MAX_INPUT_BYTES // len(chunk) + 6):
            f.write(chunk)
    one_error(capsys, ["check-proof", str(cnf), str(bomb), "--timeout", "5"],
              "bomb.drat.gz: larger than 64 MiB once decompressed")


def test_a_plain_proof_beyond_the_bound_is_refused(tmp_path, capsys, monkeypatch) -> None:
    cnf = tmp_path / "u.cnf"
    cnf.write_text("p cnf 1 2\n1 0\n-1 0\n")
    proof = tmp_path / "big.drat"
    proof.write_text("1 0\n" * 1000)
    monkeypatch.setattr(fileio, "MAX_INPUT_BYTES", 1000)
    one_error(capsys, ["check-proof", str(cnf), str(proof), "--no-drat-trim"],
              "big.drat: larger than")


@pytest.mark.parametrize("proof, where", [
    (b"hello world\n1 0\n", "neither text DRAT (line 1: 'hello' is not a literal) nor binary "
     "DRAT (byte 0x68 at offset 0"),
    (b"1\x000\n", "neither text DRAT (line 1:"),
])
def test_a_proof_that_is_no_drat_says_so(tmp_path, capsys, proof, where) -> None:
    cnf = tmp_path / "u.cnf"
    cnf.write_text("p cnf 1 2\n1 0\n-1 0\n")
    (tmp_path / "p.drat").write_bytes(proof)
    one_error(capsys, ["check-proof", str(cnf), str(tmp_path / "p.drat"), "--no-drat-trim"],
              where)


def test_a_text_proof_starting_with_a_plus_is_read_as_text(tmp_path, capsys) -> None:
    cnf = tmp_path / "u.cnf"
    cnf.write_text("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
    (tmp_path / "p.drat").write_text("+2 0\n0\n")
    assert main(["check-proof", str(cnf), str(tmp_path / "p.drat"), "--no-drat-trim"]) == 0
    assert "s VERIFIED" in capsys.readouterr().out
