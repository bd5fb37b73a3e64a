"""Figures for the Node games (Reflector, Deflector, Defector), drawn from the models:
a Node's territory on a grid drawn like the card's (:mod:`cardgen.board.territory`,
:mod:`cardgen.board.art`), and the table arrangements (:mod:`cardgen.games.nodes.tables`).

:func:`arrangement_items` draws an arrangement at any scale: small for a rules figure
(``Look.FIGURE``: each grid a tinted square with its Row 1 and Column A marked), or at
the card's own size for a play sheet (``Look.CARD``: every square and label as on the
card). Either way a stretch of edge that touches another grid is drawn thick, a bridge
(a link the rules make across open table) is drawn thick at both ends with a dashed line
between them, and each player's seat is a numbered disc beyond their grid's Row 10.

The worked examples of the Reflector and Deflector chapters (``reflector-exchange``,
``deflector-chain``, ``deflector-fired``: :class:`ExampleFigure`) are the shipped records
of SPEC §9.8 (``templates/records/``) replayed by the rules engine: each picture is the
engine's position after a move, with what the move did marked from its report, and every
mark is a Group named after the fact it shows (:func:`mark_name`).

Type under 8 pt and thin lines are solid black set to overprint; the seat numbers are
paper white on a solid black disc (the ink rule).
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from cardgen.board.art import GRID_TINTS, GridStyle, grid_items
from cardgen.board.cells import GRID_SIZE, Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.draw.colors import INK, PAPER_WHITE, Color
from cardgen.draw.geometry import Affine, Box, Point
from cardgen.draw.page import (
    Anchor,
    Group,
    Item,
    Line,
    Path,
    Rect,
    Stroke,
    Text,
)
from cardgen.draw.shapes import circle, polygon
from cardgen.errors import CardgenError
from cardgen.games.names import GameName
from cardgen.games.nodes import engine
from cardgen.games.nodes.model import CARD_GRID, Role, space_name, territory
from cardgen.games.nodes.record import (
    Answer,
    MoveReport,
    Record,
    Spot,
    coord_name,
    spot_name,
)
from cardgen.games.nodes.recordfile import example_record, read_record
from cardgen.games.nodes.state import Fact, State, reading
from cardgen.games.nodes.tables import (
    Arrangement,
    Contact,
    End,
    Kind,
    Layout,
    Polygon,
    arrangement,
    layout,
    overlap,
)
from cardgen.text.figure import Figure
from cardgen.text.flow import Paragraph, flow
from cardgen.text.fonts import FontFace, FontSet
from cardgen.texts import say, say_lines
from cardgen.units import MM_PER_PT

BLUE = GRID_TINTS[CARD_GRID[Role.PUBLIC]]  # the card's grid A tint
RED = GRID_TINTS[CARD_GRID[Role.PRIVATE]]  # the card's grid B tint
GREY = Color.cmyk(0, 0, 0, 100)


class Look(enum.StrEnum):
    FIGURE = "figure"  # small: tinted squares, Row 1 and Column A marked
    CARD = "card"  # full size: every square and label, as on the card


@dataclass(frozen=True)
class ArrangementStyle:
    """Strokes (mm), type (pt) and tints of a drawn arrangement."""

    outline: float = 0.5 * MM_PER_PT
    contact: float = 1.8 * MM_PER_PT  # a touching or bridged stretch
    bridge: float = 0.6 * MM_PER_PT  # the dashed line across a bridge
    bridge_dash: tuple[float, ...] = (1.2, 0.9)
    fold_dash: tuple[float, ...] = (1.6, 1.0)
    label_size: float = 6.0  # "Row 1", "A", role words
    seat_size: float = 7.5  # the player's number in the seat disc
    seat_radius: float = 2.1  # mm
    seat_gap: float = 1.2  # mm from Row 10 to the disc's edge
    fill: float = 0.10  # a grid's tint
    band: float = 0.30  # the Row 1 and Column A bands' tint
    roomy: float = 0.62  # the most of a square's side the labels' capitals may fill
    label_gap: float = 0.45  # mm between a band and its label when the label is beside it
    bridge_inset: float = 0.9  # mm: a bridge's dashed line stops short of the edges
    stretch_gap: float = 0.35  # mm: a thick stretch stops short of its ends
    link_gap: float = 1.0  # mm from a stretch to the label naming where it leads
    legend_size: float = 7.0  # pt: the legend under a figure
    legend_gap: float = 3.0  # mm from the arrangement to its legend
    legend_sample: float = 7.0  # mm: a legend entry's sample line
    legend_spacing: float = 4.0  # mm between two legend entries on a line


STYLE = ArrangementStyle()
# At the card's size the seats clear the column letters beyond Row 10.
CARD_STYLE = ArrangementStyle(seat_gap=LABEL_BAND + 1.5, seat_size=9.0, seat_radius=2.8)


def _tint(role: Role) -> Color:
    return {Role.PUBLIC: BLUE, Role.PRIVATE: RED, Role.ISLAND: GREY}[role]


def _role_word(role: Role) -> str:
    match role:
        case Role.PUBLIC:
            return say("tables", "role.public")
        case Role.PRIVATE:
            return say("tables", "role.private")
        case Role.ISLAND:
            return say("tables", "role.island")


def _text(x: float, y: float, text: str, face: FontFace, size: float,
          color: Color = INK, rotation: float = 0.0) -> Text:
    """Type centred on (x, y) both ways."""
    lift = face.metrics.cap_height_mm(size) / 2
    if rotation == 0:
        return Text(x, y + lift, text, face, size, color, anchor=Anchor.MIDDLE)
    r = math.radians(rotation)
    return Text(x - lift * math.sin(r), y + lift * math.cos(r), text, face, size, color,
                anchor=Anchor.MIDDLE, rotation=rotation)


def seat_items(center: Point, player: int, fonts: FontSet, style: ArrangementStyle) -> list[Item]:
    """A player's seat: a solid black disc with the number in paper white."""
    x, y = center
    return [Path(circle(x, y, style.seat_radius), fill=INK),
            _text(x, y, str(player), fonts.bold, style.seat_size, PAPER_WHITE)]


def seat_point(lay: Layout, grid_id: str, style: ArrangementStyle) -> Point:
    """The seat's centre on the page: beyond the middle of Row 10."""
    g = lay.arrangement.grid(grid_id)
    distance = (style.seat_gap + style.seat_radius) / lay.cell
    return lay.point(g.seat(distance))


def _reads_upright(rotation: float) -> float:
    """The rotation (degrees) at which to set a label running along a grid turned by
    ``rotation``, so that it is never upside down for the reader of the page."""
    return (rotation + 90) % 180 - 90


def _figure_grid(lay: Layout, grid_id: str, fonts: FontSet, style: ArrangementStyle,
                 roles: bool) -> list[Item]:
    """One grid, small: a tinted square, its Row 1 and Column A bands, their labels."""
    out = lay.outline(grid_id)
    g = out.grid
    s = lay.cell
    side = GRID_SIZE * s
    tint = _tint(g.role)
    inner: list[Item] = [
        Rect(0, 0, side, side, fill=tint.tint(style.fill)),
        Rect(0, 0, side, s, fill=tint.tint(style.band)),
        Rect(0, s, s, side - s, fill=tint.tint(style.band)),
    ]
    face, size = fonts.regular, style.label_size
    cap = face.metrics.cap_height_mm(size)
    upright = _reads_upright(g.rotation) - g.rotation
    column_a = say("tables", "label.column_a")
    if cap <= s * style.roomy:  # the labels in the bands
        row_y, a_x = s / 2, s / 2
    else:  # small squares: beside the bands, inside the grid
        row_y = s + style.label_gap + cap / 2
        a_x = s + style.label_gap + face.metrics.width(column_a, size) / 2
    inner.append(_text(side / 2 + s / 2, row_y, say("tables", "label.row_1"), face, size,
                       rotation=upright))
    inner.append(_text(a_x, side - s / 2, column_a, face, size, rotation=upright))
    inner.append(Rect(0, 0, side, side, stroke=Stroke(INK, style.outline)))
    items: list[Item] = [Group(inner, transform=out.transform, name=f"grid-{grid_id}")]
    if roles:
        items += _role_items(lay.point((g.x, g.y)), g.role, g.player, fonts, size)
    return items


