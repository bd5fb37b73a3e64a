"""Printed Rotator boards and answer keys, as page items for the shared renderers.

A board is drawn as it appears inside the card: grid A turned 180° above grid B, the
Nodes as dots, their territories shaded; beside it, pointers at the start and goal rows
and a tally of the boost cache. Answer keys draw every event of the winning line
(:func:`key_events`) on the board: a triangle per move pointing the way gravity took the
player (hollow for a fall, filled for a drill or boost), a diamond for a start picked
after a capture, a ring for a captured Node, a box for the goal, each square's turn
numbers on white over everything; boosted squares are orange and hatched, so that a
black-and-white print keeps them apart from the territories. :class:`RotatorPuzzle` is a
board as the puzzle book (``prepress.puzzlebook``) prints it, with its compact turn table
and the play aids of the players' pages.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from cardgen.board.art import GridStyle, grid_items
from cardgen.board.cells import GRID_SIZE, Cell, Grid, card_name
from cardgen.board.frame import LABEL_BAND, BoardFrame
from cardgen.draw.colors import INK, KNOCKOUT_INK, PAPER_WHITE, Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Group, Item, Line, Path, PathOp, Rect, Stroke, Text
from cardgen.draw.shapes import circle, pointer, polygon
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.describe import ARROWS, start_name, turn_text
from cardgen.games.rotator.engine import BOOST_CACHE, GRAVITY, Terrain, TurnReport, replay
from cardgen.games.rotator.solver import StartResult, Status
from cardgen.physical.card import PRESETS, CardGeometry, Preset
from cardgen.text.fit import line_height, wrap
from cardgen.text.flow import Paragraph, flow
from cardgen.text.fonts import FontSet
from cardgen.texts import say, say_lines

NUMBER = INK  # small type: solid black, overprinting
MIN_COLOUR_LINE = 0.18  # mm (just over 0.5 pt): coloured lines are at least this wide
KEY_MIN_TYPE = 5.0  # pt: a key's turn numbers are never smaller (they wrap instead)
FINE_STROKE = MIN_COLOUR_LINE  # the outline of a fall's triangle
HATCH_LINE = 0.1  # mm: the hatching of a boosted square, solid black (≥ 0.25 pt)
TERRITORY = Color.cmyk(0, 0, 0, 22)
# The ink rule (SPEC §2): grid lines, the grids' borders and their labels are solid
# black set to overprint at every size, as on the card; the grey a board shows is its
# territories' light fill, never a tint in a line or a label.
GRID_INK = NUMBER
PATH = Color.cmyk(95, 55, 0, 5)
BOOST = Color.cmyk(0, 55, 100, 0)
BOOST_TINT = 0.35  # boosted cells are shaded in this tint of BOOST
CAPTURE = Color.cmyk(0, 90, 85, 0)
CARD_CELL = CardGeometry(PRESETS[Preset.EU]).cell  # boards "as on the card" use its squares
LARGE_CELL = 9.0  # mm: a large board on a page of its own size
BAND_SHARE = 0.62  # the label band grows with the cell beyond LABEL_BAND
# A board's extent in cells for fitting it to an area: 10 × 20 cells plus its label bands
# (2 × BAND_SHARE = 1.24 cells), rounded up to leave a little slack.
# The aid column beside the board (start and goal row pointers, the boost tally) is
# AID_COLUMN cells wide after a gap of AID_GAP cells.
AID_GAP = 0.15
AID_COLUMN = 0.8
TALLY_FIRST_ROW = 4  # page row (0 = the start row) of the tally's first box
SCALE_EXTENT = (11.3 + AID_GAP + AID_COLUMN, 21.3)


def band_for(cell: float) -> float:
    """The label band: 3 mm on a card-sized board, growing with larger cells."""
    return max(LABEL_BAND, BAND_SHARE * cell)


def board_extent(cell: float) -> tuple[float, float]:
    """Width and height of a board with its label bands."""
    band = band_for(cell)
    return GRID_SIZE * cell + 2 * band, 2 * GRID_SIZE * cell + 2 * band


def card_board_items(rmap: RotatorMap, frame: BoardFrame, fonts: FontSet,
                between: list[Item] | None = None) -> list[Item]:
    """The board as on the card: white panel, shaded territories, grids, Node dots.
    ``between`` is drawn over the shading but under the grid and the dots."""
    band = band_for(frame.cell)
    panel = frame.board.inset(-band)
    items: list[Item] = [Rect(panel.x, panel.y, panel.w, panel.h, fill=PAPER_WHITE)]
    for cell in sorted(rmap.solid):
        box = frame.board_cell(*cell)
        items.append(Rect(box.x, box.y, box.w, box.h, fill=TERRITORY))
    items += between or []
    line_width = max(0.12, frame.cell * 0.025)
    border_width = max(0.25, frame.cell * 0.05)
    style = GridStyle(GRID_INK, GRID_INK, GRID_INK, fonts.regular, band,
                      line_width=line_width, border_width=border_width)
    for grid in Grid:
        items.append(Group(grid_items(grid, frame.cell, style, draw_fold=grid is Grid.B),
                           transform=frame.grid_to_page(grid), name=f"grid-{grid}"))
    for centre in rmap.nodes:
        cx, cy = frame.board_cell(*centre).center
        items.append(Path(circle(cx, cy, frame.cell * 0.28), fill=KNOCKOUT_INK))
    return items


class Entry(enum.Enum):
    """One event of the winning line on a square of the key."""

    START = "start"  # the top-row square picked before turn 1
    PICK = "pick"  # a start picked in a captured territory after a capture
    FALL = "fall"
    DRILL = "drill"
    BOOST = "boost"
    CAPTURE = "capture"  # a Node's centre
    GOAL = "goal"  # where the line reaches the goal row


MOVES = (Entry.START, Entry.FALL, Entry.DRILL, Entry.BOOST)  # drawn as triangles


@dataclass(frozen=True)
class KeyEvent:
    """One event of a line: in ``turn``, ``kind`` happened on ``cell`` under ``gravity``."""

    turn: int
    kind: Entry
    cell: Cell
    gravity: Cell

    @property
    def name(self) -> str:
        """The name of the event's mark on the key, e.g. ``t7 drill A:I7``."""
        return f"t{self.turn} {self.kind.value} {card_name(self.cell)}"


