"""A built-in DRAT proof checker: verify UNSAT certificates (uniqueness proofs) without outside
tools, plus a thin wrapper around ``drat-trim`` when it is installed.

The checker works forward (every added lemma is checked, in proof order) with two watched
literals. Top-level (level-0) propagation is kept across lemmas; only the assignments made while
checking one lemma are undone. A lemma must be RUP, or failing that RAT on its first literal.

Soundness choices (the same as drat-trim's UNSAT modes): neither deleting a clause nor
*ignoring* a deletion can make a satisfiable formula look unsatisfiable (the database then still
holds only clauses known to preserve satisfiability). What must not happen is keeping a top-level
assignment whose reason clause is gone: later checks would use a literal the database no longer
implies. So deletions of unit clauses, of the reasons of top-level literals ("pseudo units") and
of clauses not in the database are ignored and counted. Ignored deletions can only make a RAT
check fail that would have passed (more candidate clauses), never a wrong proof pass.
"""

from __future__ import annotations

import itertools
import lzma
import os
import re
import shutil
import subprocess
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO

from ..clock import NEVER, Deadline, TimeUp
from ..errors import OutOfTimeError, SatDominoError
from ..export.dimacs import read_dimacs
from ..fileio import check_size, compression, opener
from ..render.text import counted

# the built-in checker keeps several arrays per variable: beyond this, its memory is the user's
# problem, not a side effect of a header
MAX_CHECKED_VARIABLES = 20_000_000

_TEXT_START = frozenset(b"0123456789-cd \t\r\n")
_CHUNK = 1 << 20
_READ_ERRORS = (OSError, EOFError, lzma.LZMAError, zlib.error)  # missing file, bad compression


@dataclass(frozen=True)
class ProofCheck:
    """The outcome of checking a DRAT proof. ``lemmas``, ``deletions`` and ``rat_lemmas`` count
    the steps actually checked (up to the conflict or the failure)."""

    ok: bool
    message: str
    lemmas: int
    deletions: int
    rat_lemmas: int
    ignored_deletions: int = 0  # of units, top-level reasons, or clauses not in the database
    steps: int = 0  # proof steps read; the check stops at the first top-level conflict
    seconds: float = 0.0


# ----------------------------------------------------------------------------- reading proofs


def _whole_clause(tokens: list[str]) -> list[int] | None:
    """The literals of tokens that are exactly one clause ending in its only 0, else None."""
    try:
        nums = list(map(int, tokens))
    except ValueError:
        return None
    return nums[:-1] if nums and nums[-1] == 0 and nums.count(0) == 1 else None


def parse_proof_lines(lines: Iterable[str | bytes], where: str = "proof"
                      ) -> Iterator[tuple[bool, list[int]]]:
    """(is_deletion, literals) from text DRAT lines such as ``"1 -2 0"`` and ``"d 1 -2 0"``
    (what ``pysat`` solvers' ``get_proof()`` returns). A clause may span lines, a line may hold
    several; a line starting with ``c`` between clauses is a comment."""
    clause: list[int] = []
    deletion = False
    number = 0
    for number, raw in enumerate(lines, start=1):
        tokens = (raw.decode("latin-1") if isinstance(raw, bytes) else raw).split()
        if not tokens:
            continue
        first = tokens[0]
        if not clause and not deletion:
            if first[0] == "c":
                continue
            # The common case, one whole clause (or deletion) on the line, in C-speed calls.
            is_deletion = first == "d"
            nums = _whole_clause(tokens[1:] if is_deletion else tokens)
            if nums is not None:
                yield is_deletion, nums
                continue
        for tok in tokens:  # anything else, token by token
            if tok == "d":
                if clause or deletion:
                    raise SatDominoError(f"{where}, line {number}: 'd' inside a clause")
                deletion = True
                continue
            if not re.fullmatch(r"[+-]?[0-9]{1,10}", tok):  # a literal fits in 32 bits
                raise SatDominoError(f"{where}, line {number}: {tok[:20]!r} is not a literal")
            lit = int(tok)
            if lit:
                clause.append(lit)
            else:
                yield deletion, clause
                clause, deletion = [], False
    if clause or deletion:
        raise SatDominoError(f"{where}, line {number}: the proof ends inside a clause (no 0)")


