"""Crop and fold marks around a trimmed piece.

Crop marks continue the trim lines outward from each corner; fold marks continue each
fold (or score) line outward wherever it meets the trim. Both start at a gap beyond the
bleed, so no mark ever prints on the piece.

Two styles, for two jobs:

- :data:`PRINT_SHOP`: marks in the slug of a print shop's file. They are drawn in the
  registration colour (all plates) so that every separation carries them, 1 mm beyond the
  bleed and 4 mm long, the usual convention.
- :data:`OFFICE`: marks around each card on an office sheet. Plain black, because the
  registration colour would print as a 400 % rich black on a desktop printer; they start
  right at the bleed edge and are 3 mm long, because neighbouring cards leave no more room.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box, Segment
from cardgen.draw.page import Line, Stroke

REGISTRATION = Color.cmyk(100, 100, 100, 100, spot="All", overprint=True)
BLACK = Color.cmyk(0, 0, 0, 100)


@dataclass(frozen=True)
class MarkStyle:
    crop: Stroke
    fold: Stroke
    gap: float  # from the bleed edge to where a mark starts (mm)
    length: float  # of each mark (mm)


PRINT_SHOP = MarkStyle(crop=Stroke(REGISTRATION, 0.1),
                       fold=Stroke(REGISTRATION, 0.1, dash=(1.0, 0.7)), gap=1.0, length=4.0)
OFFICE = MarkStyle(crop=Stroke(BLACK, 0.12), fold=Stroke(BLACK, 0.12, dash=(0.8, 0.6)),
                   gap=0.0, length=3.0)


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


def fold_marks(trim: Box, bleed: float, folds: Sequence[Segment], style: MarkStyle,
               ) -> list[Segment]:
    """For each fold line, in order, a short line continuing it outward from each of its
    ends that lies on the trim outline."""
    start, end = mark_span(bleed, style)
    lines: list[Segment] = []
    for p1, p2 in folds:
        for near, far in ((p1, p2), (p2, p1)):
            if not trim.on_outline(*near):
                continue
            length = math.dist(near, far)
            dx, dy = (near[0] - far[0]) / length, (near[1] - far[1]) / length
            lines.append(((near[0] + dx * start, near[1] + dy * start),
                          (near[0] + dx * end, near[1] + dy * end)))
    return lines


def mark_lines(trim: Box, bleed: float, folds: Sequence[Segment], style: MarkStyle,
               ) -> list[Line]:
    """Crop marks, then fold marks, as page items."""
    crops = [Line(*p1, *p2, style.crop) for p1, p2 in crop_marks(trim, bleed, style)]
    return crops + [Line(*p1, *p2, style.fold)
                    for p1, p2 in fold_marks(trim, bleed, folds, style)]
