"""The user's photo on the card (SPEC §2): faded and tinted behind the grids, and
stylized as the business side's main visual.

Both come from one square crop centred on the focus point (``images.portrait_focus``,
by default a little above the middle, where faces usually are), so the same face shows
on both sides. Behind the grids the crop becomes a darkness map printed as a one-colour
duotone per grid. On the business side it becomes a duotone between the ground and the
theme's ink (``[front_portrait]``), faded out softly around the face and near the text
down to exactly the ground's colour, so that no edge of the picture is ever seen; the
curves flow over it. Each is CMYK for print with an RGB twin for previews.
"""

from __future__ import annotations

import array
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardgen.card.config import DEFAULT_FOCUS
from cardgen.card.themes import FrontPortrait, Tones
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box, Point
from cardgen.draw.icc import rgb_profile, screen_rgb
from cardgen.draw.page import Raster
from cardgen.draw.raster import pixels_for, split_alpha
from cardgen.units import MM_PER_INCH

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage



@dataclass(frozen=True)
class Crop:
    """The square of the photo both sides use, in source pixels (left, top, right,
    bottom), and where the focus point lies in it (shares of its side)."""

    box: tuple[float, float, float, float]
    focus: Point

    @property
    def side(self) -> float:
        return self.box[2] - self.box[0]


def square_crop(size: tuple[int, int], focus: Sequence[float] = DEFAULT_FOCUS) -> Crop:
    """The largest square of a ``size`` photo centred on ``focus`` (shares of its width
    and height), moved only as far as it must to stay inside the photo."""
    width, height = size
    side = min(width, height)
    fx, fy = focus[0] * width, focus[1] * height
    left = min(max(fx - side / 2, 0.0), width - side)
    top = min(max(fy - side / 2, 0.0), height - side)
    return Crop((left, top, left + side, top + side), ((fx - left) / side, (fy - top) / side))


def _gray(image: PILImage) -> PILImage:
    """The photo in grey (the lightness of its sRGB colours, from its embedded profile
    when it has one), transparent parts white."""
    from PIL import Image

    source = rgb_profile(image)
    rgb, alpha = split_alpha(image)
    gray = screen_rgb(rgb, source).convert("L")
    if alpha is not None:
        white = Image.new("L", gray.size, 255)
        white.paste(gray, mask=alpha)
        gray = white
    return gray


def lightness_map(image: PILImage, side_px: int, focus: Sequence[float] = DEFAULT_FOCUS,
                  ) -> PILImage:
    """The crop in grey at ``side_px`` square, its tones stretched to the full range."""
    from PIL import Image, ImageOps

    gray = _gray(image)
    crop = square_crop(gray.size, focus)
    square = gray.resize((side_px, side_px), Image.Resampling.LANCZOS, box=crop.box)
    return ImageOps.autocontrast(square, cutoff=1)


def portrait_rasters(image: PILImage, size_mm: float, tints: tuple[Color, Color],
                     strength: float, focus: Sequence[float] = DEFAULT_FOCUS,
                     ) -> tuple[Raster, Raster, float]:
    """The two faded, tinted grid portraits, square, at 300 dpi for ``size_mm``.

    Returns both rasters and the effective resolution the source photo really has.
    """
    from PIL import Image, ImageOps

    side = pixels_for(size_mm)
    effective_dpi = min(image.size) / (size_mm / MM_PER_INCH)
    darkness = ImageOps.invert(lightness_map(image, side, focus))
    rasters = []
    for tint in tints:
        rgb_luts = [[round(255 - v / 255 * strength * (255 - channel)) for v in range(256)]
                    for channel in tint.rgb]
        cmyk_luts = [[round(v * strength * ink) for v in range(256)]
                     for ink in tint.cmyk_fractions]
        rgb_image = Image.merge("RGB", [darkness.point(lut) for lut in rgb_luts])
        cmyk_image = Image.merge("CMYK", [darkness.point(lut) for lut in cmyk_luts])
        rasters.append(Raster.from_images(rgb_image, cmyk_image))
    return rasters[0], rasters[1], effective_dpi


