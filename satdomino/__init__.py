"""satdomino: domino puzzles as SAT and SMT, with pluggable encodings and solvers.

    >>> import satdomino
    >>> [puzzle] = satdomino.parse("2:221200101201")
    >>> out = puzzle.solve(unique=True)
    >>> out.status, out.unique
    ('sat', True)

``read`` and ``parse`` give ``Puzzle`` objects of any family (``solve``, ``count``,
``export``, ``cnf`` and ``decode`` for a solver of your own, ``text``, ``svg``, ``draw``);
``solve`` and ``family`` are the lower layer they use.
"""

from .backends import DEFAULT_BACKEND, available_backends, get_backend
from .clock import Deadline
from .encode import CNF, Encodings, lower
from .errors import SatDominoError, VerificationError
from .family import Family
from .model import Model
from .puzzle import Encoded, Puzzle, parse, read
from .puzzles import FAMILIES, detect, dominofit, dominosa, doodlefit, family, pips, register
from .solve import Outcome, solve
from .version import __version__

__all__ = [
    "CNF",
    "DEFAULT_BACKEND",
    "FAMILIES",
    "Deadline",
    "Encoded",
    "Encodings",
    "Family",
    "Model",
    "Outcome",
    "Puzzle",
    "SatDominoError",
    "VerificationError",
    "__version__",
    "available_backends",
    "detect",
    "dominofit",
    "dominosa",
    "doodlefit",
    "family",
    "get_backend",
    "lower",
    "parse",
    "pips",
    "read",
    "register",
    "solve",
]
