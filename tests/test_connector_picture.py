"""The picture of a Connector assembly: every card on the page at the stated scale, the
revealed text drawn and numbered in reading order, an invalid assembly still drawn with
"not valid" in its caption, SVG, PNG and PDF files that read back, the same bytes for the
same input."""

from __future__ import annotations

import dataclasses
import io
import xml.etree.ElementTree as ET
from functools import cache

import pytest
from PIL import Image
from pypdf import PdfReader

from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import Scene
from cardgen.connector.picture import (
    draw_picture,
    picture,
    picture_bytes,
    picture_format,
    write_picture,
)
from cardgen.connector.solve import solve
from cardgen.connector.validate import Report, validate
from cardgen.draw.geometry import Box
from cardgen.draw.page import Rect, Text, page_items, page_texts
from cardgen.errors import ParameterError
from cardgen.games.names import GameName
from cardgen.physical.card import Preset
from cardgen.units import PT_PER_MM

# Defector's six cards take the solver seconds; the three others milliseconds.
GAMES = [GameName.ROTATOR, GameName.REFLECTOR, GameName.DEFLECTOR]


@cache
def report(game: GameName) -> Report:
    layout = bundled_layout(Preset.EU)
    result = solve(layout, game, "eu")
    assert result.report is not None and result.report.valid
    return result.report


def invalid() -> Report:
    """Deflector with its top card 4 mm off its connection."""
    layout = bundled_layout(Preset.EU)
    result = solve(layout, GameName.DEFLECTOR, "eu")
    assert result.assembly is not None
    cards = list(result.assembly.cards)
    cards[-1] = dataclasses.replace(cards[-1], x=cards[-1].x + 4.0)
    out = validate(layout, dataclasses.replace(result.assembly, cards=tuple(cards)))
    assert not out.valid
    return out


def named(page, prefix: str) -> dict[int, tuple[Text, object]]:
    """Text items named ``prefix-N``, by N, with their transforms to the page."""
    return {int(t.name.removeprefix(prefix)): (t, m) for t, m in page_texts(page)
            if t.name and t.name.startswith(prefix)}


def caption(page) -> str:
    lines = named(page, "caption-")
    return " ".join(lines[n][0].text for n in sorted(lines))


@pytest.mark.parametrize("scale", [1.0, 0.5])
@pytest.mark.parametrize("game", GAMES)
def test_the_page_holds_every_card_at_the_stated_scale(game, scale):
    r = report(game)
    assert r.scene is not None
    pic = draw_picture(r, scale=scale)
    page, (ox, oy) = pic.page, pic.origin
    paper = Box(0, 0, page.width, page.height)
    for faces in r.scene.faces:
        card = Box.union(faces)
        on_page = Box(pic.area.x + scale * (card.x - ox), pic.area.y + scale * (card.y - oy),
                      scale * card.w, scale * card.h)
        assert pic.area.contains_box(on_page, 1e-6)
        assert paper.contains_box(on_page.inset(-3.0), 1e-6)  # with room round it
    # Every face and every run of text starts on the paper.
    for item, m in page_items(page):
        if isinstance(item, Text | Rect):
            assert paper.contains(*m.apply(item.x, item.y), 1e-6), item


@pytest.mark.parametrize("game", GAMES)
def test_the_revealed_text_is_drawn_in_reading_order_on_its_fragments(game):
    r = report(game)
    pic = draw_picture(r)
    read = named(pic.page, "read-")
    order = named(pic.page, "order-")
    assert sorted(read) == sorted(order) == list(range(1, len(r.read) + 1))
    assert [read[k][0].text for k in sorted(read)] == [p.item.text for p in r.read]
    assert " ".join(read[k][0].text for k in sorted(read)) == r.text == r.description
    for k, p in enumerate(r.read, 1):
        assert order[k][0].text == str(k)
        text, m = read[k]
        x, y = m.apply(text.x, text.y)
        box = p.box
        # The text starts at its fragment's left end, on the table as the model has it.
        assert abs(x - (pic.area.x + box.x - pic.origin[0])) < 1e-6
        assert pic.area.y + box.y - pic.origin[1] < y < pic.area.y + box.bottom - pic.origin[1]
    assert r.text in caption(pic.page).replace("“", "").replace("”", "")
    assert "not valid" not in caption(pic.page)


def test_an_invalid_assembly_is_drawn_and_captioned_not_valid():
    r = invalid()
    page = picture(r)
    words = caption(page)
    assert "not valid" in words
    first = r.problems[0]
    assert (first[:1].upper() + first[1:]) in words
    assert r.scene is not None
    cards = {t.name for t, _ in page_texts(page) if t.name and t.name.startswith("tag-")}
    assert cards == {f"tag-{i + 1}" for i in range(len(r.scene.cards))}


def test_a_bare_scene_is_drawn_without_a_game():
    r = report(GameName.REFLECTOR)
    assert r.scene is not None
    page = picture(Scene.build(r.scene.layout, r.scene.cards))
    assert caption(page) == "2 cards"
    assert not named(page, "order-")


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_each_format_is_written_and_reads_back(tmp_path, suffix):
    r = report(GameName.REFLECTOR)
    page = picture(r)
    path = write_picture(r, tmp_path / f"reflector{suffix}", dpi=50)
    data = path.read_bytes()
    if suffix == ".svg":
        root = ET.fromstring(data)
        _, _, w, h = (float(v) for v in root.get("viewBox", "").split())
        assert abs(w - page.width) < 1e-3 and abs(h - page.height) < 1e-3
        assert "Capture your rival" in data.decode()
    elif suffix == ".png":
        with Image.open(io.BytesIO(data)) as image:
            assert image.mode == "RGB"
            assert abs(image.width - page.width / 25.4 * 50) <= 1
            assert abs(image.height - page.height / 25.4 * 50) <= 1
    else:
        pdf = PdfReader(io.BytesIO(data))
        assert len(pdf.pages) == 1
        box = pdf.pages[0].mediabox
        assert abs(float(box.width) - page.width * PT_PER_MM) < 0.01
        assert abs(float(box.height) - page.height * PT_PER_MM) < 0.01
        assert "one square at a time." in pdf.pages[0].extract_text()


@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_the_same_input_gives_the_same_bytes(fmt):
    r = report(GameName.DEFLECTOR)
    assert picture_bytes(r, fmt, dpi=40) == picture_bytes(r, fmt, dpi=40)


def test_a_picture_file_needs_a_known_suffix(tmp_path):
    assert picture_format(tmp_path / "A.PNG") == "png"
    with pytest.raises(ParameterError, match=r"\.svg, \.png or \.pdf"):
        write_picture(report(GameName.ROTATOR), tmp_path / "picture.jpg")
    assert not list(tmp_path.iterdir())
