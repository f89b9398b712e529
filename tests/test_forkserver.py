"""The fork server: workers forked from a small process, answered, stopped, paused and killed
as a forked child would be, and nothing left behind."""

from __future__ import annotations

import os
import select
import signal
import time

import pytest

from satdomino.backends.base import Result
from satdomino.errors import BackendError
from satdomino.process import forkserver
from satdomino.process.child import descendants
from satdomino.process.run import ServedRun

pytestmark = pytest.mark.skipif(not forkserver.available(), reason="needs Linux pidfds")


def _answer(x: int) -> Result:
    return Result("sat", frozenset({x}), 0.0)


def _fails() -> None:
    raise ValueError("no luck")


def _sleeps(seconds: float) -> Result:
    time.sleep(seconds)
    return Result("unknown")


def _counts(path: str, seconds: float) -> Result:
    """Write a line to ``path`` every 10 ms for ``seconds``."""
    end = time.monotonic() + seconds
    with open(path, "a") as f:
        while time.monotonic() < end:
            f.write("x\n")
            f.flush()
            time.sleep(0.01)
    return Result("sat", frozenset({1}), 0.0)


def _holds(mb: int) -> Result:
    block = bytearray(mb * 2**20)
    block[::4096] = b"x" * len(block[::4096])  # touch every page
    return Result("sat", frozenset({len(block) > 0}), 0.0)


def _workers() -> set[int]:
    """The live processes under the fork server: its workers."""
    return set(descendants(forkserver.server().pid))


def _until_no_workers(seconds: float = 2.0) -> set[int]:
    end = time.monotonic() + seconds
    while _workers() and time.monotonic() < end:
        time.sleep(0.01)
    return _workers()


def test_a_worker_answers_and_is_reaped() -> None:
    run = ServedRun(forkserver.server(), _answer, lambda: (7,))
    assert run.result().true_vars == {7}
    assert not _until_no_workers()


def test_a_failing_worker_raises_with_its_reason() -> None:
    with pytest.raises(BackendError, match="ValueError: no luck"):
        ServedRun(forkserver.server(), _fails, lambda: ()).result()


def test_stop_kills_the_worker_at_once() -> None:
    import threading

    run = ServedRun(forkserver.server(), _sleeps, lambda: (60,))
    box: list = []
    thread = threading.Thread(target=lambda: box.append(run.result()))
    thread.start()
    end = time.monotonic() + 5
    while not run.searching and time.monotonic() < end:
        time.sleep(0.005)
    assert _workers()
    t0 = time.perf_counter()
    run.stop()
    thread.join(5)
    assert not thread.is_alive() and time.perf_counter() - t0 < 10  # not the worker's 60 s
    assert box[0].status == "unknown" and box[0].note == "stopped"
    assert not _until_no_workers()


def test_a_run_stopped_before_it_starts_forks_nothing() -> None:
    made: list = []
    run = ServedRun(forkserver.server(), _answer, lambda: made.append(1) or (1,))
    run.stop()
    assert run.result().status == "unknown" and not made
    run.close()


def test_pause_stops_the_worker_until_resumed(tmp_path) -> None:
    import threading

    path = tmp_path / "count"
    run = ServedRun(forkserver.server(), _counts, lambda: (str(path), 0.6))
    box: list = []
    thread = threading.Thread(target=lambda: box.append(run.result()))
    thread.start()
    end = time.monotonic() + 5
    while (not path.exists() or not path.read_text()) and time.monotonic() < end:
        time.sleep(0.005)
    assert run.pause()
    time.sleep(0.05)  # a line in flight lands
    before = path.read_text().count("x")
    time.sleep(0.3)
    assert path.read_text().count("x") == before  # paused: not a line more
    run.resume()
    thread.join(5)
    assert box[0].status == "sat" and path.read_text().count("x") > before


def test_a_dead_server_is_replaced() -> None:
    first = forkserver.server()
    os.kill(first.pid, signal.SIGKILL)
    end = time.monotonic() + 2
    while first.alive() and time.monotonic() < end:
        time.sleep(0.01)
    second = forkserver.server()
    assert second.pid != first.pid
    assert ServedRun(second, _answer, lambda: (3,)).result().true_vars == {3}


def test_the_server_holds_no_file_of_this_process() -> None:
    """A pipe made before the server: once this process closes its write end, the reader
    sees the end of the file (the server kept no copy of it)."""
    forkserver.server().close()
    read, write = os.pipe()
    try:
        server = forkserver.server()  # a new one: it sees the pipe
        assert ServedRun(server, _answer, lambda: (1,)).result().status == "sat"
        os.close(write)
        assert select.select([read], [], [], 2)[0] and os.read(read, 1) == b""
    finally:
        os.close(read)


def test_workers_peak_memory_is_reported() -> None:
    forkserver.workers_peak_mb()  # from here on
    assert ServedRun(forkserver.server(), _holds, lambda: (64,)).result().status == "sat"
    assert forkserver.workers_peak_mb() >= 64
    assert forkserver.workers_peak_mb() == 0  # since the last call: none


def test_an_interrupted_request_ends_the_server_and_the_next_run_gets_a_new_one(
        monkeypatch) -> None:
    """A Ctrl-C between a job sent and its reply read would leave the socket out of step
    (the next run reading this one's pid): the server is ended instead, and with it the
    worker nobody holds."""
    first = forkserver.server()
    others = set(descendants(os.getpid())) - {first.pid}  # other tests' processes
    real = forkserver.socket.recv_fds

    def interrupted(*args):
        time.sleep(0.2)  # the server has forked the worker by now
        monkeypatch.setattr(forkserver.socket, "recv_fds", real)
        raise KeyboardInterrupt

    monkeypatch.setattr(forkserver.socket, "recv_fds", interrupted)
    with pytest.raises(KeyboardInterrupt):
        ServedRun(first, _sleeps, lambda: (60,)).result()
    assert not first.alive()
    second = forkserver.server()
    assert second.pid != first.pid
    assert ServedRun(second, _answer, lambda: (5,)).result().true_vars == {5}
    end = time.monotonic() + 2  # the answered worker is reaped as it ends
    while set(descendants(os.getpid())) - others - {second.pid} and time.monotonic() < end:
        time.sleep(0.01)
    assert set(descendants(os.getpid())) - others <= {second.pid}, "a worker is still alive"


def test_the_server_outlives_the_thread_that_forked_it() -> None:
    import threading

    forkserver.server().close()
    box: list = []
    thread = threading.Thread(target=lambda: box.append(forkserver.server()))
    thread.start()
    thread.join()
    time.sleep(0.1)
    assert box[0].alive() and forkserver.server() is box[0]
    assert ServedRun(box[0], _answer, lambda: (2,)).result().true_vars == {2}


def test_a_run_lets_go_of_its_arguments_maker_started_or_not() -> None:
    """What make_args holds (a whole Model) is freed by reference counting, whether the run
    answered or was closed before it started (a portfolio member never launched)."""
    import gc
    import weakref

    class Held:
        pass

    for start in (True, False):
        held = Held()
        ref = weakref.ref(held)
        run = ServedRun(forkserver.server(), _answer, lambda h=held: (7,))
        del held
        gc.disable()
        try:
            if start:
                assert run.result().true_vars == {7}
            run.close()
            del run
            assert ref() is None, start
        finally:
            gc.enable()
