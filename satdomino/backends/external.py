"""Any solver binary that reads DIMACS and answers in SAT-competition format."""

from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from contextlib import nullcontext, suppress
from pathlib import Path

from ..encode import CNF
from ..errors import BackendError
from ..export.answers import s_and_v_lines
from ..export.dimacs import dimacs_lines
from ..process.child import descendants, die_with_parent, peak_rss_mb
from ..process.run import Run
from .base import Backend, Formula, Result

# util-linux's setpriv sets PR_SET_PDEATHSIG in the child before it runs the solver, so a solver
# dies with the process that started it; unlike a preexec_fn, it is safe to start from a thread
# (a portfolio's). Without setpriv, preexec_fn does the same.
_SETPRIV = shutil.which("setpriv")
_DIE_WITH_PARENT = [_SETPRIV, "--pdeathsig", "KILL", "--"] if _SETPRIV else []


@functools.cache
def gnu_time() -> str | None:
    """GNU time's path, if installed: it reports the peak memory of the solver it forks. A
    process we fork cannot: exec carries the forking process's own peak into the solver's
    ru_maxrss (so a 5 MB solver started from a 300 MB Python reads as 300 MB)."""
    path = shutil.which("time")
    if path is None:
        return None
    with suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10)
        return path if "GNU" in out.stdout + out.stderr else None
    return None


# a member writing DIMACS lets the others have the GIL once this many seconds have passed since
# it last did (at the end of the piece it is writing then)
_YIELD_EVERY = 0.001

# binaries we look for on PATH to list as ready-made external backends
KNOWN_BINARIES = ("cadical", "kissat", "picosat", "cryptominisat5", "lingeling", "glucose")


def competition_answer(text: str, who: str, num_vars: int | None = None,
                       listed: set[int] | None = None) -> tuple[str | None, set[int]]:
    """The ``s`` status word and the true variables of ``v`` lines in SAT-competition output;
    every variable the ``v`` lines give a value goes into ``listed`` too, when it is given.
    An answer that cannot be meant is refused: two ``s`` lines, ``v`` values not ended by one
    0, a variable given both values, or one above ``num_vars``."""
    status, lines = s_and_v_lines(text, who, BackendError)
    values: list[int] = []
    for line in lines:
        try:
            values.extend(map(int, line.split()))
        except ValueError:
            raise BackendError(f"{who} printed a bad 'v' line: {'v ' + line[:78]!r}") from None
    if values:
        if values[-1] != 0 or 0 in values[:-1]:
            raise BackendError(f"{who}: its 'v' values must end with a single 0")
        values.pop()
    given = set(map(abs, values))
    if len(given) < len(set(values)):
        both = min(x for x in given if x in values and -x in values)
        raise BackendError(f"{who} gave variable {both} both values")
    if num_vars is not None and given and max(given) > num_vars:
        raise BackendError(f"{who} gave a value to variable {max(given)}, but the instance "
                           f"has {num_vars}")
    if listed is not None:
        listed.update(given)
    return status, {v for v in values if v > 0}


