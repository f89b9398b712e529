"""``auto``: the configuration a user gets without asking for one.

For each puzzle family and size it picks the model, the encodings and the solver that measured
fastest (``python -m benchmarks.auto_default``; the figures and the reasons are in
docs/benchmarks.md), from what ``pip install`` brings: python-sat, highspy and our local search
``sls`` (compiled at install). Whatever the user names (a model, an encoding, a backend) wins
over the rule: with a backend named, the encodings and the model not named are the plain
defaults (``Encodings()`` and the family's first model), since a rule's choices are made for
its own backend.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .backends import DEFAULT_BACKEND, Backend, resolves
from .encode import KINDS, Encodings
from .errors import SatDominoError, UsageError

AUTO = DEFAULT_BACKEND

# what a rule's size is, per family (the number a user knows the puzzle by)
SIZES: dict[str, tuple[str, Callable[[Any], int]]] = {
    "dominosa": ("N", lambda p: p.n),
    "pips": ("dominoes", lambda p: len(p.dominoes)),
    "dominofit": ("squares", lambda p: p.width * p.height),
    "doodlefit": ("cells", lambda p: len(p.shape)),
}


@dataclass(frozen=True)
class Rule:
    """From ``size`` up (until the next rule of the family): this model, these encodings and
    the first of ``backends`` that this machine has."""

    size: int
    model: str
    encodings: Mapping[str, str]
    backends: tuple[str, ...]
    why: str
    # what a count enumerates with: a complete, incremental solver (a portfolio cannot keep
    # its learnt clauses from one solution to the next) that stops on an interrupt, so that it
    # can enumerate in this process before the race of counting methods starts
    count_backend: str = "minisat22"


RULES: dict[str, list[Rule]] = {
    "dominosa": [Rule(
        0, "placement", {"amo": "pairwise"},
        ("portfolio:minisat22+sls@0.02", "portfolio:minisat22@..0.08+highs-fj@0.02", "minisat22"),
        "MiniSat alone wins small boards within 20 ms; after that our local search races it "
        "on the other core (N = 100 in 2-3 s); pairwise clauses are MiniSat's fastest")],
    "pips": [Rule(
        0, "placement", {}, ("cadical195",),
        "every NYT puzzle within milliseconds; no other configuration measured faster")],
    "dominofit": [
        Rule(0, "placement", {}, ("cadical195",),
             "CaDiCaL alone: in a portfolio it runs in a forked child, whose 5-8 ms cost more "
             "than the race gains below 300 squares"),
        Rule(300, "placement", {}, ("portfolio:cadical195+sls@0.02", "cadical195"),
             "CaDiCaL and our local search race: 30x30 boards 0.1-2.5 s against 2-6 s for "
             "CaDiCaL alone")],
    "doodlefit": [Rule(
        0, "placement", {}, ("cadical195",),
        "planted boards and the pentominoes within milliseconds")],
}
# where every rule's solvers are missing, and for native encodings (which need a solver with
# native cardinality constraints)
FALLBACK = "cadical195"
NATIVE = "gluecard4"


@dataclass(frozen=True)
class Setup:
    """What a solve runs with: the model (None: the family's default), the encodings, the
    backend; ``picked``: ``auto`` chose them."""

    model: str | None
    encodings: Encodings
    backend: str | Backend
    picked: bool = False

    @property
    def label(self) -> str:
        """The backend as the output names it: ``auto: NAME`` when auto chose it."""
        name = self.backend if isinstance(self.backend, str) else self.backend.name
        return f"{AUTO}: {name}" if self.picked else name


def named_encodings(encodings: Encodings | Mapping[str, str] | None) -> dict[str, str]:
    """The encodings a caller named: every kind for an Encodings, the given keys of a
    mapping, none for None."""
    if encodings is None:
        return {}
    if isinstance(encodings, Encodings):
        return encodings.as_dict()
    unknown = set(encodings) - set(KINDS)
    if unknown:
        raise UsageError(f"unknown constraint kind {sorted(unknown)[0]!r}; choose from "
                         f"{', '.join(KINDS)}")
    return {k: v for k, v in encodings.items() if v is not None}


def rule_for(kind: str, puzzle: Any) -> Rule:
    """The family's rule for this puzzle's size."""
    rules = RULES[kind]
    size = SIZES[kind][1](puzzle)
    return max((r for r in rules if r.size <= size), key=lambda r: r.size, default=rules[0])


def setup(puzzle: Any, kind: str, model: str | None, backend: str | Backend,
          encodings: Encodings | Mapping[str, str] | None, task: str = "solve") -> Setup:
    """What to run ``puzzle`` with; ``task`` is "solve" or "count" (which enumerates, and
    takes the rule's complete solver)."""
    named = named_encodings(encodings)
    if not (isinstance(backend, str) and backend == AUTO):
        return Setup(model, Encodings(**named), backend)
    rule = rule_for(kind, puzzle)
    chosen = Encodings(**{**rule.encodings, **named})
    if chosen.native:  # a native encoding the user named: a solver that takes it
        return Setup(model or rule.model, chosen, NATIVE, picked=True)
    candidates = (rule.count_backend,) if task == "count" else rule.backends
    for name in (*candidates, FALLBACK):
        if resolves(name):
            return Setup(model or rule.model, chosen, name, picked=True)
    raise SatDominoError(f"auto: none of {', '.join(candidates)} is available here")


def describe() -> list[dict[str, Any]]:
    """Every rule, with the backend it resolves to on this machine: what ``satdomino
    encodings`` shows."""
    out = []
    for kind, rules in RULES.items():
        unit = SIZES[kind][0]
        for i, r in enumerate(rules):
            upper = rules[i + 1].size if i + 1 < len(rules) else None
            chosen = next((b for b in r.backends if resolves(b)), FALLBACK)
            out.append({"family": kind, "sizes": _range(unit, r.size, upper),
                        "model": r.model, "encodings": {**Encodings().as_dict(), **r.encodings},
                        "backend": chosen, "preferred": list(r.backends),
                        "count_backend": r.count_backend, "why": r.why})
    return out


def _range(unit: str, low: int, high: int | None) -> str:
    if high is None:
        return "any" if low == 0 else f"{unit} >= {low}"
    return f"{unit} < {high}" if low == 0 else f"{low} <= {unit} < {high}"
