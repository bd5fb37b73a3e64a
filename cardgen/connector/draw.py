"""Drawing the Connector: its fragments on plates in their game's colour and shape, its
link numbers and the colour legend, as page items in the card frame of
:mod:`cardgen.connector.model` (millimetres, y down, the back panel as read). The model
stays pure; this is the rendering side, used by the printed card (``cardgen.card``) and
by pictures of assemblies.

- **Plates.** A fragment of a game is set on a plate of the game's colour. The plate
  reaches :data:`PLATE_SIDE` beyond the fragment's box across the line and
  :data:`PLATE_END` beyond each end (the model's figures: ``Fragment.extent`` is what
  prints), where its end shape is the game's second cue besides hue (``shape`` in the
  layout): ``square`` plain ends, ``pointed`` hexagonal points, ``round`` a pill,
  ``notched`` swallowtail notches.
- **Type.** Set in the regular face at the fragment's size, left-aligned in its box,
  its baseline :data:`~cardgen.connector.model.BASELINE` em from the box's top edge,
  running in the fragment's direction; shrunk to fit the box's length, down to
  :data:`~cardgen.connector.layout.MIN_SIZE`, else an error naming the fragment. Type on
  a plate is 100 % K set to overprint (the ink rule: small type is overprinting solid
  black, docs/printing.md, "Print shop checklist"); a fragment of no game is plain type in the
  colour it is given.
- **Numbers.** A corner number (no game) is a pale number on a disc of its own, as the
  card has always printed them (:func:`link_mark`). A target number is bold 8 pt 100 % K,
  overprinting, on a shape of its game's colour that follows the game's shape
  (``pointed`` a diamond, ``round`` a hexagon, ``notched`` a square, ``square`` a disc)
  and stays within the mark's radius (a corner number's, ``LINK_RADIUS``), the size
  the model gives it, so that the corner number laid on it hides it.
- **Legend.** In the layout's legend box, a row per game: a swatch of its plate with
  the number of players on it, and its name.

Every colour carries both its print value (the layout's ``cmyk``) and its screen value
(``rgb``); the renderer picks one (CMYK for print, RGB for ``--rgb`` files and the
SVG and PNG previews), so nothing here needs to know which output is made.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardgen.connector.layout import MIN_SIZE
from cardgen.connector.model import (
    BASELINE,
    PLATE_END,
    PLATE_SIDE,
    CardLayout,
    Fragment,
    Mark,
    Shape,
)
from cardgen.draw.colors import INK, Color
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import (
    CLOSE,
    Anchor,
    CurveTo,
    Group,
    Item,
    LineTo,
    MoveTo,
    Path,
    PathOp,
    Stroke,
    Text,
)
from cardgen.draw.shapes import KAPPA, circle, polygon
from cardgen.errors import ConfigError, ConfigProblem, FitError
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import Preset
from cardgen.physical.links import LINK_RADIUS
from cardgen.prepress.ink import MAX_INK, MIN_CONTRAST, contrast, describe, total_ink
from cardgen.text.fit import check_printable, fit_line
from cardgen.text.fonts import FontSet
from cardgen.texts import lookup
from cardgen.units import MM_PER_PT

PLATE_BODY = 0.3  # mm beyond the box where a shaped end begins (its straight sides end)
# Each plate and target shape is edged inside its outline in a darker shade of its colour,
# so that its shape shows even where its colour is close to the ground's in lightness
# (yellow on white or pale grey, or in a greyscale copy): at least 0.5 pt wide, so that
# the ink rule's fine lines (which must be solid black) do not apply to it.
EDGE_WIDTH = 0.2  # mm
EDGE_BLACK = 40  # % K added to the colour for its edge
EDGE_SHADE = 0.6  # the edge's screen colour: the colour's RGB times this
MARK_SIZE = 8.0  # pt: target numbers
LEGEND_SIZE = 6.0  # pt: the legend's type...
LEGEND_MIN = 5.0  # pt: ...and its smallest, in a small box (the old back's smallest type)
LEGEND_GAP = 1.0  # mm from a swatch's plate to the game's name
LEGEND_LEAD = 0.3  # mm at least between two rows' swatches
LEGEND_INSET = 0.2  # mm at least above and below the number on a swatch
# Type on a plate is INK: 100 % K over the plate's inks, which the ink rule asks for small
# type.


@dataclass(frozen=True)
class GameStyle:
    """How a game's fragments and numbers print: its colour (print CMYK with its
    screen RGB), the colour's name, the shape that is the second cue besides hue, and
    its players (cards it takes)."""

    game: GameName
    colour: str
    color: Color
    shape: Shape
    players: int

    @property
    def edge(self) -> Color:
        """The darker shade the plate's and the target's edges print in."""
        c, m, y, k = (v * 100 for v in self.color.cmyk_fractions)
        shade = Color.cmyk(c, m, y, min(k + EDGE_BLACK, 100))
        rgb = tuple(round(v * EDGE_SHADE) for v in self.color.rgb)
        return Color(shade.c, shade.m, shade.y, shade.k, rgb=(rgb[0], rgb[1], rgb[2]))

    @property
    def print_color(self) -> Color:
        """The colour as print shows it on screen: the CMYK value, naively converted
        (``cardgen.draw.colors.cmyk_to_rgb``, as cardgen previews any CMYK colour)."""
        c, m, y, k = self.color.cmyk_fractions
        return Color.cmyk(c * 100, m * 100, y * 100, k * 100)


# --- the layout's colours and shapes -----------------------------------------------------


def game_styles(layout: CardLayout, source: str = "connector/layout.toml",
                ) -> dict[GameName, GameStyle]:
    """Each game's colour and shape from the layout (its ``games`` table), in player
    order; a ConfigError naming ``source`` and every colour that would not print as the
    rules ask (black type on it legible in print and preview, ink within the limit) and
    every shape two games share."""
    styles = styles_of(layout)
    problems = style_problems(styles)
    if problems:
        raise ConfigError(source, problems, code=ConfigProblem.COLOUR)
    return styles


def styles_of(layout: CardLayout) -> dict[GameName, GameStyle]:
    """Each game's colour and shape from the layout, unchecked (see :func:`game_styles`)."""
    styles: dict[GameName, GameStyle] = {}
    for game in CONNECTOR_GAMES:
        colour = layout.colours[game]
        c, m, y, k = colour.cmyk
        base = Color.cmyk(c, m, y, k)
        color = Color(base.c, base.m, base.y, base.k, rgb=Color.hex(colour.rgb).rgb)
        styles[game] = GameStyle(game, layout.colour_names[game], color, colour.shape,
                                 layout.players[game])
    return styles


