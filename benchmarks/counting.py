"""Counting benchmark (not a test): ``python -m benchmarks.counting [--repeats 3]``.

1. The 12 pentominoes in the 3x20, 4x15, 5x12 and 6x10 boxes (``--rotate --reflect``):
   ``satdomino solve --count``, whole process, against the dancing-links counter of the
   ``xcover`` package (benchmark-only: ``pip install xcover``), warm (its numba compilation
   done before timing), taking turns.
2. Planted Dominosa N = 20 to 70 (seeds 1-3; ``--sizes``): ``count`` (build, race, answer)
   against Ganak (``pyganak``) on a plain pairwise encoding of the same board, in a child
   process stopped at ``--ganak-limit`` seconds, taking turns; medians per board, then totals.
3. Planted Domino Fit 20x20 (``blacks`` 0.1 and 0.05 seeds 1-6, 0.07 seeds 1-22): ``count``
   within ``--limit`` seconds: which finish, how soon, by which method.
   ``--part estimates``: ``count`` with ``approx`` (the family's estimate in the race) on
   20x20 boards whose exact count is known (counted first, in process) and on 30x30 boards
   no exact method counts. ``--part nocover``: the same 20x20 boards without
   full cover, the race against Ganak alone. ``--part layers``: the exact counter's layers
   alone (``_fitcount.count`` held to one state, so that it stops right after them) with the
   estimate's budget, in a child process each (seconds, peak memory), medians.
   ``--part processes``: whole ``satdomino solve --count approx --timeout LIMIT --json``
   processes on 20x20 and 30x30 planted boards (30x30: 9-15% black), seconds to exit.
   ``--part oblong``: planted Domino Fit boards wider than tall (seeds 1-3), the exact
   counter swept by columns (its default there) against by rows, each in a child process
   stopped at ``--limit`` seconds.
4. ``--baseline REV`` (needs ../shared/corpus): the NYT Pips corpus, ``satdomino solve --unique
   --count``, whole process, this checkout against git revision REV (checked out and built in a
   temporary folder), taking turns.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import satdomino
from satdomino.analysis.count import count
from satdomino.backends.counters import ganak_count
from satdomino.encode import Encodings, lower
from satdomino.errors import SatDominoError
from satdomino.puzzles import dominofit, dominosa, doodlefit, family

ROOT = Path(__file__).resolve().parents[1]
PENTOMINOES = ROOT / "examples" / "doodlefit" / "pentominoes-6x10.txt"
T = TypeVar("T")
PIPS = ROOT.parent / "shared" / "corpus" / "pips" / "nyt"


def _wall(cmd: list[str], env: dict | None = None, cwd: Path | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=env, cwd=cwd)
    return time.perf_counter() - t0


# the boxes the 12 pentominoes fill, with their packings (4 x the counts up to symmetry)
BOXES = ((3, 20, 8), (4, 15, 1472), (5, 12, 4040), (6, 10, 9356))


def pentominoes(repeats: int) -> None:
    try:
        import numpy as np
        import xcover
    except ImportError:
        print("xcover not installed: the pentomino comparison is skipped")
        return
    [(_, p)] = doodlefit.parse(PENTOMINOES.read_text())
    print("| box | packings | satdomino solve --count (whole process) | Puzzle.count() in "
          "process | xcover warm | ratios |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for h, w, packings in BOXES:
            box = dataclasses.replace(p, shape=frozenset((r, c) for r in range(h)
                                                         for c in range(w)))
            path = Path(tmp) / f"box-{h}x{w}.txt"
            path.write_text(doodlefit.format_text(box))
            box = dataclasses.replace(box, rotate=True, reflect=True)
            order = sorted(box.shape)
            index = {u: i for i, u in enumerate(order)}
            rows = []
            for b in range(len(box.blocks)):
                for cells in box.placements(b):
                    row = np.zeros(len(order) + len(box.blocks), dtype=bool)
                    row[[index[u] for u in cells]] = True
                    row[len(order) + b] = True
                    rows.append(row)
            matrix = np.array(rows)
            assert sum(1 for _ in xcover.covers_bool(matrix)) == packings  # compiles
            cmd = [sys.executable, "-m", "satdomino.cli", "solve", "--count", "--rotate",
                   "--reflect", str(path)]
            ours, here, theirs = [], [], []
            for _ in range(repeats):
                ours.append(_wall(cmd))
                here.append(_count_in_process(path.read_text(), packings))
                t0 = time.perf_counter()
                assert sum(1 for _ in xcover.covers_bool(matrix)) == packings
                theirs.append(time.perf_counter() - t0)
            a, c, b = (statistics.median(x) for x in (ours, here, theirs))
            print(f"| {h}x{w} | {packings:,} | {a:.2f} | {c:.3f} | {b:.3f} | {a / b:.2f}, "
                  f"{c / b:.2f} |", flush=True)
    print(f"(seconds, medians of {repeats})")


def _count_in_process(text: str, packings: int) -> float:
    """Seconds to count the pentominoes from the text as a library user does (parse, model,
    race), turned and mirrored."""
    t0 = time.perf_counter()
    [puzzle] = satdomino.parse(text)
    turned = dataclasses.replace(puzzle.data, rotate=True, reflect=True)
    assert dataclasses.replace(puzzle, data=turned).count().value == packings
    return time.perf_counter() - t0


def _timed_ganak(clauses: list[list[int]], projection: list[int], num_vars: int
                 ) -> tuple[int, float]:
    t0 = time.perf_counter()
    return ganak_count(clauses, projection, num_vars), time.perf_counter() - t0


def _in_child(limit: float, fn: Callable[..., T], *args: Any) -> T | None:
    """``fn(*args)`` in a forked child process, or None when it has not answered within
    ``limit`` seconds (the child is then stopped)."""
    with multiprocessing.get_context("fork").Pool(1) as pool:
        try:
            return pool.apply_async(fn, args).get(limit)
        except multiprocessing.TimeoutError:
            return None


def _ganak(board: dominosa.Dominosa, limit: float) -> tuple[int | None, float]:
    """Ganak on a plain pairwise encoding of the board (building the CNF included), timed in
    a child process that is stopped at ``limit`` seconds: (count or None, seconds)."""
    t0 = time.perf_counter()
    m = dominosa.build_placement(board)
    cnf = lower(m, Encodings(amo="pairwise"))
    built = time.perf_counter() - t0
    done = _in_child(limit, _timed_ganak, cnf.clauses, m.projection, cnf.num_vars)
    if done is None:
        return None, limit
    value, seconds = done
    return value, built + seconds


def dominosa_boards(repeats: int, sizes: list[int], limit: float) -> None:
    fam = family("dominosa")
    print(f"\n| N | seed | count | satdomino count (s) | method | Ganak, pairwise (s, limit "
          f"{limit:g}) | ratio |")
    print("|---|---|---|---|---|---|---|")
    total_ours = total_theirs = 0.0
    for n in sizes:
        for seed in (1, 2, 3):
            board, _ = dominosa.planted(n, seed)
            ours, theirs, method, value = [], [], "", 0
            for _ in range(repeats):
                t0 = time.perf_counter()
                c = count(board, fam)
                ours.append(time.perf_counter() - t0)
                g, seconds = _ganak(board, limit)
                theirs.append(seconds)
                assert c.complete and g in (None, c.value), (n, seed, c, g)
                method, value = c.method, c.value
                if g is None:  # Ganak's time is the limit: once is enough
                    break
            a, b = statistics.median(ours), statistics.median(theirs)
            total_ours, total_theirs = total_ours + a, total_theirs + b
            shown = f"{b:.3f}" if g is not None else f"over {limit:g}"
            print(f"| {n} | {seed} | {value:,} | {a:.3f} | {method} | {shown} | {a / b:.3f} |",
                  flush=True)
    print(f"| all | | | {total_ours:.2f} | | at least {total_theirs:.2f} | "
          f"{total_ours / total_theirs:.3f} |")


def domino_fit(limit: float) -> None:
    fam = family("dominofit")
    print(f"\n| Domino Fit 20x20 | seed | black | count | method | seconds (limit {limit:g}) |")
    print("|---|---|---|---|---|---|")
    # the generator's default (12.5-16% black at the end), then sparser boards (6.5-12%,
    # 6.5-9%): seeds 7-22 of blacks=0.07 too, most of them 8-12% black
    for blacks, seeds in ((0.1, range(1, 7)), (0.07, range(1, 23)), (0.05, range(1, 7))):
        for seed in seeds:
            board, _ = dominofit.planted(20, 20, seed, blacks=blacks)
            c = count(board, fam, timeout=limit)
            shown = f"{c.value:,}" if c.complete else f"{c.value:,}+ ({c.reason})"
            print(f"| blacks={blacks} | {seed} | {len(board.blacks) / 400:.1%} | {shown} | "
                  f"{c.method} | {c.seconds:.1f} |", flush=True)


def domino_fit_no_cover(limit: float) -> None:
    """Planted 20x20 boards read without full cover: the race (where the family's counter
    answers, linear programming has proved that every solution covers every square) against
    Ganak alone, each within ``limit`` seconds."""
    fam = family("dominofit")
    print(f"\n| --no-cover 20x20 | seed | proved (s) | count | method | seconds | Ganak alone "
          f"(limit {limit:g}) |")
    print("|---|---|---|---|---|---|---|")
    for blacks in (0.1, 0.07):
        for seed in range(1, 7):
            board, _ = dominofit.planted(20, 20, seed, blacks=blacks)
            board = dataclasses.replace(board, cover=False)
            t0 = time.perf_counter()
            proved = dominofit.covers_every_square(board)
            seconds = time.perf_counter() - t0
            c = count(board, fam, timeout=limit)
            g = count(board, fam, timeout=limit, methods=("ganak",))
            shown = f"{c.value:,}" if c.complete else f"{c.value:,}+ ({c.reason})"
            alone = f"{g.seconds:.1f}" if g.complete else f"over {limit:g}"
            print(f"| blacks={blacks} | {seed} | {'yes' if proved else 'no'} ({seconds:.2f}) | "
                  f"{shown} | {c.method} | {c.seconds:.1f} | {alone} |", flush=True)


def _timed_sweep(board: dominofit.DominoFit, lines: dominofit.Lines) -> tuple[int, float]:
    t0 = time.perf_counter()
    return dominofit.count_placements(board, lines=lines), time.perf_counter() - t0


def domino_fit_oblong(limit: float) -> None:
    """Planted boards wider than tall: the exact counter by columns (the default) and by rows,
    each in a child process stopped at ``limit`` seconds (by rows, the masks take at most 64
    squares)."""
    print(f"\n| Domino Fit | seed | count | by columns (s) | by rows (s, limit {limit:g}) |")
    print("|---|---|---|---|---|")
    for width, height in ((24, 18), (30, 12), (40, 10), (50, 12), (60, 12), (100, 8)):
        for seed in (1, 2, 3):
            board, _ = dominofit.planted(width, height, seed)
            shown = []
            for lines in ("columns", "rows"):
                if lines == "rows" and width > 64:
                    shown.append(("", "refused"))
                    continue
                try:
                    done = _in_child(limit, _timed_sweep, board, lines)
                except SatDominoError as e:
                    shown.append(("", str(e)))
                    continue
                shown.append((f"{done[0]:,}", f"{done[1]:.3f}") if done else
                             ("", f"over {limit:g}"))
            value = shown[0][0] or shown[1][0]
            print(f"| {width}x{height} | {seed} | {value} | {shown[0][1]} | {shown[1][1]} |",
                  flush=True)


def domino_fit_estimates(limit: float) -> None:
    """``--count approx`` on Domino Fit boards: the estimate against the exact count where one
    is known (counted here, in process), and on boards no exact method counts."""
    fam = family("dominofit")
    print(f"\n| board | exact | count approx (limit {limit:g}) | method | error | "
          "approx / exact | seconds |")
    print("|---|---|---|---|---|---|---|")
    known = [(20, 0.07, 2), (20, 0.07, 3), (20, 0.05, 1), (20, 0.07, 19), (20, 0.05, 2),
             (20, 0.07, 17)]
    for size, blacks, seed in known + [(30, 0.1, 1), (30, 0.1, 2), (30, 0.1, 3)]:
        board, _ = dominofit.planted(size, size, seed, blacks=blacks)
        exact = dominofit.count_placements(board) if (size, blacks, seed) in known else None
        c = count(board, fam, timeout=limit, approx=True)
        shown = f"{exact:,}" if exact else "not counted"
        if not c.complete:  # no answer in time: no figure
            print(f"| {size}x{size} blacks={blacks} seed {seed} | {shown} | none in "
                  f"{limit:g} s | | | | {c.seconds:.1f} |", flush=True)
            continue
        error = f"{c.error:.1%}" if c.error is not None else "-"
        ratio = f"{c.value / exact:.3f}" if exact else "-"
        print(f"| {size}x{size} blacks={blacks} seed {seed} | {shown} | {c.value:,} | "
              f"{c.method} | {error} | {ratio} | {c.seconds:.1f} |", flush=True)


def domino_fit_estimator_runs() -> None:
    """The estimator's runs against known counts: a fixed number of runs (seeds 1, 2, ...)
    on one build of the layers, both cores, in process."""
    print("\n| board | states kept | runs | seconds a run | a run's deviation | mean / count | "
          "standard error |")
    print("|---|---|---|---|---|---|---|")
    for blacks, seed, budget, runs in [(0.07, 2, 100_000, 60), (0.07, 3, 100_000, 30),
                                       (0.1, 5, 3_000, 100)]:
        board, _ = dominofit.planted(20, 20, seed, blacks=blacks)
        exact = dominofit.count_placements(board)
        args = dominofit._sweep_args(board, 0, dominofit.ESTIMATE_LAYER_BYTES)
        t = time.perf_counter()
        values, _ = dominofit._fitestimate.count(*args, budget, 1, runs, float("inf"))
        seconds = (time.perf_counter() - t) / runs
        ratios = [v / exact for v in values]
        deviation = statistics.stdev(ratios)
        print(f"| 20x20 blacks={blacks} seed {seed} | {budget:,} | {runs} | {seconds:.2f} | "
              f"{deviation:.1%} | {statistics.fmean(ratios):.3f} | "
              f"{deviation / runs ** 0.5:.1%} |", flush=True)


def _layers_alone(size: int, blacks: float, seed: int) -> None:
    board, _ = dominofit.planted(size, size, seed, blacks=blacks)
    args = dominofit._sweep_args(board, 0, dominofit.ESTIMATE_LAYER_BYTES)
    args[5] = 1  # one state: the sweep gives up as soon as the layers are built
    dominofit._fitcount.count(*args)


def domino_fit_layers(repeats: int) -> None:
    """The layers of the Domino Fit counter alone, on 20x20 and 30x30 planted boards."""
    print(f"\n| board | layers: seconds (median of {repeats}) | peak memory |")
    print("|---|---|---|")
    boards = [(20, 0.07, 17), (20, 0.07, 19)] + [(30, 0.1, seed) for seed in range(1, 5)]
    for size, blacks, seed in boards:
        runs = []
        for _ in range(repeats):
            t = time.perf_counter()
            child = multiprocessing.get_context("fork").Process(
                target=_layers_alone, args=(size, blacks, seed))
            child.start()
            _, status, usage = os.wait4(child.pid, 0)
            if status:
                raise SystemExit(f"the layers of {size}x{size} seed {seed}: the child "
                                 f"ended with status {status}")
            runs.append((time.perf_counter() - t, usage.ru_maxrss / 2**20))
        seconds = statistics.median(r[0] for r in runs)
        peak = max(r[1] for r in runs)
        print(f"| {size}x{size} blacks={blacks} seed {seed} | {seconds:.1f} | {peak:.2f} GB |",
              flush=True)


def domino_fit_approx_processes(limit: float) -> None:
    """Whole ``--count approx`` processes: what a user waits for."""
    print(f"\n| board | black | answer | method | error | seconds (limit {limit:g}) |")
    print("|---|---|---|---|---|---|")
    boards = ([(20, 0.07, 17), (20, 0.07, 19)] + [(30, 0.1, s) for s in range(1, 8)]
              + [(30, 0.08, s) for s in (1, 2, 3)] + [(30, 0.12, s) for s in (1, 2)])
    with tempfile.TemporaryDirectory() as tmp:
        for size, blacks, seed in boards:
            board, _ = dominofit.planted(size, size, seed, blacks=blacks)
            path = Path(tmp) / "board.json"
            path.write_text(json.dumps(dominofit.to_json(board)))
            t = time.perf_counter()
            out = subprocess.run(
                [sys.executable, "-m", "satdomino", "solve", str(path), "--count", "approx",
                 "--timeout", f"{limit:g}", "--json"], capture_output=True).stdout
            seconds = time.perf_counter() - t
            d = json.loads(out)
            error = d.get("count_error")
            answer = (f"{d['count']:.3g}" if error else f"{d['count']:,}") if d.get(
                "count_complete") else "unknown"
            black = len(board.blacks) / size ** 2
            print(f"| {size}x{size} blacks={blacks} seed {seed} | {black:.1%} | {answer} | "
                  f"{d.get('count_method')} | "
                  f"{'-' if error is None else f'{error:.1%}'} | {seconds:.1f} |", flush=True)


def pips_corpus(baseline: str, repeats: int) -> None:
    if not PIPS.is_dir():
        print(f"\n{PIPS} is absent: the Pips comparison is skipped")
        return
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        baseline], check=True, capture_output=True)
        try:
            subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                           cwd=old, check=True, capture_output=True)
            cmd = [sys.executable, "-m", "satdomino.cli", "solve", "--unique", "--count",
                   str(PIPS)]
            env_old = {**os.environ, "PYTHONPATH": str(old)}
            env_new = {**os.environ, "PYTHONPATH": str(ROOT)}
            ours, theirs = [], []
            for _ in range(repeats):
                ours.append(_wall(cmd, env_new, ROOT))
                theirs.append(_wall(cmd, env_old, old))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           capture_output=True)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"\nNYT Pips corpus, solve --unique --count, whole process: {a:.2f} s against "
          f"{b:.2f} s at {baseline}; ratio {a / b:.2f} (medians of {repeats})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--limit", type=float, default=10.0, help="Domino Fit: seconds a board")
    ap.add_argument("--baseline", metavar="REV", help="compare the Pips corpus run with REV")
    ap.add_argument("--sizes", default="20,25,30,40,50,60,70", help="Dominosa: the Ns")
    ap.add_argument("--ganak-limit", type=float, default=60.0,
                    help="Dominosa: seconds Ganak may take on a board")
    ap.add_argument("--part", default="pentominoes,dominosa,dominofit",
                    help="which parts to run (comma-separated): pentominoes, dominosa, "
                    "dominofit, nocover (Domino Fit without full cover), estimates "
                    "(Domino Fit's --count approx), processes (the same, whole processes), "
                    "layers (its counter's layers alone), oblong (Domino Fit wider than tall, "
                    "by columns and by rows)")
    args = ap.parse_args()
    parts = args.part.split(",")
    if "pentominoes" in parts:
        pentominoes(args.repeats)
    if "dominosa" in parts:
        dominosa_boards(args.repeats, [int(n) for n in args.sizes.split(",")],
                        args.ganak_limit)
    if "dominofit" in parts:
        domino_fit(args.limit)
    if "nocover" in parts:
        domino_fit_no_cover(args.limit)
    if "estimates" in parts:
        domino_fit_estimates(args.limit)
        domino_fit_estimator_runs()
    if "processes" in parts:
        domino_fit_approx_processes(args.limit)
    if "layers" in parts:
        domino_fit_layers(args.repeats)
    if "oblong" in parts:
        domino_fit_oblong(args.limit)
    if args.baseline:
        pips_corpus(args.baseline, args.repeats)


if __name__ == "__main__":
    main()
