"""``satdomino export``: one puzzle's formula as a solver instance (and a DRAT proof of its
uniqueness); ``generate -o NAME.cnf`` writes through here too."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..auto import AUTO
from ..backends.pysat_backend import prove
from ..clock import Deadline, TimeUp
from ..encode import Encodings
from ..errors import SatDominoError, UsageError
from ..export.dimacs import read_dimacs
from ..family import Family
from ..fileio import STDOUT, apart, atomic_text, output_path
from ..instance import FORMATS, SAT, UNSAT, Origin, export_instance, format_of, map_name
from ..puzzles import FAMILIES
from .common import (
    encoding_options,
    kind_option,
    load_puzzles,
    named_encodings,
    rule_options,
    say,
    timeout_option,
)


def instance_options(p: argparse.ArgumentParser, family: Family[Any, Any] | None = None) -> None:
    """What `export` and `generate -o X.cnf` share: how to write the instance (``family``:
    for one family's generator)."""
    if family is None:
        p.add_argument("--format", choices=list(FORMATS),
                       help="instance format (default: from the output's suffix)")
        models = "; ".join(f"{k}: {', '.join(f.models)}" for k, f in FAMILIES.items())
    else:
        models = ", ".join(family.models)
    p.add_argument("--model", help=f"model written (default: the first; {models})")
    encoding_options(p, what="export")
    rule_options(p, family)
    p.add_argument("--uniqueness", action="store_true",
                   help="the uniqueness instance: the puzzle plus 'differs from its solution "
                   "somewhere', UNSATISFIABLE exactly when the solution is unique")
    p.add_argument("--proof", metavar="FILE",
                   help="DIMACS: also solve the instance with a proof-logging solver and "
                   "store its DRAT proof of UNSAT here (compressed by suffix)")
    p.add_argument("--proof-backend", default=AUTO, metavar="B",
                   help="python-sat solver that logs the proof (default auto: cadical195, the "
                   "fastest of those that log proofs)")
    timeout_option(p, "seconds for building, encoding and writing the instance, finding its "
                   "status (smt2, --uniqueness) and the proof"
                   + (", and for --unique" if family else "") + " (default 60)", 60.0)
    p.add_argument("--json", action="store_true",
                   help='print {"file", "format", "variables", "clauses", "hash", ...}')


def add_parser(sub) -> None:
    x = sub.add_parser("export", help="write one puzzle's formula: DIMACS, OPB, SMT-LIB, LP",
                       description="Write one puzzle's formula as a solver instance, with "
                       "its hash and a map that decode reads.")
    x.add_argument("file", metavar="FILE", help="the puzzle file (or a puzzle written out)")
    x.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output file; .cnf (.xz, .gz, .bz2) DIMACS, .lp LP, .mod MathProg, "
                   ".opb OPB, .smt2 SMT-LIB 2; - for standard output (what is said goes to "
                   "stderr; the map only with --map)")
    x.add_argument("--map", metavar="FILE", help="the map decode reads (default OUT.map.json; "
                   "with -o -, none unless named here)")
    kind_option(x)
    x.add_argument("--puzzle", metavar="NAME", help="the part of a multi-puzzle file")
    instance_options(x)


def run(args: argparse.Namespace) -> int:
    items = load_puzzles([args.file], args)
    bad = [it for it in items if it.error is not None]
    if bad:
        raise SatDominoError(f"{bad[0].file}: {bad[0].error}")
    if len(items) != 1:
        raise UsageError(f"{args.file} holds {len(items)} puzzles; pick one with --puzzle"
                         if args.puzzle is None else
                         f"{args.file} holds {len(items)} puzzles named {args.puzzle!r}; "
                         "export takes one (give them distinct names)")
    item = items[0]
    assert item.family is not None
    text = item.text if item.file != "-" else None
    return write(item.family, item.puzzle, Origin(item.file, text, item.name), args)


def check_outputs(args: argparse.Namespace, source: str | None = None) -> str:
    """Refuse outputs that cannot be written together (or over the input ``source``); the
    format of the instance."""
    fmt = format_of(args.output, args.format if args.format in FORMATS else None)
    if args.proof and fmt != "dimacs":
        raise UsageError("--proof needs a DIMACS instance (-o NAME.cnf)")
    if args.output == STDOUT and (args.proof or args.json):
        raise UsageError(f"{'--proof' if args.proof else '--json'} needs the instance in a "
                         "file: -o - writes it to standard output")
    if args.proof:
        output_path(args.proof, "--proof")
    apart([source] if source else [], {"-o": args.output,
                                       "the map": map_name(args.output,
                                                           getattr(args, "map", None)),
                                       "--proof": args.proof})
    return fmt


def write(fam: Family[Any, Any], puzzle: Any, origin: Origin, args: argparse.Namespace) -> int:
    """Write the instance (and its proof when asked); say what was written (on stderr when
    the instance goes to standard output)."""
    fmt = check_outputs(args, origin.source)
    deadline = Deadline.after(args.timeout)  # one budget: the instance and its proof
    info = export_instance(fam, puzzle, origin, args.output, fmt, model=args.model,
                           encodings=Encodings(**named_encodings(args)),
                           uniqueness=args.uniqueness, deadline=deadline,
                           map_to=getattr(args, "map", None))
    record = info.as_json()
    code = 0
    if args.proof:
        code, record["proof"] = write_proof(args.output, args.proof, args.proof_backend,
                                            deadline)
        # the proof's solve decided it (the file written before says what was known then)
        info.status = {0: UNSAT, 1: SAT}.get(code, info.status)
        record["status"] = info.status
    if args.json:
        print(json.dumps(record))
        return code
    size = f"{info.variables} variables, {info.clauses} " + (
        "clauses" if fmt == "dimacs" else "constraints")
    line = (f"{info.file}: {fmt}, {size}, {info.hash_kind} hash {info.hash}"
            + (f", {info.status}" if info.status else "")
            + (f"; map {info.map}" if info.map else ""))
    if args.output == STDOUT:  # the instance holds standard output: this goes with the messages
        say(f"satdomino: standard output: {line.removeprefix(info.file + ': ')}")
    else:
        print(line)
    if record.get("proof"):
        print(f"{args.proof}: DRAT proof of UNSAT, {record['proof']['lines']} lines "
              f"(check: satdomino check-proof {args.output} {args.proof})")
    return code


def write_proof(cnf_path: str, proof_path: str, backend: str,
                deadline: Deadline) -> tuple[int, dict | None]:
    """Solve the written instance again with a proof-logging solver; keep its DRAT proof."""
    if backend == AUTO:  # CaDiCaL: the fastest of the python-sat solvers that log proofs
        backend = "cadical195"
    try:  # the file as written (the proof is about exactly it): reading is in the budget
        with deadline.interrupting():
            _, clauses = read_dimacs(cnf_path)
        status, lines = prove(backend, clauses, deadline)
    except TimeUp:
        status, lines = "unknown", []
    if status == "sat":
        say("satdomino: the instance is satisfiable, so it has no proof of UNSAT; none written")
        return 1, None
    if status != "unsat":
        say(f"satdomino: {backend} found no answer within --timeout; no proof written")
        return 3, None
    with atomic_text(proof_path) as f:
        f.writelines(line + "\n" for line in lines)
    return 0, {"file": proof_path, "backend": backend, "lines": len(lines)}
