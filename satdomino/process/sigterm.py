"""SIGTERM and Ctrl-C that stop a python-sat search in the main thread.

Python runs a signal's handler between bytecodes, and a python-sat solver searching in the
main thread holds it in C. ``bridge`` (the CLI calls it after setting its SIGTERM handler) makes
both signals end such a search at once:

- a solver that keeps the GIL (CaDiCaL) sets a SIGINT handler of its own while it searches,
  which stops it on Ctrl-C (``stopped_natively``); a C handler (``_sigterm.c``) ends the process
  on SIGTERM while one is in place (without a C compiler the install goes on without it, and
  SIGTERM waits for the search to end);
- a solver that searches without the GIL and honours ``interrupt`` (MiniSat, Glucose) sets no
  handler: Python's handlers write the signal to a wake-up socket, and a thread reading it
  interrupts the searches that ``interrupted_by_signals`` registers.

Python's handler then runs as the search returns.
"""

from __future__ import annotations

import os
import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import NoReturn

from ..clock import start

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
        start(threading.Thread(target=_watch, args=(read,), daemon=True))
    before = signal.set_wakeup_fd(_watching[0].fileno(), warn_on_full_buffer=False)
    _bridged.append(True)

    def unbridge() -> None:
        signal.set_wakeup_fd(before)
        _bridged.pop()

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


_bridged: list[bool] = []  # the CLI has bridged: a native stop ends the process


def stopped_natively() -> NoReturn:
    """After a search stopped by its SIGINT handler (Ctrl-C), which leaves by a jump out of
    the solver: a lock it held (malloc's, say) may stay held and its heap half-changed. In the
    CLI the process ends at once with its one line (no output is half-written while a solver
    searches); elsewhere KeyboardInterrupt, with the signals the jump left blocked unblocked."""
    if _bridged:
        os.write(2, b"satdomino: interrupted\n")
        os._exit(130)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    raise KeyboardInterrupt from None
