"""SIGTERM that stops a python-sat search in the main thread (``_sigterm.c``).

Python runs a signal's handler between bytecodes, and a python-sat solver searching in the
main thread holds it in C; only its own SIGINT handler stops it. ``bridge`` (the CLI calls it
after setting its SIGTERM handler) passes SIGTERM on to that handler too, so ``timeout`` and
``kill`` end such a search at once. Without a C compiler the install goes on without it, and
SIGTERM waits for the search to end.
"""

from __future__ import annotations

import signal

try:
    from . import _sigterm
except ImportError:  # built without a C compiler
    _sigterm = None  # type: ignore[assignment]


def bridge() -> bool:
    """Pass SIGTERM on to a python-sat search's SIGINT handler, in front of the handler
    Python has now (which still runs); False where the bridge is not built."""
    if _sigterm is None:
        return False
    _sigterm.bridge()
    return True


def unblock() -> None:
    """After a search stopped by its SIGINT handler: that handler leaves by a jump, which
    leaves SIGINT (and a SIGTERM that raised it) blocked; a later one must get through."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
