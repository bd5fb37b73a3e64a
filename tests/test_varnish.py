"""The spot varnish of ``cardgen card --varnish``, read back from the files it writes.

The print file's outside page carries a ``Varnish`` Separation that overprints, painted
last, over the business side's visual only: inside the front panel's bleed, off the
fold's band, clear of every line of type and of the QR code. Nothing else of the file
changes (the content stream without the flag is the start of the one with it, and
the process plates are the same), and the previews (SVG, PNG) are byte for byte those
of a run without it.
"""

from __future__ import annotations

import io
from pathlib import Path as FilePath

import pikepdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.card.build import CardBuild, build_card
from cardgen.card.config import load_config
from cardgen.card.layout import card_layout
from cardgen.card.outside import PanelContent
from cardgen.card.spread import Spread
from cardgen.card.varnish import add_varnish, business_visual
from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, LineTo, MoveTo, Page, Path, Rect
from cardgen.physical.card import PRESETS, CardGeometry, Preset
from cardgen.prepress.ink import page_ink_problems
from cardgen.prepress.varnish import (
    VARNISH,
    VARNISH_LAYER,
    VarnishMode,
    free_boxes,
    varnish_path,
)
from cardgen.render import Format, render
from cardgen.text.fonts import FontStyle, bundled_fonts
from tests.helpers import BASE_CONFIG, cli, error_line, examples, ok, write_config
from tests.pdfops import PAPER_WHITE, PageOps, Painted, TextRun, read_pages
from tests.pdfread import pdfx_problems, separation

TOL = 1e-3  # mm
DPI = 36
FOLD_GAP = card_layout().varnish["fold_gap"]
CLEARANCE = card_layout().varnish["clearance"]


@pytest.fixture(scope="module")
def varnished(tmp_path_factory: pytest.TempPathFactory) -> FilePath:
    """``cardgen card --varnish`` on the example config: PDF, SVG and PNG."""
    out = tmp_path_factory.mktemp("varnish")
    ok(cli("card", "--varnish", "layer", "-f", "pdf,svg,png", "--dpi", str(DPI), "-o", str(out)))
    return out


@pytest.fixture(scope="module")
def pages(varnished: FilePath) -> list[PageOps]:
    return read_pages(varnished / "card.pdf")


def _varnish(page: PageOps) -> list[Painted]:
    return [p for p in page.painted if "Varnish" in (p.state.fill_space, p.state.stroke_space)]


def _bounds(painted: list[Painted]) -> Box:
    return Box.around([pt for p in painted for s in p.subpaths for pt in s.points])


def _rects(painted: list[Painted]) -> list[Box]:
    return [Box.around(s.points) for p in painted for s in p.subpaths]


def test_varnish_is_an_overprinting_separation_on_the_outside_only(varnished: FilePath,
                                                                    pages: list[PageOps]):
    outside, inside = pages
    varnish = _varnish(outside)
    assert varnish and not _varnish(inside)
    for p in varnish:
        assert (p.fill, p.stroke) == (True, False)
        assert p.state.fill_color == (1.0,)  # 100 %: a varnish has no tints
        assert p.state.fill_overprint
    # It is painted last: nothing of the art comes after it.
    assert outside.painted[-len(varnish):] == varnish
    with pikepdf.open(varnished / "card.pdf") as pdf:
        spaces = pdf.pages[0].Resources.ColorSpace
        (space,) = [s for s in spaces.values() if str(s[1]) == "/Varnish"]
        assert str(space[0]) == "/Separation" and str(space[2]) == "/DeviceCMYK"
        assert not [s for s in pdf.pages[1].Resources.get("/ColorSpace", {}).values()
                    if str(s[1]) == "/Varnish"]
    assert pdfx_problems(varnished / "card.pdf") == []


