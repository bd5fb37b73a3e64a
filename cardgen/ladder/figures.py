"""Corporate Ladder on paper: the pyramid drawn from its model
(:mod:`cardgen.ladder.pyramid`) and the figure of the attackable rule, which the one-page
rules sheet (:mod:`cardgen.rules.ladder`) and the play mat (:mod:`cardgen.ladder.mat`) use.

How a place of the pyramid is drawn says what it holds: a card that is covered (grey),
a card that can be attacked (a bold outline with a target), a beaten card's empty place
(dashed). A leg joins each card to each of the two it rests on: solid while both
cards are there, dashed once either is gone; a card with no solid leg going down can be
attacked.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from cardgen.draw.colors import INK, Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import (
    Item,
    Line,
    Path,
    Rect,
    Stroke,
    Text,
)
from cardgen.draw.shapes import circle
from cardgen.ladder.pyramid import Pyramid, Slot
from cardgen.text.fit import line_height
from cardgen.text.flow import Paragraph, flow
from cardgen.text.fonts import FontSet
from cardgen.texts import say
from cardgen.units import MM_PER_PT

COVERED = Color.cmyk(0, 0, 0, 25)
CARD_RATIO = 55 / 85  # height / width of a folded card, the size the figure draws
# The example: the two left cards of the bottom row are beaten, so the card above them
# is uncovered; the apex and the right card of the middle row still rest on cards.
EXAMPLE = Pyramid(3)
EXAMPLE_CARDS = frozenset({Slot(0, 0), Slot(1, 0), Slot(1, 1), Slot(2, 2)})


class PlaceState(enum.StrEnum):
    COVERED = "covered"
    ATTACKABLE = "attackable"
    BEATEN = "beaten"
    BLANK = "blank"  # a place of the play mat: no card drawn


@dataclass(frozen=True)
class Pen:
    """The strokes of a pyramid drawing (mm)."""

    outline: float = 0.5 * MM_PER_PT
    bold: float = 1.4 * MM_PER_PT
    leg: float = 0.7 * MM_PER_PT
    dash: tuple[float, ...] = (1.0, 0.8)


SMALL = Pen()


def _stroke(width: float, dash: tuple[float, ...] = ()) -> Stroke:
    return Stroke(INK, width, dash)


def target(cx: float, cy: float, r: float, pen: Pen) -> list[Item]:
    """A target: two rings and a cross, the mark of a card that can be attacked."""
    stroke = _stroke(pen.outline * 1.4)
    return [Path(circle(cx, cy, r), stroke=stroke),
            Path(circle(cx, cy, r * 0.45), stroke=stroke),
            Line(cx - r * 1.35, cy, cx + r * 1.35, cy, stroke),
            Line(cx, cy - r * 1.35, cx, cy + r * 1.35, stroke)]


def place(box: Box, state: PlaceState, pen: Pen = SMALL) -> list[Item]:
    """One place of the pyramid, drawn as its state says."""
    if state is PlaceState.BEATEN:
        return [Rect(box.x, box.y, box.w, box.h, stroke=_stroke(pen.outline, pen.dash))]
    if state is PlaceState.COVERED:
        return [Rect(box.x, box.y, box.w, box.h, fill=COVERED, stroke=_stroke(pen.outline))]
    if state is PlaceState.ATTACKABLE:
        cx, cy = box.center
        return [Rect(box.x, box.y, box.w, box.h, stroke=_stroke(pen.bold)),
                *target(cx, cy, min(box.w, box.h) * 0.26, pen)]
    return [Rect(box.x, box.y, box.w, box.h, stroke=_stroke(pen.outline))]


def leg_x(upper: Box, lower: Box) -> float:
    """Where the leg from a card to one it rests on stands: in the middle of the width
    they share."""
    return (max(upper.x, lower.x) + min(upper.right, lower.right)) / 2


def legs(pyramid: Pyramid, boxes: dict[Slot, Box], cards: Iterable[Slot] | None,
         pen: Pen = SMALL) -> list[Item]:
    """A leg from each place down to each of the two it rests on; dashed where either
    card is missing (``cards`` None: the play mat, every leg solid)."""
    held = None if cards is None else frozenset(cards)
    items: list[Item] = []
    for slot in pyramid.slots():
        for support in pyramid.below(slot):
            up, down = boxes[slot], boxes[support]
            x = leg_x(up, down)
            both = held is None or (slot in held and support in held)
            items.append(Line(x, up.bottom, x, down.y,
                              _stroke(pen.leg, () if both else pen.dash)))
    return items


def states(pyramid: Pyramid, cards: Iterable[Slot]) -> dict[Slot, PlaceState]:
    """Each place's state when ``cards`` are the places still holding a card."""
    held = frozenset(cards)
    open_ = pyramid.attackable(held)
    return {s: (PlaceState.BEATEN if s not in held else
                PlaceState.ATTACKABLE if s in open_ else PlaceState.COVERED)
            for s in pyramid.slots()}


