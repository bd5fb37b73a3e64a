"""What a PDF page paints, read from its content stream with pikepdf, independently of
cardgen's renderer: every painted path and every text run, in page millimetres with the
origin at the top-left corner and y down (the model's own convention), with the colour
space it was painted in and whether overprint was on.

A small interpreter of the operators cardgen's PDFs use: the graphics state stack
(``q``/``Q``), ``cm``, ``gs`` (overprint ``/OP`` and ``/op``), colour operators, dashes,
path construction (``m l c v y h re``) and painting (``S s f F f* B B* b b* n``), and text
positioning (``BT ET Tm Td TD T*``) with the show operators. Colour spaces are reported by
name: ``DeviceCMYK``, ``DeviceRGB``, ``DeviceGray``, or a Separation's colourant
(``CutContour``).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

PT_PER_MM = 72 / 25.4


def pdf_bytes(source: bytes | Path) -> bytes:
    return source if isinstance(source, bytes) else Path(source).read_bytes()
Matrix = tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
Point = tuple[float, float]


def multiply(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n`` (PDF's row-vector order: the result maps p to n(m(p)))."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def apply(m: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


class State(NamedTuple):
    """The graphics state the checks need. Colours are their components in their space
    (a Separation's: its tint); ``opm`` is the overprint mode. (A named tuple: the
    interpreter makes a new one at every change of state, some 20 000 in a book, and
    ``_replace`` costs a twentieth of a frozen dataclass's ``replace``.)"""

    ctm: Matrix = IDENTITY
    stroke_space: str = "DeviceGray"
    fill_space: str = "DeviceGray"
    stroke_color: tuple[float, ...] = (0.0,)
    fill_color: tuple[float, ...] = (0.0,)
    stroke_overprint: bool = False
    fill_overprint: bool = False
    opm: int = 0
    dash: tuple[float, ...] = ()
    line_width: float = 1.0

    @property
    def scale(self) -> float:
        """How much the current transformation scales lengths (to points)."""
        a, b, c, d = self.ctm[:4]
        return abs(a * d - b * c) ** 0.5


@dataclass
class Subpath:
    points: list[Point] = field(default_factory=list)  # page mm, y down
    closed: bool = False


@dataclass
class Painted:
    """One painting operator applied to the current path."""

    operator: str
    subpaths: list[Subpath]
    stroke: bool
    fill: bool
    state: State

    @property
    def space(self) -> str:
        """The colour space it was stroked in (filled in, for a fill only)."""
        return self.state.stroke_space if self.stroke else self.state.fill_space

    @property
    def overprint(self) -> bool:
        return self.state.stroke_overprint if self.stroke else self.state.fill_overprint

    @property
    def width_pt(self) -> float:
        """The stroke's width on the page, in points."""
        return self.state.line_width * self.state.scale


@dataclass
class TextRun:
    """A text show operator: where its baseline starts and ends (page mm, y down; the end
    from the font's /Widths), its type size in mm, its codes and, where the font maps them
    (``/ToUnicode``), the characters they stand for."""

    start: Point
    end: Point
    size: float
    text: bytes
    state: State
    chars: str = ""
    font: str = ""  # the font's /BaseFont, without a subset's prefix

    @property
    def size_pt(self) -> float:
        return self.size * PT_PER_MM


@dataclass
class PageOps:
    width: float  # mm
    height: float
    painted: list[Painted]
    texts: list[TextRun]
    images: list[State] = field(default_factory=list)  # the state each ``Do`` paints in

    def strokes(self, space: str | None = None) -> list[Painted]:
        return [p for p in self.painted if p.stroke and (space is None or p.space == space)]

    def spaces(self) -> set[str]:
        """Every colour space anything was painted in (text included)."""
        used = {p.space for p in self.painted} | {p.state.fill_space for p in self.painted
                                                  if p.fill}
        return used | {t.state.fill_space for t in self.texts}


_PAINT = {"S": (True, False, False), "s": (True, False, True), "f": (False, True, False),
          "F": (False, True, False), "f*": (False, True, False), "B": (True, True, False),
          "B*": (True, True, False), "b": (True, True, True), "b*": (True, True, True),
          "n": (False, False, False)}
_DEVICE = {"G": "DeviceGray", "RG": "DeviceRGB", "K": "DeviceCMYK"}
SOLID_BLACK = ("DeviceCMYK", (0.0, 0.0, 0.0, 1.0))
PAPER_WHITE = ("DeviceCMYK", (0.0, 0.0, 0.0, 0.0))


def _space_name(resources: Any, name: str) -> str:
    if name in ("/DeviceGray", "/DeviceRGB", "/DeviceCMYK"):
        return name[1:]
    space = resources["/ColorSpace"][name]
    if str(space[0]) == "/Separation":
        return str(space[1])[1:]
    return str(space[0])[1:]


def _widths(font: Any) -> tuple[int, list[float]]:
    """A simple font's first code and its codes' widths (text space units per 1000 of
    size)."""
    return int(font["/FirstChar"]), [float(w) for w in font["/Widths"]]


def _to_unicode(font: Any) -> dict[int, str]:
    """A simple font's codes -> characters, from the ``bfchar`` and ``bfrange`` entries of
    its ``/ToUnicode`` CMap (what cardgen's PDFs hold); empty without one."""
    import re

    if font is None or "/ToUnicode" not in font:
        return {}
    cmap = font["/ToUnicode"].read_bytes().decode("latin-1")
    out: dict[int, str] = {}
    for block in re.findall(r"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, char in re.findall(r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            out[int(code, 16)] = bytes.fromhex(char).decode("utf-16-be")
    for block in re.findall(r"beginbfrange(.*?)endbfrange", cmap, re.S):
        for low, high, first in re.findall(
                r"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            for i, code in enumerate(range(int(low, 16), int(high, 16) + 1)):
                out[code] = chr(int(first, 16) + i)
    return out


# The operators that change the state interpret() follows; every other operator leaves
# it as it is.
_STATE_OPERATORS = frozenset({"q", "Q", "cm", "gs", "G", "RG", "K", "g", "rg", "k", "CS",
                              "cs", "SC", "SCN", "sc", "scn", "d", "w"})


def interpret(page: Any) -> Iterator[tuple[str, list[Any], State]]:
    """Each operator of a pikepdf page's content stream, its operands, and the graphics
    state in force once it has run (for a painting operator: the state it paints with)."""
    import pikepdf

    resources = page.obj.get("/Resources", pikepdf.Dictionary())
    state, stack = State(), []
    graphics_states: dict[str, dict[str, Any]] = {}  # name -> what it sets, read once
    for instruction in pikepdf.parse_content_stream(page):
        # (an instruction's attributes, not its unpacking as a sequence: a fifth of the
        # time this function takes on a book)
        name = str(instruction.operator)
        args = list(instruction.operands)
        if name not in _STATE_OPERATORS:
            pass
        elif name == "q":
            stack.append(state)
        elif name == "Q":
            state = stack.pop()
        elif name == "cm":
            state = state._replace(ctm=multiply(tuple(float(a) for a in args), state.ctm))
        elif name == "gs":
            key = str(args[0])
            if key not in graphics_states:
                graphics_states[key] = _overprint_of(resources["/ExtGState"][args[0]])
            state = state._replace(**graphics_states[key])
        elif name in _DEVICE:
            state = state._replace(stroke_space=_DEVICE[name],
                                   stroke_color=tuple(float(a) for a in args))
        elif name in ("g", "rg", "k"):
            state = state._replace(fill_space=_DEVICE[name.upper()],
                                   fill_color=tuple(float(a) for a in args))
        elif name == "CS":
            state = state._replace(stroke_space=_space_name(resources, str(args[0])))
        elif name == "cs":
            state = state._replace(fill_space=_space_name(resources, str(args[0])))
        elif name in ("SC", "SCN"):
            state = state._replace(stroke_color=tuple(float(a) for a in args
                                                      if not isinstance(a, pikepdf.Name)))
        elif name in ("sc", "scn"):
            state = state._replace(fill_color=tuple(float(a) for a in args
                                                    if not isinstance(a, pikepdf.Name)))
        elif name == "d":
            state = state._replace(dash=tuple(float(v) for v in args[0]))
        elif name == "w":
            state = state._replace(line_width=float(args[0]))
        yield name, args, state


def _overprint_of(gs: Any) -> dict[str, Any]:
    """What a graphics state dictionary sets of the state: /op follows /OP where it is
    left out, as the PDF specification says."""
    changes: dict[str, Any] = {}
    if "/OP" in gs:
        changes.update(stroke_overprint=bool(gs["/OP"]),
                       fill_overprint=bool(gs.get("/op", gs["/OP"])))
    elif "/op" in gs:
        changes.update(fill_overprint=bool(gs["/op"]))
    if "/OPM" in gs:
        changes.update(opm=int(gs["/OPM"]))
    return changes


def read_page(page: Any, fonts: dict[Any, Any] | None = None) -> PageOps:
    """Interpret one pikepdf page. ``fonts``: what was read of the file's fonts (their
    widths and ``/ToUnicode`` maps, by object), shared by the pages of one file."""
    import pikepdf

    x0, y0, x1, y1 = (float(v) for v in page.mediabox)
    height_pt = y1 - y0
    resources = page.obj.get("/Resources", pikepdf.Dictionary())

    def to_mm(m: Matrix, x: float, y: float) -> Point:
        px, py = apply(m, x, y)
        return (px - x0) / PT_PER_MM, (height_pt - (py - y0)) / PT_PER_MM

    path: list[Subpath] = []
    painted: list[Painted] = []
    texts: list[TextRun] = []
    tm = tlm = IDENTITY
    leading = font_size = 0.0
    font: Any = None
    fonts = {} if fonts is None else fonts
    unicode_maps: dict[Any, dict[int, str]] = fonts.setdefault("unicode", {})
    widths: dict[Any, tuple[int, list[float]]] = fonts.setdefault("widths", {})  # read once
    images: list[State] = []
    for name, args, state in interpret(page):
        if name == "m":
            path.append(Subpath([to_mm(state.ctm, float(args[0]), float(args[1]))]))
        elif name in ("l", "c", "v", "y"):
            path[-1].points.append(to_mm(state.ctm, float(args[-2]), float(args[-1])))
        elif name == "h":
            path[-1].closed = True
        elif name == "re":
            x, y, w, h = (float(a) for a in args)
            corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
            path.append(Subpath([to_mm(state.ctm, *p) for p in corners], closed=True))
        elif name in _PAINT:
            stroke, fill, close = _PAINT[name]
            if close and path:
                path[-1].closed = True
            if stroke or fill:
                painted.append(Painted(name, path, stroke, fill, state))
            path = []
        elif name == "Do":
            images.append(state)
        elif name == "BT":
            tm = tlm = IDENTITY
        elif name == "Tm":
            tm = tlm = tuple(float(a) for a in args)
        elif name in ("Td", "TD"):
            tx, ty = float(args[0]), float(args[1])
            if name == "TD":
                leading = -ty
            tm = tlm = multiply((1, 0, 0, 1, tx, ty), tlm)
        elif name == "TL":
            leading = float(args[0])
        elif name == "Tf":
            font, font_size = resources["/Font"][args[0]], float(args[1])
            key = font.objgen
            if key not in unicode_maps:
                unicode_maps[key] = _to_unicode(font)
                widths[key] = _widths(font)
        elif name == "T*":
            tm = tlm = multiply((1, 0, 0, 1, 0, -leading), tlm)
        elif name in ("Tj", "TJ", "'", '"'):
            if name in ("'", '"'):
                tm = tlm = multiply((1, 0, 0, 1, 0, -leading), tlm)
            shown = args[-1]
            data = b"".join(bytes(s) for s in shown if isinstance(s, pikepdf.String)) \
                if name == "TJ" else bytes(shown)
            m = multiply(tm, state.ctm)
            first, width = widths[font.objgen]
            advance = sum(width[code - first] for code in data) / 1000 * font_size
            scale = abs(m[0] * m[3] - m[1] * m[2]) ** 0.5
            codes = unicode_maps.get(font.objgen, {}) if font is not None else {}
            texts.append(TextRun(to_mm(m, 0.0, 0.0), to_mm(m, advance, 0.0),
                                 font_size * scale / PT_PER_MM, data, state,
                                 "".join(codes.get(b, "\ufffd") for b in data),
                                 str(font.get("/BaseFont", "")).split("+")[-1]
                                 if font is not None else ""))
            tm = multiply((1, 0, 0, 1, advance, 0), tm)
    return PageOps((x1 - x0) / PT_PER_MM, height_pt / PT_PER_MM, painted, texts, images)


def read_pages(source: bytes | Path) -> list[PageOps]:
    """Every page of a PDF, interpreted."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes(source))) as pdf:
        fonts: dict[Any, Any] = {}
        return [read_page(page, fonts) for page in pdf.pages]


def boxes_in_points(source: bytes | Path) -> Iterator[dict[str, tuple[float, ...]]]:
    """Each page's MediaBox, TrimBox and BleedBox in points, as the file holds them."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf_bytes(source))) as pdf:
        for page in pdf.pages:
            yield {key: tuple(float(v) for v in page.obj[key])
                   for key in ("/MediaBox", "/TrimBox", "/BleedBox")}