def test_varnish_covers_the_band_from_bleed_to_bleed_and_stays_off_the_fold(
        pages: list[PageOps]):
    geometry = Spread(PRESETS[Preset.EU]).geometry
    front_bleed = geometry.bleed_box
    drawn = _bounds(_varnish(pages[0]))
    # Inside the front panel's bleed, at least fold_gap below the fold...
    assert drawn.y >= geometry.fold_y + FOLD_GAP - TOL
    assert drawn.bottom <= front_bleed.bottom + TOL
    # ...and through the trim at both sides, on to the bleed's edge (it may bleed).
    assert drawn.x == pytest.approx(front_bleed.x, abs=TOL)
    assert drawn.right == pytest.approx(front_bleed.right, abs=TOL)


def _ink_box(run: TextRun) -> Box:
    """Where an upright run's ink is: from the top of its tallest glyph to the font's
    descent, in the bundled face the run names."""
    faces = {face.name: face for face in (bundled_fonts().face(s) for s in FontStyle)}
    face = faces[run.font]
    (x0, y0), (x1, _) = run.start, run.end
    size = run.size_pt
    return Box(x0, y0 - face.metrics.ink_top_mm(run.chars, size), x1 - x0,
               face.metrics.ink_top_mm(run.chars, size) + face.metrics.descent_mm(size))


def test_varnish_keeps_clear_of_every_line_of_type_and_the_qr_code(pages: list[PageOps]):
    outside = pages[0]
    geometry = Spread(PRESETS[Preset.EU]).geometry
    rects = _rects(_varnish(outside))
    front = [t for t in outside.texts if t.start[1] > geometry.fold_y
             and geometry.bleed_box.contains(*t.start)]
    assert len(front) >= 7  # name, title, company, three contact lines, tagline
    assert all(t.end[0] > t.start[0] and t.end[1] == t.start[1] for t in front)  # upright
    # The QR code's quiet zone: the paper-white square on the front.
    squares = [b for p in outside.painted if p.fill and not p.stroke
               and (p.state.fill_space, p.state.fill_color) == PAPER_WHITE
               for b in _rects([p]) if abs(b.w - b.h) < TOL and b.w > 15]
    assert len(squares) == 1
    for rect in rects:
        for other in [*(_ink_box(t) for t in front), *squares]:
            assert not rect.intersects(other.inset(-CLEARANCE + TOL)), (rect, other)


def test_process_plates_are_those_of_the_card_without_varnish(varnished: FilePath,
                                                              example_pdf: bytes):
    with pikepdf.open(io.BytesIO(example_pdf)) as plain, pikepdf.open(
            varnished / "card.pdf") as coated:
        for index, (a, b) in enumerate(zip(plain.pages, coated.pages, strict=True)):
            before = pikepdf.parse_content_stream(a)
            after = pikepdf.parse_content_stream(b)
            if index:
                assert [tuple(op) for op in after] == [tuple(op) for op in before]
            else:  # the outside: the same, then the varnish and nothing else
                assert [tuple(op) for op in after[:len(before)]] == [
                    tuple(op) for op in before]
                assert len(after) > len(before)
    # The black plate as a RIP separates it: the spot overprints, so it leaves no trace.
    assert separation(varnished / "card.pdf", 0, "K", dpi=DPI).tobytes() == separation(
        example_pdf, 0, "K", dpi=DPI).tobytes()


def test_previews_leave_the_varnish_out(varnished: FilePath, example_build: CardBuild):
    plain = render(example_build.document, [Format.SVG, Format.PNG], dpi=DPI)
    for end, data in plain.items():
        assert (varnished / f"card{end}").read_bytes() == data, end
    assert b"Varnish" not in (varnished / "card-outside.svg").read_bytes()


def test_an_rgb_pdf_is_a_preview_without_the_varnish():
    coated = build_card(load_config(None), varnish=VarnishMode.LAYER)
    layer = coated.document.pages[0].layers[-1]
    assert (layer.name, layer.print_only) == (VARNISH_LAYER, True)
    assert page_ink_problems(coated.document.pages[0]) == []
    rgb = render(coated.document, [Format.PDF], cmyk=False)[".pdf"]
    assert b"Varnish" not in rgb


