"""The table diagrams explain themselves and stay legible (issue 21, point 10): no two
links drawn across the table meet (the five-player full-access figure had ten dashed
links crossing in the middle), a link that would cross is named by a label of at least
6 pt beside each of its stretches instead, and every figure has a legend for each kind
of mark it uses. Checked on the drawing model of each figure as the rules book draws
it, and on the produced rules book."""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from cardgen.draw.page import Group, Item, Line, Text, walk
from cardgen.games.nodes.figures import (
    STYLE,
    PanelsFigure,
    Sample,
    TableFigure,
    links,
    samples,
    segments_cross,
)
from cardgen.games.nodes.tables import Kind, arrangement
from cardgen.rules.figures import figure_makers
from cardgen.text.fonts import FontSet, bundled_fonts

TABLES = ["table-3", "table-4-full", "table-4-partial", "table-5-full", "table-5-partial",
          "defector-full", "defector-island"]
WIDTH = 118.5  # the A5 book's text width


@cache
def fonts() -> FontSet:
    return bundled_fonts()


def _groups(items: list[Item]) -> list[Group]:
    out = []
    for item in items:
        if isinstance(item, Group):
            out.append(item)
            out += _groups(item.items)
    return out


def _named(items: list[Item], prefix: str) -> list[Group]:
    return [g for g in _groups(items) if g.name and g.name.startswith(prefix)]


def _dashed_links(items: list[Item]) -> list[Line]:
    return [line for g in _named(items, "link ") for line in g.items
            if isinstance(line, Line)]


@pytest.mark.parametrize("name", TABLES)
def test_no_two_links_meet_and_every_bridge_is_shown(name):
    figure = TableFigure(fonts(), name)
    items = figure.draw(0, 0, WIDTH)
    dashed = _dashed_links(items)
    for a, b in itertools.combinations(dashed, 2):
        assert not segments_cross((a.x1, a.y1), (a.x2, a.y2), (b.x1, b.y1), (b.x2, b.y2)), \
            (name, a, b)
    # every bridge is a line or a label at both its stretches, naming the other player
    arr = arrangement(name)
    labels = {g.name: g for g in _named(items, "link-label ")}
    lay = figure._layout(0, 0, WIDTH)
    drawn, labelled = links(lay, STYLE)
    assert len(drawn) == len(dashed)
    assert len(drawn) + len(labelled) == sum(c.kind is Kind.BRIDGE for c in arr.contacts)
    for link in labelled:
        for end, other in ((link.contact.a, link.contact.b), (link.contact.b, link.contact.a)):
            (text,) = labels[f"link-label {end}"].items
            assert isinstance(text, Text) and text.size >= 6.0
            player = arr.grid(other.grid).player
            assert str(player) in text.text.replace(",", " ").split()


def test_the_five_player_figure_had_crossing_links_and_now_labels_them():
    """The ten links of the five-player full access: the five Row 1 links would cross
    in the middle, so they are labels; the five Column links stay dashed lines."""
    lay = TableFigure(fonts(), "table-5-full")._layout(0, 0, WIDTH)
    drawn, labelled = links(lay, STYLE)
    assert len(drawn) == 5 and len(labelled) == 5
    every = drawn + labelled
    crossings = sum(segments_cross(a.start, a.end, b.start, b.end)
                    for a, b in itertools.combinations(every, 2))
    assert crossings >= 5  # what the old figure drew


@pytest.mark.parametrize("name", [*TABLES, "reflector-two-cards", "reflector-three-cards"])
def test_every_figure_has_a_legend_for_the_marks_it_uses(name):
    figure = figure_makers()[name](fonts())
    items = figure.draw(0, 0, WIDTH)
    (legend,) = [g for g in _groups(items) if g.name == "legend"]
    shown = {g.name.removeprefix("legend-") for g in _named(legend.items, "legend-")}
    if isinstance(figure, TableFigure):
        lay = figure._layout(0, 0, WIDTH)
        assert shown == {str(k) for k in samples(lay, STYLE)}
        if _dashed_links(items):
            assert str(Sample.LINK) in shown
        if _named(items, "link-label "):
            assert str(Sample.LABEL) in shown
    else:
        assert isinstance(figure, PanelsFigure)
        assert shown
    words = [t for t in walk(legend.items) if isinstance(t[0], Text)]
    assert all(t.size >= 6.0 for t, _ in words)
    # the legend lies under the drawing, inside the figure's height
    bottom = max(t.y for t, _ in words)
    assert bottom <= figure.height(WIDTH) + 1e-6


def test_the_book_prints_the_legends(produced):
    from tests.glyphs import page_texts

    pdf = produced("rules", "deflector") / "rules-deflector.pdf"
    text = "\n".join(page_texts(pdf))  # as PDFium reads it (pdfplumber took 20 times as long)
    assert "edge joined to another grid" in text
    assert "joins the edges at its two ends" in text
    assert "to 3" in text and "edge joined to player 3’s grid" in text
