"""``satdomino generate KIND``: a puzzle with a planted solution (or exactly one), as a puzzle
file or straight as a solver instance. One sub-command per registered family, each with its
generator's parameters and choices."""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..clock import Deadline
from ..compare.sweep import dask_client
from ..errors import UsageError, VerificationError
from ..family import Family
from ..fileio import STDOUT, output_path, write_atomic
from ..generators import check as check_params
from ..generators import made, origin
from ..instance import FORMATS, is_instance_name
from ..puzzles import FAMILIES, family
from ..ranges import NUMBER
from ..render.output import is_drawing_name
from .common import exit_status, numbered, say
from .draw import write_drawings
from .export import check_outputs, instance_options, write


def add_parser(sub: Any) -> None:
    g = sub.add_parser("generate", help="make a puzzle with a planted solution (or exactly "
                       "one: --unique)", description="Make a puzzle; see 'satdomino generate "
                       "KIND --help' for each family's options.")
    kinds = g.add_subparsers(dest="kind", required=True, metavar="KIND")
    for fam in FAMILIES.values():
        _family_parser(kinds, fam)


def _family_parser(kinds: Any, fam: Family[Any, Any]) -> None:
    gen = fam.generator
    k = kinds.add_parser(fam.kind, help=gen.what, description=f"Make {gen.what}.")
    for p in gen.params:
        k.add_argument("--" + p.name.replace("_", "-"), type=int, default=p.default,
                       required=p.required and p.default is None,
                       help=f"{p.help} ({p.lo} to {p.hi}"
                       + (f"; default {p.default})" if p.default is not None else ")"))
    k.add_argument("--seed", type=int, default=0,
                   help="random seed: the same parameters and seed give the same puzzle "
                   "(default 0; with --number K, seeds SEED to SEED+K-1)")
    formats = list(fam.formats) if len(fam.formats) > 1 else []
    k.add_argument("--format", choices=[*formats, *FORMATS],
                   help=(f"puzzle file: {' or '.join(formats)} (default {formats[0]}); or an "
                         "instance format" if formats else "instance format")
                   + " (default: from the output's suffix)")
    k.add_argument("--unique", action="store_true",
                   help=f"a puzzle with exactly one solution: planted, then {gen.how_unique}; "
                   "its difficulty (explain's level) is reported on stderr")
    for c in gen.choices:
        k.add_argument("--" + c.name.replace("_", "-"), default=c.default,
                       choices=[*c.values, *([c.every] if c.every else [])], help=c.help)
    k.add_argument("--number", type=NUMBER.parse, default=1, metavar="K",
                   help=f"K puzzles ({NUMBER.bounds()}), seeds SEED..SEED+K-1 (several files, "
                   "numbered NAME-1.EXT, NAME-2.EXT, ..., proofs too, need -o; puzzles of a "
                   "one-line format go one per line)")
    k.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="make the puzzles on a Dask cluster (pip install "
                   "'satdomino[distributed]'), as compare does")
    k.add_argument("-o", "--output", metavar="FILE",
                   help="the puzzle file (default, or -: standard output; compressed by "
                   "suffix); a name ending in .cnf[.xz|.gz|.bz2], .opb, .smt2, .lp or .mod "
                   "writes the solver instance instead, as export does (so does -o - with "
                   "--format dimacs, opb, ...); .svg, .png or .pdf draws the puzzles and their "
                   "answer keys (a PDF: one book, the keys at the end)")
    instance_options(k, fam)


def run(args: argparse.Namespace) -> int:
    fam = family(args.kind)
    params = {p.name: getattr(args, p.name) for p in fam.generator.params
              if getattr(args, p.name) is not None}
    choices = {c.name: getattr(args, c.name) for c in fam.generator.choices}
    instance = _check(args, fam, params, choices)
    job = Job(fam.kind, params, args.unique, args.timeout, args.readings, choices,
              args.format if args.format in fam.formats else None,
              draw=args.output is not None and is_drawing_name(args.output))
    seeds = range(args.seed, args.seed + args.number)
    results = _on_dask(job, seeds, args.scheduler, args.timeout) if args.scheduler else (
        job.run(seed, progress=terminal_progress(f"generate {fam.kind} seed {seed}"))
        for seed in seeds)
    return _write_all(args, fam, job, instance, results)


