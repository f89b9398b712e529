"""HiGHS, the open-source MIP solver, on the Model as a 0-1 linear program: ``highs`` and
``highs:OPTION=VALUE,...``.

The rows are ``program.program_rows``'s: an exactly-one is one equality row, not the pairwise
clauses a SAT solver gets, and that is what HiGHS's presolve and feasibility jump work on.
``OPTION`` is any HiGHS option (``presolve=off``, ``random_seed=3``, ...), plus
``jump_only=true``: stop, with no answer, once the feasibility-jump heuristic that HiGHS runs
before its first LP has failed, rather than go on to the branch-and-bound (a local-search
member for a portfolio, which frees its core for the others).

The backend's HiGHS always runs in a process of its own, since its LP solves do not look at
interrupt requests and killing the process is the only prompt stop: a worker of the fork
server (``forkserver``), sent the program as numpy arrays, or a forked child where there is no
server (not Linux). So do ``cover_lp``, the linear relaxation of an exact cover that the
counters and Dominosa's ``pruned`` model read, and ``box_lp_duals``, the relaxation of a 0-1
program whose duals ``kernels.lp_bound`` checks: in a forked child of theirs.
"""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import NoReturn

from ..errors import BackendError, UsageError
from ..model import Model
from ..process import forkserver
from ..process.child import answer_now, close_quietly
from ..process.run import ForkedRun, Run, ServedRun
from .base import Backend, Formula, Result
from .program import program_rows

OWN_OPTIONS = ("jump_only",)
MAX_THREADS = 256


def _value(text: str) -> bool | int | float | str:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        with suppress(ValueError):
            return kind(text)
    return text


def parse_options(spec: str) -> dict[str, bool | int | float | str]:
    """``"a=1,b=off"`` -> {"a": 1, "b": "off"}; every HiGHS option is checked by HiGHS."""
    options: dict[str, bool | int | float | str] = {}
    for item in filter(None, (x.strip() for x in spec.split(","))):
        key, eq, text = item.partition("=")
        if not eq or not key.strip():
            raise UsageError(f"HiGHS options are written OPTION=VALUE, not {item!r}")
        options[key.strip()] = _value(text.strip())
    if not isinstance(options.get("jump_only", False), bool):
        raise UsageError(f"jump_only is true or false, not {options['jump_only']!r}")
    threads = options.get("threads", 0)
    # HiGHS takes any count and then fails to allocate or waits on its workers
    if not (isinstance(threads, int) and 0 <= threads <= MAX_THREADS):
        raise UsageError(f"HiGHS threads is 0 (its choice) to {MAX_THREADS}, not {threads!r}")
    _highs(options)  # refused options fail here, before any solve
    return options


def _highs(options: dict):
    """A fresh, silent Highs object with ``options`` (and the HiGHS options of ours left out)."""
    import highspy  # imported on demand: most runs do not need it

    with no_stdout():
        h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    for key, value in options.items():
        if key not in OWN_OPTIONS and h.setOptionValue(key, value) != highspy.HighsStatus.kOk:
            raise UsageError(f"HiGHS refuses the option {key}={value}")
    return h


@contextmanager
def no_stdout() -> Iterator[None]:
    """Standard output, at the file-descriptor level, goes nowhere inside: HiGHS 1.16 prints
    its banner from C++ as a Highs object is made, before any option can turn its log off,
    and that would land in the middle of ``--json`` output."""
    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 1)
        yield
    finally:
        _flush_c_stdout()  # C's buffered output goes where it was written
        os.dup2(saved, 1)
        close_quietly(saved, null)


def _flush_c_stdout() -> None:
    """fflush(stdout), and only stdout: fflush(NULL) would also flush every other C stream
    of this process, among them streams their owners have abandoned. python-sat's Cadical195
    with a proof leaves one: ``delete()`` closes the proof file's descriptor under a FILE*
    that still holds the proof's unread tail, and a flush then writes that tail to whatever
    file has since taken the number (in the test suite, the fork server's socket)."""
    libc = ctypes.CDLL(None)
    try:
        stream = ctypes.c_void_p.in_dll(libc, "stdout")  # glibc, musl
    except ValueError:  # no such symbol (macOS names it __stdoutp): flush them all
        libc.fflush(None)
        return
    libc.fflush.argtypes = [ctypes.c_void_p]
    libc.fflush(stream)


