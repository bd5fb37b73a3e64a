"""Play sheets for the Node games (Reflector, Deflector, Defector) when a table has
fewer cards than players: one page per player, at the card's own grid size.

A player's page is a card opened flat, enlarged to a sheet of paper: the fold runs
across the middle of the page, and the two 10 × 10 grids meet there Row 1 to Row 1,
exactly as on the card (``board.frame``: the upper grid is the lower one turned 180°, so
each grid reads with Column A on the left for the player at its outer edge). The lower
half is the player's own: the **Private** grid, the Control Node tally and, for Deflector
and Defector, the 20 Deflector boxes. The upper half is printed turned 180° for the
players across the table: the **Public** grid and boxes for the player's name and
symbol. Folded along the fold line the sheet stands up like a tent card, each half
facing its readers; cut along it, the Public half's Row 1 is its cut edge, so two
Reflector halves laid cut edge to cut edge meet Row 1 to Row 1 as the game asks.

Each half is laid out once in its own frame (x across the page, y from the fold
outwards) and placed on the page upright (Private) or turned 180° about the fold's
middle (Public), which keeps the grids aligned column for column.

For Deflector and Defector the players' pages are followed by **table pages**: each
arrangement of ``templates/tables/arrangements.toml`` (``games.nodes.tables``) for that many
players, drawn at the card's size by ``games.nodes.figures`` (its card look) with the
numbered seats, to lay in the middle of the table. An arrangement wider than a sheet
(the Island) is split into equal strips on sheets side by side, each but the last
ending in a grey glue strip and each but the first starting with a strip to cut off,
as the Corporate Ladder play mat is.

Every distance is data (``templates/playsheet/layout.toml``), every printed word too
(``templates/texts/playsheet.toml``). Type and lines are solid black set to overprint
(the ink rule); the only tints are fills: under the grids, and the glue strips.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from cardgen.board.art import GridStyle, grid_items
from cardgen.board.cells import GRID_SIZE, Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.datafile import read_toml
from cardgen.draw.colors import INK, Color, color_from_data
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import Anchor, Document, Group, Item, Line, Page, Rect, Stroke, Text
from cardgen.errors import CardgenError, FitError, ParameterError, number, shorten
from cardgen.games.names import NODE_GAMES, GameName
from cardgen.games.nodes.figures import CARD_STYLE, Look, arrangement_items, seat_point
from cardgen.games.nodes.model import CARD_GRID, NODES, Role, deflectors, player_range
from cardgen.games.nodes.tables import Arrangement, Layout, bundled, layout
from cardgen.physical.card import PRESETS, CardGeometry, Preset
from cardgen.prepress.intents import paper_intent
from cardgen.prepress.paper import Paper
from cardgen.resources import templates_dir
from cardgen.schema import Custom, Field, ListOf, Number, Table, check, nearest
from cardgen.text.fit import line_height
from cardgen.text.flow import Paragraph, flow
from cardgen.text.fonts import FontSet
from cardgen.texts import say


def printed(game: GameName) -> str:
    """A Node game's name as a play sheet prints it."""
    return say("playsheet", f"games.{game.value}")


def parse_game(text: str) -> GameName:
    """The game named ``text`` (any case), or an error suggesting the closest name."""
    word = text.strip().lower()
    for game in NODE_GAMES:
        if game.value == word:
            return game
    names = [g.value for g in NODE_GAMES]
    if word == "rotator":
        hint = " (Rotator is played alone, on the card itself)."
    else:
        match = nearest(word, names)
        hint = f"; did you mean {match}?" if match is not None else "."
    raise CardgenError(f"the game must be reflector, deflector or defector, not "
                       f"{shorten(text)}{hint}", value=text)


# --- the layout data -------------------------------------------------------------------

def _mm(help: str) -> Field:
    return Number(help, low=0, high=150)


def _size(help: str) -> Field:
    return Number(help, low=5, high=36)


def _color(value: Any) -> Color:
    return color_from_data(value)


