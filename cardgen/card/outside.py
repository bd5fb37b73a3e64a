"""The outside spread: the front panel (name, contacts, QR code, logo) upright in the
lower half, the back panel (the Connector board) turned 180° in the upper half."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING

from cardgen.card.art import curves_between
from cardgen.card.config import CardConfig, Person, QRContent
from cardgen.card.contact import qr_text
from cardgen.card.layout import CardLayout
from cardgen.card.logo import cmyk_profile, logo_raster
from cardgen.card.themes import Theme
from cardgen.connector.draw import (
    fragment_halo,
    fragment_items,
    fragment_where,
    game_styles,
    legend_items,
    mark_extent,
    mark_items,
)
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import Face
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box, Point
from cardgen.draw.page import (
    Anchor,
    Group,
    Image,
    Item,
    Line,
    Page,
    Path,
    Rect,
    Stroke,
    Text,
)
from cardgen.draw.qr import QRCapacityError, module_size, qr_items, qr_matrix
from cardgen.draw.shapes import circle
from cardgen.errors import CardgenError, FitError
from cardgen.physical.card import CardGeometry, Preset, Tab
from cardgen.text.fit import check_printable, fit_line, line_height, text_box
from cardgen.text.fonts import FontFace, FontSet, bundled_fonts
from cardgen.texts import lookup, say

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

    from cardgen.card.portrait import FrontPlacement

CONTACT_FIELDS = ("email", "phone", "web", "address")
VCARD_FIELDS = ("name", "company", "title", "phone", "email", "web", "address")  # what it holds
FIT_ROUNDS = 16  # at most this many rounds of fitting the front text (sizes only shrink)


@dataclass(frozen=True)
class Keep:
    """Something on the front panel the portrait's face keeps clear of: what it is, in
    words ("name", "contact lines", "QR code", "logo"), its box with the art's clearance,
    and what the user can change so that it takes less room."""

    what: str
    box: Box
    remedy: str


@dataclass(frozen=True)
class PanelContent:
    """A panel's content in the panel's own frame; the band (top, bottom) the decorative
    art may fill, or None for no art; and the plates: shapes of the ground colour over
    the art around each text block and link number, with a clearance, so that no art
    ever comes near a letter even where it reaches into the band."""

    items: list[Item]
    band: tuple[float, float] | None
    plates: list[Item]
    keep: tuple[Keep, ...] = ()  # what the front portrait's face keeps clear of
    glow: tuple[float, float, float] | None = None  # the front portrait's disc, if drawn


@dataclass(frozen=True)
class FrontVisual:
    """The business side's main visual, in the front panel's frame (``to_page`` takes it
    to the outside page): the square the portrait is drawn in (None without a photo or
    when the theme has no ``[front_portrait]``), the face region the layout keeps clear
    of the text, the disc (centre x, centre y, radius) outside which the picture has
    faded into exactly the ground (it also fades near the text, the QR code and the logo
    and at the square's edges, so the square itself never shows), and the band (top,
    bottom) the curves flow through across ``panel`` (the panel with its bleed), or None
    where there is no room for them."""

    portrait: Box | None
    face: Box | None
    glow: tuple[float, float, float] | None
    band: tuple[float, float] | None
    panel: Box
    to_page: Affine


@dataclass(frozen=True)
class _Portrait:
    visual: FrontVisual
    image: Item | None  # the portrait, ready to draw in the panel's frame


def draw_outside(page: Page, config: CardConfig, geometry: CardGeometry, theme: Theme,
                 fonts: FontSet, layout: CardLayout, warnings: list[str],
                 photo: PILImage | None) -> PanelContent:
    """The outside spread. The art never lies under text: on the front it is fitted into
    the band the text leaves free; on both panels every text block is covered by a plate
    of the ground colour, with a clearance, before the text is set (the ink rule needs
    small type on a ground of one ink, and curves through letters are hard to read).
    Returns the front panel's content, its band the one the curves fill (None when the
    band was too low for any) and its glow the portrait's disc (None without one).
    ``photo`` is ``config.portrait`` opened (the caller opens it once for both sides)."""
    bleed = geometry.bleed_box
    art = layout.art
    ground = theme.outside["background"]
    background = page.layer("background")
    background.add(Rect(bleed.x, bleed.y, bleed.w, bleed.h, fill=ground))
    front, portrait = _front(config, geometry, theme, fonts, layout, photo, warnings,
                             draw=True)
    back = back_panel(geometry, theme, fonts, layout, warnings)
    # Each panel's curves are drawn in the panel's own frame, over the panel and its bleed.
    # A panel's frame has y = 0 at the fold, so its bleed is on the other three sides.
    panel_with_bleed = geometry.panel_with_bleed()
    # On the front they flow through the band between the name and the contacts; on the
    # text-filled back only dark ribbons and a few dim lines.
    front_art: list[Item] = []
    if portrait.visual.band is not None:
        front_art = curves_between(panel_with_bleed, *portrait.visual.band, theme.curve_fills,
                                   theme.curve_strokes, theme.curve_lines,
                                   theme.curve_amplitude, variant=art["front_variant"],
                                   min_height=art["min_band"])
    back_art: list[Item] = []
    if back.band is not None:
        back_art = curves_between(panel_with_bleed, *back.band, theme.curve_fills,
                                  theme.curve_strokes[:1],
                                  max(theme.curve_lines // art["back_lines_divisor"], 1),
                                  theme.curve_amplitude * art["back_amplitude"],
                                  variant=art["back_variant"], min_height=art["min_band"])
    curves_band = portrait.visual.band if front_art else None
    # The portrait lies under the curves: they flow over it, and it fades into the ground.
    if portrait.image is not None:
        front_art.insert(0, portrait.image)
    for name, curves, panel, to_page in (("front", front_art, front, geometry.front_to_page),
                                        ("back", back_art, back, geometry.back_to_page)):
        background.add(Group([*curves, *panel.plates], transform=to_page,
                             clip=panel_with_bleed, name=f"{name}-art"))
    content = page.layer("content")
    content.add(Group(front.items, transform=geometry.front_to_page, name="front-panel"))
    content.add(Group(back.items, transform=geometry.back_to_page, name="back-panel"))
    return PanelContent(front.items, curves_band, front.plates, front.keep,
                        portrait.visual.glow if portrait.image is not None else None)


def front_panel(config: CardConfig, geometry: CardGeometry, theme: Theme, fonts: FontSet,
                layout: CardLayout, warnings: list[str], logo_scale: float = 1.0,
                ) -> PanelContent:
    """The front panel in its own frame: QR code bottom right, logo top right (at
    ``logo_scale`` of its size), the text beside and around them."""
    safe = geometry.panel_safe()
    colors = theme.outside
    front = layout.front
    items: list[Item] = []
    beside: list[Box] = []  # what takes room at the right of the text
    qr = config.qr
    qr_side = min(front["qr_max"], front["qr_share"] * safe.h) if qr is not None else 0.0
    if qr is not None:
        beside.append(Box(safe.right - qr_side, safe.bottom - qr_side, qr_side, qr_side))
    if config.logo is not None:
        max_w = qr_side or front["qr_max"]
        max_h = (safe.h - qr_side - front["logo_gap"] if qr_side
                 else front["logo_share"] * safe.h)
        raster, w, h = logo_raster(config.logo, max_w * logo_scale, max_h * logo_scale,
                                   theme, warnings, cmyk_profile(config))
        items.append(Image(safe.right - w, safe.y, w, h, raster, name="logo"))
        beside.append(Box(safe.right - w, safe.y, w, h))
    # The text is set before the QR code is made, so that text too long for the card is
    # blamed on its field rather than on the QR code.
    text = front_text(config.person, fonts, theme, layout, safe, beside, config.ability)
    if qr is not None:
        items[:0] = _qr(qr, config.person, safe.right - qr_side,
                        safe.bottom - qr_side, qr_side, colors, front["qr_min_module"], warnings)
    clearance = layout.art["clearance"]
    ground = colors["background"]
    plates: list[Item] = [_plate(b.inset(-clearance), ground) for b in text.blocks]
    keep = [Keep(what, b.inset(-clearance), _remedy(what, text.items, config))
            for what, b in zip(text.names, text.blocks, strict=True)]
    keep += [Keep(what, b.inset(-clearance), _remedy(what, text.items, config))
             for what, b in zip(("QR code" if qr else "logo", "logo"), beside, strict=False)]
    return PanelContent(items + text.items, (text.free[0] + clearance,
                                             text.free[1] - clearance), plates, tuple(keep))


def _remedy(what: str, items: list[Item], config: CardConfig) -> str:
    """What the user can change so that the front panel's ``what`` (a block of
    :class:`FrontText`, the QR code or the logo) takes less room: advice that names only
    fields the card sets."""
    if what == "QR code":
        return "set card.qr = false"
    if what == "logo":
        return "leave out images.logo"
    if what == "name":  # the block is as wide as its widest line
        widest = max((i for i in items if isinstance(i, Text)
                      and i.name in ("person-name", "person-title", "person-company")),
                     key=lambda i: text_box(i).w)
        return f"shorten {(widest.name or 'person-name').replace('-', '.', 1)}"
    fields = [f"person.{key}" for key in (*CONTACT_FIELDS, "tagline")
              if getattr(config.person, key)]
    fields += ["ladder.ability"] if config.ability else []
    return f"use fewer contact lines ({', '.join(fields)})" if len(fields) > 1 else (
        f"leave out {fields[0]}")


def _either(parts: Sequence[str], word: str = "or") -> str:
    """"a", "a or b", "a, b or c"."""
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} {word} {parts[-1]}"


def front_visual(config: CardConfig, geometry: CardGeometry, theme: Theme, fonts: FontSet,
                 layout: CardLayout) -> FrontVisual:
    """The business side's main visual as shapes (see :class:`FrontVisual`): where a
    spot varnish, say, would go."""
    from cardgen.draw.raster import open_image

    photo = (open_image(config.portrait, "images.portrait")
             if config.portrait is not None else None)
    return _front(config, geometry, theme, fonts, layout, photo, [], draw=False)[1].visual


def _front(config: CardConfig, geometry: CardGeometry, theme: Theme, fonts: FontSet,
           layout: CardLayout, photo: PILImage | None, warnings: list[str],
           draw: bool) -> tuple[PanelContent, _Portrait]:
    """The front panel and its portrait (see :func:`_front_portrait`). When the face has
    no room beside a logo at its full size, the logo is tried smaller, down to the
    layout's ``logo_smallest`` share; when it has none even then, the logo keeps its size
    and the photo is left off the front, with a warning that says why."""
    wanted = (config.portrait is not None and photo is not None
              and theme.front_portrait is not None)
    scales = [1.0]
    if wanted and config.logo is not None:
        step, smallest = layout.front["logo_shrink"], layout.front["logo_smallest"]
        scales += [1.0 - k * step for k in range(1, int((1.0 - smallest) / step + 1e-9) + 1)]
    for scale in scales:
        said: list[str] = []
        front = front_panel(config, geometry, theme, fonts, layout, said, scale)
        portrait = _front_portrait(config, geometry, theme, layout, front, photo, said,
                                   draw=draw, explain=False)
        if portrait.visual.portrait is not None or not wanted:
            warnings += said
            return front, portrait
    said = []  # no room at any size of the logo: at its full size, and say why
    front = front_panel(config, geometry, theme, fonts, layout, said)
    portrait = _front_portrait(config, geometry, theme, layout, front, photo, said,
                               draw=draw, explain=True)
    warnings += said
    return front, portrait


def _band(band: tuple[float, float] | None,
          layout: CardLayout) -> tuple[float, float] | None:
    """The band the front's curves fill, or None when it is too low for them."""
    if band is None or band[1] - band[0] < layout.art["min_band"]:
        return None
    return band


