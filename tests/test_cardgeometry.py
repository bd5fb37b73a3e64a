"""Geometric facts of the physical card (SPEC §2), on the pure model."""

from __future__ import annotations

import itertools
import math

import pytest

from cardgen.cardgeometry import (
    LABEL_BAND,
    MIN_CELL,
    MIN_TAB,
    PRESETS,
    CardGeometry,
    custom_size,
)
from cardgen.connector_layout import link_positions
from cardgen.errors import CardgenError
from cardgen.geometry import Affine, Box

GEOMETRIES = [CardGeometry(PRESETS["eu"]), CardGeometry(PRESETS["us"]),
              CardGeometry(PRESETS["eu"], marks=False), CardGeometry(custom_size(90, 60))]


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return abs(a - b) <= tol


def test_presets():
    eu, us = PRESETS["eu"], PRESETS["us"]
    assert (eu.width, eu.height, eu.bleed) == (85, 55, 3)
    assert close(us.width, 88.9) and close(us.height, 50.8) and close(us.bleed, 3.175)
    assert eu.safe >= 3 and us.safe >= 3


@pytest.mark.parametrize("g", GEOMETRIES)
def test_trim_bleed_and_page(g: CardGeometry):
    s = g.size
    assert (g.trim.w, g.trim.h) == (s.width, 2 * s.height)  # flat = two panels
    assert g.bleed_box == g.trim.inset(-s.bleed)
    assert close(g.page_width, g.trim.w + 2 * g.slug)
    if g.marks:
        assert g.slug > s.bleed + 4  # room for marks outside the bleed
    else:
        assert g.slug == s.bleed  # the page is the bleed box
    assert close(g.fold_y, g.trim.y + s.height)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_grids_square_cells_meeting_at_the_fold(g: CardGeometry):
    s = g.cell
    assert s >= MIN_CELL
    assert close(round(s * 10), s * 10)  # whole tenths of a millimetre
    for grid in (g.grid_a, g.grid_b):
        assert close(grid.w, 10 * s) and close(grid.h, 10 * s)
    assert close(g.grid_b.y, g.fold_y)  # grid B's Row 1 touches the fold
    assert close(g.grid_a.bottom, g.fold_y)  # and so does grid A's
    assert close(g.grid_a.x + g.grid_a.w / 2, g.center_x)
    # Every cell of both grids is an equal square.
    for grid, c, r in itertools.product("AB", range(10), range(1, 11)):
        box = g.cell_box(c, r).transformed(g.grid_to_page(grid))
        assert close(box.w, s, 1e-9) and close(box.h, s, 1e-9)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_grid_a_is_grid_b_turned_half_round(g: CardGeometry):
    turn = Affine.rotate(180, g.center_x, g.fold_y)
    composed = turn @ g.grid_to_page("B")
    assert all(close(a, b, 1e-9) for a, b in zip(composed.as_tuple,
                                                  g.grid_to_page("A").as_tuple, strict=True))


@pytest.mark.parametrize("g", GEOMETRIES)
def test_cells_follow_spec_board_coordinates(g: CardGeometry):
    """SPEC §5: grid A Row r, column c is board (9 - c, 10 - r); grid B is (c, 9 + r)."""
    s = g.cell

    def board_center(x: int, y: int) -> tuple[float, float]:
        return (g.grid_a.x + (x + 0.5) * s, g.grid_a.y + (y + 0.5) * s)

    for c, r in itertools.product(range(10), range(1, 11)):
        assert math.dist(g.cell_center("A", c, r), board_center(9 - c, 10 - r)) < 1e-9
        assert math.dist(g.cell_center("B", c, r), board_center(c, 9 + r)) < 1e-9


@pytest.mark.parametrize("g", GEOMETRIES)
def test_everything_but_the_grid_keeps_the_safe_zone(g: CardGeometry):
    safe_area = g.trim.inset(g.size.safe)
    assert safe_area.contains_box(g.game_panel)  # grids and label bands
    assert g.game_panel.h == 20 * g.cell + 2 * LABEL_BAND
    panel = g.panel_safe()
    assert panel == Box(g.size.safe, g.size.safe, g.size.width - 2 * g.size.safe,
                        g.size.height - 2 * g.size.safe)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_front_upright_back_turned(g: CardGeometry):
    assert math.dist(g.front_to_page.apply(0, 0), (g.trim.x, g.fold_y)) < 1e-9
    # The back panel's top-left as read is the page's bottom-right of the upper half.
    assert math.dist(g.back_to_page.apply(0, 0), (g.trim.right, g.fold_y)) < 1e-9
    assert math.dist(g.back_to_page.apply(g.size.width, g.size.height),
                     (g.trim.x, g.trim.y)) < 1e-9


