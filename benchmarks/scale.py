"""Every family at the sizes its generators make (not a test): ``python -m benchmarks.scale``.

For each family and size, planted puzzles of ``satdomino generate`` (seeds 1..S) are solved by
``satdomino solve --json --timeout T`` with no other option (``auto``), one whole process each:
its wall time to a verified answer and its peak memory (the child's maximum resident set, from
``wait4``). Prints a Markdown table, median and worst per size, and with ``--plot FILE`` draws
time and memory against size.

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

# the generator's size options per family: the size's name, and the options for size n
SIZES = {
    "pips": ("dominoes", lambda n: ["--dominoes", str(n)]),
    "dominofit": ("side", lambda n: ["--width", str(n), "--height", str(n)]),
    "dominosa": ("N", lambda n: ["--n", str(n)]),
    "doodlefit": ("cells", lambda n: ["--cells", str(n), "--blocks", str(max(2, n // 7))]),
}
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


def measure(kind: str, sizes: list[int], seeds: int, limit: float) -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            runs = []
            for seed in range(1, seeds + 1):
                path = str(Path(tmp) / f"{kind}-{n}-{seed}.json")
                made = subprocess.run([sys.executable, "-m", "satdomino", "generate", kind,
                                       *SIZES[kind][1](n), "--seed", str(seed), "-o", path],
                                      capture_output=True, text=True)
                if made.returncode:
                    sys.exit(f"generate {kind} at {n}: {made.stderr.strip()}")
                runs.append(run(["solve", path, "--json", "--timeout", f"{limit:g}"], limit))
            solved = [r for r in runs if r[2] == "sat"]
            times = [r[0] if r[2] == "sat" else float("inf") for r in runs]
            rows.append({"size": n, "median": statistics.median(times), "worst": max(times),
                         "solved": len(solved), "seeds": seeds,
                         "peak_mb": max(r[1] for r in runs)})
            r = rows[-1]
            print(f"| {n} | {_s(r['median'])} | {_s(r['worst'])} | {r['solved']}/{seeds} | "
                  f"{r['peak_mb']:.0f} |", flush=True)
    return rows


def _s(x: float) -> str:
    return "-" if x == float("inf") else f"{x:.2f}"


def plot(results: dict[str, list[dict]], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for kind, rows in results.items():
        xs = [r["size"] for r in rows]
        left.plot(xs, [r["median"] for r in rows], marker="o", label=kind)
        right.plot(xs, [r["peak_mb"] for r in rows], marker="o", label=kind)
    left.set(xlabel="size (dominoes, side, N or cells)", ylabel="median seconds (whole process)",
             yscale="log", title="time to a verified answer")
    right.set(xlabel="size (dominoes, side, N or cells)", ylabel="peak MB",
              title="peak memory (worst seed)")
    for ax in (left, right):
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", action="append", choices=sorted(SIZES),
                    help="a family (again for more; default: all)")
    ap.add_argument("--sizes", help="comma-separated sizes (with one --family)")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per solve")
    ap.add_argument("--plot", help="an SVG or PNG of time and memory against size")
    args = ap.parse_args()
    kinds = args.family or sorted(SIZES)
    results = {}
    for kind in kinds:
        sizes = args.sizes if args.sizes and len(kinds) == 1 else DEFAULT_SIZES[kind]
        print(f"\n{kind}: planted, seeds 1-{args.seeds}, `satdomino solve --json --timeout "
              f"{args.limit:g}`\n")
        print(f"| {SIZES[kind][0]} | median s | worst s | solved | peak MB |")
        print("|---|---|---|---|---|")
        results[kind] = measure(kind, [int(x) for x in sizes.split(",")], args.seeds,
                                args.limit)
    if args.plot:
        plot(results, args.plot)


if __name__ == "__main__":
    main()
