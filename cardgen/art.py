"""Decorative vector art: the soft flowing curves of the business side.

Curves are smooth waves through sampled points, turned into cubic Béziers (Catmull-Rom),
so every output draws the same true curves. Deterministic: no randomness, only phases.
"""

from __future__ import annotations

import math

from cardgen.colors import Color
from cardgen.geometry import Box, Point
from cardgen.page import Path, PathOp, Stroke


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
        ops.append(("C", *c1, *c2, *p2))
    return ops


def _wave(box: Box, base: float, amplitude: float, phase: float, freq: float) -> list[Point]:
    steps = 16
    pts = []
    for i in range(steps + 1):
        t = i / steps
        x = box.x + t * box.w
        y = base + amplitude * (math.sin(2 * math.pi * freq * t + phase)
                                + 0.35 * math.sin(2 * math.pi * 2.3 * freq * t + 1.7 * phase))
        pts.append((x, y))
    return pts


def flowing_curves(box: Box, fills: tuple[Color, ...], strokes: tuple[Color, ...], lines: int,
                   amplitude: float, variant: int = 0, band: tuple[float, float] = (0.5, 1.0),
                   ) -> list[Path]:
    """Ribbons and thin lines that wave across ``box`` inside a vertical ``band``
    (fractions of the box height). ``variant`` gives a different but stable pattern."""
    top = box.y + band[0] * box.h
    height = (band[1] - band[0]) * box.h
    amp = amplitude * height
    shift = 0.9 * variant
    items: list[Path] = []
    for i, color in enumerate(fills):
        upper = _wave(box, top + height * (0.25 + 0.18 * i), amp, shift + 0.8 * i, 0.75)
        lower = _wave(box, top + height * (0.55 + 0.2 * i), amp * 0.8, shift + 0.8 * i + 0.9, 0.6)
        lower.reverse()
        ops: list[PathOp] = [("M", *upper[0]), *smooth_path(upper), ("L", *lower[0]),
                             *smooth_path(lower), ("Z",)]
        items.append(Path(tuple(ops), fill=color))
    for i in range(lines):
        t = i / max(lines - 1, 1)
        color = strokes[i % len(strokes)]
        pts = _wave(box, top + height * (0.15 + 0.75 * t), amp * (0.7 + 0.3 * t),
                    shift + 0.35 * i, 0.7 + 0.05 * i)
        width = 0.12 + 0.28 * (1 - abs(2 * t - 1))
        items.append(Path((("M", *pts[0]), *smooth_path(pts)),
                          stroke=Stroke(color, width, cap="round")))
    return items


def hatch(box: Box, color: Color, spacing: float = 1.6, width: float = 0.18) -> list[Path]:
    """Diagonal hatching covering ``box`` (clip it to the box when drawing)."""
    paths = []
    x = box.x - box.h
    while x < box.right:
        paths.append(Path((("M", x, box.bottom), ("L", x + box.h, box.y)),
                          stroke=Stroke(color, width)))
        x += spacing
    return paths
