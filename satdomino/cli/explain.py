"""``satdomino explain``: a puzzle solved step by step, each placement with the rule or the
solver's reason that forces it (``analysis/explain.py``)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..analysis.explain import (
    PROPAGATION,
    Explanation,
    explain,
    numbered_board,
    numbered_svg,
    step_json,
)
from ..family import Family
from ..fileio import apart, output_path, write_atomic
from ..inputs import Item
from ..render.text import counted
from .common import (
    attempt,
    error_record,
    exit_status,
    kind_option,
    load_puzzles,
    numbered,
    rule_options,
    say,
    timeout_option,
)


def add_parser(sub) -> None:
    e = sub.add_parser("explain", help="solve puzzles step by step, with the reason for each "
                       "placement", description="Each step places a piece forced by the ones "
                       "before it: one candidate left by one rule (level 1), after named "
                       "eliminations (2), after set analysis (3), after forcing chains (4), "
                       "after proofs by contradiction (5: placing a candidate leads, one named "
                       "rule at a time, to a cell or piece with no place left or a square "
                       "covered twice, in at most 10 steps, each shown), by unit propagation "
                       "over all constraints (6), or by "
                       "the solver, with a minimal set of the puzzle's constraints that rules "
                       "out anything else (7). A complete explanation's layout has passed the "
                       "rule checker.")
    e.add_argument("files", nargs="+", metavar="FILE", help="puzzle files, folders, - or a "
                   "puzzle written out")
    kind_option(e)
    e.add_argument("--puzzle", metavar="NAME", help="only this part of a multi-puzzle file")
    rule_options(e)
    timeout_option(e, "seconds for each puzzle, reading and building included (the steps "
                   "found by then are shown)")
    e.add_argument("--svg", metavar="FILE", help="draw each board with its steps numbered "
                   "(FILE-1.svg, FILE-2.svg, ... for several puzzles)")
    e.add_argument("--json", action="store_true", help='one line per puzzle: {"file", "puzzle", '
                   '"kind", "grade", "complete", "steps": [{"placements", "rule", "uses", '
                     '"level", "ruled_out": [{"placement", "rule", "chain"?}]}]}')


def run(args: argparse.Namespace) -> int:
    if args.svg is not None:
        output_path(args.svg, "--svg")
        apart(args.files, {"--svg": args.svg})
    items = load_puzzles(args.files, args, args.timeout)
    drawable = sum(it.error is None for it in items)
    drawn = 0
    codes = []
    for item in items:
        where = item.where
        out, failed = attempt(item, explain, item.puzzle, item.family,
                              deadline=item.deadline(args.timeout))
        if out is None or item.family is None:  # said, and the other puzzles go on
            say(f"satdomino: {where}: {item.error}")
            if args.json:
                print(json.dumps(error_record(item)), flush=True)
            codes.append(failed)
            continue
        steps = [step_json(item.puzzle, item.family, s) for s in out.steps]
        print(json.dumps({"file": item.file, "puzzle": item.name, "kind": item.family.kind,
                          "grade": out.grade, "complete": out.complete,
                          "reason": out.reason or None, "steps": steps}) if args.json
              else _text(item, where, out, steps), flush=True)
        if args.svg is not None:
            drawn += 1
            title = f"{item.family.kind}: {counted(len(steps), 'step')}, grade {out.grade}"
            picture = numbered_svg(item.puzzle, item.family, out.steps, title,
                                   out.board) if out.board else ""
            if picture:
                write_atomic(numbered(args.svg, drawn, drawable, ".svg"), picture)
            else:
                say(f"satdomino: {where}: no drawing " + (
                    "for a board given as a graph" if out.board
                    else "(the time ran out before the board was built)"))
        if not out.complete:
            codes.append(3 if out.reason == "time limit" else 1)
    return exit_status(codes)


def _text(item: Item, where: str, out: Explanation, steps: list[dict]) -> str:
    """The explanation as text: the steps, the board of step numbers, the solution."""
    fam = item.family
    assert fam is not None
    verdict = "explained" if out.complete else f"stopped: {out.reason}"
    lines = [f"== {where}: {verdict}, {counted(len(steps), 'step')}, grade {out.grade}"]
    for n, shown in enumerate(steps, start=1):
        lines += step_text(fam, shown, f"{n:4}. ", "      ")
    board_text = numbered_board(item.puzzle, fam, out.steps, out.board) if out.board else ""
    if board_text:
        lines += ["steps on the board:", board_text]
    if out.complete:
        lines.append(fam.render_text(item.puzzle, out.solution).rstrip("\n"))
    return "\n".join(lines)


def step_text(family: Family[Any, Any], shown: dict, head: str, indent: str) -> list[str]:
    """A step (``step_json``'s shape) as lines: after ``head`` what it places and by which rule;
    under it the eliminations it rests on, one line per reason, and the constraints of a chain
    of rules or of the solver's reason."""
    placed = ", ".join(map(family.placement_text, shown["placements"]))
    lines = [f"{head}{placed}: {shown['rule']} [level {shown['level']}]"]
    by_rule: dict[str, list[str]] = {}
    for r in shown["ruled_out"]:
        if "chain" in r:  # a contradiction: its own steps under it
            lines += [f"{indent}ruled out ({r['rule']}): {family.placement_text(r['placement'])}",
                      *(f"{indent}  {n}. {line}" for n, line in enumerate(r["chain"], start=1))]
        else:
            by_rule.setdefault(r["rule"], []).append(family.placement_text(r["placement"]))
    lines += [f"{indent}ruled out ({why}): {', '.join(pieces)}" for why, pieces in by_rule.items()]
    if shown["level"] >= PROPAGATION:
        lines.append(f"{indent}uses " + "; ".join(shown["uses"]))
    return lines