def _check(args: argparse.Namespace, fam: Family[Any, Any], params: dict[str, int],
           choices: dict[str, Any]) -> bool:
    """Refuse options that do not fit together; whether the output is a solver instance."""
    instance = args.output is not None and (args.format in FORMATS
                                            or is_instance_name(args.output))
    drawing = args.output is not None and is_drawing_name(args.output)
    if drawing and (args.format is not None or args.uniqueness or args.proof):
        raise UsageError("-o NAME.svg, .png or .pdf writes drawings: --format, "
                         "--uniqueness and --proof are for puzzle files and instances")
    if args.output == STDOUT and args.number > 1 and (instance or not fam.stackable):
        raise UsageError(f"--number {args.number} writes {args.number} files: -o - "
                         "(standard output) takes one")
    if instance:
        check_outputs(args)
    elif args.output not in (None, STDOUT):  # a puzzle file or a drawing
        output_path(args.output, "-o")
    elif args.format in FORMATS:
        raise UsageError(f"--format {args.format} writes a solver instance: name it with -o")
    if not instance and (args.uniqueness or args.proof):
        raise UsageError("--uniqueness and --proof need an instance output "
                         "(-o NAME.cnf, .opb, .smt2, .lp or .mod)")
    if args.format in fam.formats and instance:
        raise UsageError(f"--format {args.format} is a puzzle file format, not an instance")
    for c in fam.generator.choices:
        value = choices[c.name]
        if c.every and value == c.every and instance:
            raise UsageError(f"--{c.name.replace('_', '-')} {c.every} writes one file of "
                             "several puzzles, not a solver instance")
        if c.unique_only and value != c.default and not args.unique:
            raise UsageError(f"--{c.name.replace('_', '-')} is for --unique")
    if args.number > 1 and args.output is None and not fam.stackable:
        raise UsageError(f"--number {args.number} writes {args.number} files: name them "
                         "with -o")
    check_params(fam, params, {k: v for k, v in choices.items() if v is not None})
    if args.readings and not (instance or args.unique):
        flag = next(r.flag for r in fam.readings if r.field in args.readings)
        raise UsageError(f"{flag} is a reading of the rules: for --unique or an instance "
                         "output (-o NAME.cnf ...)")
    return instance


# (seed, the puzzle file's text, the line for stderr, it, and with -o NAME.svg/.png/.pdf the
# drawings of each puzzle made and of its answer key)
Result = tuple[int, str, str, Any, list[tuple[str, str]]]


def _write_all(args: argparse.Namespace, fam: Family[Any, Any], job: Job, instance: bool,
               results: Iterable[Result]) -> int:
    codes = []
    texts = []
    pages: list[tuple[str, str | None]] = []
    for k, (seed, text, summary, puzzle, drawings) in enumerate(results, start=1):
        if sys.stderr.isatty():  # the progress line goes
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)
        if summary:
            say(f"satdomino: {summary}")
        if instance:
            one = argparse.Namespace(**vars(args))
            one.output = numbered(args.output, k, args.number)
            one.proof = args.proof and numbered(args.proof, k, args.number)
            made_at = origin(fam, job.params, seed, job.unique, puzzle, job.readings,
                             job.flags())
            codes.append(write(fam, dataclasses.replace(puzzle, **job.readings), made_at, one))
        elif drawings:
            pages += drawings
        elif args.output is not None and (args.number == 1 or not fam.stackable):
            write_atomic(numbered(args.output, k, args.number), text)
        else:
            texts.append(text)
    if texts:
        write_atomic(args.output or STDOUT, "".join(texts))
    if pages:
        write_drawings(args.output, pages)
    return exit_status(codes)


@dataclasses.dataclass(frozen=True)
class Job:
    """One ``generate`` command's puzzles, made one seed at a time (here or on a Dask
    worker): (seed, the puzzle file's text, the line for stderr, the puzzle)."""
    kind: str
    params: dict
    unique: bool
    timeout: float | None
    readings: dict
    choices: dict
    fmt: str | None
    draw: bool = False  # also the drawings of each puzzle and its answer key

    def run(self, seed: int, progress: Callable[[str], None] | None = None) -> Result:
        fam = family(self.kind)
        choice = next((c for c in fam.generator.choices
                       if c.every and self.choices.get(c.name) == c.every), None)
        parts: list[str | None] = list(choice.values) if choice else [None]
        day: dict[str, Any] = {}
        lines: list[str] = []
        drawings: list[tuple[str, str]] = []
        deadline = Deadline.after(self.timeout)  # a collection's puzzles share the limit
        for part in parts:
            chosen = {**self.choices, **({choice.name: part} if choice else {})}
            out = made(fam, self.params, seed, unique=self.unique, deadline=deadline,
                       rules=self.readings, choices=chosen, progress=progress)
            if self.unique or self.flags():
                lines.append((f"{part}: " if choice else "") + out.summary())
            day[part or ""] = out.puzzle
            if self.draw:
                if problems := fam.verify(out.puzzle, out.solution):  # never shown unchecked
                    raise VerificationError(f"a made {fam.kind} puzzle's layout breaks the "
                                            f"rules: {'; '.join(problems[:3])}")
                drawings.append((fam.render_svg(out.puzzle, None),
                                 fam.render_svg(out.puzzle, out.solution)))
        if choice and fam.generator.collection is not None:
            command = " ".join(["satdomino generate", fam.kind, *self.flags(), f"--seed {seed}"])
            text = fam.generator.collection(day, command)
        else:
            text = fam.write(day[parts[0] or ""], self.fmt)
        return seed, text, "; ".join(lines), day[parts[-1] or ""], drawings

    def flags(self) -> list[str]:
        """The options beyond the family's parameters that remake these puzzles."""
        return [f"--{c.name.replace('_', '-')} {self.choices[c.name]}"
                for c in family(self.kind).generator.choices
                if self.choices.get(c.name) not in (None, c.default)]


def _on_dask(job: Job, seeds: Iterable[int], address: str,
             timeout: float | None) -> Iterator[Result]:
    """The puzzles made on a Dask cluster, in seed order; the scheduler reached within the
    ``timeout``."""
    client = dask_client(address, timeout)
    try:
        yield from client.gather(client.map(job.run, list(seeds), pure=False), errors="raise")
    finally:
        client.close()


def terminal_progress(label: str) -> Callable[[str], None] | None:
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
