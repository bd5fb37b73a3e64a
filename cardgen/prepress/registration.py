"""The duplex registration test: lines on side 1, scales on side 2.

Held against a light, each line of side 1 crosses a scale of side 2 at the printer's
misregistration; the readings are the offset to pass when printing sheets. The scales
are placed through :meth:`Duplex.to_back`, so a page printed with an offset already
applied reads the remaining error. The scales reach ±:data:`MAX_OFFSET`, the largest
offset a sheet accepts; the targets keep their distance from the printer's margin, so
that side 2 stays inside the printable area for every offset accepted.
"""

from __future__ import annotations

from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Document, Item, Line, OutputIntent, Page, Stroke, Text
from cardgen.prepress.impose import MAX_OFFSET, Duplex, info_items
from cardgen.prepress.intents import paper_intent
from cardgen.prepress.marks import BLACK
from cardgen.text.fonts import FontSet
from cardgen.texts import say, say_lines
from cardgen.version import __version__

TARGET_INSET = (30.0, 40.0)  # corner targets' distance from the printer's margin (mm)
TICK = 0.5  # mm between the scales' ticks
CROSS = 12.0  # half the length of a target's lines (mm)
SCALE_GAP = 7.0  # from a target to its scales (mm)
TEXT_ABOVE = 40.0  # the instructions sit this far above the page centre (mm)
SCALE_SIZE = 5.0  # pt: the scales' numbers, the smallest type cardgen prints


def build_registration(duplex: Duplex, fonts: FontSet,
                       output_intent: OutputIntent | None = None) -> Document:
    """A two-page duplex test: crosses on the front, scales behind them on the back; a
    print file (PDF/X) for ``output_intent`` (by default the paper's usual condition),
    like the sheets it tests the printer for."""
    paper = Box(0, 0, duplex.width, duplex.height)
    front = Page("registration-front", duplex.width, duplex.height, paper, paper)
    back = Page("registration-back", duplex.width, duplex.height, paper, paper)
    cx, cy = duplex.width / 2, duplex.height / 2
    dx = duplex.width / 2 - duplex.margin - TARGET_INSET[0]
    dy = duplex.height / 2 - duplex.margin - TARGET_INSET[1]
    targets = [(cx, cy), (cx - dx, cy - dy), (cx + dx, cy - dy), (cx - dx, cy + dy),
               (cx + dx, cy + dy)]
    line = Stroke(BLACK, 0.15)
    to_back = duplex.to_back()
    f, b = front.layer("test"), back.layer("test")
    for x, y in targets:
        f.add(Line(x - CROSS, y, x + CROSS, y, line), Line(x, y - CROSS, x, y + CROSS, line))
        bx, by = to_back.apply(x, y)
        b.add(*_scale(bx, by + SCALE_GAP, horizontal=True, fonts=fonts))
        b.add(*_scale(bx + SCALE_GAP, by, horizontal=False, fonts=fonts))
    front_text = say_lines("prepress", "registration.front", flip=duplex.flip,
                           paper=duplex.paper.upper())
    back_text = say_lines("prepress", "registration.back", dx=f"{duplex.offset[0]:g}",
                          dy=f"{duplex.offset[1]:g}")
    f.add(*_text_block(cx, cy - TEXT_ABOVE, front_text, fonts))
    b.add(*_text_block(cx, cy - TEXT_ABOVE, back_text, fonts))
    f.add(*info_items(duplex.info, say("prepress", "registration.caption", version=__version__,
                                       side=1), fonts))
    b.add(*info_items(duplex.back_box(duplex.info),
                      say("prepress", "registration.caption", version=__version__, side=2),
                      fonts))
    return Document([front, back], title=say("prepress", "registration.title"),
                    output_intent=output_intent or paper_intent(duplex.paper))


def _scale(x: float, y: float, *, horizontal: bool, fonts: FontSet) -> list[Item]:
    """A ruler from -MAX_OFFSET to +MAX_OFFSET mm centred on (x, y): ticks every 0.5 mm,
    numbers every 2 mm."""
    items: list[Item] = []
    stroke = Stroke(BLACK, 0.1)
    reach = round(MAX_OFFSET / TICK)
    for i in range(-reach, reach + 1):
        v = i * TICK
        length = 2.2 if i % 2 == 0 else 1.2
        if i == 0:
            length = 3.2
        if horizontal:
            items.append(Line(x + v, y, x + v, y + length, stroke))
            if i % 4 == 0:
                items.append(Text(x + v, y + 5.2, f"{v:g}", fonts.regular,
                                  SCALE_SIZE, BLACK, anchor=Anchor.MIDDLE))
        else:
            items.append(Line(x, y + v, x + length, y + v, stroke))
            if i % 4 == 0:
                items.append(Text(x + 3.8, y + v + 0.6, f"{v:g}", fonts.regular,
                                  SCALE_SIZE, BLACK))
    return items


def _text_block(x: float, y: float, lines: list[str], fonts: FontSet) -> list[Item]:
    items: list[Item] = []
    for i, text in enumerate(lines):
        face = fonts.bold if i == 0 else fonts.regular
        items.append(Text(x, y + i * 4.2, text, face, 9 if i == 0 else 7.5, BLACK,
                          anchor=Anchor.MIDDLE))
    return items
