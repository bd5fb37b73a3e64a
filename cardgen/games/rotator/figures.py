"""Rotator on paper: the figures of the rules text (``templates/rules/rotator.md``),
drawn from the models the game runs on. The example board comes from the generator
(:data:`EXAMPLE_SEED`), its line from the solver, and every position of the worked game
from the rules engine (:func:`~cardgen.games.rotator.engine.play_turn`); nothing of the
game is placed by hand.

- ``rotator-board``: the board as printed (grey rock, white air, Node dots), the start
  and goal rows, one Node's diamond, each pointed out.
- ``rotator-gravity``: the card as it lies in turns 1 to 4, turned so that down (from
  :func:`~cardgen.games.rotator.engine.gravity`) points at the player.
- ``rotator-turns``: the worked game, one picture per turn, each the engine's position
  at the end of the turn with what the turn did marked on it (:class:`Panel`), and a key.

Black on white with one grey for rock; every line and all type solid black set to
overprint, or paper white on black (the ink rule), so a black-and-white printer loses
nothing. Each mark of a worked-game picture is a Group named after what it shows
(:func:`mark_name`), so tests can compare the drawing with the engine's reports.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from cardgen.board.cells import GRID_SIZE, HEIGHT, WIDTH, Cell
from cardgen.board.frame import BoardFrame
from cardgen.draw.colors import INK, PAPER_WHITE, Color
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import (
    Anchor,
    Group,
    Item,
    Line,
    LineTo,
    MoveTo,
    Path,
    PathOp,
    Rect,
    Stroke,
    Text,
)
from cardgen.draw.shapes import circle, polygon
from cardgen.errors import CardgenError
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import (
    State,
    Terrain,
    TurnReport,
    gravity,
    play_turn,
    start_state,
)
from cardgen.games.rotator.generator import generate
from cardgen.text.figure import FigureMaker
from cardgen.text.fit import line_height
from cardgen.text.flow import Paragraph, flow
from cardgen.text.fonts import FontFace, FontSet
from cardgen.texts import say
from cardgen.units import MM_PER_PT

ROCK = Color.cmyk(0, 0, 0, 25)
# The board of the examples: the generator's first board for this seed, a five-turn
# line that drills, boosts, captures a Node, restarts in its diamond and sees squares
# collapse (tests/test_rotator_rules.py checks that it still does).
EXAMPLE_SEED = 68


@dataclass(frozen=True)
class RotatorFigureStyle:
    """Every distance (mm) and type size (pt) of the Rotator figures."""

    label_size: float = 6.5  # callouts, captions and the key
    number_size: float = 6.0  # turn numbers in squares
    heading_size: float = 7.0  # "Turn 3" over a picture's caption
    grid_line: float = 0.25 * MM_PER_PT
    border: float = 0.7 * MM_PER_PT  # the board's edge and the fold
    heavy: float = 1.0 * MM_PER_PT  # start and goal rows, a diamond, a drilled square
    mark_line: float = 0.4 * MM_PER_PT  # crosses, rings, leaders, a boost's inner frame
    dot: float = 0.28  # a Node's dot, radius per square
    gap: float = 3.0  # between pictures, and between a board and its callouts
    caption_gap: float = 1.2  # from a picture to its caption
    row_gap: float = 3.5  # between rows of pictures
    min_panel: float = 24.0  # the narrowest turn picture
    max_turn_cell: float = 2.7  # the largest square of a turn picture
    board_share: float = 0.42  # of the width, for the board of rotator-board
    max_board_cell: float = 4.0
    card_unit: float = 0.85  # a square of rotator-gravity's cards, at most
    turn_arrow: float = 4.0  # the quarter-turn arrow between those cards
    card_gap: float = 1.0  # on each side of a quarter-turn arrow


STYLE = RotatorFigureStyle()


# --- the example, from the generator, the solver and the engine ---------------------------

@dataclass(frozen=True)
class Example:
    """A generated board, the solver's shortest line on it, and the engine's position
    and report after each turn of that line."""

    seed: int
    rmap: RotatorMap
    start: int  # top-row column
    steps: tuple[tuple[State, TurnReport], ...]


@cache
def example(seed: int = EXAMPLE_SEED) -> Example:
    """The first board the generator makes from ``seed``, played along its best line."""
    found = generate(seed, 1).boards
    if not found:
        raise CardgenError(f"the generator makes no board from seed {seed} for the Rotator "
                           "rules' example; choose another EXAMPLE_SEED.")
    board = found[0]
    terrain = Terrain.from_map(board.rmap)
    state = start_state(terrain, board.best.start)
    steps = []
    for choice in board.best.choices:
        state, report = play_turn(terrain, state, choice)
        steps.append((state, report))
    return Example(seed, board.rmap, board.best.start, tuple(steps))


def first_capture(ex: Example) -> int | None:
    """The Node the example's line captures first, if any."""
    return next((r.captured for _, r in ex.steps if r.captured is not None), None)


