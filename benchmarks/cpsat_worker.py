"""OR-Tools CP-SAT for the benchmarks, in a process of its own (``CpsatWorker``).

OR-Tools carries its own copy of HiGHS, and highspy (the ``highs`` backend) another: once one
is loaded, the other fails to import (their symbols clash). The worker keeps OR-Tools out of
the benchmark's process and times each board as before: from the board to CP-SAT's answer,
building its model included (``python -m benchmarks.cpsat_worker`` serves one JSON
request a line on standard input).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from satdomino.puzzles import dominosa as D


class CpsatWorker:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "benchmarks.cpsat_worker"],
                                     cwd=Path(__file__).resolve().parents[1],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def solve(self, board: D.Dominosa, workers: int, limit: float) -> tuple[str, float]:
        """(status, seconds from the board to CP-SAT's answer)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        request = {"grid": board.grid, "workers": workers, "limit": limit}
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the CP-SAT worker died (exit {self.proc.wait()})")
        status, seconds = json.loads(line)
        return status, seconds

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def serve() -> None:
    from benchmarks.dominosa_speed import cpsat

    for line in sys.stdin:
        request = json.loads(line)
        board = D.Dominosa(tuple(tuple(row) for row in request["grid"]))
        t0 = time.perf_counter()
        status, _ = cpsat(board, request["workers"], request["limit"])
        print(json.dumps([status, time.perf_counter() - t0]), flush=True)


if __name__ == "__main__":
    serve()
