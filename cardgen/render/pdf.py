"""PDF output through reportlab.

One PDF page per page of the document, with its page boxes. Colours are CMYK unless
``cmyk=False``; spot colours become Separation colour spaces. An RGB PDF is a preview: it
leaves out print-only layers (a spot varnish).

**Overprint.** A colour marked to overprint does so only where overprinting cannot make
it vanish: solid black (100 % K and no other ink, the ink rule's small type and thin
lines) and spot colours (the marks, the dieline, the varnish), on their own plates. Any
other colour knocks out, whatever it is marked: a white or light fill that overprints
changes nothing on press. Fill and stroke overprint are set apart, for each painting
operation: every ``gs`` cardgen writes is one of four graphics states that each say all
three keys, ``/OP`` (stroke), ``/op`` (fill) and ``/OPM 1`` (overprint mode 1: solid
black leaves the C, M and Y plates beneath it as they are). A state that left ``/op`` out
would give fill overprint the value of ``/OP`` (ISO 32000-1, table 58), so a box stroked in
overprinting black would overprint its white fill too.

**File identity.** The trailer's ``/ID`` (both halves, as for a newly made file) is a
digest of everything else in the file, written with a fixed placeholder first: two
files have the same ID exactly when their bytes are the same, and the same input always
gives the same bytes.

**PDF/X-1a.** A CMYK document that names an output intent (the printing condition
its colours are prepared for) is written as the PDF/X standard it names
(``Document.standard``: PDF/X-1a:2001 unless a print target says PDF/X-1a:2003): the
standard's PDF version (1.3; 1.4 for a 2003 file), an ``/OutputIntents``
entry of subtype ``GTS_PDFX`` naming the registered condition, ``GTS_PDFXVersion`` (and
for 2001 ``GTS_PDFXConformance``) in the document information with ``Trapped /False``, a document
ID, a TrimBox and a BleedBox on every page, every font embedded, only DeviceCMYK and
Separation colours, and no transparency of any kind. An RGB document is never labelled
PDF/X.

**Font subsets** are named with a tag derived from the font and the glyphs in the subset
(``QWERTY+SourceSans3-Regular``), so two files with different subsets of one font never
share a subset name, and the same subset always has the same name. reportlab knows each
font by a digest of its bytes (``_register``), so what a process rendered before never
changes a file, and two different fonts of one PostScript name are both embedded.

Images are image XObjects that cardgen writes itself (reportlab's only know colour-key
masks and soft masks): 8-bit colour, Flate-compressed, and a raster's stencil mask as the
image's explicit ``/Mask``, an ``/ImageMask true`` stream of 1 bit a pixel (PDF 1.3
explicit masking). No soft mask, transparency group or opacity below 1 is ever written:
print files may hold no live transparency (PDF/X-1a).
"""

from __future__ import annotations

import hashlib
import io
import struct
import zlib
from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from reportlab.lib.colors import CMYKColor, CMYKColorSep
from reportlab.lib.colors import Color as RLColor
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfbase.pdfdoc import PDFArray, PDFName, PDFObject, PDFStream
from reportlab.pdfbase.ttfonts import TTEncoding, TTFont, TTFontFace
from reportlab.pdfgen.canvas import Canvas

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import (
    Anchor,
    Bookmark,
    Document,
    FontRef,
    Group,
    Image,
    Layer,
    Line,
    LineCap,
    OutputIntent,
    Page,
    Path,
    PdfStandard,
    Rect,
    Stroke,
    Text,
    View,
    page_texts,
)
from cardgen.render.base import Painter, walk_path
from cardgen.render.pdfcodec import PURE_PYTHON, fast_reportlab, fp_str
from cardgen.text.fonts import bundled_fonts
from cardgen.units import PT_PER_MM, pt
from cardgen.version import __version__

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

# The trailer's /ID as reportlab is given it, until the file's digest replaces it.
_ID_PLACEHOLDER = b"[<" + b"0" * 32 + b"><" + b"0" * 32 + b">]"
_CAPS = {LineCap.BUTT: 0, LineCap.ROUND: 1, LineCap.SQUARE: 2}
# Font bytes -> the name reportlab knows them by (see _register).
_registered: dict[bytes, str] = {}


