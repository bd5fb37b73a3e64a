"""The Connector's geometric model: folded cards seen from the back, laid on a table.

Pure geometry (millimetres, y down) with no rendering and no files. Conventions:

- **Card frame**: the folded card seen from the back, as the back panel reads; origin at
  its top-left corner, ``width`` × ``height`` (the back-panel frame of
  :class:`cardgen.physical.card.CardGeometry`). Every face is given in this frame *as it
  shows* on the back: the back panel's outside with the tabs open; with the tabs folded,
  each tab's inside face over the back panel (at ``CardGeometry.folded_tab_footprint``)
  and, where the tabs no longer are, the lower half's inside face (the *strips*).
- **Faces in stacking order** (bottom first). Tabs open: the back panel's outside, the
  whole card. Tabs folded: the strip face (the lower half's inside, the whole card, seen
  only where nothing lies over it), the back panel between the hinges, then the two
  folded tabs. What the back panel prints outside its hinges is on the tabs' outsides,
  which face down once folded: it is not there.
- **Table frame**: a card placed at (x, y) with a clockwise ``rotation`` has its centre
  at (x, y); a card-frame point p goes to ``rotate(rotation) (p - centre) + (x, y)``.
- **Fragments** are one-line pieces of text in a box; ``rotation`` is the direction the
  text runs in the card frame (0: upright, 90: top to bottom, ...). On the table a
  fragment reads upright when its rotation plus its card's is a whole turn.
- **Marks**: the pale corner numbers 1–6 (``game`` None) and the coloured target
  numbers of each game, by centre.

Visibility: a fragment or mark is *visible* when no face above it (of its own card or
of a card higher in the stack) overlaps its box, *covered* when faces above cover all of
it, *partly covered* otherwise.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from cardgen.draw.geometry import Affine, Box, Point, in_lines
from cardgen.games.names import GameName

AREA_EPS = 1e-6  # mm²: overlaps smaller than this are touching edges, not covering
# A fragment's box is one em across; its text's baseline lies this share of the em from
# the box's top edge (in the text's own direction), which leaves room for descenders.
BASELINE = 0.75
# A fragment prints on a plate in its game's colour that reaches beyond the box: this far
# across the line, and this far beyond each end along it (where its shaped end lies).
PLATE_SIDE = 0.3
PLATE_END = 1.0


class Face(enum.StrEnum):
    """The printed surfaces a folded card can show on its back."""

    BACK = "back"  # the back panel's outside (tabs open: the whole card)
    TAB5 = "tab5"  # tab 5's inside, folded over the back panel
    TAB6 = "tab6"  # tab 6's inside, folded over the back panel
    STRIP = "strip"  # the lower half's inside, where folded tabs uncover it


class Shape(enum.StrEnum):
    """The second cue besides hue: the shape of a game's plates' ends and of its
    numbers, so that readers who cannot tell the colours apart can tell the games."""

    SQUARE = "square"  # plain rectangles
    POINTED = "pointed"  # plates with pointed ends, diamond numbers
    ROUND = "round"  # rounded plates, hexagon numbers
    NOTCHED = "notched"  # plates with notched ends, square numbers


@dataclass(frozen=True)
class GameColour:
    """How a game's fragments and numbers print: CMYK percentages, the screen colour,
    and the shape that tells the games apart without colour."""

    cmyk: tuple[float, float, float, float]
    rgb: str
    shape: Shape


class Tabs(enum.StrEnum):
    OPEN = "open"
    FOLDED = "folded"


ROTATIONS = (0, 90, 180, 270)


class Cover(enum.Enum):
    VISIBLE = "visible"
    PARTLY = "partly covered"
    COVERED = "covered"


@dataclass(frozen=True)
class Fragment:
    """A one-line piece of text: ``box`` in the card frame on ``face``; ``game`` None for
    text that belongs to no game (headings)."""

    text: str
    game: GameName | None
    face: Face
    box: Box
    rotation: int = 0
    index: int = 0  # its place in the layout, for messages and pictures
    size: float = 6.5  # pt, for printing

    @property
    def extent(self) -> Box:
        """What prints: the box with its plate around it (:data:`PLATE_SIDE` across,
        :data:`PLATE_END` at each end)."""
        along, across = ((PLATE_END, PLATE_SIDE) if self.rotation in (0, 180)
                         else (PLATE_SIDE, PLATE_END))
        return self.box.inset(-along, -across)


@dataclass(frozen=True)
class Mark:
    """A link number: a corner number (``game`` None, pale cyan) or a game's target."""

    number: int
    game: GameName | None
    face: Face
    center: Point
    radius: float

    @property
    def box(self) -> Box:
        r = self.radius
        return Box(self.center[0] - r, self.center[1] - r, 2 * r, 2 * r)


