"""DIMACS CNF text."""

from __future__ import annotations

import hashlib
import lzma
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from pathlib import Path

from ..encode import CNF
from ..errors import BackendError, SatDominoError
from ..fileio import atomic_text, open_text


def dimacs_lines(cnf: CNF, comments: Iterable[str] = (),
                 extra: Iterable[list[int]] = (), show: Sequence[int] = ()) -> Iterator[str]:
    """DIMACS text in pieces of whole lines (up to 1,024 clauses each, so a writer can stop
    between them). ``show``: the projection, written after the header as the model counting
    competition's ``c p show v1 v2 ... 0`` line (a comment to a SAT solver)."""
    if cnf.atmosts:
        raise BackendError("DIMACS has no native cardinality constraints; "
                           "choose a clausal encoding")
    extra = list(extra)
    for line in comments:
        yield f"c {line}".rstrip() + "\n"
    yield f"p cnf {cnf.num_vars} {len(cnf.clauses) + len(extra)}\n"
    if show:
        yield "c p show " + " ".join(map(str, show)) + " 0\n"
    for clauses in (cnf.clauses, extra):
        for i in range(0, len(clauses), 1024):
            yield _clause_lines(clauses[i:i + 1024])


def _line_format(length: int) -> str:
    """"0\n", "%d 0\n", "%d %d 0\n", ...: the line of a clause of that length."""
    return "%d " * length + "0\n"


_LINES = [_line_format(k) for k in range(64)]


def _clause_lines(clauses: list[list[int]]) -> str:
    # one %-format over the whole piece formats every literal in C, faster than an f-string per
    # clause. Literals are ints (%d would print a float 2.7 as 2; nothing here makes one)
    try:
        form = "".join(map(_LINES.__getitem__, map(len, clauses)))
    except IndexError:  # a clause longer than the table
        form = "".join(map(_line_format, map(len, clauses)))
    return form % tuple(chain.from_iterable(clauses))


def to_dimacs(cnf: CNF, comments: Iterable[str] = (), extra: Iterable[list[int]] = ()) -> str:
    return "".join(dimacs_lines(cnf, comments, extra))


def gbd_hash(clauses: Iterable[Iterable[int]]) -> str:
    """The Global Benchmark Database instance hash: md5 of the clauses' literals, each clause
    ended by 0, all joined by single spaces. Comments, the header, line breaks and compression
    do not change it (gbdc's ``gbdhash`` gives the same string; the tests compare)."""
    h = hashlib.md5()
    sep = b""
    for clause in clauses:
        h.update(sep + " ".join([*map(str, clause), "0"]).encode())
        sep = b" "
    return h.hexdigest()


def gbd_hash_file(path: str | Path) -> str:
    """``gbd_hash`` of a DIMACS file as written, possibly compressed."""
    return gbd_hash(read_dimacs(path)[1])


def write_dimacs(path: str | Path, cnf: CNF, comments: Iterable[str] = (),
                 show: Sequence[int] = ()) -> None:
    """Write DIMACS to ``path``, compressed by its suffix (.xz, .gz, .bz2), atomically; with
    ``show`` (the projection), a ``c p show ... 0`` line after the header."""
    with atomic_text(path) as f:
        f.writelines(dimacs_lines(cnf, comments, show=show))


MAX_VARIABLE = 2**31 - 1  # DIMACS solvers keep literals in 32-bit signed ints


def read_dimacs(path: str | Path) -> tuple[int, list[list[int]]]:
    """(number of variables, clauses) of a possibly compressed DIMACS file; malformed input
    raises a one-line SatDominoError naming the line. A header's variable count bounds the
    literals (a variable beyond it is an error); without a header, the largest variable
    counts."""
    nv, clauses, current = 0, [], []
    header: int | None = None
    try:
        with open_text(path) as f:
            for number, line in enumerate(f, start=1):
                stripped = line.lstrip()
                if stripped.startswith("c") or not stripped:
                    continue
                try:
                    tokens = stripped.split()
                    if any(len(tok) > 11 for tok in tokens):  # beyond any 32-bit literal
                        raise ValueError
                    if stripped.startswith("p"):
                        _, kind, nv_text, _ = tokens
                        nv = int(nv_text)
                        if kind != "cnf" or header is not None or not 0 <= nv <= MAX_VARIABLE:
                            raise ValueError
                        header = nv
                        continue
                    lits = [int(tok) for tok in tokens]
                except ValueError:
                    raise SatDominoError(f"{path}, line {number}: not DIMACS CNF: "
                                         f"{line.strip()[:40]!r}") from None
                for lit in lits:
                    if lit:
                        current.append(lit)
                        if abs(lit) > nv:
                            if header is not None or abs(lit) > MAX_VARIABLE:
                                raise SatDominoError(
                                    f"{path}, line {number}: variable {abs(lit)} is beyond "
                                    + (f"the header's {header}" if header is not None
                                       else "32-bit literals"))
                            nv = abs(lit)
                    else:
                        clauses.append(current)
                        current = []
    except UnicodeDecodeError:
        raise SatDominoError(f"{path}: not a text file") from None
    except (OSError, EOFError, lzma.LZMAError) as e:  # missing file, broken compression
        raise SatDominoError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    if current:  # a last clause without its 0, as gbdc reads it
        clauses.append(current)
    return nv, clauses
