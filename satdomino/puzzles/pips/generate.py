"""Pips puzzles a puzzle maker would publish: boards shaped like the NYT's, built unique.

1. **Plant.** A connected board grown domino by domino, dominoes drawn without repeats from
   the double-six set (or double-``max_pip``), and regions laid over it the way the NYT lays
   them: runs of equal pips become "equals" regions, the rest small regions that are mostly
   sums, some empty, a few "less", "greater" and "unequal". Every rule holds for the planted
   layout.
2. **Repair.** The solver looks for another solution. One region is changed so that the other
   solution breaks a rule and the planted one keeps them all: an empty cell gets a target, a
   sum loses a cell to a region of its own, a "less" or "greater" target tightens, an "equals"
   becomes a sum. Of the changes that work, the one that keeps the mix of region types nearest
   the NYT's is taken. When the other solution shows the same pips everywhere (only the
   pairing differs), no region can tell them apart: one domino gets other pips. Repeat until
   the solver proves the puzzle unique.
3. **Grade.** ``explain`` grades the puzzle; a preset keeps it in its band (``BANDS``) by
   making it again from the next attempt's board.

Unique "by placement" (the default): no other layout of the dominoes, equal dominoes
interchangeable. "by grid": no other pips grid (two layouts with the same pips count as one).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations_with_replacement

from ...analysis.explain import LEVELS, difficulty, explain
from ...backends import get_backend
from ...clock import NEVER, Deadline
from ...encode import lower
from ...errors import OutOfTimeError, SatDominoError
from ...family import Family
from ...kernels.cover_count import connected_parts
from ..common import around
from .board import Pips, PipsSolution, Region, build_placement, from_nyt, grow, grow_region

# the NYT corpus (64 days): dominoes per puzzle (easy 3-7, medium 4-12, hard 6-16) and the
# share of each region type (sum .45, empty .23, equals .18, less .06, greater .06,
# unequal .03)
PRESETS = {"easy": (3, 6), "medium": (5, 9), "hard": (9, 13)}
MIX = {"sum": 0.45, "empty": 0.22, "equals": 0.18, "less": 0.06, "greater": 0.06,
       "unequal": 0.03}
MAX_ROUNDS = 400  # repairs before a board is given up for the next attempt
SOLVER = "glucose4"  # stops on an interrupt, so a deadline stops a repair round at once
UNIQUE_BY = ("placement", "grid")


@dataclass(frozen=True)
class Band:
    """What ``explain`` may need on a preset's puzzles: the hardest level allowed, and how many
    hard steps (by contradiction, unit propagation or the solver) are allowed and needed."""
    max_level: int
    min_hard_steps: int
    max_hard_steps: int


# the NYT's own puzzles, graded by explain: easy ones fall to named rules (level 2 at most),
# medium ones to at most two hard steps (explain.difficulty), hard ones need at least one
BANDS = {"easy": Band(2, 0, 0), "medium": Band(7, 0, 2), "hard": Band(7, 1, 99)}


@dataclass
class Made:
    puzzle: Pips  # with the planted layout as its solution
    solution: PipsSolution
    attempts: int  # boards tried
    rounds: int  # repairs on the board kept
    grade: str = ""  # explain's level name ("elimination", "solver", ...)
    hard_steps: int = 0  # hard steps (explain.difficulty)


def make(family: Family[Pips, PipsSolution], dominoes: int, seed: int, *,
         difficulty: str | None = None, unique_by: str = "placement", max_pip: int = 6,
         deadline: Deadline = NEVER, progress: Callable[[str], None] | None = None,
         unique: bool = True, grade: bool = True) -> Made:
    """A unique puzzle of ``dominoes`` dominoes (within ``difficulty``'s band when given; a
    planted one without ``unique``), graded by ``explain`` on ``family`` unless ``grade`` is
    off and no band asks; past the deadline OutOfTimeError; ``progress`` hears how it goes."""
    if unique_by not in UNIQUE_BY:
        raise SatDominoError(f"unique by {unique_by!r}: one of {', '.join(UNIQUE_BY)}")
    rng = random.Random(f"pips:{dominoes}:{seed}:{difficulty}:{max_pip}")
    # explain grades layouts: a puzzle unique by grid alone may have several, so its band
    # cannot be kept (the preset's size and mix still are)
    band = BANDS.get(difficulty or "") if unique_by == "placement" else None
    try:
        attempts = 0
        while True:
            attempts += 1
            deadline.check()
            board, solution = _plant(dominoes, max_pip, rng)
            rounds = 0
            while unique:
                if progress:
                    progress(f"board {attempts}, repair {rounds}, {len(board['regions'])} regions")
                other = _other(board, solution, unique_by, deadline)
                if other is None:
                    break
                rounds += 1
                if rounds > MAX_ROUNDS:
                    break
                _repair(board, solution, other, rng)
            if unique and rounds > MAX_ROUNDS:
                continue
            if unique and band is not None and band.min_hard_steps:
                _weaken(board, solution, unique_by, rng, deadline)
            _join_empties(board, solution["value"], rng)
            made = Made(_puzzle(board), PipsSolution(tuple(map(tuple, solution["pairs"]))),
                        attempts, rounds)
            if band is None and not grade or not unique:
                return made
            _grade(family, made, deadline)
            if band is None or _within(made, band):
                return made
    except OutOfTimeError:
        raise OutOfTimeError(f"no unique Pips puzzle of {dominoes} dominoes"
                             + (f" in the {difficulty} band" if band else "")
                             + " within the time limit") from None


def _within(made: Made, band: Band) -> bool:
    if "search" in made.grade:  # not explained to the end
        return False
    level = next(k for k, name in LEVELS.items() if made.grade.startswith(name))
    return (level <= band.max_level
            and band.min_hard_steps <= made.hard_steps <= band.max_hard_steps)


def _grade(family: Family[Pips, PipsSolution], made: Made, deadline: Deadline) -> None:
    out = explain(made.puzzle, family, deadline=deadline.sooner(None))  # as explain grades it
    if out.reason == "time limit":
        raise OutOfTimeError("the time limit came while grading the puzzle")
    made.grade, made.hard_steps = difficulty(out)


# planting ----------------------------------------------------------------------------------------

def _plant(dominoes: int, max_pip: int, rng: random.Random) -> tuple[dict, dict]:
    """(the puzzle as an NYT object being edited, the planted layout: its pairs and values)."""
    pairs = grow(((0, 0), (0, 1)) if rng.random() < 0.5 else ((0, 0), (1, 0)), dominoes, rng)
    kinds = list(combinations_with_replacement(range(max_pip + 1), 2))
    drawn: list[tuple[int, int]] = []
    while len(drawn) < dominoes:  # without repeats while the set lasts
        drawn += rng.sample(kinds, min(len(kinds), dominoes - len(drawn)))
    value: dict[tuple[int, int], int] = {}
    doms = []
    for (a, b), (u, v) in zip(drawn, pairs, strict=True):
        # each way round, by the equal neighbours it makes (the NYT's "equals" regions
        # are runs of equal pips across dominoes)
        def matches(x, y, u=u, v=v):
            return sum(value.get(w) == x for w in around(u)) + \
                sum(value.get(w) == y for w in around(v))

        if matches(b, a) > matches(a, b) or matches(b, a) == matches(a, b) and \
                rng.random() < 0.5:
            a, b = b, a
        doms.append([a, b])
        value[u], value[v] = a, b
    # the share of each type, of about one and a half regions per domino (what repair and
    # weakening leave on unique boards; the NYT's hard ones have 10.5 regions for 10)
    board = {"dominoes": doms, "regions": _lay_regions(value, rng),
             "solution": [[list(u), list(v)] for u, v in pairs],
             "quota": _quota(round(1.5 * dominoes), rng), "max_pip": max_pip}
    return board, {"pairs": pairs, "value": value}


def _puzzle(board: dict) -> Pips:
    """The puzzle of a board being edited (its NYT object, without the generator's notes:
    quota, max_pip)."""
    return from_nyt({k: board[k] for k in ("dominoes", "regions", "solution")})


def _lay_regions(value: dict, rng: random.Random) -> list[dict]:
    """Regions over every cell, true of the planted values: equal runs first, then small
    regions, mostly sums and empties."""
    left = set(value)
    regions = []
    for u in sorted(value):  # runs of equal pips: "equals" regions of two to five cells
        if u not in left or rng.random() < 0.2:
            continue
        run = [u]
        for v in around(u):
            if v in left and v not in run and value[v] == value[u] and len(run) < 5:
                run.append(v)
                for w in around(v):
                    if w in left and w not in run and value[w] == value[u] and len(run) < 5:
                        run.append(w)
        if len(run) > 1:
            left.difference_update(run)
            regions.append(_region("equals", run, value))
    while left:
        first = rng.choice(sorted(left))
        size = rng.choices((1, 2, 3, 4), weights=(40, 35, 15, 10))[0]
        group = grow_region(first, size, left, rng)
        vs = [value[w] for w in group]
        if len(group) == 1:
            rule = rng.choices(("empty", "sum", "less", "greater"), weights=(50, 30, 10, 10))[0]
        else:
            rule = rng.choices(("sum", "empty", "unequal"),
                               weights=(70, 10, 25 if len(set(vs)) == len(vs) else 0))[0]
        slack = rng.randint(1, 3)
        if rule == "greater" and sum(vs) - slack < 0:
            rule = "sum"
        regions.append(_region(rule, group, value, slack))
    return regions


def _region(rule: str, cells, value: dict, slack: int = 1) -> dict:
    """A region as the NYT writes it, its target (if any) true of the planted ``value``."""
    out: dict = {"indices": [list(u) for u in sorted(cells)], "type": rule}
    offset = {"sum": 0, "less": slack, "greater": -slack}
    if rule in offset:
        out["target"] = sum(value[u] for u in cells) + offset[rule]
    return out


# repairing ---------------------------------------------------------------------------------------

def _other(board: dict, solution: dict, unique_by: str, deadline: Deadline) -> dict | None:
    """The pips of another solution (``None`` when the planted one is the only one): another
    layout, or with ``unique_by="grid"`` another pips grid."""
    m = build_placement(_puzzle(board))
    cnf = lower(m)
    value = solution["value"]
    if unique_by == "grid":  # some cell shows other pips: same_u <- a placement showing
        same = {u: cnf.num_vars + 1 + k for k, u in enumerate(sorted(value))}  # value[u]
        clauses = [[-x, same[u]] for x in m.projection for u, k in _placed(m.key(x))
                   if k == value[u]]
        clauses.append([-a for a in same.values()])
    else:
        mine = {frozenset(((u, value[u]), (v, value[v]))) for u, v in solution["pairs"]}
        clauses = [[-x for x in m.projection if _placed(m.key(x)) in mine]]
    with get_backend(SOLVER).session(cnf) as s:
        s.add(clauses)
        answer = s.solve(deadline=deadline)
    if answer.status == "unknown":
        raise OutOfTimeError("time limit")
    if answer.status == "unsat":
        return None
    pairs = [m.key(x) for x in m.projection if x in answer.true_vars]
    other = {w: k for _, pips, u, v in pairs for w, k in zip((u, v), pips, strict=True)}
    return {"value": other, "pairs": {frozenset((u, v)) for _, _, u, v in pairs}}


def _placed(key) -> frozenset:
    _, (a, b), u, v = key
    return frozenset(((u, a), (v, b)))


def _repair(board: dict, solution: dict, other: dict, rng: random.Random) -> None:
    """Change one region (or one domino's pips) so that ``other`` breaks a rule and the
    planted solution keeps every rule."""
    value, theirs = solution["value"], other["value"]
    differ = {u for u in value if theirs[u] != value[u]}
    options = []
    for i, region in enumerate(board["regions"]):
        cells = [tuple(u) for u in region["indices"]]
        if differ.intersection(cells):
            options += [([i], added)
                        for added in _changes(region["type"], cells, value, theirs, differ)]
    if not options:
        _new_pips(board, solution, other, rng)
        return
    [i], added = _nearest(board["quota"], board["regions"], options, rng)
    board["regions"][i:i + 1] = added


def _quota(regions: int, rng: random.Random) -> dict[str, int]:
    """Each region type's count for one board: its NYT share of ``regions``, rounded up or
    down at random in proportion (so that 3% of 16 regions is one region every other board,
    and a batch comes out in the NYT's mix)."""
    return {t: int(share * regions + rng.random()) for t, share in MIX.items()}


def _nearest(quota: dict[str, int], regions: list[dict], options: list,
             rng: random.Random) -> tuple:
    """The option (indices of the regions it replaces, the regions put in) that leaves the
    counts of region types nearest the board's ``quota`` (ties broken at random)."""
    counts = Counter(r["type"] for r in regions)

    def distance(option) -> float:
        mix = counts.copy()
        mix.subtract(regions[k]["type"] for k in option[0])
        mix.update(r["type"] for r in option[1])
        return sum((mix[t] - quota[t]) ** 2 for t in MIX) + rng.random() * 0.1

    return min(options, key=distance)


def _weaken(board: dict, solution: dict, unique_by: str, rng: random.Random,
            deadline: Deadline) -> None:
    """Fewer clues, while the puzzle stays unique: a one-cell rule dropped, two neighbouring
    sums joined (or a sum and an empty cell), a sum said as "all equal" or "all different", a
    "less" or "greater" loosened; tried in the order that keeps the mix of
    region types nearest the NYT's (a harder puzzle, as hard ones are made)."""
    value = solution["value"]
    tried: set = set()
    while True:
        regions = board["regions"]
        owner = {tuple(u): i for i, r in enumerate(regions) for u in r["indices"]}
        options = []
        for i, r in enumerate(regions):
            cells = [tuple(u) for u in r["indices"]]
            rule, vs = r["type"], [value[u] for u in cells]
            if rule != "empty" and len(cells) == 1:
                options.append(([i], [_region("empty", cells, value)]))
            if rule in ("less", "greater"):
                slack = abs(r["target"] - sum(vs)) + 1
                if slack <= 3 and (rule == "less" or sum(vs) - slack >= 0):
                    options.append(([i], [_region(rule, cells, value, slack)]))
            if rule == "sum" and len(cells) > 1 and len(set(vs)) in (1, len(vs)):
                said = "equals" if len(set(vs)) == 1 else "unequal"  # all equal / different
                options.append(([i], [_region(said, cells, value)]))
            if rule == "sum":  # joined with a neighbouring sum, or an empty cell
                for j in sorted({owner[v] for u in cells for v in around(u)
                                 if v in owner and owner[v] != i}):
                    other = regions[j]
                    if other["type"] == "sum" and j > i or other["type"] == "empty" \
                            and len(other["indices"]) == 1:
                        both = cells + [tuple(u) for u in other["indices"]]
                        options.append(([i, j], [_region("sum", both, value)]))
        fresh = [o for o in options if _key(regions, o) not in tried]
        if not fresh:
            return
        option = _nearest(board["quota"], regions, fresh, rng)
        tried.add(_key(regions, option))
        trial = dict(board, regions=[r for k, r in enumerate(regions) if k not in option[0]]
                     + option[1])
        if _other(trial, solution, unique_by, deadline) is None:
            board["regions"] = trial["regions"]


def _join_empties(board: dict, value: dict, rng: random.Random) -> None:
    """Neighbouring one-cell empty regions joined into "all different" (or "all equal")
    regions while the board's quota wants more of them: a rule added, so the planted layout
    stays a solution and a unique puzzle stays unique."""
    for rule in ("unequal", "equals"):
        while Counter(r["type"] for r in board["regions"])[rule] < board["quota"][rule]:
            empty = {tuple(r["indices"][0]): r for r in board["regions"]
                     if r["type"] == "empty" and len(r["indices"]) == 1}
            pairs = [(u, v) for u in sorted(empty) for v in around(u) if v in empty
                     and (value[u] != value[v]) == (rule == "unequal")]
            if not pairs:
                break
            u, v = rng.choice(pairs)
            board["regions"] = [r for r in board["regions"]
                                if r is not empty[u] and r is not empty[v]]
            board["regions"].append(_region(rule, [u, v], value))


def _key(regions: list[dict], option) -> str:
    """An option by its content (indices shift as regions are replaced)."""
    return repr(([regions[k] for k in option[0]], option[1]))


def _changes(rule: str, cells: list, value: dict, theirs: dict, differ: set) -> list[list]:
    """Ways to change a ``rule`` region on ``cells`` that the other solution breaks: each the
    regions put in its place."""
    mine = sum(value[u] for u in cells)
    other = sum(theirs[u] for u in cells)
    out = []
    if rule in ("empty", "equals", "unequal") and mine != other:
        out += [[r] for r in _targets(cells, value, theirs)]
    if rule in ("less", "greater") and other != mine:  # the target tightened, else a sum
        breaks = other > mine if rule == "less" else other < mine
        out.append([_region(rule if breaks else "sum", cells, value)])
    if len(cells) > 1:  # a differing cell made a region of its own
        for u in sorted(differ.intersection(cells)):
            rest = sorted(v for v in cells if v != u)
            kept = [_region(_holding(rule, part, value), part, value)
                    for part in map(sorted, connected_parts(rest, around))]
            out += [[single, *kept] for single in _targets([u], value, theirs)]
    return out


def _targets(cells: list, value: dict, theirs: dict) -> list[dict]:
    """A sum on ``cells``, and a "less" or "greater" when the other solution's sum there is
    higher or lower (a "greater" only above zero): rules the planted values keep."""
    mine = sum(value[u] for u in cells)
    out = [_region("sum", cells, value)]
    if sum(theirs[u] for u in cells) > mine:
        out.append(_region("less", cells, value))
    elif mine >= 1:
        out.append(_region("greater", cells, value))
    return out


def _holding(rule: str, cells, value: dict) -> str:
    """``rule`` if it holds for the planted ``value`` on ``cells`` and says something there,
    else "sum" (or "empty" for a one-cell "unequal")."""
    vs = [value[u] for u in cells]
    if rule == "unequal" and len(vs) == 1:
        return "empty"
    if rule == "equals" and (len(vs) == 1 or len(set(vs)) > 1) or rule == "unequal" and \
            len(set(vs)) < len(vs) or rule == "greater" and sum(vs) < 1:
        return "sum"
    return rule


def _new_pips(board: dict, solution: dict, other: dict, rng: random.Random) -> None:
    """The other solution shows the same pips and pairs them otherwise: give one of the
    dominoes it pairs otherwise new pips (a kind not on the board, while there is one), and
    set the targets of the regions it touches to the new values."""
    value, pairs = solution["value"], solution["pairs"]
    moved = [k for k, (u, v) in enumerate(pairs) if frozenset((u, v)) not in other["pairs"]]
    k = rng.choice(moved)
    top = board["max_pip"]
    kinds = set(combinations_with_replacement(range(top + 1), 2))
    unused = sorted(kinds - {tuple(sorted(d)) for d in board["dominoes"]})
    a, b = rng.choice(unused) if unused else (rng.randint(0, top), rng.randint(0, top))
    u, v = pairs[k]
    board["dominoes"][k] = [a, b]
    value[u], value[v] = a, b
    for i, region in enumerate(board["regions"]):
        cells = [tuple(w) for w in region["indices"]]
        if u in cells or v in cells:
            board["regions"][i] = _region(_holding(region["type"], cells, value), cells, value)


def region_mix(puzzles: list[Pips]) -> dict[str, float]:
    """The share of each region type over ``puzzles``."""
    counts = Counter(r.rule for p in puzzles for r in p.regions)
    total = sum(counts.values()) or 1
    return {t: counts[t] / total for t in MIX}


__all__ = ["BANDS", "MIX", "PRESETS", "Made", "Region", "make", "region_mix"]
