"""Geometric facts of the physical card (SPEC §2), on the pure model: the card itself
(physical.card, trim-relative) and the card on its print page (card.spread: slug, page
boxes, marks)."""

from __future__ import annotations

import itertools
import math

import pytest

from cardgen.board.cells import Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.card.spread import Spread
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import Line
from cardgen.errors import CardgenError
from cardgen.physical.card import (
    MIN_CELL,
    MIN_TAB,
    PRESETS,
    CardGeometry,
    Preset,
    Side,
    Tab,
    custom_size,
)
from cardgen.physical.links import link_positions
from cardgen.prepress.marks import PRINT_SHOP, crop_marks, cut_marks, fold_marks
from cardgen.text.fonts import bundled_fonts

SIZES = {"eu": PRESETS[Preset.EU], "us": PRESETS[Preset.US], "custom": custom_size(90, 60)}
SPREADS = [Spread(SIZES["eu"]), Spread(SIZES["us"]), Spread(SIZES["eu"], marks=False),
           Spread(SIZES["custom"])]
# The physical card alone (trim-relative, and moved), and the card in page coordinates
# (what the old CardGeometry(size, marks) gave).
GEOMETRIES = [
    CardGeometry(SIZES["eu"]), CardGeometry(SIZES["us"]), CardGeometry(SIZES["custom"]),
    CardGeometry(SIZES["eu"], origin=(9.0, 9.0)),
    *(s.geometry for s in SPREADS),
]
SHIFT = (9.0, 9.0)
MOVE = Affine.translate(*SHIFT)


def close(a: float, b: float, tol: float = 1e-9) -> bool:
    return abs(a - b) <= tol


def same_affine(a: Affine, b: Affine, tol: float = 1e-9) -> bool:
    return all(close(p, q, tol) for p, q in zip(a.as_tuple, b.as_tuple, strict=True))


def same_box(a: Box, b: Box, tol: float = 1e-9) -> bool:
    return all(close(p, q, tol) for p, q in zip((a.x, a.y, a.w, a.h), (b.x, b.y, b.w, b.h),
                                                strict=True))


def moved_box(box: Box) -> Box:
    return Box(box.x + SHIFT[0], box.y + SHIFT[1], box.w, box.h)


def same_moved_segments(moved, segments, tol: float = 1e-9) -> bool:
    """``moved`` are ``segments`` translated by SHIFT."""
    return len(moved) == len(segments) and all(
        math.dist(p, (q[0] + SHIFT[0], q[1] + SHIFT[1])) <= tol
        for m, s in zip(moved, segments, strict=True) for p, q in zip(m, s, strict=True))


def test_presets():
    eu, us = PRESETS[Preset.EU], PRESETS[Preset.US]
    assert (eu.width, eu.height, eu.bleed) == (85, 55, 3)
    assert close(us.width, 88.9) and close(us.height, 50.8) and close(us.bleed, 3.175)
    assert eu.safe >= 3 and us.safe >= 3
    assert PRESETS["eu"] is eu  # the enum is a StrEnum
    assert eu.preset is Preset.EU and us.preset is Preset.US
    assert custom_size(90, 60).preset is None


