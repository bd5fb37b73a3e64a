"""N-up duplex sheets: counts, duplex physics, marks, check square, offset, registration."""

from __future__ import annotations

import itertools
import math

import pdfplumber
import pytest

from cardgen.cardgeometry import PRESETS, CardGeometry
from cardgen.geometry import Affine, Box
from cardgen.sheet import INFO_BAND, PAPERS, SHEET_MARK, plan_sheet
from cardgen.units import PT_PER_MM
from tests.conftest import run_cli, write_config

EU, US = CardGeometry(PRESETS["eu"], marks=False), CardGeometry(PRESETS["us"], marks=False)


def _expected_count(g: CardGeometry, paper: str, margin: float = 5.0) -> int:
    pw, ph = PAPERS[paper]
    w, h = g.bleed_box.w + 2 * SHEET_MARK, g.bleed_box.h + 2 * SHEET_MARK
    aw, ah = pw - 2 * margin, ph - 2 * margin - INFO_BAND
    return max(int(aw // w) * int(ah // h), int(aw // h) * int(ah // w))


@pytest.mark.parametrize(("g", "paper", "count"), [(EU, "a4", 4), (EU, "letter", 4),
                                                   (US, "letter", 4), (US, "a4", None)])
def test_as_many_cards_as_fit(g, paper, count):
    layout = plan_sheet(g, paper)
    assert layout.count == _expected_count(g, paper)
    if count is not None:
        assert layout.count == count
    pw, ph = PAPERS[paper]
    printable = Box(5, 5, pw - 10, ph - 10)
    areas = [g.bleed_box.inset(-SHEET_MARK).transformed(t) for t in layout.fronts]
    for area in areas:
        assert printable.contains_box(area, 1e-9)
    for a, b in itertools.combinations(areas, 2):
        overlap = min(a.right, b.right) - max(a.x, b.x), min(a.bottom, b.bottom) - max(a.y, b.y)
        assert min(overlap) <= 1e-9


def _physical_points(g: CardGeometry) -> list[tuple[float, float]]:
    """Points of the card in outside-view coordinates."""
    return [*g.trim.corners(), g.front.center, (g.trim.x + 7, g.trim.y + 11)]


@pytest.mark.parametrize("flip", ["long", "short"])
@pytest.mark.parametrize("g", [EU, US])
def test_each_inside_lands_behind_its_outside(g, flip):
    layout = plan_sheet(g, "letter", flip)
    pw, ph = PAPERS["letter"]
    for front in layout.fronts:
        back = layout.back_placement(front, g)
        assert back.a * back.d - back.b * back.c > 0  # never mirrored
        for x, y in _physical_points(g):
            fx, fy = front.apply(x, y)
            turned = (pw - fx, fy) if flip == "long" else (fx, ph - fy)
            inside = (2 * g.center_x - x, y)  # the same physical point, inside view
            assert math.dist(back.apply(*inside), turned) < 1e-9


def test_short_edge_turns_the_insides_half_round():
    long_ = plan_sheet(EU, "a4", "long")
    short = plan_sheet(EU, "a4", "short")
    a = long_.back_placement(long_.fronts[0], EU)
    b = short.back_placement(short.fronts[0], EU)
    assert (a.a, a.d) == (1, 1) and (b.a, b.d) == (-1, -1)


def test_offset_moves_only_the_back():
    plain = plan_sheet(EU, "a4", "long")
    shifted = plan_sheet(EU, "a4", "long", offset=(1.5, -2.0))
    assert plain.fronts == shifted.fronts
    for f in plain.fronts:
        p = plain.back_placement(f, EU).apply(20, 30)
        q = shifted.back_placement(f, EU).apply(20, 30)
        assert math.isclose(q[0] - p[0], 1.5) and math.isclose(q[1] - p[1], -2.0)


def _sheet(tmp_path, *args: str):
    tmp_path.mkdir(parents=True, exist_ok=True)
    config = write_config(tmp_path)
    out = tmp_path / "out"
    result = run_cli("sheet", str(config), "-o", str(out), *args)
    assert result.returncode == 0, result.stderr
    return out


def _check_square(page) -> list[dict]:
    side = 10 * PT_PER_MM
    return [r for r in page.rects if abs(r["width"] - side) < 0.05 * PT_PER_MM
            and abs(r["height"] - side) < 0.05 * PT_PER_MM]


def test_sheet_pdf_pages_marks_and_check_square(tmp_path):
    out = _sheet(tmp_path, "--paper", "a4")
    layout = plan_sheet(EU, "a4")
    with pdfplumber.open(out / "sheet.pdf") as pdf:
        assert len(pdf.pages) == 2
        for page in pdf.pages:
            assert abs(page.width - 210 * PT_PER_MM) < 0.01
            assert abs(page.height - 297 * PT_PER_MM) < 0.01
            assert len(_check_square(page)) == 1
        front_text = pdf.pages[0].extract_text()
        assert front_text.count("Ada Example") == layout.count
        assert "Side 1 of 2" in front_text and "Side 2 of 2" in pdf.pages[1].extract_text()
        # Per-card crop marks: on each card's trim lines, never inside any card's bleed.
        bleeds = [EU.bleed_box.transformed(t) for t in layout.fronts]
        marks = [ln for ln in pdf.pages[0].lines if abs(ln["linewidth"] - 0.12 * PT_PER_MM)
                 < 1e-3]
        solid = [m for m in marks if not m["dash"][0]]
        assert len(solid) == 8 * layout.count
        for mark in marks:
            for x, y in mark["pts"]:
                # Marks start at the bleed edge: allow the PDF's coordinate rounding.
                assert not any(b.contains(x / PT_PER_MM, y / PT_PER_MM, tol=-1e-3)
                               for b in bleeds)
        for t in layout.fronts:
            trim = EU.trim.transformed(t)
            for x, y in trim.corners():
                near = [m for m in solid if any(math.isclose(px / PT_PER_MM, x, abs_tol=1e-3)
                        or math.isclose(py / PT_PER_MM, y, abs_tol=1e-3)
                        for px, py in m["pts"])]
                assert len(near) >= 2


def test_no_marks_option(tmp_path):
    out = _sheet(tmp_path, "--no-marks")
    with pdfplumber.open(out / "sheet.pdf") as pdf:
        assert not [ln for ln in pdf.pages[0].lines
                    if abs(ln["linewidth"] - 0.12 * PT_PER_MM) < 1e-3]


def test_offset_end_to_end(tmp_path):
    plain = _sheet(tmp_path / "a", "--paper", "letter")
    moved = _sheet(tmp_path / "b", "--paper", "letter", "--offset=1.5,-2")
    with pdfplumber.open(plain / "sheet.pdf") as p, pdfplumber.open(moved / "sheet.pdf") as m:
        for page_a, page_b, shift in ((p.pages[0], m.pages[0], (0, 0)),
                                      (p.pages[1], m.pages[1], (1.5, -2))):
            a = _check_square(page_a)[0]
            b = _check_square(page_b)[0]
            assert math.isclose((b["x0"] - a["x0"]) / PT_PER_MM, shift[0], abs_tol=1e-3)
            assert math.isclose((b["top"] - a["top"]) / PT_PER_MM, shift[1], abs_tol=1e-3)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_registration_scales_sit_behind_the_lines(tmp_path, flip):
    out = _sheet(tmp_path, "--registration", "--flip", flip, "--offset=0.5,0.25")
    layout = plan_sheet(EU, "a4", flip, (0.5, 0.25))
    to_back = Affine.translate(0.5, 0.25) @ layout.flip_transform()
    with pdfplumber.open(out / "sheet-registration.pdf") as pdf:
        assert len(pdf.pages) == 2
        crossings = [ln for ln in pdf.pages[0].lines if ln["width"] > 20 or ln["height"] > 20]
        vertical = [ln for ln in crossings if abs(ln["x0"] - ln["x1"]) < 1e-6]
        assert len(vertical) == 5
        zero_ticks = [ln for ln in pdf.pages[1].lines
                      if math.isclose(max(ln["width"], ln["height"]) / PT_PER_MM, 3.2,
                                      abs_tol=1e-3)]
        tick_x = {round(ln["x0"] / PT_PER_MM, 3) for ln in zero_ticks if ln["width"] < 1e-6}
        for line in vertical:
            x = line["x0"] / PT_PER_MM
            y = (line["top"] + line["bottom"]) / 2 / PT_PER_MM
            bx, _ = to_back.apply(x, y)
            assert round(bx, 3) in tick_x
