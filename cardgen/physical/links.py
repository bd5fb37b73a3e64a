"""Where the Connector puzzle's link numbers sit, in the back-panel frame.

Link numbers 1–4 mark the four corners of the back panel; 5 and 6 are printed on the
side tabs (the addendum) so that, with a tab folded back, they appear on the back panel
at the positions given here. The card layout places tab content through
``CardGeometry.addendum_to_inside``; a test folds the printed card and checks that the
numbers land here.
"""

from __future__ import annotations

from cardgen.draw.geometry import Point
from cardgen.physical.card import CardGeometry, Tab

LINK_RADIUS = 1.6  # half the size of a link number's mark (mm)
CORNER_LINKS = ("1", "2", "3", "4")  # clockwise from the top left, as read


def link_positions(geometry: CardGeometry) -> dict[str, Point]:
    """Centre of each link number in the back-panel frame (mm, as read)."""
    safe = geometry.panel_safe()
    r = LINK_RADIUS
    positions = {
        "1": (safe.x + r, safe.y + r),
        "2": (safe.right - r, safe.y + r),
        "3": (safe.right - r, safe.bottom - r),
        "4": (safe.x + r, safe.bottom - r),
    }
    for tab in Tab:
        footprint = geometry.folded_tab_footprint(tab)
        positions[tab.value] = (footprint.center[0], footprint.bottom - geometry.size.safe - r)
    return positions
