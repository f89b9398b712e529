"""A solve that another thread can stop: what a portfolio races, and how in-process solvers
honour a time limit without a child process.

``Backend.start`` returns a Run. ``result()`` does the work, in any thread, and returns its
Result; ``stop()``, from any thread at any time, makes it end soon with status "unknown".
The work says how it can be stopped (interrupt an in-process solver, kill a process) with
``stoppable``.
"""

from __future__ import annotations

import os
import signal
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection, wait
from typing import Any

from ..clock import Deadline, interruptible, start
from ..errors import BackendError
from ..result import Result
from .child import child_main, close_quietly, flush_std_streams


class Run:
    def __init__(self, work: Callable[[Run], Any]) -> None:
        self._work = work
        self._lock = threading.Lock()
        self._stoppers: list[Callable[[], None]] = []
        self.stopped = False
        # pausing (a portfolio member that yields its core): see ``pausable``
        self._pausers: list[tuple[Callable[[], None], Callable[[], None]]] = []
        self.paused = False
        self._running = threading.Event()
        self._running.set()
        # set-up (loading clauses, writing DIMACS) holds Python's GIL; searching does not.
        # ``searching`` turns true, and ``on_searching`` is called, when the work first
        # enters ``stoppable``: a portfolio starts its next member then.
        self.searching = False
        self.on_searching: Callable[[], None] | None = None

    def result(self) -> Any:
        """What the work returns (a Result for a solve), stopped or not."""
        return self._work(self)

    @contextmanager
    def stoppable(self, stopper: Callable[[], None], *, searching: bool = True) -> Iterator[None]:
        """While inside, ``stop()`` calls ``stopper`` (at once if the run is already stopped).
        Stoppers run under the lock, so none runs after its block is left (say, on a solver
        that has been deleted). ``searching``: the run searches from here on (False: it still
        sets up, as a portfolio's late members wait for)."""
        with self._lock:
            if self.stopped:
                stopper()
            else:
                self._stoppers.append(stopper)
        if searching and not self.searching:
            self.searching = True
            if self.on_searching is not None:
                self.on_searching()
        with self._until_left(self._stoppers, stopper):
            yield

    @contextmanager
    def setting_up(self) -> Iterator[None]:
        """Python set-up before the search (a solver's input built or lowered, in loops that
        look at no flag): a stop of the run raises TimeUp into it (``clock.interruptible``).
        A TimeUp with ``self.stopped`` false is an enclosing deadline's, to pass on up."""
        with interruptible() as interrupt, self.stoppable(interrupt, searching=False):
            yield

    @contextmanager
    def _until_left(self, hooks: list, hook: Any) -> Iterator[None]:
        """``hook``, registered in ``hooks``, is taken out when the block is left (under the
        lock, so that none is called after)."""
        try:
            yield
        finally:
            with self._lock:
                if hook in hooks:
                    hooks.remove(hook)

    def stop(self) -> None:
        with self._lock:
            self.stopped = True
            for stopper in self._stoppers:
                stopper()
            self._stoppers.clear()
            self._running.set()  # a paused work wakes to find itself stopped

    @contextmanager
    def pausable(self, pause: Callable[[], None],
                 resume: Callable[[], None] = lambda: None) -> Iterator[None]:
        """While inside, ``pause()`` calls ``pause`` and ``resume()`` calls ``resume``. A
        process is paused by SIGSTOP and resumed by SIGCONT; a solver in this process is
        interrupted, and its work then waits in ``wait_while_paused`` and solves on."""
        pair = (pause, resume)
        with self._lock:
            self._pausers.append(pair)
        with self._until_left(self._pausers, pair):
            yield

    def pause(self) -> bool:
        """Ask the work to pause, keeping what it has learnt; False if it cannot now (it is
        loading, has ended, or was stopped): then it runs on."""
        with self._lock:
            if self.stopped or self.paused or not self._pausers:
                return False
            self.paused = True
            self._running.clear()
            for pause, _ in self._pausers:
                pause()
            return True

    def resume(self) -> None:
        with self._lock:
            if not self.paused:
                return
            self.paused = False
            for _, resume in self._pausers:
                resume()
            self._running.set()

    def wait_while_paused(self) -> bool:
        """For a work whose solver was interrupted: wait while the run is paused; True if it
        should solve on (resumed), False if it was stopped."""
        self._running.wait()
        with self._lock:
            return not self.stopped

    def close(self) -> None:
        """Give up a run whose ``result()`` nobody will call: stop it and free what
        ``Backend.start`` took (a forked child is killed, and reaped in the background)."""
        self.stop()

    def stopped_result(self, seconds: float) -> Result:
        return Result("unknown", seconds=seconds, note="stopped")


