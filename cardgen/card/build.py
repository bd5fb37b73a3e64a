"""Building the whole card from a config: both spreads, marks and the dieline."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, assert_never

from cardgen.card.config import CardConfig
from cardgen.card.creases import fold_ink_warnings
from cardgen.card.inside import draw_inside
from cardgen.card.layout import card_layout
from cardgen.card.logo import NO_PROFILE, cmyk_profile
from cardgen.card.outside import draw_outside
from cardgen.card.spread import Spread
from cardgen.card.themes import Theme, load_theme
from cardgen.card.varnish import add_varnish, business_visual
from cardgen.draw.geometry import Box
from cardgen.draw.page import Document, Group, Page, Text
from cardgen.errors import CardgenError
from cardgen.ladder.cards import LadderType, Strength, card_type, strength
from cardgen.physical.card import CardGeometry, Side
from cardgen.prepress.dieline import DielineMode
from cardgen.prepress.ink import MAX_INK, page_ink_problems
from cardgen.prepress.varnish import VarnishMode
from cardgen.text.fit import check_drawn_texts, text_box
from cardgen.text.fonts import FontSet, FontStyle, bundled_fonts, load_face
from cardgen.texts import say

if TYPE_CHECKING:
    from cardgen.prepress.targets import Target


@dataclass(frozen=True)
class LadderCard:
    """The Corporate Ladder card a printed card is: its type (from the title) and its
    Strength (the first digit printed on its front panel, read like a page)."""

    type: LadderType
    strength: Strength

    def as_json(self) -> dict[str, object]:
        return {"type": self.type.value, "strength": self.strength.value,
                "from": self.strength.line}


@dataclass
class CardBuild:
    """The card's print file (page 1 the outside, page 2 the inside) and, in
    ``DielineMode.FILE``, its dieline as a document of its own (else None: the art pages
    carry the dieline as a layer)."""

    document: Document
    dieline: Document | None
    spread: Spread
    theme: Theme
    fonts: FontSet
    warnings: list[str] = field(default_factory=list)
    ladder: LadderCard | None = None  # what Corporate Ladder card this card is
    varnish: Document | None = None  # VarnishMode.FILE: the coating on a page of its own

    @property
    def geometry(self) -> CardGeometry:
        """The physical card in page coordinates."""
        return self.spread.geometry


def resolve_fonts(config: CardConfig) -> FontSet:
    """The bundled family, with any face the config names instead."""
    bundled = bundled_fonts()
    faces = []
    for style in FontStyle:
        path = config.fonts.get(style)
        faces.append(load_face(path, style, f"fonts.{style}") if path else bundled.face(style))
    return FontSet(*faces)


def front_lines(page: Page) -> list[tuple[Box, str]]:
    """Every text run printed on the front panel, with where its ink is (in the panel's
    frame): what a Corporate Ladder player reads the Strength from."""
    lines: list[tuple[Box, str]] = []
    for item in page.layer("content").items:
        if isinstance(item, Group) and item.name == "front-panel":
            lines += [(text_box(t), t.text) for t in item.items
                      if isinstance(t, Text) and not t.rotation]
    return lines


def fit_target(config: CardConfig, target: Target) -> CardConfig:
    """The config as ``target`` prints it: the card must be the flat size of the
    product the service prints it as (within ``SIZE_TOLERANCE``, else a one-line
    CardgenError says which size to set), and takes the service's bleed and (if wider
    than its own) safe zone; the target's marks and printing condition replace the
    config's where the target sets them."""
    from cardgen.physical.card import CardSize
    from cardgen.prepress.targets import SIZE_TOLERANCE

    out = config
    product = target.product
    if product is not None:
        size = config.size
        if (abs(size.width - product.width) > SIZE_TOLERANCE
                or abs(2 * size.height - product.height) > SIZE_TOLERANCE):
            raise CardgenError(
                f"target {target.key}: {target.name} prints the card as its {product.name}, "
                f"{product.width:g} × {product.height:g} mm flat, and this card is "
                f"{size.width:g} × {2 * size.height:g} mm flat; set card.width_mm = "
                f"{product.width:g} and card.height_mm = {product.height / 2:g} in the "
                "config.", value=target.key)
        out = replace(out, size=CardSize(size.width, size.height, bleed=product.bleed,
                                         safe=max(size.safe, product.safe),
                                         preset=size.preset))
    if target.marks is not None:
        out = replace(out, marks=target.marks)
    if target.output_intent is not None:
        out = replace(out, output_intent=target.output_intent)
    return out


