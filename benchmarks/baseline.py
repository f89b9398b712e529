"""This checkout against an earlier revision, on the workloads of ``auto_default``,
``counting`` and ``pips_corpus`` (not a test): ``python -m benchmarks.baseline REV
[--repeats 5] [--part dominosa,small,families,counting]``.

Every figure is a whole ``satdomino`` process (start-up, reading, building, encoding, solving,
verifying, printing), the two sides taking turns, with bytecode caching on (as an installed copy
has it; the first runs write the caches and are not counted), PATH holding only this Python's
folder (no Debian solver binary). REV is checked out in a temporary folder and its C parts
built there. Each row: the median of ``--repeats`` runs of each side and their ratio (this
checkout / REV); a last row sums each part.
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

from satdomino.generators import planted
from satdomino.puzzles import family

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
CLI = [sys.executable, "-m", "satdomino.cli"]


def workloads(folder: Path, parts: list[str]) -> dict[str, list[tuple[str, list[str]]]]:
    """(label, arguments) of each part's runs; generated puzzles are written to ``folder``."""
    def board(kind: str, params: dict, seed: int) -> str:
        fam = family(kind)
        path = folder / f"{kind}-{'-'.join(map(str, params.values()))}-{seed}.txt"
        path.write_text(fam.write(planted(fam, params, seed)))
        return str(path)

    out: dict[str, list[tuple[str, list[str]]]] = {}
    if "dominosa" in parts:  # auto_default: large planted boards
        out["dominosa"] = [(f"Dominosa N = {n}, seed {s}", ["solve", board("dominosa",
                            {"n": n}, s)]) for n, s in [(60, 1), (60, 2), (60, 3), (70, 1),
                                                         (70, 2), (70, 3), (100, 1), (100, 2)]]
    if "small" in parts:  # auto_default and pips_corpus: the corpora in one call each
        out["small"] = [(label, args) for label, args in [
            ("janko-dev, 100 boards, --unique",
             ["solve", str(CORPUS / "dominosa" / "janko-dev.jsonl"), "--unique"]),
            ("NYT Pips, --unique", ["solve", str(CORPUS / "pips" / "nyt"), "--unique"]),
            ("NYT Pips, --unique --count",
             ["solve", str(CORPUS / "pips" / "nyt"), "--unique", "--count"])]
            if Path(args[1]).exists()]
    if "families" in parts:  # auto_default: planted puzzles of the other families
        out["families"] = [
            (f"{kind} {' '.join(f'{k}={v}' for k, v in params.items())}, seed {s}",
             ["solve", board(kind, params, s), "--kind", kind])
            for kind, params in [("pips", {"dominoes": 30}), ("dominofit", {"width": 20,
                                 "height": 20}), ("dominofit", {"width": 30, "height": 30}),
                                 ("doodlefit", {"cells": 60, "blocks": 12})]
            for s in (1, 2, 3)]
    if "counting" in parts:  # counting: the race on each family
        pentominoes = str(ROOT / "examples" / "doodlefit" / "pentominoes-6x10.txt")
        out["counting"] = [("pentominoes 6x10, --count --rotate --reflect",
                            ["solve", "--count", "--rotate", "--reflect", pentominoes])]
        out["counting"] += [(f"Dominosa N = {n}, seed {s}, --count",
                             ["solve", "--count", board("dominosa", {"n": n}, s)])
                            for n in (20, 30, 40) for s in (1, 2)]
        out["counting"] += [(f"Domino Fit 20x20, seed {s}, --count --timeout 10",
                             ["solve", "--count", "--timeout", "10",
                              board("dominofit", {"width": 20, "height": 20}, s)])
                            for s in (1, 2, 3)]
    return out


def seconds(args: list[str], root: Path, limit: float) -> float:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PATH=str(Path(sys.executable).parent), PYTHONPATH=str(root))
    t0 = time.perf_counter()
    try:
        done = subprocess.run([*CLI, *args], env=env, cwd=root, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, timeout=limit)
    except subprocess.TimeoutExpired:
        return float("inf")
    if done.returncode not in (0, 1, 3):
        raise RuntimeError(f"{root}: satdomino {' '.join(args)}: exit {done.returncode}: "
                           f"{done.stderr.decode()[-300:]}")
    return time.perf_counter() - t0


def compare(old: Path, rev: str, parts: dict[str, list[tuple[str, list[str]]]],
            repeats: int, limit: float) -> None:
    print(f"This checkout against {rev}: medians of {repeats} whole processes, taking turns")
    for part, runs in parts.items():
        print(f"\n| {part} | this | {rev} | ratio |\n|---|---|---|---|")
        total = [0.0, 0.0]
        for label, args in runs:
            for side in (ROOT, old):  # the first runs write the bytecode caches
                seconds(args, side, limit)
            times: list[list[float]] = [[], []]
            for r in range(repeats):
                order = (0, 1) if r % 2 == 0 else (1, 0)
                for i in order:
                    times[i].append(seconds(args, (ROOT, old)[i], limit))
            a, b = (statistics.median(t) for t in times)
            total = [total[0] + a, total[1] + b]
            print(f"| {label} | {a:.3f} | {b:.3f} | {a / b:.2f} |", flush=True)
        print(f"| total | {total[0]:.2f} | {total[1]:.2f} | {total[0] / total[1]:.3f} |",
              flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="the git revision to compare with")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--part", default="dominosa,small,families,counting")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(old),
                        args.rev], check=True, capture_output=True)
        try:
            subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"],
                           cwd=old, check=True, capture_output=True)
            compare(old, args.rev, workloads(Path(tmp), args.part.split(",")), args.repeats,
                    args.timeout)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                           capture_output=True)


if __name__ == "__main__":
    main()
