"""SIGTERM and Ctrl-C that stop a python-sat search in the main thread.

Python runs a signal's handler between bytecodes, and a python-sat solver searching in the
main thread holds it in C. ``bridge`` (the CLI calls it after setting its SIGTERM handler) makes
both signals end such a search at once:

- a solver that keeps the GIL (CaDiCaL) stops only by its own SIGINT handler: a C handler
  (``_sigterm.c``) passes SIGTERM on to it too (without a C compiler the install goes on
  without it, and SIGTERM waits for the search to end);
- a solver that searches without the GIL and honours ``interrupt`` (MiniSat, Glucose) sets no
  handler: Python's handlers write the signal to a wake-up socket, and a thread reading it
  interrupts the searches that ``interrupted_by_signals`` registers.

Python's handler then runs as the search returns.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

try:
    from . import _sigterm
except ImportError:  # built without a C compiler
    _sigterm = None  # type: ignore[assignment]


_searches: list[Callable[[], None]] = []  # interrupts of the searches under way in main
_watching: list[socket.socket] = []  # the wake-up socket's writing end, once made


def bridge() -> Callable[[], None]:
    """Signals stop a python-sat search in the main thread (see the module docstring), from
    now until the returned function is called (Python's SIGTERM handler set after this one
    takes the C part away)."""
    if _sigterm is not None:
        _sigterm.bridge()
    if not _watching:
        read, write = socket.socketpair()
        write.setblocking(False)
        _watching.append(write)
        threading.Thread(target=_watch, args=(read,), daemon=True).start()
    before = signal.set_wakeup_fd(_watching[0].fileno(), warn_on_full_buffer=False)

    def unbridge() -> None:
        signal.set_wakeup_fd(before)

    return unbridge


def _watch(read: socket.socket) -> None:
    while read.recv(64):
        for interrupt in list(_searches):
            interrupt()


@contextmanager
def interrupted_by_signals(interrupt: Callable[[], None]) -> Iterator[None]:
    """A signal that comes during the block calls ``interrupt`` (once ``bridge`` is on)."""
    _searches.append(interrupt)
    try:
        yield
    finally:
        _searches.remove(interrupt)


def unblock() -> None:
    """After a search stopped by its SIGINT handler: that handler leaves by a jump, which
    leaves SIGINT (and a SIGTERM that raised it) blocked; a later one must get through."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
