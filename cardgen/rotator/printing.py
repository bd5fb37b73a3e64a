"""Printed Rotator boards and answer keys, as page descriptions for the shared renderers.

A board is drawn as it appears inside the card: grid A turned 180° above grid B, the
Nodes as dots, their territories shaded. Answer keys draw the winning line on the board
(each entered cell with a triangle pointing the way gravity took the player and the turn
number; drilled cells filled, boosted cells orange, captured Nodes ringed) beside the
line turn by turn in words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardgen.boardart import BoardFrame, GridStyle, grid_items
from cardgen.cardgeometry import LABEL_BAND, PRESETS, CardGeometry
from cardgen.colors import Color
from cardgen.fonts import FontSet, bundled_fonts
from cardgen.geometry import Affine, Box
from cardgen.page import Document, Group, Item, Page, Path, PathOp, Rect, Stroke, Text
from cardgen.rotator.board import Cell, RotatorMap, card_name
from cardgen.rotator.describe import turn_text
from cardgen.rotator.engine import TurnReport
from cardgen.sheet import PAPERS
from cardgen.textfit import line_height, wrap

WHITE = Color.cmyk(0, 0, 0, 0)
INK = Color.cmyk(0, 0, 0, 100)
TERRITORY = Color.cmyk(0, 0, 0, 22)
GRID_LINE = Color.cmyk(0, 0, 0, 65)
GRID_BORDER = Color.cmyk(0, 0, 0, 90)
LABEL = Color.cmyk(0, 0, 0, 80)
MUTED = Color.cmyk(0, 0, 0, 60)
PATH = Color.cmyk(95, 55, 0, 5)
BOOST = Color.cmyk(0, 55, 100, 0)
CAPTURE = Color.cmyk(0, 90, 85, 0)
MARGIN = 10.0  # page margin (mm)
CARD_CELL = CardGeometry(PRESETS["eu"]).cell  # boards "as on the card" use its squares


@dataclass(frozen=True)
class PrintedBoard:
    """A board to print, with its caption and (for keys) its winning line."""

    rmap: RotatorMap
    caption: str = ""  # under the board on the players' pages (no spoilers)
    start: int | None = None  # top-row column of the line
    reports: tuple[TurnReport, ...] = ()
    details: str = ""  # under the board on its answer key


def band_for(cell: float) -> float:
    """The label band: 3 mm on a card-sized board, growing with larger cells."""
    return max(LABEL_BAND, 0.62 * cell)


def board_extent(cell: float) -> tuple[float, float]:
    """Width and height of a board with its label bands."""
    band = band_for(cell)
    return 10 * cell + 2 * band, 20 * cell + 2 * band


def circle(cx: float, cy: float, r: float) -> tuple[PathOp, ...]:
    """A circle as four cubic Béziers."""
    k = 0.5523 * r
    return (("M", cx + r, cy), ("C", cx + r, cy + k, cx + k, cy + r, cx, cy + r),
            ("C", cx - k, cy + r, cx - r, cy + k, cx - r, cy),
            ("C", cx - r, cy - k, cx - k, cy - r, cx, cy - r),
            ("C", cx + k, cy - r, cx + r, cy - k, cx + r, cy), ("Z",))


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
    for grid in "AB":
        items.append(Group(grid_items(grid, frame.cell, style, draw_fold=grid == "B"),
                           transform=frame.grid_to_page(grid), name=f"grid-{grid}"))
    for centre in rmap.nodes:
        cx, cy = frame.board_cell(*centre).center
        items.append(Path(circle(cx, cy, frame.cell * 0.28), fill=INK))
    return items


def _triangle(box: Box, direction: Cell) -> tuple[PathOp, ...]:
    """A triangle in a cell, pointing along ``direction`` (board axes = page axes)."""
    cx, cy = box.center
    h = box.w * 0.27
    turn = Affine.rotate(math.degrees(math.atan2(direction[1], direction[0])) - 90, cx, cy)
    points = [turn.apply(cx - h, cy - h * 0.7), turn.apply(cx + h, cy - h * 0.7),
              turn.apply(cx, cy + h)]
    return (("M", *points[0]), ("L", *points[1]), ("L", *points[2]), ("Z",))


def key_items(board: PrintedBoard, frame: BoardFrame, fonts: FontSet,
              ) -> tuple[list[Item], list[Item]]:
    """The winning line drawn on the board: (fills to go under the grid and the Node
    dots, marks to go over them)."""
    if board.start is None:
        return [], []
    entries: dict[Cell, list[tuple[int, str, Cell]]] = {}  # cell -> (turn, kind, gravity)

    def mark(cell: Cell, turn: int, kind: str, gravity: Cell) -> None:
        entries.setdefault(cell, []).append((turn, kind, gravity))

    mark((board.start, 0), 1, "start", (0, 1))
    captured: list[tuple[Cell, int]] = []
    picked: list[tuple[Cell, int]] = []  # where a turn started after a capture
    for r in board.reports:
        if r.start is not None:
            picked.append((r.start, r.turn))
        for cell in r.fall:
            mark(cell, r.turn, "fall", r.gravity)
        if r.drill is not None:
            mark(r.drill, r.turn, "drill", r.gravity)
        for cell in r.boosted:
            mark(cell, r.turn, "boost", r.gravity)
        for cell in r.fall_after:
            mark(cell, r.turn, "fall", r.gravity)
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
        if any(k == "boost" for _, k, _ in marks):
            fills.append(Rect(box.x, box.y, box.w, box.h, fill=BOOST.tint(0.35)))
        filled = kind in ("drill", "boost")
        # On a Node's black dot the triangle is drawn in white to stay visible.
        color = WHITE if cell in centres else PATH
        items.append(Path(_triangle(box, gravity), fill=color if filled else None,
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


def _caption(x: float, y: float, lines: list[str], fonts: FontSet, size: float,
             anchor: str = "middle") -> list[Item]:
    items: list[Item] = []
    for i, text in enumerate(lines):
        face = fonts.bold if i == 0 else fonts.regular
        items.append(Text(x, y + i * line_height(size) + fonts.regular.metrics.cap_height_mm(
            size), text, face, size, INK if i == 0 else MUTED, anchor=anchor))  # type: ignore[arg-type]
    return items


def _page(name: str, width: float, height: float) -> Page:
    paper = Box(0, 0, width, height)
    return Page(name, width, height, paper, paper)


def _board_with_caption(board: PrintedBoard, x: float, y: float, cell: float, fonts: FontSet,
                        caption_size: float, key: bool) -> list[Item]:
    band = band_for(cell)
    frame = BoardFrame(x + band, y + band, cell)
    fills, marks = key_items(board, frame, fonts) if key else ([], [])
    items = board_items(board.rmap, frame, fonts, between=fills) + marks
    w, h = board_extent(cell)
    caption = board.details if key else board.caption
    lines = [board.rmap.board_id, *([caption] if caption else [])]
    items += _caption(x + w / 2, y + h + 2, lines, fonts, caption_size)
    return items


def nup_pages(boards: list[PrintedBoard], paper: str = "a4",
              fonts: FontSet | None = None) -> list[Page]:
    """Card-sized boards, as many per page as fit, each with its ID and caption."""
    fonts = fonts or bundled_fonts()
    pw, ph = PAPERS[paper]
    w, h = board_extent(CARD_CELL)
    caption = 2 + 2 * line_height(7) + 3
    cols = int((pw - 2 * MARGIN + 6) // (w + 6))
    rows = int((ph - 2 * MARGIN + 4) // (h + caption + 4))
    gap_x = (pw - 2 * MARGIN - cols * w) / max(cols - 1, 1)
    pages = []
    per_page = cols * rows
    for p in range(0, len(boards), per_page):
        page = _page(f"boards-{p // per_page + 1}", pw, ph)
        layer = page.layer("boards")
        for i, board in enumerate(boards[p:p + per_page]):
            c, r = i % cols, i // cols
            x = MARGIN + c * (w + gap_x)
            y = MARGIN + r * (h + caption + 4)
            layer.add(*_board_with_caption(board, x, y, CARD_CELL, fonts, 7, key=False))
        pages.append(page)
    return pages


def large_pages(boards: list[PrintedBoard], paper: str = "a4",
                fonts: FontSet | None = None) -> list[Page]:
    """One board per page, as large as the page allows."""
    fonts = fonts or bundled_fonts()
    pw, ph = PAPERS[paper]
    caption = 2 + 2 * line_height(10) + 2
    cell = min((pw - 2 * MARGIN) / 11.3, (ph - 2 * MARGIN - caption) / 21.3)
    w = board_extent(cell)[0]
    pages = []
    for i, board in enumerate(boards):
        page = _page(f"board-{i + 1}", pw, ph)
        page.layer("board").add(*_board_with_caption(board, (pw - w) / 2, MARGIN, cell, fonts,
                                                     10, key=False))
        pages.append(page)
    return pages


def key_pages(boards: list[PrintedBoard], paper: str = "a4",
              fonts: FontSet | None = None) -> list[Page]:
    """One answer key per page: the line drawn on the board, and turn by turn in words."""
    fonts = fonts or bundled_fonts()
    pw, ph = PAPERS[paper]
    cell = min((ph - 2 * MARGIN - 30) / 21.3, (pw * 0.5 - MARGIN) / 11.3)
    w = board_extent(cell)[0]
    pages = []
    for i, board in enumerate(boards):
        page = _page(f"key-{i + 1}", pw, ph)
        layer = page.layer("key")
        layer.add(*_caption(MARGIN, MARGIN, [f"Answer key · {board.rmap.board_id}",
                                             board.details], fonts, 11, anchor="start"))
        top = MARGIN + 16
        layer.add(*_board_with_caption(board, MARGIN, top, cell, fonts, 8, key=True))
        x = MARGIN + w + 8
        width = pw - MARGIN - x
        size = 8.5
        y = top + fonts.regular.metrics.cap_height_mm(size)
        lines = [f"Start: {card_name((board.start, 0))} (Row 10 of grid A)"
                 if board.start is not None else "No winning line."]
        lines += [turn_text(r, board.rmap.nodes) for r in board.reports]
        for text in lines:
            for part in wrap(text, fonts.regular, size, width) or [text]:
                layer.add(Text(x, y, part, fonts.regular, size, INK))
                y += line_height(size)
            y += 1.2
        legend = ("Key: △ fall, ▲ drill, orange square: boosted, blue ring: start after a "
                  "capture, red ring: captured Node, red square: goal reached. Small numbers "
                  "are the turns in which the player entered the square.")
        y += 3
        for part in wrap(legend, fonts.regular, 7, width) or [legend]:
            layer.add(Text(x, y, part, fonts.regular, 7, MUTED))
            y += line_height(7)
        pages.append(page)
    return pages


def single_page(board: PrintedBoard, size: str = "card", key: bool = False,
                fonts: FontSet | None = None) -> Page:
    """One board on a page of its own size (for SVG and PNG)."""
    fonts = fonts or bundled_fonts()
    cell = CARD_CELL if size == "card" else 9.0
    caption_size = 7 if size == "card" else 10
    w, h = board_extent(cell)
    margin = 4.0
    page = _page("board", w + 2 * margin, h + 2 * margin + 2 + 2 * line_height(caption_size))
    page.layer("board").add(*_board_with_caption(board, margin, margin, cell, fonts,
                                                 caption_size, key))
    return page


def rotator_document(boards: list[PrintedBoard], *, layout: str = "nup", keys: bool = True,
                     paper: str = "a4", title: str = "Rotator boards") -> Document:
    """The boards (N-up or one per page) followed by their answer keys."""
    fonts = bundled_fonts()
    pages = (nup_pages if layout == "nup" else large_pages)(boards, paper, fonts)
    if keys:
        pages += key_pages(boards, paper, fonts)
    return Document(pages, title=title, subject="cardgen Rotator boards")
