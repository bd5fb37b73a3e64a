"""The card seen from the back, as the Connector is played with it: the user's own card,
tabs open or folded, cut out of its printed spreads.

A page the size of the folded card in the Connector's card frame (the back panel as it
reads, origin at its top-left, mm, y down; see :mod:`cardgen.connector.model`), made of
the spreads' own drawing placed by the card's geometry
(:class:`cardgen.physical.card.CardGeometry`), nothing drawn anew:

* **tabs open**: the back panel, the whole width of the outside's upper half
  (``back_to_page``);
* **tabs folded**, bottom first: the lower half's inside, where the folded tabs uncover
  it (``strip_to_inside``); the back panel between the hinges; each tab's inside, folded
  over the back panel (``addendum_to_inside``), clipped to the tab.

Crop and fold marks are left out; so is anything beyond the trim.
"""

from __future__ import annotations

from cardgen.card.build import CardBuild
from cardgen.connector.model import Tabs
from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, Item, Layer, Page
from cardgen.physical.card import Tab

LEFT_OUT = frozenset({"marks"})  # the layers of a spread the back view does not show


def _art(page: Page) -> list[Item]:
    """Everything a spread prints on the card (no marks, no print-only plate)."""
    return [item for layer in page.layers if layer.name not in LEFT_OUT
            and not layer.print_only for item in layer.items]


def back_page(build: CardBuild, tabs: Tabs) -> Page:
    """The card's back in the Connector's card frame, with its tabs ``tabs``."""
    g = build.geometry
    outside, inside = build.document.pages[0], build.document.pages[1]
    card = Box(0.0, 0.0, g.size.width, g.size.height)
    back = g.back_to_page
    if tabs is Tabs.OPEN:
        items: list[Item] = [Group(_art(outside), transform=back.inverse(),
                                   clip=card.transformed(back), name="back")]
    else:
        panel = Box(g.hinge_left, g.trim.y, g.hinge_right - g.hinge_left, g.fold_y - g.trim.y)
        items = [Group(_art(inside), transform=g.strip_to_inside.inverse(),
                       clip=card.transformed(g.strip_to_inside), name="strip"),
                 Group(_art(outside), transform=back.inverse(), clip=panel, name="back")]
        for tab in (Tab.FIVE, Tab.SIX):
            items.append(Group(_art(inside), transform=g.addendum_to_inside(tab).inverse(),
                               clip=g.tabs[tab], name=f"tab-{tab.value}"))
    return Page(f"back-{tabs.value}", card.w, card.h, trim=card, bleed=card,
                layers=[Layer("card", items)])