# --- the physical card: trim-relative ------------------------------------------------------


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES)
def test_physical_card_is_trim_relative(size):
    g = CardGeometry(size)
    assert g.origin == (0.0, 0.0)
    assert g.trim == Box(0, 0, size.width, 2 * size.height)
    assert g.bleed_box == Box(-size.bleed, -size.bleed, size.width + 2 * size.bleed,
                              2 * size.height + 2 * size.bleed)


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES)
def test_origin_only_translates_the_card(size):
    """A card with its trim at (9, 9) is the card at (0, 0) moved by (9, 9): every box,
    line and page-coordinate transform moves; every panel-, grid- and back-frame value
    stays."""
    a, b = CardGeometry(size), CardGeometry(size, origin=SHIFT)
    # Page coordinates move.
    for name in ("trim", "bleed_box", "front", "back", "game_panel"):
        assert same_box(getattr(b, name), moved_box(getattr(a, name))), name
    for name in ("fold_y", "hinge_left", "hinge_right"):
        assert close(getattr(b, name), getattr(a, name) + SHIFT[1 if name == "fold_y" else 0])
    assert close(b.center_x, a.center_x + SHIFT[0])
    for tab in Tab:
        assert same_box(b.tabs[tab], moved_box(a.tabs[tab]))
        assert close(b.hinge_x(tab), a.hinge_x(tab) + SHIFT[0])
    assert same_moved_segments(b.tab_cuts(Side.INSIDE), a.tab_cuts(Side.INSIDE))
    assert same_moved_segments(b.score_lines(), a.score_lines())
    for side in Side:
        assert same_moved_segments(b.fold_lines(side), a.fold_lines(side))
        assert same_moved_segments(b.tab_cuts(side), a.tab_cuts(side))
    for grid in Grid:
        assert same_box(b.board.grid_box(grid), moved_box(a.board.grid_box(grid)))
        # frame -> page: the page end moves
        assert same_affine(b.board.grid_to_page(grid), MOVE @ a.board.grid_to_page(grid))
        for c, r in ((0, 1), (9, 10), (4, 7)):
            assert math.dist(b.board.cell_center(grid, c, r),
                             MOVE.apply(*a.board.cell_center(grid, c, r))) < 1e-9
    assert same_affine(b.front_to_page, MOVE @ a.front_to_page)
    assert same_affine(b.back_to_page, MOVE @ a.back_to_page)
    assert same_affine(b.strip_to_inside, MOVE @ a.strip_to_inside)
    # page -> page: conjugated by the move
    assert same_affine(b.turn, MOVE @ a.turn @ MOVE.inverse())
    for tab in Tab:
        assert same_affine(b.folded_tab_to_outside(tab),
                           MOVE @ a.folded_tab_to_outside(tab) @ MOVE.inverse())
        assert same_affine(b.addendum_to_inside(tab), MOVE @ a.addendum_to_inside(tab))
        # In the back panel's own frame nothing changes.
        assert same_box(a.folded_tab_footprint(tab), b.folded_tab_footprint(tab))
    # Frame-relative values do not move.
    assert a.cell == b.cell and a.grid_size == b.grid_size
    assert same_box(a.panel_safe(), b.panel_safe())
    la, lb = link_positions(a), link_positions(b)
    assert la.keys() == lb.keys()
    assert all(math.dist(la[k], lb[k]) < 1e-9 for k in la)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_turn_is_the_head_to_head_mirror(g: CardGeometry):
    assert same_affine(g.turn, Affine(-1, 0, 0, 1, 2 * g.center_x, 0))
    for x, y in g.trim.corners():
        tx, ty = g.turn.apply(x, y)
        assert g.trim.contains(tx, ty) and close(ty, y)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_trim_and_bleed(g: CardGeometry):
    s = g.size
    assert (g.trim.x, g.trim.y) == g.origin
    assert (g.trim.w, g.trim.h) == (s.width, 2 * s.height)  # flat = two panels
    assert g.bleed_box == g.trim.inset(-s.bleed)
    assert close(g.fold_y, g.trim.y + s.height)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_each_panel_with_its_bleed_is_its_half_of_the_bleed_box(g: CardGeometry):
    """A panel's art area, taken to the page by the panel's own transform, is exactly the
    half of the bleed box on that panel's side of the fold: bleed on the outer edge and
    both sides, nothing across the fold."""
    bleed = g.bleed_box
    upper = Box(bleed.x, bleed.y, bleed.w, g.fold_y - bleed.y)
    lower = Box(bleed.x, g.fold_y, bleed.w, bleed.bottom - g.fold_y)
    area = g.panel_with_bleed()
    for got, want in ((area.transformed(g.front_to_page), lower),
                      (area.transformed(g.back_to_page), upper)):
        assert all(close(p, q) for p, q in zip((got.x, got.y, got.right, got.bottom),
                                               (want.x, want.y, want.right, want.bottom),
                                               strict=True)), (got, want)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_grids_square_cells_meeting_at_the_fold(g: CardGeometry):
    s = g.cell
    board = g.board
    assert s >= MIN_CELL
    assert close(round(s * 10), s * 10)  # whole tenths of a millimetre
    for grid in (board.grid_a, board.grid_b):
        assert close(grid.w, 10 * s) and close(grid.h, 10 * s)
    assert close(board.grid_b.y, g.fold_y)  # grid B's Row 1 touches the fold
    assert close(board.grid_a.bottom, g.fold_y)  # and so does grid A's
    assert close(board.grid_a.x + board.grid_a.w / 2, g.center_x)
    # Every cell of both grids is an equal square.
    for grid, c, r in itertools.product(Grid, range(10), range(1, 11)):
        box = board.cell_box(c, r).transformed(board.grid_to_page(grid))
        assert close(box.w, s, 1e-9) and close(box.h, s, 1e-9)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_grid_a_is_grid_b_turned_half_round(g: CardGeometry):
    turn = Affine.rotate(180, g.center_x, g.fold_y)
    composed = turn @ g.board.grid_to_page(Grid.B)
    assert same_affine(composed, g.board.grid_to_page(Grid.A))


