"""Hardness on demand (not a test): ``python -m satdomino.bench.hardness [--n 40,50,60]
[--seeds 5] [--timeout 600] [--backend cadical195] [--csv FILE]``.

Planted random Dominosa boards with the plain exactly-one model (``satdomino generate dominosa
--n N --seed S -o X.cnf`` writes the same instance) are easy up to about N = 45 and grow hard
near N = 55-60. This script measures it: for every N and seed, the solve time of one solver on
the exported CNF, with a time limit, printed as it goes and summarised per N (solved, median,
max), so the tables in encodings/families/dominosa.md can be remade.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time

from .. import generate as gen
from ..backends import get_backend
from ..encode import Encodings, lower
from ..export.dimacs import gbd_hash
from ..puzzles import dominosa as D


def run(ns: list[int], seeds: int, timeout: float, backend: str,
        out: str | None) -> list[dict]:
    engine = get_backend(backend)
    rows = []
    writer = None
    f = open(out, "w", newline="") if out else None  # noqa: SIM115 (rows appended as they come)
    try:
        for n in ns:
            for seed in range(1, seeds + 1):
                board = gen.planted("dominosa", {"n": n}, seed)
                cnf = lower(D.build_placement(board), Encodings())
                t0 = time.perf_counter()
                r = engine.solve(cnf, time_limit=timeout)
                row = {"n": n, "seed": seed, "variables": cnf.num_vars,
                       "clauses": len(cnf.clauses), "hash": gbd_hash(cnf.clauses),
                       "status": r.status, "seconds": round(time.perf_counter() - t0, 3)}
                rows.append(row)
                print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
                if f is not None:
                    if writer is None:
                        writer = csv.DictWriter(f, fieldnames=list(row))
                        writer.writeheader()
                    writer.writerow(row)
                    f.flush()
    finally:
        if f is not None:
            f.close()
    print(f"\n| N | solved (of {seeds}) within {timeout:g} s | median s | max s |")
    print("|---|---|---|---|")
    for n in ns:
        mine = [r for r in rows if r["n"] == n]
        solved = [r["seconds"] for r in mine if r["status"] == "sat"]
        times = [r["seconds"] if r["status"] == "sat" else float("inf") for r in mine]
        med = statistics.median(times)
        print(f"| {n} | {len(solved)} | {med:.2f} | "
              f"{max(times):.2f} |".replace("inf", f">{timeout:g}"))
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
