"""The card folds both ways (issue 13, item 5): grids inside, a business card; grids
outside, a tent between two players with one grid toward each. On the model: what each
player of the tent sees (an independent fold in space), that nothing to read lies where
either fold bends the paper, on either face, and which solids cross a score; on the
printed PDF: that no glyph lies where the paper bends."""

from __future__ import annotations

import math
import re
from functools import cache

import pytest

from cardgen.board.cells import Grid
from cardgen.card.build import CardBuild, build_card
from cardgen.card.config import config_from_values
from cardgen.card.creases import fold_ink, fold_ink_warnings
from cardgen.card.spread import Spread
from cardgen.draw.geometry import Affine, Box, Segment
from cardgen.draw.page import Image, Line, Path, Rect, Text, walk
from cardgen.physical.card import (
    CREASE,
    PRESETS,
    CardGeometry,
    Fold,
    Preset,
    Side,
    Tab,
    custom_size,
)
from cardgen.text.fit import text_box
from cardgen.text.fonts import bundled_fonts
from tests.helpers import DATA, ROOT
from tests.pdfops import read_pages

GEOMETRIES = [CardGeometry(PRESETS[Preset.EU]), CardGeometry(PRESETS[Preset.US]),
              CardGeometry(custom_size(61, 41)),  # the smallest grid squares, 3.5 mm
              Spread(PRESETS[Preset.EU]).geometry]
# Layers whose ink may run over a score: the grounds, the art and its plates (drawn on
# "background"), the portraits behind the grids, and the marks and the dieline, which
# lie on the scores on purpose (outside the trim, or non-printing).
FREE_LAYERS = {"background", "portrait", "marks", "dieline"}


def linear_part(t: Affine) -> tuple[float, ...]:
    return tuple(round(v, 9) + 0.0 for v in (t.a, t.b, t.c, t.d))


UPRIGHT = (1.0, 0.0, 0.0, 1.0)


# --- the tent --------------------------------------------------------------------------------


def _tent_in_space(g: CardGeometry, x: float, y: float, tilt: float) -> tuple[float, float]:
    """Independent folding: stand the card as a tent (each half tilted ``tilt`` degrees
    up from the table, printed inside outward) and project a point of the inside (sheet
    coordinates) onto the view of the player it faces. Space: X along the fold, Y across
    it toward grid A's player, Z up; right-handed. Returns (to the player's right from the
    ridge's left end, down from the ridge), in mm of the view."""
    a = math.radians(tilt)
    height = 40.0  # the ridge's height: any
    if y >= g.fold_y:  # grid B's half leans toward its player, at Y = -infinity
        d = y - g.fold_y
        point = (x, -d * math.cos(a), height - d * math.sin(a))
        normal = (0.0, -math.sin(a), math.cos(a))  # +Z when flat: the printed inside
        toward, right = (0.0, -1.0, 0.0), (1.0, 0.0, 0.0)  # facing +Y: right is +X
        left_end = g.trim.x
    else:  # grid A's half leans toward its player, at Y = +infinity
        d = g.fold_y - y
        point = (x, d * math.cos(a), height - d * math.sin(a))
        normal = (0.0, math.sin(a), math.cos(a))
        toward, right = (0.0, 1.0, 0.0), (-1.0, 0.0, 0.0)  # facing -Y: right is -X
        left_end = g.trim.right
    assert sum(n * t for n, t in zip(normal, toward, strict=True)) > 0  # seen printed side
    across = sum(p * r for p, r in zip(point, right, strict=True))
    left = sum(p * r for p, r in zip((left_end, 0.0, 0.0), right, strict=True))
    return across - left, height - point[2]


