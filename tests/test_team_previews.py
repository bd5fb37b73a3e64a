"""A batch's PNGs are previews (issue 26, point 4): ``cardgen card --batch`` writes its
PNGs at the preview resolution (``PREVIEW_DPI``) and zlib's fastest level, ``--dpi``
still decides, and the print files (PDF, SVG) are the bytes they were. The rasterizer's
fast paths (the fast zlib level, the resampled images it keeps) give the pixels of the
plain ones."""

from __future__ import annotations

import io
import itertools
import shutil
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from PIL import Image as PILImage
from PIL import ImageDraw

from benchmarks import png_baseline
from benchmarks.batch_baseline import team_files as _team_files
from cardgen.card.batch import PREVIEW_DPI, build_team
from cardgen.cli.card import PRINT_DPI
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Affine, Box
from cardgen.draw.page import Anchor, Document, Group, Image, Page, Raster, Text, View
from cardgen.prepress.dieline import DielineMode
from cardgen.render import Format, png
from cardgen.render.png import (
    FAST_ZLIB_LEVEL,
    ZLIB_LEVEL,
    _PngPainter,
    png_bytes,
    rasterize,
    render_png,
)
from cardgen.text.fonts import bundled_fonts
from cardgen.units import MM_PER_PT, px_per_mm
from tests.helpers import DATA, cli, error_line, examples, ok

STUDIO = """\
[card]
theme = "dark"

[person]
company = "Paper Lantern Games"
web = "paperlantern.example"

[images]
logo = "logo.png"
"""
PEOPLE = """\
person.name,person.title,person.email,images.portrait
Robin Vale,Game Designer,robin@paperlantern.example,
Sam Reed,Producer,,sam.png
"""
STEMS = ("robin-vale", "sam-reed")


@pytest.fixture(scope="module")
def team(tmp_path_factory) -> tuple[Path, Path]:
    """A studio config with a shared logo, and a table of two people, one with a
    portrait."""
    folder = tmp_path_factory.mktemp("previews")
    shutil.copy(DATA / "logo.png", folder / "logo.png")
    shutil.copy(DATA / "portrait.png", folder / "sam.png")
    (folder / "studio.toml").write_text(STUDIO, encoding="utf-8")
    (folder / "people.csv").write_text(PEOPLE, encoding="utf-8")
    return folder / "people.csv", folder / "studio.toml"


@pytest.fixture(scope="module")
def previews(team, tmp_path_factory) -> Path:
    """``cardgen card --batch`` with every format, as a user runs it."""
    table, config = team
    out = tmp_path_factory.mktemp("previews-out")
    ok(cli("card", config, "--batch", table, "-o", out, "-f", "pdf,svg,png"))
    return out


def _pngs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.png"))


def test_batch_pngs_are_previews_at_the_preview_resolution(previews):
    """Each PNG records the preview resolution, and has the pixels of its page at it."""
    pngs = _pngs(previews)
    assert [p.name for p in pngs] == ["dieline.png"] + [
        f"{stem}-{view}.png" for stem in STEMS for view in ("inside", "outside")]
    for path in pngs:
        with PILImage.open(path) as image:
            assert [round(d) for d in image.info["dpi"]] == [PREVIEW_DPI, PREVIEW_DPI]
            # An 85 × 55 mm card folds from 85 × 110 mm, with its bleed and slug around.
            assert image.size == (608, 756)
    assert round(85 * px_per_mm(PREVIEW_DPI)) == 502  # the card's width, as docs/team.md says


def test_batch_print_files_are_the_bytes_of_the_print_settings(team, previews, tmp_path):
    """The PDFs and SVGs of the batch are those the batch made when its PNGs were at
    print resolution, zlib level 6 (the same cards, drawn the old way in this process),
    and those a single ``cardgen card`` run makes for the same person."""
    table, config = team
    cards = build_team(table, config, DielineMode.FILE)
    formats = [Format.PDF, Format.SVG, Format.PNG]
    _, old, _ = _team_files(cards, previews, formats, cmyk=True, dpi=PRINT_DPI, fast=False)
    prints = sorted(p for p in old if p.suffix in (".pdf", ".svg"))
    assert sorted(previews.iterdir()) == sorted(old)
    assert len(prints) == 8  # two cards' PDF and two SVGs each, and the dieline's two files
    for path in prints:
        assert path.read_bytes() == old[path], path.name
    # The old way's PNGs were at print resolution.
    with PILImage.open(io.BytesIO(old[previews / "robin-vale-outside.png"])) as image:
        assert round(image.info["dpi"][0]) == PRINT_DPI
    single = (config.read_text(encoding="utf-8").replace(
        "[person]\n", '[person]\nname = "Robin Vale"\ntitle = "Game Designer"\n'
        'email = "robin@paperlantern.example"\n'))
    (config.parent / "robin.toml").write_text(single, encoding="utf-8")
    ok(cli("card", config.parent / "robin.toml", "-o", tmp_path, "--name", "robin-vale",
           "-f", "pdf,svg"))
    for name in ("robin-vale.pdf", "robin-vale-outside.svg", "robin-vale-inside.svg"):
        assert (tmp_path / name).read_bytes() == (previews / name).read_bytes(), name


