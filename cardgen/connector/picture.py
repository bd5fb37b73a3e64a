"""The picture of a Connector assembly as it lies on the table: the rules booklet's figure.

:func:`picture` is a pure function of a validation report (or of a bare
:class:`~cardgen.connector.model.Scene`) and keyword-only options; it returns one
:class:`~cardgen.draw.page.Page`. :func:`write_picture` renders it to SVG, PNG or PDF
(by the file's suffix, in RGB: a figure, not a print file) and writes it through
:mod:`cardgen.output`.

**Scale.** The page is in millimetres and the table is drawn at ``scale``, 1:1 by
default: one millimetre on the page is one millimetre on the table, so an EU card is
85 × 55 mm on the page, as it is in the hand. The picture is the bounding box of what
is drawn on the table (every card, ring and reading-order number) times ``scale``, with
``style.margin`` all round and the caption below (the page is widened to
``style.min_caption_width`` for a narrow picture, which is then centred). The table
point (x, y) lies at page point ``(area.x + scale * (x - origin.x), area.y + scale *
(y - origin.y))`` (:class:`Picture`), so a booklet can place the figure at a known scale
or draw its own marks on it.

**What is drawn**, card by card from the bottom of the stack, each card face by face
(bottom first), so that what covers what is exactly what the model says:

- each face as the box it is on the table, in a tone of its own (the back panel's
  outside white, the folded tabs' insides and the strips the folded tabs uncover in two
  greys), with a thin outline;
- every fragment on that face as a plate running the way it lies: plates of the game
  in its screen colour, with the game's plate ends (its second cue besides hue: the
  shape in the layout), the other games' plates pale grey with grey type, so that the
  game's colour stands out;
- the corner numbers as pale cyan discs and the target numbers on their game's shape
  (pointed: a diamond, round: a hexagon, notched: a square, square: a disc), the other
  games' targets pale grey; a number turns with its card.

Over all cards: a ring round each connection's two numbers, the read fragments outlined
strongly with their place in the reading order in a small dark disc before each, and
each card's number (1 at the bottom of the stack) in a dark tag in a corner of the card
that no card above covers. Under the picture, the caption: the game, its colour and the
card count, then the revealed text, or, when the report has problems, "not valid" and
the first problem. A picture draws whatever the report says, valid or not, so that a
person can see what is wrong.

Every distance, width, type size and colour is a field of :class:`PictureStyle`, so a
printed figure (the rules booklet's, :mod:`cardgen.connector.figures`) can draw the
same picture in print colours with its lines and labels sized for the page. A game's
colour carries both the layout's ``cmyk`` and its ``rgb``; the default style's other
colours are screen colours (a picture file is written in RGB).

The plates' ends and the target numbers' shapes are those the layout's ``shape`` names
(:class:`cardgen.connector.layout.Shape`), with the same sizes as on the printed card:
plates reach :data:`PLATE_END` beyond their box along the line and :data:`PLATE_SIDE`
across it, targets :data:`TARGET_RADIUS` from their centre.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path as FilePath

from cardgen.connector.draw import line_size, mark_shape, plate_ops
from cardgen.connector.model import (
    BASELINE,
    PLATE_END,
    PLATE_SIDE,
    CardLayout,
    Cover,
    Face,
    Fragment,
    Mark,
    Placed,
    Scene,
    Shape,
    Tabs,
    cover_of,
)
from cardgen.connector.validate import Report
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box, Point
from cardgen.draw.page import (
    Anchor,
    Document,
    Group,
    Item,
    Page,
    Path,
    Rect,
    Stroke,
    Text,
)
from cardgen.draw.shapes import circle, rounded_rect
from cardgen.errors import ParameterError
from cardgen.games.names import GameName
from cardgen.text.fit import line_height, wrap
from cardgen.text.fonts import FontFace, FontSet, bundled_fonts
from cardgen.texts import say

TARGET_RADIUS = 1.9  # mm: a target number's shape lies within this distance of its centre
FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf"}


# The picture's screen colours (RGB; their CMYK is derived and not used).
BACK = Color.hex("#ffffff")
TAB = Color.hex("#e9ebee")
STRIP = Color.hex("#d3d8df")
# The picture is for screens: its darkest grey is not black ink but a soft near-black.
SCREEN_INK = Color.hex("#1a1a1a")
DIM_PLATE = Color.hex("#f3f3f3")
DIM_EDGE = Color.hex("#b4b4b4")
DIM_INK = Color.hex("#8e8e8e")
PLAIN_INK = Color.hex("#555555")
CORNER_DISC = Color.hex("#bdf1f2")
CORNER_EDGE = Color.hex("#3aa6b0")
CORNER_INK = Color.hex("#0d3f66")
HALO = Color.hex("#ffffff")
TAG = Color.hex("#3b3f45")
CAPTION_INK = SCREEN_INK
CAPTION_MUTED = Color.hex("#5c5c5c")
PROBLEM_INK = Color.hex("#a3201a")
EDGE = Stroke(Color.hex("#5a5f66"), 0.15)
NO_COLOUR = Color.hex("#bbbbbb")  # a game the layout gives no colour


@dataclass(frozen=True)
class PictureStyle:
    """Every distance (mm), type size (pt) and colour of a picture."""

    margin: float = 4.0  # around the picture and the caption
    caption_gap: float = 3.0  # from the picture to the caption
    caption_size: float = 8.0
    min_caption_width: float = 70.0  # a lone card's caption is not squeezed narrower
    back: Color = BACK  # the back panel's outside
    tab: Color = TAB  # a folded tab's inside
    strip: Color = STRIP  # the lower half's inside, where the tabs uncover it
    edge: Stroke = EDGE  # every face's outline
    ink: Color = SCREEN_INK  # type on a plate; the strong outline; rings
    dim_plate: Color = DIM_PLATE  # another game's plate...
    dim_edge: Color = DIM_EDGE  # ...its outline...
    dim_ink: Color = DIM_INK  # ...and its type
    plain_ink: Color = PLAIN_INK  # a fragment of no game
    plate_edge: float = 0.12  # the game's plates' outline, a darker shade of their colour
    shade: float = 0.55  # that shade on screen: the colour's RGB times this...
    shade_black: float = 40.0  # ...and in print: this much % K added to its CMYK
    read_edge: float = 0.35  # the read fragments' strong outline
    corner_disc: Color = CORNER_DISC  # pale cyan
    corner_edge: Color = CORNER_EDGE
    corner_ink: Color = CORNER_INK
    disc_edge: float = 0.15  # the corner discs' outline
    number_size: float = 6.5  # pt: the link numbers
    min_fragment_size: float = 0.0  # pt: a fragment's words set smaller are drawn as bars
    bar: Color = DIM_INK  # those bars: grey, where the words would be
    ring_radius: float = 2.9  # mm, round the middle of a connection's two numbers
    ring_width: float = 0.8  # a band of the game's colour with dark edges...
    ring_band: float = 0.5  # ...the colour this wide inside them...
    ring_halo: float = 1.4  # ...and a halo this wide under all
    hidden_ring: float = 0.25  # a connection a card above hides: a dashed ring...
    hidden_dash: tuple[float, ...] = (0.9, 0.6)  # ...with these dashes (mm)
    halo: Color = HALO  # under rings and tags, to part them from what is below
    halo_edge: float = 0.2  # the outline of reading-order discs and tags
    order_radius: float = 1.1  # mm: the disc of a reading-order number
    order_size: float = 5.5  # pt
    order_gap: float = 0.4  # mm between that disc and the plate's end
    order_pad: float = 0.35  # mm beside a many-digit number in its disc
    tag: Color = TAG  # a card's number tag
    tag_size: float = 6.0  # pt
    tag_inset: float = 0.5  # mm from the card's corner
    tag_height: float = 2.4  # mm
    tag_pad: float = 1.0  # mm of the tag's width beyond its number
    tag_round: float = 0.5  # mm: the tag's corner radius
    caption_ink: Color = CAPTION_INK
    caption_muted: Color = CAPTION_MUTED
    problem_ink: Color = PROBLEM_INK


STYLE = PictureStyle()


@dataclass(frozen=True)
class Picture:
    """A picture's page with what a booklet needs to place it at a known scale."""

    page: Page
    origin: Point  # the table point drawn at the top-left corner of ``area``
    scale: float  # page millimetres per table millimetre
    area: Box  # the picture without its caption, on the page