LAYOUT = Table({
    "page": Table({"margin": _mm("from the paper's edge")}, optional=False),
    "grid": Table({"line": _mm("thin lines"), "border": _mm("outer lines"),
                   "public_fill": Custom(_color, "a colour", "under the Public grid"),
                   "private_fill": Custom(_color, "a colour", "under the Private grid")},
                  optional=False),
    "fold": Table({"line": _mm("fold line"),
                   "dash": ListOf(Number("dash", low=0.1, high=20), min_items=2),
                   "reach": _mm("dashes from the bands"), "label_gap": _mm("fold to label")},
                  optional=False),
    "type": Table({name: _size(name) for name in
                   ("heading", "caption", "box_label", "note", "tally", "footer")},
                  optional=False),
    "space": Table({name: _mm(name) for name in
                    ("caption", "line", "block", "tally_note", "boxes", "label_inset")},
                   optional=False),
    "boxes": Table({**{name: _mm(name) for name in
                       ("line", "name_width", "name_height", "symbol", "gap", "node_width",
                        "node_height", "node_gap", "deflector", "deflector_gap",
                        "deflector_group_gap")},
                    "deflectors_per_row": Number("boxes per row", low=1, high=20,
                                                 integer=True)}, optional=False),
    "table": Table({**{name: _mm(name) for name in
                       ("printable", "header_gap", "glue", "cut_strip", "tick", "tick_every",
                        "line")},
                    "title": _size("title"), "note": _size("note")}, optional=False),
})


@dataclass(frozen=True)
class SheetLayout:
    """The play sheets' numbers, by section of the layout file."""

    page: dict[str, float]
    grid: dict[str, Any]
    fold: dict[str, Any]
    type: dict[str, float]
    space: dict[str, float]
    boxes: dict[str, float]
    table: dict[str, float]


def layout_path() -> str:
    return str(templates_dir() / "playsheet" / "layout.toml")


@cache
def sheet_layout() -> SheetLayout:
    """The bundled layout, checked once per process."""
    path = layout_path()
    values = check(LAYOUT, read_toml(templates_dir() / "playsheet" / "layout.toml",
                                     "layout file"), path)
    return SheetLayout(values["page"], values["grid"], values["fold"],
                       values["type"], values["space"], values["boxes"], values["table"])


def check_players(game: GameName, players: int | None) -> int:
    """The number of players, checked against the game (None: the fewest it takes)."""
    low, high = player_range(game)
    if players is None:
        return low
    if not low <= players <= high:
        allowed = f"{low}" if low == high else f"from {low} to {high}"
        raise ParameterError("players", f"must be {allowed} for {printed(game)}, not "
                             f"{number(players)}.", value=players)
    return players


# --- drawing ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Half:
    """What a half of the page is laid out in: its width, its depth from the fold to the
    paper's margin, and where the grid sits (x of its left edge, side)."""

    width: float
    depth: float
    grid_x: float
    cell: float

    @property
    def grid(self) -> float:
        return GRID_SIZE * self.cell

    @property
    def below_grid(self) -> float:
        """The first y below the grid's column letters."""
        return self.grid + LABEL_BAND


def _stroke(width: float, dash: tuple[float, ...] = ()) -> Stroke:
    return Stroke(INK, width, dash)


def _grid(half: _Half, grid: Grid, fill: Color, layout: SheetLayout, fonts: FontSet,
          ) -> list[Item]:
    """A grid in the half's frame, drawn as on the card: the card's lines, its 6 pt
    labels in the card's label band, over a faint fill. As on the card, the lower grid
    (B, Private) draws the fold line the two grids share."""
    style = GridStyle(INK, INK, INK, fonts.regular, LABEL_BAND,
                      line_width=layout.grid["line"], border_width=layout.grid["border"])
    side = half.grid
    items: list[Item] = [Rect(0, 0, side, side, fill=fill),
                         *grid_items(grid, half.cell, style, draw_fold=grid is Grid.B)]
    return [Group(items, Affine.translate(half.grid_x, 0), name=f"grid-{grid}")]


def _fold(half: _Half, layout: SheetLayout, fonts: FontSet) -> list[Item]:
    """The dashed fold line beside the grid (each half draws the part on the side where
    its own label starts), and the label telling what to do with it."""
    f, margin = layout.fold, layout.page["margin"]
    stroke = _stroke(f["line"], tuple(f["dash"]))
    left_end = half.grid_x - LABEL_BAND - f["reach"]
    items: list[Item] = [Line(margin, 0, left_end, 0, stroke)]
    size = layout.type["footer"]
    text = say("playsheet", "sheet.fold")
    items += _lines([Paragraph(text, fonts.regular, size, INK)],
                    Box(margin, f["label_gap"] - fonts.regular.metrics.cap_height_mm(size),
                        left_end - margin, 3 * line_height(size)),
                    "the play sheet's fold label")
    return items


