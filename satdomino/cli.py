"""The ``satdomino`` command: a thin layer over the library.

Exit status: 0 every puzzle answered, 1 some puzzle has no solution, 2 bad input or usage,
3 some answer unknown (time limit), 4 internal error (a layout failed verification: a bug or
a wrong solver). When several apply, 4 wins over 2, 2 over 3, and 3 over 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import lzma
import os
import signal
import sys
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__
from .analysis.count import count
from .auto import AUTO
from .backends import PRESETS, Backend, available_backends, get_backend
from .backends.external import competition_answer
from .compare.runner import KEY
from .encode import KINDS, REGISTRY, Encodings
from .errors import OutOfTimeError, SatDominoError, UsageError, VerificationError
from .export.dimacs import gbd_hash, read_dimacs
from .export.instance import (
    FORMATS,
    SAT,
    UNSAT,
    Origin,
    export_instance,
    format_of,
    is_instance_name,
)
from .fileio import atomic_text, compression, opener, output_path
from .puzzles import FAMILIES, Family, detect, family
from .puzzles.common import Skipped
from .solve import MAX_TIMEOUT, Outcome, solve

KIND_HELP = {"amo": "at-most-one / exactly-one", "card": "cardinality", "pb": "pseudo-Boolean",
             "int": "integer-variable"}
# an outside solver's UNSAT has no answer to check: a proof does (satdomino check-proof)
CLAIM = "the solver's claim, not checked here: check a DRAT proof with satdomino check-proof"
OUT_OF_MEMORY = ("out of memory (the instance is too large for the memory allowed; "
                 "a smaller encoding or model may fit: see satdomino encodings)")


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints usage too)
        raise UsageError(message)


def _one_line(text: object) -> str:
    """A message on one line: names from files or the command line may hold newlines or
    other control characters, shown escaped."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))


def _say(message: str) -> None:
    """A message for the user: one line on stderr, now."""
    print(_one_line(message), file=sys.stderr, flush=True)


