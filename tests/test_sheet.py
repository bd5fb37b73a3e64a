"""`cardgen sheet`: N-up imposition of flat cards on A4/Letter for office duplex printing.

Unit tests check the pure model (prepress.impose: Duplex, plan_sheet, SheetLayout, impose;
prepress.registration: build_registration; the card as a piece, card.spread) against
physics written out here independently; end-to-end tests run the CLI (in process) and
read the PDF back. Conventions (millimetres, origin top-left, y down, unless said otherwise):

- the inside view of a card is its outside view mirrored about the card's vertical centre
  line: x -> 2*center_x - x;
- turning the paper over its long edge maps a front-page point to (W - x, y) on the back
  page, over its short edge to (x, H - y);
- ``--offset X,Y`` then moves everything on side 2 by +X right and +Y down.
"""

from __future__ import annotations

import functools
import itertools
import math
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardgen.card.build import CardBuild
from cardgen.card.spread import Spread
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import Document, Group, Line, walk
from cardgen.errors import CardgenError, ParameterError
from cardgen.physical.card import PRESETS, CardGeometry, Preset, Tab, custom_size
from cardgen.prepress.dieline import CUT_STROKE, SCORE_STROKE
from cardgen.prepress.impose import (
    CHECK_SQUARE,
    INFO_BAND,
    MARK_ROOM,
    Duplex,
    Flip,
    SheetLayout,
    impose,
    plan_sheet,
)
from cardgen.prepress.marks import OFFICE, PRINT_SHOP
from cardgen.prepress.paper import Paper
from cardgen.prepress.registration import build_registration
from cardgen.text.fonts import bundled_fonts
from tests.helpers import BASE_CONFIG, cli, error_line, examples, ok, write_config

# Written out here, not taken from the program.
PT = 72 / 25.4  # points per millimetre
PAPER_MM = {"a4": (210.0, 297.0), "letter": (8.5 * 25.4, 11 * 25.4)}
PAPER_PT = {"a4": (595.2756, 841.8898), "letter": (612.0, 792.0)}
MARGIN = 5.0  # the CLI's default --margin
SHEET_MARK = 3.0  # the per-card crop marks on a sheet: 3 mm, from the bleed edge out
EPS = 1e-9  # model arithmetic (mm)
PDF_TOL = 0.001  # numbers read back from the PDF (mm); reportlab writes ~1e-5 pt
SQUARE_TOL = 0.05  # the check square (mm), as the requirement says

# The sheets read back here are parsed by pdfplumber, which takes most of a second for
# four QR codes' thousands of path segments: these checks of imposition leave the QR code
# out (sheets with it are read back by test_pdfx and test_bleed).
SHEET_CONFIG = BASE_CONFIG.replace('theme = "dark"', 'theme = "dark"\nqr = false')
# A custom size for which the turned arrangement wins (120 x 82 mm flat).
WIDE_CONFIG = """\
[card]
width_mm = 120
height_mm = 41
theme = "dark"
qr = false

[person]
name = "Ada Example"
email = "ada@example.org"
"""


def sheet_spread(preset: str) -> Spread:
    """The card as the `sheet` command imposes it (a flat card without its own slug marks);
    ``.geometry`` is the card in the coordinates of its page, ``.piece()`` the piece."""
    return Spread(PRESETS[Preset(preset)], marks=False)


def sheet_geometry(preset: str) -> CardGeometry:
    return sheet_spread(preset).geometry


def plan(spread: Spread, paper: str, flip: str = "long",
         offset: tuple[float, float] = (0.0, 0.0), margin: float = MARGIN) -> SheetLayout:
    """plan_sheet for the card on a duplex sheet, options spelled as on the command line."""
    return plan_sheet(spread.piece(), Duplex(Paper(paper), Flip(flip), offset, margin))


# --- independent helpers ------------------------------------------------------------------

def expected_count(geometry: CardGeometry, paper: str, margin: float = MARGIN) -> int:
    """Best of upright and turned grids of (bleed box + a crop mark on every side) cells in
    the paper minus the margin on all sides and minus the caption band."""
    pw, ph = PAPER_MM[paper]
    flat_w = geometry.size.width + 2 * geometry.size.bleed
    flat_h = 2 * geometry.size.height + 2 * geometry.size.bleed
    avail_w, avail_h = pw - 2 * margin, ph - 2 * margin - INFO_BAND
    best = 0
    for w, h in ((flat_w, flat_h), (flat_h, flat_w)):
        cell_w, cell_h = w + 2 * SHEET_MARK, h + 2 * SHEET_MARK
        best = max(best, math.floor(avail_w / cell_w) * math.floor(avail_h / cell_h))
    return best


def flip_point(p: tuple[float, float], paper: str, flip: str) -> tuple[float, float]:
    """A point of the front page, seen on the back page after the paper turns over."""
    pw, ph = PAPER_MM[paper]
    x, y = p
    return (pw - x, y) if flip == "long" else (x, ph - y)


def to_inside(geometry: CardGeometry, p: tuple[float, float]) -> tuple[float, float]:
    """Outside-view card coordinates -> inside-view card coordinates of the same point."""
    return (2 * geometry.center_x - p[0], p[1])


def apply(t: Affine, p: tuple[float, float]) -> tuple[float, float]:
    # Written out rather than Affine.apply, so that the tests do not lean on it.
    return (t.a * p[0] + t.c * p[1] + t.e, t.b * p[0] + t.d * p[1] + t.f)


def det(t: Affine) -> float:
    return t.a * t.d - t.b * t.c


def bbox(points: list[tuple[float, float]]) -> Box:
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def corners(box: Box) -> list[tuple[float, float]]:
    return [(box.x, box.y), (box.x + box.w, box.y), (box.x + box.w, box.y + box.h),
            (box.x, box.y + box.h)]


def placed_box(box: Box, t: Affine) -> Box:
    return bbox([apply(t, p) for p in corners(box)])


def grow(box: Box, d: float) -> Box:
    return Box(box.x - d, box.y - d, box.w + 2 * d, box.h + 2 * d)


def within(inner: Box, outer: Box, tol: float) -> bool:
    return (inner.x >= outer.x - tol and inner.y >= outer.y - tol
            and inner.x + inner.w <= outer.x + outer.w + tol
            and inner.y + inner.h <= outer.y + outer.h + tol)


