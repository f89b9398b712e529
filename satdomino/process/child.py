"""The forked child's side of the process layer (send back what the work returned, close
what it inherited), and what /proc says of processes (their peak memory, their descendants,
a process group)."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable
from contextlib import suppress
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, NoReturn

_reply: Connection | None = None  # in a forked child: its connection to the parent


def answer_now(payload: Any) -> NoReturn:
    """From inside the work of a forked child (a solver's callback, say, when the solver
    cannot be stopped): send ``payload`` as the work's result and end the child now."""
    if _reply is None:
        raise RuntimeError("answer_now is for the work of a forked child")
    _reply.send(("ok", payload))
    _reply.close()
    os._exit(0)


def die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies, so no solver outlives the run that
    started it. Elsewhere a no-op (time limits still kill what they started)."""
    with suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(70)


def peak_rss_mb(pid: int) -> float | None:
    """The peak resident memory (MB) of a live process's current image (Linux's VmHWM: a forked
    process starts from what it inherited; exec starts again from nothing), or None."""
    with suppress(OSError, ValueError, IndexError), open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


def descendants(pid: int) -> list[int]:
    """The live processes below ``pid`` (Linux /proc; none where it cannot say)."""
    with suppress(OSError, ValueError), open(f"/proc/{pid}/task/{pid}/children") as f:
        children = [int(x) for x in f.read().split()]
        return [p for c in children for p in (c, *descendants(c))]
    return []


def group_peaks(pgid: int) -> dict[int, tuple[str, float]]:
    """Each live process of the group: what it runs (executable and command line: a fork has
    its parent's) and its image's peak memory (MB)."""
    out: dict[int, tuple[str, float]] = {}
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            # pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses
            if int(proc.joinpath("stat").read_text().rpartition(")")[2].split()[2]) != pgid:
                continue
            exe = os.readlink(proc / "exe") + "\0" + proc.joinpath("cmdline").read_text()
        except (OSError, ValueError, IndexError):
            continue
        peak = peak_rss_mb(int(proc.name))
        if peak is not None:
            out[int(proc.name)] = (exe, peak)
    return out


def child_main(write: int, fn: Callable[..., Any], args: tuple) -> NoReturn:
    """The forked child: close every file but the standard ones and ``write``, send back
    ("ok", fn(*args)) or ("error", what went wrong) through ``write``, end."""
    global _reply
    code = 1
    try:
        close_files_but(write)
        die_with_parent()  # killing the parent kills the child, and any outside solver with it
        _reply = conn = Connection(write, readable=False)
        try:
            conn.send(("ok", fn(*args)))
        except BaseException as e:  # report every failure; never leave the parent waiting
            conn.send(("error", f"{type(e).__name__}: {e}"))
        finally:
            conn.close()
        code = 0
    finally:
        os._exit(code)


def close_files_but(keep: int) -> None:
    """Close every open file of this process but 0, 1, 2 and ``keep``: those /proc lists, or
    else every number up to the limit on open files. A signal wakeup file inherited from the
    parent (its signal bridge, while a search runs) is let go first: Python would write each
    signal's byte to the closed number, or to whatever file reuses it."""
    with suppress(ValueError):  # forked from a thread other than the main one: none is set
        signal.set_wakeup_fd(-1)
    try:
        fds = [int(x) for x in os.listdir("/proc/self/fd")]
    except OSError:
        limit = os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else -1
        os.closerange(3, keep)
        os.closerange(max(keep + 1, 3), min(limit if limit > 0 else 4096, 2**31 - 1))
        return
    close_quietly(*(fd for fd in fds if fd > 2 and fd != keep))  # listdir's own one: EBADF


def close_quietly(*fds: int) -> None:
    """Close each file number, one already closed (or -1) included."""
    for fd in fds:
        with suppress(OSError):
            os.close(fd)


def flush_std_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        with suppress(AttributeError, ValueError, OSError):
            stream.flush()