def _front_portrait(config: CardConfig, geometry: CardGeometry, theme: Theme,
                    layout: CardLayout, front: PanelContent, photo: PILImage | None,
                    warnings: list[str], draw: bool, explain: bool = True) -> _Portrait:
    """The front portrait's place (see :func:`place_front_portrait`) and, with ``draw``,
    its image. When its face has no place clear of the text, the QR code and the logo,
    no portrait on the front and a warning that says so and why. No ``photo``
    (``config.portrait`` opened), no portrait."""
    panel = geometry.panel_with_bleed()
    band = front.band
    treatment = theme.front_portrait
    if config.portrait is None or photo is None or treatment is None:
        return _Portrait(FrontVisual(None, None, None, _band(band, layout), panel,
                                     geometry.front_to_page), None)
    from cardgen.card.portrait import (
        front_portrait_raster,
        place_front_portrait,
        square_crop,
    )
    from cardgen.draw.raster import PRINT_DPI

    crop = square_crop(photo.size, config.portrait_focus)
    size = geometry.size
    trim = Box(0, 0, size.width, size.height)
    keep = [k.box for k in front.keep]

    def place_among(boxes: list[Box]) -> FrontPlacement | None:
        return place_front_portrait(crop.focus, treatment, trim, geometry.panel_safe(), panel,
                                    boxes, layout.art["portrait_step"])

    place = place_among(keep)
    if place is None:
        if explain:
            warnings.append(_no_room(config, front.keep, crop.focus, treatment.face,
                                     place_among))
        return _Portrait(FrontVisual(None, None, None, _band(band, layout), panel,
                                     geometry.front_to_page), None)
    if band is not None:
        # The curves flow below the face, over the faded neck and shoulders, in a band
        # at least min_band high (or as high as before, if that was less). A face set
        # lower than the fold, where there was no room beside the name, keeps them off:
        # they flow below it or not at all.
        top, bottom = band
        below = (place.face.bottom if place.box.y > panel.y
                 else min(place.face.bottom, bottom - layout.art["min_band"]))
        band = (max(top, below), bottom)
    face_at = (place.box.x + crop.focus[0] * place.box.w,
               place.box.y + crop.focus[1] * place.box.h)
    visual = FrontVisual(place.box, place.face,
                         (*face_at, treatment.fade_end * place.box.w), _band(band, layout),
                         panel, geometry.front_to_page)
    if not draw:
        return _Portrait(visual, None)
    raster, dpi = front_portrait_raster(photo, config.portrait_focus, place.box, face_at,
                                        treatment, theme.outside["background"], keep, trim)
    if dpi < PRINT_DPI:
        note = (f"images.portrait: {config.portrait.name} has only {dpi:.0f} dpi across the "
                f"{place.box.w:.0f} mm portrait on the business side and may print soft "
                f"({PRINT_DPI} dpi is best).")
        warnings.append(note)
    return _Portrait(visual, Image(place.box.x, place.box.y, place.box.w, place.box.h,
                                   raster, name="front-portrait"))