def _role_items(center: Point, role: Role, player: int, fonts: FontSet,
                size: float) -> list[Item]:
    """A grid's role in bold and, under it, whose it is."""
    cx, cy = center
    if role is Role.ISLAND:
        return [_text(cx, cy, _role_word(role), fonts.bold, size)]
    pitch = size * 1.2 * MM_PER_PT
    return [_text(cx, cy - pitch / 2, _role_word(role), fonts.bold, size),
            _text(cx, cy + pitch / 2, say("tables", "label.owner", player=player),
                  fonts.regular, size)]


def _free(lay: Layout, grid_id: str, band: Box) -> bool:
    """Whether a band in a grid's own frame (mm) lies clear of every other grid."""
    t = lay.outline(grid_id).transform
    poly: Polygon = tuple(t.apply(x, y) for x, y in band.corners())
    return not any(overlap(poly, o.corners) for o in lay.grids if o.grid.id != grid_id)


def _card_grid(lay: Layout, grid_id: str, fonts: FontSet, style: ArrangementStyle,
               roles: bool) -> list[Item]:
    """One grid at the card's size: every square, the column letters beyond Row 10 and
    the row numbers beside Column A, each set only where it falls clear of the other
    grids."""
    out = lay.outline(grid_id)
    g = out.grid
    s = lay.cell
    side = GRID_SIZE * s
    band = LABEL_BAND * s / 4.9 if s > 4.9 else LABEL_BAND
    grid_style = GridStyle(INK, INK, INK, fonts.regular, band, line_width=0.1,
                           border_width=style.outline,
                           where="the table arrangement's grid labels")
    letters = _free(lay, grid_id, Box(0, side, side, band))
    numbers = _free(lay, grid_id, Box(-band, 0, band, side))
    kept = grid_items(Grid.B, s, grid_style, columns=letters, rows=numbers)
    tint = _tint(g.role)
    inner: list[Item] = [Rect(0, 0, side, side, fill=tint.tint(style.fill)),
                         Rect(0, 0, side, s, fill=tint.tint(style.band)), *kept]
    items: list[Item] = [Group(inner, transform=out.transform, name=f"grid-{grid_id}")]
    if roles:
        items += _role_items(lay.point((g.x, g.y)), g.role, g.player, fonts, 9.0)
    return items


def _midpoint(segment: tuple[Point, Point]) -> Point:
    (ax, ay), (bx, by) = segment
    return ((ax + bx) / 2, (ay + by) / 2)


def _stretch_line(segment: tuple[Point, Point], stroke: Stroke, gap: float) -> Line:
    """A stretch drawn thick, ``gap`` short of each end so that two stretches along one
    edge (its halves) show as two."""
    (x1, y1), (x2, y2) = segment
    length = math.hypot(x2 - x1, y2 - y1)
    k = min(gap / length, 0.2) if length else 0.0
    return Line(x1 + k * (x2 - x1), y1 + k * (y2 - y1), x2 - k * (x2 - x1), y2 - k * (y2 - y1),
                stroke)


@dataclass(frozen=True)
class Link:
    """A bridge's dashed line on the page, between the middles of its two stretches
    (each end stopped :attr:`ArrangementStyle.bridge_inset` short)."""

    contact: Contact
    start: Point
    end: Point


def _link(lay: Layout, contact: Contact, style: ArrangementStyle) -> Link:
    (x1, y1), (x2, y2) = _midpoint(lay.stretch(contact.a)), _midpoint(lay.stretch(contact.b))
    length = math.hypot(x2 - x1, y2 - y1)
    k = min(style.bridge_inset / length, 0.25) if length else 0.0
    return Link(contact, (x1 + k * (x2 - x1), y1 + k * (y2 - y1)),
                (x2 - k * (x2 - x1), y2 - k * (y2 - y1)))


