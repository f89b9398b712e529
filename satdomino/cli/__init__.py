"""The ``satdomino`` command: a thin layer over the library, one module per command.

Exit status: 0 every puzzle answered, 1 some puzzle has no solution, 2 bad input or usage,
3 some answer unknown (time limit), 4 internal error (a layout failed verification: a bug or
a wrong solver). When several apply, 4 wins over 2, 2 over 3, and 3 over 1.
"""

from __future__ import annotations

import signal
import sys
import threading

from ..errors import OutOfTimeError, SatDominoError, VerificationError
from ..process.sigterm import bridge
from ..puzzles import load_plugins
from ..version import __version__
from . import (
    check_proof,
    compare,
    decode,
    draw,
    encodings,
    explain,
    export,
    generate,
    hint,
    solve,
)
from .common import OUT_OF_MEMORY, Parser, say

# the commands in the order ``satdomino --help`` lists them
COMMANDS = {"solve": solve, "explain": explain, "hint": hint, "draw": draw, "export": export,
            "decode": decode, "check-proof": check_proof, "compare": compare,
            "encodings": encodings, "generate": generate}


class _Command(Parser):
    """The top-level parser: ``--count FILE`` read as ``--count=exact FILE`` first."""

    def parse_args(self, args=None, namespace=None):
        args = sys.argv[1:] if args is None else list(args)
        return super().parse_args(solve.bare_count(args), namespace)


def build_parser() -> Parser:
    p = _Command(prog="satdomino", description="Domino puzzles as SAT and SMT: solve, count, "
               "export, compare. Each command has its own --help.")
    p.add_argument("--version", action="version", version=f"satdomino {__version__}")
    sub = p.add_subparsers(dest="command", required=True, parser_class=Parser)
    for module in COMMANDS.values():
        module.add_parser(sub)
    return p


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so the cleanup a Ctrl-C gets runs too."""


def _terminate(signum: int, frame: object) -> None:
    # once: GNU timeout, for one, sends SIGTERM to the program and then to its process group,
    # and a second Terminated would cut short the cleanup the first one started
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise Terminated


# how a failed command ends (the first match counts): (exception, message, exit status)
FAILURES: tuple[tuple[type[BaseException], str, int], ...] = (
    (OutOfTimeError, "{}", 3), (SatDominoError, "error: {}", 2),
    (VerificationError, "internal error: {}", 4), (MemoryError, OUT_OF_MEMORY, 3),
    (Terminated, "terminated", 128 + signal.SIGTERM), (KeyboardInterrupt, "interrupted", 130))


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (see the module docstring)."""
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    unbridge = bridge() if in_main_thread else None  # signals stop a search holding it
    try:
        load_plugins()  # SATDOMINO_FAMILIES: before the parser, which lists the families
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command].run(args)
    except BrokenPipeError:
        return 0
    except (SatDominoError, VerificationError, MemoryError, KeyboardInterrupt) as e:
        message, code = next((m, c) for kind, m, c in FAILURES if isinstance(e, kind))
        say("satdomino: " + message.format(e))
        return code
    finally:
        if unbridge is not None:
            unbridge()
            signal.signal(signal.SIGTERM, previous)