def key_events(start: int, reports: Sequence[TurnReport], nodes: tuple[Cell, ...],
               ) -> list[KeyEvent]:
    """Every event of a line, in the order it happened: each one gets a mark on the key."""
    events = [KeyEvent(1, Entry.START, (start, 0), GRAVITY[0])]
    for r in reports:
        def add(kind: Entry, cell: Cell, r: TurnReport = r) -> None:
            events.append(KeyEvent(r.turn, kind, cell, r.gravity))
        if r.start is not None:
            add(Entry.PICK, r.start)
        for cell in r.fall:
            add(Entry.FALL, cell)
        if r.drill is not None:
            add(Entry.DRILL, r.drill)
        for cell in r.boosted:
            add(Entry.BOOST, cell)
        if r.captured is not None:
            add(Entry.CAPTURE, nodes[r.captured])
        for cell in r.fall_after:
            add(Entry.FALL, cell)
        if r.won:
            add(Entry.GOAL, r.end)
    return events


def hatch(box: Box, color: Color, width: float, lines: int = 3) -> list[Item]:
    """Diagonal lines across ``box`` (bottom-left to top-right): the cue that tells a
    boosted square from a territory's grey on a black-and-white printer."""
    items: list[Item] = []
    for i in range(1, 2 * lines + 1, 2):
        t = i / (2 * lines)  # where the line crosses the box's diagonal band
        d = 2 * t  # 0..2 along the anti-diagonals
        ax, ay = (box.x, box.y + d * box.h) if d <= 1 else (box.x + (d - 1) * box.w,
                                                            box.y + box.h)
        bx, by = (box.x + d * box.w, box.y) if d <= 1 else (box.x + box.w,
                                                             box.y + (d - 1) * box.h)
        items.append(Line(ax, ay, bx, by, Stroke(color, width)))
    return items