def _lines(paragraphs: list[Paragraph], box: Box, where: str) -> list[Item]:
    placed = flow(paragraphs, [box], where=where)
    return [item for lines in placed for item in lines]


def _box(x: float, y: float, w: float, h: float, label: str, layout: SheetLayout,
         fonts: FontSet) -> list[Item]:
    """A box to write in, its label small in the top-left corner."""
    inset, size = layout.space["label_inset"], layout.type["box_label"]
    items: list[Item] = [Rect(x, y, w, h, stroke=_stroke(layout.boxes["line"]))]
    if label:
        items.append(Text(x + inset, y + inset + fonts.regular.metrics.cap_height_mm(size),
                          label, fonts.regular, size, INK))
    return items


def _heading(half: _Half, y: float, game: GameName, player: int, count: int, lead: str,
             caption: str, layout: SheetLayout, fonts: FontSet) -> tuple[list[Item], float]:
    """The half's heading (game and player) and its caption (a bold lead, then the
    note), centred under the grid; the y below them."""
    t, s = layout.type, layout.space
    cx = half.width / 2
    baseline = y + fonts.bold.metrics.cap_height_mm(t["heading"])
    items: list[Item] = [Text(cx, baseline, say("playsheet", "sheet.heading", game=printed(game),
                                                n=player, count=count),
                              fonts.bold, t["heading"], INK, anchor=Anchor.MIDDLE,
                              name="player")]
    baseline += s["line"]
    size = t["caption"]
    lead = f"{lead}. "
    lead_w, caption_w = fonts.bold.width(lead, size), fonts.regular.width(caption, size)
    x = cx - (lead_w + caption_w) / 2
    items.append(Text(x, baseline, lead, fonts.bold, size, INK))
    items.append(Text(x + lead_w, baseline, caption, fonts.regular, size, INK))
    return items, baseline + s["block"]


def _public_half(half: _Half, game: GameName, player: int, count: int, layout: SheetLayout,
                 fonts: FontSet) -> list[Item]:
    """The Public grid, the heading, and the boxes for the player's name and symbol."""
    items = _grid(half, CARD_GRID[Role.PUBLIC], layout.grid["public_fill"], layout, fonts)
    items += _fold(half, layout, fonts)
    top = half.below_grid + layout.space["caption"] - layout.space["line"]
    heading, y = _heading(half, top, game, player, count, say("playsheet", "sheet.public"),
                          say("playsheet", "sheet.public_note"), layout, fonts)
    items += heading
    b = layout.boxes
    width = b["name_width"] + b["gap"] + b["symbol"]
    x = (half.width - width) / 2
    items += _box(x, y, b["name_width"], b["name_height"], say("playsheet", "sheet.name"),
                  layout, fonts)
    sx = x + b["name_width"] + b["gap"]
    items += _box(sx, y, b["symbol"], b["symbol"], say("playsheet", "sheet.symbol"), layout,
                  fonts)
    note_size = layout.type["note"]
    items.append(Text(sx + b["symbol"], y + b["symbol"] + layout.space["tally_note"],
                      say("playsheet", "sheet.symbol_note"), fonts.regular, note_size, INK,
                      anchor=Anchor.END))
    _check_depth(half, y + b["symbol"] + layout.space["tally_note"], "Public")
    return items


def _tally_head(x: float, y: float, width: float, title: str, note: str, layout: SheetLayout,
                fonts: FontSet) -> tuple[list[Item], float]:
    """A tally's heading and its note (wrapped); the y where its boxes start."""
    t, s = layout.type, layout.space
    baseline = y + fonts.bold.metrics.cap_height_mm(t["tally"])
    items: list[Item] = [Text(x, baseline, title, fonts.bold, t["tally"], INK)]
    top = baseline + s["tally_note"] - fonts.regular.metrics.cap_height_mm(t["note"])
    lines = _lines([Paragraph(note, fonts.regular, t["note"], INK)],
                   Box(x, top, width, 4 * line_height(t["note"])), "a play sheet's tally")
    items += lines
    last = max((item.y for item in lines if isinstance(item, Text)), default=baseline)
    return items, last + s["boxes"]