def render_pdf(doc: Document, *, cmyk: bool = True) -> bytes:
    """The document as PDF bytes (byte-identical for identical input): the PDF/X standard
    of ``doc.standard`` (PDF/X-1a:2001 unless it says otherwise) when ``cmyk`` and the
    document names an output intent, else a plain PDF 1.3. reportlab
    formats numbers and encodes pages with the faster, identical encoders of
    :mod:`cardgen.render.pdfcodec`."""
    with fast_reportlab():
        return _render_pdf(doc, cmyk)


def _render_pdf(doc: Document, cmyk: bool) -> bytes:
    faces = {item.font for page in doc.pages for item, _ in page_texts(page)}
    writer = PdfWriter(doc.pages[0], title=doc.title, subject=doc.subject,
                       output_intent=doc.output_intent, standard=doc.standard, faces=faces,
                       cmyk=cmyk)
    for index, view in enumerate(doc.views(preview=not cmyk)):
        writer.view(view, [(n, mark) for n, mark in enumerate(doc.bookmarks)
                           if mark.page == index])
    return writer.close(doc.bookmarks)


class PdfWriter:
    """A PDF drawn a page at a time (what :func:`render_pdf` does for a whole document):
    a document whose pages are made as they are drawn, and dropped once drawn, keeps
    only the PDF's own objects in memory (each page's content is compressed as soon as
    the page is drawn). Call it inside :func:`~cardgen.render.pdfcodec.fast_reportlab`
    (:func:`render_pdf` does, :func:`cardgen.render.pdf_pages` too).

    ``first`` is the first page (its size starts the file); ``faces`` every font face the
    document's texts use, which must be known before the first page: the PDF's first
    font is chosen among them (:meth:`keeps_first_font` says whether a page's faces leave
    that choice as it is). ``page``/``view`` draw the pages in order; ``close`` gives the
    bytes, the same as :func:`render_pdf` gives for a document of the same pages."""

    def __init__(self, first: Page, *, title: str, subject: str,
                 output_intent: OutputIntent | None, standard: PdfStandard,
                 faces: Collection[FontRef], cmyk: bool) -> None:
        # A TrueType initial font keeps reportlab from referencing its default Helvetica,
        # which would be a non-embedded font in the file.
        self.faced = bool(faces)
        self.first_face = _initial_face(set(faces)) if faces else bundled_fonts().regular
        initial = _register(self.first_face)
        self.cmyk = cmyk
        pdfx = cmyk and output_intent is not None
        canvas = self.canvas = _Canvas(
            io.BytesIO(),  # (never written: close() asks for the bytes)
            pagesize=(first.width * PT_PER_MM, first.height * PT_PER_MM),
            initialFontName=initial,
            invariant=1,
            pageCompression=1,
            pdfVersion=standard.version if pdfx else (1, 3),
            # No enforceColorSpace: reportlab's CMYK check turns every neutral CMYK colour
            # (rich black included) into plain K. _PdfPainter._color emits only the chosen
            # space.
        )
        if pdfx and output_intent is not None:
            _declare_pdfx(canvas, output_intent, standard)
        canvas.setTitle(title)
        canvas.setSubject(subject)
        canvas.setAuthor("cardgen")
        canvas.setCreator(f"cardgen {__version__}")
        self.painter = _PdfPainter(canvas, cmyk)

    def keeps_first_font(self, faces: Iterable[FontRef]) -> bool:
        """Whether pages with these faces leave the file's first font as chosen (else the
        file would not be what :func:`render_pdf` makes of the whole document)."""
        if not self.faced:  # (then the first font is one that no text uses)
            return not any(True for _ in faces)
        first = _face_order(self.first_face)
        return all(_face_order(face) >= first for face in faces)

    def page(self, page: Page) -> None:
        """Draw the next page (a print file draws every layer, a preview leaves out the
        print-only ones, as :meth:`Document.views` does)."""
        self.view(View(page.name, page, tuple(
            layer for layer in page.layers if self.cmyk or not layer.print_only)))

    def view(self, view: View, bookmarks: list[tuple[int, Bookmark]] | None = None) -> None:
        self.painter.page(view.page, view.layers, bookmarks)

    def close(self, bookmarks: Sequence[Bookmark] = ()) -> bytes:
        """The file, with the document's outline (``bookmarks``)."""
        canvas = self.canvas
        for n, mark in enumerate(bookmarks):
            canvas.addOutlineEntry(mark.title, f"bookmark{n}", mark.level,
                                   closed=mark.level > 0)
        if bookmarks:
            canvas.showOutline()
        # reportlab's invariant ID is a digest of the title, author, subject and keywords
        # only, so every file of one document title would share it.
        canvas._doc._ID = b"\n" + _ID_PLACEHOLDER + b"\n"
        document = canvas._doc
        canvas.getpdfdata()  # (what save() writes, into document.written: see _Document)
        del self.canvas, self.painter
        return _with_content_id(document.written)


