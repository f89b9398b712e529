"""Competition instances: GBD hashes, provenance comments, uniqueness instances and proofs."""

from __future__ import annotations

import bz2
import gzip
import hashlib
import json
import lzma
import random

import pytest

from satdomino import generators as gen
from satdomino.backends import get_backend
from satdomino.cli import main
from satdomino.encode import CNF
from satdomino.export.dimacs import gbd_hash, gbd_hash_file, read_dimacs, to_dimacs
from satdomino.export.linear import opb_hash
from satdomino.instance import INSTANCE_SOLVER
from satdomino.puzzles import family
from satdomino.solve import solve

from .conftest import EXAMPLES

FORMATTED = "c a comment\np cnf 3 2\n1 -2 0\n  3\n -1 0\n"  # a clause split over two lines


def _write_all_compressions(tmp_path, text: str) -> list:
    paths = []
    for suffix, opener in [("", open), (".gz", gzip.open), (".xz", lzma.open),
                           (".bz2", bz2.open)]:
        path = tmp_path / f"f.cnf{suffix}"
        with opener(path, "wt") as f:
            f.write(text)
        paths.append(path)
    return paths


def test_every_format_is_compressed_by_its_suffix(tmp_path, capsys) -> None:
    """The suffix before the compression names the format; the compression suffix any case;
    gzip output the same bytes each time; a compression Python cannot write refused."""
    board = str(EXAMPLES / "dominosa" / "double6.txt")
    plain = {}
    for fmt, suffix in [("dimacs", ".cnf"), ("opb", ".opb"), ("smt2", ".smt2"), ("lp", ".lp")]:
        assert main(["export", board, "-o", str(tmp_path / f"p{suffix}")]) == 0
        plain[fmt] = (tmp_path / f"p{suffix}").read_text()
        for comp, opener in [(".gz", gzip.open), (".XZ", lzma.open), (".bz2", bz2.open),
                             (".lzma", lzma.open)]:
            out = tmp_path / f"c{suffix}{comp}"
            assert main(["export", board, "-o", str(out), "--json"]) == 0
            assert json.loads(capsys.readouterr().out.splitlines()[-1])["format"] == fmt
            with opener(out, "rt") as f:
                assert f.read() == plain[fmt].replace(str(tmp_path / f"p{suffix}"), str(out))
    with lzma.open(tmp_path / "c.cnf.lzma", format=lzma.FORMAT_ALONE) as f:  # not .xz
        assert f.read()
    first = (tmp_path / "c.cnf.gz").read_bytes()
    assert main(["export", board, "-o", str(tmp_path / "c.cnf.gz")]) == 0
    assert (tmp_path / "c.cnf.gz").read_bytes() == first
    capsys.readouterr()
    assert main(["export", board, "-o", str(tmp_path / "z.cnf.zst")]) == 2
    assert "not supported" in capsys.readouterr().err
    assert not list(tmp_path.glob("z.cnf*"))


def test_gbd_hash_is_md5_of_the_literals(tmp_path) -> None:
    expected = hashlib.md5(b"1 -2 0 3 -1 0").hexdigest()
    assert gbd_hash([[1, -2], [3, -1]]) == expected
    for path in _write_all_compressions(tmp_path, FORMATTED):
        assert gbd_hash_file(path) == expected
    assert gbd_hash([[1, 2]]) != gbd_hash([[2, 1]])  # clause order and literal order count


def test_dimacs_text_reads_back_as_written(tmp_path) -> None:
    rng = random.Random(7)
    # every length from 0 to 100 (the writer formats short clauses from a table, long ones not)
    clauses = [[rng.choice([-1, 1]) * rng.randint(1, 300) for _ in range(k)] for k in range(101)]
    rng.shuffle(clauses)
    cnf = CNF(300, 300, clauses)
    path = tmp_path / "r.cnf"
    path.write_text(to_dimacs(cnf, comments=["made here"], extra=[[5], [-6, 7]]))
    assert read_dimacs(path) == (300, clauses + [[5], [-6, 7]])
    assert path.read_text().splitlines()[:2] == ["c made here", f"p cnf 300 {len(clauses) + 2}"]