def _no_room(config: CardConfig, keep: Sequence[Keep], focus: Point, share: float,
             place: Callable[[list[Box]], object | None]) -> str:
    """The warning that the photo will not appear on the business side, and why: the
    focus too near the photo's edge, a card too small, or what on the panel leaves its
    face no room, with the fewest changes that would make room (found by placing it
    again without them), naming only fields the card sets."""
    fx, fy = config.portrait_focus
    lead = ("the photo will not appear on the business side (only behind the grids "
            f"inside): its face, around [{fx:g}, {fy:g}] of the photo,")
    if place([]) is None:
        half = share / 2
        if not (half <= focus[0] <= 1 - half and half <= focus[1] <= 1 - half):
            return (f"images.portrait_focus: {lead} is too near the photo's edge to be "
                    "shown whole; set portrait_focus to the middle of the face.")
        larger = (" (card.width_mm, card.height_mm)"
                  if config.size.preset is None else "")
        return (f"images.portrait: {lead} has no room on a front panel this small; "
                f"a larger card{larger} would give it room.")
    fixes: list[tuple[Keep, ...]] = []
    for count in range(1, len(keep) + 1):
        fixes = [left_out for left_out in combinations(keep, count)
                 if place([k.box for k in keep if k not in left_out]) is not None]
        if fixes:
            break
    whats = list(dict.fromkeys(k.what for fix in fixes for k in fix))
    remedies = list(dict.fromkeys(" and ".join(k.remedy for k in fix) for fix in fixes))
    ways = remedies[0] if len(remedies) == 1 else (
        f"{', '.join(remedies[:-1])}, or {remedies[-1]}")
    return (f"images.portrait: {lead} has no room clear of "
            f"{_either([f'the {what}' for what in whats], 'and')}; {ways}.")