def _binary_steps(head: bytes, stream: IO[bytes], where: str
                  ) -> Iterator[tuple[bool, list[int]]]:
    """Binary DRAT: 'a' (97) or 'd' (100), then literals as little-endian base-128 varints of
    2*v (positive) or 2*v+1 (negative), then a 0."""
    offset = 0  # of the current byte in the whole (uncompressed) proof
    in_clause = deletion = False
    clause: list[int] = []
    value = shift = 0
    for chunk in itertools.chain([head], iter(partial(stream.read, _CHUNK), b"")):
        for byte in chunk:
            if not in_clause:
                if byte != 97 and byte != 100:
                    raise SatDominoError(f"{where}: binary DRAT byte {byte:#04x} at offset "
                                         f"{offset} is neither 'a' nor 'd'")
                deletion, in_clause = byte == 100, True
            elif byte < 128:
                value |= byte << shift
                if value == 0:
                    yield deletion, clause
                    clause, in_clause = [], False
                elif value == 1:
                    raise SatDominoError(f"{where}: binary DRAT literal -0 at offset {offset}")
                else:
                    clause.append(-(value >> 1) if value & 1 else value >> 1)
                value = shift = 0
            else:
                value |= (byte & 127) << shift
                shift += 7
                if shift > 35:
                    raise SatDominoError(f"{where}: binary DRAT literal too long at offset "
                                         f"{offset}")
            offset += 1
    if in_clause:
        raise SatDominoError(f"{where}: the binary proof ends inside a clause (offset {offset})")


def _text_lines(head: bytes, stream: IO[bytes]) -> Iterator[bytes]:
    *lines, rest = (head + stream.readline()).split(b"\n")
    yield from lines
    yield from stream  # nothing when ``rest`` is not empty: the stream ended there
    if rest:
        yield rest


def is_binary_proof(head: bytes) -> bool:
    """Guess the format from a proof's first bytes. Like drat-trim, a first byte that cannot
    start a text proof means binary; and since binary DRAT ends every clause with a 0 byte while
    text never holds one, a 0 byte anywhere in ``head`` means binary too."""
    return bool(head) and (head[0] not in _TEXT_START or 0 in head)


def read_proof(path: str | Path) -> Iterator[tuple[bool, list[int]]]:
    """The steps (is_deletion, literals) of a DRAT proof file, text or binary (detected from the
    first bytes), compressed or not (.gz, .xz, .bz2 by suffix). A proof of more than
    ``fileio.MAX_INPUT_BYTES`` (once decompressed) is refused here, before any step is read;
    malformed input raises a one-line SatDominoError saying where, as the steps are read."""
    check_size(path, "proof")
    return _proof_steps(str(path))


def _proof_steps(where: str) -> Iterator[tuple[bool, list[int]]]:
    try:
        with opener(where)(where, "rb") as stream:
            head = stream.read(_CHUNK)
            if head.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark: text, as elsewhere
                head = head[3:]
            elif is_binary_proof(head):
                if head[0] in b"ad":
                    yield from _binary_steps(head, stream, where)
                    return
                _text_or_neither(head, where)  # no binary step starts so
            yield from parse_proof_lines(_text_lines(head, stream), where)
    except _READ_ERRORS as e:
        raise SatDominoError(f"cannot read proof {where}: "
                             f"{getattr(e, 'strerror', None) or e}") from None


def _text_or_neither(head: bytes, where: str) -> None:
    """A proof whose first byte starts no binary DRAT step is read as text if its start
    reads so; else the error says it is neither, and where each reading fails."""
    try:
        list(parse_proof_lines(head.split(b"\n")[:-1] or [head], where))
    except SatDominoError as e:
        text = str(e).removeprefix(f"{where}, ")
        raise SatDominoError(f"{where}: neither text DRAT ({text}) nor binary DRAT (byte "
                             f"{head[0]:#04x} at offset 0 starts no step: 'a' or 'd' "
                             "does)") from None


# ----------------------------------------------------------------------------- the checker


