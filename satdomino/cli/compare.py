"""``satdomino compare``: sweeps of puzzles x models x encodings x backends x seeds, each run
isolated, resumable, summarised and plotted."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from ..auto import AUTO
from ..compare import report, summary
from ..compare.runner import KEY
from ..compare.sweep import Progress, check_results_file, puzzles, read_rows, sweep, tasks
from ..encode import KINDS, Encodings
from ..errors import UsageError
from ..fileio import apart, output_path, write_atomic
from ..ranges import JOBS, MEMORY, SEEDS
from .common import KIND_HELP, rule_options, timeout_option


def add_parser(sub) -> None:
    c = sub.add_parser("compare", help="sweep puzzles x models x encodings x backends x seeds",
                       description="Run every combination, each in a process of its own with "
                       "time and memory limits; rows go to a CSV as they finish.")
    c.add_argument("puzzles", nargs="*", metavar="PUZZLES",
                   help="files, folders, or generator specs such as dominosa:n=40..60:seeds=5 "
                   "(none: only summarise, plot and report the existing results file)")
    c.add_argument("--model", default="", metavar="M,M", help="models (default: each "
                   "family's default); a model another family lacks is skipped there")
    for kind, plain in Encodings().as_dict().items():
        c.add_argument(f"--{kind}", metavar="E,E", help=f"{KIND_HELP[kind]} encodings (default: "
                       f"auto's pick; with named backends, {plain})")
    c.add_argument("--backend", default=AUTO, metavar="B,B",
                   help="backends (default auto: each puzzle's pick, named in the rows)")
    rule_options(c)
    c.add_argument("--seeds", type=SEEDS.parse, default=1, metavar="K",
                   help="runs per configuration: seed 0 is the CNF as built, seeds 1..K-1 "
                   "rename variables and shuffle clauses and literals")
    timeout_option(c, "wall-clock seconds per run, encoding included (default 60)", 60.0)
    c.add_argument("--memory", type=MEMORY.parse, default=None, metavar="MB",
                   help=f"address-space limit per run in MB, {MEMORY.bounds()} (default: none)")
    where = c.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=JOBS.parse, default=len(os.sched_getaffinity(0)),
                       metavar="N",
                       help="runs at once on this machine (default: number of CPUs)")
    where.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                       help="run on a Dask distributed cluster (pip install "
                       "'satdomino[distributed]')")
    c.add_argument("-o", "--output", required=True, metavar="results.csv",
                   help="rows are appended as runs finish; an existing file is resumed")
    c.add_argument("--plot", metavar="cactus.svg", help="cactus plot (.svg, .png or .pdf)")
    c.add_argument("--scatter", metavar="scatter.svg",
                   help="scatter plot of the first two configurations")
    c.add_argument("--report", metavar="report.html",
                   help="one self-contained web page: the summary, a cactus plot, a scatter of "
                   "any two configurations and the runs table that sorts and filters")
    c.add_argument("--no-progress", action="store_true", help="no progress bar on a terminal")


def run(args: argparse.Namespace) -> int:
    """A resumable sweep; the summary covers everything in the results file (with no puzzles:
    the whole file, as it is)."""
    out = output_path(args.output, "-o")
    for plot in filter(None, (args.plot, args.scatter)):
        summary.plot_path(plot)
    if args.report is not None:
        if not args.report.lower().endswith((".html", ".htm")):
            raise UsageError(f"{args.report}: a report is written as .html")
        output_path(args.report, "--report")
        apart([args.output], {"--report": args.report, "--plot": args.plot,
                              "--scatter": args.scatter})
    if not args.puzzles:
        if not out.exists() or out.stat().st_size == 0:
            raise UsageError(f"no puzzles given and no results in {args.output} to report")
        check_results_file(out)
        return _report(args, read_rows(out))
    # a kind not given is left to auto ([None]); one given must name something
    lists: dict[str, list[str | None]] = {
        kind: [None] if getattr(args, kind) is None
        else [x for x in getattr(args, kind).split(",") if x] for kind in KINDS}
    models: list[str | None] = [m for m in args.model.split(",") if m] or [None]
    backends = [b for b in args.backend.split(",") if b]
    items = puzzles(args.puzzles, args.readings)
    todo = tasks(items, models, lists, backends, args.seeds, args.timeout, args.memory)
    configs = {(t.kind, t.model, *t.encodings.values(), t.backend) for t in todo}
    if args.scatter and len(configs) < 2:
        raise UsageError("--scatter needs two configurations (two backends, encodings or "
                         "models)")
    progress = None if not args.no_progress else Progress(0, enabled=False)
    ran = sweep(todo, out, jobs=args.jobs, scheduler=args.scheduler, progress=progress)
    wanted = {t.key() for t in todo}
    rows = [r for r in read_rows(out) if tuple(r[k] for k in KEY) in wanted]
    print(f"{out}: {len(rows)} runs of this sweep ({ran} run now, "
          f"{len(rows) - ran} from before)")
    return _report(args, rows)


def _report(args: argparse.Namespace, rows: list[dict[str, str]]) -> int:
    """The summary table, bugs, plots and the web page of ``rows``; 4 when a run found a
    bug."""
    if not rows:
        raise UsageError(f"{args.output} holds no runs")
    print(summary.table(rows))
    problems = summary.bugs(rows)
    for line in problems:
        print(line)
    if args.plot:
        summary.cactus(rows, Path(args.plot))
        print(f"cactus plot: {args.plot}")
    if args.scatter:
        summary.scatter(rows, Path(args.scatter))
        print(f"scatter plot: {args.scatter}")
    if args.report:
        write_atomic(args.report, report.html(rows, f"satdomino compare: {args.output}"))
        print(f"report: {args.report}")
    return 4 if problems else 0
