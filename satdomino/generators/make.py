"""Making puzzles of any family from its ``Generator``: the parameters checked against their
bounds, a planted puzzle or one built unique (by the family's builder, or planted seed after
seed until the solver proves one unique), graded by ``explain``, and how to say which command
remakes it (recorded in the first lines of every exported instance)."""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

from ..analysis.explain import difficulty, explain
from ..analysis.repair import BACKEND
from ..clock import NEVER, Deadline, TimeUp
from ..errors import OutOfTimeError, SatDominoError, UsageError
from ..family import Ask, Built, Family
from ..instance import SAT, Origin
from ..ranges import time_limit
from ..solve import solve

# explain's share of the time when grading a generated puzzle: a double-30 Dominosa board
# takes about a second, and a second process on the other core (a test run, a sweep) can
# double that
GRADE_SECONDS = 5.0
# planted puzzles tried for a unique one, by a family without a builder of its own
UNIQUE_TRIES = 200


def check(family: Family[Any, Any], params: dict[str, Any],
          choices: dict[str, str] | None = None, spec: str | None = None) -> None:
    """A one-line UsageError for parameters the generator cannot take, naming them as the
    command line does (``--max-pip``) or, for a compare ``spec``, as the spec does
    (``max_pip=``)."""
    where = f"{spec}:" if spec else f"generate {family.kind}"
    given: dict[str, int] = {}
    for p in family.generator.params:
        value = params.get(p.name, p.default)
        name = f"{p.name}=" if spec else "--" + p.name.replace("_", "-")
        if value is None and (p.required or spec):
            raise UsageError(f"{where} needs {name} between {p.lo} and {p.hi}")
        if value is not None and not (isinstance(value, int) and p.lo <= value <= p.hi):
            raise UsageError(f"{where} {name} must be between {p.lo} and {p.hi}")
        if value is not None:
            given[p.name] = value
    if problem := family.generator.check(given, choices or {}):
        raise UsageError(f"{where} {problem}")


@dataclass
class Made:
    """A generated puzzle and how it came out."""
    puzzle: Any
    seed: int
    unique: bool
    solution: Any = None  # the planted layout (every rule holds for it)
    grade: str | None = None  # explain's level ("elimination", "solver", ...), when measured
    hard_steps: int | None = None  # explain's hard steps: by contradiction or beyond
    repairs: int = 0
    seconds: float = 0.0
    exactly: str = "exactly one solution"  # what is unique, in words
    # why there is no grade
    ungraded: str = f"explain did not finish in its time, at most {GRADE_SECONDS:g} s"

    def summary(self) -> str:
        """One line for stderr: what was made and how hard it is."""
        line = f"seed {self.seed} gives a puzzle with " + (
            self.exactly if self.unique else "a planted solution")
        if self.grade is None and self.unique:
            line += f"; difficulty not measured ({self.ungraded})"
        if self.grade:
            line += f"; difficulty {self.grade}"
            if self.hard_steps:
                line += (f", {self.hard_steps} step{'s' if self.hard_steps > 1 else ''} "
                         "by contradiction or harder")
        return line + f" ({self.seconds:.2f} s)"


def made(family: Family[Any, Any], params: dict[str, Any], seed: int, *, unique: bool = False,
         timeout: float | None = None, deadline: Deadline = NEVER,
         rules: dict[str, bool] | None = None, choices: dict[str, str] | None = None,
         progress: Any = None, grade: bool = True) -> Made:
    """One generated puzzle: planted, or built unique (``unique``) under the readings
    ``rules``, with the generator's ``choices`` (Pips's ``difficulty``). A unique puzzle is
    graded by ``explain`` (with ``grade``)."""
    started = time.monotonic()
    limit = time_limit(timeout, deadline)
    choices = {k: v for k, v in (choices or {}).items() if v is not None}
    check(family, params, choices)
    try:  # the deadline also stops the Python loops (planting, building models) between solves
        with limit.interrupting():
            built = _build(family, params, seed,
                           Ask(unique, limit, dict(rules or {}), choices, progress, grade))
    except TimeUp:
        raise OutOfTimeError(f"no {'unique ' if unique else ''}"
                             f"{family.generator.named(params)} within the time limit") from None
    out = Made(built.puzzle, seed, unique, built.solution, built.grade, built.hard_steps,
               built.repairs, exactly=built.exactly)
    if built.ungraded:
        out.grade = out.hard_steps = None
        out.ungraded = built.ungraded
    elif unique and grade and out.grade is None:  # after the build: cut short, no failure
        out.grade, out.hard_steps = _grade(family, out.puzzle, limit)
    if out.grade is not None and "search" in out.grade:  # not explained to the end
        out.grade = out.hard_steps = None
    if rules:
        out.puzzle = dataclasses.replace(out.puzzle, **rules)
    out.seconds = time.monotonic() - started
    return out


