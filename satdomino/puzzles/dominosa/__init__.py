"""Dominosa (Simon Tatham; Helmut Simonis's "Dominoes"): a full double-N domino set hidden in a
grid of numbers with N+1 rows and N+2 columns; find where each domino lies, each exactly once.

The board, its formats, models, rule checker and drawings are in ``board``; root-level
deduction (the ``reduced`` model) in ``reduce``; boards built unique in ``unique``. This module
is the family as the rest of satdomino sees it: ``FAMILY``.
"""

from __future__ import annotations

from typing import Any

from ...errors import PuzzleFormatError
from ...family import AutoRule, Built, Family, Generator, Param, Sample
from ..common import domino_text
from . import board as B
from .board import *  # noqa: F403  (the board's names are the family's)
from .board import Dominosa, DominosaSolution
from .reduce import build_reduced, reduce_board  # noqa: F401
from .unique import unique_board


def given_text(p: Dominosa, text: str) -> list[dict[str, Any]]:
    """Placements from rows of L R T B (Tatham's letters, as ``solve`` prints) and . or ? for
    squares not covered yet."""
    rows = [line.strip() for line in text.splitlines() if line.strip()]
    if len(rows) != p.rows or any(len(r) != p.cols for r in rows):
        raise PuzzleFormatError(f"a layout of {p.rows} rows of {p.cols} letters "
                                "(L R T B, . for open squares)")
    out = []
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == "L" and c + 1 < p.cols and row[c + 1] == "R":
                out.append(B.placement_json(p, B.place_key(p, ((r, c), (r, c + 1)))))
            elif ch == "T" and r + 1 < p.rows and rows[r + 1][c] == "B":
                out.append(B.placement_json(p, B.place_key(p, ((r, c), (r + 1, c)))))
            elif not (ch in ".?" or (ch == "R" and c > 0 and row[c - 1] == "L")
                      or (ch == "B" and r > 0 and rows[r - 1][c] == "T")):
                raise PuzzleFormatError(f"cell ({r}, {c}): {ch!r} is not "
                                        "half of a domino (L R T B or .)")
    return out


GENERATOR: Generator[Dominosa, DominosaSolution] = Generator(
    what="a Dominosa board (Tatham game id, or --format grid)",
    params=(Param("n", "highest number: the double-N set, a board N+1 by N+2", 0, 200),),
    planted=lambda params, seed: B.planted(params["n"], seed),
    named=lambda params: f"double-{params['n']} Dominosa board",
    build=lambda params, seed, ask: Built(*unique_board(params["n"], seed, ask.deadline)),
    how_unique="renumbered until SAT proves it unique")

FAMILY: Family[Dominosa, DominosaSolution] = Family(
    kind="dominosa", title="Dominosa",
    suffixes=(".txt", ".dominosa", ".json", ".jsonl", ".tsv"),
    sniff=B.sniff, parse=B.parse_parts, likeness=B.likeness,
    formats={"id": lambda p: p.game_id() + "\n", "grid": Dominosa.grid_text},
    models={"placement": B.build_placement, "counted": B.build_counted,
            "reduced": build_reduced, "pruned": B.build_pruned},
    decode=B.decode, verify=B.verify, solution_json=B.solution_json,
    render_text=B.render_text, render_svg=B.render_svg, placement_json=B.placement_json,
    placement_text=domino_text, squares=B.squares, size=("N", lambda p: p.n),
    auto=(AutoRule(
        0, "placement", {"amo": "pairwise"},
        ("portfolio:minisat22+sls@0.02", "portfolio:minisat22@..0.08+highs-fj@0.02",
         "minisat22"),
        "MiniSat alone wins small boards within 20 ms; after that our local search races it "
        "on the other core (N = 60-70 in 0.5-1.2 s); pairwise clauses are MiniSat's fastest"),
          AutoRule(
        100, "pruned", {"amo": "pairwise"},
        ("portfolio:minisat22@..1+sls@0.02+sls:seed=1@600",
         "portfolio:minisat22@..0.08+highs-fj@0.02", "minisat22"),
        "from N = 100 linear programming first rules out the placements in no solution "
        "(about three in four on planted boards, all of them where the board has none), and "
        "MiniSat then answers without a conflict: planted N = 150 in 3.0-3.4 s and N = 200 in "
        "4.5-6.1 s where the placement model took 8-18 s and 36-49 s, and 8 boards of N = 100 "
        "made unsatisfiable by swapping two numbers are refuted in 1.3-2 s, where MiniSat "
        "alone refuted 1 of 15; should it not, MiniSat gives its core up at 1 s to a second "
        "local search")),
    generator=GENERATOR, exact_count=B.count_placements, obstacles=B.obstacles,
    # --count-by tiling: the numbers are given, so a tiling is a placement (one grid)
    count_views={"tiling": B.build_placement}, given_text=given_text, stackable=True,
    samples=(Sample({"n": 12}, 1, "placement"),
             Sample({"n": 12}, 1, "placement", {"amo": "pairwise"}),
             Sample({"n": 8}, 2, "counted", {"card": "sortnetwrk", "pb": "bdd"}),
             Sample({"n": 6}, 151, "placement", {"amo": "commander"}, uniqueness=True),
             Sample({"n": 9}, 4, "placement", uniqueness=True),
             Sample({"n": 40}, 3, "placement", {"amo": "ladder"}),
             Sample({"n": 30}, 1, "placement", {"amo": "pairwise"})))  # 25,165,824 solutions
