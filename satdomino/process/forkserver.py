"""A fork server: a small process forked before a puzzle is built, which forks the workers a
solve asks for (HiGHS's) from itself rather than from this process.

Forking this process once the puzzle is built costs the race twice: the fork copies its page
tables, every page this process writes afterwards is copied again (slowing the solvers racing
here), and the worker itself runs slower from a fork of a large process (README "Large planted
Dominosa boards"). The server is forked while this process is small, and a worker's work is
sent to it as compact arguments, pickled.

Not ``multiprocessing``'s "forkserver": that one starts a fresh interpreter, which imports
what the workers need in the critical path of a one-puzzle run.

Each worker sends its answer through a pipe of its own, whose write end the server passes on
(``SCM_RIGHTS``), and the server hands back a pidfd of the worker, so this process can stop,
pause and kill it with no risk of signalling a reused pid; the server reaps its workers.
Linux only (pidfds from 5.3); elsewhere ``available()`` is false and workers are forked from
this process as before.
"""

from __future__ import annotations

import atexit
import fcntl
import functools
import os
import pickle
import signal
import socket
import struct
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any, NoReturn

from ..errors import BackendError
from .child import child_main, close_files_but, close_quietly, flush_std_streams

_HEADER = struct.Struct("<q")  # the length of a pickled job, a worker's pid, or a peak
_QUERY = -1  # in place of a job's length: the workers' peak memory


