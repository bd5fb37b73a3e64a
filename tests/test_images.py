"""Portraits behind the grids and the front-panel logo (SPEC §2, grid art)."""

from __future__ import annotations

import io
from dataclasses import replace

import pdfplumber
import pytest
from PIL import Image as PILImage
from pypdf import PdfReader

from cardgen.board.cells import Grid
from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.card.portrait import portrait_rasters
from cardgen.card.themes import load_theme
from cardgen.draw.page import Image, page_items
from cardgen.draw.raster import PRINT_DPI, open_image, pixels_for
from cardgen.render.pdf import render_pdf
from cardgen.render.png import rasterize
from cardgen.units import MM_PER_INCH, PT_PER_MM, px_per_mm


def _photo(width: int = 900, height: int = 600) -> PILImage.Image:
    """A colourful test photo with a black square marking its top-left corner."""
    image = PILImage.new("RGB", (width, height), (200, 160, 120))
    image.paste((30, 120, 40), (width // 2, 0, width, height // 2))
    image.paste((0, 0, 0), (0, 0, width // 6, height // 6))
    return image


def _with_exif_orientation(image: PILImage.Image, orientation: int, path) -> None:
    exif = PILImage.Exif()
    exif[0x0112] = orientation
    image.save(path, exif=exif.tobytes())


def _config(tmp_path, **images):
    config = load_config(None)
    return replace(config, **{k: tmp_path / v for k, v in images.items()})


def test_exif_orientation_is_honoured(tmp_path):
    photo = _photo()
    # Orientation 6: the viewer turns the stored pixels 90° clockwise to show them.
    stored = photo.transpose(PILImage.Transpose.ROTATE_90)
    _with_exif_orientation(stored, 6, tmp_path / "rotated.jpg")
    upright = open_image(tmp_path / "rotated.jpg", "images.portrait")
    assert upright.size == photo.size
    assert upright.getpixel((10, 10))[0] < 40  # the black corner is back at the top left
    assert upright.getpixel((photo.width - 10, 10))[1] > 90


def test_portrait_is_square_tinted_faded_at_300_dpi():
    theme = load_theme("dark")
    tints = (theme.inside["tint_a"], theme.inside["tint_b"])
    side_mm = 49.0
    a, b, dpi = portrait_rasters(_photo(), side_mm, tints, theme.portrait_strength)
    n = pixels_for(side_mm)
    assert a.size == b.size == (n, n)
    assert n / (side_mm / MM_PER_INCH) >= PRINT_DPI  # ≥ 300 dpi effective
    assert (n - 1) / (side_mm / MM_PER_INCH) < PRINT_DPI  # and no larger than needed
    assert dpi == pytest.approx(600 / (side_mm / MM_PER_INCH))
    floor = 255 * (1 - theme.portrait_strength) - 1
    for raster, tint in ((a, tints[0]), (b, tints[1])):
        data = raster.rgb.tobytes()  # r, g, b, r, g, b, ...
        # Faded: nothing darker than the theme allows, so pencil stays readable.
        assert min(data) >= floor - 255 * (1 - min(tint.rgb) / 255)
        # Desaturated then tinted: every pixel lies between white and the tint colour
        # (checked on about 500 pixels spread evenly over the raster).
        step = 3 * max(1, len(data) // 3 // 500)
        for i in range(0, len(data), step):
            r, g, bl = data[i:i + 3]
            depth = [(255 - v) / max(255 - t, 1) for v, t in zip((r, g, bl), tint.rgb,
                                                                  strict=True)]
            live = [d for d, t in zip(depth, tint.rgb, strict=True) if t < 250]
            assert max(live) - min(live) < 0.03
        assert raster.cmyk.mode == "CMYK"
    # Blue under grid A, red under grid B.
    ra, _, ba = a.rgb.resize((1, 1), PILImage.Resampling.BOX).getpixel((0, 0))
    rb, _, bb = b.rgb.resize((1, 1), PILImage.Resampling.BOX).getpixel((0, 0))
    assert ba > ra and rb > bb


def test_portrait_embedded_over_each_grid(tmp_path):
    _photo(1200, 1600).save(tmp_path / "me.png")
    build = build_card(_config(tmp_path, portrait="me.png"))
    g = build.geometry
    data = render_pdf(build.document)
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        images = pdf.pages[1].images
    assert len(images) == 2
    for grid in (g.board.grid_a, g.board.grid_b):
        match = [im for im in images if abs(im["x0"] / PT_PER_MM - grid.x) < 0.01
                 and abs(im["top"] / PT_PER_MM - grid.y) < 0.01]
        assert len(match) == 1
        im = match[0]
        assert abs((im["x1"] - im["x0"]) / PT_PER_MM - grid.w) < 0.01
        assert im["srcsize"][0] / (grid.w / MM_PER_INCH) >= 300
        assert im["srcsize"][0] == pixels_for(grid.w)
    reader = PdfReader(io.BytesIO(data))
    xobjects = reader.pages[1]["/Resources"]["/XObject"]
    for ref in xobjects.values():
        assert ref.get_object()["/ColorSpace"] == "/DeviceCMYK"
    # The photo under grid A is turned 180° so that it is upright for that player.
    turned = [t for item, t in page_items(build.document.pages[1])
              if isinstance(item, Image) and item.name == "portrait-A"]
    assert turned[0].a == -1 and turned[0].d == -1


def test_no_photo_gives_a_light_tint(example_build):
    g = example_build.geometry
    inside = example_build.document.pages[1]
    assert not [i for i, _ in page_items(inside) if isinstance(i, Image)]
    view = example_build.document.views()[1]
    png = rasterize(view, 100)
    k = px_per_mm(100)
    # Probe the middle of a cell (away from the grid lines) in each grid.
    for grid, channel in ((Grid.A, 2), (Grid.B, 0)):
        x, y = g.board.cell_center(grid, 4, 5)
        pixel = png.getpixel((int(x * k), int(y * k)))
        assert min(pixel) > 215 and pixel[channel] == max(pixel)


@pytest.mark.parametrize("fmt, mode", [("JPEG", "RGB"), ("PNG", "RGBA"), ("PNG", "L"),
                                        ("WEBP", "RGB"), ("TIFF", "CMYK"), ("GIF", "P"),
                                        ("BMP", "RGB")])
def test_common_formats_and_modes(tmp_path, fmt, mode):
    path = tmp_path / f"photo.{fmt.lower()}"
    _photo(300, 400).convert(mode).save(path, format=fmt)
    build = build_card(_config(tmp_path, portrait=path.name))
    assert len([i for i, _ in page_items(build.document.pages[1]) if isinstance(i, Image)]) == 2
    # A small photo is stretched over the grid, and the user is told it may print soft.
    assert any("images.portrait" in w and "dpi" in w for w in build.warnings)


def test_logo_with_transparency(tmp_path):
    logo = PILImage.new("RGBA", (600, 300), (0, 0, 0, 0))
    logo.paste((220, 40, 40, 255), (100, 50, 500, 250))
    logo.save(tmp_path / "logo.png")
    build = build_card(_config(tmp_path, logo="logo.png"))
    placed = [(i, t) for i, t in page_items(build.document.pages[0])
              if isinstance(i, Image) and i.name == "logo"]
    assert len(placed) == 1
    item, _ = placed[0]
    assert item.raster.mask is not None and item.raster.cmyk.mode == "CMYK"
    assert item.w / item.h == pytest.approx(2.0, rel=0.01)
    assert item.raster.size[0] == pixels_for(item.w)
    data = render_pdf(build.document)
    reader = PdfReader(io.BytesIO(data))
    xobjects = reader.pages[0]["/Resources"]["/XObject"]
    logo_obj = next(ref.get_object() for ref in xobjects.values())
    assert logo_obj["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in logo_obj
    assert logo_obj["/Mask"].get_object()["/ImageMask"].value is True
    assert b"/DeviceRGB" not in data
