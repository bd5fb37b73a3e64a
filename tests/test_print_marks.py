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

from cardgen.card.spread import Spread
from cardgen.physical.card import PRESETS, CardGeometry, Preset
from cardgen.prepress.impose import Duplex, Flip, SheetLayout, plan_sheet
from cardgen.prepress.paper import Paper
from tests.helpers import BASE_CONFIG, cli, error_line, ok, write_config
from tests.pdfread import mm_to_px, render_page, render_region

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
def read_page(path: Path, index: int) -> tuple[list[dict], list[dict], list[dict], str]:
    """pdfplumber's lines, rectangles, characters (points, y down) and text of a page,
    parsed once per file and page (every run writes a fresh file)."""
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[index]
        return list(page.lines), list(page.rects), list(page.chars), page.extract_text()


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
    for index, side in ((0, "outside"), (1, "inside")):
        text = read_page(cards[preset], index)[3]
        lines = [ln for ln in text.splitlines() if ln.startswith("cardgen")]
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


# --- sheets: check square and printable area ------------------------------------------------


# The sheets here are read back for their check square, marks and captions and for side 2
# (the insides): the cards' QR codes, on side 1, play no part, and pdfplumber takes three
# times as long over a page with four of them (sheets with the QR code are read back by
# test_pdfx and test_bleed).
SHEET_CONFIG = BASE_CONFIG.replace('theme = "dark"', 'theme = "dark"\nqr = false')


@pytest.fixture(scope="module")
def sheet(tmp_path_factory):
    """Run `cardgen sheet` (in process) once per distinct argument list; the PDF's path."""
    folder = tmp_path_factory.mktemp("sheets")
    config = write_config(folder, SHEET_CONFIG)
    made: dict[tuple[str, ...], Path] = {}

    def run(*args: str) -> Path:
        if args not in made:
            out = folder / f"run{len(made)}"
            ok(cli("sheet", config, "-o", out, *args))
            made[args] = next(out.glob("*.pdf"))
        return made[args]

    return run


def check_square_boxes(path: Path, index: int) -> list[tuple[float, float, float, float]]:
    """Stroked rectangles of about 10 mm on a page (x, y, w, h of the path, mm)."""
    return [(r["x0"] / PT, r["top"] / PT, r["width"] / PT, r["height"] / PT)
            for r in read_page(path, index)[1]
            if r.get("stroke") and 9 < r["width"] / PT < 11 and 9 < r["height"] / PT < 11]


def layout_for(preset: str, paper: str, flip: str) -> SheetLayout:
    return plan_sheet(Spread(PRESETS[Preset(preset)], marks=False).piece(),
                      Duplex(Paper(paper), Flip(flip)))


def extreme_offset(preset: str, paper: str, flip: str, corner: tuple[int, int],
                   ) -> tuple[float, float]:
    """The offset at a corner (signs across, down) of the room the sheet reports, capped
    at the largest offset accepted."""
    (left, right), (up, down) = layout_for(preset, paper, flip).offset_room
    return (min(right, LARGEST_OFFSET) if corner[0] > 0 else max(left, -LARGEST_OFFSET),
            min(down, LARGEST_OFFSET) if corner[1] > 0 else max(up, -LARGEST_OFFSET))


def sheet_args(preset: str, paper: str, flip: str, offset: tuple[float, float]) -> tuple:
    return ("--paper", paper, "--flip", flip, "--preset", preset,
            f"--offset={offset[0]!r},{offset[1]!r}")


# Between them, the four edges of side 2.
EXTREMES = [("eu", "a4", "long", (1, 1)), ("us", "letter", "short", (-1, -1))]


@pytest.mark.parametrize("args", [
    sheet_args("eu", "a4", "long", extreme_offset(*EXTREMES[0])),
    pytest.param(*[sheet_args("us", "letter", "short", extreme_offset(*EXTREMES[1]))],
                 marks=pytest.mark.slow),
    ("--registration", "--margin", "20", "--offset=5,5"),
])
def test_check_square_measures_10_mm_outside_when_printed(sheet, args):
    """Rendered by PDFium at 600 dpi, the square's ink spans 10 mm (236.2 px) both ways,
    outer edge to outer edge, on both sides of the sheet."""
    dpi = 600
    path = sheet(*args)
    want = 10 * dpi / 25.4
    for index in (0, 1):
        (x, y, w, h), = check_square_boxes(path, index)
        pad = 1.5  # mm of page around the square: the caption starts 3 mm to its right
        area = render_region(path, index, dpi, (x - pad, y - pad, x + w + pad, y + h + pad),
                             grey=True)
        box = area.point(lambda v: 255 if v < 128 else 0).getbbox()
        assert box is not None
        width, height = box[2] - box[0], box[3] - box[1]
        assert abs(width - want) <= 1 and abs(height - want) <= 1, (index, width, height, want)


