"""Colours that carry both a print (CMYK) and a screen (RGB) value.

Print colours are defined in CMYK, as a print shop expects; the RGB value used for SVG,
PNG and RGB PDFs is derived from it unless a theme gives one explicitly. A spot
colour (such as the ``CutContour`` of a dieline) keeps its name so the PDF can write a
Separation colour space. A colour may be set to *overprint*: where it is printed, the
plates it has no ink on keep what lies beneath instead of being knocked out (print
files only; screen previews ignore it).

Imports nothing from cardgen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


@dataclass(frozen=True, slots=True)
class Color:
    """A colour: CMYK fractions 0..1, RGB bytes 0..255, an optional spot-colour name,
    and whether it overprints."""

    c: float
    m: float
    y: float
    k: float
    rgb: tuple[int, int, int]
    spot: str | None = None
    overprint: bool = False

    @classmethod
    def cmyk(cls, c: float, m: float, y: float, k: float, spot: str | None = None,
             overprint: bool = False) -> Color:
        """A colour from CMYK percentages (0..100); RGB is derived."""
        cf, mf, yf, kf = (_clamp(v / 100.0) for v in (c, m, y, k))
        return cls(cf, mf, yf, kf, rgb=cmyk_to_rgb(cf, mf, yf, kf), spot=spot,
                   overprint=overprint)

    @classmethod
    def hex(cls, value: str) -> Color:
        """A colour from ``#rrggbb``; CMYK is derived with full black generation."""
        match = _HEX.match(value.strip())
        if not match:
            raise ValueError(f"{_quoted(value)} is not a #rrggbb colour")
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
        r, g, b = (round(255 - f * (255 - v)) for v in self.rgb)
        return Color(self.c * f, self.m * f, self.y * f, self.k * f, rgb=(r, g, b),
                     spot=self.spot, overprint=self.overprint)

    def overprinting(self) -> Color:
        """The same colour, set to overprint."""
        return Color(self.c, self.m, self.y, self.k, self.rgb, self.spot, overprint=True)


def _clamp(v: float) -> float:
    return 0.0 if v < 0 else 1.0 if v > 1 else float(v)


def cmyk_to_rgb(c: float, m: float, y: float, k: float) -> tuple[int, int, int]:
    """Naive device conversion, good enough for previews."""
    return (
        round(255 * (1 - c) * (1 - k)),
        round(255 * (1 - m) * (1 - k)),
        round(255 * (1 - y) * (1 - k)),
    )


def rgb_to_cmyk(r: int, g: int, b: int) -> tuple[float, float, float, float]:
    """Naive conversion with full grey-component replacement."""
    rf, gf, bf = r / 255, g / 255, b / 255
    k = 1 - max(rf, gf, bf)
    if k >= 1:
        return (0.0, 0.0, 0.0, 1.0)
    return ((1 - rf - k) / (1 - k), (1 - gf - k) / (1 - k), (1 - bf - k) / (1 - k), k)


LUMINANCE_WEIGHTS = (0.2126, 0.7152, 0.0722)  # of linear R, G and B (WCAG 2, sRGB)


def linear_channel(v: int) -> float:
    """An sRGB channel value (0–255) as linear light (0–1)."""
    f = v / 255
    return f / 12.92 if f <= 0.04045 else ((f + 0.055) / 1.055) ** 2.4


def relative_luminance(rgb: tuple[int, int, int]) -> float:
    """The relative luminance (0 = black, 1 = white) of an sRGB colour, as WCAG 2 defines
    it: the channels linearised, then weighted by :data:`LUMINANCE_WEIGHTS`."""
    return sum(w * linear_channel(v) for w, v in zip(LUMINANCE_WEIGHTS, rgb, strict=True))


COLOR_FORMS = '"#rrggbb", [c, m, y, k] percentages or {cmyk = [...], rgb = "#rrggbb"}'


def color_from_data(value: object) -> Color:
    """A colour as data files write it: ``"#rrggbb"``, ``[c, m, y, k]`` percentages, or a
    table ``{cmyk = [...], rgb = "#rrggbb"}`` giving both (the RGB then replaces the
    derived screen colour). Raises ValueError saying what is wrong."""
    if isinstance(value, str):
        return Color.hex(value)
    if isinstance(value, list) and len(value) == 4 and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return Color.cmyk(*value)
    if isinstance(value, dict) and "cmyk" in value and set(value) <= {"cmyk", "rgb"}:
        base = color_from_data(value["cmyk"])
        if "rgb" in value:
            screen = color_from_data(value["rgb"])
            return Color(base.c, base.m, base.y, base.k, rgb=screen.rgb)
        return base
    raise ValueError(f"expected a colour as {COLOR_FORMS}, got {_quoted(value)}")


def color_json_schema() -> dict[str, object]:
    """The colours :func:`color_from_data` reads, as JSON Schema (draft 2020-12): the
    definition ``colour`` of a document's ``$defs`` (a table's ``cmyk`` and ``rgb`` are
    colours themselves). The CMYK percentages are not bounded: a value beyond 0–100 is
    clamped, and the ink rule of a theme judges the colour."""
    colour = {"$ref": "#/$defs/colour"}
    return {"anyOf": [
        {"type": "string", "pattern": "^\\s*#?[0-9a-fA-F]{6}\\s*$",
         "description": "An RGB colour, \"#rrggbb\" (CMYK derived with full black)."},
        {"type": "array", "items": {"type": "number"}, "minItems": 4, "maxItems": 4,
         "description": "CMYK percentages, [c, m, y, k]."},
        {"type": "object", "properties": {"cmyk": colour, "rgb": colour},
         "required": ["cmyk"], "additionalProperties": False,
         "description": "A print colour and its screen colour: {cmyk = [c, m, y, k], "
                        "rgb = \"#rrggbb\"}."},
    ]}


def _quoted(value: object) -> str:
    """A value as a message quotes it: its ``repr``, cut down if long."""
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:39] + "…")
    text = repr(value)
    return text if len(text) <= 42 else text[:41] + "…"


# The ink of text and line art on white paper: solid black, overprinting so that no
# white gap shows around it if the plates are out of register.
INK = Color.cmyk(0, 0, 0, 100, overprint=True)
# Solid black that knocks out what lies under it instead (it does not overprint): a
# puzzle board's Node dots, a puzzle book's captions set at 8 pt and over.
KNOCKOUT_INK = Color.cmyk(0, 0, 0, 100)
# No ink at all: the paper shows, knocking out what lies below.
PAPER_WHITE = Color.cmyk(0, 0, 0, 0)
