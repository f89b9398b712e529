"""Unique Dominosa boards benchmark (not a test): ``python -m benchmarks.dominosa_unique``.

1. The constructive generator (``puzzles.dominosa.unique``: plant, sharpen, repair by SAT,
   prove with ``solve(..., unique=True)``): seconds per board (everything, including the
   proof), repair rounds and the proof's share, median and max over seeds, per N.
   ``--sharpen 0`` turns the sharpening step off, to see what it buys.
2. Baseline, measured in the same run: the old ``generate --unique`` way, trying planted seeds
   S, S+1, ... until ``solve(..., unique=True)`` says unique, at most ``--tries`` seeds (the
   CLI's default, 200). Per N: seeds needed from each of several starting seeds, its time,
   and the constructive generator's time on the same N.
"""

from __future__ import annotations

import argparse
import statistics
import time

from satdomino.puzzles import dominosa as D
from satdomino.puzzles import family
from satdomino.puzzles.dominosa import unique as U
from satdomino.solve import solve


def constructive(ns: list[int], seeds: int, sharpen: float) -> None:
    print(f"constructive unique boards, seeds 1..{seeds}, {sharpen:g} sharpening moves per "
          "tile (seconds include the framework's uniqueness proof)")
    print("| N | grid | median s | max s | proof median s | rounds median | rounds max | "
          "tilings max |")
    print("|---|---|---|---|---|---|---|---|")
    for n in ns:
        runs = [U.generate(n, seed, sharpen=sharpen)[2] for seed in range(1, seeds + 1)]
        secs = [r.seconds for r in runs]
        rounds = [r.rounds for r in runs]
        print(f"| {n} | {n + 1}x{n + 2} | {statistics.median(secs):.3f} | {max(secs):.3f} | "
              f"{statistics.median(r.check_seconds for r in runs):.3f} | "
              f"{statistics.median(rounds):g} | {max(rounds)} | "
              f"{max(r.tilings for r in runs)} |", flush=True)


def planted_tries(n: int, start: int, tries: int) -> int | None:
    """Seeds tried from ``start`` until a planted board is unique (None: not within tries)."""
    fam = family("dominosa")
    for k in range(tries):
        if solve(D.planted(n, start + k)[0], fam, unique=True).unique:
            return k + 1
    return None


def baseline(ns: list[int], starts: int, tries: int) -> None:
    print(f"\nbaseline: planted seeds tried until unique (cap {tries}), from {starts} starting "
          "seeds 1, 1001, 2001, ...; against the constructive generator on the same N")
    print("| N | seeds needed per start | found | planted median s (a fail: until the cap) | "
          "constructive median s | ratio |")
    print("|---|---|---|---|---|---|")
    for n in ns:
        needed, secs = [], []
        for i in range(starts):
            t0 = time.perf_counter()
            needed.append(planted_tries(n, 1 + 1000 * i, tries))
            secs.append(time.perf_counter() - t0)
        ours = statistics.median(U.generate(n, 1 + 1000 * i)[2].seconds for i in range(starts))
        base = statistics.median(secs)
        shown = " ".join("fail" if k is None else str(k) for k in needed)
        found = sum(k is not None for k in needed)
        print(f"| {n} | {shown} | {found}/{starts} | {base:.3f} | {ours:.4f} | "
              f"{base / ours:.0f}x |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="10,20,30,40", help="comma-separated N, constructive part")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--baseline-n", default="3,4,5,6,7,8,10",
                    help="comma-separated N for the planted-seeds baseline ('' to skip)")
    ap.add_argument("--tries", type=int, default=200, help="baseline: seeds per attempt")
    ap.add_argument("--sharpen", type=float, default=U.SHARPEN_STEPS_PER_TILE,
                    help="constructive part: sharpening moves per tile (0: off)")
    args = ap.parse_args()
    constructive([int(x) for x in args.n.split(",")], args.seeds, args.sharpen)
    if args.baseline_n:
        baseline([int(x) for x in args.baseline_n.split(",")], args.seeds, args.tries)


if __name__ == "__main__":
    main()
