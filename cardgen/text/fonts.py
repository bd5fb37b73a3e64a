"""Font faces, their metrics and glyph coverage.

Layout measures text with the advance widths of the font file itself (no kerning), which
is also what the PDF renderer uses, so fitted text fits in every output. Characters the
font lacks are refused with a clear error instead of printing an empty box.

Imports ``cardgen.errors``, ``cardgen.resources`` and ``cardgen.units``; fontTools inside
the functions.
"""

from __future__ import annotations

import enum
import io
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.errors import FontError
from cardgen.resources import fonts_dir
from cardgen.units import MM_PER_PT


class FontStyle(enum.StrEnum):
    REGULAR = "regular"
    BOLD = "bold"
    ITALIC = "italic"

# Characters that are layout, not ink: never looked up in the font.
_IGNORED = {"\n", "\r", "\t"}


@dataclass(frozen=True)
class FontFace:
    """A font file used for one style (regular, bold, italic)."""

    path: Path
    style: FontStyle = FontStyle.REGULAR

    @property
    def metrics(self) -> FontMetrics:
        return load_metrics(self.path)

    @property
    def name(self) -> str:
        """A PostScript-style name, unique per file, used to register the face."""
        return self.metrics.postscript_name

    @property
    def label(self) -> str:
        return self.metrics.full_name

    def width(self, text: str, size_pt: float) -> float:
        """Advance width of ``text`` in mm at ``size_pt``."""
        return self.metrics.width(text, size_pt)

    def truetype_bytes(self) -> bytes:
        """The font file with TrueType outlines, for embedding."""
        return self.metrics.truetype_bytes()

    def check(self, text: str, where: str) -> None:
        """Raise a clear error if the font cannot draw some character of ``text``."""
        missing = self.metrics.missing(text)
        if missing:
            ch = missing[0]
            name = unicodedata.name(ch, "unnamed character").title()
            raise FontError(
                f"{where}: the font {self.label} has no glyph for {ch!r} "
                f"(U+{ord(ch):04X} {name}); choose a font that has it in [fonts] "
                "or remove the character.", value=text)


