"""OR-Tools CP-SAT for the benchmarks, in a process of its own (``CpsatWorker``).

OR-Tools carries its own copy of HiGHS, and highspy (the ``highs`` backend) another: once one
is loaded, the other fails to import (their symbols clash). The worker keeps OR-Tools out of
the benchmark's process and times each board as before: from the board to CP-SAT's answer,
building its model included (``python -m benchmarks.cpsat_worker`` serves one JSON
request a line on standard input).

Two kinds of request: a Dominosa grid, solved on the exactly-one placement model written out
here (``dominosa_speed.cpsat``); or a puzzle file and one of its family's model names, whose
satdomino Model is translated constraint by constraint (``from_model``: clauses, at-most-one
and exactly-one, cardinality and pseudo-Boolean rows, OR / AND definitions, integer variables
with their views and linear rows).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import satdomino
from satdomino.model import (
    PB,
    AtMostOne,
    Card,
    Clause,
    Define,
    ExactlyOne,
    IntLinear,
    IntView,
    Model,
)
from satdomino.puzzles import dominosa as D


class CpsatWorker:
    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "benchmarks.cpsat_worker"],
                                     cwd=Path(__file__).resolve().parents[1],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def _ask(self, request: dict) -> tuple[str, float]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the CP-SAT worker died (exit {self.proc.wait()})")
        status, seconds = json.loads(line)
        return status, seconds

    def solve(self, board: D.Dominosa, workers: int, limit: float) -> tuple[str, float]:
        """(status, seconds from the board to CP-SAT's answer)."""
        return self._ask({"grid": board.grid, "workers": workers, "limit": limit})

    def solve_file(self, path: str, model: str, workers: int,
                   limit: float) -> tuple[str, float]:
        """(status, seconds from reading the file to CP-SAT's answer) on the named model of the
        file's (first) puzzle."""
        return self._ask({"file": path, "model": model, "workers": workers, "limit": limit})

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def from_model(m: Model) -> tuple[Any, list]:
    """The Model as a CP-SAT model, and its Boolean variables (the i-th for the Model's
    variable i; the 0th unused)."""
    from ortools.sat.python import cp_model
    from ortools.util.python.sorted_interval_list import Domain

    cm = cp_model.CpModel()
    xs = [cm.NewBoolVar(f"x{i}") for i in range(m.num_vars + 1)]

    def lit(v: int) -> Any:
        return xs[v] if v > 0 else xs[-v].Not()

    def add(total: Any, op: str, bound: int) -> Any:
        return cm.Add(total <= bound if op == "<=" else total >= bound if op == ">="
                      else total == bound)

    ints = {key: cm.NewIntVarFromDomain(Domain.FromValues(list(x.values)), f"i{k}")
            for k, (key, x) in enumerate(m.ints.items())}
    for c in m.constraints:
        match c:
            case Clause(lits):
                cm.AddBoolOr([lit(v) for v in lits])
            case AtMostOne(lits):
                cm.AddAtMostOne([lit(v) for v in lits])
            case ExactlyOne(lits):
                cm.AddExactlyOne([lit(v) for v in lits])
            case Card(lits, op, bound):
                add(sum(lit(v) for v in lits), op, bound)
            case PB(terms, op, bound):
                add(sum(w * lit(v) for w, v in terms), op, bound)
            case Define(var, "or", lits):
                cm.AddBoolOr([lit(v) for v in lits]).OnlyEnforceIf(xs[var])
                for v in lits:
                    cm.AddImplication(lit(v), xs[var])
            case Define(var, _, lits):  # and
                cm.AddBoolAnd([lit(v) for v in lits]).OnlyEnforceIf(xs[var])
                cm.AddBoolOr([lit(-v) for v in lits]).OnlyEnforceIf(xs[var].Not())
            case IntView(var, x, op, k):
                i = ints[x.key]
                add(i, op, k).OnlyEnforceIf(xs[var])
                (cm.Add(i != k) if op == "==" else cm.Add(i <= k - 1)).OnlyEnforceIf(
                    xs[var].Not())
            case IntLinear(terms, bools, op, bound):
                add(sum(w * ints[x.key] for w, x in terms) + sum(w * lit(b) for w, b in bools),
                    op, bound)
            case _:
                raise TypeError(f"no CP-SAT form for {type(c).__name__}")
    return cm, xs


def solve_puzzle(puzzle: satdomino.Puzzle, model: str, workers: int, limit: float) -> str:
    """CP-SAT on the puzzle's named model: "sat" (its answer decoded and passed by the family's
    rule checker), "unsat", "unknown", or "wrong" (an answer the rules refuse)."""
    from ortools.sat.python import cp_model

    fam = puzzle.family
    m = fam.model(model)(puzzle.data)
    cm, xs = from_model(m)
    s = cp_model.CpSolver()
    s.parameters.num_workers = workers
    s.parameters.max_time_in_seconds = limit
    status = s.Solve(cm)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "unsat" if status == cp_model.INFEASIBLE else "unknown"
    true_vars = frozenset(i for i in range(1, m.num_vars + 1) if s.Value(xs[i]))
    return "wrong" if fam.verify(puzzle.data, fam.decode(puzzle.data, m, true_vars)) else "sat"


def serve() -> None:
    from benchmarks.dominosa_speed import cpsat

    for line in sys.stdin:
        request = json.loads(line)
        t0 = time.perf_counter()
        if "grid" in request:
            board = D.Dominosa(tuple(tuple(row) for row in request["grid"]))
            status, _ = cpsat(board, request["workers"], request["limit"])
        else:
            status = solve_puzzle(satdomino.read(request["file"])[0], request["model"],
                                  request["workers"], request["limit"])
        print(json.dumps([status, time.perf_counter() - t0]), flush=True)


if __name__ == "__main__":
    serve()
