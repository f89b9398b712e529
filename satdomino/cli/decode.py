"""``satdomino decode``: an outside solver's answer to an exported instance, as a verified
solution."""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from ..backends.external import competition_answer
from ..errors import SatDominoError
from ..export.answers import SAT, UNKNOWN, UNSAT, read_answer
from ..export.dimacs import gbd_hash, read_dimacs
from ..export.linear import columns
from ..family import Family, Skipped
from ..fileio import load_json
from ..inputs import read_text
from ..instance import text_hash
from ..model import Model
from ..puzzles import family
from ..solve import Outcome
from .common import say

# an outside solver's UNSAT has no answer to check: a proof does (satdomino check-proof)
CLAIM = "the solver's claim, not checked here: check a DRAT proof with satdomino check-proof"


def add_parser(sub) -> None:
    d = sub.add_parser("decode", help="an outside solver's answer to an exported instance",
                       description="Read an outside solver's answer to an instance that "
                       "export wrote (any format); show the layout only if it satisfies every "
                       "clause or constraint and the rules.")
    d.add_argument("instance", metavar="OUT",
                   help="the instance export wrote: .cnf, .opb, .smt2, .lp or .mod "
                   "(OUT.map.json beside it, or --map)")
    d.add_argument("answer", metavar="SOLVER_OUTPUT",
                   help="the solver's answer (compressed by suffix), or - for stdin: DIMACS "
                   "and OPB s / v lines; SMT-LIB sat and a model (z3 -model, cvc5 "
                   "--dump-models) or get-value; LP and MathProg a HiGHS solution file or "
                   "glpsol's -o report; MathProg also glpsol's output")
    d.add_argument("--map", metavar="FILE", help="the map export wrote (default OUT.map.json)")
    d.add_argument("--json", action="store_true",
                   help="one JSON object, as solve --json prints it")


# what a map must hold, and of which type
MAP_FIELDS = {"kind": str, "source": str, "model": str, "model_variables": int, "hash": str,
              "input": str}


def read_map(instance: str, where: str | None = None
             ) -> tuple[Family[Any, Any], str | None, Any, dict]:
    """The puzzle an exported instance was written from, rebuilt from its map (``where``,
    else ``INSTANCE.map.json``): (family, part name, puzzle, the map)."""
    where = where or f"{instance}.map.json"
    needs = f"decode needs an instance that satdomino export wrote, beside its map ({where})"
    try:
        mapping = load_json(read_text(where))
    except SatDominoError as e:
        raise SatDominoError(f"{where} is not a satdomino map ({e}); {needs}") from None
    if not isinstance(mapping, dict) or any(
            not isinstance(mapping.get(k), t) for k, t in MAP_FIELDS.items()) or \
            "puzzle" not in mapping or not isinstance(mapping["puzzle"], str | None) or \
            not isinstance(mapping.get("readings", {}), dict):
        raise SatDominoError(f"{where} is not a satdomino map; {needs}")
    try:
        fam = family(mapping["kind"])
        parts = [(n, p) for n, p in fam.parse(mapping["input"]) if n == mapping["puzzle"]]
    except SatDominoError as e:
        raise SatDominoError(f"{where}: {e}") from None
    name, puzzle = parts[0] if len(parts) == 1 else (None, None)
    if puzzle is None or isinstance(puzzle, SatDominoError | Skipped):
        raise SatDominoError(f"{where}: the puzzle cannot be rebuilt")
    if readings := mapping.get("readings"):
        if not set(readings) <= {r.field for r in fam.readings} or not all(
                isinstance(v, bool) for v in readings.values()):
            raise SatDominoError(f"{where} is not a satdomino map; {needs}")
        puzzle = dataclasses.replace(puzzle, **readings)
    return fam, name, puzzle, mapping


Checked = tuple[str, Any]  # (what is wrong with the answer, or "", the layout)


def _dimacs(args: argparse.Namespace, fam: Family[Any, Any], puzzle: Any, model: Model,
            mapping: dict, text: str) -> tuple[str, Checked]:
    """(status, checked) of a DIMACS instance's s / v answer."""
    # the instance itself, as written: the answer must be to it, and satisfy all of it (a
    # uniqueness instance's clause forbidding the known solution included)
    num_vars, clauses = read_dimacs(args.instance)
    if gbd_hash(clauses) != mapping.get("hash"):
        raise SatDominoError(f"{args.instance} is not the instance its map describes (their "
                             "hashes differ): export it again")
    listed: set[int] = set()
    status, true = competition_answer(text, args.answer, num_vars, listed)
    if status == SAT and any(ln.split()[:1] == ["v"] for ln in text.splitlines()):
        return SAT, _checked(fam, puzzle, model, clauses, true, listed, args.instance)
    if status in (UNSAT, UNKNOWN):
        return status, ("", None)
    raise SatDominoError(f"{args.answer}: no 's SATISFIABLE' with 'v' lines, "
                         "nor 's UNSATISFIABLE' or 's UNKNOWN'")


