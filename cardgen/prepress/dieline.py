"""The dieline: where a die or a cutting table cuts and scores a printed piece.

What print shops' RIPs and cutting tables read, and how this module draws it:

- **Spot colours.** Cuts are solid hairlines in the spot colour ``CutContour``, scores
  (folds) dashed hairlines in the spot colour ``Score``. Both overprint, so that on a page
  that also holds art (``--dieline layer``) they never knock the art out.
- **One closed path per contour.** A contour that encloses something (a piece's outline)
  is one closed path, never a run of separate lines: a cutter follows it in one pass with
  no gap or overcut at the corners, and a RIP's contour tools recognise it as a shape.
- **A slit is an open path.** A cut with no inside (a side tab's slit, from the outline to
  the tab's hinge) is a path of its own that starts on the outline and ends where the
  slit ends. It is deliberately *not* folded into the outline's closed path as a
  zero-width out-and-back notch: the knife would cut the slit twice and turn 180° at its
  end (a drag knife tears paper there), the outline would get zero-width spikes that
  contour-offset tools choke on, and a die maker would read a doubled rule. Open cut paths
  are ordinary in dielines; every cutter cuts them.
- **The legend is for people, not machines.** It is set in process black (100 % K): not a
  spot colour at all, so no RIP can map it to a knife or a crease tool; and not the
  registration colour, which by definition lands on every separation, ``CutContour`` and
  ``Score`` included. It sits outside the trim, in the slug; where a piece has no slug
  there is no legend (the spot colours' names are what machines read).

Nothing here knows which side of a piece a dieline is seen from or where its slug is: the
caller gives the paths in the page coordinates of the side it draws (see
:meth:`Die.transformed`) and the room for the legend.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box, Point, Segment
from cardgen.draw.page import (
    CLOSE,
    Anchor,
    Group,
    Item,
    LineTo,
    MoveTo,
    Path,
    PathOp,
    Stroke,
    Text,
)
from cardgen.errors import FitError
from cardgen.prepress.marks import BLACK
from cardgen.text.fit import check_printable, line_height
from cardgen.text.fonts import FontFace

CUT_CONTOUR = Color.cmyk(0, 100, 0, 0, spot="CutContour", overprint=True)
SCORE_LINE = Color.cmyk(100, 0, 0, 0, spot="Score", overprint=True)
LEGEND_COLOR = BLACK  # process black, overprinting: no cutter reads it
CUT_STROKE = Stroke(CUT_CONTOUR, 0.1)
SCORE_STROKE = Stroke(SCORE_LINE, 0.1, dash=(1.5, 1.0))
DIELINE_LAYER = "dieline"
LEGEND_SIZE = 5.0  # pt: never smaller; a legend too wide for one line takes two
LEGEND_MIN_SIZE = LEGEND_SIZE
LEGEND_SEPARATOR = " · "  # where a legend of two lines breaks
LEGEND_NAME = "dieline-legend"


class DielineMode(enum.StrEnum):
    """Where the dieline goes: a file of its own, or a spot layer on the art pages."""

    FILE = "file"
    LAYER = "layer"


@dataclass(frozen=True)
class Die:
    """What the die does to the flat sheet, in the page coordinates of one side.

    ``outline`` is a closed contour (its corners in order; the path closes back to the
    first); ``slits`` are cuts with no inside, each from a point on the outline to where
    it ends; ``scores`` are the fold lines.
    """

    outline: tuple[Point, ...]
    slits: tuple[Segment, ...]
    scores: tuple[Segment, ...]

    def transformed(self, t: Affine) -> Die:
        """The same die seen through ``t`` (for instance from the piece's other side).
        Every point is mapped; the order of points and paths is kept."""
        def seg(s: Segment) -> Segment:
            return t.apply(*s[0]), t.apply(*s[1])

        return Die(tuple(t.apply(*p) for p in self.outline),
                   tuple(seg(s) for s in self.slits), tuple(seg(s) for s in self.scores))


def _polyline(points: tuple[Point, ...] | Segment, closed: bool = False) -> tuple[PathOp, ...]:
    (x0, y0), *rest = points
    ops: list[PathOp] = [MoveTo(x0, y0), *(LineTo(x, y) for x, y in rest)]
    return (*ops, CLOSE) if closed else tuple(ops)


def dieline_items(die: Die) -> list[Item]:
    """The outline as one closed ``CutContour`` path, then each slit as an open
    ``CutContour`` path, then each score as a dashed ``Score`` path."""
    items: list[Item] = [Path(_polyline(die.outline, closed=True), stroke=CUT_STROKE)]
    items += [Path(_polyline(s), stroke=CUT_STROKE) for s in die.slits]
    items += [Path(_polyline(s), stroke=SCORE_STROKE) for s in die.scores]
    return items


def legend_item(text: str, face: FontFace, room: Box) -> Item:
    """The legend centred in ``room`` (a box outside the trim) at :data:`LEGEND_SIZE`:
    one line where it fits the room's width, else broken at its separators
    (:data:`LEGEND_SEPARATOR`) into as few lines as fit, the block's capitals centred on
    the room's height (a Group of lines, the first named like a one-line legend). A
    FitError when a part or the block does not fit."""
    where = "the dieline's legend"
    check_printable(text, face, where)
    size = LEGEND_SIZE
    lines: list[str] = []
    for part in text.split(LEGEND_SEPARATOR):
        joined = f"{lines[-1]}{LEGEND_SEPARATOR}{part}" if lines else part
        if lines and face.width(joined, size) <= room.w:
            lines[-1] = joined
        else:
            lines.append(part)
    pitch = line_height(size)
    cap = face.metrics.cap_height_mm(size)
    tall = cap + (len(lines) - 1) * pitch
    widest = max(face.width(line, size) for line in lines)
    if widest > room.w or tall > room.h:
        raise FitError(
            f"{where} ({text}) does not fit: it needs {widest:.1f} × {tall:.1f} mm at the "
            f"smallest legible size of {size:g} pt and the room is {room.w:.1f} × "
            f"{room.h:.1f} mm; shorten it.", value=text, field=where)
    cx, cy = room.center
    first = cy - tall / 2 + cap
    texts: list[Item] = [
        Text(cx, first + n * pitch, line, face, size, LEGEND_COLOR, anchor=Anchor.MIDDLE,
             name=LEGEND_NAME if n == 0 else f"{LEGEND_NAME}-{n + 1}")
        for n, line in enumerate(lines)]
    return texts[0] if len(texts) == 1 else Group(texts, name=f"{LEGEND_NAME}-lines")
