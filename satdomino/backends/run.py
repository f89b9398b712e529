"""A solve that another thread can stop: what a portfolio races, and how in-process solvers
honour a time limit without a child process.

``Backend.start`` returns a Run. ``result()`` does the work, in any thread, and returns its
Result; ``stop()``, from any thread at any time, makes it end soon with status "unknown".
The work says how it can be stopped (interrupt an in-process solver, kill a process) with
``stoppable``.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

from ..errors import BackendError
from .base import Result
from .child import in_child


class Run:
    def __init__(self, work: Callable[[Run], Result]) -> None:
        self._work = work
        self._lock = threading.Lock()
        self._stoppers: list[Callable[[], None]] = []
        self.stopped = False
        # set-up (loading clauses, writing DIMACS) holds Python's GIL; searching does not.
        # ``searching`` turns true, and ``on_searching`` is called, when the work first
        # enters ``stoppable``: a portfolio starts its next member then.
        self.searching = False
        self.on_searching: Callable[[], None] | None = None

    def result(self) -> Result:
        return self._work(self)

    @contextmanager
    def stoppable(self, stopper: Callable[[], None]) -> Iterator[None]:
        """While inside, ``stop()`` calls ``stopper`` (at once if the run is already stopped).
        Stoppers run under the lock, so none runs after its block is left (say, on a solver
        that has been deleted)."""
        with self._lock:
            if self.stopped:
                stopper()
            else:
                self._stoppers.append(stopper)
        if not self.searching:
            self.searching = True
            if self.on_searching is not None:
                self.on_searching()
        try:
            yield
        finally:
            with self._lock:
                if stopper in self._stoppers:
                    self._stoppers.remove(stopper)

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            for stopper in self._stoppers:
                stopper()
            self._stoppers.clear()

    def close(self) -> None:
        """Give up a run whose ``result()`` nobody will call: stop it and free what
        ``Backend.start`` took (a forked child is killed and reaped)."""
        self.stop()

    def stopped_result(self, seconds: float) -> Result:
        return Result("unknown", seconds=seconds, note="stopped")


def finish_within(run: Run, time_limit: float) -> Result:
    """``run.result()``, stopped after ``time_limit`` seconds (then "unknown", "time limit").
    The work runs in a thread so that this one stays free to take a KeyboardInterrupt, which
    stops the run too."""
    box: list = []

    def work() -> None:
        try:
            box.append(run.result())
        except BaseException as e:
            box.append(e)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    try:
        thread.join(max(time_limit, 0.0))
        timed_out = thread.is_alive()
    finally:
        run.stop()  # nothing to stop if the work has ended
        thread.join()
    if isinstance(box[0], BaseException):
        raise box[0]
    if timed_out and box[0].status == "unknown":
        return Result("unknown", seconds=box[0].seconds, note="time limit")
    return box[0]


class ForkedRun(Run):
    """``fn(*args)`` in a forked child, stopped by killing the child. The fork happens here,
    in the constructor: make every ForkedRun before starting threads (a fork copies only the
    calling thread, and locks other threads hold would stay held in the child)."""

    def __init__(self, fn: Callable[..., Any], args: tuple) -> None:
        super().__init__(self._wait)
        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)
        self._proc = ctx.Process(target=in_child, args=(send, fn, args), daemon=True)
        self._proc.start()
        send.close()
        self._stoppers.append(self._kill)  # stoppable from birth until _wait reaps it
        self.searching = True  # its set-up is in the child

    def ready(self, timeout: float) -> bool:
        """The child has answered or died within ``timeout`` seconds (``result()`` will not
        wait)."""
        return self._recv.poll(max(timeout, 0.0))

    def _kill(self) -> None:
        if self._proc.is_alive():
            os.kill(self._proc.pid, signal.SIGKILL)

    def close(self) -> None:
        super().close()
        with suppress(BackendError):
            self._wait(self)

    def _wait(self, _: Run) -> Any:  # a Result when fn is a solve
        try:
            kind, payload = self._recv.recv()
        except EOFError:
            if self.stopped:
                return self.stopped_result(0.0)
            self._proc.join(1)
            raise BackendError(f"the process died (exit {self._proc.exitcode})") from None
        finally:
            self._recv.close()
            with self._lock:  # reaped below: no kill may reach a recycled pid
                self._stoppers.clear()
            self._proc.join()
        if kind == "error":
            raise BackendError(payload)
        return payload