def overlap(a: Box, b: Box, tol: float) -> bool:
    """Interiors overlap by more than ``tol`` (touching is fine)."""
    return (a.x < b.x + b.w - tol and b.x < a.x + a.w - tol
            and a.y < b.y + b.h - tol and b.y < a.y + a.h - tol)


def close(p: tuple[float, float], q: tuple[float, float], tol: float = EPS) -> bool:
    return abs(p[0] - q[0]) <= tol and abs(p[1] - q[1]) <= tol


Seg = tuple[tuple[float, float], tuple[float, float]]


def seg_key(seg: Seg, nd: int = 3) -> tuple:
    a, b = (tuple(round(v, nd) + 0.0 for v in p) for p in seg)
    return tuple(sorted((a, b)))


def seg_enters(seg: Seg, box: Box, tol: float) -> bool:
    """Does an axis-parallel segment reach more than ``tol`` into the box's interior?"""
    (x1, y1), (x2, y2) = seg
    lo_x, hi_x, lo_y, hi_y = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
    return (lo_x < box.x + box.w - tol and hi_x > box.x + tol
            and lo_y < box.y + box.h - tol and hi_y > box.y + tol)


def trim_points(geometry: CardGeometry) -> dict[str, tuple[float, float]]:
    """Physical points of the card in OUTSIDE-view card coordinates."""
    t = geometry.trim
    points = {f"trim corner {i}": p for i, p in enumerate(corners(t))}
    points["front panel centre"] = geometry.front.center
    points["front panel name area"] = (geometry.front.x + 7.0, geometry.front.y + 9.0)
    points["back panel point"] = (geometry.back.x + 11.0, geometry.back.y + 4.0)
    points["back panel, upper left"] = (t.x + 7.0, t.y + 11.0)
    for tab in Tab:
        x = 2 * geometry.center_x - geometry.hinge_x(tab)  # the hinge seen from outside
        points[f"tab {tab} hinge top"] = (x, t.y)
        points[f"tab {tab} hinge fold end"] = (x, geometry.fold_y)
    return points


SPREADS = {
    "eu": sheet_spread("eu"),
    "us": sheet_spread("us"),
    "wide": Spread(custom_size(120, 41), marks=False),
}

# --- 1. counts and placement -------------------------------------------------------------


@pytest.mark.parametrize(("preset", "paper", "count"), [
    # EU flat 85 x 110 + 3 bleed + 3 mark: 97 x 122 cells -> 2 x 2 on both papers.
    ("eu", "a4", 4), ("eu", "letter", 4),
    # US flat 88.9 x 101.6 -> 101.25 x 113.95 cells: 2 x 2 on Letter, 1 x 2 on A4 (200 wide).
    ("us", "letter", 4), ("us", "a4", 2),
])
def test_count_is_the_best_upright_or_turned_grid(preset, paper, count):
    geometry = sheet_geometry(preset)
    layout = plan(sheet_spread(preset), paper)
    assert expected_count(geometry, paper) == count
    assert layout.count == count == layout.columns * layout.rows
    assert (layout.duplex.width, layout.duplex.height) == pytest.approx(PAPER_MM[paper],
                                                                        abs=1e-9)
    assert Paper(paper).size == pytest.approx(PAPER_MM[paper], abs=1e-9)


def test_example_build_geometry_counts(example_build):
    # The example card's own spread has a slug for its marks; only the bleed counts.
    assert example_build.spread.marks
    for paper in PAPER_MM:
        layout = plan(example_build.spread, paper)
        assert layout.count == expected_count(example_build.geometry, paper)


def _check_layout(spread: Spread, paper: str, margin: float) -> None:
    geometry = spread.geometry
    layout = plan(spread, paper, margin=margin)
    info = layout.duplex.info
    assert layout.count == expected_count(geometry, paper, margin)
    pw, ph = PAPER_MM[paper]
    printable = Box(margin, margin, pw - 2 * margin, ph - 2 * margin)
    areas = []
    for placement in layout.fronts:
        # A proper rigid motion by a multiple of 90 degrees, never scaled or mirrored.
        assert det(placement) == pytest.approx(1.0, abs=1e-9)
        assert {round(abs(v), 9) for v in (placement.a, placement.b, placement.c,
                                           placement.d)} == {0.0, 1.0}
        assert (abs(placement.b) > 0.5) == layout.rotated
        bleed = placed_box(geometry.bleed_box, placement)
        assert within(bleed, printable, EPS), (bleed, printable)
        area = grow(bleed, SHEET_MARK)  # the card with its crop marks
        assert within(area, printable, EPS), (area, printable)
        assert not overlap(area, info, EPS), "cards run into the caption band"
        areas.append(area)
    for a, b in itertools.combinations(areas, 2):
        assert not overlap(a, b, EPS), (a, b)
    assert within(info, printable, EPS)
    assert info.h >= CHECK_SQUARE


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind", ["eu", "us", "wide"])
def test_cards_stay_in_the_printable_area_and_apart(kind, paper):
    _check_layout(SPREADS[kind], paper, MARGIN)


def test_wide_card_is_turned():
    # 120 x 82 flat: upright 1 x 2 cells of 132 x 94, turned 2 x 2 cells of 94 x 132.
    geometry = SPREADS["wide"].geometry
    layout = plan(SPREADS["wide"], "a4")
    assert layout.rotated and layout.count == 4 == expected_count(geometry, "a4")


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(width=st.floats(61, 150), height=st.floats(41, 120), margin=st.floats(0, 30),
       paper=st.sampled_from(["a4", "letter"]))
def test_count_and_placement_for_any_size(width, height, margin, paper):
    spread = Spread(custom_size(width, height), marks=False)
    geometry = spread.geometry
    # Keep away from exact fits, where floor() of a float quotient is a coin toss.
    pw, ph = PAPER_MM[paper]
    for span, cell in ((pw - 2 * margin, width + 6 + 2 * SHEET_MARK),
                       (ph - 2 * margin - INFO_BAND, 2 * height + 6 + 2 * SHEET_MARK),
                       (pw - 2 * margin, 2 * height + 6 + 2 * SHEET_MARK),
                       (ph - 2 * margin - INFO_BAND, width + 6 + 2 * SHEET_MARK)):
        q = span / cell
        assume(abs(q - round(q)) > 1e-6)
    if expected_count(geometry, paper, margin) == 0:
        with pytest.raises(CardgenError, match="does not fit"):
            plan(spread, paper, margin=margin)
    else:
        _check_layout(spread, paper, margin)


