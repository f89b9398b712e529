"""No input crashes, hangs or floods: the CLI, run in this process, on random bytes, mutated
example files of every family, damaged maps, answers, proofs and given placements, JSON nested
to any depth, and odd option combinations; the parsers alone on any JSON value anywhere in an
example and any text of the formats' characters.

Properties of every case: the exit status is 0-4; nothing on stderr is a traceback; every
message on stderr is one line starting ``satdomino:``; the case ends well within its time
limit. The default profile runs a few hundred cases (CI); ``--hypothesis-profile=long`` runs
many more (see docs/design.md, "Resource limits").
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satdomino.cli import main
from satdomino.errors import PuzzleFormatError
from satdomino.puzzles import detect, family

from .conftest import EXAMPLES, examples

EXAMPLE_FILES = sorted(p for p in EXAMPLES.rglob("*") if p.is_file())
CASE_SECONDS = 20  # a case's wall time, whatever it does (its own --timeout is smaller)
def fuzz(count: int) -> settings:
    """``count`` cases (scaled by the profile), no per-case deadline (the case's own limits
    are checked), fixtures shared across cases."""
    return settings(max_examples=examples(count), deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def run_cli(capsys, argv: list[str]) -> tuple[int, str, str]:
    t0 = time.monotonic()
    code = main(argv)
    took = time.monotonic() - t0
    cap = capsys.readouterr()
    assert code in (0, 1, 2, 3, 4), (argv, code, cap.err)
    assert "Traceback" not in cap.err and "Traceback" not in cap.out, argv
    for line in cap.err.splitlines():
        assert line.startswith("satdomino:"), (argv, line)
    assert took < CASE_SECONDS, (argv, took)
    return code, cap.out, cap.err


def mutate(data: bytes, rng: random.Random, edits: int) -> bytes:
    """Random byte edits of several kinds: replace, insert, delete, duplicate a span, swap two
    digits, cut the tail."""
    out = bytearray(data)
    for _ in range(edits):
        if not out:
            out += bytes([rng.randrange(256)])
            continue
        i = rng.randrange(len(out))
        kind = rng.randrange(6)
        if kind == 0:
            out[i] = rng.choice(b"0123456789[]{}:,\"- \n#*abcz\t\x00\xff")
        elif kind == 1:
            out.insert(i, rng.choice(b"0123456789[]{}:,\"- \n#*"))
        elif kind == 2:
            del out[i]
        elif kind == 3:
            j = min(len(out), i + rng.randrange(1, 64))
            out[i:i] = out[i:j] * rng.randrange(1, 4)
        elif kind == 4:
            digits = [k for k, b in enumerate(out) if 48 <= b <= 57]
            if len(digits) > 1:
                a, b = rng.sample(digits, 2)
                out[a], out[b] = out[b], out[a]
        else:
            del out[i:]
    return bytes(out)


@fuzz(60)
@given(data=st.binary(max_size=2000), unique=st.booleans())
def test_random_bytes(tmp_path_factory, capsys, data: bytes, unique: bool) -> None:
    path = tmp_path_factory.mktemp("bytes") / "input.txt"
    path.write_bytes(data)
    argv = ["solve", str(path), "--timeout", "5", *(["--unique"] if unique else [])]
    run_cli(capsys, argv)


@fuzz(120)
@given(which=st.sampled_from(EXAMPLE_FILES), seed=st.integers(0, 2**32),
       edits=st.integers(1, 12), json_out=st.booleans(), kind=st.sampled_from(
           [None, "dominosa", "pips", "dominofit", "doodlefit"]))
def test_mutated_examples(tmp_path_factory, capsys, which: Path, seed: int, edits: int,
                          json_out: bool, kind: str | None) -> None:
    path = tmp_path_factory.mktemp("mut") / which.name
    path.write_bytes(mutate(which.read_bytes(), random.Random(seed), edits))
    argv = ["solve", str(path), "--timeout", "5", "--unique"]
    argv += ["--json"] if json_out else []
    argv += ["--kind", kind] if kind else []
    code, out, _ = run_cli(capsys, argv)
    if json_out:
        for line in out.splitlines():
            json.loads(line)  # every stdout line is one JSON object


SOLVE_OPTIONS = [["--unique"], ["--count"], ["--count", "--limit", "3"],
                 ["--count", "--count-by", "grid"], ["--count-by", "tiling"], ["--limit", "0"],
                 ["--model", "counted"], ["--model", "link-value"], ["--model", "nope"],
                 ["--backend", "minisat22"], ["--backend", "sls"], ["--backend", "z3-smt"],
                 ["--backend", "highs:threads=1000000"], ["--backend", "portfolio:minisat22"],
                 ["--backend", "portfolio:minisat22@x+sls"], ["--backend", "by-size:x"],
                 ["--backend", "external:"], ["--backend", "sls:seed=-1"],
                 ["--amo", "native"], ["--amo", "pairwise"], ["--card", "nope"],
                 ["--pb", "bdd"], ["--int", "log"], ["--timeout", "0"], ["--timeout", "nan"],
                 ["--timeout", "0.01"], ["--timeout", "-1"], ["--no-cover"], ["--rotate"],
                 ["--reflect"], ["--json"], ["--puzzle", "hard"], ["--puzzle", ""],
                 ["--kind", "pips"]]


@fuzz(80)
@given(which=st.sampled_from(EXAMPLE_FILES),
       options=st.lists(st.sampled_from(SOLVE_OPTIONS), max_size=4))
def test_option_combinations(capsys, which: Path, options: list[list[str]]) -> None:
    argv = ["solve", str(which), *(x for opt in options for x in opt)]
    if "--timeout" not in argv:
        argv += ["--timeout", "5"]
    run_cli(capsys, argv)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("exported")
    out = folder / "board.cnf"
    assert main(["export", str(EXAMPLES / "dominosa" / "double3-grid.txt"), "-o",
                 str(out)]) == 0
    return out


@fuzz(60)
@given(seed=st.integers(0, 2**32), edits=st.integers(0, 8), values=st.lists(
    st.integers(-200, 200), max_size=60), status=st.sampled_from(
    ["s SATISFIABLE", "s UNSATISFIABLE", "s UNKNOWN", "s sat", "", "s SATISFIABLE\ns SATISFIABLE"]))
def test_decode_answers_and_maps(tmp_path_factory, capsys, exported: Path, seed: int,
                                 edits: int, values: list[int], status: str) -> None:
    folder = tmp_path_factory.mktemp("dec")
    cnf, answer = folder / "board.cnf", folder / "answer.txt"
    cnf.write_bytes(exported.read_bytes())
    rng = random.Random(seed)
    mapping = Path(str(exported) + ".map.json").read_bytes()
    Path(str(cnf) + ".map.json").write_bytes(mutate(mapping, rng, edits) if edits else mapping)
    answer.write_text(f"{status}\nv {' '.join(map(str, values))} 0\n")
    run_cli(capsys, ["decode", str(cnf), str(answer), *(["--json"] if seed % 2 else [])])


@fuzz(60)
@given(cnf=st.binary(max_size=300), proof=st.binary(max_size=300), text=st.booleans())
def test_check_proof_on_any_files(tmp_path_factory, capsys, cnf: bytes, proof: bytes,
                                  text: bool) -> None:
    folder = tmp_path_factory.mktemp("drat")
    if text:  # near-DIMACS text, the likelier damage
        cnf = b"p cnf 3 4\n1 2 0\n-1 2 0\n" + cnf
        proof = b"2 0\n" + proof
    (folder / "f.cnf").write_bytes(cnf)
    (folder / "p.drat").write_bytes(proof)
    run_cli(capsys, ["check-proof", str(folder / "f.cnf"), str(folder / "p.drat"),
                     "--timeout", "5", "--no-drat-trim"])


GENERATE = st.sampled_from([
    ["dominosa", "--n"], ["pips", "--dominoes"], ["dominofit", "--width", "4", "--height"],
    ["doodlefit", "--cells", "12", "--blocks"]])


@fuzz(40)
@given(family_and_flag=GENERATE, value=st.integers(-5, 14), seed=st.integers(-3, 10**6),
       extra=st.lists(st.sampled_from([["--unique"], ["--format", "dimacs"], ["--number", "0"],
                                       ["--format", "grid"], ["--no-cover"], ["--rotate"],
                                       ["--uniqueness"], ["--timeout", "2"], ["--number", "2"],
                                       ["--difficulty", "all"], ["--unique-by", "grid"],
                                       ["--difficulty", "hard"]]), max_size=3),
       instance=st.booleans())
def test_generate_options(tmp_path_factory, capsys, family_and_flag, value, seed, extra,
                          instance) -> None:
    argv = ["generate", *family_and_flag, str(value), "--seed", str(seed),
            *(x for opt in extra for x in opt)]
    if "--timeout" not in argv:
        argv += ["--timeout", "5"]
    if instance:
        argv += ["-o", str(tmp_path_factory.mktemp("gen") / "out.cnf")]
    run_cli(capsys, argv)


@fuzz(8)
@given(spec=st.sampled_from(["dominosa:n=2..3:seeds=2", "pips:dominoes=3", "dominosa:n=x",
                             "dominosa:n=3:seeds=0", "nope:n=3", "dominofit:width=3",
                             "doodlefit:cells=6:blocks=2:unique=yes"]),
       backend=st.sampled_from(["auto", "minisat22", "sls", "minisat22,nope"]),
       existing=st.sampled_from([None, b"hello", b"a,b\n1,2", b"\xff\xfe\x00", b""]))
def test_compare_specs_and_results_files(tmp_path_factory, capsys, spec, backend,
                                         existing) -> None:
    out = tmp_path_factory.mktemp("cmp") / "runs.csv"
    if existing is not None:
        out.write_bytes(existing)
    code, _, _ = run_cli(capsys, ["compare", spec, "--backend", backend, "--timeout", "5",
                                  "--jobs", "2", "-o", str(out), "--no-progress"])
    if existing:  # not a results file: refused, and left as it was
        assert code == 2 and out.read_bytes() == existing


@fuzz(50)
@given(which=st.sampled_from(EXAMPLE_FILES), seed=st.integers(0, 2**32),
       edits=st.integers(0, 6), suffix=st.sampled_from(
           [".cnf", ".cnf.gz", ".opb", ".smt2", ".lp", ".mod", ".cnf.zst", ".txt"]),
       extra=st.lists(st.sampled_from([["--uniqueness"], ["--model", "counted"],
                                       ["--amo", "ladder"], ["--pb", "adder"], ["--json"],
                                       ["--format", "opb"], ["--puzzle", "easy"],
                                       ["--proof", "p.drat"], ["--int", "order"]]), max_size=3))
def test_export_of_mutated_examples(tmp_path_factory, capsys, which: Path, seed: int,
                                    edits: int, suffix: str, extra: list[list[str]]) -> None:
    folder = tmp_path_factory.mktemp("exp")
    source = folder / which.name
    data = which.read_bytes()
    source.write_bytes(mutate(data, random.Random(seed), edits) if edits else data)
    argv = ["export", str(source), "-o", str(folder / f"out{suffix}"), "--timeout", "5"]
    argv += [str(folder / x) if x == "p.drat" else x for opt in extra for x in opt]
    run_cli(capsys, argv)


SMALL_EXAMPLES = [p for p in EXAMPLE_FILES if p.stat().st_size < 3000
                  and "pentominoes" not in p.name and "double12" not in p.name]


@fuzz(40)
@given(which=st.sampled_from(SMALL_EXAMPLES), seed=st.integers(0, 2**32),
       edits=st.integers(0, 6), command=st.sampled_from(["explain", "hint"]),
       given_text=st.one_of(st.none(), st.text(max_size=80), st.sampled_from(
           ["[]", "[{}]", '[{"pips": [0, 1], "cells": [[0, 0], [0, 1]]}]', "LR\nLR", "....",
            '{"placements": 3}', "[[1, 2]]"])),
       extra=st.lists(st.sampled_from([["--json"], ["--timeout", "0.5"], ["--puzzle", "easy"],
                                       ["--kind", "pips"], ["--timeout", "-1"]]), max_size=2))
def test_explain_and_hint_of_mutated_examples(tmp_path_factory, capsys, which: Path, seed: int,
                                              edits: int, command: str, given_text,
                                              extra: list[list[str]]) -> None:
    """``explain`` and ``hint --given`` on damaged puzzles and arbitrary given positions."""
    folder = tmp_path_factory.mktemp("explain")
    source = folder / which.name
    data = which.read_bytes()
    source.write_bytes(mutate(data, random.Random(seed), edits) if edits else data)
    argv = [command, str(source), "--timeout", "5"]
    if command == "hint" and given_text is not None:
        argv += ["--given", given_text]
    run_cli(capsys, argv + [x for opt in extra for x in opt])


# the parsers alone (issue 37): whatever they are fed, a puzzle, a skipped part or the
# project's format error, in one line; and the commands that read JSON, on any nesting

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=True)
    | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
JSON_EXAMPLES = [p for p in EXAMPLE_FILES if p.suffix in (".json", ".jsonl")]


def _parts_are_clean(text: str, kind: str | None) -> None:
    """Detect (or take ``kind``) and parse: only PuzzleFormatError may come out, in one line,
    and every part is a puzzle, a skipped one or such an error."""
    try:
        fam = family(kind) if kind else detect(text)
        parts = fam.parse(text)
    except PuzzleFormatError as e:
        assert "\n" not in str(e), str(e)
        return
    for _, part in parts:
        assert "\n" not in str(part) or not isinstance(part, PuzzleFormatError), str(part)


def _places(value: object, path: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``value`` (list indices, object keys)."""
    inside = (value.items() if isinstance(value, dict) else enumerate(value)
              if isinstance(value, list) else ())
    return [path] + [p for k, v in inside for p in _places(v, (*path, k))]