def test_batch_preview_pixels_are_those_of_the_plain_path(team, previews, monkeypatch):
    """The previews decode to the pixels of the same pages drawn at the preview
    resolution by the rasterizer as it was before it kept anything between cards
    (``benchmarks/png_baseline.py``) and encoded at zlib level 6."""
    table, config = team
    cards = build_team(table, config, DielineMode.FILE)

    def frozen(view: View, dpi: float = 300, *, level: int = ZLIB_LEVEL) -> bytes:
        assert level == ZLIB_LEVEL
        return png_baseline.render_png(view, dpi)

    monkeypatch.setattr(png, "render_png", frozen)
    _, plain, _ = _team_files(cards, previews, [Format.PNG], cmyk=True, dpi=PREVIEW_DPI,
                              fast=False)
    assert sorted(plain) == _pngs(previews)
    for path, data in plain.items():
        with PILImage.open(path) as new, PILImage.open(io.BytesIO(data)) as old:
            assert new.tobytes() == old.tobytes(), path.name
        assert path.read_bytes() != data  # (another zlib level: other bytes)


def test_dpi_still_decides_in_a_batch(team, tmp_path):
    table, config = team
    ok(cli("card", config, "--batch", table, "-o", tmp_path, "-f", "png", "--dpi", "72"))
    for path in _pngs(tmp_path):
        with PILImage.open(path) as image:
            assert round(image.info["dpi"][0]) == 72
            assert image.size == (292, 363)


def test_dpi_without_png_is_refused_in_a_batch_too(team, tmp_path):
    table, config = team
    error_line(cli("card", config, "--batch", table, "-o", tmp_path, "-f", "pdf,svg",
                   "--dpi", "150"),
               "--dpi only applies to PNG files; add png to --format", status=2)
    assert not any(tmp_path.iterdir())


def test_one_cards_pngs_stay_at_print_resolution(tmp_path):
    ok(cli("card", "-o", tmp_path, "-f", "png"))
    with PILImage.open(tmp_path / "card-outside.png") as image:
        assert round(image.info["dpi"][0]) == PRINT_DPI == 300


@given(st.integers(1, 40), st.integers(1, 40), st.binary(min_size=16, max_size=64),
       st.sampled_from(["RGB", "L"]))
@settings(max_examples=examples(60), deadline=None, derandomize=True)
def test_the_fast_zlib_level_keeps_the_pixels(width, height, seed, mode):
    """Whatever the image, zlib's fastest level decodes to the pixels of level 6, with the
    resolution recorded."""
    raw = bytes(itertools.islice(itertools.cycle(seed), width * height * len(mode)))
    image = PILImage.frombytes(mode, (width, height), raw)
    fast, plain = (png_bytes(image, 150, level=level) for level in (FAST_ZLIB_LEVEL,
                                                                    ZLIB_LEVEL))
    with PILImage.open(io.BytesIO(fast)) as a, PILImage.open(io.BytesIO(plain)) as b:
        assert (a.mode, a.size, a.tobytes()) == (b.mode, b.size, b.tobytes())
        assert a.info["dpi"] == b.info["dpi"]


def test_render_png_takes_the_level(tmp_path):
    view = _view([Image(5, 5, 20, 10, _raster())])
    fast, plain = render_png(view, 100, level=1), render_png(view, 100)
    assert fast != plain
    with PILImage.open(io.BytesIO(fast)) as a, PILImage.open(io.BytesIO(plain)) as b:
        assert a.tobytes() == b.tobytes()


# -- the resampled images kept ------------------------------------------------------

def _raster(masked: bool = True) -> Raster:
    """A small picture with an edge in each direction and, when ``masked``, a stencil
    mask at four times its resolution."""
    rgb = PILImage.new("RGB", (24, 12), (200, 30, 30))
    rgb.paste((20, 40, 220), (12, 0, 24, 6))
    rgb.paste((250, 220, 10), (0, 6, 8, 12))
    if not masked:
        return Raster.from_images(rgb)
    mask = PILImage.new("1", (96, 48), 1)
    mask.paste(0, (0, 0, 20, 20))
    mask.paste(0, (70, 30, 96, 48))
    return Raster.from_images(rgb, mask=mask)


