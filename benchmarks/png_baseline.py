"""Frozen copy of cardgen/render/png.py before issue 26 (batch PNGs as previews): the
baseline of benchmarks/bench_previews.py, which draws a batch's PNGs with it as every
batch drew them before (each card's logo resampled and each text rendered for it). Not
used to draw anything for users; do not change it.

PNG output drawn directly with Pillow.

The page is drawn at ``supersample`` times the target resolution and reduced with a box
filter, which anti-aliases edges. Text uses the same font files through FreeType.
"""

from __future__ import annotations

import io
import itertools
import math
from functools import cache

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
_ANCHORS = {Anchor.START: "ls", Anchor.MIDDLE: "ms", Anchor.END: "rs"}
SUPERSAMPLE = 2  # drawn at twice the resolution, then reduced: anti-aliased edges
BOX_MASK_LIMIT = 2048  # the largest side, in pixels, of the finer mask for rectangle paths
BOX_MASK_DETAIL = 8  # ...which is at most this many times finer than the canvas


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


def render_png(view: View, dpi: float = 300) -> bytes:
    """A view as PNG bytes at ``dpi``, the resolution recorded in the file
    (deterministic)."""
    return png_bytes(rasterize(view, dpi), dpi)


def png_bytes(image: PILImage.Image, dpi: float) -> bytes:
    """Encode as PNG with the resolution recorded (deterministic)."""
    buf = io.BytesIO()
    image.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=6)
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
        m = t @ Affine.translate(item.x, item.y) @ Affine.rotate(item.rotation)
        k = m.scale_factor
        font = _font(item.font, round(item.size * MM_PER_PT * k, 2))
        anchor = _ANCHORS[item.anchor]
        upright = abs(m.b) < _EPS and abs(m.c) < _EPS and m.a > 0 and m.d > 0
        if upright:
            self.pen.text((m.e, m.f), item.text, font=font, fill=item.color.rgb, anchor=anchor)
            return
        left, top, right, bottom = font.getbbox(item.text, anchor=anchor)
        pad = 2
        mask = PILImage.new("L", (int(right - left) + 2 * pad, int(bottom - top) + 2 * pad), 0)
        origin = (pad - left, pad - top)
        ImageDraw.Draw(mask).text(origin, item.text, font=font, fill=255, anchor=anchor)
        # mask pixels -> page pixels: unit-scale rotation about the anchor point.
        placement = Affine(m.a / k, m.b / k, m.c / k, m.d / k, m.e, m.f) @ Affine.translate(
            -origin[0], -origin[1])
        self._place(PILImage.new("RGB", mask.size, item.color.rgb), mask, placement)

    def image(self, item: Image, t: Affine) -> None:
        """The raster as it prints: its colours through its stencil mask, both brought to
        the mask's finer grid so that the hard edge is drawn at the page's resolution."""
        raster = item.raster
        src = raster.rgb.convert("RGB")
        if raster.mask is not None and raster.mask.size != src.size:
            src = src.resize(raster.mask.size, PILImage.Resampling.BICUBIC)
        w, h = src.size
        m = t @ Affine.translate(item.x, item.y) @ Affine.scale(item.w / w, item.h / h)
        self._place(src, mask_coverage(raster.mask, src.size), m)

    def _place(self, src: PILImage.Image, mask: PILImage.Image, m: Affine) -> None:
        """Paste ``src`` through ``mask`` with source pixel coords mapped by ``m``."""
        if (abs(m.b) < _EPS and abs(m.c) < _EPS) or (abs(m.a) < _EPS and abs(m.d) < _EPS):
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
        sx, sy = m.a, m.d
        if abs(m.a) < _EPS:  # a quarter turn: swap axes first
            src = src.transpose(PILImage.Transpose.TRANSPOSE)
            mask = mask.transpose(PILImage.Transpose.TRANSPOSE)
            sx, sy = m.c, m.b
        if sx < 0:
            src = src.transpose(PILImage.Transpose.FLIP_LEFT_RIGHT)
            mask = mask.transpose(PILImage.Transpose.FLIP_LEFT_RIGHT)
        if sy < 0:
            src = src.transpose(PILImage.Transpose.FLIP_TOP_BOTTOM)
            mask = mask.transpose(PILImage.Transpose.FLIP_TOP_BOTTOM)
        w, h = src.size
        xa, xb = sorted((m.e, m.e + sx * w))
        ya, yb = sorted((m.f, m.f + sy * h))
        x0, y0, x1, y1 = round(xa), round(ya), round(xb), round(yb)
        size = (max(1, x1 - x0), max(1, y1 - y0))
        if size != src.size:
            src = src.resize(size, PILImage.Resampling.LANCZOS)
            mask = mask.resize(size, PILImage.Resampling.LANCZOS)
        self.canvas.paste(src, (x0, y0), mask)

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