class _Checker:
    """Clause database with a persistent top-level trail.

    Per-literal arrays are plain lists indexed by the literal itself: with length 2*cap+1,
    ``a[-v]`` wraps to the upper half, so no index arithmetic happens on the hot path.
    Binary clauses live in implication lists (``bins[a]`` holds b for each clause a | b: when a
    turns false, b is implied); they are most of an encoded puzzle and the cheapest to propagate.
    Longer clauses are lists whose first two literals are watched; a deleted one is emptied in
    place and dropped lazily from watch lists. ``reason`` holds, per true literal, the clause list
    that implied it, or for a binary clause its other literal.
    """

    def __init__(self, num_vars: int) -> None:
        self.cap = max(num_vars, 16)
        size = 2 * self.cap + 1
        self.val: list[int] = [0] * size  # 1 true, -1 false, 0 unassigned
        self.reason: list[list[int] | int | None] = [None] * size
        self.bins: list[list[int]] = [[] for _ in range(size)]
        self.watches: list[list[list[int]]] = [[] for _ in range(size)]
        self.trail: list[int] = []
        self.qhead = 0
        self.db: dict[tuple[int, ...], list[list[int]]] = {}
        self.clauses: list[list[int]] = []  # every live clause
        self.occ: dict[int, list[list[int]]] | None = None  # literal -> clauses: RAT candidates
        self.dead = 0
        self.conflict = False  # top level

    def grow(self, var: int) -> None:
        old, cap = self.cap, max(var, 2 * self.cap)
        size = 2 * cap + 1

        def moved(a: list, fill: Callable[[], object]) -> list:
            b = [fill() for _ in range(size)] if fill is list else [fill()] * size
            b[1:old + 1] = a[1:old + 1]
            b[size - old:] = a[len(a) - old:]
            return b

        self.val = moved(self.val, int)
        self.reason = moved(self.reason, type(None))
        self.bins = moved(self.bins, list)
        self.watches = moved(self.watches, list)
        self.cap = cap

    def propagate(self) -> bool:
        """Unit propagation from ``qhead``; True on conflict. Each literal's binary implications
        go before its long watches (closing all binaries first is slower on large encodings)."""
        val, bins, watches, trail, reason = (self.val, self.bins, self.watches, self.trail,
                                             self.reason)
        q = self.qhead
        while q < len(trail):
            false_lit = -trail[q]
            q += 1
            for other in bins[false_lit]:
                v = val[other]
                if v != 1:
                    if v:
                        self.qhead = q
                        return True
                    val[other] = 1
                    val[-other] = -1
                    reason[other] = false_lit
                    trail.append(other)
            ws = watches[false_lit]
            if not ws:
                continue
            keep: list[list[int]] = []  # rebuilt: cheaper than compacting in place
            push = keep.append
            for i, c in enumerate(ws):
                if not c:  # deleted
                    continue
                pos = 0 if c[0] == false_lit else 1  # where false_lit is watched
                other = c[1 - pos]
                if val[other] == 1:
                    push(c)
                    continue
                for k in range(2, len(c)):
                    lit = c[k]
                    if val[lit] != -1:
                        c[pos], c[k] = lit, false_lit
                        watches[lit].append(c)
                        break
                else:
                    push(c)
                    if val[other] == -1:
                        keep.extend(ws[i + 1:])
                        watches[false_lit] = keep
                        self.qhead = q
                        return True
                    if pos == 0:  # the implied literal goes first (see ``delete``)
                        c[0], c[1] = other, false_lit
                    val[other] = 1
                    val[-other] = -1
                    reason[other] = c
                    trail.append(other)
            watches[false_lit] = keep
        self.qhead = q
        return False

    def assume_negation(self, lits: Iterable[int], skip: int = 0) -> bool:
        """Assert the negation of ``lits`` (except ``skip``) and propagate; True on conflict."""
        val, trail = self.val, self.trail
        for lit in lits:
            v = val[lit]
            if v == 1:
                if lit != skip:
                    return True
            elif v == 0 and lit != skip:
                val[lit] = -1
                val[-lit] = 1
                trail.append(-lit)
        return self.propagate()

    def undo(self, mark: int) -> None:
        val, trail = self.val, self.trail
        for lit in trail[mark:]:
            val[lit] = 0
            val[-lit] = 0
        del trail[mark:]
        self.qhead = mark

    def rat(self, lemma: list[int]) -> bool:
        """With the lemma's negation asserted (no conflict): is every resolvent on its first
        literal with a database clause RUP?"""
        neg = -lemma[0]
        if self.occ is None:  # built at the first RAT check: most proofs never need it
            self.occ = {}
            for c in self.clauses:
                for lit in c:
                    self.occ.setdefault(lit, []).append(c)
        candidates = self.occ.get(neg, [])
        live = [c for c in candidates if c]  # deleted clauses are empty
        if len(live) < len(candidates):
            self.occ[neg] = live
        trail = self.trail
        for c in live:
            mark = len(trail)
            conflict = self.assume_negation(c, skip=neg)
            self.undo(mark)
            if not conflict:
                return False
        return True

    def add(self, lits: list[int]) -> None:
        """Add a clause (distinct literals, at least one) at top level; the caller
        propagates."""
        val = self.val
        c = list(lits)
        self.db.setdefault(tuple(sorted(c)), []).append(c)
        self.clauses.append(c)
        if self.occ is not None:
            for lit in c:
                self.occ.setdefault(lit, []).append(c)
        if len(c) == 2:
            self.bins[c[0]].append(c[1])
            self.bins[c[1]].append(c[0])
        # Watch a true literal (it stays true: the top level is never undone), else two
        # non-false ones; a single non-false literal is a new top-level unit.
        picked: list[int] = []
        for i, lit in enumerate(c):
            v = val[lit]
            if v == 1:
                picked = [i]
                break
            if v == 0:
                picked.append(i)
                if len(picked) == 2:
                    break
        if not picked:  # every literal false at top level
            self.conflict = True
            return
        first = picked[0]
        reason = c[1 - first] if len(c) == 2 else c  # a binary clause's: its other literal
        if len(c) > 2:  # watched
            # alone, it is watched with the old c[0], which the swap moves to ``first``
            second = picked[1] if len(picked) == 2 else first or 1
            c[0], c[first] = c[first], c[0]
            c[1], c[second] = c[second], c[1]
            self.watches[c[0]].append(c)
            self.watches[c[1]].append(c)
            first = 0
        if len(picked) == 1 and val[c[first]] == 0:
            self._assign(c[first], reason)

    def _assign(self, lit: int, reason: list[int] | int) -> None:
        self.val[lit] = 1
        self.val[-lit] = -1
        self.reason[lit] = reason
        self.trail.append(lit)

    def delete(self, lits: list[int]) -> bool:
        """Remove one copy of the clause; False when the deletion is ignored (absent clause,
        unit, or the reason of a top-level literal)."""
        key = tuple(sorted(set(lits)))
        copies = self.db.get(key)
        if not copies:
            return False
        val, reason = self.val, self.reason
        victim = next((n for n, c in enumerate(copies)
                       if len(c) > 2 and not (val[c[0]] == 1 and reason[c[0]] is c)
                       or len(c) == 2 and not (val[c[0]] == 1 and reason[c[0]] == c[1]
                                               or val[c[1]] == 1 and reason[c[1]] == c[0])),
                      None)
        if victim is None:
            return False
        c = copies.pop(victim)
        if len(c) == 2:
            self.bins[c[0]].remove(c[1])
            self.bins[c[1]].remove(c[0])
        if not copies:
            del self.db[key]
        c.clear()
        self.dead += 1
        if self.dead > 1000 and 2 * self.dead > len(self.clauses):
            self.clauses = [c for c in self.clauses if c]
            self.dead = 0
        return True


