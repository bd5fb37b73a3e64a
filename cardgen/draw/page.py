"""The backend-neutral page description that every renderer draws.

Everything is in millimetres with the origin at the top-left corner of the page and y
pointing down; type sizes are in points. Layout code builds these objects; the PDF, SVG
and PNG renderers only translate them, they never decide where anything goes.

The item types are closed: Rect, Line, Path, Text, Image and Group. A renderer meets
anything else with a TypeError. Paths are sequences of typed operations (MoveTo,
LineTo, CurveTo, Close).

Imports ``cardgen.draw.geometry`` and ``cardgen.draw.colors`` (Pillow for type hints
only).
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Protocol

from cardgen.draw.colors import Color
from cardgen.draw.geometry import IDENTITY, Affine, Box

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage


class Anchor(enum.StrEnum):
    """Which point of a text run its (x, y) is: the start, middle or end of the baseline."""

    START = "start"
    MIDDLE = "middle"
    END = "end"


class LineCap(enum.StrEnum):
    BUTT = "butt"
    ROUND = "round"
    SQUARE = "square"


class FontRef(Protocol):
    """What a renderer needs of a font: the file, a PostScript-style name unique per
    file, and TrueType outlines to embed (``cardgen.text.fonts.FontFace`` is one)."""

    @property
    def path(self) -> FilePath: ...

    @property
    def name(self) -> str: ...

    def truetype_bytes(self) -> bytes: ...

    def __hash__(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Stroke:
    """How a line is drawn: colour, width (mm), dash pattern (mm on, mm off, ...)."""

    color: Color
    width: float
    dash: tuple[float, ...] = ()
    cap: LineCap = LineCap.BUTT


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: Color | None = None
    stroke: Stroke | None = None


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: Stroke


@dataclass(frozen=True, slots=True)
class MoveTo:
    """Start a new subpath at (x, y)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class LineTo:
    """A straight segment to (x, y)."""

    x: float
    y: float


@dataclass(frozen=True, slots=True)
class CurveTo:
    """A cubic Bézier segment through control points (x1, y1), (x2, y2) to (x, y)."""

    x1: float
    y1: float
    x2: float
    y2: float
    x: float
    y: float


@dataclass(frozen=True, slots=True)
class Close:
    """Close the current subpath back to its start."""


CLOSE = Close()
PathOp = MoveTo | LineTo | CurveTo | Close


@dataclass(frozen=True, slots=True)
class Path:
    """A path of straight and cubic Bézier segments, filled and/or stroked."""

    ops: tuple[PathOp, ...]
    fill: Color | None = None
    stroke: Stroke | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """One run of text. (x, y) is the baseline point the anchor refers to; ``rotation``
    (degrees, clockwise on the page) turns the run about that point."""

    x: float
    y: float
    text: str
    font: FontRef
    size: float
    color: Color
    anchor: Anchor = Anchor.START
    rotation: float = 0.0
    name: str | None = None


@dataclass(frozen=True, eq=False)
class Raster:
    """Pixel data ready for embedding: an RGB image, optionally a CMYK twin for print, and
    optionally a stencil ``mask`` giving its shape. ``key`` identifies the content (used
    for stable names in outputs).

    The mask is a 1-bit image (Pillow mode ``"1"``; white = printed, black = not printed)
    stretched over the same box as the colour pixels, usually at a higher resolution. It
    is hard-edged on purpose: print has no partial transparency (PDF/X forbids live
    transparency), so every point of the box is either the image's colour or whatever
    lies beneath. Without a mask the whole box is printed."""

    rgb: PILImage
    cmyk: PILImage | None = None
    mask: PILImage | None = None
    key: str = ""

    @staticmethod
    def from_images(
        rgb: PILImage, cmyk: PILImage | None = None, mask: PILImage | None = None
    ) -> Raster:
        digest = hashlib.sha1(rgb.tobytes())
        if mask is not None:
            digest.update(repr(mask.size).encode())
            digest.update(mask.tobytes())
        return Raster(rgb, cmyk, mask, digest.hexdigest()[:16])

    @property
    def size(self) -> tuple[int, int]:
        return self.rgb.size


@dataclass(frozen=True, slots=True)
class Image:
    """A raster stretched over the box (x, y, w, h)."""

    x: float
    y: float
    w: float
    h: float
    raster: Raster
    name: str | None = None


@dataclass(slots=True)
class Group:
    """Items drawn through ``transform`` and, if given, clipped to ``clip`` (a box in the
    group's own coordinates)."""

    items: list[Item] = field(default_factory=list)
    transform: Affine = IDENTITY
    clip: Box | None = None
    name: str | None = None

    def add(self, *items: Item) -> None:
        self.items.extend(items)


