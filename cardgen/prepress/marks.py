"""Crop, cut and fold marks around a trimmed piece.

Marks outside the trim show where to cut and fold once the sheet is printed:

- *crop marks* continue the trim lines outward from each corner;
- *cut marks* continue each inner cut (a slit from the trim edge into the piece, such as
  a tab's cut) outward from its end on the trim;
- *fold marks* continue each fold (or score) line outward from its ends on the trim. A
  fold that does not reach the trim gets no mark.

Crop and cut marks are solid lines, fold marks dashed: the convention of print shops and
of paper-craft templates. Every one starts at a gap beyond the bleed, so none prints on
the piece. The one deliberate exception is the *cut-end tick* (office sheets only, and
only on the face the piece names): the end of an inner cut lies inside the piece, where
no mark outside the trim can show a person with scissors where to stop. The tick is a
short solid line lying on the cut itself and ending exactly where the cut ends, so the
cut runs through it and takes it away. It is black on a white casing, to show on dark
and light art alike.

Two styles, for two jobs:

- :data:`PRINT_SHOP`: marks in the slug of a print shop's file. They are drawn in the
  registration colour (all plates) so that every separation carries them, 1 mm beyond the
  bleed and 4 mm long, the usual convention. No ticks: a die cuts the slits.
- :data:`OFFICE`: marks around each card on an office sheet. Plain black, because the
  registration colour would print as a 400 % rich black on a desktop printer; they start
  right at the bleed edge and are 3 mm long, because neighbouring cards leave no more room.
  Cut-end ticks are 3 mm long.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardgen.draw.colors import INK, PAPER_WHITE, Color
from cardgen.draw.geometry import Box, Point, Segment
from cardgen.draw.page import Line, Stroke

REGISTRATION = Color.cmyk(100, 100, 100, 100, spot="All", overprint=True)
BLACK = INK  # marks and captions: the ink rule
TICK_CASING = 0.15  # mm of white on each side of a cut-end tick


@dataclass(frozen=True)
class MarkStyle:
    crop: Stroke  # every cut mark: the crop marks and the marks of inner cuts (solid)
    fold: Stroke  # fold marks (dashed)
    gap: float  # from the bleed edge to where a mark starts (mm)
    length: float  # of each mark (mm)
    cut_end: float = 0.0  # length of a cut-end tick on the piece (mm); 0: no ticks


PRINT_SHOP = MarkStyle(crop=Stroke(REGISTRATION, 0.1),
                       fold=Stroke(REGISTRATION, 0.1, dash=(1.0, 0.7)), gap=1.0, length=4.0)
OFFICE = MarkStyle(crop=Stroke(BLACK, 0.12), fold=Stroke(BLACK, 0.12, dash=(0.8, 0.6)),
                   gap=0.0, length=3.0, cut_end=3.0)


def mark_span(bleed: float, style: MarkStyle) -> tuple[float, float]:
    """How far beyond the trim a mark starts and ends."""
    start = bleed + style.gap
    return start, start + style.length


def crop_marks(trim: Box, bleed: float, style: MarkStyle) -> list[Segment]:
    """Two short lines at each corner, continuing the trim lines outward: for the left
    then the right edge, top then bottom, the horizontal line then the vertical one."""
    start, end = mark_span(bleed, style)
    lines: list[Segment] = []
    for x, sx in ((trim.x, -1), (trim.right, 1)):
        for y, sy in ((trim.y, -1), (trim.bottom, 1)):
            lines.append(((x + sx * start, y), (x + sx * end, y)))
            lines.append(((x, y + sy * start), (x, y + sy * end)))
    return lines


def _direction(frm: Point, to: Point) -> Point:
    length = math.dist(frm, to)
    return (to[0] - frm[0]) / length, (to[1] - frm[1]) / length


def fold_marks(trim: Box, bleed: float, folds: Sequence[Segment], style: MarkStyle,
               ) -> list[Segment]:
    """For each line, in order, a short line continuing it outward from each of its
    ends that lies on the trim outline (fold lines; the same rule serves cut lines)."""
    start, end = mark_span(bleed, style)
    lines: list[Segment] = []
    for p1, p2 in folds:
        for near, far in ((p1, p2), (p2, p1)):
            if not trim.on_outline(*near):
                continue
            dx, dy = _direction(far, near)
            lines.append(((near[0] + dx * start, near[1] + dy * start),
                          (near[0] + dx * end, near[1] + dy * end)))
    return lines


def cut_marks(trim: Box, bleed: float, cuts: Sequence[Segment], style: MarkStyle,
              ) -> list[Segment]:
    """For each inner cut, in order, a short line continuing it outward from its end on
    the trim (drawn solid, like a crop mark)."""
    return fold_marks(trim, bleed, cuts, style)


def cut_end_ticks(trim: Box, cuts: Sequence[Segment], length: float) -> list[Segment]:
    """For each inner cut, in order, that runs from the trim to a point inside it: the
    cut's last ``length`` mm (all of it if shorter), from inside the piece to the end."""
    ticks: list[Segment] = []
    for p1, p2 in cuts:
        for start, end in ((p1, p2), (p2, p1)):
            if trim.on_outline(*start) and not trim.on_outline(*end):
                reach = min(length, math.dist(start, end))
                dx, dy = _direction(end, start)
                ticks.append(((end[0] + dx * reach, end[1] + dy * reach), end))
    return ticks


def mark_lines(trim: Box, bleed: float, folds: Sequence[Segment], style: MarkStyle, *,
               cuts: Sequence[Segment] = (), cut_ends: bool = False) -> list[Line]:
    """Crop marks, then cut marks, then fold marks, as page items; with ``cut_ends`` (and
    a style that has them) then each cut-end tick: its white casing, then the tick."""
    items = [Line(*p1, *p2, style.crop)
             for p1, p2 in [*crop_marks(trim, bleed, style),
                            *cut_marks(trim, bleed, cuts, style)]]
    items += [Line(*p1, *p2, style.fold) for p1, p2 in fold_marks(trim, bleed, folds, style)]
    if cut_ends and style.cut_end > 0:
        casing = Stroke(PAPER_WHITE, style.crop.width + 2 * TICK_CASING)
        for p1, p2 in cut_end_ticks(trim, cuts, style.cut_end):
            items += [Line(*p1, *p2, casing), Line(*p1, *p2, style.crop)]
    return items