@pytest.mark.parametrize(("kwargs", "parameter", "message"), [
    ({"margin": 31}, "margin", "margin must be 0–30 mm, not 31."),
    ({"margin": -1}, "margin", "margin must be 0–30 mm, not -1."),
    ({"offset": (30.0, 0.0)}, "offset", "implausible"),
])
def test_duplex_rejects_bad_options(kwargs, parameter, message):
    # The library names its parameter, never a command-line option.
    with pytest.raises(ParameterError, match=message) as caught:
        Duplex(Paper.A4, **kwargs)
    assert caught.value.parameter == parameter
    assert "--" not in str(caught.value)


def test_paper_and_flip_are_closed_sets():
    # Bad spellings are refused before they reach plan_sheet (the CLI's message is
    # tested below).
    assert [p.value for p in Paper] == ["a4", "letter"]
    assert [f.value for f in Flip] == ["long", "short"]
    with pytest.raises(ValueError):
        Paper("a5")
    with pytest.raises(ValueError):
        Flip("diagonal")


# --- 2. duplex physics on the model -------------------------------------------------------


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("kind", ["example", "eu", "us", "wide"])
def test_each_inside_lands_behind_its_outside(kind, paper, flip, example_build):
    spread = example_build.spread if kind == "example" else SPREADS[kind]
    geometry, piece = spread.geometry, spread.piece()
    layout = plan(spread, paper, flip)
    points = trim_points(geometry)
    for front in layout.fronts:
        back = layout.back_placement(front, piece)
        assert det(back) == pytest.approx(1.0, abs=1e-9), "the insides must not be mirrored"
        for name, p in points.items():
            on_front = apply(front, p)
            on_back = apply(back, to_inside(geometry, p))
            assert close(on_back, flip_point(on_front, paper, flip)), (name, on_front, on_back)


@pytest.mark.parametrize("kind", ["eu", "us", "wide"])
def test_short_edge_insides_are_turned_180_against_long_edge(kind):
    spread = SPREADS[kind]
    geometry, piece = spread.geometry, spread.piece()
    pw, ph = PAPER_MM["a4"]
    long_, short = plan(spread, "a4", "long"), plan(spread, "a4", "short")
    assert long_.fronts == short.fronts  # side 1 does not depend on the flip
    for front in long_.fronts:
        bl, bs = long_.back_placement(front, piece), short.back_placement(front, piece)
        # Same linear part up to a half turn.
        assert (bs.a, bs.b, bs.c, bs.d) == pytest.approx((-bl.a, -bl.b, -bl.c, -bl.d))
        if not long_.rotated:
            # Upright cards: the insides stand upright behind a long-edge flip and upside
            # down behind a short-edge flip, exactly.
            assert (bl.a, bl.b, bl.c, bl.d) == (1, 0, 0, 1)
            assert (bs.a, bs.b, bs.c, bs.d) == (-1, 0, 0, -1)
        for p in trim_points(geometry).values():
            xl, yl = apply(bl, to_inside(geometry, p))
            assert close(apply(bs, to_inside(geometry, p)), (pw - xl, ph - yl))


@pytest.mark.parametrize("offset", [(1.5, -2.0), (-0.7, 0.35)])
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize(("kind", "paper"), [("eu", "a4"), ("wide", "a4"), ("eu", "letter")])
def test_offset_moves_every_back_position_by_exactly_x_y(kind, paper, flip, offset):
    spread = SPREADS[kind]
    geometry, piece = spread.geometry, spread.piece()
    plain = plan(spread, paper, flip)
    shifted = plan(spread, paper, flip, offset)
    assert shifted.fronts == plain.fronts  # side 1 unchanged
    dx, dy = offset
    for front in plain.fronts:
        b0, b1 = plain.back_placement(front, piece), shifted.back_placement(front, piece)
        for p in trim_points(geometry).values():
            q = to_inside(geometry, p)
            x0, y0 = apply(b0, q)
            assert close(apply(b1, q), (x0 + dx, y0 + dy))
            assert close(apply(b1, q), tuple(
                v + d for v, d in zip(flip_point(apply(front, p), paper, flip), offset,
                                      strict=True)))
    info = plain.duplex.info
    assert shifted.duplex.info == info  # side 1's band does not move
    info0, info1 = plain.duplex.back_box(info), shifted.duplex.back_box(info)
    assert (info1.x - info0.x, info1.y - info0.y) == pytest.approx(offset)
    # The caption band on side 2 lies behind the one on side 1.
    flipped = bbox([flip_point(p, paper, flip) for p in corners(info)])
    assert (info0.x, info0.y, info0.w, info0.h) == pytest.approx(
        (flipped.x, flipped.y, flipped.w, flipped.h))


# --- impose on the model ------------------------------------------------------------------


@pytest.fixture(scope="module")
def sheet_build() -> CardBuild:
    """The example card as `cardgen sheet` builds it: without its print-shop slug."""
    from dataclasses import replace

    from cardgen.card.build import build_card
    from cardgen.card.config import load_config

    return build_card(replace(load_config(None), marks=False))


def impose_card(build: CardBuild, layout: SheetLayout, marks: bool = True) -> Document:
    """The card's spreads imposed as `cardgen sheet` does (its page names and fonts)."""
    outside, inside = build.document.pages
    return impose(outside, inside, build.spread.piece(), layout, marks=marks,
                  fonts=bundled_fonts(), names=("outsides", "insides"), pieces="cards",
                  title=f"Ada Example – cards on {layout.duplex.paper.upper()}")


def _mark_segments(page, layer_name: str = "cards") -> list[tuple[Seg, Line]]:
    """Top-level lines of a sheet page's card layer: the per-card marks."""
    layer = next(layer for layer in page.layers if layer.name == layer_name)
    return [(((i.x1, i.y1), (i.x2, i.y2)), i) for i in layer.items if isinstance(i, Line)]


