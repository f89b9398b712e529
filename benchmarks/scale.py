"""Every family at the sizes its generators make (not a test): ``python -m benchmarks.scale``.

For each family and size, planted puzzles of ``satdomino generate`` (seeds 1..S) are solved by
``satdomino solve --json --timeout T`` with no other option (``auto``), one whole process each:
its wall time to a verified answer and its peak memory (the child's maximum resident set, from
``wait4``). Prints a Markdown table, median and worst per size, and with ``--plot FILE`` draws
time and memory against size. Beside each puzzle, CP-SAT (2 workers, the same limit) on the
family's model named in ``CPSAT_MODEL``, translated from satdomino's Model and timed from
reading the file to its answer, which the family's rule checker passes (``cpsat_worker``, OR-Tools
from ``pip install '.[bench]'``; ``--no-cpsat`` skips it).

    python -m benchmarks.scale --family pips --sizes 25,50,100,200,500 --seeds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.cpsat_worker import CpsatWorker

# the generator's size options per family: the size's name, and the options for size n
SIZES = {
    "pips": ("dominoes", lambda n: ["--dominoes", str(n)]),
    "dominofit": ("side", lambda n: ["--width", str(n), "--height", str(n)]),
    "dominosa": ("N", lambda n: ["--n", str(n)]),
    "doodlefit": ("cells", lambda n: ["--cells", str(n), "--blocks", str(max(2, n // 7))]),
}
# the model CP-SAT reads: the placement model, and for Pips its link / value model
CPSAT_MODEL = {"pips": "link-value", "dominofit": "placement", "dominosa": "placement",
               "doodlefit": "placement"}
DEFAULT_SIZES = {"pips": "25,50,100,200,500", "dominofit": "20,30,40,60",
                 "dominosa": "50,100,150,200", "doodlefit": "100,200,300"}


def run(argv: list[str], limit: float) -> tuple[float, float, str]:
    """(wall seconds, peak MB, status) of ``satdomino ARGV`` in a process of its own."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "satdomino", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = proc.stdout.read() if proc.stdout else b""
    _, code, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(code)
    seconds = time.perf_counter() - t0
    try:
        status = json.loads(out).get("status", "?")
    except ValueError:
        status = f"exit {proc.returncode}"
    return seconds, usage.ru_maxrss / 1024, status


def measure(kind: str, sizes: list[int], seeds: int, limit: float,
            cpsat: CpsatWorker | None) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            runs, theirs = [], []
            for seed in range(1, seeds + 1):
                path = str(Path(tmp) / f"{kind}-{n}-{seed}.json")
                made = subprocess.run([sys.executable, "-m", "satdomino", "generate", kind,
                                       *SIZES[kind][1](n), "--seed", str(seed), "-o", path],
                                      capture_output=True, text=True)
                if made.returncode:
                    sys.exit(f"generate {kind} at {n}: {made.stderr.strip()}")
                runs.append(run(["solve", path, "--json", "--timeout", f"{limit:g}"], limit))
                if cpsat:
                    status, seconds = cpsat.solve_file(path, CPSAT_MODEL[kind], 2, limit)
                    if status == "wrong":
                        sys.exit(f"CP-SAT's answer to {kind} {n} seed {seed} breaks the rules")
                    theirs.append(seconds if status == "sat" else float("inf"))
            times = [r[0] if r[2] == "sat" else float("inf") for r in runs]
            rows.append({"size": n, "median": statistics.median(times), "worst": max(times),
                         "solved": sum(t < float("inf") for t in times), "seeds": seeds,
                         "peak_mb": max(r[1] for r in runs)})
            r = rows[-1]
            line = (f"| {n} | {_s(r['median'])} | {_s(r['worst'])} | {r['solved']}/{seeds} | "
                    f"{r['peak_mb']:.0f} |")
            if cpsat:
                r.update(cpsat_median=statistics.median(theirs), cpsat_worst=max(theirs),
                         cpsat_solved=sum(t < float("inf") for t in theirs))
                line += (f" {_s(r['cpsat_median'])} | {_s(r['cpsat_worst'])} | "
                         f"{r['cpsat_solved']}/{seeds} |")
            print(line, flush=True)
    return rows