# --- the business side -------------------------------------------------------------------

@dataclass(frozen=True)
class FrontPlacement:
    """Where the front portrait goes, in the front panel's frame: its square ``box`` and
    the ``face`` region around the focus point, kept clear of everything it must not lie
    under."""

    box: Box
    face: Box


def face_region(box: Box, focus: Point, share: float) -> Box:
    """The square of ``share`` of ``box``'s side around the focus point in ``box``."""
    side = share * box.w
    cx, cy = box.x + focus[0] * box.w, box.y + focus[1] * box.h
    return Box(cx - side / 2, cy - side / 2, side, side)


def place_front_portrait(focus: Point, treatment: FrontPortrait, panel: Box, area: Box,
                         bleed: Box, keep: Sequence[Box], step: float,
                         ) -> FrontPlacement | None:
    """Where the portrait goes on the front panel (``panel``: the trimmed panel, its top
    the fold), at a size from ``treatment.size`` down to ``treatment.min_size`` of the
    panel's height, such that its face region stays inside the safe ``area`` (off the
    fold's safe band and the trim's), inside the picture (``treatment.ramp`` in from each
    edge that fades: see :func:`front_portrait_raster`), and at least ``treatment.ramp``
    away from every ``keep`` box (where the portrait fades out); None when no place
    works.

    Its square hangs from the fold, as far right as it can be (running on into the
    ``bleed``), at the largest size that allows; positions and sizes are tried ``step``
    mm apart, rightmost first. When no place hanging from the fold works (a long name
    beside a logo leaves the face no room between them), the square goes lower, as
    little as it must (``step`` mm at a time): at the first height where its face finds
    room, as far right and as large as it can be there."""
    largest = treatment.size * panel.h
    smallest = treatment.min_size * panel.h
    sizes = [largest - i * step for i in range(int((largest - smallest) / step + 1e-9) + 1)]
    ramps = [k.inset(-treatment.ramp) for k in keep]
    # Hanging from the fold, a size's face lies at one height: the sizes whose face
    # cannot be clear there at any place, and the boxes beside none of it, are left out.
    rows: list[tuple[float, list[Box]]] = []
    for side in sizes:
        face = face_region(Box(bleed.x, panel.y, side, side), focus, treatment.face)
        if (area.y - 1e-9 <= face.y and face.bottom <= area.bottom + 1e-9
                and face.y >= panel.y + treatment.ramp - 1e-9):
            rows.append((side, [k for k in ramps if k.y < face.bottom and k.bottom > face.y]))
    right = bleed.right
    while right >= bleed.x + smallest - 1e-9:
        for side, beside in rows:
            if right - side < bleed.x - 1e-9:
                continue
            box = Box(right - side, panel.y, side, side)
            face = face_region(box, focus, treatment.face)
            if (_shows(face, box, panel, treatment.ramp) and area.contains_box(face)
                    and not any(_overlap(face, k) > 1e-9 for k in beside)):
                return FrontPlacement(box, face)
        right -= step
    top = panel.y + step
    while top + smallest <= bleed.bottom + 1e-9:
        found: tuple[float, float] | None = None  # (right, side)
        for side in sizes:
            if top + side > bleed.bottom + 1e-9:
                continue
            at = _rightmost(focus, treatment, panel, area, bleed, ramps, step, top, side)
            if at is not None and (found is None or at > found[0] + 1e-9):
                found = (at, side)
        if found is not None:
            at, side = found
            box = Box(at - side, top, side, side)
            return FrontPlacement(box, face_region(box, focus, treatment.face))
        top += step
    return None


def _shows(face: Box, box: Box, panel: Box, ramp: float) -> bool:
    """Whether the face region lies inside the picture's ``box`` and ``ramp`` in from
    each of its edges that fades (the top always; the others unless they reach the
    ``panel``'s trim, where the picture runs on into the bleed)."""
    tol = 1e-9
    return (face.y >= box.y + ramp - tol
            and face.x >= box.x + (ramp if box.x > panel.x else 0.0) - tol
            and face.right <= box.right - (ramp if box.right < panel.right else 0.0) + tol
            and face.bottom <= box.bottom - (ramp if box.bottom < panel.bottom else 0.0) + tol)