def _show(lits: list[int]) -> str:
    text = " ".join(map(str, lits[:12]))
    return f"{text} ... ({len(lits)} literals) 0" if len(lits) > 12 else f"{text} 0"


def _clean(lits: list[int]) -> list[int]:
    """Literals without repeats, first occurrences kept in order (the first is the RAT pivot)."""
    return list(dict.fromkeys(lits)) if len(set(lits)) != len(lits) else lits


def check_drat(num_vars: int, clauses: list[list[int]],
               proof: Iterable[tuple[bool, list[int]]],
               deadline: Deadline = NEVER) -> ProofCheck:
    """Check a DRAT refutation of ``clauses`` forward. ``proof`` gives (is_deletion, literals)
    steps as :func:`read_proof` yields them. Past the ``deadline``, OutOfTimeError; malformed
    steps in ``proof`` raise SatDominoError."""
    if num_vars > MAX_CHECKED_VARIABLES:
        raise SatDominoError(f"the formula has {num_vars:,} variables; the built-in checker "
                             f"takes at most {MAX_CHECKED_VARIABLES:,} (use drat-trim)")
    check = _Check(num_vars)
    try:  # a long Python loop: the deadline stops it
        with deadline.interrupting():
            refuted = check.formula(clauses)
            return check.result(True, refuted, _read_through(proof)) if refuted \
                else check.steps(proof)
    except TimeUp:
        raise OutOfTimeError(f"proof check ran out of time after {check.lemmas} lemma(s) "
                             f"({time.monotonic() - check.start:.1f} s)") from None