class MarkKind(enum.StrEnum):
    """What a mark of a worked-game picture shows."""

    TOUCHED = "touched"  # a number: the turn the square was touched in
    YOU = "you"
    DRILL = "drill"
    BOOST = "boost"
    COLLAPSE = "collapse"
    START = "start"  # a start picked after a capture
    CAPTURE = "capture"  # the diamond of a Node captured this turn
    NODE = "node"  # an active Node's dot


def mark_name(kind: MarkKind, cell: Cell, turn: int | None = None) -> str:
    """The name of a mark's Group: ``drill 3,8``, ``touched 3,8 turn 2``."""
    name = f"{kind} {cell[0]},{cell[1]}"
    return name if turn is None else f"{name} turn {turn}"


@dataclass(frozen=True)
class Panel:
    """One picture of the worked game: the position at the end of a turn and what the
    turn did, all from the engine."""

    turn: int
    gravity: Cell
    rock: frozenset[Cell]
    touched: tuple[tuple[Cell, int], ...]  # open squares and the turns they were touched
    active: tuple[Cell, ...]  # Node centres that are rock
    you: Cell
    start: Cell | None
    fall: int  # squares fallen before the collapse
    drilled: Cell | None
    boosted: tuple[Cell, ...]
    collapsed: tuple[Cell, ...]
    captured: Cell | None  # the centre of the Node captured this turn
    diamond: frozenset[Cell]  # its territory
    fall_after: int  # squares fallen after the drilling
    won: bool

    def marks(self) -> set[str]:
        """The names of the marks drawn on this picture."""
        names = {mark_name(MarkKind.TOUCHED, c, t) for c, t in self.touched}
        names |= {mark_name(MarkKind.NODE, c) for c in self.active}
        names |= {mark_name(MarkKind.COLLAPSE, c) for c in self.collapsed}
        names |= {mark_name(MarkKind.BOOST, c) for c in self.boosted}
        names.add(mark_name(MarkKind.YOU, self.you))
        if self.drilled is not None:
            names.add(mark_name(MarkKind.DRILL, self.drilled))
        if self.start is not None:
            names.add(mark_name(MarkKind.START, self.start))
        if self.captured is not None:
            names.add(mark_name(MarkKind.CAPTURE, self.captured))
        return names


def panels(ex: Example) -> list[Panel]:
    """The worked game's pictures, one per turn of the example's line."""
    nodes = ex.rmap.nodes
    territories = ex.rmap.territories
    out = []
    for state, r in ex.steps:
        captured = nodes[r.captured] if r.captured is not None else None
        out.append(Panel(
            turn=r.turn, gravity=r.gravity, rock=state.solid,
            touched=tuple(sorted(state.touched)),
            active=tuple(c for c in nodes if c in state.solid),
            you=r.end, start=r.start, fall=len(r.fall),
            drilled=r.drill, boosted=tuple(r.boosted), collapsed=tuple(r.collapsed),
            captured=captured,
            diamond=territories[r.captured] if r.captured is not None else frozenset(),
            fall_after=len(r.fall_after), won=r.won))
    return out