@pytest.mark.parametrize("g", GEOMETRIES)
def test_cells_follow_spec_board_coordinates(g: CardGeometry):
    """SPEC §5: grid A Row r, column c is board (9 - c, 10 - r); grid B is (c, 9 + r)."""
    s = g.cell
    board = g.board

    def board_center(x: int, y: int) -> tuple[float, float]:
        return (board.grid_a.x + (x + 0.5) * s, board.grid_a.y + (y + 0.5) * s)

    for c, r in itertools.product(range(10), range(1, 11)):
        assert math.dist(board.cell_center(Grid.A, c, r), board_center(9 - c, 10 - r)) < 1e-9
        assert math.dist(board.cell_center(Grid.B, c, r), board_center(c, 9 + r)) < 1e-9
        # board_cell(x, y) is the page box of board cell (x, y)
        assert math.dist(board.board_cell(9 - c, 10 - r).center,
                         board_center(9 - c, 10 - r)) < 1e-9


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


@pytest.mark.parametrize("g", GEOMETRIES)
def test_side_tabs(g: CardGeometry):
    tab5, tab6 = g.tabs[Tab.FIVE], g.tabs[Tab.SIX]
    assert g.tabs["5"] is tab5  # Tab is a StrEnum
    assert tab5.w >= MIN_TAB and close(tab5.w, tab6.w)
    assert tab5.right <= g.game_panel.x and tab6.x >= g.game_panel.right
    assert close(tab5.bottom, g.fold_y) and close(tab5.y, g.trim.y)  # beside grid A
    # Each slit runs along the fold from the long edge (on the outline) to the hinge.
    assert g.tab_cuts(Side.INSIDE) == [((g.trim.x, g.fold_y), (g.hinge_left, g.fold_y)),
                             ((g.trim.right, g.fold_y), (g.hinge_right, g.fold_y))]
    assert all(g.trim.on_outline(*start) for start, _ in g.tab_cuts(Side.INSIDE))
    scores = g.score_lines()
    assert ((g.hinge_left, g.trim.y), (g.hinge_left, g.fold_y)) in scores
    assert ((g.hinge_left, g.fold_y), (g.hinge_right, g.fold_y)) in scores


@pytest.mark.parametrize("g", GEOMETRIES)
def test_fold_lines_and_tab_cuts_per_side(g: CardGeometry):
    """The main fold between the hinges (it never reaches the trim: beside the tabs the
    card is cut), then the hinges of tab 5 and tab 6; and the tabs' cuts along the fold,
    from each long edge inwards to a hinge. Where they are on the inside, and mirrored
    head-to-head on the outside. Together, fold and cuts cross the card edge to edge."""
    t, y = g.trim, g.fold_y
    inside = g.fold_lines(Side.INSIDE)
    assert inside == [((g.hinge_left, y), (g.hinge_right, y)),
                      ((g.hinge_left, t.y), (g.hinge_left, y)),
                      ((g.hinge_right, t.y), (g.hinge_right, y))]
    assert not any(t.on_outline(*p) for p in inside[0])
    cuts = g.tab_cuts(Side.INSIDE)
    assert cuts == [((t.x, y), (g.hinge_left, y)), ((t.right, y), (g.hinge_right, y))]
    assert all(t.on_outline(*start) for start, _ in cuts)  # each starts on the edge
    outside = g.fold_lines(Side.OUTSIDE)
    mirrored = sorted(2 * g.center_x - x for x in (g.hinge_left, g.hinge_right))
    assert close(outside[0][0][0], mirrored[0]) and close(outside[0][1][0], mirrored[1])
    assert outside[0][0][1] == outside[0][1][1] == y
    for (p1, p2), (q1, q2) in zip(outside[1:], inside[1:], strict=True):
        assert close(p1[0], 2 * g.center_x - q1[0]) and close(p2[0], 2 * g.center_x - q2[0])
        assert (p1[1], p2[1]) == (q1[1], q2[1])
    out_cuts = g.tab_cuts(Side.OUTSIDE)
    assert [c[0] for c in out_cuts] == [(t.x, y), (t.right, y)]
    assert close(out_cuts[0][1][0], mirrored[0]) and close(out_cuts[1][1][0], mirrored[1])