def build_parser() -> Parser:
    p = Parser(prog="satdomino", description="Domino puzzles as SAT and SMT.")
    p.add_argument("--version", action="version", version=f"satdomino {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    s = sub.add_parser("solve", help="solve puzzles from files, folders or - (stdin)")
    s.add_argument("files", nargs="+", metavar="FILE",
                   help="puzzle files, folders, or - for standard input")
    s.add_argument("--kind", choices=sorted(FAMILIES), help="puzzle kind (default: detected)")
    s.add_argument("--model", help="model of the puzzle family (" + "; ".join(
        f"{kind}: {', '.join(fam.models)}" for kind, fam in FAMILIES.items()) + ")")
    s.add_argument("--puzzle", metavar="NAME",
                   help="only the part of each file with this name (easy, medium, hard, ...)")
    s.add_argument("--backend", default=AUTO,
                   help="solver (default auto: the model, encodings and solver measured "
                   "fastest for the family and size); see 'satdomino encodings'")
    defaults = Encodings()
    for kind in KINDS:
        s.add_argument(f"--{kind}", metavar="E",
                       help=f"{KIND_HELP[kind]} encoding (default: auto's pick; with a named "
                       f"--backend, {getattr(defaults, kind)})")
    s.add_argument("--timeout", type=float, metavar="S",
                   help="seconds per puzzle; the solver is stopped and the answer is unknown")
    s.add_argument("--unique", action="store_true", help="also decide uniqueness")
    s.add_argument("--no-cover", action="store_true",
                   help="dominofit: only forbid overlaps (the published model's reading)")
    s.add_argument("--rotate", action="store_true", help="doodlefit: blocks may be rotated")
    s.add_argument("--reflect", action="store_true", help="doodlefit: blocks may be mirrored")
    s.add_argument("--count", action="store_true",
                   help="also count distinct solutions (exact counter, else enumeration)")
    s.add_argument("--count-by", choices=["placement", "grid", "tiling"], default="placement",
                   help="what makes two solutions different: which domino lies where and which "
                   "way round (default), the pip grid, or the domino outlines")
    s.add_argument("--limit", type=int, metavar="N",
                   help="with --count: stop enumerating at N (exact counters ignore it)")
    s.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    s.add_argument("--svg", metavar="FILE",
                   help="draw board and solution (FILE-1.svg, FILE-2.svg, ... for several)")

    x = sub.add_parser("export", help="write one puzzle's formula: DIMACS, OPB, SMT-LIB, LP")
    x.add_argument("file", metavar="FILE")
    x.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output file; .cnf (.xz, .gz, .bz2) DIMACS, .lp LP, .mod MathProg, "
                   ".opb OPB, .smt2 SMT-LIB 2")
    x.add_argument("--kind", choices=sorted(FAMILIES))
    x.add_argument("--puzzle", metavar="NAME")
    _instance_options(x, defaults)

    c = sub.add_parser("compare", help="sweep puzzles x models x encodings x backends x seeds")
    c.add_argument("puzzles", nargs="+", metavar="PUZZLES",
                   help="files, folders, or generator specs such as dominosa:n=40..60:seeds=5")
    c.add_argument("--model", default="", metavar="M,M", help="models (default: each "
                   "family's default); a model another family lacks is skipped there")
    for kind in KINDS:
        c.add_argument(f"--{kind}", metavar="E,E",
                       help=f"{KIND_HELP[kind]} encodings (default: auto's pick; with named "
                       f"backends, {getattr(defaults, kind)})")
    c.add_argument("--backend", default=AUTO, metavar="B,B",
                   help="backends (default auto: each puzzle's pick, named in the rows)")
    c.add_argument("--no-cover", action="store_true", help="dominofit: squares may stay empty")
    c.add_argument("--rotate", action="store_true", help="doodlefit: blocks may be rotated")
    c.add_argument("--reflect", action="store_true", help="doodlefit: blocks may be mirrored")
    c.add_argument("--seeds", type=int, default=1, metavar="K",
                   help="runs per configuration: seed 0 is the CNF as built, seeds 1..K-1 "
                   "rename variables and shuffle clauses and literals")
    c.add_argument("--timeout", type=float, default=60.0, metavar="S",
                   help="wall-clock seconds per run, encoding included (default 60)")
    c.add_argument("--memory", type=int, default=None, metavar="MB",
                   help="address-space limit per run in MB (default: none)")
    where = c.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), metavar="N",
                       help="runs at once on this machine (default: number of CPUs)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run on a Dask distributed cluster (pip install "
                       "'satdomino[distributed]')")
    c.add_argument("-o", "--output", required=True, metavar="results.csv",
                   help="rows are appended as runs finish; an existing file is resumed")
    c.add_argument("--plot", metavar="cactus.svg", help="cactus plot (.svg, .png or .pdf)")
    c.add_argument("--scatter", metavar="scatter.svg",
                   help="scatter plot of the first two configurations")
    c.add_argument("--no-progress", action="store_true", help="no progress bar on a terminal")

    k = sub.add_parser("check-proof", help="verify a DRAT proof that a DIMACS file is UNSAT")
    k.add_argument("cnf", metavar="CNF")
    k.add_argument("proof", metavar="PROOF", help="text or binary DRAT, possibly compressed")
    k.add_argument("--timeout", type=float, default=600.0, metavar="S",
                   help="seconds for each checker (default 600)")
    k.add_argument("--no-drat-trim", action="store_true",
                   help="only the built-in checker, even when drat-trim is on PATH")
    k.add_argument("--json", action="store_true")

    d = sub.add_parser("decode", help="an outside solver's answer to an exported instance")
    d.add_argument("instance", metavar="OUT", help="the exported DIMACS file (its OUT.map.json)")
    d.add_argument("answer", metavar="SOLVER_OUTPUT", help="the solver's s / v lines, or -")
    d.add_argument("--json", action="store_true")

    e = sub.add_parser("encodings", help="list encodings and backends available here")
    e.add_argument("--json", action="store_true")

    g = sub.add_parser("generate", help="make a puzzle with a planted solution")
    g.add_argument("kind", choices=["dominosa", "pips", "dominofit", "doodlefit"])
    g.add_argument("--n", type=int, help="dominosa: highest number (double-N set)")
    g.add_argument("--dominoes", type=int, help="pips: number of dominoes")
    g.add_argument("--max-pip", type=int, default=6, help="pips: highest pip (default 6)")
    g.add_argument("--width", type=int, help="dominofit: board width")
    g.add_argument("--height", type=int, help="dominofit: board height")
    g.add_argument("--cells", type=int, help="doodlefit: cells in the shape")
    g.add_argument("--blocks", type=int, help="doodlefit: number of blocks")
    g.add_argument("--seed", type=int, default=0)
    g.add_argument("--format", choices=["id", "grid", *FORMATS],
                   help="dominosa puzzle file: game id (default) or number grid; or an "
                   "instance format (default: from the output's suffix)")
    g.add_argument("--unique", action="store_true",
                   help="keep only a puzzle with exactly one solution (tries seeds from --seed)")
    g.add_argument("--tries", type=int, default=200, help="with --unique: seeds to try")
    g.add_argument("-o", "--output", metavar="FILE",
                   help="the puzzle file; a name ending in .cnf[.xz|.gz|.bz2], .opb, .smt2, "
                   ".lp or .mod writes the solver instance instead, as export does")
    _instance_options(g, defaults, with_format=False)
    return p