def segments_cross(p: Point, q: Point, r: Point, t: Point, tolerance: float = 1e-6) -> bool:
    """Whether segments p-q and r-t meet anywhere (crossing, touching or overlapping)."""
    def orient(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    def within(a: Point, b: Point, c: Point) -> bool:
        return (min(a[0], b[0]) - tolerance <= c[0] <= max(a[0], b[0]) + tolerance
                and min(a[1], b[1]) - tolerance <= c[1] <= max(a[1], b[1]) + tolerance)

    d1, d2 = orient(r, t, p), orient(r, t, q)
    d3, d4 = orient(p, q, r), orient(p, q, t)
    if ((d1 > tolerance and d2 < -tolerance) or (d1 < -tolerance and d2 > tolerance)) and \
            ((d3 > tolerance and d4 < -tolerance) or (d3 < -tolerance and d4 > tolerance)):
        return True
    return any(abs(d) <= tolerance and within(a, b, c) for d, a, b, c in
               ((d1, r, t, p), (d2, r, t, q), (d3, p, q, r), (d4, p, q, t)))


def links(lay: Layout, style: ArrangementStyle) -> tuple[list[Link], list[Link]]:
    """Every bridge's link, as (drawn, labelled): a link that would meet another link
    is not drawn as a line (ten of them crossed in the middle of the five-player
    figure); both its stretches are labelled with the player it leads to instead, and
    so are the other links of a stretch that is labelled."""
    every = [_link(lay, c, style) for c in lay.arrangement.contacts if c.kind is Kind.BRIDGE]
    meets = {i for i, a in enumerate(every) for j, b in enumerate(every)
             if i != j and segments_cross(a.start, a.end, b.start, b.end)}
    # A stretch is labelled or has lines, never both (a line would run through its
    # label): every link of a labelled stretch is labelled too.
    while True:
        ends = {str(e) for i in meets for e in (every[i].contact.a, every[i].contact.b)}
        more = {i for i, k in enumerate(every)
                if str(k.contact.a) in ends or str(k.contact.b) in ends} - meets
        if not more:
            break
        meets |= more
    return ([k for i, k in enumerate(every) if i not in meets],
            [k for i, k in enumerate(every) if i in meets])


def link_labels(lay: Layout, labelled: Sequence[Link], fonts: FontSet,
                style: ArrangementStyle) -> list[Item]:
    """Beside each stretch of a labelled link, on the open table's side: "to 3", the
    players whose grids it is joined to (several for a stretch joined to several)."""
    ends: dict[str, tuple[End, list[int]]] = {}
    for link in labelled:
        for end, other in ((link.contact.a, link.contact.b), (link.contact.b, link.contact.a)):
            key = str(end)
            ends.setdefault(key, (end, []))[1].append(lay.arrangement.grid(other.grid).player)
    face, size = fonts.bold, style.label_size
    cap = face.metrics.cap_height_mm(size)
    items: list[Item] = []
    for key, (end, players) in ends.items():
        text = say("tables", "label.link", players=", ".join(str(p) for p in sorted(players)))
        (x1, y1), (x2, y2) = lay.stretch(end)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        g = lay.arrangement.grid(end.grid)
        cx, cy = lay.point((g.x, g.y))
        if nx * (mx - cx) + ny * (my - cy) < 0:  # away from the grid, onto open table
            nx, ny = -nx, -ny
        w = face.width(text, size)
        reach = style.link_gap + abs(nx) * w / 2 + abs(ny) * cap / 2
        items.append(Group([_text(mx + nx * reach, my + ny * reach, text, face, size)],
                           name=f"link-label {key}"))
    return items


def contact_items(lay: Layout, style: ArrangementStyle, fonts: FontSet) -> list[Item]:
    """Every contact: a touching stretch drawn thick once; a bridge's two stretches
    thick with a dashed line between their middles, or, where that line would meet
    another (:func:`links`), each stretch labelled with the player it leads to; the fold
    of a card that is stood up dashed (it is where the card bends, not a way across)."""
    thick = Stroke(INK, style.contact)
    items: list[Item] = []
    for contact in lay.arrangement.contacts:
        a, b = lay.stretch(contact.a), lay.stretch(contact.b)
        if contact.kind is Kind.FOLD and lay.arrangement.stand:
            items.append(Line(*a[0], *a[1], Stroke(INK, style.contact * 0.6,
                                                   style.fold_dash)))
            continue
        items.append(_stretch_line(a, thick, style.stretch_gap))
        if contact.kind is Kind.BRIDGE:
            items.append(_stretch_line(b, thick, style.stretch_gap))
    drawn, labelled = links(lay, style)
    for link in drawn:
        items.append(Group([Line(*link.start, *link.end,
                                 Stroke(INK, style.bridge, style.bridge_dash))],
                           name=f"link {link.contact}"))
    return items + link_labels(lay, labelled, fonts, style)


class Sample(enum.StrEnum):
    """What a legend entry shows."""

    JOINED = "joined"  # a thick edge
    LINK = "link"  # a dashed line across open table
    LABEL = "label"  # "to 3" beside an edge
    FOLD = "fold"  # the fold of a card stood up


def samples(lay: Layout, style: ArrangementStyle) -> list[Sample]:
    """What a legend of this arrangement must explain, in the legend's order."""
    arr = lay.arrangement
    drawn, labelled = links(lay, style)
    found = [Sample.JOINED] if any(not (c.kind is Kind.FOLD and arr.stand)
                                   for c in arr.contacts) else []
    found += [Sample.LINK] if drawn else []
    found += [Sample.LABEL] if labelled else []
    found += [Sample.FOLD] if arr.stand and any(c.kind is Kind.FOLD
                                                for c in arr.contacts) else []
    return found


def _legend_entries(kinds: Sequence[Sample], fonts: FontSet, style: ArrangementStyle,
                    ) -> list[tuple[Sample, float]]:
    """Each entry and its width: its sample, then its words."""
    example = say("tables", "label.link", players="3")
    out = []
    for kind in Sample:
        if kind in kinds:
            sample = (fonts.bold.width(example, style.label_size) if kind is Sample.LABEL
                      else style.legend_sample)
            words = fonts.regular.width(say("tables", f"legend.{kind}"), style.legend_size)
            out.append((kind, sample + 1.5 + words))
    return out


def _legend_rows(kinds: Sequence[Sample], fonts: FontSet, style: ArrangementStyle,
                 width: float) -> list[list[tuple[Sample, float]]]:
    rows: list[list[tuple[Sample, float]]] = []
    used = 0.0
    for entry in _legend_entries(kinds, fonts, style):
        if rows and used + style.legend_spacing + entry[1] <= width:
            rows[-1].append(entry)
            used += style.legend_spacing + entry[1]
        else:
            rows.append([entry])
            used = entry[1]
    return rows


def legend_height(kinds: Sequence[Sample], fonts: FontSet, style: ArrangementStyle,
                  width: float) -> float:
    """How tall the legend is (0 without entries), with its gap above."""
    rows = _legend_rows(kinds, fonts, style, width)
    if not rows:
        return 0.0
    pitch = style.legend_size * 1.5 * MM_PER_PT
    return style.legend_gap + len(rows) * pitch


def legend_items(kinds: Sequence[Sample], fonts: FontSet, style: ArrangementStyle, x: float,
                 y: float, width: float) -> list[Item]:
    """The legend under a table figure, from ``y`` (its gap included), each line
    centred across ``width``: a sample of each kind of mark the figure uses, then what it
    means (a Group named "legend", each entry "legend-KIND")."""
    rows = _legend_rows(kinds, fonts, style, width)
    if not rows:
        return []
    pitch = style.legend_size * 1.5 * MM_PER_PT
    example = say("tables", "label.link", players="3")
    entries: list[Item] = []
    for n, row in enumerate(rows):
        used = sum(w for _, w in row) + style.legend_spacing * (len(row) - 1)
        left = x + (width - used) / 2
        mid = y + style.legend_gap + (n + 0.5) * pitch
        for kind, w in row:
            parts: list[Item] = []
            end = left + style.legend_sample
            if kind is Sample.JOINED:
                parts.append(Line(left, mid, end, mid, Stroke(INK, style.contact)))
            elif kind is Sample.LINK:
                parts.append(Line(left, mid, end, mid,
                                  Stroke(INK, style.bridge, style.bridge_dash)))
            elif kind is Sample.FOLD:
                parts.append(Line(left, mid, end, mid, Stroke(INK, style.contact * 0.6,
                                                              style.fold_dash)))
            else:
                end = left + fonts.bold.width(example, style.label_size)
                parts.append(_text((left + end) / 2, mid, example, fonts.bold,
                                   style.label_size))
            parts.append(Text(end + 1.5, mid + fonts.regular.metrics.cap_height_mm(
                style.legend_size) / 2, say("tables", f"legend.{kind}"), fonts.regular,
                style.legend_size, INK))
            entries.append(Group(parts, name=f"legend-{kind}"))
            left += w + style.legend_spacing
    return [Group(entries, name="legend")]


def arrangement_items(lay: Layout, fonts: FontSet, look: Look = Look.FIGURE,
                      style: ArrangementStyle | None = None, seats: bool = True) -> list[Item]:
    """An arrangement laid out by :func:`cardgen.games.nodes.tables.layout`: every grid, the
    contacts, the players' seats (``seats``) and, where grids of several roles lie on
    the table, each grid's role. For a play sheet at the card's size::

        margin = seat_margin(Look.CARD)
        lay = layout(arrangement("table-4-partial"), geometry.cell, x, y, margin)
        items = arrangement_items(lay, fonts, Look.CARD)

    ``style`` defaults to the look's (:data:`STYLE`, :data:`CARD_STYLE`)."""
    style = style or (CARD_STYLE if look is Look.CARD else STYLE)
    arr = lay.arrangement
    roles = any(g.role is not Role.PUBLIC for g in arr.grids)
    draw = _card_grid if look is Look.CARD else _figure_grid
    items: list[Item] = []
    for g in arr.grids:
        items += draw(lay, g.id, fonts, style, roles)
    items += contact_items(lay, style, fonts)
    if seats:
        for player in range(1, arr.players + 1):
            grid = arr.seat_grid(player)
            items += seat_items(seat_point(lay, grid.id, style), player, fonts, style)
    return items


def seat_margin(look: Look = Look.FIGURE) -> float:
    """How far (mm) the seats reach beyond the grids in a look's default style: the
    margin to give :func:`cardgen.games.nodes.tables.layout`."""
    style = CARD_STYLE if look is Look.CARD else STYLE
    return style.seat_gap + 2 * style.seat_radius + 0.5


def _extent(arr: Arrangement, cell: float, style: ArrangementStyle) -> Box:
    """The box (mm, table frame scaled) around the grids and the seats."""
    distance = (style.seat_gap + style.seat_radius) / cell
    r = style.seat_radius / cell
    points = [p for g in arr.grids for p in g.corners()]
    for player in range(1, arr.players + 1):
        x, y = arr.seat_grid(player).seat(distance)
        points += [(x - r, y - r), (x + r, y + r)]
    box = Box.around(points)
    return Box(box.x * cell, box.y * cell, box.w * cell, box.h * cell)


def fit_layout(arr: Arrangement, x: float, y: float, width: float, max_height: float,
               style: ArrangementStyle = STYLE, max_cell: float = math.inf) -> Layout:
    """The arrangement as large as fits ``width`` × ``max_height`` (mm), seats included,
    with squares no larger than ``max_cell``, centred across the width, its top (seats
    included) at ``y``."""
    cell = 3.0
    for _ in range(6):  # the seats' size is fixed in mm: converge on the scale
        box = _extent(arr, cell, style)
        cell = min(cell * min(width / box.w, max_height / box.h), max_cell)
    box = _extent(arr, cell, style)
    grids = arr.bounds()
    left = x + (width - box.w) / 2 + (grids.x * cell - box.x)
    top = y + (grids.y * cell - box.y)
    return layout(arr, cell, left, top)


@dataclass(frozen=True)
class TableFigure:
    """One arrangement as a rules figure: as wide as the column, at most
    ``max_height`` tall."""

    fonts: FontSet
    name: str
    max_height: float = 85.0
    max_cell: float = 3.2  # mm: a diagram, not a board to play on
    style: ArrangementStyle = STYLE

    def _layout(self, x: float, y: float, width: float) -> Layout:
        return fit_layout(arrangement(self.name), x, y, width, self.max_height, self.style,
                          self.max_cell)

    def height(self, width: float) -> float:
        arr = arrangement(self.name)
        lay = self._layout(0, 0, width)
        return _extent(arr, lay.cell, self.style).h + legend_height(
            samples(lay, self.style), self.fonts, self.style, width)

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        """The arrangement, and under it the legend of its marks."""
        lay = self._layout(x, y, width)
        below = y + _extent(lay.arrangement, lay.cell, self.style).h
        return [*arrangement_items(lay, self.fonts, Look.FIGURE, self.style),
                *legend_items(samples(lay, self.style), self.fonts, self.style, x, below,
                              width)]


@dataclass(frozen=True)
class PanelsFigure:
    """Arrangements side by side at one scale, each under a short heading (data), as
    large as the column's width and ``max_height`` allow."""

    fonts: FontSet
    names: tuple[str, ...]
    headings: tuple[str, ...] = ()
    gap: float = 6.0  # mm between panels
    heading_size: float = 7.0
    max_height: float = 100.0
    style: ArrangementStyle = STYLE

    def _head(self) -> float:
        return 2.4 * self.heading_size * MM_PER_PT if self.headings else 0.0

    def _scale(self, width: float) -> tuple[float, list[Box]]:
        """The common square size and each panel's extent at it."""
        arrs = [arrangement(n) for n in self.names]
        room = width - self.gap * (len(arrs) - 1)
        cell = 2.0
        for _ in range(8):  # the seats are a fixed size in mm: converge on the scale
            boxes = [_extent(a, cell, self.style) for a in arrs]
            cell *= min(room / sum(b.w for b in boxes),
                        (self.max_height - self._head()) / max(b.h for b in boxes))
        return cell, [_extent(a, cell, self.style) for a in arrs]

    def _samples(self, cell: float) -> list[Sample]:
        found = {k for n in self.names
                 for k in samples(layout(arrangement(n), cell), self.style)}
        return [k for k in Sample if k in found]

    def height(self, width: float) -> float:
        cell, boxes = self._scale(width)
        return self._head() + max(b.h for b in boxes) + legend_height(
            self._samples(cell), self.fonts, self.style, width)

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        cell, boxes = self._scale(width)
        used = sum(b.w for b in boxes) + self.gap * (len(boxes) - 1)
        left = x + (width - used) / 2
        tallest = max(b.h for b in boxes)
        items: list[Item] = []
        for i, (name, box) in enumerate(zip(self.names, boxes, strict=True)):
            arr = arrangement(name)
            grids = arr.bounds()
            top = y + self._head() + (tallest - box.h) / 2
            lay = layout(arr, cell, left + grids.x * cell - box.x, top + grids.y * cell - box.y)
            if self.headings:
                items.append(Text(left + box.w / 2,
                                  y + self.fonts.bold.metrics.cap_height_mm(self.heading_size),
                                  self.headings[i], self.fonts.bold, self.heading_size, INK,
                                  anchor=Anchor.MIDDLE))
            items += arrangement_items(lay, self.fonts, Look.FIGURE, self.style)
            left += box.w + self.gap
        items += legend_items(self._samples(cell), self.fonts, self.style, x,
                              y + self._head() + tallest, width)
        return items


def reflector_two_cards(fonts: FontSet) -> PanelsFigure:
    return PanelsFigure(fonts, ("reflector-fold", "reflector-cut"),
                        (say("tables", "heading.fold"), say("tables", "heading.cut")))


def reflector_three_cards(fonts: FontSet) -> PanelsFigure:
    return PanelsFigure(fonts, ("reflector-three-cards",), max_height=80.0)


# --- territories ------------------------------------------------------------------------

FIGURE_BAND = 3.2  # mm: a label band a little over the card's, so labels stay >= 6 pt


@dataclass(frozen=True)
class Hatch:
    """Diagonal hatching drawn square by square, so it reads without colour: ``rising``
    lines run from bottom left to top right."""

    rising: bool
    lines: int = 2  # per square, along each diagonal direction
    width: float = 0.3 * MM_PER_PT

    def items(self, x: float, y: float, s: float) -> list[Item]:
        stroke = Stroke(INK, self.width)
        out: list[Item] = []
        n = self.lines
        for k in range(1, 2 * n):
            t = k * s / n  # the line x + y = t (rising) in the square's own frame
            a = (max(0.0, t - s), min(s, t))
            b = (min(s, t), max(0.0, t - s))
            if self.rising:
                out.append(Line(x + a[0], y + a[1], x + b[0], y + b[1], stroke))
            else:
                out.append(Line(x + s - a[0], y + a[1], x + s - b[0], y + b[1], stroke))
        return out


def mix(tints: Sequence[Color]) -> Color:
    """Tints printed over each other: their inks added (each plate at most 100 %)."""
    c, m, y, k = (min(1.0, sum(t.cmyk_fractions[i] for t in tints)) * 100 for i in range(4))
    return Color.cmyk(c, m, y, k)


def _grid_style(fonts: FontSet) -> GridStyle:
    return GridStyle(INK, INK, INK, fonts.regular, FIGURE_BAND, line_width=0.1,
                     border_width=0.25, where="the territory figure's grid labels")


def _node_dot(cx: float, cy: float, cell: float) -> Path:
    return Path(circle(cx, cy, cell * 0.22), fill=INK)


def territory_grid(x: float, y: float, cell: float, fonts: FontSet,
                   areas: Sequence[tuple[frozenset[tuple[int, int]], Color, Hatch | None]],
                   nodes: Sequence[tuple[int, int]]) -> list[Item]:
    """A 10 × 10 grid as on the card (top-left corner of Row 1 at (x, y)), its squares
    in ``areas`` filled (tints overlaid) and hatched, a dot on each Node."""
    items: list[Item] = []
    fills: dict[tuple[int, int], list[Color]] = {}
    for cells, tint, _ in areas:
        for c in cells:
            fills.setdefault(c, []).append(tint)
    for (col, row), tints in sorted(fills.items()):
        items.append(Rect(x + col * cell, y + (row - 1) * cell, cell, cell, fill=mix(tints)))
    for cells, _, hatch in areas:
        if hatch is not None:
            for col, row in sorted(cells):
                items += hatch.items(x + col * cell, y + (row - 1) * cell, cell)
    items.append(Group(grid_items(Grid.B, cell, _grid_style(fonts)),
                       transform=Affine.translate(x, y)))
    for col, row in nodes:
        items.append(_node_dot(x + (col + 0.5) * cell, y + (row - 0.5) * cell, cell))
    return items


def _lines_height(fonts: FontSet, size: float, lines: int) -> float:
    return fonts.regular.metrics.cap_height_mm(size) + (lines - 1) * size * 1.25 * MM_PER_PT


@dataclass(frozen=True)
class TerritoryFigure:
    """Two grids side by side: a Node's whole territory (13 squares) and one clipped
    by the grid's edge, each with its count under it."""

    fonts: FontSet
    nodes: tuple[tuple[int, int], ...] = ((3, 6), (9, 4))  # D6 inside, J4 on an edge
    gap: float = 8.0
    size: float = 7.0
    max_cell: float = 4.9  # never larger than the card's squares

    def _cell(self, width: float) -> float:
        per_grid = (width - self.gap) / 2 - FIGURE_BAND
        return min(per_grid / GRID_SIZE, self.max_cell)

    def height(self, width: float) -> float:
        cell = self._cell(width)
        return GRID_SIZE * cell + FIGURE_BAND + 2.5 + _lines_height(self.fonts, self.size, 1)

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        cell = self._cell(width)
        side = GRID_SIZE * cell
        total = 2 * (side + FIGURE_BAND) + self.gap
        left = x + (width - total) / 2 + FIGURE_BAND
        items: list[Item] = []
        for i, node in enumerate(self.nodes):
            gx = left + i * (side + FIGURE_BAND + self.gap)
            cells = territory(*node)
            items += territory_grid(gx, y, cell, self.fonts,
                                    [(cells, BLUE.tint(0.28), None)], [node])
            text = say("tables", "territory.count", count=len(cells))
            items.append(Text(gx + side / 2, y + side + FIGURE_BAND + 2.5
                              + self.fonts.regular.metrics.cap_height_mm(self.size),
                              text, self.fonts.regular, self.size, INK, anchor=Anchor.MIDDLE))
        return items


@dataclass(frozen=True)
class OverlapFigure:
    """One Node captured while the Target still holds another whose diamond covers it:
    the held Node's squares hatched one way, the captured Node's the other way, the
    shared squares both ways (kept: they do not change hands, and the held Node among
    them is revealed), and the captured Node itself, though inside the other diamond,
    hatched as won and ringed (the capturer's). A key beside the grid says which is
    which, naming both Nodes."""

    fonts: FontSet
    held: tuple[int, int] = (3, 4)  # D4, still the Target's
    captured: tuple[int, int] = (4, 5)  # E5, inside D4's diamond
    share: float = 0.58  # of the width, for the grid
    size: float = 7.0
    max_cell: float = 4.9

    def __post_init__(self) -> None:
        if self.captured not in territory(*self.held):
            raise ValueError("the captured Node must lie in the held Node's territory")

    @property
    def nodes(self) -> tuple[tuple[int, int], tuple[int, int]]:
        return (self.held, self.captured)

    def areas(self) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]],
                             frozenset[tuple[int, int]]]:
        """(the held Node's squares only, the squares won with the captured Node (its
        own square included), the kept squares (shared, the held Node included))."""
        held, captured = territory(*self.held), territory(*self.captured)
        kept = (held & captured) - {self.captured}
        return held - captured, (captured - held) | {self.captured}, kept

    def _cell(self, width: float) -> float:
        return min((width * self.share - FIGURE_BAND) / GRID_SIZE, self.max_cell)

    def height(self, width: float) -> float:
        return GRID_SIZE * self._cell(width) + FIGURE_BAND

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        cell = self._cell(width)
        held_only, won, kept = self.areas()
        rising, falling = Hatch(rising=True), Hatch(rising=False)
        blue, red = BLUE.tint(0.22), RED.tint(0.22)
        gx = x + FIGURE_BAND
        items = territory_grid(gx, y, cell, self.fonts,
                               [(held_only | kept, blue, rising), (won | kept, red, falling)],
                               self.nodes)
        ring = cell * 0.36
        cx, cy = gx + (self.captured[0] + 0.5) * cell, y + (self.captured[1] - 0.5) * cell
        items.append(_ring(cx, cy, ring))
        held, captured = space_name(self.held), space_name(self.captured)
        key_x = gx + GRID_SIZE * cell + 5.0
        swatch = min(cell, 4.5)
        cap = self.fonts.regular.metrics.cap_height_mm(self.size)
        line = self.size * 1.25 * MM_PER_PT
        rows = [(say_lines("tables", "territory.first", held=held), [(blue, rising)], None),
                (say_lines("tables", "territory.second", captured=captured), [(red, falling)],
                 None),
                (say_lines("tables", "territory.shared", count=len(kept)),
                 [(blue, rising), (red, falling)], None),
                (say_lines("tables", "territory.captured", captured=captured, held=held), [],
                 "captured"),
                (say_lines("tables", "territory.node", held=held), [], "node")]
        heights = [max(swatch, cap + (len(label) - 1) * line) for label, _, _ in rows]
        gap = 2.2
        top = y + (GRID_SIZE * cell - sum(heights) - gap * (len(rows) - 1)) / 2
        sy = top
        for (label, looks, mark), h in zip(rows, heights, strict=True):
            if looks:
                items.append(Rect(key_x, sy, swatch, swatch, fill=mix([c for c, _ in looks])))
                for _, hatch in looks:
                    items += hatch.items(key_x, sy, swatch)
                items.append(Rect(key_x, sy, swatch, swatch, stroke=Stroke(INK, 0.1)))
            else:
                items.append(_node_dot(key_x + swatch / 2, sy + swatch / 2, swatch))
                if mark == "captured":
                    items.append(_ring(key_x + swatch / 2, sy + swatch / 2, swatch * 0.36))
            first = sy + swatch / 2 + cap / 2 if len(label) == 1 else sy + cap
            for i, text in enumerate(label):
                items.append(Text(key_x + swatch + 2.0, first + i * line, text,
                                  self.fonts.regular, self.size, INK))
            sy += h + gap
        return items