def finish_within(run: Run, deadline: Deadline) -> Result:
    """``run.result()``, stopped at the deadline (then "unknown", "time limit"). The work runs
    in a thread so that this one stays free to take a KeyboardInterrupt, which stops the run
    too; with no deadline it runs here."""
    left = deadline.left()
    if left is None:
        return run.result()
    box: list = []
    done = threading.Event()

    def work() -> None:
        try:
            box.append(run.result())
        except BaseException as e:
            box.append(e)
        done.set()

    thread = threading.Thread(target=work, daemon=True)
    t0 = time.perf_counter()
    start(thread)
    try:
        timed_out = not done.wait(left)
    finally:
        run.stop()  # nothing to stop if the work has ended
        # the work's end before the thread's: a join cut short by a KeyboardInterrupt marks
        # the thread ended while it runs on (Python 3.11's bpo-45274 fix)
        done.wait()
        thread.join()
    if isinstance(box[0], BaseException):
        raise box[0]
    if timed_out and box[0].status == "unknown":  # its own clock may not count the wait
        return Result("unknown", seconds=time.perf_counter() - t0, note="time limit")
    return box[0]


class ForkedRun(Run):
    """``fn(*args)`` in a forked child, stopped by killing the child. The fork happens here,
    in the constructor, best before any thread starts: a fork copies only the calling thread,
    and locks other threads hold would stay held in the child. (A portfolio's late member
    forks while the others search: its ``fn`` takes no lock their threads take, and the child
    closes every file it inherited, such as the pipe through which a ``Popen`` in another
    thread learns that its program has started.) The child is killed when the thread that
    made it ends (Linux's parent-death signal follows the thread).

    A killed child is reaped by a thread of its own: tearing down its copy of this process's
    memory takes milliseconds, and nothing needs to wait for that (it runs no more code)."""

    def __init__(self, fn: Callable[..., Any], args: tuple) -> None:
        super().__init__(ForkedRun._wait)  # type: ignore[arg-type]  # unbound: no cycle
        self._open_pipes()
        self._pid, parent, write = 0, os.getpid(), -1
        try:
            read, write = os.pipe()
            self._recv = Connection(read, writable=False)
            flush_std_streams()  # else the child could write what this process has buffered
            self._pid = os.fork()  # not multiprocessing: a third of the parent's cost
            if self._pid == 0:
                child_main(write, fn, args)
            os.close(write)
            write = -1
        except BaseException:
            if os.getpid() != parent:  # a Ctrl-C in the child before _child took over
                os._exit(1)
            if self._pid > 0:
                self._signal(signal.SIGKILL)
                _reap(self._pid)
            self._close_pipes()
            close_quietly(write)
            raise
        self._watch()
        self.searching = True  # its set-up is in the child
        # a run dropped unfinished (an exception that skipped its cleanup, a time limit's
        # TimeUp among them) still kills its child and frees its pipes when it is freed
        self._abandoned = weakref.finalize(self, _abandon, self._pid, (self._wake, self._woken))

    _recv: Connection | None

    def _open_pipes(self) -> None:
        # stop() writes to the second pipe, so that _wait returns at once
        self._wake, self._woken = os.pipe()
        self._recv = None
        self._waited = False

    def _close_pipes(self) -> None:
        """Once: a number closed twice may by then be another file's."""
        if self._recv is not None:
            self._recv.close()
        close_quietly(self._wake, self._woken)
        self._wake = self._woken = -1

    def _watch(self) -> None:
        """From now on the child can be stopped, and paused (through a weak reference: the
        run must not hold itself, so that a run dropped unfinished is freed at once)."""
        me = weakref.ref(self)

        def call(method: str, *args: int) -> Callable[[], None]:
            return lambda: getattr(me(), method, lambda *_: None)(*args)

        self._stoppers.append(call("_kill"))
        self._pausers.append((call("_signal", signal.SIGSTOP), call("_signal", signal.SIGCONT)))

    @property
    def connection(self) -> Connection:
        """What ``multiprocessing.connection.wait`` waits on: readable once the child has
        answered or died."""
        assert self._recv is not None
        return self._recv

    def ready(self, timeout: float | None) -> bool:
        """The child has answered or died within ``timeout`` seconds (None: waits for it;
        ``result()`` will not wait)."""
        return self.connection.poll(timeout)

    def _signal(self, sig: int) -> None:
        with suppress(ProcessLookupError):
            os.kill(self._pid, sig)

    def give_way(self) -> None:
        """The child's threads lowered to the least priority (nice 19); the threads it starts
        after this inherit it from the thread that starts them."""
        try:
            tasks = [int(t) for t in os.listdir(f"/proc/{self._pid}/task")]
        except (OSError, ValueError):  # gone, or no /proc: its first thread
            tasks = [self._pid]
        for tid in tasks:
            with suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, tid, 19)

    def _kill(self) -> None:
        self._signal(signal.SIGKILL)
        with suppress(OSError):
            os.write(self._woken, b"x")

    def close(self) -> None:
        """Stop the run and free its pipes (the child is reaped in the background)."""
        super().close()
        with suppress(BackendError):
            self._wait(self)

    def _wait(self, _: Run | None = None) -> Any:  # a Result when fn is a solve
        if self._waited:  # close() after result()
            return self.stopped_result(0.0)
        self._waited = True
        answer, ended = None, False  # ended: no exception (a Ctrl-C, say) cut the wait short
        recv = self.connection
        try:
            with suppress(EOFError, OSError):  # died, or killed in the middle of its answer
                if self._wake not in wait([recv, self._wake]) or recv.poll():
                    answer = recv.recv()
            ended = True
        finally:
            with self._lock:  # from here on no signal: the pid may be reaped and reused
                self._stoppers.clear()
                self._pausers.clear()
                stopped, paused = self.stopped, self.paused
            if answer is None or paused:  # not a word from it, or stopped after its answer
                self._signal(signal.SIGKILL)  # (SIGSTOP): make sure it ends
            self._close_pipes()
            why = self._end(died=ended and answer is None and not stopped)
            if getattr(self, "_abandoned", None) is not None:
                self._abandoned.detach()  # reaped, or being reaped, here
        if answer is None:
            if stopped:
                return self.stopped_result(0.0)
            raise BackendError(f"the process died ({why})")
        kind, payload = answer
        if kind == "error":
            raise BackendError(payload)
        return payload

    def _end(self, died: bool) -> str:
        """Reap the child: now if it died on its own (to say how), else in the background."""
        if died:
            code = os.waitstatus_to_exitcode(_reap(self._pid))
            return f"killed by signal {-code}" if code < 0 else f"exit {code}"
        start(threading.Thread(target=_reap, args=(self._pid,), daemon=True))
        return ""


