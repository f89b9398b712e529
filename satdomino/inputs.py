"""Reading puzzles: files (compressed by suffix), folders, standard input, or a puzzle written
as an argument (a Tatham game id). What ``satdomino.read`` and every command use."""

from __future__ import annotations

import gzip
import lzma
import os
import select
import sys
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .clock import NEVER, Deadline, TimeUp
from .errors import PuzzleFormatError, SatDominoError
from .family import Family, Skipped
from .fileio import MAX_INPUT_BYTES, compression, opener, too_large
from .puzzles import FAMILIES, detect, family


@dataclass
class Item:
    """One part of an input: a puzzle, or why it could not be read."""

    file: str  # the path as given, "-" for standard input, or the puzzle text itself
    name: str | None  # the part of a multi-puzzle file (JSON lines name, NYT easy/medium/hard)
    family: Family[Any, Any] | None
    puzzle: Any = None  # the family's puzzle object
    error: str | None = None
    text: str | None = None  # the whole input text (an exported DIMACS map embeds it)
    timed_out: bool = False  # reading and parsing it took longer than the time limit
    read_seconds: float = 0.0  # its share of the time its input took to read and parse

    @property
    def where(self) -> str:
        """The input as messages name it: the file, then the part's name in brackets."""
        return self.file + (f" [{self.name}]" if self.name else "")

    def deadline(self, timeout: float | None) -> Deadline:
        """What is left now of this puzzle's ``timeout`` seconds, its reading counted in: one
        budget per puzzle, from before its input was read."""
        return Deadline.after(None if timeout is None else timeout - self.read_seconds)


def read_text(path: str, deadline: Deadline = NEVER) -> str:
    """The text of a file (decompressed by suffix) or of standard input ("-"); binary or
    non-UTF-8 data, or more than MAX_INPUT_BYTES, is an error; a byte-order mark is dropped.
    Standard input that sends nothing is given up at the ``deadline`` (TimeUp)."""
    data = _stdin_by(deadline) if path == "-" and deadline.at is not None else _read_bytes(path)
    if len(data) > MAX_INPUT_BYTES:
        raise SatDominoError(f"{too_large(path)} (no puzzle is that large)")
    if b"\0" in data:
        raise SatDominoError("not a text file (binary data)")
    try:
        return data.decode("utf-8-sig")  # a byte-order mark is not part of the puzzle
    except UnicodeDecodeError:
        raise SatDominoError("not a text file (not UTF-8)") from None


