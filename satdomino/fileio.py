"""Atomic file writing: a file appears whole or not at all, with normal permissions."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from .errors import SatDominoError

OPENERS: dict[str, Callable[..., IO]] = {".xz": lzma.open, ".gz": gzip.open, ".bz2": bz2.open}


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def output_path(path: str | Path, what: str = "output") -> Path:
    """The real file to write for ``path`` (symlinks followed), or a clear error: an empty
    name, a missing folder, or something that is not a regular file (a folder, /dev/null)."""
    if not str(path):
        raise SatDominoError(f"{what}: empty file name")
    target = Path(path).resolve()
    if target.exists() and not target.is_file():
        raise SatDominoError(f"{what}: {path} exists and is not a regular file")
    if not target.parent.is_dir():
        raise SatDominoError(f"{what}: folder {Path(path).parent} does not exist")
    return target


@contextmanager
def atomic_text(path: str | Path, compress: bool = False) -> Iterator[IO[str]]:
    """Open a temporary file beside ``path`` for text; on success rename it over ``path``.
    With ``compress``, the suffix (.xz, .gz, .bz2) picks the compression."""
    target = output_path(path)
    opener = OPENERS.get(target.suffix, open) if compress else open
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise SatDominoError(f"cannot write {path}: {e.strerror or e}") from None
    os.close(fd)
    try:
        with opener(tmp, "wt") as f:
            yield f
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except OSError as e:
        Path(tmp).unlink(missing_ok=True)
        raise SatDominoError(f"cannot write {path}: {e.strerror or e}") from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def open_text(path: str | Path) -> IO[str]:
    """Read a possibly compressed text file (by suffix)."""
    return OPENERS.get(Path(path).suffix, open)(path, "rt")
