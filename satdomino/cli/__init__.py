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
from ..version import __version__
from . import check_proof, compare, decode, encodings, explain, export, generate, hint, solve
from .common import OUT_OF_MEMORY, Parser, say

# the commands in the order ``satdomino --help`` lists them
COMMANDS = {"solve": solve, "explain": explain, "hint": hint, "export": export,
            "decode": decode,
            "check-proof": check_proof, "compare": compare, "encodings": encodings,
            "generate": generate}


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


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status (see the module docstring)."""
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if in_main_thread else None
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command].run(args)
    except OutOfTimeError as e:
        say(f"satdomino: {e}")
        return 3
    except SatDominoError as e:
        say(f"satdomino: error: {e}")
        return 2
    except VerificationError as e:
        say(f"satdomino: internal error: {e}")
        return 4
    except MemoryError:
        say(f"satdomino: {OUT_OF_MEMORY}")
        return 3
    except Terminated:
        print("satdomino: terminated", file=sys.stderr)
        return 128 + signal.SIGTERM
    except KeyboardInterrupt:
        print("satdomino: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    finally:
        if in_main_thread:
            signal.signal(signal.SIGTERM, previous)
