"""``satdomino generate KIND``: a puzzle with a planted solution (or exactly one), as a puzzle
file or straight as a solver instance. One sub-command per family, each with its own
parameters."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from typing import Any

from ..errors import UsageError
from ..export.instance import FORMATS, is_instance_name
from ..fileio import output_path
from ..puzzles import family
from .common import check_timeout, numbered, say, write_atomic
from .export import instance_options, write

MAX_NUMBER = 10_000
# each family's parameters: (flag, type, help)
PARAMETERS = {
    "dominosa": [("--n", int, "highest number: the double-N set, a board N+1 by N+2 "
                  "(0 to 200)")],
    "pips": [("--dominoes", int, "number of dominoes (1 to 500; with --difficulty, the "
              "preset's range: easy 3-6, medium 5-9, hard 9-13)"),
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
BUILT = {"dominosa": "renumbered until SAT proves it unique",
         "pips": "regions changed until SAT proves it unique",
         "dominofit": "pieces turned black until SAT proves it unique",
         "doodlefit": "blocks recut until SAT proves it unique"}


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
                k.add_argument(flag, type=kind_of, required=kind != "pips", help=text)
        k.add_argument("--seed", type=int, default=0,
                       help="random seed: the same parameters and seed give the same puzzle "
                       "(default 0; with --number K, seeds SEED to SEED+K-1)")
        if kind == "dominosa":
            k.add_argument("--format", choices=["id", "grid", *FORMATS],
                           help="puzzle file: game id (default) or number grid; or an instance "
                           "format (default: from the output's suffix)")
        else:
            k.add_argument("--format", choices=list(FORMATS),
                           help="instance format (default: from the output's suffix)")
        k.add_argument("--unique", action="store_true",
                       help=f"a puzzle with exactly one solution: planted, then {BUILT[kind]}; "
                       "its difficulty (explain's level) is reported on stderr")
        if kind == "pips":
            k.add_argument("--difficulty", choices=["easy", "medium", "hard", "all"],
                           help="NYT-shaped preset: size, region mix, and (with --unique) "
                           "explain's band: easy needs named rules only, medium at most two "
                           "steps beyond them, hard at least one; 'all' writes an NYT day "
                           "file with the three")
            k.add_argument("--unique-by", choices=["placement", "grid"], default="placement",
                           help="with --unique: no other layout of the dominoes (default), "
                           "or no other pips grid")
        k.add_argument("--number", type=int, default=1, metavar="K",
                       help="K puzzles, seeds SEED..SEED+K-1 (several files, numbered, need "
                       "-o; Dominosa ids go one per line)")
        k.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="make the puzzles on a Dask cluster (pip install "
                       "'satdomino[distributed]'), as compare does")
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
    if not 1 <= args.number <= MAX_NUMBER:
        raise UsageError(f"--number must be 1 to {MAX_NUMBER}")
    difficulty = getattr(args, "difficulty", None)
    unique_by = getattr(args, "unique_by", "placement")
    if args.kind == "pips" and args.dominoes is None and difficulty is None:
        raise UsageError("generate pips needs --dominoes or --difficulty")
    if difficulty == "all" and instance:
        raise UsageError("--difficulty all writes an NYT day file of three puzzles, not a "
                         "solver instance")
    if unique_by != "placement" and not args.unique:
        raise UsageError("--unique-by is for --unique")
    if args.number > 1 and args.output is None and args.kind != "dominosa":
        raise UsageError(f"--number {args.number} writes {args.number} files: name them "
                         "with -o")
    check_timeout(args.timeout)
    params = {k: getattr(args, k) for k in gen.PARAMETERS[args.kind]
              if getattr(args, k) is not None}
    if difficulty is None or args.dominoes is not None:
        gen.check(args.kind, params)
    readings = gen.readings(args.kind, cover=not args.no_cover, rotate=args.rotate,
                            reflect=args.reflect)
    if readings and not (instance or args.unique):
        raise UsageError(f"--{next(iter(readings)).replace('cover', 'no-cover')} is a reading "
                         "of the rules: for --unique or an instance output (-o NAME.cnf ...)")
    job = Job(args.kind, params, args.unique, args.timeout, readings, difficulty, unique_by,
              args.format if args.format in ("id", "grid") else None)
    seeds = range(args.seed, args.seed + args.number)
    results = _on_dask(job, seeds, args.scheduler) if args.scheduler else (
        job.run(seed, progress=terminal_progress(f"generate {args.kind} seed {seed}"))
        for seed in seeds)
    code = 0
    texts = []
    for k, (seed, text, summary, puzzle) in enumerate(results, start=1):
        _clear_progress()
        if summary:
            say(f"satdomino: {summary}")
        if instance:
            one = argparse.Namespace(**vars(args))
            one.output = numbered(args.output, k, args.number)
            origin = gen.origin(args.kind, params, seed, args.unique, puzzle, readings,
                                job.flags())
            code = max(code, write(family(args.kind), dataclasses.replace(puzzle, **readings),
                                   origin, one))
        elif args.output is not None and (args.number == 1 or args.kind != "dominosa"):
            write_atomic(numbered(args.output, k, args.number), text)
        else:
            texts.append(text)
    if texts:
        if args.output:
            write_atomic(args.output, "".join(texts))
        else:
            sys.stdout.write("".join(texts))
    return code


@dataclasses.dataclass(frozen=True)
class Job:
    """One ``generate`` command's puzzles, made one seed at a time (here or on a Dask
    worker): (seed, the puzzle file's text, the line for stderr, the puzzle)."""
    kind: str
    params: dict
    unique: bool
    timeout: float | None
    readings: dict
    difficulty: str | None
    unique_by: str
    fmt: str | None

    def run(self, seed: int, progress=None) -> tuple[int, str, str, Any]:
        from .. import generate as gen
        from ..puzzles.pips import to_nyt

        parts = ["easy", "medium", "hard"] if self.difficulty == "all" else [self.difficulty]
        day, lines, puzzle = {}, [], None
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        for part in parts:  # a day's three puzzles share the time limit
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            made = gen.made(self.kind, self.params, seed, unique=self.unique, timeout=left,
                            rules=self.readings, difficulty=part, unique_by=self.unique_by,
                            progress=progress)
            puzzle = made.puzzle
            if self.unique or part:
                lines.append((f"{part}: " if self.difficulty == "all" else "")
                             + made.summary())
            day[part] = made
        if self.difficulty == "all":
            text = json.dumps({"generator": " ".join(["satdomino generate pips",
                                                      *self.flags(), f"--seed {seed}"]),
                               **{part: to_nyt(m.puzzle) for part, m in day.items()}}) + "\n"
        else:
            made = day[parts[0]]
            text = gen.puzzle_text(self.kind, made.puzzle, self.fmt)
        return seed, text, "; ".join(lines), puzzle

    def flags(self) -> list[str]:
        """The options beyond the family's parameters that remake these puzzles."""
        out = [f"--difficulty {self.difficulty}"] if self.difficulty else []
        return out + ([f"--unique-by {self.unique_by}"] if self.unique_by != "placement"
                      else [])


def _on_dask(job: Job, seeds, address: str):
    """The puzzles made on a Dask cluster, in seed order."""
    from ..compare.sweep import dask_client

    client = dask_client(address)
    try:
        futures = client.map(job.run, list(seeds), pure=False)
        yield from client.gather(futures, errors="raise")
    finally:
        client.close()


def terminal_progress(label: str):
    """How the work goes, on one line of stderr when it is a terminal; else None."""
    if not sys.stderr.isatty():
        return None
    last = [0.0]

    def show(what: str) -> None:
        now = time.monotonic()
        if now - last[0] > 0.2:
            last[0] = now
            print(f"\r{label}: {what}\x1b[K", end="", file=sys.stderr, flush=True)

    return show


def _clear_progress() -> None:
    if sys.stderr.isatty():
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