def _instance_options(p: argparse.ArgumentParser, defaults: Encodings,
                      with_format: bool = True) -> None:
    """What `export` and `generate -o X.cnf` share: how to write the instance."""
    if with_format:
        p.add_argument("--format", choices=list(FORMATS),
                       help="default: from the output's suffix")
    p.add_argument("--model")
    for kind in KINDS:
        p.add_argument(f"--{kind}", default=getattr(defaults, kind), metavar="E")
    p.add_argument("--no-cover", action="store_true",
                   help="dominofit: squares may stay empty")
    p.add_argument("--rotate", action="store_true", help="doodlefit: blocks may be rotated")
    p.add_argument("--reflect", action="store_true", help="doodlefit: blocks may be mirrored")
    p.add_argument("--uniqueness", action="store_true",
                   help="the uniqueness instance: the puzzle plus 'differs from its solution "
                   "somewhere', UNSATISFIABLE exactly when the solution is unique")
    p.add_argument("--proof", metavar="FILE",
                   help="DIMACS: also solve the instance with a proof-logging solver and "
                   "store its DRAT proof of UNSAT here (compressed by suffix)")
    p.add_argument("--proof-backend", default=AUTO, metavar="B",
                   help="python-sat solver that logs the proof (default auto: cadical195, the "
                   "fastest of those that log proofs)")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S",
                   help="seconds for finding the status (smt2, --uniqueness) and the proof")
    p.add_argument("--json", action="store_true",
                   help='print {"file", "format", "variables", "clauses", "hash", ...}')


# input -------------------------------------------------------------------------------------------

@dataclass
class Item:
    file: str
    name: str | None
    family: Family | None
    puzzle: Any = None
    error: str | None = None


def _read(path: str) -> str:
    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            with opener(path)(path, "rb") as f:  # compressed by suffix, or plain
                data = f.read()
        except (EOFError, lzma.LZMAError, zlib.error, gzip.BadGzipFile):
            raise SatDominoError(f"not {compression(path)}-compressed data") from None
        except FileNotFoundError:
            raise SatDominoError("no such file") from None
        except IsADirectoryError:
            raise SatDominoError("is a directory") from None
        except OSError as e:
            raise SatDominoError(e.strerror or str(e)) from None
    if b"\0" in data:
        raise SatDominoError("not a text file (binary data)")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark is not part of the puzzle
    except UnicodeDecodeError:
        raise SatDominoError("not a text file (not UTF-8)") from None


def _hidden(path: Path, root: Path) -> bool:
    return any(part.startswith(".") for part in path.relative_to(root).parts)


def _expand(paths: list[str], kind: str | None) -> Iterator[tuple[str, str | None]]:
    """(path, error) for every file to read; a folder without puzzle files is an error."""
    suffixes = {s for f in FAMILIES.values() if kind in (None, f.kind) for s in f.suffixes}
    for path in paths:
        if path != "-" and os.path.isdir(path):
            root = Path(path)
            found = sorted(str(p) for p in root.rglob("*")
                           if p.is_file() and p.suffix.lower() in suffixes
                           and not _hidden(p, root))
            if not found:
                looked = ", ".join(sorted(suffixes))
                yield path, f"no puzzle files in this folder (looked for {looked})"
            for p in found:
                yield p, None
        else:
            yield path, None


def load(paths: list[str], kind: str | None, puzzle: str | None = None) -> list[Item]:
    items: list[Item] = []
    for path, problem in _expand(paths, kind):
        if problem:
            items.append(Item(path, None, None, error=problem))
            continue
        fam = None
        try:
            text = _read(path)
            fam = family(kind) if kind else detect(text)
            parts = fam.parse(text)
            if puzzle is not None:
                names = [str(name) for name, _ in parts if name is not None]
                parts = [(name, part) for name, part in parts if name == puzzle]
                if not parts:
                    held = (f"there are: {', '.join(names)}" if names
                            else "it holds one unnamed puzzle")
                    raise SatDominoError(f"no puzzle named {puzzle!r} here ({held})")
            for name, part in parts:
                if isinstance(part, Skipped):
                    where = path + (f" [{name}]" if name else "")
                    _say(f"satdomino: {where}: skipped: {part.reason}")
                elif isinstance(part, SatDominoError):
                    items.append(Item(path, name, fam, error=str(part)))
                else:
                    items.append(Item(path, name, fam, part))
        except SatDominoError as e:
            items.append(Item(path, None, fam, error=str(e)))
    return items


