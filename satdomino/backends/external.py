"""Any solver binary that reads DIMACS and answers in SAT-competition format."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time

from ..encode import CNF
from ..errors import BackendError
from ..export.dimacs import dimacs_lines
from .base import Backend, Result
from .child import die_with_parent

# binaries we look for on PATH to list as ready-made external backends
KNOWN_BINARIES = ("cadical", "kissat", "picosat", "cryptominisat5", "lingeling", "glucose")


def competition_answer(text: str, who: str) -> tuple[str | None, set[int]]:
    """The ``s`` status word and the true variables of ``v`` lines in SAT-competition output."""
    status = None
    true: set[int] = set()
    for line in text.splitlines():
        if line.startswith("s "):
            status = line[2:].strip()
        elif line.startswith("v "):
            try:
                true.update(v for v in map(int, line[2:].split()) if v > 0)
            except ValueError:
                raise BackendError(f"{who} printed a bad 'v' line: {line[:80]!r}") from None
    return status, true


class ExternalBackend(Backend):
    def __init__(self, command: str) -> None:
        argv = shlex.split(command)
        if not argv:
            raise BackendError("external backend needs a command: external:/path/to/solver")
        path = shutil.which(argv[0])
        if path is None:
            raise BackendError(f"external solver {argv[0]!r} not found or not executable")
        self.argv = [path, *argv[1:]]
        # its own session, so a time-out kills the solver and all it started; compare's runs
        # turn this off: each run is already a process group that the sweep kills whole
        self.new_session = True
        super().__init__(name=f"external:{command}", takes="cnf", summary=f"binary {path}")

    def solve(self, formula, assumptions=(), time_limit=None, phases=()) -> Result:
        assert isinstance(formula, CNF)
        units = [[x] for x in assumptions]  # DIMACS has no assumptions: add them as units
        fd, path = tempfile.mkstemp(prefix="satdomino-", suffix=".cnf")
        t0 = time.perf_counter()
        try:
            with os.fdopen(fd, "w") as f:
                f.writelines(dimacs_lines(formula, extra=units))
            proc = subprocess.Popen([*self.argv, path], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True,
                                    start_new_session=self.new_session,
                                    preexec_fn=die_with_parent)
            try:
                out, err = proc.communicate(timeout=time_limit)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)  # the solver and anything it started
                proc.communicate()
                return Result("unknown", seconds=time.perf_counter() - t0, note="time limit")
        finally:
            os.unlink(path)
        return self._parse(out, err, proc.returncode, time.perf_counter() - t0)

    def _parse(self, out: str, err: str, code: int, seconds: float) -> Result:
        status, true = competition_answer(out, self.argv[0])
        if status == "SATISFIABLE" or (status is None and code == 10 and true):
            return Result("sat", frozenset(true), seconds)
        if status == "UNSATISFIABLE" or (status is None and code == 20):
            return Result("unsat", seconds=seconds)
        if status == "UNKNOWN":
            return Result("unknown", seconds=seconds, note="solver said UNKNOWN")
        last = (err.strip().splitlines() or out.strip().splitlines() or ["no output"])[-1]
        raise BackendError(f"{self.argv[0]} gave no answer (exit {code}): {last[:200]}")


def found_binaries() -> list[str]:
    return [f"external:{b}" for b in KNOWN_BINARIES if shutil.which(b)]