def _ring(cx: float, cy: float, r: float) -> Path:
    """A ring round a Node's dot: the Node is the capturer's."""
    return Path(circle(cx, cy, r), stroke=Stroke(INK, 0.35))


TABLE_FIGURES: Sequence[str] = ("table-3", "table-4-full", "table-4-partial", "table-5-full",
                                "table-5-partial", "defector-full", "defector-island")

FIGURES: dict[str, Callable[[FontSet], Figure]] = {
    "territory": TerritoryFigure,
    "territory-overlap": OverlapFigure,
    "reflector-two-cards": reflector_two_cards,
    "reflector-three-cards": reflector_three_cards,
    **{name: partial(TableFigure, name=name) for name in TABLE_FIGURES},
}


# --- worked examples, played by the engine ------------------------------------------------
#
# The rules book's worked examples are the shipped records (templates/records/, SPEC
# §9.8's two worked games) replayed by the engine: each picture is the engine's position
# after one move, as the Public grids show it (symbols, shading, Node dots, used
# Deflectors), with what the move did marked from the engine's report. Every mark is a
# Group named "KIND GRID:SPACE" (:func:`mark_name`), so a test can hold the drawing
# against the report; nothing of the game is placed by hand.


@dataclass(frozen=True)
class Step:
    """One move of a worked example: its index in the record, the engine's position
    after it and the engine's report of it."""

    move: int
    state: State
    report: MoveReport


