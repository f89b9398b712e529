"""Explanation benchmark (not a test): ``python -m benchmarks.explain [--tatham DIR]`` (needs
../shared/corpus; DIR is Simon Tatham's puzzles source, the folder with his ``dominosa.c``).

0. With ``--tatham``: boards from his own generator (linked with ``tatham_dominosa.c``), 30 of
   each of his four difficulties at N = 6 and 15 at N = 8; our grade beside his, as a table;
   and which janko.at boards his standalone solver finishes, beside which ours explains with
   named rules alone.
1. janko.at Dominosa boards (``dominosa/janko-dev.jsonl``, each unique): one ``satdomino
   explain --json`` call for all of them, whole process; how many are explained to the end,
   whether every stated placement is a domino of the published solution, the grades.
2. The anchor boards (``dominosa/anchors.tsv``) that his solver finishes: our grade beside
   the grade it gives, as a table.
3. The NYT Pips puzzles that are unique: ``explain`` per puzzle, median and worst seconds, how
   many are explained to the end.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import satdomino
from satdomino.analysis.explain import step_json

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
    worst = [_worst(row["steps"]) for row in rows]
    print(f"janko-dev: {sum(r['complete'] for r in rows)} of {len(rows)} explained to the end "
          f"in {seconds:.1f} s (one process); stated placements not in the published solution: "
          f"{wrong}; grades: {dict(sorted(grades.items()))}; longest proof by contradiction "
          f"{max(w[0] for w in worst)} steps; steps beyond the named rules "
          f"{sum(w[1] for w in worst)}; most constraints one reason cites "
          f"{max(w[2] for w in worst)}")


def _worst(steps: list[dict]) -> tuple[int, int, int]:
    """Over ``explain --json`` steps: the longest proof by contradiction (its steps, nested
    ones in full), the steps beyond the named rules (levels 6-7), and the most constraints
    one step's reason cites (a named rule cites one)."""
    chains = [sum(1 + line.count("; ") for line in r["chain"])
              for s in steps for r in s["ruled_out"] if "chain" in r]
    beyond = [s for s in steps if s["level"] >= 6]
    cited = [sum(not u.startswith("step ") for u in s["uses"]) for s in steps]
    return max(chains, default=0), len(beyond), max(cited, default=0)


def _band(grade: str) -> str:
    if grade.startswith("solver-"):
        k = int(grade.split("-")[1].split("+")[0])
        return "solver, 3-9" if k < 10 else "solver, 10-19" if k < 20 else "solver, 20+"
    return grade


GRADES = {"t": "Trivial", "b": "Basic", "h": "Hard", "e": "Extreme"}
# his generator and the parts of his framework it links with
SOURCES = ["dominosa.c", "misc.c", "random.c", "malloc.c", "laydomino.c", "sort.c",
           "findloop.c", "dsf.c", "matching.c", "tree234.c", "nullfe.c"]


def tatham(source: Path) -> None:
    """Boards his generator makes at each difficulty, graded by ``explain``."""
    with tempfile.TemporaryDirectory() as tmp:
        exe = Path(tmp) / "gen"
        subprocess.run(["cc", "-O2", "-w", f"-I{source}", "-DANDROID_ARROWS_LEFT_RIGHT=0",
                        "-o", str(exe), str(Path(__file__).with_name("tatham_dominosa.c")),
                        *(str(source / f) for f in SOURCES), "-lm"], check=True)
        for n, count in ((6, 30), (8, 15)):
            table: dict[tuple[str, str], int] = collections.Counter()
            seconds = 0.0
            for d, grade in GRADES.items():
                ids = subprocess.run([str(exe), str(n), d, f"satdomino-{n}{d}", str(count)],
                                     capture_output=True, text=True, check=True).stdout
                for game_id in ids.split():
                    t0 = time.perf_counter()
                    ours = satdomino.read(game_id)[0].explain().grade
                    seconds += time.perf_counter() - t0
                    table[(grade, _band(ours))] += 1
            _table(f"Tatham's generator, N = {n}, {count} boards per difficulty (explained in "
                   f"{seconds:.1f} s)", table)
        solver = Path(tmp) / "solver"  # his standalone solver, on the janko.at boards
        subprocess.run(["cc", "-O2", "-w", f"-I{source}", "-DANDROID_ARROWS_LEFT_RIGHT=0",
                        "-DSTANDALONE_SOLVER", "-o", str(solver),
                        *(str(source / f) for f in SOURCES), "-lm"], check=True)
        if (CORPUS / "dominosa" / "janko-dev.jsonl").is_file():
            janko_beside_tatham(solver)


