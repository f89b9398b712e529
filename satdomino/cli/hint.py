"""``satdomino hint``: the next step of ``explain`` from a partly solved position."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..analysis.explain import Explanation, hint, step_json
from ..errors import PuzzleFormatError, SatDominoError, UsageError, VerificationError
from ..family import Family
from ..fileio import load_json
from ..inputs import read_text
from ..puzzles.common import is_json
from .common import kind_option, load_puzzles, rule_options, say, timeout_option
from .explain import step_text


def add_parser(sub) -> None:
    h = sub.add_parser("hint", help="the next forced placement, with its reason",
                       description="The next step of 'explain' from the placements given so "
                       "far; a given placement that is in no solution is reported as such.")
    h.add_argument("file", metavar="FILE", help="one puzzle (a file, - or written out)")
    h.add_argument("--given", metavar="PARTIAL", help="the placements made so far, in a "
                   "file, - or written out (text starting with [ or {, or holding a line "
                   "break): a JSON list of placements as 'explain --json' shows them (or an "
                   "object with \"placements\"), or for Dominosa a layout of L R T B letters "
                   "with . for squares not yet covered")
    kind_option(h)
    h.add_argument("--puzzle", metavar="NAME", help="the part of a multi-puzzle file")
    rule_options(h)
    timeout_option(h, "seconds to find the step, reading the puzzle included")
    h.add_argument("--json", action="store_true", help='{"file", "puzzle", "kind", "step", '
                   '"solved", "reason"}')


def run(args: argparse.Namespace) -> int:
    items = load_puzzles([args.file], args, args.timeout)
    if len(items) != 1:
        raise UsageError(f"hint takes one puzzle; {args.file} holds {len(items)} "
                         "(choose one with --puzzle)")
    item, fam = items[0], items[0].family
    if item.error is not None and not item.timed_out:
        raise SatDominoError(item.error)
    out = Explanation(reason=item.error or "")  # the time ran out reading it: no hint, exit 3
    if fam is not None and not item.timed_out:
        limit = item.deadline(args.timeout)  # its reading counted in, and --given's
        given = _read_given(args.given, fam, item.puzzle) if args.given else []
        try:
            out = hint(item.puzzle, fam, given, deadline=limit)
        except VerificationError as e:
            say(f"satdomino: internal error: {e}")
            return 4
    step = step_json(item.puzzle, fam, out.steps[0]) if fam and out.steps else None
    solved = out.complete and not out.steps
    reason = None if step or solved else out.reason
    if args.json:
        print(json.dumps({"file": item.file, "puzzle": item.name,
                          "kind": fam.kind if fam else None, "step": step, "solved": solved,
                          "reason": reason}))
    elif step and fam:
        print("\n".join(step_text(fam, step, "next: ", "  ")))
    else:
        print("solved: every piece is placed" if solved else f"no hint: {reason}")
    return 0 if step or solved else (3 if reason and reason.startswith("time limit") else 1)


def _read_given(source: str, family: Family[Any, Any], puzzle: Any) -> list[dict]:
    """The placements ``--given`` holds: written out (JSON, or a layout with a line break),
    else read from the file (or -) it names; every error is named with it."""
    inline = is_json(source) or "\n" in source
    where = source if source and not inline else "--given"
    try:
        text = (source if inline else read_text(source)).strip()
        if not text.startswith(("[", "{")):
            if family.given_text is None:
                raise PuzzleFormatError(f"{family.title} placements are given as JSON")
            return family.given_text(puzzle, text)
        data = load_json(text)
        if isinstance(data, dict):
            data = data.get("placements")
        if not isinstance(data, list):
            raise PuzzleFormatError("a JSON list of placements, or an object with "
                                    "\"placements\"")
        return data
    except SatDominoError as e:
        raise type(e)(f"{where}: {e}") from None
