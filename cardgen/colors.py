"""Colours that carry both a print (CMYK) and a screen (RGB) value.

Print colours are defined in CMYK, as a print shop expects; the RGB value used for SVG,
PNG and ``--rgb`` PDFs is derived from it unless a theme gives one explicitly. A spot
colour (such as the ``CutContour`` of a dieline) keeps its name so the PDF can write a
Separation colour space.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardgen.errors import CardgenError

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


@dataclass(frozen=True, slots=True)
class Color:
    """A colour: CMYK fractions 0..1, RGB bytes 0..255, an optional spot-colour name."""

    c: float
    m: float
    y: float
    k: float
    rgb: tuple[int, int, int]
    spot: str | None = None

    @classmethod
    def cmyk(cls, c: float, m: float, y: float, k: float, spot: str | None = None) -> Color:
        """A colour from CMYK percentages (0..100); RGB is derived."""
        fractions = tuple(_clamp(v / 100.0) for v in (c, m, y, k))
        return cls(*fractions, rgb=cmyk_to_rgb(*fractions), spot=spot)

    @classmethod
    def hex(cls, value: str) -> Color:
        """A colour from ``#rrggbb``; CMYK is derived with full black generation."""
        match = _HEX.match(value.strip())
        if not match:
            raise ValueError(f"{value!r} is not a #rrggbb colour")
        digits = match.group(1)
        rgb = (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
        return cls(*rgb_to_cmyk(*rgb), rgb=rgb)

    @property
    def cmyk_fractions(self) -> tuple[float, float, float, float]:
        return (self.c, self.m, self.y, self.k)

    @property
    def hex_rgb(self) -> str:
        return "#{:02x}{:02x}{:02x}".format(*self.rgb)

    def tint(self, fraction: float) -> Color:
        """The same ink at ``fraction`` strength (1 = full, 0 = paper white)."""
        f = _clamp(fraction)
        rgb = tuple(round(255 - f * (255 - v)) for v in self.rgb)
        return Color(self.c * f, self.m * f, self.y * f, self.k * f, rgb=rgb, spot=self.spot)  # type: ignore[arg-type]


def _clamp(v: float) -> float:
    return 0.0 if v < 0 else 1.0 if v > 1 else float(v)


def cmyk_to_rgb(c: float, m: float, y: float, k: float) -> tuple[int, int, int]:
    """Naive device conversion, good enough for previews."""
    return (
        round(255 * (1 - c) * (1 - k)),
        round(255 * (1 - m) * (1 - k)),
        round(255 * (1 - y) * (1 - k)),
    )


def rgb_to_cmyk(r: int, g: float, b: float) -> tuple[float, float, float, float]:
    """Naive conversion with full grey-component replacement."""
    rf, gf, bf = r / 255, g / 255, b / 255
    k = 1 - max(rf, gf, bf)
    if k >= 1:
        return (0.0, 0.0, 0.0, 1.0)
    return ((1 - rf - k) / (1 - k), (1 - gf - k) / (1 - k), (1 - bf - k) / (1 - k), k)


def parse_color(value: object, where: str) -> Color:
    """Read a colour from data: ``"#rrggbb"``, ``[c, m, y, k]`` percentages, or a table
    ``{cmyk = [...], rgb = "#rrggbb"}`` giving both (the RGB then overrides the derived one).
    """
    try:
        if isinstance(value, str):
            return Color.hex(value)
        if isinstance(value, list) and len(value) == 4 and all(
            isinstance(v, int | float) for v in value
        ):
            return Color.cmyk(*value)
        if isinstance(value, dict) and "cmyk" in value:
            base = parse_color(value["cmyk"], where)
            if "rgb" in value:
                screen = parse_color(value["rgb"], where)
                return Color(base.c, base.m, base.y, base.k, rgb=screen.rgb)
            return base
    except ValueError as exc:
        raise CardgenError(f"{where}: {exc}.") from None
    raise CardgenError(
        f"{where}: expected a colour as \"#rrggbb\", [c, m, y, k] percentages "
        f"or {{cmyk = [...], rgb = \"#rrggbb\"}}, got {value!r}."
    )


CUT_CONTOUR = Color.cmyk(0, 100, 0, 0, spot="CutContour")
SCORE_LINE = Color.cmyk(100, 0, 0, 0, spot="Score")