def _plate(box: Box, ground: Color) -> Rect:
    return Rect(box.x, box.y, box.w, box.h, fill=ground)


@dataclass(frozen=True, eq=False)  # compared by identity: two lines may read alike
class _TextLine:
    field: str
    text: str
    face: FontFace
    size: float
    min_size: float
    color: Color
    gap: float = 0.0


@dataclass(frozen=True, eq=False)
class _Signature:
    """The box a Corporate Ladder ability is signed in: a row of the contact block with
    a fixed height."""

    height: float
    min_width: float
    max_width: float
    gap: float  # above it, below the ability's text


@dataclass(frozen=True)
class FrontText:
    """The front panel's text: its items, the boxes of its blocks (the name block with
    its rule, the contact block with the ability, its signature box and the tagline),
    the free band between them, and the signature box (None without an ability)."""

    items: list[Item]
    blocks: list[Box]
    free: tuple[float, float]
    signature: Box | None = None
    names: tuple[str, ...] = ()  # what each block is, in words: "name", "contact lines"


def front_text(person: Person, fonts: FontSet, theme: Theme, layout: CardLayout, area: Box,
               beside: list[Box] | tuple[Box, ...] = (), ability: str = "") -> FrontText:
    """Name, title and company from the top of ``area``; from its foot up the tagline,
    the contact lines and, with an ``ability``, a box to sign in under "CL: …". Each
    line gets the width that is free at its height (``beside`` are the boxes at the
    right that it must keep ``column_gap`` from); every line is fitted to its width, all
    shrink together to fit the height. An ability too long for one line at its smallest
    size is set in two. A line set under 8 pt takes the theme's colour for small type
    (the ink rule)."""
    if not ability:
        return _front_text(person, fonts, theme, layout, area, beside, [])
    text = say("card", "front.ability", ability=ability)
    try:
        return _front_text(person, fonts, theme, layout, area, beside, [text])
    except FitError as exc:
        if exc.field != "ladder.ability":
            raise
    return _front_text(person, fonts, theme, layout, area, beside, _halves(text))


def _halves(text: str) -> list[str]:
    """The text broken at the space that makes its two lines the most even."""
    words = text.split(" ")
    if len(words) < 2:
        return [text]
    best = min(range(1, len(words)), key=lambda i: (
        abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))), -i))
    return [" ".join(words[:best]), " ".join(words[best:])]


def _front_text(person: Person, fonts: FontSet, theme: Theme, layout: CardLayout, area: Box,
                beside: list[Box] | tuple[Box, ...], ability: list[str]) -> FrontText:
    text = _FrontLines.of(person, fonts, theme, layout, area, beside, ability)
    sizes, widths = text.fit()
    text.check_fit(sizes, widths)
    return text.typeset(sizes, fonts, theme, layout.front)


def _text_line(field: str, text: str, style_name: str, fonts: FontSet, theme: Theme,
               layout: CardLayout) -> _TextLine:
    s = layout.lines[style_name]
    return _TextLine(field, text, fonts.face(s.style), s.size, s.min_size,
                     theme.outside[s.color], s.gap)


