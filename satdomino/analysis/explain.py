"""Explaining a puzzle step by step: each step places a piece that the placements before it
force, with the reason.

The puzzle's model is split into its constraints (a cell's "exactly one placement", a domino's
"placed exactly once", a region's sum, ...), each lowered to clauses of its own behind a
selector literal, so a solver can say which constraints a deduction needs. A step is the
easiest deduction left, by level:

1. **rule**: one constraint alone leaves a single candidate, with the placements so far and
   what they rule out directly ("cell (2, 4): one candidate left", "the only place left for
   3-5"), or allows only one way ("region B (sum 12)": propagation over that constraint alone);
2. **elimination**: one candidate left once named rules have ruled others out
   (``analysis/rules.py``: a placement that would leave a cell or a domino with no place, or
   cut the open squares into odd areas; Tatham's Basic deductions);
3. **set**: the same, with set analysis among the rules (Tatham's Hard);
4. **chain**: the same, with forcing chains or set analysis around a double among the rules
   (Tatham's Extreme);
5. **contradiction**: the same, with proof by contradiction among the rules: placing a
   candidate leads, one named constraint at a time, to a constraint with no place left (or
   filled twice), in at most 10 steps (``analysis/trial.py``; the shortest chains first);
6. **propagation**: unit propagation over all constraints forces it (a chain of rules);
7. **solver**: the puzzle with the placement negated is unsatisfiable; the reason is a minimal
   unsatisfiable set of constraints (shrunk from the solver's core by deletion), given with its
   size; the step taken is the one with the smallest such set.

When nothing is forced the puzzle has another solution from here: the explanation stops,
incomplete. A complete explanation's placements are decoded and checked by the family's rules.
The grade is the hardest level a puzzle needed (with the largest reason at level 7).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ..backends import get_backend
from ..clock import NEVER, Deadline, TimeUp
from ..encode import CNF, Encodings, lower
from ..errors import OutOfTimeError, SatDominoError, VerificationError
from ..family import Cell, Family
from ..model import AtMostOne, Constraint, ExactlyOne, Model
from ..ranges import time_limit
from ..render import svg
from ..render.text import counted
from ..result import Result
from .rules import RANK, Candidates, RuledOut
from .trial import Trials, structure

Squares = tuple[set[Cell], Callable[[Hashable], list[Cell]]]
LEVELS = {1: "rule", 2: "elimination", 3: "set", 4: "chain", 5: "contradiction",
          6: "propagation", 7: "solver"}
CONTRADICTION, PROPAGATION, SOLVER = 5, 6, 7
# a refutation tried while ranking or shrinking reasons: settled within this many conflicts, or
# left (a part of a reason is then kept; a placement is then tried again without a budget)
SHRINK_CONFLICTS = 2000


@dataclass
class Step:
    placement: int  # the model variable placed
    key: Hashable  # its name in the model
    level: int
    rule: str
    uses: list[str]  # the constraints (and earlier steps) the deduction needs
    ruled_out: list[RuledOut] = field(default_factory=list)  # named eliminations it rests on
    text: str = ""  # in words, as ``explain`` prints it: "3-5 at (2,4)-(2,5): cell (2, 4): ..."

    def __str__(self) -> str:
        return self.text or f"{self.key}: {self.rule}"


@dataclass
class Explanation:
    steps: list[Step] = field(default_factory=list)
    complete: bool = False  # every piece placed (and the layout passed the rule checker)
    solution: Any = None  # the decoded layout when complete
    reason: str = ""  # why it stopped short: "time limit", "not forced: another solution"
    # the squares placements can cover (``_squares``), found within the time limit (None: not
    # found by then); what ``numbered_board`` and ``numbered_svg`` draw on
    board: Squares | None = field(default=None, repr=False)

    @property
    def grade(self) -> str:
        """The hardest step: "rule", "elimination", "set", "chain", "contradiction",
        "propagation", "solver-K" (K constraints in its reason), with "+search" when the
        explanation stopped short."""
        if not self.steps:
            return "search" if not self.complete else "none"
        hardest = max(self.steps, key=lambda s: (s.level, len(s.uses)))
        word = LEVELS[hardest.level]
        if hardest.level == SOLVER:
            word += f"-{_constraint_count(hardest.uses)}"
        return word if self.complete else word + "+search"


def _constraint_count(uses: list[str]) -> int:
    """The named constraints among a reason's parts (not the steps it builds on)."""
    return sum(1 for u in uses if not u.startswith("step ") and u != "a given placement")


