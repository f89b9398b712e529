"""Domino Fit benchmark (not a test): ``python -m benchmarks.fit``.

Planted boards from 10x10 to 30x30, each model with several encodings of its sums (--pb, or
--card for the counts model): median seconds over seeds to a verified solution (encode +
solve, cadical195). (Counting, the pentominoes among it: ``benchmarks.counting``.)
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from satdomino.encode import Encodings
from satdomino.puzzles import dominofit, family
from satdomino.solve import solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PENTOMINOES = EXAMPLES / "doodlefit" / "pentominoes-6x10.txt"


def domino_fit(sizes: list[int], seeds: int, limit: float) -> None:
    fam = family("dominofit")
    # the counts model states the sums as cardinality rows: --card, not --pb, encodes them
    choices = {model: [("card", e) for e in ("totalizer", "seqcounter", "cardnetwrk",
                                              "sortnetwrk", "mtotalizer")]
               if model == "counts" else
               [("pb", e) for e in ("best", "bdd", "totalizer", "adder", "seqcounter")]
               for model in dominofit.FAMILY.models}
    print("Domino Fit, planted boards, median seconds to a verified solution "
          f"(encode + solve, cadical195, {seeds} seeds, limit {limit:.0f} s; a board not "
          f"solved counts as {2 * limit:.0f} s)")
    for model, encodings in choices.items():
        print(f"\n{model}: " + ("--card" if encodings[0][0] == "card" else "--pb"))
        print("| size | " + " | ".join(e for _, e in encodings) + " |")
        print("|---|" + "---|" * len(encodings))
        for n in sizes:
            boards = [dominofit.planted(n, n, seed)[0] for seed in range(1, seeds + 1)]
            cells = []
            for kind, name in encodings:
                times = []
                for board in boards:
                    out = solve(board, fam, model=model, encodings=Encodings(**{kind: name}),
                                backend="cadical195", timeout=limit)
                    times.append(out.stats["encode_seconds"] + out.stats["solve_seconds"]
                                 if out.status == "sat" else 2 * limit)
                cells.append(f"{statistics.median(times):.2f}")
            print(f"| {n}x{n} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10,20,30")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args()
    domino_fit([int(x) for x in args.sizes.split(",")], args.seeds, args.limit)


if __name__ == "__main__":
    main()