# The end of a file that holds its trailer (reportlab's trailer is a few hundred bytes).
_TAIL = 1 << 16


def _with_content_id(written: io.BytesIO) -> bytes:
    """The file with the placeholder ``/ID`` in its trailer replaced by a digest of the
    whole file as written with the placeholder (same length, so no offset moves). The
    ID is written into the buffer in place, whose bytes become the file's: a large file
    is never copied."""
    with written.getbuffer() as view:
        start = max(0, len(view) - _TAIL)
        tail = bytes(view[start:])
        at = start + tail.index(_ID_PLACEHOLDER, tail.rindex(b"trailer"))
        digest = hashlib.sha256(view).hexdigest()[:32].upper().encode()
        view[at:at + len(_ID_PLACEHOLDER)] = b"[<" + digest + b"><" + digest + b">]"
    return written.getvalue()


def may_overprint(color: Color) -> bool:
    """Whether a colour may overprint where it is marked to: solid black (100 % K, no
    other ink) and spot colours only (see the module's *Overprint*)."""
    return color.spot is not None or (color.c, color.m, color.y, color.k) == (0, 0, 0, 1)


def _overprint_state(stroke: bool, fill: bool) -> tuple[str, pdfdoc.PDFDictionary]:
    """The resource name and the ExtGState of one combination of stroke and fill
    overprint, every key written out."""
    flag = {True: "true", False: "false"}
    return f"OP{int(stroke)}{int(fill)}", pdfdoc.PDFDictionary({
        "Type": PDFName("ExtGState"), "OP": flag[stroke], "op": flag[fill], "OPM": 1})


