"""Pips (The New York Times, 2025): cover a board exactly with a given multiset of dominoes so
that every region's rule holds.

The puzzle, its formats, models, rule checker, drawings and exact counter are in ``board``;
NYT-shaped puzzles built unique and graded in ``generate``. This module is the family as the
rest of satdomino sees it: ``FAMILY``.
"""

from __future__ import annotations

import json
import random

from ...family import Ask, AutoRule, Built, Choice, Family, Generator, Param, Sample, Skipped  # noqa: F401  (Skipped: a withdrawn NYT puzzle, shown as pips.Skipped)
from ..common import domino_text
from . import board as B
from . import generate
from .board import *  # noqa: F403  (the board's names are the family's)
from .board import MAX_PIPS, Pips, PipsSolution, to_nyt


def _build(params: dict[str, int], seed: int, ask: Ask) -> Built[Pips, PipsSolution]:
    """NYT-shaped (with a difficulty preset) or built unique: ``generate.make``."""
    difficulty = ask.choices.get("difficulty")
    dominoes = params.get("dominoes")
    if dominoes is None:  # the preset's size, drawn from the seed
        assert difficulty is not None
        dominoes = random.Random(f"pips-size:{difficulty}:{seed}").randint(
            *generate.PRESETS[difficulty])
    made = generate.make(FAMILY, dominoes, seed, difficulty=difficulty,
                         unique_by=ask.choices.get("unique_by", "placement"),
                         max_pip=params.get("max_pip", 6), deadline=ask.deadline,
                         progress=ask.progress, unique=ask.unique,
                         grade=ask.unique and ask.grade)
    graded = ask.unique and ask.grade and bool(made.grade)
    by_grid = ask.choices.get("unique_by") == "grid"
    return Built(made.puzzle, made.solution, made.rounds, made.grade if graded else None,
                 made.hard_steps if graded else None,
                 "exactly one pips grid" if by_grid else "exactly one solution",
                 "explain needs a unique layout" if by_grid else "")


GENERATOR: Generator[Pips, PipsSolution] = Generator(
    what="a Pips puzzle (NYT-form JSON)",
    params=(Param("dominoes", "number of dominoes (with --difficulty, the preset's range: "
                  "easy 3-6, medium 5-9, hard 9-13)", 1, 500, required=False),
            Param("max_pip", "highest pip", 0, MAX_PIPS, default=6)),
    planted=lambda params, seed: B.planted(params["dominoes"], seed,
                                           max_pip=params.get("max_pip", 6)),
    named=lambda params: "Pips puzzle" + (f" of {params['dominoes']} dominoes"
                                          if params.get("dominoes") else ""),
    build=_build, how_unique="regions changed until SAT proves it unique",
    check=lambda params, choices: ("needs --dominoes or --difficulty" if params.get("dominoes")
                                   is None and choices.get("difficulty") is None else None),
    choices=(Choice("difficulty", tuple(generate.PRESETS),
                    "NYT-shaped preset: size, region mix, and (with --unique) explain's band: "
                    "easy needs named rules only, medium at most two steps beyond them, hard "
                    "at least one; 'all' writes an NYT day file with the three", every="all"),
             Choice("unique_by", generate.UNIQUE_BY, "with --unique: no other layout of the "
                    "dominoes (default), or no other pips grid", default="placement",
                    unique_only=True)),
    collection=lambda puzzles, command: json.dumps(  # an NYT day file: a puzzle per difficulty
        {"generator": command, **{part: to_nyt(p) for part, p in puzzles.items()}}) + "\n")

FAMILY: Family[Pips, PipsSolution] = Family(
    kind="pips", title="Pips", suffixes=(".json",), sniff=B.sniff, parse=B.parse_parts,
    likeness=B.likeness,
    formats={"nyt": lambda p: json.dumps(to_nyt(p)) + "\n"},
    models={"placement": B.build_placement, "link-value": B.build_link_value},
    decode=B.decode, verify=B.verify, solution_json=B.solution_json,
    render_text=B.render_text, render_svg=B.render_svg, placement_json=B.placement_json,
    placement_text=domino_text, squares=B.squares, size=("dominoes", lambda p: len(p.dominoes)),
    auto=(AutoRule(0, "placement", {}, ("cadical195",),
                   "every NYT puzzle within milliseconds; no other configuration measured "
                   "faster"),
          AutoRule(30, "placement", {}, ("portfolio:cadical195+sls@0.02", "cadical195"),
                   "our local search races CaDiCaL: planted 60-80 dominoes 0.5-0.6 s against "
                   "2-16 s for CaDiCaL alone; CaDiCaL proves unique boards"),
          AutoRule(100, "placement", {}, ("portfolio:sls+cadical195@2", "cadical195"),
                   "our local search first (200 dominoes in 0.4-2 s, 500 in 1-2 s); CaDiCaL "
                   "joins at 2 s, when its CNF is made: a 200-domino one takes 0.3 GB")),
    generator=GENERATOR, exact_count=B.count_placements, quick_count=B.quick_count,
    count_views=B.COUNT_VIEWS,
    obstacles=B.obstacles,
    samples=(Sample({"dominoes": 12, "max_pip": 6}, 1, "placement", {"pb": "adder"}),
             Sample({"dominoes": 12, "max_pip": 6}, 1, "link-value", {"int": "order"}),
             Sample({"dominoes": 6, "max_pip": 6}, 3, "placement", uniqueness=True)))
