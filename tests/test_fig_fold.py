"""The rules figure of the card's two folds (``card-folds``): it fits a column and keeps
the ink rule, and each fold shows the face the physical card says it shows."""

from __future__ import annotations

import math

import pytest

from cardgen.draw.geometry import Box
from cardgen.draw.page import Item, Line, LineTo, MoveTo, Page, Path, Text, walk
from cardgen.physical.card import Fold, Side
from cardgen.physical.figures import FIGURES, GRID_A_FACE, GRID_B_FACE, OUTSIDE_FACE, FoldFigure
from cardgen.prepress.ink import page_ink_problems
from cardgen.rules.figures import figure_makers, sources
from cardgen.text.fonts import bundled_fonts


def _page(items: list[Item]) -> Page:
    page = Page("p", 200, 200, Box(0, 0, 200, 200), Box(0, 0, 200, 200))
    page.layer("fig").add(*items)
    return page


def _points(item: Path) -> list[tuple[float, float]]:
    return [(op.x, op.y) for op in item.ops if isinstance(op, MoveTo | LineTo)]


def test_registered():
    assert sources()["physical"] is FIGURES
    assert figure_makers()["card-folds"] is FIGURES["card-folds"]


@pytest.mark.parametrize("width", [100.0, 120.0])
def test_fits_a_column_and_keeps_the_ink_rule(width: float):
    figure = FoldFigure(bundled_fonts())
    height = figure.height(width)
    assert 30 < height <= 80
    items = figure.draw(10, 20, width)
    assert page_ink_problems(_page(items)) == []
    texts = [i for i, _ in walk(items) if isinstance(i, Text)]
    assert texts and min(t.size for t in texts) >= 6.0
    points = [p for i, _ in walk(items) if isinstance(i, Path) for p in _points(i)]
    points += [(t.x, t.y) for t in texts]
    points += [(i.x1, i.y1) for i, _ in walk(items) if isinstance(i, Line)]
    box = Box.around(points)
    assert box.x >= 10 - 0.01 and box.right <= 10 + width + 0.01
    assert box.y >= 20 - 0.01 and box.bottom <= 20 + height + 0.01


def _inside(point: tuple[float, float], polygon: list[tuple[float, float]]) -> bool:
    x, y = point
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def test_each_fold_shows_the_face_the_card_shows():
    """Just outside each half, half way down, lies the colour of the face that fold
    shows (Fold.stretched): the business side's black for the business card, the grid's
    tint for the tent (grid A's half on the left, grid B's on the right); just inside,
    the face it hides."""
    figure = FoldFigure(bundled_fonts())
    width = 110.0
    items = figure.draw(0, 0, width)
    paths = [(_points(i), i.fill) for i, _ in walk(items) if isinstance(i, Path)]
    faces = {Side.OUTSIDE: (OUTSIDE_FACE, OUTSIDE_FACE), Side.INSIDE: (GRID_A_FACE, GRID_B_FACE)}
    st = figure.style
    panel = (width - st.panel_gap) / 2
    length = figure._scale(width) * figure.half
    table = max(p[1] for pts, _ in paths for p in pts)
    for i, (fold, tilt) in enumerate(zip((Fold.CARD, Fold.TENT), st.tilt, strict=True)):
        t = math.radians(tilt)
        apex = (i * (panel + st.panel_gap) + panel / 2, table - length * math.sin(t))
        for k, sign in enumerate((-1.0, 1.0)):
            mid = (apex[0] + sign * math.cos(t) * length / 2,
                   apex[1] + math.sin(t) * length / 2)
            out = (sign * math.sin(t), -math.cos(t))
            for side, d in ((fold.stretched, st.face / 2), (fold.pressed, -st.face / 2)):
                probe = (mid[0] + out[0] * d, mid[1] + out[1] * d)
                fills = [fill for pts, fill in paths if _inside(probe, pts)]
                assert fills == [faces[side][k]], (fold, k, side)