@pytest.mark.parametrize("offset", [(0.0, 0.0), (1.5, -2.0)])
@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_impose_places_cards_and_marks_back_to_back(sheet_build, paper, flip, offset):
    geometry, piece = sheet_build.geometry, sheet_build.spread.piece()
    layout = plan(sheet_build.spread, paper, flip, offset)
    doc = impose_card(sheet_build, layout)
    assert len(doc.pages) == 2
    front, back = doc.pages
    assert (front.name, back.name) == ("outsides", "insides")
    pw, ph = PAPER_MM[paper]
    assert (front.width, front.height, back.width, back.height) == pytest.approx(
        (pw, ph, pw, ph))
    groups = [[i for i in next(la for la in page.layers if la.name == "cards").items
               if isinstance(i, Group)] for page in (front, back)]
    assert [g.transform for g in groups[0]] == list(layout.fronts)
    assert [g.transform for g in groups[1]] == [layout.back_placement(f, piece)
                                                for f in layout.fronts]
    for g in groups[0] + groups[1]:
        assert g.clip == geometry.bleed_box
    # Nothing of the card's own slug marks or dieline comes along.
    slug_and_dieline = (PRINT_SHOP.crop, PRINT_SHOP.fold, CUT_STROKE, SCORE_STROKE)
    for g in groups[0] + groups[1]:
        for item, _ in walk(g.items):
            assert getattr(item, "name", None) not in ("slug-info", "dieline-legend")
            assert getattr(item, "stroke", None) not in slug_and_dieline, item

    front_marks, back_marks = _mark_segments(front), _mark_segments(back)
    # Per card, 8 crop marks, 2 cut marks and 2 fold marks; on the inside also the 2
    # cut-end ticks, each a white casing and a black line, which lie on the card.
    casings = {seg for seg, line in back_marks if line.stroke.color.cmyk_fractions == (0, 0, 0, 0)}
    ticks = [(seg, line) for seg, line in back_marks if seg in casings]
    back_marks = [m for m in back_marks if m not in ticks]
    assert len(front_marks) == len(back_marks) == 12 * layout.count
    assert len(ticks) == 4 * layout.count
    for seg, _ in ticks:
        assert sum(not seg_enters(seg, box, EPS) for box in [
            placed_box(geometry.trim, layout.back_placement(f, piece))
            for f in layout.fronts]) == layout.count - 1, "a tick lies on its own card"
    bleeds_front = [placed_box(geometry.bleed_box, f) for f in layout.fronts]
    bleeds_back = [placed_box(geometry.bleed_box, layout.back_placement(f, piece))
                   for f in layout.fronts]
    for marks, bleeds in ((front_marks, bleeds_front), (back_marks, bleeds_back)):
        for seg, _ in marks:
            for box in bleeds:
                assert not seg_enters(seg, box, EPS), (seg, box)
    # Every mark on side 2 lies exactly behind the same mark on side 1 (plus the offset).
    dx, dy = offset
    seen_from_back = {
        (seg_key(tuple(flip_point(p, paper, flip) for p in seg)), line.stroke.dash)
        for seg, line in front_marks}
    unshifted = {(seg_key(((x1 - dx, y1 - dy), (x2 - dx, y2 - dy))), line.stroke.dash)
                 for ((x1, y1), (x2, y2)), line in back_marks}
    assert unshifted == seen_from_back


def test_impose_refuses_pages_that_carry_a_slug(example_build):
    """A print shop's page (with its slug marks) is not a piece to impose."""
    layout = plan(example_build.spread, "a4")
    with pytest.raises(ValueError, match=r"end at their bleed.*'outside' reaches 6 mm"):
        impose_card(example_build, layout)


def test_impose_without_marks_has_no_mark_lines(sheet_build):
    layout = plan(sheet_build.spread, "a4")
    doc = impose_card(sheet_build, layout, marks=False)
    for page in doc.pages:
        assert _mark_segments(page) == []


@pytest.mark.parametrize("offset", [(0.0, 0.0), (0.8, -1.25)])
@pytest.mark.parametrize("flip", ["long", "short"])
def test_registration_model_zero_ticks(flip, offset):
    duplex = Duplex(Paper.A4, Flip(flip), offset)
    front, back = build_registration(duplex, bundled_fonts()).pages
    f_lines = [((i.x1, i.y1), (i.x2, i.y2)) for i, _ in walk(front.layers[0].items)
               if isinstance(i, Line)]
    b_lines = [((i.x1, i.y1), (i.x2, i.y2)) for i, _ in walk(back.layers[0].items)
               if isinstance(i, Line)]
    _check_registration(f_lines, b_lines, "a4", flip, offset, EPS)


# --- reading the PDF back -----------------------------------------------------------------


class PdfPage:
    """One PDF page as seen by pdfplumber, converted to mm with y down."""

    def __init__(self, page) -> None:
        self.width_pt, self.height_pt = float(page.width), float(page.height)
        h = self.height_pt

        def y_down(y_up: float) -> float:
            return (h - y_up) / PT

        self.lines = []  # (segment, width mm, stroking colour, dash)
        for ln in page.lines:
            # Axis-parallel lines only (the marks and scales); bbox corners are the ends.
            if abs(ln["x1"] - ln["x0"]) > 1e-3 and abs(ln["y1"] - ln["y0"]) > 1e-3:
                continue
            seg = ((ln["x0"] / PT, y_down(ln["y1"])), (ln["x1"] / PT, y_down(ln["y0"])))
            dash = tuple(ln["dash"][0]) if ln.get("dash") else ()
            self.lines.append((seg, ln["linewidth"] / PT, ln["stroking_color"], dash))
        self.rects = [(Box(r["x0"] / PT, y_down(r["y1"]), r["width"] / PT, r["height"] / PT),
                       r) for r in page.rects]
        # (words only come with top/bottom, measured down from the top of the page)
        self.words = [(w["text"], Box(w["x0"] / PT, w["top"] / PT, (w["x1"] - w["x0"]) / PT,
                                      (w["bottom"] - w["top"]) / PT))
                      for w in page.extract_words()]
        self.chars = [(c["text"], c["x0"] / PT, y_down(c["y0"]), c["size"]) for c in page.chars]

    def _black_lines(self, dashed: bool | None = None) -> list[Seg]:
        """0.12 mm lines in 100 % black (solid or dashed or both)."""
        out = []
        for seg, width, color, dash in self.lines:
            if abs(width - 0.12) > 0.005 or tuple(color or ()) != (0.0, 0.0, 0.0, 1.0):
                continue
            if dashed is None or bool(dash) == dashed:
                out.append(seg)
        return out

    def casings(self) -> list[Seg]:
        """The white casings of the cut-end ticks: 0.42 mm lines of no ink."""
        return [seg for seg, width, color, dash in self.lines
                if abs(width - 0.42) <= 0.005 and tuple(color or ()) == (0.0, 0.0, 0.0, 0.0)
                and not dash]

    def ticks(self) -> list[Seg]:
        """The cut-end ticks: solid black 0.12 mm lines drawn on a white casing."""
        cased = {seg_key(s) for s in self.casings()}
        return [s for s in self._black_lines(dashed=False) if seg_key(s) in cased]

    def marks(self, dashed: bool | None = None) -> list[Seg]:
        """The sheet's marks outside the cards: 0.12 mm lines in 100 % black (solid crop
        and cut marks, dashed fold marks), without the cut-end ticks."""
        ticks = {seg_key(s) for s in self.ticks()}
        return [s for s in self._black_lines(dashed) if seg_key(s) not in ticks]

    def text(self) -> str:
        return "".join(c[0] for c in self.chars)


