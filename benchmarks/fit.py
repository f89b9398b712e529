"""Domino Fit and Doodle Fit benchmark (not a test): ``python -m benchmarks.fit``.

1. Domino Fit planted boards from 10x10 to 30x30, both models, several --pb encodings:
   seconds to a verified solution (encode + solve, cadical195), medians over seeds.
2. The 12 pentominoes in a 6x10 box, every packing counted: satdomino's exact counter and
   its first solution, against the dancing-links solver of the ``xcover`` package (a
   benchmark-only dependency, ``pip install xcover``) measured in the same run.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from pathlib import Path

from satdomino.encode import Encodings
from satdomino.puzzles import dominofit, doodlefit, family
from satdomino.solve import solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PENTOMINOES = EXAMPLES / "doodlefit" / "pentominoes-6x10.txt"


def domino_fit(sizes: list[int], seeds: int, limit: float) -> None:
    fam = family("dominofit")
    pbs = ["best", "bdd", "totalizer", "adder", "seqcounter"]
    print("Domino Fit, planted boards, median seconds to a verified solution "
          f"(encode + solve, {seeds} seeds, limit {limit:.0f} s)")
    print("| size | model | " + " | ".join(pbs) + " |")
    print("|---|---|" + "---|" * len(pbs))
    for n in sizes:
        boards = [dominofit.planted(n, n, seed)[0] for seed in range(1, seeds + 1)]
        for model in dominofit.MODELS:
            cells = []
            for pb in pbs:
                times = []
                for board in boards:
                    out = solve(board, fam, model=model, encodings=Encodings(pb=pb),
                                backend="cadical195",
                                timeout=limit)
                    times.append(out.stats["encode_seconds"] + out.stats["solve_seconds"]
                                 if out.status == "sat" else 2 * limit)
                cells.append(f"{statistics.median(times):.2f}")
            print(f"| {n}x{n} | {model} | " + " | ".join(cells) + " |", flush=True)


def pentominoes() -> None:
    [(_, p)] = doodlefit.parse(PENTOMINOES.read_text())
    p = dataclasses.replace(p, rotate=True, reflect=True)
    t0 = time.perf_counter()
    ours = doodlefit.count_placements(p)
    ours_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    first = solve(p, family("doodlefit"))
    first_s = time.perf_counter() - t0
    print(f"\npentominoes in 6x10: satdomino exact counter {ours} packings in {ours_s:.1f} s; "
          f"first solution ({first.status}) by SAT in {first_s:.2f} s")
    try:
        import numpy as np
        import xcover
    except ImportError:
        print("xcover not installed: dancing-links baseline skipped")
        return
    options, order = [], sorted(p.shape)
    index = {u: i for i, u in enumerate(order)}
    for b in range(len(p.blocks)):
        for cells in p.placements(b):
            row = np.zeros(len(order) + len(p.blocks), dtype=bool)
            row[[index[u] for u in cells]] = True
            row[len(order) + b] = True
            options.append(row)
    matrix = np.array(options)
    t0 = time.perf_counter()
    theirs = sum(1 for _ in xcover.covers_bool(matrix))
    theirs_s = time.perf_counter() - t0
    print(f"xcover (dancing links, numba; first run includes compilation): {theirs} packings "
          f"in {theirs_s:.1f} s; ratio satdomino/xcover {ours_s / theirs_s:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,20,30")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args()
    domino_fit([int(x) for x in args.sizes.split(",")], args.seeds, args.limit)
    pentominoes()


if __name__ == "__main__":
    main()