def cover_lp(num_items: int, options: Sequence[Sequence[int]], weights: Sequence[float],
             elastic: bool = False) -> tuple[list[float], list[float]] | None:
    """The linear relaxation of an exact cover (each item's options sum to 1, each option
    from 0 to 1) with ``weights`` maximised, by HiGHS's first-order method (PDLP), in this
    process (it looks at no interrupt: callers run it in a child they can kill): each
    option's value and each item's dual value, or None when HiGHS ends without an optimum.
    The method mostly ends inside the optimal face rather than at a vertex, so that the
    options near 0 there are few beyond those near 0 in every optimal point (presolve can
    end at a vertex of small problems). HiGHS's interior point method would do as well, but
    takes 50 s to give up on an infeasible Dominosa board of N = 100, where PDLP takes 0.3 s.
    ``elastic``: each item's sum may miss 1 by a slack that costs its size, so there is
    always an optimum; the weights then only break ties."""
    import highspy
    import numpy as np

    slacks = 2 * num_items if elastic else 0
    h = _highs({"solver": "pdlp", "run_crossover": "off", "threads": 1})
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(options) + slacks, num_items
    lp.sense_ = highspy.ObjSense.kMaximize
    lp.col_cost_ = np.concatenate([np.asarray(weights, dtype=float), -np.ones(slacks)])
    lp.col_lower_ = np.zeros(lp.num_col_)
    lp.col_upper_ = np.concatenate([np.ones(len(options)), np.full(slacks, highspy.kHighsInf)])
    lp.row_lower_ = lp.row_upper_ = np.ones(num_items)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.cumsum([0, *map(len, options), *[1] * slacks], dtype=np.int32)
    of_options = np.fromiter((i for o in options for i in sorted(o)), dtype=np.int32)
    lp.a_matrix_.index_ = np.concatenate([of_options, np.repeat(np.arange(slacks // 2,
                                                                          dtype=np.int32), 2)])
    lp.a_matrix_.value_ = np.concatenate([np.ones(len(of_options)),
                                          np.tile([1.0, -1.0], slacks // 2)])
    h.passModel(lp)
    h.run()
    if h.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    solution = h.getSolution()
    return list(solution.col_value)[:len(options)], list(solution.row_dual)


def box_lp_duals(cost: Sequence[int], columns: Sequence[Sequence[tuple[int, int]]],
                 lower: Sequence[float], upper: Sequence[float],
                 options: dict[str, str | float]) -> list[float] | None:
    """The row duals HiGHS gives for the least ``cost`` . x over 0 <= x <= 1 with ``lower``
    <= A x <= ``upper`` (``columns``: each column's (row, coefficient) pairs; a missing
    bound is an infinite one), in this process (it looks at no interrupt: callers run it in
    a child they can kill); None when it gives none. They are trusted only through a bound
    checked from them in exact arithmetic (``kernels.lp_bound``). ``options``: HiGHS's."""
    import highspy
    import numpy as np

    h = _highs({"threads": 1, **options})
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(columns), len(lower)
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_, lp.col_upper_ = np.zeros(len(columns)), np.ones(len(columns))
    lp.row_lower_ = np.asarray(lower, dtype=float)
    lp.row_upper_ = np.asarray(upper, dtype=float)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = np.cumsum([0, *map(len, columns)], dtype=np.int32)
    lp.a_matrix_.index_ = np.fromiter((i for c in columns for i, _ in c), dtype=np.int32)
    lp.a_matrix_.value_ = np.fromiter((a for c in columns for _, a in c), dtype=float)
    h.passModel(lp)
    h.run()
    duals = list(h.getSolution().row_dual)
    return duals if len(duals) == len(lower) else None


def highs_installed() -> bool:
    return importlib.util.find_spec("highspy") is not None


def load_highs() -> None:
    """Import highspy now, so that the children forked next need not each import it."""
    import highspy  # noqa: F401


class HighsBackend(Backend):
    def __init__(self, spec: str = "") -> None:
        if not highs_installed():
            raise BackendError("backend highs needs highspy: pip install highspy")
        self.options = parse_options(spec)
        self.jump_only = bool(self.options.get("jump_only", False))
        super().__init__(name="highs" + (f":{spec}" if spec else ""), takes="model",
                         summary="HiGHS MIP on the 0-1 program"
                         + (" (feasibility jump only)" if self.jump_only else ""))

    def prepare(self) -> None:
        if forkserver.available():
            forkserver.server()

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        model = self.model_of(formula)

        def make_args() -> tuple:
            return _program(model, assumptions), model.num_vars, self.options

        if forkserver.available():
            return ServedRun(forkserver.server(), _solve, make_args)
        return ForkedRun(_solve, make_args())


def _program(model: Model, assumptions: Sequence[int]) -> tuple:
    """The 0-1 program of ``model`` as numpy arrays, each assumption fixing its column: what a
    HiGHS worker is sent, pickled (the Model would take far longer). Row-wise: the starts,
    0-based columns and coefficients of the rows, the rows' bounds, the columns' bounds."""
    import numpy as np

    rows = program_rows(model)
    col_lower, col_upper = np.zeros(rows.num_cols), np.ones(rows.num_cols)
    for lit in assumptions:  # its column's lower bound 1, or its upper bound 0
        (col_lower if lit > 0 else col_upper)[abs(lit) - 1] = lit > 0
    return (np.asarray(rows.starts, dtype=np.int32), np.asarray(rows.index, dtype=np.int32) - 1,
            np.asarray(rows.value, dtype=float), rows.lower, rows.upper, col_lower, col_upper)


def _solve(program: tuple, num_vars: int, options: dict) -> NoReturn:
    """In a worker process: ``program`` (``_program``'s) solved by HiGHS. The answer is sent
    as soon as it is known (freeing HiGHS and the program would take milliseconds more)."""
    import highspy
    import numpy as np

    t0 = time.perf_counter()
    starts, index, value, row_lower, row_upper, col_lower, col_upper = program
    if len(col_lower) == 0:  # HiGHS calls a program without columns "empty", not
        # solved: every row's activity is 0, so it holds exactly when each row admits 0
        holds = all(lo <= 0 <= up for lo, up in zip(row_lower, row_upper, strict=True))
        answer_now(Result("sat" if holds else "unsat", seconds=time.perf_counter() - t0))
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = len(col_lower), len(row_lower)
    lp.col_cost_ = np.zeros(len(col_lower))
    lp.col_lower_, lp.col_upper_ = col_lower, col_upper
    lp.row_lower_, lp.row_upper_ = row_lower, row_upper
    lp.integrality_ = [highspy.HighsVarType.kInteger] * len(col_lower)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.start_, lp.a_matrix_.index_, lp.a_matrix_.value_ = starts, index, value
    h = _highs(options)
    if options.get("jump_only"):
        # HiGHS logs its first branch-and-bound line right after the feasibility jump: with
        # no solution by then, the child answers "unknown" and ends (the LP that follows
        # would not stop for an interrupt). MIP log events come only with logging on: it
        # goes nowhere
        h.setOptionValue("output_flag", True)
        h.setOptionValue("log_to_console", False)
        h.cbMipLogging += lambda event: _no_jump_solution(event, t0)
    h.cbMipImprovingSolution += lambda event: _answer_at_once(event, lp, num_vars, t0)
    h.passModel(lp)
    h.run()
    status = h.getModelStatus()
    seconds = time.perf_counter() - t0
    if h.getInfo().primal_solution_status == 2:  # a feasible point: every row holds
        x = h.getSolution().col_value
        answer_now(Result("sat", frozenset(j + 1 for j in range(num_vars) if x[j] > 0.5), seconds))
    if status == highspy.HighsModelStatus.kInfeasible:
        answer_now(Result("unsat", seconds=seconds))
    answer_now(Result("unknown", seconds=seconds, note=h.modelStatusToString(status)))


def _answer_at_once(event, lp, num_vars: int, t0: float) -> None:
    """A solution HiGHS has just found (in the space of ``lp``, not the presolved one) is
    sent at once if every row and bound holds: HiGHS would first solve its root LP, where the
    all-zero objective already makes it optimal."""
    import numpy as np

    x = np.rint(np.asarray(event.data_out.mip_solution, dtype=float)[:lp.num_col_])
    a = lp.a_matrix_
    starts, index = np.asarray(a.start_, dtype=np.int64), np.asarray(a.index_, dtype=np.int64)
    rows = np.repeat(np.arange(lp.num_row_), np.diff(starts))
    activity = np.bincount(rows, weights=np.asarray(a.value_, dtype=float) * x[index],
                           minlength=lp.num_row_)
    if len(x) == lp.num_col_ and np.all(x >= lp.col_lower_) and np.all(x <= lp.col_upper_) \
            and np.all(activity >= lp.row_lower_) and np.all(activity <= lp.row_upper_):
        answer_now(Result("sat", frozenset(j + 1 for j in range(num_vars) if x[j] > 0.5),
                          time.perf_counter() - t0))


def _no_jump_solution(event, t0: float) -> None:
    """At HiGHS's first MIP log line (after the feasibility jump), "unknown" if the jump
    found no solution."""
    import highspy

    if event.data_out.mip_primal_bound == highspy.kHighsInf:
        answer_now(Result("unknown", seconds=time.perf_counter() - t0,
                          note="the feasibility jump found no solution"))