def _fold_physically(g: CardGeometry, tab: Tab, x: float, y: float) -> tuple[float, float]:
    """Independent folding: a point of a tab (inside view) to the back-panel frame."""
    hinge = g.hinge_left if tab == "5" else g.hinge_right
    folded_x = 2 * hinge - x  # the tab swings about its score line (inside view)
    outside_x = (g.trim.x + g.trim.right) - folded_x  # the sheet seen from outside
    # The back panel is printed turned 180°: its reading frame starts at the bottom right.
    return (g.trim.right - outside_x, g.fold_y - y)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_folded_tabs_cover_the_back_panel_side_by_side(g: CardGeometry):
    fp5, fp6 = g.folded_tab_footprint(Tab.FIVE), g.folded_tab_footprint(Tab.SIX)
    back = Box(0, 0, g.size.width, g.size.height)
    assert back.contains_box(fp5, 1e-9) and back.contains_box(fp6, 1e-9)
    assert not fp5.intersects(fp6)
    assert fp5.x < fp6.x  # tab 5 lands on the left of the back panel as read
    for tab in Tab:
        corner = g.tabs[tab]
        folded = [_fold_physically(g, tab, x, y) for x, y in corner.corners()]
        xs, ys = [p[0] for p in folded], [p[1] for p in folded]
        assert close(min(xs), g.folded_tab_footprint(tab).x, 1e-9)
        assert close(max(ys), g.folded_tab_footprint(tab).bottom, 1e-9)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_addendum_transform_inverts_the_fold(g: CardGeometry):
    for tab in Tab:
        u, v = link_positions(g)[tab]
        x, y = g.addendum_to_inside(tab).apply(u, v)
        assert g.tabs[tab].contains(x, y)
        assert math.dist(_fold_physically(g, tab, x, y), (u, v)) < 1e-9


def _strip_physically(g: CardGeometry, x: float, y: float) -> tuple[float, float]:
    """Independent folding: a point of the lower half's inside (inside view) to the
    back-panel frame, where it shows once the tab above it is folded away."""
    outside_x = (g.trim.x + g.trim.right) - x  # the sheet seen from outside
    over_y = 2 * g.fold_y - y  # folded, the upper half's point at this height lies over it
    # The back panel is printed turned 180°: its reading frame starts at the bottom right.
    return (g.trim.right - outside_x, g.fold_y - over_y)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_strip_transform_inverts_the_fold(g: CardGeometry):
    t = g.strip_to_inside
    for u, v in ((0, 0), (g.size.width, g.size.height), (3.5, 41.25), (80.0, 7.0)):
        x, y = t.apply(u, v)
        assert math.dist(_strip_physically(g, x, y), (u, v)) < 1e-9
        assert g.trim.contains(x, y) and y >= g.fold_y  # on the lower half
    for tab in Tab:
        # Where the tab lay on the back panel before it was folded, the strip shows: the
        # lower half's inside under the tab's own place, mirrored about the fold.
        uncovered = g.tabs[tab].transformed(g.back_to_page.inverse() @ g.turn)
        mirrored = g.tabs[tab].transformed(Affine.mirror_y(g.fold_y))
        assert same_box(uncovered.transformed(t), mirrored)
        assert not uncovered.intersects(g.folded_tab_footprint(tab))


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
    g = CardGeometry(PRESETS[Preset.EU])
    pos = link_positions(g)
    safe = g.panel_safe()
    assert pos["1"][0] < pos["2"][0] and pos["1"][1] < pos["4"][1]
    for n in "1234":
        assert safe.contains(*pos[n])


# --- the spread: the card on its print page -----------------------------------------------


@pytest.mark.parametrize("spread", SPREADS)
def test_spread_slug_and_page(spread: Spread):
    s, g = spread.size, spread.geometry
    assert g == CardGeometry(s, (spread.slug, spread.slug))  # page coordinates
    assert g.trim == Box(spread.slug, spread.slug, s.width, 2 * s.height)
    assert close(spread.page_width, g.trim.w + 2 * spread.slug)
    assert close(spread.page_height, g.trim.h + 2 * spread.slug)
    if spread.marks:
        assert spread.slug > s.bleed + 4  # room for marks outside the bleed
        assert spread.slug >= s.bleed + PRINT_SHOP.gap + PRINT_SHOP.length
    else:
        assert spread.slug == s.bleed  # the page is the bleed box
        assert g.bleed_box == Box(0, 0, spread.page_width, spread.page_height)


