"""cnf_samples/: small exported instances across families, models, encodings and status, with a
manifest; rebuilt by ``python -m satdomino.generators.samples [FOLDER]``. Each is exactly what
``satdomino generate KIND ... -o NAME.cnf.xz`` writes, its ``c p show`` line naming the
projection, so each is also a projected model counting instance: the manifest's ``count`` is
its number of projected models (distinct solutions; for a uniqueness instance, one fewer). A
test rebuilds them and compares GBD hashes and counts, so the samples cannot drift from the
code."""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ..analysis.count import count
from ..encode import Encodings
from ..instance import export_instance
from ..puzzles import family
from .make import origin, planted

FOLDER = Path(__file__).resolve().parents[2] / "cnf_samples"


@dataclass(frozen=True)
class Sample:
    kind: str
    params: dict
    seed: int
    model: str
    encodings: Encodings = Encodings()
    uniqueness: bool = False  # the puzzle plus "differs from its solution": UNSAT iff unique
    readings: dict = field(default_factory=dict)  # rule readings, e.g. Doodle Fit rotations

    @property
    def name(self) -> str:
        size = "-".join(f"{k}{v}" for k, v in self.params.items())
        what = "uniqueness" if self.uniqueness else "planted"
        chosen = [v for k, v in self.encodings.as_dict().items()
                  if v != getattr(Encodings(), k)]
        return "-".join([self.kind, what, size, f"s{self.seed}", self.model, *chosen,
                         *self.readings])


SAMPLES = [
    Sample("dominosa", {"n": 12}, 1, "placement"),
    Sample("dominosa", {"n": 12}, 1, "placement", Encodings(amo="pairwise")),
    Sample("dominosa", {"n": 8}, 2, "counted", Encodings(card="sortnetwrk", pb="bdd")),
    Sample("dominosa", {"n": 6}, 151, "placement", Encodings(amo="commander"), uniqueness=True),
    Sample("dominosa", {"n": 9}, 4, "placement", uniqueness=True),
    Sample("dominosa", {"n": 40}, 3, "placement", Encodings(amo="ladder")),
    Sample("dominosa", {"n": 30}, 1, "placement", Encodings(amo="pairwise")),  # 25,165,824
    Sample("pips", {"dominoes": 12, "max_pip": 6}, 1, "placement", Encodings(pb="adder")),
    Sample("pips", {"dominoes": 12, "max_pip": 6}, 1, "link-value", Encodings(int="order")),
    Sample("pips", {"dominoes": 6, "max_pip": 6}, 3, "placement", uniqueness=True),
    Sample("dominofit", {"width": 9, "height": 9}, 1, "dot-half", Encodings(pb="totalizer")),
    Sample("dominofit", {"width": 6, "height": 6}, 2, "placement", uniqueness=True),
    Sample("doodlefit", {"cells": 40, "blocks": 8}, 1, "placement", readings={"rotate": True}),
]


def write_all(folder: Path = FOLDER) -> list[dict]:
    """Every sample written to ``folder``, with its manifest (returned too)."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = []
    counts: dict[str, int] = {}
    for s in SAMPLES:
        fam = family(s.kind)
        puzzle = planted(fam, s.params, s.seed)
        if s.readings:
            puzzle = dataclasses.replace(puzzle, **s.readings)
        made = origin(fam, s.params, s.seed, False, puzzle, s.readings)
        file = f"{s.name}.cnf.xz"
        info = export_instance(fam, puzzle, made, str(folder / file), "dimacs",
                               model=s.model, encodings=s.encodings, uniqueness=s.uniqueness,
                               timeout=300)
        key = json.dumps([s.kind, made.parameters, s.readings], sort_keys=True)
        if key not in counts:  # the same puzzle under another model: the same count
            solutions = count(puzzle, fam, model=s.model, timeout=300)
            assert solutions.complete, f"{file}: {solutions.reason}"
            counts[key] = solutions.value
        manifest.append({"file": file, "family": s.kind, "parameters": made.parameters,
                         "readings": s.readings, "uniqueness": s.uniqueness, "model": s.model,
                         "encodings": s.encodings.as_dict(), "variables": info.variables,
                         "clauses": info.clauses, "status": info.status,
                         "hash": info.hash,
                         "count": counts[key] - (1 if s.uniqueness else 0)})
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


if __name__ == "__main__":
    for row in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER):
        print(row["file"], row["variables"], row["clauses"], row["status"], row["hash"],
              row["count"])
