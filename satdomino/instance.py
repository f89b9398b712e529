"""One exported instance: the puzzle's model in a competition format, with the comments that
say where it came from, its GBD hash, and (for DIMACS) the map back to the puzzle.

`export`, `generate -o X.cnf` and cnf_samples all go through ``export_instance``, so every
instance carries the same header and every hash is computed the same way.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .backends.session import blocking_clause
from .clock import NEVER, Deadline, TimeUp
from .encode import Encodings, lower
from .errors import OutOfTimeError, SatDominoError, UsageError
from .export.dimacs import gbd_hash, write_dimacs
from .export.linear import opb_hash, rows, to_lp, to_mathprog, to_opb, to_smt2
from .family import Family
from .fileio import STDOUT, apart, output_path, without_compression, write_atomic
from .model import Model
from .ranges import time_limit
from .solve import solve
from .version import __version__

FORMATS = ("dimacs", "opb", "smt2", "lp", "mathprog")
_SUFFIXES = {".cnf": "dimacs", ".dimacs": "dimacs", ".lp": "lp", ".mod": "mathprog",
             ".opb": "opb", ".smt2": "smt2"}

SAT, UNSAT = "SATISFIABLE", "UNSATISFIABLE"


def format_of(path: str, fmt: str | None = None) -> str:
    """The format asked for, else the one the file name implies, compressed or not (DIMACS by
    default)."""
    return fmt or _SUFFIXES.get(Path(without_compression(path)).suffix.lower(), "dimacs")


def is_instance_name(path: str) -> bool:
    """Does this output name ask for a solver instance rather than a puzzle file?"""
    return Path(without_compression(path)).suffix.lower() in _SUFFIXES


@dataclass
class Origin:
    """Where the puzzle came from: the first comment lines of the instance say it."""

    source: str  # a file, or the generate command that made the puzzle
    text: str | None  # the puzzle text, from which `decode` rebuilds the puzzle
    name: str | None = None  # the part of a multi-puzzle file
    parameters: dict[str, Any] = field(default_factory=dict)  # generator parameters and seed
    status: str | None = None  # expected status when known (a planted puzzle is SATISFIABLE)


@dataclass
class Exported:
    file: str
    format: str
    variables: int
    clauses: int  # constraints, for the formats that keep them native
    hash: str
    hash_kind: str
    status: str | None
    map: str | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


# what finds the solution a uniqueness instance excludes: deterministic, unlike a portfolio
INSTANCE_SOLVER = "cadical195"


def uniqueness_clause(family: Family[Any, Any], puzzle: Any, m: Model,
                      deadline: Deadline) -> tuple[list[int], str | None]:
    """(the clause "differs from this solution somewhere" over the projection of ``m``, the
    status of the puzzle plus that clause when decided in time)."""
    # one fixed solver, not auto's race: the same puzzle always gives the same instance
    out = solve(puzzle, family, model=m.name, unique=True, deadline=deadline,
                backend=INSTANCE_SOLVER)
    if out.status == "unsat":
        raise SatDominoError("the puzzle has no solution, so there is no uniqueness instance")
    if out.status != "sat":
        raise OutOfTimeError("no solution found within the time limit (--timeout); "
                             "no instance written")
    status = None if out.unique is None else UNSAT if out.unique else SAT
    return blocking_clause(m.projection, out.assignment), status


def map_name(out: str, given: str | None = None) -> str | None:
    """Where the map goes: ``given``, else beside the instance (none beside standard
    output)."""
    return given if given is not None else None if out == STDOUT else out + ".map.json"


def export_instance(family: Family[Any, Any], puzzle: Any, origin: Origin, out: str,
                    fmt: str, *, model: str | None = None, encodings: Encodings = Encodings(),
                    uniqueness: bool = False, timeout: float | None = None,
                    deadline: Deadline = NEVER, map_to: str | None = None) -> Exported:
    """Write the instance to ``out`` (atomically; compressed by suffix; ``-``: standard
    output) with the map ``decode`` reads (``map_to``, else ``out.map.json``; none beside
    standard output, nor for a puzzle with no text to rebuild it from but DIMACS, which
    needs one) and describe it."""
    if fmt not in FORMATS:
        raise UsageError(f"unknown format {fmt!r}; choose from {', '.join(FORMATS)}")
    deadline = time_limit(timeout, deadline)
    mapped = _outputs(origin, out, fmt, map_to)
    try:  # building, lowering and writing are Python loops: the deadline covers them too
        with deadline.interrupting():
            return _export(family, puzzle, origin, out, fmt, mapped, model, encodings,
                           uniqueness, deadline)
    except TimeUp:
        raise OutOfTimeError("the time limit (--timeout) passed while building, encoding or "
                             "writing the instance; nothing written (give it more time with "
                             "a larger --timeout)") from None


def _export(family: Family[Any, Any], puzzle: Any, origin: Origin, out: str, fmt: str,
            mapped: str | None, model: str | None, encodings: Encodings, uniqueness: bool,
            deadline: Deadline) -> Exported:
    """``export_instance``'s work, once its outputs are checked."""
    m = family.model(model)(puzzle)
    status = origin.status
    head = [f"generator: satdomino {__version__}", f"family: {family.kind}"]
    if origin.parameters:
        head.append(f"parameters: {json.dumps(origin.parameters, sort_keys=True)}")
    head += [f"source: {origin.source}" + (f" [{origin.name}]" if origin.name else ""),
             f"model: {m.name}"]
    block: list[int] | None = None
    if uniqueness:
        block, status = uniqueness_clause(family, puzzle, m, deadline)
        m.add_clause(block, "not the known solution")
        head.append("instance: uniqueness (the puzzle plus a clause excluding one solution: "
                    "UNSATISFIABLE exactly when that solution is the only one)")
    elif status is None and fmt == "smt2":  # the SMT-LIB header wants it: find it
        found = solve(puzzle, family, model=model, deadline=deadline).status
        status = {"sat": SAT, "unsat": UNSAT}.get(found)
    if fmt == "dimacs":
        head.append(f"encodings: {json.dumps(encodings.as_dict())}")
    if status:
        head.append(f"status: {status}")
    head.append(f"model variables: x1..x{m.num_vars}")
    # one comment line in every format: no line breaks or control characters (a puzzle name
    # could hold them), and no ``*/`` that would end a MathProg comment
    head = ["".join(c if c.isprintable() else " " for c in line).replace("*/", "* /")
            for line in head]

    if fmt == "dimacs":
        cnf = lower(m, encodings)
        result = Exported(out, fmt, cnf.num_vars, len(cnf.clauses), gbd_hash(cnf.clauses),
                          "gbd", status, mapped)
        # the map first: stopped in between, a CNF is never left without its map (a map
        # without its CNF, or beside an older one, `decode` refuses by the hash it records)
        if mapped is not None:
            _write_map(family, puzzle, origin, m, encodings, cnf.num_vars, block, result)
        write_dimacs(out, cnf, head, show=m.projection)
        return result
    if fmt == "smt2":
        word = {SAT: "sat", UNSAT: "unsat"}.get(status or "", "unknown")
        text = to_smt2(m, word, "; ".join(head))
    else:
        text = {"lp": to_lp, "mathprog": to_mathprog, "opb": to_opb}[fmt](m, head)
    cols, rs = rows(m)
    result = Exported(out, fmt, len(cols), len(rs), *text_hash(fmt, text), status, mapped)
    if mapped is not None:
        _write_map(family, puzzle, origin, m, encodings, len(cols), block, result)
    write_atomic(out, text)
    return result


