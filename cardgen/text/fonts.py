"""Font faces, their metrics and glyph coverage.

Layout measures text with the advance widths of the font file itself (no kerning), which
is also what the PDF renderer uses, so fitted text fits in every output. Characters the
font lacks are refused with a clear error instead of printing an empty box, and so are
characters whose glyph has no outline (an empty ``glyf`` entry or CharString), which
would print as nothing: a font whose letters and digits are all empty is refused when
it is loaded, naming its ``fonts.*`` key.

A user's font file is untrusted: :func:`load_face` reads it once (a regular file, at most
:data:`MAX_FONT_BYTES`), recognises the container from its first bytes, checks with
fontTools that the tables, glyph counts and glyphs that cardgen and reportlab use are
sound, and finally lets reportlab's own parser read the TrueType bytes it will embed; all
of it under a time limit. Every way that fails is one :class:`FontError` sentence naming
the config field and the file. The PDF and SVG renderers then use the bytes that were
checked (:meth:`FontFace.truetype_bytes`, :func:`font_file_bytes`), not the file again.
The bundled fonts are trusted and read as they are.

fontTools reports what it works around through logging; :func:`quiet_fonttools` keeps it
off stderr while cardgen works with fonts.

Imports ``cardgen.chars``, ``cardgen.datafile``, ``cardgen.errors``, ``cardgen.limits``,
``cardgen.resources``, ``cardgen.units`` and (for types) ``cardgen.draw``; fontTools and
reportlab inside the functions.
"""

from __future__ import annotations

import array
import enum
import functools
import hashlib
import io
import itertools
import math
import re
import struct
import sys
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.chars import is_invisible
from cardgen.datafile import path_text, read_input
from cardgen.errors import CardgenError, FontError, number, shorten
from cardgen.limits import TimeLimitExceeded, time_limit
from cardgen.resources import fonts_dir
from cardgen.text import fontcache
from cardgen.units import MM_PER_PT

if TYPE_CHECKING:
    from cardgen.draw.page import FontRef

MAX_FONT_BYTES = 50_000_000  # the largest font file read (big CJK fonts are ~20 MB)
FONT_SECONDS = 4.0  # the time allowed to check a user's font file, plus...
FONT_SECONDS_PER_MB = 1.5  # ...this much per megabyte (a 4 MB CJK font takes 2.5 s here)
# Tables nothing in cardgen reads (text is set without kerning or ligatures); the SVG
# renderer drops them before subsetting, so they are not checked either.
UNUSED_TABLES = ("GPOS", "GSUB", "GDEF", "BASE", "JSTF", "MATH", "DSIG")


class FontStyle(enum.StrEnum):
    REGULAR = "regular"
    BOLD = "bold"
    ITALIC = "italic"

WIDTHS_REMEMBERED = 20_000  # texts whose advance a face remembers (FontMetrics.width)
# Characters that are layout, not ink: never looked up in the font.
_IGNORED = {"\n", "\r", "\t"}