@dataclass(frozen=True, eq=False)
class _FrontLines:
    """The front panel's text before it is set: the name block (``top``: name, title,
    company) from the top of ``area``, and the contact block (``rows``, from the top:
    the ability, its signature box, the contact lines, the tagline) from its foot up,
    each row with the space above it (``gaps``). ``lines`` are all the lines to fit."""

    area: Box
    beside: list[Box] | tuple[Box, ...]  # the boxes at the right the lines keep ``gap`` from
    gap: float
    rule_space: float
    block_gap: float
    top: list[_TextLine]
    rows: list[_TextLine | _Signature]
    gaps: dict[_TextLine | _Signature, float]
    lines: list[_TextLine]
    abilities: list[_TextLine]
    signature: _Signature | None

    @classmethod
    def of(cls, person: Person, fonts: FontSet, theme: Theme, layout: CardLayout, area: Box,
           beside: list[Box] | tuple[Box, ...], ability: list[str]) -> _FrontLines:
        """The lines of ``person``'s fields and the ``ability`` lines, checked printable."""
        front = layout.front

        def line(field: str, text: str, style_name: str) -> _TextLine:
            return _text_line(field, text, style_name, fonts, theme, layout)

        top = [line("person.name", person.name, "name"),
               line("person.title", person.title, "title"),
               line("person.company", person.company, "company")]
        # Each line of a multi-line field (the address) is a contact line of its own.
        contact = [line(f"person.{key}", part, "contact") for key in CONTACT_FIELDS
                   for part in getattr(person, key).split("\n")]
        tagline = line("person.tagline", person.tagline, "tagline")
        top = [t for t in top if t.text]
        contact = [t for t in contact if t.text]
        abilities = [line("ladder.ability", part, "ability") for part in ability]
        signature = (_Signature(front["signature_height"], front["signature_min_width"],
                                front["signature_max_width"], front["signature_gap"])
                     if ability else None)
        rows: list[_TextLine | _Signature] = [*abilities, *([signature] if signature else []),
                                              *contact, *([tagline] if tagline.text else [])]
        block_gap = front["block_gap"]
        gaps: dict[_TextLine | _Signature, float] = {}
        for i, row in enumerate(rows):
            if row is tagline or (signature and contact and row is contact[0]):
                gaps[row] = block_gap if i else 0.0
            else:
                gaps[row] = row.gap
        lines = top + [r for r in rows if isinstance(r, _TextLine)]
        for t in lines:
            check_printable(t.text, t.face, t.field)
        return cls(area, beside, front["column_gap"], front["rule_space"], block_gap, top,
                   rows, gaps, lines, abilities, signature)

    @staticmethod
    def row_height(row: _TextLine | _Signature, sizes: dict[_TextLine, float]) -> float:
        return row.height if isinstance(row, _Signature) else line_height(sizes[row])

    def place(self, sizes: dict[_TextLine, float]) -> tuple[dict[_TextLine, float], float]:
        """Each line's baseline for these sizes, and the top of the signature box."""
        baselines: dict[_TextLine, float] = {}
        cursor = self.area.y
        for i, t in enumerate(self.top):
            size, f = sizes[t], t.face
            if i == 0:  # the name's tallest glyph touches the top of the area
                baselines[t] = cursor + f.metrics.ink_top_mm(t.text, size)
                cursor = baselines[t] + f.metrics.descent_mm(size)
            else:
                cursor += t.gap
                baselines[t] = cursor + line_height(size) - f.metrics.descent_mm(size)
                cursor += line_height(size)
        bottom = self.area.bottom
        box_top = bottom
        for row in reversed(self.rows):
            if isinstance(row, _Signature):
                box_top = bottom - row.height
            else:
                baselines[row] = bottom - row.face.metrics.descent_mm(sizes[row])
            bottom -= self.row_height(row, sizes) + self.gaps[row]
        return baselines, box_top

    def width_at(self, top_y: float, bottom_y: float) -> float:
        """The width free for a line whose ink spans top_y..bottom_y."""
        right = self.area.right
        gap = self.gap
        for box in self.beside:
            if top_y < box.bottom + gap and bottom_y > box.y - gap:
                right = min(right, box.x - gap)
        return right - self.area.x

    def height(self, sizes: dict[_TextLine, float]) -> float:
        top, rows = self.top, self.rows
        parts = [sum(t.gap + line_height(sizes[t]) for t in top) + self.rule_space
                 if top else 0.0,
                 sum(self.gaps[r] + self.row_height(r, sizes) for r in rows)]
        return sum(parts) + self.block_gap * (len([p for p in parts if p]) - 1)

    def fit(self) -> tuple[dict[_TextLine, float], dict[_TextLine, float]]:
        """Each line's size and the width free for it: every line fitted to its width,
        all shrunk together to fit the height, at most FIT_ROUNDS rounds."""
        lines = self.lines
        sizes = {t: t.size for t in lines}
        widths: dict[_TextLine, float] = {}
        for _ in range(FIT_ROUNDS):
            baselines, _top = self.place(sizes)
            widths = {t: self.width_at(*_extent(t, sizes[t], baselines[t])) for t in lines}
            fitted = {t: max(t.min_size, min(sizes[t], _fitting_size(t, widths[t])))
                      for t in lines}
            if self.height(fitted) > self.area.h:  # shrink everything together, to 0.1 pt
                factor = self.area.h / self.height(fitted)
                fitted = {t: max(t.min_size, min(fitted[t],
                                                 round(fitted[t] * factor - 0.05, 1)))
                          for t in lines}
            if fitted == sizes:
                break
            sizes = fitted
        return sizes, widths

    def check_fit(self, sizes: dict[_TextLine, float], widths: dict[_TextLine, float]) -> None:
        """Raise naming the field that does not fit: a line too wide at its smallest size,
        the ability with its box, or the first row below the area's foot."""
        area = self.area
        for t in self.lines:  # a line that does not fit at its smallest size is named
            fit_line(t.text, t.face, sizes[t], t.min_size, widths[t], t.field)
        height = self.height(sizes)
        if height <= area.h + 1e-6:
            return
        if self.signature is not None:
            lines_taken = "a line" if len(self.abilities) == 1 else "two lines"
            raise CardgenError(
                f"ladder.ability does not fit on the front panel: with it and its signature "
                f"box the text needs {height:.1f} mm of height at the smallest legible sizes "
                f"and the safe area is {area.h:.1f} mm; shorten the ability (it takes "
                f"{lines_taken}), or leave out the tagline or a contact line.")
        raise CardgenError(
            f"{self.overflow(sizes)} does not fit on the front panel: the text needs "
            f"{height:.1f} mm of height at the smallest legible sizes and the safe area is "
            f"{area.h:.1f} mm; leave out a field or shorten the texts.")

    def overflow(self, sizes: dict[_TextLine, float]) -> str:
        """The field of the first line that reaches below the area's foot."""
        cursor, overflow = 0.0, self.lines[-1].field
        for row in self.top + self.rows:
            cursor += (row.gap if row in self.top else self.gaps[row]) + self.row_height(
                row, sizes)
            if cursor > self.area.h:
                overflow = row.field if isinstance(row, _TextLine) else overflow
                break
        return overflow

    def names(self) -> dict[_TextLine, str]:
        """Each line's item name: its field's, the address's later lines
        person-address-2, -3 …"""
        names: dict[_TextLine, str] = {}
        counts: dict[str, int] = {}
        for t in self.lines:
            base = t.field.replace(".", "-")
            counts[base] = counts.get(base, 0) + 1
            names[t] = base if counts[base] == 1 else f"{base}-{counts[base]}"
        return names

    def typeset(self, sizes: dict[_TextLine, float], fonts: FontSet, theme: Theme,
            front: dict[str, float]) -> FrontText:
        """The lines set at ``sizes``, the signature box, the rule under the name block,
        and the boxes of the two blocks."""
        area = self.area
        names = self.names()
        baselines, box_top = self.place(sizes)
        items: list[Item] = []
        for t in self.lines:
            color = theme.type_color(t.color, sizes[t])
            items.append(Text(area.x, baselines[t], t.text, t.face, sizes[t], color,
                              name=names[t]))
        box = self.signature_box(box_top)
        if box is not None:
            items += _signature_items(box, fonts, theme.outside, front)
        blocks: list[Box] = []
        labels: list[str] = []
        free_top, free_bottom = area.y, area.bottom
        if self.top:
            rule, name_block = self.rule(sizes, baselines, names, items, theme, front)
            items.append(rule)
            blocks.append(name_block)
            labels.append("name")
            free_top = blocks[-1].bottom
        if self.rows:
            wanted = {names[r] for r in self.rows if isinstance(r, _TextLine)}
            blocks.append(Box.union([text_box(i) for i in items
                                     if isinstance(i, Text) and i.name in wanted]
                                    + ([box] if box else [])))
            labels.append("contact lines")
            free_bottom = blocks[-1].y
        return FrontText(items, blocks, (free_top, free_bottom), box, tuple(labels))

    def signature_box(self, box_top: float) -> Box | None:
        """The box to sign the ability in, at ``box_top`` (None without an ability); an
        error when the width free there is too narrow for it."""
        signature = self.signature
        if signature is None:
            return None
        free = self.width_at(box_top, box_top + signature.height)
        if free < signature.min_width:
            raise CardgenError(
                f"ladder.ability: the box to sign it in needs {signature.min_width:g} mm of "
                f"width and the front panel has {free:.1f} mm free beside the QR code and "
                "the logo; set card.qr = false or leave out the ability.")
        return Box(self.area.x, box_top, min(free, signature.max_width), signature.height)

    def rule(self, sizes: dict[_TextLine, float], baselines: dict[_TextLine, float],
             names: dict[_TextLine, str], items: list[Item], theme: Theme,
             front: dict[str, float]) -> tuple[Line, Box]:
        """The rule under the name block, and the block's box (its lines' ``items`` and
        the rule)."""
        area = self.area
        last = self.top[-1]
        rule_y = (baselines[last] + last.face.metrics.descent_mm(sizes[last])
                  + self.rule_space / 2)
        rule = Line(area.x, rule_y, area.x + front["rule_length"], rule_y,
                    Stroke(theme.outside["rule"], front["rule_width"]))
        boxes = [text_box(i) for i in items if isinstance(i, Text) and i.name in
                 {names[t] for t in self.top}]
        boxes.append(Box(area.x, rule_y - front["rule_width"] / 2, front["rule_length"],
                         front["rule_width"]))
        return rule, Box.union(boxes)


