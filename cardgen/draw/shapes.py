"""Shapes built from path operations: smooth curves through points, circles, polygons,
pointer triangles. Pure functions of numbers; renderers draw the results.

Imports ``cardgen.draw.geometry``, ``cardgen.draw.colors`` and ``cardgen.draw.page``.
"""

from __future__ import annotations

import math

from cardgen.draw.geometry import Affine, Box, Point
from cardgen.draw.page import CLOSE, CurveTo, LineTo, MoveTo, PathOp

KAPPA = 0.5523  # control-point distance of a quarter circle drawn as a cubic, per radius


def smooth_path(points: list[Point]) -> list[PathOp]:
    """Cubic Bézier segments through ``points`` (Catmull-Rom, no initial move)."""
    ops: list[PathOp] = []
    n = len(points)
    for i in range(n - 1):
        p0 = points[max(i - 1, 0)]
        p1, p2 = points[i], points[i + 1]
        p3 = points[min(i + 2, n - 1)]
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        ops.append(CurveTo(*c1, *c2, *p2))
    return ops


def circle(cx: float, cy: float, r: float) -> tuple[PathOp, ...]:
    """A circle as four cubic Béziers, starting at its rightmost point."""
    k = KAPPA * r
    return (MoveTo(cx + r, cy), CurveTo(cx + r, cy + k, cx + k, cy + r, cx, cy + r),
            CurveTo(cx - k, cy + r, cx - r, cy + k, cx - r, cy),
            CurveTo(cx - r, cy - k, cx - k, cy - r, cx, cy - r),
            CurveTo(cx + k, cy - r, cx + r, cy - k, cx + r, cy), CLOSE)


def polygon(points: list[Point]) -> tuple[PathOp, ...]:
    """A closed polygon through ``points``."""
    first, *rest = points
    return (MoveTo(*first), *(LineTo(*p) for p in rest), CLOSE)


def pointer(box: Box, direction: tuple[int, int], size: float = 0.27) -> tuple[PathOp, ...]:
    """A triangle centred in ``box`` pointing along ``direction`` (page axes); ``size``
    is its half-width as a fraction of the box width."""
    cx, cy = box.center
    h = box.w * size
    turn = Affine.rotate(math.degrees(math.atan2(direction[1], direction[0])) - 90, cx, cy)
    return polygon([turn.apply(cx - h, cy - h * 0.7), turn.apply(cx + h, cy - h * 0.7),
                    turn.apply(cx, cy + h)])


def rounded_rect(x: float, y: float, w: float, h: float, r: float) -> tuple[PathOp, ...]:
    """A rectangle with its corners rounded by ``r`` (at most half its height and
    width)."""
    r = min(r, h / 2, w / 2)
    k = KAPPA * r
    right, bottom = x + w, y + h
    return (MoveTo(x + r, y), LineTo(right - r, y),
            CurveTo(right - r + k, y, right, y + r - k, right, y + r),
            LineTo(right, bottom - r),
            CurveTo(right, bottom - r + k, right - r + k, bottom, right - r, bottom),
            LineTo(x + r, bottom),
            CurveTo(x + r - k, bottom, x, bottom - r + k, x, bottom - r),
            LineTo(x, y + r),
            CurveTo(x, y + r - k, x + r - k, y, x + r, y), CLOSE)
