"""Backend registry: python-sat solvers by name, ``external:CMD``, ``z3`` and ``z3-smt``,
``highs[:OPTION=VALUE,...]``, named solver configurations (``PRESETS``), ``portfolio:A+B``
races of any of these and ``by-size:VARS:SMALL|LARGE`` choices between two."""

from __future__ import annotations

import difflib
import re
from contextlib import suppress

from pysat.solvers import SolverNames

from ..errors import UnknownNameError, UsageError
from .base import Backend, Result, Session, Status
from .by_size import PREFIX as BY_SIZE
from .by_size import BySizeBackend
from .by_size import parse as parse_by_size
from .dlx import DlxBackend, dlx_built
from .external import ExternalBackend, found_binaries
from .highs_backend import HighsBackend, highs_installed
from .portfolio import PortfolioBackend
from .pysat_backend import PysatBackend, solver_names
from .sls import SlsBackend, sls_built
from .z3_backend import Z3Backend

__all__ = ["DEFAULT_BACKEND", "Backend", "Result", "Session", "Status", "available_backends",
           "get_backend", "resolves"]

# not a backend: solve() and count() settle it per puzzle (satdomino.auto)
DEFAULT_BACKEND = "auto"
MAX_DELAY = 86400.0  # seconds a portfolio member may wait to start

# named solver configurations: name -> (backend it stands for, what it is for)
PRESETS: dict[str, tuple[str, str]] = {
    # CryptoMiniSat runs its CCAnr local search during inprocessing, first after 44,000
    # conflicts; --nextm 0.001 brings every inprocessing step (that one included) 1000x
    # sooner, --yalsatmems 30 gives each local-search run 3x its default budget, and
    # --distillbin 0 skips the binary-clause distillation that comes first (a quarter of the
    # time at N = 50)
    "cms-sls": ("external:cryptominisat5 --nextm 0.001 --yalsatmems 30 --distillbin 0",
                "CryptoMiniSat 5 with early, frequent CCAnr local search: large satisfiable "
                "puzzles (Dominosa N >= 50)"),
    # HiGHS runs the feasibility-jump local search (Luteberget and Sartor) on the presolved
    # program before its first LP. The presolve rules turned off (presolve_rule_off bits 10,
    # 13, 14, 15 and 16: dependent equations, parallel rows and columns, sparsify, probing,
    # enumeration) and symmetry detection took most of HiGHS's time on large Dominosa boards;
    # the rest of presolve (doubleton equations above all) stays: the jump needs it.
    "highs-fj": ("highs:jump_only=true,mip_detect_symmetry=false,presolve_rule_off=123904",
                 "HiGHS's feasibility-jump local search alone, on the 0-1 program: answers "
                 "sat or gives up (a portfolio member for large satisfiable puzzles)"),
    # on two cores a second solver slows the first (memory traffic; starting HiGHS's worker
    # costs 3-6 ms). Below 5,000 variables (Dominosa N <= 48) HiGHS starts only once MiniSat
    # has had 20 ms: there MiniSat wins most boards within 20 ms, and CP-SAT takes 0.05 s on
    # some of them. From there HiGHS starts at once. CryptoMiniSat starts once HiGHS's jump gives up
    # (on one board in six to ten) or MiniSat has had 80 ms, when MiniSat pauses, to go on if
    # the jump gives up: README, "Large planted Dominosa boards"
    "large-sat": ("by-size:5000:portfolio:minisat22@..0.08+highs-fj@0.02+cms-sls@10"
                  "|portfolio:minisat22@..0.08+highs-fj+cms-sls@10",
                  "MiniSat at once, HiGHS's feasibility jump at once (after 20 ms below 5,000 "
                  "variables), CryptoMiniSat's local search once the jump gives up or on "
                  "MiniSat's core after 80 ms: large satisfiable puzzles (Dominosa N >= 40, "
                  "with --amo pairwise)"),
}


