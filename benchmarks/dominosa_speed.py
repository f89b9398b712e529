"""Dominosa speed benchmark (not a test): run ``python -m benchmarks.dominosa_speed``.

1. The 100 janko-dev boards solved and proved unique in ONE ``satdomino solve`` call, wall time
   including interpreter start-up (median of repeats), against a bare ``python -c pass`` start.
2. Planted random boards (our generator) for N = 30, 40, 50: satdomino (CaDiCaL 1.9.5 and
   Kissat 4.0.4 on the default encoding) against OR-Tools CP-SAT on the same exactly-one model,
   measured in the same run, per board and as medians. OR-Tools is optional
   (``pip install 'satdomino[bench]'``); without it that column is skipped.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from satdomino.puzzles import dominosa as D
from satdomino.puzzles import family
from satdomino.solve import solve

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def wall(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    return time.perf_counter() - t0, p.stdout


def janko(repeats: int) -> None:
    path = CORPUS / "dominosa" / "janko-dev.jsonl"
    if not path.exists():
        print("janko-dev corpus absent: part 1 skipped")
        return
    exe = Path(sys.executable).with_name("satdomino")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "satdomino.cli"]
    runs, base = [], []
    for _ in range(repeats):
        seconds, out = wall([*cmd, "solve", str(path), "--unique", "--json"])
        recs = [json.loads(x) for x in out.splitlines()]
        assert len(recs) == 100 and all(r["status"] == "sat" and r["unique"] for r in recs)
        runs.append(seconds)
        base.append(wall([sys.executable, "-c", "pass"])[0])
    m, b = statistics.median(runs), statistics.median(base)
    print(f"janko-dev, 100 boards solved + proved unique in one CLI call: median {m:.3f} s "
          f"over {repeats} runs (bare python start-up {b:.3f} s, ratio {m / b:.1f}x)")


def cpsat(board: D.Dominosa, workers: int, limit: float) -> tuple[str, float]:
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    by_cell: dict = {c: [] for c in board.cells()}
    by_dom: dict = {d: [] for d in D.dominoes(board.n)}
    for e in board.edges():
        x = m.NewBoolVar(str(e))
        a, b = board.at(e[0]), board.at(e[1])
        by_cell[e[0]].append(x)
        by_cell[e[1]].append(x)
        by_dom[(min(a, b), max(a, b))].append(x)
    for xs in [*by_cell.values(), *by_dom.values()]:
        m.AddExactlyOne(xs)
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    s.parameters.max_time_in_seconds = limit
    t0 = time.perf_counter()
    status = s.Solve(m)
    seconds = time.perf_counter() - t0
    return {cp_model.OPTIMAL: "sat", cp_model.FEASIBLE: "sat",
            cp_model.INFEASIBLE: "unsat"}.get(status, "unknown"), seconds


def planted(ns: list[int], seeds: int, limit: float) -> None:
    try:
        import ortools  # noqa: F401
        have_ortools = True
    except ImportError:
        have_ortools = False
        print("OR-Tools not installed: CP-SAT columns skipped")
    fam = family("dominosa")
    cols = ["cadical195", "kissat404"] + (["cp-sat 1 worker", "cp-sat 2 workers"]
                                          if have_ortools else [])
    print(f"\nplanted boards, seconds to a verified solution (limit {limit:.0f} s; "
          "satdomino: encode + solve)")
    print("| N | seed | " + " | ".join(cols) + " |")
    print("|---|---|" + "---|" * len(cols))
    table: dict[tuple[int, str], list[float]] = {}
    for n in ns:
        for seed in range(1, seeds + 1):
            board, _ = D.planted(n, seed)
            row = []
            for col in cols:
                if col.startswith("cp-sat"):
                    status, seconds = cpsat(board, int(col.split()[1]), limit)
                else:
                    out = solve(board, fam, backend=col, timeout=limit)
                    status = out.status
                    seconds = out.stats["encode_seconds"] + out.stats["solve_seconds"]
                seconds = seconds if status == "sat" else 2 * limit  # PAR-2 for misses
                table.setdefault((n, col), []).append(seconds)
                row.append(f"{seconds:.2f}" if status == "sat" else f"timeout ({status})")
            print(f"| {n} | {seed} | " + " | ".join(row) + " |", flush=True)
    print("\nmedians (PAR-2 for timeouts) and ratio against CP-SAT with 2 workers")
    print("| N | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for n in ns:
        meds = [statistics.median(table[(n, c)]) for c in cols]
        ref = meds[-1] if have_ortools else None
        cells = [f"{m:.2f}" + (f" ({m / ref:.2f}x)" if ref else "") for m in meds]
        print(f"| {n} | " + " | ".join(cells) + " |")


def amo_sweep(limit: float) -> None:
    """Every clausal at-most-one encoding on the same nine planted boards (N = 45, 50, 55)."""
    from satdomino.encode import REGISTRY, Encodings

    fam = family("dominosa")
    boards = [D.planted(n, s)[0] for n in (45, 50, 55) for s in (1, 2, 3)]
    print(f"\nat-most-one encodings, cadical195, planted N = 45/50/55 x seeds 1-3 "
          f"(limit {limit:.0f} s, PAR-2)")
    print("| amo | median s | total s | per board |")
    print("|---|---|---|---|")
    for amo in [a for a in REGISTRY["amo"] if a != "native"]:
        times = []
        for board in boards:
            out = solve(board, fam, encodings=Encodings(amo=amo), backend="cadical195",
                        timeout=limit)
            times.append(out.stats["solve_seconds"] if out.status == "sat" else 2 * limit)
        print(f"| {amo} | {statistics.median(times):.2f} | {sum(times):.1f} | "
              + " ".join(f"{t:.1f}" for t in times) + " |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="30,40,50", help="comma-separated N values")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds per solver run")
    ap.add_argument("--repeats", type=int, default=5, help="repeats of the janko CLI call")
    ap.add_argument("--amo-sweep", action="store_true", help="also compare amo encodings")
    args = ap.parse_args()
    janko(args.repeats)
    planted([int(x) for x in args.n.split(",")], args.seeds, args.limit)
    if args.amo_sweep:
        amo_sweep(min(args.limit, 60.0))


if __name__ == "__main__":
    main()
