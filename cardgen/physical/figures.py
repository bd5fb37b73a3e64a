"""The card's two folds side by side, seen end-on (``card-folds``): grids inside, a
business card; grids outside, a tent standing between two players, one grid toward each.

Drawn from the physical card (:mod:`cardgen.physical.card`): each half is as long as the
folded card is high, and which face each fold shows outside and which it hides inside
comes from :class:`~cardgen.physical.card.Fold`. The paper is drawn thick, as two strips
side by side, one per face, in that face's colour: the business side's black, and the
inside in the grids' tints (blue for grid A's half, red for grid B's, as on the card).

The strips are fills; the table line is solid black at 0.5 pt and all type is solid
black set to overprint, at 6 pt or more (the ink rule).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from cardgen.board.art import GRID_TINTS
from cardgen.board.cells import Grid
from cardgen.draw.colors import INK, Color
from cardgen.draw.geometry import Point
from cardgen.draw.page import CLOSE, Anchor, Item, Line, LineTo, MoveTo, Path, Stroke, Text
from cardgen.physical.card import PRESETS, CardGeometry, Fold, Preset, Side
from cardgen.text.figure import Figure
from cardgen.text.fit import fit_line, line_height
from cardgen.text.fonts import FontSet
from cardgen.texts import say
from cardgen.units import MM_PER_PT

OUTSIDE_FACE = Color.cmyk(0, 0, 0, 100)  # the dark theme's business side
GRID_A_FACE = GRID_TINTS[Grid.A]
GRID_B_FACE = GRID_TINTS[Grid.B]


@dataclass(frozen=True)
class FoldStyle:
    """Angles (degrees from the table), sizes (mm, type in pt) of the figure."""

    tilt: tuple[float, float] = (78.0, 58.0)  # each half: business card, tent
    face: float = 0.8  # the width of one face's strip (the paper drawn thick)
    panel_gap: float = 8.0  # between the two drawings
    heading_size: float = 7.0
    label_size: float = 6.5
    min_size: float = 6.0
    label_gap: float = 1.5  # from a face to its label
    heading_gap: float = 3.0  # from the heading to the drawing's top
    table: float = 0.5 * MM_PER_PT  # the table's line
    max_drawing: float = 42.0  # the tallest the drawings get


FOLDS = (Fold.CARD, Fold.TENT)


class FoldFigure:
    """Both folds side by side, each under its heading, standing on a table line."""

    def __init__(self, fonts: FontSet, style: FoldStyle | None = None) -> None:
        self.fonts = fonts
        self.style = style or FoldStyle()
        self.half = CardGeometry(PRESETS[Preset.EU]).size.height  # a half's length

    # --- words -----------------------------------------------------------------------
    def _heading(self, fold: Fold) -> str:
        return say("folds", "heading.card") if fold is Fold.CARD else say("folds",
                                                                           "heading.tent")

    def _face_labels(self, fold: Fold) -> tuple[str, str]:
        """The labels beside the upper half's face and the lower half's, as each fold
        shows them."""
        if fold.stretched is Side.OUTSIDE:
            return say("folds", "face.back"), say("folds", "face.front")
        return say("folds", "face.grid_a"), say("folds", "face.grid_b")

    # --- layout ----------------------------------------------------------------------
    def _label_room(self) -> float:
        st, face = self.style, self.fonts.regular
        words = [w for fold in FOLDS for w in self._face_labels(fold)]
        return max(face.width(w, st.label_size) for w in words) + st.label_gap + st.face

    def _scale(self, width: float) -> float:
        """mm of the drawing per mm of the card: the widest drawing (with a label each
        side) fits its half of the width, and the tallest stays under max_drawing."""
        st = self.style
        panel = (width - st.panel_gap) / 2
        spans = [2 * self.half * math.cos(math.radians(t)) for t in st.tilt]
        by_width = min((panel - 2 * self._label_room()) / span for span in spans)
        tallest = max(self.half * math.sin(math.radians(t)) for t in st.tilt)
        return min(by_width, st.max_drawing / tallest)

    def _drawing_height(self, width: float) -> float:
        tallest = max(self.half * math.sin(math.radians(t)) for t in self.style.tilt)
        return self._scale(width) * tallest

    def height(self, width: float) -> float:
        st = self.style
        return (line_height(st.heading_size) + st.heading_gap + self._drawing_height(width)
                + st.table + line_height(st.label_size) + st.label_gap)

    # --- drawing ---------------------------------------------------------------------
    def draw(self, x: float, y: float, width: float) -> list[Item]:
        st = self.style
        panel = (width - st.panel_gap) / 2
        scale = self._scale(width)
        heading_base = y + line_height(st.heading_size) - self.fonts.bold.metrics.descent_mm(
            st.heading_size)
        table_y = y + line_height(st.heading_size) + st.heading_gap + self._drawing_height(width)
        items: list[Item] = []
        for i, (fold, tilt) in enumerate(zip(FOLDS, st.tilt, strict=True)):
            left = x + i * (panel + st.panel_gap)
            centre = left + panel / 2
            heading = self._heading(fold)
            size = fit_line(heading, self.fonts.bold, st.heading_size, st.min_size, panel,
                            "the fold figure's heading")
            items.append(Text(centre, heading_base, heading, self.fonts.bold, size, INK,
                              anchor=Anchor.MIDDLE, name=f"folds-heading-{fold}"))
            items += self._card(fold, tilt, centre, table_y, scale * self.half)
            items.append(Line(left, table_y + st.table / 2, left + panel, table_y + st.table / 2,
                              Stroke(INK, st.table)))
        # The two players of the tent sit at the table's ends, each facing their grid.
        label_y = table_y + st.table + st.label_gap + line_height(st.label_size) \
            - self.fonts.regular.metrics.descent_mm(st.label_size)
        tent_left = x + panel + st.panel_gap
        for text, at, anchor in ((say("folds", "player.a"), tent_left, Anchor.START),
                                 (say("folds", "player.b"), x + width, Anchor.END)):
            items.append(Text(at, label_y, text, self.fonts.regular, st.label_size, INK,
                              anchor=anchor, name="folds-player"))
        return items

    def _card(self, fold: Fold, tilt: float, cx: float, table_y: float,
              length: float) -> list[Item]:
        """One folded card end-on: the ridge (the fold) on top at cx, the upper half
        (grid A, the back panel) going down to the left, the lower half (grid B, the
        front panel) to the right, feet on the table."""
        st = self.style
        t = math.radians(tilt)
        apex = (cx, table_y - length * math.sin(t))
        colours = {Side.OUTSIDE: (OUTSIDE_FACE, OUTSIDE_FACE),
                   Side.INSIDE: (GRID_A_FACE, GRID_B_FACE)}
        outer, inner = colours[fold.stretched], colours[fold.pressed]
        items: list[Item] = []
        labels = self._face_labels(fold)
        for k, sign in enumerate((-1.0, 1.0)):  # the upper half left, the lower right
            down = (sign * math.cos(t), math.sin(t))
            out = (sign * math.sin(t), -math.cos(t))  # away from the tent's hollow
            foot = _add(apex, down, length)  # on the table
            # The outer face: a strip along the half, square at the ridge, where a wedge
            # closes it to the top; the inner face: a strip mitred where the two meet.
            # Both stand on the table.
            edge = _add(apex, out, st.face)
            items.append(_polygon([apex, foot, _on_table(edge, down, table_y), edge], outer[k]))
            items.append(_polygon([apex, edge, (apex[0], apex[1] - st.face)], outer[k]))
            inner_apex = (apex[0], apex[1] + st.face / math.cos(t))
            items.append(_polygon([apex, foot, _on_table(_add(apex, out, -st.face), down, table_y),
                                   inner_apex], inner[k]))
            middle = _add(_add(apex, down, length * 0.55), out, st.face + st.label_gap)
            items.append(Text(middle[0], middle[1] + self.fonts.regular.metrics.cap_height_mm(
                st.label_size) / 2, labels[k], self.fonts.regular, st.label_size, INK,
                anchor=Anchor.END if sign < 0 else Anchor.START, name=f"folds-face-{fold}"))
        return items


def _add(p: Point, d: Point, k: float) -> Point:
    return (p[0] + d[0] * k, p[1] + d[1] * k)


def _on_table(start: Point, down: Point, table_y: float) -> Point:
    """Where the line from ``start`` along ``down`` meets the table."""
    return _add(start, down, (table_y - start[1]) / down[1])


def _polygon(points: list[Point], fill: Color) -> Path:
    return Path((MoveTo(*points[0]), *(LineTo(*p) for p in points[1:]), CLOSE), fill=fill)


FIGURES: dict[str, Callable[[FontSet], Figure]] = {"card-folds": FoldFigure}