@functools.cache
def read_pdf(path: Path) -> tuple[PdfPage, ...]:
    """Parsed once per file (every run writes to a fresh folder); treat as read-only."""
    with pdfplumber.open(path) as pdf:
        return tuple(PdfPage(p) for p in pdf.pages)


DEFAULT_OPTIONS = {"--paper": "a4", "--flip": "long", "--offset": "0,0"}


def _canonical(args: tuple[str, ...]) -> tuple[str, ...]:
    """The options that make a sheet different: "--flip long" is the same run as none."""
    options: dict[str, str] = {}
    flags: list[str] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if "=" in arg:
            name, value = arg.split("=", 1)
            options[name] = value
        elif arg in ("--paper", "--flip", "--offset", "--preset"):
            options[arg] = rest.pop(0)
        else:
            flags.append(arg)
    return (*sorted((k, v) for k, v in options.items() if DEFAULT_OPTIONS.get(k) != v),
            *sorted(flags))


@pytest.fixture(scope="module")
def sheet_cli(tmp_path_factory):
    """Run `cardgen sheet CONFIG -o DIR ARGS` (in process) once per distinct sheet;
    (folder, result)."""
    folder = tmp_path_factory.mktemp("config")
    configs = {"base": write_config(folder, SHEET_CONFIG),
               "wide": write_config(folder, WIDE_CONFIG, name="wide.toml")}
    cache: dict[tuple, tuple[Path, object]] = {}

    def run(*args: str, config: str = "base"):
        key = (config, *_canonical(args))
        if key not in cache:
            out = tmp_path_factory.mktemp("sheet")
            result = ok(cli("sheet", configs[config], "-o", out, *args))
            cache[key] = (out, result)
        return cache[key]

    return run


def sheet_pages(sheet_cli, *args: str, config: str = "base") -> tuple[PdfPage, ...]:
    out, _ = sheet_cli(*args, config=config)
    return read_pdf(out / "sheet.pdf")


def find_bleeds(page: PdfPage, geometry: CardGeometry) -> list[Box]:
    """The cards' filled background rectangles: the bleed boxes actually drawn."""
    w, h = geometry.bleed_box.w, geometry.bleed_box.h
    found = []
    for box, raw in page.rects:
        if raw.get("fill") and any(abs(box.w - a) < PDF_TOL and abs(box.h - b) < PDF_TOL
                                   for a, b in ((w, h), (h, w))):
            found.append(box)
    return found


def same_boxes(a: list[Box], b: list[Box], tol: float = PDF_TOL) -> bool:
    key = lambda box: (round(box.x / tol / 10), round(box.y / tol / 10))  # noqa: E731
    sa, sb = sorted(a, key=key), sorted(b, key=key)
    return len(sa) == len(sb) and all(
        abs(p.x - q.x) < tol and abs(p.y - q.y) < tol and abs(p.w - q.w) < tol
        and abs(p.h - q.h) < tol for p, q in zip(sa, sb, strict=True))


def check_squares(page: PdfPage) -> list[Box]:
    """The 10 mm check squares drawn on a page, by their outer edge: the rectangle's path
    grown by half its stroke."""
    found = []
    for box, raw in page.rects:
        outer = grow(box, raw["linewidth"] / PT / 2) if raw.get("stroke") else box
        if abs(outer.w - 10) <= SQUARE_TOL and abs(outer.h - 10) <= SQUARE_TOL:
            found.append(outer)
    return found


# --- 3. the sheet PDF ---------------------------------------------------------------------


def test_sheet_pdf_pages_and_contents(sheet_cli):
    out, result = sheet_cli()
    assert "4 cards per sheet (2 × 2)" in result.stdout
    assert "flip on the long edge" in result.stdout
    path = out / "sheet.pdf"
    reader = PdfReader(path)
    assert len(reader.pages) == 2
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            PAPER_PT["a4"], abs=0.01)
    p1, p2 = read_pdf(path)
    layout = plan(sheet_spread("eu"), "a4")
    # Page 1: the outsides, the person's name once per card.
    assert [t for t, _ in p1.words].count("Ada") == layout.count
    assert p1.text().count("Ada Example") == layout.count
    assert "Side 1 of 2: outsides" in p1.text()
    # Page 2: the insides, with both grids' labels on every card, and no name.
    words2 = [t for t, _ in p2.words]
    assert "Ada" not in words2
    for label in "ABCDEFGHIJ":
        assert words2.count(label) >= 2 * layout.count, label
    for number in range(1, 10):
        assert words2.count(str(number)) >= 2 * layout.count, number
    # grid A is turned 180°, so its "10" reads back as "01"
    assert words2.count("10") + words2.count("01") >= 2 * layout.count
    assert "Side 2 of 2: insides" in p2.text()
    # The cards are drawn where the model puts them, on both sides.
    geometry, piece = sheet_geometry("eu"), sheet_spread("eu").piece()
    assert same_boxes(find_bleeds(p1, geometry),
                      [placed_box(geometry.bleed_box, f) for f in layout.fronts])
    assert same_boxes(find_bleeds(p2, geometry),
                      [placed_box(geometry.bleed_box, layout.back_placement(f, piece))
                       for f in layout.fronts])


