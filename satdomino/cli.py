"""The ``satdomino`` command: a thin layer over the library.

Exit status: 0 every puzzle answered, 1 some puzzle has no solution, 2 bad input or usage,
3 some answer unknown (time limit), 4 internal error (a layout failed verification: a bug or
a wrong solver). When several apply, 4 wins over 2, 2 over 3, and 3 over 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import __version__
from .analysis.count import count
from .backends import DEFAULT_BACKEND, available_backends, get_backend
from .backends.external import competition_answer
from .encode import KINDS, REGISTRY, Encodings
from .errors import SatDominoError, VerificationError
from .fileio import atomic_text, output_path
from .puzzles import FAMILIES, Family, detect, family
from .puzzles.common import Skipped
from .solve import Outcome, solve


class UsageError(SatDominoError):
    pass


KIND_HELP = {"amo": "at-most-one / exactly-one", "card": "cardinality", "pb": "pseudo-Boolean",
             "int": "integer-variable"}
MAX_TIMEOUT = 1e6  # seconds; larger values overflow the waits of the process layer


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2 (argparse prints usage too)
        raise UsageError(message)


def build_parser() -> Parser:
    p = Parser(prog="satdomino", description="Domino puzzles as SAT and SMT.")
    p.add_argument("--version", action="version", version=f"satdomino {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)

    s = sub.add_parser("solve", help="solve puzzles from files, folders or - (stdin)")
    s.add_argument("files", nargs="+", metavar="FILE",
                   help="puzzle files, folders, or - for standard input")
    s.add_argument("--kind", choices=sorted(FAMILIES), help="puzzle kind (default: detected)")
    s.add_argument("--model", help="model of the puzzle family (dominosa: placement, counted; "
                   "pips: placement, link-value; dominofit: placement, dot-half; "
                   "doodlefit: placement)")
    s.add_argument("--puzzle", metavar="NAME",
                   help="only the part of each file with this name (easy, medium, hard, ...)")
    s.add_argument("--backend", default=DEFAULT_BACKEND,
                   help=f"solver (default {DEFAULT_BACKEND}); see 'satdomino encodings'")
    defaults = Encodings()
    for kind in KINDS:
        s.add_argument(f"--{kind}", default=getattr(defaults, kind), metavar="E",
                       help=f"{KIND_HELP[kind]} encoding (default {getattr(defaults, kind)})")
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

    x = sub.add_parser("export", help="write one puzzle's formula: DIMACS, LP, MathProg, OPB")
    x.add_argument("file", metavar="FILE")
    x.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="output file; .cnf (.xz, .gz, .bz2) DIMACS, .lp LP, .mod MathProg, "
                   ".opb OPB, .smt2 SMT-LIB 2")
    x.add_argument("--format", choices=["dimacs", "lp", "mathprog", "opb", "smt2"],
                   help="default: from the output's suffix")
    x.add_argument("--kind", choices=sorted(FAMILIES))
    x.add_argument("--puzzle", metavar="NAME")
    x.add_argument("--model")
    for kind in KINDS:
        x.add_argument(f"--{kind}", default=getattr(defaults, kind), metavar="E")
    for flag in ("--no-cover", "--rotate", "--reflect"):
        x.add_argument(flag, action="store_true")
    x.add_argument("--timeout", type=float, default=60.0, metavar="S",
                   help="smt2: seconds to find the :status (else unknown)")

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
    g.add_argument("--format", choices=["id", "grid"], default="id",
                   help="dominosa: game id or number grid (pips is always NYT JSON)")
    g.add_argument("--unique", action="store_true",
                   help="keep only a puzzle with exactly one solution (tries seeds from --seed)")
    g.add_argument("--tries", type=int, default=200, help="with --unique: seeds to try")
    g.add_argument("-o", "--output", metavar="FILE")
    return p


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
            data = Path(path).read_bytes()
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
                    print(f"satdomino: {where}: skipped: {part.reason}", file=sys.stderr,
                          flush=True)
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
        rec.update(status="error", error=item.error, solution=None, unique=None, stats=None)
        return rec
    assert item.family is not None
    sol = item.family.solution_json(item.puzzle, out.solution) if out.solution else None
    rec.update(status=out.status, solution=sol, unique=out.unique, stats=out.stats)
    if out.count is not None:
        rec.update(count=out.count.value, count_method=out.count.method,
                   count_complete=out.count.complete, count_by=out.count.by)
    return rec


def _text(item: Item, out: Outcome, asked_unique: bool) -> str:
    label = item.file + (f" [{item.name}]" if item.name else "")
    verdict = {"sat": "solved", "unsat": "no solution", "unknown": "unknown (time limit)"}[
        out.status]
    if out.unique is not None:
        verdict += ", unique" if out.unique else ", NOT unique"
    elif out.status == "sat" and asked_unique:
        verdict += ", uniqueness unknown (time limit)"
    st = out.stats
    head = f"== {label}: {verdict}  ({st['backend']}, {st['variables']} vars, " \
           f"{st['clauses']} clauses, {st['solve_seconds']:.3f} s)"
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

def cmd_solve(args: argparse.Namespace) -> int:
    encodings = Encodings(**{kind: getattr(args, kind) for kind in KINDS})
    engine = get_backend(args.backend)
    engine.check(encodings)  # a usage error before any file is read
    if args.count_by != "placement" and not args.count:
        raise UsageError("--count-by needs --count")
    if args.limit is not None and (args.limit < 1 or not args.count):
        raise UsageError("--limit needs --count and a positive number")
    if args.timeout is not None and not 0 < args.timeout <= MAX_TIMEOUT:
        raise UsageError("--timeout must be a positive number of seconds, "
                         f"at most {MAX_TIMEOUT:.0f}")
    if args.svg is not None:
        output_path(args.svg, "--svg")
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
        if out is None:
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
                print(f"satdomino: {e}", file=sys.stderr, flush=True)
    for status, code in (("internal", 4), ("error", 2), ("unknown", 3), ("unsat", 1)):
        if status in statuses:
            return code
    return 0


def _report_error(item: Item, as_json: bool) -> None:
    """One line on stderr always; with --json also the error record on stdout."""
    where = item.file + (f" [{item.name}]" if item.name else "")
    print(f"satdomino: {where}: {item.error}", file=sys.stderr, flush=True)
    if as_json:
        print(json.dumps(_record(item, None)), flush=True)


def cmd_encodings(args: argparse.Namespace) -> int:
    backends = available_backends()
    if args.json:
        data = {kind: list(REGISTRY[kind]) for kind in KINDS}
        data["backends"] = backends
        print(json.dumps(data))
        return 0
    for kind in KINDS:
        print(f"{kind} (--{kind}):")
        for enc in REGISTRY[kind].values():
            print(f"  {enc.name:<15} {enc.summary}")
    print("backends (--backend):")
    for name in backends:
        print(f"  {name}")
    print("  external:CMD    any DIMACS solver printing 's SATISFIABLE' / 'v ... 0'")
    return 0


def _planted(args: argparse.Namespace, seed: int) -> tuple[str, object]:
    """(kind, puzzle) made by the family's planted generator with ``seed``."""
    from .puzzles import dominofit, dominosa, doodlefit, pips

    if args.kind == "dominofit":
        if not (args.width and args.height and 2 <= args.width <= 200
                and 2 <= args.height <= 200):
            raise UsageError("generate dominofit needs --width and --height between 2 and 200")
        return "dominofit", dominofit.planted(args.width, args.height, seed)[0]
    if args.kind == "doodlefit":
        if not (args.cells and args.blocks and 1 <= args.blocks <= args.cells <= 2000):
            raise UsageError("generate doodlefit needs --cells and --blocks, "
                             "1 <= blocks <= cells <= 2000")
        return "doodlefit", doodlefit.planted(args.cells, args.blocks, seed)[0]
    if args.kind == "pips":
        if args.dominoes is None or not 1 <= args.dominoes <= 500:
            raise UsageError("generate pips needs --dominoes between 1 and 500")
        if not 0 <= args.max_pip <= pips.MAX_PIPS:
            raise UsageError(f"--max-pip must be between 0 and {pips.MAX_PIPS}")
        return "pips", pips.planted(args.dominoes, seed, max_pip=args.max_pip)[0]
    if args.n is None or not 0 <= args.n <= 200:
        raise UsageError("generate dominosa needs --n between 0 and 200")
    return "dominosa", dominosa.planted(args.n, seed)[0]