def style_problems(styles: dict[GameName, GameStyle]) -> list[str]:
    """Every way the games' colours and shapes break the rules: black type on each
    colour needs a contrast of :data:`~cardgen.prepress.ink.MIN_CONTRAST` in print (its
    CMYK, naively converted) and in the preview (its RGB); no colour over the ink limit;
    no two games with one shape (the shape is what tells the games apart without
    colour)."""
    problems: list[str] = []
    for game, style in styles.items():
        for what, color in (("cmyk", style.print_color), ("rgb", style.color)):
            ratio = contrast(INK, color)
            if ratio < MIN_CONTRAST:
                problems.append(f"games.{game}.{what}: black type on {style.colour} has a "
                                f"contrast of only {ratio:.2f}:1; it needs at least "
                                f"{MIN_CONTRAST:g}:1 to be read (choose a lighter colour).")
        if total_ink(style.color) > MAX_INK + 1e-6:
            problems.append(f"games.{game}.cmyk is {describe(style.color)}, "
                            f"{total_ink(style.color) * 100:.0f} % ink; a press takes at most "
                            f"{MAX_INK * 100:g} %.")
    seen: dict[Shape, GameName] = {}
    for game, style in styles.items():
        if style.shape in seen:
            problems.append(f"games.{game}.shape is {style.shape}, like "
                            f"games.{seen[style.shape]}.shape; each game needs a shape of its "
                            "own, which tells the games apart without their colours.")
        seen.setdefault(style.shape, game)
    return problems


