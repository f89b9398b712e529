"""Output files, written one way everywhere (``fileio.atomic_text``): compressed by suffix,
numbered together when a command writes several, ``-`` for standard output where one stream
can hold the output, refused in one line where it cannot."""

from __future__ import annotations

import gzip
import re

import pytest

import satdomino
from satdomino.cli import main
from satdomino.cli.common import numbered

from .conftest import EXAMPLES

DOUBLE6 = str(EXAMPLES / "dominosa" / "double6.txt")


@pytest.mark.parametrize("base, index, total, suffix, expected", [
    ("g.cnf", 2, 3, "", "g-2.cnf"),
    ("g.drat", 1, 2, "", "g-1.drat"),
    ("out/g.cnf.gz", 1, 2, "", "out/g-1.cnf.gz"),
    ("g.drat.xz", 2, 2, "", "g-2.drat.xz"),
    ("pictures", 1, 2, ".svg", "pictures-1.svg"),
    ("puzzles", 1, 2, "", "puzzles-1"),
    ("g.cnf.gz", 1, 1, "", "g.cnf.gz"),
])
def test_numbered_names_keep_format_and_compression(base, index, total, suffix,
                                                    expected) -> None:
    assert numbered(base, index, total, suffix) == expected


def test_several_instances_get_their_own_proofs_and_working_check_commands(
        capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "dominofit", "--width", "4", "--height", "4", "--number", "2",
                 "-o", "g.cnf", "--uniqueness", "--proof", "g.drat"]) == 0
    out = capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "g-1.cnf", "g-1.cnf.map.json", "g-1.drat", "g-2.cnf", "g-2.cnf.map.json", "g-2.drat"]
    commands = re.findall(r"check: satdomino (check-proof \S+ \S+)\)", out)
    assert commands == ["check-proof g-1.cnf g-1.drat", "check-proof g-2.cnf g-2.drat"]
    for command in commands:
        assert main(command.split()) == 0
        assert "s VERIFIED" in capsys.readouterr().out


@pytest.mark.parametrize("argv, name", [
    (["generate", "pips", "--dominoes", "4"], "g.json.gz"),
    (["generate", "dominosa", "--n", "3", "--number", "2"], "g.txt.gz"),
    (["solve", DOUBLE6, "--svg"], "g.svg.gz"),
])
def test_output_files_are_compressed_by_suffix(capsys, tmp_path, argv, name) -> None:
    target = tmp_path / name
    assert main([*argv, *([] if argv[-1] == "--svg" else ["-o"]), str(target)]) == 0
    capsys.readouterr()
    assert target.read_bytes()[:2] == b"\x1f\x8b"  # gzip's magic
    text = gzip.decompress(target.read_bytes()).decode()
    if name.endswith(".svg.gz"):
        assert text.startswith("<svg")
    else:
        assert len(satdomino.read(str(target))) == (2 if "--number" in argv else 1)


def test_dash_is_standard_output_for_generate_and_export(capsys, tmp_path,
                                                         monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["generate", "dominosa", "--n", "3", "-o", "-"]) == 0
    puzzle = capsys.readouterr().out
    assert len(satdomino.parse(puzzle)) == 1
    assert main(["generate", "dominosa", "--n", "3", "--number", "2", "-o", "-"]) == 0
    assert len(satdomino.parse(capsys.readouterr().out)) == 2  # one a line
    assert main(["generate", "dominosa", "--n", "3", "--format", "opb", "-o", "-"]) == 0
    assert capsys.readouterr().out.startswith("* #variable=")
    assert main(["export", DOUBLE6, "-o", "-"]) == 0
    out, err = capsys.readouterr()
    assert re.search(r"^p cnf 294 615$", out, re.M) and "c generator: satdomino" in out
    assert err.startswith("satdomino: standard output: dimacs, 294 variables, 615 clauses")
    assert "map" not in err and err.count("\n") == 1
    assert main(["export", DOUBLE6, "-o", "-", "--format", "smt2"]) == 0
    assert "(check-sat)" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []  # no file named "-", no map


@pytest.mark.parametrize("argv, words", [
    (["generate", "pips", "--dominoes", "4", "--number", "2", "-o", "-"],
     "--number 2 writes 2 files: -o - (standard output) takes one"),
    (["generate", "dominosa", "--n", "3", "--number", "2", "--format", "dimacs", "-o", "-"],
     "--number 2 writes 2 files"),
    (["export", DOUBLE6, "-o", "-", "--uniqueness", "--proof", "p.drat"],
     "--proof needs the instance in a file"),
    (["export", DOUBLE6, "-o", "-", "--json"], "--json needs the instance in a file"),
    (["export", DOUBLE6, "-o", "x.cnf", "--uniqueness", "--proof", "-"],
     "--proof: - (standard output) cannot be written here"),
    (["solve", DOUBLE6, "--svg", "-"], "--svg: - (standard output) cannot be written here"),
    (["explain", DOUBLE6, "--svg", "-"], "--svg: - (standard output) cannot be written here"),
    (["compare", DOUBLE6, "-o", "-"], "-o: - (standard output) cannot be written here"),
    (["compare", DOUBLE6, "-o", "r.csv", "--plot", "-"], "- (standard output)"),
    (["generate", "pips", "--dominoes", "4", "-o", "g.json.zst"], ".zst compression"),
])
def test_dash_where_it_cannot_work_is_one_line(capsys, tmp_path, monkeypatch, argv,
                                               words) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and words in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_library_exports_to_standard_output(capsys) -> None:
    [p] = satdomino.read(DOUBLE6)
    record = p.export("-", "opb")
    assert record["file"] == "-" and record["map"] is None
    assert capsys.readouterr().out.startswith("* #variable= 97")