@pytest.mark.parametrize(("args", "needles"), [
    (("--rgb",), ("--varnish", "--rgb", "preview")),
    (("-f", "svg,png"), ("--varnish layer", "--format", "add pdf")),
])
def test_varnish_without_a_print_file_is_refused(tmp_path: FilePath, args: tuple[str, ...],
                                                 needles: tuple[str, ...]):
    result = cli("card", "--varnish", "layer", *args, "-o", str(tmp_path / "out"))
    assert error_line(result, *needles)
    assert not (tmp_path / "out").exists()


def test_a_front_without_room_for_the_curves_warns_and_has_no_varnish(tmp_path: FilePath):
    config = write_config(tmp_path, BASE_CONFIG + 'address = "1 Long Road\\nSome Town"\n'
                          '[ladder]\nability = "Look at the top card of the deck."\n')
    result = ok(cli("card", config, "--varnish", "layer", "-f", "pdf",
                    "-o", str(tmp_path / "out")))
    assert "no visual to coat" in result.stderr
    assert "Varnish" not in {p.state.fill_space for page in read_pages(
        tmp_path / "out" / "card.pdf") for p in page.painted}


def test_batch_cards_carry_the_varnish(tmp_path: FilePath):
    config = write_config(tmp_path)
    table = tmp_path / "people.csv"
    table.write_text("person.name\nSam Reed\n", encoding="utf-8")
    ok(cli("card", "--batch", table, config, "--varnish", "layer", "-f", "pdf",
           "-o", str(tmp_path / "out")))
    (outside, _inside) = read_pages(tmp_path / "out" / "sam-reed.pdf")
    assert _varnish(outside)


# --- where the coating goes, from the model ---------------------------------------------

def _front(band: tuple[float, float] | None, *plates: Box) -> PanelContent:
    return PanelContent([], band, [Rect(b.x, b.y, b.w, b.h) for b in plates])


@pytest.mark.parametrize(("band", "plates", "expected"), [
    # A band across the panel: from bleed edge to bleed edge, as it is.
    ((20.0, 30.0), (), [(-3.0, 20.0, 91.0, 10.0)]),
    # A band that reaches the fold stops fold_gap short of it.
    ((0.0, 10.0), (), [(-3.0, FOLD_GAP, 91.0, 10.0 - FOLD_GAP)]),
    # A plate in the band is cut out, exactly.
    ((20.0, 30.0), (Box(10, 25, 20, 10),),
     [(-3.0, 20.0, 13.0, 10.0), (10.0, 20.0, 20.0, 5.0), (30.0, 20.0, 58.0, 10.0)]),
    # No band, no varnish.
    (None, (), []),
])
def test_the_varnish_of_a_front(band: tuple[float, float] | None, plates: tuple[Box, ...],
                                expected: list[tuple[float, ...]]):
    geometry = CardGeometry(PRESETS[Preset.EU])
    page = Page("outside", 100, 200, geometry.trim, geometry.bleed_box)
    front = _front(band, *plates)
    layout = card_layout()
    made = add_varnish(page, geometry, business_visual(front, geometry, layout), front, layout)
    assert made == bool(expected)
    if not expected:
        assert page.layers == []
        return
    (layer,) = page.layers
    (group,) = layer.items
    assert isinstance(group, Group) and group.transform == geometry.front_to_page
    (path,) = group.items
    assert isinstance(path, Path) and path.fill == VARNISH
    got = [tuple(round(v, 6) for v in (b.x, b.y, b.w, b.h)) for b in _path_boxes(path)]
    assert got == expected
    visual = business_visual(_front(band), geometry, card_layout())
    assert visual[0].w == geometry.panel_with_bleed().w


