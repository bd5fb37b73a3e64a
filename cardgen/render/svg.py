"""SVG output through svgwrite: one file per view, geometry in millimetres.

The viewBox is in millimetres, so coordinates in the file are the model's own. Fonts are
embedded as WOFF subsets, images as PNG data, layers as Inkscape layers. An image with a
stencil mask carries, as its alpha, how much of each pixel the mask prints: the print's
hard edge at the image's own resolution.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
from functools import lru_cache
from typing import Any

import svgwrite
from svgwrite.container import Group as SvgGroup

from cardgen.draw.colors import Color
from cardgen.draw.page import (
    Anchor,
    FontRef,
    Group,
    Image,
    Line,
    LineCap,
    Path,
    Rect,
    Stroke,
    Text,
    View,
    walk,
)
from cardgen.draw.raster import mask_coverage
from cardgen.render.base import Painter, walk_path
from cardgen.text.fonts import UNUSED_TABLES, font_file_bytes, quiet_fonttools
from cardgen.units import MM_PER_PT

_INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"


def render_svg(view: View) -> bytes:
    """One view (a page's printing layers, or its dieline) as SVG bytes."""
    page = view.page
    dwg = svgwrite.Drawing(
        size=(f"{_n(page.width)}mm", f"{_n(page.height)}mm"),
        viewBox=f"0 0 {_n(page.width)} {_n(page.height)}",
        profile="full",
        debug=False,
    )
    dwg.attribs["xmlns:inkscape"] = _INKSCAPE
    writer = _SvgPainter(dwg)
    writer.fonts(view)
    for layer in view.layers:
        group = dwg.g(id=writer.unique(f"layer-{layer.name}"))
        group.attribs["inkscape:groupmode"] = "layer"
        group.attribs["inkscape:label"] = layer.name
        writer.draw_all(layer.items, group)
        dwg.add(group)
    out = io.StringIO()
    dwg.write(out, pretty=True, indent=1)
    return out.getvalue().encode("utf-8")


def _n(value: float) -> str:
    """A compact, stable number."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _paint(fill: Color | None, stroke: Stroke | None) -> dict[str, str]:
    attrs = {"fill": fill.hex_rgb if fill else "none"}
    if stroke is not None:
        attrs["stroke"] = stroke.color.hex_rgb
        attrs["stroke-width"] = _n(stroke.width)
        if stroke.dash:
            attrs["stroke-dasharray"] = " ".join(_n(d) for d in stroke.dash)
        if stroke.cap != LineCap.BUTT:
            attrs["stroke-linecap"] = stroke.cap.value
    return attrs


class _PathData:
    """Path operations as SVG path data ("M1 2 C3 4 5 6 7 8 Z")."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def _add(self, command: str, *values: float) -> None:
        self.parts.append(command + " ".join(_n(v) for v in values))

    def move_to(self, x: float, y: float) -> None:
        self._add("M", x, y)

    def line_to(self, x: float, y: float) -> None:
        self._add("L", x, y)

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float, y: float) -> None:
        self._add("C", x1, y1, x2, y2, x, y)

    def close(self) -> None:
        self._add("Z")


