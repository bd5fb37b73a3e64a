"""The three renderers draw the same page: positions read back from the PDF and the SVG,
pixel probes in the PNG, all against the page model."""

from __future__ import annotations

import io
import math
import re
import xml.etree.ElementTree as ET

import pdfplumber
import pytest
from PIL import Image as PILImage

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import (
    CLOSE,
    Anchor,
    CurveTo,
    Document,
    Group,
    Image,
    Line,
    LineTo,
    MoveTo,
    Page,
    Path,
    Raster,
    Rect,
    Stroke,
    Text,
    View,
    page_items,
)
from cardgen.render.pdf import render_pdf
from cardgen.render.png import _dashes, rasterize, render_png
from cardgen.render.svg import render_svg
from cardgen.text.fonts import bundled_fonts
from cardgen.units import PT_PER_MM, px_per_mm

SVG = "{http://www.w3.org/2000/svg}"
RED = Color.cmyk(0, 100, 100, 0)
BLUE = Color.cmyk(100, 60, 0, 0)
GREEN = Color.cmyk(80, 0, 100, 0)
BLACK = Color.cmyk(0, 0, 0, 100)
DPI = 300


def _spread() -> Page:
    """A test spread with everything a renderer must handle: rotated groups, anchors,
    text rotation, dashes, Béziers, images, clipping, and a non-printing layer."""
    fonts = bundled_fonts()
    page = Page("spread", 120, 80, Box(10, 10, 100, 60), Box(7, 7, 106, 66))
    art = page.layer("art")
    art.add(Rect(10, 10, 20, 15, fill=RED))
    art.add(Group([Rect(0, 0, 12, 6, fill=BLUE)], transform=Affine.translate(60, 40)
                  @ Affine.rotate(180), name="turned"))
    art.add(Group([Rect(-50, -50, 200, 200, fill=GREEN)], clip=Box(85, 12, 10, 8)))
    art.add(Line(10, 75, 110, 75, Stroke(BLACK, 0.3, dash=(2, 1))))
    art.add(Path((MoveTo(70, 50), CurveTo(80, 40, 90, 60, 100, 50), LineTo(100, 60), CLOSE),
                 fill=BLUE))
    pixels = PILImage.new("RGB", (40, 20), (255, 0, 0))
    pixels.paste((0, 0, 255), (20, 0, 40, 20))
    art.add(Group([Image(0, 0, 16, 8, Raster.from_images(pixels))],
                  transform=Affine.translate(30, 60) @ Affine.rotate(90), name="photo"))
    labels = page.layer("labels")
    labels.add(Text(20, 35, "Start", fonts.bold, 14, BLACK, name="t-start"))
    labels.add(Text(60, 20, "Middle", fonts.regular, 12, BLACK, anchor=Anchor.MIDDLE, name="t-mid"))
    labels.add(Text(110, 35, "End", fonts.italic, 12, BLACK, anchor=Anchor.END, name="t-end"))
    labels.add(Group([Text(0, 0, "Turned", fonts.regular, 10, BLACK, anchor=Anchor.MIDDLE,
                           name="t-grp")],
                     transform=Affine.translate(40, 50) @ Affine.rotate(180)))
    labels.add(Text(15, 45, "Rot90", fonts.regular, 9, BLACK, rotation=90, name="t-90"))
    return page


@pytest.fixture(scope="module")
def spread() -> Page:
    return _spread()


@pytest.fixture(scope="module")
def png_image(spread) -> PILImage.Image:
    """The spread as rendered to PNG at DPI, decoded once per module."""
    data = render_png(View("spread", spread, tuple(spread.layers)), DPI)
    image = PILImage.open(io.BytesIO(data))
    image.load()
    return image


def _model_anchors(page: Page) -> dict[str, tuple[tuple[float, float], float]]:
    """Each named text's anchor point on the page and its direction (degrees)."""
    out = {}
    for item, t in page_items(page):
        if isinstance(item, Text) and item.name:
            m = t @ Affine.translate(item.x, item.y) @ Affine.rotate(item.rotation)
            out[item.name] = ((m.e, m.f), math.degrees(math.atan2(m.b, m.a)) % 360)
    return out


