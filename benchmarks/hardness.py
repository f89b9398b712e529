"""Hardness on demand (not a test): ``python -m benchmarks.hardness [--n 40,50,60]
[--seeds 5] [--timeout 600] [--backend cadical195] [--csv FILE]``.

Planted random Dominosa boards with the plain exactly-one model (``satdomino generate dominosa
--n N --seed S -o X.cnf`` writes the same instance) are easy up to about N = 45 and grow hard
near N = 55-60. This script measures it: for every N and seed, the solve time of one solver on
the exported CNF, with a time limit, printed as it goes and summarised per N (solved, median,
max), so the tables in encodings/families/dominosa.md can be remade. Each run goes through
``satdomino compare``'s isolated runner (time limit, kill, verified answer).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

from satdomino.compare.sweep import Appender, generated, run_local, tasks
from satdomino.encode import Encodings


def run(ns: list[int], seeds: int, timeout: float, backend: str,
        out: str | None) -> list[dict]:
    """One run at a time (so times are one solver's), through compare's isolated runner;
    with ``out``, the rows in compare's CSV form."""
    spec = f"dominosa:n={','.join(map(str, ns))}:seeds={seeds}"
    todo = tasks(generated(spec), [None], {k: [v] for k, v in Encodings().as_dict().items()},
                 [backend], 1, timeout, None)
    appender = Appender(Path(out)) if out else None
    rows = []
    try:
        for row in run_local(todo, jobs=1):
            rows.append(row)
            print(" ".join(f"{k}={row[k]}" for k in ("puzzle", "variables", "clauses",
                                                     "instance_hash", "status",
                                                     "solve_seconds")), flush=True)
            if appender:
                appender(row)
    finally:
        if appender:
            appender.close()
    print(f"\n| N | solved (of {seeds}) within {timeout:g} s | median s | max s |")
    print("|---|---|---|---|")
    for n in ns:
        mine = [r for r in rows if json.loads(r["parameters"])["n"] == n]
        times = [float(r["solve_seconds"]) if r["status"] == "sat" else float("inf")
                 for r in mine]
        print(f"| {n} | {sum(t < float('inf') for t in times)} | "
              f"{statistics.median(times):.2f} | {max(times):.2f} |"
              .replace("inf", f">{timeout:g}"))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", default="30,40,50,55,60,65,70")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=600.0)
    ap.add_argument("--backend", default="cadical195")
    ap.add_argument("--csv")
    args = ap.parse_args(argv)
    run([int(x) for x in args.n.split(",")], args.seeds, args.timeout, args.backend, args.csv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
