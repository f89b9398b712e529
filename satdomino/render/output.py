"""Drawings as files: SVG as drawn, PNG and PDF through CairoSVG (which needs the cairo
library), and a printable book: one PDF of A4 pages, a drawing each, scaled to fit."""

from __future__ import annotations

import io
import re
from pathlib import Path

from ..errors import SatDominoError

FORMATS = ("svg", "png", "pdf")
# an A4 page in CSS pixels (96 to the inch), and its margin
PAGE_W, PAGE_H, PAGE_MARGIN = 794, 1123, 48
MAX_ZOOM = 2.5  # a small board is enlarged to about this, not to the whole page
PNG_SCALE = 2  # PNGs at twice the drawing's size: sharp on a printed page
_ROOT = re.compile(r"<svg\b[^>]*>")
_SIZE = re.compile(r'\b(width|height)="([0-9.]+)"')


def image_format(path: str) -> str:
    """The drawing format a file name asks for by its suffix: svg, png or pdf."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise SatDominoError(f"{path}: a drawing is written as .svg, .png or .pdf, not "
                             f"'{Path(path).suffix or 'no suffix'}'")
    return fmt


def is_drawing_name(path: str) -> bool:
    """Does a file name ask for a drawing (.svg, .png, .pdf)?"""
    return Path(path).suffix.lower().lstrip(".") in FORMATS


def size_of(svg: str) -> tuple[float, float]:
    """A drawing's width and height (from its root element)."""
    root = _ROOT.search(svg)
    found = dict(_SIZE.findall(root.group(0))) if root else {}
    if "width" not in found or "height" not in found:
        raise ValueError("an SVG without a width and height on its root")
    return float(found["width"]), float(found["height"])


def convert(svg: str, fmt: str) -> bytes:
    """One drawing as ``fmt`` (svg, png or pdf)."""
    if fmt == "svg":
        return svg.encode()
    render = _cairosvg().svg2png if fmt == "png" else _cairosvg().svg2pdf
    return render(bytestring=svg.encode(), scale=PNG_SCALE if fmt == "png" else 1)


def page(svg: str) -> str:
    """An A4 page with ``svg`` scaled to fit inside the margins (a small board enlarged up to
    MAX_ZOOM times) and centred at the top."""
    w, h = size_of(svg)
    zoom = min((PAGE_W - 2 * PAGE_MARGIN) / w, (PAGE_H - 2 * PAGE_MARGIN) / h, MAX_ZOOM)
    x = (PAGE_W - w * zoom) / 2
    root = _ROOT.search(svg)
    assert root is not None  # size_of found it
    inner = (f'<svg x="{x:.1f}" y="{PAGE_MARGIN}" width="{w * zoom:.1f}" '
             f'height="{h * zoom:.1f}" viewBox="0 0 {w:g} {h:g}">')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W}" height="{PAGE_H}" '
            f'viewBox="0 0 {PAGE_W} {PAGE_H}">\n<rect width="{PAGE_W}" height="{PAGE_H}" '
            f'fill="white"/>\n' + inner + svg[root.end():].rstrip() + "\n</svg>\n")


def book(drawings: list[str]) -> bytes:
    """One PDF of A4 pages, a drawing on each (``page``), in order."""
    cairosvg = _cairosvg()
    out = io.BytesIO()
    shared: list = []  # the one cairo surface every page is drawn on

    class Page(cairosvg.surface.PDFSurface):  # type: ignore[name-defined]
        def _create_surface(self, width: float, height: float) -> tuple:
            if shared:
                shared[0].show_page()
            else:
                shared.append(super()._create_surface(width, height)[0])
            return shared[0], width, height

    for svg in drawings:
        Page(cairosvg.parser.Tree(bytestring=page(svg).encode()), out, 96)
    if shared:
        shared[0].finish()
    return out.getvalue()


def _cairosvg():
    """CairoSVG, or one clear error when it or the cairo library is missing."""
    try:
        import cairosvg
        import cairosvg.parser
        import cairosvg.surface
    except (ImportError, OSError) as e:  # OSError: no libcairo to load
        raise SatDominoError(f"PNG and PDF drawings need CairoSVG and the cairo library "
                             f"(Debian: apt-get install libcairo2): {e}") from None
    return cairosvg
