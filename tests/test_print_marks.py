"""What a print shop or a home printer meets at the edges of the paper, read back from the
produced PDFs: the line under the trim in the card's own unit, crop, cut and fold marks
where the card is really cut and folded, the 10 mm check square, and side 2 of a duplex
sheet inside the printer's printable area for every offset a sheet accepts.

Conventions (written out here, not taken from the program): millimetres, origin at the
page's top-left corner, y down. On the inside of the card each tab's cut runs along the
fold from a long edge to the tab's hinge, and each hinge from the top edge to the fold;
the main fold runs between the hinges only. The outside sees the inside mirrored about
the card's vertical centre line.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pdfplumber
import pytest

from cardgen.card.physical import PRESETS, CardGeometry, Preset
from cardgen.card.spread import Spread
from tests.helpers import BASE_CONFIG, cli, ok, write_config

PT = 72 / 25.4  # points per millimetre
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PDF_TOL = 0.001  # mm, numbers read back from the PDF
SLUG_MARK = (1.0, 4.0)  # a print shop's marks: from 1 mm beyond the bleed, 4 mm long
SHEET_MARK = (0.0, 3.0)  # a sheet's marks: from the bleed edge, 3 mm long
LARGEST_OFFSET = 5.0  # mm on each axis: what the registration test's scales measure
Seg = tuple[tuple[float, float], tuple[float, float]]


def key(seg: Seg) -> tuple:
    a, b = (tuple(round(v, 3) + 0.0 for v in p) for p in seg)
    return tuple(sorted((a, b)))


@functools.cache
def read_page(path: Path, index: int) -> tuple[list[dict], list[dict], list[dict]]:
    """pdfplumber's lines, rectangles and characters of a page (points, y down), parsed
    once per file and page (every run writes a fresh file)."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[index]
        return list(page.lines), list(page.rects), list(page.chars)


def read_lines(path: Path, index: int) -> list[tuple[Seg, float, bool]]:
    """The axis-parallel lines of a page: (segment in mm, y down; width in mm; dashed)."""
    out = []
    for ln in read_page(path, index)[0]:
        if abs(ln["x1"] - ln["x0"]) > 1e-3 and abs(ln["bottom"] - ln["top"]) > 1e-3:
            continue
        seg = ((ln["x0"] / PT, ln["top"] / PT), (ln["x1"] / PT, ln["bottom"] / PT))
        out.append((seg, ln["linewidth"] / PT, bool(ln.get("dash") and ln["dash"][0])))
    return out


# --- the expected marks, from the card's physics ---------------------------------------


def slits_and_hinges(g: CardGeometry, inside: bool) -> tuple[list[Seg], list[Seg]]:
    """Each tab's cut as (end on the trim, end inside) and each hinge as (top end, fold
    end), as ``inside`` or the outside sees them."""
    t, y = g.trim, g.fold_y
    slits = [((t.x, y), (g.hinge_left, y)), ((t.x + t.w, y), (g.hinge_right, y))]
    hinges = [((x, t.y), (x, y)) for x in (g.hinge_left, g.hinge_right)]
    if not inside:
        mirror = lambda p: (2 * g.center_x - p[0], p[1])  # noqa: E731
        slits = [(mirror(a), mirror(b)) for a, b in slits]
        hinges = [(mirror(a), mirror(b)) for a, b in hinges]
    return slits, hinges


def beyond(end: tuple[float, float], other: tuple[float, float], start: float,
           length: float) -> Seg:
    """A mark continuing the line other -> end past ``end``, from ``start`` to
    ``start + length`` mm beyond it."""
    d = math.dist(end, other)
    ux, uy = (end[0] - other[0]) / d, (end[1] - other[1]) / d
    return ((end[0] + ux * start, end[1] + uy * start),
            (end[0] + ux * (start + length), end[1] + uy * (start + length)))


# --- the line under the trim -------------------------------------------------------------


@pytest.fixture(scope="module")
def cards(tmp_path_factory, example_pdf) -> dict[str, Path]:
    """card.pdf in each preset: the example card (eu) and the base card as us."""
    folder = tmp_path_factory.mktemp("cards")
    config = write_config(folder, BASE_CONFIG)
    ok(cli("card", config, "-o", folder / "us", "--format", "pdf", "--preset", "us"))
    (folder / "eu.pdf").write_bytes(example_pdf)
    return {"eu": folder / "eu.pdf", "us": folder / "us" / "card.pdf"}


@pytest.mark.parametrize(("preset", "sizes"), [
    ("eu", "85 × 110 mm flat, folds to 85 × 55 mm · bleed 3 mm"),
    ("us", "3.5 × 4 in flat, folds to 3.5 × 2 in · bleed 0.125 in"),
])
def test_the_line_under_the_trim_states_sizes_in_the_cards_unit(cards, preset, sizes):
    """The us preset is given in inches, so its line under the trim is in inches."""
    with pdfplumber.open(cards[preset]) as pdf:
        for page, side in zip(pdf.pages[:2], ("outside", "inside"), strict=True):
            lines = [ln for ln in page.extract_text().splitlines() if ln.startswith("cardgen")]
            assert len(lines) == 1, lines
            assert lines[0].endswith(f"· {side} spread · {sizes}"), lines[0]
            if preset == "us":
                assert "mm" not in lines[0]


# --- crop, cut and fold marks --------------------------------------------------------------


@pytest.mark.parametrize("preset", ["eu", "us"])
def test_print_shop_marks_cut_where_the_tabs_are_cut_and_fold_at_the_hinges(cards, preset):
    """In the slug of card.pdf: solid marks continue each tab's cut past the long edges
    at fold height, dashed marks continue each hinge past the top edge, and nothing at
    fold height is dashed (the main fold never reaches the trim)."""
    g = Spread(PRESETS[Preset(preset)]).geometry  # the card on its print page
    start, length = g.size.bleed + SLUG_MARK[0], SLUG_MARK[1]
    for index, inside in ((0, False), (1, True)):
        marks = [(seg, dashed) for seg, width, dashed in read_lines(cards[preset], index)
                 if abs(width - 0.1) < 0.005
                 and not any(g.bleed_box.contains(*p, tol=-1e-6) for p in seg)]
        solid = {key(s) for s, dashed in marks if not dashed}
        dashed = {key(s) for s, dashed in marks if dashed}
        slits, hinges = slits_and_hinges(g, inside)
        cuts = {key(beyond(edge, end, start, length)) for edge, end in slits}
        folds = {key(beyond(top, bottom, start, length)) for top, bottom in hinges}
        assert len(solid) == 10 and cuts <= solid  # 8 crop marks, 2 cut marks
        assert dashed == folds
        assert not [s for s in dashed if abs(s[0][1] - g.fold_y) < PDF_TOL]