def worked(record: Record, moves: Sequence[int]) -> tuple[Step, ...]:
    """``record`` replayed by the engine up to the last of ``moves``; the steps of
    ``moves`` (indices from 1), in order."""
    state = engine.start(record)
    wanted = set(moves)
    if not wanted or max(wanted) > len(record.moves) or min(wanted) < 1:
        raise CardgenError(f"a worked example shows moves 1 to {len(record.moves)} of its "
                           f"record, not {sorted(wanted)}", value=sorted(wanted))
    steps = []
    for i, move in enumerate(record.moves[:max(wanted)], 1):
        state, report = engine.push(state, move, index=i)
        if i in wanted:
            steps.append(Step(i, state, report))
    return tuple(steps)


def shipped(name: str) -> Record:
    """A worked record shipped with cardgen (``reflector``, ``deflector``)."""
    return read_record(example_record(name))


class MarkKind(enum.StrEnum):
    """What one mark of a worked-example picture shows, in drawing order."""

    SHADE = "shade"  # known to lie in a territory (Owned, a captured territory, kept)
    KEPT = "kept"  # kept at this move's capture: shaded, no symbol (hatched)
    SYMBOL = "symbol"  # the holder's symbol in a won space
    SLASH = "slash"  # a used Deflector
    NODE = "node"  # a Node whose place is known, not captured: a dot
    CAPTURED = "captured"  # a captured Node: a ringed dot
    WON = "won"  # changed holder in this move: a black corner
    SHOT = "shot"  # the space the Shooter named: a heavy frame
    REFLECTED = "reflected"  # the space handed over by reflection: a dashed frame
    TERRITORY = "territory"  # the territory of a Node captured in this move: outlined
    LANDING = "landing"  # a landing of a deflected or fired shot: a numbered disc
    LEG = "leg"  # a shot's way from one landing to the next: an arrow


