"""``satdomino draw``: puzzles as drawings to print (SVG, PNG, PDF), with their answer keys."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..clock import NEVER, Deadline
from ..errors import SatDominoError
from ..fileio import apart, output_path, write_atomic
from ..inputs import Item
from ..process.run import run_in_child
from ..render.output import book, convert, image_format
from ..solve import solve
from .common import (
    attempt,
    exit_status,
    kind_option,
    load_puzzles,
    numbered,
    rule_options,
    say,
    timeout_option,
)

# what CairoSVG takes per byte of our SVG, measured (a 200-domino Pips board: 248 KB, 0.74 s)
CAIRO_SECONDS_PER_BYTE = 3e-6


def add_parser(sub: Any) -> None:
    d = sub.add_parser("draw", help="draw puzzles to print: SVG, PNG or PDF (a book of "
                       "several), with answer keys (--solution)",
                       description="Draw puzzles with all their clues, as the output's suffix "
                       "says: .svg, .png or .pdf. Several puzzles to .svg or .png: numbered "
                       "files (NAME-1.svg, ...); to .pdf: one book, an A4 page each, the "
                       "answer keys (--solution) after all the puzzles.")
    d.add_argument("files", nargs="+", metavar="FILE",
                   help="puzzle files (compressed by suffix), folders, - for standard input, "
                   "or a puzzle written out")
    d.add_argument("-o", "--output", required=True, metavar="FILE",
                   help="the drawing: NAME.svg, NAME.png or NAME.pdf (- : SVG on standard "
                   "output, one puzzle)")
    d.add_argument("--solution", action="store_true",
                   help="also draw each puzzle's answer key (solved, and checked by the rules)")
    kind_option(d)
    d.add_argument("--puzzle", metavar="NAME",
                   help="only the part of each file with this name (easy, medium, hard, ...)")
    timeout_option(d, "with --solution: seconds per puzzle to solve and draw it, reading "
                   "included; no answer in time: exit 3", default=60.0)
    rule_options(d)


def run(args: argparse.Namespace) -> int:
    if args.output != "-":
        image_format(args.output)
        output_path(args.output, "-o")
        apart(args.files, {"-o": args.output})
    items = load_puzzles(args.files, args, args.timeout)
    # the files are made at the end: within the budget of all the puzzles drawn
    whole = Deadline.after(None if args.timeout is None else args.timeout * max(1, len(items)))
    codes: set[int] = set()
    drawn: list[tuple[str, str | None]] = []  # (the puzzle, its answer key or None)
    for item in items:
        done, failed = attempt(item, _drawings, item, args)
        if done is None:
            codes.add(failed)
            say(f"satdomino: {item.where}: {item.error}")
            continue
        codes.add(done[2])
        drawn.append(done[:2])
    if not drawn:
        return exit_status(codes)
    if args.output == "-":
        if len(drawn) > 1 or drawn[0][1] is not None:
            raise SatDominoError("-o - takes one drawing: name a file")
        write_atomic("-", drawn[0][0])
    elif not write_drawings(args.output, drawn, whole):
        say("satdomino: the time limit (--timeout) passed while making the drawings; nothing "
            "written (give it more time with a larger --timeout)")
        codes.add(3)
    return exit_status(codes)


def write_drawings(output: str, pages: list[tuple[str, str | None]],
                   deadline: Deadline = NEVER) -> bool:
    """Puzzles and their answer keys (None: none): a PDF book (the puzzles, then the keys),
    or a file each (NAME-1.svg, NAME-1-key.svg, ...). With a deadline, cairo works in a
    child process killed then (it cannot be interrupted): False, and nothing written."""
    fmt = image_format(output)
    if deadline.at is None or fmt == "svg":
        files = _files(output, fmt, pages)
    else:
        finished, files = run_in_child("cairo", _files, (output, fmt, pages), deadline)
        if not finished:
            return False
    for name, data in files:
        write_atomic(name, data)
    return True


def _files(output: str, fmt: str, pages: list[tuple[str, str | None]]
           ) -> list[tuple[str, bytes]]:
    """The files ``write_drawings`` writes: (name, content)."""
    if fmt == "pdf":
        return [(output, book([p for p, _ in pages] + [k for _, k in pages if k]))]
    files = []
    for n, (drawing, key) in enumerate(pages, start=1):
        name = numbered(output, n, len(pages))
        files.append((name, convert(drawing, fmt)))
        if key is not None:
            files.append((key_name(name), convert(key, fmt)))
    return files


def key_name(path: str) -> str:
    """Where a drawing's answer key goes: ``book-1.svg`` -> ``book-1-key.svg``."""
    p = Path(path)
    return str(p.with_name(f"{p.stem}-key{p.suffix}"))


def _drawings(item: Item, args: argparse.Namespace) -> tuple[str, str | None, int]:
    """The puzzle's drawing, its answer key's (with --solution; None when it has none), and
    the exit status this puzzle adds."""
    assert item.family is not None
    drawing = item.family.render_svg(item.puzzle, None)
    if not args.solution:
        return drawing, None, 0
    limit = item.deadline(args.timeout)
    if limit.at is not None and not args.output.lower().endswith(".svg"):
        # the budget covers drawing too: leave the time cairo takes to turn the puzzle and
        # its key into PNG or PDF (about CAIRO_SECONDS_PER_BYTE of SVG)
        limit = Deadline(limit.at - 2 * CAIRO_SECONDS_PER_BYTE * len(drawing))
    out = solve(item.puzzle, item.family, deadline=limit)
    if out.status != "sat":
        say(f"satdomino: {item.where}: no answer key: "
            + ("no solution" if out.status == "unsat" else f"unknown ({out.reason})"))
        return drawing, None, 1 if out.status == "unsat" else 3
    return drawing, item.family.render_svg(item.puzzle, out.solution), 0