def diamond(box: Box, share: float) -> tuple[PathOp, ...]:
    """A square standing on its corner, centred in ``box``, ``share`` of its width across."""
    cx, cy = box.center
    r = box.w * share / 2
    return polygon([(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)])


def key_items(board: RotatorPuzzle, frame: BoardFrame, fonts: FontSet,
              ) -> tuple[list[Item], list[Item]]:
    """The winning line drawn on the board: (fills to go under the grid and the Node
    dots, marks to go over them). Every event of :func:`key_events` is a named group;
    each square's turn numbers are drawn last, on paper white, so nothing covers them."""
    if board.start is None:
        return [], []
    events = key_events(board.start, board.reports, board.rmap.nodes)
    by_cell: dict[Cell, list[KeyEvent]] = {}
    for event in events:
        by_cell.setdefault(event.cell, []).append(event)
    s = frame.cell
    fills: list[Item] = []
    marks: list[Item] = []
    rings: list[Item] = []
    labels: list[Item] = []
    number_size = min(7.0, s * 0.95)
    thin = max(FINE_STROKE, s * 0.03)
    centres = set(board.rmap.nodes)
    for cell, here in by_cell.items():
        box = frame.board_cell(*cell)
        moves = [e for e in here if e.kind in MOVES]
        if any(e.kind is Entry.BOOST for e in here):
            fills.append(Rect(box.x, box.y, box.w, box.h, fill=BOOST.tint(BOOST_TINT)))
            fills += hatch(box, NUMBER, HATCH_LINE)
        # On a Node's black dot a lone triangle is white; triangles sharing the square
        # stick out of the dot, so they keep their colour over a white halo.
        n = len(moves)
        on_dot = cell in centres
        color = PAPER_WHITE if on_dot and n == 1 else PATH
        for i, event in enumerate(moves):
            sub = box if n == 1 else Box(box.x + i * s / n, box.y + 0.3 * s, s / n, 0.7 * s)
            filled = event.kind in (Entry.DRILL, Entry.BOOST)
            shape = pointer(sub, event.gravity, 0.27 if n == 1 else 0.42)
            halo: list[Item] = ([Path(shape, fill=PAPER_WHITE,
                                      stroke=Stroke(PAPER_WHITE, 3 * thin))]
                                if on_dot and n > 1 else [])
            marks.append(Group([*halo, Path(shape, fill=color if filled else None,
                                            stroke=None if filled else Stroke(color, thin))],
                               name=event.name))
        for event in here:
            if event.kind is Entry.PICK:  # a start picked after a capture: a diamond
                rings.append(Group([Path(diamond(box, 0.8), stroke=Stroke(
                    PATH, max(0.3, s * 0.05)))], name=event.name))
            elif event.kind is Entry.CAPTURE:  # a captured Node: a red ring
                cx, cy = box.center
                rings.append(Group([Path(circle(cx, cy, s * 0.44), stroke=Stroke(
                    CAPTURE, max(0.3, s * 0.06)))], name=event.name))
            elif event.kind is Entry.GOAL:  # the goal reached: a red square
                rings.append(Group([Rect(box.x, box.y, box.w, box.h, stroke=Stroke(
                    CAPTURE, max(0.3, s * 0.07)))], name=event.name))
        turns = ",".join(str(t) for t in dict.fromkeys(
            e.turn for e in here if e.kind is not Entry.GOAL))
        if turns:
            tx, ty = box.x + s * 0.04, box.y + s * 0.04
            pad = s * 0.03
            room = s - 2 * (s * 0.04 + pad)
            # Long lists ("3,7,11") shrink to stay inside their square, down to
            # KEY_MIN_TYPE; below that they break after a comma onto more lines.
            size = max(KEY_MIN_TYPE, min(number_size, number_size * room
                                         / fonts.regular.width(turns, number_size)))
            lines = _turn_lines(turns, fonts, size, room)
            width = max(fonts.regular.width(line, size) for line in lines)
            height = fonts.regular.metrics.cap_height_mm(size)
            pitch = line_height(size) * 0.85
            tall = height + (len(lines) - 1) * pitch
            labels.append(Group([
                Rect(tx - pad, ty - pad, width + 2 * pad, tall + 2 * pad, fill=PAPER_WHITE),
                *(Text(tx, ty + height + n * pitch, line, fonts.regular, size, NUMBER)
                  for n, line in enumerate(lines))],
                name=f"turns {card_name(cell)}"))
    return fills, marks + rings + labels


