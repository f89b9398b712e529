"""Generated puzzles: one place that knows each family's generator, its parameters, and how to
say which command remakes a puzzle (recorded in the first lines of every exported instance)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from .errors import OutOfTimeError, UsageError
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


def unique(kind: str, params: dict[str, Any], seed: int, timeout: float | None = None,
           rules: dict[str, bool] | None = None, *, difficulty: str | None = None,
           unique_by: str = "placement", progress=None, tries: int | None = None
           ) -> tuple[Any, int]:
    """(a puzzle with exactly one solution under the readings ``rules``, the seed that made
    it). Every family's is built unique: planted, then repaired until the solver proves it
    (``tries`` is kept for old callers and unused)."""
    return made(kind, params, seed, unique=True, timeout=timeout, rules=rules,
                difficulty=difficulty, unique_by=unique_by, progress=progress,
                grade=False).puzzle, seed


@dataclass
class Made:
    """A generated puzzle and how it came out."""
    puzzle: Any
    seed: int
    unique: bool
    unique_by: str = "placement"
    solution: Any = None  # the planted layout (every rule holds for it)
    grade: str | None = None  # explain's level ("elimination", "solver", ...), when measured
    hard_steps: int | None = None  # explain's steps beyond the named rules
    repairs: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        """One line for stderr: what was made and how hard it is."""
        what = ("a planted solution" if not self.unique else "exactly one pips grid"
                if self.unique_by == "grid" else "exactly one solution")
        line = f"seed {self.seed} gives a puzzle with {what}"
        if self.grade is None and self.unique:
            line += "; difficulty not measured" + (
                " (explain needs a unique layout)" if self.unique_by == "grid" else
                " (explain did not finish in the time given)")
        if self.grade:
            line += f"; difficulty {self.grade}"
            if self.hard_steps:
                line += (f", {self.hard_steps} step{'s' if self.hard_steps > 1 else ''} "
                         "beyond the named rules")
        return line + f" ({self.seconds:.2f} s)"


# explain's share of the time when grading a generated puzzle (a double-30 Dominosa board or
# a 20x20 Domino Fit board takes 1.2-1.5 s)
GRADE_SECONDS = 2.0


def made(kind: str, params: dict[str, Any], seed: int, *, unique: bool = False,
         timeout: float | None = None, rules: dict[str, bool] | None = None,
         difficulty: str | None = None, unique_by: str = "placement", progress=None,
         grade: bool = True) -> Made:
    """One generated puzzle: planted, or built unique (``unique``) under the readings
    ``rules``; Pips with ``difficulty`` takes its preset's size and band (the size from
    ``params`` when it gives ``dominoes``). A unique puzzle is graded by ``explain`` (with
    ``grade``)."""
    import dataclasses

    from .puzzles import pips_gen
    from .solve import TimeUp, ringing_after

    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    if kind == "pips" and difficulty is not None and params.get("dominoes") is None:
        import random

        params = dict(params, dominoes=random.Random(f"pips-size:{difficulty}:{seed}")
                      .randint(*pips_gen.PRESETS[difficulty]))
    check(kind, params)
    if kind != "pips" and (difficulty is not None or unique_by != "placement"):
        raise UsageError("--difficulty and --unique-by are for pips")
    out = Made(None, seed, unique, unique_by=unique_by)
    try:  # an alarm also stops the Python loops (planting, building models) between solves
        with ringing_after(timeout):
            _make_into(out, kind, params, seed, unique, rules, difficulty, unique_by, progress,
                       grade, deadline)
    except TimeUp:
        raise OutOfTimeError(f"no {'unique ' if unique else ''}{_named(kind, params)} within "
                             "the time limit") from None
    if unique and grade and kind != "pips":  # after the alarm: a grade cut short is no failure
        out.grade, out.hard_steps = _grade(kind, out.puzzle, deadline)
    if out.grade is not None and "search" in out.grade:  # unique by grid: layouts not
        out.grade = out.hard_steps = None  # explained to the end, so no grade
    if rules:
        out.puzzle = dataclasses.replace(out.puzzle, **rules)
    out.seconds = time.monotonic() - started
    return out


def _named(kind: str, p: dict[str, Any]) -> str:
    """The puzzle asked for, in words: "Pips puzzle of 60 dominoes"."""
    return {"dominosa": lambda: f"double-{p['n']} Dominosa board",
            "pips": lambda: f"Pips puzzle of {p['dominoes']} dominoes",
            "dominofit": lambda: f"{p['width']}x{p['height']} Domino Fit board",
            "doodlefit": lambda: f"Doodle Fit puzzle of {p['cells']} cells and {p['blocks']} "
                                 "blocks"}[kind]()


def _make_into(out: Made, kind: str, params: dict[str, Any], seed: int, unique: bool, rules,
               difficulty, unique_by: str, progress, grade: bool,
               deadline: float | None) -> None:
    from .puzzles import pips_gen

    if kind == "pips" and (unique or difficulty is not None):
        result = pips_gen.make(params["dominoes"], seed, difficulty=difficulty,
                               unique_by=unique_by, max_pip=params.get("max_pip", 6),
                               deadline=deadline, progress=progress, unique=unique,
                               grade=grade)
        out.puzzle, out.solution, out.repairs = result.puzzle, result.solution, result.rounds
        if unique and grade:
            out.grade, out.hard_steps = result.grade, result.hard_steps
    elif not unique:
        out.puzzle = planted(kind, params, seed)
    else:
        if kind == "dominosa":
            from .puzzles.dominosa_unique import unique_board

            out.puzzle, out.solution = unique_board(params["n"], seed, deadline=deadline)[:2]
        elif kind == "dominofit":
            from .puzzles.dominofit_unique import unique_board as fit_board

            out.puzzle, out.solution, out.repairs = fit_board(
                params["width"], params["height"], seed, deadline, progress, rules or {})
        else:
            from .puzzles.doodlefit_unique import unique_puzzle

            out.puzzle, out.solution, out.repairs = unique_puzzle(
                params["cells"], params["blocks"], seed, deadline, progress, rules or {})


def _grade(kind: str, puzzle: Any, deadline: float | None) -> tuple[str | None, int | None]:
    """explain's level and steps beyond the named rules (unshrunk reasons: quick), or
    (None, None) when it does not finish in its share of the time."""
    from .analysis.explain import difficulty, explain

    left = GRADE_SECONDS if deadline is None else min(GRADE_SECONDS,
                                                      deadline - time.monotonic())
    if left <= 0:
        return None, None
    out = explain(puzzle, family(kind), timeout=left, minimal=False)
    return difficulty(out) if out.complete else (None, None)


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
            readings: dict[str, bool] | None = None, extra: list[str] | None = None) -> str:
    """The command line that makes this puzzle (and its instance's reading of the rules);
    ``extra``: further options (``--difficulty hard``)."""
    flags = [f"--{k.replace('_', '-')} {params[k]}" for k in PARAMETERS[kind] if k in params]
    flags += extra or []
    flags.append(f"--seed {seed}")
    flags += ["--unique"] if is_unique else []
    flags += [f"--{k}" if v else f"--no-{k}" for k, v in (readings or {}).items()]
    return " ".join(["satdomino generate", kind, *flags])


def origin(kind: str, params: dict[str, Any], seed: int, is_unique: bool, puzzle: Any,
           readings: dict[str, bool] | None = None, extra: list[str] | None = None) -> Origin:
    """Provenance of a generated puzzle, for the first comment lines of its instances."""
    recorded: dict[str, Any] = {k: params[k] for k in PARAMETERS[kind] if k in params}
    recorded.update(seed=seed, unique=is_unique, **(readings or {}))
    for flag in extra or []:
        name, value = flag.lstrip("-").split(" ", 1)
        recorded[name.replace("-", "_")] = value
    return Origin(command(kind, params, seed, is_unique, readings, extra),
                  puzzle_text(kind, puzzle), parameters=recorded,
                  status=SAT)  # planted: a solution exists