class _Groups:
    """The model's constraints, each lowered alone behind a selector, in one solver session
    (Glucose: it gives cores, propagates on demand and stops when interrupted), and a second
    session that only propagates: the searching one's learned clauses would make its
    propagation stronger than the constraints' own."""

    def __init__(self, m: Model, deadline: Deadline) -> None:
        if m.ints:
            raise SatDominoError("explain needs a model without integer variables "
                                 "(the family's placement model)")
        self.m = m
        self.deadline = deadline
        self.constraints = list(m.constraints)
        self.labels = {id(c): m.label(i) for i, c in enumerate(self.constraints)}
        n = m.num_vars
        lowered, top = [], n
        for c in self.constraints:  # each constraint's auxiliaries above the ones before
            deadline.check()  # a big board's constraints take seconds to lower
            cnf = _lower_one(m, c)
            lowered.append((cnf.clauses, top - n))
            top += cnf.num_vars - n
        self.selectors = list(range(top + 1, top + 1 + len(lowered)))
        self.index = {s: i for i, s in enumerate(self.selectors)}
        for (cs, shift), sel in zip(lowered, self.selectors, strict=True):
            cs[:] = [[x if abs(x) <= n else x + shift if x > 0 else x - shift for x in clause]
                     + [-sel] for clause in cs]  # in place: one copy of the clauses at a time
        cnf = CNF(top + len(lowered), n, [clause for cs, _ in lowered for clause in cs])
        glucose = get_backend("glucose4")
        self.solver = glucose.session(cnf)
        self.unit = glucose.session(cnf)

    def describe(self, m: Model, c: object) -> str:
        """A constraint by its label."""
        return self.labels[id(c)]

    def forced(self, placed: list[int], x: int) -> list[int] | None:
        """The constraints (selectors) and placements a minimal reason for ``x`` needs, or
        None when ``x`` is not forced."""
        core = self.core(placed, x)
        return None if core is None else self.shrink(core, x)

    def core(self, placed: list[int], x: int, budget: int | None = None) -> list[int] | None:
        """A reason for ``x`` as the solver's core gives it (not minimal), or None (not
        forced, or not settled within ``budget`` conflicts)."""
        assumptions = self.selectors + placed + [-x]
        if self._solve(assumptions, budget) is not False:
            return None
        core = set(self.solver.core() or assumptions)
        return [a for a in assumptions if a in core and a != -x]

    def shrink(self, needed: list[int], x: int) -> list[int]:
        """Deletion: drop each part of the reason the contradiction does without. A test the
        solver cannot settle in SHRINK_CONFLICTS conflicts keeps its part: the reason stays
        unsatisfiable, though then perhaps not minimal."""
        i = 0
        while i < len(needed):
            trial = needed[:i] + needed[i + 1:]
            if self._solve(trial + [-x], SHRINK_CONFLICTS) is False:
                core = set(self.solver.core() or trial)
                needed = [a for a in trial if a in core]
            else:
                i += 1
        return needed

    def model(self, placed: list[int]) -> set[int]:
        """The true literals of one solution extending ``placed``."""
        return set(self._answer(self.selectors + placed).true_vars)

    def _solve(self, assumptions: list[int], budget: int | None = None) -> bool | None:
        """True, False, or None (the budget ran out); OutOfTimeError at the deadline."""
        status = self._answer(assumptions, budget).status
        return None if status == "unknown" else status == "sat"

    def _answer(self, assumptions: list[int], budget: int | None = None) -> Result:
        answer = self.solver.solve(assumptions, deadline=self.deadline, conflicts=budget)
        if self.deadline.passed() or answer.status == "unknown" and budget is None:
            raise OutOfTimeError("time limit")
        return answer

    def propagated(self, placed: list[int]) -> set[int]:
        """Every literal unit propagation gives from all constraints and ``placed``."""
        ok, lits = self.unit.propagate(self.selectors + placed)
        return set(lits) if ok else set()

    def close(self) -> None:
        self.solver.close()
        self.unit.close()


