"""The card's spot varnish (``cardgen card --varnish``): the business side's visual
coated, and nothing else.

Where the coating goes, in the front panel's frame (y = 0 at the fold), with the numbers
of ``templates/card/layout.toml``'s ``[varnish]`` table:

- **The visual only** (:func:`business_visual`): the band the curves fill, across the
  panel and its bleed, and (once the business side carries one) the portrait's box.
- **Never over type, the QR code, the logo or the signature box.** Each of the panel's
  items keeps ``clearance`` mm of uncoated ground around it, and the coating stops at
  every text block's plate (the ground that keeps the curves ``art.clearance`` away from
  its type): a varnish unit registers to the print within about half a millimetre, and coating
  that creeps onto small type or a QR code's modules is a defect (it thickens the type's
  edges and can keep a QR code from scanning); a pen does not write on it either.
- **Off the fold.** The coating stops ``fold_gap`` mm short of the main fold (the same
  line the tabs' cuts run along): a UV coat is brittle and cracks where the sheet is
  scored and bent, and the score itself may land a millimetre off. Nothing of the
  varnish comes nearer the fold than that, whichever way the card is folded.
- **Through the trim.** Where the visual runs to a trimmed edge the coating runs on to
  the bleed's edge as the art does, so that a cut a little off the trim leaves no
  uncoated sliver.

The spot colour, the layer and the region arithmetic are ``cardgen.prepress.varnish``'s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardgen.card.layout import CardLayout
from cardgen.card.outside import PanelContent
from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, Page
from cardgen.physical.card import CardGeometry
from cardgen.prepress.varnish import VARNISH_LAYER, varnish_items
from cardgen.text.fit import item_box


def business_visual(front: PanelContent, geometry: CardGeometry,
                    layout: CardLayout) -> list[Box]:
    """The business side's visual, as boxes in the front panel's frame: the band the
    curves fill, across the panel and its bleed (none when the panel draws no curves,
    ``front.band`` None), and the portrait's bright middle: the disc of ``portrait_share``
    of its glow radius, as horizontal strips ``strip`` mm high that stay inside it (the
    picture fades into the bare ground outside its glow, where a coat would show as a
    shape of its own). This is the one place that says what the visual is."""
    boxes: list[Box] = []
    if front.band is not None:
        panel = geometry.panel_with_bleed()
        top, bottom = front.band
        boxes.append(Box(panel.x, top, panel.w, bottom - top))
    if front.glow is not None:
        cx, cy, glow = front.glow
        radius = glow * layout.varnish["portrait_share"]
        strip = layout.varnish["strip"]
        count = int(2 * radius // strip)
        top = cy - count * strip / 2
        for k in range(count):
            y0, y1 = top + k * strip, top + (k + 1) * strip
            far = max(abs(y0 - cy), abs(y1 - cy))  # the strip's edge farther from the centre
            half = math.sqrt(max(radius * radius - far * far, 0.0))
            if half > 0:
                boxes.append(Box(cx - half, y0, 2 * half, strip))
    return boxes


def keep_out(front: PanelContent, clearance: float) -> list[Box]:
    """What the varnish stays off, in the front panel's frame: every text block's plate
    (already ``art.clearance`` around its type: the visual ends at its edge) and every
    item of the panel (type, rule, QR code, logo, signature box) with ``clearance``
    around it. A box inside another is dropped."""
    boxes = [b for item in front.plates if (b := item_box(item)) is not None]
    boxes += [b.inset(-clearance) for item in front.items
              if (b := item_box(item)) is not None]
    return [b for i, b in enumerate(boxes)
            if not any(j != i and o.contains_box(b) and (o != b or j < i)
                       for j, o in enumerate(boxes))]


def add_varnish(page: Page, geometry: CardGeometry, visual: Sequence[Box],
                front: PanelContent, layout: CardLayout, *, print_only: bool = True) -> bool:
    """The varnish over ``visual`` (the business side's visual, :func:`business_visual`)
    on ``page`` (the outside, or a page of its own: ``print_only`` False), on its
    ``varnish`` layer (print-only: left out of previews), kept clear of
    ``front``'s items and plates and off the fold; False, and no layer, when there is
    nothing to coat (or nothing is left once the type, the codes and the fold are kept
    clear)."""
    rules = layout.varnish
    panel = geometry.panel_with_bleed()
    # Everything of the panel with its bleed, except the band along the fold.
    within = Box(panel.x, rules["fold_gap"], panel.w, panel.bottom - rules["fold_gap"])
    items = varnish_items(visual, keep_out(front, rules["clearance"]), within)
    if not items:
        return False
    page.layer(VARNISH_LAYER, print_only=print_only).add(
        Group(items, transform=geometry.front_to_page, name="front-varnish"))
    return True
