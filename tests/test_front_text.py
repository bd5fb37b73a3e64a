"""The front panel's text (issue 8, item 7): each line gets the width free at its height,
and the decorative art never comes near a letter, checked on the produced files."""

from __future__ import annotations

import pdfplumber
import pytest
from PIL import Image

from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, Text, walk
from cardgen.text.fit import text_box
from tests.helpers import BASE_CONFIG, DATA, sampled
from tests.pdfread import mm_to_px

FIVE_LINES = BASE_CONFIG + '''address = """12 Harbour Street
Leith, Edinburgh
EH6 6QN, Scotland"""
tagline = "Small games for big tables."
'''
LONG_TITLE = BASE_CONFIG.replace('title = "Puzzle Designer"',
                                 'title = "Senior Game Designer and Narrative Lead"').replace(
    'company = "Example Games"', 'company = "Paper Lantern Games International Cooperative"')
WITH_LOGO = LONG_TITLE + f'''
[images]
logo = "{DATA / 'logo.png'}"
'''


def _build(folder, theme: str | None = None):
    """The card the produced files in ``folder`` were made from."""
    return build_card(load_config(folder.parent / "card.toml").with_overrides(theme=theme))


def _panel_texts(build):
    """(text item, its box on the page) for every text of the front and back panels."""
    page = build.document.pages[0]
    for layer in page.layers:
        for group in layer.items:
            if isinstance(group, Group) and group.name in ("front-panel", "back-panel"):
                for item, t in walk([group]):
                    if isinstance(item, Text):
                        yield item, text_box(item).transformed(t)


@pytest.mark.parametrize("theme", sampled(["dark", "light"], "dark"))
def test_no_curve_comes_near_a_letter(produced, theme):
    """In the produced PNG, around every letter of both panels (its box and 0.5 mm more)
    the pixels are exactly those of the same page drawn with no art at all: no curve
    crosses or touches the text. Five contact lines push the contact block up into where
    the curves used to run."""
    import copy

    from PIL import ImageChops

    from cardgen.draw.page import View
    from cardgen.render.png import rasterize

    folder = produced("card", "-f", "png", "--theme", theme, config=FIVE_LINES)
    image = Image.open(folder / "card-outside.png").convert("RGB")
    dpi = round(image.info["dpi"][0])
    build = _build(folder, theme)
    page = copy.deepcopy(build.document.pages[0])
    for layer in page.layers:
        layer.items = [i for i in layer.items
                       if not (isinstance(i, Group) and i.name in ("front-art", "back-art"))]
    plain = rasterize(View(page.name, page, tuple(page.layers)), dpi)
    checked = 0
    for item, box in _panel_texts(build):
        region = tuple(mm_to_px(v, dpi) for v in (box.x - 0.5, box.y - 0.5, box.right + 0.5,
                                                  box.bottom + 0.5))
        difference = ImageChops.difference(image.crop(region), plain.crop(region))
        assert max(difference.convert("L").getextrema()) <= 2, item.name or item.text
        checked += 1
    assert checked >= 25


def _chars(pdf_file, index=0):
    with pdfplumber.open(pdf_file) as pdf:
        return list(pdf.pages[index].chars)


def _line_extent(chars, text: str) -> tuple[float, float, float]:
    """(left, right, size) in mm of the run of characters that spells ``text``."""
    k = 25.4 / 72
    line = "".join(c["text"] for c in chars)
    start = line.index(text)
    run = chars[start:start + len(text)]
    return run[0]["x0"] * k, run[-1]["x1"] * k, run[0]["size"]


def test_each_line_takes_the_width_free_at_its_height(produced):
    """A title and company wider than the text column beside the QR code keep their
    preferred sizes and run on over the QR code's column, which lies lower down; the
    contact lines beside the QR code stop before it."""
    folder = produced("card", "-f", "pdf", config=LONG_TITLE)
    build = _build(folder)
    g = build.geometry
    chars = _chars(folder / "card.pdf")
    layout_gap = 3.0
    safe = g.panel_safe().transformed(g.front_to_page)
    qr_side = min(22.0, 0.46 * g.panel_safe().h)
    qr_left = safe.right - qr_side
    _, right, size = _line_extent(chars, "Paper Lantern Games International Cooperative")
    assert size == pytest.approx(8.5) and right > qr_left  # 54 mm would have shrunk it
    _, right, size = _line_extent(chars, "Senior Game Designer and Narrative Lead")
    assert size == pytest.approx(8.5)
    for contact in ("ada@example.org", "+1 555 0100", "example.org"):
        _, right, _ = _line_extent(chars, contact)
        assert right <= qr_left - layout_gap + 0.05


def test_a_logo_at_the_top_caps_the_lines_beside_it(produced):
    """With a logo at the top right, the lines of the name block beside it stop short of
    it by the column gap (or shrink to do so)."""
    folder = produced("card", "-f", "pdf", config=WITH_LOGO)
    build = _build(folder)
    logo = next(box for item, box in _images(build) if item.name == "logo")
    chars = _chars(folder / "card.pdf")
    k = 25.4 / 72
    for text in ("Ada Example", "Senior Game Designer", "Paper Lantern Games"):
        _, right, _ = _line_extent(chars, text)
        start = "".join(c["text"] for c in chars).index(text)
        top = min(c["top"] for c in chars[start:start + len(text)]) * k
        assert top < logo.bottom  # beside the logo
        assert right <= logo.x - 3.0 + 0.05, text


def _images(build):
    from cardgen.draw.page import Image as ImageItem

    for item, t in walk(build.document.pages[0].layers[1].items):
        if isinstance(item, ImageItem):
            yield item, Box(item.x, item.y, item.w, item.h).transformed(t)


def test_small_lines_take_the_small_type_colour():
    """A title shrunk under 8 pt prints in the theme's colour for small type (the ink
    rule); at its full size it keeps the accent colour."""
    from dataclasses import replace

    base = load_config(None)
    colours = {}
    for title in ("Designer",
                  "Chief Designer of Very Many Small Games for Big Tables and Small Ones"):
        build = build_card(replace(base, person=replace(base.person, title=title)))
        (item,) = [i for i, _ in walk(build.document.pages[0].layers[1].items)
                   if isinstance(i, Text) and i.name == "person-title"]
        colours[item.size >= 8] = item.color
    assert colours[True] == build.theme.outside["accent"]
    assert colours[False] == build.theme.outside["text"]
    assert isinstance(colours[False], Color)
