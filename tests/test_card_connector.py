"""The Connector as the card prints it (issue 9, item 2): fragments and numbers read back
from ``card.pdf`` where the layout puts them, nothing printed near a cut or score, type
at legible sizes, game colours legible and told apart by shape, and a custom size's
plain back. The drawing itself (plates, shapes, legend) is checked on its own items."""

from __future__ import annotations

import itertools
import math

import pytest

from cardgen.card.spread import Spread
from cardgen.card.themes import load_theme
from cardgen.connector.draw import (
    LEGEND_MIN,
    GameStyle,
    fragment_items,
    game_styles,
    legend_items,
    mark_items,
    plate_ops,
    style_problems,
)
from cardgen.connector.layout import MIN_SIZE, bundled_layout
from cardgen.connector.model import BASELINE, PLATE_SIDE, Face, Fragment, Mark, Shape
from cardgen.draw.colors import INK, Color
from cardgen.draw.geometry import Affine, Box, Segment
from cardgen.draw.page import Group, Path, Text, walk
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import PRESETS, CardGeometry, Preset, Side, Tab, custom_size
from cardgen.prepress.ink import MIN_CONTRAST, contrast
from cardgen.text.fonts import bundled_fonts
from tests.pdfops import PT_PER_MM, read_pages

TOL = 0.1  # mm: printed positions against the model
CLEAR = 3.0  # mm from every cut and score
PRINTS = {preset: ("card", "--preset", preset, "--theme", "dark", "-f", "pdf")
          for preset in ("eu", "us")}  # the cards test_bleed prints too



def _geometry(preset: str) -> CardGeometry:
    return Spread(PRESETS[Preset(preset)]).geometry


def _to_page(g: CardGeometry, face: Face) -> tuple[int, Affine]:
    """The PDF page (0 outside, 1 inside) a face is printed on, and card frame -> page."""
    return {Face.BACK: (0, g.back_to_page),
            Face.TAB5: (1, g.addendum_to_inside(Tab.FIVE)),
            Face.TAB6: (1, g.addendum_to_inside(Tab.SIX)),
            Face.STRIP: (1, g.strip_to_inside)}[face]


def _expected_origin(f: Fragment) -> tuple[tuple[float, float], tuple[int, int]]:
    """Where the model puts a fragment's text (card frame) and the way it runs: from the
    box's corner at the text's start, BASELINE em in from the box's top edge."""
    b, em = f.box, (f.box.h if f.rotation in (0, 180) else f.box.w)
    down = BASELINE * em
    return {0: ((b.x, b.y + down), (1, 0)), 90: ((b.right - down, b.y), (0, 1)),
            180: ((b.right, b.bottom - down), (-1, 0)),
            270: ((b.x + down, b.bottom), (0, -1))}[f.rotation]


@pytest.fixture(scope="module")
def printed(produced):
    """preset -> the pages of its card.pdf, interpreted."""
    return {preset: read_pages(produced(*args) / "card.pdf") for preset, args in PRINTS.items()}


@pytest.mark.parametrize("preset", sorted(PRINTS))
def test_fragments_and_numbers_print_where_the_model_puts_them(printed, preset):
    """Each fragment's text is read back from card.pdf, taken to the card frame through
    its face's transform and compared with the model: its start within 0.1 mm of the box
    origin plus the baseline, running the fragment's way, at its size, no longer than its
    box. Each number's glyph centre is its mark's centre."""
    g = _geometry(preset)
    layout = bundled_layout(Preset(preset))
    pages = printed[preset]
    regular = bundled_fonts().regular
    for f in layout.fragments:
        index, to_page = _to_page(g, f.face)
        back = to_page.inverse()
        runs = [r for r in pages[index].texts if r.chars == f.text]
        assert len(runs) == 1, (f.index, f.text, f.face)
        run = runs[0]
        start, end = back.apply(*run.start), back.apply(*run.end)
        origin, (dx, dy) = _expected_origin(f)
        assert math.dist(start, origin) <= TOL, (f.text, start, origin)
        length = math.dist(start, end)
        assert math.dist(end, (start[0] + dx * length, start[1] + dy * length)) < 1e-3, f.text
        assert MIN_SIZE - 1e-3 <= run.size_pt <= f.size + 1e-3, f.text
        assert length <= max(f.box.w, f.box.h) + 1e-3
        assert length == pytest.approx(regular.width(f.text, run.size_pt), abs=TOL)
    bold = bundled_fonts().bold
    for m in layout.marks:
        index, to_page = _to_page(g, m.face)
        runs = [r for r in pages[index].texts if r.chars == str(m.number)
                and r.font == bold.name  # not the legend's counts
                and math.dist(to_page.inverse().apply(*r.start), m.center) < 3]
        assert len(runs) == 1, m
        run = runs[0]
        start, end = (to_page.inverse().apply(*p) for p in (run.start, run.end))
        # The glyph's centre: half its advance along the baseline, half the cap height up.
        cap = bold.metrics.cap_height_mm(run.size_pt)
        centre = ((start[0] + end[0]) / 2, (start[1] + end[1]) / 2 - cap / 2)
        assert math.dist(centre, m.center) <= TOL, (m, centre)