# output ------------------------------------------------------------------------------------------

def _record(item: Item, out: Outcome | None) -> dict:
    rec: dict[str, Any] = {"file": item.file, "puzzle": item.name,
                           "kind": item.family.kind if item.family else None}
    if out is None:
        memory = item.error == OUT_OF_MEMORY  # no answer, as at a time limit: not bad input
        rec.update(status="unknown" if memory else "error", solution=None, unique=None,
                   stats=None, **{"reason" if memory else "error": item.error})
        return rec
    assert item.family is not None
    sol = item.family.solution_json(item.puzzle, out.solution) if out.solution else None
    rec.update(status=out.status, solution=sol, unique=out.unique, stats=out.stats)
    if out.reason:
        rec["reason"] = out.reason
    if out.count is not None:
        rec.update(count=out.count.value, count_method=out.count.method,
                   count_complete=out.count.complete, count_by=out.count.by)
    return rec


def _text(item: Item, out: Outcome, asked_unique: bool) -> str:
    label = item.file + (f" [{item.name}]" if item.name else "")
    verdict = {"sat": "solved", "unsat": "no solution", "unknown": f"unknown ({out.reason})"}[
        out.status]
    if out.unique is not None:
        verdict += ", unique" if out.unique else ", NOT unique"
    elif out.status == "sat" and asked_unique:
        verdict += f", uniqueness unknown ({out.reason or 'time limit'})"
    st = out.stats
    sizes = "" if st["variables"] is None else \
        f"{st['variables']} vars, {st['clauses']} clauses, "
    head = f"== {label}: {verdict}  ({st['backend']}, {sizes}{st['solve_seconds']:.3f} s)"
    if st["backend"].startswith(AUTO + ":") and "encodings" in st:  # what auto picked
        plain = Encodings().as_dict()
        changed = [f"{k}={v}" for k, v in st["encodings"].items() if plain.get(k, v) != v]
        head += (f"\n   auto picked: model {st['model']}, "
                 + (" ".join(changed) or "default encodings")
                 + f", backend {st['backend'][len(AUTO) + 2:]}")
    assert item.family is not None
    body = item.family.render_text(item.puzzle, out.solution) if out.status == "sat" else ""
    if out.count is not None:
        c = out.count
        body = (f"count: {c.value}{'' if c.complete else '+ (stopped early)'} "
                f"distinct {c.by}s ({c.method}, {c.seconds:.3f} s)\n") + body
    return head + "\n" + body


def _write_atomic(path: str, content: str) -> None:
    with atomic_text(path) as f:
        f.write(content)


def _svg_path(base: str, index: int, total: int) -> str:
    if total == 1:
        return base
    p = Path(base)
    return str(p.with_name(f"{p.stem}-{index}{p.suffix or '.svg'}"))


# commands ----------------------------------------------------------------------------------------

def _check_timeout(seconds: float | None) -> None:
    if seconds is not None and not 0 < seconds <= MAX_TIMEOUT:
        raise UsageError(f"--timeout must be a positive number of seconds, at most "
                         f"{MAX_TIMEOUT:.0f}")


def _apart(inputs: list[str], outputs: dict[str, str | None]) -> None:
    """Refuse an output (flag -> path) that is one of the input files or another output:
    it would be overwritten."""
    seen: dict[str, str] = {os.path.realpath(f): "an input" for f in inputs if f != "-"}
    for flag, path in outputs.items():
        if path is None:
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise UsageError(f"{flag} {path} is also {seen[real]}: name another file")
        seen[real] = flag


