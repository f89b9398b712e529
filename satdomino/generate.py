"""Generated puzzles: one place that knows each family's generator, its parameters, and how to
say which command remakes a puzzle (recorded in the first lines of every exported instance)."""

from __future__ import annotations

import json
import time
from typing import Any

from .errors import OutOfTimeError, SatDominoError, UsageError
from .export.instance import SAT, Origin
from .puzzles import dominofit, dominosa, doodlefit, family, pips

# parameter names per family, in the order the command line shows them
PARAMETERS: dict[str, tuple[str, ...]] = {
    "dominosa": ("n",), "pips": ("dominoes", "max_pip"),
    "dominofit": ("width", "height"), "doodlefit": ("cells", "blocks")}


def check(kind: str, params: dict[str, Any], spec: str | None = None) -> None:
    """A one-line UsageError for parameters the generator cannot take, naming them as the
    command line does (``--max-pip``) or, for a compare ``spec``, as the spec does
    (``max_pip=``)."""
    p = params

    def name(key: str) -> str:
        return f"{key}=" if spec else "--" + key.replace("_", "-")

    where = f"{spec}:" if spec else f"generate {kind}"
    if kind == "dominofit" and not (p.get("width") and p.get("height")
                                    and 2 <= p["width"] <= 200 and 2 <= p["height"] <= 200):
        raise UsageError(f"{where} needs {name('width')} and {name('height')} "
                         "between 2 and 200")
    if kind == "doodlefit" and not (p.get("cells") and p.get("blocks")
                                    and 1 <= p["blocks"] <= p["cells"] <= 2000):
        raise UsageError(f"{where} needs {name('cells')} and {name('blocks')}, "
                         "1 <= blocks <= cells <= 2000")
    if kind == "pips":
        if p.get("dominoes") is None or not 1 <= p["dominoes"] <= 500:
            raise UsageError(f"{where} needs {name('dominoes')} between 1 and 500")
        if not 0 <= p.get("max_pip", 6) <= pips.MAX_PIPS:
            raise UsageError(f"{where} {name('max_pip')} must be between 0 and {pips.MAX_PIPS}")
    if kind == "dominosa" and (p.get("n") is None or not 0 <= p["n"] <= 200):
        raise UsageError(f"{where} needs {name('n')} between 0 and 200")


def planted(kind: str, params: dict[str, Any], seed: int) -> Any:
    """The family's planted puzzle: solvable by construction, often with several solutions."""
    check(kind, params)
    p = params
    if kind == "dominofit":
        return dominofit.planted(p["width"], p["height"], seed)[0]
    if kind == "doodlefit":
        return doodlefit.planted(p["cells"], p["blocks"], seed)[0]
    if kind == "pips":
        return pips.planted(p["dominoes"], seed, max_pip=p.get("max_pip", 6))[0]
    return dominosa.planted(p["n"], seed)[0]


def readings(kind: str, cover: bool = True, rotate: bool = False,
             reflect: bool = False) -> dict[str, bool]:
    """The readings of the rules that differ from the default, for the families that have
    them (Domino Fit: cover; Doodle Fit: rotate, reflect)."""
    if kind == "dominofit":
        return {} if cover else {"cover": False}
    if kind == "doodlefit":
        return {k: True for k, on in (("rotate", rotate), ("reflect", reflect)) if on}
    return {}


def unique(kind: str, params: dict[str, Any], seed: int, tries: int,
           timeout: float | None = None,
           rules: dict[str, bool] | None = None) -> tuple[Any, int]:
    """(a puzzle with exactly one solution under the readings ``rules``, the seed that made
    it). Dominosa boards are built unique; other families try planted seeds from ``seed``
    until SAT proves one unique."""
    import dataclasses

    from .solve import solve

    check(kind, params)
    deadline = None if timeout is None else time.monotonic() + timeout
    if kind == "dominosa":
        from .puzzles.dominosa_unique import unique_board

        return unique_board(params["n"], seed, deadline=deadline)[0], seed
    for s in range(seed, seed + tries):
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise OutOfTimeError(f"no puzzle with exactly one solution found within --timeout "
                                 f"(seeds {seed}..{s - 1} tried)" if s > seed else
                                 "no puzzle with exactly one solution found within --timeout")
        puzzle = dataclasses.replace(planted(kind, params, s), **(rules or {}))
        if solve(puzzle, family(kind), unique=True, timeout=left).unique:
            return puzzle, s
    raise SatDominoError(f"no puzzle with exactly one solution among seeds {seed}.."
                         f"{seed + tries - 1}; try other parameters or more --tries")


def puzzle_text(kind: str, puzzle: Any, fmt: str | None = None) -> str:
    """The puzzle in its family's file format (Dominosa: game id, or ``fmt="grid"``)."""
    if kind == "dominofit":
        return json.dumps(dominofit.to_json(puzzle)) + "\n"
    if kind == "doodlefit":
        return doodlefit.format_text(puzzle)
    if kind == "pips":
        return json.dumps(pips.to_nyt(puzzle)) + "\n"
    return puzzle.grid_text() if fmt == "grid" else puzzle.game_id() + "\n"


def command(kind: str, params: dict[str, Any], seed: int, is_unique: bool,
            readings: dict[str, bool] | None = None) -> str:
    """The command line that makes this puzzle (and its instance's reading of the rules)."""
    flags = [f"--{k.replace('_', '-')} {params[k]}" for k in PARAMETERS[kind] if k in params]
    flags.append(f"--seed {seed}")
    flags += ["--unique"] if is_unique else []
    flags += [f"--{k}" if v else f"--no-{k}" for k, v in (readings or {}).items()]
    return " ".join(["satdomino generate", kind, *flags])


def origin(kind: str, params: dict[str, Any], seed: int, is_unique: bool, puzzle: Any,
           readings: dict[str, bool] | None = None) -> Origin:
    """Provenance of a generated puzzle, for the first comment lines of its instances."""
    recorded: dict[str, Any] = {k: params[k] for k in PARAMETERS[kind] if k in params}
    recorded.update(seed=seed, unique=is_unique, **(readings or {}))
    return Origin(command(kind, params, seed, is_unique, readings), puzzle_text(kind, puzzle),
                  parameters=recorded, status=SAT)  # planted: a solution exists
