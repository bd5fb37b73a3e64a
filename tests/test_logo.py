"""The logo in print (issue 8, item 3): the logo's own colours through one hard-edged
stencil mask, no live transparency, and a warning when a white-ground logo would print
as a white box on a dark business side.

The tests read the produced files back: PDF objects and content streams with pikepdf,
PDF pages as PDFium renders them, the PNG preview and the image inside the SVG.
"""

from __future__ import annotations

import base64
import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

import pikepdf
import pytest
from PIL import Image, ImageChops, ImageDraw

from cardgen.card.logo import DARK_BACKGROUND, is_dark
from cardgen.card.themes import load_theme
from cardgen.draw.colors import Color, relative_luminance
from cardgen.draw.raster import (
    BORDER_BAND,
    MASK_DPI,
    PRINT_DPI,
    near_white_border,
    split_alpha,
    unblended_resize,
)
from tests.helpers import BASE_CONFIG, cli, ok, write_config
from tests.pdfops import apply, interpret
from tests.pdfread import render_page

FILL = (10, 29, 89)  # the logo fill of the example: about C89 M67 Y0 K65
DISC = 0.45  # the test disc's radius, as a share of the logo's side
PDF_DPI = 600  # PDFium's rendering of the PDF
PNG_DPI = 150  # cardgen's own PNG preview


def disc_image(side: int = 400, fill: tuple[int, int, int] = FILL) -> Image.Image:
    """A filled disc on transparency, anti-aliased (drawn at 4× and reduced) like any
    exported logo: edge pixels have the fill colour and partial alpha; fully transparent
    pixels store white, which a careless resampling bleeds into the edge."""
    big = Image.new("L", (4 * side, 4 * side), 0)
    inset = round(4 * side * (0.5 - DISC))
    ImageDraw.Draw(big).ellipse((inset, inset, 4 * side - inset, 4 * side - inset), fill=255)
    alpha = big.resize((side, side), Image.Resampling.BOX)
    colour = Image.new("RGB", (side, side), (255, 255, 255))
    colour.paste(fill, mask=alpha.point(lambda v: 255 if v else 0))
    logo = colour.convert("RGBA")
    logo.putalpha(alpha)
    return logo


def disc_logo(path: Path, side: int = 400) -> Path:
    disc_image(side).save(path)
    return path


def luminance(pixel: tuple[int, ...]) -> float:
    """Lightness as a viewer shows it: luma of the gamma-encoded values (Rec. 601), 0–255,
    so that steps between dark colours count as the eye sees them."""
    return 0.299 * pixel[0] + 0.587 * pixel[1] + 0.114 * pixel[2]


@dataclass
class Run:
    folder: Path
    pdf: Path
    png: Path
    svg: Path
    stderr: str


def card_run(folder: Path, logo: str | None, *args: str) -> Run:
    """``cardgen card`` on the base config (dark theme) with ``images.logo = logo``."""
    folder.mkdir(parents=True, exist_ok=True)
    text = BASE_CONFIG + (f'\n[images]\nlogo = "{logo}"\n' if logo else "")
    config = write_config(folder, text)
    pngs = "-f" not in args or "png" in args[args.index("-f") + 1]  # (--dpi: PNGs only)
    dpi = ["--dpi", str(PNG_DPI)] if pngs else []
    result = ok(cli("card", config, "-o", folder / "out", *dpi, *args))
    out = folder / "out"
    return Run(folder, out / "card.pdf", out / "card-outside.png", out / "card-outside.svg",
               result.stderr)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """The dark card with the disc logo (twice, in two folders), and with an invisible
    logo of the same size: the same layout, showing what lies beneath the logo."""
    base = tmp_path_factory.mktemp("logo")
    found = {}
    for name in ("disc", "again", "plain"):
        (base / name).mkdir()
        if name == "plain":
            Image.new("RGBA", (400, 400), (255, 255, 255, 0)).save(base / name / "disc.png")
            found[name] = card_run(base / name, "disc.png", "-f", "pdf,png")
        else:
            disc_logo(base / name / "disc.png")
            found[name] = card_run(base / name, "disc.png")
    return found


# --- reading the PDF ------------------------------------------------------------------

@dataclass
class Placed:
    """An image XObject and the box it is drawn in: x, y from the page's top-left corner
    and w, h, all in points (the image fills the unit square of its CTM)."""

    image: pikepdf.Stream
    x: float
    y: float
    w: float
    h: float


