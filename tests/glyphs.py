"""How large the type of a produced PDF is on the page: every glyph's size in points as
it prints, read back with pdfplumber and checked against PDFium.

pdfplumber's own ``size`` of a character is the height of its box on the page, which is
the type size only for upright, unscaled text: a letter turned a quarter (a row label
along a grid turned 90°) reports its advance width instead, and text drawn inside a
scaled group (cardgen draws in millimetres) reports its size only through the text
matrix. :func:`glyph_size` therefore takes the character's text-space box (its advance
and its font size, which pdfminer builds the box from) and the text rendering matrix,
and gives the length of the em square's vertical side on the page: the size a reader
sees, whatever the rotation or scale. :func:`pdfium_sizes` gives the same figure from
PDFium (``FPDFText_GetFontSize`` times the matrix's vertical scale), an independent
reader, so that the tests can check the two agree.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.pdfops import pdf_bytes


@dataclass(frozen=True)
class Glyph:
    """One character shown on a page: its size on the page (pt), where it is (pt from
    the page's top-left corner) and whether it lies inside the trim box."""

    size: float
    page: int  # 1-based
    text: str
    x: float
    top: float
    in_trim: bool


def glyph_size(char: dict[str, Any]) -> float:
    """The printed type size (pt) of a pdfplumber character, whatever its matrix.

    pdfminer sets the character's box in text space from (0, descent) to (adv, descent +
    fontsize) and maps it by the matrix (a, b, c, d); the box on the page is that
    parallelogram's bounding box, so its width is |a|·adv + |c|·fontsize and its height
    |b|·adv + |d|·fontsize. ``adv`` is known: solve for the font size, then scale it by
    the length of the matrix's vertical vector."""
    a, b, c, d, _, _ = char["matrix"]
    adv = char["adv"]
    if abs(d) >= abs(c):
        fontsize = ((char["bottom"] - char["top"]) - abs(b) * adv) / abs(d)
    else:
        fontsize = ((char["x1"] - char["x0"]) - abs(a) * adv) / abs(c)
    return fontsize * math.hypot(c, d)


def glyphs(source: bytes | Path) -> list[Glyph]:
    """Every visible character of a PDF (spaces left out), with its printed size."""
    import pdfplumber

    out = []
    with pdfplumber.open(io.BytesIO(pdf_bytes(source))) as pdf:
        for number, page in enumerate(pdf.pages, 1):
            x0, y0, x1, y1 = page.trimbox
            height = page.height
            for char in page.chars:
                if not char["text"].strip():
                    continue
                cx = (char["x0"] + char["x1"]) / 2
                cy = height - (char["top"] + char["bottom"]) / 2
                out.append(Glyph(glyph_size(char), number, char["text"], char["x0"],
                                 char["top"], x0 <= cx <= x1 and y0 <= cy <= y1))
    return out


def smallest(source: bytes | Path, *, in_trim: bool | None = None) -> Glyph:
    """The smallest glyph of a PDF (of those inside, or outside, the trim box)."""
    found = [g for g in glyphs(source) if in_trim is None or g.in_trim is in_trim]
    assert found, "no text in the PDF"
    return min(found, key=lambda g: (g.size, g.page, g.top, g.x))


def pdfium_sizes(source: bytes | Path) -> list[float]:
    """Each page's smallest printed glyph size (pt) as PDFium reads it, spaces left out
    (PDFium's own reader of the text: the font size it reports times the vertical scale
    of the character's matrix)."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(pdf_bytes(source))
    try:
        out = []
        for index in range(len(document)):
            textpage = document[index].get_textpage()
            sizes = []
            for i in range(textpage.count_chars()):
                if not chr(raw.FPDFText_GetUnicode(textpage, i)).strip():
                    continue
                m = raw.FS_MATRIX()
                raw.FPDFText_GetMatrix(textpage, i, m)
                sizes.append(raw.FPDFText_GetFontSize(textpage, i) * math.hypot(m.c, m.d))
            out.append(min(sizes, default=math.inf))
            textpage.close()
        return out
    finally:
        document.close()


def pdfplumber_page_minima(source: bytes | Path) -> list[float]:
    """Each page's smallest glyph size from :func:`glyphs` (inf for a page without
    text), to compare with :func:`pdfium_sizes`."""
    import pdfplumber

    with pdfplumber.open(io.BytesIO(pdf_bytes(source))) as pdf:
        pages = len(pdf.pages)
    minima = [math.inf] * pages
    for g in glyphs(source):
        minima[g.page - 1] = min(minima[g.page - 1], g.size)
    return minima