# an "at most one" of up to this many literals is lowered pairwise, a longer one by a sequential
# counter: both propagate fully, and pairwise clauses grow with the square (a Doodle Fit cell
# with 2,000 candidate placements: 2 million clauses, and hundreds of such cells)
PAIRWISE_UP_TO = 64


def _lower_one(m: Model, c: Constraint) -> CNF:
    one = Model(m.name)
    one._ids, one._names = m._ids, m._names  # the same variables, none added
    one.constraints = [c]
    small = isinstance(c, (ExactlyOne, AtMostOne)) and len(c.lits) <= PAIRWISE_UP_TO
    return lower(one, Encodings(amo="pairwise" if small else "seqcounter"))


def explain(puzzle: Any, family: Family[Any, Any], *, timeout: float | None = None,
            deadline: Deadline = NEVER, max_steps: int | None = None,
            given: list[dict] | None = None) -> Explanation:
    """Steps until the puzzle is solved or nothing more is forced (module docstring), on the
    family's first model; ``timeout`` seconds in all (or the ``deadline``; the steps so far
    are kept). ``given``: placements already made (as ``step_json`` shows them), checked to lie
    in a solution; a given placement in none raises SatDominoError naming it."""
    limit = time_limit(timeout, deadline)
    out = Explanation()
    groups = None
    try:  # the named rules and building the groups are Python loops: the deadline stops them
        with limit.interrupting():
            m = family.model(None)(puzzle)
            start = _given_vars(puzzle, family, m, given or [])
            groups = _Groups(m, limit)
            for x in start:
                if not groups._solve(groups.selectors + [x]):
                    raise SatDominoError(f"the given placement {_shown(puzzle, family, m, x)} "
                                         "is in no solution")
            if start and not groups._solve(groups.selectors + start):
                raise SatDominoError("the given placements are in no solution together")
            _explain(puzzle, family, m, groups, max_steps, out, start)
    except (TimeUp, OutOfTimeError):
        out.reason = "time limit"
    finally:
        if groups is not None:
            groups.close()
    return out


def difficulty(out: Explanation) -> tuple[str, int]:
    """What the generators report of an explanation: the level name of its grade (a
    solver reason's size dropped; "+search" kept) and how many steps are hard: by
    contradiction or beyond (level 5 and up)."""
    word = out.grade.split("+")[0].split("-")[0]
    return word + ("+search" if "+search" in out.grade else ""), sum(
        s.level >= CONTRADICTION for s in out.steps)


def hint(puzzle: Any, family: Family[Any, Any], given: list[dict] | None = None,
         timeout: float | None = None, deadline: Deadline = NEVER) -> Explanation:
    """The next step only, from the ``given`` placements (``explain`` with one step):
    ``.steps`` holds it, or is empty with ``.complete`` (nothing left to place) or a
    ``.reason``."""
    return explain(puzzle, family, timeout=timeout, deadline=deadline, max_steps=1,
                   given=given)


def _shown(puzzle: Any, family: Family[Any, Any], m: Model, x: int) -> str:
    return json.dumps(family.placement_json(puzzle, m.key(x)))


def _given_vars(puzzle: Any, family: Family[Any, Any], m: Model,
                given: list[dict]) -> list[int]:
    """Model variables of placements in ``step_json``'s shape (cells in any order, each with
    its pips); an unknown one is an error."""
    if not isinstance(given, list | tuple):
        raise TypeError(f"given must be a list of placements as explain's steps show them, "
                        f"not {given!r}"[:200])
    index = {_placement_id(family.placement_json(puzzle, m.key(x))): x for x in m.projection}
    out = []
    for g in given:
        x = index.get(_placement_id(g))
        if x is None:
            raise SatDominoError(f"the given placement {json.dumps(g, default=repr)[:80]} is not a "
                                 f"placement of this {family.kind} puzzle")
        if x not in out:
            out.append(x)
    return out


def _placement_id(shown: object) -> str | None:
    """A placement as ``step_json`` shows it, as text that does not depend on the order its
    cells are listed in (each cell keeps its pips): a domino written as ``solve`` shows it,
    from its other end, is the same placement."""
    if not isinstance(shown, dict):
        return None
    out = dict(shown)
    cells, pips = shown.get("cells"), shown.get("pips")
    try:
        if isinstance(cells, list) and isinstance(pips, list) and len(pips) == len(cells):
            out["cells"] = sorted(json.dumps([u, k]) for u, k in zip(cells, pips, strict=True))
            del out["pips"]
        elif isinstance(cells, list):
            out["cells"] = sorted(map(json.dumps, cells))
        return json.dumps(out, sort_keys=True)
    except (TypeError, ValueError):  # not JSON (a library caller's set, say)
        return None


