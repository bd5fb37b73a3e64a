"""The Node games' figures: every name the rules texts use is drawn, fits a booklet
column, keeps the ink rule and its type size, and stays inside the box it claims; the
table arrangements are drawn from the model at any scale, seats and contacts included."""

from __future__ import annotations

import math
from functools import cache

import pytest

from cardgen.draw.geometry import Box
from cardgen.draw.page import Item, Line, Page, Path, Rect, Text, walk
from cardgen.games.nodes.figures import (
    FIGURE_BAND,
    FIGURES,
    STYLE,
    Look,
    OverlapFigure,
    TerritoryFigure,
    arrangement_items,
    links,
    seat_margin,
)
from cardgen.games.nodes.model import territory as grid_territory
from cardgen.games.nodes.tables import Kind, arrangement, layout
from cardgen.prepress.ink import page_ink_problems
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


def _along(line: Line, start: tuple[float, float], end: tuple[float, float]) -> bool:
    """Whether a line runs along the segment start-end, short of each end by at most
    0.5 mm."""
    return (math.dist((line.x1, line.y1), start) < 0.5 and math.dist((line.x2, line.y2), end) < 0.5
            and abs(math.dist(start, end) - math.dist((line.x1, line.y1), (line.x2, line.y2))
                    - 2 * math.dist((line.x1, line.y1), start)) < 1e-6)


@pytest.mark.parametrize("name", TABLES)
def test_every_contact_is_drawn_thick_where_it_lies(name):
    """Each stretch of a contact is a thick line where the model puts it; a bridge has
    a dashed line between its two stretches; every player has a numbered seat."""
    arr = arrangement(name)
    lay = layout(arr, 2.0, 5, 5)
    items = arrangement_items(lay, fonts())
    lines = [i for i, _ in walk(items) if isinstance(i, Line)]
    thick = [i for i in lines if i.stroke.width > 0.5]
    dashed = [i for i in lines if i.stroke.dash]
    for contact in arr.contacts:
        ends = [contact.a] if contact.kind is not Kind.BRIDGE else [contact.a, contact.b]
        for end in ends:
            start, stop = lay.stretch(end)
            assert any(_along(line, start, stop) for line in thick), (name, contact)
    drawn, labelled = links(lay, STYLE)  # a link that would cross others is labelled
    assert len(dashed) == len(drawn)
    assert len(drawn) + len(labelled) == sum(c.kind is Kind.BRIDGE for c in arr.contacts)
    seats = [i for i, _ in walk(items) if isinstance(i, Text) and i.text.isdigit()]
    assert sorted(int(t.text) for t in seats) == list(range(1, arr.players + 1))


def test_an_arrangement_at_card_size_for_a_play_sheet():
    lay = layout(arrangement("table-4-partial"), 4.9, 0, 0, margin=seat_margin(Look.CARD))
    items = arrangement_items(lay, fonts(), Look.CARD)
    assert page_ink_problems(_page(items, lay.width, lay.height)) == []
    labels = [i.text for i, _ in walk(items) if isinstance(i, Text)]
    # Row numbers sit beside Column A only where no grid lies there: grids 1 and 3 have
    # theirs; the letters lie beyond Row 10, always free here.
    assert labels.count("J") == 4 and labels.count("7") == 2
    box = _bounds(items)
    assert box.x >= 0 and box.right <= lay.width and box.bottom <= lay.height


# --- territories ---------------------------------------------------------------------------

@pytest.mark.parametrize(("node", "count"), [
    ((4, 5), 13), ((1, 2), 11), ((0, 5), 9), ((9, 7), 9), ((0, 1), 6), ((4, 1), 9),
])
def test_a_territory_is_clipped_to_its_own_grid(node, count):
    """Row 1 is at the fold: a Node there keeps no squares on the other grid."""
    cells = grid_territory(*node)
    assert len(cells) == count
    assert all(0 <= c < 10 and 1 <= r <= 10 for c, r in cells)
    assert all(abs(c - node[0]) + abs(r - node[1]) <= 2 for c, r in cells)


def _filled_squares(items: list[Item], cell: float) -> set[tuple[float, float]]:
    return {(round(i.x, 3), round(i.y, 3)) for i, _ in walk(items)
            if isinstance(i, Rect) and i.fill is not None and abs(i.w - cell) < 1e-6}