class _Check:
    """One forward check: the checker, what has been counted, the clock."""

    def __init__(self, num_vars: int) -> None:
        self.start = time.monotonic()
        self.lemmas = self.deletions = self.rat_lemmas = self.ignored = self.step = 0
        self.checker = _Checker(num_vars)
        self.base = self.checker.cap  # variables up to here are the checker's own numbers
        self.fresh: dict[int, int] = {}  # a proof's variable beyond them -> the checker's

    def result(self, ok: bool, message: str, after: str = "") -> ProofCheck:
        if self.ignored:
            message += (f" ({self.ignored} deletion(s) of units, reasons or absent clauses "
                        "ignored)")
        return ProofCheck(ok, message + after, self.lemmas, self.deletions, self.rat_lemmas,
                          self.ignored, self.step, time.monotonic() - self.start)

    def renamed(self, lits: list[int], adding: bool = True) -> list[int]:
        """``lits`` in the checker's numbers: a proof may name new variables (extended
        resolution) anywhere, and they are numbered on from the formula's in the order they
        come, so the checker's arrays grow with the variables used, not with their names. Not
        ``adding`` (a deletion), a variable no clause has gives [] (no clause is empty)."""
        base = self.base
        if not lits or max(lits) <= base and -min(lits) <= base:
            return lits
        fresh = self.fresh
        out = []
        for lit in lits:
            var = abs(lit)
            if var > base:
                if var not in fresh:
                    if not adding:
                        return []
                    fresh[var] = base + len(fresh) + 1
                var = fresh[var]
            out.append(var if lit > 0 else -var)
        if base + len(fresh) > self.checker.cap:
            self.checker.grow(base + len(fresh))
        return out

    def formula(self, clauses: list[list[int]]) -> str:
        """Load the formula; the verdict when it refutes itself (else "")."""
        checker = self.checker
        for number, clause in enumerate(clauses, start=1):
            if not clause:
                return "VERIFIED: the formula contains the empty clause"
            if 0 in clause:
                raise SatDominoError(f"formula clause {number} contains the literal 0")
            lits = self.renamed(_clean(clause))
            if len(set(map(abs, lits))) != len(lits):
                continue  # a tautology constrains nothing
            checker.add(lits)
            if checker.conflict:
                break
        if checker.conflict or checker.propagate():
            return "VERIFIED: the formula is refuted by unit propagation alone"
        return ""

    def steps(self, proof: Iterable[tuple[bool, list[int]]]) -> ProofCheck:
        checker = self.checker
        for self.step, (is_deletion, raw) in enumerate(proof, start=1):
            if is_deletion:
                self.deletions += 1
                self.ignored += not checker.delete(self.renamed(raw, adding=False))
                continue
            self.lemmas += 1
            if not raw:  # the top level propagates without conflict: it is not RUP
                return self.result(False, f"NOT VERIFIED: the empty clause at proof step "
                                   f"{self.step} (lemma {self.lemmas}) does not follow by "
                                   "unit propagation")
            if 0 in raw:
                raise SatDominoError(f"proof step {self.step} contains the literal 0")
            lits = self.renamed(_clean(raw))
            # RUP, or else RAT on its first literal (its negation still asserted)?
            mark = len(checker.trail)
            rup = checker.assume_negation(lits)
            is_rat = not rup and checker.rat(lits)
            checker.undo(mark)
            self.rat_lemmas += is_rat
            if not rup and not is_rat:
                return self.result(False, f"NOT VERIFIED: lemma {self.lemmas} (proof step "
                                   f"{self.step}) is neither RUP nor RAT on its first "
                                   f"literal: {_show(raw)}")
            checker.add(lits)
            if checker.conflict or checker.propagate():
                return self.result(True, f"VERIFIED: conflict at top level after lemma "
                                   f"{self.lemmas} (proof step {self.step})",
                                   _read_through(proof, "after it "))
        return self.result(False, f"NOT VERIFIED: the proof ({self.step} steps) ends without "
                           "deriving the empty clause")