def _path_boxes(path: Path) -> list[Box]:
    """A path of closed four-cornered subpaths as its boxes."""
    ops = path.ops
    return [Box.around([(op.x, op.y) for op in ops[i:i + 4] if isinstance(op, MoveTo | LineTo)])
            for i in range(0, len(ops), 5)]


_coords = st.integers(0, 40).map(float)
_boxes = st.builds(lambda x, y, w, h: Box(x, y, w, h), _coords, _coords,
                   st.integers(1, 20).map(float), st.integers(1, 20).map(float))


@settings(max_examples=examples(60), deadline=None)
@given(area=_boxes, keep=st.lists(_boxes, max_size=5))
def test_free_boxes_cover_the_area_less_the_keep_outs_exactly(area: Box, keep: list[Box]):
    free = free_boxes(area, keep)
    for i, box in enumerate(free):
        assert area.contains_box(box, tol=TOL) and box.w > 0 and box.h > 0
        assert not any(box.intersects(k) for k in keep)
        assert not any(box.intersects(other) for other in free[i + 1:])
    # Every half-unit cell's centre is free exactly when no keep-out holds it.
    for ix in range(int(area.w * 2)):
        for iy in range(int(area.h * 2)):
            x, y = area.x + ix / 2 + 0.25, area.y + iy / 2 + 0.25
            assert any(b.contains(x, y) for b in free) != any(k.contains(x, y) for k in keep)


def test_overlapping_areas_are_coated_once():
    path = varnish_path([Box(0, 0, 10, 10), Box(5, 5, 10, 10)], [], Box(0, 0, 100, 100))
    assert path is not None and path.fill == VARNISH
    boxes = _path_boxes(path)
    assert sum(b.w * b.h for b in boxes) == pytest.approx(175)
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])


