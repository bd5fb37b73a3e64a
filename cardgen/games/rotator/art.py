"""Printed Rotator boards and answer keys, as page items for the shared renderers.

A board is drawn as it appears inside the card: grid A turned 180° above grid B, the
Nodes as dots, their territories shaded. Answer keys draw the winning line on the board
(each entered cell with a triangle pointing the way gravity took the player and the turn
number; drilled cells filled, boosted cells orange, captured Nodes ringed) beside the
line turn by turn in words. :class:`RotatorPuzzle` is a board as the puzzle book
(``prepress.puzzlebook``) prints it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from cardgen.board.art import GridStyle, grid_items
from cardgen.board.cells import GRID_SIZE, Cell, Grid
from cardgen.board.frame import LABEL_BAND, BoardFrame
from cardgen.card.physical import PRESETS, CardGeometry, Preset
from cardgen.draw.colors import Color
from cardgen.draw.page import Group, Item, Path, Rect, Stroke, Text
from cardgen.draw.shapes import circle, pointer
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.describe import start_name, turn_text
from cardgen.games.rotator.engine import GRAVITY, Terrain, TurnReport, replay
from cardgen.games.rotator.solver import StartResult, Status
from cardgen.text.fonts import FontSet
from cardgen.texts import say

WHITE = Color.cmyk(0, 0, 0, 0)
INK = Color.cmyk(0, 0, 0, 100)
TERRITORY = Color.cmyk(0, 0, 0, 22)
GRID_LINE = Color.cmyk(0, 0, 0, 65)
GRID_BORDER = Color.cmyk(0, 0, 0, 90)
LABEL = Color.cmyk(0, 0, 0, 80)
PATH = Color.cmyk(95, 55, 0, 5)
BOOST = Color.cmyk(0, 55, 100, 0)
BOOST_TINT = 0.35  # boosted cells are shaded in this tint of BOOST
CAPTURE = Color.cmyk(0, 90, 85, 0)
CARD_CELL = CardGeometry(PRESETS[Preset.EU]).cell  # boards "as on the card" use its squares
LARGE_CELL = 9.0  # mm: a large board on a page of its own size
BAND_SHARE = 0.62  # the label band grows with the cell beyond LABEL_BAND
# A board's extent in cells for fitting it to an area: 10 × 20 cells plus its label bands
# (2 × BAND_SHARE = 1.24 cells), rounded up to leave a little slack.
SCALE_EXTENT = (11.3, 21.3)


class Entry(enum.Enum):
    """How the player entered a cell on the winning line."""

    START = "start"
    FALL = "fall"
    DRILL = "drill"
    BOOST = "boost"


def band_for(cell: float) -> float:
    """The label band: 3 mm on a card-sized board, growing with larger cells."""
    return max(LABEL_BAND, BAND_SHARE * cell)


def board_extent(cell: float) -> tuple[float, float]:
    """Width and height of a board with its label bands."""
    band = band_for(cell)
    return GRID_SIZE * cell + 2 * band, 2 * GRID_SIZE * cell + 2 * band


def board_items(rmap: RotatorMap, frame: BoardFrame, fonts: FontSet,
                between: list[Item] | None = None) -> list[Item]:
    """The board as on the card: white panel, shaded territories, grids, Node dots.
    ``between`` is drawn over the shading but under the grid and the dots."""
    band = band_for(frame.cell)
    panel = frame.board.inset(-band)
    items: list[Item] = [Rect(panel.x, panel.y, panel.w, panel.h, fill=WHITE)]
    for cell in sorted(rmap.solid):
        box = frame.board_cell(*cell)
        items.append(Rect(box.x, box.y, box.w, box.h, fill=TERRITORY))
    items += between or []
    style = GridStyle(GRID_LINE, GRID_BORDER, LABEL, fonts.regular, band,
                      line_width=max(0.12, frame.cell * 0.025),
                      border_width=max(0.25, frame.cell * 0.05))
    for grid in Grid:
        items.append(Group(grid_items(grid, frame.cell, style, draw_fold=grid is Grid.B),
                           transform=frame.grid_to_page(grid), name=f"grid-{grid}"))
    for centre in rmap.nodes:
        cx, cy = frame.board_cell(*centre).center
        items.append(Path(circle(cx, cy, frame.cell * 0.28), fill=INK))
    return items


def key_items(board: RotatorPuzzle, frame: BoardFrame, fonts: FontSet,
              ) -> tuple[list[Item], list[Item]]:
    """The winning line drawn on the board: (fills to go under the grid and the Node
    dots, marks to go over them)."""
    if board.start is None:
        return [], []
    entries: dict[Cell, list[tuple[int, Entry, Cell]]] = {}  # cell -> (turn, kind, gravity)

    def mark(cell: Cell, turn: int, kind: Entry, gravity: Cell) -> None:
        entries.setdefault(cell, []).append((turn, kind, gravity))

    mark((board.start, 0), 1, Entry.START, GRAVITY[0])
    captured: list[tuple[Cell, int]] = []
    picked: list[tuple[Cell, int]] = []  # where a turn started after a capture
    for r in board.reports:
        if r.start is not None:
            picked.append((r.start, r.turn))
        for cell in r.fall:
            mark(cell, r.turn, Entry.FALL, r.gravity)
        if r.drill is not None:
            mark(r.drill, r.turn, Entry.DRILL, r.gravity)
        for cell in r.boosted:
            mark(cell, r.turn, Entry.BOOST, r.gravity)
        for cell in r.fall_after:
            mark(cell, r.turn, Entry.FALL, r.gravity)
        if r.captured is not None:
            captured.append((board.rmap.nodes[r.captured], r.turn))
    fills: list[Item] = []
    items: list[Item] = []
    s = frame.cell
    number_size = min(8.0, s * 0.85)
    cap = fonts.regular.metrics.cap_height_mm(number_size)
    thin = Stroke(PATH, max(0.15, s * 0.03))
    centres = set(board.rmap.nodes)
    for cell, marks in entries.items():
        box = frame.board_cell(*cell)
        _, kind, gravity = marks[0]
        if any(k is Entry.BOOST for _, k, _ in marks):
            fills.append(Rect(box.x, box.y, box.w, box.h, fill=BOOST.tint(BOOST_TINT)))
        filled = kind in (Entry.DRILL, Entry.BOOST)
        # On a Node's black dot the triangle is drawn in white to stay visible.
        color = WHITE if cell in centres else PATH
        items.append(Path(pointer(box, gravity), fill=color if filled else None,
                          stroke=None if filled else Stroke(color, thin.width)))
        turns = ",".join(str(t) for t in dict.fromkeys(t for t, _, _ in marks))
        items.append(Text(box.x + s * 0.06, box.y + s * 0.06 + cap, turns, fonts.regular,
                          number_size, PATH))
    for cell, turn in picked:  # a start chosen in a captured territory: a ring and its turn
        box = frame.board_cell(*cell)
        cx, cy = box.center
        items.append(Path(circle(cx, cy, s * 0.3), stroke=Stroke(PATH, max(0.3, s * 0.05))))
        if cell not in entries:
            items.append(Text(box.x + s * 0.06, box.y + s * 0.06 + cap, str(turn),
                              fonts.regular, number_size, PATH))
    for centre, _ in captured:
        cx, cy = frame.board_cell(*centre).center
        items.append(Path(circle(cx, cy, s * 0.46), stroke=Stroke(CAPTURE, max(0.3, s * 0.06))))
    # The end of the line: a ring in the goal row.
    last = board.reports[-1] if board.reports else None
    if last is not None and last.won:
        box = frame.board_cell(*last.end)
        items.append(Rect(box.x, box.y, box.w, box.h, stroke=Stroke(CAPTURE, max(0.3, s * 0.07))))
    return fills, items


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

    def print_size(self, unit: float) -> tuple[float, float]:
        return board_extent(unit)

    def draw(self, x: float, y: float, unit: float, fonts: FontSet, *,
             key: bool) -> list[Item]:
        band = band_for(unit)
        frame = BoardFrame(x + band, y + band, unit)
        fills, marks = key_items(self, frame, fonts) if key else ([], [])
        return board_items(self.rmap, frame, fonts, between=fills) + marks

    def key_text(self) -> tuple[str, list[str], str]:
        heading = say("rotator", "key.heading", board_id=self.rmap.board_id)
        lines = [say("rotator", "key.start", cell=start_name(self.start))
                 if self.start is not None else say("rotator", "key.no_line")]
        lines += [turn_text(r, self.rmap.nodes) for r in self.reports]
        return heading, lines, say("rotator", "key.legend")


def printed_board(rmap: RotatorMap, line: StartResult | None, caption: str = "",
                  key_caption: str = "") -> RotatorPuzzle:
    """A board to print; with a winning ``line``, its answer key can be drawn too."""
    if line is None or line.status is not Status.WIN:
        return RotatorPuzzle(rmap, caption, key_caption=key_caption)
    reports = replay(Terrain.from_map(rmap), line.start, line.choices)
    return RotatorPuzzle(rmap, caption, line.start, tuple(reports), key_caption)
