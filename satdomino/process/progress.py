"""How far a counter in a forked child of the counting race has come, seen by the parent: a
few ints in memory that both share (an anonymous shared mapping, made before the fork).

The race makes one (``shared``) and marks it for the children it forks from this thread
(``telling``); a counter asks for ``control()``: that one in such a child, else its own. The
Domino Fit sweep writes [1] the rows swept so far and [2] the board's rows, and sets [3] when
it sweeps without its layers (``without_layers``); [0] is its stop flag, which the race
leaves alone (it stops a child by killing it)."""

from __future__ import annotations

import mmap
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Control = memoryview | array

_told: ContextVar[memoryview | None] = ContextVar("told", default=None)


def shared() -> memoryview:
    """Four ints in memory shared with the processes forked after this."""
    return memoryview(mmap.mmap(-1, 4 * array("i").itemsize)).cast("i")


@contextmanager
def telling(control: memoryview) -> Iterator[None]:
    """Children forked from this thread in the block write to ``control``."""
    token = _told.set(control)
    try:
        yield
    finally:
        _told.reset(token)


def control() -> Control:
    """The control a counter reads and writes: the race's, in a child it forked."""
    told = _told.get()
    return told if told is not None else array("i", [0, 0, 0, 0])


def without_layers(control: Control) -> bool:
    """Has the counter said that it sweeps without its layers (the slow way)?"""
    return len(control) > 3 and control[3] == 1


def rows(control: Control) -> str:
    """``14 of 20 rows`` once a counter has said so, else empty."""
    return f"{control[1]} of {control[2]} rows" if control[2] > 0 else ""