def _segments(g: CardGeometry, side: Side) -> list[Segment]:
    """Every cut and score as ``side`` sees it: the trim's outline, the tabs' cuts along
    the fold, the main fold and the hinges."""
    lines = [*g.trim.outline(), *g.tab_cuts(side)]
    scores = g.score_lines()
    if side is Side.OUTSIDE:
        scores = [(g.turn.apply(*a), g.turn.apply(*b)) for a, b in scores]
    return lines + scores


def _distance(box: Box, segment: Segment) -> float:
    """From an axis-aligned box to an axis-aligned segment (0 when they meet)."""
    (x1, y1), (x2, y2) = segment
    seg = Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))
    dx = max(seg.x - box.right, box.x - seg.right, 0.0)
    dy = max(seg.y - box.bottom, box.y - seg.bottom, 0.0)
    return math.hypot(dx, dy)


def _run_box(run) -> Box:
    """Where a text run's glyphs are (page mm): along its advance, from its tallest
    glyph's top to its deepest glyph's bottom (run in one of cardgen's own faces)."""
    own = bundled_fonts()
    faces = {f.name: f for f in (own.regular, own.bold, own.italic)}
    metrics = faces[run.font].metrics
    (sx, sy), (ex, ey) = run.start, run.end
    length = math.dist(run.start, run.end) or 1e-9
    ux, uy = (ey - sy) / length, -(ex - sx) / length  # the text's up, y down
    up = metrics.ink_top_mm(run.chars, run.size_pt)
    down = metrics.ink_bottom_mm(run.chars, run.size_pt)
    return Box.around((x + ux * t, y + uy * t) for x, y in (run.start, run.end)
                      for t in (up, -down))


def _painted_box(painted) -> Box:
    return Box.around(p for sub in painted.subpaths for p in sub.points)


@pytest.mark.parametrize("preset", sorted(PRINTS))
def test_nothing_printed_comes_near_a_cut_or_score(printed, preset):
    """Every glyph, plate and number of the back panel (page 1's upper half) and of the
    tabs and strips (page 2 outside the game panel) keeps 3 mm from every cut (the trim,
    the tabs' cuts) and score (the main fold, the hinges) as its side sees them. Excepted,
    and drawn on purpose across the folds and to the trim: the ground (the theme's
    background and margin colours, the halos and plates of the ground colour that keep
    the art off the type) and the back's decorative curves, which run on into the bleed.
    The grids and their panel on the inside are excepted as the README says (they meet at
    the fold)."""
    g = _geometry(preset)
    theme = load_theme("dark")
    ground = {theme.outside["background"].cmyk_fractions, theme.inside["margin"].cmyk_fractions,
              theme.inside["ground"].cmyk_fractions}
    art = {c.cmyk_fractions for c in (*theme.curve_fills, *theme.curve_strokes)}
    front = Box(g.bleed_box.x, g.fold_y, g.bleed_box.w, g.bleed_box.bottom - g.fold_y)
    layout = bundled_layout(Preset(preset))
    too_close: set[str] = set()
    checked = 0
    for index, side, skip in ((0, Side.OUTSIDE, front), (1, Side.INSIDE, g.game_panel)):
        page = printed[preset][index]
        segments = _segments(g, side)
        boxes: list[tuple[str, Box]] = []
        for run in page.texts:
            box = _run_box(run)
            if g.bleed_box.contains_box(box) and not skip.contains_box(box, 1e-6):
                boxes.append((run.chars, box))
        for painted in page.painted:
            colour = painted.state.stroke_color if painted.stroke else painted.state.fill_color
            if _near(colour, ground | art) or not painted.subpaths:
                continue
            box = _painted_box(painted)
            if g.bleed_box.contains_box(box) and not skip.contains_box(box, 1e-6):
                boxes.append(("a shape", box))
        for what, box in boxes:
            near = min(_distance(box, s) for s in segments)
            checked += 1
            if near < CLEAR - 1e-3:  # the PDF holds positions to about 1e-5 pt
                too_close.add(_owner(layout, g, index, box) or f"{what} at {box}")
    assert checked > 20
    assert not too_close, sorted(too_close)