def _text_by_name(page: Page) -> dict[str, Text]:
    return {i.name: i for i, _ in page_items(page) if isinstance(i, Text) and i.name}


def _angle_close(a: float, b: float, tol: float = 0.01) -> bool:
    return abs((a - b + 180) % 360 - 180) < tol


def test_pdf_text_positions_match_model(spread):
    data = render_pdf(Document([spread]))
    texts = _text_by_name(spread)
    expected = _model_anchors(spread)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        chars = pdf.pages[0].chars
        for name, text in texts.items():
            run = [c for c in chars if c["text"] == text.text[0]]
            (ex, ey), angle = expected[name]
            found = False
            for char in run:
                a, b, _, _, e, f = char["matrix"]
                origin = (e / PT_PER_MM, spread.height - f / PT_PER_MM)
                direction = math.degrees(math.atan2(-b, a)) % 360
                # The anchor lies along the baseline from the first glyph's origin.
                shift = {"start": 0, "middle": 0.5, "end": 1}[text.anchor] * text.font.width(
                    text.text, text.size)
                rad = math.radians(direction)
                anchor = (origin[0] + shift * math.cos(rad), origin[1] + shift * math.sin(rad))
                if math.dist(anchor, (ex, ey)) < 0.05 and _angle_close(direction, angle):
                    found = True
            assert found, f"{name} not found at {(ex, ey)} angle {angle}"


def _svg_transform(attr: str | None) -> Affine:
    t = Affine()
    for kind, args in re.findall(r"(matrix|rotate|translate)\(([^)]*)\)", attr or ""):
        v = [float(x) for x in args.replace(",", " ").split()]
        if kind == "matrix":
            t = t @ Affine(*v)
        elif kind == "translate":
            t = t @ Affine.translate(v[0], v[1] if len(v) > 1 else 0)
        else:
            t = t @ Affine.rotate(v[0], *(v[1:3] if len(v) == 3 else (0, 0)))
    return t


def _svg_anchors(root: ET.Element) -> dict[str, tuple[tuple[float, float], float]]:
    out = {}

    def visit(node: ET.Element, t: Affine) -> None:
        t = t @ _svg_transform(node.get("transform"))
        if node.tag == f"{SVG}text" and node.get("id"):
            m = t @ Affine.translate(float(node.get("x")), float(node.get("y")))
            out[node.get("id")] = ((m.e, m.f), math.degrees(math.atan2(m.b, m.a)) % 360)
        for child in node:
            visit(child, t)

    visit(root, Affine())
    return out


def test_svg_geometry_in_mm_matches_model(spread):
    root = ET.fromstring(render_svg(View("spread", spread, tuple(spread.layers))))
    assert root.get("viewBox") == "0 0 120 80"
    assert root.get("width") == "120mm" and root.get("height") == "80mm"
    found = _svg_anchors(root)
    for name, ((x, y), angle) in _model_anchors(spread).items():
        (sx, sy), sangle = found[name]
        assert math.dist((sx, sy), (x, y)) < 0.001, name
        assert _angle_close(sangle, angle), name
    anchors = {el.get("id"): el.get("text-anchor", "start") for el in root.iter(f"{SVG}text")}
    assert anchors["t-mid"] == "middle" and anchors["t-end"] == "end"
    assert any(el.get("stroke-dasharray") == "2 1" for el in root.iter(f"{SVG}line"))
    layers = [g.get("{http://www.inkscape.org/namespaces/inkscape}label")
              for g in root.findall(f"{SVG}g")]
    assert layers == ["art", "labels"]  # the non-printing layer is a view of its own


def _probe(image: PILImage.Image, x_mm: float, y_mm: float) -> tuple[int, int, int]:
    k = px_per_mm(DPI)
    return image.getpixel((int(x_mm * k), int(y_mm * k)))


