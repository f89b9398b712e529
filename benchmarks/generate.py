"""Generator benchmark (not a test): ``python -m benchmarks.generate [--seeds 20]``.

Puzzles built unique, in this process, seeds 1..N each:
1. Pips at each preset (unique by placement): median and worst seconds, dominoes, regions,
   explain's levels; over the hard batch, the share of each region type beside the NYT
   corpus's hard puzzles (when ../shared/corpus is there).
2. Domino Fit 12x12 and Doodle Fit 40 cells / 8 blocks: median and worst seconds, repairs.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
from pathlib import Path

from satdomino import generators as gen
from satdomino.puzzles import family
from satdomino.puzzles.pips import generate as pips_gen

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def _times(rows: list) -> str:
    seconds = [m.seconds for m in rows]
    return f"median {statistics.median(seconds):.2f} s, worst {max(seconds):.2f} s"


def nyt_mix() -> dict[str, float] | None:
    """The share of each region type over the corpus's hard puzzles."""
    days = sorted((CORPUS / "pips" / "nyt").glob("*.json"))
    if not days:
        return None
    counts: collections.Counter = collections.Counter()
    for day in days:
        hard = json.loads(day.read_text()).get("hard") or {}
        counts.update(r["type"] for r in hard.get("regions") or ())
    total = sum(counts.values())
    return {t: counts[t] / total for t in pips_gen.MIX}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    seeds = range(1, ap.parse_args().seeds + 1)
    print("| Pips preset | dominoes | regions | time per puzzle | explain's levels |")
    print("|---|---|---|---|---|")
    hard = []
    for difficulty in ("easy", "medium", "hard"):
        rows = [gen.made(family("pips"), {}, s, unique=True, choices={"difficulty": difficulty})
                for s in seeds]
        if difficulty == "hard":
            hard = rows
        doms = [len(m.puzzle.dominoes) for m in rows]
        regions = [len(m.puzzle.regions) for m in rows]
        levels = collections.Counter(m.grade for m in rows)
        print(f"| {difficulty} | {min(doms)}-{max(doms)} | {min(regions)}-{max(regions)} "
              f"(median {statistics.median(regions):g}) | {_times(rows)} | "
              + ", ".join(f"{n} {g}" for g, n in levels.most_common()) + " |")
    ours = pips_gen.region_mix([m.puzzle for m in hard])
    theirs = nyt_mix()
    print("\n| region type | generated hard | NYT hard |\n|---|---|---|")
    for t in pips_gen.MIX:
        print(f"| {t} | {ours[t]:.2f} | " + (f"{theirs[t]:.2f}" if theirs else "-") + " |")
    print("\n| family | size | time per puzzle | repairs (median) |\n|---|---|---|---|")
    for kind, params, size in (("dominofit", {"width": 12, "height": 12}, "12x12"),
                               ("doodlefit", {"cells": 40, "blocks": 8}, "40 cells, 8 blocks"),
                               ("dominofit", {"width": 20, "height": 20}, "20x20"),
                               ("doodlefit", {"cells": 80, "blocks": 16},
                                "80 cells, 16 blocks")):
        rows = [gen.made(family(kind), params, s, unique=True, grade=False) for s in seeds]
        print(f"| {kind} | {size} | {_times(rows)} | "
              f"{statistics.median(m.repairs for m in rows):g} |")


if __name__ == "__main__":
    main()