@pytest.mark.parametrize("g", GEOMETRIES)
@pytest.mark.parametrize("tilt", [35.0, 60.0, 85.0])
def test_tent_view_is_the_tent_seen_by_each_player(g: CardGeometry, tilt: float):
    """The model's tent view, with its distances down the half foreshortened by the tilt,
    is what a player sees of the card standing as a tent, for any tilt."""
    t = g.trim
    for grid, ys in ((Grid.B, (g.fold_y, g.fold_y + 7.3, t.bottom)),
                     (Grid.A, (g.fold_y - 0.01, g.fold_y - 19.0, t.y))):
        for x in (t.x, t.x + 11.1, g.center_x, t.right):
            for y in ys:
                u, v = g.tent_view(grid).apply(x, y)
                seen = _tent_in_space(g, x, y, tilt)
                assert math.dist(seen, (u, v * math.sin(math.radians(tilt)))) < 1e-9
                assert 0 <= u <= t.w + 1e-9 and 0 <= v <= g.size.height + 1e-9


@pytest.mark.parametrize("g", GEOMETRIES)
def test_each_player_of_the_tent_reads_their_grid_upright(g: CardGeometry):
    """Grid A is grid B turned half round on the sheet, so in the tent each player sees
    their grid the right way up: Row 1 along the ridge, rows counting down, columns A-J
    from left to right, labels upright (the grid frame to the view is a shift)."""
    board = g.board
    for grid in Grid:
        to_view = g.tent_view(grid) @ board.grid_to_page(grid)
        assert linear_part(to_view) == UPRIGHT, grid
        ridge = board.cell_box(0, 1).transformed(to_view)
        assert abs(ridge.y) < 1e-9  # Row 1 touches the ridge
        a, j = (board.cell_box(c, 10).transformed(to_view) for c in (0, 9))
        assert a.x < j.x and a.y > ridge.y
    # What the player of each half sees beside their grid reads upright too: with the
    # tabs left open, grid A's player sees the tabs' addendum as the back panel reads it;
    # grid B's player sees the strips (more Connector pieces) as the back panel reads them.
    for tab in Tab:
        assert linear_part(g.tent_view(Grid.A) @ g.addendum_to_inside(tab)) == UPRIGHT
    assert linear_part(g.tent_view(Grid.B) @ g.strip_to_inside) == UPRIGHT


def test_the_fold_ways():
    assert (Fold.CARD.stretched, Fold.CARD.pressed) == (Side.OUTSIDE, Side.INSIDE)
    assert (Fold.TENT.stretched, Fold.TENT.pressed) == (Side.INSIDE, Side.OUTSIDE)


@pytest.mark.parametrize("g", GEOMETRIES)
def test_crease_bands_follow_the_scores(g: CardGeometry):
    for side in Side:
        bands = g.crease_bands(side)
        assert len(bands) == len(g.fold_lines(side)) == 3
        for band, ((x1, y1), (x2, y2)) in zip(bands, g.fold_lines(side), strict=True):
            for x, y in ((x1, y1), (x2, y2), ((x1 + x2) / 2, (y1 + y2) / 2)):
                assert band.inset(CREASE - 1e-9).contains(x, y)
            assert min(band.w, band.h) == pytest.approx(2 * CREASE)
    # The faces each score stretches: the main fold both (one for each way of folding),
    # the hinges the inside only (a tab folds back over the outside).
    assert g.stretched_scores(Side.OUTSIDE) == g.fold_lines(Side.OUTSIDE)[:1]
    assert g.stretched_scores(Side.INSIDE) == g.fold_lines(Side.INSIDE)


# --- the built card: nothing to read where the paper bends ----------------------------------


CARDS = {
    "eu-dark-example": None,
    "us-light-photo-logo-ability": {
        "card": {"preset": "us", "theme": "light"},
        "person": {"name": "Ada Example", "title": "Freelance Illustrator",
                   "company": "Example Games", "email": "ada@example.org",
                   "phone": "+1 555 0100", "web": "example.org", "tagline": "Small games."},
        "images": {"portrait": str(DATA / "portrait.png"), "logo": str(DATA / "logo.png")},
        "ladder": {"ability": "Look at the top card of the deck."},
    },
    "smallest-custom": {
        "card": {"width_mm": 61, "height_mm": 41, "theme": "dark"},
        "person": {"name": "Ada Example", "email": "ada@example.org"},
    },
}


@cache
def _built(name: str) -> CardBuild:
    return build_card(config_from_values(CARDS[name], None, name))


def built(name: str, request: pytest.FixtureRequest) -> CardBuild:
    """The card of that name; the example is the session's (tests/conftest.py)."""
    return request.getfixturevalue("example_build") if CARDS[name] is None else _built(name)


