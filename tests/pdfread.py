"""Reading produced PDF files back with tools independent of cardgen's own renderers:
PDFium (pypdfium2) rasterises pages the way a viewer or a RIP's preview would, and
pikepdf gives the objects and content streams as the file holds them."""

from __future__ import annotations

import io
import itertools
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tests.pdfops import (
    PAPER_WHITE,
    SOLID_BLACK,
    PageOps,
    interpret,
    pdf_bytes,
    read_pages,
)

if TYPE_CHECKING:
    from PIL.Image import Image

MM_PER_INCH = 25.4


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


def render_region(source: bytes | Path, index: int, dpi: float,
                  region: tuple[float, float, float, float], grey: bool = False) -> Image:
    """Only ``region`` (x0, y0, x1, y1 in mm from the page's top-left corner) of a page,
    rendered by PDFium at ``dpi``: pixel (0, 0) is the region's top-left corner. Much
    faster than rendering a whole sheet at high resolution."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(pdf_bytes(source))
    try:
        page = document[index]
        width, height = page.get_size()
        k = 72 / MM_PER_INCH
        x0, y0, x1, y1 = (v * k for v in region)
        bitmap = page.render(scale=dpi / 72, grayscale=grey,
                             crop=(x0, height - y1, width - x1, y0))
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
        return _boxes(pdf.pages[index])


def every_page_boxes(source: bytes | Path) -> list[dict[str, tuple[float, ...]]]:
    """:func:`page_boxes` of every page, the file read once."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes(source))) as pdf:
        return [_boxes(page) for page in pdf.pages]


def _boxes(page: object) -> dict[str, tuple[float, ...]]:
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


# --- a PDF/X-1a:2001 preflight ----------------------------------------------------------

PDFX_FILTERS = {"/FlateDecode", "/DCTDecode", "/ASCII85Decode", "/ASCIIHexDecode",
                "/RunLengthDecode", "/CCITTFaxDecode"}  # no LZW, no JBIG2, no JPX
PDFX_SPACES = {"/DeviceCMYK", "/DeviceGray", "/Separation", "/DeviceN", "/Pattern"}
RGB_OPERATORS = {"rg", "RG"}


def _name(obj: object) -> str:
    return str(obj)


def _space_family(space: object) -> str:
    """The family of a colour space object: /DeviceCMYK, /Separation, /ICCBased …"""
    import pikepdf

    if isinstance(space, pikepdf.Array):
        return _name(space[0])
    return _name(space)


def _alternate_ok(space: object) -> bool:
    """A Separation or DeviceN space must fall back to CMYK or grey, not RGB."""
    import pikepdf

    if isinstance(space, pikepdf.Array) and _name(space[0]) in ("/Separation", "/DeviceN"):
        return _space_family(space[2]) in ("/DeviceCMYK", "/DeviceGray")
    return True