@dataclass(frozen=True)
class Mark:
    kind: MarkKind
    spot: Spot
    text: str = ""  # a symbol, a landing's number
    to: Spot | None = None  # a leg's end


def mark_name(mark: Mark) -> str:
    """``won P2:B2``, ``landing P4:F1``, ``leg P3:F1 P4:F1``."""
    name = f"{mark.kind} {spot_name(mark.spot)}"
    return name if mark.to is None else f"{name} {spot_name(mark.to)}"


@dataclass(frozen=True)
class Leg:
    """One stretch of a deflected or fired shot, ``start`` None for the named shot's
    first landing; ``number`` counts the move's landings from 1."""

    start: Spot | None
    land: Spot
    answer: Answer
    number: int
    source: Spot | None = None  # the Deflector that fired it, for a fired shot's first


def legs(report: MoveReport) -> tuple[Leg, ...]:
    """The landings of a move in order: the named shot's, then each fired shot's."""
    out: list[Leg] = []
    prev: Spot | None = None
    for spot, answer in zip(report.path, report.answers, strict=True):
        out.append(Leg(prev, spot, answer, len(out) + 1))
        prev = spot
    for fired in report.fired:
        prev = fired.source
        for k, (spot, answer) in enumerate(zip(fired.path, fired.answers, strict=True)):
            out.append(Leg(prev, spot, answer, len(out) + 1, fired.source if k == 0 else None))
            prev = spot
    return tuple(out)


def marks(step: Step) -> list[Mark]:
    """Every mark of a picture: the position as the Public grids show it (from the
    engine's state and what play has made public), then what the move did (from the
    engine's report)."""
    st, r = step.state, step.report
    setup = st.setup
    ordered = sorted(st.facts.items(), key=lambda item: reading(item[0]))
    out = [Mark(MarkKind.SHADE, s) for s, facts in ordered if Fact.COVERED in facts]
    out += [Mark(MarkKind.KEPT, s) for s in r.kept]
    out += [Mark(MarkKind.SYMBOL, s, setup.symbols[p])
            for s, p in sorted(st.marks.items(), key=lambda item: reading(item[0]))
            if not setup.is_node(s)]
    out += [Mark(MarkKind.SLASH, s) for s in sorted(st.used, key=reading)]
    out += [Mark(MarkKind.CAPTURED if s in st.marks else MarkKind.NODE, s)
            for s, facts in ordered if Fact.NODE in facts]
    out += [Mark(MarkKind.WON, s) for spots in r.won.values() for s in spots]
    if r.path:
        out.append(Mark(MarkKind.SHOT, r.path[0]))
    if r.reflection is not None:
        out.append(Mark(MarkKind.REFLECTED, r.reflection.at))
    out += [Mark(MarkKind.TERRITORY, n) for n in r.captured]
    if len(legs(r)) > 1:  # a single landing needs no numbers
        for leg in legs(r):
            if leg.start is not None:
                out.append(Mark(MarkKind.LEG, leg.start, to=leg.land))
            out.append(Mark(MarkKind.LANDING, leg.land, str(leg.number)))
    return out


SHADE = Color.cmyk(0, 0, 0, 22)  # a space known to lie in a territory, as the pencil shades it


@dataclass(frozen=True)
class ExampleStyle:
    """Strokes (mm), type (pt) and tints of the worked-example pictures."""

    shade: Color = SHADE
    symbol_size: float = 6.5
    heading_size: float = 7.0
    text_size: float = 7.0
    heavy: float = 1.1 * MM_PER_PT  # a captured territory's outline
    shot: float = 1.6 * MM_PER_PT  # the named space's frame, inside the square
    mark_line: float = 0.5 * MM_PER_PT  # slashes, rings, arrows, dashed frames
    dash: tuple[float, ...] = (0.8, 0.5)
    corner: float = 0.34  # of a square: the black corner of a space won in this move
    disc: float = 0.46  # of a square: a landing's numbered disc
    gap: float = 6.0  # mm between the two grids of a Reflector picture
    max_cell: float = 4.4  # a Reflector picture's square, at most
    table_cell: float = 3.0  # a table's square, at most
    table_height: float = 92.0  # a table, seats included, at most
    swatch: float = 3.6  # a key's sample square


EXAMPLE_STYLE = ExampleStyle()


def _square_marks(mark: Mark, s: float, fonts: FontSet, st: ExampleStyle) -> list[Item]:
    """One mark in its grid's own frame (square (c, r) at (c*s, (r-1)*s))."""
    _, col, row = mark.spot
    x, y = col * s, (row - 1) * s
    cx, cy = x + s / 2, y + s / 2
    thin = Stroke(INK, st.mark_line)
    match mark.kind:
        case MarkKind.SHADE:
            return [Rect(x, y, s, s, fill=st.shade)]
        case MarkKind.KEPT:
            return Hatch(rising=True).items(x, y, s) + Hatch(rising=False).items(x, y, s)
        case MarkKind.SYMBOL:
            return [_text(cx, cy, mark.text, fonts.regular, st.symbol_size)]
        case MarkKind.SLASH:
            k = s * 0.2
            return [Line(x + k, y + s - k, x + s - k, y + k, thin)]
        case MarkKind.NODE:
            return [_node_dot(cx, cy, s)]
        case MarkKind.CAPTURED:
            return [_node_dot(cx, cy, s), Path(circle(cx, cy, s * 0.38), stroke=thin)]
        case MarkKind.WON:
            c = s * st.corner
            return [Path(polygon([(x + s - c, y), (x + s, y), (x + s, y + c)]), fill=INK)]
        case MarkKind.SHOT:
            d = st.shot / 2
            return [Rect(x + d, y + d, s - 2 * d, s - 2 * d, stroke=Stroke(INK, st.shot))]
        case MarkKind.REFLECTED:
            d = st.mark_line / 2 + s * 0.08
            return [Rect(x + d, y + d, s - 2 * d, s - 2 * d,
                         stroke=Stroke(INK, st.mark_line * 1.6, st.dash))]
        case MarkKind.TERRITORY:
            cells = frozenset((c, r) for c, r in territory(col, row))
            return _outline(cells, s, st.heavy)
        case MarkKind.LANDING:
            return [Path(circle(cx, cy, s * st.disc), fill=INK),
                    _text(cx, cy, mark.text, fonts.bold, st.symbol_size, PAPER_WHITE)]
        case MarkKind.LEG:
            return []  # drawn on the page, across the grids


