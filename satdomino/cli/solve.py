"""``satdomino solve``: solve puzzles, decide uniqueness, count, draw."""

from __future__ import annotations

import argparse
import json
import sys

from ..analysis.count import count, terminal_progress
from ..auto import AUTO
from ..backends import Backend, get_backend
from ..encode import Encodings
from ..errors import SatDominoError, UsageError
from ..fileio import apart, output_path, write_atomic
from ..inputs import Item
from ..puzzles import FAMILIES, family
from ..ranges import DELTA, EPSILON, LIMIT
from ..solve import Outcome, solve
from .common import (
    attempt,
    encoding_options,
    error_record,
    exit_status,
    kind_option,
    load_puzzles,
    named_encodings,
    numbered,
    rule_options,
    say,
    timeout_option,
)

COUNT_KINDS = ("exact", "approx")
# the exit status of each puzzle's answer (``exit_status`` combines them)
EXIT_CODES = {"unknown": 3, "unsat": 1, "sat": 0}


def add_parser(sub) -> None:
    s = sub.add_parser("solve", help="solve puzzles from files, folders, - (stdin) or written "
                       "out (a Tatham game id)", description="Solve puzzles; every solution "
                       "shown has passed the rule checker.")
    s.add_argument("files", nargs="+", metavar="FILE",
                   help="puzzle files (compressed by suffix), folders, - for standard input, "
                   "or a puzzle written out such as the game id 2:221200101201")
    kind_option(s)
    s.add_argument("--model", help="model of the puzzle family (" + "; ".join(
        f"{kind}: {', '.join(fam.models)}" for kind, fam in FAMILIES.items()) + ")")
    s.add_argument("--puzzle", metavar="NAME",
                   help="only the part of each file with this name (easy, medium, hard, ...)")
    s.add_argument("--backend", default=AUTO,
                   help="solver (default auto: the model, encodings and solver measured "
                   "fastest for the family and size); see 'satdomino encodings'")
    encoding_options(s)
    timeout_option(s, "seconds per puzzle, building included; the solver is stopped and the "
                   "answer is unknown (exit 3)")
    s.add_argument("--unique", action="store_true",
                   help="also decide uniqueness; a second solution is shown when there is one")
    rule_options(s)
    s.add_argument("--count", nargs="?", const="exact", choices=COUNT_KINDS,
                   help="also count distinct solutions: exactly (the first of enumeration, the "
                   "family's counter and Ganak to finish), or 'approx': ApproxMC's estimate "
                   "within (1 + epsilon) with probability 1 - delta, and for Domino Fit the "
                   "family's sampled estimate (about 20 s of runs, ending within --timeout, "
                   "with its standard error), "
                   "join that race (an exact answer that comes first wins)")
    s.add_argument("--epsilon", type=EPSILON.parse, metavar="E",
                   help=f"with --count approx: the tolerance, {EPSILON.bounds()} (default 0.8)")
    s.add_argument("--delta", type=DELTA.parse, metavar="D", help="with --count approx: the "
                   f"chance of missing it, {DELTA.bounds()} (default 0.2)")
    views = ["placement", *sorted({v for fam in FAMILIES.values() for v in fam.count_views})]
    s.add_argument("--count-by", choices=views, default="placement",
                   help="what makes two solutions different: which domino lies where and which "
                   "way round (default), or another view a family counts by (" + "; ".join(
                       f"{kind}: {', '.join(fam.count_views)}"
                       for kind, fam in FAMILIES.items() if fam.count_views) + ")")
    s.add_argument("--limit", type=LIMIT.parse, metavar="N",
                   help="with --count: stop enumerating at N (exact counters ignore it)")
    s.add_argument("--json", action="store_true", help="one JSON object per puzzle per line "
                   "(fields: docs/formats.md)")
    s.add_argument("--svg", metavar="FILE",
                   help="draw board and solution (FILE-1.svg, FILE-2.svg, ... for several)")


def bare_count(argv: list[str]) -> list[str]:
    """``--count`` followed by a puzzle file means ``--count=exact``: argparse would otherwise
    take the file for the optional ``exact``/``approx`` (and reject it)."""
    out = list(argv)
    for i, token in enumerate(out[:-1]):
        if token == "--":
            break
        if token == "--count" and out[i + 1] not in COUNT_KINDS:
            out[i] = "--count=exact"
    return out