@pytest.mark.parametrize("g", [x for x in GEOMETRIES if x.marks])
def test_crop_and_fold_marks_lie_outside_the_bleed(g: CardGeometry):
    bleed = g.bleed_box
    marks = g.crop_marks() + g.fold_marks(True) + g.fold_marks(False)
    assert len(g.crop_marks()) == 8
    for (x1, y1), (x2, y2) in marks:
        for x, y in ((x1, y1), (x2, y2)):
            assert not bleed.contains(x, y, tol=-1e-9), (x, y)
            assert 0 <= x <= g.page_width and 0 <= y <= g.page_height
    # Crop marks continue the trim lines.
    for (x1, y1), (x2, y2) in g.crop_marks():
        assert (y1 == y2 and y1 in (g.trim.y, g.trim.bottom)) or (
            x1 == x2 and x1 in (g.trim.x, g.trim.right))
    fold = [m for m in g.fold_marks(True) if m[0][1] == g.fold_y]
    assert len(fold) == 2


@pytest.mark.parametrize("g", GEOMETRIES)
def test_side_tabs(g: CardGeometry):
    tab5, tab6 = g.tabs["5"], g.tabs["6"]
    assert tab5.w >= MIN_TAB and close(tab5.w, tab6.w)
    assert tab5.right <= g.game_panel.x and tab6.x >= g.game_panel.right
    assert close(tab5.bottom, g.fold_y) and close(tab5.y, g.trim.y)  # beside grid A
    cuts = g.cut_lines()
    assert ((g.trim.x, g.fold_y), (g.hinge_left, g.fold_y)) in cuts
    assert ((g.hinge_right, g.fold_y), (g.trim.right, g.fold_y)) in cuts
    scores = g.score_lines()
    assert ((g.hinge_left, g.trim.y), (g.hinge_left, g.fold_y)) in scores
    assert ((g.hinge_left, g.fold_y), (g.hinge_right, g.fold_y)) in scores


def _fold_physically(g: CardGeometry, tab: str, x: float, y: float) -> tuple[float, float]:
    """Independent folding: a point of a tab (inside view) to the back-panel frame."""
    hinge = g.hinge_left if tab == "5" else g.hinge_right
    folded_x = 2 * hinge - x  # the tab swings about its score line (inside view)
    outside_x = (g.trim.x + g.trim.right) - folded_x  # the sheet seen from outside
    # The back panel is printed turned 180°: its reading frame starts at the bottom right.
    return (g.trim.right - outside_x, g.fold_y - y)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_folded_tabs_cover_the_back_panel_side_by_side(g: CardGeometry):
    fp5, fp6 = g.folded_tab_footprint("5"), g.folded_tab_footprint("6")
    back = Box(0, 0, g.size.width, g.size.height)
    assert back.contains_box(fp5, 1e-9) and back.contains_box(fp6, 1e-9)
    assert not fp5.intersects(fp6)
    assert fp5.x < fp6.x  # tab 5 lands on the left of the back panel as read
    for tab in "56":
        corner = g.tabs[tab]
        folded = [_fold_physically(g, tab, x, y) for x, y in corner.corners()]
        xs, ys = [p[0] for p in folded], [p[1] for p in folded]
        assert close(min(xs), g.folded_tab_footprint(tab).x, 1e-9)
        assert close(max(ys), g.folded_tab_footprint(tab).bottom, 1e-9)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_addendum_transform_inverts_the_fold(g: CardGeometry):
    for tab, (u, v) in ((t, link_positions(g)[t]) for t in "56"):
        x, y = g.addendum_to_inside(tab).apply(u, v)
        assert g.tabs[tab].contains(x, y)
        assert math.dist(_fold_physically(g, tab, x, y), (u, v)) < 1e-9


def test_custom_size_bounds():
    with pytest.raises(CardgenError, match="width_mm = 20"):
        custom_size(20, 55)
    with pytest.raises(CardgenError, match="height_mm = 200"):
        custom_size(85, 200)
    with pytest.raises(CardgenError, match="too small"):
        CardGeometry(custom_size(60, 40))
    big = CardGeometry(custom_size(150, 120))
    assert big.cell <= 8.0


def test_link_numbers_1_to_4_sit_in_the_back_panel_corners():
    g = CardGeometry(PRESETS["eu"])
    pos = link_positions(g)
    safe = g.panel_safe()
    assert pos["1"][0] < pos["2"][0] and pos["1"][1] < pos["4"][1]
    for n in "1234":
        assert safe.contains(*pos[n])