# --- plates -------------------------------------------------------------------------------


def plate_ops(length: float, em: float, shape: Shape, grow: float = 0.0,
              ) -> tuple[PathOp, ...]:
    """The outline of a plate for a line ``length`` long and ``em`` across, in the line's
    own frame (the line's box is (0, 0)–(length, em), y down): it reaches
    :data:`PLATE_SIDE` beyond the box across and :data:`PLATE_END` beyond each end;
    ``grow`` moves every edge that much further out (a halo around the plate)."""
    top, bottom = -PLATE_SIDE - grow, em + PLATE_SIDE + grow
    mid, half = em / 2, em / 2 + PLATE_SIDE + grow
    left, right = -PLATE_END - grow, length + PLATE_END + grow
    body_left, body_right = -PLATE_BODY - grow, length + PLATE_BODY + grow
    depth = PLATE_END - PLATE_BODY
    match shape:
        case Shape.SQUARE:
            return polygon([(left, top), (right, top), (right, bottom), (left, bottom)])
        case Shape.POINTED:
            return polygon([(body_left, top), (body_right, top), (right, mid),
                            (body_right, bottom), (body_left, bottom), (left, mid)])
        case Shape.NOTCHED:
            return polygon([(left, top), (right, top), (right - depth, mid), (right, bottom),
                            (left, bottom), (left + depth, mid)])
        case Shape.ROUND:
            # Half circles of the plate's half height, their outermost points at the
            # plate's ends (their centres may lie inside the box: a shallower end
            # would leave the first and last letters' corners off the plate).
            r = half
            cl, cr = left + r, right - r
            k = KAPPA * r
            return (MoveTo(cl, top), LineTo(cr, top),
                    CurveTo(cr + k, top, right, mid - k, right, mid),
                    CurveTo(right, mid + k, cr + k, bottom, cr, bottom),
                    LineTo(cl, bottom),
                    CurveTo(cl - k, bottom, left, mid + k, left, mid),
                    CurveTo(left, mid - k, cl - k, top, cl, top), CLOSE)
    raise ValueError(f"unknown shape {shape!r}")


def line_size(fragment: Fragment) -> tuple[float, float]:
    """The fragment's length along its line and its em (the box across)."""
    box = fragment.box
    return (box.w, box.h) if fragment.rotation in (0, 180) else (box.h, box.w)


def line_frame(fragment: Fragment) -> Affine:
    """The fragment's line frame -> the card frame: in the line frame the box is
    (0, 0)–(length, em), the text runs along +x and its top is y = 0, so its text
    starts at (0, BASELINE × em)."""
    length, em = line_size(fragment)
    cx, cy = fragment.box.center
    return (Affine.translate(cx, cy) @ Affine.rotate(fragment.rotation)
            @ Affine.translate(-length / 2, -em / 2))


def fragment_halo(fragment: Fragment, styles: dict[GameName, GameStyle], color: Color,
                  grow: float) -> Item:
    """A shape of ``color`` under the fragment, ``grow`` beyond its plate all round (for
    a fragment of no game, beyond its box): a ground that keeps art away from it."""
    length, em = line_size(fragment)
    ops = (polygon(Box(0, 0, length, em).inset(-grow).corners()) if fragment.game is None
           else plate_ops(length, em, styles[fragment.game].shape, grow))
    return Group([Path(ops, fill=color)], transform=line_frame(fragment),
                 name=f"fragment-{fragment.index + 1}-halo")


def plate_items(length: float, em: float, style: GameStyle, edge: float = EDGE_WIDTH,
                ) -> list[Item]:
    """A plate in the line's own frame (see :func:`plate_ops`): its colour, and its edge
    ``edge`` wide drawn just inside its outline."""
    return [Path(plate_ops(length, em, style.shape), fill=style.color),
            Path(plate_ops(length, em, style.shape, -edge / 2),
                 stroke=Stroke(style.edge, edge))]


