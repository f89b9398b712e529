"""DIMACS CNF text."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from ..encode import CNF
from ..errors import BackendError


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