@pytest.mark.slow
def test_names_print_behind_the_lower_inside_half(sheet_cli):
    """Physically: the name on the front panel has grid B's half of the inside behind it."""
    geometry, piece = sheet_geometry("eu"), sheet_spread("eu").piece()
    for flip in ("long", "short"):
        layout = plan(sheet_spread("eu"), "a4", flip)
        p1, _ = sheet_pages(sheet_cli, "--flip", flip)
        halves = [placed_box(geometry.front, layout.back_placement(f, piece))
                  for f in layout.fronts]  # lower half, same box in both views
        names = [box for text, box in p1.words if text == "Ada"]
        assert len(names) == layout.count
        for box in names:
            behind = flip_point(box.center, "a4", flip)
            assert sum(half.contains(*behind) for half in halves) == 1, (flip, behind)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_check_square_is_10_mm_on_both_pages(sheet_cli, flip):
    pages = sheet_pages(sheet_cli, "--flip", flip)
    duplex = plan(sheet_spread("eu"), "a4", flip).duplex
    for page, band in zip(pages, (duplex.info, duplex.back_box(duplex.info)), strict=True):
        squares = check_squares(page)
        assert len(squares) == 1, squares
        square = squares[0]
        assert within(square, band, PDF_TOL)
        assert within(square, Box(MARGIN, MARGIN, 210 - 2 * MARGIN, 297 - 2 * MARGIN),
                      PDF_TOL)


# --- 4. per-card crop marks ---------------------------------------------------------------


def test_office_marks_start_at_the_bleed_edge():
    assert OFFICE.gap == 0.0 and OFFICE.length == SHEET_MARK == MARK_ROOM


def _check_card_marks(page: PdfPage, bleeds: list[Box], bleed: float, paper: str) -> None:
    crop = page.marks(dashed=False)
    assert len(crop) == 10 * len(bleeds)  # 8 crop marks, 2 cut marks
    every = page.marks()
    for seg in every:
        for box in bleeds:
            assert not seg_enters(seg, box, PDF_TOL), f"mark {seg} inside the bleed {box}"
        pw, ph = PAPER_MM[paper]
        for x, y in seg:
            assert MARGIN - PDF_TOL <= x <= pw - MARGIN + PDF_TOL
            assert MARGIN - PDF_TOL <= y <= ph - MARGIN + PDF_TOL
    for box in bleeds:
        trim = grow(box, -bleed)
        for (cx, cy), (sx, sy) in zip(corners(trim), ((-1, -1), (1, -1), (1, 1), (-1, 1)),
                                      strict=True):
            # A horizontal mark on the trim line y = cy, outward in x beyond the bleed ...
            horizontal = [s for s in crop if abs(s[0][1] - cy) < PDF_TOL
                          and abs(s[1][1] - cy) < PDF_TOL
                          and min(sx * (s[0][0] - cx), sx * (s[1][0] - cx)) >= bleed - PDF_TOL
                          and max(sx * (s[0][0] - cx), sx * (s[1][0] - cx))
                          <= bleed + SHEET_MARK + PDF_TOL
                          and abs(s[0][0] - s[1][0]) >= 2.0]
            # ... and a vertical one on x = cx, outward in y.
            vertical = [s for s in crop if abs(s[0][0] - cx) < PDF_TOL
                        and abs(s[1][0] - cx) < PDF_TOL
                        and min(sy * (s[0][1] - cy), sy * (s[1][1] - cy)) >= bleed - PDF_TOL
                        and max(sy * (s[0][1] - cy), sy * (s[1][1] - cy))
                        <= bleed + SHEET_MARK + PDF_TOL
                        and abs(s[0][1] - s[1][1]) >= 2.0]
            assert len(horizontal) == 1 and len(vertical) == 1, (box, (cx, cy))


@pytest.mark.parametrize(("args", "config", "paper", "geometry"), [
    ((), "base", "a4", "eu"),
    (("--flip", "short"), "base", "a4", "eu"),
    pytest.param(("--paper", "letter", "--flip", "short", "--preset", "us"), "base", "letter",
                 "us", marks=pytest.mark.slow),
    ((), "wide", "a4", "wide"),
])
def test_crop_marks_at_every_card_corner_outside_the_bleed(sheet_cli, args, config, paper,
                                                          geometry):
    geo = SPREADS[geometry].geometry
    pages = sheet_pages(sheet_cli, *args, config=config)
    for page in pages:
        bleeds = find_bleeds(page, geo)
        assert len(bleeds) == expected_count(geo, paper)
        _check_card_marks(page, bleeds, geo.size.bleed, paper)


@pytest.mark.parametrize(("args", "config", "paper", "flip"), [
    ((), "base", "a4", "long"),
    (("--flip", "short"), "base", "a4", "short"),
    (("--paper", "letter", "--flip", "short", "--preset", "us"), "base", "letter", "short"),
    ((), "wide", "a4", "long"),
])
def test_pdf_marks_on_side_2_lie_behind_those_on_side_1(sheet_cli, args, config, paper, flip):
    p1, p2 = sheet_pages(sheet_cli, *args, config=config)
    for dashed in (False, True):
        front = {seg_key(tuple(flip_point(p, paper, flip) for p in s))
                 for s in p1.marks(dashed)}
        back = {seg_key(s) for s in p2.marks(dashed)}
        assert front and front == back