# --- drawing helpers ----------------------------------------------------------------------

def _stroke(width: float) -> Stroke:
    return Stroke(INK, width)


def _text_block(text: str, face: FontFace, size: float, x: float, y: float, width: float,
                ) -> tuple[list[Text], float]:
    """``text`` wrapped to ``width`` with its top at ``y``: the lines and their height."""
    [lines] = flow([Paragraph(text, face, size, INK)], [Box(x, y, width, 1000.0)],
                   where="a Rotator figure's label")
    last = lines[-1]
    return lines, last.y - y + face.metrics.descent_mm(size)


def board_layers(frame: BoardFrame, rock: Iterable[Cell], dots: Iterable[Cell],
                style: RotatorFigureStyle = STYLE, name_dots: bool = False) -> tuple[
                    list[Item], list[Item]]:
    """A 10 × 20 board: (the grey rock under everything, then the grid lines, the
    edge, the fold and the Node dots to go over the marks)."""
    s = frame.cell
    under: list[Item] = []
    for c in sorted(rock):
        box = frame.board_cell(*c)
        under.append(Rect(box.x, box.y, box.w, box.h, fill=ROCK))
    over: list[Item] = []
    thin = _stroke(style.grid_line)
    x0, y0 = frame.x, frame.y
    for i in range(1, WIDTH):
        over.append(Line(x0 + i * s, y0, x0 + i * s, y0 + HEIGHT * s, thin))
    for j in range(1, HEIGHT):
        if j != GRID_SIZE:
            over.append(Line(x0, y0 + j * s, x0 + WIDTH * s, y0 + j * s, thin))
    edge = _stroke(style.border)
    over.append(Line(x0, frame.fold_y, x0 + WIDTH * s, frame.fold_y, edge))
    over.append(Rect(x0, y0, WIDTH * s, HEIGHT * s, stroke=edge))
    for centre in dots:
        cx, cy = frame.board_cell(*centre).center
        dot = Path(circle(cx, cy, s * style.dot), fill=INK)
        over.append(Group([dot], name=mark_name(MarkKind.NODE, centre)) if name_dots else dot)
    return under, over


def outline(cells: frozenset[Cell], frame: BoardFrame, width: float) -> list[Item]:
    """The outer edges of a set of squares (a diamond, a row)."""
    items: list[Item] = []
    stroke = _stroke(width)
    for x, y in sorted(cells):
        box = frame.board_cell(x, y)
        if (x, y - 1) not in cells:
            items.append(Line(box.x, box.y, box.right, box.y, stroke))
        if (x, y + 1) not in cells:
            items.append(Line(box.x, box.bottom, box.right, box.bottom, stroke))
        if (x - 1, y) not in cells:
            items.append(Line(box.x, box.y, box.x, box.bottom, stroke))
        if (x + 1, y) not in cells:
            items.append(Line(box.right, box.y, box.right, box.bottom, stroke))
    return items


def arrow(x1: float, y1: float, x2: float, y2: float, width: float, head: float,
          ) -> list[Item]:
    """A straight arrow from (x1, y1) to (x2, y2): a shaft and a filled head."""
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    bx, by = x2 - ux * head, y2 - uy * head
    half = head * 0.55
    return [Line(x1, y1, bx + ux * 0.1, by + uy * 0.1, _stroke(width)),
            Path(polygon([(x2, y2), (bx - uy * half, by + ux * half),
                          (bx + uy * half, by - ux * half)]), fill=INK)]


def _centre_number(box: Box, number: int, face: FontFace, size: float, color: Color,
                   ) -> Text:
    cx, cy = box.center
    return Text(cx, cy + face.metrics.cap_height_mm(size) / 2, str(number), face, size,
                color, anchor=Anchor.MIDDLE)


# --- rotator-board ------------------------------------------------------------------------

