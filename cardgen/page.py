"""The backend-neutral page description that every renderer draws.

Everything is in millimetres with the origin at the top-left corner of the page and y
pointing down; type sizes are in points. Layout code builds these objects; the PDF, SVG
and PNG renderers only translate them, they never decide where anything goes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from cardgen.colors import Color
from cardgen.geometry import IDENTITY, Affine, Box

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

    from cardgen.fonts import FontFace

Anchor = Literal["start", "middle", "end"]
LineCap = Literal["butt", "round", "square"]


@dataclass(frozen=True, slots=True)
class Stroke:
    """How a line is drawn: colour, width (mm), dash pattern (mm on, mm off, ...)."""

    color: Color
    width: float
    dash: tuple[float, ...] = ()
    cap: LineCap = "butt"


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


# Path operations: ("M", x, y), ("L", x, y), ("C", x1, y1, x2, y2, x, y), ("Z",)
PathOp = tuple


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
    font: FontFace
    size: float
    color: Color
    anchor: Anchor = "start"
    rotation: float = 0.0
    name: str | None = None


@dataclass(frozen=True, eq=False)
class Raster:
    """Pixel data ready for embedding: an RGB image, optionally a CMYK twin for print and
    an alpha mask. ``key`` identifies the content (used for stable names in outputs)."""

    rgb: PILImage
    cmyk: PILImage | None = None
    alpha: PILImage | None = None
    key: str = ""

    @staticmethod
    def from_images(
        rgb: PILImage, cmyk: PILImage | None = None, alpha: PILImage | None = None
    ) -> Raster:
        digest = hashlib.sha1(rgb.tobytes())
        if alpha is not None:
            digest.update(alpha.tobytes())
        return Raster(rgb, cmyk, alpha, digest.hexdigest()[:16])

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
    """A named layer. A non-printing layer (the dieline) never reaches the printed pages."""

    name: str
    items: list[Item] = field(default_factory=list)
    printing: bool = True

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

    def layer(self, name: str, printing: bool = True) -> Layer:
        """The layer called ``name``, created on first use (layers draw in creation order)."""
        for existing in self.layers:
            if existing.name == name:
                return existing
        new = Layer(name, printing=printing)
        self.layers.append(new)
        return new

    @property
    def printing_layers(self) -> list[Layer]:
        return [layer for layer in self.layers if layer.printing]

    @property
    def nonprinting_layers(self) -> list[Layer]:
        return [layer for layer in self.layers if not layer.printing]


@dataclass(frozen=True, slots=True)
class View:
    """What one output file or PDF page shows: some layers of a page. Printing layers make
    the page's own view; non-printing ones (the dieline) a separate view after them."""

    name: str
    page: Page
    layers: tuple[Layer, ...]


@dataclass(slots=True)
class Document:
    pages: list[Page]
    title: str = ""
    subject: str = ""

    def views(self) -> list[View]:
        """Printing views of every page in order, then one view per non-printing layer."""
        views = [View(p.name, p, tuple(p.printing_layers)) for p in self.pages]
        extra = [(p, layer) for p in self.pages for layer in p.nonprinting_layers]
        names = [layer.name for _, layer in extra]
        for p, layer in extra:
            unique = names.count(layer.name) == 1
            views.append(View(layer.name if unique else f"{p.name}-{layer.name}", p, (layer,)))
        return views


def walk(items: list[Item], transform: Affine = IDENTITY) -> Iterator[tuple[Item, Affine]]:
    """Every leaf item with the transform from its coordinates to the page's."""
    for item in items:
        if isinstance(item, Group):
            yield from walk(item.items, transform @ item.transform)
        else:
            yield item, transform


def page_items(page: Page, printing: bool | None = None) -> Iterator[tuple[Item, Affine]]:
    """Leaf items of a page (all layers, or only printing / non-printing ones)."""
    for layer in page.layers:
        if printing is None or layer.printing == printing:
            yield from walk(layer.items)


def page_texts(page: Page) -> Iterator[tuple[Text, Affine]]:
    for item, t in page_items(page):
        if isinstance(item, Text):
            yield item, t