def report(item: Item, out: Outcome, asked_unique: bool) -> str:
    """The text answer: a head line, what auto picked, the count, the drawing (and a second
    solution's, when the puzzle is not unique)."""
    verdict = {"sat": "solved", "unsat": "no solution", "unknown": f"unknown ({out.reason})"}[
        out.status] + (f" ({out.reason})" if out.status == "unsat" and out.reason else "")
    if out.unique is not None:
        verdict += ", unique" if out.unique else ", NOT unique"
    elif out.status == "sat" and asked_unique:
        verdict += f", uniqueness unknown ({out.reason or 'time limit'})"
    st = out.stats
    sizes = "" if st["variables"] is None else \
        f"{st['variables']} vars, {st['clauses']} clauses, "
    head = f"== {item.where}: {verdict}  ({st['backend']}, {sizes}{st['solve_seconds']:.3f} s)"
    if st["backend"].startswith(AUTO + ":") and "encodings" in st:  # what auto picked
        plain = Encodings().as_dict()
        changed = [f"{k}={v}" for k, v in st["encodings"].items() if plain.get(k, v) != v]
        head += (f"\n   auto picked: model {st['model']}, "
                 + (" ".join(changed) or "default encodings")
                 + f", backend {st['backend'][len(AUTO) + 2:]}")
    assert item.family is not None
    body = item.family.render_text(item.puzzle, out.solution) if out.status == "sat" else ""
    if out.other is not None:
        body += ("\na second solution (the puzzle is not unique):\n"
                 + item.family.render_text(item.puzzle, out.other))
    if out.count is not None:
        c = out.count
        about = "about " if c.method in ("approx", "estimate") else ""
        guarantee = (f", within x{1 + c.epsilon:g} with probability {1 - c.delta:g}"
                     if c.epsilon is not None and c.delta is not None else
                     f", standard error {c.error:.1%}" if c.error is not None else "")
        short = "" if c.complete else f"+ (incomplete: {c.reason or 'stopped early'})"
        noun = f"distinct {c.by}" + ("" if c.value == 1 and c.complete else "s")
        raced = f"; raced {', '.join(c.raced)}" if len(c.raced) > 1 else ""
        body = (f"count: {about}{c.value}{short} "
                f"{noun} ({c.method}{guarantee}, {c.seconds:.3f} s{raced})\n") + body
    return head + "\n" + body


def run(args: argparse.Namespace) -> int:
    encodings, engine = _checked(args)
    items = load_puzzles(args.files, args, args.timeout)
    codes: set[int] = set()
    drawable = sum(it.error is None for it in items)  # puzzles that may get an SVG
    drawn = 0
    for item in items:
        where = item.where
        out, failed = attempt(item, _answer, item, args, engine, encodings)
        if out is None:
            codes.add(failed)
            say(f"satdomino: {where}: {item.error}")
            if args.json:
                print(json.dumps(error_record(item)), flush=True)
            elif item.timed_out:  # no answer (the time limit), not bad input: a verdict line
                print(f"== {where}: unknown ({item.error})", flush=True)
            continue
        codes.add(EXIT_CODES[out.status])
        if args.unique and out.status == "sat" and out.unique is None:
            codes.add(3)  # uniqueness was asked and the time ran out
        if args.count and (out.count is None or not out.count.complete) and args.limit is None:
            codes.add(3)  # the count was cut short by the time limit
        print(json.dumps(out.json()) if args.json else report(item, out, args.unique),
              flush=True)
        if args.svg is not None and item.family is not None:
            drawn += 1
            try:
                write_atomic(numbered(args.svg, drawn, drawable, ".svg"),
                             item.family.render_svg(item.puzzle, out.solution))
            except SatDominoError as e:
                codes.add(2)
                say(f"satdomino: {e}")
    return exit_status(codes)


def _checked(args: argparse.Namespace) -> tuple[dict[str, str], str | Backend]:
    """Refuse options that do not fit together, before any file is read; (the encodings
    named, the backend)."""
    encodings = named_encodings(args)
    named = Encodings(**encodings)  # unknown names are usage errors before any file is read
    engine: str | Backend = AUTO
    if args.backend != AUTO:
        engine = get_backend(args.backend)
        engine.check(named)
    if args.count_by != "placement" and not args.count:
        raise UsageError("--count-by needs --count")
    if args.count != "approx" and (args.epsilon is not None or args.delta is not None):
        raise UsageError("--epsilon and --delta need --count approx")
    if args.count == "approx" and args.limit is not None:
        raise UsageError("--limit stops an enumeration; --count approx does not enumerate")
    args.epsilon = 0.8 if args.epsilon is None else args.epsilon
    args.delta = 0.2 if args.delta is None else args.delta
    if args.limit is not None and not args.count:
        raise UsageError("--limit needs --count")
    if args.svg is not None:
        output_path(args.svg, "--svg")
        apart(args.files, {"--svg": args.svg})
    if args.model and args.kind:
        family(args.kind).model(args.model)  # an unknown model is a usage error up front
    return encodings, engine


def _answer(item: Item, args: argparse.Namespace, engine: str | Backend,
            encodings: dict[str, str]) -> Outcome:
    """One puzzle solved (and counted), within one budget."""
    assert item.family is not None
    limit = item.deadline(args.timeout)  # one budget per puzzle, its reading included
    out = solve(item.puzzle, item.family, model=args.model, backend=engine,
                encodings=encodings, deadline=limit, unique=args.unique)
    out.source, out.name = item.file, item.name
    if args.count and out.status != "unknown":
        progress = terminal_progress(item.where)
        out.count = count(item.puzzle, item.family, model=args.model, backend=engine,
                          encodings=encodings, limit=args.limit, deadline=limit,
                          by=args.count_by, known=out, approx=args.count == "approx",
                          epsilon=args.epsilon, delta=args.delta, progress=progress)
        if progress is not None:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)
        if not out.count.complete and not out.reason:
            out.reason = f"the count is incomplete ({out.count.reason})"
    return out