def cmd_solve(args: argparse.Namespace) -> int:
    encodings = {kind: getattr(args, kind) for kind in KINDS if getattr(args, kind)}
    named = Encodings(**encodings)  # unknown names are usage errors before any file is read
    engine: str | Backend = AUTO
    if args.backend != AUTO:
        engine = get_backend(args.backend)
        engine.check(named)
    if args.count_by != "placement" and not args.count:
        raise UsageError("--count-by needs --count")
    if args.limit is not None and (args.limit < 1 or not args.count):
        raise UsageError("--limit needs --count and a positive number")
    _check_timeout(args.timeout)
    if args.svg is not None:
        output_path(args.svg, "--svg")
        _apart(args.files, {"--svg": args.svg})
    if args.model and args.kind:
        family(args.kind).model(args.model)  # an unknown model is a usage error up front
    items = load(args.files, args.kind, args.puzzle)
    _apply_readings(items, args)
    statuses: set[str] = set()
    drawable = sum(it.error is None for it in items)  # puzzles that may get an SVG
    drawn = 0
    for item in items:
        out = None
        if item.error is None:
            assert item.family is not None
            try:
                t0 = time.perf_counter()
                out = solve(item.puzzle, item.family, model=args.model, backend=engine,
                            encodings=encodings, timeout=args.timeout, unique=args.unique)
                if args.count and out.status != "unknown":
                    left = None if args.timeout is None else max(
                        0.0, args.timeout - (time.perf_counter() - t0))  # one budget per puzzle
                    out.count = count(item.puzzle, item.family, model=args.model,
                                      backend=engine, encodings=encodings, limit=args.limit,
                                      timeout=left, by=args.count_by, known=out)
            except SatDominoError as e:
                item.error, out = str(e), None
            except VerificationError as e:  # a bug or a lying solver: never shown as an answer
                item.error, out = f"internal error: {e}", None
                statuses.add("internal")
            except MemoryError:  # a limit (ulimit -v) reached: like a time limit, no answer
                item.error, out = OUT_OF_MEMORY, None
                statuses.add("unknown")
        if out is None:
            if item.error != OUT_OF_MEMORY:
                statuses.add("error")
            _report_error(item, args.json)
            continue
        statuses.add(out.status)
        if args.unique and out.status == "sat" and out.unique is None:
            statuses.add("unknown")  # uniqueness was asked and the time ran out
        if args.count and (out.count is None or not out.count.complete) and args.limit is None:
            statuses.add("unknown")  # the count was cut short by the time limit
        if args.json:
            print(json.dumps(_record(item, out)), flush=True)
        else:
            print(_text(item, out, args.unique), flush=True)
        if args.svg is not None:
            assert item.family is not None
            drawn += 1
            try:
                _write_atomic(_svg_path(args.svg, drawn, drawable),
                              item.family.render_svg(item.puzzle, out.solution))
            except SatDominoError as e:
                statuses.add("error")
                _say(f"satdomino: {e}")
    for status, code in (("internal", 4), ("error", 2), ("unknown", 3), ("unsat", 1)):
        if status in statuses:
            return code
    return 0


def _report_error(item: Item, as_json: bool) -> None:
    """One line on stderr always; with --json also the error record on stdout."""
    where = item.file + (f" [{item.name}]" if item.name else "")
    _say(f"satdomino: {where}: {item.error}")
    if as_json:
        print(json.dumps(_record(item, None)), flush=True)


def cmd_encodings(args: argparse.Namespace) -> int:
    from .auto import describe

    backends = [AUTO, *available_backends()]
    rules = describe()
    if args.json:
        data: dict[str, Any] = {kind: list(REGISTRY[kind]) for kind in KINDS}
        data["backends"] = backends
        data["auto"] = rules
        print(json.dumps(data))
        return 0
    print("auto (the default --backend): per family and size, what it picks here")
    for r in rules:
        changed = " ".join(f"{k}={v}" for k, v in r["encodings"].items()
                           if v != getattr(Encodings(), k))
        print(f"  {r['family']:<10} {r['sizes']:<15} model {r['model']}, "
              f"{changed or 'default encodings'}, backend {r['backend']} "
              f"(counting: {r['count_backend']})\n{'':13}why: {r['why']}")
    for kind in KINDS:
        print(f"{kind} (--{kind}):")
        for enc in REGISTRY[kind].values():
            print(f"  {enc.name:<15} {enc.summary}")
    print("backends (--backend):")
    for name in backends:
        if name == AUTO:
            print(f"  {name:<15} the pick above (default)")
        elif name == "sls":
            print(f"  {name:<15} our local search (answers sat, or runs until stopped: "
                  "race it with a complete solver)")
        else:
            print(f"  {name:<15} {PRESETS[name][1]}" if name in PRESETS else f"  {name}")
    print("  external:CMD    any DIMACS solver printing 's SATISFIABLE' / 'v ... 0'")
    print("  portfolio:A+B   A and B race in parallel; the first answer wins "
          "(NAME@SECONDS: NAME starts that late, or once another gives up;\n"
          "                  NAME@START..YIELD: at YIELD it pauses for a waiting member, "
          "and goes on on the next free core)")
    print("  by-size:VARS:SMALL|LARGE  SMALL for formulas with fewer than VARS variables, "
          "else LARGE")
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from . import generate as gen

    instance = args.output is not None and (args.format in FORMATS
                                            or is_instance_name(args.output))
    if args.output is not None:
        output_path(args.output, "-o")
    if not instance and (args.uniqueness or args.proof):
        raise UsageError("--uniqueness and --proof need an instance output "
                         "(-o NAME.cnf, .opb, .smt2, .lp or .mod)")
    if args.format in ("id", "grid") and (args.kind != "dominosa" or instance):
        raise UsageError(f"--format {args.format} is for dominosa puzzle files")
    if args.tries < 1:
        raise UsageError("--tries must be at least 1")
    _check_timeout(args.timeout)
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
        _say(f"satdomino: seed {seed} gives a puzzle with exactly one solution"
             + (f" (read with {under})" if under else ""))
    else:
        puzzle = gen.planted(args.kind, params, seed)
    if instance:
        puzzle = dataclasses.replace(puzzle, **readings)
        origin = gen.origin(args.kind, params, seed, args.unique, puzzle, readings)
        return _export(family(args.kind), puzzle, origin, args)
    text = gen.puzzle_text(args.kind, puzzle, args.format)
    if args.output:
        _write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _apply_readings(items: list[Item], args: argparse.Namespace) -> None:
    """The readings of the rules asked on the command line (Domino Fit's cover, Doodle Fit's
    rotations and reflections), for the puzzles whose family has them."""
    from .generate import readings

    for item in items:
        if item.error is None and item.family is not None:
            wanted = readings(item.family.kind, cover=not args.no_cover, rotate=args.rotate,
                              reflect=args.reflect)
            if wanted:
                item.puzzle = dataclasses.replace(item.puzzle, **wanted)