def picture(subject: Report | Scene, *, scale: float = 1.0, fonts: FontSet | None = None,
            style: PictureStyle = STYLE, caption: bool = True, key: bool = True,
            reveal: bool = True) -> Page:
    """The picture of an assembly on the table (see the module's docstring): from a
    report, with its game's colour standing out, its connections, its read fragments
    and a caption saying whether it is valid; from a bare scene, every game in its
    colour and a caption with the card count only. ``key`` adds a line explaining the
    tags, outlines and rings to the caption. Without ``reveal``, the caption of an
    assembly that is not valid quotes no text: its problem is said without it
    (:attr:`Report.hints`) and the text read is not given."""
    return draw_picture(subject, scale=scale, fonts=fonts, style=style, caption=caption,
                        key=key, reveal=reveal).page


def draw_picture(subject: Report | Scene, *, scale: float = 1.0, fonts: FontSet | None = None,
                 style: PictureStyle = STYLE, caption: bool = True, key: bool = True,
                 tags: bool = True, reveal: bool = True) -> Picture:
    """:func:`picture`, with where the table lies on the page; without the cards' number
    tags when ``tags`` is false (a lone card in a figure)."""
    if not (isinstance(scale, int | float) and math.isfinite(scale) and 0.05 <= scale <= 20):
        raise ParameterError("scale", f"must be a number from 0.05 to 20, not {scale!r}.",
                             value=scale)
    fonts = fonts or bundled_fonts()
    report = subject if isinstance(subject, Report) else None
    scene = subject.scene if isinstance(subject, Report) else subject
    if scene is None or not scene.cards:
        raise ValueError("a picture needs a scene with at least one card")
    game = report.game if report is not None else None
    drawer = _Drawer(scene, game, report, fonts, style)
    rings, hidden = drawer.connections()
    table: list[Item] = []
    for i in range(len(scene.cards)):
        table += drawer.card(i) + rings.get(i, [])
    over = hidden + drawer.reading() + (drawer.tags() if tags else [])
    bounds = Box.union([*(Box.union(faces) for faces in scene.faces), *drawer.extents])

    m = style.margin
    width = max(bounds.w * scale, style.min_caption_width if caption else 0.0)
    left = m + (width - bounds.w * scale) / 2
    to_page = (Affine.translate(left, m) @ Affine.scale(scale)
               @ Affine.translate(-bounds.x, -bounds.y))
    area = Box(left, m, bounds.w * scale, bounds.h * scale)
    lines = _caption(report, scene, fonts, style, width, key, reveal) if caption else []
    height = area.bottom + (style.caption_gap + _lines_height(lines, style)
                            if lines else 0.0) + m
    paper = Box(0, 0, width + 2 * m, height)
    page = Page("picture", paper.w, paper.h, paper, paper)
    page.layer("table").add(Group(table, transform=to_page, name="table"))
    page.layer("marks").add(Group(over, transform=to_page, name="marks"))
    if lines:
        y = area.bottom + style.caption_gap
        items: list[Item] = []
        for n, (text, face, color) in enumerate(lines):
            baseline = y + n * line_height(style.caption_size) + face.metrics.cap_height_mm(
                style.caption_size)
            items.append(Text(m, baseline, text, face, style.caption_size, color,
                              name=f"caption-{n + 1}"))
        page.layer("caption").add(*items)
    return Picture(page, (bounds.x, bounds.y), scale, area)


