"""What the commands share: the parser that fails in one line, messages, output files, and the
options of every command that writes a solver instance."""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from ..encode import KINDS, Encodings
from ..errors import SatDominoError, UsageError, VerificationError
from ..family import Family, Reading
from ..fileio import without_compression
from ..inputs import Item, load
from ..puzzles import FAMILIES
from ..ranges import TIMEOUT

KIND_HELP = {"amo": "at-most-one / exactly-one", "card": "cardinality", "pb": "pseudo-Boolean",
             "int": "integer-variable"}
OUT_OF_MEMORY = ("out of memory (the instance is too large for the memory allowed; "
                 "a smaller encoding or model may fit: see satdomino encodings)")


T = TypeVar("T")


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (not argparse's usage)
        raise UsageError(message)


def one_line(text: object) -> str:
    """A message on one line: names from files or the command line may hold newlines or
    other control characters, shown escaped."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in str(text))


def say(message: str) -> None:
    """A message for the user: one line on stderr, now."""
    print(one_line(message), file=sys.stderr, flush=True)


# exit statuses, the first that some puzzle had wins (the ``satdomino`` docstring): internal
# error, bad input, unknown (time or memory limit), no solution
PRECEDENCE = (4, 2, 3, 1)


def exit_status(codes: Iterable[int]) -> int:
    """A command's exit status from its puzzles' ones: 4 wins over 2, 2 over 3, 3 over 1."""
    found = set(codes)
    return next((code for code in PRECEDENCE if code in found), 0)


def attempt(item: Item, work: Callable[..., T], *args: Any,
            **kwargs: Any) -> tuple[T | None, int]:
    """(``work(*args, **kwargs)``, 0) for a puzzle that was read, else (None, the exit status
    of its failure), with why in ``item.error``: bad input, a time or memory limit, or an
    internal error."""
    code = 0
    try:
        if item.error is None and item.family is not None:
            return work(*args, **kwargs), 0
    except SatDominoError as e:
        item.error = str(e)
    except VerificationError as e:  # a bug or a lying solver: never shown as an answer
        item.error, code = f"internal error: {e}", 4
    except MemoryError:  # a limit (ulimit -v) reached: like a time limit, no answer
        item.error = OUT_OF_MEMORY
    return None, code or (3 if out_of_limits(item) else 2)


def out_of_limits(item: Item) -> bool:
    """A part with no answer for want of time or memory (not bad input: exit 3, not 2)."""
    return item.timed_out or item.error == OUT_OF_MEMORY


def error_record(item: Item) -> dict:
    """The JSON line of a part that could not be read or solved."""
    unknown = out_of_limits(item)
    return {"file": item.file, "puzzle": item.name,
            "kind": item.family.kind if item.family else None,
            "status": "unknown" if unknown else "error", "solution": None, "unique": None,
            "stats": None, ("reason" if unknown else "error"): item.error}


def kind_option(p: argparse.ArgumentParser) -> None:
    """--kind, one of the registered families."""
    p.add_argument("--kind", choices=list(FAMILIES),
                   help="the family, when detection from the content is not wanted")


def numbered(base: str, index: int, total: int, suffix: str = "") -> str:
    """``base`` for one output, else ``base-1.cnf.gz``, ``base-2.cnf.gz``, ...: the number goes
    before the suffixes of format and compression (``suffix`` when there is none)."""
    if total == 1:
        return base
    plain = without_compression(base)
    p = Path(plain)
    return str(p.with_name(f"{p.stem}-{index}{p.suffix or suffix}")) + base[len(plain):]


def timeout_option(p: argparse.ArgumentParser, help: str, default: float | None = None) -> None:
    """--timeout S, in the one range of every time limit (``ranges.TIMEOUT``)."""
    p.add_argument("--timeout", type=TIMEOUT.parse, default=default, metavar="S",
                   help=f"{help} (S {TIMEOUT.bounds()}; inf is refused"
                   + ("; no --timeout: no limit)" if default is None else ")"))


def encoding_options(p: argparse.ArgumentParser, what: str = "solve") -> None:
    """--amo, --card, --pb, --int: not given, auto picks (or, with a named backend, the
    plain default); export and generate write the plain defaults."""
    for kind, plain in Encodings().as_dict().items():
        p.add_argument(f"--{kind}", metavar="E", help=(
            f"{KIND_HELP[kind]} encoding (default: auto's pick; with a named --backend, "
            f"{plain})" if what == "solve" else
            f"{KIND_HELP[kind]} encoding (default {plain})"))


def rule_options(p: argparse.ArgumentParser, family: Family[Any, Any] | None = None) -> None:
    """The readings of the rules that some families have (only ``family``'s when given):
    ``--no-cover`` sets ``args.readings["cover"] = False``."""
    p.set_defaults(readings={})
    shown: dict[str, tuple[Reading, list[str]]] = {}  # by flag: the reading, the kinds with it
    for fam in [family] if family is not None else FAMILIES.values():
        for r in fam.readings:
            shown.setdefault(r.flag, (r, []))[1].append(fam.kind)
    for flag, (r, kinds) in shown.items():
        p.add_argument(flag, action=_SetReading, nargs=0, field=r.field, value=r.value,
                       help=("" if family else ", ".join(kinds) + ": ") + r.help)


def load_puzzles(files: list[str], args: argparse.Namespace,
                 timeout: float | None = None) -> list[Item]:
    """The puzzles of ``files`` (``--kind``, ``--puzzle``), each read under the readings of
    the rules asked on the command line (``args.readings``) where its family has them."""
    items = load(files, args.kind, args.puzzle, timeout=timeout,
                 notice=lambda message: say(f"satdomino: {message}"))  # a withdrawn part skipped
    for item in items:
        if item.error is None and item.family is not None:
            fields = {r.field for r in item.family.readings}
            wanted = {k: v for k, v in args.readings.items() if k in fields}
            if wanted:
                item.puzzle = dataclasses.replace(item.puzzle, **wanted)
    return items


class _SetReading(argparse.Action):
    """A reading's flag: ``args.readings[field] = value``."""

    def __init__(self, *args: Any, field: str, value: bool, **kwargs: Any) -> None:
        self.field, self.value = field, value
        super().__init__(*args, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        namespace.readings = {**namespace.readings, self.field: self.value}


def named_encodings(args: argparse.Namespace) -> dict[str, str]:
    """The encodings given on the command line."""
    return {kind: getattr(args, kind) for kind in KINDS if getattr(args, kind)}