def _item_box(item: Rect | Line | Path | Text | Image, t: Affine) -> Box:
    """Where an item's ink can be, on the page."""
    match item:
        case Text():
            box = text_box(Text(item.x, item.y, item.text, item.font, item.size, item.color,
                                item.anchor))
            return box.transformed(t @ Affine.rotate(item.rotation, item.x, item.y))
        case Rect() | Image():
            return Box(item.x, item.y, item.w, item.h).transformed(t)
        case Line():
            half = item.stroke.width / 2
            return Box.around([(item.x1, item.y1), (item.x2, item.y2)]).inset(-half).transformed(t)
        case Path():
            points = [(op.x, op.y) for op in item.ops if hasattr(op, "x")]
            points += [(op.x1, op.y1) for op in item.ops if hasattr(op, "x1")]
            box = Box.around(points)
            if item.stroke is not None:
                box = box.inset(-item.stroke.width / 2)
            return box.transformed(t)
    raise TypeError(item)


@pytest.mark.parametrize("name", sorted(CARDS))
def test_nothing_to_read_lies_where_the_paper_bends(name: str, request):
    """On both faces, no text (names, contacts, grid labels, Connector pieces, link
    numbers), QR code, logo, signature box or number's disc lies within CREASE of a score:
    the main fold (stretched on the outside as a business card, on the inside as a tent)
    and the hinges. What may cross a score: the grounds and the art (layer
    "background"), the portraits, and the grid lines, which meet at the fold on purpose
    (the 10 × 20 board); the grid layer holds nothing else but its labels."""
    build = built(name, request)
    g = build.geometry
    for side, page in zip(Side, build.document.pages, strict=True):
        assert page.name == side.value
        bands = g.crease_bands(side)
        checked = 0
        for layer in page.layers:
            if layer.name in FREE_LAYERS:
                continue
            for item, t in walk(layer.items):
                if layer.name == "grid" and isinstance(item, Line):
                    continue  # grid lines and the fold line: across on purpose
                assert layer.name != "grid" or isinstance(item, Text), item
                box = _item_box(item, t)
                checked += 1
                assert not any(box.intersects(b) for b in bands), (name, side, item, box)
        assert checked > 5


def _crosses(box: Box, score: Segment) -> bool:
    """Whether ink in ``box`` meets the score's crease band (touching the score line
    from one side, as the two grids' portraits do, counts)."""
    (x1, y1), (x2, y2) = score
    return box.intersects(Box(min(x1, x2), min(y1, y2), abs(x2 - x1),
                              abs(y2 - y1)).inset(-CREASE))


def _max_ink_near_fold(image: Image, g: CardGeometry) -> float:
    """The most ink (0-4) of a portrait raster in the rows within CREASE of the fold: its
    grid frame puts the fold at its top edge."""
    cmyk = image.raster.cmyk
    assert cmyk is not None
    rows = max(1, math.ceil(CREASE / image.h * cmyk.height))
    band = cmyk.crop((0, 0, cmyk.width, rows))
    data = band.tobytes()  # C, M, Y, K bytes of each pixel
    return max(sum(data[i:i + 4]) for i in range(0, len(data), 4)) / 255


