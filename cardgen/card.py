"""The game business card: the outside and inside spreads as page descriptions.

Page 1 (outside): front panel upright in the lower half, back panel (the Connector board)
rotated 180° in the upper half. Page 2 (inside): the twin 10 × 10 grids across the fold,
the side tabs, and the cut/score dieline on a non-printing layer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardgen import __version__
from cardgen.art import flowing_curves, hatch
from cardgen.boardart import GridStyle, grid_items
from cardgen.cardgeometry import LABEL_BAND, CardGeometry
from cardgen.colors import CUT_CONTOUR, SCORE_LINE, Color
from cardgen.config import CardConfig, Person
from cardgen.connector_layout import link_positions
from cardgen.errors import CardgenError
from cardgen.fonts import FontSet, bundled_fonts, load_face
from cardgen.geometry import Box
from cardgen.page import Document, Group, Image, Item, Line, Page, Path, Rect, Stroke, Text
from cardgen.qrcode import QUIET_ZONE, module_runs, qr_matrix, vcard
from cardgen.textfit import fit_line, fit_paragraph, line_height
from cardgen.themes import Theme, load_theme

REGISTRATION = Color.cmyk(100, 100, 100, 100, spot="All")
MARK_STROKE = Stroke(REGISTRATION, 0.1)
FOLD_STROKE = Stroke(REGISTRATION, 0.1, dash=(1.0, 0.7))
CUT_STROKE = Stroke(CUT_CONTOUR, 0.1)
SCORE_STROKE = Stroke(SCORE_LINE, 0.1, dash=(1.5, 1.0))
QR_MAX = 22.0  # mm, the QR code's side including its quiet zone
MIN_QR_MODULE = 0.3  # mm; smaller modules scan poorly from print

# The four games as the back panel describes them (the project's own words).
GAMES = (
    ("Rotator", "1 player",
     "Fall from the top row to the bottom one. Drill through one solid square a turn; "
     "every square you touch fills in three turns later, and the board turns a quarter "
     "after each move."),
    ("Reflector", "2 players",
     "Hunt your rival's five hidden Nodes one square at a time. Every square you take "
     "from them is lost from your own grid as well."),
    ("Deflector", "3–5 players",
     "Capture Nodes square by square while twenty hidden Deflectors bounce shots onto "
     "your neighbours. The last one holding ground wins."),
    ("Defector", "6+ players",
     "Reflector and Deflector for a crowd: forge alliances, strike together, betray at "
     "the right moment. Only one player ends up holding territory."),
)


@dataclass
class CardBuild:
    document: Document
    geometry: CardGeometry
    theme: Theme
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _TextLine:
    field: str
    text: str
    face_style: str
    size: float
    min_size: float
    color: Color
    gap: float = 0.0


def resolve_fonts(config: CardConfig) -> FontSet:
    """The bundled family, with any face the config names instead."""
    bundled = bundled_fonts()
    faces = {}
    for style in ("regular", "bold", "italic"):
        path = config.fonts.get(style)
        faces[style] = load_face(path, style, f"fonts.{style}") if path else getattr(bundled, style)
    return FontSet(**faces)


def build_card(config: CardConfig) -> CardBuild:
    """Lay out the whole card from a validated config."""
    geometry = CardGeometry(config.size, config.marks)
    theme = load_theme(config.theme, config.base_dir)
    fonts = resolve_fonts(config)
    build = CardBuild(Document([], title=f"{config.person.name} – game business card",
                               subject="cardgen game business card"), geometry, theme)
    outside = _new_page(geometry, "outside")
    inside = _new_page(geometry, "inside")
    _outside(outside, config, geometry, theme, fonts, build.warnings)
    _inside(inside, config, geometry, theme, fonts, build.warnings)
    for page, label in ((outside, "outside spread"), (inside, "inside spread")):
        _marks(page, geometry, fonts, label, inside=page is inside)
    _dieline(inside, geometry, fonts)
    build.document.pages.extend([outside, inside])
    return build


def _new_page(geometry: CardGeometry, name: str) -> Page:
    return Page(name, geometry.page_width, geometry.page_height, geometry.trim, geometry.bleed_box)


# --- outside ---------------------------------------------------------------------------

def _outside(page: Page, config: CardConfig, geometry: CardGeometry, theme: Theme,
             fonts: FontSet, warnings: list[str]) -> None:
    bleed, b = geometry.bleed_box, geometry.size.bleed
    background = page.layer("background")
    background.add(Rect(bleed.x, bleed.y, bleed.w, bleed.h, fill=theme.outside["background"]))
    # Each panel's curves are drawn in the panel's own frame, over the panel and its bleed.
    panel_with_bleed = Box(-b, -b, geometry.size.width + 2 * b, geometry.size.height + b)
    # On the front they flow through the free band between the name and the contacts; on
    # the text-filled back only dark ribbons and a few dim lines, so that text stays clear.
    front_art = flowing_curves(panel_with_bleed, theme.curve_fills, theme.curve_strokes,
                               theme.curve_lines, theme.curve_amplitude, variant=0,
                               band=(0.34, 0.72))
    back_art = flowing_curves(panel_with_bleed, theme.curve_fills, theme.curve_strokes[:1],
                              max(theme.curve_lines // 3, 1), theme.curve_amplitude * 0.6,
                              variant=3, band=(0.3, 1.0))
    background.add(Group(front_art, transform=geometry.front_to_page, clip=panel_with_bleed,
                         name="front-art"))
    background.add(Group(back_art, transform=geometry.back_to_page, clip=panel_with_bleed,
                         name="back-art"))
    content = page.layer("content")
    content.add(Group(_front_panel(config, geometry, theme, fonts, warnings),
                      transform=geometry.front_to_page, name="front-panel"))
    content.add(Group(_back_panel(geometry, theme, fonts), transform=geometry.back_to_page,
                      name="back-panel"))


def _front_panel(config: CardConfig, geometry: CardGeometry, theme: Theme, fonts: FontSet,
                 warnings: list[str]) -> list[Item]:
    safe = geometry.panel_safe()
    colors = theme.outside
    items: list[Item] = []
    right_column = 0.0
    qr_side = 0.0
    if config.qr:
        qr_side = min(QR_MAX, 0.46 * safe.h)
        items.extend(_qr(vcard(config.person), safe.right - qr_side, safe.bottom - qr_side,
                         qr_side, colors, warnings))
        right_column = qr_side
    if config.logo is not None:
        from cardgen.imaging import fit_logo, open_image

        logo = open_image(config.logo, "images.logo")
        max_w = qr_side or QR_MAX
        max_h = safe.h - qr_side - 3 if qr_side else 0.45 * safe.h
        raster, w, h, dpi = fit_logo(logo, max_w, max_h)
        if dpi < 300:
            warnings.append(f"images.logo: {config.logo.name} is only {dpi:.0f} dpi at "
                            f"{w:.1f} mm wide and may print soft (300 dpi is best).")
        items.append(Image(safe.right - w, safe.y, w, h, raster, name="logo"))
        right_column = max(right_column, w)
    column = safe.w - (right_column + 3.0 if right_column else 0.0)
    return items + _front_text(config.person, fonts, colors, Box(safe.x, safe.y, column, safe.h))


def _front_text(person: Person, fonts: FontSet, colors: dict[str, Color], area: Box,
                ) -> list[Item]:
    """Name, title and company from the top of ``area``; contact lines and tagline from
    its foot; every line fitted to the width, then all shrunk together to the height."""
    safe = area
    items: list[Item] = []
    top = [
        _TextLine("person.name", person.name, "bold", 15, 9, colors["name"]),
        _TextLine("person.title", person.title, "italic", 8.5, 6, colors["accent"], 0.8),
        _TextLine("person.company", person.company, "regular", 8.5, 6, colors["text"]),
    ]
    contact = [
        _TextLine(f"person.{key}", getattr(person, key), "regular", 7, 6, colors["text"], 0.3)
        for key in ("email", "phone", "web", "address")
    ]
    tagline = _TextLine("person.tagline", person.tagline, "italic", 6.5, 6, colors["muted"])
    top = [line for line in top if line.text]
    contact = [line for line in contact if line.text]
    lines = top + contact + ([tagline] if tagline.text else [])
    sizes = {line.field: fit_line(line.text, getattr(fonts, line.face_style), line.size,
                                  line.min_size, area.w, line.field) for line in lines}
    rule_space = 2.4
    block_gap = 2.5

    def height(block: list[_TextLine]) -> float:
        return sum(line.gap + line_height(sizes[line.field]) for line in block)

    def total() -> float:
        parts = [height(top) + rule_space, height(contact),
                 height([tagline]) if tagline.text else 0.0]
        return sum(parts) + block_gap * (len([p for p in parts if p]) - 1)

    for _ in range(8):  # shrink everything together until the stack fits the safe height
        if total() <= safe.h:
            break
        factor = safe.h / total()
        sizes = {line.field: max(line.min_size, round(sizes[line.field] * factor - 0.05, 1))
                 for line in lines}
    if total() > safe.h + 1e-6:
        cursor, overflow = 0.0, lines[-1].field
        for line in lines:
            cursor += line.gap + line_height(sizes[line.field])
            if cursor > safe.h:
                overflow = line.field
                break
        raise CardgenError(
            f"{overflow} does not fit on the front panel: the text needs {total():.1f} mm of "
            f"height at the smallest legible sizes and the safe area is {safe.h:.1f} mm; "
            "leave out a field or shorten the texts."
        )

    def place(line: _TextLine, baseline: float) -> Text:
        return Text(safe.x, baseline, line.text, getattr(fonts, line.face_style),
                    sizes[line.field], line.color, name=line.field.replace(".", "-"))

    cursor = safe.y
    for i, line in enumerate(top):
        face = getattr(fonts, line.face_style)
        size = sizes[line.field]
        if i == 0:  # the name's tallest glyph touches the top of the safe area
            baseline = cursor + face.metrics.ink_top_mm(line.text, size)
            cursor = baseline + face.metrics.descent_mm(size)
        else:
            cursor += line.gap
            baseline = cursor + line_height(size) - face.metrics.descent_mm(size)
            cursor += line_height(size)
        items.append(place(line, baseline))
    rule_y = cursor + rule_space / 2
    items.append(Line(safe.x, rule_y, safe.x + 12, rule_y, Stroke(colors["rule"], 0.3)))

    bottom = safe.bottom
    if tagline.text:
        face = fonts.italic
        items.append(place(tagline, bottom - face.metrics.descent_mm(sizes[tagline.field])))
        bottom -= line_height(sizes[tagline.field]) + block_gap
    for line in reversed(contact):
        face = getattr(fonts, line.face_style)
        size = sizes[line.field]
        items.append(place(line, bottom - face.metrics.descent_mm(size)))
        bottom -= line_height(size) + line.gap
    return items


def _qr(text: str, x: float, y: float, side: float, colors: dict[str, Color],
        warnings: list[str]) -> list[Item]:
    matrix = qr_matrix(text)
    module = side / (len(matrix) + 2 * QUIET_ZONE)
    if module < MIN_QR_MODULE:
        warnings.append(f"card.qr: the QR code's modules are only {module:.2f} mm; phones may "
                        "struggle to scan it. Shorten the contact details for a coarser code.")
    ops: list[tuple] = []
    for row, col, length in module_runs(matrix):
        mx = x + (col + QUIET_ZONE) * module
        my = y + (row + QUIET_ZONE) * module
        ops += [("M", mx, my), ("L", mx + length * module, my),
                ("L", mx + length * module, my + module), ("L", mx, my + module), ("Z",)]
    return [Rect(x, y, side, side, fill=colors["qr_background"]),
            Path(tuple(ops), fill=colors["qr_modules"])]


def _back_panel(geometry: CardGeometry, theme: Theme, fonts: FontSet) -> list[Item]:
    safe = geometry.panel_safe()
    colors = theme.outside
    items: list[Item] = []
    link_size = 7.0
    for number, (x, y) in sorted(link_positions(geometry).items()):
        if number in "1234":
            items.append(_link_number(number, x, y, fonts, link_size, colors["link"]))
    # Keep the corners free for the link numbers.
    inset = 2 * 1.6 + 1.0
    area = Box(safe.x + inset, safe.y, safe.w - 2 * inset, safe.h)
    heading = "Four pencil games live inside this card"
    heading_size = fit_line(heading, fonts.italic, 6.5, 5.5, area.w, "back panel heading")
    baseline = area.y + fonts.italic.metrics.ink_top_mm(heading, heading_size)
    items.append(Text(area.x + area.w / 2, baseline, heading, fonts.italic, heading_size,
                      colors["muted"], anchor="middle", name="back-heading"))
    top = baseline + 2.2
    gap = 2.0
    cell_w = (area.w - gap) / 2
    cell_h = (area.bottom - top - gap) / 2
    for i, (game, players, description) in enumerate(GAMES):
        cx = area.x + (i % 2) * (cell_w + gap)
        cy = top + (i // 2) * (cell_h + gap)
        title_size = 7.5
        title_base = cy + fonts.bold.metrics.cap_height_mm(title_size)
        items.append(Text(cx, title_base, game, fonts.bold, title_size, colors["accent"],
                          name=f"game-{game.lower()}"))
        players_x = cx + fonts.bold.width(game, title_size) + 1.2
        items.append(Text(players_x, title_base, players, fonts.italic, 6, colors["muted"]))
        body_top = title_base + 1.0
        size, lines = fit_paragraph(description, fonts.regular, 6.0, 5.0, cell_w,
                                    cy + cell_h - body_top, f"the {game} description")
        for n, text in enumerate(lines):
            base = body_top + (n + 1) * line_height(size) - fonts.regular.metrics.descent_mm(size)
            items.append(Text(cx, base, text, fonts.regular, size, colors["text"]))
    return items


def _link_number(number: str, x: float, y: float, fonts: FontSet, size: float,
                 color: Color) -> Text:
    """A link number centred on (x, y)."""
    baseline = y + fonts.bold.metrics.cap_height_mm(size) / 2
    return Text(x, baseline, number, fonts.bold, size, color, anchor="middle",
                name=f"link-{number}")


# --- inside ----------------------------------------------------------------------------

def _inside(page: Page, config: CardConfig, geometry: CardGeometry, theme: Theme,
            fonts: FontSet, warnings: list[str]) -> None:
    colors = theme.inside
    bleed, panel = geometry.bleed_box, geometry.game_panel
    background = page.layer("background")
    background.add(Rect(bleed.x, bleed.y, bleed.w, bleed.h, fill=colors["margin"]))
    background.add(Rect(panel.x, panel.y, panel.w, panel.h, fill=colors["ground"]))

    side = geometry.grid_size
    tints = (colors["tint_a"], colors["tint_b"])
    portraits = page.layer("portrait")
    if config.portrait is not None:
        from cardgen.imaging import PRINT_DPI, open_image, portrait_rasters

        photo = open_image(config.portrait, "images.portrait")
        raster_a, raster_b, dpi = portrait_rasters(photo, side, tints, theme.portrait_strength)
        if dpi < PRINT_DPI:
            warnings.append(f"images.portrait: {config.portrait.name} has only {dpi:.0f} dpi "
                            f"across the {side:.0f} mm grid and may print soft (300 dpi is best).")
        for grid, raster in (("A", raster_a), ("B", raster_b)):
            portraits.add(Group([Image(0, 0, side, side, raster, name=f"portrait-{grid}")],
                                transform=geometry.grid_to_page(grid)))
    else:
        for grid, tint in zip("AB", tints, strict=True):
            portraits.add(Group([Rect(0, 0, side, side, fill=tint.tint(theme.plain_tint))],
                                transform=geometry.grid_to_page(grid)))

    grid_layer = page.layer("grid")
    style = GridStyle(colors["grid_line"], colors["grid_border"], colors["label"], fonts.regular,
                      LABEL_BAND)
    for grid in "AB":
        # Grid B draws the fold line that both grids share.
        grid_layer.add(Group(grid_items(grid, geometry.cell, style, draw_fold=grid == "B"),
                             transform=geometry.grid_to_page(grid), name=f"grid-{grid}"))
    tabs = page.layer("tabs")
    for tab, box in geometry.tabs.items():
        # The pattern runs on into the bleed on the tab's outer sides.
        b = geometry.size.bleed
        left = box.x - b if tab == "5" else box.x
        area = Box(left, box.y - b, box.w + b, box.h + b)
        tabs.add(Group(hatch(area, colors["pattern"]), clip=area, name=f"tab-{tab}-pattern"))
        x, y = link_positions(geometry)[tab]
        r = 2.4
        tabs.add(Group([Rect(x - r, y - r, 2 * r, 2 * r, fill=colors["margin"]),
                        _link_number(tab, x, y, fonts, 7.0, colors["link"])],
                       transform=geometry.addendum_to_inside(tab), name=f"tab-{tab}"))


# --- marks and dieline -------------------------------------------------------------------

def _marks(page: Page, geometry: CardGeometry, fonts: FontSet, label: str, inside: bool) -> None:
    if not geometry.marks:
        return
    marks = page.layer("marks")
    for (x1, y1), (x2, y2) in geometry.crop_marks():
        marks.add(Line(x1, y1, x2, y2, MARK_STROKE))
    for (x1, y1), (x2, y2) in geometry.fold_marks(inside):
        marks.add(Line(x1, y1, x2, y2, FOLD_STROKE))
    size = geometry.size
    info = (f"cardgen {__version__} · {label} · {size.width:g} × {2 * size.height:g} mm flat, "
            f"folds to {size.width:g} × {size.height:g} mm · bleed {size.bleed:g} mm")
    baseline = geometry.bleed_box.bottom + 3.2
    marks.add(Text(geometry.center_x, baseline, info, fonts.regular, 5, REGISTRATION,
                   anchor="middle", name="slug-info"))


def _dieline(page: Page, geometry: CardGeometry, fonts: FontSet) -> None:
    dieline = page.layer("dieline", printing=False)
    for (x1, y1), (x2, y2) in geometry.cut_lines():
        dieline.add(Line(x1, y1, x2, y2, CUT_STROKE))
    for (x1, y1), (x2, y2) in geometry.score_lines():
        dieline.add(Line(x1, y1, x2, y2, SCORE_STROKE))
    if geometry.marks:
        baseline = geometry.bleed_box.bottom + 3.2
        dieline.add(Text(geometry.center_x, baseline,
                         "DIELINE, do not print · solid: cut (CutContour) · dashed: score (Score)",
                         fonts.regular, 5, CUT_CONTOUR, anchor="middle", name="dieline-legend"))
