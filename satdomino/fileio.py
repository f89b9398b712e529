"""Files: writing outputs one way for every command and the library (a file appears whole or
not at all, with normal permissions, compressed by its suffix; ``-`` is standard output), and
the bounds on what is read (its size, JSON's nesting)."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import sys
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .errors import PuzzleFormatError, SatDominoError, UsageError

STDOUT = "-"  # as an output name: standard output
# the most an input may hold (after decompression): far beyond any puzzle, solver answer or
# proof a solver could take, and a bound on what reading ``/dev/zero`` or a compression bomb costs
MAX_INPUT_BYTES = 64 * 2**20
# no format read here nests JSON more than a few levels; deeper is refused before any code
# recurses over it (repr, comparison) and runs out of stack
MAX_JSON_DEPTH = 100


def _gzip_open(path: str | Path, mode: str = "rb") -> IO[Any]:
    if "w" not in mode:
        return gzip.open(path, mode)  # type: ignore[return-value]
    # no file name or time in the header: the same content gives the same bytes
    raw = gzip.GzipFile(filename="", mode="wb", fileobj=open(path, "wb"), mtime=0)  # noqa: SIM115
    raw.myfileobj = raw.fileobj  # type: ignore[assignment]  # closed with the GzipFile
    return io.TextIOWrapper(raw, encoding="utf-8") if "t" in mode else raw  # type: ignore


def _lzma_alone(path: str | Path, mode: str = "rb") -> IO:
    return lzma.open(path, mode, format=lzma.FORMAT_ALONE if "w" in mode else lzma.FORMAT_AUTO)


OPENERS: dict[str, Callable[..., IO]] = {".xz": lzma.open, ".gz": _gzip_open, ".bz2": bz2.open,
                                         ".lzma": _lzma_alone}
# compressions seen in the field that Python's standard library cannot write or read
_UNSUPPORTED = (".zst", ".zstd", ".lz4", ".z", ".zip", ".7z", ".br", ".lz")


def compression(path: str | Path) -> str | None:
    """The compression suffix of ``path`` (``.gz``, ``.bz2``, ``.xz``, ``.lzma``, any case), or
    None; a compression Python cannot handle is a one-line error, not a file written plain."""
    suffix = Path(path).suffix.lower()
    if suffix in OPENERS:
        return suffix
    if suffix in _UNSUPPORTED:
        raise SatDominoError(f"{path}: {suffix} compression is not supported "
                             f"(use {', '.join(OPENERS)})")
    return None


def without_compression(path: str | Path) -> str:
    """``path`` without its compression suffix: what names its format."""
    return str(path)[:-len(Path(path).suffix)] if compression(path) else str(path)


def opener(path: str | Path) -> Callable[..., IO]:
    """``open``, or the opener of the compression the suffix names."""
    suffix = compression(path)
    return OPENERS[suffix] if suffix else open


def output_path(path: str | Path, what: str = "output") -> Path:
    """The real file to write for ``path`` (symlinks followed), or a clear error: an empty
    name, ``-`` (standard output: a caller that can write there checks for it first), a
    missing folder, something that is not a regular file (a folder, /dev/null), or a
    compression Python cannot write."""
    if not isinstance(path, str | Path):
        raise TypeError(f"{what}: a file name must be a str or a Path, not {path!r}")
    if not str(path):
        raise SatDominoError(f"{what}: empty file name")
    if str(path) == STDOUT:
        raise UsageError(f"{what}: - (standard output) cannot be written here; name a file")
    compression(path)
    target = Path(path).resolve()
    if target.exists() and not target.is_file():
        raise SatDominoError(f"{what}: {path} exists and is not a regular file")
    if not target.parent.is_dir():
        raise SatDominoError(f"{what}: folder {Path(path).parent} does not exist")
    return target


def apart(inputs: list[str], outputs: dict[str, str | None]) -> None:
    """Refuse an output (flag -> path) that is one of the input files or another output:
    it would be overwritten."""
    seen: dict[str, str] = {os.path.realpath(f): "an input" for f in inputs
                            if f != STDOUT and os.path.exists(f)}
    for flag, path in outputs.items():
        if path is None or path == STDOUT:
            continue
        real = os.path.realpath(path)
        if real in seen:
            raise UsageError(f"{flag} {path} is also {seen[real]}: name another file")
        seen[real] = flag


@contextmanager
def atomic_text(path: str | Path, mode: str = "wt") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path`` for text (``mode`` "wb": bytes), compressed as
    its suffix says (.gz, .bz2, .xz, .lzma); on success rename it over ``path``. ``-``:
    standard output."""
    if str(path) == STDOUT:
        yield sys.stdout if mode == "wt" else sys.stdout.buffer
        sys.stdout.flush()
        return
    target = output_path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise SatDominoError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    try:
        with opener(path)(tmp, mode) as f:
            yield f
        mask = os.umask(0)  # read only by setting it: mkstemp's file is private
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, target)
    except BaseException as e:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(e, OSError):
            raise SatDominoError(f"cannot write {path}: {e.strerror or e}") from None
        raise