def text_hash(fmt: str, text: str) -> tuple[str, str]:
    """(hash, its kind) of an instance text other than DIMACS: GBD defines one for OPB only,
    for the others it is the md5 of the text, comments included."""
    return (opb_hash(text), "gbd-opb") if fmt == "opb" else (
        hashlib.md5(text.encode()).hexdigest(), "md5-text")


def _outputs(origin: Origin, out: str, fmt: str, given: str | None) -> str | None:
    """Check where the instance and its map go, before any work; the map's name (or None)."""
    mapped = map_name(out, given)
    if out != STDOUT:
        output_path(out, "-o")
    if mapped is not None and origin.text is None:
        if fmt == "dimacs":
            raise UsageError("export of DIMACS needs a file, not standard input "
                             "(its map must be able to rebuild the puzzle)")
        mapped = None  # the other formats go without
    if mapped is not None:  # checked first: never an instance without its map
        output_path(mapped, "the map")
    apart([origin.source], {"-o": out, "the map": mapped})
    return mapped


def _write_map(family: Family[Any, Any], puzzle: Any, origin: Origin, m: Model,
               encodings: Encodings, variables: int, excluded: list[int] | None,
               result: Exported) -> None:
    """Everything `decode` needs to rebuild the same model and read an outside answer
    (``excluded``: a uniqueness instance's clause against the known solution)."""
    readings = {r.field: getattr(puzzle, r.field) for r in family.readings}
    mapping = {"generator": f"satdomino {__version__}", "kind": family.kind,
               "source": origin.source, "puzzle": origin.name, "parameters": origin.parameters,
               "readings": readings, "model": m.name, "encodings": encodings.as_dict(),
               "uniqueness": excluded is not None, "excluded": excluded,
               "format": result.format, "variables": variables,
               "model_variables": m.num_vars,
               "hash": result.hash, "input": origin.text}
    assert result.map is not None
    write_atomic(result.map, json.dumps(mapping) + "\n")