def _view(items) -> View:
    page = Page("p", 60, 40, Box(0, 0, 60, 40), Box(0, 0, 60, 40))
    page.layer("art").items.extend(items)
    return Document([page]).views()[0]


PLACEMENTS = [  # (turn in degrees, mirror x, mirror y, width mm, height mm, x mm, y mm)
    (turn, fx, fy, w, h, x, y)
    for turn in (0, 90, 180, 270, 33)
    for fx, fy in ((False, False), (True, False), (False, True))
    for w, h, x, y in ((20, 10, 30.2, 20.37), (7.3, 11.1, 29.9, 19.5))
]


@pytest.mark.parametrize("masked", [True, False])
def test_images_drawn_with_kept_resampling_match_the_plain_path(masked):
    """Upright, turned by quarter turns, mirrored, or at any angle, each image is drawn
    as the plain path draws it, on its first drawing and when its resampling is kept
    from an earlier one."""
    raster = _raster(masked)
    for turn, fx, fy, w, h, x, y in PLACEMENTS:
        transform = (Affine.translate(x, y) @ Affine.rotate(turn)
                     @ Affine(-1 if fx else 1, 0, 0, -1 if fy else 1, 0, 0))
        item = Image(-w / 2, -h / 2, w, h, raster)
        base = Affine.scale(px_per_mm(100))
        # the plain path: the image drawn as before it kept resampled images
        expected = png_baseline._PngPainter(PILImage.new("RGB", (240, 160), (255, 255, 255)))
        expected.image(item, base @ transform)
        png._FITTED.clear()
        for _ in range(2):  # made, then kept
            painter = _PngPainter(PILImage.new("RGB", (240, 160), (255, 255, 255)))
            painter.draw_all([Group([item], transform=transform)], base)
            assert painter.canvas.tobytes() == expected.canvas.tobytes(), (turn, fx, fy, w)
            assert expected.canvas.getextrema() != ((255, 255),) * 3  # (something drawn)


def test_a_shared_raster_is_resampled_once_per_size():
    raster = _raster()
    view = _view([Image(5, 5, 20, 10, raster), Image(30, 5, 20, 10, raster),
                  Image(5, 20, 10, 5, raster)])
    png._FITTED.clear()
    first = rasterize(view, 100)
    assert len(png._FITTED.entries) == 2  # two sizes: two resamplings
    assert rasterize(view, 100).tobytes() == first.tobytes()
    png._FITTED.limit = 0
    try:
        assert rasterize(view, 100).tobytes() == first.tobytes()  # nothing kept
        assert not png._FITTED.entries
    finally:
        png._FITTED.limit = png.FITTED_LIMIT


def test_kept_resamplings_are_few_and_for_the_raster_itself():
    kept = png._Kept(2)
    made: list[int] = []
    rasters = [_raster() for _ in range(3)]
    fit = (False, False, False, (4, 4))
    for raster in [*rasters, rasters[2], rasters[0]]:
        kept.get(raster, fit, lambda r=raster: (made.append(id(r)), (r.rgb, r.rgb))[1])
    # 0, 1, 2 made; 2 kept; 0 dropped by then (at most two kept), so made again.
    assert made == [id(rasters[0]), id(rasters[1]), id(rasters[2]), id(rasters[0])]
    assert len(kept.entries) == 2
    assert all(entry[0] is r for (key, entry), r in zip(
        kept.entries.items(), [rasters[2], rasters[0]], strict=True))
    assert kept.held == 2 * 2 * 24 * 12 * 3  # two entries of two 24 × 12 RGB images


def test_kept_pixels_stay_within_the_budget():
    """The least recently used go first when the pixels would exceed the budget, and what
    alone exceeds it is made every time, never kept."""
    kept: png._Kept[int, PILImage.Image] = png._Kept(100, budget=1000)
    owner = object()
    made: list[int] = []

    def image(side: int) -> PILImage.Image:
        made.append(side)
        return PILImage.new("L", (side, side))

    for side in (20, 20, 10, 40, 20, 10):  # 400, 400 kept; 100 kept; 1600 never; …
        kept.get(owner, side, lambda s=side: image(s))
        assert kept.held <= 1000
        assert kept.held == sum(entry[2] for entry in kept.entries.values())
    assert made == [20, 10, 40]
    assert [key for _, key in kept.entries] == [20, 10]
    kept.get(owner, 30, lambda: image(30))  # 900: the least recently used (20) goes
    assert [key for _, key in kept.entries] == [10, 30] and kept.held == 1000
    kept.clear()
    assert not kept.entries and kept.held == 0