@dataclass
class FontMetrics:
    postscript_name: str
    full_name: str
    units_per_em: int
    ascender: int
    descender: int
    cap_height: int
    advances: dict[int, int]
    is_cff: bool
    path: Path
    _ttf_bytes: bytes | None = field(default=None, repr=False)
    _extents: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _glyphs: tuple[Any, Any] | None = field(default=None, repr=False)

    def width(self, text: str, size_pt: float) -> float:
        default = self.advances.get(0xFFFD, self.units_per_em // 2)
        units = sum(self.advances.get(ord(ch), default) for ch in text)
        return units * size_pt / self.units_per_em * MM_PER_PT

    def missing(self, text: str) -> list[str]:
        return [ch for ch in dict.fromkeys(text)
                if ch not in _IGNORED and ord(ch) not in self.advances]

    def cap_height_mm(self, size_pt: float) -> float:
        return self.cap_height * size_pt / self.units_per_em * MM_PER_PT

    def descent_mm(self, size_pt: float) -> float:
        """Depth below the baseline, as a positive number."""
        return -self.descender * size_pt / self.units_per_em * MM_PER_PT

    def ink_top_mm(self, text: str, size_pt: float) -> float:
        """How far the tallest glyph of ``text`` reaches above the baseline."""
        tops = [self._glyph_extent(ch)[1] for ch in text if not ch.isspace()]
        return max(tops, default=0) * size_pt / self.units_per_em * MM_PER_PT

    def _glyph_extent(self, ch: str) -> tuple[int, int]:
        """(yMin, yMax) of a character's glyph in font units, cached."""
        if ch not in self._extents:
            from fontTools.pens.boundsPen import BoundsPen

            if self._glyphs is None:
                from fontTools.ttLib import TTFont

                font = TTFont(str(self.path), lazy=True, recalcTimestamp=False)
                self._glyphs = (font.getBestCmap(), font.getGlyphSet())
            cmap, glyph_set = self._glyphs
            pen = BoundsPen(glyph_set)
            if ord(ch) in cmap:
                glyph_set[cmap[ord(ch)]].draw(pen)
            bounds = pen.bounds or (0, 0, 0, 0)
            self._extents[ch] = (bounds[1], bounds[3])
        return self._extents[ch]

    def truetype_bytes(self) -> bytes:
        """The font with TrueType outlines (CFF-based OpenType is converted once)."""
        if self._ttf_bytes is None:
            if self.is_cff:
                self._ttf_bytes = _cff_to_truetype(self.path)
            else:
                self._ttf_bytes = self.path.read_bytes()
        return self._ttf_bytes


@cache
def load_metrics(path: Path) -> FontMetrics:
    """Parse a TTF/OTF file once per process."""
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(str(path), lazy=True, recalcTimestamp=False)
        cmap = font.getBestCmap()
        if not cmap:
            raise FontError(f"font {path}: it has no Unicode character map.", value=path)
        hmtx = font["hmtx"].metrics
        advances = {cp: hmtx[glyph][0] for cp, glyph in cmap.items() if glyph in hmtx}
        names = font["name"]
        ps_name = names.getDebugName(6) or path.stem
        full_name = names.getDebugName(4) or ps_name
        os2 = font.get("OS/2", None)
        hhea = font["hhea"]
        upm = font["head"].unitsPerEm
        ascender = os2.sTypoAscender if os2 else hhea.ascent
        descender = os2.sTypoDescender if os2 else hhea.descent
        cap = getattr(os2, "sCapHeight", 0) if os2 else 0
        is_cff = "CFF " in font
        if "CFF2" in font:
            raise FontError(f"font {path}: variable CFF2 fonts are not supported; "
                            "use a static TTF or OTF.", value=path)
    except FontError:
        raise
    except Exception as exc:  # fontTools raises many exception types on bad files
        raise FontError(f"font {path} cannot be read as a TrueType/OpenType font "
                        f"({exc}).", value=path) from None
    return FontMetrics(
        postscript_name=ps_name.replace(" ", "-"),
        full_name=full_name,
        units_per_em=upm,
        ascender=ascender,
        descender=descender,
        cap_height=cap or int(upm * 0.7),
        advances=advances,
        is_cff=is_cff,
        path=path,
    )


def load_face(path: Path, style: FontStyle, where: str) -> FontFace:
    """A face from a user-named file, with errors that name ``where`` (the field)."""
    if not path.is_file():
        raise FontError(f"{where}: font file {path} does not exist.", value=path)
    if path.suffix.lower() not in {".ttf", ".otf"}:
        raise FontError(f"{where}: {path.name} is not a .ttf or .otf font file.", value=path)
    try:
        load_metrics(path)
    except FontError as exc:
        raise FontError(f"{where}: {exc}", value=path) from None
    return FontFace(path, style)


@dataclass(frozen=True)
class FontSet:
    """The three faces of a family: regular, bold, italic."""

    regular: FontFace
    bold: FontFace
    italic: FontFace

    def face(self, style: FontStyle) -> FontFace:
        return {FontStyle.REGULAR: self.regular, FontStyle.BOLD: self.bold,
                FontStyle.ITALIC: self.italic}[style]


BUNDLED_FILES = {FontStyle.REGULAR: "SourceSans3-Regular.ttf",
                 FontStyle.BOLD: "SourceSans3-Bold.ttf", FontStyle.ITALIC: "SourceSans3-It.ttf"}


def bundled_fonts() -> FontSet:
    """The open-licensed family shipped in ``fonts/``: Source Sans 3 (SIL OFL, see
    fonts/OFL.txt)."""
    folder = fonts_dir()
    return FontSet(*(FontFace(folder / BUNDLED_FILES[style], style) for style in FontStyle))


def _cff_to_truetype(path: Path) -> bytes:
    """Convert PostScript (CFF) outlines to quadratic TrueType outlines."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(str(path), recalcTimestamp=False)
    order = font.getGlyphOrder()
    glyph_set = font.getGlyphSet()
    quadratic = {}
    for name in order:
        pen = TTGlyphPen(glyph_set)
        glyph_set[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        quadratic[name] = pen.glyph()
    font["loca"] = newTable("loca")
    glyf = font["glyf"] = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = quadratic
    del font["CFF "]
    if "VORG" in font:
        del font["VORG"]
    glyf.compile(font)
    hmtx = font["hmtx"]
    for name, glyph in glyf.glyphs.items():
        if hasattr(glyph, "xMin"):
            hmtx[name] = (hmtx[name][0], glyph.xMin)
    maxp = font["maxp"] = newTable("maxp")
    maxp.tableVersion = 0x00010000
    for attr in ("maxZones",):
        setattr(maxp, attr, 1)
    for attr in ("maxTwilightPoints", "maxStorage", "maxFunctionDefs", "maxInstructionDefs",
                 "maxStackElements", "maxSizeOfInstructions", "maxComponentElements"):
        setattr(maxp, attr, 0)
    post = font["post"]
    post.formatType = 2.0
    post.extraNames = []
    post.mapping = {}
    post.glyphOrder = order
    font.sfntVersion = "\x00\x01\x00\x00"
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()
