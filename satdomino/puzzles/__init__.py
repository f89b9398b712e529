"""Puzzle families. Each is one module; this registry lists them for detection and the CLI."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import PuzzleFormatError, UnknownNameError
from ..model import Model
from . import dominofit, dominosa, doodlefit, pips


@dataclass(frozen=True)
class Family:
    """What the pipeline needs from a puzzle family, as plain functions."""

    kind: str
    sniff: Callable[[str], bool]  # does this text look like one of ours?
    # (part name, puzzle or the PuzzleFormatError of that part), each part parsed on its own
    parse: Callable[[str], list[tuple[str | None, Any]]]
    models: dict[str, Callable[[Any], Model]]
    decode: Callable[[Any, Model, frozenset[int]], Any]
    verify: Callable[[Any, Any], list[str]]  # problems; empty means valid
    solution_json: Callable[[Any, Any], dict]
    render_text: Callable[[Any, Any], str]
    render_svg: Callable[[Any, Any], str]
    suffixes: tuple[str, ...]  # files picked up when a folder is given
    exact_count: Callable[[Any], int] | None = None  # distinct solutions, without SAT
    # other things to count than placements: a model whose projection is what makes two
    # solutions different (Pips: "grid", the values; "tiling", the outlines)
    count_views: dict[str, Callable[[Any], Model]] = field(default_factory=dict)
    # for ``explain``: a constraint of the placement model in the puzzle's words, and one
    # placement variable's name as JSON (both have family-neutral defaults)
    describe: Callable[[Any, Model, Any], str] | None = None
    placement_json: Callable[[Any, Any], dict] | None = None

    @property
    def default_model(self) -> str:
        return next(iter(self.models))

    def model(self, name: str | None) -> Callable[[Any], Model]:
        name = name or self.default_model
        if name not in self.models:
            raise UnknownNameError(
                f"unknown model {name!r} for {self.kind}; choose from {', '.join(self.models)}")
        return self.models[name]


def _family(kind: str, module, suffixes: tuple[str, ...]) -> Family:
    return Family(kind=kind, sniff=module.sniff, parse=module.parse_parts, models=module.MODELS,
                  decode=module.decode, verify=module.verify,
                  solution_json=module.solution_json, render_text=module.render_text,
                  render_svg=module.render_svg, suffixes=suffixes,
                  exact_count=getattr(module, "count_placements", None),
                  count_views=getattr(module, "COUNT_VIEWS", {}),
                  describe=getattr(module, "describe_constraint", None),
                  placement_json=getattr(module, "placement_json", None))


# JSON formats are sniffed in this order: Pips (dominoes / regions / links) before Dominosa
FAMILIES: dict[str, Family] = {
    "pips": _family("pips", pips, (".json",)),
    "dominofit": _family("dominofit", dominofit, (".json",)),
    "doodlefit": _family("doodlefit", doodlefit, (".txt", ".doodle")),
    "dominosa": _family("dominosa", dominosa, (".txt", ".dominosa", ".json", ".jsonl", ".tsv")),
}


def family(kind: str) -> Family:
    """The family named ``kind`` (dominosa, pips, dominofit, doodlefit): its parser, models,
    decoder, rule checker and drawings."""
    if kind not in FAMILIES:
        raise UnknownNameError(f"unknown puzzle kind {kind!r}; choose from {', '.join(FAMILIES)}")
    return FAMILIES[kind]


def detect(text: str) -> Family:
    """The family whose format ``text`` is in (Pips, Domino Fit, Doodle Fit, then Dominosa)."""
    for fam in FAMILIES.values():
        if fam.sniff(text):
            return fam
    raise PuzzleFormatError("cannot tell what puzzle this is (use --kind to say)")