def _turn_lines(turns: str, fonts: FontSet, size: float, room: float) -> list[str]:
    """A square's turn list ("3,7,11") in lines no wider than ``room`` mm at ``size``,
    broken after commas (a single number wider than the room keeps its line)."""
    lines: list[str] = []
    for number in turns.split(","):
        if lines and fonts.regular.width(f"{lines[-1]},{number}", size) <= room:
            lines[-1] = f"{lines[-1]},{number}"
        else:
            if lines:
                lines[-1] += ","
            lines.append(number)
    return lines


def aid_column(frame: BoardFrame, filled: int = 0) -> list[Item]:
    """Beside the board: pointers at the start row and the goal row, and a tally of ten
    boxes for the boost cache (on a key, the boxes its line spends are filled)."""
    s = frame.cell
    x = frame.x + frame.grid_size + band_for(s) + AID_GAP * s
    w = AID_COLUMN * s
    items: list[Item] = []
    for name, row in (("start row", 0), ("goal row", 2 * GRID_SIZE - 1)):
        box = Box(x, frame.y + row * s, w, s)
        items.append(Group([Path(pointer(box, (-1, 0), 0.42), fill=PATH)], name=name))
    side = min(w, s * 0.8)
    line = Stroke(NUMBER, max(MIN_COLOUR_LINE / 2 + 0.01, s * 0.04))  # black over the orange
    tally: list[Item] = []
    for i in range(BOOST_CACHE):
        top = frame.y + (TALLY_FIRST_ROW + i) * s + (s - side) / 2
        tally.append(Rect(x + (w - side) / 2, top, side, side,
                          fill=BOOST if i < filled else PAPER_WHITE, stroke=line))
    items.append(Group(tally, name="boost tally"))
    return items


TRACKER_SIZE = 7.0  # pt: the words of the turn tracker
TRACKER_ARROW_SIZE = 9.0  # pt
TRACKER_TURNS = 6  # turns listed beside each gravity (1, 5, 9, … 21)
TRACKER_SHARE = 0.42  # of the width: the gravity rows; the rest holds the notes
TRACKER_ROW = 4.2  # mm: one gravity row
TRACKER_TURN = 9.5  # mm: one turn's box and number


def tracker_height(width: float, fonts: FontSet) -> float:
    """Height of :func:`tracker_items` at ``width``: the taller of its two halves."""
    lh = line_height(TRACKER_SIZE)
    rows = lh + len(GRAVITY) * TRACKER_ROW
    notes = sum(len(wrap(n, fonts.regular, TRACKER_SIZE, width * (1 - TRACKER_SHARE))
                    or [n]) for n in tracker_notes()) * lh
    return max(rows, notes)


def tracker_notes() -> list[str]:
    return say_lines("rotator", "aids.notes")