def _outline(cells: frozenset[tuple[int, int]], s: float, width: float) -> list[Item]:
    """The outer edges of a set of squares (column, row) in a grid's frame."""
    stroke = Stroke(INK, width)
    items: list[Item] = []
    for c, r in sorted(cells):
        x, y = c * s, (r - 1) * s
        if (c, r - 1) not in cells:
            items.append(Line(x, y, x + s, y, stroke))
        if (c, r + 1) not in cells:
            items.append(Line(x, y + s, x + s, y + s, stroke))
        if (c - 1, r) not in cells:
            items.append(Line(x, y, x, y + s, stroke))
        if (c + 1, r) not in cells:
            items.append(Line(x + s, y, x + s, y + s, stroke))
    return items


def _grid_marks(grid: str, found: Sequence[Mark], s: float, fonts: FontSet,
                st: ExampleStyle, lines: list[Item], skip: frozenset[MarkKind] = frozenset(),
                ) -> tuple[list[Item], list[Item]]:
    """A grid's marks in its own frame, but for ``skip`` and the legs: (those under the
    grid's lines, those over)."""
    under: list[Item] = []
    over: list[Item] = []
    for mark in found:
        if mark.spot[0] != grid or mark.kind is MarkKind.LEG or mark.kind in skip:
            continue
        group = Group(_square_marks(mark, s, fonts, st), name=mark_name(mark))
        (under if mark.kind is MarkKind.SHADE else over).append(group)
    return [*under, *lines], over


def _arrow(a: Point, b: Point, width: float, head: float, clear: float) -> list[Item]:
    """A straight arrow from near ``a`` to near ``b`` (``clear`` mm short of each)."""
    (x1, y1), (x2, y2) = a, b
    length = math.hypot(x2 - x1, y2 - y1)
    if length <= 2 * clear + head:
        return []
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    x1, y1, x2, y2 = x1 + ux * clear, y1 + uy * clear, x2 - ux * clear, y2 - uy * clear
    bx, by = x2 - ux * head, y2 - uy * head
    half = head * 0.5
    return [Line(x1, y1, bx + ux * 0.1, by + uy * 0.1, Stroke(INK, width)),
            Path(polygon([(x2, y2), (bx - uy * half, by + ux * half),
                          (bx + uy * half, by - ux * half)]), fill=INK)]


def _owner_words(state: State, spot: Spot, record: Record) -> str:
    owner = state.setup.owners[spot[0]]
    name = next((p.name for p in record.players if p.id == owner), spot[0])
    return say("tables", "example.space", name=name, space=coord_name(spot[1:]))


def _name(record: Record, player: str) -> str:
    return next(p.name for p in record.players if p.id == player)


def _holder_of(report: MoveReport, spot: Spot) -> str | None:
    return next((p for p, spots in report.won.items() if spot in spots), None)


def step_lines(record: Record, step: Step) -> list[str]:
    """What a move did, in words, from the engine's report: who shot where, each
    landing's answer and who won it, the capture, and the reflection."""
    r, st = step.report, step.state
    move = record.moves[step.move - 1]
    by = _name(record, move.by)
    steps = legs(r)
    first = steps[0] if steps else None
    if first is None:
        return [say("tables", "example.pass", move=step.move, name=by)]
    lines = [say("tables", "example.move", move=step.move, name=by,
                 space=_owner_words(st, first.land, record))]
    numbered = len(steps) > 1
    for leg in steps:
        where = _owner_words(st, leg.land, record)
        if leg.source is not None:
            where = say("tables", "example.fired", source=_owner_words(st, leg.source, record),
                        space=where)
        winner = _holder_of(r, leg.land)
        if leg.answer is Answer.DEFLECTOR:
            result = say("tables", "example.deflected")
        elif winner is not None:
            result = say("tables", "example.won_by", name=_name(record, winner))
        else:
            result = say("tables", "example.spent")
        if numbered:
            lines.append(say("tables", "example.landing", number=leg.number, where=where,
                             answer=leg.answer.value, result=result))
        else:
            lines.append(say("tables", "example.answer", answer=leg.answer.value,
                             result=result))
    for node in r.captured:
        if r.reflection is not None and node == r.reflection.at:
            continue
        kept = [s for s in r.kept if s[0] == node[0]]
        lines.append(say("tables", "example.captured", node=coord_name(node[1:]),
                         count=len(_won_in_territory(r, node)) - 1, kept=_kept_words(kept)))
    for node in r.revealed:
        lines.append(say("tables", "example.revealed", node=_owner_words(st, node, record)))
    if r.reflection is not None:
        at = _owner_words(st, r.reflection.at, record)
        if r.reflection.answer is None:
            lines.append(say("tables", "example.reflection_nothing", space=at))
        else:
            node = r.reflection.at
            gets = _holder_of(r, node)
            name = _name(record, gets) if gets else ""
            if node in r.captured:  # a Node conceded: captured, with its territory
                kept = [s for s in r.kept if s[0] == node[0]]
                lines.append(say("tables", "example.reflection_capture", space=at,
                                 name=name, count=len(_won_in_territory(r, node)) - 1,
                                 kept=_kept_words(kept)))
            else:
                lines.append(say("tables", "example.reflection", space=at, name=name,
                                 answer=r.reflection.answer.value))
    return lines


def _kept_words(kept: Sequence[Spot]) -> str:
    if not kept:
        return say("tables", "example.kept_none")
    return say("tables", "example.kept", count=len(kept))


def _won_in_territory(report: MoveReport, node: Spot) -> list[Spot]:
    """The spaces of a captured Node's territory (the Node included) that it won."""
    cells = {(node[0], c, r) for c, r in territory(node[1], node[2])}
    return [s for spots in report.won.values() for s in spots if s in cells]


KEY_ORDER = (MarkKind.SYMBOL, MarkKind.SHADE, MarkKind.SLASH, MarkKind.NODE,
             MarkKind.CAPTURED, MarkKind.SHOT, MarkKind.LANDING, MarkKind.WON,
             MarkKind.TERRITORY, MarkKind.KEPT, MarkKind.REFLECTED)


def _key_sample(kind: MarkKind, x: float, y: float, s: float, fonts: FontSet,
                st: ExampleStyle, symbol: str) -> list[Item]:
    """A key's sample square, drawn as the pictures draw ``kind``."""
    spot: Spot = ("key", 0, 1)
    parts: list[Item] = []
    if kind in (MarkKind.SHADE, MarkKind.KEPT):
        parts += _square_marks(Mark(MarkKind.SHADE, spot), s, fonts, st)
    text = {MarkKind.SYMBOL: symbol, MarkKind.LANDING: "1"}.get(kind, "")
    if kind is MarkKind.TERRITORY:
        third = s / 3
        plus = frozenset({(1, 1), (0, 2), (1, 2), (2, 2), (1, 3)})
        parts += [Rect(0, 0, s, s, fill=st.shade), *_outline(plus, third, st.heavy)]
    else:
        parts += _square_marks(Mark(kind, spot, text), s, fonts, st)
    parts.append(Rect(0, 0, s, s, stroke=Stroke(INK, 0.1)))
    return [Group(parts, transform=Affine.translate(x, y))]