def placed_images(pdf: pikepdf.Pdf, index: int = 0) -> list[Placed]:
    """Every image drawn on a page, with its place taken from the transformation in force
    where the content stream draws it (tests/pdfops.py interprets the stream)."""
    page = pdf.pages[index]
    page_h = float(page.MediaBox[3])
    xobjects = page.Resources.get("/XObject", {})
    found = []
    for name, operands, state in interpret(page):
        if name != "Do":
            continue
        xobject = xobjects[str(operands[0])]
        if xobject.get("/Subtype") == "/Image":
            corners = [apply(state.ctm, a, b) for a, b in ((0, 0), (1, 0), (0, 1), (1, 1))]
            xs, ys = [p[0] for p in corners], [p[1] for p in corners]
            found.append(Placed(xobject, min(xs), page_h - max(ys), max(xs) - min(xs),
                                max(ys) - min(ys)))
    return found


def the_logo(pdf: pikepdf.Pdf) -> Placed:
    images = placed_images(pdf)
    assert len(images) == 1, "the front of the dark card has one image, the logo"
    return images[0]


def painted(mask: pikepdf.Stream) -> Image.Image:
    """The pixels a stencil mask paints (white), from its samples (0 paints, 1 does not,
    as /Decode [0 1] says)."""
    assert "/Decode" not in mask
    bits = Image.frombytes("1", (int(mask.Width), int(mask.Height)), mask.read_bytes())
    return ImageChops.invert(bits)


def pixels_of(stream: pikepdf.Stream, mode: str) -> Image.Image:
    return Image.frombytes(mode, (int(stream.Width), int(stream.Height)), stream.read_bytes())


# --- the PDF ---------------------------------------------------------------------------

@pytest.mark.slow
def test_no_live_transparency_anywhere_in_the_pdf(runs):
    """PDF/X-1a forbids live transparency: no soft mask (in images or graphics states),
    no transparency group, no opacity below 1, in any object of the file."""
    with pikepdf.open(runs["disc"].pdf) as pdf:
        checked = 0
        for obj in pdf.objects:
            if not isinstance(obj, pikepdf.Dictionary | pikepdf.Stream):
                continue
            checked += 1
            assert "/SMask" not in obj, obj.objgen
            for key in ("/CA", "/ca"):
                if key in obj:
                    assert float(obj[key]) >= 1, (obj.objgen, key)
            group = obj.get("/Group")
            if group is not None:
                assert group.get("/S") != "/Transparency", obj.objgen
        assert checked > 20


def test_logo_is_masked_by_a_stencil_of_1200_ppi(runs):
    with pikepdf.open(runs["disc"].pdf) as pdf:
        logo = the_logo(pdf)
        image = logo.image
        assert image.ColorSpace == "/DeviceCMYK" and int(image.BitsPerComponent) == 8
        assert list(image.Filter) == ["/FlateDecode"]
        mask = image.Mask
        assert isinstance(mask, pikepdf.Stream)
        assert mask.ImageMask is True and int(mask.BitsPerComponent) == 1
        assert "/ColorSpace" not in mask and "/SMask" not in mask
        w_in, h_in = logo.w / 72, logo.h / 72
        assert MASK_DPI <= int(mask.Width) / w_in < MASK_DPI + 5
        assert MASK_DPI <= int(mask.Height) / h_in < MASK_DPI + 5
        assert PRINT_DPI <= int(image.Width) / w_in < PRINT_DPI + 5
        # The mask is the disc: its centre paints, its corners do not, and it covers
        # the disc's share of the square.
        shape = painted(mask)
        side = shape.width
        assert shape.getpixel((side // 2, side // 2)) == 255
        assert shape.getpixel((0, 0)) == shape.getpixel((side - 1, side - 1)) == 0
        share = shape.convert("L").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0)) / 255
        assert share == pytest.approx(math.pi * DISC**2, abs=0.01)


def test_every_printed_logo_pixel_has_the_fill_colour(runs):
    """The CMYK samples behind the painted part of the mask, edge pixels included, are
    the fill's CMYK: nothing is blended with the white of the transparent pixels."""
    expected = Color.hex("#{:02x}{:02x}{:02x}".format(*FILL))
    want = [round(v * 255) for v in expected.cmyk_fractions]
    with pikepdf.open(runs["disc"].pdf) as pdf:
        image = the_logo(pdf).image
        cmyk = pixels_of(image, "CMYK")
        cover = painted(image.Mask).convert("L").resize(cmyk.size, Image.Resampling.BOX)
    edges = 0
    for y in range(cmyk.height):
        for x in range(cmyk.width):
            c = cover.getpixel((x, y))
            if c == 0:
                continue
            edges += c < 255
            sample = cmyk.getpixel((x, y))
            assert all(abs(s - w) <= 1 for s, w in zip(sample, want, strict=True)), (
                (x, y), sample, want)
    assert edges > 2 * cmyk.width  # the disc's rim was among them