def step_json(puzzle: Any, family: Family[Any, Any], step: Step) -> dict:
    """A step as ``explain --json`` gives it."""
    shown = partial(family.placement_json, puzzle)
    return {"placements": [shown(step.key)], "rule": step.rule, "uses": step.uses,
            "level": step.level,
            "ruled_out": [{"placement": shown(r.key), "rule": r.rule}
                          | ({"chain": list(r.chain)} if r.chain else {})
                          for r in step.ruled_out]}


def _explain(puzzle: Any, family: Family[Any, Any], m: Model, groups: _Groups,
             max_steps: int | None, out: Explanation, start: list[int]) -> None:
    placed: list[int] = list(start)
    finished = False
    step_of: dict[int, int] = {}
    projection = list(m.projection)
    describe = groups.describe
    board, cells = out.board = _squares(puzzle, family, m)
    candidates = Candidates(
        m, groups.constraints, describe, squares=cells if board else None,
        values=(lambda key: _shows(puzzle, family, key, cells(key))) if board else None,
        breaks=_Breaks(groups, m, describe),
        contradictions=_Contradictions(groups, m, partial(_fact, puzzle, family, m)))
    reported: set[int] = set()  # ruled-out placements some step has shown already
    if not groups._solve(groups.selectors):
        out.reason = "the puzzle has no solution"
        return
    while max_steps is None or len(out.steps) < max_steps:
        implied = groups.propagated(placed)
        if not implied:
            raise VerificationError("the placements so far contradict the puzzle")
        placed_set = set(placed)
        to_place = [x for x in projection if x in implied and x not in placed_set]
        undecided = [x for x in projection if x not in implied and -x not in implied]
        if not to_place and not undecided:
            finished = True
            break
        step = _by_rule(candidates, placed_set, m, reported)
        chain = None
        if step is None:
            chain = _by_propagation(groups, placed, to_place, m, describe, step_of)
            if chain is not None and _constraint_count(chain.uses) == 1:
                step, chain = chain, None
                step.level, step.rule = 1, f"{step.uses[0]}: the only way left"
        if step is None and candidates.rule_out(placed_set):
            continue  # more ruled out: look for a candidate left alone again
        step = step or chain or _by_solver(groups, placed, undecided, m, describe, step_of)
        if step is None:
            out.reason = "nothing is forced: another solution goes on from here"
            break
        step_of[step.placement] = len(out.steps) + 1
        step.text = f"{_fact(puzzle, family, m, step.placement)}: {step.rule}"
        out.steps.append(step)
        placed.append(step.placement)
    if finished:  # the loop broke with ``implied`` current
        solution = family.decode(puzzle, m, frozenset(x for x in projection if x in implied))
        problems = family.verify(puzzle, solution)
        if problems:
            raise VerificationError(f"explained {family.kind} layout breaks the rules: "
                                    f"{'; '.join(problems[:3])}")
        out.complete, out.solution = True, solution
    elif not out.reason:
        out.reason = f"stopped after {counted(len(out.steps), 'step')}"


def _shows(puzzle: Any, family: Family[Any, Any], key: Hashable,
           squares: list[Cell]) -> list[Any] | None:
    """The number each of a placement's squares shows, when the family shows them (Dominosa's
    and Pips's pips), in the order of ``squares``."""
    shown = family.placement_json(puzzle, key)
    if "pips" not in shown:
        return None
    pips = {tuple(u): v for u, v in zip(shown["cells"], shown["pips"], strict=True)}
    return [pips.get(u) for u in squares]