@fuzz(150)
@given(which=st.sampled_from(JSON_EXAMPLES), seed=st.integers(0, 2**32), new=JSON_VALUES,
       as_key=st.booleans(), kind=st.sampled_from([None, "dominosa", "pips", "dominofit"]))
def test_any_json_value_anywhere_in_a_json_example(which: Path, seed: int, new: object,
                                                   as_key: bool, kind: str | None) -> None:
    """A value of the example (or a new key beside one) replaced by any JSON value."""
    line = which.read_text().splitlines()[0]  # a JSON lines file: its first puzzle
    data = json.loads(line)
    path = random.Random(seed).choice(_places(data))
    if not path:
        data = new
    else:
        parent = data
        for k in path[:-1]:
            parent = parent[k]
        if as_key and isinstance(parent, dict):
            parent[f"{path[-1]}x"] = new  # a misspelt or unknown key
        else:
            parent[path[-1]] = new
    _parts_are_clean(json.dumps(data), kind)


@fuzz(150)
@given(text=st.text(alphabet="0123456789 \n\t#*-x,O[]{}:\"", max_size=300),
       kind=st.sampled_from([None, "dominosa", "pips", "dominofit", "doodlefit"]))
def test_text_of_the_formats_characters(text: str, kind: str | None) -> None:
    """Drawings, grids and game ids with any of their characters anywhere."""
    _parts_are_clean(text, kind)