def test_a_portrait_box_joins_the_band_and_keeps_the_same_rules():
    """A second area of the visual (a portrait's box, say) is coated like the band: off
    the fold, inside the panel with its bleed, clear of the plates, and the two are
    coated once where they overlap."""
    geometry = CardGeometry(PRESETS[Preset.EU])
    page = Page("outside", 100, 200, geometry.trim, geometry.bleed_box)
    plate = Box(50.0, 40.0, 20.0, 10.0)  # half of it over the portrait
    front = _front((20.0, 30.0), plate)
    portrait = Box(60.0, -5.0, 40.0, 70.0)  # beyond the fold, the side and the outer edge
    layout = card_layout()
    visual = [*business_visual(front, geometry, layout), portrait]
    assert add_varnish(page, geometry, visual, front, layout)
    (group,) = page.layers[0].items
    assert isinstance(group, Group)
    (path,) = group.items
    assert isinstance(path, Path)
    boxes = _path_boxes(path)
    panel = geometry.panel_with_bleed()
    assert Box.union(boxes) == Box(-3.0, FOLD_GAP, 91.0, panel.bottom - FOLD_GAP)
    assert not any(a.intersects(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    assert not any(b.intersects(plate) for b in boxes)
    band = 91.0 * 10.0
    tall = (88.0 - 60.0) * (panel.bottom - FOLD_GAP)
    assert sum(b.w * b.h for b in boxes) == pytest.approx(band + tall - 28.0 * 10.0
                                                          - 10.0 * 10.0)


def test_over_a_photo_the_varnish_coats_the_face_and_stays_inside_its_glow():
    import math
    from dataclasses import replace

    from cardgen.card.outside import front_visual
    from tests.helpers import DATA

    config = replace(load_config(None), portrait=DATA / "portrait.png")
    build = build_card(config, varnish=VarnishMode.LAYER)
    layout = card_layout()
    visual = front_visual(config, build.geometry, build.theme, build.fonts, layout)
    assert visual.glow is not None and visual.band is not None
    cx, cy, glow = visual.glow
    (page,) = [p for p in build.document.pages if any(
        layer.name == VARNISH_LAYER for layer in p.layers)]
    (layer,) = [layer for layer in page.layers if layer.name == VARNISH_LAYER]
    (group,) = layer.items
    boxes = [box for item in group.items if isinstance(item, Path) for box in _path_boxes(item)]
    # The face's middle is coated.
    assert any(b.contains(cx, cy) for b in boxes)
    # Every coated box lies in the curves' band or inside the disc the varnish is meant for.
    radius = glow * layout.varnish["portrait_share"]
    band_top, band_bottom = visual.band
    for b in boxes:
        in_band = b.y >= band_top - 1e-6 and b.bottom <= band_bottom + 1e-6
        corners = [(b.x, b.y), (b.right, b.y), (b.x, b.bottom), (b.right, b.bottom)]
        in_disc = all(math.dist(c, (cx, cy)) <= radius + 1e-6 for c in corners)
        assert in_band or in_disc, b


def test_a_varnish_file_holds_the_layers_plate_alone_and_leaves_the_card_as_it_was(
        tmp_path: FilePath, varnished: FilePath):
    out = tmp_path / "out"
    result = ok(cli("card", "--varnish", "file", "-f", "pdf", "-o", str(out)))
    assert sorted(p.name for p in out.iterdir()) == [
        "card-dieline.pdf", "card-varnish.pdf", "card.pdf"]
    assert "card-varnish.pdf" in result.stdout
    # The card's own PDF is the one without any varnish.
    plain = build_card(load_config(None))
    assert (out / "card.pdf").read_bytes() == render(plain.document, [Format.PDF])[".pdf"]
    # The varnish file: one page, the art page's boxes, the same plate as the layer's.
    with pikepdf.open(out / "card-varnish.pdf") as pdf, \
            pikepdf.open(varnished / "card.pdf") as art:
        assert len(pdf.pages) == 1
        for box in ("/MediaBox", "/TrimBox", "/BleedBox"):
            assert list(pdf.pages[0].obj[box]) == list(art.pages[0].obj[box])
    (page,) = read_pages(out / "card-varnish.pdf")
    layer_page = read_pages(varnished / "card.pdf")[0]
    assert _rects(_varnish(page)) == _rects(_varnish(layer_page))
    # Nothing but the coating and the marks: no process colour is painted.
    spaces = {p.state.fill_space for p in page.painted if p.fill} | {
        p.state.stroke_space for p in page.painted if p.stroke}
    assert "Varnish" in spaces and not spaces & {"DeviceCMYK", "DeviceRGB", "DeviceGray"}
    assert pdfx_problems(out / "card-varnish.pdf") == []


def test_a_varnish_file_needs_no_pdf_of_the_art_and_batch_cards_get_one_each(
        tmp_path: FilePath):
    out = tmp_path / "svg"
    ok(cli("card", "--varnish", "file", "-f", "svg", "-o", str(out)))
    assert sorted(p.name for p in out.iterdir()) == [
        "card-dieline.svg", "card-inside.svg", "card-outside.svg", "card-varnish.pdf"]
    config = write_config(tmp_path)
    table = tmp_path / "people.csv"
    table.write_text("person.name\nSam Reed\nAda Byron\n", encoding="utf-8")
    ok(cli("card", "--batch", table, config, "--varnish", "file", "-f", "pdf",
           "-o", str(tmp_path / "team")))
    names = {p.name for p in (tmp_path / "team").iterdir()}
    assert {"sam-reed-varnish.pdf", "ada-byron-varnish.pdf"} <= names


def test_an_unknown_varnish_mode_names_the_choices(tmp_path: FilePath):
    result = cli("card", "--varnish", "gloss", "-o", str(tmp_path / "out"))
    error_line(result, "--varnish", "layer", "file", status=2)  # not a choice: usage
    assert not (tmp_path / "out").exists()
