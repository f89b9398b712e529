"""Reading a results file: per configuration solved count, PAR-2 and median time; bugs; cactus
and scatter plots (matplotlib, SVG or PNG by suffix)."""

from __future__ import annotations

import contextlib
import statistics
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import UsageError
from ..fileio import output_path

# what a configuration is; the family too, so different puzzles are never pooled
CONFIG = ("family", "model", "amo", "card", "pb", "int", "backend")
SOLVED = ("sat", "unsat")


def solved(row: dict) -> bool:
    """Answered within the limit and not wrong."""
    return (row["status"] in SOLVED and not row["bug"]
            and float(row["wall_seconds"] or "inf") <= float(row["timeout"] or "inf"))


def runtime(row: dict) -> float:
    """The run's time as PAR-2 counts it: its wall time (building, encoding, solving and
    checking the answer), or twice the limit when unsolved."""
    return float(row["wall_seconds"]) if solved(row) else 2 * float(row["timeout"] or 0)


def config_labels(rows: list[dict]) -> dict[tuple, str]:
    """Short names: only the parts of a configuration that vary in this results file."""
    configs = sorted({tuple(r[k] for k in CONFIG) for r in rows})
    varying = ([i for i, k in enumerate(CONFIG) if len({c[i] for c in configs}) > 1]
               or [CONFIG.index("backend")])
    plain = ("family", "backend", "model")
    return {c: " ".join(c[i] if CONFIG[i] in plain else f"{CONFIG[i]}={c[i]}"
                        for i in varying) for c in configs}


@dataclass
class Line:
    config: str
    runs: int
    solved: int
    par2: float  # mean over runs, seconds
    median: float  # of runtime(); inf when more than half are unsolved
    timeouts: int
    unknown: int  # the solver gave up before the time limit
    failures: int  # crash, memout, error
    bugs: int


def summarise(rows: list[dict]) -> list[Line]:
    labels = config_labels(rows)
    groups: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        groups[labels[tuple(r[k] for k in CONFIG)]].append(r)
    lines = []
    for name, rs in groups.items():
        times = [runtime(r) if solved(r) else float("inf") for r in rs]
        lines.append(Line(name, len(rs), sum(map(solved, rs)),
                          statistics.fmean(map(runtime, rs)), statistics.median(times),
                          sum(r["status"] == "timeout" for r in rs),
                          sum(r["status"] == "unknown" for r in rs),
                          sum(r["status"] in ("crash", "memout", "error") for r in rs),
                          sum(bool(r["bug"]) for r in rs)))
    return sorted(lines, key=lambda ln: (-ln.solved, ln.par2))


def table(rows: list[dict]) -> str:
    lines = summarise(rows)
    head = ["configuration", "solved", "PAR-2 (mean s)", "median s", "timeouts",
            "unknown", "crash/memout/error", "bugs"]
    body = [[ln.config, f"{ln.solved}/{ln.runs}", f"{ln.par2:.3f}",
             "unsolved" if ln.median == float("inf") else f"{ln.median:.3f}",
             str(ln.timeouts), str(ln.unknown), str(ln.failures), str(ln.bugs)] for ln in lines]
    widths = [max(len(x) for x in col) for col in zip(head, *body, strict=True)]
    fmt = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
    out = [fmt.format(*r) for r in (head, ["-" * w for w in widths], *body)]
    out.append("PAR-2: the mean run time, an unsolved run counted as twice its time limit.")
    return "\n".join(out)


def bugs(rows: Iterable[dict]) -> list[str]:
    return [f"BUG {r['puzzle']} {r['backend']} {r['model']} seed {r['seed']}: {r['bug']}"
            for r in rows if r["bug"]]


def plot_path(path: str | Path) -> Path:
    """The file a plot goes to, or a clear error (its suffix picks the format)."""
    target = output_path(path, "plot")
    if target.suffix.lower() not in (".svg", ".png", ".pdf"):
        raise UsageError(f"{path}: a plot is written as .svg, .png or .pdf")
    return target


@contextlib.contextmanager
def _plot(path: Path, size: tuple[float, float]) -> Iterator[Any]:
    """The axes of a new figure, saved to ``path`` (atomically) at the end of the block."""
    try:
        import matplotlib
    except ImportError:
        raise UsageError("plots need matplotlib: pip install matplotlib") from None
    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=size)
    try:
        yield ax
        ax.grid(True, which="both", alpha=0.3)
        target = plot_path(path)
        tmp = target.with_name(f".{target.name}.tmp{target.suffix}")
        fig.savefig(tmp, bbox_inches="tight", dpi=120)
        tmp.replace(target)
    finally:
        plt.close(fig)


def cactus(rows: list[dict], path: Path) -> None:
    """Runs solved (x) against the time limit that would have sufficed (y), per
    configuration: further right and lower is better."""
    limit = max(float(r["timeout"]) for r in rows)
    with _plot(path, (7, 4.5)) as ax:
        for c, name in config_labels(rows).items():
            times = sorted(float(r["wall_seconds"]) for r in rows
                           if tuple(r[k] for k in CONFIG) == c and solved(r))
            ax.plot(range(1, len(times) + 1), times, marker="o", markersize=3, label=name)
        ax.axhline(limit, color="grey", linestyle="--", linewidth=0.8, label=f"limit {limit:g} s")
        ax.set(xlabel="runs solved", ylabel="seconds (wall: build, encode, solve, check)",
               yscale="log", title="cactus plot")
        ax.legend(fontsize=8)


def scatter(rows: list[dict], path: Path) -> None:
    """Per puzzle and seed, the first configuration's time (x) against the second's (y);
    unsolved runs sit on the limit lines. Below the diagonal, the second is faster."""
    labels = config_labels(rows)
    if len(labels) < 2:
        raise UsageError("a scatter plot needs two configurations in the results")
    (ca, na), (cb, nb) = list(labels.items())[:2]

    def times(c: tuple) -> dict[tuple, float]:
        return {(r["puzzle"], r["seed"]): float(r["wall_seconds" if solved(r) else "timeout"])
                for r in rows if tuple(r[k] for k in CONFIG) == c}

    ta, tb = times(ca), times(cb)
    both = sorted(set(ta) & set(tb))
    limit = max(float(r["timeout"]) for r in rows)
    with _plot(path, (5.5, 5.5)) as ax:
        ax.scatter([ta[k] for k in both], [tb[k] for k in both], s=14)
        low = min([*(ta[k] for k in both), *(tb[k] for k in both), limit]) / 2
        ax.plot([low, limit], [low, limit], color="grey", linewidth=0.8)
        ax.set(xscale="log", yscale="log", xlim=(low, limit * 1.5), ylim=(low, limit * 1.5),
               xlabel=f"{na} (s)", ylabel=f"{nb} (s)",
               title=f"{len(both)} runs; on the edge: unsolved within {limit:g} s")
