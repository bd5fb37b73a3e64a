"""The outside spread: the front panel (name, contacts, QR code, logo) upright in the
lower half, the back panel (the Connector board) turned 180° in the upper half."""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.card.art import flowing_curves
from cardgen.card.config import CardConfig, Person, QRContent
from cardgen.card.contact import qr_text
from cardgen.card.layout import CardLayout
from cardgen.card.links import CORNER_LINKS, LINK_RADIUS, link_positions
from cardgen.card.physical import CardGeometry
from cardgen.card.themes import Theme
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Group, Image, Item, Line, Page, Rect, Stroke, Text
from cardgen.draw.qr import QRCapacityError, module_size, qr_items, qr_matrix
from cardgen.errors import CardgenError
from cardgen.text.fit import check_printable, fit_line, fit_paragraph, line_height
from cardgen.text.fonts import FontFace, FontSet
from cardgen.texts import lookup, say

CONTACT_FIELDS = ("email", "phone", "web", "address")
SHRINK_ROUNDS = 8  # at most this many rounds of shrinking the front text together


def draw_outside(page: Page, config: CardConfig, geometry: CardGeometry, theme: Theme,
                 fonts: FontSet, layout: CardLayout, warnings: list[str]) -> None:
    bleed, b = geometry.bleed_box, geometry.size.bleed
    art = layout.art
    background = page.layer("background")
    background.add(Rect(bleed.x, bleed.y, bleed.w, bleed.h, fill=theme.outside["background"]))
    # Each panel's curves are drawn in the panel's own frame, over the panel and its bleed.
    panel_with_bleed = Box(-b, -b, geometry.size.width + 2 * b, geometry.size.height + b)
    # On the front they flow through the free band between the name and the contacts; on
    # the text-filled back only dark ribbons and a few dim lines, so that text stays clear.
    front_art = flowing_curves(panel_with_bleed, theme.curve_fills, theme.curve_strokes,
                               theme.curve_lines, theme.curve_amplitude,
                               variant=art["front_variant"], band=layout.front_band)
    back_art = flowing_curves(panel_with_bleed, theme.curve_fills, theme.curve_strokes[:1],
                              max(theme.curve_lines // art["back_lines_divisor"], 1),
                              theme.curve_amplitude * art["back_amplitude"],
                              variant=art["back_variant"], band=layout.back_band)
    background.add(Group(front_art, transform=geometry.front_to_page, clip=panel_with_bleed,
                         name="front-art"))
    background.add(Group(back_art, transform=geometry.back_to_page, clip=panel_with_bleed,
                         name="back-art"))
    content = page.layer("content")
    content.add(Group(front_panel(config, geometry, theme, fonts, layout, warnings),
                      transform=geometry.front_to_page, name="front-panel"))
    content.add(Group(back_panel(geometry, theme, fonts, layout),
                      transform=geometry.back_to_page, name="back-panel"))


def front_panel(config: CardConfig, geometry: CardGeometry, theme: Theme, fonts: FontSet,
                layout: CardLayout, warnings: list[str]) -> list[Item]:
    """The front panel in its own frame: QR code bottom right, logo top right, the text
    column beside them."""
    safe = geometry.panel_safe()
    colors = theme.outside
    front = layout.front
    items: list[Item] = []
    right_column = 0.0
    qr = config.qr
    qr_side = min(front["qr_max"], front["qr_share"] * safe.h) if qr is not None else 0.0
    right_column = qr_side
    if config.logo is not None:
        from cardgen.draw.raster import PRINT_DPI, fit_image, open_image

        logo = open_image(config.logo, "images.logo", notes=warnings)
        max_w = qr_side or front["qr_max"]
        max_h = (safe.h - qr_side - front["logo_gap"] if qr_side
                 else front["logo_share"] * safe.h)
        raster, w, h, dpi = fit_image(logo, max_w, max_h)
        if dpi < PRINT_DPI:
            warnings.append(f"images.logo: {config.logo.name} is only {dpi:.0f} dpi at "
                            f"{w:.1f} mm wide and may print soft ({PRINT_DPI} dpi is best).")
        items.append(Image(safe.right - w, safe.y, w, h, raster, name="logo"))
        right_column = max(right_column, w)
    column = safe.w - (right_column + front["column_gap"] if right_column else 0.0)
    # The text is set before the QR code is made, so that text too long for the card is
    # blamed on its field rather than on the QR code.
    text = front_text(config.person, fonts, colors, layout, Box(safe.x, safe.y, column, safe.h))
    if qr is not None:
        items[:0] = _qr(qr, qr_text(config.person, qr), safe.right - qr_side,
                        safe.bottom - qr_side, qr_side, colors, front["qr_min_module"], warnings)
    return items + text


@dataclass(frozen=True, eq=False)  # compared by identity: two lines may read alike
class _TextLine:
    field: str
    text: str
    face: FontFace
    size: float
    min_size: float
    color: Color
    gap: float = 0.0


def front_text(person: Person, fonts: FontSet, colors: dict[str, Color], layout: CardLayout,
               area: Box) -> list[Item]:
    """Name, title and company from the top of ``area``; contact lines and tagline from
    its foot; every line fitted to the width, then all shrunk together to the height."""
    safe = area
    items: list[Item] = []

    def line(field: str, text: str, style_name: str) -> _TextLine:
        s = layout.lines[style_name]
        return _TextLine(f"person.{field}", text, fonts.face(s.style), s.size, s.min_size,
                         colors[s.color], s.gap)

    top = [line("name", person.name, "name"), line("title", person.title, "title"),
           line("company", person.company, "company")]
    # Each line of a multi-line field (the address) is a contact line of its own.
    contact = [line(key, part, "contact") for key in CONTACT_FIELDS
               for part in getattr(person, key).split("\n")]
    tagline = line("tagline", person.tagline, "tagline")
    top = [t for t in top if t.text]
    contact = [t for t in contact if t.text]
    lines = top + contact + ([tagline] if tagline.text else [])
    sizes = {t: fit_line(t.text, t.face, t.size, t.min_size, area.w, t.field) for t in lines}
    rule_space = layout.front["rule_space"]
    block_gap = layout.front["block_gap"]

    def height(block: list[_TextLine]) -> float:
        return sum(t.gap + line_height(sizes[t]) for t in block)

    def total() -> float:
        parts = [height(top) + rule_space, height(contact),
                 height([tagline]) if tagline.text else 0.0]
        return sum(parts) + block_gap * (len([p for p in parts if p]) - 1)

    for _ in range(SHRINK_ROUNDS):  # shrink everything together until the stack fits
        if total() <= safe.h:
            break
        factor = safe.h / total()
        # Round down to 0.1 pt, never below a line's smallest legible size.
        sizes = {t: max(t.min_size, round(sizes[t] * factor - 0.05, 1)) for t in lines}
    if total() > safe.h + 1e-6:
        cursor, overflow = 0.0, lines[-1].field
        for t in lines:
            cursor += t.gap + line_height(sizes[t])
            if cursor > safe.h:
                overflow = t.field
                break
        raise CardgenError(
            f"{overflow} does not fit on the front panel: the text needs {total():.1f} mm of "
            f"height at the smallest legible sizes and the safe area is {safe.h:.1f} mm; "
            "leave out a field or shorten the texts.")

    names: dict[_TextLine, str] = {}
    counts: dict[str, int] = {}
    for t in lines:  # the address's later lines are person-address-2, -3 …
        base = t.field.replace(".", "-")
        counts[base] = counts.get(base, 0) + 1
        names[t] = base if counts[base] == 1 else f"{base}-{counts[base]}"

    def place(t: _TextLine, baseline: float) -> Text:
        return Text(safe.x, baseline, t.text, t.face, sizes[t], t.color, name=names[t])

    cursor = safe.y
    for i, t in enumerate(top):
        f = t.face
        size = sizes[t]
        if i == 0:  # the name's tallest glyph touches the top of the safe area
            baseline = cursor + f.metrics.ink_top_mm(t.text, size)
            cursor = baseline + f.metrics.descent_mm(size)
        else:
            cursor += t.gap
            baseline = cursor + line_height(size) - f.metrics.descent_mm(size)
            cursor += line_height(size)
        items.append(place(t, baseline))
    rule_y = cursor + rule_space / 2
    items.append(Line(safe.x, rule_y, safe.x + layout.front["rule_length"], rule_y,
                      Stroke(colors["rule"], layout.front["rule_width"])))

    bottom = safe.bottom
    if tagline.text:
        f = tagline.face
        items.append(place(tagline, bottom - f.metrics.descent_mm(sizes[tagline])))
        bottom -= line_height(sizes[tagline]) + block_gap
    for t in reversed(contact):
        f = t.face
        size = sizes[t]
        items.append(place(t, bottom - f.metrics.descent_mm(size)))
        bottom -= line_height(size) + t.gap
    return items


def _qr(content: QRContent, text: str, x: float, y: float, side: float,
        colors: dict[str, Color], min_module: float, warnings: list[str]) -> list[Item]:
    """The QR code with its quiet zone in a ``side`` mm square at (x, y); a warning when
    its modules are smaller than ``min_module``, the smallest that was measured to decode
    from a 150 dpi image (see templates/card/layout.toml)."""
    vcard = content is QRContent.VCARD
    try:
        matrix = qr_matrix(text)
    except QRCapacityError:
        too_long = ("the contact details are too long for a QR code; shorten them" if vcard
                    else "person.web is too long for a QR code; shorten it")
        raise CardgenError(f"card.qr: {too_long} or set qr = false.", value=text) from None
    module = module_size(matrix, side)
    if module < min_module:
        advice = ('leave out the address or shorten the longest fields, or set qr = "url" '
                  "to encode only the web address" if vcard else "shorten person.web")
        warnings.append(f"card.qr: the QR code's modules are only {module:.2f} mm, and below "
                        f"{min_module:.2f} mm a QR code may not scan from print; {advice}.")
    return qr_items(matrix, x, y, side, colors["qr_background"], colors["qr_modules"])


def back_panel(geometry: CardGeometry, theme: Theme, fonts: FontSet,
               layout: CardLayout) -> list[Item]:
    """The back panel in its own frame (as read): link numbers 1–4 in the corners, a
    heading, and the four games in a 2 × 2 grid."""
    safe = geometry.panel_safe()
    colors = theme.outside
    back = layout.back
    items: list[Item] = []
    for number, (x, y) in sorted(link_positions(geometry).items()):
        if number in CORNER_LINKS:
            items.append(link_number(number, x, y, fonts, back["link_size"], colors["link"]))
    # Keep the corners free for the link numbers.
    inset = 2 * LINK_RADIUS + back["link_clearance"]
    area = Box(safe.x + inset, safe.y, safe.w - 2 * inset, safe.h)
    heading = say("card", "back.heading")
    heading_size = fit_line(heading, fonts.italic, back["heading_size"], back["heading_min"],
                            area.w, "fonts.italic (the back panel's heading)")
    baseline = area.y + fonts.italic.metrics.ink_top_mm(heading, heading_size)
    items.append(Text(area.x + area.w / 2, baseline, heading, fonts.italic, heading_size,
                      colors["muted"], anchor=Anchor.MIDDLE, name="back-heading"))
    top = baseline + back["heading_gap"]
    gap = back["cell_gap"]
    cell_w = (area.w - gap) / 2
    cell_h = (area.bottom - top - gap) / 2
    for i, entry in enumerate(lookup("card", "games")):
        game, players, description = entry["name"], entry["players"], entry["description"]
        check_printable(game, fonts.bold, "fonts.bold (the names of the games)")
        check_printable(players, fonts.italic, "fonts.italic (the numbers of players)")
        cx = area.x + (i % 2) * (cell_w + gap)
        cy = top + (i // 2) * (cell_h + gap)
        title_size = back["title_size"]
        title_base = cy + fonts.bold.metrics.cap_height_mm(title_size)
        items.append(Text(cx, title_base, game, fonts.bold, title_size, colors["accent"],
                          name=f"game-{game.lower()}"))
        players_x = cx + fonts.bold.width(game, title_size) + back["players_gap"]
        items.append(Text(players_x, title_base, players, fonts.italic, back["players_size"],
                          colors["muted"]))
        body_top = title_base + back["body_gap"]
        size, lines = fit_paragraph(description, fonts.regular, back["body_size"],
                                    back["body_min"], cell_w, cy + cell_h - body_top,
                                    f"fonts.regular (the {game} description)")
        for n, text in enumerate(lines):
            base = body_top + (n + 1) * line_height(size) - fonts.regular.metrics.descent_mm(size)
            items.append(Text(cx, base, text, fonts.regular, size, colors["text"]))
    return items


def link_number(number: str, x: float, y: float, fonts: FontSet, size: float,
                color: Color) -> Text:
    """A link number centred on (x, y)."""
    check_printable(number, fonts.bold, "fonts.bold (the link numbers)")
    baseline = y + fonts.bold.metrics.cap_height_mm(size) / 2
    return Text(x, baseline, number, fonts.bold, size, color, anchor=Anchor.MIDDLE,
                name=f"link-{number}")