class _Canvas(Canvas):
    """reportlab's canvas, with overprint set as :meth:`set_overprint` does it instead
    of reportlab's one-key graphics states (``/OP true`` alone), which also turn fill
    overprint on. The overprint in force is part of the graphics state that ``q`` saves
    and ``Q`` restores; each page's resources name the states it uses."""

    STATE_ATTRIBUTES: ClassVar[list[str]] = [*Canvas.STATE_ATTRIBUTES, "_overprint"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._overprint = (False, False)
        self._overprint_states: dict[str, pdfdoc.PDFDictionary] = {}
        super().__init__(*args, **kwargs)
        # The document reportlab made, as a _Document: its file is written into
        # ``_doc.written`` (PdfWriter.close reads it there; save() would write nothing).
        self._doc.__class__ = _Document

    def init_graphics_state(self) -> None:
        super().init_graphics_state()
        self._overprint = (False, False)  # a page starts with neither (PDF's default)

    def _startPage(self) -> None:
        super()._startPage()
        self._overprint_states = {}

    def showPage(self) -> None:
        super().showPage()
        page = self._doc.Pages.pages[-1]
        if page.compression and page.stream and not page.Contents:
            page.Contents = _EncodedStream(page.stream)
            page.stream = None

    @property
    def overprint(self) -> tuple[bool, bool]:
        """Stroke and fill overprint in force."""
        return self._overprint

    def set_overprint(self, stroke: bool, fill: bool) -> None:
        """Stroke and fill overprint from here on (in the current ``q`` level)."""
        if (stroke, fill) == self._overprint:
            return
        self._overprint = (stroke, fill)
        name, state = _overprint_state(stroke, fill)
        self._overprint_states[name] = state
        self._code.append(f"/{name} gs")

    def _setExtGState(self, obj: Any) -> None:
        super()._setExtGState(obj)
        if self._overprint_states:
            states = dict(obj.ExtGState.dict) if obj.ExtGState else {}
            states.update(sorted(self._overprint_states.items()))
            obj.ExtGState = pdfdoc.PDFDictionary(states)


class _Document(pdfdoc.PDFDocument):
    """reportlab's document, whose file is written into one buffer (``written``) as its
    objects are formatted, rather than kept as a list of pieces and joined at the end
    (two copies of the file at once, then more to write it out): the same bytes.

    reportlab's ``format`` makes the file's collector (a ``PDFFile``) and hands it to
    the document as ``__accum__`` before it formats the first object; the collector's
    ``write`` is pointed at the buffer there (``format`` then joins no pieces and
    returns ``b""``)."""

    written: io.BytesIO

    @property
    def __accum__(self) -> Any:
        return self._collector

    @__accum__.setter
    def __accum__(self, collector: Any) -> None:
        self._collector = collector
        self.written = io.BytesIO()
        for piece in collector.strings:  # (the header, so far)
            self.written.write(piece)
        collector.strings.clear()
        collector.write = self.written.write

    @__accum__.deleter
    def __accum__(self) -> None:
        del self._collector


class _EncodedStream(PDFStream):
    """A page's content stream, compressed when the page is drawn rather than when the
    file is written (reportlab keeps every page's content as text until then): the same
    filters in the same order, so the same bytes, and the compressed bytes are let go
    once written into the file."""

    def __init__(self, text: str) -> None:
        filters = ([pdfdoc.PDFBase85Encode, pdfdoc.PDFZCompress]
                   if pdfdoc.rl_config.useA85 else [pdfdoc.PDFZCompress])
        content: Any = text
        for step in reversed(filters):
            content = step.encode(content)
        super().__init__(content=content)
        self.dictionary["Filter"] = PDFArray([PDFName(step.pdfname) for step in filters])
        self.__Comment__ = "page stream"

    def format(self, document: Any) -> bytes:
        formatted: bytes = super().format(document)
        self.content = None  # (formatted once, as the file is written)
        return formatted


def _declare_pdfx(canvas: Canvas, intent: OutputIntent, standard: PdfStandard) -> None:
    """Make the file declare ``standard`` for ``intent``: the output intent in the
    catalogue, the version keys in the document information."""
    document = canvas._doc
    document.info = _PdfXInfo(document.info, standard)
    catalog = document.Catalog
    catalog.OutputIntents = pdfdoc.PDFArray([pdfdoc.PDFDictionary({
        "Type": pdfdoc.PDFName("OutputIntent"),
        "S": pdfdoc.PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": pdfdoc.PDFString(intent.identifier),
        "OutputCondition": pdfdoc.PDFString(intent.condition),
        "RegistryName": pdfdoc.PDFString(intent.registry),
        "Info": pdfdoc.PDFString(intent.condition),
    })])
    # reportlab writes the catalogue entries listed here; this one only for this file.
    catalog.__NoDefault__ = [*type(catalog).__NoDefault__, "OutputIntents"]


class _PdfXInfo(pdfdoc.PDFInfo):
    """reportlab's document information with the PDF/X identification added."""

    def __init__(self, base: Any, standard: PdfStandard) -> None:
        super().__init__()
        self.__dict__.update(base.__dict__)
        self.standard = standard

    def format(self, document: Any) -> bytes:
        date = pdfdoc.PDFDate(ts=document._timeStamp, dateFormatter=self._dateFormatter)
        entries = {
            "Title": pdfdoc.PDFString(self.title),
            "Author": pdfdoc.PDFString(self.author),
            "Subject": pdfdoc.PDFString(self.subject),
            "Keywords": pdfdoc.PDFString(self.keywords),
            "Creator": pdfdoc.PDFString(self.creator),
            "Producer": pdfdoc.PDFString(self.producer),
            "CreationDate": date,
            "ModDate": date,
            "Trapped": pdfdoc.PDFName("False"),  # cardgen does no trapping
            "GTS_PDFXVersion": pdfdoc.PDFString(self.standard.pdfx_version),
        }
        if self.standard.pdfx_conformance is not None:
            entries["GTS_PDFXConformance"] = pdfdoc.PDFString(self.standard.pdfx_conformance)
        formatted: bytes = pdfdoc.PDFDictionary(entries).format(document)
        return formatted


def _pdf_box(page: Page, box: Box) -> tuple[float, float, float, float]:
    k = PT_PER_MM
    return (box.x * k, (page.height - box.bottom) * k, box.right * k, (page.height - box.y) * k)


class _ImageStream(PDFObject):
    """An image XObject written exactly as given: its dictionary entries (besides the
    stream's own) and its raw samples, which are Flate-compressed here."""

    def __init__(self, entries: dict[str, Any], samples: bytes) -> None:
        self.entries = entries
        self.content = zlib.compress(samples, 6)  # 9 is several times slower on photos

    def format(self, document: Any) -> bytes:
        stream = PDFStream(content=self.content)
        entries = stream.dictionary
        entries["Type"] = PDFName("XObject")
        entries["Subtype"] = PDFName("Image")
        for key, value in self.entries.items():
            entries[key] = value
        entries["Filter"] = PDFArray([PDFName("FlateDecode")])
        result: bytes = stream.format(document)
        return result


def _stencil_samples(mask: PILImage) -> bytes:
    """A mask (mode ``"1"``, white = printed) as ``/ImageMask`` samples: rows of bits,
    each row padded to whole bytes, where 0 paints and 1 leaves the page as it is (the
    default ``/Decode [0 1]``)."""
    from PIL import ImageChops

    return ImageChops.invert(mask.convert("1")).tobytes()


class _PathBuilder:
    """Path operations onto a reportlab path object: the code its ``moveTo``, ``lineTo``,
    ``curveTo`` and ``close`` add (``"x y m"``, ``"x y l"``, ``"… c"``, ``"h"``), added
    here directly with :func:`pdfcodec.fp_str` (through the object's own ``_code_append``,
    which starts the path and checks that it starts with a move)."""

    def __init__(self, path: Any) -> None:
        self.p = path

    def move_to(self, x: float, y: float) -> None:
        self.p._code_append(fp_str(x, y) + " m")

    def line_to(self, x: float, y: float) -> None:
        self.p._code_append(fp_str(x, y) + " l")

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> None:
        self.p._code_append(fp_str(x1, y1, x2, y2, x, y) + " c")

    def close(self) -> None:
        self.p._code_append("h")


class _PdfPainter(Painter[None]):
    """Draws on a reportlab canvas whose user space is set to millimetres, y down."""

    def __init__(self, canvas: _Canvas, cmyk: bool) -> None:
        self.canvas = canvas
        self.cmyk = cmyk

    def page(self, page: Page, layers: tuple[Layer, ...],
             bookmarks: list[tuple[int, Bookmark]] | None = None) -> None:
        c = self.canvas
        for n, mark in bookmarks or []:
            c.bookmarkPage(f"bookmark{n}", fit="XYZ", left=0,
                           top=(page.height - mark.y) * PT_PER_MM)
        c.setPageSize((page.width * PT_PER_MM, page.height * PT_PER_MM))
        c.setTrimBox(_pdf_box(page, page.trim))
        c.setBleedBox(_pdf_box(page, page.bleed))
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
        """Set the colours, overprint and line of one painting operation; whether it
        paints at all. The overprint of the half it does not use stays as it was."""
        c = self.canvas
        if fill is not None:
            c.setFillColor(self._color(fill))
        if stroke is not None:
            c.setStrokeColor(self._color(stroke.color))
            c.setLineWidth(stroke.width)
            c.setLineCap(_CAPS[stroke.cap])
            c.setDash(list(stroke.dash) if stroke.dash else [], 0)
        if self.cmyk:
            was_stroke, was_fill = c.overprint
            c.set_overprint(was_stroke if stroke is None else self._overprints(stroke.color),
                            was_fill if fill is None else self._overprints(fill))
        return fill is not None or stroke is not None

    @staticmethod
    def _overprints(color: Color) -> bool:
        return color.overprint and may_overprint(color)

    def _color(self, color: Color) -> RLColor:
        # alpha=None: reportlab would otherwise set an opacity (of 1) with every colour,
        # which marks the file as using transparency (PDF 1.4).
        if not self.cmyk:
            r, g, b = color.rgb
            return RLColor(r / 255, g / 255, b / 255, alpha=None)
        if color.spot:
            return CMYKColorSep(*color.cmyk_fractions, spotName=color.spot, density=1,
                                alpha=None)
        return CMYKColor(*color.cmyk_fractions, alpha=None)

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
        pixels = pixels.convert("CMYK" if self.cmyk else "RGB")
        name = self._image_xobject(pixels, raster.mask)
        c.saveState()
        if self.cmyk:  # an image is painted like a fill: it never overprints
            c.set_overprint(c.overprint[0], False)
        # An image fills the unit square of its space; the model's y runs down.
        c.translate(item.x, item.y + item.h)
        c.scale(item.w, -item.h)
        c._code.append(f"/{name} Do")
        c.restoreState()

    def _image_xobject(self, pixels: PILImage, mask: PILImage | None) -> str:
        """The resource name of an image XObject for ``pixels`` (and its stencil mask),
        written on first use and shared by every later use with the same content; the
        name is a digest of the content, so output stays byte-identical."""
        c = self.canvas
        doc = c._doc
        samples = pixels.tobytes()
        digest = hashlib.sha1(f"{pixels.mode} {pixels.size}".encode())
        digest.update(samples)
        stencil = b""
        if mask is not None:
            stencil = _stencil_samples(mask)
            digest.update(f"mask {mask.size}".encode())
            digest.update(stencil)
        key = f"img{digest.hexdigest()[:24]}"
        name = doc.getXObjectName(key)
        if name not in doc.idToObject:
            entries: dict[str, Any] = {
                "Width": pixels.width, "Height": pixels.height, "BitsPerComponent": 8,
                "ColorSpace": PDFName("DeviceCMYK" if pixels.mode == "CMYK" else "DeviceRGB"),
            }
            if mask is not None:
                entries["Mask"] = doc.Reference(_ImageStream(
                    {"Width": mask.width, "Height": mask.height, "ImageMask": "true",
                     "BitsPerComponent": 1}, stencil), doc.getXObjectName(f"{key}m"))
            doc.Reference(_ImageStream(entries, samples), name)
        c._currentPageHasImages = 1
        c._formsinuse.append(key)
        return str(name)


def _register(face: FontRef) -> str:
    """The name a face is registered under with reportlab (registered on first use): a
    digest of the font's bytes, so that identical files share one registration, different
    files never share one, and nothing a process rendered before changes the name.

    The name never reaches the file: reportlab names a document's fonts /F1, /F2, … in
    the order that document first uses them, ``BaseFont`` is the subset tag (a digest of
    the font and the subset's characters, :func:`subset_tag`) with the font's own
    PostScript name, and the initial font is chosen by :func:`_initial_face`."""
    data = face.truetype_bytes()
    name = _registered.get(data)
    if name is None:
        digest = hashlib.sha256(data).digest()
        name = f"cardgen-{digest.hex()[:32]}"
        font = _TaggedTTFont(name, io.BytesIO(data))
        font.content_digest = digest
        pdfmetrics.registerFont(font)
        if pdfmetrics.getFont(name) is not font:
            # reportlab gives a font whose face has the PostScript name of one registered
            # before that earlier font object (its outlines, widths and subsets): two user
            # fonts of one name would both print as the first.
            pdfmetrics._fonts[name] = font
        _registered[data] = name
    return name


def _initial_face(faces: set[FontRef]) -> FontRef:
    """The document's initial font (reportlab's first, /F1): the face first by PostScript
    name, then by content. It depends on the document's fonts only (not on where their
    files are); for the bundled family it is the face first by file name."""
    return min(faces, key=_face_order)


def _face_order(face: FontRef) -> tuple[str, str]:
    return face.name, _register(face)


def subset_tag(font_digest: bytes, codepoints: list[int]) -> str:
    """Six capital letters that identify a subset by its content: the font file's digest
    and the characters in the subset, in subset order."""
    digest = hashlib.sha256(font_digest + ",".join(map(str, codepoints)).encode()).digest()
    return "".join(chr(ord("A") + b % 26) for b in digest[:6])


class _TaggedTTFont(TTFont):
    """A TrueType font whose subsets are tagged by :func:`subset_tag` rather than
    reportlab's AAAAAA+, AAAAAB+, … by position, and whose text widths (which place
    centred and right-aligned text) are reportlab's pure-Python sum also when its C
    accelerator is installed, which rounds some widths differently in the last place."""

    content_digest = b""
    stringWidth = PURE_PYTHON["instanceStringWidthTTF"]

    def __init__(self, name: str, filename: Any) -> None:
        # reportlab's TTFont.__init__ (defaults: no checksum validation, the first font
        # of a collection, reportlab's asciiReadable), with the face read by _QuickFace.
        from weakref import WeakKeyDictionary

        self.fontName = name
        self.face = _QuickFace(filename)
        self.encoding = TTEncoding()
        self.state: WeakKeyDictionary[Any, Any] = WeakKeyDictionary()
        self._asciiReadable = ttfonts.rl_config.ttfAsciiReadable
        self.shapable = not any(ttfonts.fnmatch(name, glob) for glob in ttfonts.unShapedFontGlob)

    def addObjects(self, doc: Any) -> None:
        state = self.state[doc]
        tags = [subset_tag(self.content_digest, list(subset)).encode()
                for subset in state.subsets]
        original = ttfonts.SUBSETN
        # reportlab names subset n with the module function SUBSETN(n) while it writes them.
        ttfonts.SUBSETN = lambda n, table=None: tags[n]
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN = original


class _QuickFace(TTFontFace):
    """reportlab's TrueType face, its character information (the cmap, hmtx and loca
    tables, nine tenths of reading a face) read a table's array at a time with
    ``struct.unpack_from`` rather than reportlab's a value a call: the same attributes,
    built in the same order (tests/test_pdf_fonts.py compares them with reportlab's own
    reading for the bundled fonts and for fonts with the other table formats). A cmap of
    another format than 4 or 12, or a table that cannot be read so, is read by
    reportlab's own code, which also words any error."""

    def extractInfo(self, charInfo: int = 1) -> None:
        super().extractInfo(charInfo=0)  # the names, head, OS/2, post, hhea and maxp
        if charInfo and not self._quick_char_info():
            super().extractInfo(charInfo)

    def _quick_char_info(self) -> bool:
        """reportlab's ``extractInfo`` from the cmap on; False where it does not apply."""
        try:
            return self._char_info(self._ttf_data)
        except (struct.error, KeyError, IndexError):  # a damaged table: reportlab's words
            return False

    def _char_info(self, data: bytes) -> bool:
        table = self.table
        index_to_loc, glyph_data_format = struct.unpack_from(">HH", data,
                                                             table["head"]["offset"] + 50)
        metric_format, h_metrics = struct.unpack_from(">HH", data,
                                                      table["hhea"]["offset"] + 32)
        glyphs = self.numGlyphs
        if (glyph_data_format != 0 or metric_format != 0 or h_metrics == 0
                or index_to_loc not in (0, 1) or "loca" not in table):
            return False
        cmap = table["cmap"]["offset"]
        version, count = struct.unpack_from(">HH", data, cmap)
        if count == 0 and version != 0:
            count, version = version, count
        found, kind = None, 0
        for n in range(count):  # the subtable reportlab chooses
            platform, encoding, offset = struct.unpack_from(">HHL", data, cmap + 4 + 8 * n)
            if platform == 3 or (platform == 1 and encoding == 1) or (
                    platform == 0 and encoding != 5):
                kind, found = 1, offset
            elif platform == 1 and encoding == 0 and kind != 1:
                kind, found = 2, offset
        if found is None:
            return False
        at = cmap + found
        fmt = struct.unpack_from(">H", data, at)[0]
        to_glyph: dict[int, int] = {}
        to_chars: dict[int, list[int]] = {}
        if fmt == 4:
            length = struct.unpack_from(">H", data, at + 2)[0]
            limit = at + length
            segments = int(struct.unpack_from(">H", data, at + 6)[0] / 2.0)
            ends = struct.unpack_from(f">{segments}H", data, at + 14)
            starts_at = at + 16 + 2 * segments
            starts = struct.unpack_from(f">{segments}H", data, starts_at)
            deltas = struct.unpack_from(f">{segments}h", data, starts_at + 2 * segments)
            ranges_at = starts_at + 4 * segments
            ranges = struct.unpack_from(f">{segments}H", data, ranges_at)
            for n in range(segments):
                start, delta, range_offset = starts[n], deltas[n], ranges[n]
                for char in range(start, ends[n] + 1):
                    if range_offset == 0:
                        glyph = (char + delta) & 0xFFFF
                    else:
                        offset = ranges_at + 2 * n + (char - start) * 2 + range_offset
                        if offset >= limit:
                            glyph = 0
                        else:
                            glyph = struct.unpack_from(">H", data, offset)[0]
                            if glyph != 0:
                                glyph = (glyph + delta) & 0xFFFF
                    to_glyph[char] = glyph
                    to_chars.setdefault(glyph, []).append(char)
        elif fmt == 12:
            segments = struct.unpack_from(">L", data, at + 12)[0]
            groups = struct.unpack_from(f">{3 * segments}L", data, at + 16)
            for n in range(0, 3 * segments, 3):
                start, end, first = groups[n], groups[n + 1], groups[n + 2]
                for char in range(start, end + 1):
                    glyph = char + first - start
                    to_glyph[char] = glyph
                    to_chars.setdefault(glyph, []).append(char)
        else:
            return False
        hmtx = table["hmtx"]["offset"]
        pairs = struct.unpack_from(f">{2 * h_metrics}H", data, hmtx)
        lsbs = struct.unpack_from(f">{max(glyphs - h_metrics, 0)}H", data, hmtx + 4 * h_metrics)
        loca = table["loca"]["offset"]
        if index_to_loc == 0:
            positions = [p << 1 for p in struct.unpack_from(f">{glyphs + 1}H", data, loca)]
        else:
            positions = list(struct.unpack_from(f">{glyphs + 1}L", data, loca))
        # All read: the attributes, as reportlab sets them.
        scale = self._pdfScale
        self.charToGlyph, self.glyphToChar = to_glyph, to_chars
        widths: dict[int, Any] = {}
        metrics: list[tuple[Any, int]] = []
        self.charWidths, self.hmetrics = widths, metrics
        width: Any = None
        for glyph in range(h_metrics):
            advance, lsb = pairs[2 * glyph], pairs[2 * glyph + 1]
            metrics.append((advance, lsb))
            width = scale(advance)
            if glyph == 0:
                self.defaultWidth = width
            for char in to_chars.get(glyph, ()):
                widths[char] = width
        for glyph in range(h_metrics, glyphs):  # (reportlab keeps the scaled advance here)
            metrics.append((width, lsbs[glyph - h_metrics]))
            for char in to_chars.get(glyph, ()):
                widths[char] = width
        self.glyphPos = positions
        self._pos = loca + (glyphs + 1) * (2 if index_to_loc == 0 else 4)  # where it ends
        if 0x20 in to_glyph:
            to_glyph[0xA0] = to_glyph[0x20]
            widths[0xA0] = widths[0x20]
        elif 0xA0 in to_glyph:
            to_glyph[0x20] = to_glyph[0xA0]
            widths[0x20] = widths[0xA0]
        return True
