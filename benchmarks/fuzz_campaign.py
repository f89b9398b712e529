"""A fuzz campaign over every command and the library (not a test): ``python -m
benchmarks.fuzz_campaign --cases 5000 --jobs 2``.

Each case is one whole process: a command of the CLI (or a few library calls in ``python -c``)
on a random input (an example, a damaged example, random bytes, deeply nested JSON, a large
generated puzzle, a compressed proof bomb) with random options, hostile values among them, and
a random ``--timeout``. A case fails when it prints a traceback, exits outside 0-4, writes a
stderr line that does not start ``satdomino:``, runs past its ``--timeout`` by more than 1 s
plus the interpreter's start-up (a budget per puzzle: K of them for a file of K puzzles), or
peaks above 1 GB. Each process may take 2 GB (more is a failure too); a hung case is killed at
its limit + 60 s (a case with no limit after 120 s: counted apart, not as a failure). Prints
a summary and writes every failing case, with its command, to ``--failures`` (JSON lines).
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import satdomino

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p for p in (ROOT / "examples").rglob("*") if p.is_file())
CLI = [sys.executable, "-m", "satdomino.cli"]
GB = 2**30
HOSTILE = ["0", "-1", "1e-300", "1e-9", "0.5", "2", "1e6", "1e309", "inf", "nan", "", "x"]
LIMITS = ["0.5", "1", "2", "3"]
SOLVE = [["--unique"], ["--count"], ["--count", "approx"], ["--count", "--count-by", "grid"],
         ["--count-by", "tiling"], ["--limit", "3"], ["--json"], ["--svg", "out.svg"],
         ["--backend", "minisat22"], ["--backend", "sls"], ["--backend", "z3"],
         ["--backend", "highs"], ["--backend", "portfolio:minisat22+sls@0.02"],
         ["--amo", "ladder"], ["--pb", "adder"], ["--int", "order"], ["--model", "counted"],
         ["--no-cover"], ["--rotate"], ["--reflect"], ["--puzzle", "hard"],
         ["--kind", "pips"], ["--kind", "dominosa"], ["--epsilon", "HOSTILE"],
         ["--delta", "HOSTILE"], ["--limit", "HOSTILE"]]
EXPLAIN = [["--json"], ["--svg", "steps.svg"], ["--rotate", "--reflect"], ["--no-cover"],
           ["--kind", "doodlefit"]]
EXPORT = [["--uniqueness"], ["--proof", "p.drat"], ["--json"], ["--format", "opb"],
          ["--format", "smt2"], ["--format", "lp"], ["--amo", "commander"], ["--pb", "bdd"]]
GENERATE = {"dominosa": ["--n"], "pips": ["--dominoes"], "dominofit": ["--width", "--height"],
            "doodlefit": ["--cells", "--blocks"]}
GENERATE_EXTRA = [["--unique"], ["--number", "2"], ["--uniqueness"], ["--format", "dimacs"],
                  ["--difficulty", "hard"], ["--proof", "g.drat"], ["--rotate"]]
# library calls: a TypeError or a SatDominoError with our message is the refusal asked for;
# anything else escapes as a traceback (a failing case)
LIBRARY = ["s.parse({arg})", "p.solve(timeout={arg})", "p.count(limit={arg}, timeout=2)",
           "p.explain(timeout={arg})", "p.solve(backend={arg}, timeout=2)", "p.text({arg})",
           "p.export({arg})", "p.draw({arg})", "p.cnf(encodings={arg})", "p.decode({arg})"]
LIBRARY_CALL = ("import satdomino as s\ntry:\n    {read}{call}\n"
                "except (TypeError, s.SatDominoError) as e:\n    print('refused:', e)\n")
LIBRARY_ARGS = ["None", "5", "-1", "float('nan')", "float('inf')", "1e309", "''", "'x'", "[]",
                "object()", "'out.cnf'", "{example!r}", "'d.pdf'", "[1, -2, 3]", "{{1: True}}"]


def mutate(data: bytes, rng: random.Random) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 10)):
        if not out:
            break
        i = rng.randrange(len(out))
        kind = rng.randrange(4)
        if kind == 0:
            out[i] = rng.choice(b"0123456789[]{}:,\"- \n#*abxO\t\xff")
        elif kind == 1:
            del out[i]
        elif kind == 2:
            out[i:i] = out[i:i + rng.randrange(1, 64)] * rng.randrange(1, 4)
        else:
            del out[i:]
    return bytes(out)


def prepare(work: Path) -> list[Path]:
    """The large inputs, made once (kept in ``work`` between campaigns)."""
    work.mkdir(parents=True, exist_ok=True)
    made = []
    for name, argv in [("pips-200.json", ["generate", "pips", "--dominoes", "200"]),
                       ("doodle-300.txt", ["generate", "doodlefit", "--cells", "300",
                                           "--blocks", "40"]),
                       ("dominosa-100.txt", ["generate", "dominosa", "--n", "100"]),
                       ("fit-40.json", ["generate", "dominofit", "--width", "40",
                                        "--height", "40"])]:
        path = work / name
        if not path.exists():
            subprocess.run([*CLI, *argv, "--seed", "1", "-o", str(path)], check=True,
                           capture_output=True)
        made.append(path)
    drawing = work / "doodle-2000.txt"
    if not drawing.exists():
        drawing.write_text(("#" * 2000 + "\n") * 2000 + "---\n**\n")
    deep = work / "deep.json"
    if not deep.exists():
        deep.write_text("[" * 100_000)
    padded = work / "padded.json"
    if not padded.exists():  # a real puzzle in 24 MB of spaces: slow to read, not too large
        padded.write_text((ROOT / "examples" / "pips" / "planted-10.json").read_text()
                          + " " * 24_000_000)
    bomb = work / "bomb.drat.gz"
    if not bomb.exists():  # 1 GB of digits in a few MB
        with gzip.open(bomb, "wb", compresslevel=9) as f:
            for _ in range(1024):
                f.write(b"1" * 2**20)
    return [*made, drawing, deep, padded, bomb]


def case(rng: random.Random, folder: Path, big: list[Path]) -> tuple[list[str], float | None]:
    """One command line, and its --timeout (None when it has none)."""
    limit = rng.choice(LIMITS)
    roll = rng.random()
    source = folder / "input"
    if roll < 0.45:
        source = rng.choice(EXAMPLES)
    elif roll < 0.75:
        pick = rng.choice(EXAMPLES)
        source = folder / pick.name
        source.write_bytes(mutate(pick.read_bytes(), rng))
    elif roll < 0.85:
        source.write_bytes(rng.randbytes(rng.randrange(1, 3000)))
    else:
        source = rng.choice(big)
    command = rng.choices(["solve", "explain", "hint", "export", "check-proof", "generate",
                           "library", "draw", "decode"],
                          weights=[36, 12, 8, 10, 5, 12, 9, 5, 3])[0]

    def extras(pool: list[list[str]], most: int) -> list[str]:
        return [rng.choice(HOSTILE) if x == "HOSTILE" else x
                for opt in rng.sample(pool, rng.randint(0, most)) for x in opt]

    if command == "library":
        arg = rng.choice(LIBRARY_ARGS).format(example=str(source))
        call = rng.choice(LIBRARY).format(arg=arg)
        read = f"p = s.read({str(source)!r})[0]\n    " if call.startswith("p.") else ""
        return [sys.executable, "-c", LIBRARY_CALL.format(read=read, call=call)], None
    if command == "solve":
        argv = ["solve", str(source), *extras(SOLVE, 3)]
    elif command in ("explain", "hint"):
        argv = [command, str(source), *extras(EXPLAIN, 2)]
        if command == "hint" and rng.random() < 0.5:
            argv = [x for x in argv if x not in ("--svg", "steps.svg")]
            argv += ["--given", rng.choice([str(rng.choice(big)), "missing.json", "[]",
                                            str(rng.choice(EXAMPLES))])]
    elif command == "export":
        argv = ["export", str(source), "-o", rng.choice(["out.cnf", "out.cnf.gz", "-"]),
                *extras(EXPORT, 2)]
    elif command == "draw":
        argv = ["draw", str(source), "-o", rng.choice(["d.svg", "d.png", "d.pdf", "-", "d.x"]),
                *(["--solution"] if rng.random() < 0.5 else [])]
    elif command == "decode":  # an instance of the example, and an answer (maybe damaged)
        example = rng.choice(EXAMPLES)
        suffix = rng.choice([".cnf", ".opb", ".smt2", ".lp", ".mod"])
        subprocess.run([*CLI, "export", str(example), "-o", str(folder / f"i{suffix}"),
                        "--timeout", "20"], capture_output=True, cwd=folder)
        answer = folder / "answer.txt"
        answer.write_bytes(mutate(rng.choice([b"s SATISFIABLE\nv x1 -x2 x3\n", b"sat\n((x1 true))",
                                              b"Model status\nOptimal\n# Columns 2\nx1 1\nx2 0\n",
                                              b"s UNSATISFIABLE\n", b"x1 1\nx2 0\n",
                                              b"s SATISFIABLE\nv 1 -2 0\n"]), rng))
        argv = ["decode", str(folder / f"i{suffix}"), str(rng.choice([answer, source]))]
        return [*CLI, *argv], None
    elif command == "check-proof":
        formula = folder / "f.cnf"
        formula.write_text("p cnf 3 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n")
        proof = rng.choice([big[-1], source, folder / "p.drat"])
        if proof == folder / "p.drat":
            proof.write_text(rng.choice(["-4000000 0\n", "2 0\n0\n", "d 1 2 0\n", "x\n"]))
        argv = ["check-proof", str(formula), str(proof), "--no-drat-trim"]
    else:
        kind = rng.choice(sorted(GENERATE))
        argv = ["generate", kind, "--seed", str(rng.randrange(100))]
        for flag in GENERATE[kind]:
            argv += [flag, rng.choice(["2", "3", "4", "6", "12", rng.choice(HOSTILE)])]
        argv += extras(GENERATE_EXTRA, 2)
        if rng.random() < 0.5:
            argv += ["-o", rng.choice(["g.json", "g.cnf", "g.json.gz", "-"])]
    if rng.random() < 0.05:
        limit = rng.choice(HOSTILE)
    argv += ["--timeout", limit]
    try:
        seconds = float(limit)
    except ValueError:
        seconds = None
    if not (seconds and 0 < seconds < 60):
        return [*CLI, *argv], None
    # --timeout is a budget per puzzle: a file of K puzzles may take K of them
    each = command in ("solve", "explain") and "--puzzle" not in argv
    return [*CLI, *argv], seconds * (puzzles_in(source) if each else 1)


def puzzles_in(path: Path) -> int:
    """How many puzzles a file holds (1 when it holds none that can be read)."""
    stat = path.stat()
    return _puzzles(str(path), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _puzzles(path: str, size: int, mtime: int) -> int:
    try:
        return max(1, len(satdomino.read(path)))
    except Exception:  # noqa: BLE001  (a damaged input: one budget)
        return 1


def run(argv: list[str], limit: float | None, folder: Path) -> dict:
    """One case as a process of its own, reaped with its resource usage (its peak memory)."""
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * GB, 2 * GB))

    t0 = time.monotonic()
    end = t0 + (limit or 60) + 60
    with open(folder / "out", "wb") as out, open(folder / "err", "wb") as err:
        p = subprocess.Popen(argv, cwd=folder, stdout=out, stderr=err, preexec_fn=cap,
                             stdin=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
        killed, pid, status, usage = False, 0, 0, None
        while pid == 0:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid == 0 and time.monotonic() > end and not killed:
                p.kill()
                killed = True
            if pid == 0:
                time.sleep(0.01)
        p.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
    wall = time.monotonic() - t0
    text = (folder / "err").read_text(errors="replace")
    return {"argv": argv, "limit": limit, "exit": p.returncode, "wall": round(wall, 3),
            "killed": killed, "peak": usage.ru_maxrss * 1024 if usage else None,
            "traceback": "Traceback" in text, "stray": any(
                line and not line.startswith("satdomino") for line in text.splitlines()),
            "stderr": text[-400:]}


def verdicts(r: dict, start: float) -> list[str]:
    bad = []
    if r["traceback"]:
        bad.append("traceback")
    if r["exit"] not in (0, 1, 2, 3, 4) and not (r["killed"] and r["limit"] is None):
        bad.append(f"exit {r['exit']}")
    if r["argv"][1] != "-c" and r["stray"]:
        bad.append("message")
    # a case with no time limit, stopped at the campaign's own bound, overran nothing
    if (r["killed"] and r["limit"] is not None) or (
            r["limit"] is not None and r["wall"] > r["limit"] + 1 + start):
        bad.append("overtime")
    if r["peak"] is not None and r["peak"] > GB:
        bad.append("memory")
    return bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=5000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "satdomino-campaign"))
    ap.add_argument("--failures", default="campaign-failures.jsonl")
    args = ap.parse_args()
    big = prepare(Path(args.work))
    starts = []
    for _ in range(5):
        t0 = time.monotonic()
        subprocess.run([*CLI, "--version"], capture_output=True, check=True)
        starts.append(time.monotonic() - t0)
    start = statistics.median(starts)
    rng = random.Random(args.seed)
    todo = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(args.cases):
            folder = Path(tmp) / str(i)
            folder.mkdir()
            todo.append((*case(rng, folder, big), folder))

        def one(item: tuple) -> dict:
            r = run(*item)
            r["bad"] = verdicts(r, start)
            for leftover in item[2].iterdir():  # outputs: no disk filling up
                leftover.unlink() if leftover.is_file() else None
            return r

        t0 = time.monotonic()
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(one, todo))
        took = time.monotonic() - t0
    failing = [r for r in results if r["bad"]]
    with open(args.failures, "w") as f:
        for r in failing:
            f.write(json.dumps({**r, "command": shlex.join(r["argv"][2:])}) + "\n")
    kinds = Counter(b for r in failing for b in r["bad"])
    peaks = [r["peak"] for r in results if r["peak"]]
    print(f"{len(results)} cases in {took:.0f} s ({args.jobs} at a time), start-up "
          f"{start:.2f} s; exits: " + ", ".join(
              f"{c}: {sum(r['exit'] == c for r in results)}" for c in sorted(
                  {r['exit'] for r in results})))
    print(f"largest peak {max(peaks) / 2**20:.0f} MiB; longest case "
          f"{max(r['wall'] for r in results):.1f} s")
    unfinished = sum(r["killed"] and r["limit"] is None for r in results)
    print(f"failing cases: {len(failing)} " + str(dict(kinds)) + f" (written to {args.failures});"
          f" {unfinished} with no time limit stopped by the campaign after 120 s")


if __name__ == "__main__":
    main()