Item = Rect | Line | Path | Text | Image | Group


@dataclass(slots=True)
class Layer:
    """A named group of items (an Inkscape layer in SVG); layers draw in order.

    A ``print_only`` layer is drawn in print files only (a CMYK PDF), never in a preview
    (SVG, PNG, an RGB PDF): a spot layer such as a varnish, which a preview could only
    show as a solid colour over the art it leaves unchanged in print."""

    name: str
    items: list[Item] = field(default_factory=list)
    print_only: bool = False

    def add(self, *items: Item) -> None:
        self.items.extend(items)


@dataclass(slots=True)
class Page:
    """One page (a spread or a sheet): media size, trim and bleed boxes, layers."""

    name: str
    width: float
    height: float
    trim: Box
    bleed: Box
    layers: list[Layer] = field(default_factory=list)

    def layer(self, name: str, *, print_only: bool = False) -> Layer:
        """The layer called ``name``, created on first use (layers draw in creation
        order; ``print_only`` applies to a layer this call creates)."""
        for existing in self.layers:
            if existing.name == name:
                return existing
        new = Layer(name, print_only=print_only)
        self.layers.append(new)
        return new


@dataclass(frozen=True, slots=True)
class View:
    """What one output file or PDF page shows: some layers of a page."""

    name: str
    page: Page
    layers: tuple[Layer, ...]


@dataclass(frozen=True, slots=True)
class OutputIntent:
    """The printing condition a print file is prepared for (a PDF/X output intent): a
    registered identifier such as ``"FOGRA39"``, what it is in words, and the registry
    that defines the identifier."""

    identifier: str
    condition: str
    registry: str


@dataclass(frozen=True, slots=True)
class PdfStandard:
    """The PDF/X standard a print file claims to keep: the PDF version its header states
    and the identification keys of its document information (``GTS_PDFXVersion`` and,
    where the standard has it, ``GTS_PDFXConformance``; None: the key is left out)."""

    version: tuple[int, int]
    pdfx_version: str
    pdfx_conformance: str | None = None


# What every CMYK print file cardgen writes keeps, unless a print target says otherwise.
PDFX_1A_2001 = PdfStandard((1, 3), "PDF/X-1:2001", "PDF/X-1a:2001")


@dataclass(frozen=True, slots=True)
class Bookmark:
    """An entry of a document's outline (a PDF's bookmarks): its title, the page it leads
    to (an index into the document's pages), how far down that page (mm from the top), and
    its level (0 for the top; an entry is at most one level below the one before it)."""

    title: str
    page: int
    y: float = 0.0
    level: int = 0


@dataclass(slots=True)
class Document:
    """Pages, with what a print file says about itself: a title, a subject, for a file
    meant for a press the printing condition its CMYK values are prepared for and the
    PDF/X standard it keeps, and an outline of bookmarks (PDF only)."""

    pages: list[Page]
    title: str = ""
    subject: str = ""
    output_intent: OutputIntent | None = None
    bookmarks: list[Bookmark] = field(default_factory=list)
    standard: PdfStandard = PDFX_1A_2001

    def __post_init__(self) -> None:
        level = -1
        for mark in self.bookmarks:
            if not 0 <= mark.page < len(self.pages):
                raise ValueError(f"the bookmark {mark.title!r} leads to page "
                                 f"{mark.page + 1} of {len(self.pages)}")
            if not 0 <= mark.level <= level + 1:
                raise ValueError(f"the bookmark {mark.title!r} is at level {mark.level} "
                                 f"after one at level {level}")
            level = mark.level

    def views(self, *, preview: bool = False) -> list[View]:
        """Every page with its layers, in order: one view per page. A ``preview`` (an
        SVG, a PNG, an RGB PDF) leaves out the print-only layers."""
        return [View(p.name, p, tuple(layer for layer in p.layers
                                      if not (preview and layer.print_only)))
                for p in self.pages]


def walk(items: list[Item], transform: Affine = IDENTITY) -> Iterator[tuple[Item, Affine]]:
    """Every leaf item with the transform from its coordinates to the page's."""
    for item in items:
        if isinstance(item, Group):
            yield from walk(item.items, transform @ item.transform)
        else:
            yield item, transform


def page_items(page: Page) -> Iterator[tuple[Item, Affine]]:
    """Leaf items of a page, all layers in order."""
    for layer in page.layers:
        yield from walk(layer.items)


def page_texts(page: Page) -> Iterator[tuple[Text, Affine]]:
    for item, t in page_items(page):
        if isinstance(item, Text):
            yield item, t