def write_atomic(path: str | Path, content: str | bytes) -> None:
    """Write ``content`` (text or bytes) to ``path`` as ``atomic_text`` does."""
    with atomic_text(path, "wb" if isinstance(content, bytes) else "wt") as f:
        f.write(content)


def open_text(path: str | Path) -> IO[str]:
    """Read a possibly compressed text file (by suffix)."""
    return opener(path)(path, "rt")


def too_large(path: str | Path) -> str:
    """What a file of more than MAX_INPUT_BYTES (once decompressed) is told."""
    return (f"larger than {MAX_INPUT_BYTES // 2**20} MiB"
            + (" once decompressed" if path != "-" and compression(path) else "")
            + ": not read")


def check_size(path: str | Path, what: str = "file") -> None:
    """A one-line error naming ``path`` (a ``what``) when it holds more than MAX_INPUT_BYTES
    (a compressed file's size is counted as it decompresses, up to that bound only), or cannot
    be read: before it is worked on."""
    try:
        if compression(path) is None:
            size = os.stat(path).st_size
        else:
            size = 0
            with opener(path)(path, "rb") as f:
                while size <= MAX_INPUT_BYTES and (chunk := f.read(1 << 20)):
                    size += len(chunk)
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as e:
        raise SatDominoError(f"cannot read {what} {path}: "
                             f"{getattr(e, 'strerror', None) or e}") from None
    if size > MAX_INPUT_BYTES:
        raise SatDominoError(f"{path}: {too_large(path)}")


def load_json(text: str, line: int | None = None) -> Any:
    """Parsed JSON, or one PuzzleFormatError: where a syntax error is ("line 3, column 7:
    not JSON: expecting ',' delimiter"), a number too long, or nesting deeper than
    MAX_JSON_DEPTH. ``line``: the line of its file that ``text`` starts on (a JSON line's),
    named in every error."""
    at = f"line {line}: " if line is not None else ""
    deep = PuzzleFormatError(f"{at}JSON nested more than {MAX_JSON_DEPTH} deep: not read")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PuzzleFormatError(f"line {e.lineno + (line or 1) - 1}, column {e.colno}: not "
                                f"JSON: {e.msg[:1].lower()}{e.msg[1:]}") from None
    except ValueError:  # int() of more digits than Python converts
        raise PuzzleFormatError(f"{at}not JSON that can be read: a number with too many "
                                "digits") from None
    except RecursionError:
        raise deep from None
    if _deeper(data, MAX_JSON_DEPTH):
        raise deep
    return data


def _deeper(value: Any, limit: int) -> bool:
    """Does ``value`` nest lists and objects more than ``limit`` deep? Level by level, without
    recursion: a deep value must not exhaust the stack here either."""
    level = [value] if isinstance(value, (list, dict)) else []
    for _ in range(limit):
        level = [x for c in level for x in (c.values() if isinstance(c, dict) else c)
                 if isinstance(x, (list, dict))]
        if not level:
            return False
    return True
