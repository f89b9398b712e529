"""Dominosa at scale (not a test): ``python -m satdomino.bench.dominosa_scale [--n 40,50,60]
[--seeds 5] [--timeout 120] [--model reduced] [--backend cadical195] [--unique]``.

Planted random boards (``dominosa.planted(n, seed)``), seeds 1..S for every N. Each board is
solved by satdomino (model, encodings and backend as chosen; the time is building the model,
including the root-level deduction of ``reduced``, plus solving, with the solution verified)
and, in the same run, by OR-Tools CP-SAT with 2 workers on the plain exactly-one placement model
(the one in ``dominosa_speed``). Per-board seconds, then per N the number solved and the median
(a board not solved within the limit counts as infinitely slow) with the ratio to CP-SAT.
"""

from __future__ import annotations

import argparse
import math
import statistics

from ..puzzles import dominosa as D
from ..puzzles import family
from ..solve import solve
from .dominosa_speed import cpsat


def ours(board: D.Dominosa, model: str, backend: str, limit: float,
         unique: bool) -> tuple[str, float, str]:
    out = solve(board, family("dominosa"), model=model, backend=backend, timeout=limit,
                unique=unique)
    seconds = out.stats["encode_seconds"] + out.stats["solve_seconds"]
    note = "" if not unique or out.status != "sat" else (
        " unique" if out.unique else " not unique" if out.unique is False else " unique?")
    return out.status, seconds, note


def fmt(status: str, seconds: float, limit: float) -> str:
    return f"{seconds:.2f}" if status in ("sat", "unsat") else f">{limit:g}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="40,50,60,70,80,100", help="comma-separated N values")
    ap.add_argument("--seeds", default="5", help="S (seeds 1..S) or a comma-separated list")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per board and solver")
    ap.add_argument("--model", default="reduced")
    ap.add_argument("--backend", default="cadical195")
    ap.add_argument("--unique", action="store_true", help="also decide uniqueness (ours only)")
    ap.add_argument("--no-cpsat", action="store_true")
    args = ap.parse_args()
    ns = [int(x) for x in args.n.split(",")]
    seeds = (list(range(1, int(args.seeds) + 1)) if "," not in args.seeds
             else [int(x) for x in args.seeds.split(",")])
    label = f"{args.model}/{args.backend}"
    print(f"planted boards, seconds (limit {args.timeout:g} s per board and solver)")
    print(f"| N | seed | {label} | cp-sat 2 workers |")
    print("|---|---|---|---|")
    times: dict[tuple[int, str], list[float]] = {}
    for n in ns:
        for seed in seeds:
            board, _ = D.planted(n, seed)
            st, sec, note = ours(board, args.model, args.backend, args.timeout, args.unique)
            times.setdefault((n, "ours"), []).append(sec if st == "sat" else math.inf)
            cells = [fmt(st, sec, args.timeout) + note]
            if not args.no_cpsat:
                cst, csec = cpsat(board, 2, args.timeout)
                times.setdefault((n, "cp"), []).append(csec if cst == "sat" else math.inf)
                cells.append(fmt(cst, csec, args.timeout))
            else:
                cells.append("-")
            print(f"| {n} | {seed} | " + " | ".join(cells) + " |", flush=True)
    print(f"\n| N | {label} solved | median s | cp-sat solved | median s | ratio |")
    print("|---|---|---|---|---|---|")
    for n in ns:
        mine = times[(n, "ours")]
        med = statistics.median(mine)
        row = [f"{sum(t < math.inf for t in mine)}/{len(mine)}", _m(med, args.timeout)]
        if (n, "cp") in times:
            cp = times[(n, "cp")]
            cmed = statistics.median(cp)
            ratio = med / cmed if math.isfinite(med) and math.isfinite(cmed) and cmed else None
            row += [f"{sum(t < math.inf for t in cp)}/{len(cp)}", _m(cmed, args.timeout),
                    f"{ratio:.2f}x" if ratio is not None else "-"]
        else:
            row += ["-", "-", "-"]
        print(f"| {n} | " + " | ".join(row) + " |", flush=True)


def _m(x: float, limit: float) -> str:
    return f"{x:.2f}" if math.isfinite(x) else f">{limit:g}"


if __name__ == "__main__":
    main()