# -- the texts kept rendered ---------------------------------------------------------

def _plain_text(canvas: PILImage.Image, item: Text) -> None:
    """``_PngPainter.text`` as it was before it kept rendered texts (issue 26): Pillow's
    ``ImageDraw.text`` for upright text, a mask of its own turned onto the page else."""
    m = Affine.translate(item.x, item.y) @ Affine.rotate(item.rotation)
    k = m.scale_factor
    font = png._font(item.font, round(item.size * MM_PER_PT * k, 2))
    anchor = png._ANCHORS[item.anchor]
    if abs(m.b) < 1e-9 and abs(m.c) < 1e-9 and m.a > 0 and m.d > 0:
        ImageDraw.Draw(canvas).text((m.e, m.f), item.text, font=font, fill=item.color.rgb,
                                    anchor=anchor)
        return
    left, top, right, bottom = font.getbbox(item.text, anchor=anchor)
    mask = PILImage.new("L", (int(right - left) + 4, int(bottom - top) + 4), 0)
    origin = (2 - left, 2 - top)
    ImageDraw.Draw(mask).text(origin, item.text, font=font, fill=255, anchor=anchor)
    placement = Affine(m.a / k, m.b / k, m.c / k, m.d / k, m.e, m.f) @ Affine.translate(
        -origin[0], -origin[1])
    _PngPainter(canvas)._place(PILImage.new("RGB", mask.size, item.color.rgb), mask,
                               placement)


TEXTS = ["Robin Vale", "Zoë Ångström-Lee", "gjpqy|ÅÉ", "+44 20 7946 0958", "A", " ",
         "fi fl ffi", "Line\nbreak"]


@given(st.sampled_from(TEXTS), st.sampled_from(["regular", "bold", "italic"]),
       st.floats(4, 30), st.floats(-20, 140), st.floats(-10, 70),
       st.sampled_from(list(Anchor)), st.sampled_from([0.0, 0.0, 90.0, 180.0, 270.0, 17.5]),
       st.integers(1, 3))
@settings(max_examples=examples(200), deadline=None, derandomize=True)
def test_texts_drawn_with_kept_rendering_match_the_plain_path(text, style, size, x, y, anchor,
                                                               rotation, shift):
    """Any text, in any face, size, anchor and turn, at any point (fractions of a pixel,
    off the canvas's edges), is drawn as Pillow draws it: on its first drawing, and when
    its rendering is kept from a drawing at another whole pixel. (Pillow measures no
    text of several lines, so that none is turned.)"""
    assume("\n" not in text or rotation == 0)
    face = getattr(bundled_fonts(), style)
    item = Text(x, y, text, face, size, Color.cmyk(80, 30, 0, 10), anchor, rotation)
    moved = Text(x + shift, y + shift, text, face, size, item.color, anchor, rotation)
    for drawn in (item, moved, item):
        expected = PILImage.new("RGB", (120, 60), (250, 250, 250))
        _plain_text(expected, drawn)
        painter = _PngPainter(PILImage.new("RGB", (120, 60), (250, 250, 250)))
        painter.text(drawn, Affine.scale(1))
        assert painter.canvas.tobytes() == expected.tobytes(), (text, x, y, anchor, rotation)


def test_a_text_is_kept_from_its_second_drawing_on():
    """The first time a text is asked for, nothing is made (it is drawn the plain way);
    from the second on it is made once and kept."""
    kept: png._Kept[str, PILImage.Image] = png._Kept(2)
    owner = object()
    made: list[str] = []

    def mask(text: str) -> PILImage.Image:
        made.append(text)
        return PILImage.new("L", (2, 2))

    assert kept.get_again(owner, "a", lambda: mask("a")) is None
    assert kept.get_again(owner, "b", lambda: mask("b")) is None
    first = kept.get_again(owner, "a", lambda: mask("a"))
    assert first is not None and kept.get_again(owner, "a", lambda: mask("a")) is first
    assert made == ["a"]
    for text in "cdefghijk":  # more than 4 × 2 first times: "b" is forgotten
        kept.get_again(owner, text, lambda t=text: mask(t))
    assert kept.get_again(owner, "b", lambda: mask("b")) is None
    assert made == ["a"]
