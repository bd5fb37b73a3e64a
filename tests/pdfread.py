"""Reading produced PDF files back with tools independent of cardgen's own renderers:
PDFium (pypdfium2) rasterises pages the way a viewer or a RIP's preview would, and
pikepdf gives the objects and content streams as the file holds them."""

from __future__ import annotations

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
