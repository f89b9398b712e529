"""A sweep: puzzles x models x encodings x backends x seeds, each run isolated (runner.py),
rows appended to a CSV as runs finish, so an interrupted sweep resumes where it stopped.

Executors: local children watched by one thread (``--jobs``), or a Dask distributed cluster
(``--scheduler``). Both call the same ``run_isolated``/``Child`` code, so the rows agree.
"""

from __future__ import annotations

import csv
import itertools
import os
import re
import select
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..encode import KINDS, REGISTRY, Encodings
from ..errors import SatDominoError, UsageError
from .runner import COLUMNS, KEY, Child, Task, run_isolated

SPEC = re.compile(r"^(dominosa|pips|dominofit|doodlefit):(.*)$")


@dataclass
class PuzzleItem:
    label: str
    kind: str
    instance: Any
    parameters: dict = field(default_factory=dict)
    planted: bool = False


def _values(key: str, text: str) -> list[int]:
    """``40``, ``40,50,60``, ``40..60`` or ``40..60/5`` as integers."""
    out: list[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"(-?\d+)(?:\.\.(-?\d+)(?:/(\d+))?)?", part.strip())
        if not m:
            raise UsageError(f"bad value {part!r} for {key} (use 40, 40,50 or 40..60[/step])")
        lo, hi, step = int(m[1]), int(m[2] or m[1]), int(m[3] or 1)
        if hi < lo or step < 1:
            raise UsageError(f"empty range {part!r} for {key}")
        out += range(lo, hi + 1, step)
    return out


def generated(spec: str) -> list[PuzzleItem]:
    """The puzzles of a generator spec such as ``dominosa:n=40..60:seeds=5`` (seeds 1..5;
    ``seeds=3..7`` for others; ``unique=yes`` for puzzles with one solution)."""
    from .. import generate as gen

    m = SPEC.match(spec)
    assert m is not None
    kind, rest = m[1], m[2]
    fields = dict(part.split("=", 1) if "=" in part else (part, "")
                  for part in rest.split(":") if part)
    unique = fields.pop("unique", "no").lower() in ("yes", "1", "true")
    seeds = _values("seeds", fields.pop("seeds", "1"))
    seeds = list(range(1, seeds[0] + 1)) if len(seeds) == 1 else seeds
    unknown = set(fields) - set(gen.PARAMETERS[kind])
    if unknown:
        raise UsageError(f"{spec}: unknown parameter {sorted(unknown)[0]!r} for {kind}; "
                         f"it takes {', '.join(gen.PARAMETERS[kind])}, seeds, unique")
    names = list(fields)
    items = []
    for combo in itertools.product(*(_values(k, fields[k]) for k in names)):
        params = dict(zip(names, combo, strict=True))
        for seed in seeds:
            puzzle = (gen.unique(kind, params, seed, tries=200)[0] if unique
                      else gen.planted(kind, params, seed))
            label = ":".join([kind, *(f"{k}={v}" for k, v in params.items()), f"seed={seed}",
                              *(["unique"] if unique else [])])
            items.append(PuzzleItem(label, kind, puzzle, {**params, "seed": seed,
                                                          "unique": unique}, planted=True))
    return items


def puzzles(args: Iterable[str]) -> list[PuzzleItem]:
    """Files, folders and generator specs, in order; bad input is one clear error."""
    from ..cli import load

    items: list[PuzzleItem] = []
    for arg in args:
        if SPEC.match(arg) and not Path(arg).exists():
            items += generated(arg)
            continue
        for it in load([arg], None):
            if it.error is not None:
                raise SatDominoError(f"{it.file}" + (f" [{it.name}]" if it.name else "")
                                     + f": {it.error}")
            assert it.family is not None
            label = it.file + (f"[{it.name}]" if it.name else "")
            items.append(PuzzleItem(label, it.family.kind, it.puzzle))
    if not items:
        raise UsageError("no puzzles to compare")
    return items


def tasks(items: list[PuzzleItem], models: list[str | None], encodings: dict[str, list[str]],
          backends: list[str], seeds: int, timeout: float,
          memory_mb: int | None) -> list[Task]:
    """Every run of the sweep, in a fixed order. A model a family does not have is skipped for
    that family (so one sweep can hold several families)."""
    from ..backends import get_backend
    from ..puzzles import family

    for kind in KINDS:
        for name in encodings[kind]:
            if name not in REGISTRY[kind]:
                raise UsageError(f"unknown {kind} encoding {name!r}; choose from "
                                 f"{', '.join(REGISTRY[kind])}")
    for b in backends:
        get_backend(b)  # unknown or unavailable: one clear error now, not a failed sweep
    combos = [dict(zip(KINDS, c, strict=True))
              for c in itertools.product(*(encodings[k] for k in KINDS))]
    out = []
    used_models = set()
    for item in items:
        fam = family(item.kind)
        for model in models:
            name = model or fam.default_model
            if name not in fam.models:
                continue
            used_models.add(model)
            for enc, backend, seed in itertools.product(combos, backends, range(seeds)):
                Encodings(**enc)
                out.append(Task(item.label, item.kind, item.instance, item.parameters,
                                item.planted, name, enc, backend, seed, timeout, memory_mb))
    missing = [m for m in models if m not in used_models]
    if missing:
        raise UsageError(f"model {missing[0]!r} belongs to none of the puzzles' families")
    return out