def _rightmost(focus: Point, treatment: FrontPortrait, panel: Box, area: Box, bleed: Box,
               ramps: Sequence[Box], step: float, top: float, side: float) -> float | None:
    """The rightmost right edge, ``step`` mm apart from the bleed's, of a ``side`` mm
    square at ``top`` whose face region keeps the rules of :func:`place_front_portrait`;
    None when there is none. The face's place in the square is fixed, so each rule is
    an interval of right edges that is allowed (or, for a ``keep`` box, refused)."""
    tol = 1e-9
    f = treatment.face * side
    dx = focus[0] * side - f / 2  # the face's left edge from the square's
    y0 = top + focus[1] * side - f / 2
    face_y = Box(0, y0, 1, f)
    if not (area.y - tol <= y0 and y0 + f <= area.bottom + tol):
        return None
    if not _shows(Box(dx, y0, f, f), Box(0, top, side, side),
                  Box(-math.inf, panel.y, math.inf, panel.h), treatment.ramp):
        return None  # (the sides are checked below, where the right edge is known)
    low = max(bleed.x + side, area.x - dx + side)
    high = min(bleed.right, area.right - dx - f + side)
    if dx < treatment.ramp - tol:  # the left edge must reach the trim, where it does not fade
        high = min(high, panel.x + side)
    if side - dx - f < treatment.ramp - tol:  # and so the right edge
        low = max(low, panel.right)
    refused = [(k.x - f - dx + side, k.right - dx + side) for k in ramps
               if min(face_y.bottom, k.bottom) - max(face_y.y, k.y) > tol]
    origin = bleed.right
    right = origin - math.ceil((origin - high) / step - tol) * step
    while right >= low - tol:
        blocking = [(a, b) for a, b in refused if a + tol < right < b - tol]
        if not blocking:
            return right
        a = min(a for a, _ in blocking)
        right = origin - math.ceil((origin - a) / step - tol) * step
    return None


def _overlap(a: Box, b: Box) -> float:
    """The area two boxes share."""
    w = min(a.right, b.right) - max(a.x, b.x)
    h = min(a.bottom, b.bottom) - max(a.y, b.y)
    return w * h if w > 0 and h > 0 else 0.0


def front_portrait_raster(image: PILImage, focus: Sequence[float], box: Box,
                          face_at: Point, treatment: FrontPortrait, ground: Color,
                          keep: Sequence[Box], trim: Box) -> tuple[Raster, float]:
    """The business side's portrait over ``box`` (front panel frame): the crop's tones
    (the lights or the shadows, after ``treatment``) mixed from ``ground`` towards the
    ink, faded out around ``face_at`` (the focus point, in mm), at the box's edges and
    within ``treatment.ramp`` mm of each ``keep`` box, down to exactly the ground: so no
    edge of the picture shows, and it needs no transparency. The fade is worked out on
    points moved inside ``trim``, so that it runs on unchanged into the bleed.

    Returns the raster and the effective resolution the source photo has."""
    from PIL import Image, ImageMath, ImageOps

    side = pixels_for(box.w)
    effective_dpi = min(image.size) / (box.w / MM_PER_INCH)
    tone = lightness_map(image, side, focus)
    if treatment.tones is Tones.SHADOWS:
        tone = ImageOps.invert(tone)
    fade = _fade(box, side, face_at, treatment, keep, trim)
    gamma, levels = treatment.gamma, treatment.levels
    shaped = tone.point([round(255 * (v / 255) ** gamma) for v in range(256)])
    amount = ImageMath.lambda_eval(lambda e: e["t"] * e["f"] * (1 / 255),
                                   t=shaped.convert("F"), f=fade)
    if levels:
        amount = ImageMath.lambda_eval(
            lambda e: e["float"](e["int"](e["a"] * levels + 0.5)) * (1 / levels), a=amount)
    strength = treatment.strength
    level = ImageMath.lambda_eval(lambda e: e["convert"](e["a"] * (255 * strength) + 0.5, "L"),
                                  a=amount)
    ink = treatment.ink
    rgb_luts = [[round(g + (i - g) * v / 255) for v in range(256)]
                for g, i in zip(ground.rgb, ink.rgb, strict=True)]
    cmyk_luts = [[round(255 * (g + (i - g) * v / 255)) for v in range(256)]
                 for g, i in zip(ground.cmyk_fractions, ink.cmyk_fractions, strict=True)]
    rgb = Image.merge("RGB", [level.point(lut) for lut in rgb_luts])
    cmyk = Image.merge("CMYK", [level.point(lut) for lut in cmyk_luts])
    return Raster.from_images(rgb, cmyk), effective_dpi