@pytest.mark.parametrize("name", sorted(CARDS))
def test_solids_across_the_scores_carry_one_ink_at_most(name: str, request):
    """The print section's rule: what crosses a score on a face that the fold stretches
    carries at most 100 % ink in all (one ink at full strength, or light tints): no rich
    black and none of the dark curves' colours, which crack worst. The outside's ground
    crosses the main fold (stretched in the business-card fold); the inside's margin,
    its light game panel, the portraits' tints and the grid lines cross it (stretched in
    the tent) and the margin crosses the hinges (stretched when a tab folds back)."""
    build = built(name, request)
    g = build.geometry
    crossing: dict[Side, set[str]] = {side: set() for side in Side}
    for side, page in zip(Side, build.document.pages, strict=True):
        scores = g.stretched_scores(side)
        for layer in page.layers:
            if layer.name in {"marks", "dieline"}:
                continue
            for item, t in walk(layer.items):
                box = _item_box(item, t)
                if not any(_crosses(box, s) for s in scores):
                    continue
                if isinstance(item, Image):
                    ink = _max_ink_near_fold(item, g)
                elif isinstance(item, Line):
                    ink = sum(item.stroke.color.cmyk_fractions)
                elif isinstance(item, Text):
                    raise AssertionError(f"text across a score: {item}")
                else:
                    ink = sum(item.fill.cmyk_fractions) if item.fill else 0.0
                    if item.stroke is not None:
                        ink = max(ink, sum(item.stroke.color.cmyk_fractions))
                assert ink <= 1.0 + 1e-9, (name, side, layer.name, item)
                crossing[side].add(layer.name)
    assert crossing[Side.OUTSIDE] == {"background"}
    assert {"background", "portrait", "grid"} <= crossing[Side.INSIDE]


def _run_box(run) -> Box:
    """Where a printed run's glyphs are (page mm): along its baseline, from its tallest
    glyph's top to its deepest glyph's bottom, whichever way the run turns (set in
    cardgen's own faces, as the example card is)."""
    own = bundled_fonts()
    metrics = {f.name: f.metrics for f in (own.regular, own.bold, own.italic)}[run.font]
    (sx, sy), (ex, ey) = run.start, run.end
    length = math.dist(run.start, run.end) or 1e-9
    ux, uy = (ey - sy) / length, -(ex - sx) / length  # the run's up, y down
    up = metrics.ink_top_mm(run.chars, run.size_pt)
    down = metrics.ink_bottom_mm(run.chars, run.size_pt)
    return Box.around((x + ux * k, y + uy * k) for x, y in (run.start, run.end)
                      for k in (up, -down))


def test_the_printed_card_has_no_glyph_where_the_paper_bends(example_build, example_pdf):
    """The same on ``card.pdf`` as printed: every glyph run on the card's two faces keeps
    out of the crease bands of its side (the slug line and the dieline's legend lie
    outside the bleed)."""
    g = example_build.geometry
    runs = 0
    for side, page in zip(Side, read_pages(example_pdf), strict=True):
        bands = g.crease_bands(side)
        for run in page.texts:
            box = _run_box(run)
            if not g.bleed_box.contains_box(box):
                continue
            runs += 1
            assert not any(box.intersects(b) for b in bands), (side, run.chars, box)
    assert runs > 50


@pytest.mark.parametrize("name", sorted(CARDS))
def test_the_bundled_themes_cross_the_scores_without_a_warning(name: str, request):
    build = built(name, request)
    found = {(f.side, f.layer) for side, page in zip(Side, build.document.pages, strict=True)
             for f in fold_ink(page, side, build.geometry)}
    assert (Side.OUTSIDE, "background") in found and (Side.INSIDE, "grid") in found
    assert not [w for w in build.warnings if "crosses the main fold" in w]


def test_a_heavy_ground_across_the_fold_is_warned(tmp_path):
    """A theme of one's own whose business side is a solid of two inks (135 %) prints,
    with a warning that names the theme, what crosses the fold and the fix."""
    light = (ROOT / "templates" / "themes" / "light.toml").read_text(encoding="utf-8")
    theme = re.sub(r"(?m)^background = .*$", "background = [0, 45, 90, 0]", light, count=1)
    theme = re.sub(r"(?m)^(name|accent) = \[.*$", r"\1 = [0, 0, 0, 100]", theme)
    (tmp_path / "orange.toml").write_text(theme, encoding="utf-8")
    config = config_from_values({"card": {"theme": str(tmp_path / "orange.toml")},
                                 "person": {"name": "Ada Example"}}, None, "t.toml")
    build = build_card(config)
    assert [w for w in build.warnings if "crosses" in w] == [
        "card.theme: the business side's ground crosses the main fold with 135 % ink, and a "
        "fold may crack a solid over 100 % along its ridge; choose a colour of one ink, or "
        "lighter, for it in the theme."]
    assert fold_ink_warnings(build.document.pages, build.geometry) == [
        w for w in build.warnings if "crosses" in w]
