"""Pips benchmark (not a test): ``python -m benchmarks.pips_corpus``.

The whole NYT corpus (../shared/corpus/pips/nyt): solve, decide uniqueness and count distinct
placements exactly, with satdomino (one CLI call, wall time with start-up, median of repeats),
and with OR-Tools CP-SAT on a link/value model (links, integer cell values, a domino type per
link, counts per type, region rules as linear / equality / all-different constraints) in the
same run: solve, uniqueness by a second solve that must differ, and the count by enumerating
all solutions (``enumerate_all_solutions``), with a time limit per puzzle.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from satdomino.puzzles import pips as P

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "pips" / "nyt"


def cpsat_model(p: P.Pips):
    from ortools.sat.python import cp_model

    m = cp_model.CpModel()
    values = sorted({k for d in p.dominoes for k in d})
    link = {e: m.NewBoolVar(f"l{e}") for e in p.edges}
    val = {u: m.NewIntVarFromDomain(cp_model.Domain.FromValues(values), f"v{u}") for u in p.nodes}
    for u in p.nodes:
        m.AddExactlyOne([x for e, x in link.items() if u in e])
    types = P.domino_types(p)
    carries = {t: [] for t in types}
    for (u, v), x in link.items():
        options = []
        for t in types:
            d = m.NewBoolVar("")
            m.AddImplication(d, x)
            # a link carrying t shows t's pips, one way round or the other
            ways = []
            for a, b in {(t[0], t[1]), (t[1], t[0])}:
                w = m.NewBoolVar("")
                m.Add(val[u] == a).OnlyEnforceIf(w)
                m.Add(val[v] == b).OnlyEnforceIf(w)
                ways.append(w)
            m.AddBoolOr(ways).OnlyEnforceIf(d)
            if len(ways) == 2:
                m.AddImplication(ways[0], ways[1].Not())
            for w in ways:
                m.AddImplication(w, d)  # ways only when carried: no spurious solutions
            options.append(d)
            carries[t].append(d)
        m.AddExactlyOne(options).OnlyEnforceIf(x)
        for d in options:
            m.AddImplication(x.Not(), d.Not())
    for t, n in types.items():
        m.Add(sum(carries[t]) == n)
    for r in p.regions:
        vs = [val[u] for u in r.nodes]
        if r.rule == "sum":
            m.Add(sum(vs) == r.target)
        elif r.rule == "less":
            m.Add(sum(vs) < r.target)
        elif r.rule == "greater":
            m.Add(sum(vs) > r.target)
        elif r.rule == "equals":
            for x in vs[1:]:
                m.Add(x == vs[0])
        elif r.rule == "unequal":
            m.AddAllDifferent(vs)
    return m, link, val


def cpsat_all(p: P.Pips, limit: float) -> tuple[int | None, bool, float]:
    """(count, unique, seconds) with CP-SAT; count None when the time limit cut it short."""
    from ortools.sat.python import cp_model

    t0 = time.perf_counter()
    m, link, val = cpsat_model(p)
    s = cp_model.CpSolver()
    s.parameters.num_workers = 2
    s.parameters.max_time_in_seconds = limit
    assert s.Solve(m) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    # uniqueness: the same model, required to differ from the first solution somewhere
    m2, link2, val2 = cpsat_model(p)
    diff = [link2[e].Not() if s.Value(x) else link2[e] for e, x in link.items()]
    for u, x in val.items():
        b = m2.NewBoolVar("")
        m2.Add(val2[u] != s.Value(x)).OnlyEnforceIf(b)
        m2.Add(val2[u] == s.Value(x)).OnlyEnforceIf(b.Not())
        diff.append(b)
    m2.AddBoolOr(diff)
    s2 = cp_model.CpSolver()
    s2.parameters.num_workers = 2
    s2.parameters.max_time_in_seconds = limit
    unique = s2.Solve(m2) == cp_model.INFEASIBLE

    class Tally(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.n = 0

        def on_solution_callback(self) -> None:
            self.n += 1

    s3 = cp_model.CpSolver()
    s3.parameters.enumerate_all_solutions = True
    s3.parameters.num_workers = 1  # enumeration needs a single worker
    s3.parameters.max_time_in_seconds = max(0.1, limit - (time.perf_counter() - t0))
    tally = Tally()
    status = s3.Solve(m, tally)
    done = status == cp_model.OPTIMAL
    return (tally.n if done else None), unique, time.perf_counter() - t0


def ours(repeats: int) -> list[dict]:
    exe = Path(sys.executable).with_name("satdomino")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "satdomino.cli"]
    cmd += ["solve", str(CORPUS), "--unique", "--count", "--json"]
    times, out = [], ""
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        times.append(time.perf_counter() - t0)
    recs = [json.loads(x) for x in out.splitlines()]
    methods = Counter(r["count_method"] for r in recs)
    print(f"satdomino: {len(recs)} puzzles solved, uniqueness decided and placements counted "
          f"in one CLI call: median {statistics.median(times):.2f} s over {repeats} runs "
          f"(counts by {dict(methods)})")
    return recs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60.0, help="CP-SAT seconds per puzzle")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        sys.exit("the shared corpus is absent")
    recs = ours(args.repeats)
    try:
        import ortools  # noqa: F401
    except ImportError:
        print("OR-Tools not installed (pip install 'satdomino[bench]'): CP-SAT skipped")
        return
    ours_by = {(Path(r["file"]).stem, r["puzzle"]): r for r in recs}
    total, cut, agree = 0.0, [], 0
    single: dict[str, float] = {}
    for f in sorted(CORPUS.glob("*.json")):
        for name, p in P.parse(f.read_text()):
            n, unique, seconds = cpsat_all(p, args.limit)
            total += seconds
            mine = ours_by[(f.stem, name)]
            if n is None:
                cut.append(f"{f.stem} {name}")
            else:
                agree += n == mine["count"] and unique == mine["unique"]
            if (f.stem, name) in {("2025-09-15", "hard"), ("2025-10-05", "hard")}:
                single[f"{f.stem} {name}"] = seconds
    print(f"CP-SAT (2 workers to solve and prove, 1 to enumerate): {total:.1f} s in all; "
          f"{agree} counts and uniqueness verdicts equal to satdomino's; "
          f"{len(cut)} cut at {args.limit:.0f} s: {', '.join(cut) or 'none'}")
    for k, v in single.items():
        print(f"  CP-SAT on {k}: {v:.1f} s")


if __name__ == "__main__":
    main()