def done_keys(path: Path) -> set[tuple[str, ...]]:
    """The runs a results file already holds (to resume)."""
    if not path.exists() or path.stat().st_size == 0:
        return set()
    with path.open(newline="") as f:
        reader = csv.DictReader(f)
        if reader.fieldnames != COLUMNS:
            raise SatDominoError(f"{path} is not a satdomino compare results file (other "
                                 "columns); choose another -o")
        return {tuple(row[k] for k in KEY) for row in reader}


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


class Appender:
    """Rows appended and flushed one by one: what is written stays written."""

    def __init__(self, path: Path) -> None:
        new = not path.exists() or path.stat().st_size == 0
        if not new:  # a row cut short by a hard kill: drop it, it runs again
            data = path.read_bytes()
            if not data.endswith(b"\n"):
                with path.open("r+b") as f:
                    f.truncate(data.rfind(b"\n") + 1)
        self.file = path.open("a", newline="")
        self.writer = csv.DictWriter(self.file, fieldnames=COLUMNS)
        if new:
            self.writer.writeheader()
            self.file.flush()

    def __call__(self, row: dict[str, Any]) -> None:
        self.writer.writerow(row)
        self.file.flush()
        os.fsync(self.file.fileno())

    def close(self) -> None:
        self.file.close()


class Progress:
    """A one-line progress bar with counts and ETA on a terminal; silent otherwise."""

    def __init__(self, total: int, enabled: bool | None = None) -> None:
        self.total, self.done, self.failed = total, 0, 0
        self.started = time.monotonic()
        self.enabled = sys.stderr.isatty() if enabled is None else enabled

    def update(self, row: dict[str, Any]) -> None:
        self.done += 1
        self.failed += row["status"] not in ("sat", "unsat")
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done)
        width = 30
        filled = int(width * self.done / max(self.total, 1))
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}"
                         f" runs, {self.failed} unsolved, ETA {_clock(eta)}  ")
        if self.done == self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s"


def run_local(todo: list[Task], jobs: int) -> Iterator[dict[str, Any]]:
    """Rows as runs finish, at most ``jobs`` children at once, watched from this thread."""
    pending = list(reversed(todo))
    running: dict[int, Child] = {}
    try:
        while pending or running:
            while pending and len(running) < jobs:
                child = Child(pending.pop())
                running[child.fd] = child
            wait = max(0.0, min(c.deadline for c in running.values()) - time.monotonic())
            ready, _, _ = select.select(list(running), [], [], wait)
            for fd in ready:
                child = running[fd]
                chunk = os.read(fd, 65536)
                if chunk:
                    child.data += chunk
                else:
                    del running[fd]
                    yield child.finish(killed=False)
            now = time.monotonic()
            for fd, child in list(running.items()):
                if now >= child.deadline:
                    del running[fd]
                    yield child.finish(killed=True)
    finally:  # interrupted: no orphan runs left behind
        for child in running.values():
            child.finish(killed=True)


def run_dask(todo: list[Task], address: str) -> Iterator[dict[str, Any]]:
    """Rows as runs finish on a Dask distributed cluster; each worker isolates each run."""
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'satdomino[distributed]'") from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError) as e:
        raise SatDominoError(f"cannot reach the Dask scheduler at {address}: {e}") from None
    try:
        futures = client.map(run_isolated, todo, pure=False)
        index = {f.key: t for f, t in zip(futures, todo, strict=True)}
        for fut in as_completed(futures):
            try:
                yield fut.result()
            except Exception as e:  # the worker itself died: record it, go on
                t = index[fut.key]
                row = dict.fromkeys(COLUMNS, "")
                row.update(puzzle=t.puzzle, family=t.kind, model=t.model, backend=t.backend,
                           seed=t.seed, status="crash", note=f"worker failed: {e}"[:300],
                           **t.encodings)
                yield row
    finally:
        client.close()


def sweep(todo: list[Task], out: Path, jobs: int = 1, scheduler: str | None = None,
          progress: Progress | None = None,
          on_row: Callable[[dict[str, Any]], None] | None = None) -> int:
    """Run what ``out`` does not hold yet; append each row as it comes. The runs done now."""
    have = done_keys(out)
    left = [t for t in todo if t.key() not in have]
    progress = progress or Progress(len(left))
    appender = Appender(out)
    try:
        rows = run_dask(left, scheduler) if scheduler else run_local(left, jobs)
        for row in rows:
            appender(row)
            progress.update(row)
            if on_row:
                on_row(row)
    finally:
        appender.close()
    return len(left)
