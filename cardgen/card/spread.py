"""The card's spreads as print pages: the physical card placed on a page with a slug
around the bleed for crop and fold marks (or none), the marks themselves, the dieline,
and the card as a piece for duplex imposition.

The physical card knows nothing of pages; this module decides where the trim sits on
the page (the slug width) and builds a :class:`CardGeometry` with that origin, so that
everything the layout computes is in page coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from cardgen import __version__
from cardgen.card.physical import CardGeometry, CardSize, Side
from cardgen.draw.page import Anchor, Page, Text
from cardgen.prepress.dieline import CUT_CONTOUR, DIELINE_LAYER, dieline_items
from cardgen.prepress.impose import Piece
from cardgen.prepress.marks import PRINT_SHOP, REGISTRATION, mark_lines
from cardgen.text.fit import check_printable
from cardgen.text.fonts import FontSet
from cardgen.texts import say

SLUG_PAD = 1.0  # mm beyond the marks to the page edge
SLUG_TEXT_SIZE = 5.0  # pt: the line under the trim
SLUG_TEXT_BELOW = 3.2  # mm from the bleed edge to that line's baseline


@dataclass(frozen=True)
class Spread:
    """How a spread of the card sits on its print page."""

    size: CardSize
    marks: bool = True

    @cached_property
    def slug(self) -> float:
        """Margin from the trim to the page edge (bleed plus room for the marks)."""
        if not self.marks:
            return self.size.bleed
        return self.size.bleed + PRINT_SHOP.gap + PRINT_SHOP.length + SLUG_PAD

    @cached_property
    def geometry(self) -> CardGeometry:
        """The physical card in page coordinates."""
        return CardGeometry(self.size, (self.slug, self.slug))

    @property
    def page_width(self) -> float:
        return self.geometry.trim.w + 2 * self.slug

    @property
    def page_height(self) -> float:
        return self.geometry.trim.h + 2 * self.slug

    def new_page(self, side: Side) -> Page:
        g = self.geometry
        return Page(side.value, self.page_width, self.page_height, g.trim, g.bleed_box)

    def add_marks(self, page: Page, side: Side, fonts: FontSet) -> None:
        """Crop and fold marks and the line under the trim, on a "marks" layer. ``fonts``
        are cardgen's own (the slug is production information, not the card's design)."""
        if not self.marks:
            return
        g, size = self.geometry, self.size
        marks = page.layer("marks")
        marks.add(*mark_lines(g.trim, size.bleed, g.fold_lines(side), PRINT_SHOP))
        info = say("card", "slug.info", version=__version__, side=say("card", f"slug.{side}"),
                   flat_width=f"{size.width:g}", flat_height=f"{2 * size.height:g}",
                   width=f"{size.width:g}", height=f"{size.height:g}", bleed=f"{size.bleed:g}")
        check_printable(info, fonts.regular, "fonts.regular (the line under the trim)")
        marks.add(Text(g.center_x, g.bleed_box.bottom + SLUG_TEXT_BELOW, info, fonts.regular,
                       SLUG_TEXT_SIZE, REGISTRATION, anchor=Anchor.MIDDLE, name="slug-info"))

    def add_dieline(self, page: Page, fonts: FontSet) -> None:
        """The cuts and scores, drawn as seen on the inside, on a non-printing layer, with
        a legend in ``fonts`` (cardgen's own)."""
        g = self.geometry
        dieline = page.layer(DIELINE_LAYER, printing=False)
        dieline.add(*dieline_items(g.cut_lines(), g.score_lines()))
        if self.marks:
            legend = say("prepress", "dieline.legend")
            check_printable(legend, fonts.regular, "fonts.regular (the dieline's legend)")
            dieline.add(Text(g.center_x, g.bleed_box.bottom + SLUG_TEXT_BELOW,
                             legend, fonts.regular, SLUG_TEXT_SIZE,
                             CUT_CONTOUR, anchor=Anchor.MIDDLE, name="dieline-legend"))

    def piece(self) -> Piece:
        """The card for imposition: side 1 the outside, side 2 the inside."""
        g = self.geometry
        return Piece(g.trim, g.bleed_box, g.turn,
                     (g.fold_lines(Side.OUTSIDE), g.fold_lines(Side.INSIDE)),
                     f"a {self.size.width:g} × {2 * self.size.height:g} mm card")