def _s(x: float) -> str:
    return "-" if x == float("inf") else f"{x:.2f}"


def plot(results: dict[str, list[dict]], limit: float, path: str) -> None:
    """One panel per family: median and worst seconds (log scale; a seed with no answer
    within the limit drawn at the limit, as x) and peak memory on the right axis."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(4 * len(results), 3.6), squeeze=False)
    for ax, (kind, rows) in zip(axes[0], results.items(), strict=True):
        xs = [r["size"] for r in rows]
        for key, style, color in (("median", "o-", "tab:blue"), ("worst", "s--", "tab:blue"),
                                  ("cpsat_median", "d-.", "tab:orange")):
            if key not in rows[0]:
                continue
            ys = [min(r[key], limit) for r in rows]
            ax.plot(xs, ys, style, color=color, label=f"{key} s")
            gave_up = [(x, limit) for x, r in zip(xs, rows, strict=True) if r[key] > limit]
            if gave_up:
                ax.plot([x for x, _ in gave_up], [y for _, y in gave_up], "x", color="tab:red",
                        markersize=10)
        ax.axhline(limit, color="tab:red", linestyle=":", linewidth=1)
        ax.set(xlabel=SIZES[kind][0], yscale="log", title=kind)
        ax.grid(True, alpha=0.3)
        mem = ax.twinx()
        mem.plot(xs, [r["peak_mb"] for r in rows], "^-", color="tab:gray", label="peak MB")
        mem.set_ylim(0, max(700, max(r["peak_mb"] for r in rows) * 1.1))
        if ax is axes[0][0]:
            ax.set_ylabel(f"seconds, whole process (x: none in {limit:g} s)")
            lines = ax.get_legend_handles_labels()[0] + mem.get_legend_handles_labels()[0]
            names = ["median s", "worst s"] + (["CP-SAT median s"] if "cpsat_median" in rows[0]
                                               else []) + ["peak MB"]
            ax.legend(lines, names, loc="upper left", fontsize="small")
        if ax is axes[0][-1]:
            mem.set_ylabel("peak MB (worst seed)")
    fig.tight_layout()
    fig.savefig(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", action="append", choices=sorted(SIZES),
                    help="a family (again for more; default: all)")
    ap.add_argument("--sizes", help="comma-separated sizes (with one --family)")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    ap.add_argument("--no-cpsat", action="store_true", help="leave CP-SAT out")
    ap.add_argument("--plot", help="an SVG or PNG of time and memory against size")
    ap.add_argument("--save", help="the figures as JSON, to plot again with --load")
    ap.add_argument("--load", help="plot the figures saved by --save instead of measuring")
    args = ap.parse_args()
    kinds = args.family or sorted(SIZES)
    if args.load:
        saved = json.loads(Path(args.load).read_text())
        plot(saved["results"], saved["limit"], args.plot or "scale.svg")
        return
    results = {}
    cpsat = None if args.no_cpsat else CpsatWorker()
    for kind in kinds:
        sizes = args.sizes if args.sizes and len(kinds) == 1 else DEFAULT_SIZES[kind]
        print(f"\n{kind}: planted, seeds 1-{args.seeds}, `satdomino solve --json --timeout "
              f"{args.limit:g}`\n")
        print(f"| {SIZES[kind][0]} | median s | worst s | solved | peak MB |"
              + (" CP-SAT median s | worst s | solved |" if cpsat else ""))
        print("|---|---|---|---|---|" + ("---|---|---|" if cpsat else ""))
        results[kind] = measure(kind, [int(x) for x in sizes.split(",")], args.seeds,
                                args.limit, cpsat)
    if cpsat:
        cpsat.close()
    if args.save:
        Path(args.save).write_text(json.dumps({"limit": args.limit, "results": results}))
    if args.plot:
        plot(results, args.limit, args.plot)


if __name__ == "__main__":
    main()
