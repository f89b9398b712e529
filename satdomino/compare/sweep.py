"""A sweep: puzzles x models x encodings x backends x seeds, each run isolated (runner.py),
rows appended to a CSV as runs finish, so an interrupted sweep resumes where it stopped.

Executors: local children watched by one thread (``--jobs``), or a Dask distributed cluster
(``--scheduler``). Both call the same ``run_isolated``/``Child`` code, so the rows agree.
"""

from __future__ import annotations

import csv
import dataclasses
import itertools
import math
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..auto import AUTO, setup
from ..backends import get_backend
from ..encode import KINDS, REGISTRY, Encodings
from ..errors import SatDominoError, UsageError
from ..generators import check, made, planted
from ..inputs import load
from ..puzzles import FAMILIES, family
from .runner import COLUMNS, KEY, Child, Task, failed_row, held_stops, run_isolated, watch

MAX_VALUES = 10_000  # values of one parameter, and puzzles of one spec


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
        if (hi - lo) // step >= MAX_VALUES or len(out) >= MAX_VALUES:
            raise UsageError(f"{key}={text}: more than {MAX_VALUES} values")
        out += range(lo, hi + 1, step)
    return list(dict.fromkeys(out))  # each value once


def generated(spec: str, readings: dict[str, bool] | None = None) -> list[PuzzleItem]:
    """The puzzles of a generator spec such as ``dominosa:n=40..60:seeds=5`` (seeds 1..5;
    ``seeds=3..7`` for others; ``unique=yes`` for puzzles with one solution under the
    ``readings`` of the rules, ``{"cover": False}``, where the family has them)."""
    kind, _, rest = spec.partition(":")
    fam = family(kind)
    pairs = [part.partition("=")[::2] for part in rest.split(":") if part]
    fields = dict(pairs)
    if len(fields) < len(pairs):
        twice = next(k for k, _ in pairs if sum(k == j for j, _ in pairs) > 1)
        raise UsageError(f"{spec}: {twice}= given twice")
    unique_text = fields.pop("unique", "no").lower()
    if unique_text not in ("yes", "no", "1", "0", "true", "false"):
        raise UsageError(f"{spec}: unique= takes yes or no, not {unique_text!r}")
    unique = unique_text in ("yes", "1", "true")
    seeds_text = fields.pop("seeds", "1")
    seeds = _values("seeds", seeds_text)
    if not any(c in seeds_text for c in ".,"):  # a single number is a count: seeds 1..K
        if not 1 <= seeds[0] <= MAX_VALUES:
            raise UsageError(f"{spec}: seeds=K needs 1 <= K <= {MAX_VALUES}")
        seeds = list(range(1, seeds[0] + 1))
    takes = [p.name for p in fam.generator.params]
    unknown = set(fields) - set(takes)
    if unknown:
        raise UsageError(f"{spec}: unknown parameter {sorted(unknown)[0]!r} for {kind}; "
                         f"it takes {', '.join(takes)}, seeds, unique")
    values = {k: _values(k, text) for k, text in fields.items()}
    check(fam, {k: v[0] for k, v in values.items()}, spec=spec)  # the spec's own words
    size = len(seeds) * math.prod(map(len, values.values()))
    if size > MAX_VALUES:
        raise UsageError(f"{spec}: {size} puzzles; at most {MAX_VALUES} per spec")
    items = []
    rules = _rules(kind, readings)
    for combo in itertools.product(*values.values()):
        params = dict(zip(values, combo, strict=True))
        for seed in seeds:
            puzzle = (made(fam, params, seed, unique=True, rules=rules, grade=False).puzzle
                      if unique else planted(fam, params, seed))
            label = ":".join([kind, *(f"{k}={v}" for k, v in params.items()), f"seed={seed}",
                              *(["unique"] if unique else [])])
            items.append(PuzzleItem(label, kind, puzzle, {**params, "seed": seed,
                                                          "unique": unique}, planted=True))
    return items


