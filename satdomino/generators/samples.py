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
from pathlib import Path

from ..analysis.count import count
from ..encode import Encodings
from ..family import Sample
from ..fileio import atomic_text
from ..instance import export_instance
from ..puzzles import FAMILIES
from .make import origin, planted

FOLDER = Path(__file__).resolve().parents[2] / "cnf_samples"


def sample_name(kind: str, s: Sample) -> str:
    """The file name of a sample (without its suffix)."""
    size = "-".join(f"{k}{v}" for k, v in s.params.items())
    what = "uniqueness" if s.uniqueness else "planted"
    plain = Encodings().as_dict()
    chosen = [v for k, v in Encodings(**s.encodings).as_dict().items() if v != plain[k]]
    return "-".join([kind, what, size, f"s{s.seed}", s.model, *chosen, *s.readings])


def write_all(folder: Path = FOLDER) -> list[dict]:
    """Every sample written to ``folder``, with its manifest (returned too)."""
    folder.mkdir(parents=True, exist_ok=True)
    manifest = []
    counts: dict[str, int] = {}
    for fam, s in ((f, s) for f in FAMILIES.values() for s in f.samples):
        puzzle = dataclasses.replace(planted(fam, s.params, s.seed), **s.readings)
        made = origin(fam, s.params, s.seed, False, puzzle, dict(s.readings))
        file = f"{sample_name(fam.kind, s)}.cnf.xz"
        encodings = Encodings(**s.encodings)
        info = export_instance(fam, puzzle, made, str(folder / file), "dimacs",
                               model=s.model, encodings=encodings, uniqueness=s.uniqueness,
                               timeout=300)
        key = json.dumps([fam.kind, made.parameters, s.readings], sort_keys=True)
        if key not in counts:  # the same puzzle under another model: the same count
            solutions = count(puzzle, fam, model=s.model, timeout=300)
            assert solutions.complete, f"{file}: {solutions.reason}"
            counts[key] = solutions.value
        manifest.append({"file": file, "family": fam.kind, "parameters": made.parameters,
                         "readings": dict(s.readings), "uniqueness": s.uniqueness,
                         "model": s.model, "encodings": encodings.as_dict(),
                         "variables": info.variables, "clauses": info.clauses,
                         "status": info.status, "hash": info.hash,
                         "count": counts[key] - (1 if s.uniqueness else 0)})
    with atomic_text(folder / "manifest.json") as f:
        f.write(json.dumps(manifest, indent=1) + "\n")
    return manifest


if __name__ == "__main__":
    for row in write_all(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER):
        print(row["file"], row["variables"], row["clauses"], row["status"], row["hash"],
              row["count"])
