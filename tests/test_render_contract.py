"""The contract every renderer keeps, checked on each backend alike: one dispatcher and
one path walker (``cardgen.render.base``), every item type drawn, anything unknown
refused with a TypeError, bytes out, the same bytes every time."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from PIL import Image as PILImage

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import (
    CLOSE,
    CurveTo,
    Document,
    Group,
    Image,
    Item,
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
)
from cardgen.render import Format, render, render_files
from cardgen.render.base import Painter, walk_path
from cardgen.render.pdf import _PdfPainter, render_pdf
from cardgen.render.png import _PngPainter, render_png
from cardgen.render.svg import _SvgPainter, render_svg
from cardgen.text.fonts import bundled_fonts

RED = Color.cmyk(0, 100, 100, 0)
PRIMITIVES = ("rect", "line", "path", "text", "image", "group")


def _page(*items: Item, name: str = "p") -> Page:
    paper = Box(0, 0, 40, 30)
    page = Page(name, 40, 30, paper, paper)
    page.layer("art").add(*items)
    return page


def _view(*items: Item) -> View:
    return Document([_page(*items)]).views()[0]


BACKENDS: dict[str, Callable[[View], bytes]] = {
    "pdf": lambda view: render_pdf(Document([view.page])),
    "svg": render_svg,
    "png": lambda view: render_png(view, 72),
}


@dataclass(frozen=True)
class Mystery:
    """Not an item of the page model."""

    x: float = 0.0


def _every_item() -> list[Item]:
    fonts = bundled_fonts()
    raster = Raster.from_images(PILImage.new("RGB", (4, 4), (200, 30, 30)))
    path = Path((MoveTo(2, 2), LineTo(8, 2), CurveTo(9, 4, 9, 6, 8, 8), CLOSE), fill=RED,
                stroke=Stroke(RED, 0.3))
    return [Rect(1, 1, 5, 5, fill=RED, stroke=Stroke(RED, 0.2)),
            Line(1, 10, 20, 10, Stroke(RED, 0.3, dash=(1, 0.5))),
            path,
            Text(10, 20, "Aa", fonts.regular, 8, RED),
            Image(20, 2, 6, 6, raster),
            Group([Rect(0, 0, 2, 2, fill=RED)], transform=Affine.rotate(90, 30, 15),
                  clip=Box(-1, -1, 4, 4), name="g")]


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_every_item_type_is_drawn_into_bytes_the_same_every_time(backend):
    draw = BACKENDS[backend]
    first = draw(_view(*_every_item()))
    assert isinstance(first, bytes) and first
    assert draw(_view(*_every_item())) == first
    assert draw(_view()) != first  # the items really are in the output


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_an_unknown_item_raises_type_error(backend):
    with pytest.raises(TypeError, match="Mystery"):
        BACKENDS[backend](_view(Mystery()))  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_an_unknown_item_inside_a_group_raises_type_error(backend):
    group = Group([Rect(0, 0, 1, 1, fill=RED), Mystery()])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="Mystery"):
        BACKENDS[backend](_view(group))


@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_an_unknown_path_operation_raises_type_error(backend):
    path = Path((MoveTo(0, 0), ("L", 5, 5)), stroke=Stroke(RED, 0.2))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="path operation"):
        BACKENDS[backend](_view(path))


@pytest.mark.parametrize("painter", [_PdfPainter, _SvgPainter, _PngPainter])
def test_backends_implement_primitives_only(painter):
    """One dispatcher: no backend overrides ``draw``/``draw_all``; each implements every
    primitive as its own method."""
    assert painter.draw is Painter.draw and painter.draw_all is Painter.draw_all
    for name in PRIMITIVES:
        assert name in painter.__dict__, f"{painter.__name__} lacks {name}"


def test_backend_instances_keep_their_primitives_callable():
    """No attribute set on an instance may hide a primitive (a canvas called ``image``
    would silently replace the ``image`` method)."""
    import svgwrite
    from reportlab.pdfgen.canvas import Canvas

    instances = [_PdfPainter(Canvas(io.BytesIO()), True),
                 _SvgPainter(svgwrite.Drawing()),
                 _PngPainter(PILImage.new("RGB", (2, 2)))]
    for instance in instances:
        for name in (*PRIMITIVES, "draw", "draw_all"):
            assert name not in vars(instance), (type(instance).__name__, name)


class _Recorder(Painter[list[str]]):
    def rect(self, item: Rect, ctx: list[str]) -> None:
        ctx.append("rect")

    def line(self, item: Line, ctx: list[str]) -> None:
        ctx.append("line")

    def path(self, item: Path, ctx: list[str]) -> None:
        ctx.append("path")

    def text(self, item: Text, ctx: list[str]) -> None:
        ctx.append("text")

    def image(self, item: Image, ctx: list[str]) -> None:
        ctx.append("image")

    def group(self, item: Group, ctx: list[str]) -> None:
        ctx.append("group(")
        self.draw_all(item.items, ctx)
        ctx.append(")")


def test_the_dispatcher_calls_one_primitive_per_item_in_order():
    calls: list[str] = []
    _Recorder().draw_all(_every_item(), calls)
    assert calls == ["rect", "line", "path", "text", "image", "group(", "rect", ")"]


def test_the_path_walker_turns_each_operation_into_one_call():
    calls = []

    class Sink:
        def move_to(self, x, y):
            calls.append(("M", x, y))

        def line_to(self, x, y):
            calls.append(("L", x, y))

        def curve_to(self, *xy):
            calls.append(("C", *xy))

        def close(self):
            calls.append(("Z",))

    walk_path((MoveTo(1, 2), LineTo(3, 4), CurveTo(5, 6, 7, 8, 9, 10), CLOSE), Sink())
    assert calls == [("M", 1, 2), ("L", 3, 4), ("C", 5, 6, 7, 8, 9, 10), ("Z",)]


def test_render_names_the_files_of_a_document():
    one = Document([_page(Rect(1, 1, 2, 2, fill=RED))])
    assert list(render(one, [Format.PDF, Format.SVG, Format.PNG], dpi=36)) == [
        ".pdf", ".svg", ".png"]
    two = Document([_page(name="outside"), _page(name="inside")])
    assert list(render(two, [Format.SVG])) == ["-outside.svg", "-inside.svg"]
    from pathlib import Path as FilePath

    files = render_files(two, FilePath("out") / "card", [Format.PDF, Format.SVG])
    assert [str(p) for p in files] == ["out/card.pdf", "out/card-outside.svg",
                                       "out/card-inside.svg"]


def test_every_format_has_a_registered_backend():
    """Renderers are a {Format: backend} table, not a chain of ifs: every Format is
    registered, is looked up by its name too, and makes its files; anything else is a
    ParameterError naming the formats there are."""
    from cardgen.errors import ParameterError
    from cardgen.render import BACKENDS, backend

    assert set(BACKENDS) == set(Format)
    one = Document([_page(Rect(1, 1, 2, 2, fill=RED))])
    for fmt in Format:
        assert backend(fmt) is BACKENDS[fmt] is backend(str(fmt))
        data = render(one, [fmt], dpi=36)[f".{fmt}"]
        assert data and data == BACKENDS[fmt].make(
            one if not BACKENDS[fmt].per_view else one.views(preview=True)[0],
            cmyk=True, dpi=36)
    with pytest.raises(ParameterError) as caught:
        render(one, list[Format]([Format.PDF, "tiff"]))  # a format no backend has
    assert str(caught.value) == "format must be one of pdf, svg, png, not 'tiff'."
    assert caught.value.parameter == "format"