def cmd_export(args: argparse.Namespace) -> int:
    items = load([args.file], args.kind, args.puzzle)
    bad = [it for it in items if it.error is not None]
    if bad:
        raise SatDominoError(f"{bad[0].file}: {bad[0].error}")
    if len(items) != 1:
        raise UsageError(f"{args.file} holds {len(items)} puzzles; pick one with --puzzle"
                         if args.puzzle is None else
                         f"{args.file} holds {len(items)} puzzles named {args.puzzle!r}; "
                         "export takes one (give them distinct names)")
    _apply_readings(items, args)
    item = items[0]
    assert item.family is not None
    text = _read(item.file) if item.file != "-" else None
    return _export(item.family, item.puzzle, Origin(item.file, text, item.name), args)


def _export(fam: Family, puzzle: Any, origin: Origin, args: argparse.Namespace) -> int:
    """Write the instance (and its proof when asked); say what was written."""
    fmt = format_of(args.output, args.format if args.format in FORMATS else None)
    if args.proof and fmt != "dimacs":
        raise UsageError("--proof needs a DIMACS instance (-o NAME.cnf)")
    _check_timeout(args.timeout)
    if args.proof:
        output_path(args.proof, "--proof")
    _apart([origin.source] if os.path.isfile(origin.source) else [],
           {"-o": args.output, "the map": args.output + ".map.json" if fmt == "dimacs" else None,
            "--proof": args.proof})
    encodings = Encodings(**{kind: getattr(args, kind) for kind in KINDS})
    info = export_instance(fam, puzzle, origin, args.output, fmt, model=args.model,
                           encodings=encodings, uniqueness=args.uniqueness,
                           timeout=args.timeout)
    record = info.as_json()
    code = 0
    if args.proof:
        code, record["proof"] = _write_proof(args.output, args.proof, args.proof_backend,
                                             args.timeout)
        # the proof's solve decided it (the file written before says what was known then)
        info.status = {0: UNSAT, 1: SAT}.get(code, info.status)
        record["status"] = info.status
    if args.json:
        print(json.dumps(record))
        return code
    size = f"{info.variables} variables, {info.clauses} " + (
        "clauses" if fmt == "dimacs" else "constraints")
    print(f"{info.file}: {fmt}, {size}, {info.hash_kind} hash {info.hash}"
          + (f", {info.status}" if info.status else "") + (f"; map {info.map}" if info.map else ""))
    if record.get("proof"):
        print(f"{args.proof}: DRAT proof of UNSAT, {record['proof']['lines']} lines "
              f"(check: satdomino check-proof {args.output} {args.proof})")
    return code