def picture_format(path: FilePath) -> str:
    """The format a picture file is written in, from its suffix: svg, png or pdf."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ParameterError("picture", f"must be a file ending in .svg, .png or .pdf, not "
                             f"{path.name!r}.", value=path)
    return fmt


def picture_bytes(subject: Report | Scene, fmt: str, *, dpi: float = 300,
                  scale: float = 1.0, fonts: FontSet | None = None,
                  style: PictureStyle = STYLE, caption: bool = True, key: bool = True,
                  reveal: bool = True) -> bytes:
    """The picture rendered as ``fmt`` (svg, png or pdf), in RGB; PNG at ``dpi``."""
    from cardgen.render import Format, render

    page = picture(subject, scale=scale, fonts=fonts, style=style, caption=caption, key=key,
                   reveal=reveal)
    title = (say("connector", "picture.title", game=_game_name(subject.game))
             if isinstance(subject, Report) else say("connector", "picture.title_plain"))
    document = Document([page], title=title, subject=say("connector", "picture.subject"))
    return render(document, [Format(fmt)], cmyk=False, dpi=dpi)[f".{fmt}"]


def write_picture(subject: Report | Scene, path: FilePath, *, dpi: float = 300,
                  scale: float = 1.0, fonts: FontSet | None = None,
                  style: PictureStyle = STYLE, caption: bool = True, key: bool = True,
                  reveal: bool = True) -> FilePath:
    """Write the picture to ``path`` as SVG, PNG or PDF (by its suffix), all or nothing
    (:func:`cardgen.output.write_files`); PNG at ``dpi``. Returns the path."""
    from cardgen.output import write_files

    data = picture_bytes(subject, picture_format(path), dpi=dpi, scale=scale, fonts=fonts,
                         style=style, caption=caption, key=key, reveal=reveal)
    write_files({path: data})
    return path


def card_picture(layout: CardLayout, tabs: Tabs, *, fonts: FontSet | None = None,
                 style: PictureStyle = STYLE) -> Page:
    """One lone card as it shows from the back, upright, with its tabs ``tabs``: every
    face, fragment and number as :func:`picture` draws a card (every game in its
    colour), on a page exactly the card's size, its top-left corner at the page's, so
    that a page placing it at (x, y) turned by r places it as the model places a card
    (:meth:`~cardgen.connector.model.Placement.transform`)."""
    from cardgen.connector.model import Placement

    shape = layout.shape
    scene = Scene.build(layout, [Placement(shape.width / 2, shape.height / 2, 0, tabs)])
    drawer = _Drawer(scene, None, None, fonts or bundled_fonts(), style)
    whole = Box(0, 0, shape.width, shape.height)
    page = Page("card", shape.width, shape.height, whole, whole)
    page.layer("card").add(*drawer.card(0))
    return page


def card_picture_svg(layout: CardLayout, tabs: Tabs, *, fonts: FontSet | None = None,
                     style: PictureStyle = STYLE) -> bytes:
    """:func:`card_picture` rendered as SVG (RGB)."""
    from cardgen.render import Format, render

    document = Document([card_picture(layout, tabs, fonts=fonts, style=style)],
                        title=say("connector", "picture.title_plain"),
                        subject=say("connector", "picture.subject"))
    return render(document, [Format.SVG], cmyk=False)[".svg"]


# --- drawing ------------------------------------------------------------------------------


def _game_name(game: GameName) -> str:
    return game.value.capitalize()


def _look(scene: Scene, game: GameName) -> tuple[Color, Shape]:
    """A game's screen colour and shape from the layout (grey and square without)."""
    colour = scene.layout.colours.get(game)
    if colour is not None:
        c, m, y, k = colour.cmyk
        return Color(c / 100, m / 100, y / 100, k / 100, rgb=Color.hex(colour.rgb).rgb), \
            colour.shape
    return NO_COLOUR, Shape.SQUARE


