"""``satdomino generate KIND``: a puzzle with a planted solution (or exactly one), as a puzzle
file or straight as a solver instance. One sub-command per family, each with its own
parameters."""

from __future__ import annotations

import argparse
import dataclasses
import sys

from ..errors import UsageError
from ..export.instance import FORMATS, is_instance_name
from ..fileio import output_path
from ..puzzles import family
from .common import check_timeout, say, write_atomic
from .export import instance_options, write

MAX_TRIES = 1_000_000
# each family's parameters: (flag, type, help)
PARAMETERS = {
    "dominosa": [("--n", int, "highest number: the double-N set, a board N+1 by N+2 "
                  "(0 to 200)")],
    "pips": [("--dominoes", int, "number of dominoes (1 to 500)"),
             ("--max-pip", int, "highest pip (default 6)")],
    "dominofit": [("--width", int, "board width (2 to 200)"),
                  ("--height", int, "board height (2 to 200)")],
    "doodlefit": [("--cells", int, "cells in the shape (1 to 2000)"),
                  ("--blocks", int, "number of blocks (1 to cells)")],
}
WHAT = {"dominosa": "a Dominosa board (Tatham game id, or --format grid)",
        "pips": "a Pips puzzle (NYT-form JSON)",
        "dominofit": "a Domino Fit board (JSON)",
        "doodlefit": "a Doodle Fit puzzle (the published text form)"}


def add_parser(sub) -> None:
    g = sub.add_parser("generate", help="make a puzzle with a planted solution (or exactly "
                       "one: --unique)", description="Make a puzzle; see 'satdomino generate "
                       "KIND --help' for each family's options.")
    kinds = g.add_subparsers(dest="kind", required=True, metavar="KIND")
    for kind, params in PARAMETERS.items():
        k = kinds.add_parser(kind, help=WHAT[kind], description=f"Make {WHAT[kind]}.")
        for flag, kind_of, text in params:
            if flag == "--max-pip":
                k.add_argument(flag, type=kind_of, default=6, help=text)
            else:
                k.add_argument(flag, type=kind_of, required=True, help=text)
        k.add_argument("--seed", type=int, default=0,
                       help="random seed: the same parameters and seed give the same puzzle "
                       "(default 0)")
        if kind == "dominosa":
            k.add_argument("--format", choices=["id", "grid", *FORMATS],
                           help="puzzle file: game id (default) or number grid; or an instance "
                           "format (default: from the output's suffix)")
        else:
            k.add_argument("--format", choices=list(FORMATS),
                           help="instance format (default: from the output's suffix)")
        k.add_argument("--unique", action="store_true",
                       help="a puzzle with exactly one solution" + (
                           " (built unique)" if kind == "dominosa" else
                           ": the first seed from --seed that SAT proves unique"))
        if kind != "dominosa":
            k.add_argument("--tries", type=int, default=200,
                           help="with --unique: seeds to try (default 200)")
        k.set_defaults(tries=200)
        k.add_argument("-o", "--output", metavar="FILE",
                       help="the puzzle file (default: standard output); a name ending in "
                       ".cnf[.xz|.gz|.bz2], .opb, .smt2, .lp or .mod writes the solver "
                       "instance instead, as export does")
        instance_options(k, kind)


def run(args: argparse.Namespace) -> int:
    from .. import generate as gen

    instance = args.output is not None and (args.format in FORMATS
                                            or is_instance_name(args.output))
    if args.output is not None:
        output_path(args.output, "-o")
    elif args.format in FORMATS:
        raise UsageError(f"--format {args.format} writes a solver instance: name it with -o")
    if not instance and (args.uniqueness or args.proof):
        raise UsageError("--uniqueness and --proof need an instance output "
                         "(-o NAME.cnf, .opb, .smt2, .lp or .mod)")
    if args.format in ("id", "grid") and instance:
        raise UsageError(f"--format {args.format} is for dominosa puzzle files")
    if not 1 <= args.tries <= MAX_TRIES:
        raise UsageError(f"--tries must be 1 to {MAX_TRIES}")
    check_timeout(args.timeout)
    params = {k: getattr(args, k) for k in gen.PARAMETERS[args.kind]}
    seed = args.seed
    readings = gen.readings(args.kind, cover=not args.no_cover, rotate=args.rotate,
                            reflect=args.reflect)
    if readings and not (instance or args.unique):
        raise UsageError(f"--{next(iter(readings)).replace('cover', 'no-cover')} is a reading "
                         "of the rules: for --unique or an instance output (-o NAME.cnf ...)")
    if args.unique:  # unique under the rules as they will be read
        puzzle, seed = gen.unique(args.kind, params, seed, args.tries, args.timeout, readings)
        under = " ".join(f"--{k}" if v else f"--no-{k}" for k, v in readings.items())
        say(f"satdomino: seed {seed} gives a puzzle with exactly one solution"
            + (f" (read with {under})" if under else ""))
    else:
        puzzle = gen.planted(args.kind, params, seed)
    if instance:
        puzzle = dataclasses.replace(puzzle, **readings)
        origin = gen.origin(args.kind, params, seed, args.unique, puzzle, readings)
        return write(family(args.kind), puzzle, origin, args)
    text = gen.puzzle_text(args.kind, puzzle, args.format)
    if args.output:
        write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