def tracker_items(x: float, y: float, width: float, fonts: FontSet) -> list[Item]:
    """The players' page strip: gravity by turn (↓ → ↑ ←, each with its turns to tick
    off) and notes on collapse, the start and goal rows and the boost tally."""
    items: list[Item] = []
    lh = line_height(TRACKER_SIZE)
    cap = fonts.regular.metrics.cap_height_mm(TRACKER_SIZE)
    items.append(Text(x, y + cap, say("rotator", "aids.tracker"), fonts.bold, TRACKER_SIZE,
                      NUMBER))
    box = cap * 1.25
    for g, gravity in enumerate(GRAVITY):
        base = y + lh + (g + 0.5) * TRACKER_ROW + cap / 2  # the row's baseline
        items.append(Text(x + 1.5, base + 0.3, ARROWS[gravity], fonts.bold,
                          TRACKER_ARROW_SIZE, PATH, anchor=Anchor.MIDDLE))
        for k in range(TRACKER_TURNS):
            tx = x + 5 + k * TRACKER_TURN
            items.append(Rect(tx, base - cap - (box - cap) / 2, box, box,
                              stroke=Stroke(NUMBER, MIN_COLOUR_LINE / 2 + 0.01)))
            items.append(Text(tx + box + 0.8, base, str(1 + g + len(GRAVITY) * k),
                              fonts.regular, TRACKER_SIZE, NUMBER))
    notes = Box(x + width * TRACKER_SHARE, y, width * (1 - TRACKER_SHARE),
                tracker_height(width, fonts) + lh)
    for lines in flow([Paragraph(n, fonts.regular, TRACKER_SIZE, NUMBER)
                       for n in tracker_notes()], [notes], where="the turn tracker"):
        items += lines
    return [Group(items, name="turn tracker")]


@dataclass(frozen=True)
class RotatorPuzzle:
    """A board to print, with its captions and (for keys) its winning line."""

    rmap: RotatorMap
    caption: str = ""  # under the board on the players' pages (no spoilers)
    start: int | None = None  # top-row column of the line
    reports: tuple[TurnReport, ...] = ()
    key_caption: str = ""  # under the board on its answer key
    card_unit: float = CARD_CELL
    large_unit: float = LARGE_CELL
    scale_extent: tuple[float, float] = SCALE_EXTENT

    @property
    def ident(self) -> str:
        return self.rmap.board_id

    @staticmethod
    def print_size_at(unit: float) -> tuple[float, float]:
        """Width and height of any board with its aid column at ``unit``."""
        w, h = board_extent(unit)
        return w + (AID_GAP + AID_COLUMN) * unit, h

    def print_size(self, unit: float) -> tuple[float, float]:
        return self.print_size_at(unit)

    @property
    def boosts(self) -> int:
        """Boost spaces the key's line spends."""
        return sum(len(r.boosted) for r in self.reports)

    def draw(self, x: float, y: float, unit: float, fonts: FontSet, *,
             key: bool) -> list[Item]:
        band = band_for(unit)
        frame = BoardFrame(x + band, y + band, unit)
        fills, marks = key_items(self, frame, fonts) if key else ([], [])
        return (card_board_items(self.rmap, frame, fonts, between=fills) + marks
                + aid_column(frame, self.boosts if key else 0))

    def key_table(self) -> list[tuple[str, str]]:
        """The line as a compact table: (turn and gravity, what happens) per row, the
        start first."""
        if self.start is None:  # the caption says why (no line, undecided), if it is set
            return [] if self.key_caption else [("", say("rotator", "key.no_line"))]
        rows = [("", say("rotator", "key.start", cell=start_name(self.start)))]
        for r in self.reports:
            turn, _, what = turn_text(r, self.rmap.nodes).partition(": ")
            rows.append((turn.removeprefix("Turn "), what))
        return rows

    def key_legend(self) -> str:
        return say("rotator", "key.legend")

    def aids_height(self, width: float, fonts: FontSet) -> float:
        return tracker_height(width, fonts)

    def aids(self, x: float, y: float, width: float, fonts: FontSet) -> list[Item]:
        return tracker_items(x, y, width, fonts)


def printed_board(rmap: RotatorMap, line: StartResult | None, caption: str = "",
                  key_caption: str = "") -> RotatorPuzzle:
    """A board to print; with a winning ``line``, its answer key can be drawn too."""
    if line is None or line.status is not Status.WIN:
        return RotatorPuzzle(rmap, caption, key_caption=key_caption)
    reports = replay(Terrain.from_map(rmap), line.start, line.choices)
    return RotatorPuzzle(rmap, caption, line.start, tuple(reports), key_caption)
