"""The README's examples work as written: its Python blocks run, its format examples parse and
solve, and the commands it lists exist with the options it names."""

from __future__ import annotations

import re
import shutil
import warnings
from pathlib import Path

import pytest

import satdomino
from satdomino.cli import build_parser
from satdomino.puzzles import FAMILIES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()


def sections(text: str) -> list[tuple[str, str, str]]:
    """The fenced code blocks of a Markdown text: (the "## " heading above, language ("" for
    plain), the block dedented)."""
    import textwrap

    out, lines, inside, heading = [], [], None, ""
    for line in text.splitlines():
        fence = line.strip()
        if fence.startswith("```"):
            if inside is None:
                inside, lines = fence[3:], []
            else:
                out.append((heading, inside, textwrap.dedent("\n".join(lines)) + "\n"))
                inside = None
        elif inside is not None:
            lines.append(line)
        elif line.startswith("## "):
            heading = line[3:].strip()
    return out


def blocks(language: str) -> list[str]:
    """The README's fenced code blocks of one language ("" for plain)."""
    return [block for _, lang, block in sections(README) if lang == language]


@pytest.mark.parametrize("code", blocks("python"))
def test_python_examples_run(code: str, tmp_path, monkeypatch, capsys) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    before = dict(FAMILIES)
    try:
        exec(compile(code, "README.md", "exec"), {})
    finally:  # a family the example registers is the example's alone
        FAMILIES.clear()
        FAMILIES.update(before)
    assert "assert " in code  # each example checks itself


def test_the_readme_is_short() -> None:
    assert len(README.splitlines()) <= 300


def test_format_examples_are_puzzles_with_solutions() -> None:
    examples = [b for b in blocks("json") + blocks("")
                if not b.lstrip().startswith(("pip", "satdomino"))]
    kinds = set()
    for text in examples:
        [puzzle] = satdomino.parse(text)
        kinds.add(puzzle.kind)
        assert puzzle.solve().status == "sat", text
    assert kinds == {"dominosa", "pips", "dominofit", "doodlefit"}


def test_the_input_examples_of_the_formats_page_are_puzzles_of_their_family() -> None:
    page = (ROOT / "docs" / "formats.md").read_text()
    kinds = {f.title.lower(): name for name, f in FAMILIES.items()}
    checked = set()
    for heading, _, text in sections(page):
        kind = kinds.get(heading.lower())
        if kind is None or "..." in text:  # output examples, and ids cut short on the page
            continue
        with warnings.catch_warnings():  # the day file's withdrawn puzzles are noticed
            warnings.simplefilter("ignore")
            puzzles = satdomino.parse(text)
        for puzzle in puzzles:
            assert puzzle.kind == kind and puzzle.solve().status == "sat", text
        checked.add(kind)
    assert checked == {"dominosa", "pips", "dominofit", "doodlefit"}


def test_the_commands_and_options_it_names_exist() -> None:
    parser = build_parser()
    commands = set()
    for block in blocks("sh"):
        joined = block.replace("\\\n", " ")  # continued lines
        for command in re.findall(r"^satdomino (.+?)(?:\s+#.*)?$", joined, re.M):
            args = command.split()
            if args[0] != "--version":
                assert parser.parse_args(args).command == args[0]  # a usage error raises
                commands.add(args[0])
    named = {"solve", "export", "decode", "check-proof", "compare", "generate", "explain"}
    assert named <= commands


def recipe_blocks() -> list[str]:
    """The shell recipes (not the install commands), in the README's order."""
    return [b for b in blocks("sh") if not b.lstrip().startswith("pip ")]


def missing_programs(block: str) -> list[str]:
    """Programs a block runs that are not on PATH (outside solvers the README names)."""
    firsts = {line.split()[0] for line in block.replace("\\\n", " ").splitlines()
              if line.strip() and not line.lstrip().startswith("#")}
    return sorted(p for p in firsts if shutil.which(p) is None and p != "satdomino")


@pytest.mark.slow
def test_the_shell_recipes_run_as_written(tmp_path) -> None:
    import os
    import subprocess
    import sys

    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    env.pop("SATDOMINO_FAMILIES", None)

    def run(script: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=600)

    # the counting recipe reads board.txt "from below": the export recipe makes it
    assert run("satdomino generate dominosa --n 30 --seed 1 -o board.txt").returncode == 0
    ran = 0
    for block in recipe_blocks():
        if missing_programs(block):
            continue
        out = run(block)
        assert out.returncode == 0 and "Traceback" not in out.stderr, (block, out.stderr)
        for claimed in re.findall(r"#\s*(\d{5,})", block):  # a count the comment states
            assert claimed in out.stdout, (block, claimed)
        ran += 1
    assert ran >= len(recipe_blocks()) - 2  # at most the outside solvers' recipes left out
