"""Dominosa at scale (not a test): ``python -m benchmarks.dominosa_scale [--n 40,50,60]
[--seeds 5] [--repeats 3] [--timeout 60] [--config MODEL/AMO/BACKEND ...] [--no-unique]
[--no-cpsat]``.

Planted random boards (``dominosa.planted(n, seed)``), seeds 1..S for every N. Each board is
solved end to end (build the model, encode, solve, decode, check the rules) by every satdomino
configuration, then, in the same run, by OR-Tools CP-SAT with 2 workers on the plain
exactly-one placement model, also timed from board to answer (building its model included;
CP-SAT runs in a worker process of its own, see ``cpsat_worker``). Every board is solved R
times by each side, the sides taking turns (their order rotates from one repeat to the next),
and its time is the median of the R. With uniqueness on (the default) each configuration then
also runs ``solve --unique`` once per board, which decides whether the solution is the only one
by a second solve with the first solution blocked that searches near it; the seconds of that
second solve are reported.

Per-board seconds, then per N: the median time to the first solution (a board not solved
within the limit counts as infinitely slow), solved / boards, the ratio of that median to
CP-SAT's, the worst per-board ratio, and the median time of the uniqueness check.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from benchmarks.cpsat_worker import CpsatWorker
from satdomino.encode import Encodings
from satdomino.puzzles import dominosa as D
from satdomino.puzzles import family
from satdomino.solve import solve

DEFAULT_CONFIGS = ["auto"]


def _solve(board: D.Dominosa, config: str, limit: float, unique: bool = False):
    """``auto`` (what a user gets with no options) or MODEL/AMO/BACKEND."""
    if config == "auto":
        return solve(board, family("dominosa"), timeout=limit, unique=unique)
    model, amo, backend = config.split("/", 2)
    return solve(board, family("dominosa"), model=model, backend=backend,
                 encodings=Encodings(amo=amo), timeout=limit, unique=unique)


def ours(board: D.Dominosa, config: str, limit: float) -> tuple[str, float, str]:
    """(status, seconds to the first verified solution, ""): a plain solve, as a user's."""
    t0 = time.perf_counter()
    out = _solve(board, config, limit)
    return out.status, time.perf_counter() - t0, ""


def uniqueness(board: D.Dominosa, config: str, limit: float) -> str:
    """The verdict of ``solve --unique`` and the seconds of its second solve (the first
    solution blocked, the search started from it)."""
    out = _solve(board, config, limit, unique=True)
    if "unique_seconds" not in out.stats:
        return ""
    verdict = {True: "unique", False: "not unique", None: "undecided"}[out.unique]
    return f"{verdict} {out.stats['unique_seconds']:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="40,50,60,70,80,100", help="comma-separated N values")
    ap.add_argument("--seeds", default="5", help="S (seeds 1..S) or a comma-separated list")
    ap.add_argument("--repeats", type=int, default=3,
                    help="solves of each board by each side; the median is its time")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per board and solver")
    ap.add_argument("--config", action="append",
                    help="auto or MODEL/AMO/BACKEND, repeatable (default: "
                    + ", ".join(DEFAULT_CONFIGS) + ")")
    ap.add_argument("--no-unique", action="store_true", help="skip the uniqueness check")
    ap.add_argument("--no-cpsat", action="store_true")
    args = ap.parse_args()
    configs = args.config or DEFAULT_CONFIGS
    unique = not args.no_unique
    ns = [int(x) for x in args.n.split(",")]
    seeds = (list(range(1, int(args.seeds) + 1)) if "," not in args.seeds
             else [int(x) for x in args.seeds.split(",")])
    cols = [*configs, *([] if args.no_cpsat else ["cp-sat 2 workers"])]
    warm, _ = D.planted(8, 0)  # imports and first calls are not timed against anyone
    for c in configs:
        ours(warm, c, args.timeout)
        uniqueness(warm, c, args.timeout)
    worker = None if args.no_cpsat else CpsatWorker()
    if worker is not None:
        worker.solve(warm, 2, args.timeout)
    print(f"planted boards, seconds from board to verified solution (limit {args.timeout:g} s)"
          + ("; then the uniqueness verdict and its extra seconds" if unique else ""))
    print("| N | seed | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    times: dict[tuple[int, str], list[float]] = {}
    checks: dict[tuple[int, str], list[float]] = {}
    for n in ns:
        for seed in seeds:
            board, _ = D.planted(n, seed)
            sides = [*configs, *([] if args.no_cpsat else ["cp"])]
            runs: dict[str, list[tuple[str, float, str]]] = {side: [] for side in sides}
            for r in range(max(1, args.repeats)):
                for side in sides[r % len(sides):] + sides[:r % len(sides)]:
                    runs[side].append(worker.solve(board, 2, args.timeout) + ("",)
                                      if side == "cp"
                                      else ours(board, side, args.timeout))
            cells = []
            for side in sides:
                st, sec, _ = _median_run(runs[side])
                note = uniqueness(board, side, args.timeout) if unique and side != "cp" else ""
                key, took = (n, side), _seconds(st, sec)
                times.setdefault(key, []).append(took)
                if note and not note.startswith("undecided"):
                    checks.setdefault(key, []).append(float(note.split()[-1]))
                cells.append(_m(took, args.timeout) + (f" ({note})" if note else ""))
            print(f"| {n} | {seed} | " + " | ".join(cells) + " |", flush=True)
    print("\nmedian seconds to the first solution (solved / boards), ratio of medians to "
          "CP-SAT, worst per-board ratio" + ("; median uniqueness check" if unique else ""))
    print("| N | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for n in ns:
        cp = times.get((n, "cp"))
        row = [_summary(times[(n, c)], cp, checks.get((n, c)), args.timeout) for c in configs]
        if cp:
            row.append(f"{_m(statistics.median(cp), args.timeout)} "
                       f"({sum(t < math.inf for t in cp)}/{len(cp)})")
        print(f"| {n} | " + " | ".join(row) + " |", flush=True)
    if worker is not None:
        worker.close()


def _seconds(status: str, seconds: float) -> float:
    """A run's time; one without an answer (time limit) counts as infinitely slow."""
    return seconds if status in ("sat", "unsat") else math.inf


def _median_run(runs: list[tuple[str, float, str]]) -> tuple[str, float, str]:
    """The run of median time."""
    ranked = sorted(runs, key=lambda run: _seconds(run[0], run[1]))
    return ranked[(len(ranked) - 1) // 2]


def _summary(mine: list[float], cp: list[float] | None, checks: list[float] | None,
             limit: float) -> str:
    med = statistics.median(mine)
    text = f"{_m(med, limit)} ({sum(t < math.inf for t in mine)}/{len(mine)})"
    if cp:
        cmed = statistics.median(cp)
        if math.isfinite(med) and math.isfinite(cmed) and cmed:
            text += f", {med / cmed:.2f}x"
        worst = max((a / b for a, b in zip(mine, cp, strict=True) if math.isfinite(b) and b),
                    default=None)
        if worst is not None:
            text += f", worst {worst:.2f}x" if math.isfinite(worst) else ", worst -"
    if checks:
        text += f"; unique check {statistics.median(checks):.3f}"
    return text


def _m(x: float, limit: float) -> str:
    return f"{x:.3f}" if math.isfinite(x) else f">{limit:g}"


if __name__ == "__main__":
    main()
