"""``auto``: the configuration a user gets without asking for one.

For each puzzle family and size it picks the model, the encodings and the solver that measured
fastest, by the family's own rules (``Family.auto``; ``python -m benchmarks.auto_default``
measures them, docs/benchmarks.md has the figures and the reasons), among what ``pip install``
brings. Whatever the user names (a model, an encoding, a backend) wins over the rule: with a
backend named, the encodings and the model not named are the plain defaults, since a rule's
choices are made for its own backend.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .backends import DEFAULT_BACKEND, Backend, resolves
from .encode import KINDS, Encodings
from .errors import SatDominoError, UsageError
from .family import AutoRule, Family

AUTO = DEFAULT_BACKEND
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
    if not isinstance(encodings, Mapping):
        raise TypeError("encodings must be an Encodings or a mapping such as "
                        f"{{'amo': 'commander'}}, not {encodings!r}")
    unknown = set(encodings) - set(KINDS)
    if unknown:
        raise UsageError(f"unknown constraint kind {sorted(unknown)[0]!r}; choose from "
                         f"{', '.join(KINDS)}")
    return {k: v for k, v in encodings.items() if v is not None}


def setup(puzzle: Any, family: Family[Any, Any], model: str | None, backend: str | Backend,
          encodings: Encodings | Mapping[str, str] | None, task: str = "solve") -> Setup:
    """What to run ``puzzle`` with; ``task`` is "solve" or "count" (which enumerates, and
    takes the rule's complete solver). The family's ``auto`` rules say what auto picks."""
    if not isinstance(backend, str | Backend):
        raise TypeError(f"backend must be a backend's name or a Backend, not {backend!r}")
    named = named_encodings(encodings)
    if not (isinstance(backend, str) and backend == AUTO):
        return Setup(model, Encodings(**named), backend)
    rule = family.rule(puzzle) or AutoRule(0, family.default_model, {}, (FALLBACK,), "")
    chosen = Encodings(**{**rule.encodings, **named})
    if chosen.native:  # a native encoding the user named: a solver that takes it
        return Setup(model or rule.model, chosen, NATIVE, picked=True)
    candidates = (rule.count_backend,) if task == "count" else rule.backends
    for name in (*candidates, FALLBACK):
        if resolves(name):
            return Setup(model or rule.model, chosen, name, picked=True)
    raise SatDominoError(f"auto: none of {', '.join(candidates)} is available here")


def describe(families: Iterable[Family[Any, Any]]) -> list[dict[str, Any]]:
    """Every family's rules, with the backend each resolves to on this machine: what
    ``satdomino encodings`` shows."""
    out = []
    for fam in families:
        uppers = [r.size for r in fam.auto[1:]] + [None]  # where each rule ends (the last: never)
        for r, upper in zip(fam.auto, uppers, strict=False):
            chosen = next((b for b in r.backends if resolves(b)), FALLBACK)
            out.append({"family": fam.kind, "sizes": _range(fam.size[0], r.size, upper),
                        "model": r.model, "encodings": {**Encodings().as_dict(), **r.encodings},
                        "backend": chosen, "preferred": list(r.backends),
                        "count_backend": r.count_backend, "why": r.why})
    return out


def _range(unit: str, low: int, high: int | None) -> str:
    if high is None:
        return "any" if low == 0 else f"{unit} >= {low}"
    return f"{unit} < {high}" if low == 0 else f"{low} <= {unit} < {high}"