@dataclass(frozen=True)
class CardShape:
    """Where a folded card's faces are, in the card frame: its size and each folded
    tab's footprint (from ``CardGeometry.folded_tab_footprint``: tab 5 lies from its
    hinge at ``tab5.x`` inwards, tab 6 from its hinge at ``tab6.right`` inwards)."""

    width: float
    height: float
    tab5: Box
    tab6: Box

    @property
    def hinge5(self) -> float:
        return self.tab5.x

    @property
    def hinge6(self) -> float:
        return self.tab6.right

    @property
    def whole(self) -> Box:
        return Box(0, 0, self.width, self.height)

    def faces(self, tabs: Tabs) -> list[tuple[Face, Box]]:
        """The faces a card shows with its tabs ``tabs``, bottom first, in the card
        frame."""
        if tabs is Tabs.OPEN:
            return [(Face.BACK, self.whole)]
        between = Box(self.hinge5, 0, self.hinge6 - self.hinge5, self.height)
        return [(Face.STRIP, self.whole), (Face.BACK, between), (Face.TAB5, self.tab5),
                (Face.TAB6, self.tab6)]


@dataclass(frozen=True)
class CardLayout:
    """One card size's Connector: its shape, fragments, marks and the descriptions."""

    shape: CardShape
    fragments: tuple[Fragment, ...]
    marks: tuple[Mark, ...]
    descriptions: dict[GameName, str]
    players: dict[GameName, int]
    colour_names: dict[GameName, str]
    legend: Box | None = None  # where the printed card explains the colours
    colours: dict[GameName, GameColour] = field(default_factory=dict)
    # What ``present`` found for each way of the tabs: a scene asks once per card.
    _present: dict[Tabs, tuple[tuple[Fragment, ...], tuple[Mark, ...]]] = field(
        default_factory=dict, init=False, repr=False, compare=False)

    def present(self, tabs: Tabs) -> tuple[list[Fragment], list[Mark]]:
        """The fragments and marks a lone card shows at all with its tabs ``tabs``
        (on a face it shows, inside that face's area), each perhaps under a face of its
        own card above."""
        known = self._present.get(tabs)
        if known is None:
            frags, marks = self._find_present(tabs)
            known = self._present[tabs] = (tuple(frags), tuple(marks))
        return list(known[0]), list(known[1])

    def _find_present(self, tabs: Tabs) -> tuple[list[Fragment], list[Mark]]:
        faces = self.shape.faces(tabs)
        areas = {face: box for face, box in faces}
        frags = [f for f in self.fragments if f.face in areas
                 and areas[f.face].contains_box(f.box, 1e-6)]
        marks = [m for m in self.marks if m.face in areas
                 and areas[m.face].contains_box(m.box, 1e-6)]
        return frags, marks


@dataclass(frozen=True)
class Placement:
    """A copy of the card on the table: centre, clockwise rotation, tabs."""

    x: float
    y: float
    rotation: int = 0
    tabs: Tabs = Tabs.OPEN

    def transform(self, shape: CardShape) -> Affine:
        """Card frame -> table frame."""
        return (Affine.translate(self.x, self.y) @ Affine.rotate(self.rotation)
                @ Affine.translate(-shape.width / 2, -shape.height / 2))


@dataclass(frozen=True)
class Assembly:
    """Copies of one card on the table, in stacking order (bottom first)."""

    game: GameName
    preset: str
    cards: tuple[Placement, ...]


@dataclass(frozen=True)
class Placed:
    """A fragment or mark of one card as it lies on the table."""

    card: int  # index in the stack, 0 = bottom
    layer: int  # the face's place in its card's stack of faces
    item: Fragment | Mark
    box: Box  # in the table frame
    rotation: int = 0  # fragments: the text's direction on the table

    @property
    def upright(self) -> bool:
        return self.rotation % 360 == 0


@dataclass
class Scene:
    """An assembly on the table: every face as a box, every fragment and mark placed."""

    layout: CardLayout
    cards: Sequence[Placement]
    faces: list[list[Box]] = field(default_factory=list)  # per card, bottom first
    fragments: list[Placed] = field(default_factory=list)
    marks: list[Placed] = field(default_factory=list)

    @staticmethod
    def build(layout: CardLayout, cards: Sequence[Placement]) -> Scene:
        scene = Scene(layout, cards)
        shape = layout.shape
        for i, card in enumerate(cards):
            t = card.transform(shape)
            faces = shape.faces(card.tabs)
            order = {face: n for n, (face, _) in enumerate(faces)}
            scene.faces.append([_transformed(box, t) for _, box in faces])
            frags, marks = layout.present(card.tabs)
            for f in frags:
                scene.fragments.append(Placed(i, order[f.face], f, _transformed(f.box, t),
                                              (f.rotation + card.rotation) % 360))
            for m in marks:
                scene.marks.append(Placed(i, order[m.face], m, _transformed(m.box, t)))
        return scene

    def coverers(self, placed: Placed, below: int | None = None) -> list[tuple[int, Box]]:
        """The faces over ``placed`` (card index, box): its own card's faces above its
        face, and every face of the cards above its card (only up to card ``below``,
        exclusive, when given)."""
        out = [(placed.card, b) for b in self.faces[placed.card][placed.layer + 1:]]
        top = len(self.cards) if below is None else below
        for j in range(placed.card + 1, top):
            out += [(j, b) for b in self.faces[j]]
        return out

    def cover(self, placed: Placed, below: int | None = None) -> tuple[Cover, list[int]]:
        """How much of ``placed`` faces above it hide, and which cards those are."""
        return cover_of(placed.box, self.coverers(placed, below))


