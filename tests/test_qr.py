"""The front panel's QR code: a compact vCard or the web address alone, at error-correction
level L, in a light quiet zone, and a code that scans from a 150 dpi image.

The scans are made by an independent decoder (zxing-cpp) from the produced files: the PDF
rendered by PDFium at 150 dpi and the PNG written with ``--dpi 150``, for both presets,
both themes, both kinds of content and a config with a two-line address. The decoded
bytes must be exactly the bytes cardgen encoded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image as PILImage
from PIL.Image import Image

from cardgen.card.config import CardConfig, Person, QRContent, load_config
from cardgen.card.contact import qr_text, vcard
from cardgen.card.layout import card_layout
from cardgen.card.spread import Spread
from cardgen.card.themes import load_theme
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Document, Page
from cardgen.draw.qr import QUIET_ZONE, ErrorCorrection, qr_items, qr_matrix
from cardgen.errors import CardgenError
from cardgen.physical.card import PRESETS, Preset
from cardgen.render.pdf import render_pdf
from cardgen.render.png import rasterize
from tests.helpers import BASE_CONFIG, cli, error_line, ok, sampled, write_config
from tests.pdfread import mm_to_px, render_page

DPI = 150
WHITE, BLACK = Color.cmyk(0, 0, 0, 0), Color.cmyk(0, 0, 0, 100)

# --- the compact vCard ------------------------------------------------------------------------

FULL = Person(name="Ana María de la Cruz", title="Lead, Systems", company="A;B Games",
              email="ana@example.org", phone="+34 600 000 000", web="example.org",
              address="1 Road; Leith\nEdinburgh, UK", tagline="Not in the vCard.")


def test_the_vcard_holds_only_what_a_contact_needs_without_type_parameters():
    assert vcard(FULL) == (
        "BEGIN:VCARD\r\n"
        "VERSION:3.0\r\n"
        "N:Cruz;Ana María de la\r\n"
        "FN:Ana María de la Cruz\r\n"
        "ORG:A\\;B Games\r\n"
        "TITLE:Lead\\, Systems\r\n"
        "TEL:+34 600 000 000\r\n"
        "EMAIL:ana@example.org\r\n"
        "URL:https://example.org\r\n"
        "ADR:;;1 Road\\; Leith\\nEdinburgh\\, UK\r\n"
        "END:VCARD\r\n")


def test_a_name_alone_still_gives_the_required_n_and_fn():
    assert vcard(Person(name="Cher")) == (
        "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Cher\r\nFN:Cher\r\nEND:VCARD\r\n")
    assert "\r\nN:Lee\\\\B;Ada\r\nFN:Ada Lee\\\\B\r\n" in vcard(Person(name="Ada Lee\\B"))


def test_every_line_ends_in_crlf_and_no_value_breaks_a_line():
    payload = vcard(FULL)
    assert payload.count("\n") == payload.count("\r\n") == payload.count("\r") == 11
    assert "TYPE=" not in payload and ";;;" not in payload


def test_the_url_content_is_the_web_address_alone():
    assert qr_text(FULL, QRContent.URL) == "https://example.org"
    assert qr_text(Person(name="A", web="http://a.example/x"), QRContent.URL) == (
        "http://a.example/x")
    assert qr_text(FULL, QRContent.VCARD) == vcard(FULL)
    with pytest.raises(CardgenError, match=r'card\.qr = "url" .*person\.web is not set; '
                                           r'add person\.web or set qr = "vcard"\.'):
        qr_text(Person(name="A"), QRContent.URL)
    with pytest.raises(CardgenError, match=r"person\.web: .* a tab"):
        qr_text(Person(name="A", web="a\tb"), QRContent.URL)


def test_level_l_is_the_default_and_gives_the_coarsest_code():
    text = "x" * 200
    sizes = {level: len(qr_matrix(text, level)) for level in ErrorCorrection}
    assert qr_matrix(text) == qr_matrix(text, ErrorCorrection.L)
    assert sizes[ErrorCorrection.L] == 17 + 4 * 9  # version 9
    assert sizes[ErrorCorrection.L] < sizes[ErrorCorrection.M] < sizes[ErrorCorrection.Q]


# --- card.qr in the config --------------------------------------------------------------------

@pytest.mark.parametrize(("line", "expected"), [
    ("", QRContent.VCARD),
    ('qr = "vcard"', QRContent.VCARD),
    ('qr = "url"', QRContent.URL),
    ("qr = true", QRContent.VCARD),  # the bool of older configs
    ("qr = false", None),
])
def test_card_qr_values(tmp_path, line, expected):
    path = write_config(tmp_path, BASE_CONFIG.replace("[person]", f"{line}\n\n[person]"))
    assert load_config(path).qr is expected


@pytest.mark.parametrize(("value", "expected"), [
    ('"vcrd"', "card.qr must be one of vcard, url or false, not 'vcrd'; did you mean vcard?"),
    ('"URL"', "card.qr must be one of vcard, url or false, not 'URL'; did you mean url?"),
    ('"both"', "card.qr must be one of vcard, url or false, not 'both'."),
    ("1", 'card.qr must be "vcard", "url" or false, not a number (1).'),
])
def test_an_unknown_card_qr_is_refused_with_the_allowed_values(tmp_path, value, expected):
    path = write_config(tmp_path, BASE_CONFIG.replace("[person]", f"qr = {value}\n\n[person]"))
    line = error_line(cli("card", path, "-o", tmp_path / "out"))
    assert line == f"error: {path}: {expected}"
    assert not (tmp_path / "out").exists()


def test_qr_url_without_a_web_address_is_refused_naming_the_fix(tmp_path):
    text = BASE_CONFIG.replace('web = "example.org"\n', "").replace(
        "[person]", 'qr = "url"\n\n[person]')
    path = write_config(tmp_path, text)
    line = error_line(cli("card", path, "-o", tmp_path / "out"))
    assert line == (f'error: {path}: card.qr = "url" encodes the web address, but person.web '
                    'is not set; add person.web or set qr = "vcard".')


# --- what scans at 150 dpi --------------------------------------------------------------------

LONG = """\
[card]
preset = "{preset}"
theme = "{theme}"
qr = "{qr}"

