"""How large the type of a produced PDF is on the page: every glyph's size in points as
it prints, read by two independent readers, PDFium and pdfminer.six (the reader inside
pdfplumber), that the tests check against each other.

PDFium (:func:`glyphs`) gives each character's font size (``FPDFText_GetFontSize``) and
its matrix; the printed size is the font size times the length of the matrix's vertical
vector. It reads a 50-page book in a fifth of a second, so it is the measure every
product goes through.

pdfminer (:func:`pdfminer_glyphs`) is slower (pure Python: a 50-page book takes it a
second, three times that through pdfplumber's dictionaries) and is the check on the
measure. Its own ``size`` of a character (pdfplumber's ``size``) is the height of its box
on the page, which is the type size only for upright, unscaled text: a letter turned a
quarter (a row label along a grid turned 90°) reports its advance width instead, and text
drawn inside a scaled group (cardgen draws in millimetres) reports its size only through
the text matrix. :func:`glyph_size` therefore takes the character's text-space box (its
advance and its font size, which pdfminer builds the box from) and the text rendering
matrix, and gives the length of the em square's vertical side on the page: the size a
reader sees, whatever the rotation or scale. :func:`page_minima` of the two readers must
agree page by page (``tests/test_type_size.py``).
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

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


def glyph_size(matrix: tuple[float, ...], adv: float, width: float, height: float) -> float:
    """The printed type size (pt) of a pdfminer character (its text matrix, advance and
    box on the page), whatever its matrix.

    pdfminer sets the character's box in text space from (0, descent) to (adv, descent +
    fontsize) and maps it by the matrix (a, b, c, d); the box on the page is that
    parallelogram's bounding box, so its width is |a|·adv + |c|·fontsize and its height
    |b|·adv + |d|·fontsize. ``adv`` is known: solve for the font size, then scale it by
    the length of the matrix's vertical vector."""
    a, b, c, d, _, _ = matrix
    if abs(d) >= abs(c):
        fontsize = (height - abs(b) * adv) / abs(d)
    else:
        fontsize = (width - abs(a) * adv) / abs(c)
    return fontsize * math.hypot(c, d)


def pdfminer_glyphs(source: bytes | Path, *, text_only: bool = True) -> list[Glyph]:
    """Every visible character of a PDF (spaces left out), with its printed size, as
    pdfminer reads it (the characters pdfplumber's ``page.chars`` are made from, without
    the layout analysis and the dictionaries: the same figures in a third of the time),
    from the file's type alone (:func:`_text_only`) unless ``text_only`` is False."""
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LTChar, LTContainer
    from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdftypes import resolve1

    class Characters(PDFPageAggregator):
        """Keeps the characters; paths and images are not read."""

        def paint_path(self, *args: object, **kwargs: object) -> None:
            pass

        def render_image(self, *args: object, **kwargs: object) -> None:
            pass

    resources = PDFResourceManager(caching=True)
    device = Characters(resources, laparams=None)
    interpreter = PDFPageInterpreter(resources, device)
    out = []
    data = _text_only(source) if text_only else pdf_bytes(source)
    for number, page in enumerate(PDFPage.get_pages(io.BytesIO(data)), 1):
        interpreter.process_page(page)
        trim = resolve1(page.attrs.get("TrimBox"))
        x0, y0, x1, y1 = (float(v) for v in trim) if trim else page.cropbox
        height = page.mediabox[3] - page.mediabox[1]
        containers = [device.get_result()]
        while containers:
            for item in containers.pop():
                if isinstance(item, LTContainer):
                    containers.append(item)
                if not isinstance(item, LTChar) or not item.get_text().strip():
                    continue
                cx, cy = (item.x0 + item.x1) / 2, (item.y0 + item.y1) / 2
                out.append(Glyph(glyph_size(item.matrix, item.adv, item.width, item.height),
                                 number, item.get_text(), item.x0, height - item.y1,
                                 x0 <= cx <= x1 and y0 <= cy <= y1))
    return out


# Every operator that places or sizes type (the graphics state stack, the matrix, the
# text objects, the text state, the show operators) and the two that may bring more of it
# (a graphics state can set the font; a form XObject holds its own content).
TEXT_OPERATORS = "q Q cm gs Do BT ET Tf Tm Td TD T* TL Tc Tw Tz Ts Tr Tj TJ ' \""


def _text_only(source: bytes | Path) -> bytes:
    """The PDF with each page's content stream cut down to :data:`TEXT_OPERATORS`, for
    pdfminer: paths, colours and clips (seven tokens in ten of a cardgen page) do not
    change where a glyph is or how large, and pdfminer, in pure Python, spends most of
    its time reading tokens; cut out (by pikepdf, a third reader) they halve its time.
    Each glyph pdfminer reads is the same, position and size, as from the whole file."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes(source))) as pdf:
        for page in pdf.pages:
            kept = pikepdf.parse_content_stream(page, TEXT_OPERATORS)
            page.obj.Contents = pdf.make_stream(pikepdf.unparse_content_stream(kept))
        out = io.BytesIO()
        pdf.save(out, compress_streams=False)
        return out.getvalue()


def glyphs(source: bytes | Path) -> list[Glyph]:
    """Every visible character of a PDF (spaces left out), with its printed size, as
    PDFium reads it: the font size it reports times the vertical scale of the
    character's matrix; placed by its loose box (the font's box, as pdfminer's)."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    out = []
    document = pdfium.PdfDocument(pdf_bytes(source))
    try:
        for index in range(len(document)):
            page = document[index]
            x0, y0, x1, y1 = page.get_trimbox()
            height = page.get_height()
            textpage = page.get_textpage()
            m, box = raw.FS_MATRIX(), raw.FS_RECTF()
            for i in range(textpage.count_chars()):
                text = chr(raw.FPDFText_GetUnicode(textpage, i))
                if not text.strip():
                    continue
                raw.FPDFText_GetMatrix(textpage, i, m)
                size = raw.FPDFText_GetFontSize(textpage, i) * math.hypot(m.c, m.d)
                raw.FPDFText_GetLooseCharBox(textpage, i, ctypes.byref(box))
                cx, cy = (box.left + box.right) / 2, (box.top + box.bottom) / 2
                out.append(Glyph(size, index + 1, text, box.left, height - box.top,
                                 x0 <= cx <= x1 and y0 <= cy <= y1))
            textpage.close()
            page.close()
    finally:
        document.close()
    return out


def least(found: list[Glyph]) -> Glyph:
    """The smallest of some glyphs (the first on the page of those alike)."""
    assert found, "no text in the PDF"
    return min(found, key=lambda g: (g.size, g.page, g.top, g.x))


def smallest(source: bytes | Path, *, in_trim: bool | None = None) -> Glyph:
    """The smallest glyph of a PDF (of those inside, or outside, the trim box), as
    PDFium reads it."""
    return least([g for g in glyphs(source) if in_trim is None or g.in_trim is in_trim])


def page_count(source: bytes | Path) -> int:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf_bytes(source))
    try:
        return len(document)
    finally:
        document.close()


def page_minima(found: list[Glyph], pages: int) -> list[float]:
    """Each page's smallest glyph size (inf for a page without text)."""
    minima = [math.inf] * pages
    for g in found:
        minima[g.page - 1] = min(minima[g.page - 1], g.size)
    return minima


def page_texts(source: bytes | Path) -> list[str]:
    """Each page's text as PDFium reads it."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf_bytes(source))
    try:
        texts = []
        for index in range(len(document)):
            textpage = document[index].get_textpage()
            texts.append(textpage.get_text_range())
            textpage.close()
        return texts
    finally:
        document.close()