def fragment_where(fragment: Fragment, preset: Preset) -> str:
    """How an error names a fragment: its place in the layout file."""
    return f"connector/layout.toml: {preset}.fragment[{fragment.index + 1}]"


def fragment_items(fragment: Fragment, styles: dict[GameName, GameStyle], fonts: FontSet, *,
                   plain: Color = INK, where: str | None = None) -> list[Item]:
    """A fragment in the card frame: on its game's plate, or, with no game, plain type
    in ``plain``. ``where`` names the fragment in an error (the text does not fit its
    box at the smallest size, or the font lacks a glyph). The layout is measured in
    cardgen's own face (``bundled_fonts()``), which ``fonts`` should be."""
    length, em = line_size(fragment)
    face = fonts.regular
    label = where or f"Connector fragment {fragment.index + 1}"
    size = fit_line(fragment.text, face, fragment.size, MIN_SIZE, length, label)
    items: list[Item] = []
    color = plain
    if fragment.game is not None:
        style = styles[fragment.game]
        items += plate_items(length, em, style)
        color = INK
    items.append(Text(0.0, BASELINE * em, fragment.text, face, size, color,
                      name=f"fragment-{fragment.index + 1}"))
    return [Group(items, transform=line_frame(fragment),
                  name=f"fragment-{fragment.index + 1}")]


# --- numbers ------------------------------------------------------------------------------


def link_mark(number: str, x: float, y: float, fonts: FontSet, size: float, color: Color,
              ground: Color) -> list[Item]:
    """A corner number centred on (x, y), on a disc of ``ground`` (the mark's size)."""
    check_printable(number, fonts.bold, "fonts.bold (the link numbers)")
    baseline = y + fonts.bold.metrics.cap_height_mm(size) / 2
    return [Path(circle(x, y, LINK_RADIUS), fill=ground),
            Text(x, baseline, number, fonts.bold, size, color, anchor=Anchor.MIDDLE,
                 name=f"link-{number}")]


def mark_shape(shape: Shape, x: float, y: float, r: float) -> tuple[PathOp, ...]:
    """A target number's shape centred on (x, y), within ``r`` of it."""
    match shape:
        case Shape.POINTED:
            return polygon([(x, y - r), (x + r, y), (x, y + r), (x - r, y)])
        case Shape.ROUND:
            return polygon([(x + r * math.cos(math.radians(a)), y + r * math.sin(math.radians(a)))
                            for a in range(0, 360, 60)])
        case Shape.NOTCHED:
            s = r / math.sqrt(2)
            return polygon([(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)])
        case Shape.SQUARE:
            return circle(x, y, r)
    raise ValueError(f"unknown shape {shape!r}")


def mark_extent(mark: Mark) -> Box:
    """The box (card frame) a number's shape or disc stays in."""
    r = mark.radius if mark.game is not None else max(LINK_RADIUS, mark.radius)
    x, y = mark.center
    return Box(x - r, y - r, 2 * r, 2 * r)


def mark_items(mark: Mark, styles: dict[GameName, GameStyle], fonts: FontSet, *,
               link_color: Color, link_ground: Color, link_size: float = MARK_SIZE,
               ) -> list[Item]:
    """A number in the card frame: a corner number (no game) in ``link_color`` on a disc
    of ``link_ground`` at ``link_size``; a target number bold at :data:`MARK_SIZE` in
    overprinting black on its game's shape and colour."""
    x, y = mark.center
    if mark.game is None:
        return link_mark(str(mark.number), x, y, fonts, link_size, link_color, link_ground)
    style = styles[mark.game]
    number = str(mark.number)
    check_printable(number, fonts.bold, "fonts.bold (the link numbers)")
    baseline = y + fonts.bold.metrics.cap_height_mm(MARK_SIZE) / 2
    # The edge runs inside the shape: its outline less the stroke's width all round.
    return [Path(mark_shape(style.shape, x, y, mark.radius), fill=style.color),
            Path(mark_shape(style.shape, x, y, mark.radius - EDGE_WIDTH),
                 stroke=Stroke(style.edge, EDGE_WIDTH)),
            Text(x, baseline, number, fonts.bold, MARK_SIZE, INK, anchor=Anchor.MIDDLE,
                 name=f"target-{mark.game}-{number}")]