class _SvgPainter(Painter[SvgGroup]):
    """Adds an SVG element per item to the parent group it is given."""

    def __init__(self, dwg: svgwrite.Drawing) -> None:
        self.dwg = dwg
        self.ids: set[str] = set()
        self.families: dict[FontRef, str] = {}
        self.images: dict[str, str] = {}

    def unique(self, wanted: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_.-]", "-", wanted) or "id"
        if not base[0].isalpha():
            base = f"i-{base}"
        name, n = base, 1
        while name in self.ids:
            n += 1
            name = f"{base}-{n}"
        self.ids.add(name)
        return name

    def fonts(self, view: View) -> None:
        """One ``@font-face`` per distinct font file the view uses, with the characters
        set in it. Faces with identical bytes share one; files of one PostScript name
        with different bytes are told apart (``cardgen-NAME``, ``cardgen-NAME-2``, … in
        the order of the name and then the file's digest), so the family names and the
        rules' order depend on the fonts alone, never on the files' folders."""
        used: dict[FontRef, set[str]] = {}
        for layer in view.layers:
            for item, _ in walk(layer.items):
                if isinstance(item, Text):
                    used.setdefault(item.font, set()).update(item.text)
        files: dict[bytes, list[FontRef]] = {}
        for face in used:
            files.setdefault(font_file_bytes(face), []).append(face)
        named = {data: min(face.name for face in faces) for data, faces in files.items()}
        taken: set[str] = set()
        rules = []
        for data in sorted(files, key=lambda data: (named[data], hashlib.sha256(data).digest())):
            faces, name = files[data], named[data]
            chars = set().union(*(used[face] for face in faces))
            family, n = f"cardgen-{name}", 1
            while family in taken:
                n += 1
                family = f"cardgen-{name}-{n}"
            taken.add(family)
            self.families.update(dict.fromkeys(faces, family))
            woff = _woff_subset(data, "".join(sorted(chars)))
            encoded = base64.b64encode(woff)
            rules.append(f'@font-face {{ font-family: "{family}"; '
                         f'src: url(data:font/woff;base64,{encoded.decode()}) format("woff"); }}')
        rules.append("text { font-kerning: none; white-space: pre; }")
        self.dwg.defs.add(self.dwg.style("\n".join(rules)))

    def rect(self, item: Rect, parent: SvgGroup) -> None:
        parent.add(self.dwg.rect((_n(item.x), _n(item.y)), (_n(item.w), _n(item.h)),
                                 **_paint(item.fill, item.stroke)))

    def line(self, item: Line, parent: SvgGroup) -> None:
        parent.add(self.dwg.line((_n(item.x1), _n(item.y1)), (_n(item.x2), _n(item.y2)),
                                 **_paint(None, item.stroke)))

    def path(self, item: Path, parent: SvgGroup) -> None:
        data = _PathData()
        walk_path(item.ops, data)
        parent.add(self.dwg.path(d=" ".join(data.parts), **_paint(item.fill, item.stroke)))

    def group(self, item: Group, parent: SvgGroup) -> None:
        dwg = self.dwg
        group = dwg.g()
        if item.name:
            group["id"] = self.unique(item.name)
        if not item.transform.is_identity:
            group["transform"] = "matrix({})".format(
                " ".join(_n(v) for v in item.transform.as_tuple))
        if item.clip is not None:
            clip = dwg.clipPath(id=self.unique("clip"))
            clip.add(dwg.rect((_n(item.clip.x), _n(item.clip.y)),
                              (_n(item.clip.w), _n(item.clip.h))))
            dwg.defs.add(clip)
            group["clip-path"] = f"url(#{clip['id']})"
        self.draw_all(item.items, group)
        parent.add(group)

    def text(self, item: Text, parent: SvgGroup) -> None:
        attrs: dict[str, Any] = {
            "insert": (_n(item.x), _n(item.y)),
            "font_family": self.families[item.font],
            "font_size": _n(item.size * MM_PER_PT),
            "fill": item.color.hex_rgb,
        }
        if item.anchor != Anchor.START:
            attrs["text_anchor"] = item.anchor.value
        text = self.dwg.text(item.text, **attrs)
        if item.rotation:
            text["transform"] = f"rotate({_n(item.rotation)} {_n(item.x)} {_n(item.y)})"
        if item.name:
            text["id"] = self.unique(item.name)
        parent.add(text)

    def image(self, item: Image, parent: SvgGroup) -> None:
        raster = item.raster
        if raster.key not in self.images:
            pixels = raster.rgb
            if raster.mask is not None:
                # The colour pixels with, as alpha, how much of each the stencil mask
                # prints: the hard edge of print at the colour's resolution.
                pixels = pixels.convert("RGBA")
                pixels.putalpha(mask_coverage(raster.mask, pixels.size))
            buf = io.BytesIO()
            pixels.save(buf, format="PNG")
            self.images[raster.key] = "data:image/png;base64," + base64.b64encode(
                buf.getvalue()).decode()
        image = self.dwg.image(href=self.images[raster.key], insert=(_n(item.x), _n(item.y)),
                               size=(_n(item.w), _n(item.h)))
        image["preserveAspectRatio"] = "none"
        if item.name:
            image["id"] = self.unique(item.name)
        parent.add(image)


@lru_cache(maxsize=64)
def _woff_subset(font_file: bytes, chars: str) -> bytes:
    """The font cut down to ``chars``, as WOFF (deterministic: no timestamps touched;
    made once for the same font and characters, for the last 64 of them).
    fontTools' notes on what it drops (tables it cannot subset, such as FFTM) stay off
    stderr."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff"
    options.hinting = False
    options.desubroutinize = True
    options.name_IDs = ["*"]
    # Text is set without kerning or ligatures (as in the PDF), so the large layout
    # tables are dropped instead of being decoded and subset.
    options.layout_features = []
    with quiet_fonttools():
        font = TTFont(io.BytesIO(font_file), recalcTimestamp=False)
        for tag in UNUSED_TABLES:
            if tag in font:
                del font[tag]
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=chars)
        subsetter.subset(font)
        font.flavor = "woff"
        buf = io.BytesIO()
        font.save(buf)
    return buf.getvalue()
