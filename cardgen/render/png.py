"""PNG output drawn directly with Pillow.

The page is drawn at ``supersample`` times the target resolution and reduced with a box
filter, which anti-aliases edges. Text uses the same font files through FreeType.

What the pages of a run share is kept between drawings, within bounds: a raster resampled
for the canvas (a batch's logo), a text's coverage in a face (the rules and labels every
card of a batch prints). What is kept gives the pixels drawing it again would give.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cache
from typing import Generic, TypeVar

from PIL import Image as PILImage
from PIL import ImageDraw, ImageFont

from cardgen.draw.geometry import Affine, Point
from cardgen.draw.page import (
    Anchor,
    FontRef,
    Group,
    Image,
    Line,
    Path,
    Raster,
    Rect,
    Stroke,
    Text,
    View,
)
from cardgen.draw.raster import mask_coverage
from cardgen.errors import FontError
from cardgen.render.base import Painter, walk_path
from cardgen.text.fonts import font_file_bytes
from cardgen.units import MM_PER_PT, px_per_mm

_EPS = 1e-9
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_ANCHORS = {Anchor.START: "ls", Anchor.MIDDLE: "ms", Anchor.END: "rs"}
SUPERSAMPLE = 2  # drawn at twice the resolution, then reduced: anti-aliased edges
BOX_MASK_LIMIT = 2048  # the largest side, in pixels, of the finer mask for rectangle paths
BOX_MASK_DETAIL = 8  # ...which is at most this many times finer than the canvas
ZLIB_LEVEL = 6  # a PNG's compression: zlib's default balance of size and time
# A batch's previews: zlib's fastest level. The pixels are the same; encoding takes about
# two thirds of the time, and the file is about 7 % larger (docs/benchmarks.md).
FAST_ZLIB_LEVEL = 1


def rasterize(view: View, dpi: float = 300, supersample: int = SUPERSAMPLE) -> PILImage.Image:
    """A view as an RGB image of the whole page at ``dpi``."""
    page = view.page
    scale = px_per_mm(dpi) * supersample
    size = (max(1, round(page.width * px_per_mm(dpi))) * supersample,
            max(1, round(page.height * px_per_mm(dpi))) * supersample)
    painter = _PngPainter(PILImage.new("RGB", size, (255, 255, 255)))
    base = Affine.scale(scale)
    for layer in view.layers:
        painter.draw_all(layer.items, base)
    image = painter.canvas
    if supersample > 1:
        image = image.reduce(supersample)
    return image


def render_png(view: View, dpi: float = 300, *, level: int = ZLIB_LEVEL) -> bytes:
    """A view as PNG bytes at ``dpi``, the resolution recorded in the file, compressed
    at zlib ``level`` (deterministic)."""
    return png_bytes(rasterize(view, dpi), dpi, level=level)


def png_bytes(image: PILImage.Image, dpi: float, *, level: int = ZLIB_LEVEL) -> bytes:
    """Encode as PNG with the resolution recorded, at zlib ``level`` (deterministic; the
    level changes the file's size and the time it takes, never its pixels)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=level)
    return buf.getvalue()


def _font(face: FontRef, size_px: float) -> ImageFont.FreeTypeFont:
    """The face at a pixel size, from the font bytes that were checked when it was
    loaded (never the file again). FreeType's own complaints become a FontError."""
    try:
        return _font_of(font_file_bytes(face), size_px)
    except OSError as exc:
        raise FontError(f"font {face.path} cannot be rendered as an image ({exc}); it is "
                        "probably damaged.", value=face.path) from None


@cache
def _font_of(data: bytes, size_px: float) -> ImageFont.FreeTypeFont:
    """A font file's bytes at a pixel size, loaded once per process: keyed by the bytes,
    so a file changed on disk (or another file at the same path) is never drawn with the
    face loaded before."""
    return ImageFont.truetype(io.BytesIO(data), size_px)


def _inked(font: ImageFont.FreeTypeFont, text: str, anchor: str,
           start: tuple[float, float]) -> tuple[PILImage.Image, tuple[int, int]]:
    """The coverage of ``text`` drawn upright with its anchor at a point whose fractions
    of a pixel are ``start`` (each from 0 up to 1), and where that point's whole pixel
    lies in the mask. Pasting the colour through the mask with that pixel at the point's
    whole pixel (``int`` of each coordinate) gives the pixels ``ImageDraw.text`` gives
    there: Pillow renders the glyphs for the fractions the same way (FreeType's coverage;
    an "L" mask drawn at 255 is that coverage) and fills the colour through them as a
    paste does."""
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    pad = 3  # (the bounding box is measured from a whole pixel; the fractions shift it)
    dx, dy = pad - math.floor(left), pad - math.floor(top)
    size = (max(1, math.ceil(right) - math.floor(left) + 2 * pad),
            max(1, math.ceil(bottom) - math.floor(top) + 2 * pad))
    mask = PILImage.new("L", size, 0)
    ImageDraw.Draw(mask).text((dx + start[0], dy + start[1]), text, font=font, fill=255,
                              anchor=anchor)
    return mask, (dx, dy)


def _turned(font: ImageFont.FreeTypeFont, text: str,
            anchor: str) -> tuple[PILImage.Image, tuple[float, float]]:
    """The coverage of ``text`` on a mask of its own, to be turned onto the page, and
    where its anchor is on that mask."""
    left, top, right, bottom = font.getbbox(text, anchor=anchor)
    pad = 2
    mask = PILImage.new("L", (int(right - left) + 2 * pad, int(bottom - top) + 2 * pad), 0)
    origin = (pad - left, pad - top)
    ImageDraw.Draw(mask).text(origin, text, font=font, fill=255, anchor=anchor)
    return mask, origin


def _dashes(points: list[Point], pattern: list[float]) -> list[list[Point]]:
    """Split a polyline into the drawn pieces of a dash pattern (pattern in pixels)."""
    pieces: list[list[Point]] = []
    index, left, on = 0, pattern[0], True
    current: list[Point] = [points[0]]
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        seg = math.hypot(x2 - x1, y2 - y1)
        pos = 0.0
        while seg - pos > left:
            pos += left
            t = pos / seg
            p = (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
            if on:
                current.append(p)
                pieces.append(current)
            current = [p]
            on = not on
            index = (index + 1) % len(pattern)
            left = pattern[index]
        left -= seg - pos
        if on:
            current.append((x2, y2))
        else:
            current = [(x2, y2)]
    if on and len(current) > 1:
        pieces.append(current)
    return pieces


def _bezier(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    length = sum(math.dist(a, b) for a, b in ((p0, p1), (p1, p2), (p2, p3)))
    steps = max(4, min(256, int(length / 3)))
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = p0, p1, p2, p3
    # Each term as _bezier_plain writes it: ((3 * u) * u) * t times the coordinate...
    return [(a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3)
            for a, b, c, d in _bernstein(steps)]


@cache
def _bernstein(steps: int) -> tuple[tuple[float, float, float, float], ...]:
    """The cubic Bernstein weights at t = 1/steps, 2/steps … 1, each computed in the
    order :func:`_bezier_plain` multiplies (so the points come out the same to the bit)."""
    weights = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        weights.append((u**3, 3 * u * u * t, 3 * u * t * t, t**3))
    return tuple(weights)


def _bezier_plain(p0: Point, p1: Point, p2: Point, p3: Point) -> list[Point]:
    """:func:`_bezier` as it was first written (tests compare the two)."""
    length = sum(math.dist(a, b) for a, b in ((p0, p1), (p1, p2), (p2, p3)))
    steps = max(4, min(256, int(length / 3)))
    pts = []
    for i in range(1, steps + 1):
        t = i / steps
        u = 1 - t
        pts.append((
            u**3 * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
            u**3 * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1],
        ))
    return pts


class _Flattener:
    """Path operations to point lists in pixels (curves sampled), one per subpath, each
    with whether it is closed."""

    def __init__(self, t: Affine) -> None:
        self.t = t
        self.subpaths: list[tuple[list[Point], bool]] = []
        self.current: list[Point] = []

    def move_to(self, x: float, y: float) -> None:
        if len(self.current) > 1:
            self.subpaths.append((self.current, False))
        self.current = [self.t.apply(x, y)]

    def line_to(self, x: float, y: float) -> None:
        self.current.append(self.t.apply(x, y))

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> None:
        t = self.t
        self.current.extend(_bezier(self.current[-1], t.apply(x1, y1), t.apply(x2, y2),
                                    t.apply(x, y)))

    def close(self) -> None:
        if self.current:
            self.subpaths.append((self.current, True))
            self.current = [self.current[0]]

    def finish(self) -> list[tuple[list[Point], bool]]:
        if len(self.current) > 1:
            self.subpaths.append((self.current, False))
        return self.subpaths


Box = tuple[float, float, float, float]


def _box(pts: list[Point]) -> Box | None:
    """A closed subpath's (left, top, right, bottom) when it is an axis-aligned rectangle
    (four corners, edges alternately horizontal and vertical), else None."""
    if len(pts) == 5 and math.dist(pts[0], pts[-1]) < _EPS:
        pts = pts[:4]
    if len(pts) != 4:
        return None
    edges = [(pts[i], pts[(i + 1) % 4]) for i in range(4)]
    flat = [abs(a[1] - b[1]) < _EPS for a, b in edges]
    upright = [abs(a[0] - b[0]) < _EPS for a, b in edges]
    if flat[::2] + upright[1::2] != [True] * 4 and upright[::2] + flat[1::2] != [True] * 4:
        return None
    xs = sorted(p[0] for p in pts)
    ys = sorted(p[1] for p in pts)
    return (xs[0], ys[0], xs[-1], ys[-1]) if xs[-1] > xs[0] and ys[-1] > ys[0] else None


class _PngPainter(Painter[Affine]):
    """Draws into a Pillow image; the context is the transform from the item's
    coordinates to pixels."""

    def __init__(self, image: PILImage.Image) -> None:
        self.canvas = image
        self.pen = ImageDraw.Draw(image)

    def line(self, item: Line, t: Affine) -> None:
        self._stroke([t.apply(item.x1, item.y1), t.apply(item.x2, item.y2)], item.stroke, t,
                     closed=False)

    def path(self, item: Path, t: Affine) -> None:
        flattener = _Flattener(t)
        walk_path(item.ops, flattener)
        subpaths = flattener.finish()
        if item.fill is not None:
            boxes = [box for pts, closed in subpaths if closed and (box := _box(pts))]
            if abs(t.b) < _EPS and abs(t.c) < _EPS and boxes and len(boxes) == len(subpaths):
                self._fill_boxes(boxes, item.fill.rgb)  # rectangles only: a QR code
            else:
                for pts, _ in subpaths:
                    if len(pts) > 2:
                        self.pen.polygon(pts, fill=item.fill.rgb)
        if item.stroke is not None:
            for pts, closed in subpaths:
                self._stroke(pts, item.stroke, t, closed)

    def _fill_boxes(self, boxes: list[Box], rgb: tuple[int, int, int]) -> None:
        """Fill axis-aligned boxes (x0, y0, x1, y1 in pixels) with the share of each pixel
        they cover, as a PDF viewer does: drawn on a mask up to ``BOX_MASK_DETAIL`` times
        finer, averaged down, and the colour pasted through it. Boxes that touch leave no
        seam, and each is as wide as it should be. Pillow's polygons would come out a
        pixel wider and taller than the shape, edges snapped to whole pixels: at two
        pixels a module, enough to keep a QR code from decoding."""
        left = max(0, math.floor(min(b[0] for b in boxes)))
        top = max(0, math.floor(min(b[1] for b in boxes)))
        right = min(self.canvas.width, math.ceil(max(b[2] for b in boxes)))
        bottom = min(self.canvas.height, math.ceil(max(b[3] for b in boxes)))
        if right <= left or bottom <= top:
            return
        size = (right - left, bottom - top)
        k = max(1, min(BOX_MASK_DETAIL, BOX_MASK_LIMIT // max(size)))
        mask = PILImage.new("L", (size[0] * k, size[1] * k), 0)
        pen = ImageDraw.Draw(mask)
        for x0, y0, x1, y1 in boxes:
            xa, xb = round((x0 - left) * k), round((x1 - left) * k)
            ya, yb = round((y0 - top) * k), round((y1 - top) * k)
            if xb > xa and yb > ya:
                pen.rectangle([xa, ya, xb - 1, yb - 1], fill=255)
        if k > 1:
            mask = mask.reduce(k)
        self.canvas.paste(rgb, (left, top, right, bottom), mask)

    def rect(self, item: Rect, t: Affine) -> None:
        corners = [t.apply(x, y) for x, y in ((item.x, item.y), (item.x + item.w, item.y),
                   (item.x + item.w, item.y + item.h), (item.x, item.y + item.h))]
        if item.fill is not None:
            if abs(t.b) < _EPS and abs(t.c) < _EPS:
                xs = sorted(round(p[0]) for p in corners)
                ys = sorted(round(p[1]) for p in corners)
                if xs[-1] > xs[0] and ys[-1] > ys[0]:
                    self.pen.rectangle([xs[0], ys[0], xs[-1] - 1, ys[-1] - 1], fill=item.fill.rgb)
            else:
                self.pen.polygon(corners, fill=item.fill.rgb)
        if item.stroke is not None:
            self._stroke(corners, item.stroke, t, closed=True)

    def _stroke(self, pts: list[Point], stroke: Stroke, t: Affine, closed: bool) -> None:
        if closed:
            pts = [*pts, pts[0]]
        width = max(1, round(stroke.width * t.scale_factor))
        pieces = [pts]
        if stroke.dash:
            pieces = _dashes(pts, [max(d * t.scale_factor, 0.5) for d in stroke.dash])
        for piece in pieces:
            self.pen.line(piece, fill=stroke.color.rgb, width=width,
                           joint="curve" if len(piece) > 2 else None)

    def text(self, item: Text, t: Affine) -> None:
        """The text's glyphs, rendered by FreeType through Pillow. A text's coverage in a
        face at a size is kept (:data:`_TEXTS`, :data:`_TURNED`; upright, for each
        fraction of a pixel it starts at, and from its second drawing on): the rules,
        labels and grid that every card of a batch shares are rendered once or twice,
        not once a card."""
        m = t @ Affine.translate(item.x, item.y) @ Affine.rotate(item.rotation)
        k = m.scale_factor
        font = _font(item.font, round(item.size * MM_PER_PT * k, 2))
        anchor = _ANCHORS[item.anchor]
        upright = abs(m.b) < _EPS and abs(m.c) < _EPS and m.a > 0 and m.d > 0
        if upright:
            start = (math.modf(m.e)[0], math.modf(m.f)[0])
            # (Kept from the second drawing on, when Pillow would draw it as _inked says.)
            kept = None if m.e < 0 or m.f < 0 or "\n" in item.text else _TEXTS.get_again(
                font, (item.text, anchor, start), lambda: _inked(font, item.text, anchor,
                                                                 start))
            if kept is None:
                self.pen.text((m.e, m.f), item.text, font=font, fill=item.color.rgb,
                              anchor=anchor)
                return
            mask, (dx, dy) = kept
            self.canvas.paste(item.color.rgb, (int(m.e) - dx, int(m.f) - dy), mask)
            return
        mask, origin = _TURNED.get(font, (item.text, anchor),
                                   lambda: _turned(font, item.text, anchor))
        # mask pixels -> page pixels: unit-scale rotation about the anchor point.
        placement = Affine(m.a / k, m.b / k, m.c / k, m.d / k, m.e, m.f) @ Affine.translate(
            -origin[0], -origin[1])
        self._place(PILImage.new("RGB", mask.size, item.color.rgb), mask, placement)

    def image(self, item: Image, t: Affine) -> None:
        """The raster as it prints: its colours through its stencil mask, both brought to
        the mask's finer grid so that the hard edge is drawn at the page's resolution.
        Placed upright (or turned by quarter turns), the resampled raster is kept
        (:data:`_FITTED`): a batch resamples its shared logo once for all its cards."""
        raster = item.raster
        w, h = raster.mask.size if raster.mask is not None else raster.rgb.size
        m = t @ Affine.translate(item.x, item.y) @ Affine.scale(item.w / w, item.h / h)
        if _axis_aligned(m):
            fit = _aligned((w, h), m)
            src, mask = _FITTED.get(raster, fit.key, lambda: _fitted(*_prepared(raster), fit))
            self.canvas.paste(src, fit.origin, mask)
            return
        self._place(*_prepared(raster), m)

    def _place(self, src: PILImage.Image, mask: PILImage.Image, m: Affine) -> None:
        """Paste ``src`` through ``mask`` with source pixel coords mapped by ``m``."""
        if _axis_aligned(m):
            self._place_axis_aligned(src, mask, m)
            return
        w, h = src.size
        pts = [m.apply(x, y) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
        x0 = math.floor(min(p[0] for p in pts))
        y0 = math.floor(min(p[1] for p in pts))
        x1 = math.ceil(max(p[0] for p in pts))
        y1 = math.ceil(max(p[1] for p in pts))
        inv = m.inverse() @ Affine.translate(x0, y0)
        data = (inv.a, inv.c, inv.e, inv.b, inv.d, inv.f)
        size = (max(1, x1 - x0), max(1, y1 - y0))
        out = src.transform(size, PILImage.Transform.AFFINE, data, PILImage.Resampling.BICUBIC)
        out_mask = mask.transform(size, PILImage.Transform.AFFINE, data,
                                  PILImage.Resampling.BICUBIC)
        self.canvas.paste(out, (x0, y0), out_mask)

    def _place_axis_aligned(self, src: PILImage.Image, mask: PILImage.Image, m: Affine) -> None:
        fit = _aligned(src.size, m)
        src, mask = _fitted(src, mask, fit)
        self.canvas.paste(src, fit.origin, mask)

    def group(self, item: Group, t: Affine) -> None:
        group = item
        m = t @ group.transform
        if group.clip is None:
            self.draw_all(group.items, m)
            return
        # Draw the group on a copy of just the clip's bounding box, then paste that back
        # through the clip shape.
        c = group.clip
        corners = [m.apply(x, y) for x, y in ((c.x, c.y), (c.right, c.y), (c.right, c.bottom),
                                              (c.x, c.bottom))]
        x0 = max(0, math.floor(min(p[0] for p in corners)))
        y0 = max(0, math.floor(min(p[1] for p in corners)))
        x1 = min(self.canvas.width, math.ceil(max(p[0] for p in corners)))
        y1 = min(self.canvas.height, math.ceil(max(p[1] for p in corners)))
        if x1 <= x0 or y1 <= y0:
            return
        inner = _PngPainter(self.canvas.crop((x0, y0, x1, y1)))
        inner.draw_all(group.items, Affine.translate(-x0, -y0) @ m)
        mask = PILImage.new("L", inner.canvas.size, 0)
        ImageDraw.Draw(mask).polygon([(x - x0, y - y0) for x, y in corners], fill=255)
        self.canvas.paste(inner.canvas, (x0, y0), mask)


def _axis_aligned(m: Affine) -> bool:
    """Does ``m`` keep a raster's edges horizontal and vertical (upright, mirrored or
    turned by quarter turns, at any scale)?"""
    return (abs(m.b) < _EPS and abs(m.c) < _EPS) or (abs(m.a) < _EPS and abs(m.d) < _EPS)


@dataclass(frozen=True)
class _Fit:
    """Where an axis-aligned raster lands: transposed (a quarter turn), mirrored across
    x and y, resampled to ``size`` and pasted at ``origin``, in canvas pixels."""

    turn: bool
    flip_x: bool
    flip_y: bool
    size: tuple[int, int]
    origin: tuple[int, int]

    @property
    def key(self) -> tuple[bool, bool, bool, tuple[int, int]]:
        """What the resampled pixels depend on (not where they are pasted)."""
        return self.turn, self.flip_x, self.flip_y, self.size


def _aligned(size: tuple[int, int], m: Affine) -> _Fit:
    """How a raster of ``size`` pixels, mapped to the canvas by the axis-aligned ``m``,
    is placed: the box is rounded to whole pixels."""
    sx, sy = m.a, m.d
    w, h = size
    turn = abs(m.a) < _EPS
    if turn:  # a quarter turn: swap axes first
        sx, sy = m.c, m.b
        w, h = h, w
    xa, xb = sorted((m.e, m.e + sx * w))
    ya, yb = sorted((m.f, m.f + sy * h))
    x0, y0, x1, y1 = round(xa), round(ya), round(xb), round(yb)
    return _Fit(turn, sx < 0, sy < 0, (max(1, x1 - x0), max(1, y1 - y0)), (x0, y0))


def _fitted(src: PILImage.Image, mask: PILImage.Image,
            fit: _Fit) -> tuple[PILImage.Image, PILImage.Image]:
    """``src`` and its ``mask`` turned, mirrored and resampled as ``fit`` says."""
    steps = [(fit.turn, PILImage.Transpose.TRANSPOSE),
             (fit.flip_x, PILImage.Transpose.FLIP_LEFT_RIGHT),
             (fit.flip_y, PILImage.Transpose.FLIP_TOP_BOTTOM)]
    for wanted, step in steps:
        if wanted:
            src, mask = src.transpose(step), mask.transpose(step)
    if fit.size != src.size:
        src = src.resize(fit.size, PILImage.Resampling.LANCZOS)
        mask = mask.resize(fit.size, PILImage.Resampling.LANCZOS)
    return src, mask


def _prepared(raster: Raster) -> tuple[PILImage.Image, PILImage.Image]:
    """A raster's colours in RGB on its mask's finer grid, and its coverage there."""
    src = raster.rgb.convert("RGB")
    if raster.mask is not None and raster.mask.size != src.size:
        src = src.resize(raster.mask.size, PILImage.Resampling.BICUBIC)
    return src, mask_coverage(raster.mask, src.size)


class _Kept(Generic[K, V]):
    """What was last made from an object for a canvas (a raster resampled, a text's
    coverage in a font), by the object itself (its identity: the entry holds the object,
    so that no other can take its id while the entry lasts) and a key. A batch of cards
    shares one logo raster and most of its text, which are then made once instead of once
    per card. At most ``limit`` entries are kept, holding at most ``budget`` bytes of
    pixels (:func:`_pixel_bytes`), the least recently used dropped first; what alone
    exceeds the budget is not kept. What is kept is what ``make`` makes, whether kept or
    not."""

    def __init__(self, limit: int, budget: int = 1 << 62) -> None:
        self.limit = limit
        self.budget = budget
        self.held = 0  # bytes of pixels in the entries
        self.entries: dict[tuple[int, Hashable], tuple[object, V, int]] = {}
        self.seen: dict[tuple[int, Hashable], None] = {}  # asked for once (get_again)

    def get(self, owner: object, key: K, make: Callable[[], V]) -> V:
        full = (id(owner), key)
        entry = self.entries.pop(full, None)
        if entry is None or entry[0] is not owner:
            value = make()
            entry = (owner, value, _pixel_bytes(value))
        else:
            self.held -= entry[2]
        if entry[2] > self.budget:
            return entry[1]
        self.entries[full] = entry  # (the most recent last)
        self.held += entry[2]
        while len(self.entries) > self.limit or self.held > self.budget:
            self.held -= self.entries.pop(next(iter(self.entries)))[2]
        return entry[1]

    def get_again(self, owner: object, key: K, make: Callable[[], V]) -> V | None:
        """:meth:`get`, from the second time ``owner`` and ``key`` are asked for on:
        the first time, None (the caller draws it the plain way, which costs less when
        nothing is drawn twice, as in a rules book). The last ``4 * limit`` first times
        are remembered."""
        full = (id(owner), key)
        if full not in self.entries and full not in self.seen:
            self.seen[full] = None
            while len(self.seen) > 4 * self.limit:
                del self.seen[next(iter(self.seen))]
            return None
        self.seen.pop(full, None)
        return self.get(owner, key, make)

    def clear(self) -> None:
        self.entries.clear()
        self.seen.clear()
        self.held = 0


def _pixel_bytes(value: object) -> int:
    """The bytes of the pixels of the images in ``value`` (an image, or a tuple of
    images and other things), one a band."""
    parts = value if isinstance(value, tuple) else (value,)
    return sum(part.width * part.height * len(part.getbands()) for part in parts
               if isinstance(part, PILImage.Image))


MB = 1 << 20
FITTED_LIMIT = 4  # rasters kept resampled: the logo a batch shares, and a few more...
FITTED_BUDGET = 64 * MB  # ...in at most this (a 21 mm logo: 0.25 MB at 150 dpi, 0.9 at 300)
_FITTED: _Kept[tuple[bool, bool, bool, tuple[int, int]],
               tuple[PILImage.Image, PILImage.Image]] = _Kept(FITTED_LIMIT, FITTED_BUDGET)
TEXTS_LIMIT = 2048  # texts kept rendered: a card has about 80, most of them shared...
TEXTS_BUDGET = 32 * MB  # ...in at most this each (a card's: 0.3 MB at 150 dpi, 1.2 at 300)
_TEXTS: _Kept[tuple[str, str, tuple[float, float]],
              tuple[PILImage.Image, tuple[int, int]]] = _Kept(TEXTS_LIMIT, TEXTS_BUDGET)
_TURNED: _Kept[tuple[str, str], tuple[PILImage.Image, tuple[float, float]]] = _Kept(
    TEXTS_LIMIT, TEXTS_BUDGET)
