"""Hostile values for every option of every command, read from the parser itself (so an option
added later is fuzzed too): zero, negative, tiny, huge, infinite, not-a-number, empty and
words. Each case must end as ``test_fuzz.run_cli`` requires: exit 0-4, one-line messages, no
traceback, within its time."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from satdomino.cli import build_parser, main

from .conftest import EXAMPLES
from .test_fuzz import fuzz, run_cli

HOSTILE = ["0", "-1", "-0", "1e-300", "1e-9", "0.5", "2", "1e6", "1e309", "inf", "-inf", "nan",
           "", " ", "x", "1,5", "0x10", "१"]
# what each command is run on (files made in the case's folder), and options it needs
TARGETS = {
    "solve": ["{example}"], "explain": ["{example}"], "hint": ["{example}"],
    "export": ["{example}", "-o", "out.cnf"], "check-proof": ["f.cnf", "p.drat"],
    "draw": ["{example}", "-o", "out.svg", "--solution"], "decode": ["board.cnf", "answer.txt"],
    "compare": ["dominosa:n=2:seeds=1", "-o", "runs.csv", "--no-progress"],
    "generate dominosa": ["--n", "2"], "generate pips": ["--dominoes", "2"],
    "generate dominofit": ["--width", "3", "--height", "3"],
    "generate doodlefit": ["--cells", "6", "--blocks", "2"],
}
# options whose values are not numbers or names: files and lists, fuzzed elsewhere
NOT_NUMBERS = {"-o", "--output", "--svg", "--given", "--kind", "--puzzle", "--backend",
               "--model", "--scheduler", "--resume", "--plot", "--format", "--trim", "--report"}


def _valued(command: argparse.ArgumentParser) -> list[str]:
    """The options of one (sub-)command that take one value and are not a choice or a file."""
    return sorted(a.option_strings[-1] for a in command._actions
                  if a.option_strings and a.nargs in (None, "?") and a.choices is None
                  and not isinstance(a, argparse._StoreConstAction | argparse._StoreTrueAction
                                     | argparse._HelpAction | argparse._VersionAction)
                  and not set(a.option_strings) & NOT_NUMBERS)


def _commands(parser: argparse.ArgumentParser, path: str = "") -> dict[str, list[str]]:
    """Every command ("generate pips" too) with its valued options."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return {path: _valued(parser)}
    return {name: options for sub in subs for cmd, p in sub.choices.items()
            for name, options in _commands(p, f"{path} {cmd}".strip()).items()}


OPTIONS = {name: options for name, options in _commands(build_parser()).items() if options}


def test_every_command_is_fuzzed() -> None:
    assert set(OPTIONS) == set(TARGETS)  # a command with options gets a target here
    assert {"--timeout", "--epsilon", "--delta", "--limit"} <= set(OPTIONS["solve"])
    assert {"--n", "--seed", "--number", "--timeout"} <= set(OPTIONS["generate dominosa"])


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A folder with the files the commands read: an instance with its map and an answer, a
    formula and a proof."""
    folder = tmp_path_factory.mktemp("values")
    assert main(["export", str(EXAMPLES / "dominosa" / "double3-grid.txt"), "-o",
                 str(folder / "board.cnf")]) == 0
    (folder / "answer.txt").write_text("s UNSATISFIABLE\n")
    (folder / "f.cnf").write_text("p cnf 2 3\n1 2 0\n-1 0\n-2 0\n")
    (folder / "p.drat").write_text("0\n")
    return folder


def _argv(command: str, drawn: list[tuple[str, str]], example: str, limit: bool) -> list[str]:
    argv = [*command.split(), *(x.format(example=EXAMPLES / example) for x in TARGETS[command])]
    argv += [x for option, value in drawn for x in (option, value)]
    if limit and all(o != "--timeout" for o, _ in drawn):
        argv += ["--timeout", "3"]
    if command == "solve" and any(o in ("--epsilon", "--delta") for o, _ in drawn):
        argv += ["--count", "approx"]
    return argv


@pytest.mark.parametrize("command, option, value", [
    (c, o, v) for c in sorted(TARGETS) for o in OPTIONS[c] for v in HOSTILE])
def test_every_hostile_value_of_every_option(workdir: Path, capsys, monkeypatch, command,
                                             option, value) -> None:
    """Each value alone, without a time limit (a limit runs some work in a child: another
    path)."""
    monkeypatch.chdir(workdir)
    run_cli(capsys, _argv(command, [(option, value)], "dominosa/double3-grid.txt", False))


@fuzz(150)
@given(data=st.data())
def test_hostile_option_values(workdir: Path, capsys, monkeypatch, data) -> None:
    """Several at once, with and without a time limit, on puzzles of three families."""
    command = data.draw(st.sampled_from(sorted(TARGETS)), "command")
    drawn = data.draw(st.lists(st.tuples(st.sampled_from(OPTIONS[command]),
                                         st.sampled_from(HOSTILE)), min_size=1, max_size=3),
                      "options")
    example = data.draw(st.sampled_from(["dominosa/double3-grid.txt",
                                         "pips/planted-6-unique.json",
                                         "dominofit/published-7x7.json"]), "example")
    monkeypatch.chdir(workdir)
    run_cli(capsys, _argv(command, drawn, example, data.draw(st.booleans(), "limited")))