def test_gbd_hash_agrees_with_gbdc(tmp_path) -> None:
    gbdc = pytest.importorskip("gbdc")
    for path in _write_all_compressions(tmp_path, FORMATTED):
        assert gbdc.gbdhash(str(path)) == gbd_hash_file(path)
    out = tmp_path / "d.cnf"
    assert main(["export", str(EXAMPLES / "dominosa" / "double12.txt"), "-o", str(out)]) == 0
    assert gbdc.gbdhash(str(out)) == gbd_hash_file(out)


def test_opb_hash_agrees_with_gbdc(tmp_path, capsys) -> None:
    text = "* #variable= 2 #constraint= 2\n* hi\n+1 x1 -2 x2 >= -1 ;\n+1 x1 +1 x2 = 1 ;\n"
    assert opb_hash(text) == hashlib.md5(b"1 x1 -2 x2 >= -1;1 x1 1 x2 = 1;").hexdigest()
    out = tmp_path / "f.opb"
    assert main(["export", str(EXAMPLES / "dominofit" / "published-7x7.json"), "-o", str(out),
                 "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["hash"] == opb_hash(out.read_text()) and rec["hash_kind"] == "gbd-opb"
    gbdc = pytest.importorskip("gbdc")
    assert gbdc.opbhash(str(out)) == rec["hash"]


def test_export_json_describes_the_file(tmp_path, capsys) -> None:
    out = tmp_path / "p.cnf.bz2"
    assert main(["export", str(EXAMPLES / "pips" / "planted-10.json"), "-o", str(out),
                 "--json", "--amo", "ladder"]) == 0
    rec = json.loads(capsys.readouterr().out)
    nv, clauses = read_dimacs(out)
    assert rec == {"file": str(out), "format": "dimacs", "variables": nv,
                   "clauses": len(clauses), "hash": gbd_hash(clauses), "hash_kind": "gbd",
                   "status": None, "map": str(out) + ".map.json"}


def test_generated_instances_record_where_they_came_from(tmp_path, capsys) -> None:
    out = tmp_path / "g.cnf.xz"
    args = ["generate", "pips", "--dominoes", "7", "--seed", "5", "--model", "link-value",
            "--int", "order", "-o", str(out), "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    with lzma.open(out, "rt") as f:
        lines = f.read().splitlines()
    head = lines[:lines.index(next(ln for ln in lines if ln.startswith("p ")))]
    assert all(ln.startswith("c ") for ln in head)
    assert head[0].startswith("c generator: satdomino ") and head[1] == "c family: pips"
    params = json.loads(head[2].removeprefix("c parameters: "))
    assert params == {"dominoes": 7, "max_pip": 6, "seed": 5, "unique": False}
    assert "c source: satdomino generate pips --dominoes 7 --max-pip 6 --seed 5" in head
    assert "c status: SATISFIABLE" in head and "c model: link-value" in head
    assert main(args) == 0  # the same command makes the same instance
    assert json.loads(capsys.readouterr().out)["hash"] == first["hash"]
    other = gen.planted(family("pips"), {"dominoes": 7, "max_pip": 6}, 6)
    assert family("pips").write(other) != json.loads(
        (tmp_path / "g.cnf.xz.map.json").read_text())["input"]


CASES = [("dominosa", {"n": 4}, s) for s in range(4)] + \
        [("pips", {"dominoes": 5, "max_pip": 6}, s) for s in range(4)] + \
        [("dominofit", {"width": 5, "height": 5}, s) for s in range(3)] + \
        [("doodlefit", {"cells": 12, "blocks": 3}, s) for s in range(3)]


@pytest.mark.parametrize("kind, params, seed", CASES)
def test_uniqueness_instance_is_unsat_exactly_when_unique(tmp_path, capsys, kind, params,
                                                          seed) -> None:
    puzzle = gen.planted(family(kind), params, seed)
    unique = solve(puzzle, family(kind), unique=True).unique
    out = tmp_path / "u.cnf"
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in params.items()]
    assert main(["generate", kind, *flags, "--seed", str(seed), "--uniqueness", "-o", str(out),
                 "--json", "--amo", "pairwise"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == ("UNSATISFIABLE" if unique else "SATISFIABLE")
    nv, clauses = read_dimacs(out)
    answer = get_backend("minisat22").solve(CNF(nv, 0, clauses))  # another solver decides
    assert answer.status == ("unsat" if unique else "sat")
    if not unique:  # the second solution decodes, verifies, and differs from the first
        text = "s SATISFIABLE\nv " + " ".join(
            str(x if x in answer.true_vars else -x) for x in range(1, nv + 1)) + " 0\n"
        (tmp_path / "a.txt").write_text(text)
        assert main(["decode", str(out), str(tmp_path / "a.txt"), "--json"]) == 0
        second = json.loads(capsys.readouterr().out)["solution"]
        # the solution the instance excludes: found by its fixed solver
        first = solve(puzzle, family(kind), backend=INSTANCE_SOLVER).solution
        assert second != family(kind).solution_json(puzzle, first)


def test_uniqueness_of_an_unsolvable_puzzle_is_refused(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("1:0000\n")  # double-1: three dominoes, but no 1 anywhere
    out = tmp_path / "u.cnf"
    code = main(["export", str(bad), "-o", str(out), "--uniqueness"])
    err = capsys.readouterr().err
    if code == 2 and "no solution" in err:
        assert not out.exists() and not (tmp_path / "u.cnf.map.json").exists()
    else:  # the parser rejected the board first: still one clear line, nothing written
        assert code == 2 and err.count("\n") == 1 and not out.exists()


def test_proof_of_uniqueness_is_written_and_checks(tmp_path, capsys) -> None:
    out, proof = tmp_path / "u.cnf", tmp_path / "u.drat.gz"
    assert main(["export", str(EXAMPLES / "pips" / "planted-6-unique.json"), "-o", str(out),
                 "--uniqueness", "--proof", str(proof), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "UNSATISFIABLE" and rec["proof"]["lines"] > 0
    with gzip.open(proof, "rt") as f:
        assert f.read().rstrip().endswith("0")
    assert main(["check-proof", str(out), str(proof), "--json", "--no-drat-trim"]) == 0
    check = json.loads(capsys.readouterr().out)
    assert check["verified"] and check["checks"]["built-in"]["lemmas"] > 0
    # the same proof does not prove a different formula unsatisfiable
    other = tmp_path / "o.cnf"
    assert main(["export", str(EXAMPLES / "pips" / "planted-6-unique.json"), "-o", str(other)]) == 0
    capsys.readouterr()
    assert main(["check-proof", str(other), str(proof), "--no-drat-trim"]) == 1
    assert "s NOT VERIFIED" in capsys.readouterr().out


def test_a_proof_of_a_puzzle_without_solution_says_unsatisfiable(tmp_path, capsys) -> None:
    puzzle = tmp_path / "none.txt"
    puzzle.write_text("2:021012022011\n")  # every number four times, and no tiling fits
    out, proof = tmp_path / "n.cnf", tmp_path / "n.drat"
    assert main(["export", str(puzzle), "-o", str(out), "--proof", str(proof), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "UNSATISFIABLE" and rec["proof"]["lines"] > 0
    assert main(["check-proof", str(out), str(proof), "--no-drat-trim"]) == 0


def test_no_proof_for_a_satisfiable_instance(tmp_path, capsys) -> None:
    out, proof = tmp_path / "s.cnf", tmp_path / "s.drat"
    assert main(["export", str(EXAMPLES / "pips" / "planted-10.json"), "-o", str(out),
                 "--proof", str(proof)]) == 1
    assert "satisfiable" in capsys.readouterr().err and not proof.exists()
    assert main(["export", str(EXAMPLES / "pips" / "planted-10.json"), "-o",
                 str(tmp_path / "s.opb"), "--proof", str(proof)]) == 2
    assert main(["export", str(EXAMPLES / "pips" / "planted-10.json"), "-o", str(out),
                 "--proof", str(proof), "--proof-backend", "minisat22"]) == 2
    assert "cannot log proofs" in capsys.readouterr().err


def test_check_proof_bad_input(tmp_path, capsys) -> None:
    cnf = tmp_path / "x.cnf"
    cnf.write_text("p cnf 2 1\n1 two 0\n")
    (tmp_path / "p.drat").write_text("0\n")
    assert main(["check-proof", str(cnf), str(tmp_path / "p.drat")]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and err.count("\n") == 1
    assert main(["check-proof", str(tmp_path / "none.cnf"), str(tmp_path / "p.drat")]) == 2