# --- the legend ---------------------------------------------------------------------------


def legend_rows() -> dict[GameName, tuple[str, str]]:
    """Each game's row of the legend, in the project's words (templates/texts): the
    players it takes, set on a swatch of its plate, and its name."""
    entries = {entry["name"].lower(): entry for entry in lookup("card", "games")}
    return {game: (entries[game.value]["count"], entries[game.value]["name"])
            for game in CONNECTOR_GAMES}


def legend_items(styles: dict[GameName, GameStyle], fonts: FontSet, box: Box, *,
                 color: Color, size: float = LEGEND_SIZE, min_size: float = LEGEND_MIN,
                 where: str = "the Connector legend", edge: float = EDGE_WIDTH,
                 ) -> tuple[list[Item], Box]:
    """The colour legend in ``box`` (card frame): a row per game, spread over the box's
    height, each a swatch of the game's plate (its colour and ends) carrying the number
    of players in overprinting black, then the game's name in ``color``; and the part of
    the box the rows take. The type is ``size``, or as much smaller as the box needs, in
    0.1 pt steps down to ``min_size``; a FitError naming ``where`` when even that does
    not fit. ``edge`` is the width of the swatches' edges (a figure drawn smaller than
    the card draws them wider, so that they stay at least 0.5 pt on the page)."""
    face = fonts.regular
    rows = legend_rows()
    for count, name in rows.values():
        check_printable(count + name, face, f"fonts.regular ({where})")
    pitch = box.h / len(rows)
    s = size
    while True:
        em = s * MM_PER_PT
        cap = face.metrics.cap_height_mm(s)
        # A swatch as tall as a fragment's plate, less where the rows are close; never
        # too low for its number with a margin above and below.
        tall = min(em + 2 * PLATE_SIDE, pitch - LEGEND_LEAD)
        swatch = max(face.width(count, s) for count, _ in rows.values())
        words = swatch + 2 * PLATE_END + LEGEND_GAP
        width = words + max(face.width(name, s) for _, name in rows.values())
        if width <= box.w + 1e-9 and em <= pitch + 1e-9 and tall >= cap + 2 * LEGEND_INSET:
            break
        if s - 0.1 < min_size - 1e-9:
            raise FitError(f"{where} does not fit its {box.w:.1f} × {box.h:.1f} mm box even "
                           f"at {min_size:g} pt: its four rows need {width:.1f} mm across and "
                           f"{len(rows) * (cap + 2 * LEGEND_INSET + LEGEND_LEAD):.1f} mm down.")
        s = round(s - 0.1, 1)
    items: list[Item] = []
    used: list[Box] = []
    for row, (game, (count, name)) in enumerate(rows.items()):
        middle = box.y + (row + 0.5) * pitch
        baseline = middle + cap / 2  # capitals and figures centred on the row
        inner = tall - 2 * PLATE_SIDE  # the swatch's box across, inside its plate
        items.append(Group([*plate_items(swatch, inner, styles[game], edge),
                            Text(swatch / 2, inner / 2 + cap / 2, count, face, s, INK,
                                 anchor=Anchor.MIDDLE, name=f"legend-{game}-players")],
                           transform=Affine.translate(box.x + PLATE_END, middle - inner / 2),
                           name=f"legend-{game}"))
        items.append(Text(box.x + words, baseline, name, face, s, color,
                          name=f"legend-{game}-name"))
        used.append(Box(box.x, middle - tall / 2, words + face.width(name, s), tall))
        top = baseline - face.metrics.ink_top_mm(name, s)
        used.append(Box(box.x + words, top, face.width(name, s),
                        baseline + face.metrics.ink_bottom_mm(name, s) - top))
    return items, Box.union(used)