def _shade(color: Color, style: PictureStyle) -> Color:
    """The colour darkened: on screen each channel times ``style.shade``, in print
    ``style.shade_black`` % K added."""
    r, g, b = (round(v * style.shade) for v in color.rgb)
    return Color(color.c, color.m, color.y, min(color.k + style.shade_black / 100, 1.0),
                 rgb=(r, g, b))


def _plate_extent(placed: Placed) -> Box:
    """The table box a placed fragment's plate stays in."""
    assert isinstance(placed.item, Fragment)
    length, em = line_size(placed.item)
    local = Box(-PLATE_END, -PLATE_SIDE, length + 2 * PLATE_END, em + 2 * PLATE_SIDE)
    return local.transformed(line_frame(placed))


def line_frame(placed: Placed) -> Affine:
    """A placed fragment's line frame -> the table frame: in the line frame its box is
    (0, 0)–(length, em), the text runs along +x and its top is y = 0."""
    assert isinstance(placed.item, Fragment)
    length, em = line_size(placed.item)
    cx, cy = placed.box.center
    return (Affine.translate(cx, cy) @ Affine.rotate(placed.rotation)
            @ Affine.translate(-length / 2, -em / 2))


_RING_SAMPLES = [math.radians(a) for a in range(0, 360, 10)]


def _inside(box: Box, point: Point) -> bool:
    """Whether ``point`` lies inside ``box``, not on its edge."""
    x, y = point
    return box.x < x < box.right and box.y < y < box.bottom