def _halo_pixels(logo: Image.Image, plain: Image.Image, box: tuple[float, float, float],
                 fill: float) -> tuple[int, list[tuple[int, int, float, float]]]:
    """Pixels on the disc's rim (within 4 px of the circle centred on ``box``'s (x, y)
    with radius ``box[2]``, all in pixels) that are lighter than both the fill and what
    the page shows there without a logo (the lightest of that pixel and its eight
    neighbours: a pixel mixes what lies around it). Returns how many were checked, and
    those."""
    cx, cy, r = box
    bad = []
    checked = 0
    for y in range(math.floor(cy - r - 5), math.ceil(cy + r + 6)):
        for x in range(math.floor(cx - r - 5), math.ceil(cx + r + 6)):
            if abs(math.hypot(x + 0.5 - cx, y + 0.5 - cy) - r) > 4:
                continue
            checked += 1
            here = luminance(logo.getpixel((x, y)))
            beneath = max(luminance(plain.getpixel((x + i, y + j)))
                          for i in (-1, 0, 1) for j in (-1, 0, 1))
            limit = max(beneath, fill) + 2
            if here > limit:
                bad.append((x, y, here, limit))
    return checked, bad


def test_no_pale_halo_when_pdfium_renders_the_pdf(runs):
    """At 600 dpi, no pixel around the logo's edge is lighter than both the logo's fill
    and the page behind it (the issue's pale halo of colour blended with white)."""
    with pikepdf.open(runs["disc"].pdf) as pdf:
        logo = the_logo(pdf)
    k = PDF_DPI / 72
    page = render_page(runs["disc"].pdf, 0, PDF_DPI)
    plain = render_page(runs["plain"].pdf, 0, PDF_DPI)
    cx, cy = (logo.x + logo.w / 2) * k, (logo.y + logo.h / 2) * k
    fill = luminance(page.getpixel((round(cx), round(cy))))
    checked, bad = _halo_pixels(page, plain, (cx, cy, DISC * logo.w * k), fill)
    assert checked > 1000
    assert not bad, f"{len(bad)} halo pixels, e.g. {bad[:5]}"


# --- the previews ------------------------------------------------------------------------

def test_png_preview_shows_the_same_hard_edge_without_halo(runs):
    with pikepdf.open(runs["disc"].pdf) as pdf:
        logo = the_logo(pdf)
    page = Image.open(runs["disc"].png).convert("RGB")
    plain = Image.open(runs["plain"].png).convert("RGB")
    k = PNG_DPI / 72
    cx, cy = (logo.x + logo.w / 2) * k, (logo.y + logo.h / 2) * k
    fill = page.getpixel((round(cx), round(cy)))
    assert max(abs(a - b) for a, b in zip(fill, FILL, strict=True)) <= 2
    checked, bad = _halo_pixels(page, plain, (cx, cy, DISC * logo.w * k), luminance(fill))
    assert checked > 200
    assert not bad, f"{len(bad)} halo pixels, e.g. {bad[:5]}"
    # Outside the disc (a corner of the logo's box) the page shows what lies beneath.
    corner = (math.ceil(logo.x * k) + 1, math.ceil(logo.y * k) + 1)
    assert page.getpixel(corner) == plain.getpixel(corner)


def test_svg_embeds_the_fill_colour_with_the_masks_coverage_as_alpha(runs):
    svg = runs["disc"].svg.read_text(encoding="utf-8")
    images = re.findall(r'href="data:image/png;base64,([^"]+)"', svg)
    assert len(images) == 1
    embedded = Image.open(io.BytesIO(base64.b64decode(images[0])))
    assert embedded.mode == "RGBA"
    with pikepdf.open(runs["disc"].pdf) as pdf:
        mask = the_logo(pdf).image.Mask
        cover = painted(mask).convert("L").resize(embedded.size, Image.Resampling.BOX)
    assert embedded.getchannel("A").tobytes() == cover.tobytes()
    partial = 0
    for y in range(embedded.height):
        for x in range(embedded.width):
            r, g, b, a = embedded.getpixel((x, y))
            if a:
                partial += a < 255
                assert max(abs(r - FILL[0]), abs(g - FILL[1]), abs(b - FILL[2])) <= 1
    assert partial > embedded.width


