"""A spot varnish: where a shop with a spot UV (or spot gloss) unit lays clear coating
over the printed art.

What the shop's RIP reads, and how this module draws it (``cardgen.prepress.dieline`` is
the model for any spot layer):

- **A spot colour named** ``Varnish``. The coating is a plate of its own: a Separation
  colour space, always at 100 % (a varnish has no tints: a screened varnish is a
  blotchy one). Its alternate colour is a light tint (:data:`VARNISH`), so a proof that
  simulates overprint shows where the coating goes without hiding the art.
- **It overprints.** Set to overprint, it leaves every process plate exactly as it was:
  the varnish never knocks the art out beneath it, and the CMYK plates of a file with the
  varnish are those of the file without it.
- **A layer of its own, drawn last, print files only** (:attr:`VarnishMode.LAYER`; with
  :attr:`VarnishMode.FILE` the same shapes, marks and boxes make a page of their own).
  It is the page's last layer, so nothing covers it, and a print-only one
  (:attr:`cardgen.draw.page.Layer.print_only`): SVG and PNG previews and an RGB PDF
  leave it out, since a screen can only show a spot plate as a solid colour. PDF
  optional content (a layer a viewer can hide) is not an option: the print file is
  PDF/X-1a, which has none; a viewer that does not simulate overprint shows the
  varnish's light alternate over the art (hence the file mode).
- **Solid shapes, no hairlines.** The coated area is a union of rectangles, one closed
  path each, filled: broad areas register and cure well, hairlines and small type in
  varnish do not.

Where the coating may go is the caller's decision (see ``cardgen.card.varnish``); this
module turns "these areas, except these" into the path.

Imports ``cardgen.draw`` only.
"""

from __future__ import annotations

import enum
import itertools
from collections.abc import Sequence

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import CLOSE, Item, LineTo, MoveTo, Path, PathOp


class VarnishMode(enum.StrEnum):
    """Where the varnish goes: a print-only layer of the art's page (what a shop's RIP
    separates), or a file of its own holding the coating alone on the same page (the mask
    many online printers ask for, and a print file that looks on screen as it prints)."""

    LAYER = "layer"
    FILE = "file"


VARNISH_NAME = "Varnish"
# A pale cyan-green tint: on a proof that simulates overprint it barely shifts the art,
# and it tells itself apart from the dieline's magenta CutContour and cyan Score.
VARNISH = Color.cmyk(15, 0, 10, 0, spot=VARNISH_NAME, overprint=True)
VARNISH_LAYER = "varnish"
_EPS = 1e-6


def free_boxes(area: Box, keep_out: Sequence[Box]) -> list[Box]:
    """``area`` less every box of ``keep_out``, as disjoint rectangles: the area cut
    into vertical slabs at every keep-out box's left and right edge, each slab's free
    spans found from top to bottom, and neighbouring slabs with the same spans joined."""
    inside = [b for b in keep_out if b.w > _EPS and b.h > _EPS and b.intersects(area)]
    xs = sorted({area.x, area.right, *(min(max(v, area.x), area.right)
                                       for b in inside for v in (b.x, b.right))})
    columns: list[tuple[float, float, list[tuple[float, float]]]] = []
    for left, right in itertools.pairwise(xs):
        if right - left <= _EPS:
            continue
        blocked = sorted((max(b.y, area.y), min(b.bottom, area.bottom)) for b in inside
                         if b.x < right - _EPS and b.right > left + _EPS)
        spans, cursor = [], area.y
        for top, bottom in blocked:
            if top > cursor + _EPS:
                spans.append((cursor, top))
            cursor = max(cursor, bottom)
        if area.bottom > cursor + _EPS:
            spans.append((cursor, area.bottom))
        if columns and columns[-1][2] == spans and abs(columns[-1][1] - left) <= _EPS:
            columns[-1] = (columns[-1][0], right, spans)
        else:
            columns.append((left, right, spans))
    return [Box(left, top, right - left, bottom - top)
            for left, right, spans in columns for top, bottom in spans]


def varnish_path(areas: Sequence[Box], keep_out: Sequence[Box], within: Box) -> Path | None:
    """The varnish over ``areas`` (each clipped to ``within``) less ``keep_out``: one
    filled path of disjoint rectangles, or None when nothing is left. They are disjoint
    across areas too (an area is cut where an earlier one already coats), so the path
    fills the same whichever fill rule a renderer uses."""
    ops: list[PathOp] = []
    taken = list(keep_out)
    for area in areas:
        left, top = max(area.x, within.x), max(area.y, within.y)
        right, bottom = min(area.right, within.right), min(area.bottom, within.bottom)
        if right - left <= _EPS or bottom - top <= _EPS:
            continue
        clipped = Box(left, top, right - left, bottom - top)
        for box in free_boxes(clipped, taken):
            ops += [MoveTo(box.x, box.y), LineTo(box.right, box.y),
                    LineTo(box.right, box.bottom), LineTo(box.x, box.bottom), CLOSE]
        taken.append(clipped)
    return Path(tuple(ops), fill=VARNISH) if ops else None


def varnish_items(areas: Sequence[Box], keep_out: Sequence[Box], within: Box) -> list[Item]:
    """:func:`varnish_path` as a list of items (empty when nothing is left)."""
    path = varnish_path(areas, keep_out, within)
    return [] if path is None else [path]