def word_bars(text: str, face: FontFace, size: float, baseline: float, color: Color,
              name: str) -> list[Item]:
    """A line of type too small to read in a miniature, drawn as grey bars instead: one
    bar per word, as wide as the word and as tall as a lower-case letter, standing on
    the baseline (a Group named ``name``, like the text it replaces)."""
    x_height = face.metrics.cap_height_mm(size) * 0.72
    bars: list[Item] = []
    x = 0.0
    space = face.width(" ", size)
    for word in text.split(" "):
        w = face.width(word, size)
        if w > 0:
            bars.append(Rect(x, baseline - x_height, w, x_height, fill=color))
        x += w + space
    return [Group(bars, name=f"{name}-bars")]


class _Drawer:
    """The items of one picture, in the table frame."""

    def __init__(self, scene: Scene, game: GameName | None, report: Report | None,
                 fonts: FontSet, style: PictureStyle) -> None:
        self.scene, self.game, self.report = scene, game, report
        self.fonts, self.style = fonts, style
        self.order = {p: k for k, p in enumerate(report.read, 1)} if report else {}
        self.extents: list[Box] = []  # what is drawn beyond the cards' faces
        self.rings: list[Box] = []
        self.orders: list[Box] = []  # the reading-order discs
        self.on_face: dict[tuple[int, int], list[Placed]] = {}
        for p in [*scene.fragments, *scene.marks]:
            self.on_face.setdefault((p.card, p.layer), []).append(p)

    def _stands_out(self, game: GameName | None) -> bool:
        return self.game is None or game is self.game

    # the cards

    def card(self, i: int) -> list[Item]:
        """Card ``i``'s faces, bottom first, each with its fragments and numbers."""
        s = self.style
        placement = self.scene.cards[i]
        tones = {Face.BACK: s.back, Face.TAB5: s.tab, Face.TAB6: s.tab, Face.STRIP: s.strip}
        faces = self.scene.layout.shape.faces(placement.tabs)
        items: list[Item] = []
        for layer, ((face, _), box) in enumerate(zip(faces, self.scene.faces[i], strict=True)):
            items.append(Rect(box.x, box.y, box.w, box.h, fill=tones[face], stroke=s.edge))
            placed = self.on_face.get((i, layer), [])
            items += [self.fragment(p) for p in placed if isinstance(p.item, Fragment)]
            for p in placed:
                if isinstance(p.item, Mark):
                    items += self.number(p, placement.rotation)
        return [Group(items, name=f"card-{i + 1}")]

    def fragment(self, p: Placed) -> Item:
        s = self.style
        f = p.item
        assert isinstance(f, Fragment)
        length, em = line_size(f)
        face = self.fonts.regular
        natural = face.width(f.text, f.size)
        size = f.size if natural <= length else f.size * length / natural
        k = self.order.get(p)
        name = f"read-{k}" if k else f"card-{p.card + 1}-fragment-{f.index + 1}"
        items: list[Item] = []
        ink = s.plain_ink
        if f.game is not None:
            color, shape = _look(self.scene, f.game)
            if self._stands_out(f.game):
                edge = (Stroke(s.ink, s.read_edge) if k
                        else Stroke(_shade(color, s), s.plate_edge))
                items.append(Path(plate_ops(length, em, shape), fill=color, stroke=edge))
                ink = s.ink
            else:
                items.append(Path(plate_ops(length, em, shape), fill=s.dim_plate,
                                  stroke=Stroke(s.dim_edge, s.plate_edge)))
                ink = s.dim_ink
        if size < s.min_fragment_size - 1e-9:
            items += word_bars(f.text, face, size, BASELINE * em, s.bar, name)
        else:
            items.append(Text(0.0, BASELINE * em, f.text, face, size, ink, name=name))
        return Group(items, transform=line_frame(p))

    def number(self, p: Placed, rotation: int) -> list[Item]:
        s = self.style
        m = p.item
        assert isinstance(m, Mark)
        x, y = p.box.center
        if m.game is None:
            ground = Path(circle(x, y, m.radius), fill=s.corner_disc,
                          stroke=Stroke(s.corner_edge, s.disc_edge))
            ink = s.corner_ink
        else:
            color, shape = _look(self.scene, m.game)
            if self._stands_out(m.game):
                ground = Path(mark_shape(shape, x, y, TARGET_RADIUS), fill=color,
                              stroke=Stroke(_shade(color, s), s.plate_edge))
                ink = s.ink
            else:
                ground = Path(mark_shape(shape, x, y, TARGET_RADIUS), fill=s.dim_plate,
                              stroke=Stroke(s.dim_edge, s.plate_edge))
                ink = s.dim_ink
        bold = self.fonts.bold
        digit = Text(x, y + bold.metrics.cap_height_mm(s.number_size) / 2, str(m.number), bold,
                     s.number_size, ink, anchor=Anchor.MIDDLE)
        return [ground, Group([digit], transform=Affine.rotate(rotation, x, y))]

    # over all cards

    def _number(self, card: int, number: int, game: GameName | None) -> Placed | None:
        for p in self.scene.marks:
            m = p.item
            assert isinstance(m, Mark)
            if p.card == card and m.number == number and m.game is game:
                return p
        return None

    def connections(self) -> tuple[dict[int, list[Item]], list[Item]]:
        """A ring round the middle of each connection's two numbers, by the card whose
        corner number makes it (drawn with that card, so that the cards above cover it
        as they cover the numbers); and, over all cards, a dashed ring where a card
        above hides the connection, wholly or in part."""
        rings: dict[int, list[Item]] = {}
        hidden: list[Item] = []
        if self.report is None or self.game is None:
            return rings, hidden
        s = self.style
        color = _look(self.scene, self.game)[0]
        for n, c in enumerate(self.report.connections):
            corner = self._number(c.upper, c.number, None)
            target = self._number(c.lower, c.number, self.game)
            if corner is None or target is None:
                continue
            a, b = corner.box.center, target.box.center
            x, y = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            r = s.ring_radius + math.dist(a, b) / 2
            ring = circle(x, y, r)
            rings.setdefault(c.upper, []).append(Group(
                [Path(ring, stroke=Stroke(s.halo, s.ring_halo)),
                 Path(ring, stroke=Stroke(s.ink, s.ring_width)),
                 Path(ring, stroke=Stroke(color, s.ring_band))],
                name=f"connection-{n + 1}"))
            reach = r + s.ring_halo / 2
            box = Box(x - reach, y - reach, 2 * reach, 2 * reach)
            above = [f for j in range(c.upper + 1, len(self.scene.cards))
                     for f in self.scene.faces[j]]
            if any(_inside(f, (x + r * math.cos(t), y + r * math.sin(t)))
                   for f in above for t in _RING_SAMPLES):
                hidden.append(Path(ring, stroke=Stroke(s.ink, s.hidden_ring, s.hidden_dash)))
            self.rings.append(box)
            self.extents.append(box)
        return rings, hidden

    def reading(self) -> list[Item]:
        """The read fragments' places in the reading order, each in a dark disc before
        its plate, or after it where a visible number, plate or ring is in the way
        before it (before it when both ways are taken)."""
        if self.report is None:
            return []
        s = self.style
        bold = self.fonts.bold
        r = s.order_radius
        obstacles = self.rings + self.printed()
        items: list[Item] = []
        for k, p in enumerate(self.report.read, 1):
            assert isinstance(p.item, Fragment)
            length, em = line_size(p.item)
            text = str(k)
            half = max(r, bold.width(text, s.order_size) / 2 + s.order_pad)
            reach = PLATE_END + s.order_gap + half
            frame = line_frame(p)
            boxes = []
            for along in (-reach, length + reach):
                x, y = frame.apply(along, em / 2)
                boxes.append(Box(x - half, y - r, 2 * half, 2 * r))
            box = next((b for b in boxes if not any(b.intersects(o) for o in obstacles)),
                       boxes[0])
            obstacles.append(box)
            self.extents.append(box)
            self.orders.append(box)
            x, y = box.center
            digit = Text(x, y + bold.metrics.cap_height_mm(s.order_size) / 2, text, bold,
                         s.order_size, s.halo, anchor=Anchor.MIDDLE, name=f"order-{k}")
            items.append(Group([Path(rounded_rect(box.x, box.y, box.w, box.h, r), fill=s.ink,
                                     stroke=Stroke(s.halo, s.halo_edge)), digit],
                               name=f"reading-{k}"))
        return items

    def printed(self, discs: bool = False) -> list[Box]:
        """The table boxes of every plate and number that shows, wholly or in part: each
        number as a target's shape, or (``discs``) a corner number as its disc."""
        out = []
        for p in [*self.scene.fragments, *self.scene.marks]:
            if self.scene.cover(p)[0] is Cover.COVERED:
                continue
            if isinstance(p.item, Fragment):
                out.append(_plate_extent(p))
            elif discs and isinstance(p.item, Mark) and p.item.game is None:
                out.append(p.box)
            else:
                x, y = p.box.center
                out.append(Box(x - TARGET_RADIUS, y - TARGET_RADIUS, 2 * TARGET_RADIUS,
                               2 * TARGET_RADIUS))
        return out

    def tags(self) -> list[Item]:
        """Each card's number in a tag, in the first place along the card's edge (its
        corners clockwise from the top left, on the table, then the middles of its
        edges) that no card above covers, no ring crosses and that hides no plate,
        number or reading-order disc; else in the first corner no card above covers and
        no ring crosses."""
        s = self.style
        bold = self.fonts.bold
        faces = self.scene.faces
        items: list[Item] = []
        shown = self.printed(discs=True) + self.orders
        for i in range(len(faces)):
            card = Box.union(faces[i])
            text = str(i + 1)
            h = s.tag_height
            w = max(h, bold.width(text, s.tag_size) + s.tag_pad)
            inner = card.inset(s.tag_inset)
            mid_x, mid_y = inner.center[0] - w / 2, inner.center[1] - h / 2
            corners = [Box(inner.x, inner.y, w, h), Box(inner.right - w, inner.y, w, h),
                       Box(inner.right - w, inner.bottom - h, w, h),
                       Box(inner.x, inner.bottom - h, w, h)]
            middles = [Box(mid_x, inner.y, w, h), Box(inner.right - w, mid_y, w, h),
                       Box(mid_x, inner.bottom - h, w, h), Box(inner.x, mid_y, w, h)]
            above = [(j, b) for j in range(i + 1, len(faces)) for b in faces[j]]
            above += [(-1, ring) for ring in self.rings]
            free = [c for c in corners + middles if not cover_of(c, above)[1]]
            tag = next((c for c in free if not any(c.intersects(o) for o in shown)),
                       free[0] if free and free[0] in corners else corners[0])
            shown.append(tag)
            digit = Text(tag.center[0], tag.center[1] + bold.metrics.cap_height_mm(
                s.tag_size) / 2, text, bold, s.tag_size, s.halo, anchor=Anchor.MIDDLE,
                name=f"tag-{i + 1}")
            items.append(Group([Path(rounded_rect(tag.x, tag.y, tag.w, tag.h, s.tag_round),
                                     fill=s.tag, stroke=Stroke(s.halo, s.halo_edge)), digit],
                               name=f"card-{i + 1}-tag"))
        return items