@dataclass(frozen=True)
class FontFace:
    """A font file used for one style (regular, bold, italic)."""

    path: Path
    style: FontStyle = FontStyle.REGULAR
    # A user's font: the metrics of the bytes that were checked (see load_face).
    checked: FontMetrics | None = field(default=None, compare=False, repr=False)

    @functools.cached_property
    def metrics(self) -> FontMetrics:
        """The face's metrics (looked up once per face object)."""
        return self.checked if self.checked is not None else load_metrics(self.path)

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
        """Raise a clear error if the font cannot draw some character of ``text``: it
        has no glyph for it, or its glyph has no outline and would print as nothing."""
        missing = self.metrics.missing(text)
        if missing:
            ch = missing[0]
            name = unicodedata.name(ch, "unnamed character").title()
            raise FontError(
                f"{where}: the font {self.label} has no glyph for {ch!r} "
                f"(U+{ord(ch):04X} {name}); choose a font that has it in [fonts] "
                "or remove the character.", value=text)
        blank = [ch for ch in dict.fromkeys(text) if ord(ch) in self.metrics.blank]
        if blank:
            ch = blank[0]
            name = unicodedata.name(ch, "unnamed character").title()
            key = f"fonts.{self.style}"
            place = where if where.startswith(key) else f"{key} ({where})"
            raise FontError(
                f"{place}: the font {self.label} draws {ch!r} (U+{ord(ch):04X} {name}) as "
                "nothing: its glyph has no outline, so the text would print invisibly; "
                f"set {key} to a font whose glyphs have outlines.", value=text)


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
    # Characters whose glyph has no outline though they are meant to show ink (a user's
    # font only: see _blank_characters); the text check refuses them.
    blank: frozenset[int] = field(default=frozenset(), repr=False)
    # The file's bytes: for a user's font, the bytes that were checked; for a bundled one,
    # read when first needed.
    data: bytes | None = field(default=None, repr=False)
    _ttf_bytes: bytes | None = field(default=None, repr=False)
    _extents: dict[str, tuple[int, int]] = field(default_factory=dict, repr=False)
    _glyphs: tuple[Any, Any] | None = field(default=None, repr=False)
    # The advance of texts measured before, in font units (layout measures the same
    # words and lines many times over); at most WIDTHS_REMEMBERED, then forgotten.
    _units: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    # The same for the top of texts' ink (fitting asks it of one text at each size tried).
    _tops: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    # Whether _extents holds every character the font maps (a bundled font's, worked out
    # once and cached between runs: see load_metrics); then any other has no glyph.
    _all_extents: bool = field(default=False, repr=False, compare=False)

    def width(self, text: str, size_pt: float) -> float:
        units = self._remembered(self._units, text, self.text_units)
        return units * size_pt / self.units_per_em * MM_PER_PT

    def units(self, text: str) -> int:
        """The advance of ``text`` in font units, remembered (as :meth:`width` does).
        Advances are whole numbers, so the units of a line are exactly the sum of its
        words' and spaces' units, however it is cut up: text can be measured by runs."""
        return self._remembered(self._units, text, self.text_units)

    def units_width(self, units: int, size_pt: float) -> float:
        """An advance in font units, in mm at ``size_pt``: for the units of a text,
        exactly what :meth:`width` gives for that text (the same operations in the same
        order)."""
        return units * size_pt / self.units_per_em * MM_PER_PT

    @staticmethod
    def _remembered(store: dict[str, int], text: str, measure: Callable[[str], int]) -> int:
        """``measure(text)``, remembered in ``store`` (at most WIDTHS_REMEMBERED texts,
        then forgotten at once)."""
        value = store.get(text)
        if value is None:
            value = measure(text)
            if len(store) >= WIDTHS_REMEMBERED:
                store.clear()
            store[text] = value
        return value

    def text_units(self, text: str) -> int:
        """The advance of ``text`` in font units (no kerning), measured afresh."""
        default = self.advances.get(0xFFFD, self.units_per_em // 2)
        if len(text) < 64:
            return sum(self.advances.get(ord(ch), default) for ch in text)
        # (the same sum, four times faster on a long text)
        return sum(map(self.advances.get, map(ord, text), itertools.repeat(default)))

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
        top = self._remembered(self._tops, text, self.ink_top_units)
        return top * size_pt / self.units_per_em * MM_PER_PT

    def ink_top_units(self, text: str) -> int:
        """The top of the tallest glyph of ``text`` in font units, measured afresh."""
        tops = [self._glyph_extent(ch)[1] for ch in dict.fromkeys(text) if not ch.isspace()]
        return max(tops, default=0)

    def ink_bottom_mm(self, text: str, size_pt: float) -> float:
        """How far the deepest glyph of ``text`` reaches below the baseline (0 when none
        does)."""
        bottoms = [self._glyph_extent(ch)[0] for ch in text if not ch.isspace()]
        return max(-min(bottoms, default=0), 0) * size_pt / self.units_per_em * MM_PER_PT

    def _glyph_extent(self, ch: str) -> tuple[int, int]:
        """(yMin, yMax) of a character's glyph in font units, cached."""
        if ch not in self._extents:
            if self._all_extents:
                return (0, 0)  # a character the font does not map, as below
            from fontTools.pens.boundsPen import BoundsPen

            with quiet_fonttools():
                if self._glyphs is None:
                    from fontTools.ttLib import TTFont

                    source = io.BytesIO(self.data) if self.data is not None else str(self.path)
                    font = TTFont(source, lazy=True, recalcTimestamp=False)
                    self._glyphs = (font.getBestCmap(), font.getGlyphSet())
                cmap, glyph_set = self._glyphs
                pen = BoundsPen(glyph_set)
                if ord(ch) in cmap:
                    glyph_set[cmap[ord(ch)]].draw(pen)
            bounds = pen.bounds or (0, 0, 0, 0)
            self._extents[ch] = (bounds[1], bounds[3])
        return self._extents[ch]

    def file_bytes(self) -> bytes:
        """The font file's bytes."""
        if self.data is None:
            self.data = self.path.read_bytes()
        return self.data

    def truetype_bytes(self) -> bytes:
        """The font with TrueType outlines (CFF-based OpenType is converted once)."""
        if self._ttf_bytes is None:
            if self.is_cff:
                with quiet_fonttools():
                    self._ttf_bytes = _cff_to_truetype(self.file_bytes())
            else:
                self._ttf_bytes = self.file_bytes()
        return self._ttf_bytes


@cache
def load_metrics(path: Path) -> FontMetrics:
    """Parse a bundled TTF/OTF file once per process (a user's file goes through
    :func:`load_face`).

    A font in cardgen's own ``fonts/`` folder is read through the cache of
    :mod:`cardgen.text.fontcache`: its metrics and the extents of all its glyphs are
    worked out once (fontTools is imported for that only) and read back from the cache
    by later runs, which then need no fontTools. An entry counts only for the same font
    bytes (SHA-256) and the same code (:func:`_code_identity`); without a usable cache
    folder the font is read as it always was, its glyphs' extents measured as text asks
    for them."""
    if path.parent != fonts_dir():
        return _parse_metrics(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise FontError(f"font {path} cannot be read ({exc.strerror or exc}).",
                        value=path) from None
    name = hashlib.sha256(data).hexdigest()
    key = {"font": name, "code": _code_identity()}
    body = fontcache.load(name, key)
    if body is not None:
        metrics = _metrics_from_cache(body, path, data)
        if metrics is not None:
            return metrics
    metrics = _parse_metrics(path, data)
    if fontcache.writable(name):
        for code in list(metrics.advances):
            metrics._glyph_extent(chr(code))
        metrics._all_extents = True
        fontcache.store(name, key, _cache_body(metrics))
    return metrics


def _parse_metrics(path: Path, data: bytes | None = None) -> FontMetrics:
    """A trusted font file's metrics, read with fontTools."""
    from fontTools.ttLib import TTFont

    try:
        source = io.BytesIO(data) if data is not None else str(path)
        font = TTFont(source, lazy=True, recalcTimestamp=False)
        if not font.getBestCmap():
            raise FontError(f"font {path}: it has no Unicode character map.", value=path)
        if "CFF2" in font:
            raise FontError(f"font {path}: variable CFF2 fonts are not supported; "
                            "use a static TTF or OTF.", value=path)
        return _metrics_of(font, path, data)
    except FontError:
        raise
    except Exception as exc:  # fontTools raises many exception types on bad files
        raise FontError(f"font {path} cannot be read as a TrueType/OpenType font "
                        f"({exc}).", value=path) from None


@cache
def _code_identity() -> str:
    """A digest of the code that works out a font's metrics: this module's source and
    fontTools' version (its ``__init__.py``, found without importing it), so that a
    cached entry made by other code is never used."""
    import importlib.util

    digest = hashlib.sha256(Path(__file__).read_bytes())
    spec = importlib.util.find_spec("fontTools")
    if spec is not None and spec.origin is not None:
        try:
            digest.update(Path(spec.origin).read_bytes())
        except OSError:
            digest.update(b"fontTools unreadable")
    return digest.hexdigest()


def _cache_body(metrics: FontMetrics) -> dict[str, Any]:
    """A bundled font's metrics and all its glyphs' extents, as JSON holds them."""
    return {
        "postscript_name": metrics.postscript_name,
        "full_name": metrics.full_name,
        "units_per_em": metrics.units_per_em,
        "ascender": metrics.ascender,
        "descender": metrics.descender,
        "cap_height": metrics.cap_height,
        "is_cff": metrics.is_cff,
        "advances": [[code, advance] for code, advance in metrics.advances.items()],
        "extents": [[ord(ch), low, high] for ch, (low, high) in metrics._extents.items()],
    }


_FONT_UNITS = 1 << 16  # the largest magnitude a font's 16-bit fields hold


def _metrics_from_cache(body: Any, path: Path, data: bytes) -> FontMetrics | None:
    """The metrics a cache entry's body describes, or None if it is not one that
    :func:`_cache_body` could have written (its every field checked: a wrong one means
    the entry is ignored, never that it is used)."""
    def whole(value: Any, low: int = -_FONT_UNITS, high: int = _FONT_UNITS) -> bool:
        return type(value) is int and low <= value <= high

    def coordinate(value: Any) -> bool:
        return whole(value) or (type(value) is float and math.isfinite(value)
                                and abs(value) <= _FONT_UNITS)

    try:
        if not isinstance(body, dict) or set(body) != set(_CACHE_FIELDS):
            return None
        ps_name, full_name = body["postscript_name"], body["full_name"]
        if not (isinstance(ps_name, str) and isinstance(full_name, str) and ps_name
                and _postscript_name(ps_name) == ps_name and _label(full_name) == full_name):
            return None
        upm = body["units_per_em"]
        if not (whole(upm, *_UNITS_PER_EM) and whole(body["ascender"])
                and whole(body["descender"]) and whole(body["cap_height"])
                and type(body["is_cff"]) is bool):
            return None
        advances: dict[int, int] = {}
        for pair in body["advances"]:
            code, advance = pair
            if not (whole(code, 0, 0x10FFFF) and whole(advance, 0, _FONT_UNITS - 1)):
                return None
            advances[code] = advance
        extents: dict[str, tuple[int, int]] = {}
        for triple in body["extents"]:
            code, low, high = triple
            if not (whole(code, 0, 0x10FFFF) and coordinate(low) and coordinate(high)):
                return None
            extents[chr(code)] = (low, high)
        if (len(advances) != len(body["advances"]) or len(extents) != len(body["extents"])
                or not advances or set(advances) != set(map(ord, extents))):
            return None
    except (TypeError, ValueError):  # a field of the wrong shape
        return None
    return FontMetrics(
        postscript_name=ps_name, full_name=full_name, units_per_em=upm,
        ascender=body["ascender"], descender=body["descender"],
        cap_height=body["cap_height"], advances=advances, is_cff=body["is_cff"],
        path=path, data=data, _extents=extents, _all_extents=True)


_CACHE_FIELDS = ("postscript_name", "full_name", "units_per_em", "ascender", "descender",
                 "cap_height", "is_cff", "advances", "extents")


def _metrics_of(font: Any, path: Path, data: bytes | None = None) -> FontMetrics:
    """The metrics of a parsed font (a fontTools ``TTFont``)."""
    cmap = font.getBestCmap()
    hmtx = font["hmtx"].metrics
    advances = {cp: hmtx[glyph][0] for cp, glyph in cmap.items() if glyph in hmtx}
    names = font["name"]
    ps_name = _postscript_name(names.getDebugName(6) or "") or _postscript_name(path.stem)
    full_name = _label(names.getDebugName(4) or "") or ps_name
    os2 = font.get("OS/2", None)
    hhea = font["hhea"]
    upm = font["head"].unitsPerEm
    ascender = os2.sTypoAscender if os2 else hhea.ascent
    descender = os2.sTypoDescender if os2 else hhea.descent
    cap = getattr(os2, "sCapHeight", 0) if os2 else 0
    return FontMetrics(
        postscript_name=ps_name,
        full_name=full_name,
        units_per_em=upm,
        ascender=ascender,
        descender=descender,
        cap_height=cap or int(upm * 0.7),
        advances=advances,
        is_cff="CFF " in font,
        path=path,
        data=data,
    )


def _postscript_name(name: str) -> str:
    """A name safe to register and to write into PDF and SVG (CSS): printable ASCII
    without spaces, quotes or PostScript delimiters, at most 63 characters."""
    return re.sub(r"[^\x21-\x7e]|[\[\](){}<>/%\"'\\;]", "-", name)[:63]


def _label(name: str) -> str:
    """A font's full name as messages show it: printable, on one line, not too long."""
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in name).split())
    return text if len(text) <= 64 else text[:63] + "…"


