"""What a user gets with no options (``auto``), against the default before it and CP-SAT (not a
test): ``python -m benchmarks.auto_default [--part dominosa,small,families]
[--repeats 3]``.

Every satdomino time is a whole ``satdomino solve FILE`` process (start-up, reading, building,
encoding, solving, verifying, printing), run with PATH holding only this Python's folder, so no
Debian solver binary (cryptominisat5, cadical, kissat) can be found. The sides of each
comparison take turns, and each figure is the median of ``--repeats`` runs.

- ``dominosa``: planted boards N = 60, 70 (seeds 1-3) and N = 100 (seeds 1-2), no options,
  against OR-Tools CP-SAT with 2 workers on the placement model, timed in its own process from
  the board to its answer (``cpsat_worker``; OR-Tools from ``pip install '.[bench]'``).
- ``small``: the 100 janko boards of the shared corpus solved and proved unique in one call, and
  the NYT Pips corpus with ``--unique``: auto against ``--backend cadical195`` (the default
  before auto: CaDiCaL with the plain encodings).
- ``families``: planted Pips, Domino Fit and Doodle Fit boards, auto against ``--backend
  cadical195``.
- ``doodlefit``: planted Doodle Fit boards of 200, 225 and 250 cells (a block per 7 cells, as
  ``benchmarks.scale`` makes them; seeds 1 to ``--seeds``), each solved once with
  ``--timeout`` (default here 10 s at 200 cells, 30 s above) by auto and by the rule before
  it (two orders of ``dlx`` on the placement model): the boards each solved, the median time
  over the boards both solved, and the boards only one solved.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.cpsat_worker import CpsatWorker
from satdomino.generators import planted
from satdomino.puzzles import dominosa as D
from satdomino.puzzles import family

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
CLI = [sys.executable, "-c", "from satdomino.cli import main; raise SystemExit(main())"]
# only this Python's folder: no solver binary from Debian's packages is found
ENV = {**os.environ, "PATH": str(Path(sys.executable).parent)}


def cli_seconds(args: list[str], limit: float, ok: tuple[int, ...] = (0, 1)) -> tuple[float, int]:
    """(seconds, exit status) of one ``satdomino`` process; an exit not ``ok`` raises."""
    t0 = time.perf_counter()
    try:
        done = subprocess.run([*CLI, *args], env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=limit)
    except subprocess.TimeoutExpired:
        return float("inf"), -1
    seconds = time.perf_counter() - t0
    if done.returncode not in ok:
        raise RuntimeError(f"satdomino {' '.join(args)}: exit {done.returncode}: "
                           f"{done.stderr.decode()[-300:]}")
    return seconds, done.returncode


def paired(sides: dict[str, list[str]], repeats: int, limit: float) -> dict[str, float]:
    """Median seconds of each side's command, the sides taking turns."""
    times: dict[str, list[float]] = {name: [] for name in sides}
    names = list(sides)
    for r in range(repeats):
        for name in names[r % len(names):] + names[:r % len(names)]:
            times[name].append(cli_seconds(sides[name], limit)[0])
    return {name: statistics.median(ts) for name, ts in times.items()}


def dominosa(repeats: int, limit: float, folder: Path) -> None:
    boards = [(n, s) for n in (60, 70) for s in (1, 2, 3)] + [(100, 1), (100, 2)]
    worker = CpsatWorker()
    worker.solve(D.planted(8, 0)[0], 2, limit)  # its imports, untimed
    print("Dominosa, planted boards: `satdomino solve board.txt` (no options, whole process) "
          "against CP-SAT with 2 workers (board to answer), medians of", repeats)
    print("| N | seed | satdomino | CP-SAT | ratio |")
    print("|---|---|---|---|---|")
    ours_total = cp_total = 0.0
    worst = 0.0
    for n, seed in boards:
        board = D.planted(n, seed)[0]
        path = folder / f"dominosa-{n}-{seed}.txt"
        path.write_text(board.game_id() + "\n")
        ours, cp = [], []
        for r in range(repeats):
            for side in (("us", "cp") if r % 2 == 0 else ("cp", "us")):
                if side == "us":
                    ours.append(cli_seconds(["solve", str(path)], limit)[0])
                else:
                    status, seconds = worker.solve(board, 2, limit)
                    cp.append(seconds if status == "sat" else float("inf"))
        a, b = statistics.median(ours), statistics.median(cp)
        ours_total, cp_total, worst = ours_total + a, cp_total + b, max(worst, a)
        print(f"| {n} | {seed} | {a:.2f} | {b:.2f} | {a / b:.2f}x |", flush=True)
    worker.close()
    print(f"| total | | {ours_total:.2f} | {cp_total:.2f} | {ours_total / cp_total:.2f}x |")
    print(f"slowest board: {worst:.2f} s\n")