def test_png_pixels_match_model(png_image):
    image = png_image
    assert image.mode == "RGB"
    assert image.size == (round(120 * px_per_mm(DPI)), round(80 * px_per_mm(DPI)))
    assert _probe(image, 15, 15) == RED.rgb
    assert _probe(image, 31, 15) == (255, 255, 255)
    # The turned group's rect spans x 48..60, y 34..40 after the 180° turn about (60, 40).
    assert _probe(image, 50, 37) == BLUE.rgb
    assert _probe(image, 62, 37) == (255, 255, 255)
    # Clipping: only the 10 × 8 mm window of the huge green rect shows.
    assert _probe(image, 90, 16) == GREEN.rgb
    assert _probe(image, 80, 16) == (255, 255, 255)
    # The image turned 90° clockwise about (30, 60): its red half lies above its blue one.
    assert _probe(image, 26, 64) == (255, 0, 0)
    assert _probe(image, 26, 72) == (0, 0, 255)
    # The Bézier path is filled under the curve's end segment.
    assert _probe(image, 98, 55) == BLUE.rgb


def _ink_centroid(image: PILImage.Image, box: Box) -> tuple[float, float]:
    k = px_per_mm(DPI)
    crop = image.crop((int(box.x * k), int(box.y * k), int(box.right * k), int(box.bottom * k)))
    gray = crop.convert("L")
    total = sx = sy = 0.0
    width = gray.width
    for index, value in enumerate(gray.tobytes()):
        ink = 255 - value
        if ink > 128:
            j, i = divmod(index, width)
            total += ink
            sx += ink * i
            sy += ink * j
    assert total, f"no ink in {box}"
    return (box.x + sx / total / k, box.y + sy / total / k)


@pytest.mark.parametrize("name", ["t-mid", "t-grp", "t-90"])
def test_png_text_lands_where_the_model_says(spread, png_image, name):
    """The ink of a text run is centred where its glyph boxes are in the model, at any
    rotation: the run's middle, half a cap height off the baseline."""
    image = png_image
    text = _text_by_name(spread)[name]
    (ax, ay), angle = _model_anchors(spread)[name]
    shift = {"start": 0.5, "middle": 0, "end": -0.5}[text.anchor] * text.font.width(
        text.text, text.size)
    lift = text.font.metrics.cap_height_mm(text.size) * 0.5
    rad = math.radians(angle)
    cx = ax + shift * math.cos(rad) + lift * math.sin(rad)
    cy = ay + shift * math.sin(rad) - lift * math.cos(rad)
    half = text.font.width(text.text, text.size) / 2 + 1
    window = Box(cx - half, cy - half, 2 * half, 2 * half)
    gx, gy = _ink_centroid(image, window)
    assert math.dist((gx, gy), (cx, cy)) < 0.6


def test_pdf_carries_page_boxes(spread):
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(render_pdf(Document([spread, _spread()]))))
    assert len(reader.pages) == 2  # one PDF page per page, whatever its layers
    for page in reader.pages:
        assert [round(float(v) / PT_PER_MM, 3) for v in page.trimbox] == [10, 10, 110, 70]
        assert [round(float(v) / PT_PER_MM, 3) for v in page.bleedbox] == [7, 7, 113, 73]
        assert [round(float(v) / PT_PER_MM, 3) for v in page.mediabox] == [0, 0, 120, 80]


def test_document_views_are_its_pages_with_all_their_layers(spread):
    views = Document([spread]).views()
    assert [v.name for v in views] == ["spread"]
    assert [layer.name for layer in views[0].layers] == [layer.name for layer in spread.layers]


def test_dash_pattern_splits_a_line():
    pieces = _dashes([(0, 0), (10, 0)], [2, 1])
    assert [(round(p[0][0], 6), round(p[-1][0], 6)) for p in pieces] == [
        (0, 2), (3, 5), (6, 8), (9, 10)]


def test_renderers_are_deterministic(spread):
    view = View("spread", spread, tuple(spread.layers))
    assert render_pdf(Document([spread])) == render_pdf(Document([_spread()]))
    assert render_svg(view) == render_svg(View("spread", _spread(), view.layers))
    assert render_png(view, 100) == render_png(view, 100)
    assert rasterize(view, 100).tobytes() == rasterize(view, 100).tobytes()
