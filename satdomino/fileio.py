"""Writing output files, one way for every command and the library: a file appears whole or
not at all, with normal permissions, compressed by its suffix; ``-`` is standard output."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .errors import SatDominoError, UsageError

STDOUT = "-"  # as an output name: standard output


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
def atomic_text(path: str | Path) -> Iterator[IO[str]]:
    """Open a temporary file beside ``path`` for text, compressed as its suffix says (.gz,
    .bz2, .xz, .lzma); on success rename it over ``path``. ``-``: standard output."""
    if str(path) == STDOUT:
        yield sys.stdout
        sys.stdout.flush()
        return
    target = output_path(path)
    open_tmp = opener(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise SatDominoError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    try:
        with open_tmp(tmp, "wt") as f:
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


def open_text(path: str | Path) -> IO[str]:
    """Read a possibly compressed text file (by suffix)."""
    return opener(path)(path, "rt")