def _extent(t: _TextLine, size: float, baseline: float) -> tuple[float, float]:
    """The top and bottom of a line's ink at ``size`` on ``baseline``."""
    return (baseline - t.face.metrics.ink_top_mm(t.text, size),
            baseline + t.face.metrics.descent_mm(size))


def _signature_items(box: Box, fonts: FontSet, colors: dict[str, Color],
                     front: dict[str, float]) -> list[Item]:
    """The box to sign in: a ground that takes a pen, its outline, and the line to
    sign on with its label under it, at the left."""
    ink = colors["signature_line"]
    outline = front["signature_outline"]
    label = say("card", "front.signature")
    size = front["signature_label"]
    face = fonts.italic
    check_printable(label, face, "fonts.italic (the signature box's label)")
    descent = face.metrics.descent_mm(size)
    baseline = box.bottom - outline - 0.6 - descent
    line_y = baseline - face.metrics.ink_top_mm(label, size) - 0.6
    inner = box.inset(outline / 2)
    return [Rect(inner.x, inner.y, inner.w, inner.h, fill=colors["signature_ground"],
                 stroke=Stroke(ink, outline)),
            Line(box.x + 1.5, line_y, box.right - 1.5, line_y, Stroke(ink, outline)),
            Text(box.x + 1.5, baseline, label, face, size, ink, name="ladder-signature-label")]