def _write_proof(cnf_path: str, proof_path: str, backend: str,
                 timeout: float) -> tuple[int, dict | None]:
    """Solve the written instance again with a proof-logging solver; keep its DRAT proof."""
    from .backends.pysat_backend import prove

    if backend == AUTO:  # CaDiCaL: the fastest of the python-sat solvers that log proofs
        backend = "cadical195"
    from .export.dimacs import read_dimacs

    _, clauses = read_dimacs(cnf_path)  # the file as written: the proof is about exactly it
    status, lines = prove(backend, clauses, timeout)
    if status == "sat":
        print("satdomino: the instance is satisfiable, so it has no proof of UNSAT; "
              "none written", file=sys.stderr)
        return 1, None
    if status != "unsat":
        _say(f"satdomino: {backend} found no answer within --timeout; no proof written")
        return 3, None
    with atomic_text(proof_path, compress=True) as f:
        f.writelines(line + "\n" for line in lines)
    return 0, {"file": proof_path, "backend": backend, "lines": len(lines)}


def cmd_compare(args: argparse.Namespace) -> int:
    """A resumable sweep; the summary covers everything in the results file."""
    from .compare import summary
    from .compare.sweep import Progress, puzzles, read_rows, sweep, tasks

    _check_timeout(args.timeout)
    if args.jobs < 1 or args.seeds < 1:
        raise UsageError("--jobs and --seeds must be at least 1")
    if args.memory is not None and not 16 <= args.memory <= 2**30:
        raise UsageError("--memory must be between 16 and 2^30 MB")
    out = output_path(args.output, "-o")
    for plot in (args.plot, args.scatter):
        if plot:
            output_path(plot, "plot")
            if Path(plot).suffix.lower() not in (".svg", ".png", ".pdf"):
                raise UsageError(f"{plot}: a plot is written as .svg, .png or .pdf")
    # a kind not given is left to auto ([None]); one given must name something
    lists = {kind: [None] if getattr(args, kind) is None
             else [x for x in getattr(args, kind).split(",") if x] for kind in KINDS}
    models: list[str | None] = [m for m in args.model.split(",") if m] or [None]
    backends = [b for b in args.backend.split(",") if b]
    items = puzzles(args.puzzles, {"cover": not args.no_cover, "rotate": args.rotate,
                                   "reflect": args.reflect})
    todo = tasks(items, models, lists, backends, args.seeds, args.timeout, args.memory)
    configs = {(t.kind, t.model, *t.encodings.values(), t.backend) for t in todo}
    if args.scatter and len(configs) < 2:
        raise UsageError("--scatter needs two configurations (two backends, encodings or "
                         "models)")
    progress = None if not args.no_progress else Progress(0, enabled=False)
    ran = sweep(todo, out, jobs=args.jobs, scheduler=args.scheduler, progress=progress)
    wanted = {t.key() for t in todo}
    rows = [r for r in read_rows(out) if tuple(r[k] for k in KEY) in wanted]
    print(f"{out}: {len(rows)} runs of this sweep ({ran} run now, "
          f"{len(rows) - ran} from before)")
    print(summary.table(rows))
    problems = summary.bugs(rows)
    for line in problems:
        print(line)
    if args.plot:
        summary.cactus(rows, Path(args.plot))
        print(f"cactus plot: {args.plot}")
    if args.scatter:
        summary.scatter(rows, Path(args.scatter))
        print(f"scatter plot: {args.scatter}")
    return 4 if problems else 0


def cmd_check_proof(args: argparse.Namespace) -> int:
    """Verify a DRAT proof with the built-in checker, and with drat-trim when it is here."""
    from .analysis.drat import check_drat_files, drat_trim

    _check_timeout(args.timeout)
    if not Path(args.proof).is_file():
        raise SatDominoError(f"{args.proof}: " + ("not a file" if Path(args.proof).exists()
                                                  else "no such file"))
    t0 = time.perf_counter()
    try:
        built_in = check_drat_files(args.cnf, args.proof,
                                    deadline=time.monotonic() + args.timeout)
    except SatDominoError as e:
        if "ran out of time" not in str(e):
            raise
        _say(f"satdomino: {e}; s UNKNOWN")
        return 3
    checks = {"built-in": {"verified": built_in.ok, "message": built_in.message,
                           "lemmas": built_in.lemmas, "deletions": built_in.deletions,
                           "rat_lemmas": built_in.rat_lemmas,
                           "seconds": round(time.perf_counter() - t0, 3)}}
    if not args.no_drat_trim:
        outside = drat_trim(args.cnf, args.proof, args.timeout)
        if outside is not None:
            checks["drat-trim"] = {"verified": outside.ok, "message": outside.message}
    ok = all(c["verified"] for c in checks.values())
    if args.json:
        print(json.dumps({"cnf": args.cnf, "proof": args.proof, "verified": ok,
                          "checks": checks}))
    else:
        for name, c in checks.items():
            word = "VERIFIED" if c["verified"] else "NOT VERIFIED"
            print(f"{name}: {c['message'] or word}")
        if "drat-trim" not in checks and not args.no_drat_trim:
            print("drat-trim: not on PATH, not run")
        print("s VERIFIED" if ok else "s NOT VERIFIED")
    return 0 if ok else 1