@dataclass(frozen=True)
class ExampleFigure:
    """A worked example: for each of ``moves`` of the shipped record ``name``, the
    engine's position after the move on the Public grids, with what the move did marked
    and said under it; then a key of the marks used."""

    fonts: FontSet
    name: str
    moves: tuple[int, ...]
    record: Record | None = None  # another record instead of the shipped one (tests)
    style: ExampleStyle = EXAMPLE_STYLE

    def _record(self) -> Record:
        return self.record if self.record is not None else shipped(self.name)

    def _parts(self, x: float, y: float, width: float) -> tuple[list[Item], float]:
        record = self._record()
        steps = worked(record, self.moves)
        items: list[Item] = []
        top = y
        used: set[MarkKind] = set()
        for step in steps:
            found = marks(step)
            used |= {m.kind for m in found}
            if record.game is GameName.REFLECTOR:
                drawn, h = self._pair(step, found, record, x, top, width)
            else:
                drawn, h = self._table(step, found, x, top, width)
            items.append(Group(drawn, name=f"move {step.move}"))
            top += h + 1.5
            words, h = self._words(step_lines(record, step), x, top, width)
            items.append(Group(words, name=f"move {step.move} words"))
            top += h + 4.0
        key, h = self._key([k for k in KEY_ORDER if k in used], record, x, top, width)
        items.append(Group(key, name="key"))
        return items, top + h - y

    def _words(self, lines: Sequence[str], x: float, y: float, width: float,
               ) -> tuple[list[Item], float]:
        st = self.style
        paras = [Paragraph(line, self.fonts.bold if i == 0 else self.fonts.regular,
                           st.text_size, INK) for i, line in enumerate(lines)]
        [placed] = flow(paras, [Box(x, y, width, 1000.0)], where="a worked example's words")
        if not placed:
            return [], 0.0
        return list(placed), placed[-1].y - y + self.fonts.regular.metrics.descent_mm(
            st.text_size)

    def _pair(self, step: Step, found: Sequence[Mark], record: Record, x: float, y: float,
              width: float) -> tuple[list[Item], float]:
        """Reflector: the two grids side by side, each as its owner reads it, with the
        owner's name and symbol over it."""
        st = self.style
        s = min((width - st.gap - 2 * FIGURE_BAND) / (2 * GRID_SIZE), st.max_cell)
        side = GRID_SIZE * s
        total = 2 * (FIGURE_BAND + side) + st.gap
        left = x + (width - total) / 2 + FIGURE_BAND
        head = line_height_mm(st.heading_size)
        items: list[Item] = []
        for i, seat in enumerate(record.players):
            gx = left + i * (side + FIGURE_BAND + st.gap)
            heading = say("tables", "example.grid", name=seat.name, symbol=seat.symbol)
            items.append(Text(gx + side / 2, y + self.fonts.bold.metrics.cap_height_mm(
                st.heading_size), heading, self.fonts.bold, st.heading_size, INK,
                anchor=Anchor.MIDDLE))
            lines = grid_items(Grid.B, s, _grid_style(self.fonts))
            under, over = _grid_marks(seat.id, found, s, self.fonts, st, lines)
            items.append(Group([*under, *over], transform=Affine.translate(gx, y + head),
                               name=f"grid {seat.id}"))
        return items, head + side + FIGURE_BAND

    def _table(self, step: Step, found: Sequence[Mark], x: float, y: float, width: float,
               ) -> tuple[list[Item], float]:
        """Deflector and Defector: the table as the arrangement lays it, every grid in its
        place, the shot's way drawn across the grids."""
        st = self.style
        setup = step.state.setup
        arr = arrangement(setup.layout.arrangement or "")
        lay = fit_layout(arr, x, y, width, st.table_height, STYLE, st.table_cell)
        s = lay.cell
        items: list[Item] = []
        where: dict[str, Affine] = {}
        for g in arr.grids:
            rules = f"P{g.player}" if g.role is Role.PUBLIC else None
            out = lay.outline(g.id)
            tint = _tint(g.role)
            side = GRID_SIZE * s
            base: list[Item] = [Rect(0, 0, side, side, fill=tint.tint(STYLE.fill)),
                                Rect(0, 0, side, s, fill=tint.tint(STYLE.band))]
            lines = grid_items(Grid.B, s, _grid_style(self.fonts), columns=False, rows=False)
            if rules is None:
                items.append(Group([*base, *lines], transform=out.transform))
                continue
            where[rules] = out.transform
            under, over = _grid_marks(rules, found, s, self.fonts, st, lines,
                                      frozenset({MarkKind.LANDING}))
            items.append(Group([*base, *under, *over], transform=out.transform,
                               name=f"grid {rules}"))
        table = contact_items(lay, STYLE, self.fonts)
        for player in range(1, arr.players + 1):
            table += seat_items(seat_point(lay, arr.seat_grid(player).id, STYLE), player,
                                self.fonts, STYLE)
        items.append(Group(table, name="table"))

        def centre(spot: Spot) -> Point:
            return where[spot[0]].apply((spot[1] + 0.5) * s, (spot[2] - 0.5) * s)

        for mark in found:
            if mark.kind is MarkKind.LEG and mark.to is not None:
                items.append(Group(_arrow(centre(mark.spot), centre(mark.to),
                                          st.mark_line * 1.6, 1.8, s * 0.55),
                                   name=mark_name(mark)))
        for mark in found:  # upright on the page, whichever way the grid lies
            if mark.kind is MarkKind.LANDING:
                cx, cy = centre(mark.spot)
                disc = Mark(MarkKind.LANDING, (mark.spot[0], 0, 1), mark.text)
                items.append(Group(_square_marks(disc, s, self.fonts, st),
                                   transform=Affine.translate(cx - s / 2, cy - s / 2),
                                   name=mark_name(mark)))
        return items, _extent(arr, s, STYLE).h

    def _key(self, kinds: Sequence[MarkKind], record: Record, x: float, y: float,
             width: float) -> tuple[list[Item], float]:
        """The key: each mark used, its sample and its meaning, in two columns."""
        st, face = self.style, self.fonts.regular
        items: list[Item] = []
        column = (width - 4.0) / 2
        symbol = record.players[0].symbol
        cap = face.metrics.cap_height_mm(st.text_size)
        pitch = st.swatch + 1.6
        rows = (len(kinds) + 1) // 2
        for i, kind in enumerate(kinds):
            kx = x + (i // rows) * (column + 4.0)
            ky = y + (i % rows) * pitch
            entry = _key_sample(kind, kx, ky, st.swatch, self.fonts, st, symbol)
            entry.append(Text(kx + st.swatch + 1.8, ky + st.swatch / 2 + cap / 2,
                              say("tables", f"example.key.{kind}"), face, st.text_size, INK))
            items.append(Group(entry, name=f"key {kind}"))
        return items, rows * pitch - 1.6 if rows else 0.0

    def height(self, width: float) -> float:
        return self._parts(0.0, 0.0, width)[1]

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return self._parts(x, y, width)[0]


def line_height_mm(size: float) -> float:
    return size * 1.35 * MM_PER_PT


EXAMPLE_FIGURES: dict[str, tuple[str, tuple[int, ...]]] = {
    "reflector-exchange": ("reflector", (5, 6)),
    "reflector-concede": ("reflector", (8,)),
    "deflector-chain": ("deflector", (5,)),
    "deflector-fired": ("deflector", (6,)),
}
FIGURES.update({key: partial(ExampleFigure, name=name, moves=moves)
                for key, (name, moves) in EXAMPLE_FIGURES.items()})