def _near(colour: tuple[float, ...], colours: set[tuple[float, ...]]) -> bool:
    return any(len(colour) == len(c) and all(abs(a - b) < 1e-3 for a, b in zip(colour, c,
                                                                                   strict=True))
               for c in colours)


def _owner(layout, g: CardGeometry, index: int, box: Box) -> str | None:
    """The fragment whose printed extent holds ``box`` (page mm), by its text."""
    for f in layout.fragments:
        page, to_page = _to_page(g, f.face)
        if page == index and f.extent.transformed(to_page).inset(-1e-3).contains_box(box):
            return f.text
    return None


@pytest.mark.parametrize("preset", list(Preset))
def test_every_fragment_at_a_legible_size(preset):
    fonts = bundled_fonts()
    styles = game_styles(bundled_layout(Preset.EU))
    for f in bundled_layout(preset).fragments:
        assert f.size >= MIN_SIZE
        (group,) = fragment_items(f, styles, fonts)
        (text,) = [i for i, _ in walk([group]) if isinstance(i, Text)]
        assert text.size >= MIN_SIZE and text.size == f.size, f.text


def test_game_colours_keep_black_type_legible_in_print_and_preview():
    """Black type on each game's plate: 4.5 : 1 at least with the CMYK value as print
    shows it (naively converted, as every CMYK colour is previewed) and with the
    layout's screen RGB."""
    for game, style in game_styles(bundled_layout(Preset.EU)).items():
        c, m, y, k = (v * 100 for v in style.color.cmyk_fractions)
        printed = Color.cmyk(c, m, y, k)
        assert contrast(INK, printed) >= MIN_CONTRAST, (game, contrast(INK, printed))
        assert contrast(INK, style.color) >= MIN_CONTRAST, (game, contrast(INK, style.color))
        assert style.color.rgb != printed.rgb  # the screen colour is the layout's own


def test_a_colour_too_dark_for_black_type_or_a_shared_shape_is_refused():
    styles = game_styles(bundled_layout(Preset.EU))
    dark = Color.cmyk(100, 80, 0, 30)
    bad = {**styles,
           GameName.DEFLECTOR: GameStyle(GameName.DEFLECTOR, "navy", dark, Shape.ROUND, 3),
           GameName.DEFECTOR: GameStyle(GameName.DEFECTOR, "red", styles[GameName.DEFECTOR].color,
                                    Shape.POINTED, 6)}
    problems = style_problems(bad)
    assert any("games.deflector.cmyk" in p and "contrast" in p for p in problems)
    assert any("games.deflector.rgb" in p for p in problems)
    assert any("games.defector.shape is pointed, like games.reflector.shape" in p
               for p in problems)
    assert style_problems(styles) == []


def _outline(ops) -> tuple[tuple[float, float], ...]:
    return tuple((round(op.x, 6), round(op.y, 6)) for op in ops if hasattr(op, "x"))


