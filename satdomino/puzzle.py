"""The library's face: ``read`` and ``parse`` give ``Puzzle`` objects of any family, which
solve, count, export and draw themselves.

    >>> import satdomino
    >>> [p] = satdomino.parse("2:221200101201")
    >>> p
    Puzzle(kind='dominosa', name=None, source='(text)')
    >>> out = p.solve(unique=True)
    >>> out.status, out.unique, out.json()["solution"]["layout"]
    ('sat', True, ['LRTT', 'LRBB', 'LRLR'])
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pysat.formula import CNF as PysatCNF
from pysat.formula import CNFPlus

from .analysis.count import Count, count
from .analysis.explain import Explanation, explain, hint
from .auto import AUTO, named_encodings, setup
from .backends import Backend
from .clock import NEVER, Deadline
from .encode import Encodings, lower
from .errors import SatDominoError
from .family import Family
from .fileio import write_atomic
from .inputs import Item, load, parse_items
from .instance import Origin, export_instance, format_of
from .puzzles import family
from .render.output import convert, image_format
from .solve import Outcome, solve


@dataclass
class Puzzle:
    """One puzzle of any family. ``data`` is the family's own object (``dominosa.Dominosa``,
    ``pips.Pips``, ``dominofit.DominoFit``, ``doodlefit.DoodleFit``); ``source`` the file it
    came from (or the text given); ``name`` its part of a multi-puzzle file."""

    kind: str
    data: Any = field(repr=False)
    name: str | None = None
    source: str | None = None
    # the input text it was read from (an exported map embeds it, to rebuild the puzzle)
    input_text: str | None = field(default=None, repr=False)

    @property
    def family(self) -> Family[Any, Any]:
        """The family's functions: models, decoder, rule checker, drawings."""
        return family(self.kind)

    def solve(self, unique: bool = False, backend: str | Backend = AUTO,
              timeout: float | None = None, model: str | None = None,
              encodings: Encodings | Mapping[str, str] | None = None,
              deadline: Deadline = NEVER) -> Outcome:
        """Solve it (every solution shown has passed the rule checker); ``unique`` also
        decides whether the solution is the only one (``outcome.other`` holds a second one
        when not). ``backend`` "auto" picks model, encodings and solver; anything named wins
        (``encodings`` may name some kinds only: ``{"amo": "commander"}``). ``timeout``
        seconds, or a ``deadline`` shared with other work, from any thread."""
        out = solve(self.data, self.family, model=model, backend=backend, encodings=encodings,
                    timeout=timeout, unique=unique, deadline=deadline)
        out.source, out.name = self.source, self.name
        return out

    def count(self, by: str = "placement", limit: int | None = None,
              timeout: float | None = None, backend: str | Backend = AUTO,
              model: str | None = None,
              encodings: Encodings | Mapping[str, str] | None = None, *,
              approx: bool = False, epsilon: float = 0.8, delta: float = 0.2,
              deadline: Deadline = NEVER) -> Count:
        """The number of distinct solutions (``by`` "placement", or one of the family's
        ``count_views``: Pips "grid" or "tiling", Dominosa "tiling"), by the first of
        enumeration, the family's counter and Ganak to finish (``.method`` says which);
        ``limit`` stops an enumeration early (the count is then incomplete). ``approx``:
        ApproxMC's estimate, within a factor 1 + ``epsilon`` with probability 1 - ``delta``,
        and the family's own estimate where it has one (Domino Fit; ``.error`` is its
        relative standard error), join the race."""
        return count(self.data, self.family, model=model, backend=backend,
                     encodings=encodings, limit=limit, timeout=timeout, by=by,
                     approx=approx, epsilon=epsilon, delta=delta, deadline=deadline)

    def explain(self, timeout: float | None = None, deadline: Deadline = NEVER) -> Explanation:
        """Steps that solve it, each placement with the rule or the solver's reason that
        forces it (``.steps``, ``.grade``, ``.complete``; ``.solution`` passed the rule
        checker)."""
        return explain(self.data, self.family, timeout=timeout, deadline=deadline)

    def hint(self, given: list[dict] | None = None, timeout: float | None = None,
             deadline: Deadline = NEVER) -> Explanation:
        """The next step from the ``given`` placements (each as ``explain --json`` shows
        one): ``.steps[0]``, or no step with ``.complete`` (all placed) or ``.reason``."""
        return hint(self.data, self.family, given, timeout=timeout, deadline=deadline)

    def export(self, path: str | os.PathLike[str], format: str | None = None, *,
               model: str | None = None,
               encodings: Encodings | Mapping[str, str] | None = None,
               uniqueness: bool = False, timeout: float | None = 60.0) -> dict[str, Any]:
        """Write its solver instance (DIMACS, OPB, SMT-LIB 2, LP or MathProg, from the suffix
        of ``path`` unless ``format`` says; compressed by suffix) and return what ``export
        --json`` prints: file, format, variables, clauses, hash, hash_kind, status, map."""
        path = _file_name("export", path)
        _names(format=format)
        chosen = Encodings(**named_encodings(encodings))
        origin = Origin(self.source or "(library)", self.input_text, self.name)
        return export_instance(self.family, self.data, origin, path, format_of(path, format),
                               model=model, encodings=chosen, uniqueness=uniqueness,
                               timeout=timeout).as_json()

    def cnf(self, model: str | None = None,
            encodings: Encodings | Mapping[str, str] | None = None) -> Encoded:
        """The puzzle as a python-sat formula for a solver you drive yourself: ``.formula``
        (``pysat.formula.CNF``, or ``CNFPlus`` when an encoding keeps native cardinality
        constraints), ``.variables`` (each model variable's name -> its id; ids above are the
        encodings' auxiliaries) and ``.projection``. The model and encodings are auto's pick
        unless named. Hand the solver's model to ``decode``."""
        _names(model=model)
        chosen = setup(self.data, self.family, model, AUTO, encodings)
        m = self.family.model(chosen.model)(self.data)
        lowered = lower(m, chosen.encodings)
        formula = CNFPlus() if lowered.atmosts else PysatCNF()
        formula.nv = lowered.num_vars
        formula.extend(lowered.clauses)
        for lits, k in lowered.atmosts:
            formula.append([lits, k], is_atmost=True)
        return Encoded(formula, dict(m.items()), list(m.projection or range(1, m.num_vars + 1)),
                       m.name, chosen.encodings)

    def decode(self, assignment: Iterable[int] | Mapping[int, bool],
               model: str | None = None) -> Outcome:
        """A solution found by any solver on ``cnf()``'s formula (``model`` as given there):
        its model as a list of literals (python-sat's ``get_model()``) or {id: bool}. The
        assignment must satisfy the puzzle's model and the layout the rules; else a
        SatDominoError says which constraint or rule it breaks."""
        _names(model=model)
        true = _true_ids(assignment)
        chosen = setup(self.data, self.family, model, AUTO, None)
        m = self.family.model(chosen.model)(self.data)
        value = [False] + [v in true for v in range(1, m.num_vars + 1)]
        broken = m.broken(value)
        if broken is not None:
            raise SatDominoError(f"the assignment breaks {m.label(broken)} of the {m.name} "
                                 "model")
        assigned = frozenset(v for v in true if v <= m.num_vars)
        solution = self.family.decode(self.data, m, assigned)
        if problems := self.family.verify(self.data, solution):
            raise SatDominoError(f"the assignment breaks the rules: {'; '.join(problems[:3])}")
        out = Outcome("sat", solution, assignment=assigned,
                      stats={"backend": "outside solver", "model": m.name},
                      family=self.family, puzzle=self.data)
        out.source, out.name = self.source, self.name
        return out

    def text(self, outcome: Outcome | None = None) -> str:
        """The board as text, with ``outcome``'s solution drawn in when there is one."""
        return self.family.render_text(self.data, self._solution(outcome))

    def svg(self, outcome: Outcome | None = None) -> str:
        """The board as an SVG drawing, with ``outcome``'s solution when there is one."""
        return self.family.render_svg(self.data, self._solution(outcome))

    def draw(self, path: str | os.PathLike[str], outcome: Outcome | None = None) -> None:
        """Write the drawing (with ``outcome``'s solution when there is one) as the file's
        suffix says: .svg, .png or .pdf (PNG and PDF need the cairo library)."""
        if not isinstance(path, str | os.PathLike):
            raise TypeError(f"path must be a file name, not {path!r}")
        drawing = self.svg(outcome)
        write_atomic(os.fspath(path), convert(drawing, image_format(os.fspath(path))))

    def _repr_svg_(self) -> str:  # a notebook draws the board
        return self.svg()

    def _solution(self, outcome: Outcome | None) -> Any:
        """The solution of ``outcome``, an answer about this puzzle (None: none)."""
        if outcome is None:
            return None
        if not isinstance(outcome, Outcome):
            raise TypeError(f"outcome must be what this puzzle's solve returned, not "
                            f"{outcome!r}")
        if outcome.puzzle is not None and outcome.puzzle != self.data:
            raise SatDominoError("that outcome is another puzzle's answer: draw it with the "
                                 "puzzle it solved")
        return outcome.solution


