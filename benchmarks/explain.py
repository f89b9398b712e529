"""Explanation benchmark (not a test): ``python -m benchmarks.explain`` (needs ../shared/corpus).

1. janko.at Dominosa boards (``dominosa/janko-dev.jsonl``, each unique): one ``satdomino
   explain --json`` call for all of them, whole process; how many are explained to the end,
   whether every stated placement is a domino of the published solution, the grades.
2. The anchor boards (``dominosa/anchors.tsv``): our grade beside the grade Tatham's solver
   gives, as a table.
3. The NYT Pips puzzles that are unique: ``explain`` per puzzle, median and worst seconds, how
   many are explained to the end.
"""

from __future__ import annotations

import collections
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

import satdomino

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def janko() -> None:
    path = CORPUS / "dominosa" / "janko-dev.jsonl"
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "satdomino.cli", "explain", "--json", str(path)],
                       capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    rows = [json.loads(line) for line in p.stdout.splitlines()]
    truth = {}
    for line in path.read_text().splitlines():
        board = json.loads(line)
        ids = [row.split() for row in board["solution"].splitlines()[1:]]
        cells: dict[str, list] = collections.defaultdict(list)
        for r, row in enumerate(ids):
            for c, v in enumerate(row):
                cells[v].append([r, c])
        truth[board["name"]] = {tuple(sorted(map(tuple, pair))) for pair in cells.values()}
    wrong = sum(1 for row in rows for s in row["steps"] for pl in s["placements"]
                if tuple(sorted(map(tuple, pl["cells"]))) not in truth[row["puzzle"]])
    grades = collections.Counter(_band(row["grade"]) for row in rows)
    print(f"janko-dev: {sum(r['complete'] for r in rows)} of {len(rows)} explained to the end "
          f"in {seconds:.1f} s (one process); stated placements not in the published solution: "
          f"{wrong}; grades: {dict(sorted(grades.items()))}")


def _band(grade: str) -> str:
    if grade.startswith("solver-"):
        k = int(grade.split("-")[1].split("+")[0])
        return "solver, 3-9" if k < 10 else "solver, 10-19" if k < 20 else "solver, 20+"
    return grade


def anchors() -> None:
    lines = (CORPUS / "dominosa" / "anchors.tsv").read_text().splitlines()[1:]
    table: dict[tuple[str, str], int] = collections.Counter()
    for line in lines:
        name, game_id, solutions, tatham, _finishes, _ = line.split("\t")
        if solutions != "1":
            continue
        out = satdomino.read(game_id)[0].explain()
        table[(tatham, _band(out.grade))] += 1
    print("\n| Tatham's grade | ours | boards |\n|---|---|---|")
    for (tatham, ours), n in sorted(table.items()):
        print(f"| {tatham} | {ours} | {n} |")


def pips(limit: float = 20.0) -> None:
    import warnings

    warnings.simplefilter("ignore")  # withdrawn puzzles are skipped with a warning
    times, complete, total, stopped = [], 0, 0, []
    for f in sorted((CORPUS / "pips" / "nyt").glob("*.json")):
        for puzzle in satdomino.read(str(f)):
            if puzzle.count(limit=2).value != 1:
                continue
            total += 1
            t0 = time.perf_counter()
            out = puzzle.explain(timeout=limit)
            times.append(time.perf_counter() - t0)
            complete += out.complete
            if not out.complete:
                stopped.append(f"{f.stem} {puzzle.name} ({len(out.steps)} steps, {out.reason})")
    print(f"\nNYT Pips, unique by placement: {complete} of {total} explained to the end "
          f"(limit {limit:g} s each); median {statistics.median(times):.3f} s, "
          f"total {sum(times):.1f} s; stopped: {', '.join(stopped) or 'none'}")


def main() -> None:
    if not CORPUS.is_dir():
        print(f"{CORPUS} is absent")
        return
    janko()
    anchors()
    pips()


if __name__ == "__main__":
    main()