def janko_beside_tatham(solver: Path) -> None:
    """Which janko.at boards his solver finishes, beside which ones ours explains with named
    rules alone (Tatham's four levels), with proof by contradiction, or with the solver."""
    table: dict[tuple[str, str], int] = collections.Counter()
    for puzzle in satdomino.read(str(CORPUS / "dominosa" / "janko-dev.jsonl")):
        board = puzzle.data
        game_id = f"{board.n}:" + "".join(f"[{v}]" if v >= 10 else str(v)
                                            for row in board.grid for v in row)
        his = subprocess.run([str(solver), game_id], capture_output=True, text=True,
                             check=True).stdout
        finished = "finishes" if "Could not deduce" not in his else "stops short"
        grade = puzzle.explain().grade.split("-")[0]
        named = ("named rules" if grade in ("rule", "elimination", "set", "chain") else
                 "proof by contradiction" if grade == "contradiction" else "the solver")
        table[(finished, named)] += 1
    print("\njanko.at boards: Tatham's solver beside ours\n\n| his solver | ours needs | "
          "boards |\n|---|---|---|")
    for (his, ours), n in sorted(table.items()):
        print(f"| {his} | {ours} | {n} |")


def _table(title: str, table: dict[tuple[str, str], int]) -> None:
    order = list(GRADES.values())
    print(f"\n{title}\n\n| Tatham's grade | ours | boards |\n|---|---|---|")
    for (theirs, ours), n in sorted(table.items(), key=lambda kv: (order.index(kv[0][0]),
                                                                   kv[0][1])):
        print(f"| {theirs} | {ours} | {n} |")


def anchors() -> None:
    lines = (CORPUS / "dominosa" / "anchors.tsv").read_text().splitlines()[1:]
    table: dict[tuple[str, str], int] = collections.Counter()
    unfinished = []
    for line in lines:
        name, game_id, solutions, theirs, finishes, _ = line.split("\t")
        if solutions != "1":
            continue
        if finishes != "yes":  # his grade is then of a partial run
            unfinished.append(name)
            continue
        table[(theirs, _band(satdomino.read(game_id)[0].explain().grade))] += 1
    _table(f"Anchor boards his solver finishes (left out: {', '.join(unfinished)})", table)


def pips(limit: float = 20.0) -> None:
    import warnings

    warnings.simplefilter("ignore")  # withdrawn puzzles are skipped with a warning
    times, complete, total, stopped, worst = [], 0, 0, [], []
    grades: dict[str, int] = collections.Counter()
    for f in sorted((CORPUS / "pips" / "nyt").glob("*.json")):
        for puzzle in satdomino.read(str(f)):
            if puzzle.count(limit=2).value != 1:
                continue
            total += 1
            t0 = time.perf_counter()
            out = puzzle.explain(timeout=limit)
            times.append(time.perf_counter() - t0)
            complete += out.complete
            grades[_band(out.grade)] += 1
            worst.append(_worst([step_json(puzzle.data, puzzle.family, s) for s in out.steps]))
            if not out.complete:
                stopped.append(f"{f.stem} {puzzle.name} ({len(out.steps)} steps, {out.reason})")
    print(f"\nNYT Pips, unique by placement: {complete} of {total} explained to the end "
          f"(limit {limit:g} s each); median {statistics.median(times):.3f} s, "
          f"worst {max(times):.2f} s, total {sum(times):.1f} s; stopped: "
          f"{', '.join(stopped) or 'none'}; grades: {dict(sorted(grades.items()))}; longest "
          f"proof by contradiction {max(w[0] for w in worst)} steps; steps beyond the named "
          f"rules {sum(w[1] for w in worst)}; most constraints one reason cites "
          f"{max(w[2] for w in worst)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tatham", type=Path, metavar="DIR", help="Simon Tatham's puzzles "
                    "source (the folder with dominosa.c): grade boards his generator makes")
    args = ap.parse_args()
    if args.tatham:
        tatham(args.tatham)
    if not CORPUS.is_dir():
        print(f"{CORPUS} is absent")
        return
    janko()
    anchors()
    pips()


if __name__ == "__main__":
    main()
