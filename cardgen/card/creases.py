"""Ink across the scores: what a fold stretches, and how much ink it carries.

The card folds both ways along its main score (``physical.card.Fold``): as a business
card the outside is stretched over the ridge, as a tent the inside; and each side tab
folds back over the outside, stretching the inside round its hinge. Where a face is
stretched, ink that crosses the score may crack, heavy solids on coated stock worst.
The rule (docs/printing.md, "Print shop checklist"): whatever meets a score's crease band on a face
that the fold stretches carries at most 100 % ink in all. The bundled themes keep it (a
test checks every item); a theme of one's own gets a warning when it does not.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cardgen.draw.geometry import Affine, Box, Segment
from cardgen.draw.page import (
    Image,
    Item,
    Line,
    Page,
    Path,
    Rect,
    Text,
    walk,
)
from cardgen.physical.card import CREASE, CardGeometry, Side
from cardgen.text.fit import item_box

MAX_FOLD_INK = 1.0  # 100 %: one ink at full strength, or tints adding up to it
# Layers that hold no printed art of the card: they may lie on a score.
NOT_ART = frozenset({"marks", "dieline"})
# What a layer of each side holds, in words for a warning.
WHAT = {
    (Side.OUTSIDE, "background"): "the business side's ground",
    (Side.INSIDE, "background"): "the inside's margin or game panel",
    (Side.INSIDE, "portrait"): "the portraits behind the grids",
    (Side.INSIDE, "grid"): "the grid lines",
}


@dataclass(frozen=True)
class FoldInk:
    """The most ink found on one layer of one side where it crosses a stretched score."""

    side: Side
    layer: str
    ink: float  # 0-4 (1 = 100 %)


def _band(score: Segment) -> Box:
    (x1, y1), (x2, y2) = score
    return Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1)).inset(-CREASE)


def _image_ink(image: Image, t: Affine, bands: list[Box]) -> float:
    """The most ink of an image's print pixels (its CMYK twin) under the crease bands
    it meets; an image without a CMYK twin counts as full (it may print so)."""
    cmyk = image.raster.cmyk
    if cmyk is None:
        return 4.0
    own = Box(image.x, image.y, image.w, image.h)
    sx, sy = cmyk.width / own.w, cmyk.height / own.h
    most = 0.0
    for band in bands:
        local = band.transformed(t.inverse())  # the band in the image's own frame
        left, right = max(local.x, own.x) - own.x, min(local.right, own.right) - own.x
        top, bottom = max(local.y, own.y) - own.y, min(local.bottom, own.bottom) - own.y
        if right < 0 or bottom < 0 or left > own.w or top > own.h:
            continue
        x0, y0 = min(math.floor(left * sx), cmyk.width - 1), min(math.floor(top * sy),
                                                                   cmyk.height - 1)
        x1, y1 = max(math.ceil(right * sx), x0 + 1), max(math.ceil(bottom * sy), y0 + 1)
        data = cmyk.crop((x0, y0, x1, y1)).tobytes()  # C, M, Y, K bytes per pixel
        most = max(most, max(sum(data[i:i + 4]) for i in range(0, len(data), 4)) / 255)
    return most


def _ink(item: Item, t: Affine, bands: list[Box]) -> float:
    match item:
        case Image():
            return _image_ink(item, t, bands)
        case Line():
            return sum(item.stroke.color.cmyk_fractions)
        case Rect() | Path():
            fill = sum(item.fill.cmyk_fractions) if item.fill else 0.0
            stroke = sum(item.stroke.color.cmyk_fractions) if item.stroke else 0.0
            return max(fill, stroke)
    return 0.0


def fold_ink(page: Page, side: Side, geometry: CardGeometry) -> list[FoldInk]:
    """For each layer of ``page`` (the card's ``side``) whose paint meets the crease band
    of a score that folding stretches on that side, the most ink found there."""
    bands = [_band(s) for s in geometry.stretched_scores(side)]
    found: list[FoldInk] = []
    for layer in page.layers:
        if layer.name in NOT_ART:
            continue
        most = -1.0
        for item, t in walk(layer.items):
            if isinstance(item, Text):
                continue
            box = item_box(item)  # in the item's frame
            if box is None or not any(box.transformed(t).intersects(b) for b in bands):
                continue
            most = max(most, _ink(item, t, bands))
        if most >= 0:
            found.append(FoldInk(side, layer.name, most))
    return found


def fold_ink_warnings(pages: list[Page], geometry: CardGeometry) -> list[str]:
    """A warning for every layer that crosses a stretched score with more than 100 % ink
    (``pages``: the outside, then the inside)."""
    warnings = []
    for side, page in zip(Side, pages, strict=True):
        for found in fold_ink(page, side, geometry):
            if found.ink > MAX_FOLD_INK + 1e-9:
                what = WHAT.get((side, found.layer), f"the {side} spread's {found.layer}")
                fold = "the main fold" if side is Side.OUTSIDE else "the main fold or a hinge"
                warnings.append(
                    f"card.theme: {what} crosses {fold} with {found.ink * 100:.0f} % ink, and "
                    f"a fold may crack a solid over {MAX_FOLD_INK * 100:.0f} % along its ridge; "
                    "choose a colour of one ink, or lighter, for it in the theme.")
    return warnings
