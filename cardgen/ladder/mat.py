"""The Corporate Ladder play mat: the pyramid's places at the size of a folded card, so
real cards lie on them, with a leg from each place down to each of the two it rests
on, the top place marked for the Upper Management card, and a key showing which cards
can be attacked.

The mat is drawn once, in its own millimetres (the pyramid's top-left corner at 0, 0),
and put on paper:

- **3 rows** on one landscape sheet. The cards lie landscape (as they are read), so the
  pyramid is three cards wide: 263 mm for ``eu`` cards, which fits A4 and Letter
  landscape inside a 5 mm printable margin, and 268.8 mm for ``us`` cards, which fits
  Letter landscape with places 1.05 mm apart.
- **4 rows** are four cards wide (352 mm for ``eu``): no office sheet holds that at full
  size, so the mat is split down its middle onto two portrait sheets. Sheet 1 holds the
  left half and a glue strip beyond the join; sheet 2 holds the right half and is cut
  along the join, laid on the strip with its edge on sheet 1's dashed line and the tick
  marks meeting, and glued.

Every distance is a field of :class:`MatStyle`. Type and lines are solid black set to
overprint (the ink rule); only the covered places of the key are a grey fill.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardgen.draw.colors import INK, Color
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import (
    CLOSE,
    Anchor,
    Document,
    Group,
    Item,
    Line,
    LineTo,
    MoveTo,
    Page,
    Path,
    Rect,
    Stroke,
    Text,
)
from cardgen.errors import CardgenError
from cardgen.ladder.figures import AttackFigure, Pen, PlaceState, leg_x, place
from cardgen.ladder.pyramid import Pyramid, Slot
from cardgen.physical.card import PRESETS, Preset
from cardgen.prepress.intents import paper_intent
from cardgen.prepress.paper import Paper
from cardgen.text.fit import line_height
from cardgen.text.flow import Paragraph, flow
from cardgen.text.fonts import FontSet
from cardgen.texts import say
from cardgen.units import MM_PER_PT


@dataclass(frozen=True)
class MatStyle:
    """Every distance (mm) and type size (pt) of the play mat."""

    printable: float = 5.0  # the margin an office printer cannot print in
    safety: float = 0.3  # kept inside it besides (half a stroke, rounding)
    gap_x: float = 4.0  # between neighbouring places, when there is room
    min_gap_x: float = 1.0
    gap_y: float = 14.0  # between rows, where the legs stand, when there is room
    min_gap_y: float = 8.0
    corner_gap: float = 4.0  # between a corner's text and the top place
    glue: float = 12.0  # the strip of sheet 1 that sheet 2 is glued on
    cut_strip: float = 8.0  # the part of sheet 2 left of the join, cut off
    tick: float = 6.0  # how far the alignment ticks reach either side of the join
    foot: float = 1.6  # the arrowhead at the foot of a leg
    title_size: float = 16.0
    text_size: float = 8.5
    heading_size: float = 10.0
    label_size: float = 9.0
    apex_size: float = 12.0
    key_size: float = 7.5


STYLE = MatStyle()
PEN = Pen(outline=0.8 * MM_PER_PT, bold=1.6 * MM_PER_PT, leg=1.2 * MM_PER_PT,
          dash=(2.0, 1.5))
MAT_ROWS = (3, 4)
GLUE = Color.cmyk(0, 0, 0, 12)  # the strip sheet 2 is glued on


@dataclass(frozen=True)
class MatLayout:
    """The pyramid of a play mat: its places (mm, in the mat's own frame) and how the
    mat is cut into sheets."""

    pyramid: Pyramid
    card: tuple[float, float]
    gap: tuple[float, float]
    boxes: dict[Slot, Box]
    size: tuple[float, float]
    tiled: bool  # two portrait sheets rather than one landscape sheet

    @property
    def join(self) -> float:
        """Where a tiled mat is split: down its middle."""
        return self.size[0] / 2


def _usable(paper: Paper, landscape: bool, style: MatStyle) -> tuple[float, float]:
    w, h = paper.size
    if landscape:
        w, h = h, w
    inner = 2 * (style.printable + style.safety)
    return w - inner, h - inner


def plan(rows: int, preset: Preset, paper: Paper, style: MatStyle = STYLE) -> MatLayout:
    """The places of a ``rows``-row mat of ``preset`` cards on ``paper``, as large as the
    cards and spaced as widely as the paper allows."""
    if rows not in MAT_ROWS:
        raise CardgenError(f"the play mat has 3 or 4 rows, not {rows}.", value=rows)
    pyramid = Pyramid(rows)
    size = PRESETS[preset]
    w, h = size.width, size.height
    tiled = rows == 4
    uw, uh = _usable(paper, not tiled, style)
    # One sheet holds the whole width; a tiled mat's sheet 1 holds half and the strip.
    room = 2 * (uw - style.glue) if tiled else uw
    gap_x = min(style.gap_x, (room - rows * w) / (rows - 1))
    gap_y = min(style.gap_y, (uh - rows * h) / (rows - 1))
    if gap_x < style.min_gap_x - 1e-9 or gap_y < style.min_gap_y - 1e-9:
        raise CardgenError(f"a {rows}-row play mat of {preset} cards does not fit on "
                           f"{paper.upper()} paper.", value=paper)
    return MatLayout(pyramid, (w, h), (gap_x, gap_y), pyramid.boxes(w, h, gap_x, gap_y),
                     pyramid.size(w, h, gap_x, gap_y), tiled)


def _legs(layout: MatLayout, style: MatStyle) -> list[Item]:
    """Each place's legs down to the two it rests on, an arrowhead at each foot."""
    items: list[Item] = []
    stroke = PEN.leg
    for slot in layout.pyramid.slots():
        for support in layout.pyramid.below(slot):
            up, down = layout.boxes[slot], layout.boxes[support]
            x = leg_x(up, down)
            f = style.foot
            items.append(Line(x, up.bottom, x, down.y - f, _ink_stroke(stroke)))
            items.append(Path((MoveTo(x - f * 0.75, down.y - f * 1.3), LineTo(x, down.y),
                               LineTo(x + f * 0.75, down.y - f * 1.3), CLOSE), fill=INK))
    return items


def _ink_stroke(width: float) -> Stroke:
    return Stroke(INK, width)


def _centred(lines: Sequence[tuple[str, bool, float]], box: Box, fonts: FontSet,
             ) -> list[Item]:
    """Lines (text, bold, size) centred in a box, as a block."""
    heights = [line_height(size) for _, _, size in lines]
    y = box.y + (box.h - sum(heights)) / 2
    items: list[Item] = []
    for (text, bold, size), height in zip(lines, heights, strict=True):
        face = fonts.bold if bold else fonts.regular
        items.append(Text(box.center[0], y + face.metrics.cap_height_mm(size), text, face,
                          size, INK, anchor=Anchor.MIDDLE))
        y += height
    return items


def _labels(layout: MatLayout, fonts: FontSet, style: MatStyle) -> list[Item]:
    items: list[Item] = []
    bottom = layout.pyramid.rows - 1
    for slot, box in layout.boxes.items():
        if slot == layout.pyramid.apex:
            lines = [(say("ladder_print", "mat.apex"), True, style.apex_size),
                     (say("ladder_print", "mat.apex_note"), False, style.label_size)]
        elif slot.row == bottom:
            lines = [(say("ladder_print", "mat.bottom"), True, style.label_size),
                     (say("ladder_print", "mat.bottom_note"), False, style.label_size)]
        else:
            lines = [(say("ladder_print", "mat.middle"), False, style.label_size)]
        items += _centred(lines, box, fonts)
    return items


def _text_block(paragraphs: list[Paragraph], box: Box, where: str) -> list[Item]:
    items: list[Item] = []
    for lines in flow(paragraphs, [box], where=where):
        items += lines
    return items


def _key(layout: MatLayout, fonts: FontSet, style: MatStyle) -> list[Item]:
    """Top left, beside the top place: which cards can be attacked, drawn."""
    top = layout.boxes[layout.pyramid.apex]
    width = top.x - style.corner_gap
    heading = [Paragraph(say("ladder_print", "mat.key_heading"), fonts.bold,
                         style.heading_size, INK, space_after=0.6),
               Paragraph(say("ladder_print", "mat.key_rule"), fonts.regular,
                         style.key_size, INK, space_after=1.5)]
    [head] = flow(heading, [Box(0, 0, width, top.h)], where="the play mat's key")
    below = head[-1].y + line_height(style.key_size) + 1.0
    figure = AttackFigure(fonts, size=style.key_size)
    figure_w = width
    while figure.height(figure_w) > top.h - below and figure_w > 20:
        figure_w -= 2.0
    return [*head, *figure.draw(0, below, figure_w)]


def _title(layout: MatLayout, preset: Preset, fonts: FontSet, style: MatStyle,
           notes: Sequence[str] = ()) -> list[Item]:
    """Top right, beside the top place: the name and how to print the mat."""
    top = layout.boxes[layout.pyramid.apex]
    x = top.right + style.corner_gap
    card = PRESETS[preset]
    texts = [Paragraph(say("ladder_print", "mat.title"), fonts.bold, style.title_size, INK,
                       space_after=1.2),
             Paragraph(say("ladder_print", "mat.subtitle", rows=layout.pyramid.rows,
                           cards=len(layout.pyramid), preset=preset.value,
                           size=_card_size(preset, card.width, card.height)),
                       fonts.regular, style.text_size, INK, space_after=1.2),
             Paragraph(say("ladder_print", "mat.print"), fonts.regular, style.text_size, INK,
                       space_after=1.2),
             *(Paragraph(note, fonts.regular, style.text_size, INK, space_after=1.2)
               for note in notes)]
    return _text_block(texts, Box(x, 0, layout.size[0] - x, top.h), "the play mat's title")


def _card_size(preset: Preset, width: float, height: float) -> str:
    if preset is Preset.US:
        return f"{width / 25.4:g} × {height / 25.4:g} in"
    return f"{width:g} × {height:g} mm"


def _mat_items(layout: MatLayout, preset: Preset, fonts: FontSet, style: MatStyle,
               notes: Sequence[str] = ()) -> list[Item]:
    items = _legs(layout, style)
    for box in layout.boxes.values():
        items += place(box, PlaceState.BLANK, PEN)
    items += _labels(layout, fonts, style)
    items += _key(layout, fonts, style)
    items += _title(layout, preset, fonts, style, notes)
    return items


def _page(name: str, paper: Paper, landscape: bool) -> Page:
    w, h = paper.size
    if landscape:
        w, h = h, w
    return Page(name, w, h, Box(0, 0, w, h), Box(0, 0, w, h))


def _sheet_label(text: str, x: float, y: float, fonts: FontSet, style: MatStyle) -> Text:
    return Text(x, y, text, fonts.regular, style.text_size, INK, anchor=Anchor.MIDDLE)


def mat_document(rows: int, preset: Preset, paper: Paper, fonts: FontSet,
                 style: MatStyle = STYLE) -> Document:
    """The play mat: one landscape page for 3 rows, two portrait pages for 4; a print
    file (PDF/X) for the paper's usual printing condition."""
    layout = plan(rows, preset, paper, style)
    title = say("ladder_print", "mat.document", rows=rows)
    subject = say("ladder_print", "mat.subject")
    mat_w, mat_h = layout.size
    edge = style.printable + style.safety
    if not layout.tiled:
        page = _page("sheet", paper, landscape=True)
        ox = (page.width - mat_w) / 2
        oy = (page.height - mat_h) / 2
        page.layer("mat").add(Group(_mat_items(layout, preset, fonts, style),
                                    Affine.translate(ox, oy)))
        return Document([page], title=title, subject=subject, output_intent=paper_intent(paper))
    join = layout.join
    notes = [say("ladder_print", "mat.assemble")]
    art = _mat_items(layout, preset, fonts, style, notes)
    first, second = (_page(f"sheet-{n}", paper, landscape=False) for n in (1, 2))
    oy = (first.height - mat_h) / 2
    usable = first.width - 2 * edge
    ox1 = edge + (usable - join - style.glue) / 2
    ox2 = edge + (usable - (mat_w - join) - style.cut_strip) / 2 + style.cut_strip - join
    label_y = layout.boxes[Slot(1, 0)].center[1]  # between two ticks
    foot_y = mat_h + (oy - edge) / 2 + fonts.regular.metrics.cap_height_mm(style.text_size) / 2
    ticks = [-3.0, *(layout.boxes[Slot(r, 0)].bottom + layout.gap[1] / 2
                     for r in range(rows - 1)), mat_h + 3.0]
    left: list[Item] = [Group(art, clip=Box(-ox1, -oy, ox1 + join, first.height))]
    left.insert(0, Rect(join, -6.0, style.glue, mat_h + 12.0, fill=GLUE))
    left.append(Line(join, -6.0, join, mat_h + 6.0, Stroke(INK, PEN.outline, (2.0, 1.5))))
    left += [Line(join - style.tick, y, join + style.glue, y, _ink_stroke(PEN.outline))
             for y in ticks]
    left.append(Text(join + style.glue / 2, label_y, say("ladder_print", "mat.glue"),
                     fonts.regular, style.text_size, INK, anchor=Anchor.MIDDLE,
                     rotation=90.0))
    left.append(_sheet_label(say("ladder_print", "mat.sheet", n=1), join / 2, foot_y,
                             fonts, style))
    right: list[Item] = [Group(art, clip=Box(join, -oy, second.width - ox2 - join,
                                             second.height))]
    right.append(Line(join, -6.0, join, mat_h + 6.0, _ink_stroke(PEN.outline)))
    right += [Line(join - style.cut_strip + 1.0, y, join + style.tick, y,
                   _ink_stroke(PEN.outline)) for y in ticks]
    right.append(Text(join - style.cut_strip / 2, label_y, say("ladder_print", "mat.cut"),
                      fonts.regular, style.text_size, INK, anchor=Anchor.MIDDLE,
                      rotation=90.0))
    right.append(_sheet_label(say("ladder_print", "mat.sheet", n=2), (join + mat_w) / 2,
                              foot_y, fonts, style))
    first.layer("mat").add(Group(left, Affine.translate(ox1, oy)))
    second.layer("mat").add(Group(right, Affine.translate(ox2, oy)))
    return Document([first, second], title=title, subject=subject,
                    output_intent=paper_intent(paper))