@dataclass(frozen=True)
class BoardFigure:
    """The example board as printed, with the start row, the goal row, the fold, open
    air and one Node's diamond pointed out, and the board's ID under it."""

    fonts: FontSet
    style: RotatorFigureStyle = STYLE

    def _cell(self, width: float) -> float:
        return min(self.style.max_board_cell, width * self.style.board_share / WIDTH)

    def _parts(self, x: float, y: float, width: float) -> tuple[list[Item], float]:
        st, face = self.style, self.fonts.regular
        ex = example()
        s = self._cell(width)
        frame = BoardFrame(x, y, s)
        under, over = board_layers(frame, ex.rmap.solid, ex.rmap.nodes, st)
        items: list[Item] = [*under]
        top_row = frozenset((c, 0) for c in range(WIDTH))
        goal_row = frozenset((c, HEIGHT - 1) for c in range(WIDTH))
        node = first_capture(ex)
        centre = ex.rmap.nodes[node if node is not None else 0]
        diamond = ex.rmap.territories[node if node is not None else 0]
        items += over
        for cells in (top_row, goal_row, diamond):
            items += outline(cells, frame, st.heavy)
        board_right = x + WIDTH * s
        air = next(((WIDTH - 1, r) for r in range(3, HEIGHT - 3)
                    if (WIDTH - 1, r) not in ex.rmap.solid), (WIDTH - 1, 1))
        targets = [
            (frame.board_cell(WIDTH - 1, 0).center, say("rotator_rules", "board.start")),
            (frame.board_cell(*centre).center, say("rotator_rules", "board.node")),
            (frame.board_cell(*air).center, say("rotator_rules", "board.air")),
            ((board_right, frame.fold_y), say("rotator_rules", "board.fold")),
            (frame.board_cell(WIDTH - 1, HEIGHT - 1).center,
             say("rotator_rules", "board.goal")),
        ]
        text_x = board_right + st.gap + 1.5
        text_w = x + width - text_x
        cursor = y
        cap = face.metrics.cap_height_mm(st.label_size)
        leader = _stroke(st.mark_line)
        for (tx, ty), label in sorted(targets, key=lambda t: t[0][1]):
            top = max(cursor, ty - cap / 2 - 0.2)
            lines, height = _text_block(label, face, st.label_size, text_x, top, text_w)
            items += lines
            ly = lines[0].y - cap / 2
            items.append(Line(text_x - 0.8, ly, tx, ty, leader))
            items.append(Path(circle(tx, ty, 0.35), fill=INK))
            cursor = top + height + 1.4
        bottom = max(y + HEIGHT * s, cursor - 1.4) + st.caption_gap
        ident = say("rotator_rules", "board.ident", board_id=ex.rmap.board_id, seed=ex.seed)
        lines, height = _text_block(ident, face, st.label_size, x, bottom, width)
        items += lines
        return items, bottom + height - y

    def height(self, width: float) -> float:
        return self._parts(0.0, 0.0, width)[1]

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return self._parts(x, y, width)[0]


# --- rotator-gravity ----------------------------------------------------------------------

def quarter_turns(turn: int) -> int:
    """How many quarter turns clockwise the card lies turned in ``turn``: the turn that
    brings the engine's gravity to point down the page, at the player."""
    g = gravity(turn)
    for k in range(4):
        if Affine.rotate(90 * k).apply(*g) == (0.0, 1.0):
            return k
    raise AssertionError(f"gravity {g} is not along an axis")


