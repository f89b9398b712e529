"""satdomino: domino puzzles as SAT and SMT, with pluggable encodings and solvers.

    >>> import satdomino
    >>> puzzle = satdomino.dominosa.parse_game_id("2:221200101201")
    >>> out = satdomino.solve(puzzle, satdomino.family("dominosa"), unique=True)
    >>> out.status, out.unique
    ('sat', True)
"""

from .backends import DEFAULT_BACKEND, available_backends, get_backend
from .encode import CNF, Encodings, lower
from .errors import SatDominoError, VerificationError
from .model import Model
from .puzzles import FAMILIES, detect, dominosa, family
from .solve import Outcome, solve

__version__ = "0.1.0"

__all__ = [
    "CNF",
    "DEFAULT_BACKEND",
    "FAMILIES",
    "Encodings",
    "Model",
    "Outcome",
    "SatDominoError",
    "VerificationError",
    "__version__",
    "available_backends",
    "detect",
    "dominosa",
    "family",
    "get_backend",
    "lower",
    "solve",
]