def _puzzles(items: list[Item]) -> list[Puzzle]:
    out = []
    for item in items:
        if item.error is not None:
            raise SatDominoError(f"{item.where}: {item.error}")
        assert item.family is not None
        out.append(Puzzle(item.family.kind, item.puzzle, item.name, item.file, item.text))
    return out


@dataclass
class Encoded:
    """A puzzle's formula for a solver you drive yourself (``Puzzle.cnf``)."""

    formula: PysatCNF | CNFPlus
    variables: dict[Hashable, int]  # the model's variables by name: ("place", ...) -> id
    projection: list[int]  # the variables that tell two solutions apart
    model: str
    encodings: Encodings


def _true_ids(assignment: Any) -> set[int]:
    """The true variables of a model given as literals or as {id: bool}."""
    if isinstance(assignment, Mapping):
        pairs = list(assignment.items())
        if not all(type(v) is int and v > 0 and isinstance(b, bool) for v, b in pairs):
            raise TypeError("an assignment mapping must map positive variable ids to bools")
        return {v for v, b in pairs if b}
    if isinstance(assignment, str | bytes) or not isinstance(assignment, Iterable):
        raise TypeError(f"an assignment must be a list of literals or a mapping of ids to "
                        f"bools, not {assignment!r}")
    lits = list(assignment)
    if not all(type(x) is int for x in lits):
        raise TypeError("an assignment's literals must be ints (such as python-sat's "
                        "get_model())")
    return {x for x in lits if x > 0}


