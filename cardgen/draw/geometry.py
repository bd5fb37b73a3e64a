"""Plane geometry in millimetres, y pointing down (as on a page and in SVG).

Conventions: a point is (x, y) with x to the right and y down; a positive rotation turns
clockwise on the page; quarter turns and mirrors are exact (no trigonometry rounding), so
composed fold and flip transforms map grid points onto grid points exactly.

Imports nothing from cardgen.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

Point = tuple[float, float]
Segment = tuple[Point, Point]


@dataclass(frozen=True, slots=True)
class Affine:
    """The affine map (x, y) -> (a*x + c*y + e, b*x + d*y + f), SVG's matrix(a b c d e f).

    With y pointing down, a positive rotation turns clockwise on the page.
    """

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    @staticmethod
    def translate(dx: float, dy: float) -> Affine:
        return Affine(1, 0, 0, 1, dx, dy)

    @staticmethod
    def scale(sx: float, sy: float | None = None) -> Affine:
        return Affine(sx, 0, 0, sx if sy is None else sy, 0, 0)

    @staticmethod
    def rotate(degrees: float, cx: float = 0.0, cy: float = 0.0) -> Affine:
        """Rotation by ``degrees`` (clockwise on the page) about (cx, cy)."""
        cos, sin = _cos_sin(degrees)
        rot = Affine(cos, sin, -sin, cos, 0, 0)
        if cx == 0 and cy == 0:
            return rot
        return Affine.translate(cx, cy) @ rot @ Affine.translate(-cx, -cy)

    @staticmethod
    def mirror_x(axis: float) -> Affine:
        """Reflection about the vertical line x = ``axis`` (exact)."""
        return Affine(-1, 0, 0, 1, 2 * axis, 0)

    @staticmethod
    def mirror_y(axis: float) -> Affine:
        """Reflection about the horizontal line y = ``axis`` (exact)."""
        return Affine(1, 0, 0, -1, 0, 2 * axis)

    def __matmul__(self, other: Affine) -> Affine:
        """Composition: ``(self @ other)(p) == self(other(p))``."""
        return Affine(
            self.a * other.a + self.c * other.b,
            self.b * other.a + self.d * other.b,
            self.a * other.c + self.c * other.d,
            self.b * other.c + self.d * other.d,
            self.a * other.e + self.c * other.f + self.e,
            self.b * other.e + self.d * other.f + self.f,
        )

    def apply(self, x: float, y: float) -> Point:
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    def inverse(self) -> Affine:
        det = self.a * self.d - self.b * self.c
        if det == 0:
            raise ValueError("singular transform")
        a, b, c, d = self.d / det, -self.b / det, -self.c / det, self.a / det
        return Affine(a, b, c, d, -(a * self.e + c * self.f), -(b * self.e + d * self.f))

    @property
    def is_identity(self) -> bool:
        return self == IDENTITY

    @property
    def scale_factor(self) -> float:
        """The mean linear scale (for line widths and type sizes)."""
        return math.sqrt(abs(self.a * self.d - self.b * self.c))

    @property
    def as_tuple(self) -> tuple[float, float, float, float, float, float]:
        return (self.a, self.b, self.c, self.d, self.e, self.f)


IDENTITY = Affine()


def _cos_sin(degrees: float) -> tuple[float, float]:
    """cos and sin that are exact for multiples of 90 degrees."""
    quarter, rest = divmod(degrees, 90.0)
    if rest == 0:
        return [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)][int(quarter) % 4]
    rad = math.radians(degrees)
    return math.cos(rad), math.sin(rad)


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle: left, top, width, height (mm)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    @property
    def center(self) -> Point:
        return (self.x + self.w / 2, self.y + self.h / 2)

    def inset(self, dx: float, dy: float | None = None) -> Box:
        """Shrink by ``dx`` left and right and ``dy`` top and bottom (negative grows)."""
        dy = dx if dy is None else dy
        return Box(self.x + dx, self.y + dy, self.w - 2 * dx, self.h - 2 * dy)

    def contains(self, x: float, y: float, tol: float = 1e-9) -> bool:
        return self.x - tol <= x <= self.right + tol and self.y - tol <= y <= self.bottom + tol

    def contains_box(self, other: Box, tol: float = 1e-9) -> bool:
        return self.contains(other.x, other.y, tol) and self.contains(
            other.right, other.bottom, tol
        )

    def intersects(self, other: Box) -> bool:
        return (
            self.x < other.right
            and other.x < self.right
            and self.y < other.bottom
            and other.y < self.bottom
        )

    def transformed(self, t: Affine) -> Box:
        """The bounding box of this box mapped through ``t``."""
        a, b, c, d, e, f = t.a, t.b, t.c, t.d, t.e, t.f
        left, top, right, bottom = self.x, self.y, self.right, self.bottom
        # The corners of corners(), each as Affine.apply maps it.
        xs = (a * left + c * top + e, a * right + c * top + e, a * right + c * bottom + e,
              a * left + c * bottom + e)
        ys = (b * left + d * top + f, b * right + d * top + f, b * right + d * bottom + f,
              b * left + d * bottom + f)
        x0, y0 = min(xs), min(ys)
        return Box(x0, y0, max(xs) - x0, max(ys) - y0)

    @staticmethod
    def around(points: Iterable[Point]) -> Box:
        """The smallest box holding every point (at least one)."""
        xs, ys = zip(*points, strict=True)
        x0, y0 = min(xs), min(ys)
        return Box(x0, y0, max(xs) - x0, max(ys) - y0)

    @staticmethod
    def union(boxes: Iterable[Box]) -> Box:
        """The smallest box holding every box (at least one)."""
        return Box.around(p for b in boxes for p in ((b.x, b.y), (b.right, b.bottom)))

    def corners(self) -> list[Point]:
        """Top-left, top-right, bottom-right, bottom-left."""
        return [(self.x, self.y), (self.right, self.y), (self.right, self.bottom),
                (self.x, self.bottom)]

    def outline(self) -> list[Segment]:
        """The four edges, clockwise from the top edge."""
        c = self.corners()
        return list(zip(c, [*c[1:], c[0]], strict=True))

    def on_outline(self, x: float, y: float, tol: float = 1e-9) -> bool:
        """True if (x, y) lies on an edge of the box."""
        if not self.contains(x, y, tol):
            return False
        return (abs(x - self.x) <= tol or abs(x - self.right) <= tol
                or abs(y - self.y) <= tol or abs(y - self.bottom) <= tol)


T = TypeVar("T")


def in_lines(items: Sequence[T], box: Callable[[T], Box]) -> list[T]:
    """``items`` in the order a person reads them: in lines from the top, each line left
    to right. An item joins the current line when its box's top lies within half a line
    (half the height of the line's first box) of that first box's top."""
    by_top = sorted(items, key=lambda p: (box(p).y, box(p).x))
    lines: list[list[T]] = []
    for p in by_top:
        if lines and box(p).y - box(lines[-1][0]).y < box(lines[-1][0]).h / 2:
            lines[-1].append(p)
        else:
            lines.append([p])
    return [p for line in lines for p in sorted(line, key=lambda q: box(q).x)]