@fuzz(40)
@given(depth=st.integers(1, 3000), opener=st.sampled_from(['[', '{"a": ']),
       where=st.sampled_from(["pips", "dominofit", "dominosa", "given", "map"]))
def test_json_nested_to_any_depth(tmp_path_factory, capsys, exported: Path, depth: int,
                                  opener: str, where: str) -> None:
    """Every command that reads JSON, on JSON nested ``depth`` deep (closed or not)."""
    folder = tmp_path_factory.mktemp("deep")
    closer = "]" if opener == "[" else "}"
    text = opener * depth + ("1" + closer * depth if depth % 2 else "")
    path = folder / "deep.json"
    path.write_text(text)
    if where == "given":
        argv = ["hint", str(EXAMPLES / "dominosa" / "double3-grid.txt"), "--given", str(path)]
    elif where == "map":
        cnf = folder / "board.cnf"
        cnf.write_bytes(exported.read_bytes())
        Path(f"{cnf}.map.json").write_text(text)
        (folder / "answer.txt").write_text("s UNSATISFIABLE\n")
        argv = ["decode", str(cnf), str(folder / "answer.txt")]
    else:
        argv = ["solve", str(path), "--kind", where, "--timeout", "5"]
    code, _, _ = run_cli(capsys, argv)
    assert code == 2


@fuzz(40)
@given(data=st.one_of(st.binary(max_size=300), JSON_VALUES.map(
    lambda v: json.dumps(v).encode())), puzzle=st.sampled_from(SMALL_EXAMPLES))
def test_hint_given_files_of_any_content(tmp_path_factory, capsys, data: bytes,
                                         puzzle: Path) -> None:
    given_file = tmp_path_factory.mktemp("given") / "given.json"
    given_file.write_bytes(data)
    run_cli(capsys, ["hint", str(puzzle), "--given", str(given_file), "--timeout", "5"])