@dataclass(frozen=True)
class GravityFigure:
    """Turns 1 to 4: the card as it lies on the table (turned so that the engine's
    gravity points down the page, at the player), grids A and B named, the start row grey
    and the goal row black; a quarter-turn arrow between the cards; an arrow at the left
    pointing down at "you". Under each card its turns and, where there is room, where
    down points on the board as it lay at the start."""

    fonts: FontSet
    style: RotatorFigureStyle = STYLE

    def _unit(self, width: float) -> float:
        # Two cards upright (10 squares wide) and two on their side (20), three turn
        # arrows and the down arrow.
        st = self.style
        room = width - 4 * (st.turn_arrow + 2 * st.card_gap)
        return min(st.card_unit, room / (2 * WIDTH + 2 * HEIGHT))

    def _parts(self, x: float, y: float, width: float) -> tuple[list[Item], float]:
        st, face, bold = self.style, self.fonts.regular, self.fonts.bold
        u = self._unit(width)
        slot_h = HEIGHT * u
        cards = [(turn, quarter_turns(turn)) for turn in range(1, 5)]
        widths = [(WIDTH if k % 2 == 0 else HEIGHT) * u for _, k in cards]
        lead = st.turn_arrow + 2 * st.card_gap  # the down arrow's column
        spare = (width - lead - sum(widths)) / 3  # between two cards
        items: list[Item] = []
        ax = x + st.turn_arrow / 2
        items += arrow(ax, y + slot_h * 0.1, ax, y + slot_h * 0.8, st.heavy, 1.6)
        you = say("rotator_rules", "gravity.you")
        items.append(Text(ax, y + slot_h * 0.8 + 1.0 + face.metrics.cap_height_mm(
            st.label_size), you, face, st.label_size, INK, anchor=Anchor.MIDDLE))
        bottom = y + slot_h
        left = x + lead
        roomy = min(widths) + spare >= st.min_panel
        for i, ((turn, k), w) in enumerate(zip(cards, widths, strict=True)):
            h = (HEIGHT if k % 2 == 0 else WIDTH) * u
            cx, cy = left + w / 2, y + slot_h / 2
            # The card in its own frame (grid A on top), turned k quarters about its centre.
            turned = (Affine.translate(cx, cy) @ Affine.rotate(90 * k)
                      @ Affine.translate(-WIDTH * u / 2, -HEIGHT * u / 2))
            card: list[Item] = [
                Rect(0, 0, WIDTH * u, u, fill=ROCK),  # the start row
                Rect(0, (HEIGHT - 1) * u, WIDTH * u, u, fill=INK),  # the goal row
                Line(0, GRID_SIZE * u, WIDTH * u, GRID_SIZE * u,
                     Stroke(INK, st.mark_line, (0.8, 0.6))),
                Rect(0, 0, WIDTH * u, HEIGHT * u, stroke=_stroke(st.border)),
            ]
            items.append(Group(card, transform=turned, name=f"card turn {turn}"))
            for grid, row in (("A", GRID_SIZE / 2), ("B", GRID_SIZE * 1.5)):
                px, py = turned.apply(WIDTH * u / 2, row * u)
                items.append(Text(px, py + bold.metrics.cap_height_mm(st.heading_size) / 2,
                                  grid, bold, st.heading_size, INK, anchor=Anchor.MIDDLE))
            del h
            # Under the card: its turns, and where there is room, down in words.
            room = min(w + spare - 1.0, x + width - left)
            texts = [(say("rotator_rules", "gravity.turns", first=turn, second=turn + 4,
                          third=turn + 8), bold)]
            if roomy:
                texts.append((down_words(gravity(turn)), face))
            ty = y + slot_h + st.caption_gap
            for text, font in texts:
                block, height = _text_block(text, font, st.label_size, left, ty, room)
                items += block
                ty += height + 0.5
            bottom = max(bottom, ty - 0.5)
            if i < 3:
                items += turn_arrow(left + w + spare / 2, cy, st.turn_arrow / 2,
                                    st.mark_line * 2)
            left += w + spare
        return items, bottom - y

    def height(self, width: float) -> float:
        return self._parts(0.0, 0.0, width)[1]

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return self._parts(x, y, width)[0]


