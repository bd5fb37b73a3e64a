"""Reading produced PDF files back with tools independent of cardgen's own renderers:
PDFium (pypdfium2) rasterises pages the way a viewer or a RIP's preview would, and
pikepdf gives the objects and content streams as the file holds them."""

from __future__ import annotations

import io
import itertools
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

MM_PER_INCH = 25.4


def pdf_bytes(source: bytes | Path) -> bytes:
    return source if isinstance(source, bytes) else Path(source).read_bytes()


def page_count(source: bytes | Path) -> int:
    import pypdfium2 as pdfium

    return len(pdfium.PdfDocument(pdf_bytes(source)))


def render_page(source: bytes | Path, index: int = 0, dpi: float = 600,
                grey: bool = False) -> Image:
    """Page ``index`` of a PDF rendered by PDFium at ``dpi``: the whole media box, as an
    RGB (or greyscale) Pillow image, anti-aliased as a viewer shows it."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf_bytes(source))
    try:
        bitmap = document[index].render(scale=dpi / 72, grayscale=grey)
        return bitmap.to_pil().convert("L" if grey else "RGB")
    finally:
        document.close()


def mm_to_px(mm: float, dpi: float) -> int:
    """A page position in mm (from the top-left corner) as a pixel index at ``dpi``."""
    return round(mm * dpi / MM_PER_INCH)


def page_boxes(source: bytes | Path, index: int = 0) -> dict[str, tuple[float, ...]]:
    """The page's MediaBox, TrimBox and BleedBox as (x0, y0, x1, y1) in mm from the
    page's top-left corner, y down (the model's convention), read with pikepdf."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes(source))) as pdf:
        page = pdf.pages[index]
        height = float(page.MediaBox[3]) - float(page.MediaBox[1])
        boxes = {}
        for name in ("MediaBox", "TrimBox", "BleedBox"):
            x0, y0, x1, y1 = (float(v) for v in page.obj[f"/{name}"])
            k = MM_PER_INCH / 72
            boxes[name] = (x0 * k, (height - y1) * k, x1 * k, (height - y0) * k)
        return boxes


EDGES = ("top", "bottom", "left", "right")


def _strip(image: Image, edge: str, offset: float, trim: tuple[float, ...],
           dpi: float) -> Image:
    """A one-pixel strip along a trim edge, ``offset`` mm outward from it (negative:
    inward), as long as the edge."""
    x0, y0, x1, y1 = (mm_to_px(v, dpi) for v in trim)
    d = mm_to_px(abs(offset), dpi) * (1 if offset >= 0 else -1)
    if edge == "top":
        box = (x0, y0 - d - 1, x1, y0 - d)
    elif edge == "bottom":
        box = (x0, y1 + d, x1, y1 + d + 1)
    elif edge == "left":
        box = (x0 - d - 1, y0, x0 - d, y1)
    else:
        box = (x1 + d, y0, x1 + d + 1, y1)
    strip = image.crop(box)
    return strip


def _mismatch(a: Image, b: Image, shift: int, tolerance: int) -> float:
    """The share of pixels of strip ``a`` with no pixel of strip ``b`` within ``shift``
    pixels along the strip whose colour differs by at most ``tolerance`` in every
    channel (so a diagonal line that moves a little between the strips still matches)."""
    from PIL import Image as PILImage
    from PIL import ImageChops

    a = a.convert("RGB")
    b = b.convert("RGB")
    if a.height != 1:  # vertical strips: make them rows
        a = a.transpose(PILImage.Transpose.TRANSPOSE)
        b = b.transpose(PILImage.Transpose.TRANSPOSE)
    best = None
    for s in range(-shift, shift + 1):
        moved = ImageChops.offset(b, s, 0)
        r, g, bl = ImageChops.difference(a, moved).split()
        worst = ImageChops.lighter(ImageChops.lighter(r, g), bl)
        best = worst if best is None else ImageChops.darker(best, worst)
    assert best is not None
    histogram = best.histogram()
    return sum(histogram[tolerance + 1:]) / (a.width * a.height)


def bleed_continuity(image: Image, dpi: float, trim: tuple[float, ...],
                     bleed: tuple[float, ...], step: float = 0.25,
                     tolerance: int = 60) -> dict[str, float]:
    """For each trim edge, the worst change between neighbouring strips from 0.25 mm
    inside the trim out to just inside the bleed edge, ``step`` mm apart: near 0 when the
    art runs on unchanged through the bleed, large where it stops (at the trim, or
    anywhere before the bleed edge). Strips are compared allowing a lateral shift as large
    as the step, so diagonal lines and curves crossing the edge still match."""
    width = {"top": trim[1] - bleed[1], "bottom": bleed[3] - trim[3],
             "left": trim[0] - bleed[0], "right": bleed[2] - trim[2]}
    shift = max(1, mm_to_px(step, dpi))
    worst = {}
    for edge in EDGES:
        offsets = [-step]
        while offsets[-1] + step < width[edge] - 0.1:
            offsets.append(offsets[-1] + step)
        strips = [_strip(image, edge, o, trim, dpi) for o in offsets]
        worst[edge] = max(_mismatch(a, b, shift, tolerance)
                          for a, b in itertools.pairwise(strips))
    return worst
