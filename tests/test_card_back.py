"""The card seen from the back (cardgen.card.back, cardgen.api.card_back): cut out of
the printed spreads, it shows every Connector piece where the model puts it. Both
pictures are rasterised and compared piece by piece: the mean colour over each piece of
text that shows (tabs open or folded) is the model picture's, whatever the theme."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from cardgen.api import card_config
from cardgen.api.card import card_back
from cardgen.card.back import back_page
from cardgen.card.build import build_card
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import Tabs
from cardgen.connector.picture import card_picture
from cardgen.draw.page import Document
from cardgen.errors import ParameterError
from cardgen.render import Format, render

DPI = 100
PX = DPI / 25.4


def raster(page) -> Image.Image:
    png = render(Document([page]), [Format.PNG], cmyk=False, dpi=DPI)[".png"]
    return Image.open(io.BytesIO(png)).convert("RGB")


def mean(image: Image.Image, box) -> tuple[float, ...]:
    crop = image.crop((round(box.x * PX), round(box.y * PX), round(box.right * PX),
                       round(box.bottom * PX)))
    from PIL import ImageStat

    return tuple(ImageStat.Stat(crop).mean)


def wholly_on_its_face(fragment, tabs, five, six) -> bool:
    """Whether the piece lies wholly where its face shows (a piece the panel's edge cuts
    shows its face's ground beside it, which differs between the two pictures)."""
    box = fragment.box
    if tabs is Tabs.OPEN:
        return True
    match fragment.face.value:
        case "back":
            return box.x >= five.right and box.right <= six.x
        case "tab5":
            return five.x <= box.x and box.right <= five.right
        case "tab6":
            return six.x <= box.x and box.right <= six.right
        case _:
            return box.right <= five.x or box.x >= six.right


@pytest.mark.parametrize("theme", ["dark", "light"])
@pytest.mark.parametrize("preset", ["eu", "us"])
@pytest.mark.parametrize("tabs", list(Tabs))
def test_every_piece_shows_where_the_model_puts_it(theme, preset, tabs):
    config = card_config({"person": {"name": "Ada Lovelace"},
                          "card": {"theme": theme, "preset": preset}})
    build = build_card(config)
    card = raster(back_page(build, tabs))
    layout = bundled_layout(config.size.preset)
    model = raster(card_picture(layout, tabs))
    assert card.size == model.size
    fragments, _ = layout.present(tabs)
    five, six = layout.shape.tab5, layout.shape.tab6
    compared = 0
    for fragment in fragments:
        if fragment.game is None or not wholly_on_its_face(fragment, tabs, five, six):
            continue
        ours, theirs = mean(card, fragment.box), mean(model, fragment.box)
        assert max(abs(a - b) for a, b in zip(ours, theirs, strict=True)) < 40, (
            fragment.text, ours, theirs)
        compared += 1
    assert compared >= 5


def test_the_api_gives_the_svg_in_the_card_frame():
    back = card_back({"person": {"name": "Ada"}, "card": {"preset": "us"}}, tabs="folded",
                     name="mine")
    assert (back.width, back.height) == (pytest.approx(88.9), 50.8) and back.tabs == "folded"
    svg = back.files["mine-back-folded.svg"].decode()
    assert 'viewBox="0 0 88.9' in svg and "<image" not in svg  # drawn, not pasted
    with pytest.raises(ParameterError, match="tabs"):
        card_back(None, tabs="half")