def _private_half(half: _Half, game: GameName, player: int, count: int, cell: float,
                  preset: Preset, layout: SheetLayout, fonts: FontSet) -> list[Item]:
    """The Private grid, the heading, the Node and Deflector tallies, the footer."""
    b, s = layout.boxes, layout.space
    items = _grid(half, CARD_GRID[Role.PRIVATE], layout.grid["private_fill"], layout, fonts)
    items += _fold(half, layout, fonts)
    top = half.below_grid + s["caption"] - s["line"]
    heading, y = _heading(half, top, game, player, count, say("playsheet", "sheet.private"),
                          say("playsheet", "sheet.private_note"), layout, fonts)
    items += heading
    # The tallies share one column, as wide as the widest row of boxes.
    node_row = NODES * b["node_width"] + (NODES - 1) * b["node_gap"]
    per_row = int(b["deflectors_per_row"])
    groups = (per_row - 1) // 5
    deflector_row = (per_row * b["deflector"] + (per_row - 1) * b["deflector_gap"]
                     + groups * b["deflector_group_gap"])
    width = max(node_row, deflector_row, b["name_width"] + b["gap"] + b["symbol"])
    x = (half.width - width) / 2
    head, y = _tally_head(x, y, width, say("playsheet", "sheet.nodes"),
                          say("playsheet", "sheet.nodes_note"), layout, fonts)
    items += head
    for n in range(NODES):
        items += _box(x + n * (b["node_width"] + b["node_gap"]), y, b["node_width"],
                      b["node_height"], say("playsheet", "sheet.node", n=n + 1), layout, fonts)
    y += b["node_height"] + s["block"]
    if deflectors(game):
        head, y = _tally_head(x, y, width, say("playsheet", "sheet.deflectors"),
                              say("playsheet", "sheet.deflectors_note", count=deflectors(game)),
                              layout, fonts)
        items += head
        side, gap = b["deflector"], b["deflector_gap"]
        for n in range(deflectors(game)):
            row, col = divmod(n, per_row)
            bx = x + col * (side + gap) + (col // 5) * b["deflector_group_gap"]
            items.append(Rect(bx, y + row * (side + gap), side, side,
                              stroke=_stroke(b["line"])))
        rows = -(-deflectors(game) // per_row)
        y += rows * side + (rows - 1) * gap + s["block"]
    footer_size = layout.type["footer"]
    footer = say("playsheet", "sheet.footer", cell=f"{cell:g}", preset=preset.value)
    foot = _lines([Paragraph(footer, fonts.regular, footer_size, INK)],
                  Box(x, y, width, 3 * line_height(footer_size)), "the play sheet's footer")
    items += foot
    bottom = max(item.y for item in foot if isinstance(item, Text))
    _check_depth(half, bottom, "Private")
    return items


def _check_depth(half: _Half, bottom: float, which: str) -> None:
    if bottom > half.depth + 1e-9:
        raise FitError(f"the play sheet's {which} half needs {bottom:.1f} mm from the fold "
                       f"and the paper leaves {half.depth:.1f} mm; shrink "
                       "templates/playsheet/layout.toml.")


def player_page(game: GameName, player: int, count: int, preset: Preset, paper: Paper,
                fonts: FontSet) -> Page:
    """Player ``player``'s page of ``count``: the Public half above the fold (turned 180°
    for the other players), the Private half below it."""
    layout = sheet_layout()
    pw, ph = paper.size
    cell = CardGeometry(PRESETS[preset]).cell
    fold_y = ph / 2
    half = _Half(pw, fold_y - layout.page["margin"], (pw - GRID_SIZE * cell) / 2, cell)
    page = Page(f"player-{player}", pw, ph, Box(0, 0, pw, ph), Box(0, 0, pw, ph))
    # Turning the Public half about the fold's middle keeps the grids column on column.
    public = Affine.translate(pw, fold_y) @ Affine.rotate(180)
    page.layer("public").add(Group(_public_half(half, game, player, count, layout, fonts),
                                   public, name="public"))
    page.layer("private").add(Group(_private_half(half, game, player, count, cell, preset,
                                                  layout, fonts),
                                    Affine.translate(0, fold_y), name="private"))
    return page


# --- the table pages --------------------------------------------------------------------

GLUE = Color.cmyk(0, 0, 0, 12)  # the strip the next sheet is glued on (a fill)


def table_arrangements(game: GameName, players: int) -> list[Arrangement]:
    """The table arrangements of ``game`` for exactly ``players`` (none for Reflector:
    its two players' sheets are the whole table)."""
    if game is GameName.REFLECTOR:
        return []
    return [arr for arr in bundled().values()
            if arr.game.value == game.value and arr.players == players]


@dataclass(frozen=True)
class _Sheets:
    """How an arrangement goes on paper: the page size, how many sheets side by side,
    and where the art is split between them (x in the art's frame)."""

    width: float
    height: float
    joins: tuple[float, ...]  # 0, the joins, the art's width

    @property
    def count(self) -> int:
        return len(self.joins) - 1


def _plan_sheets(art_w: float, art_h: float, top: float, paper: Paper,
                 t: dict[str, float]) -> _Sheets:
    """The fewest sheets, portrait first, that hold the art at full size: the heading
    (down to ``top``) and the art one above the other, the art split into equal strips
    across sheets side by side when it is wider than one."""
    best: _Sheets | None = None
    for landscape in (False, True):
        w, h = paper.size
        if landscape:
            w, h = h, w
        usable_w = w - 2 * t["printable"]
        if top + art_h > h - t["printable"]:
            continue
        n = 1
        while n <= 12:
            room = usable_w - (0 if n == 1 else t["glue"] + t["cut_strip"] if n > 2
                               else max(t["glue"], t["cut_strip"]))
            if art_w / n <= room + 1e-9:
                break
            n += 1
        else:
            continue
        if best is None or n < best.count:
            best = _Sheets(w, h, tuple(k * art_w / n for k in range(n + 1)))
    if best is None:
        raise FitError(f"a table arrangement {art_w:.0f} × {art_h:.0f} mm does not fit "
                       f"sheets of {paper.upper()} paper.")
    return best


def table_layout(arr: Arrangement, cell: float) -> Layout:
    """The arrangement at ``cell`` mm a square with everything drawn around its grids
    (their label bands, the seats) inside ``(0, 0, width, height)``."""
    lay = layout(arr, cell)
    points = []
    for outline in lay.grids:
        side = GRID_SIZE * cell
        banded = Box(0, 0, side, side).inset(-LABEL_BAND)
        points += [outline.transform.apply(x, y) for x, y in banded.corners()]
    r = CARD_STYLE.seat_radius
    for player in range(1, arr.players + 1):
        x, y = seat_point(lay, arr.seat_grid(player).id, CARD_STYLE)
        points += [(x - r, y - r), (x + r, y + r)]
    box = Box.around(points)
    moved = layout(arr, cell, -box.x, -box.y)
    return replace(moved, width=box.w, height=box.h)


def _table_header(arr: Arrangement, game: GameName, x: float, y: float, width: float,
                  sheet: int, sheets: int, layout: SheetLayout, fonts: FontSet,
                  ) -> list[Item]:
    t = layout.table
    title = say("playsheet", "tables.title", game=printed(game), count=arr.players,
                arrangement=say("playsheet", f"tables.names.{arr.name}"))
    note = say("playsheet", "tables.note")
    if sheets > 1:
        note = " ".join((say("playsheet", "tables.sheet", n=sheet, count=sheets), note,
                         say("playsheet", "tables.assemble")))
    paragraphs = [Paragraph(title, fonts.bold, t["title"], INK, space_after=1.5),
                  Paragraph(note, fonts.regular, t["note"], INK)]
    return _lines(paragraphs, Box(x, y, width, 60.0), "a play sheet's table heading")


def _header_height(items: list[Item], top: float, layout: SheetLayout, fonts: FontSet,
                   ) -> float:
    last = max(item.y for item in items if isinstance(item, Text))
    return last + fonts.regular.metrics.descent_mm(layout.table["note"]) - top


def table_pages(arr: Arrangement, game: GameName, preset: Preset, paper: Paper,
                fonts: FontSet) -> list[Page]:
    """An arrangement at the card's size under its heading: one page, or sheets side by
    side to cut and glue when it is wider than one."""
    layout_ = sheet_layout()
    t = layout_.table
    cell = CardGeometry(PRESETS[preset]).cell
    lay = table_layout(arr, cell)
    art = arrangement_items(lay, fonts, Look.CARD)
    edge, margin = t["printable"], layout_.page["margin"]
    # The heading's height does not depend on the sheet's width by much: measure it on
    # the narrower (portrait) width, the worst case.
    probe = _table_header(arr, game, 0, 0, paper.size[0] - 2 * margin, 1, 2, layout_, fonts)
    header = margin + _header_height(probe, 0, layout_, fonts) + t["header_gap"]
    plan = _plan_sheets(lay.width, lay.height, header, paper, t)
    pages = []
    for k in range(plan.count):
        left, right = plan.joins[k], plan.joins[k + 1]
        cut = t["cut_strip"] if k > 0 else 0.0
        glue = t["glue"] if k < plan.count - 1 else 0.0
        name = arr.name if plan.count == 1 else f"{arr.name}-{k + 1}"
        page = Page(name, plan.width, plan.height, Box(0, 0, plan.width, plan.height),
                    Box(0, 0, plan.width, plan.height))
        usable = plan.width - 2 * edge
        head = _table_header(arr, game, margin, margin, plan.width - 2 * margin, k + 1,
                             plan.count, layout_, fonts)
        page.layer("heading").add(*head)
        top = margin + _header_height(head, margin, layout_, fonts) + t["header_gap"]
        content = (right - left) + cut + glue
        ox = edge + (usable - content) / 2 + cut - left
        oy = top + (plan.height - edge - top - lay.height) / 2
        items: list[Item] = []
        if plan.count == 1:
            items.append(Group(art))
        else:
            items += _joined(art, left, right, cut, glue, lay.height, t, fonts)
        page.layer("table").add(Group(items, Affine.translate(ox, oy), name=arr.name))
        pages.append(page)
    return pages


def _joined(art: list[Item], left: float, right: float, cut: float, glue: float,
            height: float, t: dict[str, float], fonts: FontSet) -> list[Item]:
    """One strip of a split arrangement (art x from ``left`` to ``right``): the art
    clipped to it, a glue strip with a dashed join after it and a cut strip with a solid
    join before it, ticks across each join to line the sheets up."""
    stroke = _stroke(t["line"])
    size = t["note"]
    spans = max(1, -(-int(height + 6.0) // int(t["tick_every"])))
    ticks = [-3.0 + i * (height + 6.0) / spans for i in range(spans + 1)]
    items: list[Item] = []
    if glue:
        items.append(Rect(right, -6.0, glue, height + 12.0, fill=GLUE))
    items.append(Group(art, clip=Box(left, -6.0, right - left, height + 12.0)))
    if glue:
        items.append(Line(right, -6.0, right, height + 6.0, _stroke(t["line"], (2.0, 1.5))))
        items += [Line(right - t["tick"], y, right + glue, y, stroke) for y in ticks]
        items.append(Text(right + glue / 2, height / 2, say("playsheet", "tables.glue"),
                          fonts.regular, size, INK, anchor=Anchor.MIDDLE, rotation=90.0))
    if cut:
        items.append(Line(left, -6.0, left, height + 6.0, stroke))
        items += [Line(left - cut + 1.0, y, left + t["tick"], y, stroke) for y in ticks]
        items.append(Text(left - cut / 2, height / 2, say("playsheet", "tables.cut"),
                          fonts.regular, size, INK, anchor=Anchor.MIDDLE, rotation=90.0))
    return items


def playsheet_document(game: GameName, players: int, preset: Preset, paper: Paper,
                       fonts: FontSet) -> Document:
    """Every player's page, in order (``players`` checked against the game), then, for
    Deflector and Defector, the table arrangements for that many players."""
    count = check_players(game, players)
    pages = [player_page(game, n, count, preset, paper, fonts) for n in range(1, count + 1)]
    for arr in table_arrangements(game, count):
        pages += table_pages(arr, game, preset, paper, fonts)
    return Document(pages, title=say("playsheet", "sheet.document", game=printed(game),
                                     count=count),
                    subject=say("playsheet", "sheet.subject", game=printed(game)),
                    output_intent=paper_intent(paper))