def test_the_four_games_have_four_shapes_and_plates_and_numbers_differ():
    styles = game_styles(bundled_layout(Preset.EU))
    assert len({s.shape for s in styles.values()}) == 4
    plates = {shape: _outline(plate_ops(20, 2.3, shape)) for shape in Shape}
    for a, b in itertools.combinations(Shape, 2):
        assert plates[a] != plates[b], (a, b)
    fonts = bundled_fonts()
    theme = load_theme("dark")
    targets = {}
    for game in CONNECTOR_GAMES:
        mark = Mark(2, game, Face.BACK, (10.0, 10.0), 1.6)
        items = mark_items(mark, styles, fonts, link_color=theme.outside["link"],
                           link_ground=theme.outside["link_ground"])
        shape = next(i for i in items if isinstance(i, Path))
        targets[game] = _outline(shape.ops)
        assert shape.fill == styles[game].color
        # Within the mark's radius, the corner number's, so that one laid on it hides it.
        assert all(math.dist(p, (10, 10)) <= 1.6 + 1e-5 for p in targets[game])
        (number,) = [i for i in items if isinstance(i, Text)]
        assert (number.text, number.size, number.color) == ("2", 8.0, INK)
        assert number.color.overprint
    assert len(set(targets.values())) == 4


def test_a_plate_reaches_its_stated_extent_and_carries_overprinting_black():
    fonts = bundled_fonts()
    styles = game_styles(bundled_layout(Preset.EU))
    for rotation in (0, 90, 180, 270):
        box = Box(10, 20, 30, 2.3) if rotation in (0, 180) else Box(10, 20, 2.3, 30)
        f = Fragment("one square at a time", GameName.REFLECTOR, Face.BACK, box, rotation, 4, 6.5)
        (group,) = fragment_items(f, styles, fonts)
        assert isinstance(group, Group)
        plate = next(i for i, _ in walk([group]) if isinstance(i, Path))
        drawn = Box.around(group.transform.apply(*p) for p in _outline(plate.ops))
        want = f.extent
        assert all(abs(a - b) < 1e-9 for a, b in zip(
            (drawn.x, drawn.y, drawn.w, drawn.h), (want.x, want.y, want.w, want.h), strict=True))
        across = min(want.w, want.h)
        assert across == pytest.approx(2.3 + 2 * PLATE_SIDE)
        # The edge, a darker shade at least 0.5 pt wide (not a fine line), runs inside.
        edge = next(i for i, _ in walk([group]) if isinstance(i, Path) and i.stroke)
        assert edge.stroke.width >= 0.5 / PT_PER_MM and edge.fill is None
        half = edge.stroke.width / 2
        inked = Box.around(group.transform.apply(*p) for p in _outline(edge.ops)).inset(-half)
        assert want.contains_box(inked, 1e-5)
        assert edge.stroke.color == styles[GameName.REFLECTOR].edge != plate.fill
        (text,) = [i for i, _ in walk([group]) if isinstance(i, Text)]
        assert text.color == INK and INK.overprint
    plain = Fragment("Connector", None, Face.BACK, Box(0, 0, 20, 2.3), 0, 0, 6.5)
    items = [i for i, _ in walk(fragment_items(plain, styles, fonts, plain=Color.cmyk(0, 0, 0, 0)))]
    assert [type(i) for i in items] == [Text] and items[0].color == Color.cmyk(0, 0, 0, 0)


def test_a_fragment_too_long_for_its_box_is_named():
    from cardgen.errors import FitError

    f = Fragment("Every square you take costs you that square", GameName.REFLECTOR, Face.BACK,
                 Box(0, 0, 20, 2.3), 0, 6, 6.5)
    with pytest.raises(FitError, match=r"connector/layout.toml: eu.fragment\[7\] .*does not "
                                       r"fit.* 6 pt"):
        fragment_items(f, game_styles(bundled_layout(Preset.EU)), bundled_fonts(),
                       where="connector/layout.toml: eu.fragment[7]")
    # A little too long shrinks, down to the smallest legible size.
    f = Fragment("one square at a time.", GameName.REFLECTOR, Face.BACK, Box(0, 0, 19.5, 2.3), 0,
                 1, 6.5)
    items = fragment_items(f, game_styles(bundled_layout(Preset.EU)), bundled_fonts())
    (text,) = [i for i, _ in walk(items) if isinstance(i, Text)]
    assert MIN_SIZE <= text.size < 6.5