def _stdin_by(deadline: Deadline) -> bytes:
    """Standard input, read while it has something to read before the deadline: a blocked
    read would look at no clock."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):  # not a file (replaced, in tests): read it
        return _read_bytes("-")
    chunks, size = [], 0
    while size <= MAX_INPUT_BYTES:
        ready, _, _ = select.select([fd], [], [], deadline.left())
        if not ready:
            raise TimeUp
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _read_bytes(path: str) -> bytes:
    if path == "-":
        try:
            return sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        except (AttributeError, ValueError, OSError):  # closed, or not a file (``<&-``)
            raise SatDominoError("standard input cannot be read") from None
    if "\0" in path:  # open() would raise ValueError
        raise SatDominoError("no such file (a null byte in the name)")
    try:
        with opener(path)(path, "rb") as f:  # compressed by suffix, or plain
            return f.read(MAX_INPUT_BYTES + 1)
    except EOFError:
        raise SatDominoError(f"{compression(path)} data cut short (the file ends too soon)") \
            from None
    except (lzma.LZMAError, zlib.error, gzip.BadGzipFile):
        raise SatDominoError(f"not {compression(path)}-compressed data") from None
    except OSError as e:
        if e.errno is None and compression(path):  # bz2's "Invalid data stream"
            raise SatDominoError(f"not {compression(path)}-compressed data") from None
        # the two that inputs meet most, in short words ("no such file" also tells
        # ``_load_one`` to try the argument as a puzzle written out)
        said = {FileNotFoundError: "no such file", IsADirectoryError: "is a directory"}
        raise SatDominoError(said.get(type(e)) or e.strerror or str(e)) from None


def expand(paths: list[str], kind: str | None) -> Iterator[tuple[str, str | None]]:
    """(path, error) for every file to read; a folder is searched for its families' files
    (hidden ones skipped), and one without any is an error."""
    suffixes = {s for f in FAMILIES.values() if kind in (None, f.kind) for s in f.suffixes}
    for path in paths:
        if path != "-" and os.path.isdir(path):
            root = Path(path)
            found = sorted(str(p) for p in root.rglob("*")
                           if p.is_file() and p.suffix.lower() in suffixes
                           and not any(n.startswith(".") for n in p.relative_to(root).parts))
            if not found:
                looked = ", ".join(sorted(suffixes))
                yield path, f"no puzzle files in this folder (looked for {looked})"
            for p in found:
                yield p, None
        else:
            yield path, None


def as_puzzle_text(argument: str, kind: str | None) -> str | None:
    """``argument`` itself when it is no file but reads as a puzzle (a Tatham game id such as
    ``2:221200101201``), else None."""
    if argument == "-" or os.path.lexists(argument) or "\n" in argument.strip():
        return None
    try:
        (family(kind) if kind else detect(argument))
    except SatDominoError:
        return None
    return argument


def parse_items(source: str, text: str, kind: str | None, puzzle: str | None = None,
                notice: Callable[[str], None] | None = None) -> list[Item]:
    """Every part of one input text as an Item; ``puzzle`` keeps only the part of that
    name. Withdrawn parts (NYT null puzzles) are skipped, each with a ``notice``."""
    fam = None
    try:
        fam = family(kind) if kind else detect(text)
        parts = fam.parse(text)
        if puzzle is not None:
            names = [str(name) for name, _ in parts if name is not None]
            parts = [(name, part) for name, part in parts if name == puzzle]
            if not parts:
                held = (f"there are: {', '.join(names)}" if names
                        else "it holds one unnamed puzzle")
                raise SatDominoError(f"no puzzle named {puzzle!r} here ({held})")
        items = []
        for name, part in parts:
            if isinstance(part, Skipped):
                if notice is not None:
                    notice(f"{Item(source, name, fam).where}: skipped: {part.reason}")
            elif isinstance(part, SatDominoError):
                items.append(Item(source, name, fam, error=str(part), text=text))
            else:
                items.append(Item(source, name, fam, part, text=text))
        if not items and parts:  # every part withdrawn: nothing to solve is not an answer
            raise PuzzleFormatError(f"the puzzle named {puzzle!r} is withdrawn" if puzzle
                                    else "no puzzle to solve here (every one is withdrawn)")
        return items
    except SatDominoError as e:
        return [Item(source, None, fam, error=str(e), text=text)]


def load(paths: list[str], kind: str | None = None, puzzle: str | None = None,
         notice: Callable[[str], None] | None = None,
         timeout: float | None = None) -> list[Item]:
    """Every puzzle in ``paths`` (files, folders, "-", or puzzles written out), each part
    parsed on its own: a part that cannot be read is an Item with an ``error``, and the rest
    go on. ``timeout``: seconds for reading and parsing each input; each part's share of that
    time is its ``read_seconds``, counted in its own time limit (``Item.deadline``)."""
    items: list[Item] = []
    for path, problem in expand(paths, kind):
        if problem:
            items.append(Item(path, None, None, error=problem))
            continue
        start = time.monotonic()
        try:
            limit = Deadline.after(timeout)
            with limit.interrupting():
                parts = _load_one(path, kind, puzzle, notice, limit)
        except TimeUp:
            parts = [Item(path, None, None, error="time limit, while reading and parsing",
                          timed_out=True)]
        share = (time.monotonic() - start) / max(1, len(parts))
        for part in parts:
            part.read_seconds = share
        items.extend(parts)
    return items


def _load_one(path: str, kind: str | None, puzzle: str | None,
              notice: Callable[[str], None] | None, deadline: Deadline) -> list[Item]:
    try:
        text = read_text(path, deadline)
    except SatDominoError as e:
        written = as_puzzle_text(path, kind) if str(e) == "no such file" else None
        if written is None:
            return [Item(path, None, None, error=str(e))]
        text = written
    return parse_items(path, text, kind, puzzle, notice)