def cmd_decode(args: argparse.Namespace) -> int:
    """An outside solver's answer to an exported instance, as a verified solution."""
    try:
        mapping = json.loads(_read(args.instance + ".map.json"))
        fam = family(mapping["kind"])
        parts = [(n, p) for n, p in fam.parse(mapping["input"]) if n == mapping["puzzle"]]
    except SatDominoError as e:
        raise SatDominoError(f"{args.instance}.map.json: {e}") from None
    except (ValueError, KeyError, TypeError):
        raise SatDominoError(f"{args.instance}.map.json is not a satdomino map") from None
    if len(parts) != 1 or isinstance(parts[0][1], SatDominoError | Skipped):
        raise SatDominoError(f"{args.instance}.map.json: the puzzle cannot be rebuilt")
    name, puzzle = parts[0]
    if mapping.get("readings"):
        puzzle = dataclasses.replace(puzzle, **mapping["readings"])
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
        text = _read(args.answer)
    except SatDominoError as e:
        raise SatDominoError(f"{args.answer}: {e}") from None
    status, true = competition_answer(text, args.answer, num_vars, listed)
    item = Item(mapping["source"], name, fam, puzzle)
    stats = {"backend": "outside solver", "model": model.name}
    if status == "UNSATISFIABLE":
        out = Outcome("unsat", stats=stats, reason=CLAIM)
    elif status == "UNKNOWN":
        out = Outcome("unknown", stats=stats, reason="the solver said UNKNOWN")
    elif status == "SATISFIABLE" and true:
        # the assignment that is decoded (a variable the answer leaves out is false) must
        # satisfy every clause
        broken = next((c for c in clauses if not any((x > 0) == (abs(x) in true) for x in c)),
                      None)
        if broken is not None:
            shown = " ".join(map(str, broken[:8])) + (" ..." if len(broken) > 8 else "")
            unlisted = any(abs(x) not in listed for x in broken)
            _say(f"satdomino: the answer breaks the clause '{shown} 0' of {args.instance}"
                 + (" (variables the answer leaves out are read as false)" if unlisted else ""))
            return 4
        try:
            solution = fam.decode(puzzle, model, frozenset(x for x in true
                                                           if x <= model.num_vars))
            problems = fam.verify(puzzle, solution)
        except (KeyError, ValueError, IndexError, TypeError):
            problems = ["the true variables do not describe a layout"]
        if problems:
            _say(f"satdomino: the answer breaks the rules: {'; '.join(problems[:3])}")
            return 4
        out = Outcome("sat", solution, stats=stats)
    else:
        raise SatDominoError(f"{args.answer}: no 's SATISFIABLE' with 'v' lines, "
                             "nor 's UNSATISFIABLE' or 's UNKNOWN'")
    if args.json:
        print(json.dumps(_record(item, out)))
    else:
        head = f"== {item.file}" + (f" [{name}]" if name else "") + f": {out.status}"
        if mapping.get("uniqueness") and out.status != "unknown":  # one solution excluded
            head += {"sat": ", a second solution: the puzzle is not unique",
                     "unsat": ": the excluded solution is the only one"}[out.status]
        if out.reason:
            head += f" ({out.reason})"
        body = fam.render_text(puzzle, out.solution) if out.solution else ""
        print(head + (" (answer checked by the rule checker)" if body else "") + "\n" + body)
    return {"sat": 0, "unsat": 1, "unknown": 3}[out.status]


COMMANDS = {"solve": cmd_solve, "export": cmd_export, "decode": cmd_decode,
            "check-proof": cmd_check_proof, "compare": cmd_compare,
            "encodings": cmd_encodings, "generate": cmd_generate}


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so the cleanup a Ctrl-C gets runs too."""


def _terminate(signum: int, frame: object) -> None:
    # once: GNU timeout, for one, sends SIGTERM to the program and then to its process group,
    # and a second Terminated would cut short the cleanup the first one started
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


def main(argv: list[str] | None = None) -> int:
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except OutOfTimeError as e:
        _say(f"satdomino: {e}")
        return 3
    except SatDominoError as e:
        _say(f"satdomino: error: {e}")
        return 2
    except VerificationError as e:
        _say(f"satdomino: internal error: {e}")
        return 4
    except MemoryError:
        _say(f"satdomino: {OUT_OF_MEMORY}")
        return 3
    except Terminated:
        print("satdomino: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("satdomino: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