def test_the_legend_names_each_game_beside_a_swatch_with_its_players():
    fonts = bundled_fonts()
    styles = game_styles(bundled_layout(Preset.EU))
    box = Box(40.0, 30.0, 15.3, 11.0)  # the us layout's legend box
    items, used = legend_items(styles, fonts, box, color=INK)
    texts = [i for i, _ in walk(items) if isinstance(i, Text)]
    assert [t.text for t in texts] == ["1", "Rotator", "2", "Reflector", "3–5", "Deflector",
                                       "6+", "Defector"]
    assert all(t.size == 6 for t in texts)
    swatches = [i for i, _ in walk(items) if isinstance(i, Path) and i.fill is not None]
    assert [s.fill for s in swatches] == [styles[g].color for g in CONNECTOR_GAMES]
    assert box.contains_box(used, 1e-9)
    for item, t in walk(items):
        if isinstance(item, Path):
            assert used.contains_box(Box.around(t.apply(*p) for p in _outline(item.ops)), 1e-5)
    from cardgen.errors import FitError

    # A lower box: smaller type, down to LEGEND_MIN, then an error naming it.
    items, used = legend_items(styles, fonts, Box(40, 30, 15.3, 8.2), color=INK)
    sizes = {t.size for t, _ in walk(items) if isinstance(t, Text)}
    assert len(sizes) == 1 and LEGEND_MIN <= sizes.pop() < 6
    assert Box(40, 30, 15.3, 8.2).contains_box(used, 1e-9)
    with pytest.raises(FitError, match=r"us.legend does not fit its 11.0 × 8.0 mm box even "
                                       r"at 5 pt"):
        legend_items(styles, fonts, Box(40, 30, 11, 8), color=INK, where="us.legend")


@pytest.mark.parametrize("preset", list(Preset))
def test_the_legend_fits_the_layouts_box(preset):
    layout = bundled_layout(preset)
    assert layout.legend is not None
    items, used = legend_items(game_styles(layout), bundled_fonts(), layout.legend,
                               color=INK)
    assert layout.legend.contains_box(used, 1e-9)
    assert all(t.size >= LEGEND_MIN for t, _ in walk(items) if isinstance(t, Text))


def test_a_custom_size_prints_a_plain_back_clear_of_the_hinges_and_says_why():
    from dataclasses import replace

    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.text.fit import text_box

    build = build_card(replace(load_config(None), size=custom_size(95, 60)))
    assert any("the Connector puzzle on the back needs the eu or us size" in w
               for w in build.warnings)
    g = build.geometry
    back_panel = next(i for i in build.document.pages[0].layer("content").items
                      if isinstance(i, Group) and i.name == "back-panel")
    texts = [(item, t) for item, t in walk(back_panel.items) if isinstance(item, Text)]
    assert {i.text for i, _ in texts} >= {"Rotator", "Reflector", "Deflector", "Defector"}
    assert not any(i.text.isdigit() for i, _ in texts)  # no link numbers: no puzzle
    hinges = [g.folded_tab_footprint(Tab.FIVE).x, g.folded_tab_footprint(Tab.SIX).right]
    for item, t in texts:
        box = text_box(item).transformed(t)
        assert all(min(abs(box.x - h), abs(box.right - h)) >= CLEAR and not box.x < h < box.right
                   for h in hinges), (item.text, box, hinges)
    # Nor on the inside: the tabs and strips are plain.
    assert "connector" not in {layer.name for layer in build.document.pages[1].layers}


@pytest.mark.parametrize("preset", sorted(PRINTS))
def test_the_printed_rotator_description_says_falls_run_until_they_land(printed, preset):
    """Issue 21, point 8: the Rotator text the back panel prints, read back from
    card.pdf (every upright line inside the green paragraph's area, top to bottom), is the
    layout's description, and it no longer says a fall goes "one square at a time": a
    fall runs until the player lands (SPEC §5, turn step 2) and only drilling goes into
    rock, a square per drill."""
    g = _geometry(preset)
    layout = bundled_layout(Preset(preset))
    area = Box.union([f.box for f in layout.fragments if f.game is GameName.ROTATOR])
    back = g.back_to_page.inverse()
    lines = []
    for run in printed[preset][0].texts:
        (sx, sy), (ex, ey) = back.apply(*run.start), back.apply(*run.end)
        if abs(ey - sy) < 1e-3 and ex > sx and area.inset(-0.5).contains(sx, sy):
            lines.append((round(sy, 2), sx, run.chars))
    text = " ".join(chars for _, _, chars in sorted(lines))
    assert text == layout.descriptions[GameName.ROTATOR]
    sentence = text.split(".")[0]
    assert "fall until you land" in sentence and "drill" in sentence, sentence
    assert "at a time" not in text