class ExternalBackend(Backend):
    def __init__(self, command: str) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as e:  # an unbalanced quote, say
            raise BackendError(f"external:{command}: {e}") from None
        if not argv:
            raise BackendError("external backend needs a command: external:/path/to/solver")
        path = shutil.which(argv[0])
        if path is None:
            raise BackendError(f"external solver {argv[0]!r} not found or not executable")
        self.argv = [path, *argv[1:]]
        # its own session, so a time-out kills the solver and all it started; compare's runs
        # turn this off: each run is already a process group that the sweep kills whole
        self.new_session = True
        # compare's runs: the solver's peak resident memory (kB), measured by GNU time when it
        # is installed, goes to a file ``*.peak`` in the temporary folder
        self.measure_peak = False
        super().__init__(name=f"external:{command}", takes="cnf", summary=f"binary {path}")

    def start(self, formula: Formula, assumptions: Sequence[int] = (),
              phases: Sequence[int] = ()) -> Run:
        return Run(lambda run: self._solve(formula, assumptions, run))

    def _solve(self, formula: Formula, assumptions: Sequence[int], run: Run) -> Result:
        if not isinstance(formula, CNF):
            raise BackendError(f"backend {self.name} reads a CNF")
        fd, path = tempfile.mkstemp(prefix="satdomino-", suffix=".cnf")
        t0 = time.perf_counter()
        try:
            with os.fdopen(fd, "w") as f:
                # in pieces: between them, once a millisecond, sleep(0) lets a portfolio member
                # with an answer take the GIL (else it would wait out the switch interval), and
                # then this member stops writing. Not after every piece: a sleep(0) costs the
                # kernel's timer slack. DIMACS has no assumptions: they go in as units
                yielded = t0
                for piece in dimacs_lines(formula, extra=[[x] for x in assumptions]):
                    if run.stopped:
                        return run.stopped_result(time.perf_counter() - t0)
                    f.write(piece)
                    if time.perf_counter() - yielded > _YIELD_EVERY:
                        time.sleep(0)
                        yielded = time.perf_counter()
            # output to files, not pipes: a solver's own children (a wrapper script's) could
            # hold a pipe open after the solver is killed, and we would wait for them
            with tempfile.TemporaryFile("w+") as out_file, \
                    tempfile.TemporaryFile("w+") as err_file:
                command, peak_path = [*self.argv, path], None
                if self.measure_peak and _DIE_WITH_PARENT and (timer := gnu_time()):
                    # time forks the solver, which then dies with time as time dies with us
                    peak_fd, peak_path = tempfile.mkstemp(prefix="satdomino-", suffix=".peak")
                    os.close(peak_fd)
                    command = [timer, "-f", "%M", "-o", peak_path, *_DIE_WITH_PARENT,
                               *command]
                proc = subprocess.Popen([*_DIE_WITH_PARENT, *command],
                                        stdout=out_file, stderr=err_file, text=True,
                                        start_new_session=self.new_session,
                                        preexec_fn=None if _DIE_WITH_PARENT else die_with_parent)
                self._wait(proc, run, peak_path)
                out_file.seek(0)
                err_file.seek(0)
                out, err = out_file.read(), err_file.read()
        finally:
            os.unlink(path)
        code = proc.returncode if peak_path is None else _code_under_time(proc, peak_path)
        if run.stopped and code < 0:
            return run.stopped_result(time.perf_counter() - t0)
        return self._parse(out, err, code, time.perf_counter() - t0, formula.num_vars)

    def _wait(self, proc: subprocess.Popen, run: Run, peak_path: str | None) -> None:
        """Wait for the solver to end, or kill it: on a stop of ``run`` (the time limit
        among them), on Ctrl-C (which a solver in its own session would not see). Killed under
        GNU time, the solver's peak memory so far goes to ``peak_path`` (time, killed, writes
        none)."""

        def signal_group(sig: int) -> None:
            # returncode is set as wait() reaps the process: after that its pid may be reused
            # (though not within microseconds: Linux hands out pids in turn)
            if proc.returncode is None:
                with suppress(ProcessLookupError):
                    os.killpg(proc.pid, sig)

        def kill() -> None:
            if self.new_session:  # the solver leads a group: it and all it started
                signal_group(signal.SIGKILL)
            elif proc.returncode is None:  # in compare's run, whose group the sweep kills
                with suppress(ProcessLookupError):
                    if peak_path is not None:
                        _note_peak(proc.pid, peak_path)
                    proc.kill()  # the solver itself

        try:
            # pausable (SIGSTOP, SIGCONT) only as the leader of a group of its own: in
            # compare's runs it shares ours, and under GNU time a signal to time alone
            # would not reach the solver
            pausing = (run.pausable(functools.partial(signal_group, signal.SIGSTOP),
                                    functools.partial(signal_group, signal.SIGCONT))
                       if self.new_session else nullcontext())
            with pausing, run.stoppable(kill):  # pausable once it counts as searching
                proc.wait()
        except BaseException:  # Ctrl-C, say: kill it and reap it
            kill()
            proc.wait()
            raise

    def _parse(self, out: str, err: str, code: int, seconds: float, num_vars: int) -> Result:
        status, true = competition_answer(out, self.argv[0], num_vars)
        if status == "SATISFIABLE" or (status is None and code == 10 and true):
            return Result("sat", frozenset(true), seconds)
        if status == "UNSATISFIABLE" or (status is None and code == 20):
            return Result("unsat", seconds=seconds)
        if status == "UNKNOWN":
            return Result("unknown", seconds=seconds, note="solver said UNKNOWN")
        last = (err.strip().splitlines() or out.strip().splitlines() or ["no output"])[-1]
        raise BackendError(f"{self.argv[0]} gave no answer (exit {code}): {last[:200]}")


def _code_under_time(proc: subprocess.Popen, peak_path: str) -> int:
    """The solver's exit status as Popen gives it: GNU time exits 128 + N for a solver killed
    by signal N (and says so in its file), where Popen gives -N."""
    if proc.returncode > 128:
        with suppress(OSError):
            found = re.search(r"terminated by signal (\d+)", Path(peak_path).read_text())
            if found:
                return -int(found.group(1))
    return proc.returncode


def solver_peak_mb(folder: Path) -> float:
    """The largest peak memory (MB) written to a ``*.peak`` file in ``folder`` (GNU time's, or
    ``_note_peak``'s); 0 if none."""
    # the last word: after "Command exited with non-zero status 10", say
    tails = [path.read_text(errors="replace").split()[-1:] for path in folder.glob("*.peak")]
    return max([0.0] + [int(tail[0]) / 1024 for tail in tails if tail and tail[0].isdigit()])


def _note_peak(pid: int, path: str) -> None:
    """Write the peak memory (kB) of what runs under ``pid`` to ``path``, as GNU time would;
    nothing if nothing does (time has written its own)."""
    peaks = [peak_rss_mb(p) or 0.0 for p in descendants(pid)]
    if peaks:
        Path(path).write_text(f"{round(max(peaks) * 1024)}\n")


def found_binaries() -> list[str]:
    return [f"external:{b}" for b in KNOWN_BINARIES if shutil.which(b)]