def pdfx_problems(source: bytes | Path, version: str = "PDF/X-1:2001",
                  conformance: str = "PDF/X-1a:2001") -> list[str]:
    """Every way the file breaks PDF/X-1a:2001 that a preflight checks, as sentences
    (empty when none): the header version, the identification and Trapped keys, the
    document ID, the GTS_PDFX output intent naming a registered condition, the page boxes
    (a TrimBox, nested in the BleedBox and the MediaBox, no ArtBox), embedded fonts,
    colour spaces (no RGB, ICC or Lab; spot colours with CMYK alternates) in resources,
    images and content streams, no transparency (soft masks, opacity, blend modes,
    transparency groups), no transfer functions, no forbidden filters, no encryption,
    annotations, forms, JavaScript, optional content or actions."""
    import pikepdf

    data = pdf_bytes(source)
    problems: list[str] = []
    if not data.startswith(b"%PDF-1.3"):
        problems.append(f"header is {data[:8]!r}, not %PDF-1.3")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if pdf.is_encrypted:
            problems.append("the file is encrypted")
        info = pdf.docinfo
        for key, want in (("/GTS_PDFXVersion", version),
                          ("/GTS_PDFXConformance", conformance)):
            if str(info.get(key, "")) != want:
                problems.append(f"Info {key} is {info.get(key)!r}, not {want!r}")
        if _name(info.get("/Trapped", "")) not in ("/True", "/False"):
            problems.append(f"Info /Trapped is {info.get('/Trapped')!r}, not /True or /False")
        for key in ("/Title", "/CreationDate", "/ModDate"):
            if not str(info.get(key, "")):
                problems.append(f"Info {key} is missing")
        ids = pdf.trailer.get("/ID")
        if ids is None or len(ids) != 2:
            problems.append("the trailer has no document /ID")
        root = pdf.Root
        intents = [oi for oi in root.get("/OutputIntents", [])
                   if _name(oi.get("/S")) == "/GTS_PDFX"]
        if len(intents) != 1:
            problems.append(f"{len(intents)} GTS_PDFX output intents, not 1")
        for oi in intents:
            if not str(oi.get("/OutputConditionIdentifier", "")):
                problems.append("the output intent has no OutputConditionIdentifier")
            if "/DestOutputProfile" not in oi and not str(oi.get("/RegistryName", "")):
                problems.append("the output intent neither embeds a profile nor names the "
                                "registry of its condition")
        for key in ("/AcroForm", "/OCProperties", "/OpenAction", "/AA", "/Names"):
            if key in root:
                problems.append(f"the catalogue has {key}")
        for number, page in enumerate(pdf.pages, 1):
            problems += [f"page {number}: {p}" for p in _page_problems(page)]
        for obj in pdf.objects:
            if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
                continue
            problems += _object_problems(obj)
    return sorted(set(problems), key=problems.index)


def _box(page: object, name: str) -> tuple[float, ...] | None:
    value = page.obj.get(name)
    return None if value is None else tuple(float(v) for v in value)


def _inside(inner: tuple[float, ...], outer: tuple[float, ...], tol: float = 1e-3) -> bool:
    return (inner[0] >= outer[0] - tol and inner[1] >= outer[1] - tol
            and inner[2] <= outer[2] + tol and inner[3] <= outer[3] + tol)


def _page_problems(page: object) -> list[str]:
    import pikepdf

    problems = []
    media, trim = _box(page, "/MediaBox"), _box(page, "/TrimBox")
    bleed, art = _box(page, "/BleedBox"), _box(page, "/ArtBox")
    if media is None:
        problems.append("no MediaBox")
    if trim is None:
        problems.append("no TrimBox")
    if art is not None and trim is not None:
        problems.append("both a TrimBox and an ArtBox")
    if trim and bleed and not _inside(trim, bleed):
        problems.append("the TrimBox reaches outside the BleedBox")
    if bleed and media and not _inside(bleed, media):
        problems.append("the BleedBox reaches outside the MediaBox")
    if "/Annots" in page.obj:
        problems.append("annotations")
    if "/Group" in page.obj:
        problems.append("a transparency group")
    problems += _resource_problems(page.obj.get("/Resources", pikepdf.Dictionary()))
    # Only the operators checked here are handed back (the parser still reads every
    # token): a tenth of the Python objects of the whole stream. pikepdf gives an inline
    # image as one instruction, "INLINE IMAGE".
    for instruction in pikepdf.parse_content_stream(page, "rg RG cs CS BI ID EI"):
        op = str(instruction.operator)
        operands = instruction.operands
        if op in RGB_OPERATORS:
            problems.append(f"an RGB colour operator ({op})")
        elif op in ("cs", "CS") and _name(operands[0]) in ("/DeviceRGB", "/CalRGB", "/Lab"):
            problems.append(f"colour space {operands[0]}")
        elif op in ("BI", "INLINE IMAGE"):
            problems.append("an inline image")
    return problems