class ServedRun(ForkedRun):
    """``fn(*make_args())`` in a worker of ``server`` (a ``forkserver.ForkServer``), not in a
    fork of this process. The work's arguments are made, pickled and sent in the thread that
    runs it, not where the run is made; it counts as searching once the worker is forked (a
    portfolio starts its next member then). ``make_args`` is let go once called, or once the
    run is closed unstarted: the run refers to itself (its work is its own method), so what
    it holds (a whole Model) would otherwise wait for the cyclic collector."""

    def __init__(self, server: Any, fn: Callable[..., Any],
                 make_args: Callable[[], tuple]) -> None:
        Run.__init__(self, self._start_then_wait)
        self._server, self._fn = server, fn
        self._make_args: Callable[[], tuple] | None = make_args
        self._open_pipes()
        self._pidfd = -1

    def _start_then_wait(self, run: Run) -> Any:
        try:
            args = None if self.stopped or self._make_args is None else self._make_args()
            self._make_args = None  # let go: see the class
            with self._lock:  # a stop from here on kills the worker
                if self.stopped:  # before it was forked: fork none
                    args = None
                else:
                    read, write = os.pipe()
                    self._recv = Connection(read, writable=False)
                    try:
                        self._pid, self._pidfd = self._server.fork(write, self._fn, args)
                    finally:
                        os.close(write)
                    self._watch()
        except BaseException:  # a Ctrl-C, say, even just after the fork: the worker ends
            self._signal(signal.SIGKILL)
            self._finish_unwaited()
            self._end(died=False)
            raise
        if args is None:
            self._finish_unwaited()
            return self.stopped_result(0.0)
        self.searching = True
        if self.on_searching is not None:
            self.on_searching()
        return self._wait(run)

    def _signal(self, sig: int) -> None:
        if self._pidfd >= 0:
            with suppress(ProcessLookupError):
                signal.pidfd_send_signal(self._pidfd, sig)

    def close(self) -> None:
        if self._pidfd < 0 and not self._waited:  # never started
            self.stop()
            self._finish_unwaited()
            return
        super().close()

    def _finish_unwaited(self) -> None:
        """No worker to wait for (none was forked, or it is killed): free the pipes."""
        self._waited = True
        self._make_args = None  # closed unstarted: see the class
        self._close_pipes()

    def _end(self, died: bool) -> str:
        """The server reaps its workers; a pidfd never signals another process."""
        close_quietly(self._pidfd)
        self._pidfd = -1
        return "a worker of the fork server, killed or crashed"


def _abandon(pid: int, fds: tuple[int, ...]) -> None:
    """A forked run nobody finished: kill its child, reap it in the background, close its
    wake-up pipe."""
    with suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    start(threading.Thread(target=_reap, args=(pid,), daemon=True))
    close_quietly(*fds)


def _reap(pid: int) -> int:
    """Wait for ``pid`` to end; its status (0 if someone else has reaped it)."""
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:  # SIGCHLD ignored, say
        return 0


def run_in_child(name: str, fn: Callable[..., Any], args: tuple,
                 deadline: Deadline) -> tuple[bool, Any]:
    """(True, fn(*args)) computed in a forked child, or (False, None) when the deadline
    passed first (the child is killed). A failure in the child raises BackendError."""
    run = ForkedRun(fn, args)
    try:
        ready = run.ready(deadline.left())
    except BaseException:  # a Ctrl-C, say: the child must not run on
        run.close()
        raise
    if not ready:
        run.close()
        return False, None
    try:
        return True, run.result()
    except BackendError as e:
        raise BackendError(f"{name} failed: {e}") from None

