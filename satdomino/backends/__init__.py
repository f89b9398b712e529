"""Backend registry: python-sat solvers by name, ``external:CMD``, ``z3`` and ``z3-smt``."""

from __future__ import annotations

from ..errors import UnknownNameError
from .base import Backend, Result, Status
from .external import ExternalBackend, found_binaries
from .pysat_backend import PysatBackend, solver_names
from .z3_backend import Z3Backend

__all__ = ["DEFAULT_BACKEND", "Backend", "Result", "Status", "available_backends", "get_backend"]

DEFAULT_BACKEND = "cadical195"


def get_backend(name: str) -> Backend:
    if name.startswith("external:"):
        return ExternalBackend(name[len("external:"):])
    if name in ("z3", "z3-smt"):
        return Z3Backend(smt=name == "z3-smt")
    from pysat.solvers import SolverNames

    canonical = next((key for key, aliases in vars(SolverNames).items()
                      if not key.startswith("_") and name in aliases), None)
    if canonical is None:
        raise UnknownNameError(f"unknown backend {name!r}; see 'satdomino encodings' for the list")
    return PysatBackend(canonical)


def available_backends() -> list[str]:
    return [*solver_names(), "z3", "z3-smt", *found_binaries()]