def _build(family: Family[Any, Any], params: dict[str, Any], seed: int,
           ask: Ask) -> Built[Any, Any]:
    gen = family.generator
    params = _with_defaults(family, params)
    if gen.build is not None and (ask.unique or any(
            ask.choices.get(c.name, c.default) != c.default for c in gen.choices)):
        return gen.build(params, seed, ask)
    if not ask.unique:
        return Built(*gen.planted(params, seed))
    why = f"in {UNIQUE_TRIES} planted puzzles"
    for k in range(UNIQUE_TRIES):  # no builder: planted, seed after seed
        puzzle = dataclasses.replace(gen.planted(params, seed + k * 1_000_003)[0], **ask.readings)
        out = solve(puzzle, family, unique=True, deadline=ask.deadline, backend=BACKEND)
        if out.unique:
            return Built(puzzle, out.solution, k)
        if ask.deadline.passed():
            why = "within the time limit"
            break
        if out.status == "unknown" or out.status == "sat" and out.unique is None:
            why = f"(the solver gave no answer: {out.reason or 'unknown'})"
            break
    raise OutOfTimeError(f"no unique {gen.named(params)} {why}")


def _grade(family: Family[Any, Any], puzzle: Any,
           deadline: Deadline) -> tuple[str | None, int | None]:
    """explain's level and hard steps (explain's own, on the same puzzle), or
    (None, None) when it does not finish in its share of the time."""
    limit = deadline.sooner(GRADE_SECONDS)
    if limit.passed():
        return None, None
    try:
        out = explain(puzzle, family, deadline=limit)  # as ``explain`` grades it
    except SatDominoError:  # a model explain cannot take (integer variables)
        return None, None
    return difficulty(out) if out.complete else (None, None)


def command(family: Family[Any, Any], params: dict[str, Any], seed: int, is_unique: bool,
            readings: dict[str, bool] | None = None, extra: list[str] | None = None) -> str:
    """The command line that makes this puzzle (and its instance's reading of the rules);
    ``extra``: further options (``--difficulty hard``)."""
    flags = [f"--{p.name.replace('_', '-')} {params[p.name]}" for p in family.generator.params
             if params.get(p.name) is not None]
    flags += [*(extra or []), f"--seed {seed}", *(["--unique"] if is_unique else [])]
    shown = {r.field: r.flag for r in family.readings}
    flags += [shown[k] for k in readings or {} if k in shown]
    return " ".join(["satdomino generate", family.kind, *flags])


def origin(family: Family[Any, Any], params: dict[str, Any], seed: int, is_unique: bool,
           puzzle: Any, readings: dict[str, bool] | None = None,
           extra: list[str] | None = None) -> Origin:
    """Provenance of a generated puzzle, for the first comment lines of its instances."""
    recorded: dict[str, Any] = {p.name: params[p.name] for p in family.generator.params
                                if params.get(p.name) is not None}
    recorded.update(seed=seed, unique=is_unique, **(readings or {}))
    for flag in extra or []:
        name, value = flag.lstrip("-").split(" ", 1)
        recorded[name.replace("-", "_")] = value
    return Origin(command(family, params, seed, is_unique, readings, extra),
                  family.write(puzzle), parameters=recorded,
                  status=SAT)  # planted: a solution exists


def planted(family: Family[Any, Any], params: dict[str, Any], seed: int) -> Any:
    """The family's planted puzzle: solvable by construction, often with several solutions."""
    check(family, params)
    return family.generator.planted(_with_defaults(family, params), seed)[0]


def _with_defaults(family: Family[Any, Any], params: dict[str, Any]) -> dict[str, Any]:
    return {**{p.name: p.default for p in family.generator.params if p.default is not None},
            **params}