def load_face(path: Path, style: FontStyle, where: str) -> FontFace:
    """A face from a user-named file, with errors that name ``where`` (the field).

    The file is read once and checked (see the module's docstring); the outcome is
    remembered per file and content, so a font is checked once per process."""
    try:
        data = read_input(path, "font file", where=where, max_bytes=MAX_FONT_BYTES)
    except CardgenError as exc:
        raise FontError(str(exc), value=path) from None
    outcome: FontMetrics | str | None = _container_problem(data)
    if outcome is None:
        if path.suffix.lower() not in {".ttf", ".otf"}:
            raise FontError(f"{where}: {path.name} is not a .ttf or .otf font file.",
                            value=path)
        key = (path, hashlib.sha256(data).digest())
        if key not in _checked:
            try:
                _checked[key] = _check_font(path, data)
            except _Refused as exc:
                _checked[key] = exc.problem
        outcome = _checked[key]
    if not isinstance(outcome, FontMetrics):
        raise FontError(f"{where}: font file {path_text(path)} {outcome}", value=path)
    return FontFace(path, style, outcome)


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
    fonts/OFL.txt). One set per process (it is immutable), so that each face looks its
    metrics up once."""
    folder = fonts_dir()
    return FontSet(*(FontFace(folder / BUNDLED_FILES[style], style) for style in FontStyle))


def font_file_bytes(face: FontRef) -> bytes:
    """The bytes of a face's font file: for a user's font, the bytes that were checked,
    so that a renderer never opens the file again."""
    if isinstance(face, FontFace):
        return face.metrics.file_bytes()
    return Path(face.path).read_bytes()


_ERROR = 40  # logging.ERROR (logging is imported with fontTools, not for every card)


@contextmanager
def quiet_fonttools(level: int = _ERROR) -> Iterator[None]:
    """Keep fontTools' log messages below ``level`` (what it works around, such as
    "FFTM NOT subset") off stderr for the duration; the loggers' levels are restored
    afterwards."""
    import logging

    manager = logging.Logger.manager
    loggers = [logging.getLogger("fontTools")] + [
        logger for name, logger in list(manager.loggerDict.items())
        if name.startswith("fontTools.") and isinstance(logger, logging.Logger)]
    saved = [(logger, logger.level) for logger in loggers]
    for logger, previous in saved:
        if logger.name == "fontTools" or previous != logging.NOTSET:
            logger.setLevel(max(previous, level))
    try:
        yield
    finally:
        for logger, previous in saved:
            logger.setLevel(previous)


# --- Checking a user's font file ---------------------------------------------------------

_REQUIRED_TABLES = ("head", "hhea", "maxp", "hmtx", "cmap", "name", "post")
_BITMAP_TABLES = ("EBDT", "EBLC", "CBDT", "CBLC", "sbix", "bdat", "bloc")
_UNITS_PER_EM = (16, 16384)
_MAX_COMPONENT_LEAVES = 1000  # simple glyphs one composite may expand into
_SILENT = 50 + 1  # above logging.CRITICAL
# Each file (path and content) checked in this process: its metrics, or what is wrong.
_checked: dict[tuple[Path, bytes], FontMetrics | str] = {}


class _Refused(Exception):
    """A font file cardgen will not use; ``problem`` ends the sentence "font file X …"."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


