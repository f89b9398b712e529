"""cnf_samples/: a few small exported instances with a manifest, rebuilt by
``python -m satdomino.export.samples [FOLDER]``. A test rebuilds them and compares hashes, so the
samples cannot drift from the code."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..analysis import blocking_clause
from ..backends import get_backend
from ..encode import Encodings, lower
from ..puzzles import dominosa as D
from .dimacs import clause_hash, write_dimacs

FOLDER = Path(__file__).resolve().parents[2] / "cnf_samples"


@dataclass(frozen=True)
class Sample:
    name: str
    n: int
    seed: int
    model: str
    encodings: Encodings
    block_planted: bool = False  # add "differs from the planted solution": UNSAT iff unique


SAMPLES = [
    Sample("dominosa-planted-n12-s1-placement-seqcounter", 12, 1, "placement", Encodings()),
    Sample("dominosa-planted-n12-s1-placement-pairwise", 12, 1, "placement",
           Encodings(amo="pairwise")),
    Sample("dominosa-planted-n8-s2-counted-totalizer-bdd", 8, 2, "counted",
           Encodings(card="totalizer", pb="bdd")),
    Sample("dominosa-planted-n6-s151-unique-commander", 6, 151, "placement",
           Encodings(amo="commander"), block_planted=True),
    Sample("dominosa-planted-n40-s3-placement-ladder", 40, 3, "placement",
           Encodings(amo="ladder")),
]


def build(sample: Sample):
    board, planted = D.planted(sample.n, sample.seed)
    model = D.MODELS[sample.model](board)
    cnf = lower(model, sample.encodings)
    extra = []
    if sample.block_planted:
        true = frozenset(model.var(D.place_key(board, e)) for e in planted.pairs)
        extra = [blocking_clause(model.projection, true)]
    return board, cnf, extra


def write_all(folder: Path = FOLDER) -> list[dict]:
    folder.mkdir(parents=True, exist_ok=True)
    manifest = []
    solver = get_backend("cadical195")
    for s in SAMPLES:
        board, cnf, extra = build(s)
        probe = cnf.copy()
        probe.clauses += extra
        status = {"sat": "SAT", "unsat": "UNSAT"}.get(solver.solve(probe, time_limit=300).status,
                                                      "UNKNOWN")
        params = {"n": s.n, "seed": s.seed, "block_planted": s.block_planted}
        comments = [f"generator: satdomino {__version__}", "family: dominosa (planted)",
                    f"parameters: {json.dumps(params)}", f"model: {s.model}",
                    f"encodings: {json.dumps(s.encodings.as_dict())}",
                    f"status: {status}", f"game id: {board.game_id()}"]
        file = f"{s.name}.cnf.xz"
        write_dimacs(folder / file, cnf, comments, extra)
        manifest.append({"file": file, "family": "dominosa", "parameters": params,
                         "model": s.model, "encodings": s.encodings.as_dict(),
                         "variables": cnf.num_vars, "clauses": len(cnf.clauses) + len(extra),
                         "status": status, "sha256_clauses": clause_hash(cnf, extra)})
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


if __name__ == "__main__":
    for row in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER):
        print(row["file"], row["variables"], row["clauses"], row["status"])
