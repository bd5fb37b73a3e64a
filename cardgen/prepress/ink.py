"""The ink rule: how small type and thin lines are printed so that they stay sharp when
the printing plates do not line up exactly, and how much ink a colour may put down.

cardgen's one rule, for every print file (SPEC §2, "Ink rules"):

1. *Fine elements* are type under :data:`FINE_TYPE` (8 pt) and lines thinner than
   :data:`FINE_LINE` (0.5 pt). Every fine element is printed either
   - in **solid black** (100 % K and no other ink), set to **overprint**, so that it
     never leaves a gap where another plate was knocked out for it; or
   - in **paper white** (no ink: the type is reversed), on a ground that uses **a
     single ink**, so that no second plate can show beside the letters;
   never in a tint (screened type breaks up) or in a build of several inks.
2. No line is thinner than :data:`MIN_LINE` (0.25 pt).
3. No colour puts down more than :data:`MAX_INK` (300 %) of ink.
4. Type is legible on screen too: its preview colour has a contrast of at least
   :data:`MIN_CONTRAST` (4.5 : 1, as WCAG asks of body text) with its ground.

Larger type and lines may use any colour within the ink limit. Spot colours are production
marks, not ink on the piece (the registration colour of the crop marks, the dieline's
``CutContour`` and ``Score``), and so is everything in the slug outside the bleed: the
rule does not apply to them.

:func:`fine_problem` and :func:`contrast` judge one colour against its ground;
:func:`page_ink_problems` walks a laid-out page and reports *every* element that breaks
points 1–3 (what lies under an element is left to the layout, and checked on the printed
file by the tests).

Imports ``cardgen.draw`` only.
"""

from __future__ import annotations

import math

from cardgen.draw.colors import Color
from cardgen.draw.page import Line, Page, Path, Rect, Text, page_items
from cardgen.units import MM_PER_PT

FINE_TYPE = 8.0  # pt: type below this is fine
FINE_LINE = 0.5 * MM_PER_PT  # mm (0.5 pt): lines thinner than this are fine
MIN_LINE = 0.25 * MM_PER_PT  # mm (0.25 pt): no thinner line at all
MAX_INK = 3.0  # 300 % total area coverage
MIN_CONTRAST = 4.5

PLATES = ("C", "M", "Y", "K")
_EPS = 1e-6


def plates(color: Color) -> tuple[str, ...]:
    """The process plates a colour puts ink on."""
    return tuple(p for p, v in zip(PLATES, color.cmyk_fractions, strict=True) if v > _EPS)


def is_paper(color: Color) -> bool:
    """No ink at all: the paper shows."""
    return not plates(color) and color.spot is None


def is_solid_black(color: Color) -> bool:
    """100 % K and no other ink."""
    c, m, y, k = color.cmyk_fractions
    return color.spot is None and max(c, m, y) <= _EPS and k >= 1 - _EPS


def total_ink(color: Color) -> float:
    """Total area coverage (1.0 = 100 %)."""
    return sum(color.cmyk_fractions)


def describe(color: Color) -> str:
    """A colour as a print shop writes it: ``C60 M40 Y40 K100``."""
    if color.spot:
        return f"spot colour {color.spot}"
    if is_paper(color):
        return "paper white (no ink)"
    return " ".join(f"{p}{round(v * 100):g}" for p, v in zip(PLATES, color.cmyk_fractions,
                                                              strict=True) if v > _EPS)


def fine_problem(color: Color, ground: Color) -> str | None:
    """Why a fine element (small type, thin line) of ``color`` on ``ground`` breaks the
    ink rule, or None when it keeps it."""
    if is_solid_black(color):
        return None
    if is_paper(color):
        under = plates(ground)
        if ground.spot is not None or len(under) > 1:
            return (f"paper-white type or lines need a ground of one ink, and the ground is "
                    f"{describe(ground)}")
        return None
    return (f"it is {describe(color)}; small type and thin lines must be solid black "
            "(100 % K, which overprints) or paper white on a ground of one ink")


def luminance(color: Color) -> float:
    """Relative luminance of the preview (sRGB) colour, as WCAG defines it."""
    def channel(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in color.rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Color, b: Color) -> float:
    """WCAG contrast ratio of two preview colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def page_ink_problems(page: Page, limit: float = MAX_INK) -> list[str]:
    """Every element of a page that breaks the ink rule's points 1–3 by
    itself: fine type or lines that are neither overprinting solid black nor paper white,
    lines under 0.25 pt, colours over the ink limit (``limit``: :data:`MAX_INK` unless
    a print target sets its own). Items outside the bleed box (the slug's marks) are not
    part of the piece and are skipped."""
    problems: list[str] = []
    for item, t in page_items(page):
        scale = t.scale_factor
        if isinstance(item, Text):
            x, y = t.apply(item.x, item.y)
            if not page.bleed.contains(x, y):
                continue
            what = f"{item.name or repr(item.text)} ({item.size * scale:.1f} pt)"
            problems += _ink_limit(item.color, what, limit)
            if item.size * scale < FINE_TYPE - _EPS:
                problems += _fine_color(item.color, what)
        elif isinstance(item, Line | Path | Rect):
            if isinstance(item, Line):
                x, y = t.apply(item.x1, item.y1)
                if not page.bleed.contains(x, y):
                    continue
            fill = None if isinstance(item, Line) else item.fill
            if fill is not None:
                problems += _ink_limit(fill, "a filled shape", limit)
            stroke = item.stroke
            if stroke is None:
                continue
            width = stroke.width * scale
            what = f"a {width / MM_PER_PT:.2f} pt line"
            problems += _ink_limit(stroke.color, what, limit)
            if width < MIN_LINE - _EPS:
                problems.append(f"{what} is thinner than {MIN_LINE / MM_PER_PT:g} pt")
            if width < FINE_LINE - _EPS:
                problems += _fine_color(stroke.color, what)
    return sorted(set(problems), key=problems.index)


def _fine_color(color: Color, what: str) -> list[str]:
    if color.spot is not None:
        return []  # a production mark
    if is_solid_black(color):
        return [] if color.overprint else [f"{what}: solid black that does not overprint"]
    if is_paper(color):
        return []
    return [f"{what}: {describe(color)} (small type and thin lines must be solid black or "
            "paper white)"]


def _ink_limit(color: Color, what: str, limit: float = MAX_INK) -> list[str]:
    if color.spot is None and total_ink(color) > limit + _EPS:
        return [f"{what}: {describe(color)} is {math.floor(total_ink(color) * 100)} % ink, "
                f"over the {limit * 100:g} % limit"]
    return []
