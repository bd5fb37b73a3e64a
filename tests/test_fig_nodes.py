"""The Node games' figures: every name the rules texts use is drawn, fits a booklet
column, keeps the ink rule and its type size, and stays inside the box it claims; the
table arrangements are drawn from the model at any scale, seats and contacts included."""

from __future__ import annotations

from functools import cache

import pytest

from cardgen.board.tables import Kind, arrangement, layout
from cardgen.draw.geometry import Box
from cardgen.draw.page import Item, Line, Page, Text, walk
from cardgen.prepress.ink import page_ink_problems
from cardgen.rules.fig_nodes import FIGURES, Look, arrangement_items, seat_margin
from cardgen.rules.figures import figure_makers
from cardgen.text.fonts import FontSet, bundled_fonts

NAMES = ("territory", "territory-overlap", "reflector-two-cards", "reflector-three-cards",
         "table-3", "table-4-full", "table-4-partial", "table-5-full", "table-5-partial",
         "defector-full", "defector-island")
TABLES = [n for n in NAMES if n.startswith(("table", "defector"))]


@cache
def fonts() -> FontSet:
    return bundled_fonts()


def _page(items: list[Item], w: float = 200, h: float = 200) -> Page:
    page = Page("p", w, h, Box(0, 0, w, h), Box(0, 0, w, h))
    page.layer("fig").add(*items)
    return page


def _bounds(items: list[Item]) -> Box:
    points = []
    for item, t in walk(items):
        if isinstance(item, Line):
            points += [t.apply(item.x1, item.y1), t.apply(item.x2, item.y2)]
        elif isinstance(item, Text):
            points.append(t.apply(item.x, item.y))
    return Box.around(points)


@pytest.mark.parametrize("name", [n for n in NAMES if n in FIGURES])
@pytest.mark.parametrize("width", [100.0, 120.0])
def test_each_figure_fits_a_column_and_keeps_the_ink_rule(name, width):
    figure = FIGURES[name](fonts())
    height = figure.height(width)
    assert 20 < height <= 150
    items = figure.draw(10, 20, width)
    assert page_ink_problems(_page(items)) == []
    sizes = [item.size for item, _ in walk(items) if isinstance(item, Text)]
    assert sizes and min(sizes) >= 6.0
    box = _bounds(items)
    assert box.x >= 10 - 0.01 and box.right <= 10 + width + 0.01
    assert box.y >= 20 - 0.01 and box.bottom <= 20 + height + 0.01


def test_the_figures_are_registered_under_the_names_the_texts_use():
    assert set(TABLES) <= set(FIGURES)
    makers = figure_makers()
    assert all(makers[name] is FIGURES[name] for name in FIGURES)


@pytest.mark.parametrize("name", TABLES)
def test_every_contact_is_drawn_thick_where_it_lies(name):
    """Each stretch of a contact is a thick line exactly where the model puts it."""
    arr = arrangement(name)
    lay = layout(arr, 2.0, 5, 5)
    items = arrangement_items(lay, fonts())
    thick = {tuple(round(v, 3) for v in (i.x1, i.y1, i.x2, i.y2))
             for i, _ in walk(items) if isinstance(i, Line) and i.stroke.width > 0.5}
    for contact in arr.contacts:
        ends = [contact.a] if contact.kind is not Kind.BRIDGE else [contact.a, contact.b]
        for end in ends:
            (x1, y1), (x2, y2) = lay.stretch(end)
            assert tuple(round(v, 3) for v in (x1, y1, x2, y2)) in thick, (name, contact)
    seats = [i for i, _ in walk(items) if isinstance(i, Text) and i.text.isdigit()]
    assert sorted(int(t.text) for t in seats) == list(range(1, arr.players + 1))


def test_an_arrangement_at_card_size_for_a_play_sheet():
    lay = layout(arrangement("table-4-partial"), 4.9, 0, 0, margin=seat_margin())
    items = arrangement_items(lay, fonts(), Look.CARD)
    assert page_ink_problems(_page(items, lay.width, lay.height)) == []
    labels = [i.text for i, _ in walk(items) if isinstance(i, Text)]
    # Row numbers sit beside Column A only where no grid lies there: grids 1 and 3 have
    # theirs; the letters lie beyond Row 10, always free here.
    assert labels.count("J") == 4 and labels.count("7") == 2
    box = _bounds(items)
    assert box.x >= 0 and box.right <= lay.width and box.bottom <= lay.height