def small(repeats: int, limit: float) -> None:
    print("Small work, one call each, auto against the default before it (cadical195), "
          f"medians of {repeats}:")
    print("| corpus | auto | cadical195 | ratio |")
    print("|---|---|---|---|")
    for label, target in (("janko-dev, 100 Dominosa boards, --unique",
                           CORPUS / "dominosa" / "janko-dev.jsonl"),
                          ("NYT Pips, 182 puzzles, --unique", CORPUS / "pips" / "nyt")):
        if not target.exists():
            print(f"| {label} | (corpus not here) | | |")
            continue
        med = paired({"auto": ["solve", str(target), "--unique"],
                      "cadical195": ["solve", str(target), "--unique", "--backend",
                                     "cadical195"]}, repeats, limit)
        print(f"| {label} | {med['auto']:.2f} | {med['cadical195']:.2f} | "
              f"{med['auto'] / med['cadical195']:.2f}x |", flush=True)
    print()


FAMILIES = [("pips", {"dominoes": 12}, 3), ("pips", {"dominoes": 30}, 3),
            ("pips", {"dominoes": 60}, 3),
            ("dominofit", {"width": 10, "height": 10}, 3),
            ("dominofit", {"width": 20, "height": 20}, 3),
            ("dominofit", {"width": 30, "height": 30}, 6),
            ("doodlefit", {"cells": 30, "blocks": 6}, 3),
            ("doodlefit", {"cells": 60, "blocks": 12}, 3)]


def families(repeats: int, limit: float, folder: Path) -> None:
    print(f"Planted puzzles, auto against cadical195 (sums over the seeds of medians of "
          f"{repeats}, whole processes):")
    print("| family | parameters | seeds | auto | cadical195 | ratio |")
    print("|---|---|---|---|---|---|")
    for kind, params, seeds in FAMILIES:
        sums = {"auto": 0.0, "cadical195": 0.0}
        for seed in range(1, seeds + 1):
            path = folder / f"{kind}-{'-'.join(map(str, params.values()))}-{seed}.txt"
            path.write_text(family(kind).write(planted(family(kind), params, seed)))
            med = paired({"auto": ["solve", str(path), "--kind", kind],
                          "cadical195": ["solve", str(path), "--kind", kind, "--backend",
                                         "cadical195"]}, repeats, limit)
            for k in sums:
                sums[k] += med[k]
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        print(f"| {kind} | {shown} | {seeds} | {sums['auto']:.2f} | {sums['cadical195']:.2f} | "
              f"{sums['auto'] / sums['cadical195']:.2f}x |", flush=True)
    print()


BEFORE = ["--model", "placement", "--backend", "portfolio:dlx+dlx:seed=1@0.5"]


def answered(args: list[str], limit: float) -> float | None:
    """Seconds of one ``satdomino solve --json`` process to a verified answer, or None (no
    answer within ``limit``: exit 3)."""
    seconds, code = cli_seconds(["solve", "--json", "--timeout", str(limit), *args], limit + 30,
                                ok=(0, 3))
    if code == -1:
        raise RuntimeError(f"satdomino solve {' '.join(args)}: no stop 30 s past its limit")
    return seconds if code == 0 else None


def doodlefit(seeds: int, limit: float | None, folder: Path) -> None:
    print(f"Planted Doodle Fit boards (a block per 7 cells, seeds 1-{seeds}), whole "
          "`satdomino solve --json --timeout T` processes: auto against the rule before it "
          f"({' '.join(BEFORE)})")
    print("| cells | T (s) | auto solved | before solved | median s, both solved (auto / "
          "before) | only auto | only before |")
    print("|---|---|---|---|---|---|---|")
    for cells in (200, 225, 250):
        t = limit or (10.0 if cells == 200 else 30.0)
        got: dict[str, dict[int, float]] = {"auto": {}, "before": {}}
        for seed in range(1, seeds + 1):
            path = folder / f"doodlefit-{cells}-{seed}.txt"
            params = {"cells": cells, "blocks": cells // 7}
            path.write_text(family("doodlefit").write(planted(family("doodlefit"), params, seed)))
            sides = {"auto": [str(path)], "before": [str(path), *BEFORE]}
            for name in (("auto", "before") if seed % 2 else ("before", "auto")):
                seconds = answered(sides[name], t)
                if seconds is not None:
                    got[name][seed] = seconds
        both = sorted(set(got["auto"]) & set(got["before"]))
        med = (f"{statistics.median(got['auto'][s] for s in both):.2f} / "
               f"{statistics.median(got['before'][s] for s in both):.2f}" if both else "-")
        only = [", ".join(map(str, sorted(set(got[a]) - set(got[b])))) or "-"
                for a, b in (("auto", "before"), ("before", "auto"))]
        print(f"| {cells} | {t:g} | {len(got['auto'])} | {len(got['before'])} | {med} | "
              f"{only[0]} | {only[1]} |", flush=True)
    print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", default="dominosa,small,families")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds a run (default 120; doodlefit: 10 at 200 cells, 30 above)")
    ap.add_argument("--seeds", type=int, default=12, help="doodlefit: boards a size")
    args = ap.parse_args()
    limit = args.timeout or 120.0
    parts = args.part.split(",")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        if "dominosa" in parts:
            dominosa(args.repeats, limit, folder)
        if "small" in parts:
            small(args.repeats, limit)
        if "families" in parts:
            families(args.repeats, limit, folder)
        if "doodlefit" in parts:
            doodlefit(args.seeds, args.timeout, folder)


if __name__ == "__main__":
    main()
