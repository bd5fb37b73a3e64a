"""Art that touches a trim edge runs on to the bleed edge, on every edge of every page
(SPEC §2 "Ink rules"), checked on the produced files: the PDF rendered by PDFium at
600 dpi, the PNG previews, and the cards on an office sheet."""

from __future__ import annotations

import pytest
from PIL import Image

from cardgen.draw.geometry import Box
from tests.helpers import sampled
from tests.pdfread import bleed_continuity, page_boxes, render_page

DPI = 600
LIMIT = 0.08  # share of an edge where neighbouring strips may differ (curves crossing it)
# Measured: 0.00–0.03 with the art bleeding; 0.51–0.59 on the top edge of the outside
# when the back panel's art stopped at the trim.

VARIANTS = [("eu", "dark"), ("eu", "light"), ("us", "dark"), ("us", "light")]


@pytest.mark.parametrize(("preset", "theme"), sampled(VARIANTS, VARIANTS[0], VARIANTS[3]))
def test_card_pdf_art_runs_into_the_bleed_on_every_edge(produced, preset, theme):
    pdf = produced("card", "--preset", preset, "--theme", theme, "-f", "pdf") / "card.pdf"
    for index in (0, 1):
        boxes = page_boxes(pdf, index)
        worst = bleed_continuity(render_page(pdf, index, DPI), DPI, boxes["TrimBox"],
                                 boxes["BleedBox"])
        assert max(worst.values()) < LIMIT, (index, worst)


@pytest.mark.parametrize(("preset", "theme"), sampled(VARIANTS[::3], VARIANTS[0]))
def test_png_previews_show_the_art_unclipped_up_to_the_bleed_edge(produced, preset, theme):
    """The produced PNG is, inside the bleed box, exactly the page drawn with the art's
    clipping taken away: nothing is cut off before the bleed's edge. (Compared with the
    renderer's own drawing of the unclipped art, because the previews' colours are not
    the PDF's.)"""
    import copy

    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.draw.page import Group, View
    from cardgen.physical.card import Preset
    from cardgen.render.png import rasterize

    folder = produced("card", "--preset", preset, "--theme", theme, "-f", "png")
    build = build_card(load_config(None).with_overrides(preset=Preset(preset), theme=theme))
    page = copy.deepcopy(build.document.pages[0])
    unclipped = 0
    for layer in page.layers:
        for item in layer.items:
            if isinstance(item, Group) and item.name in ("front-art", "back-art"):
                item.clip = None
                unclipped += 1
    assert unclipped == 2
    image = Image.open(folder / "card-outside.png").convert("RGB")
    dpi = round(image.info["dpi"][0])
    expected = rasterize(View(page.name, page, tuple(page.layers)), dpi)
    k = dpi / 25.4
    b = page.bleed
    box = (round(b.x * k) + 1, round(b.y * k) + 1, round(b.right * k) - 1,
           round(b.bottom * k) - 1)
    from PIL import ImageChops

    # A few pixels may differ where a curve's edge falls on half a pixel (drawing into a
    # clipped copy rounds it the other way); art cut off at the trim is ~20,000.
    difference = ImageChops.difference(image.crop(box), expected.crop(box)).convert("L")
    assert sum(difference.point(lambda v: 255 if v > 16 else 0).histogram()[255:]) < 50


def test_every_card_on_an_office_sheet_bleeds(produced):
    from cardgen.card.spread import Spread
    from cardgen.physical.card import PRESETS, Preset
    from cardgen.prepress.impose import Duplex, Flip, plan_sheet
    from cardgen.prepress.paper import Paper

    pdf = produced("sheet", "--paper", "a4", "--flip", "long") / "sheet.pdf"
    piece = Spread(PRESETS[Preset.EU], marks=False).piece()
    layout = plan_sheet(piece, Duplex(Paper.A4, Flip.LONG))
    dpi = 300  # a whole A4 page; 300 dpi still resolves the 0.25 mm steps
    for index, placements in ((0, layout.fronts),
                              (1, [layout.back_placement(f, piece) for f in layout.fronts])):
        image = render_page(pdf, index, dpi)
        for placement in placements:
            trim, bleed = (piece.trim.transformed(placement), piece.bleed.transformed(placement))
            worst = bleed_continuity(image, dpi, _corners(trim), _corners(bleed))
            assert max(worst.values()) < LIMIT, (index, trim, worst)


def _corners(box: Box) -> tuple[float, float, float, float]:
    return (box.x, box.y, box.right, box.bottom)