class _Breaks:
    """The named rule "placing it would break region B": unit propagation from the placement,
    over the cells, the pieces and that one rule (a region, a row sum: the constraints of one
    name), ends in a conflict."""

    def __init__(self, groups: _Groups, m: Model, describe) -> None:
        self.groups, self.m = groups, m
        self.structure: list[int] = []
        self.rules: dict[str, list[int]] = {}
        placements = set(m.projection)
        for c, sel in zip(groups.constraints, groups.selectors, strict=True):
            if structure(c, placements):
                self.structure.append(sel)
            elif getattr(c, "lits", None) or getattr(c, "terms", None):
                self.rules.setdefault(describe(m, c), []).append(sel)

    def __call__(self, placed: set[int], dead: set[int]) -> list[RuledOut]:
        if not self.rules:
            return []
        found = []
        base = self.structure + sorted(placed)
        every = base + [sel for sels in self.rules.values() for sel in sels]
        for x in self.m.projection:
            if x in dead or x in placed:
                continue
            if self._holds(every + [x]) or not self._holds(base + [x]):
                continue  # no conflict, or one without any rule (a chain of cells)
            name = next((name for name, sels in self.rules.items()
                         if not self._holds(base + sels + [x])), None)
            if name is not None:
                found.append(RuledOut(x, self.m.key(x), f"placing it would break {name}",
                                      RANK["breaks"], (), len(placed)))
        return found

    def _holds(self, assumptions: list[int]) -> bool:
        return self.groups.unit.propagate(assumptions)[0]


SHORT_ENOUGH = 5  # steps of a nested chain: the search for a shorter one stops at it


class _Contradictions:
    """The named rule "placing it leads to a contradiction" (``analysis/trial.py``), tried on
    the candidates whose placing unit propagation over all constraints refutes (a quick
    screen: the named steps propagate no further than it), the shortest chains kept."""

    def __init__(self, groups: _Groups, m: Model, fact: Callable[[int], str]) -> None:
        self.groups, self.m = groups, m
        self.trials = Trials(m, [groups.labels[id(c)] for c in groups.constraints], fact)

    def __call__(self, placed: set[int], dead: set[int]) -> list[RuledOut]:
        known = sorted(placed) + [-y for y in sorted(dead)]
        failing = [x for x in self.m.projection if x not in dead and x not in placed
                   and self._fails(known, x)]
        settled = self.trials.settle({abs(x): x > 0 for x in known})
        if settled is None:
            return []
        chains = [(c.size, x, c) for x in failing
                  if (c := self.trials.refute(x, settled)) is not None]
        if not chains:  # none fails alone: try depth two
            live = [x for x in self.m.projection if x not in dead and x not in placed
                    and settled.value.get(x) is None]
            for x in live:
                c = self.trials.refute_nested(x, settled, live, self._fails)
                if c is not None:
                    chains.append((c.size, x, c))
                    if c.size <= SHORT_ENOUGH:  # each try costs a trial per candidate
                        break
        if not chains:
            return []
        shortest = min(n for n, *_ in chains)
        return [RuledOut(x, self.m.key(x), "placing it leads to a contradiction in "
                         + counted(n, "step"), RANK["contradiction"],
                         tuple(sorted(-y for y in c.given if y < 0)), len(placed),
                         tuple(c.steps))
                for n, x, c in chains if n == shortest]

    def _fails(self, facts: list[int], x: int) -> bool:
        """Does unit propagation over all constraints refute ``x`` from the facts of a trial
        (a quick screen: the named steps propagate no further)?"""
        return not self.groups.unit.propagate(self.groups.selectors + facts + [x])[0]


def _fact(puzzle: Any, family: Family[Any, Any], m: Model, x: int) -> str:
    """A literal of the model in words, as the family shows its variables."""
    return family.placement_text(family.placement_json(puzzle, m.key(abs(x))))


def _by_rule(candidates: Candidates, placed: set[int], m, reported: set[int]) -> Step | None:
    """An "exactly one of these" with one candidate left once the placements so far have
    ruled out what they share a cell, a domino or a block with, and the named rules what
    they ruled out; the step shows those eliminations (the ones not shown before)."""
    found = candidates.single(placed)
    if found is None:
        return None
    x, c = found
    name = candidates.describe(m, c)
    needed = candidates.closure(candidates.needs(c.lits, placed))  # type: ignore[attr-defined]
    level = max([1] + [r.rank for r in needed])
    shown = [r for r in needed if r.placement not in reported]
    reported.update(r.placement for r in shown)
    return Step(x, m.key(x), level, f"{name}: one candidate left", [name], shown)