def _linear(args: argparse.Namespace, fam: Family[Any, Any], puzzle: Any, model: Model,
            mapping: dict, text: str, fmt: str) -> tuple[str, Checked]:
    """(status, checked) of an answer to an OPB, SMT-LIB, LP or MathProg instance: its
    values must satisfy every constraint of the model (and a uniqueness instance's clause)
    and the layout the rules."""
    if text_hash(fmt, read_text(args.instance))[0] != mapping["hash"]:
        raise SatDominoError(f"{args.instance} is not the instance its map describes (their "
                             "hashes differ): export it again")
    status, values = read_answer(fmt, text, args.answer)
    if status != SAT:
        return status, ("", None)
    cols, ints, _ = columns(model)
    if fmt == "opb":  # OPB names every column x<j>, integer values' binaries included
        cols = [f"x{j}" for j in range(1, len(cols) + 1)]
    unknown = sorted(set(values) - set(cols))
    if unknown:
        raise SatDominoError(f"{args.answer} gives a value to {unknown[0]}, which "
                             f"{args.instance} does not have")
    value = [False] + [values.get(c, False) for c in cols[:model.num_vars]]
    chosen = {key: next((v for v, j in pairs if values.get(cols[j])), None)
              for key, pairs in ints.items()}
    excluded = mapping.get("excluded") or []
    broken = model.broken(value, {k: v for k, v in chosen.items() if v is not None})
    if broken is not None:
        return SAT, (f"the answer breaks {model.label(broken)} (constraint of the "
                     f"{model.name} model)", None)
    if excluded and not any(value[abs(x)] == (x > 0) for x in excluded):
        return SAT, ("the answer is the solution the uniqueness instance excludes", None)
    true = {v for v in range(1, model.num_vars + 1) if value[v]}
    return SAT, _checked(fam, puzzle, model, [], true, true, args.instance)


def _checked(fam: Family[Any, Any], puzzle: Any, model: Model, clauses: list[list[int]],
             true: set[int], listed: set[int], instance: str) -> tuple[str, Any]:
    """(what is wrong with the answer, or "", the layout it decodes to): the assignment that
    is decoded (a variable the answer leaves out is false) must satisfy every clause, and the
    layout the rules."""
    broken = next((c for c in clauses if not any((x > 0) == (abs(x) in true) for x in c)),
                  None)
    if broken is not None:
        shown = " ".join(map(str, broken[:8])) + (" ..." if len(broken) > 8 else "")
        unlisted = any(abs(x) not in listed for x in broken)
        return (f"the answer breaks the clause '{shown} 0' of {instance}"
                + (" (variables the answer leaves out are read as false)" if unlisted
                   else "")), None
    try:
        solution = fam.decode(puzzle, model, frozenset(x for x in true if x <= model.num_vars))
        problems = fam.verify(puzzle, solution)
    except (KeyError, ValueError, IndexError, TypeError):
        solution, problems = None, ["the true variables do not describe a layout"]
    return (f"the answer breaks the rules: {'; '.join(problems[:3])}" if problems
            else ""), solution


def run(args: argparse.Namespace) -> int:
    """An outside solver's answer to an exported instance, as a verified solution."""
    fam, name, puzzle, mapping = read_map(args.instance, args.map)
    model = fam.model(mapping["model"])(puzzle)
    if model.num_vars != mapping["model_variables"]:
        raise SatDominoError("the rebuilt model differs from the exported one "
                             "(another satdomino version?)")
    try:
        text = read_text(args.answer)
    except SatDominoError as e:
        raise SatDominoError(f"{args.answer}: {e}") from None
    fmt = mapping.get("format", "dimacs")
    if fmt == "dimacs":
        status, (problem, solution) = _dimacs(args, fam, puzzle, model, mapping, text)
    else:
        status, (problem, solution) = _linear(args, fam, puzzle, model, mapping, text, fmt)
    if problem:
        say(f"satdomino: {problem}")
        return 4
    stats = {"backend": "outside solver", "model": model.name}
    if status == UNSAT:
        out = Outcome("unsat", stats=stats, reason=CLAIM)
    elif status == UNKNOWN:
        out = Outcome("unknown", stats=stats, reason="the solver said UNKNOWN")
    else:
        out = Outcome("sat", solution, stats=stats)
    out.family, out.puzzle, out.source, out.name = fam, puzzle, mapping["source"], name
    if args.json:
        print(json.dumps(out.json()))
    else:
        head = f"== {out.source}" + (f" [{name}]" if name else "") + f": {out.status}"
        if mapping.get("uniqueness") and out.status != "unknown":  # one solution excluded
            head += {"sat": ", a second solution: the puzzle is not unique",
                     "unsat": ": the excluded solution is the only one"}[out.status]
        if out.reason:
            head += f" ({out.reason})"
        body = fam.render_text(puzzle, out.solution) if out.solution else ""
        print(head + (" (answer checked by the rule checker)" if body else "") + "\n" + body)
    return {"sat": 0, "unsat": 1, "unknown": 3}[out.status]