def _expected_cut_and_fold_marks(geometry: CardGeometry, side: int, placement: Affine,
                                 ) -> tuple[set, set, set]:
    """Written out from the card's physics: (cut marks, fold marks, cut-end ticks) of one
    card on one side of a sheet, as segment keys. The inside view: each tab's slit runs
    along the fold from a long edge to its hinge; each hinge from the top edge to the
    fold. The outside view is the inside mirrored about the card's centre line."""
    t, y, bleed = geometry.trim, geometry.fold_y, geometry.size.bleed
    slits = [((t.x, y), (geometry.hinge_left, y)), ((t.x + t.w, y), (geometry.hinge_right, y))]
    hinges = [((x, t.y), (x, y)) for x in (geometry.hinge_left, geometry.hinge_right)]
    if side == 0:
        slits = [(to_inside(geometry, a), to_inside(geometry, b)) for a, b in slits]
        hinges = [(to_inside(geometry, a), to_inside(geometry, b)) for a, b in hinges]

    def outward(edge, inner, start, length):
        ux, uy = ((edge[0] - inner[0]) / math.dist(edge, inner),
                  (edge[1] - inner[1]) / math.dist(edge, inner))
        return ((edge[0] + ux * start, edge[1] + uy * start),
                (edge[0] + ux * (start + length), edge[1] + uy * (start + length)))

    def placed(seg):
        return seg_key(tuple(apply(placement, p) for p in seg))

    cuts = {placed(outward(edge, inner, bleed, SHEET_MARK)) for edge, inner in slits}
    folds = {placed(outward(top, bottom, bleed, SHEET_MARK)) for top, bottom in hinges}
    # The tick: the slit's last 3 mm, ending where the slit ends (the inside only).
    ticks = {placed((outward(inner, edge, -SHEET_MARK, 0)[0], inner)) for edge, inner in slits}
    return cuts, folds, ticks if side == 1 else set()


@pytest.mark.parametrize(("args", "config", "paper", "flip", "kind"), [
    ((), "base", "a4", "long", "eu"),
    (("--paper", "letter", "--flip", "short", "--preset", "us"), "base", "letter", "short",
     "us"),
    ((), "wide", "a4", "long", "wide"),
])
def test_cut_and_fold_marks_where_the_card_is_cut_and_folded(sheet_cli, args, config, paper,
                                                            flip, kind):
    """At fold height on the long edges the card is cut (the tabs' slits), so the marks
    there are solid cut marks, and the main fold, which stops at the hinges, has none.
    Where each hinge meets the top edge: a dashed fold mark. On the inside only, a tick
    along each slit's last 3 mm ends exactly where the slit ends, on a white casing."""
    spread = SPREADS[kind]
    geometry, piece = spread.geometry, spread.piece()
    layout = plan(spread, paper, flip)
    pages = sheet_pages(sheet_cli, *args, config=config)
    for side, page in enumerate(pages):
        cuts, folds, ticks = set(), set(), set()
        for front in layout.fronts:
            placement = front if side == 0 else layout.back_placement(front, piece)
            c, f, k = _expected_cut_and_fold_marks(geometry, side, placement)
            cuts |= c
            folds |= f
            ticks |= k
        solid = {seg_key(s) for s in page.marks(dashed=False)}
        dashed = {seg_key(s) for s in page.marks(dashed=True)}
        assert len(cuts) == 2 * layout.count and cuts <= solid, side
        assert len(solid) == 10 * layout.count  # 8 crop marks and 2 cut marks per card
        assert dashed == folds and len(folds) == 2 * layout.count, side
        assert {seg_key(s) for s in page.ticks()} == ticks, side
        assert {seg_key(s) for s in page.casings()} == ticks, side
        assert len(ticks) == (2 * layout.count if side == 1 else 0)


@pytest.mark.slow
def test_no_marks_removes_them(sheet_cli):
    pages = sheet_pages(sheet_cli, "--no-marks")
    # The outsides draw no other 0.12 mm lines: none at all there, whatever the colour.
    assert [seg for seg, width, *_ in pages[0].lines if abs(width - 0.12) < 1e-3 / PT] == []
    for page in pages:
        assert page.marks() == []
        # the check square stays
        assert len(check_squares(page)) == 1


# --- 5. the offset ------------------------------------------------------------------------


def _card_chars(page: PdfPage, stop: str) -> list[tuple[str, float, float]]:
    """The characters drawn before the caption line that names the offset."""
    text = page.text()
    end = text.index(stop)
    return [(t, x, y) for t, x, y, _ in page.chars[:end]]


# The quick loop moves the back of the US card's letter sheet turned on its short edge
# (every option changed at once); the full run each paper and flip alone as well.
@pytest.mark.parametrize("args", [
    pytest.param(("--paper", "a4", "--flip", "long"), marks=pytest.mark.slow),
    pytest.param(("--paper", "a4", "--flip", "short"), marks=pytest.mark.slow),
    ("--paper", "letter", "--flip", "short", "--preset", "us"),
])
def test_offset_moves_side_2_only(sheet_cli, args):
    dx, dy = 1.5, -2.0  # --offset=1.5,-2: 1.5 mm right and 2 mm UP (+Y is down)
    a1, a2 = sheet_pages(sheet_cli, *args)
    b1, b2 = sheet_pages(sheet_cli, *args, "--offset=1.5,-2")
    # Side 2: every line, rectangle and character moves by exactly (dx, dy).
    assert len(a2.lines) == len(b2.lines) > 0
    for (sa, *_), (sb, *_) in zip(a2.lines, b2.lines, strict=True):
        for (xa, ya), (xb, yb) in zip(sa, sb, strict=True):
            assert (xb - xa, yb - ya) == pytest.approx((dx, dy), abs=PDF_TOL)
    assert len(a2.rects) == len(b2.rects) > 0
    for (ra, _), (rb, _) in zip(a2.rects, b2.rects, strict=True):
        assert (rb.x - ra.x, rb.y - ra.y) == pytest.approx((dx, dy), abs=PDF_TOL)
    # (the rectangles include the check square on both sides)
    for page in (a1, a2, b1, b2):
        assert len(check_squares(page)) == 1
    ca, cb = _card_chars(a2, "Side 2 of 2"), _card_chars(b2, "Side 2 of 2")
    assert len(ca) == len(cb) > 100
    for (ta, xa, ya), (tb, xb, yb) in zip(ca, cb, strict=True):
        assert ta == tb
        assert (xb - xa, yb - ya) == pytest.approx((dx, dy), abs=PDF_TOL)
    assert "back offset 1.5, -2 mm" in b2.text().replace("\u2212", "-")
    # Side 1: nothing moves.
    assert [s for s, *_ in a1.lines] == [s for s, *_ in b1.lines]
    assert [r for r, _ in a1.rects] == [r for r, _ in b1.rects]
    assert _card_chars(a1, "Side 1 of 2") == _card_chars(b1, "Side 1 of 2")


@pytest.mark.parametrize(("value", "message"), [
    ("30,0", "implausible"), ("1.5", "two numbers"), ("a,b", "two numbers")])