def puzzles(args: Iterable[str], readings: dict[str, bool] | None = None) -> list[PuzzleItem]:
    """Files, folders and generator specs, in order, read under the ``readings`` of the rules
    (``{"cover": False}``) where a family has them; bad input is one clear error."""
    items: list[PuzzleItem] = []
    for arg in args:
        # a generator spec such as ``dominosa:n=40`` (a family's name, then a colon)
        if ":" in arg and arg.partition(":")[0] in FAMILIES and not Path(arg).exists():
            items += generated(arg, readings)
            continue
        for it in load([arg], None):
            if it.error is not None:
                raise SatDominoError(f"{it.where}: {it.error}")
            assert it.family is not None
            label = it.file + (f"[{it.name}]" if it.name else "")
            items.append(PuzzleItem(label, it.family.kind, it.puzzle))
    if not items:
        raise UsageError("no puzzles to compare")
    for item in items:
        rules = _rules(item.kind, readings)
        if rules:  # part of the puzzle's identity, so a resumed sweep keeps them apart
            item.instance = dataclasses.replace(item.instance, **rules)
            item.label += " (" + ", ".join(k if v else f"no-{k}" for k, v in rules.items()) + ")"
    return items


def _rules(kind: str, readings: dict[str, bool] | None) -> dict[str, bool]:
    """The ``readings`` of the rules that the family ``kind`` has."""
    fields = {r.field for r in family(kind).readings}
    return {k: v for k, v in (readings or {}).items() if k in fields}


def tasks(items: list[PuzzleItem], models: list[str | None],
          encodings: dict[str, list[str | None]], backends: list[str], seeds: int,
          timeout: float, memory_mb: int | None) -> list[Task]:
    """Every run of the sweep, in a fixed order. A model a family does not have is skipped for
    that family (so one sweep can hold several families). An encoding kind given as [None] is
    not named: ``auto`` picks it (or, with a named backend, the default). ``auto`` is settled
    here, per puzzle: a task names what it runs, and its backend reads ``auto: NAME``."""
    for kind in KINDS:
        if not encodings[kind]:
            raise UsageError(f"--{kind} needs at least one encoding name")
        for name in encodings[kind]:
            if name is not None and name not in REGISTRY[kind]:
                raise UsageError(f"unknown {kind} encoding {name!r}; choose from "
                                 f"{', '.join(REGISTRY[kind])}")
    if not backends:
        raise UsageError("--backend needs at least one backend name")
    # unknown or unavailable: an error now; python-sat's aliases (g3, glucose30) name the same
    # solver as glucose3, so each runs once under its own name
    engines = {b: (b if b == AUTO else get_backend(b)) for b in backends}
    backends = list(dict.fromkeys(e if isinstance(e, str) else e.name for e in engines.values()))
    combos = [{k: v for k, v in zip(KINDS, c, strict=True) if v is not None}
              for c in itertools.product(*(encodings[k] for k in KINDS))]
    for engine, enc in itertools.product(engines.values(), combos):
        if not isinstance(engine, str):
            engine.check(Encodings(**enc))  # native constraints on a backend without them
    out = []
    used_models = set()
    for item in items:
        fam = family(item.kind)
        for model in models:
            if model is not None and model not in fam.models:
                continue
            used_models.add(model)
            for enc, backend, seed in itertools.product(combos, backends, range(seeds)):
                chosen = setup(item.instance, fam, model, backend, enc)
                out.append(Task(item.label, item.kind, item.instance, item.parameters,
                                item.planted, chosen.model or fam.default_model,
                                chosen.encodings.as_dict(), chosen.label, seed, timeout,
                                memory_mb))
    missing = [m for m in models if m not in used_models]
    if missing:
        raise UsageError(f"model {missing[0]!r} belongs to none of the puzzles' families")
    return list({t.key(): t for t in out}.values())  # a puzzle or a name given twice: once


def check_results_file(path: Path) -> None:
    """An existing, non-empty ``path`` must be a results file of this version (its first line
    our header) before anything is read from it or written to it; a row cut short by a hard
    kill is then dropped (before reading what is done): it runs again."""
    if not path.exists() or path.stat().st_size == 0:
        return
    header = ",".join(COLUMNS).encode() + b"\n"
    try:
        with path.open("rb") as f:
            first = f.read(len(header) + 1)
    except OSError as e:
        raise SatDominoError(f"cannot read {path}: {e.strerror or e}") from None
    if not first.replace(b"\r\n", b"\n").startswith(header):
        raise SatDominoError(f"{path} is not a satdomino compare results file (its first line "
                             "is not the header); choose another -o")
    data = path.read_bytes()
    if not data.endswith(b"\n"):
        os.truncate(path, data.rfind(b"\n") + 1)