@pytest.mark.parametrize("spread", SPREADS)
def test_spread_page_boxes(spread: Spread):
    g = spread.geometry
    for side in Side:
        page = spread.new_page(side)
        assert page.name == side.value
        assert (page.width, page.height) == (spread.page_width, spread.page_height)
        assert page.trim == g.trim and page.bleed == g.bleed_box
        assert Box(0, 0, page.width, page.height).contains_box(page.bleed)


def test_print_shop_mark_style():
    assert PRINT_SHOP.gap == 1.0 and PRINT_SHOP.length == 4.0


def _spread_marks(spread: Spread) -> dict[Side, list]:
    g = spread.geometry
    crop = crop_marks(g.trim, spread.size.bleed, PRINT_SHOP)
    return {side: crop + cut_marks(g.trim, spread.size.bleed, g.tab_cuts(side), PRINT_SHOP)
            + fold_marks(g.trim, spread.size.bleed, g.fold_lines(side), PRINT_SHOP)
            for side in Side}


@pytest.mark.parametrize("spread", [s for s in SPREADS if s.marks])
def test_crop_and_fold_marks_lie_outside_the_bleed(spread: Spread):
    g = spread.geometry
    bleed = g.bleed_box
    crop = crop_marks(g.trim, g.size.bleed, PRINT_SHOP)
    inside = fold_marks(g.trim, g.size.bleed, g.fold_lines(Side.INSIDE), PRINT_SHOP)
    outside = fold_marks(g.trim, g.size.bleed, g.fold_lines(Side.OUTSIDE), PRINT_SHOP)
    cuts = [m for side in Side for m in cut_marks(g.trim, g.size.bleed, g.tab_cuts(side),
                                                   PRINT_SHOP)]
    assert len(crop) == 8
    assert len(inside) == len(outside) == 2  # the two tab hinges; the fold stops inside
    assert len(cuts) == 4  # each tab's cut at a long edge, both sides
    for (x1, y1), (x2, y2) in crop + inside + outside + cuts:
        assert math.dist((x1, y1), (x2, y2)) == pytest.approx(PRINT_SHOP.length)
        for x, y in ((x1, y1), (x2, y2)):
            assert not bleed.contains(x, y, tol=-1e-9), (x, y)
            # and at least the gap beyond it
            assert not bleed.inset(-PRINT_SHOP.gap).contains(x, y, tol=-1e-9), (x, y)
            assert 0 <= x <= spread.page_width and 0 <= y <= spread.page_height
    # Crop marks continue the trim lines.
    for (x1, y1), (x2, y2) in crop:
        assert (y1 == y2 and y1 in (g.trim.y, g.trim.bottom)) or (
            x1 == x2 and x1 in (g.trim.x, g.trim.right))
    assert not [m for m in inside + outside if m[0][1] == g.fold_y]
    assert all(m[0][1] == m[1][1] == g.fold_y for m in cuts)
    # The hinge marks continue the hinges, on each side where that side sees them.
    for marks, side in ((inside, Side.INSIDE), (outside, Side.OUTSIDE)):
        hinges = sorted(m[0][0] for m in marks if m[0][0] == m[1][0])
        want = sorted(line[0][0] for line in g.fold_lines(side)[1:])
        assert hinges == want


@pytest.mark.parametrize("spread", SPREADS)
def test_spread_draws_those_marks(spread: Spread):
    fonts = bundled_fonts()
    expected = _spread_marks(spread)
    for side in Side:
        page = spread.new_page(side)
        spread.add_marks(page, side, fonts)
        drawn = [i for layer in page.layers for i in layer.items if isinstance(i, Line)]
        lines = [((i.x1, i.y1), (i.x2, i.y2)) for i in drawn]
        if spread.marks:
            assert lines == expected[side]
            assert [i.stroke for i in drawn] == [PRINT_SHOP.crop] * 10 + [PRINT_SHOP.fold] * 2
        else:
            assert lines == [] and not page.layers


@pytest.mark.parametrize("spread", SPREADS)
def test_spread_piece_for_imposition(spread: Spread):
    g = spread.geometry
    piece = spread.piece()
    assert piece.trim == g.trim and piece.bleed == g.bleed_box
    assert piece.bleed_width == spread.size.bleed
    assert same_affine(piece.turn, g.turn)
    assert list(piece.folds[0]) == g.fold_lines(Side.OUTSIDE)
    assert list(piece.folds[1]) == g.fold_lines(Side.INSIDE)
    assert list(piece.cuts[0]) == g.tab_cuts(Side.OUTSIDE)
    assert list(piece.cuts[1]) == g.tab_cuts(Side.INSIDE)
    assert piece.cut_end_side == 1  # ticked on the inside only
