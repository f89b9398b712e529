"""What a puzzle family is: the one object (``Family``) each family's module defines and the
registry (``satdomino.puzzles``) lists. Everything specific to a family lives behind it (the
fields of ``Family``); the pipeline, the analyses, ``auto``, the generators' driver and the
command line know a family only through this object, never by its name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .clock import NEVER, Deadline
from .errors import PuzzleFormatError, UnknownNameError
from .model import Model

P = TypeVar("P")  # a family's puzzle (an immutable dataclass)
S = TypeVar("S")  # a family's solution
Cell = tuple[int, int]


@dataclass(frozen=True)
class Skipped:
    """A part of a file that is deliberately not a puzzle (a withdrawn NYT placeholder)."""

    reason: str


# every part of a file: (its name, the puzzle, or why it cannot be read, or why it is skipped)
Parts = list[tuple[str | None, "P | PuzzleFormatError | Skipped"]]


@dataclass(frozen=True)
class Reading:
    """A reading of the rules that a family's puzzles carry as a boolean field (Domino Fit's
    ``cover``, Doodle Fit's ``rotate``): the command-line flag that sets it to ``value``."""

    field: str
    flag: str  # "--no-cover", "--rotate"
    value: bool
    help: str


@dataclass(frozen=True)
class Param:
    """A generator parameter: a whole number from ``lo`` to ``hi``; ``default`` None: the
    user must give it (unless ``required`` is off: a choice can stand in for it)."""

    name: str  # "max_pip": the flag --max-pip, and max_pip= in a compare spec
    help: str
    lo: int
    hi: int
    default: int | None = None
    required: bool = True


@dataclass(frozen=True)
class Choice:
    """A generator option with named values (Pips's ``difficulty``); ``every``: a value that
    makes one puzzle for each of the others, written together (``Generator.collection``)."""

    name: str
    values: tuple[str, ...]
    help: str
    default: str | None = None
    every: str | None = None
    unique_only: bool = False  # meaningful only with --unique


@dataclass
class Ask:
    """What a generator is asked for beyond its parameters and seed."""

    unique: bool = False  # exactly one solution (else planted: solvable by construction)
    deadline: Deadline = NEVER
    readings: dict[str, bool] = field(default_factory=dict)  # Reading.field -> its value
    choices: dict[str, str] = field(default_factory=dict)  # Choice.name -> value
    progress: Callable[[str], None] | None = None
    grade: bool = True  # grade the puzzle (explain) when the builder grades


@dataclass
class Built(Generic[P, S]):
    """A generated puzzle, its planted solution, and what building it took."""

    puzzle: P
    solution: S
    repairs: int = 0
    grade: str | None = None  # explain's level name, when the builder graded it
    hard_steps: int | None = None  # explain's hard steps: by contradiction or beyond
    exactly: str = "exactly one solution"  # what is unique, in words
    ungraded: str = ""  # why explain cannot grade it (it is not graded then)


@dataclass(frozen=True)
class Generator(Generic[P, S]):
    """How a family makes puzzles. ``planted`` is solvable by construction (often with many
    solutions); ``build``, when the family has one, makes what planting cannot (a unique
    puzzle, proved unique on the framework's own model, or what a choice asks for). Without
    it, unique puzzles are planted seed after seed until the solver proves one unique."""

    what: str  # "a Dominosa board (Tatham game id, or --format grid)"
    params: tuple[Param, ...]
    planted: Callable[[dict[str, int], int], tuple[P, S]]
    named: Callable[[dict[str, int]], str]  # the puzzle asked for: "double-12 Dominosa board"
    build: Callable[[dict[str, int], int, Ask], Built[P, S]] | None = None
    how_unique: str = "planted puzzles tried seed after seed until SAT proves one unique"
    # what the parameters (and choices) cannot be together: a message, or None
    check: Callable[[dict[str, int], dict[str, str]], str | None] = lambda params, choices: None
    choices: tuple[Choice, ...] = ()
    # several puzzles (a choice's ``every``) in one file: {choice value: puzzle}, the command
    collection: Callable[[dict[str, Any], str], str] | None = None


@dataclass(frozen=True)
class Sample:
    """An instance the project ships in ``cnf_samples/`` (``generators.samples``): a planted
    puzzle of these parameters and seed, under this model and encodings (those not named are
    the defaults); ``uniqueness``: the puzzle plus "differs from its solution"."""

    params: dict[str, int]
    seed: int
    model: str
    encodings: Mapping[str, str] = field(default_factory=dict)
    uniqueness: bool = False
    readings: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class AutoRule:
    """``auto``'s pick from ``size`` up (until the family's next rule): this model, these
    encodings and the first of ``backends`` that this machine has; ``count_backend``
    enumerates solutions (a complete, incremental solver that stops on an interrupt)."""

    size: int
    model: str
    encodings: Mapping[str, str]
    backends: tuple[str, ...]
    why: str
    count_backend: str = "minisat22"


