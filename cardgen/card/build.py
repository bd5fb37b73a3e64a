"""Building the whole card from a config: both spreads, marks and dieline."""

from __future__ import annotations

from dataclasses import dataclass, field

from cardgen.card.config import CardConfig
from cardgen.card.inside import draw_inside
from cardgen.card.layout import card_layout
from cardgen.card.outside import draw_outside
from cardgen.card.physical import CardGeometry, Side
from cardgen.card.spread import Spread
from cardgen.card.themes import Theme, load_theme
from cardgen.draw.page import Document
from cardgen.errors import CardgenError
from cardgen.prepress.ink import page_ink_problems
from cardgen.text.fit import check_drawn_texts
from cardgen.text.fonts import FontSet, FontStyle, bundled_fonts, load_face
from cardgen.texts import say


@dataclass
class CardBuild:
    document: Document  # page 1 the outside, page 2 the inside (with the dieline layer)
    spread: Spread
    theme: Theme
    fonts: FontSet
    warnings: list[str] = field(default_factory=list)

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


def build_card(config: CardConfig) -> CardBuild:
    """Lay out the whole card from a validated config."""
    spread = Spread(config.size, config.marks)
    geometry = spread.geometry
    theme = load_theme(config.theme, config.base_dir)
    fonts = resolve_fonts(config)
    layout = card_layout()
    build = CardBuild(Document([], title=say("card", "document.title", name=config.person.name),
                               subject=say("card", "document.subject"),
                               output_intent=config.print_condition),
                      spread, theme, fonts)
    outside = spread.new_page(Side.OUTSIDE)
    inside = spread.new_page(Side.INSIDE)
    draw_outside(outside, config, geometry, theme, fonts, layout, build.warnings)
    draw_inside(inside, config, geometry, theme, fonts, layout, build.warnings)
    # The slug and the dieline's legend are cardgen's, in its own fonts.
    spread.add_marks(outside, Side.OUTSIDE, bundled_fonts())
    spread.add_marks(inside, Side.INSIDE, bundled_fonts())
    spread.add_dieline(inside, bundled_fonts())
    build.document.pages.extend([outside, inside])
    check_drawn_texts(build.document.pages)  # every string drawn, whoever drew it
    # The theme was checked against the ink rule where the layout uses its colours; this
    # is the safety net over everything drawn.
    problems = [f"{page.name}: {p}" for page in build.document.pages
                for p in page_ink_problems(page)]
    if problems:
        raise CardgenError(f"the card would break the ink rule (README, print shop "
                           f"checklist): {'; '.join(problems)}.", value=config.theme)
    return build