def _puzzle_text(kind: str, puzzle, args: argparse.Namespace) -> str:
    from .puzzles import dominofit, doodlefit, pips

    if kind == "dominofit":
        return json.dumps(dominofit.to_json(puzzle)) + "\n"
    if kind == "doodlefit":
        return doodlefit.format_text(puzzle)
    if kind == "pips":
        return json.dumps(pips.to_nyt(puzzle)) + "\n"
    return puzzle.game_id() + "\n" if args.format == "id" else puzzle.grid_text()


def cmd_generate(args: argparse.Namespace) -> int:
    if args.output is not None:
        output_path(args.output, "-o")
    seed = args.seed
    kind, puzzle = _planted(args, seed)
    if args.unique:  # planted puzzles are solvable; try further seeds until one is unique
        for seed in range(args.seed, args.seed + args.tries):
            kind, puzzle = _planted(args, seed)
            if solve(puzzle, family(kind), unique=True).unique:
                break
        else:
            raise SatDominoError(f"no puzzle with exactly one solution among seeds "
                                 f"{args.seed}..{args.seed + args.tries - 1}; try other "
                                 "parameters or more --tries")
        print(f"satdomino: seed {seed} gives a puzzle with exactly one solution",
              file=sys.stderr)
    text = _puzzle_text(kind, puzzle, args)
    if args.output:
        _write_atomic(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _apply_readings(items: list[Item], args: argparse.Namespace) -> None:
    """Readings of the rules that the puzzle itself carries (Domino Fit, Doodle Fit)."""
    readings = {"cover": False} if args.no_cover else {}
    readings.update({k: True for k in ("rotate", "reflect") if getattr(args, k)})
    for item in items:
        wanted = {k: v for k, v in readings.items() if hasattr(item.puzzle, k)}
        if item.error is None and wanted:
            item.puzzle = dataclasses.replace(item.puzzle, **wanted)


def cmd_export(args: argparse.Namespace) -> int:
    from .encode import lower
    from .export.dimacs import write_dimacs
    from .export.linear import to_lp, to_mathprog, to_opb, to_smt2

    suffixes = {".lp": "lp", ".mod": "mathprog", ".opb": "opb", ".smt2": "smt2"}
    fmt = args.format or suffixes.get(Path(args.output).suffix, "dimacs")
    output_path(args.output, "-o")
    items = load([args.file], args.kind, args.puzzle)
    bad = [it for it in items if it.error is not None]
    if bad:
        raise SatDominoError(f"{bad[0].file}: {bad[0].error}")
    if len(items) != 1:
        raise UsageError(f"{args.file} holds {len(items)} puzzles; pick one with --puzzle")
    _apply_readings(items, args)
    item = items[0]
    assert item.family is not None
    model = item.family.model(args.model)(item.puzzle)
    comments = [f"generator: satdomino {__version__}", f"family: {item.family.kind}",
                f"source: {item.file}" + (f" [{item.name}]" if item.name else ""),
                f"model: {model.name}", f"model variables: x1..x{model.num_vars}"]
    if fmt == "dimacs":
        encodings = Encodings(**{kind: getattr(args, kind) for kind in KINDS})
        cnf = lower(model, encodings)
        comments.append(f"encodings: {json.dumps(encodings.as_dict())}")
        write_dimacs(args.output, cnf, comments)
        # the way back: everything `decode` needs to rebuild the same model and read answers
        readings = {k: getattr(item.puzzle, k) for k in ("cover", "rotate", "reflect")
                    if hasattr(item.puzzle, k)}
        mapping = {"generator": f"satdomino {__version__}", "kind": item.family.kind,
                   "source": item.file, "puzzle": item.name, "readings": readings,
                   "model": model.name, "encodings": encodings.as_dict(),
                   "variables": cnf.num_vars, "model_variables": model.num_vars,
                   "input": _read(item.file) if item.file != "-" else None}
        if mapping["input"] is None:
            raise UsageError("export of DIMACS needs a file, not standard input "
                             "(its map must be able to rebuild the puzzle)")
        _write_atomic(args.output + ".map.json", json.dumps(mapping) + "\n")
        size = f"{cnf.num_vars} variables, {len(cnf.clauses)} clauses; map {args.output}.map.json"
    elif fmt == "smt2":  # the header wants the status: find it (within --timeout)
        status = solve(item.puzzle, item.family, model=args.model, timeout=args.timeout).status
        source = "; ".join(comments)
        _write_atomic(args.output, to_smt2(model, status, source))
        size = f"{model.num_vars} model variables, {len(model.constraints)} constraints, {status}"
    else:
        text = {"lp": to_lp, "mathprog": to_mathprog, "opb": to_opb}[fmt](model, comments)
        _write_atomic(args.output, text)
        size = f"{model.num_vars} model variables, {len(model.constraints)} constraints"
    print(f"{args.output}: {fmt}, {size}")
    return 0


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
    status, true = competition_answer(_read(args.answer), args.answer)
    item = Item(mapping["source"], name, fam, puzzle)
    if status == "UNSATISFIABLE":
        out = Outcome("unsat", stats={"backend": "outside solver", "model": model.name})
    elif status == "SATISFIABLE" and true:
        try:
            solution = fam.decode(puzzle, model, frozenset(x for x in true
                                                           if x <= model.num_vars))
            problems = fam.verify(puzzle, solution)
        except (KeyError, ValueError, IndexError, TypeError):
            problems = ["the true variables do not describe a layout"]
        if problems:
            print(f"satdomino: the answer breaks the rules: {'; '.join(problems[:3])}",
                  file=sys.stderr)
            return 4
        out = Outcome("sat", solution, stats={"backend": "outside solver", "model": model.name})
    else:
        raise SatDominoError(f"{args.answer}: no 's SATISFIABLE' with 'v' lines, "
                             "nor 's UNSATISFIABLE'")
    if args.json:
        print(json.dumps(_record(item, out)))
    else:
        head = f"== {item.file}" + (f" [{name}]" if name else "") + f": {out.status}"
        body = fam.render_text(puzzle, out.solution) if out.solution else ""
        print(head + " (answer checked by the rule checker)\n" + body)
    return 0 if out.status == "sat" else 1


COMMANDS = {"solve": cmd_solve, "export": cmd_export, "decode": cmd_decode,
            "encodings": cmd_encodings, "generate": cmd_generate}


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except SatDominoError as e:
        print(f"satdomino: error: {e}", file=sys.stderr)
        return 2
    except VerificationError as e:
        print(f"satdomino: internal error: {e}", file=sys.stderr)
        return 4
    except KeyboardInterrupt:
        print("satdomino: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
