"""Decorative vector art of the business side: the soft flowing curves.

Curves are smooth waves through sampled points, turned into cubic Béziers (Catmull-Rom),
so every output draws the same true curves. Deterministic: no randomness, only phases.
"""

from __future__ import annotations

import math

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box, Point
from cardgen.draw.page import (
    CLOSE,
    CurveTo,
    Item,
    LineCap,
    LineTo,
    MoveTo,
    Path,
    PathOp,
    Stroke,
)
from cardgen.draw.shapes import smooth_path

WAVE_SAMPLES = 16  # points per wave, joined by Catmull-Rom curves
# The thin curves' widths (mm): at least 0.5 pt, so that lines of several inks are not
# fine lines under the ink rule (cardgen.prepress.ink).
LINE_MIN = 0.18
LINE_MAX = 0.40


def _wave(box: Box, base: float, amplitude: float, phase: float, freq: float) -> list[Point]:
    pts = []
    for i in range(WAVE_SAMPLES + 1):
        t = i / WAVE_SAMPLES
        x = box.x + t * box.w
        y = base + amplitude * (math.sin(2 * math.pi * freq * t + phase)
                                + 0.35 * math.sin(2 * math.pi * 2.3 * freq * t + 1.7 * phase))
        pts.append((x, y))
    return pts


def flowing_curves(box: Box, fills: tuple[Color, ...], strokes: tuple[Color, ...], lines: int,
                   amplitude: float, variant: int = 0, band: tuple[float, float] = (0.5, 1.0),
                   ) -> list[Item]:
    """Ribbons and thin lines that wave across ``box`` inside a vertical ``band``
    (fractions of the box height). ``variant`` gives a different but stable pattern."""
    top = box.y + band[0] * box.h
    height = (band[1] - band[0]) * box.h
    amp = amplitude * height
    shift = 0.9 * variant
    items: list[Item] = []
    for i, color in enumerate(fills):
        upper = _wave(box, top + height * (0.25 + 0.18 * i), amp, shift + 0.8 * i, 0.75)
        lower = _wave(box, top + height * (0.55 + 0.2 * i), amp * 0.8, shift + 0.8 * i + 0.9, 0.6)
        lower.reverse()
        ops: list[PathOp] = [MoveTo(*upper[0]), *smooth_path(upper), LineTo(*lower[0]),
                             *smooth_path(lower), CLOSE]
        items.append(Path(tuple(ops), fill=color))
    for i in range(lines):
        t = i / max(lines - 1, 1)
        color = strokes[i % len(strokes)]
        pts = _wave(box, top + height * (0.15 + 0.75 * t), amp * (0.7 + 0.3 * t),
                    shift + 0.35 * i, 0.7 + 0.05 * i)
        width = LINE_MIN + (LINE_MAX - LINE_MIN) * (1 - abs(2 * t - 1))
        items.append(Path((MoveTo(*pts[0]), *smooth_path(pts)),
                          stroke=Stroke(color, width, cap=LineCap.ROUND)))
    return items


def _y_extent(items: list[Item]) -> tuple[float, float]:
    """The lowest and highest y of every point and control point of the paths: a bound
    on where the curves go (a Bézier curve stays inside its control points' hull)."""
    ys = [y for item in items if isinstance(item, Path) for op in item.ops
          for y in _op_ys(op)]
    return min(ys), max(ys)


def _op_ys(op: PathOp) -> tuple[float, ...]:
    if isinstance(op, MoveTo | LineTo):
        return (op.y,)
    if isinstance(op, CurveTo):
        return (op.y1, op.y2, op.y)
    return ()


def curves_between(box: Box, top: float, bottom: float, fills: tuple[Color, ...],
                   strokes: tuple[Color, ...], lines: int, amplitude: float,
                   variant: int = 0, min_height: float = 0.0) -> list[Item]:
    """:func:`flowing_curves` across ``box``'s width, placed and sized so that every
    curve, with its line width, lies between ``top`` and ``bottom``; none at all when
    that band is lower than ``min_height``.

    Every y of the curves is ``top + height × f`` for fixed fractions f of the pattern,
    so the curves drawn over a band of height 1 give the fractions' range, and from it
    the band that makes the curves fill ``top``..``bottom`` exactly."""
    room = bottom - top - LINE_MAX
    if room <= 0 or bottom - top < min_height:
        return []
    probe = flowing_curves(Box(box.x, 0.0, box.w, 1.0), fills, strokes, lines, amplitude,
                           variant=variant, band=(0.0, 1.0))
    low, high = _y_extent(probe)
    height = room / (high - low)
    start = top + LINE_MAX / 2 - height * low
    band = ((start - box.y) / box.h, (start + height - box.y) / box.h)
    return flowing_curves(box, fills, strokes, lines, amplitude, variant=variant, band=band)
