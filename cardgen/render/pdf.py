"""PDF output through reportlab.

One PDF page per page of the document, with its page boxes. Colours are CMYK unless
``cmyk=False``; spot colours become Separation colour spaces; colours marked to overprint
do so (overprint mode 1).
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import CMYKColor, CMYKColorSep
from reportlab.lib.colors import Color as RLColor
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

from cardgen import __version__
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import (
    Anchor,
    Document,
    FontRef,
    Group,
    Image,
    Layer,
    Line,
    LineCap,
    Page,
    Path,
    Rect,
    Stroke,
    Text,
    page_texts,
)
from cardgen.render.base import Painter, walk_path
from cardgen.text.fonts import bundled_fonts
from cardgen.units import PT_PER_MM, pt

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

_CAPS = {LineCap.BUTT: 0, LineCap.ROUND: 1, LineCap.SQUARE: 2}
_registered: dict[str, str] = {}


def render_pdf(doc: Document, *, cmyk: bool = True) -> bytes:
    """The document as PDF bytes (byte-identical for identical input)."""
    buffer = io.BytesIO()
    first = doc.pages[0]
    # A TrueType initial font keeps reportlab from referencing its default Helvetica,
    # which would be a non-embedded font in the file.
    faces: list[FontRef] = sorted({item.font for page in doc.pages for item, _ in page_texts(page)},
                                  key=lambda face: str(face.path)) or [bundled_fonts().regular]
    initial = _register(faces[0])
    canvas = Canvas(
        buffer,
        pagesize=(first.width * PT_PER_MM, first.height * PT_PER_MM),
        initialFontName=initial,
        invariant=1,
        pageCompression=1,
        # No enforceColorSpace: reportlab's CMYK check turns every neutral CMYK colour
        # (rich black included) into plain K. _PdfPainter._color emits only the chosen space.
    )
    canvas.setTitle(doc.title)
    canvas.setSubject(doc.subject)
    canvas.setAuthor("cardgen")
    canvas.setCreator(f"cardgen {__version__}")
    painter = _PdfPainter(canvas, cmyk)
    for view in doc.views():
        painter.page(view.page, view.layers)
    canvas.save()
    return buffer.getvalue()


def _pdf_box(page: Page, box: Box) -> tuple[float, float, float, float]:
    k = PT_PER_MM
    return (box.x * k, (page.height - box.bottom) * k, box.right * k, (page.height - box.y) * k)


class _AlphaReader(ImageReader):
    """An image reader that attaches a separate alpha mask (reportlab only derives soft
    masks from RGBA/LA images, and print images are CMYK)."""

    def __init__(self, image: PILImage, alpha: PILImage) -> None:
        super().__init__(image)
        self._alpha = alpha

    def getRGBData(self) -> Any:
        data = super().getRGBData()
        self._dataA = ImageReader(self._alpha)
        return data


class _PathBuilder:
    """Path operations onto a reportlab path object."""

    def __init__(self, path: Any) -> None:
        self.p = path

    def move_to(self, x: float, y: float) -> None:
        self.p.moveTo(x, y)

    def line_to(self, x: float, y: float) -> None:
        self.p.lineTo(x, y)

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> None:
        self.p.curveTo(x1, y1, x2, y2, x, y)

    def close(self) -> None:
        self.p.close()


class _PdfPainter(Painter[None]):
    """Draws on a reportlab canvas whose user space is set to millimetres, y down."""

    def __init__(self, canvas: Canvas, cmyk: bool) -> None:
        self.canvas = canvas
        self.cmyk = cmyk

    def page(self, page: Page, layers: tuple[Layer, ...]) -> None:
        c = self.canvas
        c.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        c.setTrimBox(_pdf_box(page, page.trim))
        c.setBleedBox(_pdf_box(page, page.bleed))
        if self.cmyk:
            # Overprint mode 1: an overprinting CMYK colour leaves the plates where it
            # has 0 % untouched (without it, 100 % K would still knock out C, M and Y).
            c._setOverprintMask(True)
        # Work in millimetres with y down, like the model.
        c.transform(PT_PER_MM, 0, 0, -PT_PER_MM, 0, page.height * PT_PER_MM)
        for layer in layers:
            self.draw_all(layer.items, None)
        c.showPage()

    def rect(self, item: Rect, ctx: None) -> None:
        if self._paint(item.fill, item.stroke):
            self.canvas.rect(item.x, item.y, item.w, item.h,
                             stroke=int(item.stroke is not None), fill=int(item.fill is not None))

    def line(self, item: Line, ctx: None) -> None:
        self._paint(None, item.stroke)
        self.canvas.line(item.x1, item.y1, item.x2, item.y2)

    def path(self, item: Path, ctx: None) -> None:
        c = self.canvas
        self._paint(item.fill, item.stroke)
        p = c.beginPath()
        walk_path(item.ops, _PathBuilder(p))
        c.drawPath(p, stroke=int(item.stroke is not None), fill=int(item.fill is not None),
                   fillMode=0)

    def group(self, item: Group, ctx: None) -> None:
        c = self.canvas
        c.saveState()
        if not item.transform.is_identity:
            c.transform(*item.transform.as_tuple)
        if item.clip is not None:
            p = c.beginPath()
            p.rect(item.clip.x, item.clip.y, item.clip.w, item.clip.h)
            c.clipPath(p, stroke=0, fill=0)
        self.draw_all(item.items, None)
        c.restoreState()

    def _paint(self, fill: Color | None, stroke: Stroke | None) -> bool:
        c = self.canvas
        if fill is not None:
            c.setFillColor(self._color(fill))
            c._setFillOverprint(self.cmyk and fill.overprint)
        if stroke is not None:
            c.setStrokeColor(self._color(stroke.color))
            c._setStrokeOverprint(self.cmyk and stroke.color.overprint)
            c.setLineWidth(stroke.width)
            c.setLineCap(_CAPS[stroke.cap])
            c.setDash(list(stroke.dash) if stroke.dash else [], 0)
        return fill is not None or stroke is not None

    def _color(self, color: Color) -> RLColor:
        if not self.cmyk:
            r, g, b = color.rgb
            return RLColor(r / 255, g / 255, b / 255)
        if color.spot:
            return CMYKColorSep(*color.cmyk_fractions, spotName=color.spot, density=1)
        return CMYKColor(*color.cmyk_fractions)

    def text(self, item: Text, ctx: None) -> None:
        c = self.canvas
        c.saveState()
        c.translate(item.x, item.y)
        if item.rotation:
            c.rotate(item.rotation)
        c.scale(1, -1)
        self._paint(item.color, None)
        c.setFont(_register(item.font), pt(item.size))
        draw = {Anchor.START: c.drawString, Anchor.MIDDLE: c.drawCentredString,
                Anchor.END: c.drawRightString}
        draw[item.anchor](0, 0, item.text)
        c.restoreState()

    def image(self, item: Image, ctx: None) -> None:
        c = self.canvas
        raster = item.raster
        pixels = raster.cmyk if self.cmyk and raster.cmyk is not None else raster.rgb
        if self.cmyk and pixels.mode != "CMYK":
            pixels = pixels.convert("CMYK")
        if raster.alpha is not None:
            reader: ImageReader = _AlphaReader(pixels, raster.alpha)
        else:
            reader = ImageReader(pixels)
        c.saveState()
        c.translate(item.x, item.y + item.h)
        c.scale(1, -1)
        c.drawImage(reader, 0, 0, item.w, item.h, mask="auto" if raster.alpha is not None else None)
        c.restoreState()


def _register(face: FontRef) -> str:
    """Register a face with reportlab once; returns its registered name."""
    key = str(face.path)
    if key in _registered:
        return _registered[key]
    name = face.name
    taken = set(_registered.values())
    suffix = 1
    while name in taken:
        suffix += 1
        name = f"{face.name}-{suffix}"
    font = TTFont(name, io.BytesIO(face.truetype_bytes()))
    pdfmetrics.registerFont(font)
    _registered[key] = name
    return name