def get_backend(name: str) -> Backend:
    """The backend named ``name`` (any of ``available_backends``, ``external:CMD``,
    ``portfolio:A+B``, ``by-size:VARS:SMALL|LARGE``, ``highs:OPTION=VALUE``, ``sls:seed=K``,
    ``dlx:seed=K``); an unknown or missing one raises a one-line SatDominoError."""
    if not isinstance(name, str):
        raise UsageError(f"a backend is named by a string, not {type(name).__name__}")
    if name == DEFAULT_BACKEND:
        raise UsageError("auto picks a solver per puzzle (give it to solve or count), it is "
                         "not one backend")
    if name in PRESETS:
        engine = get_backend(PRESETS[name][0])
        engine.name, engine.summary = name, f"{PRESETS[name][1]} ({PRESETS[name][0]})"
        return engine
    if name.startswith(BY_SIZE):  # before portfolio: either side may be a portfolio
        limit, small, large = parse_by_size(name[len(BY_SIZE):])
        return BySizeBackend(limit, get_backend(small), get_backend(large))
    if name.startswith("portfolio:"):
        parts = [_timed(x.strip()) for x in name[len("portfolio:"):].split("+") if x.strip()]
        return PortfolioBackend([get_backend(x) for x, _, _ in parts], [d for _, d, _ in parts],
                                [y for _, _, y in parts])
    if name.startswith("external:"):
        return ExternalBackend(name[len("external:"):])
    if name == "highs" or name.startswith("highs:"):
        return HighsBackend(name[len("highs:"):])
    if name == "sls" or name.startswith("sls:"):
        return SlsBackend(_seed("sls", name[len("sls:"):]))
    if name == "dlx" or name.startswith("dlx:"):
        return DlxBackend(_seed("dlx", name[len("dlx:"):]))
    if name in ("z3", "z3-smt"):
        return Z3Backend(smt=name == "z3-smt")
    canonical = next((key for key, aliases in vars(SolverNames).items()
                      if not key.startswith("_") and name in aliases), None)
    if canonical is None:
        raise UnknownNameError(f"unknown backend {name!r}{_suggest(name)} ('satdomino "
                               "encodings' lists them all)")
    return PysatBackend(canonical)


def _suggest(name: str) -> str:
    """", did you mean ...?" with the names here that start like ``name`` or are spelt
    nearly like it ("cadical": cadical195 ..., external:cadical when on PATH)."""
    here = [*solver_names(), "z3", "z3-smt", "highs", "sls", "dlx", *found_binaries(), *PRESETS]
    close = [x for x in here if x.removeprefix("external:").startswith(name.lower())]
    close += [x for x in difflib.get_close_matches(name.lower(), here, n=3) if x not in close]
    return f": did you mean {', '.join(close[:5])}?" if name and close else ""


def _seed(backend: str, spec: str) -> int:
    """``seed=K`` (K a whole number), or nothing: the random seed of ``sls``'s local search
    or of the order in which ``dlx`` tries options."""
    if not spec:
        return 0
    key, eq, value = spec.partition("=")
    if key.strip() != "seed" or not eq or not value.strip().isdigit() \
            or int(value) >= 2**63:
        raise UsageError(f"write {backend} or {backend}:seed=K (K a whole number), not "
                         f"{backend}:{spec}")
    return int(value)


_NUMBER = r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*"


def _timed(member: str) -> tuple[str, float, float | None]:
    """``NAME@START`` -> (NAME, START, None): a portfolio member that starts that late;
    ``NAME@START..YIELD`` or ``NAME@..YIELD`` -> (NAME, START or 0, YIELD): one that also
    yields its core at YIELD seconds. Only numbers after the last ``@`` are times (an outside
    solver's path may hold an ``@``)."""
    name, at, times = member.rpartition("@")
    start, dots, yield_at = times.partition("..")
    if not at or not (re.fullmatch(_NUMBER, start) or (dots and not start.strip())) \
            or (dots and not re.fullmatch(_NUMBER, yield_at)):
        return member, 0.0, None
    seconds = float(start) if start.strip() else 0.0
    yields = float(yield_at) if dots else None
    for value, text in ((seconds, start), (yields, yield_at)):
        if value is not None and not 0 <= value <= MAX_DELAY:
            raise UsageError(f"a portfolio member's times are 0 to {MAX_DELAY:g} seconds, "
                             f"not {text.strip()}")
    if yields is not None and yields <= seconds:
        raise UsageError(f"a portfolio member yields its core after it starts, not at "
                         f"{yield_at.strip()} s when it starts at {seconds:g} s")
    return name.strip(), seconds, yields


def available_backends() -> list[str]:
    """Every backend name that can run here: python-sat solvers, z3, z3-smt, highs, sls and dlx
    when installed and built, solver binaries found on PATH, and the presets whose solvers are
    all here."""
    optional = [name for name, here in (("highs", highs_installed()), ("sls", sls_built()),
                                        ("dlx", dlx_built())) if here]
    return [*solver_names(), "z3", "z3-smt", *optional, *found_binaries(),
            *(p for p in PRESETS if resolves(p))]


def resolves(name: str) -> bool:
    """Every solver ``name`` stands for is here (a binary, highspy, the built ``sls``)."""
    with suppress(Exception):  # SatDominoError, or a solver library that fails to import
        get_backend(name)
        return True
    return False