def _fitting_size(t: _TextLine, width: float) -> float:
    """The largest size, in 0.1 pt steps, at which the line fits ``width`` (perhaps
    below its smallest legible size: the caller decides)."""
    natural = t.face.width(t.text, t.size)
    if natural <= width:
        return t.size
    return int(t.size * width / natural * 10) / 10


def _qr(content: QRContent, person: Person, x: float, y: float, side: float,
        colors: dict[str, Color], min_module: float, warnings: list[str]) -> list[Item]:
    """The QR code of ``person`` with its quiet zone in a ``side`` mm square at (x, y); a
    warning when its modules are smaller than ``min_module``, the smallest that was
    measured to decode from a 150 dpi image (see templates/card/layout.toml)."""
    vcard = content is QRContent.VCARD
    text = qr_text(person, content)
    try:
        matrix = qr_matrix(text)
    except QRCapacityError:
        too_long = ("the contact details are too long for a QR code; shorten them" if vcard
                    else "person.web is too long for a QR code; shorten it")
        raise CardgenError(f"card.qr: {too_long} or set qr = false.", value=text) from None
    module = module_size(matrix, side)
    if module < min_module:
        advice = _vcard_advice(person) if vcard else "shorten person.web"
        warnings.append(f"card.qr: the QR code's modules are only {module:.2f} mm, and below "
                        f"{min_module:.2f} mm a QR code may not scan from print; {advice}.")
    return qr_items(matrix, x, y, side, colors["qr_background"], colors["qr_modules"])


def _vcard_advice(person: Person) -> str:
    """How to make the vCard shorter, naming only fields that are set: leave out the
    address, shorten the two longest of the other fields it holds, or encode only the
    web address."""
    held = [key for key in VCARD_FIELDS if getattr(person, key) and key != "address"]
    longest = sorted(held, key=lambda key: -len(getattr(person, key)))[:2]
    ways = ["leave out person.address"] if person.address else []
    ways.append(f"shorten {_either([f'person.{key}' for key in longest], 'and')}")
    if person.web:
        ways.append('set card.qr = "url" to encode only person.web')
    return ways[0] if len(ways) == 1 else f"{', '.join(ways[:-1])}, or {ways[-1]}"


def back_panel(geometry: CardGeometry, theme: Theme, fonts: FontSet, layout: CardLayout,
               warnings: list[str]) -> PanelContent:
    """The back panel in its own frame (as read): the Connector's board for the ``eu``
    and ``us`` sizes, which its layout is made for; on a custom size, which has no
    Connector layout, the four games' names, with a warning."""
    preset = geometry.size.preset
    if preset is None:
        s = geometry.size
        warnings.append(f"card.width_mm, card.height_mm: the Connector puzzle on the back "
                        f"needs the eu or us size; a {s.width:g} × {s.height:g} mm card "
                        "prints only the four games' names there.")
        return plain_back(geometry, theme, fonts, layout)
    return connector_back(geometry, preset, theme, fonts, layout)


