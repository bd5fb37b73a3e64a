"""The printed card read back from its PDF, SVG and PNG files (SPEC §2–§3)."""

from __future__ import annotations

import io
import itertools
import math
import re
import shutil
import subprocess

import pytest
from pypdf import PdfReader

from cardgen.board.cells import COLUMNS, Grid
from cardgen.connector.layout import bundled_layout
from cardgen.draw.geometry import Box
from cardgen.physical.card import Preset, Tab
from cardgen.physical.links import link_positions
from cardgen.units import PT_PER_MM

TOL = 0.02  # mm


def _mm_box(values) -> Box:
    x0, y0, x1, y1 = (float(v) / PT_PER_MM for v in values)
    return Box(x0, y0, x1 - x0, y1 - y0)


def _flip(spread, box: Box) -> Box:
    """A model box (y down) as a PDF box in mm (y up)."""
    return Box(box.x, spread.page_height - box.bottom, box.w, box.h)


def _close_box(a: Box, b: Box, tol: float = TOL) -> bool:
    return all(abs(p - q) <= tol for p, q in zip((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h),
                                                  strict=True))


def _chars(page, spread) -> list[dict]:
    """pdfplumber chars with their origin in model mm (y down) and direction (degrees)."""
    out = []
    for c in page.chars:
        a, b, _, _, e, f = c["matrix"]
        out.append({"text": c["text"], "x": e / PT_PER_MM, "y": spread.page_height - f / PT_PER_MM,
                    "angle": round(math.degrees(math.atan2(-b, a))) % 360,
                    "size": c["size"], "font": c["fontname"]})
    return out


def test_two_pages_with_boxes(example_build, example_pdf_reader):
    spread, g = example_build.spread, example_build.geometry
    reader = example_pdf_reader
    assert len(reader.pages) == 2  # outside, inside: the dieline is a file of its own
    for page in reader.pages:
        assert _close_box(_mm_box(page.trimbox), _flip(spread, g.trim))
        assert _close_box(_mm_box(page.bleedbox), _flip(spread, g.bleed_box))
        assert _close_box(_mm_box(page.mediabox),
                          Box(0, 0, spread.page_width, spread.page_height))


def test_front_upright_back_turned(example_build, example_plumber):
    g = example_build.geometry
    chars = _chars(example_plumber.pages[0], example_build.spread)
    name = example_build.document.title.split(" –")[0]
    first = [c for c in chars if c["text"] == name[0] and c["size"] > 12]
    assert first and all(c["angle"] == 0 and c["y"] > g.fold_y for c in first)
    # The back panel is printed turned 180°: its upright text reads upside down on the
    # flat sheet, and each Connector fragment runs its own direction on top of that.
    back = [c for c in chars if c["y"] < g.fold_y - 0.1 and g.trim.contains(c["x"], c["y"])]
    rotations = {f.rotation for f in bundled_layout(Preset.EU).fragments}
    assert {c["angle"] for c in back} == {(180 + r) % 360 for r in rotations}
    assert sum(c["angle"] == 180 for c in back) > 100


def test_link_numbers_on_the_back_panel(example_build, example_plumber):
    g = example_build.geometry
    chars = _chars(example_plumber.pages[0], example_build.spread)
    for number in "1234":
        u, v = link_positions(g)[number]
        x, y = g.back_to_page.apply(u, v)
        hits = [c for c in chars if c["text"] == number and c["angle"] == 180
                and math.dist((c["x"], c["y"]), (x, y)) < 2.5]
        assert len(hits) == 1, number


def test_grid_labels(example_build, example_plumber):
    g = example_build.geometry
    chars = _chars(example_plumber.pages[1], example_build.spread)
    for grid, angle in ((Grid.A, 180), (Grid.B, 0)):
        box = g.board.grid_box(grid)
        for c, letter in enumerate(COLUMNS):
            cx, _ = g.board.cell_center(grid, c, 10)
            hits = [ch for ch in chars if ch["text"] == letter and ch["angle"] == angle
                    and abs(ch["x"] - cx) < g.cell / 2]
            assert hits, (grid, letter)
            for hit in hits:  # outside the grid, beyond Row 10
                assert hit["y"] > box.bottom if grid is Grid.B else hit["y"] < box.y
        ones = [ch for ch in chars if ch["text"] == "1" and ch["angle"] == angle
                and abs(ch["y"] - g.board.cell_center(grid, 0, 1)[1]) < g.cell / 2]
        assert ones, f"grid {grid} Row 1 label not next to the fold"


def test_grid_lines_are_equally_spaced(example_build, example_plumber):
    g, page_height = example_build.geometry, example_build.spread.page_height
    lines = example_plumber.pages[1].lines
    grid_w = 10 * g.cell * PT_PER_MM
    horizontal = sorted({round(page_height - ln["y0"] / PT_PER_MM, 4) for ln in lines
                         if abs(ln["y0"] - ln["y1"]) < 1e-6 and abs(ln["width"] - grid_w) < 0.01})
    vertical = sorted({round(ln["x0"] / PT_PER_MM, 4) for ln in lines
                       if abs(ln["x0"] - ln["x1"]) < 1e-6
                       and abs(ln["height"] - grid_w) < 0.01})
    assert len(horizontal) == 21  # 11 per grid, the fold line shared
    assert len(vertical) == 11
    for seq in (horizontal, vertical):
        steps = [b - a for a, b in itertools.pairwise(seq)]
        assert max(steps) - min(steps) < 1e-3 and abs(steps[0] - g.cell) < 1e-3
    assert abs(horizontal[10] - g.fold_y) < 1e-3


