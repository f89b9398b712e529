"""A fork server: a small process forked before a puzzle is built, which forks the workers a
solve asks for (HiGHS's) from itself rather than from this process.

Forking this process once the puzzle is built costs the race twice. The fork copies its page
tables, and every page this process writes afterwards is copied again: MiniSat, racing a
forked HiGHS at Dominosa N = 45, took 18.4 ms where alone it took 11.8 ms, and took 11.5 ms
beside a HiGHS started in a process forked beforehand. The worker pays too: HiGHS's jump took
40-58 ms from a fork of the built puzzle's process, against 25-42 ms from a small one (medians
of 7, README "Large planted Dominosa boards"). The server is forked while this process is
small (1.2 ms), and a worker's work is sent to it as compact arguments, pickled.

Not ``multiprocessing``'s "forkserver": that one starts a fresh interpreter, which imports
what the workers need (0.1 s or more) in the critical path of a one-puzzle run.

Each worker sends its answer through a pipe of its own, whose write end the server passes on
(``SCM_RIGHTS``), and the server hands back a pidfd of the worker, so this process can stop,
pause and kill it with no risk of signalling a reused pid; the server reaps its workers.
Linux only (pidfds from 5.3); elsewhere ``available()`` is false and workers are forked from
this process as before.
"""

from __future__ import annotations

import atexit
import os
import pickle
import signal
import socket
import struct
import threading
from collections.abc import Callable
from contextlib import suppress
from typing import Any, NoReturn

from ..errors import BackendError
from .child import die_with_parent

_HEADER = struct.Struct("<q")  # the length of a pickled job, a worker's pid, or a peak
_QUERY = -1  # in place of a job's length: the workers' peak memory


class ForkServer:
    def __init__(self) -> None:
        from .run import _flush_std_streams

        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        _flush_std_streams()  # else the server's workers could write this process's buffers
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the server's side (its own process)
            ours.close()
            _serve(theirs)
        theirs.close()
        self.pid, self._sock = pid, ours
        self.owner = os.getpid()  # a fork of this process needs a server of its own
        self._lock = threading.Lock()  # one request at a time on the socket

    def alive(self) -> bool:
        try:
            return os.waitpid(self.pid, os.WNOHANG) == (0, 0)
        except ChildProcessError:  # reaped already (or not our child: a fork of this one)
            return False

    def fork(self, write: int, fn: Callable[..., Any], args: tuple) -> tuple[int, int]:
        """Start ``fn(*args)`` in a worker that sends its answer through ``write`` (as a
        forked child's ``in_child`` does); (its pid, a pidfd of it)."""
        job = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            try:
                socket.send_fds(self._sock, [_HEADER.pack(len(job))], [write])
                self._sock.sendall(job)
                data, fds, _, _ = socket.recv_fds(self._sock, _HEADER.size, 1)
            except OSError as e:
                raise BackendError(f"the fork server is gone ({e})") from None
        if len(data) != _HEADER.size or len(fds) != 1:
            for fd in fds:
                os.close(fd)
            raise BackendError("the fork server is gone")
        return _HEADER.unpack(data)[0], fds[0]

    def workers_peak_mb(self) -> float:
        """The largest peak memory (MB) of the workers that have ended since the last call,
        once every worker has ended: call it when every run is over (or stopped)."""
        with self._lock:
            try:
                self._sock.sendall(_HEADER.pack(_QUERY))
                data = self._sock.recv(_HEADER.size)
            except OSError as e:
                raise BackendError(f"the fork server is gone ({e})") from None
        if len(data) != _HEADER.size:
            raise BackendError("the fork server is gone")
        return _HEADER.unpack(data)[0] / 1024

    def close(self) -> None:
        with suppress(OSError):
            self._sock.close()
        with suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with suppress(ChildProcessError):
            os.waitpid(self.pid, 0)


_server: ForkServer | None = None
_server_lock = threading.Lock()


def available() -> bool:
    return hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal")


def server() -> ForkServer:
    """The process's fork server, forked now if there is none alive (or it died with the
    thread that forked it: Linux's parent-death signal follows the thread)."""
    global _server
    with _server_lock:
        if _server is None or _server.owner != os.getpid() or not _server.alive():
            if _server is None:
                atexit.register(_close)
            _server = ForkServer()
        return _server


def _close() -> None:
    """At exit: end the server and reap it here (its parent-death signal would leave it to
    init to reap)."""
    with _server_lock:
        if _server is not None and _server.owner == os.getpid():
            _server.close()


def workers_peak_mb() -> float:
    """The largest peak memory (MB) of this process's fork-server workers that have ended
    since the last call (0 without a server); see ``ForkServer.workers_peak_mb``."""
    with _server_lock:
        alive = _server is not None and _server.owner == os.getpid() and _server.alive()
    return _server.workers_peak_mb() if alive else 0.0


def _serve(sock: socket.socket) -> NoReturn:
    """The server: for each job, fork a worker and hand back its pid and a pidfd; for a
    query, the largest peak memory of the workers reaped since the last one."""
    from .run import _close_files_but

    code = 1
    try:
        die_with_parent()
        _close_files_but(sock.fileno())
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the parent's to handle
        # a worker is reaped as it ends (while the server waits in recv, which Python resumes)
        signal.signal(signal.SIGCHLD, lambda *_: _reap_workers(block=False))
        while True:
            data, fds, _, _ = socket.recv_fds(sock, _HEADER.size, 1)
            if len(data) != _HEADER.size:
                break  # the parent closed its end
            size = _HEADER.unpack(data)[0]
            if size == _QUERY:
                _reap_workers(block=True)
                sock.sendall(_HEADER.pack(_peak_kb[0]))
                _peak_kb[0] = 0
                continue
            if len(fds) != 1:
                break  # not a job: the parent is not ours
            job = bytearray()
            while len(job) < size:
                chunk = sock.recv(size - len(job))
                if not chunk:
                    raise EOFError
                job += chunk
            # no reaping between the fork and the pidfd: the pid must still be the worker's
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGCHLD})
            pid = os.fork()
            if pid == 0:
                sock.close()
                for sig in (signal.SIGINT, signal.SIGCHLD):
                    signal.signal(sig, signal.SIG_DFL)
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
                _run_job(fds[0], bytes(job))
            os.close(fds[0])
            pidfd = os.pidfd_open(pid)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGCHLD})
            try:
                socket.send_fds(sock, [_HEADER.pack(pid)], [pidfd])
            finally:
                os.close(pidfd)
        code = 0
    finally:
        os._exit(code)


def _run_job(write: int, job: bytes) -> NoReturn:
    from .run import _child

    try:
        fn, args = pickle.loads(job)
    except BaseException as e:  # report it through the worker's own pipe
        fn, args = _fail, (f"{type(e).__name__}: {e}",)
    _child(write, fn, args)


def _fail(message: str) -> NoReturn:
    raise BackendError(message)


_peak_kb = [0]  # in the server: the largest peak memory of a worker reaped (kB)


def _reap_workers(block: bool) -> None:
    """Reap the workers that have ended (with ``block``, every one: the others have been
    killed, and end soon)."""
    while True:
        try:
            pid, _, usage = os.wait4(-1, 0 if block else os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _peak_kb[0] = max(_peak_kb[0], usage.ru_maxrss)
