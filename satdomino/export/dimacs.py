"""DIMACS CNF text."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..encode import CNF
from ..errors import BackendError
from ..fileio import atomic_text, open_text


def dimacs_lines(cnf: CNF, comments: Iterable[str] = (),
                 extra: Iterable[list[int]] = ()) -> Iterator[str]:
    if cnf.atmosts:
        raise BackendError("DIMACS has no native cardinality constraints; "
                           "choose a clausal encoding")
    extra = list(extra)
    for line in comments:
        yield f"c {line}".rstrip() + "\n"
    yield f"p cnf {cnf.num_vars} {len(cnf.clauses) + len(extra)}\n"
    for clause in cnf.clauses:
        yield " ".join(map(str, clause)) + " 0\n"
    for clause in extra:
        yield " ".join(map(str, clause)) + " 0\n"


def to_dimacs(cnf: CNF, comments: Iterable[str] = (), extra: Iterable[list[int]] = ()) -> str:
    return "".join(dimacs_lines(cnf, comments, extra))


def clause_hash(cnf: CNF, extra: Iterable[list[int]] = ()) -> str:
    """sha256 of the clauses alone (literals joined by single spaces, each clause ended by 0,
    one per line): unchanged by comments, header, file name or compression."""
    h = hashlib.sha256()
    for clause in (*cnf.clauses, *extra):
        h.update((" ".join(map(str, clause)) + " 0\n").encode())
    return h.hexdigest()


def write_dimacs(path: str | Path, cnf: CNF, comments: Iterable[str] = (),
                 extra: Iterable[list[int]] = ()) -> None:
    """Write DIMACS to ``path``, compressed by its suffix (.xz, .gz, .bz2), atomically."""
    with atomic_text(path, compress=True) as f:
        f.writelines(dimacs_lines(cnf, comments, extra))


def read_dimacs(path: str | Path) -> tuple[int, list[list[int]]]:
    """(number of variables, clauses) of a possibly compressed DIMACS file."""
    nv, clauses, current = 0, [], []
    with open_text(path) as f:
        for line in f:
            if line.startswith("c") or not line.strip():
                continue
            if line.startswith("p"):
                nv = int(line.split()[2])
                continue
            for tok in line.split():
                lit = int(tok)
                if lit:
                    current.append(lit)
                else:
                    clauses.append(current)
                    current = []
    return nv, clauses