def test_crop_and_fold_marks_outside_the_bleed(example_build, example_plumber):
    g = example_build.geometry
    for page in example_plumber.pages:
        # pdfplumber's points are measured from the top, like the model.
        marks = [ln for ln in page.lines if abs(ln["linewidth"] - 0.1 * PT_PER_MM) < 1e-3
                 and not any(g.bleed_box.contains(x / PT_PER_MM, y / PT_PER_MM, tol=-1e-6)
                             for x, y in ln["pts"])]
        solid = [m for m in marks if not m["dash"][0]]
        dashed = [m for m in marks if m["dash"][0]]
        assert len(solid) == 10  # two per trim corner, the tabs' cuts at the long edges
        assert len(dashed) == 2  # the two tab hinges; the main fold never reaches the trim
        fold_y = (example_build.spread.page_height - g.fold_y) * PT_PER_MM
        assert sum(abs(m["y0"] - fold_y) < 1e-3 and abs(m["y1"] - fold_y) < 1e-3
                   for m in solid) == 2
        assert not any(abs(m["y0"] - fold_y) < 1e-3 for m in dashed)


def _content_ops(reader: PdfReader) -> str:
    return b"\n".join(p.get_contents().get_data() for p in reader.pages).decode("latin-1")


def test_cmyk_only(example_pdf, example_pdf_reader):
    ops = _content_ops(example_pdf_reader)
    assert not re.search(r"(^|\s)(rg|RG)(\s|$)", ops)
    assert re.search(r"(^|\s)k(\s|$)", ops)
    assert b"/DeviceRGB" not in example_pdf


def test_rgb_mode(example_build):
    from cardgen.render.pdf import render_pdf

    reader = PdfReader(io.BytesIO(render_pdf(example_build.document, cmyk=False)))
    ops = _content_ops(reader)
    assert re.search(r"(^|\s)rg(\s|$)", ops)
    assert not re.search(r"(^|\s)(k|K)(\s|$)", ops)


def test_fonts_embedded_and_subset(example_pdf_reader):
    seen = 0
    for page in example_pdf_reader.pages:
        fonts = page["/Resources"]["/Font"].get_object()
        for ref in fonts.values():
            font = ref.get_object()
            seen += 1
            assert font["/Subtype"] == "/TrueType", font
            assert re.match(r"/[A-Z]{6}\+", font["/BaseFont"]), font["/BaseFont"]
            assert "/FontFile2" in font["/FontDescriptor"].get_object()
    assert seen >= 3


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler's pdffonts not installed")
def test_pdffonts_reports_every_font_embedded(example_pdf, tmp_path):
    path = tmp_path / "card.pdf"
    path.write_bytes(example_pdf)
    rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True,
                          check=True).stdout.splitlines()[2:]
    assert rows
    for row in rows:
        assert row.split()[-5] == "yes", row  # the "emb" column


def test_tab_numbers_fold_onto_the_back_panel(example_build, example_plumber):
    """Fold the printed inside spread: each tab's link number must land on the back panel
    where the Connector layout expects it, upright as the back panel reads."""
    g = example_build.geometry
    chars = _chars(example_plumber.pages[1], example_build.spread)
    face = example_build.document.pages[1]
    assert face.name == "inside"
    for tab in Tab:
        hits = [c for c in chars if c["text"] == tab and g.tabs[tab].contains(c["x"], c["y"])]
        assert len(hits) == 1, tab
        hit = hits[0]
        # The glyph's box centre: the origin is at the baseline start, turned 180°.
        width = example_build.document.pages[1].layers and _glyph_width(example_build, tab)
        cap = _cap_height(example_build)
        cx, cy = hit["x"] - width / 2, hit["y"] + cap / 2
        hinge = g.hinge_left if tab is Tab.FIVE else g.hinge_right
        folded_x = 2 * hinge - cx
        outside_x = g.trim.x + g.trim.right - folded_x
        u, v = g.trim.right - outside_x, g.fold_y - cy
        assert math.dist((u, v), link_positions(g)[tab]) < 0.05
        # Printed turned 180° on the inside; folding is a translation seen from outside;
        # the back panel is itself turned 180° -- so it reads upright there.
        assert hit["angle"] == 180


def _glyph_width(build, text: str) -> float:
    from cardgen.card.layout import card_layout
    from cardgen.text.fonts import bundled_fonts

    return bundled_fonts().bold.width(text, card_layout().tabs["link_size"])


def _cap_height(build) -> float:
    from cardgen.card.layout import card_layout
    from cardgen.text.fonts import bundled_fonts

    return bundled_fonts().bold.metrics.cap_height_mm(card_layout().tabs["link_size"])


def test_text_stays_in_the_safe_zone(example_build):
    """Every text run of the front and back panels, from its tallest letter to its
    baseline and turned as it is drawn, lies inside the panel's safe area."""
    from cardgen.draw.page import Group, Text, walk
    from cardgen.text.fit import text_box

    g = example_build.geometry
    outside = example_build.document.pages[0]
    safe = g.panel_safe()
    panels = [item for item in outside.layer("content").items if isinstance(item, Group)]
    assert {p.name for p in panels} == {"front-panel", "back-panel"}
    turned = 0
    for panel in panels:
        for item, t in walk(panel.items):  # t: the item's frame -> the panel's
            if isinstance(item, Text):
                ink = text_box(item)  # to the font's descent: the baseline is what counts
                box = Box(ink.x, ink.y, ink.w, item.y - ink.y).transformed(t)
                assert safe.contains_box(box, 1e-6), (item.name, item.text, box)
                turned += not t.is_identity
    assert turned > 10  # the Connector's fragments, each in its own direction