def done_keys(path: Path) -> set[tuple[str, ...]]:
    """The runs a results file (``check_results_file``'s) already holds (to resume)."""
    if not path.exists() or path.stat().st_size == 0:
        return set()
    return {tuple(row[k] for k in KEY) for row in read_rows(path)}


def read_rows(path: Path) -> list[dict[str, str]]:
    """Every row of a results file."""
    with path.open(newline="", errors="replace") as f:
        return list(csv.DictReader(f))


class Appender:
    """Rows appended and flushed one by one: what is written stays written."""

    def __init__(self, path: Path) -> None:
        try:
            self.file = path.open("a", newline="")
        except OSError as e:
            raise SatDominoError(f"cannot write {path}: {e.strerror or e}") from None
        self.writer = csv.DictWriter(self.file, fieldnames=COLUMNS)
        if self.file.tell() == 0:  # a new file
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
        eta = (time.monotonic() - self.started) / self.done * (self.total - self.done)
        filled = int(30 * self.done / max(self.total, 1))
        print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} runs, "
              f"{self.failed} unsolved, ETA {_clock(eta)}  ",
              end="\n" if self.done == self.total else "", file=sys.stderr, flush=True)

    def close(self) -> None:
        """End the bar's line (also when the sweep is interrupted)."""
        if self.enabled and 0 < self.done < self.total:
            print(file=sys.stderr, flush=True)


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}h{m:02d}m" if h else f"{m}m{s:02d}s"


def run_local(todo: list[Task], jobs: int) -> Iterator[dict[str, Any]]:
    """Rows as runs finish, at most ``jobs`` children at once, watched from this thread."""
    pending = list(reversed(todo))
    running: list[Child] = []
    try:
        while pending or running:
            while pending and len(running) < jobs:
                with held_stops():
                    running.append(Child(pending.pop()))
            child, killed = next(watch(running))
            with held_stops():
                row = child.finish(killed)
                running.remove(child)
            yield row
    finally:  # interrupted: no run left behind
        for child in running:
            child.finish(killed=True)


CONNECT_SECONDS = 10.0  # for reaching a Dask scheduler, at most


def dask_client(address: str, timeout: float | None = None):
    """A client of the Dask scheduler at ``address``, reached within ``timeout`` seconds (at
    most CONNECT_SECONDS), or a one-line error (not installed, no address, cannot be
    reached)."""
    try:
        from distributed import Client
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'satdomino[distributed]'") from None
    if not address.strip():
        raise UsageError("--scheduler needs an address such as tcp://HOST:8786")
    try:
        return Client(address, timeout=min(CONNECT_SECONDS, timeout or CONNECT_SECONDS))
    except (OSError, TimeoutError, ValueError) as e:
        raise SatDominoError(f"cannot reach the Dask scheduler at {address}: {e}") from None


def run_dask(todo: list[Task], address: str) -> Iterator[dict[str, Any]]:
    """Rows as runs finish on a Dask distributed cluster; each worker isolates each run."""
    client = dask_client(address)  # at once, not at the first row: no results file is
    # started for nothing (and Dask missing is said in one line)
    from distributed import as_completed

    def rows() -> Iterator[dict[str, Any]]:
        try:
            futures = client.map(run_isolated, todo, pure=False)
            index = {f.key: t for f, t in zip(futures, todo, strict=True)}
            for fut in as_completed(futures):
                try:
                    yield fut.result()
                except Exception as e:  # the worker itself died: record it, go on
                    yield failed_row(index[fut.key], "crash", f"worker failed: {e}")
        finally:
            client.close()

    return rows()


def sweep(todo: list[Task], out: Path, jobs: int = 1, scheduler: str | None = None,
          progress: Progress | None = None) -> int:
    """Run what ``out`` does not hold yet; append each row as it comes. The runs done now."""
    try:
        check_results_file(out)  # before anything touches it
    except OSError as e:
        raise SatDominoError(f"cannot write {out}: {e.strerror or e}") from None
    have = done_keys(out)
    left = [t for t in todo if t.key() not in have]
    progress = progress or Progress(len(left))
    rows = run_dask(left, scheduler) if scheduler is not None else run_local(left, jobs)
    appender = Appender(out)
    try:
        for row in rows:
            appender(row)
            progress.update(row)
    finally:
        appender.close()
        progress.close()
    return len(left)
