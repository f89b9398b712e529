"""The registry of puzzle families: each family is one module (or package) defining a
``Family`` (``satdomino.family``), registered here in one line. The command line, ``auto``,
``generate``, ``compare`` and the library are built from this registry.

Another family (a plugin of yours) joins with ``register(MY_FAMILY)`` before the registry is
read: its kind is then a ``--kind``, a ``generate`` sub-command, a compare spec, and its files
are detected. The command line (and every process ``compare`` starts) also registers the
families named in the environment variable SATDOMINO_FAMILIES (``load_plugins``)."""

from __future__ import annotations

import importlib
import os
from typing import Any

from ..errors import PuzzleFormatError, UnknownNameError, UsageError
from ..family import Family
from . import dominofit, dominosa, doodlefit, pips

# JSON formats are sniffed in this order: Pips (dominoes / regions / links) before Dominosa
FAMILIES: dict[str, Family[Any, Any]] = {}


def register(fam: Family[Any, Any], *, first: bool = False) -> None:
    """Add a family (``first``: sniffed before the others); the same family again changes
    nothing, another under a kind already taken is an error."""
    if FAMILIES.get(fam.kind) is fam:
        return
    if fam.kind in FAMILIES:
        raise UsageError(f"a puzzle family {fam.kind!r} is registered already")
    FAMILIES[fam.kind] = fam
    if first:
        for kind in [k for k in FAMILIES if k != fam.kind]:
            FAMILIES[kind] = FAMILIES.pop(kind)


PLUGINS = "SATDOMINO_FAMILIES"


def load_plugins(spec: str | None = None) -> None:
    """Register the families that ``spec`` (by default the environment variable
    SATDOMINO_FAMILIES) names, comma-separated, each ``module`` (its ``FAMILY``) or
    ``module:NAME``; a name that does not give a Family is a one-line UsageError."""
    spec = os.environ.get(PLUGINS, "") if spec is None else spec
    for entry in filter(None, (e.strip() for e in spec.split(","))):
        module, _, name = entry.partition(":")
        try:
            fam = getattr(importlib.import_module(module), name or "FAMILY")
        except Exception as e:  # not importable, no such name, or the module itself fails
            raise UsageError(f"{PLUGINS}: cannot load {entry!r} ({type(e).__name__}: {e})"
                             ) from None
        if not isinstance(fam, Family):
            raise UsageError(f"{PLUGINS}: {entry!r} is not a satdomino Family")
        register(fam)


def unregister(kind: str) -> None:
    """Take a family out of the registry (a test's plugin, say)."""
    FAMILIES.pop(kind, None)


for _module in (pips, dominofit, doodlefit, dominosa):
    register(_module.FAMILY)


def family(kind: str) -> Family[Any, Any]:
    """The family named ``kind`` (dominosa, pips, dominofit, doodlefit, or one registered):
    its parser, models, decoder, rule checker, drawings and generator."""
    if not isinstance(kind, str) or kind not in FAMILIES:
        raise UnknownNameError(f"unknown puzzle kind {kind!r}; choose from {', '.join(FAMILIES)}")
    return FAMILIES[kind]


LIKELY = 0.5  # the likeness from which detection names a family's error


def detect(text: str) -> Family[Any, Any]:
    """The family whose format ``text`` is in (the registry's order: Pips, Domino Fit, Doodle
    Fit, then Dominosa, with families registered ``first`` before them). A text no family
    sniffs is read by the family it looks most like (``Family.likeness``): what that family
    makes of it is the error, or, when it reads, the answer."""
    for fam in FAMILIES.values():
        if fam.sniff(text):
            return fam
    likeness = {kind: fam.likeness(text) for kind, fam in FAMILIES.items()}
    best = max(likeness, key=likeness.__getitem__, default=None)
    if best is None or likeness[best] < LIKELY:
        raise PuzzleFormatError("cannot tell what puzzle this is (use --kind to say)")
    guess = FAMILIES[best]
    try:
        parts = guess.parse(text)
    except PuzzleFormatError as e:
        problem = str(e)
    else:
        bad = [(name, part) for name, part in parts if isinstance(part, PuzzleFormatError)]
        if len(bad) < len(parts):  # some part reads: it is the family's after all
            return guess
        name, part = bad[0] if bad else (None, "no puzzle in it")
        problem = f"{name}: {part}" if name else str(part)
    raise PuzzleFormatError(f"looks like {guess.title}: {problem} (use --kind to choose "
                            "another family)")


__all__ = ["FAMILIES", "Family", "detect", "family", "load_plugins", "register", "unregister"]