def assert_margin_blank(path: Path, index: int, paper: str, margin: float) -> None:
    """PDFium at 150 dpi: every pixel of the margin band (but the one next to the
    printable area, which anti-aliasing may touch) is paper white."""
    dpi = 150
    image = render_page(path, index, dpi, grey=True)
    inner = mm_to_px(margin, dpi) - 1
    w, h = image.size
    for strip in ((0, 0, w, inner), (0, h - inner, w, h), (0, 0, inner, h), (w - inner, 0, w, h)):
        lowest = image.crop(strip).getextrema()[0]
        assert lowest == 255, (index, strip, lowest)


def ink_extent(path: Path, index: int) -> tuple[float, float, float, float]:
    """Left, top, right, bottom (mm) of the marks, check square and caption of a page, as
    the PDF holds them (the cards' art is clipped to their bleed, so PDFium judges it)."""
    lines, rects, chars, _ = read_page(path, index)
    boxes = []
    for ln in lines:  # (marks are butt-ended: the stroke widens them only across)
        if abs(ln["linewidth"] / PT - 0.12) < 0.005:
            across = ln["linewidth"] / 2
            wx, wy = (0, across) if abs(ln["top"] - ln["bottom"]) < 1e-6 else (across, 0)
            boxes.append((ln["x0"] - wx, ln["top"] - wy, ln["x1"] + wx, ln["bottom"] + wy))
    boxes += [(r["x0"] - r["linewidth"] / 2, r["top"] - r["linewidth"] / 2,
               r["x1"] + r["linewidth"] / 2, r["bottom"] + r["linewidth"] / 2)
              for r in rects if r.get("stroke") and not r.get("fill")]
    boxes += [(c["x0"], c["top"], c["x1"], c["bottom"]) for c in chars]
    return (min(b[0] for b in boxes) / PT, min(b[1] for b in boxes) / PT,
            max(b[2] for b in boxes) / PT, max(b[3] for b in boxes) / PT)


@pytest.mark.parametrize(("preset", "paper", "flip", "corner"), EXTREMES)
def test_side_2_stays_printable_at_the_largest_offsets_accepted(sheet, preset, paper, flip,
                                                                corner):
    """At the extreme offsets a sheet accepts (the room it reports, at most 5 mm), no
    ink of side 2 lies in the 5 mm margin; where the room is less than 5 mm, the marks
    then reach the margin exactly (the room is not understated); and 0.05 mm more is
    refused, in one line naming --offset and why."""
    dx, dy = extreme_offset(preset, paper, flip, corner)
    path = sheet(*sheet_args(preset, paper, flip, (dx, dy)))
    pw, ph = PAPER_MM[paper]
    assert_margin_blank(path, 1, paper, 5.0)
    x0, y0, x1, y1 = ink_extent(path, 1)
    assert x0 >= 5 - PDF_TOL and x1 <= pw - 5 + PDF_TOL, (x0, x1)
    assert y0 >= 5 - PDF_TOL and y1 <= ph - 5 + PDF_TOL, (y0, y1)
    if abs(dx) < LARGEST_OFFSET:
        assert (x1 if dx > 0 else x0) == pytest.approx(pw - 5 if dx > 0 else 5, abs=0.07)
    if abs(dy) < LARGEST_OFFSET:
        assert (y1 if dy > 0 else y0) == pytest.approx(ph - 5 if dy > 0 else 5, abs=0.07)
    config = next(path.parent.parent.glob("card.toml"))
    more = f"{dx + math.copysign(0.05, dx)!r},{dy!r}"
    result = cli("sheet", config, "-o", path.parent / "refused", "--paper", paper, "--flip",
                 flip, "--preset", preset, f"--offset={more}")
    error_line(result, "--offset", "would push side 2 into the 5 mm margin", "mm across")


def test_offsets_accepted_and_refused_on_the_a4_sheet(tmp_path):
    """Four eu cards on A4 leave 3 mm across for side 2 to move, and more than 5 mm up
    and down; 5 mm is the most the registration test measures."""
    layout = layout_for("eu", "a4", "long")
    (left, right), (up, down) = layout.offset_room
    # 2 columns of (85 + 2 × 3 bleed + 2 × 3 marks) = 194 mm on 210 mm: 8 mm a side.
    assert (left, right) == pytest.approx((-3.0, 3.0), abs=1e-9)
    assert up < -LARGEST_OFFSET and down > LARGEST_OFFSET
    config = write_config(tmp_path)
    error_line(cli("sheet", config, "-o", tmp_path / "o", "--offset=3.1,0"), "--offset 3.1,0",
               "can move -3 to 3 mm across and -5 to 5 mm down")
    error_line(cli("sheet", config, "-o", tmp_path / "o", "--offset=0,-5.5"), "--offset 0,-5.5",
               "implausible", "±5 mm")


@pytest.mark.parametrize(("margin", "offset"), [("5", "-5,-5"), ("20", "5,5")])
def test_registration_page_stays_printable_at_the_largest_offsets(sheet, margin, offset):
    """The registration test's scales on side 2 move with the offset it is printed with;
    they stay clear of the margin, however wide, at the largest offset accepted."""
    path = sheet("--registration", "--margin", margin, f"--offset={offset}")
    for index in (0, 1):
        assert_margin_blank(path, index, "a4", float(margin))
