"""Run work in a forked child so a time limit can really stop it (kill the child)."""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import time
from collections.abc import Callable
from typing import Any

from ..errors import BackendError
from .base import Result


def _child(conn, fn: Callable[..., Any], args: tuple) -> None:
    try:
        conn.send(("ok", fn(*args)))
    except BaseException as e:  # report every failure; never leave the parent waiting
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def run_in_child(name: str, fn: Callable[..., Any], args: tuple,
                 time_limit: float) -> tuple[bool, Any]:
    """(True, fn(*args)) computed in a forked child, or (False, None) when ``time_limit``
    passed first (the child is killed). A failure in the child raises BackendError."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(send, fn, args), daemon=True)
    proc.start()
    send.close()
    try:
        if not recv.poll(max(time_limit, 0.0)):
            return False, None
        kind, payload = recv.recv()
    except EOFError:
        proc.join(1)
        raise BackendError(f"{name}: the process died (exit {proc.exitcode})") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    if kind == "error":
        raise BackendError(f"{name} failed: {payload}")
    return True, payload


def run_limited(name: str, fn: Callable[..., tuple[str, list[int]]], args: tuple,
                time_limit: float) -> Result:
    """``fn(*args) -> (status, true_vars)`` in a forked child, killed after ``time_limit``."""
    t0 = time.perf_counter()
    done, payload = run_in_child(name, fn, args, time_limit)
    if not done:
        return Result("unknown", seconds=time.perf_counter() - t0, note="time limit")
    status, true = payload
    return Result(status, frozenset(true), time.perf_counter() - t0)


def die_with_parent() -> None:
    """Linux: SIGKILL this process when its parent dies, so no solver outlives the run that
    started it. Elsewhere a no-op (time limits still kill what they started)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(70)