def test_bad_offset_is_a_one_line_error(tmp_path, value, message):
    result = cli("sheet", write_config(tmp_path), "-o", tmp_path / "o", f"--offset={value}")
    error_line(result, "--offset", message)


def test_bad_paper_flip_and_margin_are_one_line_errors(tmp_path):
    config = write_config(tmp_path)
    for args, needles, status in (
            (("--paper", "a5"), ("--paper", "a4, letter", "'a5'"), 2),  # not a choice: usage
            (("--flip", "diagonal"), ("--flip", "long, short", "'diagonal'"), 2),
            (("--margin", "31"), ("--margin", "0–30 mm", "31"), 1)):
        result = cli("sheet", config, "-o", tmp_path / "o", *args)
        error_line(result, *needles, status=status)


# --- 6. the registration test page --------------------------------------------------------


def _check_registration(front_lines: list[Seg], back_lines: list[Seg], paper: str, flip: str,
                        offset: tuple[float, float], tol: float) -> None:
    def length(s: Seg) -> float:
        return math.hypot(s[1][0] - s[0][0], s[1][1] - s[0][1])

    def vertical(s: Seg) -> bool:
        return abs(s[0][0] - s[1][0]) < tol

    crossing = [s for s in front_lines if length(s) > 20]
    assert len(crossing) == 10  # five crosses
    zero_ticks = [s for s in back_lines if abs(length(s) - 3.2) < tol]
    assert len(zero_ticks) == 10  # a horizontal and a vertical scale per cross
    dx, dy = offset
    used = []
    for line in crossing:
        (x1, y1), (x2, y2) = (flip_point(p, paper, flip) for p in line)
        x1, x2, y1, y2 = x1 + dx, x2 + dx, y1 + dy, y2 + dy
        if vertical(line):
            # The horizontal scale (measuring X): its zero tick is vertical, at the line's
            # x, and within the line's span so that the line crosses the scale.
            match = [t for t in zero_ticks if vertical(t) and abs(t[0][0] - x1) < tol
                     and min(y1, y2) - tol <= min(t[0][1], t[1][1])
                     and max(t[0][1], t[1][1]) <= max(y1, y2) + tol]
        else:
            match = [t for t in zero_ticks if not vertical(t) and abs(t[0][1] - y1) < tol
                     and min(x1, x2) - tol <= min(t[0][0], t[1][0])
                     and max(t[0][0], t[1][0]) <= max(x1, x2) + tol]
        assert len(match) == 1, (line, flip)
        used.append(match[0])
    assert len({seg_key(t) for t in used}) == 10


@pytest.mark.parametrize(("paper", "flip", "offset"), [
    ("a4", "long", "0,0"), ("a4", "short", "0,0"), ("letter", "short", "0,0"),
    ("a4", "long", "0.5,-0.3"), ("a4", "long", "0.5,0.25"), ("a4", "short", "0.5,0.25")])
def test_registration_pdf(sheet_cli, paper, flip, offset):
    out, _ = sheet_cli("--registration", "--paper", paper, "--flip", flip, f"--offset={offset}")
    assert not (out / "sheet.pdf").exists()
    path = out / "sheet-registration.pdf"
    assert len(PdfReader(path).pages) == 2
    side1, side2 = read_pdf(path)
    assert (side1.width_pt, side1.height_pt) == pytest.approx(PAPER_PT[paper], abs=0.01)
    assert "side 1 of 2" in side1.text() and "side 2 of 2" in side2.text()
    assert f"(flip on the {flip} edge)" in " ".join(t for t, _ in side1.words)
    front = [s for s, *_ in side1.lines]
    back = [s for s, *_ in side2.lines]
    # Side 1 has only the crossing lines, side 2 only the scales.
    assert len(front) == 10 and all(math.dist(*s) == pytest.approx(24, abs=PDF_TOL)
                                    for s in front)
    assert len(back) == 10 * 21 and max(math.dist(*s) for s in back) < 4
    shift = tuple(float(v) for v in offset.split(","))
    _check_registration(front, back, paper, flip, shift, PDF_TOL)
    for page in (side1, side2):
        assert len(check_squares(page)) == 1


# --- 7. US cards on Letter, short-edge flip -----------------------------------------------


def test_letter_short_us_end_to_end(sheet_cli):
    out, result = sheet_cli("--paper", "letter", "--flip", "short", "--preset", "us")
    assert "4 cards per sheet (2 × 2)" in result.stdout
    assert "flip on the short edge" in result.stdout
    reader = PdfReader(out / "sheet.pdf")
    assert len(reader.pages) == 2
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            PAPER_PT["letter"], abs=0.01)
    p1, p2 = read_pdf(out / "sheet.pdf")
    geometry, piece = sheet_geometry("us"), sheet_spread("us").piece()
    layout = plan(sheet_spread("us"), "letter", "short")
    assert [t for t, _ in p1.words].count("Ada") == layout.count == 4
    assert same_boxes(find_bleeds(p1, geometry),
                      [placed_box(geometry.bleed_box, f) for f in layout.fronts])
    assert same_boxes(find_bleeds(p2, geometry),
                      [placed_box(geometry.bleed_box, layout.back_placement(f, piece))
                       for f in layout.fronts])
    assert "LETTER" in p2.text() and "short edge" in p2.text()
    # Short edge: side 2's caption band is at the top, behind side 1's.
    (square1,), (square2,) = check_squares(p1), check_squares(p2)
    assert square1.y > PAPER_MM["letter"][1] / 2 > square2.y
    assert square2.y == pytest.approx(PAPER_MM["letter"][1] - square1.y - 10, abs=PDF_TOL)


def test_turned_cards_end_to_end(sheet_cli):
    out, result = sheet_cli(config="wide")
    assert "(2 × 2, turned)" in result.stdout
    geometry, piece = SPREADS["wide"].geometry, SPREADS["wide"].piece()
    layout = plan(SPREADS["wide"], "a4")
    p1, p2 = read_pdf(out / "sheet.pdf")
    assert same_boxes(find_bleeds(p1, geometry),
                      [placed_box(geometry.bleed_box, f) for f in layout.fronts])
    assert same_boxes(find_bleeds(p2, geometry),
                      [placed_box(geometry.bleed_box, layout.back_placement(f, piece))
                       for f in layout.fronts])