def _resource_problems(resources: object, depth: int = 0) -> list[str]:
    """Problems of a resource dictionary's graphics states, colour spaces and XObjects
    (direct objects included, which a scan of the file's indirect objects misses)."""
    import pikepdf

    problems: list[str] = []
    if not isinstance(resources, pikepdf.Dictionary) or depth > 8:
        return problems
    for state in resources.get("/ExtGState", pikepdf.Dictionary()).values():
        problems += _extgstate_problems(state)
    for name, space in resources.get("/ColorSpace", pikepdf.Dictionary()).items():
        problems += _space_problems(name, space)
    for xobject in resources.get("/XObject", pikepdf.Dictionary()).values():
        problems += _object_problems(xobject)
        if isinstance(xobject, pikepdf.Stream) and "/Resources" in xobject.stream_dict:
            problems += _resource_problems(xobject.stream_dict.Resources, depth + 1)
    return problems


def _extgstate_problems(state: object) -> list[str]:
    import pikepdf

    problems: list[str] = []
    if not isinstance(state, pikepdf.Dictionary):
        return problems
    for key in ("/ca", "/CA"):
        if key in state and float(state[key]) != 1:
            problems.append(f"opacity {key} {state[key]}")
    if "/BM" in state and _name(state["/BM"]) not in ("/Normal", "/Compatible"):
        problems.append(f"blend mode {state['/BM']}")
    if "/SMask" in state and _name(state["/SMask"]) != "/None":
        problems.append("a soft mask (SMask)")
    for key in ("/TR", "/TR2"):
        if key in state and _name(state[key]) != "/Default":
            problems.append("a transfer function")
    return problems


def _space_problems(name: object, space: object) -> list[str]:
    family = _space_family(space)
    if family not in PDFX_SPACES:
        return [f"colour space {name} is {family}"]
    if not _alternate_ok(space):
        return [f"spot colour {name} falls back to RGB"]
    return []