class ForkServer:
    """The server process, seen from this one. It is not tied to the thread that forked it
    (a parent-death signal would be): it ends when this process closes its end of the socket,
    at exit or on death, and its workers die with it."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours = _out_of_the_way(ours)
        flush_std_streams()  # else the server's workers could write this process's buffers
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the server's side (its own process)
            try:
                ours.close()
                _serve(theirs)
            finally:  # a Ctrl-C before _serve took over: never run on as this process
                os._exit(1)
        theirs.close()
        self.pid, self._sock = pid, ours
        self.owner = os.getpid()  # a fork of this process needs a server of its own
        self._lock = threading.Lock()  # one request at a time on the socket
        self._ended = False  # reaped here, or given up: its pid may be another's now

    def alive(self) -> bool:
        if self._ended:
            return False
        with suppress(ChildProcessError):  # not our child (a fork of this process has it)
            if os.waitpid(self.pid, os.WNOHANG) == (0, 0):
                return True
        self._ended = True
        return False

    def fork(self, write: int, fn: Callable[..., Any], args: tuple) -> tuple[int, int]:
        """Start ``fn(*args)`` in a worker that sends its answer through ``write`` (as a
        forked child's ``child_main`` does); (its pid, a pidfd of it)."""
        job = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        with self._lock:
            data, fds = self._exchange(
                lambda: self._send_job(job, write),
                lambda: socket.recv_fds(self._sock, _HEADER.size, 1)[:2])
        try:
            if len(fds) != 1:
                raise BackendError("the fork server is gone")
            os.set_inheritable(fds[0], False)
            return _HEADER.unpack(data)[0], fds[0]
        except BaseException:  # the worker is nobody's: end it with the server
            close_quietly(*fds)
            self.close()
            raise

    def _send_job(self, job: bytes, write: int) -> None:
        socket.send_fds(self._sock, [_HEADER.pack(len(job))], [write])
        self._sock.sendall(job)

    def workers_peak_mb(self) -> float:
        """The largest peak memory (MB) of the workers that have ended since the last call
        (the server waits up to a second for those still ending: call it once every run is
        over or stopped)."""
        with self._lock:
            data, _ = self._exchange(lambda: self._sock.sendall(_HEADER.pack(_QUERY)),
                                     lambda: (self._sock.recv(_HEADER.size), []))
        return _HEADER.unpack(data)[0] / 1024

    def _exchange(self, send: Callable[[], Any], receive: Callable[[], tuple]) -> tuple:
        """One request and its reply, whole or not at all: a failure or an interrupt (a
        Ctrl-C) between them would leave the socket out of step, a reply or a job's bytes
        half read, so the server is ended (its workers die with it) and the next request
        forks another."""
        if self._ended:
            raise BackendError("the fork server is gone")
        try:
            send()
            data, fds = receive()
        except BaseException as e:
            self.close()
            if isinstance(e, OSError):
                raise BackendError(f"the fork server is gone ({e})") from None
            raise
        if len(data) != _HEADER.size:
            close_quietly(*fds)
            self.close()
            raise BackendError("the fork server is gone")
        return data, fds

    def close(self) -> None:
        with suppress(OSError):
            self._sock.close()
        if not self._ended:
            self._ended = True
            with suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            with suppress(ChildProcessError):
                os.waitpid(self.pid, 0)


def _out_of_the_way(sock: socket.socket) -> socket.socket:
    """``sock`` on a file number of 256 or more. The socket lives as long as the process, and
    low numbers are the ones code that writes to a file it has closed hits once they are
    reused: a fflush(NULL) once wrote the unread tail of a python-sat proof, left in a C
    stream over a closed descriptor, onto a server socket that had taken the freed number
    (``highs_backend._flush_c_stdout``), and the server, reading it as a job, ended."""
    try:
        high = fcntl.fcntl(sock.fileno(), fcntl.F_DUPFD_CLOEXEC, 256)
    except OSError:  # fewer files allowed than that: keep it where it is
        return sock
    sock.close()
    return socket.socket(fileno=high)


_server: ForkServer | None = None
_server_lock = threading.Lock()


@functools.cache
def available() -> bool:
    """Pidfds work here (Linux 5.3 on, not refused by a sandbox)."""
    with suppress(AttributeError, OSError):
        os.close(os.pidfd_open(os.getpid()))
        return hasattr(signal, "pidfd_send_signal")
    return False


def server() -> ForkServer:
    """The process's fork server, forked now if there is none alive."""
    global _server
    with _server_lock:
        if _server is None or _server.owner != os.getpid() or not _server.alive():
            if _server is None:
                atexit.register(_close)
            _server = ForkServer()
        return _server


def _close() -> None:
    """At exit: end the server and reap it here."""
    with _server_lock:
        if _server is not None and _server.owner == os.getpid():
            _server.close()


def _forget_in_child() -> None:
    """In a fork of this process: the parent's server is not this one's (its socket is
    closed here, so the server still ends when the parent does)."""
    global _server, _server_lock
    _server_lock = threading.Lock()  # another thread may have held it at the fork
    if _server is not None:
        with suppress(OSError):
            _server._sock.close()
        _server = None


os.register_at_fork(after_in_child=_forget_in_child)


def workers_peak_mb() -> float:
    """The largest peak memory (MB) of this process's fork-server workers that have ended
    since the last call (0 without a server); see ``ForkServer.workers_peak_mb``."""
    with _server_lock:
        server = _server if _server is not None and _server.owner == os.getpid() else None
        alive = server is not None and server.alive()
    return server.workers_peak_mb() if server is not None and alive else 0.0


def _serve(sock: socket.socket) -> NoReturn:
    """The server: for each job, fork a worker and hand back its pid and a pidfd; for a
    query, the largest peak memory of the workers reaped since the last one."""
    code = 1
    try:
        close_files_but(sock.fileno())
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is the parent's to handle
        # a worker is reaped as it ends (while the server waits in recv, which Python resumes)
        signal.signal(signal.SIGCHLD, lambda *_: _reap_workers())
        while True:
            data, fds, _, _ = socket.recv_fds(sock, _HEADER.size, 1)
            if len(data) != _HEADER.size:
                break  # the parent closed its end
            size = _HEADER.unpack(data)[0]
            if size == _QUERY:
                _reap_workers(wait=1.0)
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
                child_main(fds[0], _run_pickled, (bytes(job),))
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


def _run_pickled(job: bytes) -> Any:
    """In a worker: the job's ``fn(*args)``; a job that does not unpickle is reported through
    the worker's own pipe."""
    try:
        fn, args = pickle.loads(job)
    except BaseException as e:
        raise BackendError(f"{type(e).__name__}: {e}") from None
    return fn(*args)


_peak_kb = [0]  # in the server: the largest peak memory of a worker reaped (kB)


def _reap_workers(wait: float = 0.0) -> None:
    """Reap the workers that have ended; with ``wait``, wait up to that many seconds for
    the others (killed ones end within milliseconds)."""
    end = time.monotonic() + wait
    while True:
        try:
            pid, _, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return  # no worker left
        if pid:
            _peak_kb[0] = max(_peak_kb[0], usage.ru_maxrss)
        elif time.monotonic() < end:
            time.sleep(0.001)
        else:
            return
