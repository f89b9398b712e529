"""``satdomino decode``: an outside solver's answer to an exported instance, as a verified
solution."""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from ..backends.external import competition_answer
from ..errors import SatDominoError
from ..export.dimacs import gbd_hash, read_dimacs
from ..family import Family, Skipped
from ..fileio import load_json
from ..inputs import read_text
from ..model import Model
from ..puzzles import family
from ..solve import Outcome
from .common import say

# an outside solver's UNSAT has no answer to check: a proof does (satdomino check-proof)
CLAIM = "the solver's claim, not checked here: check a DRAT proof with satdomino check-proof"


def add_parser(sub) -> None:
    d = sub.add_parser("decode", help="an outside solver's answer to an exported instance",
                       description="Read an outside solver's s / v answer to an instance that "
                       "export wrote; show the layout only if it satisfies every clause and "
                       "the rules.")
    d.add_argument("instance", metavar="OUT",
                   help="the DIMACS file export wrote (OUT.map.json must be beside it)")
    d.add_argument("answer", metavar="SOLVER_OUTPUT",
                   help="the solver's s / v lines (compressed by suffix), or - for stdin")
    d.add_argument("--json", action="store_true",
                   help="one JSON object, as solve --json prints it")


# what a map must hold, and of which type
MAP_FIELDS = {"kind": str, "source": str, "model": str, "model_variables": int, "hash": str,
              "input": str}


def read_map(instance: str) -> tuple[Family[Any, Any], str | None, Any, dict]:
    """The puzzle an exported instance was written from, rebuilt from ``INSTANCE.map.json``:
    (family, part name, puzzle, the map)."""
    where = f"{instance}.map.json"
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
    fam, name, puzzle, mapping = read_map(args.instance)
    model = fam.model(mapping["model"])(puzzle)
    if model.num_vars != mapping["model_variables"]:
        raise SatDominoError("the rebuilt model differs from the exported one "
                             "(another satdomino version?)")
    # the instance itself, as written: the answer must be to it, and satisfy all of it (a
    # uniqueness instance's clause forbidding the known solution included)
    num_vars, clauses = read_dimacs(args.instance)
    if gbd_hash(clauses) != mapping.get("hash"):
        raise SatDominoError(f"{args.instance} is not the instance its map describes (their "
                             "hashes differ): export it again")
    listed: set[int] = set()
    try:
        text = read_text(args.answer)
    except SatDominoError as e:
        raise SatDominoError(f"{args.answer}: {e}") from None
    status, true = competition_answer(text, args.answer, num_vars, listed)
    stats = {"backend": "outside solver", "model": model.name}
    if status == "UNSATISFIABLE":
        out = Outcome("unsat", stats=stats, reason=CLAIM)
    elif status == "UNKNOWN":
        out = Outcome("unknown", stats=stats, reason="the solver said UNKNOWN")
    elif status == "SATISFIABLE" and any(ln.split()[:1] == ["v"] for ln in text.splitlines()):
        problem, solution = _checked(fam, puzzle, model, clauses, true, listed, args.instance)
        if problem:
            say(f"satdomino: {problem}")
            return 4
        out = Outcome("sat", solution, stats=stats)
    else:
        raise SatDominoError(f"{args.answer}: no 's SATISFIABLE' with 'v' lines, "
                             "nor 's UNSATISFIABLE' or 's UNKNOWN'")
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