def _by_propagation(groups, placed, to_place, m, describe, step_of) -> Step | None:
    """The placement unit propagation forces with the smallest reason."""
    if not to_place:
        return None
    reason, x = min(((groups.forced(placed, x) or [], x) for x in to_place),
                    key=lambda rx: len(rx[0]))
    return Step(x, m.key(x), PROPAGATION, "a chain of rules",
                _uses(reason, groups, m, describe, step_of))


SHRUNK = 3  # forced placements whose reasons are minimised in full, the smallest cores first


def _by_solver(groups, placed, open_vars, m, describe, step_of) -> Step | None:
    """The forced placement with the smallest reason: only those true in one solution can be
    forced; the solver's cores rank them, and the few smallest are shrunk to minimal
    reasons (shrinking every one cost minutes on some NYT Pips puzzles)."""
    true_now = groups.model(placed)
    candidates = [x for x in open_vars if x in true_now]
    # the easy refutations first, else the first that can be refuted at all
    cores = sorted((len(core), x, core) for x in candidates
                   if (core := groups.core(placed, x, SHRINK_CONFLICTS)) is not None)
    cores = cores or next(([(len(core), x, core)] for x in candidates
                           if (core := groups.core(placed, x)) is not None), [])
    if not cores:
        return None
    reason, x = min(((groups.shrink(core, x), x) for _, x, core in cores[:SHRUNK]),
                    key=lambda rx: len(rx[0]))
    uses = _uses(reason, groups, m, describe, step_of)
    return Step(x, m.key(x), SOLVER, f"the solver: {_constraint_count(uses)} of the puzzle's "
                "rules with it negated are unsatisfiable", uses)


def _uses(reason, groups, m, describe, step_of) -> list[str]:
    names = (describe(m, groups.constraints[groups.index[a]]) if a in groups.index
             else f"step {step_of[a]}" if a in step_of else "a given placement" for a in reason)
    return list(dict.fromkeys(names))  # once: a cell's cover and its value share a name


def _squares(puzzle: Any, family: Family[Any, Any], m: Model | None = None) -> Squares:
    """(every square a placement can cover, the squares of one placement's name); no squares
    when the family shows placements without them (a Pips board given as a graph)."""
    squares = family.squares
    if squares is None:
        return set(), lambda key: []
    m = m or family.model(None)(puzzle)

    def cells(key: Hashable) -> list[Cell]:
        return [tuple(u) for u in squares(puzzle, key) or ()]  # type: ignore[misc]

    return {u for x in m.projection for u in cells(m.key(x))}, cells


def numbered_board(puzzle: Any, family: Family[Any, Any], steps: list[Step],
                   found: Squares | None = None) -> str:
    """The board as rows of step numbers: each square shows the step that covered it, ``.``
    a square no step covered yet (squares are those the puzzle's placements can cover: the
    explanation's ``board`` when ``found``, else found again). Empty for a graph board."""
    board, cells = found or _squares(puzzle, family)
    if not board:
        return ""
    number = {u: str(k) for k, s in enumerate(steps, start=1) for u in cells(s.key)}
    rows = 1 + max(r for r, _ in board)
    cols = 1 + max(c for _, c in board)
    width = max([len(v) for v in number.values()] + [1])
    return "\n".join(" ".join((number.get((r, c), "." if (r, c) in board else " "))
                               .rjust(width) for c in range(cols)).rstrip()
                     for r in range(rows))


def numbered_svg(puzzle: Any, family: Family[Any, Any], steps: list[Step], title: str,
                 found: Squares | None = None) -> str:
    """The puzzle as its family draws it (its numbers and clues), with the pieces the steps
    placed laid on it, each with a badge of its step number in its level's colour, and a
    legend of the levels (``found`` as in ``numbered_board``). Empty for a graph board."""
    board, cells = found or _squares(puzzle, family)
    if not board:
        return ""
    m = family.model(None)(puzzle)  # built as ``explain`` builds it: the same names
    laid = family.decode(puzzle, m, frozenset(m.var(s.key) for s in steps))
    marks = svg.step_marks((cells(s.key), k, s.level) for k, s in enumerate(steps, start=1))
    legend = [(svg.STEP_COLOURS[lv - 1], LEVELS[lv]) for lv in sorted({s.level for s in steps})]
    return svg.overlay(family.render_svg(puzzle, laid), title, marks, legend,
                       "Step numbers, coloured by level:")