def turn_arrow(cx: float, cy: float, r: float, width: float) -> list[Item]:
    """A three-quarter circle turning clockwise with its head: "turn the card"."""
    steps = 18
    start, end = -200.0, 60.0  # degrees, clockwise on the page from the +x axis
    points = [(cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
              for a in (start + (end - start) * i / steps for i in range(steps + 1))]
    ops: list[PathOp] = [MoveTo(*points[0]), *(LineTo(*p) for p in points[1:])]
    tip = points[-1]
    a = math.radians(end)
    tangent = (-math.sin(a), math.cos(a))  # clockwise direction at the end
    head = r * 0.75
    bx, by = tip[0] - tangent[0] * head * 0.2, tip[1] - tangent[1] * head * 0.2
    nx, ny = math.cos(a), math.sin(a)
    return [Path(tuple(ops), stroke=_stroke(width)),
            Path(polygon([(tip[0] + tangent[0] * head * 0.8, tip[1] + tangent[1] * head * 0.8),
                          (bx + nx * head * 0.5, by + ny * head * 0.5),
                          (bx - nx * head * 0.5, by - ny * head * 0.5)]), fill=INK)]


def down_words(g: Cell) -> str:
    """Where down points on the board as it lay at the start (grid A away)."""
    return {(0, 1): say("rotator_rules", "down.near"),
            (1, 0): say("rotator_rules", "down.right"),
            (0, -1): say("rotator_rules", "down.far"),
            (-1, 0): say("rotator_rules", "down.left")}[g]


# --- rotator-turns ------------------------------------------------------------------------

@dataclass(frozen=True)
class TurnsFigure:
    """The worked game: a picture per turn of the example's line, then the key."""

    fonts: FontSet
    style: RotatorFigureStyle = STYLE

    def _layout(self, width: float, count: int) -> tuple[int, float, float]:
        """Pictures per row, the width of one, and the square's side."""
        st = self.style
        per_row = max(1, min(count, int((width + st.gap) // (st.min_panel + st.gap))))
        panel_w = (width - (per_row - 1) * st.gap) / per_row
        return per_row, panel_w, min(st.max_turn_cell, panel_w / WIDTH)

    def _parts(self, x: float, y: float, width: float) -> tuple[list[Item], float]:
        st = self.style
        pictures = panels(example())
        count = len(pictures) + 1  # and the key
        per_row, panel_w, s = self._layout(width, count)
        items: list[Item] = []
        top = y
        for first in range(0, count, per_row):
            tallest = 0.0
            for i in range(first, min(first + per_row, count)):
                sx = x + (i - first) * (panel_w + st.gap)
                if i < len(pictures):
                    drawn, h = self._panel(pictures[i], sx, top, panel_w, s)
                    name = f"turn {pictures[i].turn}"
                else:
                    drawn, h = self._key(sx, top, panel_w, s)
                    name = "key"
                items.append(Group(drawn, name=name))
                tallest = max(tallest, h)
            top += tallest + st.row_gap
        return items, top - st.row_gap - y

    def _panel(self, panel: Panel, x: float, y: float, width: float, s: float,
               ) -> tuple[list[Item], float]:
        st, face, bold = self.style, self.fonts.regular, self.fonts.bold
        frame = BoardFrame(x, y, s)
        under, over = board_layers(frame, panel.rock, panel.active, st, name_dots=True)
        marks: list[Item] = []
        for cell in panel.collapsed:
            box = frame.board_cell(*cell).inset(s * 0.18)
            marks.append(Group([Line(box.x, box.y, box.right, box.bottom, _stroke(st.mark_line)),
                                Line(box.x, box.bottom, box.right, box.y, _stroke(st.mark_line))],
                               name=mark_name(MarkKind.COLLAPSE, cell)))
        if panel.captured is not None:
            marks.append(Group(outline(panel.diamond, frame, st.heavy),
                               name=mark_name(MarkKind.CAPTURE, panel.captured)))
        for cell in panel.boosted:
            box = frame.board_cell(*cell)
            inner = box.inset(st.heavy + st.mark_line * 1.5)
            marks.append(Group([Rect(*_inset(box, st.heavy / 2), stroke=_stroke(st.heavy)),
                                Rect(inner.x, inner.y, inner.w, inner.h,
                                     stroke=_stroke(st.mark_line))],
                               name=mark_name(MarkKind.BOOST, cell)))
        if panel.drilled is not None:
            box = frame.board_cell(*panel.drilled)
            marks.append(Group([Rect(*_inset(box, st.heavy / 2), stroke=_stroke(st.heavy))],
                               name=mark_name(MarkKind.DRILL, panel.drilled)))
        for cell, turn in panel.touched:
            if cell == panel.you:
                continue
            marks.append(Group([_centre_number(frame.board_cell(*cell), turn, face,
                                               st.number_size, INK)],
                               name=mark_name(MarkKind.TOUCHED, cell, turn)))
        box = frame.board_cell(*panel.you)
        cx, cy = box.center
        you: list[Item] = [Path(circle(cx, cy, s * 0.47), fill=INK)]
        touched = dict(panel.touched)
        if panel.you in touched:
            you.append(_centre_number(box, touched[panel.you], bold, st.number_size, PAPER_WHITE))
            marks.append(Group([], name=mark_name(MarkKind.TOUCHED, panel.you,
                                                  touched[panel.you])))
        marks.append(Group(you, name=mark_name(MarkKind.YOU, panel.you)))
        if panel.start is not None:
            sx, sy = frame.board_cell(*panel.start).center
            marks.append(Group([Path(circle(sx, sy, s * 0.62), stroke=_stroke(st.mark_line))],
                               name=mark_name(MarkKind.START, panel.start)))
        items: list[Item] = [*under, *over, *marks]
        # The caption: "Turn 3" and an arrow pointing down, then what the turn did.
        ty = y + HEIGHT * s + st.caption_gap
        heading = say("rotator_rules", "turns.heading", turn=panel.turn)
        cap = bold.metrics.cap_height_mm(st.heading_size)
        items.append(Text(x, ty + cap, heading, bold, st.heading_size, INK))
        hx = x + bold.width(heading, st.heading_size) + 1.2 + cap / 2
        gx, gy = panel.gravity
        items += arrow(hx - gx * cap / 2, ty + cap / 2 - gy * cap / 2,
                       hx + gx * cap / 2, ty + cap / 2 + gy * cap / 2, st.mark_line * 2,
                       cap * 0.6)
        ty += line_height(st.heading_size)
        lines, height = _text_block(describe_turn(panel), face, st.label_size, x, ty, width)
        items += lines
        return items, ty + height - y

    def _key(self, x: float, y: float, width: float, s: float) -> tuple[list[Item], float]:
        st, face, bold = self.style, self.fonts.regular, self.fonts.bold
        items: list[Item] = []
        cy = y
        sw = max(s, 2.6)
        text_x = x + sw + 1.5
        heading = say("rotator_rules", "key.heading")
        cap = bold.metrics.cap_height_mm(st.heading_size)
        items.append(Text(x, cy + cap, heading, bold, st.heading_size, INK))
        cy += line_height(st.heading_size) + 0.6
        for entry in KeyEntry:
            box = Box(x, cy, sw, sw)
            items += key_swatch(entry, box, self.fonts, st)
            lines, height = _text_block(key_text(entry), face,
                                        st.label_size, text_x, cy + 0.2, x + width - text_x)
            items += lines
            cy += max(sw, height + 0.2) + 1.0
        return items, cy - 1.0 - y

    def height(self, width: float) -> float:
        return self._parts(0.0, 0.0, width)[1]

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return self._parts(x, y, width)[0]


def _inset(box: Box, d: float) -> tuple[float, float, float, float]:
    inner = box.inset(d)
    return inner.x, inner.y, inner.w, inner.h


def describe_turn(panel: Panel) -> str:
    """What a turn did, in words, in the order of its steps: "fall 4, drill, boost 2"."""
    parts = []
    if panel.start is not None:
        parts.append(say("rotator_rules", "turns.start"))
    if panel.fall:
        parts.append(say("rotator_rules", "turns.fall", count=panel.fall))
    if panel.collapsed:
        parts.append(say("rotator_rules", "turns.collapse", count=len(panel.collapsed)))
    if panel.drilled is not None:
        parts.append(say("rotator_rules", "turns.drill"))
    if panel.boosted:
        parts.append(say("rotator_rules", "turns.boost", count=len(panel.boosted)))
    if panel.captured is not None:
        parts.append(say("rotator_rules", "turns.capture"))
    if panel.fall_after:
        parts.append(say("rotator_rules", "turns.fall", count=panel.fall_after))
    if not parts:
        parts.append(say("rotator_rules", "turns.still"))
    text = ", ".join(parts)
    if panel.won:
        text = say("rotator_rules", "turns.won", moves=text)
    return text


class KeyEntry(enum.StrEnum):
    """The entries of the worked game's key, in order."""

    ROCK = "rock"
    AIR = "air"
    NODE = "node"
    TOUCHED = "touched"
    YOU = "you"
    DRILL = "drill"
    BOOST = "boost"
    COLLAPSE = "collapse"
    START = "start"
    CAPTURE = "capture"


def key_text(entry: KeyEntry) -> str:
    """The words beside a square of the key."""
    return {KeyEntry.ROCK: say("rotator_rules", "key.rock"),
            KeyEntry.AIR: say("rotator_rules", "key.air"),
            KeyEntry.NODE: say("rotator_rules", "key.node"),
            KeyEntry.TOUCHED: say("rotator_rules", "key.touched"),
            KeyEntry.YOU: say("rotator_rules", "key.you"),
            KeyEntry.DRILL: say("rotator_rules", "key.drill"),
            KeyEntry.BOOST: say("rotator_rules", "key.boost"),
            KeyEntry.COLLAPSE: say("rotator_rules", "key.collapse"),
            KeyEntry.START: say("rotator_rules", "key.start"),
            KeyEntry.CAPTURE: say("rotator_rules", "key.capture")}[entry]


def key_swatch(entry: KeyEntry, box: Box, fonts: FontSet, st: RotatorFigureStyle) -> list[Item]:
    """A square of the key drawn as the pictures draw ``entry``."""
    s = box.w
    cx, cy = box.center
    thin = _stroke(st.grid_line)
    ground = ROCK if entry in (KeyEntry.ROCK, KeyEntry.NODE, KeyEntry.COLLAPSE) else None
    items: list[Item] = [Rect(box.x, box.y, s, s, fill=ground, stroke=thin)]
    if entry is KeyEntry.NODE:
        items.append(Path(circle(cx, cy, s * st.dot), fill=INK))
    elif entry is KeyEntry.TOUCHED:
        items.append(_centre_number(box, 3, fonts.regular, st.number_size, INK))
    elif entry is KeyEntry.YOU:
        items += [Path(circle(cx, cy, s * 0.47), fill=INK),
                  _centre_number(box, 3, fonts.bold, st.number_size, PAPER_WHITE)]
    elif entry in (KeyEntry.DRILL, KeyEntry.BOOST):
        items.append(Rect(*_inset(box, st.heavy / 2), stroke=_stroke(st.heavy)))
        if entry is KeyEntry.BOOST:
            items.append(Rect(*_inset(box, st.heavy + st.mark_line * 1.5),
                              stroke=_stroke(st.mark_line)))
    elif entry is KeyEntry.COLLAPSE:
        inner = box.inset(s * 0.18)
        items += [Line(inner.x, inner.y, inner.right, inner.bottom, _stroke(st.mark_line)),
                  Line(inner.x, inner.bottom, inner.right, inner.y, _stroke(st.mark_line))]
    elif entry is KeyEntry.START:
        items.append(Path(circle(cx, cy, s * 0.42), stroke=_stroke(st.mark_line)))
    elif entry is KeyEntry.CAPTURE:  # a small diamond of five squares, outlined
        third = s / 3
        plus = frozenset({(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)})
        items = outline(plus, BoardFrame(box.x, box.y, third), st.heavy)
    return items


FIGURES: dict[str, FigureMaker] = {"rotator-board": BoardFigure,
                                   "rotator-gravity": GravityFigure,
                                   "rotator-turns": TurnsFigure}
