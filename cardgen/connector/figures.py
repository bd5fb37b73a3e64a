"""Connector figures for rules texts, drawn from the Connector model.

- ``connector-card``: one card of the shipped layout twice, tabs open (the back panel as
  printed, with the folds of its tabs) and tabs folded back (the tabs' insides over the
  back panel, the strips of the card's inside they uncover), each with labels naming
  what its parts are: the link numbers, a coloured number, a plate, the key, the folds.
- ``connector-rotator`` … ``connector-defector``: the assembly cardgen ships for each
  game (``templates/connector/GAME.toml``), validated against the layout and drawn by
  :func:`cardgen.connector.picture.draw_picture` (cards in stacking order with their
  number tags, the connections ringed, the revealed fragments outlined and numbered in
  reading order), then the revealed text under it.

The pictures are drawn in print colours (:func:`print_style`): faces in paper white and
black tints, plates in each game's CMYK from the layout, every fine line and all small
type solid black set to overprint, reversed type on a single ink (the ink rule). A
figure fits the width it is given, no taller than :attr:`ConnectorFigureStyle.max_height`, and
never larger than the cards are in the hand; its lines and labels keep their page sizes
whatever the scale (the picture style's sizes are divided by the scale). The card size
is the ``eu`` preset: the booklet is the same for both sizes, and the ``eu`` card's
pieces read as well as the ``us`` card's.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import pairwise

from cardgen.connector.assembly import read_assembly, shipped_assembly_path
from cardgen.connector.draw import LEGEND_SIZE, game_styles, legend_items
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import (
    Assembly,
    CardLayout,
    Cover,
    Face,
    Fragment,
    Mark,
    Placement,
    Scene,
    Tabs,
)
from cardgen.connector.picture import TARGET_RADIUS, Picture, PictureStyle, draw_picture
from cardgen.connector.validate import Report, validate
from cardgen.draw.colors import INK, PAPER_WHITE, Color
from cardgen.draw.geometry import Affine, Box, Point
from cardgen.draw.page import Anchor, Group, Item, Line, LineTo, MoveTo, Path, Stroke, Text
from cardgen.draw.shapes import circle
from cardgen.errors import CardgenError
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import PRESETS, Preset
from cardgen.text.figure import Figure
from cardgen.text.fit import line_height, wrap
from cardgen.text.fonts import FontFace, FontSet
from cardgen.texts import say
from cardgen.units import MM_PER_PT

PT = MM_PER_PT


@dataclass(frozen=True)
class ConnectorFigureStyle:
    """Every page size of the Connector figures: mm, type in pt, at any scale."""

    max_height: float = 150.0  # a figure is never taller
    max_scale: float = 1.0  # nor are its cards larger than in the hand
    min_type: float = 5.0  # pt on the page: no glyph is smaller (see print_style)
    label_size: float = 6.5  # labels and the revealed text
    heading_size: float = 7.5  # "Tabs open", "Tabs folded back"
    heading_gap: float = 1.2  # from a heading's line to its card
    state_gap: float = 4.0  # between the two cards of connector-card
    reveal_gap: float = 1.8  # from the picture to the revealed text
    label_column: float = 0.25  # of the width, each side of the card in connector-card
    label_gap: float = 2.5  # from a label column to the card
    label_lead: float = 1.2  # between two labels of a column
    leader: float = 0.3 * PT  # the leader lines' width...
    leader_halo: float = 1.0 * PT  # ...over a white line this wide
    dot: float = 0.38  # the dot at a leader's end (radius)
    fold: float = 0.5 * PT  # the dashed folds of the open tabs
    fold_dash: tuple[float, ...] = (1.2, 0.8)
    # the picture's sizes on the page (divided by the scale for PictureStyle)
    outline: float = 0.35 * PT  # each face's outline, black
    plate_edge: float = 0.5 * PT  # a plate's edge in a darker shade (not a fine line)
    read_edge: float = 0.8 * PT  # a revealed plate's outline, black
    disc_edge: float = 0.5 * PT  # a corner disc's edge in a deeper cyan
    ring_width: float = 0.55  # a connection's ring, mm...
    ring_band: float = 0.3  # ...the game's colour inside its black edges...
    ring_halo: float = 0.95  # ...over a white band
    hidden_ring: float = 0.6 * PT  # a hidden connection: dashed black
    hidden_dash: tuple[float, ...] = (0.7, 0.5)
    halo_edge: float = 0.5 * PT  # white edge of tags and reading-order discs
    order_radius: float = 1.25  # a reading-order disc
    order_size: float = 6.0  # pt, paper white on black
    order_gap: float = 0.25
    order_pad: float = 0.3
    tag_size: float = 6.0  # pt: a card's number, paper white on its tag
    tag_height: float = 2.6
    tag_pad: float = 1.1
    tag_inset: float = 0.4
    tag_round: float = 0.4


STYLE = ConnectorFigureStyle()

# Print colours of the pictures: single inks wherever reversed type stands.
TAB_TONE = Color.cmyk(0, 0, 0, 9)
STRIP_TONE = Color.cmyk(0, 0, 0, 20)
PRINT_DIM_PLATE = Color.cmyk(0, 0, 0, 6)
PRINT_DIM_EDGE = Color.cmyk(0, 0, 0, 35)
PRINT_CORNER_DISC = Color.cmyk(28, 0, 6, 0)  # the card's pale cyan
PRINT_CORNER_EDGE = Color.cmyk(75, 0, 15, 0)
PRINT_TAG = Color.cmyk(0, 0, 0, 80)
BAR = Color.cmyk(0, 0, 0, 45)  # words too small to read, drawn as bars


def print_style(scale: float, style: ConnectorFigureStyle = STYLE) -> PictureStyle:
    """The picture style for a print figure drawn at ``scale``: print colours, and every
    line and label that has a page size in ``style`` divided by the scale. No glyph is
    smaller than ``style.min_type`` on the page: the link numbers grow to it (a digit
    still fits its disc or shape), and a fragment whose words would be smaller is drawn
    as grey bars, a miniature not meant to be read (the figure's caption says so)."""
    def page(value: float) -> float:
        return value / scale

    return PictureStyle(
        margin=0.0, back=PAPER_WHITE, tab=TAB_TONE, strip=STRIP_TONE,
        edge=Stroke(INK, page(style.outline)), ink=INK, dim_plate=PRINT_DIM_PLATE,
        dim_edge=PRINT_DIM_EDGE, dim_ink=INK, plain_ink=INK, plate_edge=page(style.plate_edge),
        read_edge=page(style.read_edge), corner_disc=PRINT_CORNER_DISC,
        corner_edge=PRINT_CORNER_EDGE,
        corner_ink=INK, disc_edge=page(style.disc_edge), ring_width=page(style.ring_width),
        ring_band=page(style.ring_band), ring_halo=page(style.ring_halo),
        hidden_ring=page(style.hidden_ring),
        hidden_dash=tuple(page(d) for d in style.hidden_dash), halo=PAPER_WHITE,
        halo_edge=page(style.halo_edge), order_radius=page(style.order_radius),
        order_size=page(style.order_size), order_gap=page(style.order_gap),
        order_pad=page(style.order_pad), tag=PRINT_TAG, tag_size=page(style.tag_size),
        tag_height=page(style.tag_height), tag_pad=page(style.tag_pad),
        tag_inset=page(style.tag_inset), tag_round=page(style.tag_round),
        number_size=max(PictureStyle().number_size, page(style.min_type)),
        min_fragment_size=page(style.min_type), bar=BAR)


def _placed(pic: Picture, x: float, y: float) -> Item:
    """A picture's drawing (without its caption) with its top-left corner at (x, y)."""
    items = [item for name in ("table", "marks") for item in pic.page.layer(name).items]
    return Group(items, transform=Affine.translate(x - pic.area.x, y - pic.area.y))


def _lines(text: str, face: FontFace, size: float, width: float) -> list[str]:
    return wrap(text, face, size, width) or [text]


def _text_block(lines: Sequence[str], x: float, y: float, face: FontFace, size: float,
                anchor: Anchor = Anchor.START, name: str = "") -> list[Item]:
    """Lines of type with the first line's cap height at ``y``."""
    cap = face.metrics.cap_height_mm(size)
    return [Text(x, y + cap + n * line_height(size), line, face, size, INK, anchor=anchor,
                 name=f"{name}-{n + 1}" if name else None)
            for n, line in enumerate(lines)]


def _block_height(count: int, face: FontFace, size: float) -> float:
    """From the first line's cap height to the last line's descender."""
    return (face.metrics.cap_height_mm(size) + (count - 1) * line_height(size)
            + face.metrics.descent_mm(size))


# --- the four assemblies ------------------------------------------------------------------


def valid_report(layout: CardLayout, assembly: Assembly, name: str) -> Report:
    """The validation of ``assembly`` (the file ``name``); a CardgenError when it does not
    spell its description, as after the layout was edited and the assemblies were not
    solved again: a figure never shows a wrong answer."""
    report = validate(layout, assembly)
    if not report.valid:
        first = report.problems[0]
        raise CardgenError(f"{name}: the {assembly.game.value} assembly does not spell its "
                           f"description with this layout ({first.rstrip('.')}); solve the "
                           "game again and ship the assembly found.", value=name)
    return report


@dataclass(frozen=True)
class _Fitted:
    picture: Picture
    reveal: list[str]
    height: float


@dataclass(frozen=True)
class AssemblyFigure:
    """The assembly cardgen ships for ``game``, as it lies on the table, with the
    revealed text under it."""

    fonts: FontSet
    game: GameName
    preset: Preset = Preset.EU
    style: ConnectorFigureStyle = STYLE
    reveal: bool = True
    _fits: dict[float, _Fitted] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def layout(self) -> CardLayout:
        return bundled_layout(self.preset)

    @cached_property
    def assembly(self) -> Assembly:
        return read_assembly(shipped_assembly_path(self.game, self.preset))

    @cached_property
    def report(self) -> Report:
        """The shipped assembly, validated (:func:`valid_report`)."""
        return valid_report(self.layout, self.assembly,
                            shipped_assembly_path(self.game, self.preset).name)

    def _fit(self, width: float) -> _Fitted:
        if width in self._fits:
            return self._fits[width]
        s = self.style
        face = self.fonts.regular
        lines = (_lines(say("connector", "picture.reads", text=self.report.text), face,
                        s.label_size, width) if self.reveal else [])
        below = (s.reveal_gap + _block_height(len(lines), face, s.label_size)
                 if lines else 0.0)
        room = s.max_height - below
        scene = self.report.scene
        assert scene is not None
        cards = Box.union([Box.union(faces) for faces in scene.faces])
        scale = min(s.max_scale, width / cards.w, room / cards.h)
        for _ in range(8):
            pic = draw_picture(self.report, scale=scale, fonts=self.fonts,
                               style=print_style(scale, s), caption=False, key=False)
            over = max(pic.area.w / width, pic.area.h / room)
            if over <= 1 + 1e-9:
                break
            scale /= over * 1.001
        else:  # the extents grow far less than the scale shrinks them: never reached
            raise CardgenError(f"the {self.game.value} figure does not fit {width:.0f} mm.")
        fitted = _Fitted(pic, lines, pic.area.h + below)
        self._fits[width] = fitted
        return fitted

    @property
    def cards(self) -> int:
        return len(self.assembly.cards)

    def scale(self, width: float) -> float:
        """Page millimetres per table millimetre at ``width``."""
        return self._fit(width).picture.scale

    def height(self, width: float) -> float:
        return self._fit(width).height

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        fit = self._fit(width)
        pic = fit.picture
        items: list[Item] = [_placed(pic, x + (width - pic.area.w) / 2, y)]
        if fit.reveal:
            items += _text_block(fit.reveal, x, y + pic.area.h + self.style.reveal_gap,
                                 self.fonts.regular, self.style.label_size, name="revealed")
        return items


# --- one card, labelled ---------------------------------------------------------------------


class Side(enum.Enum):
    LEFT = "left"
    RIGHT = "right"


@dataclass(frozen=True)
class Label:
    """A label of the card figure: its text and what it may point at (boxes in the card
    frame, best first; its leader goes to the first it can reach without crossing
    anything printed)."""

    key: str
    text: str
    candidates: tuple[Box, ...]


@dataclass(frozen=True)
class Leader:
    """A label's way from what it names to the card's edge on ``side``, in the card
    frame: along the card's free margin where a straight line would cross print."""

    side: Side
    points: tuple[Point, ...]  # from the point it names to the card's edge


def _spot(x: float, y: float) -> Box:
    return Box(x - 0.05, y - 0.05, 0.1, 0.1)


def _free_spots(region: Box, obstacles: Sequence[Box], prefer: Point, clear: float,
                ) -> list[Box]:
    """Points of ``region`` (as tiny boxes) with nothing of ``obstacles`` within
    ``clear``, nearest ``prefer`` first."""
    step = 0.5
    nx, ny = max(1, int(region.w / step)), max(1, int(region.h / step))
    points = [(region.x + (i + 0.5) * region.w / nx, region.y + (j + 0.5) * region.h / ny)
              for i in range(nx) for j in range(ny)]
    points.sort(key=lambda p: ((p[0] - prefer[0]) ** 2 + (p[1] - prefer[1]) ** 2, p))
    out = []
    for x, y in points:
        near = Box(x - clear, y - clear, 2 * clear, 2 * clear)
        if region.inset(clear).contains(x, y) and not any(near.intersects(b)
                                                          for b in obstacles):
            out.append(_spot(x, y))
    return out


def card_labels(layout: CardLayout, tabs: Tabs, obstacles: Sequence[Box]) -> list[Label]:
    """What the card figure names on a card with its tabs ``tabs``, each with the
    things of the model it may point at: open, a corner number, a plate, the two folds,
    the key and a coloured number; folded, a folded tab, the link numbers 5 and 6 and a
    strip of the card's inside."""
    shape = layout.shape
    frags, marks = layout.present(tabs)
    h = shape.height
    if tabs is Tabs.OPEN:
        corners = sorted((m for m in marks if m.game is None), key=lambda m: m.number)
        plates = sorted((f for f in frags if f.game is not None),
                        key=lambda f: (-f.extent.right, f.extent.y))
        targets = sorted((m for m in marks if m.game is not None),
                         key=lambda m: (-m.center[0], m.center[1]))
        out = [Label("corner", say("connector", "figure.corner"),
                     tuple(m.box for m in corners)),
               Label("plate", say("connector", "figure.plate"),
                     tuple(f.extent for f in plates))]
        for tab, x in (("5", shape.hinge5), ("6", shape.hinge6)):
            along = sorted((_spot(x, y / 2) for y in range(2, int(2 * h) - 1)),
                           key=lambda b: abs(b.center[1] - h / 2))
            out.append(Label(f"fold-{tab}", say("connector", "figure.fold", tab=tab),
                             tuple(along)))
        if layout.legend is not None:
            out.append(Label("legend", say("connector", "figure.legend"), (layout.legend,)))
        out.append(Label("target", say("connector", "figure.target"),
                         tuple(_target_box(m.center) for m in targets)))
        return out
    out = []
    for number, face, box in ((5, Face.TAB5, shape.tab5), (6, Face.TAB6, shape.tab6)):
        mark = next(m for m in marks if m.game is None and m.face is face)
        out.append(Label(f"link-{number}", say("connector", "figure.link", number=number),
                         (mark.box,)))
        if number == 5:
            out.insert(0, Label("tab", say("connector", "figure.tab", tab=number), tuple(
                _free_spots(box, obstacles, (box.center[0], h * 0.2), 1.0))))
    strip = Box(shape.hinge6, 0, shape.width - shape.hinge6, h)
    out.append(Label("strip", say("connector", "figure.strip"), tuple(
        _free_spots(strip, obstacles, (strip.center[0], h * 0.8), 1.0))))
    return out


def _target_box(center: Point) -> Box:
    x, y = center
    return Box(x - TARGET_RADIUS, y - TARGET_RADIUS, 2 * TARGET_RADIUS, 2 * TARGET_RADIUS)


def card_obstacles(layout: CardLayout, tabs: Tabs) -> list[Box]:
    """What shows of a card with its tabs ``tabs``, as boxes in the card frame (plates,
    numbers and, open, the key; not what its folded tabs cover): what a leader should
    not cross."""
    shape = layout.shape
    scene = Scene.build(layout, [Placement(shape.width / 2, shape.height / 2, 0, tabs)])
    shown = [p for p in [*scene.fragments, *scene.marks]
             if scene.cover(p)[0] is not Cover.COVERED]
    out = [p.item.extent for p in shown if isinstance(p.item, Fragment)]
    out += [_target_box(p.item.center) if p.item.game is not None else p.item.box
            for p in shown if isinstance(p.item, Mark)]
    if tabs is Tabs.OPEN and layout.legend is not None:
        out.append(layout.legend)
    return out


def _segment_box(a: Point, b: Point, clear: float) -> Box:
    return Box(min(a[0], b[0]) - clear, min(a[1], b[1]) - clear,
               abs(a[0] - b[0]) + 2 * clear, abs(a[1] - b[1]) + 2 * clear)


def route(candidates: Sequence[Box], width: float, height: float, obstacles: Sequence[Box],
          margin: float, clear: float = 0.35) -> Leader:
    """The leader to the first candidate it reaches with a free straight line to the
    nearer side edge; else along the nearer free margin (top or bottom), down or up
    from it; else straight to the first candidate, crossing what it must."""
    def leader(box: Box, how: str) -> Leader | None:
        side = Side.LEFT if box.center[0] < width / 2 else Side.RIGHT
        edge = 0.0 if side is Side.LEFT else width
        cx, cy = box.center
        if how == "straight":
            start = (box.x if side is Side.LEFT else box.right, cy)
            points: tuple[Point, ...] = (start, (edge, cy))
        else:
            lane = margin if how == "top" else height - margin
            start = (cx, box.y if how == "top" else box.bottom)
            points = (start, (cx, lane), (edge, lane))
        others = [o for o in obstacles if not o.contains_box(box, 1e-6)
                  and not box.contains_box(o, 1e-6)]
        for a, b in pairwise(points):
            lane_box = _segment_box(a, b, clear)
            if any(lane_box.intersects(o) for o in others):
                return None
        return Leader(side, points)

    for how in ("straight", "margin"):
        for box in candidates:
            ways = [how] if how == "straight" else sorted(
                ("top", "bottom"), key=lambda w: box.center[1] if w == "top"
                else height - box.center[1])
            for way in ways:
                found = leader(box, way)
                if found is not None:
                    return found
    box = candidates[0]
    side = Side.LEFT if box.center[0] < width / 2 else Side.RIGHT
    return Leader(side, ((box.center), (0.0 if side is Side.LEFT else width, box.center[1])))


@dataclass(frozen=True)
class _Placed:
    label: Label
    leader: Leader
    lines: list[str]
    top: float  # the label's first line's cap height, from the panel's top


@dataclass(frozen=True)
class _Panel:
    """One state of the card figure, laid out at a width: the picture, the labels with
    their leaders, and the panel's height (from its heading)."""

    tabs: Tabs
    picture: Picture
    card_x: float  # the picture's left, from the figure's left
    card_y: float  # its top, from the panel's top
    labels: list[_Placed]
    height: float


@dataclass(frozen=True)
class CardFigure:
    """One card of the shipped layout with its tabs open and folded back, its parts
    labelled."""

    fonts: FontSet
    preset: Preset = Preset.EU
    style: ConnectorFigureStyle = STYLE
    _panels: dict[float, list[_Panel]] = field(default_factory=dict, compare=False,
                                               repr=False)

    @cached_property
    def layout(self) -> CardLayout:
        return bundled_layout(self.preset)

    def scene(self, tabs: Tabs) -> Scene:
        """The card alone on the table, upright, its card frame the table's."""
        shape = self.layout.shape
        return Scene.build(self.layout, [Placement(shape.width / 2, shape.height / 2, 0,
                                                   tabs)])

    def labels(self, tabs: Tabs) -> list[tuple[Label, Leader]]:
        """The labels of the card with its tabs ``tabs`` and their leaders (card frame),
        each routed clear of the print and of the leaders before it."""
        shape = self.layout.shape
        obstacles = card_obstacles(self.layout, tabs)
        margin = self.layout_margin()
        out = []
        for label in card_labels(self.layout, tabs, obstacles):
            leader = route(label.candidates, shape.width, shape.height, obstacles, margin)
            out.append((label, leader))
            obstacles = obstacles + [_segment_box(a, b, 0.2) for a, b in
                                     pairwise(leader.points)]
        return out

    def layout_margin(self) -> float:
        """The lane along the card's top and bottom edges that leaders run in: half way
        into the safe zone, where nothing is printed."""
        return PRESETS[self.preset].safe / 2

    def _layout(self, width: float) -> list[_Panel]:
        if width in self._panels:
            return self._panels[width]
        s = self.style
        face = self.fonts.regular
        scale, column = self._scale(width)
        heading = _block_height(1, self.fonts.bold, s.heading_size) + s.heading_gap
        cap = face.metrics.cap_height_mm(s.label_size)
        panels = []
        for tabs in Tabs:
            pic = draw_picture(self.scene(tabs), scale=scale, fonts=self.fonts,
                               style=print_style(scale, s), caption=False, key=False,
                               tags=False)
            placed = []
            for side in Side:
                below = heading
                mine = [(label, leader) for label, leader in self.labels(tabs)
                        if leader.side is side]
                mine.sort(key=lambda item: item[1].points[-1][1])
                for label, leader in mine:
                    exit_y = heading + self._to_page(pic, leader.points[-1])[1]
                    lines = _lines(label.text, face, s.label_size, column)
                    top = max(exit_y - cap / 2, below)
                    placed.append(_Placed(label, leader, lines, top))
                    below = top + _block_height(len(lines), face, s.label_size) + s.label_lead
            bottom = max([heading + pic.area.h] + [
                p.top + _block_height(len(p.lines), face, s.label_size) for p in placed])
            panels.append(_Panel(tabs, pic, (width - pic.area.w) / 2, heading, placed,
                                 bottom))
        self._panels[width] = panels
        return panels

    def _scale(self, width: float) -> tuple[float, float]:
        """The card's scale at ``width`` and the width of each label column: the card
        takes what the two columns of :attr:`ConnectorFigureStyle.label_column` leave, and more
        (narrower columns) where the card's smallest type would else print under
        :attr:`ConnectorFigureStyle.min_type` (its pieces, link numbers and key stay readable)."""
        s = self.style
        column = width * s.label_column
        card = self.layout.shape.width
        scale = min(s.max_scale, (width - 2 * (column + s.label_gap)) / card)
        smallest = min([f.size for f in self.layout.fragments]
                       + [PictureStyle().number_size, LEGEND_SIZE])
        if scale * smallest < s.min_type:
            scale = min(s.max_scale, s.min_type / smallest)
            column = (width - scale * card) / 2 - s.label_gap
        return scale, column

    @staticmethod
    def _to_page(pic: Picture, point: Point) -> Point:
        """A card-frame point on the picture, from its top-left corner."""
        return ((point[0] - pic.origin[0]) * pic.scale, (point[1] - pic.origin[1]) * pic.scale)

    def height(self, width: float) -> float:
        panels = self._layout(width)
        return sum(p.height for p in panels) + self.style.state_gap * (len(panels) - 1)

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        s = self.style
        face = self.fonts.regular
        items: list[Item] = []
        top = y
        column = self._scale(width)[1]
        cap = face.metrics.cap_height_mm(s.label_size)
        for panel in self._layout(width):
            pic = panel.picture
            left, card_top = x + panel.card_x, top + panel.card_y
            heading = (say("connector", "figure.open") if panel.tabs is Tabs.OPEN
                       else say("connector", "figure.folded"))
            items += _text_block([heading], x, top, self.fonts.bold, s.heading_size,
                                 name=f"heading-{panel.tabs}")
            items.append(_placed(pic, left, card_top))
            if panel.tabs is Tabs.OPEN:
                items += self._folds(pic, left, card_top)
                items += self._legend(pic, left, card_top)
            leaders: list[Item] = []
            for p in panel.labels:
                if p.leader.side is Side.LEFT:
                    tx, anchor, start = x + column, Anchor.END, x + column + 0.8
                else:
                    tx, anchor = x + width - column, Anchor.START
                    start = tx - 0.8
                items += _text_block(p.lines, tx, top + p.top, face, s.label_size, anchor,
                                     name=f"label-{p.label.key}")
                points = [(left + px, card_top + py) for px, py in
                          (self._to_page(pic, q) for q in p.leader.points)]
                leaders += self._leader([*points, (start, top + p.top + cap / 2)])
            items.append(Group(leaders, name=f"leaders-{panel.tabs}"))
            top += panel.height + s.state_gap
        return items

    def _leader(self, points: Sequence[Point]) -> list[Item]:
        """A leader through ``points``, with a dot at the first (what it names)."""
        s = self.style
        (x0, y0), rest = points[0], points[1:]
        ops: list[MoveTo | LineTo] = [MoveTo(x0, y0), *(LineTo(px, py) for px, py in rest)]
        return [Path(tuple(ops), stroke=Stroke(INK, s.leader)),
                Path(circle(x0, y0, s.dot), fill=INK)]

    def _folds(self, pic: Picture, left: float, top: float) -> list[Item]:
        """The open tabs' folds, dashed, across the back panel."""
        s = self.style
        shape = self.layout.shape
        out: list[Item] = []
        for x in (shape.hinge5, shape.hinge6):
            (x1, y1), (x2, y2) = self._to_page(pic, (x, 0)), self._to_page(pic, (x, shape.height))
            out.append(Line(left + x1, top + y1, left + x2, top + y2,
                            Stroke(INK, s.fold, s.fold_dash)))
        return out

    def _legend(self, pic: Picture, left: float, top: float) -> list[Item]:
        """The card's colour key, in the layout's legend box."""
        box = self.layout.legend
        if box is None:
            return []
        # The key's type at least min_type on the page: larger than on the card when
        # the card is drawn smaller (it fits the key's box down to 0.77 of the card).
        size = max(LEGEND_SIZE, self.style.min_type / pic.scale)
        items, _ = legend_items(game_styles(self.layout), self.fonts, box, color=INK,
                                size=size, min_size=size,
                                edge=self.style.plate_edge / pic.scale)
        to_page = (Affine.translate(left, top) @ Affine.scale(pic.scale)
                   @ Affine.translate(-pic.origin[0], -pic.origin[1]))
        return [Group(items, transform=to_page, name="legend")]


def _assembly(game: GameName) -> Callable[[FontSet], Figure]:
    def make(fonts: FontSet) -> Figure:
        return AssemblyFigure(fonts, game)
    return make


FIGURES: dict[str, Callable[[FontSet], Figure]] = {
    "connector-card": CardFigure,
    **{f"connector-{game.value}": _assembly(game) for game in CONNECTOR_GAMES},
}
