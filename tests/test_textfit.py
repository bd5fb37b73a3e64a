"""Text fitting: shrink to a minimum legible size, wrap, or name the field."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.draw.page import Text, page_items
from cardgen.errors import CardgenError
from cardgen.text.fit import fit_line, fit_paragraph, line_height, wrap
from cardgen.text.fonts import bundled_fonts

FACE = bundled_fonts().regular


def test_fit_line_keeps_the_size_when_it_fits():
    assert fit_line("Short", FACE, 10, 6, 50, "x") == 10


def test_fit_line_shrinks_to_the_width():
    text = "A fairly long line of contact details"
    natural = FACE.width(text, 10)
    size = fit_line(text, FACE, 10, 6, natural * 0.8, "x")
    assert 7.9 <= size <= 8.0
    assert FACE.width(text, size) <= natural * 0.8


def test_fit_line_refuses_below_the_minimum():
    with pytest.raises(CardgenError, match=r"person\.web .* 6 pt"):
        fit_line("x" * 200, FACE, 10, 6, 40, "person.web")


def test_wrap_and_fit_paragraph():
    text = "one two three four five six seven eight nine ten"
    lines = wrap(text, FACE, 8, 20)
    assert lines and " ".join(lines) == text
    assert all(FACE.width(line, 8) <= 20 for line in lines)
    assert wrap("unbreakablewordthatistoolong", FACE, 8, 5) is None
    size, lines = fit_paragraph(text, FACE, 8, 5, 20, 3 * line_height(8), "the blurb")
    assert len(lines) * line_height(size) <= 3 * line_height(8) + 1e-9
    with pytest.raises(CardgenError, match="the blurb does not fit"):
        fit_paragraph(text * 20, FACE, 8, 5, 20, 5, "the blurb")


def _front_sizes(build) -> dict[str, float]:
    return {item.name: item.size for item, _ in page_items(build.document.pages[0])
            if isinstance(item, Text) and item.name and item.name.startswith("person-")}


def test_long_company_shrinks_but_stays_legible():
    base = load_config(None)
    long = replace(base.person,
                   company="The Extraordinarily Long-Named Games Cooperative of Greater Edinburgh")
    sizes = _front_sizes(build_card(replace(base, person=long)))
    assert 6 <= sizes["person-company"] < 8.5


def test_every_field_fits_together():
    base = load_config(None)
    full = replace(base.person, address="12 Harbour Street, Leith, Edinburgh EH6 6QW",
                   tagline="Small games for big tables, and big games for small ones.")
    build = build_card(replace(base, person=full))
    sizes = _front_sizes(build)
    assert {"person-name", "person-address", "person-tagline"} <= set(sizes)
    assert all(size >= 6 for size in sizes.values())


def test_too_many_lines_for_the_height_names_a_field(monkeypatch):
    """With every field filled in and a panel only 20 mm tall, even the smallest legible
    sizes overflow: the error names the first field that falls off the panel."""
    from cardgen.draw.geometry import Box
    from cardgen.physical.card import CardGeometry

    monkeypatch.setattr(CardGeometry, "panel_safe", lambda self: Box(3, 3, 79, 20))
    base = load_config(None)
    full = replace(base.person, address="12 Harbour Street, Leith",
                   tagline="Small games for big tables.")
    with pytest.raises(CardgenError, match=r"person\.\w+ does not fit on the front panel"):
        build_card(replace(base, person=full, qr=None))
