"""How far a counter in a forked child of the counting race has come, seen by the parent: a
few ints in memory that both share (an anonymous shared mapping, made before the fork).

The race makes one (``shared``) and marks it for the children it forks from this thread
(``telling``); a counter asks for ``control()``: that one in such a child, else its own. The
Domino Fit sweep writes [1] the lines swept so far and [2] the board's lines, and sets [3] when
it sweeps without its layers (``without_layers``); [4] says whether the lines are rows (0) or
columns (1, ``say_lines``); [0] is its stop flag, which the race leaves alone (it stops a child
by killing it)."""

from __future__ import annotations

import mmap
from array import array
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

Control = memoryview | array

_told: ContextVar[memoryview | None] = ContextVar("told", default=None)


def shared() -> memoryview:
    """Five ints in memory shared with the processes forked after this."""
    return memoryview(mmap.mmap(-1, 5 * array("i").itemsize)).cast("i")


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
    return told if told is not None else array("i", [0] * 5)


def without_layers(control: Control) -> bool:
    """Has the counter said that it sweeps without its layers (the slow way)?"""
    return len(control) > 3 and control[3] == 1


def say_lines(control: Control, lines: str) -> None:
    """Tell the race that the counter sweeps ``lines`` ("rows" or "columns")."""
    if len(control) > 4:
        control[4] = int(lines == "columns")


def swept(control: Control) -> str:
    """``14 of 20 rows`` (or columns) once a counter has said so, else empty."""
    if control[2] <= 0:
        return ""
    lines = "columns" if len(control) > 4 and control[4] else "rows"
    return f"{control[1]} of {control[2]} {lines}"