[person]
name = "Ana M. Muñoz"
title = "Systems Designer"
company = "Lantern & Co."
email = "ana@lantern.example"
phone = "+34 600 123 456"
web = "lantern.example"
address = \"\"\"Calle Mayor 12
28013 Madrid\"\"\"
tagline = "Games for long evenings."
"""


@dataclass(frozen=True)
class Case:
    config: str  # "example" (the built-in one) or "long"
    preset: Preset
    theme: str
    qr: QRContent

    def __str__(self) -> str:
        return f"{self.config}-{self.preset}-{self.theme}-{self.qr}"


CASES = [
    *[Case("example", p, t, QRContent.VCARD) for p in Preset for t in ("dark", "light")],
    Case("long", Preset.EU, "dark", QRContent.VCARD),
    Case("long", Preset.US, "light", QRContent.VCARD),
    Case("long", Preset.EU, "light", QRContent.URL),
    Case("long", Preset.US, "dark", QRContent.URL),
]


def _front(image: Image, preset: Preset) -> Image:
    """The front panel of an outside-spread render at ``DPI``: one symbol in sight."""
    front = Spread(PRESETS[preset], True).geometry.front  # with marks, as made
    return image.crop((mm_to_px(front.x, DPI), mm_to_px(front.y, DPI),
                       mm_to_px(front.right, DPI), mm_to_px(front.bottom, DPI)))


def _make(case: Case, folder: Path) -> tuple[CardConfig, dict[str, Image], str]:
    """The card of a case made by the command line as PDF and 150 dpi PNG: its config,
    the front panel from the PDF rendered by PDFium and from the PNG, and stderr."""
    if case.config == "example":
        source = None
        args = ["--preset", case.preset.value, "--theme", case.theme]
    else:
        source = write_config(folder, LONG.format(preset=case.preset.value, theme=case.theme,
                                                  qr=case.qr.value))
        args = [str(source)]
    out = folder / "out"
    result = ok(cli("card", *args, "-o", out, "-f", "pdf,png", "--dpi", str(DPI)))
    config = load_config(source).with_overrides(preset=case.preset, theme=case.theme)
    png = PILImage.open(out / "card-outside.png")
    assert png.info["dpi"] == pytest.approx((DPI, DPI), abs=0.1)  # as pixels per metre
    fronts = {"pdf (PDFium)": _front(render_page(out / "card.pdf", 0, DPI), case.preset),
              "png": _front(png.convert("RGB"), case.preset)}
    return config, fronts, result.stderr


def _quiet_zone_is_light(image: Image, modules: int, light: tuple[int, int, int]) -> None:
    """Around the symbol that the decoder found, a ring four modules wide holds nothing
    but ``light`` (less 2 pixels at each edge: the decoder places the symbol's corners
    to a pixel, and edges are anti-aliased); right inside it are the finder patterns'
    dark corners."""
    position = zxingcpp.read_barcodes(image)[0].position
    corners = [position.top_left, position.top_right, position.bottom_right,
               position.bottom_left]
    left, right = min(p.x for p in corners), max(p.x for p in corners) + 1
    top, bottom = min(p.y for p in corners), max(p.y for p in corners) + 1
    module = (right - left) / modules
    assert module == pytest.approx((bottom - top) / modules, rel=0.03)
    quiet = QUIET_ZONE * module
    ring = [(x, y) for y in range(round(top - quiet + 2), round(bottom + quiet - 2))
            for x in range(round(left - quiet + 2), round(right + quiet - 2))
            if not (left - 2 <= x < right + 2 and top - 2 <= y < bottom + 2)]
    assert len(ring) > 4 * (right - left) * (quiet - 4)
    pixels = image.load()
    off = [(x, y, pixels[x, y]) for x, y in ring
           if max(abs(a - b) for a, b in zip(pixels[x, y], light, strict=True)) > 8]
    assert not off, off[:5]
    reach = range(-1, round(module) + 1)
    for x, y in ((left, top), (right - 1, top), (left, bottom - 1)):
        sx, sy = (1 if x == left else -1), (1 if y == top else -1)
        darkest = min(max(pixels[x + sx * i, y + sy * j]) for i in reach for j in reach)
        assert darkest < 80, (x, y, darkest)


@pytest.mark.parametrize("case", sampled(CASES, CASES[0], CASES[5]), ids=str)
def test_the_qr_code_scans_at_150_dpi_in_its_light_quiet_zone(tmp_path, case):
    """From both files, zxing-cpp finds one QR code, at level L, holding exactly the
    bytes cardgen encoded; its quiet zone is printed in the theme's qr_background; and
    cardgen gave no warning (the built-in example on both presets and themes, and a
    config with a two-line address, make codes whose modules scan at 150 dpi)."""
    config, fronts, stderr = _make(case, tmp_path)
    assert "warning" not in stderr, stderr
    encoded = qr_text(config.person, case.qr)
    if case.qr is QRContent.URL:
        assert encoded == "https://lantern.example"
    light = load_theme(case.theme).outside["qr_background"].rgb
    for name, image in fronts.items():
        found = zxingcpp.read_barcodes(image)
        assert len(found) == 1, name
        code = found[0]
        assert code.format == zxingcpp.BarcodeFormat.QRCode, name
        assert code.bytes == encoded.encode("utf-8"), name
        assert code.text == encoded, name
        assert code.ec_level == "L", name
        _quiet_zone_is_light(image, len(qr_matrix(encoded)), light)


# --- the warning threshold is what was measured ----------------------------------------------

def _symbol_page(text: str, module: float, phase: tuple[float, float]) -> Page:
    px = 25.4 / DPI
    matrix = qr_matrix(text)
    side = module * (len(matrix) + 2 * QUIET_ZONE)
    size = side + 11 * px
    page = Page("qr", size, size, Box(0, 0, size, size), Box(0, 0, size, size))
    page.layer("content").add(*qr_items(matrix, (5 + phase[0]) * px, (5 + phase[1]) * px,
                                        side, WHITE, BLACK))
    return page


@pytest.mark.slow
def test_modules_at_the_warning_threshold_decode_at_150_dpi():
    """At qr_min_module, codes of versions 3, 7, 10 and 12 at several offsets from the pixel grid
    decode from 150 dpi renders, PDF (through PDFium) and PNG alike: the warning is not
    given for codes that scan (benchmarks/qr_scan.py measures this in full)."""
    module = card_layout().front["qr_min_module"]
    texts = [("Lantern & Co. " * 30)[:n] for n in (50, 150, 265, 360)]  # versions 3-12
    pages = [_symbol_page(t, module, phase) for t in texts
             for phase in ((0.0, 0.0), (0.5, 0.5), (0.25, 0.75))]
    pdf = render_pdf(Document(pages))
    for i, page in enumerate(pages):
        text = texts[i // 3]
        for image in (render_page(pdf, i, DPI), rasterize(Document([page]).views()[0], DPI)):
            assert [r.text for r in zxingcpp.read_barcodes(image)] == [text], (len(text), i % 3)


def test_a_vcard_too_long_for_its_modules_warns_and_says_what_to_do(tmp_path):
    long = LONG.format(preset="us", theme="dark", qr="vcard").replace(
        "28013 Madrid", "28013 Madrid\\nComunidad de Madrid\\nReino de España").replace(
        "ana@", "ana.maria.munoz@")  # version 11
    result = ok(cli("card", write_config(tmp_path, long), "-o", tmp_path / "out", "-f", "pdf"))
    assert result.stderr == (
        "warning: card.qr: the QR code's modules are only 0.36 mm, and below 0.40 mm a QR "
        "code may not scan from print; leave out person.address, shorten person.email and "
        'person.title, or set card.qr = "url" to encode only person.web.\n')
    as_url = long.replace('qr = "vcard"', 'qr = "url"')
    assert ok(cli("card", write_config(tmp_path, as_url), "-o", tmp_path / "out2", "-f",
                  "pdf")).stderr == ""


# --- the PNG renderer draws the modules true to size ------------------------------------------

def test_the_png_modules_cover_exactly_their_area():
    """Ink in the PNG = the dark modules' area: each pixel is as dark as the share of it the
    modules cover (Pillow's own polygons would be a pixel too wide and tall at twice the
    resolution, a quarter of a 2-pixel module), and modules that touch leave no seam."""
    module = 0.39
    matrix = qr_matrix("https://lantern.example/ana")
    page = _symbol_page("https://lantern.example/ana", module, (0.3, 0.6))
    grey = rasterize(Document([page]).views()[0], DPI).convert("L")
    ink = sum(255 - v for v in grey.get_flattened_data()) / 255
    dark = sum(map(sum, matrix)) * (module * DPI / 25.4) ** 2
    assert ink == pytest.approx(dark, rel=0.01)
    # A 3 x 3 block of dark modules (a finder pattern's centre) is solid black inside.
    k = DPI / 25.4
    x0 = (5 + 0.3) / k + (QUIET_ZONE + 2) * module
    y0 = (5 + 0.6) / k + (QUIET_ZONE + 2) * module
    inside = grey.crop((round(x0 * k) + 1, round(y0 * k) + 1,
                        round((x0 + 3 * module) * k) - 1, round((y0 + 3 * module) * k) - 1))
    assert set(inside.get_flattened_data()) == {0}