def pyramid_items(pyramid: Pyramid, x: float, y: float, card_w: float, gap: float,
                  cards: Iterable[Slot], pen: Pen = SMALL) -> list[Item]:
    """A small pyramid with its top-left corner at (x, y), cards ``card_w`` wide, the
    places of ``cards`` holding cards and the rest beaten."""
    card_h = card_w * CARD_RATIO
    boxes = {s: Box(b.x + x, b.y + y, b.w, b.h)
             for s, b in pyramid.boxes(card_w, card_h, gap, card_h * 0.5).items()}
    held = frozenset(cards)
    items = legs(pyramid, boxes, held, pen)
    for slot, state in states(pyramid, held).items():
        items += place(boxes[slot], state, pen)
    return items


@dataclass(frozen=True)
class AttackFigure:
    """The attackable rule drawn: the example pyramid, a key beside it and, under both,
    a caption."""

    fonts: FontSet
    size: float = 7.0  # the key's and the caption's type
    share: float = 0.56  # of the width, for the pyramid
    caption: bool = True

    def _pyramid(self, width: float) -> tuple[float, float, float]:
        """Card width, gap and height of the example pyramid at a figure width."""
        span = width * self.share
        gap = span * 0.04
        card_w = (span - (EXAMPLE.rows - 1) * gap) / EXAMPLE.rows
        card_h = card_w * CARD_RATIO
        return card_w, gap, EXAMPLE.size(card_w, card_h, gap, card_h * 0.5)[1]

    def _key_pitch(self) -> float:
        return max(line_height(self.size) * 1.9, 4.6)

    def _caption(self, x: float, y: float, width: float) -> list[Text]:
        if not self.caption:
            return []
        text = Paragraph(say("ladder_print", "figure.caption"), self.fonts.regular,
                         self.size, INK)
        [lines] = flow([text], [Box(x, y, width, 1000.0)], where="the figure's caption")
        return lines

    def height(self, width: float) -> float:
        top = max(self._pyramid(width)[2], 3 * self._key_pitch())
        lines = self._caption(0, 0, width)
        if not lines:
            return top
        last = lines[-1]
        return top + 1.5 + last.y + self.fonts.regular.metrics.descent_mm(self.size)

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        card_w, gap, pyramid_h = self._pyramid(width)
        pitch = self._key_pitch()
        top = max(pyramid_h, 3 * pitch)
        items = pyramid_items(EXAMPLE, x, y + (top - pyramid_h) / 2, card_w, gap,
                              EXAMPLE_CARDS)
        key_x = x + width * self.share + 3.0
        swatch_w = min(7.0, width * 0.1)
        swatch_h = swatch_w * CARD_RATIO
        key_y = y + (top - 3 * pitch) / 2
        for i, state in enumerate((PlaceState.ATTACKABLE, PlaceState.COVERED,
                                   PlaceState.BEATEN)):
            cy = key_y + (i + 0.5) * pitch
            items += place(Box(key_x, cy - swatch_h / 2, swatch_w, swatch_h), state, SMALL)
            items.append(Text(key_x + swatch_w + 1.8,
                              cy + self.fonts.regular.metrics.cap_height_mm(self.size) / 2,
                              say("ladder_print", f"figure.{state}"), self.fonts.regular,
                              self.size, INK))
        items += self._caption(x, y + top + 1.5, width)
        return items


FIGURES = {"ladder-attack": AttackFigure}