def _object_problems(obj: object) -> list[str]:
    import pikepdf

    problems = []
    d = obj.stream_dict if isinstance(obj, pikepdf.Stream) else obj
    kind = _name(d.get("/Type", ""))
    subtype = _name(d.get("/Subtype", ""))
    if isinstance(obj, pikepdf.Stream):
        filters = d.get("/Filter")
        names = ([_name(f) for f in filters] if isinstance(filters, pikepdf.Array)
                 else [_name(filters)] if filters is not None else [])
        problems += [f"a stream compressed with {f}" for f in names if f not in PDFX_FILTERS]
    if subtype == "/Image" and "/SMask" in d:
        problems.append("a soft mask (SMask)")
    if subtype == "/Image":
        if d.get("/ImageMask") is not True:
            space = d.get("/ColorSpace")
            if space is None or _space_family(space) not in PDFX_SPACES:
                problems.append(f"an image in colour space {space}")
            elif not _alternate_ok(space):
                problems.append("an image's spot colour falls back to RGB")
        if "/Alternates" in d or "/OPI" in d:
            problems.append("image alternates or OPI")
    if subtype == "/Form" and "/Group" in d:
        problems.append("a transparency group")
    if kind == "/ExtGState":
        problems += _extgstate_problems(d)
    if kind == "/FontDescriptor" and not any(
            k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")):
        problems.append(f"font {d.get('/FontName')} is not embedded")
    if kind == "/Font" and subtype in ("/Type1", "/TrueType", "/MMType1") and (
            "/FontDescriptor" not in d):
        problems.append(f"font {d.get('/BaseFont')} is not embedded (no descriptor)")
    if kind == "/Annot":
        problems.append("an annotation")
    if _name(d.get("/S", "")) == "/JavaScript" or "/JS" in d:
        problems.append("JavaScript")
    return problems


# --- the ink rule, read from the content streams ----------------------------------------

FINE_TYPE_PT = 8.0  # type under this is small (cardgen.prepress.ink.FINE_TYPE)
FINE_LINE_PT = 0.5  # lines under this are thin
MIN_LINE_PT = 0.25
MAX_INK = 3.0  # 300 %


@dataclass
class InkReport:
    """What :func:`ink_rule_problems` found in a file: the problems, as sentences, and
    how many small runs of type and thin lines it checked (so that a test can tell a
    clean report from a file with nothing to check)."""

    problems: list[str] = field(default_factory=list)
    fine: int = 0


def _cmyk(space: str, color: tuple[float, ...]) -> str:
    if space != "DeviceCMYK":
        return f"{space} {color}"
    return " ".join(f"{p}{round(v * 100):g}" for p, v in zip("CMYK", color, strict=True)
                    if v > 1e-6) or "paper white"


def _keeps_the_fine_rule(space: str, color: tuple[float, ...], overprint: bool,
                         opm: int) -> bool:
    """Paper white, or solid black that overprints in overprint mode 1."""
    return (space, color) == PAPER_WHITE or ((space, color) == SOLID_BLACK and overprint
                                             and opm == 1)


def _black_tint(space: str, color: tuple[float, ...]) -> bool:
    """A screen of black alone (K between 0 and 100 %, no other ink)."""
    return (space == "DeviceCMYK" and max(color[:3]) <= 1e-6
            and 1e-6 < color[3] < 1 - 1e-6)


def ink_rule_problems(source: bytes | Path, *, tinted_lines: bool = False) -> InkReport:
    """The ink rule (SPEC §2, ``cardgen.prepress.ink``) checked on a printed file's
    content streams, as a print shop's preflight would: inside each page's BleedBox
    (the slug's marks are production marks), every run of type under 8 pt and every
    stroke under 0.5 pt is paper white or solid black (100 % K) that overprints in
    overprint mode 1; no stroke is thinner than 0.25 pt; no line of any width is a
    tint of black (grid lines are solid black at every width, SPEC §2: a screened line
    breaks up into dots; ``tinted_lines`` allows tints in lines of 0.5 pt and more for a
    file whose grids are known to be solid, the rules book with its dimmed Connector
    plates); no CMYK colour puts down more than 300 % ink. Spot colours (the marks, the
    dieline, a varnish) are not ink on the piece and are skipped."""
    data = pdf_bytes(source)
    return ink_rule_report(read_pages(data), every_page_boxes(data), tinted_lines=tinted_lines)


def ink_rule_report(pages: list[PageOps], page_boxes: list[dict[str, tuple[float, ...]]], *,
                    tinted_lines: bool = False) -> InkReport:
    """:func:`ink_rule_problems` of a file already read: its pages interpreted
    (``tests.pdfops.read_pages``) and their boxes (:func:`every_page_boxes`)."""
    report = InkReport()
    problems = report.problems
    for index, (ops, boxes) in enumerate(zip(pages, page_boxes, strict=True)):
        bleed = boxes["BleedBox"]
        where = f"page {index + 1}"
        for run in ops.texts:
            if not _inside_box(run.start, bleed):
                continue
            s = run.state
            what = f"{where}: {run.size_pt:.1f} pt type {run.chars[:12]!r}"
            if s.fill_space == "DeviceCMYK" and sum(s.fill_color) > MAX_INK + 1e-6:
                problems.append(f"{what} is {_cmyk(s.fill_space, s.fill_color)}, over 300 %")
            if run.size_pt < FINE_TYPE_PT - 1e-6 and s.fill_space == "DeviceCMYK":
                report.fine += 1
                if not _keeps_the_fine_rule(s.fill_space, s.fill_color, s.fill_overprint,
                                            s.opm):
                    problems.append(f"{what} is {_cmyk(s.fill_space, s.fill_color)}"
                                    f"{'' if s.fill_overprint else ' (knocks out)'}, not "
                                    "overprinting solid black or paper white")
        for painted in ops.painted:
            if not any(_inside_box(p, bleed) for sub in painted.subpaths for p in sub.points):
                continue
            s = painted.state
            if (painted.fill and s.fill_space == "DeviceCMYK"
                    and sum(s.fill_color) > MAX_INK + 1e-6):
                problems.append(f"{where}: a fill of {_cmyk(s.fill_space, s.fill_color)}, "
                                "over 300 %")
            if not painted.stroke or s.stroke_space != "DeviceCMYK":
                continue
            width = painted.width_pt
            colour = _cmyk(s.stroke_space, s.stroke_color)
            what = f"{where}: a {width:.2f} pt line in {colour}"
            if sum(s.stroke_color) > MAX_INK + 1e-6:
                problems.append(f"{what} is over 300 %")
            if width < MIN_LINE_PT - 1e-4:  # the file rounds the model's widths
                problems.append(f"{what} is thinner than 0.25 pt")
            if _black_tint(s.stroke_space, s.stroke_color) and not (
                    tinted_lines and width >= FINE_LINE_PT - 1e-4):
                problems.append(f"{what} is a tint of black, not solid black")
            if width < FINE_LINE_PT - 1e-4:
                report.fine += 1
                if not _keeps_the_fine_rule(s.stroke_space, s.stroke_color,
                                            s.stroke_overprint, s.opm):
                    problems.append(f"{what}{'' if s.stroke_overprint else ' (knocks out)'} "
                                    "is thin and not overprinting solid black or paper white")
    report.problems = sorted(set(problems), key=problems.index)
    return report


def _inside_box(at: tuple[float, float], box: tuple[float, ...]) -> bool:
    return box[0] <= at[0] <= box[2] and box[1] <= at[1] <= box[3]


# --- separations -------------------------------------------------------------------------

PROCESS = ("C", "M", "Y", "K")


def separation(source: bytes | Path, index: int, plate: str, dpi: float = 300) -> Image:
    """One process plate of page ``index`` as a greyscale image of ink coverage (0 = no
    ink, 255 = solid), the way a RIP separates the page, overprint included (see
    :func:`separations`)."""
    return separations(source, index, dpi, (plate,))[plate]


def separations(source: bytes | Path, index: int, dpi: float = 300,
                plates: tuple[str, ...] = PROCESS) -> dict[str, Image]:
    """Process plates of page ``index`` as greyscale images of ink coverage (0 = no ink,
    255 = solid), the way a RIP separates the page, overprint included: {plate: image},
    the whole page.

    The page's content stream is rewritten so that every colour becomes the grey of its
    value on the plate (a spot colour: the registration colour ``All`` is on every plate,
    other spot colours on none), every CMYK image becomes that plate's channel, and every
    object that overprints with nothing on this plate (overprint mode 1, or a spot colour)
    paints nothing here; PDFium then renders the rewritten page in grey. The page is read
    once for all the plates."""
    from PIL import ImageOps

    return {plate: ImageOps.invert(render_page(data, index, dpi, grey=True))
            for plate, data in _plate_files(source, index, plates)}


def separation_regions(source: bytes | Path, index: int,
                       regions: list[tuple[float, float, float, float]], dpi: float = 300,
                       plates: tuple[str, ...] = PROCESS) -> dict[str, list[Image]]:
    """The plates of :func:`separations`, made the same way, but only ``regions`` of the
    page rendered (x0, y0, x1, y1 in mm from its top-left corner, as
    :func:`render_region`): {plate: [an image a region]}. A few small areas of a sheet
    cost a small share of rendering the whole sheet once a plate."""
    import pypdfium2 as pdfium
    from PIL import ImageOps

    out: dict[str, list[Image]] = {}
    for plate, data in _plate_files(source, index, plates):
        document = pdfium.PdfDocument(data)
        try:
            page = document[index]
            width, height = page.get_size()
            k = 72 / MM_PER_INCH
            out[plate] = []
            for region in regions:
                x0, y0, x1, y1 = (v * k for v in region)
                bitmap = page.render(scale=dpi / 72, grayscale=True,
                                     crop=(x0, height - y1, width - x1, y0))
                out[plate].append(ImageOps.invert(bitmap.to_pil().convert("L")))
        finally:
            document.close()
    return out


def _plate_files(source: bytes | Path, index: int,
                 plates: tuple[str, ...]) -> Iterator[tuple[str, bytes]]:
    """The PDF rewritten for each plate of page ``index`` (see :func:`separations`)."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes(source))) as pdf:
        page = pdf.pages[index]
        resources = page.obj.get("/Resources", pikepdf.Dictionary())
        xobjects = dict(resources.get("/XObject", pikepdf.Dictionary()).items())
        operations = [(name, args, g) for name, args, g in interpret(page)]
        for plate in plates:
            channel = PROCESS.index(plate)
            for name, xobject in xobjects.items():
                resources.XObject[name] = _plate_image(pdf, xobject, channel)
            page.obj.Contents = pdf.make_stream(pikepdf.unparse_content_stream(
                _plate_operations(operations, plate)))
            out = io.BytesIO()
            pdf.save(out, compress_streams=False)  # (PDFium reads it at once)
            yield plate, out.getvalue()


def _plate_operations(operations: list[tuple[str, list[object], object]],
                      plate: str) -> list[tuple[list[object], object]]:
    """A page's interpreted operators rewritten for one plate (see :func:`separations`)."""
    import pikepdf

    channel = PROCESS.index(plate)

    def value(space: str, color: tuple[float, ...]) -> float:
        if space == "DeviceCMYK":
            return color[channel]
        if space == "DeviceGray":
            return 1 - color[0] if plate == "K" else 0.0
        if space in ("DeviceRGB", "ICCBased", "Lab"):
            raise ValueError(f"colour space {space} in a print file")
        return color[0] if space == "All" else 0.0  # a Separation's tint

    def silent(space: str, color: tuple[float, ...], overprint: bool, opm: int) -> bool:
        """Whether an object of this colour leaves this plate untouched."""
        if not overprint or value(space, color) > 0:
            return False
        return space not in ("DeviceCMYK", "DeviceGray") or opm == 1

    rewritten: list[tuple[list[object], object]] = []

    def emit(operator: str, *operands: object) -> None:
        rewritten.append((list(operands), pikepdf.Operator(operator)))

    for name, args, g in operations:
        fill_off = silent(g.fill_space, g.fill_color, g.fill_overprint, g.opm)
        stroke_off = silent(g.stroke_space, g.stroke_color, g.stroke_overprint, g.opm)
        if name in ("k", "g", "rg", "sc", "scn"):
            emit("g", 1 - value(g.fill_space, g.fill_color))
        elif name in ("K", "G", "RG", "SC", "SCN"):
            emit("G", 1 - value(g.stroke_space, g.stroke_color))
        elif name in ("cs", "CS"):
            continue  # the grey operators above set DeviceGray themselves
        elif name in ("f", "F", "f*", "S", "s") and (fill_off if name[0] in "fF"
                                                     else stroke_off):
            emit("n")
        elif name in ("B", "B*", "b", "b*") and (fill_off or stroke_off):
            emit("n" if fill_off and stroke_off
                 else ("S" if name[0] == "B" else "s") if fill_off else "f")
        elif name in ("Tj", "TJ", "'", '"') and fill_off:
            emit("Tr", 3)
            emit(name, *args)
            emit("Tr", 0)
        else:
            emit(name, *args)
    return rewritten


def _plate_image(pdf: object, xobject: object, channel: int) -> object:
    """A CMYK image XObject replaced by a greyscale image of one of its channels (the
    ink: 0 = none), keeping its mask; anything else unchanged."""
    import pikepdf
    from PIL import Image as PILImage

    d = xobject.stream_dict
    if str(d.get("/Subtype")) != "/Image" or str(d.get("/ColorSpace")) != "/DeviceCMYK":
        return xobject
    image = pikepdf.PdfImage(xobject).as_pil_image()
    ink = image.split()[channel]
    grey = PILImage.eval(ink, lambda v: 255 - v)
    stream = pikepdf.Stream(pdf, zlib.compress(grey.tobytes()))
    stream.Type, stream.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    stream.Width, stream.Height = grey.width, grey.height
    stream.ColorSpace, stream.BitsPerComponent = pikepdf.Name.DeviceGray, 8
    stream.Filter = pikepdf.Name.FlateDecode
    for key in ("/Mask", "/SMask", "/Interpolate"):
        if key in d:
            stream[key] = d[key]
    return stream