def _axis(start: float, count: int, step: float, low: float, high: float) -> bytes:
    """The centres of ``count`` pixels ``step`` mm apart from ``start``, held inside
    ``low``..``high``, as 32-bit floats."""
    return array.array("f", [min(max(start + (i + 0.5) * step, low), high)
                             for i in range(count)]).tobytes()


def _fade(box: Box, side: int, face_at: Point, treatment: FrontPortrait,
          keep: Sequence[Box], trim: Box) -> PILImage:
    """How much of the portrait shows at each pixel (0–1, a float image): the product of
    a soft disc around the face, a ramp in from each edge of the box (but those it bleeds
    over at the trim) and a ramp away from each ``keep`` box."""
    from PIL import Image, ImageMath

    step = box.w / side
    xs = Image.frombytes("F", (side, 1), _axis(box.x, side, step, trim.x, trim.right))
    ys = Image.frombytes("F", (1, side), _axis(box.y, side, step, trim.y, trim.bottom))
    x = xs.resize((side, side), Image.Resampling.NEAREST)
    y = ys.resize((side, side), Image.Resampling.NEAREST)
    radius_in = treatment.fade_start * box.w
    radius_out = treatment.fade_end * box.w
    ramp = treatment.ramp

    def smooth(e: dict[str, Any], v: Any) -> Any:
        """0 to 1 along v = 0..1 with a gentle start and end (smoothstep)."""
        c = e["min"](e["max"](v, 0.0), 1.0)
        return c * c * (3 - 2 * c)

    def outside(e: dict[str, Any], low: float, high: float, v: Any) -> Any:
        """How far v lies outside low..high (0 inside)."""
        return e["max"](e["max"](low - v, v - high), 0.0)

    cx, cy = face_at
    fade: PILImage = ImageMath.lambda_eval(
        lambda e: smooth(e, (radius_out - ((e["x"] - cx) ** 2 + (e["y"] - cy) ** 2) ** 0.5)
                         / (radius_out - radius_in)), x=x, y=y)
    # Every edge of the box fades in but one on or past a trim edge it bleeds over; the
    # top always does (the fold is no edge to bleed over).
    edges = [(box.x, 1, x, box.x > trim.x), (box.y, 1, y, True),
             (box.right, -1, x, box.right < trim.right),
             (box.bottom, -1, y, box.bottom < trim.bottom)]
    for edge, sign, axis, fades in edges:
        if fades:
            fade = ImageMath.lambda_eval(
                _times_fade(lambda e, at=edge, to=sign: (e["v"] - at) * (to / ramp), smooth),
                f=fade, v=axis)
    for k in keep:
        fade = ImageMath.lambda_eval(
            _times_fade(lambda e, k=k: (outside(e, k.x, k.right, e["x"]) ** 2
                                        + outside(e, k.y, k.bottom, e["y"]) ** 2) ** 0.5
                        * (1 / ramp), smooth), f=fade, x=x, y=y)
    return fade


def _times_fade(ramp: Callable[..., Any],
                smooth: Callable[[dict[str, Any], Any], Any]) -> Callable[[dict[str, Any]], Any]:
    """An expression for ``ImageMath.lambda_eval``: the fade so far (``f``) times the
    smoothed ``ramp``."""
    def expression(e: dict[str, Any]) -> Any:
        return e["f"] * smooth(e, ramp(e))
    return expression