# --- the caption --------------------------------------------------------------------------


CaptionLine = tuple[str, FontFace, Color]


def _caption(report: Report | None, scene: Scene, fonts: FontSet, style: PictureStyle,
             width: float, key: bool, reveal: bool = True) -> list[CaptionLine]:
    """The caption's lines: a heading, then (for a report) the first problem or the
    revealed text, and the key, each wrapped to ``width``."""
    count = len(scene.cards)
    cards = (say("connector", "picture.one_card") if count == 1
             else say("connector", "picture.cards", count=count))
    if report is None:
        return [(cards, fonts.bold, style.caption_ink)]
    game = report.game
    colour = scene.layout.colour_names.get(game, game.value)
    name = _game_name(game)
    heading = (say("connector", "picture.heading", game=name, colour=colour, cards=cards)
               if report.valid else say("connector", "picture.heading_not_valid", game=name,
                                        colour=colour, cards=cards))
    lines: list[CaptionLine] = [(heading, fonts.bold, style.caption_ink)]
    paragraphs: list[tuple[str, Color]] = []
    if not report.valid:
        first = (report.problems if reveal else report.hints)[0]
        paragraphs.append((first[:1].upper() + first[1:], style.problem_ink))
        more = len(report.problems) - 1
        if more:
            paragraphs.append((say("connector", "picture.more_one") if more == 1
                               else say("connector", "picture.more", count=more),
                               style.problem_ink))
    if reveal or report.valid:
        paragraphs.append((say("connector", "picture.reads", text=report.text) if report.text
                           else say("connector", "picture.reads_nothing"), style.caption_ink))
    if key:
        paragraphs.append((say("connector", "picture.key"), style.caption_muted))
    face = fonts.regular
    for text, color in paragraphs:
        for line in wrap(text, face, style.caption_size, width) or [text]:
            lines.append((line, face, color))
    return lines


def _lines_height(lines: list[CaptionLine], style: PictureStyle) -> float:
    return len(lines) * line_height(style.caption_size)