def _hold_to_target(build: CardBuild, target: Target) -> float:
    """The card's documents as ``target`` takes them: no dieline file unless it takes
    one, its PDF/X standard named, and its ink rule kept (every colour over its limit
    brought within it, or the card refused naming what is over). Returns the ink limit
    the card is then held to."""
    from cardgen.prepress.targets import apply_ink

    if not target.dieline:
        build.dieline = None  # the service cuts the rectangle and takes no dieline
    for document in (build.document, build.dieline, build.varnish):
        if document is not None:
            document.standard = target.standard
    # cardgen's own rule (300 %) needs no pass over the pictures: the photo prints in
    # the theme's inks (each within the limit) and the logo is held to it when it is
    # converted (card.logo), so only a target's own limit reads their pixels.
    over = [] if target.ink.default else apply_ink(build.document.pages, target.ink)
    if over:
        raise CardgenError(f"the card would break the ink rule of target {target.key}: "
                           f"{'; '.join(over)}", value=target.key)
    return target.ink.limit


def build_card(config: CardConfig, dieline: DielineMode = DielineMode.FILE, *,
               varnish: VarnishMode | None = None, target: Target | None = None
               ) -> CardBuild:
    """Lay out the whole card from a validated config, with its dieline where
    ``dieline`` says and, with ``varnish``, a spot varnish over the business side's
    visual (``cardgen.card.varnish``): a print-only layer of the outside, or a document
    of its own (``CardBuild.varnish``). A print ``target`` (``cardgen.prepress.targets``)
    fits the card to its product (:func:`fit_target`), holds every colour to its ink
    rule (reduced or refused) and names its PDF/X standard; without one the card is the
    print shop's, as it has always been."""
    ink = None
    if target is not None:
        config = fit_target(config, target)
        ink = target.ink
    spread = Spread(config.size, config.marks)
    geometry = spread.geometry
    theme = load_theme(config.theme, config.base_dir, ink=ink)
    fonts = resolve_fonts(config)
    layout = card_layout()
    profile = cmyk_profile(config)  # read (and refused, if need be) before drawing
    title = say("card", "document.title", name=config.person.name)
    build = CardBuild(Document([], title=title, subject=say("card", "document.subject"),
                               output_intent=config.print_condition),
                      None, spread, theme, fonts)
    outside = spread.new_page(Side.OUTSIDE)
    inside = spread.new_page(Side.INSIDE)
    photo = None
    if config.portrait is not None:  # opened once, for both sides
        from cardgen.draw.raster import open_image

        photo = open_image(config.portrait, "images.portrait", notes=build.warnings)
    front = draw_outside(outside, config, geometry, theme, fonts, layout, build.warnings,
                         photo)
    build.ladder = LadderCard(card_type(config.person.title), strength(front_lines(outside)))
    draw_inside(inside, config, geometry, theme, fonts, layout, build.warnings, photo)
    # The slug and the dieline's legend are cardgen's, in its own fonts.
    own = bundled_fonts()
    spread.add_marks(outside, Side.OUTSIDE, own)
    spread.add_marks(inside, Side.INSIDE, own)
    build.document.pages.extend([outside, inside])
    match dieline:
        case DielineMode.FILE:
            build.dieline = Document([spread.dieline_page(own)],
                                     title=say("card", "document.dieline_title", title=title),
                                     subject=say("card", "document.subject"),
                                     output_intent=config.print_condition)
        case DielineMode.LAYER:
            spread.add_dieline(outside, Side.OUTSIDE, own)
            spread.add_dieline(inside, Side.INSIDE, own)
        case _:
            assert_never(dieline)
    # Last, so that nothing is drawn over it (it overprints, so it covers nothing).
    coated = True
    visual = business_visual(front, geometry, layout)
    match varnish:
        case None:
            pass
        case VarnishMode.LAYER:
            coated = add_varnish(outside, geometry, visual, front, layout)
        case VarnishMode.FILE:
            page = spread.new_page(Side.OUTSIDE)
            coated = add_varnish(page, geometry, visual, front, layout, print_only=False)
            spread.add_marks(page, Side.OUTSIDE, own, what="varnish")
            if coated:
                build.varnish = Document(
                    [page], title=say("card", "document.varnish_title", title=title),
                    subject=say("card", "document.subject"),
                    output_intent=config.print_condition)
        case _:
            assert_never(varnish)
    if not coated:
        build.warnings.append(
            "the varnish: the business side has no visual to coat (its text leaves no "
            "room for the curves), so no Varnish plate is written.")
    # Every string drawn, whoever drew it.
    check_drawn_texts(build.document.pages + (build.dieline.pages if build.dieline else [])
                      + (build.varnish.pages if build.varnish else []))
    limit = MAX_INK if target is None else _hold_to_target(build, target)
    # The theme was checked against the ink rule where the layout uses its colours; this
    # is the safety net over everything drawn.
    problems = [f"{page.name}: {p}" for page in build.document.pages
                for p in page_ink_problems(page, limit)]
    if problems:
        raise CardgenError("the card would break the ink rule (see the guide's print shop "
                           f"checklist): {'; '.join(problems)}.", value=config.theme)
    # The card folds both ways: what crosses a score the fold stretches should not be a
    # heavy solid (docs/printing.md, "Print shop checklist"). The bundled themes keep to it.
    build.warnings += fold_ink_warnings(build.document.pages, geometry)
    if config.logo is not None and profile is None:
        build.warnings.append(NO_PROFILE)  # the same words on every card: said once
    return build
