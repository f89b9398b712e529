"""The CLI contract: JSON lines, exit codes, one-line errors, stdin, folders, SVG, time limits."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from satdomino.backends import Backend, Result, get_backend
from satdomino.cli import main
from satdomino.clock import NEVER
from satdomino.encode import Encodings
from satdomino.puzzles import dominosa as D
from satdomino.puzzles import pips as P
from satdomino.render.text import counted
from satdomino.result import Count

from .conftest import EXAMPLES, need_binary

DOUBLE6 = str(EXAMPLES / "dominosa" / "double6.txt")
KEYS = {"file", "puzzle", "kind", "status", "solution", "unique", "stats"}


def run(capsys, *argv: str) -> tuple[int, list[dict], str]:
    code = main(list(argv))
    cap = capsys.readouterr()
    lines = [json.loads(x) for x in cap.out.splitlines()] if "--json" in argv else []
    return code, lines, cap.err


def test_json_line_contract(capsys) -> None:
    code, [rec], err = run(capsys, "solve", DOUBLE6, "--json", "--unique")
    assert code == 0 and err == ""
    assert set(rec) == KEYS
    assert rec["file"] == DOUBLE6 and rec["puzzle"] is None and rec["kind"] == "dominosa"
    assert rec["status"] == "sat" and rec["unique"] is True
    board = D.parse(Path(DOUBLE6).read_text())[0][1]
    sol = rec["solution"]
    assert len(sol["layout"]) == board.rows and all(len(r) == board.cols for r in sol["layout"])
    assert len(sol["dominoes"]) == 28
    pairs = tuple(sorted(tuple(sorted(map(tuple, d["cells"]))) for d in sol["dominoes"]))
    assert D.verify(board, D.DominosaSolution(pairs)) == []
    assert D.from_layout(sol["layout"]) == D.DominosaSolution(pairs)
    for d in sol["dominoes"]:
        assert [board.at(tuple(c)) for c in d["cells"]] == d["pips"]
    st = rec["stats"]
    assert {"variables", "clauses", "encode_seconds", "solve_seconds", "backend",
            "encodings"} <= set(st)
    # auto picked (and says so); a named backend gets the plain default encodings
    assert st["backend"].startswith("auto: ") and st["encodings"]["amo"] == "pairwise"
    code, [rec], err = run(capsys, "solve", DOUBLE6, "--json", "--backend", "cadical195")
    assert rec["stats"]["backend"] == "cadical195"
    assert rec["stats"]["encodings"] == Encodings().as_dict()


def test_folders_stdin_and_errors_keep_going(capsys, tmp_path, monkeypatch) -> None:
    (tmp_path / "bad.txt").write_text("1 2 3\n4 5\n")
    (tmp_path / "good.txt").write_text(D.planted(3, 1)[0].game_id())
    (tmp_path / "junk.txt").write_bytes(b"\x00\x01\x02binary")
    code, recs, _ = run(capsys, "solve", str(tmp_path), str(tmp_path / "missing.txt"), "--json")
    assert code == 2
    by_file = {Path(r["file"]).name: r for r in recs}
    assert by_file["good.txt"]["status"] == "sat"
    assert by_file["bad.txt"]["status"] == "error" and "ragged" in by_file["bad.txt"]["error"]
    assert "binary" in by_file["junk.txt"]["error"]
    assert by_file["missing.txt"]["error"] == "no such file"


def test_stdin_and_real_console_script() -> None:
    exe = Path(sys.executable).with_name("satdomino")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "satdomino.cli"]
    gid = D.planted(4, 9)[0].game_id()
    p = subprocess.run([*cmd, "solve", "-", "--json"], input=gid, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["file"] == "-"
    p = subprocess.run([*cmd, "solve", "-"], input="\x00junk", capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_unsat_exit_1(capsys, tmp_path) -> None:
    f = tmp_path / "u.txt"
    f.write_text("3 4\n0 2 1 0\n1 2 0 2\n2 0 1 1\n")  # brute force: no solution
    code, [rec], _ = run(capsys, "solve", str(f), "--json", "--unique")
    assert code == 1 and rec["status"] == "unsat" and rec["solution"] is None


@pytest.mark.parametrize("argv, message", [
    (["solve", DOUBLE6, "--amo", "nope"], "unknown amo encoding 'nope'"),
    (["solve", DOUBLE6, "--backend", "nope"], "unknown backend 'nope' ('satdomino encodings"),
    (["solve", DOUBLE6, "--backend", "cadical"], "did you mean cadical103, cadical153, cadical195"),
    (["solve", DOUBLE6, "--backend", "kisat"], "did you mean kissat404?"),
    (["solve", DOUBLE6, "--amo", "native", "--backend", "cadical195"], "no native cardinality"),
    (["solve", DOUBLE6, "--backend", "external:/no/such/solver"], "not found"),
    (["solve", DOUBLE6, "--backend", "highs:no_such_option=1"], "HiGHS refuses the option"),
    (["solve", DOUBLE6, "--backend", "portfolio:minisat22+glucose4@-1"], "0 to 86400 seconds"),
    (["solve", DOUBLE6, "--backend", "by-size:many:minisat22|glucose4"], "write by-size:VARS"),
    (["solve", DOUBLE6, "--kind", "dominosa", "--model", "x"], "unknown model 'x'"),
    (["solve", DOUBLE6, "--timeout", "-1"], "--timeout must be a number of seconds above 0"),
    (["frobnicate"], "invalid choice"),
    (["solve"], "required"),
])
def test_usage_errors_are_one_line_exit_2(capsys, argv, message) -> None:
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and message.split("must")[0] in err, err


def test_svg_files(capsys, tmp_path) -> None:
    out = tmp_path / "d.svg"
    code, _, _ = run(capsys, "solve", DOUBLE6, str(EXAMPLES / "dominosa" / "double3-grid.txt"),
                     "--svg", str(out))
    assert code == 0
    for name in ("d-1.svg", "d-2.svg"):
        root = ET.parse(tmp_path / name).getroot()
        rects = [e for e in root.iter() if e.tag.endswith("rect") and e.get("rx")]
        assert rects, "dominoes are drawn as rounded rectangles"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d-1.svg", "d-2.svg"]


def test_text_output_draws_layout(capsys) -> None:
    code = main(["solve", DOUBLE6, "--unique"])
    text = capsys.readouterr().out
    assert code == 0 and "solved, unique" in text
    assert "layout:" in text and "dominoes (pips: cells):" in text and "+---+" in text


def test_encodings_json(capsys) -> None:
    code, _, _ = run(capsys, "encodings")
    assert code == 0
    main(["encodings", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"amo", "card", "pb", "int", "backends", "auto"}
    assert data["backends"][0] == "auto"
    assert {r["family"] for r in data["auto"]} == {"dominosa", "pips", "dominofit", "doodlefit"}
    assert data["int"] == ["direct", "order", "log"]
    assert {"pairwise", "ladder", "bitwise", "commander", "product", "native"} <= set(data["amo"])
    assert {"mtotalizer", "kmtotalizer", "pkd-totalizer", "pkd-sortnetwrk"} <= set(data["card"])
    assert {"bdd", "adder", "mixedradix", "best"} <= set(data["pb"])
    assert {"cadical195", "kissat404", "glucose4", "z3", "z3-smt"} <= set(data["backends"])


# time limits really stop the solver -------------------------------------------------------------

@pytest.fixture(scope="module")
def hard_board(tmp_path_factory) -> str:
    """A planted double-60 board: about 10 s for CaDiCaL, far beyond the limits below."""
    path = tmp_path_factory.mktemp("hard") / "n60.txt"
    path.write_text(D.planted(60, seed=2)[0].game_id())
    return str(path)


@pytest.mark.parametrize("backend", ["cadical195", "lingeling", "z3", "z3-smt",
                                     "external:cadical"])
def test_timeout_reports_unknown_exit_3(capsys, hard_board, backend) -> None:
    if backend.startswith("external:"):
        need_binary(backend.split(":")[1])
    t0 = time.perf_counter()
    code, [rec], _ = run(capsys, "solve", hard_board, "--json", "--timeout", "0.3",
                         "--backend", backend)
    elapsed = time.perf_counter() - t0
    assert code == 3 and rec["status"] == "unknown" and rec["solution"] is None
    assert elapsed < 8, f"time limit 0.3 s but the call took {elapsed:.1f} s"


class SlowSecondCall(Backend):
    """A real solver for the first call; the uniqueness call runs out of time."""

    def __init__(self) -> None:
        super().__init__(name="fake")
        self.inner = get_backend("cadical195")
        self.calls = 0

    def solve(self, formula, assumptions=(), deadline=NEVER, phases=()) -> Result:
        self.calls += 1
        if self.calls == 1:
            return self.inner.solve(formula, assumptions, deadline)
        return Result("unknown", note="time limit")


def test_uniqueness_cut_short_is_exit_3(capsys, monkeypatch) -> None:
    monkeypatch.setattr("satdomino.cli.solve.get_backend", lambda name: SlowSecondCall())
    code, [rec], _ = run(capsys, "solve", DOUBLE6, "--json", "--unique", "--backend", "slow")
    assert code == 3
    assert rec["status"] == "sat" and rec["unique"] is None and rec["solution"] is not None
    code = main(["solve", DOUBLE6, "--unique", "--backend", "slow"])
    assert code == 3 and "uniqueness unknown" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["inf", "1e400", "1e7", "nan", "0"])
def test_timeout_values_out_of_range(capsys, value) -> None:
    code, _, err = run(capsys, "solve", DOUBLE6, "--timeout", value)
    assert code == 2 and "--timeout must be a number of seconds above 0" in err


def test_output_targets(capsys, tmp_path) -> None:
    (tmp_path / "folder").mkdir()
    for target, message in [(tmp_path / "folder", "not a regular file"),
                            (Path("/dev/null"), "not a regular file"),
                            (tmp_path / "missing" / "x.svg", "does not exist")]:
        code, _, err = run(capsys, "solve", DOUBLE6, "--svg", str(target))
        assert code == 2 and message in err and err.count("\n") == 1
    assert Path("/dev/null").is_char_device()
    real = tmp_path / "real.svg"
    real.write_text("old")
    (tmp_path / "link.svg").symlink_to(real)
    assert run(capsys, "solve", DOUBLE6, "--svg", str(tmp_path / "link.svg"))[0] == 0
    assert (tmp_path / "link.svg").is_symlink() and real.read_text().startswith("<svg")
    code, _, err = run(capsys, "generate", "dominosa", "--n", "3", "-o", str(tmp_path / "no/x"))
    assert code == 2 and "does not exist" in err


def test_folder_without_puzzles_and_bom(capsys, tmp_path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.md").write_text("# not a puzzle")
    code, [a, b], err = run(capsys, "solve", str(tmp_path / "empty"), str(tmp_path), "--json")
    assert code == 2 and a["status"] == b["status"] == "error"
    assert "no puzzle files" in a["error"] and err.count("\n") == 2  # stderr gets each line too
    bom = tmp_path / "BOM.TXT"
    bom.write_bytes(b"\xef\xbb\xbf" + Path(DOUBLE6).read_bytes())
    code, [rec], _ = run(capsys, "solve", str(tmp_path), "--json")
    assert code == 0 and rec["status"] == "sat"


def test_one_bad_part_does_not_sink_the_file(capsys, tmp_path) -> None:
    good = D.planted(3, 1)[0].game_id()
    f = tmp_path / "set.tsv"
    f.write_text(f"name\tid\nfirst one\t{good}\nbroken\t3:0123\nlast\t{good}\n")
    code, recs, _ = run(capsys, "solve", str(f), "--json")
    assert code == 2
    assert [(r["puzzle"], r["status"]) for r in recs] == [
        ("first one", "sat"), ("broken", "error"), ("last", "sat")]


@pytest.mark.parametrize("script, code, message", [
    ('echo "s SATISFIABLE"; echo "v 1 2 3 0"; exit 10', 4, "internal error"),
    ('echo "s SATISFIABLE"; echo "v 1 x 0"; exit 10', 2, "bad 'v' line"),
    ("exit 1", 2, "gave no answer"),
])
def test_misbehaving_external_solver(capsys, tmp_path, script, code, message) -> None:
    solver = tmp_path / "solver"
    solver.write_text(f"#!/bin/sh\n{script}\n")
    solver.chmod(0o755)
    grid = str(EXAMPLES / "dominosa" / "double3-grid.txt")
    got, recs, err = run(capsys, "solve", DOUBLE6, grid, "--json", "--backend",
                         f"external:{solver}")
    assert got == code and len(recs) == 2  # every puzzle still gets its line
    assert all(r["status"] == "error" and message in r["error"] for r in recs)
    assert err.count("\n") == 2 and "Traceback" not in err


def test_count_keys_and_limit(capsys) -> None:
    code, [rec], _ = run(capsys, "solve", DOUBLE6, "--json", "--count")
    assert code == 0 and (rec["count"], rec["count_complete"]) == (1, True)
    # the family's counter from the start; enumeration's head start, unless the counter has
    # answered while the model was built; Ganak only if neither had answered by then
    assert rec["count_raced"] in (["dp"], ["dp", "enumeration"], ["dp", "enumeration", "ganak"])
    assert rec["count_method"] in rec["count_raced"]
    code, [rec], _ = run(capsys, "solve", DOUBLE6, "--json", "--count", "--unique")
    assert (rec["count"], rec["count_raced"]) == (1, []) and rec["count_seconds"] >= 0
    many = str(EXAMPLES / "dominosa" / "double12.txt")
    code, [rec], _ = run(capsys, "solve", many, "--json", "--count", "--limit", "5")
    # the limit stops enumeration; on a loaded machine its 20 ms head start may not reach 5,
    # and then the family's exact counter, which ignores the limit, can finish first
    assert code == 0 and (rec["count"], rec["count_complete"]) in {(5, False), (240, True)}
    code, _, err = run(capsys, "solve", DOUBLE6, "--limit", "5")
    assert code == 2 and "--limit needs --count" in err
    pips = str(EXAMPLES / "pips" / "planted-10.json")
    code, [rec], _ = run(capsys, "solve", pips, "--json", "--count")
    [(_, board)] = P.parse(Path(pips).read_text())
    exact = P.count_placements(board)
    assert code == 0 and rec["count"] == exact
    assert rec["count_method"] in (["dp"] if exact > 200 else ["dp", "enumeration"])
    assert rec["count_method"] in rec["count_raced"] and rec["count_raced"][0] == "dp"


def test_counts_in_words_are_singular_for_one(capsys, monkeypatch) -> None:
    assert main(["solve", DOUBLE6, "--count"]) == 0
    assert "count: 1 distinct placement (" in capsys.readouterr().out
    many = str(EXAMPLES / "dominosa" / "double12.txt")
    # the race's exact methods ignore --limit and may answer first: this count is fixed
    import satdomino.cli.solve

    monkeypatch.setattr(satdomino.cli.solve, "count", lambda *a, **k: Count(
        1, "enumeration", False, 0.01, "placement", "--limit reached"))
    assert main(["solve", many, "--count", "--limit", "1"]) == 0
    assert "count: 1+ (incomplete: " in (out := capsys.readouterr().out), out
    assert " distinct placements (" in out
    assert main(["explain", "2:221200101201"]) == 0
    assert ", 6 steps, grade rule" in capsys.readouterr().out
    assert (counted(1, "step"), counted(0, "step"), counted(2, "lemma")) == (
        "1 step", "0 steps", "2 lemmas")


def test_generate_both_families(capsys, tmp_path) -> None:
    out = tmp_path / "p.json"
    assert main(["generate", "pips", "--dominoes", "9", "--seed", "4", "-o", str(out)]) == 0
    [(_, board)] = P.parse(out.read_text())
    assert len(board.dominoes) == 9 and P.verify(board, P.PipsSolution(board.official)) == []
    code, [rec], _ = run(capsys, "solve", str(out), "--json", "--count")
    assert code == 0 and rec["kind"] == "pips" and rec["count"] >= 1
    assert main(["generate", "dominosa", "--n", "5", "--seed", "2"]) == 0
    gid = capsys.readouterr().out.strip()
    assert D.parse(gid)[0][1].n == 5
    assert main(["generate", "pips"]) == 2 and "--dominoes" in capsys.readouterr().err
    assert main(["generate", "dominosa"]) == 2 and "--n" in capsys.readouterr().err


def test_dominofit_cli_and_no_cover(capsys) -> None:
    path = str(EXAMPLES / "dominofit" / "published-7x7.json")
    code, [rec], _ = run(capsys, "solve", path, "--json", "--unique")
    assert code == 0 and rec["kind"] == "dominofit" and rec["unique"] is True
    assert rec["solution"]["rows"][0] == "1X-2-2X"
    code, [loose], _ = run(capsys, "solve", path, "--json", "--count", "--no-cover")
    assert code == 0 and loose["count"] >= 1  # the published reading admits at least as many


def test_generate_fit_families(capsys, tmp_path) -> None:
    for kind, extra, suffix in [("dominofit", ["--width", "6", "--height", "5"], ".json"),
                                ("doodlefit", ["--cells", "14", "--blocks", "3"], ".txt")]:
        out = tmp_path / f"{kind}{suffix}"
        assert main(["generate", kind, *extra, "--seed", "1", "-o", str(out)]) == 0
        code, [rec], _ = run(capsys, "solve", str(out), "--json", "--unique")
        assert code == 0 and rec["kind"] == kind and rec["status"] == "sat"
    assert main(["generate", "dominofit", "--width", "6"]) == 2
    assert "--height" in capsys.readouterr().err


@pytest.mark.parametrize("kind, extra", [
    ("dominosa", ["--n", "3"]), ("pips", ["--dominoes", "6"]),
    ("dominofit", ["--width", "6", "--height", "6"]),
    ("doodlefit", ["--cells", "20", "--blocks", "5"]),
])
def test_generate_unique(capsys, tmp_path, kind, extra) -> None:
    out = tmp_path / "u"
    assert main(["generate", kind, *extra, "--unique", "-o", str(out)]) == 0
    assert "exactly one solution" in capsys.readouterr().err
    code, [rec], _ = run(capsys, "solve", str(out), "--kind", kind, "--json", "--count")
    assert code == 0 and rec["count"] == 1


def test_generate_unique_can_fail_cleanly(capsys) -> None:
    # 60 dominoes take seconds to repair: half a second is not enough, and really stops it
    t0 = time.monotonic()
    code = main(["generate", "pips", "--dominoes", "60", "--unique", "--timeout", "0.5"])
    err = capsys.readouterr().err
    assert code == 3 and err == ("satdomino: no unique Pips puzzle of 60 dominoes within the "
                                 "time limit\n")
    assert time.monotonic() - t0 < 2


def test_generate_unique_dominosa_is_built_unique(capsys, tmp_path) -> None:
    out = tmp_path / "b.txt"
    assert main(["generate", "dominosa", "--n", "30", "--seed", "7", "--unique",
                 "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["solve", str(out), "--unique", "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "sat" and rec["unique"] is True
    # the uniqueness instance of that board is UNSAT and recorded as built unique
    cnf = tmp_path / "b.cnf"
    assert main(["generate", "dominosa", "--n", "30", "--seed", "7", "--unique",
                 "--uniqueness", "-o", str(cnf), "--json"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["status"] == "UNSATISFIABLE"
    assert 'c parameters: {"n": 30, "seed": 7, "unique": true}' in cnf.read_text()


def test_a_puzzle_that_is_not_unique_shows_its_second_solution(capsys) -> None:
    board, _ = D.planted(6, 2)
    gid = board.game_id()
    code, [rec], _ = run(capsys, "solve", gid, "--unique", "--json")
    assert code == 0 and rec["unique"] is False and rec["file"] == gid
    first, other = rec["solution"], rec["other"]
    assert set(first) == set(other) == {"layout", "dominoes"} and first != other
    pairs = tuple(sorted(tuple(sorted(map(tuple, d["cells"]))) for d in other["dominoes"]))
    assert D.verify(board, D.DominosaSolution(pairs)) == []
    assert main(["solve", gid, "--unique"]) == 0
    text = capsys.readouterr().out
    assert "NOT unique" in text and "a second solution (the puzzle is not unique):" in text
    assert text.count("layout:") == 2


def test_unique_puzzles_have_no_other(capsys) -> None:
    code, [rec], _ = run(capsys, "solve", DOUBLE6, "--unique", "--json")
    assert rec["unique"] is True and "other" not in rec


def test_an_argument_that_reads_as_a_puzzle_is_solved(capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, [rec], _ = run(capsys, "solve", "2:221200101201", "--json")
    assert code == 0 and rec["status"] == "sat" and rec["kind"] == "dominosa"
    code, [rec], err = run(capsys, "solve", "no-such-file.txt", "--json")
    assert code == 2 and rec["error"] == "no such file"


def test_decode_says_it_needs_an_exported_instance(capsys, tmp_path) -> None:
    (tmp_path / "answer.txt").write_text("s SATISFIABLE\nv 1 0\n")
    code, _, err = run(capsys, "decode", DOUBLE6, str(tmp_path / "answer.txt"))
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "decode needs an instance that satdomino export wrote" in err


def test_every_option_of_every_command_has_help() -> None:
    from satdomino.cli import build_parser

    def parsers(p, path):
        yield path, p
        for action in p._actions:
            if action.__class__.__name__ == "_SubParsersAction":
                for name, sub in action.choices.items():
                    yield from parsers(sub, f"{path} {name}")

    missing = [f"{path} {'/'.join(a.option_strings) or a.dest}"
               for path, p in parsers(build_parser(), "satdomino") for a in p._actions
               if a.help is None and a.__class__.__name__ != "_SubParsersAction"]
    assert missing == []


def test_generate_shows_only_its_familys_options(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["generate", "pips", "--help"])
    text = capsys.readouterr().out
    assert "--dominoes" in text and "--max-pip" in text
    assert "--width" not in text and "--n " not in text and "--rotate" not in text
    code, _, err = run(capsys, "generate", "dominosa", "--n", "3", "--format", "dimacs")
    assert code == 2 and "name it with -o" in err