def test_same_input_gives_byte_identical_files(runs):
    first, second = runs["disc"].folder / "out", runs["again"].folder / "out"
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir()) and "card.pdf" in names
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


# --- transparency from a colour key (tRNS) ------------------------------------------------

def _keyed_png(path: Path, kind: str) -> tuple[Path, tuple[int, int, int]]:
    """A 200 × 100 PNG whose border is the transparent colour (a tRNS chunk, no alpha
    channel) around an opaque inner rectangle; returns it and the rectangle's colour."""
    size, inner = (200, 100), (50, 25, 150, 75)
    if kind == "grey":
        image = Image.new("L", size, 255)
        image.paste(60, inner)
        image.save(path, transparency=255)
        return path, (60, 60, 60)
    if kind == "grey16":
        wide = Image.new("I", size, 65535)
        wide.paste(0x2000, inner)
        image = wide.convert("I;16")
        image.save(path, transparency=65535)
        assert Image.open(path).mode == "I;16"
        return path, (32, 32, 32)
    image = Image.new("RGB", size, (0, 255, 0))
    image.paste((200, 40, 30), inner)
    image.save(path, transparency=(0, 255, 0))
    return path, (200, 40, 30)


@pytest.mark.parametrize("kind", ["grey", "grey16", "rgb"])
def test_colour_key_transparency_is_masked(tmp_path, kind):
    path, colour = _keyed_png(tmp_path / "logo.png", kind)
    assert "transparency" in Image.open(path).info and "A" not in Image.open(path).getbands()
    run = card_run(tmp_path, path.name, "-f", "pdf")
    with pikepdf.open(run.pdf) as pdf:
        image = the_logo(pdf).image
        assert "/Mask" in image, "the transparent colour must not print"
        shape = painted(image.Mask)
        cmyk = pixels_of(image, "CMYK")
    w, h = shape.size
    assert shape.getpixel((w // 2, h // 2)) == 255  # the rectangle prints
    for x, y in ((2, 2), (w - 3, h // 2), (w // 2, h - 3), (w // 5, h // 2)):
        assert shape.getpixel((x, y)) == 0  # the keyed border does not
    # Painted share: the inner rectangle is half of each side, a quarter of the area.
    share = shape.convert("L").resize((1, 1), Image.Resampling.BOX).getpixel((0, 0)) / 255
    assert share == pytest.approx(0.25, abs=0.01)
    want = [round(v * 255) for v in Color.hex("#{:02x}{:02x}{:02x}".format(*colour))
            .cmyk_fractions]
    got = cmyk.getpixel((cmyk.width // 2, cmyk.height // 2))
    assert all(abs(g - v) <= 1 for g, v in zip(got, want, strict=True)), (got, want)


def test_split_alpha_reads_every_kind_of_transparency(tmp_path):
    for kind in ("grey", "grey16", "rgb"):
        path, colour = _keyed_png(tmp_path / f"{kind}.png", kind)
        rgb, alpha = split_alpha(Image.open(path))
        assert alpha is not None and alpha.getpixel((0, 0)) == 0
        assert alpha.getpixel((100, 50)) == 255 and rgb.getpixel((100, 50)) == colour
    opaque = Image.new("RGBA", (4, 4), (1, 2, 3, 255))
    assert split_alpha(opaque)[1] is None
    assert split_alpha(Image.new("RGB", (4, 4)))[1] is None


# --- colours resampled without bleeding -------------------------------------------------

def test_resampling_keeps_the_logos_own_colours():
    """Law: for a logo of one colour, every resampled pixel is exactly that colour, those
    on its edge and, filled from their neighbours, the fully transparent ones."""
    rgb, alpha = split_alpha(disc_image(160))
    assert alpha is not None
    for size in ((100, 100), (137, 137), (600, 600)):  # down, odd and up
        colours = unblended_resize(rgb, alpha, size)
        assert colours.getextrema() == tuple((v, v) for v in FILL)


def test_transparent_pixels_take_their_neighbours_colours():
    """Two colours side by side on transparency: resampled, each transparent pixel takes
    the colour of the nearer one, never the white the file stores there."""
    red, blue = (220, 20, 20), (20, 20, 220)
    image = Image.new("RGBA", (120, 40), (255, 255, 255, 0))
    image.paste((*red, 255), (10, 10, 40, 30))
    image.paste((*blue, 255), (80, 10, 110, 30))
    rgb, alpha = split_alpha(image)
    assert alpha is not None
    colours = unblended_resize(rgb, alpha, (60, 20))
    assert colours.getpixel((0, 0)) == red and colours.getpixel((10, 10)) == red
    assert colours.getpixel((59, 19)) == blue and colours.getpixel((50, 10)) == blue
    data = colours.tobytes()
    assert all(min(data[i:i + 3]) < 230 for i in range(0, len(data), 3))  # no white


# --- the warning about a white box on a dark business side ------------------------------

def _white_ground_jpeg(path: Path, ground: tuple[int, int, int] = (255, 255, 255)) -> Path:
    """A blue disc on a solid ground, saved as JPEG (no transparency possible)."""
    image = Image.new("RGB", (300, 300), ground)
    ImageDraw.Draw(image).ellipse((30, 30, 270, 270), fill=(20, 60, 200))
    image.save(path, quality=85)
    return path


WHITE_BOX = "white background"


def test_white_ground_jpeg_on_the_dark_theme_is_warned_about(tmp_path):
    _white_ground_jpeg(tmp_path / "logo.jpg")
    run = card_run(tmp_path, "logo.jpg", "-f", "pdf")
    lines = [line for line in run.stderr.splitlines() if WHITE_BOX in line]
    assert len(lines) == 1, run.stderr
    line = lines[0]
    for needle in ("warning: images.logo: logo.jpg", "white box", "dark",
                   "a PNG with a transparent background", 'card.theme = "light"'):
        assert needle in line, line
    with pikepdf.open(run.pdf) as pdf:  # and it prints as it is: a box, no mask
        assert "/Mask" not in the_logo(pdf).image


@pytest.mark.parametrize("case", ["light theme", "transparent png", "coloured ground"])
def test_no_white_box_warning_where_none_shows(tmp_path, case):
    args: tuple[str, ...] = ("-f", "pdf")
    if case == "light theme":
        name = _white_ground_jpeg(tmp_path / "logo.jpg").name
        args += ("--theme", "light")
    elif case == "transparent png":
        name = disc_logo(tmp_path / "logo.png").name
    else:  # a logo that runs to its edges in a colour
        name = _white_ground_jpeg(tmp_path / "logo.jpg", ground=(240, 200, 40)).name
    run = card_run(tmp_path, name, *args)
    assert WHITE_BOX not in run.stderr, run.stderr


def test_what_counts_as_a_dark_ground():
    assert is_dark(load_theme("dark").outside["background"])
    assert not is_dark(load_theme("light").outside["background"])
    # Both sides of the threshold, 0.4: #a0a0a0 is dark enough, #aaaaaa is not.
    assert relative_luminance((0xA0,) * 3) < DARK_BACKGROUND < relative_luminance((0xAA,) * 3)
    assert is_dark(Color.hex("#a0a0a0")) and not is_dark(Color.hex("#aaaaaa"))


def test_what_counts_as_a_near_white_border():
    side = 200
    band = round(BORDER_BAND * side)
    logo = Image.new("RGB", (side, side), (255, 255, 255))
    ImageDraw.Draw(logo).ellipse((20, 20, 180, 180), fill=(20, 60, 200))
    assert near_white_border(logo)
    # JPEG-like noise in the white is still white (luminance ≥ 0.8: grey 231 and up).
    noisy = logo.copy()
    for i in range(0, side, 3):
        noisy.putpixel((i, 0), (236, 232, 240))
    assert near_white_border(noisy)
    # A light grey ground (grey 225, luminance 0.75) is not white.
    grey = Image.new("RGB", (side, side), (225, 225, 225))
    assert not near_white_border(grey)
    # 9 % of the border band coloured is still a white ground (90 % white); 12 % is not.
    band_pixels = 4 * band * (side - band)
    for share, white in ((0.09, True), (0.12, False)):
        edged = logo.copy()
        length = round(share * band_pixels / band)
        edged.paste((20, 60, 200), (0, 0, length, band))
        assert near_white_border(edged) is white, share


def test_a_logo_with_nothing_half_opaque_is_warned_about(tmp_path):
    faint = Image.new("RGBA", (100, 100), (20, 60, 200, 90))  # 35 % opaque everywhere
    faint.save(tmp_path / "faint.png")
    run = card_run(tmp_path, "faint.png", "-f", "pdf")
    assert "images.logo: faint.png has no pixel that is at least half opaque" in run.stderr
