"""One clock for every time limit: a ``Deadline`` is a point on ``time.monotonic()`` (or
never), made once where a limit is given and handed down through every layer.

How work is stopped at its deadline depends only on what runs it: a solver in this process is
interrupted (``process.run``), a child process is killed, and Python work (parsing, building a
model, lowering it) gets ``TimeUp`` raised into its thread by ``Deadline.interrupting``, from any
thread, the main one or a worker's.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import OutOfTimeError, UsageError

T = TypeVar("T")


class TimeUp(BaseException):
    """The deadline of an ``interrupting`` block passed (raised into the block's thread). A
    BaseException, as KeyboardInterrupt is: no ``except Exception`` on its way swallows it."""


@dataclass(frozen=True)
class Deadline:
    """A time limit as a point on the monotonic clock; ``at`` None: no limit."""

    at: float | None = None

    def __post_init__(self) -> None:
        if self.at is not None and (isinstance(self.at, bool)
                                    or not isinstance(self.at, int | float) or self.at != self.at):
            raise UsageError(f"a Deadline is a point on time.monotonic() (a number) or None, "
                             f"not {self.at!r}"[:120])

    @staticmethod
    def after(seconds: float | None) -> Deadline:
        """The deadline ``seconds`` from now (None, or more than FOREVER seconds: never)."""
        if seconds is None or not seconds <= FOREVER:  # nan and inf too
            return Deadline()
        return Deadline(time.monotonic() + max(seconds, 0.0))

    def left(self) -> float | None:
        """Seconds until the deadline, 0 to FOREVER (None: no limit)."""
        return None if self.at is None else min(max(0.0, self.at - time.monotonic()), FOREVER)

    def passed(self) -> bool:
        """Has the deadline come?"""
        return self.at is not None and time.monotonic() >= self.at

    def check(self, what: str = "time limit") -> None:
        """OutOfTimeError(``what``) once the deadline has passed."""
        if self.passed():
            raise OutOfTimeError(what)

    def sooner(self, seconds: float | None) -> Deadline:
        """This deadline, or ``seconds`` from now if that comes first."""
        # min keeps the first of equals: this one
        return min(self, Deadline.after(seconds), key=lambda d: math.inf if d.at is None else d.at)

    @contextmanager
    def interrupting(self) -> Iterator[None]:
        """Raise TimeUp in this thread, inside the block, once the deadline passes: building
        and lowering a model are Python loops that look at no clock. A C call that runs long
        finishes first; one swallowed on the way (in a ``__del__``) is raised again at once,
        and as the block ends. An enclosing block of this thread whose
        deadline comes no later already covers this one."""
        stack = _armed_stack()
        if self.at is None or (stack and stack[-1][0] <= self.at):
            yield
            return
        alarm = _Alarm(threading.get_ident())
        timer = threading.Timer(self.left() or 0.0, alarm.ring)
        timer.daemon = True
        with _armed_block(self.at, alarm, timer):
            yield


@contextmanager
def interruptible() -> Iterator[Callable[[], None]]:
    """Inside the block, the function it gives raises TimeUp into this thread, from any
    thread, as a deadline passing would: for Python work that a stop, not a clock, must cut
    short (a portfolio lowering a late member's CNF when the race is stopped)."""
    _armed_stack()
    alarm = _Alarm(threading.get_ident())
    once = threading.Lock()

    def interrupt() -> None:  # once: a second stop must not land in the first one's cleanup
        if once.acquire(blocking=False):
            alarm.ring()

    with _armed_block(math.inf, alarm, None):
        yield interrupt


def _armed_stack() -> list[tuple[float, _Alarm]]:
    """This thread's armed blocks, innermost last; TimeUp at once if an enclosing one's alarm
    has rung already."""
    stack: list[tuple[float, _Alarm]] = _armed.__dict__.setdefault("stack", [])
    if stack and stack[-1][1].rang:
        raise TimeUp
    return stack


@contextmanager
def _armed_block(at: float, alarm: _Alarm, timer: threading.Timer | None) -> Iterator[None]:
    """The block of ``alarm`` (rung by ``timer``, if any, else by whoever holds it)."""
    _quiet_lost_alarms()
    stack: list[tuple[float, _Alarm]] = _armed.__dict__.setdefault("stack", [])
    entry = (at, alarm)
    lost = False
    try:  # from here on, a TimeUp delivered anywhere leaves by the cleanup below
        stack.append(entry)
        if timer is not None:
            start(timer)
        yield
        lost = True  # the block ended: if the alarm rang, its TimeUp was swallowed
    finally:
        try:
            while True:  # a TimeUp delivered here, as the block ends, is this alarm's own
                try:
                    alarm.disarm()
                    break
                except TimeUp:
                    pass
        finally:  # whatever else comes (a Ctrl-C), the block is left
            if timer is not None:
                timer.cancel()
            if entry in stack:
                stack.remove(entry)
    if lost and alarm.rang:  # by a __del__ or a cleanup it landed in: say it again
        raise TimeUp


def within(seconds: float, work: Callable[[], T]) -> T | None:
    """What ``work()`` returns when it finishes within ``seconds`` (Python work: the deadline
    raises into it), else None. An enclosing deadline that has passed raises on."""
    try:
        with Deadline.after(seconds).interrupting():
            return work()
    except TimeUp:
        if armed_left() == 0:  # the caller's deadline, not this one
            raise
        return None


def armed_left() -> float | None:
    """Seconds until the nearest deadline armed by ``interrupting`` in this thread (None:
    none): for work that cannot see the interrupt, such as a child process to be killed."""
    lefts = [max(0.0, at - time.monotonic()) for at, _ in getattr(_armed, "stack", [])
             if at != math.inf]  # ``interruptible`` blocks have no clock
    return min(lefts) if lefts else None


NEVER = Deadline()
RING_AGAIN = 0.005  # seconds after a swallowed TimeUp before its alarm rings again
FOREVER = 1e8  # seconds: a limit beyond it is none (the waits of threads and pipes overflow)
_armed = threading.local()  # each thread's enclosing ``interrupting`` deadlines


def _forget_after_fork() -> None:
    """A forked child has no timer threads: it starts with no enclosing deadlines."""
    global _armed
    _armed = threading.local()


os.register_at_fork(after_in_child=_forget_after_fork)


_hook_lock = threading.Lock()


def _quiet_lost_alarms() -> None:
    """A TimeUp that lands in a ``__del__`` or a gc callback is swallowed there: it is raised
    again in its thread at once (building a Z3 formula spends much of its time in ``__del__``s,
    and ran on long past its limit), and Python's "Exception ignored in ..." report of it is
    noise. Wraps ``sys.unraisablehook`` once, passing on everything else."""
    with _hook_lock:
        before = sys.unraisablehook
        if getattr(before, "quiets_timeup", False):
            return

        def hook(unraisable: Any) -> None:
            if not isinstance(unraisable.exc_value, TimeUp):
                before(unraisable)
                return
            stack = getattr(_armed, "stack", [])
            if stack:  # this thread's alarm: ring it again, if its block still runs, from
                # another thread a moment later (rung here, it would land in this hook)
                again = threading.Timer(RING_AGAIN, stack[-1][1].ring)
                again.daemon = True
                with suppress(TimeUp):  # the shield ends by raising this same rung alarm,
                    start(again)  # which ``again`` rings in a moment, outside this hook

        hook.quiets_timeup = True  # type: ignore[attr-defined]
        sys.unraisablehook = hook


class _Alarm:
    """Raises TimeUp in one thread when rung, unless disarmed first (under one lock, so a
    ring that comes as the block ends leaves no exception pending after it)."""

    def __init__(self, thread_id: int) -> None:
        self.thread_id = thread_id
        self.lock = threading.Lock()
        self.armed, self.rang = True, False

    def ring(self) -> None:
        with self.lock, _shield_lock:
            if self.armed:
                self.rang = True
                if not _shielded.get(self.thread_id):  # else raised as the shield ends
                    _async_raise(self.thread_id, TimeUp)

    def disarm(self) -> None:
        with self.lock:
            self.armed = False
            if self.rang:  # delivered already (we are unwinding it), or still pending: cleared
                _take_back()


_shield_lock = threading.Lock()
_shielded: dict[int, int] = {}  # thread -> how many ``shielded`` blocks it is in


@contextmanager
def shielded() -> Iterator[None]:
    """No TimeUp lands inside the block: it is raised as the block ends, if this thread's
    deadline came meanwhile. For what must not be cut in the middle: a TimeUp that lands in
    ``Thread.start`` can leave the new thread dead and the starter waiting for it forever."""
    me = threading.get_ident()
    with _shield_lock:
        _shielded[me] = _shielded.get(me, 0) + 1
        if any(a.rang for _, a in getattr(_armed, "stack", [])):
            _take_back()  # one rung a moment ago, not yet raised: raised at the end
    try:
        yield
    finally:
        with _shield_lock:
            _shielded[me] -= 1
            if not _shielded[me]:
                del _shielded[me]
    if me not in _shielded and any(a.rang and a.armed for _, a in getattr(_armed, "stack", [])):
        raise TimeUp


def start(thread: threading.Thread) -> None:
    """``thread.start()``, shielded from this thread's deadlines."""
    with shielded():
        thread.start()


def _async_raise(thread_id: int, exc: type[BaseException]) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(exc))


class _TakenBack(BaseException):
    """Stands in for a TimeUp taken back before it was raised."""


def _take_back() -> None:
    """Take back a TimeUp rung at this thread and not yet raised. Clearing it with NULL
    leaves CPython's eval breaker set for good, and a process under a tracer or profiler
    (coverage, pdb, cProfile) then loops forever where a generator resumes; so a stand-in
    replaces it and is raised and caught here, which clears the breaker."""
    try:
        _async_raise(threading.get_ident(), _TakenBack)
        for _ in range(1_000_000):  # raised at the first check, a backward jump at the latest
            pass
    except _TakenBack:
        return
    raise AssertionError("a pending exception was not raised")