def unlike(text: str) -> float:
    """A family's likeness when it gives none: no text looks like its format."""
    return 0.0


@dataclass(frozen=True)
class Family(Generic[P, S]):
    """One puzzle family (the module docstring)."""

    kind: str  # "dominosa": --kind, file maps, the registry's key
    title: str  # "Dominosa"
    suffixes: tuple[str, ...]  # files picked up when a folder is given
    sniff: Callable[[str], bool]  # does this text look like one of ours?
    parse: Callable[[str], Parts[P]]  # every part, each parsed on its own
    formats: Mapping[str, Callable[[P], str]]  # the puzzle as text; the first is the default
    models: Mapping[str, Callable[[P], Model]]  # the first is the default
    decode: Callable[[P, Model, frozenset[int]], S]
    verify: Callable[[P, S], list[str]]  # problems; empty means valid
    solution_json: Callable[[P, S], dict[str, Any]]
    render_text: Callable[[P, S | None], str]
    render_svg: Callable[[P, S | None], str]
    placement_json: Callable[[P, Any], dict[str, Any]]  # a placement variable's name, shown
    placement_text: Callable[[dict[str, Any]], str]  # that, in words: "3-5 at (2,4)-(2,5)"
    size: tuple[str, Callable[[P], int]]  # what auto's rules measure: ("N", board's N)
    auto: tuple[AutoRule, ...]
    generator: Generator[P, S]
    # the squares a placement covers (None: the family draws no board of squares)
    squares: Callable[[P, Any], list[Cell] | None] | None = None
    exact_count: Callable[[P], int] | None = None  # distinct solutions, without SAT
    # that count when this process gets it within milliseconds (Doodle Fit: a sweep of the
    # whole shape; Pips: a board of a few dominoes; Domino Fit: a small board), else None: a
    # count that small needs no race
    quick_count: Callable[[P], int | None] | None = None
    # an unbiased estimate of that count and its relative standard error, taking about the
    # seconds given and ending within the limit given (seconds, or None: no limit):
    # ``--count approx`` races it beside ApproxMC
    estimate_count: Callable[[P, float, float | None], tuple[int, float]] | None = None
    # other things to count than placements: a model whose projection is what makes two
    # solutions different (Pips: "grid", the values; "tiling", the outlines)
    count_views: Mapping[str, Callable[[P], Model]] = field(default_factory=dict)
    readings: tuple[Reading, ...] = ()
    # placements written as text (Dominosa's L R T B letters), for ``hint --given``
    given_text: Callable[[P, str], list[dict[str, Any]]] | None = None
    stackable: bool = False  # several puzzles written one after another make one file
    # why there is no solution, where a simple count shows it ("the column sums total 12, the
    # row sums 11"): read only when the solver has found none, and shown as its reason
    obstacles: Callable[[P], list[str]] | None = None
    # how much a text that no family sniffs looks like ours, 0 to 1 (the share of its
    # characters, or of its JSON keys, that are ours): detection then names the likeliest
    # family's error instead of none
    likeness: Callable[[str], float] = unlike
    samples: tuple[Sample, ...] = ()  # what it adds to cnf_samples/

    @property
    def default_model(self) -> str:
        """The name of the family's first model (what is built unless one is named)."""
        return next(iter(self.models))

    def model(self, name: str | None) -> Callable[[P], Model]:
        """The builder of the model called ``name`` (None: the default)."""
        name = self.default_model if name is None or name == "" else name
        if not isinstance(name, str) or name not in self.models:
            raise UnknownNameError(
                f"unknown model {name!r} for {self.kind}; choose from {', '.join(self.models)}")
        return self.models[name]

    def write(self, puzzle: P, fmt: str | None = None) -> str:
        """The puzzle in its file format (``fmt``: one of ``formats``)."""
        return self.formats[fmt or next(iter(self.formats))](puzzle)

    def rule(self, puzzle: P) -> AutoRule | None:
        """``auto``'s rule for this puzzle's size (None: the family has no rules)."""
        if not self.auto:
            return None
        size = self.size[1](puzzle)
        return max((r for r in self.auto if r.size <= size), key=lambda r: r.size,
                   default=self.auto[0])


def strict(parts: Parts[P]) -> list[tuple[str | None, P]]:
    """The puzzles among ``parts`` (skipped parts left out); raises the first bad part's
    error, naming the part."""
    out = []
    for name, part in parts:
        if isinstance(part, PuzzleFormatError):
            raise PuzzleFormatError(f"{name}: {part}" if name else str(part))
        if not isinstance(part, Skipped):
            out.append((name, part))
    return out