def _read_through(proof: Iterable[tuple[bool, list[int]]], which: str = "") -> str:
    """The proof is not needed when the formula refutes itself, nor after the step that
    refutes it, but a file that is not a proof (malformed: parsing raises) is not passed as
    one: its rest is read through."""
    steps = sum(1 for _ in proof)
    verb = "is" if steps == 1 else "are"
    return f" (the proof's {counted(steps, 'step')} {which}{verb} not needed)" if steps else ""


def check_drat_files(cnf_path: str | Path, proof_path: str | Path,
                     deadline: Deadline = NEVER) -> ProofCheck:
    """:func:`check_drat` on a DIMACS file and a proof file (both possibly compressed); the
    ``deadline`` covers reading the formula too."""
    proof = read_proof(proof_path)  # its size checked before the formula is read
    try:
        with deadline.interrupting():
            num_vars, clauses = read_dimacs(cnf_path)
    except TimeUp:
        raise OutOfTimeError("proof check ran out of time reading the formula") from None
    return check_drat(num_vars, clauses, proof, deadline)


# ----------------------------------------------------------------------------- drat-trim


def _plain_copy(path: Path, folder: str) -> Path:
    """drat-trim reads neither compressed formulas nor compressed proofs: decompress to a
    temporary file when the suffix says so."""
    if compression(path) is None:
        return path
    target = Path(folder) / path.stem
    try:
        with opener(path)(path, "rb") as src, open(target, "wb") as dst:
            shutil.copyfileobj(src, dst, _CHUNK)
    except _READ_ERRORS as e:
        raise SatDominoError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
    return target


def drat_trim(cnf_path: str | Path, proof_path: str | Path,
              timeout: float | None = None) -> ProofCheck | None:
    """Check with the ``drat-trim`` binary if it is on PATH (None if not)."""
    exe = shutil.which("drat-trim")
    if exe is None:
        return None
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="satdomino-drat-") as folder:
        command = [exe, *(os.fspath(_plain_copy(Path(p), folder)) for p in (cnf_path, proof_path))]
        if timeout is not None:
            command += ["-t", str(max(1, int(timeout + 0.999)))]
        try:
            run = subprocess.run(command, capture_output=True, text=True, errors="replace",
                                 timeout=None if timeout is None else timeout + 5)
        except subprocess.TimeoutExpired:
            raise OutOfTimeError(f"proof check ran out of time: drat-trim took over "
                                 f"{timeout} s") from None
        except OSError as e:
            raise SatDominoError(f"cannot run drat-trim: {e.strerror or e}") from None
    lines = [line.strip(" ") for line in run.stdout.splitlines() if line.strip(" ")]
    status = next((line[2:].strip() for line in lines if line.startswith("s ")), None)
    seconds = time.monotonic() - start

    def number(pattern: str) -> int:  # in the last line it matches
        found = [int(m.group(1)) for m in map(re.compile(pattern).match, lines) if m]
        return found[-1] if found else 0

    lemmas = number(r"c \d+ of (\d+) lemmas in core")
    rat = number(r"c (\d+) RAT lemmas in core")
    if status == "TIMEOUT":
        raise OutOfTimeError(f"proof check ran out of time: drat-trim stopped after {timeout} s")
    if status == "DERIVATION":  # every lemma checked, but no empty clause
        return ProofCheck(False, "drat-trim: DERIVATION (no empty clause derived)", lemmas, 0,
                          rat, seconds=seconds)
    if status not in ("VERIFIED", "NOT VERIFIED"):
        last = (lines or run.stderr.strip().splitlines() or ["no output"])[-1]
        raise SatDominoError(f"drat-trim gave no verdict (exit {run.returncode}): {last[:120]}")
    detail = next((line[2:] for line in reversed(lines)
                   if line.startswith("c ") and ("fail" in line or "ERROR" in line)), "")
    message = f"drat-trim: {status}" + (f" ({detail})" if detail and status != "VERIFIED" else "")
    return ProofCheck(status == "VERIFIED", message, lemmas, 0, rat, seconds=seconds)
