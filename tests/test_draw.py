"""``satdomino draw`` and drawings written by ``generate``: SVG, PNG, PDF books."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from satdomino.cli import main
from satdomino.render.output import PAGE_H, PAGE_W, book, page, size_of

from .conftest import EXAMPLES


def _cairo() -> bool:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        if os.environ.get("SATDOMINO_REQUIRE_CAIRO"):
            raise
        return False
    return True


needs_cairo = pytest.mark.skipif(not _cairo(), reason="CairoSVG or the cairo library missing")
ONE_OF_EACH = [EXAMPLES / "dominosa" / "double6.txt", EXAMPLES / "pips" / "day.json",
               EXAMPLES / "dominofit" / "published-7x7.json",
               EXAMPLES / "doodlefit" / "planted-20.txt"]


def pdf_pages(path: Path) -> int:
    """The page count a PDF's page tree states."""
    counts = re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", path.read_bytes(), re.S)
    counts += re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", path.read_bytes(), re.S)
    assert counts, "no page tree"
    return max(int(c) for c in counts)


def test_every_family_draws_as_svg_with_its_answer_key(tmp_path, capsys) -> None:
    for i, f in enumerate(ONE_OF_EACH):
        out = tmp_path / f"d{i}.svg"
        assert main(["draw", str(f), "--puzzle", "easy", "-o", str(out), "--solution"]
                    if "pips" in str(f) else ["draw", str(f), "-o", str(out), "--solution"]) == 0
        for drawn in (out, tmp_path / f"d{i}-key.svg"):
            ET.fromstring(drawn.read_text())  # well-formed
            assert size_of(drawn.read_text())[0] > 0
        assert out.read_text() != (tmp_path / f"d{i}-key.svg").read_text()


@needs_cairo
def test_png_and_a_pdf_book_of_three_puzzles_with_keys_has_six_pages(tmp_path) -> None:
    pips = EXAMPLES / "pips" / "day.json"  # three puzzles: easy, medium, hard
    assert main(["draw", str(pips), "-o", str(tmp_path / "b.pdf"), "--solution"]) == 0
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")
    assert pdf_pages(tmp_path / "b.pdf") == 6
    assert main(["draw", str(ONE_OF_EACH[0]), "-o", str(tmp_path / "d.png")]) == 0
    assert (tmp_path / "d.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@needs_cairo
def test_generate_writes_a_book_of_puzzles_then_answer_keys(tmp_path, capsys) -> None:
    out = tmp_path / "g.pdf"
    assert main(["generate", "dominosa", "--n", "3", "--number", "3", "-o", str(out)]) == 0
    assert pdf_pages(out) == 6
    assert main(["generate", "dominofit", "--width", "4", "--height", "4", "-o",
                 str(tmp_path / "f.svg")]) == 0
    puzzle, key = (tmp_path / "f.svg").read_text(), (tmp_path / "f-key.svg").read_text()
    assert puzzle != key


def test_a_page_fits_the_drawing_inside_a4() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="100">'
           '<rect width="2000" height="100"/></svg>')
    inner = ET.fromstring(page(svg))[1]
    assert float(inner.get("x", 0)) >= 0 and float(inner.get("width", 0)) <= PAGE_W
    assert size_of(page(svg)) == (PAGE_W, PAGE_H)


@pytest.mark.parametrize("argv, message", [
    (["-o", "x.jpg"], "a drawing is written as .svg, .png or .pdf"),
    (["-o", "-"], "-o - takes one drawing"),
    (["-o", "missing-folder/x.svg"], "missing-folder"),
])
def test_bad_outputs_are_one_line_and_exit_2(tmp_path, capsys, monkeypatch, argv,
                                             message) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["draw", str(EXAMPLES / "pips" / "day.json"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert list(tmp_path.iterdir()) == []  # nothing half-written


def test_generate_refuses_drawings_with_instance_options(tmp_path, capsys) -> None:
    assert main(["generate", "dominosa", "--n", "3", "-o", str(tmp_path / "g.pdf"),
                 "--uniqueness"]) == 2
    assert "writes drawings" in capsys.readouterr().err


@needs_cairo
def test_book_draws_each_drawing_on_its_own_page() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50">'
           '<text x="5" y="20">x</text></svg>')
    assert book([svg] * 4).startswith(b"%PDF")


@needs_cairo
def test_drawing_past_the_time_limit_stops_and_writes_nothing(tmp_path, capsys,
                                                               monkeypatch) -> None:
    """cairo cannot be interrupted: it works in a child killed at the deadline."""
    import time

    import satdomino.cli.draw

    def slow(*args):  # a conversion that never ends in time
        time.sleep(60)

    monkeypatch.setattr(satdomino.cli.draw, "_files", slow)
    t0 = time.monotonic()
    assert main(["draw", str(ONE_OF_EACH[0]), "-o", str(tmp_path / "d.pdf"),
                 "--timeout", "1"]) == 3
    assert time.monotonic() - t0 < 30  # a wide margin: the child was killed, not waited for
    assert "nothing written" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