def _damaged(what: str) -> _Refused:
    return _Refused(f"is damaged: {what}.")


def _reason(exc: BaseException) -> str:
    """An exception from a font library as a short clause on one line (it may quote the
    font's own bytes)."""
    text = "".join(ch if ch.isprintable() else " " for ch in str(exc))
    text = " ".join(text.split()).rstrip(".") or type(exc).__name__
    return text if len(text) <= 100 else text[:99] + "…"


def _timed_out(exc: BaseException) -> bool:
    """Whether the time limit struck inside ``exc`` (a library may wrap it)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, TimeLimitExceeded):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _container_problem(data: bytes) -> str | None:
    """What is wrong with the kind of file, from its first bytes; None for a single
    TrueType or CFF OpenType font."""
    magic = data[:4]
    if magic in (b"\x00\x01\x00\x00", b"true", b"OTTO"):
        return None
    if magic in (b"wOFF", b"wOF2"):
        kind = "WOFF2" if magic == b"wOF2" else "WOFF"
        return (f"is a {kind} web font, not a TrueType/OpenType font; use the font's .ttf "
                "or .otf file instead.")
    if magic == b"ttcf":
        return ("is a font collection (.ttc) holding several fonts; cardgen needs a single "
                "font: use a .ttf or .otf file.")
    return "is not a TrueType/OpenType font."


def _check_font(path: Path, data: bytes) -> FontMetrics:
    """The metrics of a user's font file, or :class:`_Refused` saying what is wrong with
    it. Runs under a time limit; fontTools' log messages are silenced (what they would
    report is refused here)."""
    seconds = FONT_SECONDS + FONT_SECONDS_PER_MB * len(data) / 1_000_000
    late = _Refused(f"could not be read within {number(round(seconds, 1))} seconds; it is "
                    "probably damaged.")
    deadline = time.monotonic() + seconds
    try:
        with quiet_fonttools(_SILENT), time_limit(seconds):
            metrics = _checked_metrics(path, data, deadline)
            _in_time(deadline)
            return metrics
    except TimeLimitExceeded:
        raise late from None
    except _Refused as exc:
        if _timed_out(exc):
            raise late from None
        raise
    except Exception as exc:  # whatever else a font library raises on a damaged file
        if _timed_out(exc):
            raise late from None
        raise _Refused("cannot be read as a TrueType/OpenType font "
                       f"({_reason(exc)}).") from exc


def _in_time(deadline: float) -> None:
    """The time limit once more, at points of cardgen's own: its alarm can be lost in
    library code that catches every exception."""
    if time.monotonic() > deadline:
        raise TimeLimitExceeded("past the deadline")


def _checked_metrics(path: Path, data: bytes, deadline: float) -> FontMetrics:
    tables = _table_directory(data)
    _check_table_set(tables)
    _check_cmap(data, *tables["cmap"])
    _in_time(deadline)

    from fontTools.ttLib import TTFont

    try:
        font = TTFont(io.BytesIO(data), recalcTimestamp=False)
    except TimeLimitExceeded:
        raise
    except Exception as exc:
        raise _Refused(f"cannot be read as a TrueType/OpenType font ({_reason(exc)}).") from exc

    def table(tag: str) -> Any:
        try:
            return font[tag]
        except TimeLimitExceeded:
            raise
        except Exception as exc:
            raise _damaged(f"its {tag!r} table cannot be read ({_reason(exc)})") from exc

    upm = table("head").unitsPerEm
    low, high = _UNITS_PER_EM
    if not low <= upm <= high:
        raise _damaged(f"its units per em (head.unitsPerEm) is {upm}, not {low} to {high}")
    count = table("maxp").numGlyphs
    if count < 1:
        raise _damaged("it has no glyphs (maxp.numGlyphs is 0)")
    metrics_count = table("hhea").numberOfHMetrics
    if not 1 <= metrics_count <= count:
        raise _damaged(f"its glyph counts disagree (hhea.numberOfHMetrics is {metrics_count} "
                       f"for {count} glyphs)")
    if "glyf" in font:
        loca_format = font["head"].indexToLocFormat
        if loca_format not in (0, 1):
            raise _damaged(f"its head.indexToLocFormat is {loca_format}, not 0 or 1")
        located = len(table("loca")) - 1
        if located < count:
            raise _damaged(f"its glyph counts disagree ('maxp' has {count} glyphs, 'loca' "
                           f"locates {located})")
    else:
        table("CFF ")
        try:
            charstrings = len(font.getGlyphOrder())  # the CFF charset
        except TimeLimitExceeded:
            raise
        except Exception as exc:
            raise _damaged(f"its 'CFF ' table cannot be read ({_reason(exc)})") from exc
        if charstrings != count:
            raise _damaged(f"its glyph counts disagree ('maxp' has {count} glyphs, 'CFF ' "
                           f"{charstrings})")
    for tag in sorted(font.keys()):
        if tag != "GlyphOrder" and tag not in UNUSED_TABLES:
            table(tag)
            _in_time(deadline)
    try:
        if not font.getBestCmap():
            raise _Refused("has no Unicode character map (no Unicode 'cmap' subtable).")
        order = font.getGlyphOrder()
    except (TimeLimitExceeded, _Refused):
        raise
    except Exception as exc:
        raise _damaged(f"its 'cmap' table cannot be read ({_reason(exc)})") from exc
    if "glyf" in font:
        extents = _check_truetype_glyphs(font["glyf"], order, deadline)
    else:
        extents = _check_cff_glyphs(font, order, deadline)
    # The extents must fit the 16-bit fields that subsetting (SVG) and converting (CFF
    # to TrueType) recompute from them.
    hmtx = font["hmtx"]
    for name, (x_min, y_min, x_max, y_max) in extents.items():
        advance, lsb = hmtx[name]
        width = math.ceil(x_max) - math.floor(x_min)
        reach = (math.floor(x_min), math.floor(y_min), math.ceil(x_max), math.ceil(y_max),
                 lsb + width, advance - lsb - width)
        if not all(-0x8000 <= value <= 0x7FFF for value in reach):
            raise _damaged(f"its glyph {shorten(name)} reaches beyond the coordinates a "
                           "font can hold (±32767 units)")

    metrics = _metrics_of(font, path, data)
    metrics.blank = _blank_characters(font.getBestCmap(), extents)
    try:
        metrics.truetype_bytes()  # CFF outlines are converted (once) here
    except TimeLimitExceeded:
        raise
    except Exception as exc:
        raise _Refused("cannot be converted to TrueType outlines for the PDF "
                       f"({_reason(exc)}).") from exc
    _in_time(deadline)
    _check_embedding(metrics, deadline)
    return metrics


# Letters and digits: a font that maps some of them but draws none is empty.
_REPRESENTATIVE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _meant_blank(ch: str) -> bool:
    """Is ``ch`` a character whose glyph is rightly empty: a space, a control, an
    invisible character, the blank braille pattern?"""
    return (ch.isspace() or unicodedata.category(ch) in ("Zs", "Cc") or is_invisible(ch)
            or ch == "\u2800")


def _blank_characters(cmap: dict[int, str],
                      extents: dict[str, tuple[float, ...]]) -> frozenset[int]:
    """The characters ``cmap`` maps to a glyph without ink (no outline, or one of no
    width or height) that are meant to show some; :class:`_Refused` when every letter
    and digit the font maps is such a character: its text would print invisibly."""
    def inked(glyph: str) -> bool:
        box = extents.get(glyph)
        return box is not None and box[2] > box[0] and box[3] > box[1]

    blank = frozenset(code for code, glyph in cmap.items()
                      if not inked(glyph) and not _meant_blank(chr(code)))
    mapped = [ord(ch) for ch in _REPRESENTATIVE if ord(ch) in cmap]
    if mapped and all(code in blank for code in mapped):
        raise _Refused(f"has no outlines: its glyphs for the {len(mapped)} letters and digits "
                       "it maps are all empty, so its text would print invisibly; use a font "
                       "whose glyphs have outlines.")
    return blank


def _table_directory(data: bytes) -> dict[str, tuple[int, int]]:
    """The table directory (tag: offset, length), checked against the file."""
    if len(data) < 12:
        raise _damaged("it is too short to be a font")
    (count,) = struct.unpack_from(">H", data, 4)
    if count == 0:
        raise _damaged("its table directory is empty")
    if 12 + 16 * count > len(data):
        raise _damaged(f"its table directory lists {count} tables, more than the file holds")
    tables: dict[str, tuple[int, int]] = {}
    for index in range(count):
        raw, _checksum, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * index)
        tag = raw.decode("latin-1")
        if not all(" " <= ch <= "~" for ch in tag):
            raise _damaged(f"its table directory is broken (entry {index + 1} has no valid "
                           "table name)")
        if tag in tables:
            raise _damaged(f"its table directory is broken (it lists the {tag!r} table "
                           "twice)")
        if offset + length > len(data) + 3:  # the last table's padding may be missing
            raise _damaged(f"its table directory is broken (the {tag!r} table would lie "
                           "beyond the end of the file)")
        tables[tag] = (offset, length)
    return tables


def _check_table_set(tables: dict[str, tuple[int, int]]) -> None:
    """Outlines and the tables that cardgen and reportlab read are all there."""
    if "CFF2" in tables:
        raise _Refused("has variable CFF2 outlines, which cardgen does not support; use a "
                       "static TTF or OTF.")
    if "glyf" not in tables and "CFF " not in tables:
        if any(tag in tables for tag in _BITMAP_TABLES):
            raise _Refused("has only bitmap glyphs and no outlines; cardgen needs a font "
                           "with outlines (TrueType or PostScript/CFF).")
        raise _damaged("it has no glyph outlines (neither a 'glyf' nor a 'CFF ' table)")
    required = [*_REQUIRED_TABLES, *(("loca",) if "glyf" in tables else ())]
    for tag in required:
        if tag not in tables:
            raise _damaged(f"its {tag!r} table is missing")


def _ushorts(data: bytes, start: int, count: int) -> array.array[int]:
    values = array.array("H", data[start:start + 2 * count])
    if sys.byteorder == "little":
        values.byteswap()
    return values


def _check_cmap(data: bytes, offset: int, length: int) -> None:
    """The character ranges of the 'cmap' subtables stay within Unicode, in order (as the
    specification requires): reportlab and fontTools expand every range, so one damaged
    range would make them run for hours and fill the memory."""
    cmap = data[offset:offset + length]

    def bad(what: str) -> _Refused:
        return _damaged(f"its character map ('cmap' table) {what}")

    if len(cmap) < 4:
        raise bad("is truncated")
    (count,) = struct.unpack_from(">H", cmap, 2)
    if 4 + 8 * count > len(cmap):
        raise bad("is truncated")
    chosen, unicode = None, False
    for index in range(count):
        platform, encoding, start = struct.unpack_from(">HHL", cmap, 4 + 8 * index)
        if start + 4 > len(cmap):
            raise bad("points outside itself")
        (fmt,) = struct.unpack_from(">H", cmap, start)
        if fmt == 4:
            if start + 14 > len(cmap):
                raise bad("is truncated")
            segments = struct.unpack_from(">H", cmap, start + 6)[0] // 2
            if segments == 0 or start + 16 + 8 * segments > len(cmap):
                raise bad("is truncated")
            ends = _ushorts(cmap, start + 14, segments)
            starts = _ushorts(cmap, start + 16 + 2 * segments, segments)
            spans = zip(starts, ends, strict=True)
            if sum(max(0, end - first + 1) for first, end in spans) > 0x20000:
                raise bad("has overlapping character ranges")
        elif fmt in (12, 13):
            if start + 16 > len(cmap):
                raise bad("is truncated")
            (groups,) = struct.unpack_from(">L", cmap, start + 12)
            if start + 16 + 12 * groups > len(cmap):
                raise bad(f"lists {groups} character ranges, more than it holds")
            values = array.array("I", cmap[start + 16:start + 16 + 12 * groups])
            if sys.byteorder == "little":
                values.byteswap()
            last = 0
            for first, end in zip(values[0::3], values[1::3], strict=True):
                if end > 0x10FFFF:
                    raise bad("maps characters beyond U+10FFFF, the last Unicode character")
                if first > end or first < last:
                    raise bad("has overlapping or unordered character ranges")
                last = end
        # The subtable reportlab reads: the last Unicode one, by its own rule.
        if platform == 3 or (platform == 1 and encoding == 1) or (platform == 0
                                                                   and encoding != 5):
            unicode, chosen = True, fmt
        elif platform == 1 and encoding == 0 and not unicode:
            chosen = fmt
    if chosen == 2:
        raise bad("is a legacy double-byte one (format 2) that the PDF writer cannot use")


def _check_truetype_glyphs(glyf: Any, order: list[str],
                           deadline: float) -> dict[str, tuple[float, ...]]:
    """Every glyph decodes; composite glyphs use only glyphs that exist, never
    themselves, and expand into a sane number of simple glyphs. Returns the extent
    (xMin, yMin, xMax, yMax) of every glyph that has an outline."""
    known = set(order)
    parts: dict[str, list[str]] = {}
    for name in order:
        _in_time(deadline)
        raw = getattr(glyf.glyphs.get(name), "data", b"")
        try:
            glyph = glyf[name]
        except TimeLimitExceeded:
            raise
        except IndexError as exc:  # fontTools' name for a component's glyph number
            if raw[:1] >= b"\x80":  # numberOfContours < 0: a composite glyph
                raise _damaged(f"its composite glyph {shorten(name)} uses a glyph that "
                               "does not exist") from exc
            raise _damaged(f"its glyph {shorten(name)} cannot be decoded "
                           f"({_reason(exc)})") from exc
        except Exception as exc:
            raise _damaged(f"its glyph {shorten(name)} cannot be decoded "
                           f"({_reason(exc)})") from exc
        if glyph.isComposite():
            parts[name] = [component.glyphName for component in glyph.components]
            for part in parts[name]:
                if part not in known:
                    raise _damaged(f"its composite glyph {shorten(name)} uses a glyph that "
                                   "does not exist")
    leaves: dict[str, int] = {}
    for root in parts:
        if root in leaves:
            continue
        path, todo = [root], [iter(parts[root])]
        while todo:
            child = next(todo[-1], None)
            if child is None:
                done = path.pop()
                todo.pop()
                leaves[done] = sum(leaves.get(p, 1) for p in parts[done])
                if leaves[done] > _MAX_COMPONENT_LEAVES:
                    raise _damaged(f"its composite glyph {shorten(done)} is nested too "
                                   "deeply")
            elif child in path:
                cycle = [*path[path.index(child):], child]
                shown = " → ".join(shorten(n, 20) for n in cycle[:6])
                raise _damaged(f"its composite glyph {shorten(child)} contains itself "
                               f"({shown}{' …' if len(cycle) > 6 else ''})")
            elif child in parts and child not in leaves:
                path.append(child)
                todo.append(iter(parts[child]))
    extents: dict[str, tuple[float, ...]] = {}
    for name in order:
        _in_time(deadline)
        glyph = glyf[name]
        if glyph.numberOfContours > 0:
            ends = glyph.endPtsOfContours
            if any(b <= a for a, b in itertools.pairwise(ends)):
                raise _damaged(f"its glyph {shorten(name)} cannot be decoded (its contours "
                               "are out of order)")
            extents[name] = tuple(glyph.coordinates.calcIntBounds())
        elif glyph.numberOfContours < 0:
            try:
                glyph.recalcBounds(glyf)
            except TimeLimitExceeded:
                raise
            except Exception as exc:
                raise _damaged(f"its glyph {shorten(name)} cannot be decoded "
                               f"({_reason(exc)})") from exc
            extents[name] = (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax)
    return extents


def _check_cff_glyphs(font: Any, order: list[str],
                      deadline: float) -> dict[str, tuple[float, ...]]:
    """Every glyph's charstring runs; returns the extent (xMin, yMin, xMax, yMax) of
    every glyph that has an outline."""
    from fontTools.pens.boundsPen import ControlBoundsPen

    glyph_set = font.getGlyphSet()
    extents: dict[str, tuple[float, ...]] = {}
    for name in order:
        _in_time(deadline)
        pen = ControlBoundsPen(glyph_set)
        try:
            glyph_set[name].draw(pen)
        except TimeLimitExceeded:
            raise
        except Exception as exc:
            raise _damaged(f"its glyph {shorten(name)} cannot be decoded "
                           f"({_reason(exc)})") from exc
        if pen.bounds is not None:
            extents[name] = tuple(pen.bounds)
    return extents


def _check_embedding(metrics: FontMetrics, deadline: float) -> None:
    """Let reportlab parse the TrueType bytes it will embed, and cut every subset it
    could need, so that what it would fail on is refused now."""
    from reportlab.pdfbase.ttfonts import TTFontFile

    try:
        parsed = TTFontFile(io.BytesIO(metrics.truetype_bytes()), validate=0)
        by_glyph: dict[int, int] = {}
        for code, glyph in sorted(parsed.charToGlyph.items()):
            if code in metrics.advances:
                by_glyph.setdefault(glyph, code)
        codes = sorted(by_glyph.values())
        # reportlab's first subset always holds ASCII, whether the text uses it or not.
        subsets = [[0] * 32 + list(range(32, 128))]
        subsets += [codes[first:first + 4096] for first in range(0, len(codes), 4096)]
        for subset in subsets:
            _in_time(deadline)
            parsed.makeSubset(subset)
    except TimeLimitExceeded:
        raise
    except Exception as exc:
        if "does not allow subsetting/embedding" in str(exc):
            raise _Refused("may not be embedded in a PDF: its licence flags (OS/2 fsType) "
                           "forbid it.") from exc
        raise _damaged(f"the PDF writer cannot read it ({_reason(exc)})") from exc


def _cff_to_truetype(data: bytes) -> bytes:
    """Convert PostScript (CFF) outlines to quadratic TrueType outlines."""
    from fontTools.pens.cu2quPen import Cu2QuPen
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.ttLib import TTFont, newTable

    font = TTFont(io.BytesIO(data), recalcTimestamp=False)
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