def _transformed(box: Box, t: Affine) -> Box:
    """``box.transformed(t)`` written out (the scenes of a search place some 10⁵ boxes):
    the same corners through the same sums, the same bounding box."""
    a, b, c, d, e, f = t.a, t.b, t.c, t.d, t.e, t.f
    x0, y0 = box.x, box.y
    x1, y1 = x0 + box.w, y0 + box.h
    xs = (a * x0 + c * y0 + e, a * x1 + c * y0 + e, a * x1 + c * y1 + e, a * x0 + c * y1 + e)
    ys = (b * x0 + d * y0 + f, b * x1 + d * y0 + f, b * x1 + d * y1 + f, b * x0 + d * y1 + f)
    left, top = min(xs), min(ys)
    return Box(left, top, max(xs) - left, max(ys) - top)


def cover_of(box: Box, coverers: Iterable[tuple[int, Box]]) -> tuple[Cover, list[int]]:
    """How much of ``box`` the boxes cover, and the cards (first of each pair) that
    overlap it, each once in the order met."""
    pieces = [box]
    cards: list[int] = []
    for card, c in coverers:
        if not overlaps(box, c):
            continue
        if card not in cards:
            cards.append(card)
        pieces = [p for piece in pieces for p in subtract(piece, c)]
    if not cards:
        return Cover.VISIBLE, cards
    if not pieces:
        return Cover.COVERED, cards
    return Cover.PARTLY, cards


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes overlap by more than touching (:data:`AREA_EPS`)."""
    # ``min(a.right, b.right) - max(a.x, b.x)`` and the same down, written out: the
    # searches call this some 10⁵ times a run (the same sums, so the same answers).
    ax, bx, ay, by = a.x, b.x, a.y, b.y
    ar, br, ab, bb = ax + a.w, bx + b.w, ay + a.h, by + b.h
    w = (ar if ar < br else br) - (ax if ax > bx else bx)
    if w <= 0:
        return False
    h = (ab if ab < bb else bb) - (ay if ay > by else by)
    return h > 0 and w * h > AREA_EPS


def subtract(a: Box, b: Box) -> list[Box]:
    """``a`` less ``b``, as up to four boxes (slivers thinner than AREA_EPS dropped)."""
    if not overlaps(a, b):
        return [a]
    out = []
    top, bottom = max(a.y, b.y), min(a.bottom, b.bottom)
    if b.y > a.y:
        out.append(Box(a.x, a.y, a.w, b.y - a.y))
    if b.bottom < a.bottom:
        out.append(Box(a.x, b.bottom, a.w, a.bottom - b.bottom))
    if b.x > a.x:
        out.append(Box(a.x, top, b.x - a.x, bottom - top))
    if b.right < a.right:
        out.append(Box(b.right, top, a.right - b.right, bottom - top))
    return [p for p in out if p.w * p.h > AREA_EPS and min(p.w, p.h) > 1e-6]


# --- reading ----------------------------------------------------------------------------


def reading_order(placed: Sequence[Placed]) -> list[Placed]:
    """Placed fragments in reading order (:func:`in_lines`)."""
    return in_lines(placed, lambda p: p.box)


def normalize(text: str) -> str:
    """Text as it is compared: runs of white space as one space, no space at the ends."""
    return " ".join(text.split())


def read_text(fragments: Iterable[Placed]) -> str:
    return normalize(" ".join(_text(p) for p in reading_order(list(fragments))))


def _text(p: Placed) -> str:
    assert isinstance(p.item, Fragment)
    return p.item.text


def distance(a: Point, b: Point) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


@dataclass(frozen=True)
class Config:
    """A lone card's look in one rotation and tab state: what it shows, placed with
    its centre at the origin (the solver moves copies of it)."""

    rotation: int
    tabs: Tabs
    faces: tuple[Box, ...]
    fragments: tuple[Placed, ...]
    marks: tuple[Placed, ...]

    @cached_property
    def corner_numbers(self) -> dict[int, Point]:
        """The corner numbers this config shows, by number."""
        return {p.item.number: p.box.center for p in self.marks
                if isinstance(p.item, Mark) and p.item.game is None}


def configs(layout: CardLayout) -> dict[tuple[int, Tabs], Config]:
    """Every rotation and tab state of a lone card at the origin."""
    out = {}
    for tabs in Tabs:
        for rotation in ROTATIONS:
            scene = Scene.build(layout, [Placement(0, 0, rotation, tabs)])
            out[rotation, tabs] = Config(rotation, tabs, tuple(scene.faces[0]),
                                         tuple(scene.fragments), tuple(scene.marks))
    return out