def _warn(message: str) -> None:
    warnings.warn(message, stacklevel=3)


def _file_name(what: str, path: Any) -> str:
    """``path`` (a str or a Path) as a str; a TypeError for anything else."""
    path = os.fspath(path) if isinstance(path, os.PathLike) else path
    if not isinstance(path, str):
        raise TypeError(f"{what} takes a file name (a str or a Path), not {path!r}")
    return path


def _names(**given: Any) -> None:
    """A TypeError for an argument that should be a str (or None) and is not."""
    for name, value in given.items():
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str, not {value!r}")


def read(path: str | os.PathLike[str], kind: str | None = None,
         puzzle: str | None = None) -> list[Puzzle]:
    """Every puzzle in a file (compressed by suffix), a folder, or "-" (standard input), or a
    puzzle written out (a Tatham game id). ``kind`` forces the family ("dominosa", "pips",
    "dominofit", "doodlefit"); ``puzzle`` keeps the part of that name (an NYT file's "easy",
    "medium", "hard"). A part that cannot be read raises SatDominoError; a withdrawn one is
    skipped with a warning."""
    _names(kind=kind, puzzle=puzzle)
    return _puzzles(load([_file_name("read", path)], kind, puzzle, notice=_warn))


def parse(text: str, kind: str | None = None) -> list[Puzzle]:
    """Every puzzle in ``text``, its family detected unless ``kind`` says."""
    _names(kind=kind)
    if not isinstance(text, str):
        raise TypeError(f"parse takes the puzzle's text as a str, not {text!r}"
                        + (" (to read a file, use read)" if isinstance(text, os.PathLike)
                           else ""))
    return _puzzles(parse_items("(text)", text, kind, notice=_warn))