def test_the_territory_figure_fills_the_models_squares():
    figure = TerritoryFigure(fonts())
    items = figure.draw(0, 0, 110)
    cell = figure._cell(110)
    filled = _filled_squares(items, cell)
    assert len(filled) == sum(len(grid_territory(*n)) for n in figure.nodes) == 13 + 9
    texts = [i.text for i, _ in walk(items) if isinstance(i, Text)]
    assert "13 squares" in texts and "9 squares" in texts
    assert all(letter in texts for letter in "ABCDEFGHIJ") and "10" in texts
    dots = [i for i, _ in walk(items) if isinstance(i, Path) and i.fill is not None]
    assert len(dots) == len(figure.nodes)


def _hatching(figure: OverlapFigure, width: float = 110) -> dict[tuple[int, int], set[bool]]:
    """Which hatchings each grid square carries, read from the lines
    drawn (True: rising; the key's swatches, right of the grid, left out)."""
    cell = figure._cell(width)
    per_square: dict[tuple[int, int], set[bool]] = {}
    x0 = FIGURE_BAND
    for line, _ in walk(figure.draw(0, 0, width)):
        if not isinstance(line, Line) or line.x1 >= x0 + 10 * cell:
            continue
        square = (int((min(line.x1, line.x2) - x0 + 1e-6) // cell),
                  int((min(line.y1, line.y2) + 1e-6) // cell) + 1)
        if (line.x2 - line.x1) * (line.y2 - line.y1) != 0:  # a diagonal: hatching
            per_square.setdefault(square, set()).add((line.x2 - line.x1) * (line.y2 - line.y1) < 0)
    return per_square


def test_shared_squares_are_hatched_both_ways():
    """Read without colour: each Node's own squares carry one hatching, the kept (shared)
    squares both (the test counts hatch lines per square)."""
    figure = OverlapFigure(fonts())
    first, second = (grid_territory(*n) for n in figure.nodes)
    shared = (first & second) - {figure.captured}
    assert shared
    per_square = _hatching(figure)
    assert set(per_square) == first | second
    assert all(per_square[s] == {True, False} for s in shared)
    assert all(len(per_square[s]) == 1 for s in (first | second) - shared)
    texts = [i.text for i, _ in walk(figure.draw(0, 0, 110)) if isinstance(i, Text)]
    assert f"both: {len(shared)} squares kept," in texts


def test_the_overlap_figure_shows_a_captured_node_inside_another_diamond_as_the_capturers():
    """Issue 21 / SPEC §9.3.3.1: a captured Node whose own square lies in another Node's
    diamond goes to the capturer. The figure draws such a Node: its square is hatched as
    won (one way, not kept), it is ringed, and the key says whose it is, naming both."""
    figure = OverlapFigure(fonts())
    assert figure.captured in grid_territory(*figure.held)
    assert figure.held in grid_territory(*figure.captured)
    per_square = _hatching(figure)
    assert per_square[figure.captured] == {False}  # won with the capture (falling), not kept
    assert per_square[figure.held] == {True, False}  # the other Node: kept, revealed
    items = figure.draw(0, 0, 110)
    rings = [i for i, _ in walk(items) if isinstance(i, Path) and i.fill is None and i.stroke]
    assert len(rings) == 2  # on the grid and in the key
    cell = figure._cell(110)
    ring_x = min(min(op.x for op in r.ops if hasattr(op, "x")) for r in rings)
    col = int((ring_x - FIGURE_BAND) // cell)
    assert col == figure.captured[0]
    texts = " ".join(i.text for i, _ in walk(items) if isinstance(i, Text))
    assert "E5: the capturer’s, though it lies in D4’s territory" in texts
    assert "D4: revealed, not captured" in texts


def test_the_reflector_figures_draw_their_set_ups_side_by_side():
    two = FIGURES["reflector-two-cards"](fonts())
    items = two.draw(0, 0, 110)
    texts = [i.text for i, _ in walk(items) if isinstance(i, Text)]
    assert texts.count("Private") == 4 and texts.count("Public") == 4  # 2 panels × 2 players
    assert texts.count("player 1") == 4
    drawing = [i for i in items if getattr(i, "name", None) != "legend"]
    dashed = [i for i, _ in walk(drawing) if isinstance(i, Line) and i.stroke.dash]
    assert len(dashed) == 2  # the two standing cards' folds
