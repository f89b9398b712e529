"""``satdomino hint``: the next step of ``explain`` from a partly solved position."""

from __future__ import annotations

import argparse
import json

from ..errors import PuzzleFormatError, SatDominoError, UsageError, VerificationError
from ..inputs import load, read_text
from .common import check_timeout, notice, rule_options, say
from .explain import placement_text, step_details
from .solve import apply_readings


def add_parser(sub) -> None:
    h = sub.add_parser("hint", help="the next forced placement, with its reason",
                       description="The next step of 'explain' from the placements given so "
                       "far; a given placement that is in no solution is reported as such.")
    h.add_argument("file", metavar="FILE", help="one puzzle (a file, - or written out)")
    h.add_argument("--given", metavar="PARTIAL", help="the placements made so far: a JSON "
                   "list of placements as 'explain --json' shows them (or an object with "
                   "\"placements\"), or for Dominosa a layout of L R T B letters with . for "
                   "squares not yet covered")
    h.add_argument("--kind", choices=["dominosa", "pips", "dominofit", "doodlefit"],
                   help="the family, when detection from the content is not wanted")
    h.add_argument("--puzzle", metavar="NAME", help="the part of a multi-puzzle file")
    rule_options(h)
    h.add_argument("--timeout", type=float, metavar="S", help="seconds to find the step")
    h.add_argument("--json", action="store_true", help='{"file", "puzzle", "kind", "step", '
                   '"solved", "reason"}')


def run(args: argparse.Namespace) -> int:
    from ..analysis.explain import hint, step_json

    check_timeout(args.timeout)
    items = load([args.file], args.kind, args.puzzle, notice=notice, timeout=args.timeout)
    apply_readings(items, args)
    if len(items) != 1:
        raise UsageError(f"hint takes one puzzle; {args.file} holds {len(items)} "
                         "(choose one with --puzzle)")
    item = items[0]
    if item.error is not None:
        raise SatDominoError(item.error)
    assert item.family is not None
    given = _read_given(args.given, item.family.kind, item.puzzle) if args.given else []
    try:
        out = hint(item.puzzle, item.family, given, timeout=args.timeout)
    except VerificationError as e:
        say(f"satdomino: internal error: {e}")
        return 4
    step = step_json(item.puzzle, item.family, out.steps[0]) if out.steps else None
    solved = out.complete and not out.steps
    reason = None if step or solved else out.reason
    if args.json:
        print(json.dumps({"file": item.file, "puzzle": item.name, "kind": item.family.kind,
                          "step": step, "solved": solved, "reason": reason}))
    elif step:
        s = out.steps[0]
        piece = ", ".join(placement_text(p) for p in step["placements"])
        print("\n".join([f"next: {piece}: {s.rule} [level {s.level}]",
                         *step_details(step, "  ")]))
    else:
        print("solved: every piece is placed" if solved else f"no hint: {reason}")
    return 0 if step or solved else (3 if reason == "time limit" else 1)


def _read_given(source: str, kind: str, puzzle) -> list[dict]:
    text = read_text(source) if source == "-" or _is_file(source) else source  # or inline
    stripped = text.strip()
    if stripped.startswith(("[", "{")):
        try:
            data = json.loads(stripped)
        except ValueError as e:
            raise PuzzleFormatError(f"--given: not JSON: {e}") from None
        if isinstance(data, dict):
            data = data.get("placements")
        if not isinstance(data, list):
            raise PuzzleFormatError("--given: a JSON list of placements, or an object with "
                                    "\"placements\"")
        return data
    if kind != "dominosa":
        raise PuzzleFormatError("--given: a layout of letters is for Dominosa; give JSON")
    return _dominosa_layout(stripped, puzzle)


def _is_file(source: str) -> bool:
    from pathlib import Path

    try:
        return Path(source).is_file()
    except (OSError, ValueError):
        return False


def _dominosa_layout(text: str, puzzle) -> list[dict]:
    """Placements from rows of L R T B (Tatham's letters, as ``solve`` prints) and . or ? for
    squares not covered yet."""
    from ..puzzles.dominosa import placement_json

    rows = [line.strip() for line in text.splitlines() if line.strip()]
    if len(rows) != puzzle.rows or any(len(r) != puzzle.cols for r in rows):
        raise PuzzleFormatError(f"--given: a layout of {puzzle.rows} rows of {puzzle.cols} "
                                "letters (L R T B, . for open squares)")
    out = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in ".?":
                continue
            if ch == "L" and c + 1 < puzzle.cols and row[c + 1] == "R":
                out.append(placement_json(puzzle, ("place", None, ((r, c), (r, c + 1)))))
            elif ch == "T" and r + 1 < puzzle.rows and rows[r + 1][c] == "B":
                out.append(placement_json(puzzle, ("place", None, ((r, c), (r + 1, c)))))
            elif not ((ch == "R" and c > 0 and row[c - 1] == "L")
                      or (ch == "B" and r > 0 and rows[r - 1][c] == "T")):
                raise PuzzleFormatError(f"--given: row {r + 1}, column {c + 1}: {ch!r} is not "
                                        "half of a domino (L R T B or .)")
    return out