def connector_back(geometry: CardGeometry, preset: Preset, theme: Theme, fonts: FontSet,
                   layout: CardLayout) -> PanelContent:
    """The Connector's back face (``templates/connector/layout.toml``): every fragment
    and number on the back panel, and the colour legend where the layout puts it. The
    art runs behind them, kept off each coloured plate by a halo of the ground colour
    (``art.halo``: the type sits on its plate) and off the numbers and the legend by a
    plate of it (``art.clearance``)."""
    connector = bundled_layout(preset)
    styles = game_styles(connector)
    # The layout is measured in cardgen's own face, so the puzzle is set in it whatever
    # fonts the card uses; the corner numbers, as every number of the card, are not.
    own = bundled_fonts()
    colors = theme.outside
    ground = colors["background"]
    clearance, halo = layout.art["clearance"], layout.art["halo"]
    items: list[Item] = []
    plates: list[Item] = []
    for fragment in connector.fragments:
        if fragment.face is Face.BACK:
            items += fragment_items(fragment, styles, own, plain=colors["text"],
                                    where=fragment_where(fragment, preset))
            plates.append(fragment_halo(fragment, styles, ground, halo))
    for mark in connector.marks:
        if mark.face is Face.BACK:
            items += mark_items(mark, styles, fonts if mark.game is None else own,
                                link_color=colors["link"],
                                link_ground=colors["link_ground"],
                                link_size=layout.back["link_size"])
            box = mark_extent(mark)
            plates.append(Path(circle(*box.center, box.w / 2 + clearance), fill=ground))
    if connector.legend is not None:
        legend, used = legend_items(styles, own, connector.legend, color=colors["text"],
                                    where=f"connector/layout.toml: {preset}.legend")
        items += legend
        plates.append(_plate(used.inset(-clearance), ground))
    # The art waves over the outer part of the panel (as read), behind the Connector, on
    # past the bleed's edge so that where it meets the trim it runs on to the bleed's edge.
    panel = geometry.panel_with_bleed()
    top = panel.y + layout.art["back_top"] * panel.h
    return PanelContent(items, (top, panel.bottom + layout.art["back_overshoot"]), plates)


def plain_back(geometry: CardGeometry, theme: Theme, fonts: FontSet,
               layout: CardLayout) -> PanelContent:
    """A back panel without the Connector: a heading and the four games' names with
    their players, centred between the tabs' hinge scores and kept a safe zone away
    from them; the art below."""
    safe = geometry.panel_safe()
    colors = theme.outside
    back = layout.back
    clearance = layout.art["clearance"]
    # The hinges as the back panel reads them; the text keeps the safe zone from each.
    left = geometry.folded_tab_footprint(Tab.FIVE).x + geometry.size.safe
    right = geometry.folded_tab_footprint(Tab.SIX).right - geometry.size.safe
    area = Box(left, safe.y, right - left, safe.h)
    heading = say("card", "back.heading")
    heading_size = fit_line(heading, fonts.italic, back["heading_size"], back["heading_min"],
                            area.w, "fonts.italic (the back panel's heading)")
    baseline = area.y + fonts.italic.metrics.ink_top_mm(heading, heading_size)
    items: list[Item] = [Text(area.x + area.w / 2, baseline, heading, fonts.italic, heading_size,
                              theme.type_color(colors["text"], heading_size),
                              anchor=Anchor.MIDDLE, name="back-heading")]
    title_size, players_size = back["title_size"], back["players_size"]
    gap = back["players_gap"]
    lines = []
    for entry in lookup("card", "games"):
        game, players = entry["name"], entry["players"]
        check_printable(game, fonts.bold, "fonts.bold (the names of the games)")
        check_printable(players, fonts.italic, "fonts.italic (the numbers of players)")
        lines.append((game, players, fonts.bold.width(game, title_size) + gap
                      + fonts.italic.width(players, players_size)))
    widest = max(w for _, _, w in lines)
    if widest > area.w:
        raise CardgenError(f"fonts.bold, fonts.italic: the games' names and players need "
                           f"{widest:.1f} mm, and the back panel has {area.w:.1f} mm between "
                           "its hinges; choose narrower fonts.")
    x = area.x + (area.w - widest) / 2
    for game, players, _ in lines:
        baseline += back["game_gap"]
        items.append(Text(x, baseline, game, fonts.bold, title_size,
                          theme.type_color(colors["accent"], title_size),
                          name=f"game-{game.lower()}"))
        items.append(Text(x + fonts.bold.width(game, title_size) + gap, baseline, players,
                          fonts.italic, players_size,
                          theme.type_color(colors["text"], players_size)))
    block = Box.union([text_box(t) for t in items if isinstance(t, Text)])
    # The art waves below the text (as read), over the outer edge into the bleed and on
    # past it, so that where it meets the trim it runs on to the bleed's edge.
    panel = geometry.panel_with_bleed()
    band = (block.bottom + clearance, panel.bottom + layout.art["back_overshoot"])
    return PanelContent(items, band, [_plate(block.inset(-clearance), colors["background"])])
