"""The card's spreads as print pages: the physical card placed on a page with a slug
around the bleed for crop and fold marks (or none), the marks themselves, the dieline,
and the card as a piece for duplex imposition.

The physical card knows nothing of pages; this module decides where the trim sits on
the page (the slug width) and builds a :class:`CardGeometry` with that origin, so that
everything the layout computes is in page coordinates.

The dieline is drawn as seen on a side, in that side's page coordinates, with that
side's fold marks: its own page (``card-dieline.pdf``) is seen on the outside
(:data:`DIELINE_SIDE`), so that it lies exactly over page 1 of ``card.pdf``, the page a
shop registers the cut to; as a spot layer (``--dieline layer``) each art page carries it
as that page sees it. Its legend sits in the slug above the top edge, between the two
hinge marks; without marks there is no slug and no legend.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Line, Page, Text
from cardgen.physical.card import CardGeometry, CardSize, Preset, Side
from cardgen.prepress.dieline import DIELINE_LAYER, Die, dieline_items, legend_item
from cardgen.prepress.marks import PRINT_SHOP, REGISTRATION, mark_lines
from cardgen.text.fit import check_printable
from cardgen.text.fonts import FontSet
from cardgen.texts import say
from cardgen.units import MM_PER_INCH
from cardgen.version import __version__

if TYPE_CHECKING:
    from cardgen.prepress.impose import Piece

SLUG_PAD = 1.0  # mm beyond the marks to the page edge
SLUG_TEXT_SIZE = 5.0  # pt: the line under the trim
SLUG_TEXT_BELOW = 3.2  # mm from the bleed edge to that line's baseline
DIELINE_SIDE = Side.OUTSIDE  # the side the dieline file is seen from (page 1)
LEGEND_CLEARANCE = 1.0  # mm from the legend to each hinge mark beside it


def size_unit(size: CardSize) -> tuple[str, float]:
    """The unit a card's sizes are stated in, and millimetres per unit: inches for the
    ``us`` preset (given in inches), millimetres for everything else."""
    return ("in", MM_PER_INCH) if size.preset is Preset.US else ("mm", 1.0)


def shown_size(size: CardSize, mm: float) -> str:
    """A length of the card in the card's unit, as the line under the trim states it
    (3.5, 0.125; 85, 110)."""
    return f"{round(mm / size_unit(size)[1], 4):g}"


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

    def add_marks(self, page: Page, side: Side, fonts: FontSet, *,
                  what: str | None = None) -> None:
        """Crop, cut and fold marks and the line under the trim, on a "marks" layer:
        solid crop marks, solid cut marks where the tabs' cuts meet the long edges, dashed
        fold marks where the hinges meet the top edge (the main fold never reaches the
        trim). ``fonts`` are cardgen's own (the slug is production information, not the
        card's design). Sizes are stated in the card's unit (:func:`size_unit`). ``what``
        names the page in that line instead of the side (a key of the texts' ``slug``)."""
        if not self.marks:
            return
        g, size = self.geometry, self.size
        marks = page.layer("marks")
        marks.add(*self.mark_lines(side))
        named = say("card", f"slug.{what or side}")
        info = say("card", "slug.info", version=__version__, side=named,
                   flat_width=shown_size(size, size.width),
                   flat_height=shown_size(size, 2 * size.height),
                   width=shown_size(size, size.width), height=shown_size(size, size.height),
                   bleed=shown_size(size, size.bleed), unit=size_unit(size)[0])
        check_printable(info, fonts.regular, "fonts.regular (the line under the trim)")
        marks.add(Text(g.center_x, g.bleed_box.bottom + SLUG_TEXT_BELOW, info, fonts.regular,
                       SLUG_TEXT_SIZE, REGISTRATION, anchor=Anchor.MIDDLE, name="slug-info"))

    def mark_lines(self, side: Side) -> list[Line]:
        """The crop, cut and fold marks of ``side``'s page."""
        g = self.geometry
        return mark_lines(g.trim, self.size.bleed, g.fold_lines(side), PRINT_SHOP,
                          cuts=g.tab_cuts(side))

    def die(self, side: Side) -> Die:
        """The cuts and scores as seen on ``side``: the trim outline, the two tab slits
        from the long edges to the hinges, the main fold and the two hinges."""
        g = self.geometry
        die = Die(tuple(g.trim.corners()), tuple(g.tab_cuts(Side.INSIDE)), tuple(g.score_lines()))
        return die if side is Side.INSIDE else die.transformed(g.turn)

    def legend_room(self, side: Side) -> Box | None:
        """Where the dieline's legend goes on ``side``'s page: the slug above the bleed,
        between the two hinge marks (less a clearance); None without marks (no slug)."""
        if not self.marks:
            return None
        g = self.geometry
        hinges = [p1[0] for p1, _ in g.fold_lines(side)[1:]]
        left, right = min(hinges) + LEGEND_CLEARANCE, max(hinges) - LEGEND_CLEARANCE
        return Box(left, 0.0, right - left, g.bleed_box.y)

    def add_dieline(self, page: Page, side: Side, fonts: FontSet) -> None:
        """The dieline as seen on ``side`` on ``page``'s "dieline" layer: the cut and
        score paths and, when there is a slug, the legend (in ``fonts``, cardgen's own)."""
        dieline = page.layer(DIELINE_LAYER)
        dieline.add(*dieline_items(self.die(side)))
        room = self.legend_room(side)
        if room is not None:
            legend = say("prepress", "dieline.legend", side=say("card", f"slug.{side}"))
            dieline.add(legend_item(legend, fonts.regular, room))

    def dieline_page(self, fonts: FontSet) -> Page:
        """The dieline file's page: the art pages' boxes, the crop and fold marks of
        :data:`DIELINE_SIDE` (no slug line: the legend says what the page is) and the
        dieline seen from that side."""
        g = self.geometry
        page = Page(DIELINE_LAYER, self.page_width, self.page_height, g.trim, g.bleed_box)
        if self.marks:
            page.layer("marks").add(*self.mark_lines(DIELINE_SIDE))
        self.add_dieline(page, DIELINE_SIDE, fonts)
        return page

    def piece(self) -> Piece:
        """The card for imposition: side 1 the outside, side 2 the inside. The ends of
        the tabs' cuts are ticked on the inside, under the tabs. (Imposition is imported
        here: a card on its own does not need it.)"""
        from cardgen.prepress.impose import Piece

        g, size = self.geometry, self.size
        return Piece(g.trim, g.bleed_box, g.turn,
                     (g.fold_lines(Side.OUTSIDE), g.fold_lines(Side.INSIDE)),
                     f"a {shown_size(size, size.width)} × {shown_size(size, 2 * size.height)} "
                     f"{size_unit(size)[0]} card",
                     cuts=(g.tab_cuts(Side.OUTSIDE), g.tab_cuts(Side.INSIDE)), cut_end_side=1)
