"""The vCard QR code scans from the PNG render; fonts are embedded and checked."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
import zxingcpp
from PIL import Image as PILImage
from pypdf import PdfReader

from cardgen.card.build import build_card
from cardgen.card.config import Person, load_config
from cardgen.card.contact import vcard
from cardgen.draw.qr import module_runs, qr_matrix
from cardgen.errors import CardgenError
from cardgen.render.pdf import render_pdf
from cardgen.render.png import rasterize, render_png
from cardgen.resources import fonts_dir
from cardgen.text.fonts import FontStyle, bundled_fonts, load_face
from tests.helpers import cff_font


def test_vcard_escapes_and_fields():
    person = Person(name="Ana María de la Cruz", title="Lead, Systems", company="A;B",
                    email="ana@example.org", phone="+34 600 000 000", web="example.org")
    card = vcard(person)
    assert card.startswith("BEGIN:VCARD\r\nVERSION:3.0\r\n") and card.endswith("END:VCARD\r\n")
    assert "\r\nN:Cruz;Ana María de la\r\n" in card
    assert "TITLE:Lead\\, Systems" in card and "ORG:A\\;B" in card
    assert "URL:https://example.org" in card


def test_module_runs_cover_the_dark_modules():
    matrix = qr_matrix("hello")
    dark = {(r, c) for r, row in enumerate(matrix) for c, v in enumerate(row) if v}
    covered = {(r, c + i) for r, c, n in module_runs(matrix) for i in range(n)}
    assert dark == covered


def test_qr_decodes_from_the_png_render(example_build):
    view = example_build.document.views()[0]
    image = PILImage.open(io.BytesIO(render_png(view, 300)))
    # Crop the front panel so that only one symbol is in sight.
    g = example_build.geometry
    k = 300 / 25.4
    crop = image.crop((int(g.front.x * k), int(g.front.y * k), int(g.front.right * k),
                       int(g.front.bottom * k)))
    results = zxingcpp.read_barcodes(crop)
    assert len(results) == 1
    assert results[0].format == zxingcpp.BarcodeFormat.QRCode
    assert results[0].text == vcard(load_config(None).person)


def test_qr_can_be_switched_off():
    config = replace(load_config(None), qr=None)
    build = build_card(config)
    view = build.document.views()[0]
    assert zxingcpp.read_barcodes(rasterize(view, 150)) == []


def test_bundled_family_and_licence():
    fonts = bundled_fonts()
    for face in (fonts.regular, fonts.bold, fonts.italic):
        assert face.path.is_file() and face.path.parent == fonts_dir()
    licence = (fonts_dir() / "OFL.txt").read_text()
    assert "SIL OPEN FONT LICENSE" in licence.upper()
    assert {fonts.regular.label, fonts.bold.label, fonts.italic.label} == {
        "Source Sans 3", "Source Sans 3 Bold", "Source Sans 3 Italic"}


def test_missing_glyph_is_an_error_not_a_blank():
    face = bundled_fonts().regular
    face.check("Ωmega – café", "person.title")  # Greek and accents are covered
    with pytest.raises(CardgenError, match=r"person\.title.*U\+6F22"):
        face.check("漢字", "person.title")


def test_config_may_name_an_otf_with_postscript_outlines(tmp_path):
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+-–,;:'’?!()&/·"
    cff_font(tmp_path / "box.otf", letters)
    face = load_face(tmp_path / "box.otf", FontStyle.REGULAR, "fonts.regular")
    assert face.metrics.is_cff
    config = replace(load_config(None), fonts={FontStyle.REGULAR: tmp_path / "box.otf"})
    data = render_pdf(build_card(config).document)
    reader = PdfReader(io.BytesIO(data))
    names = set()
    for page in reader.pages:
        for ref in page["/Resources"]["/Font"].get_object().values():
            font = ref.get_object()
            names.add(str(font["/BaseFont"]).split("+")[-1])
            assert "/FontFile2" in font["/FontDescriptor"].get_object()
    assert "TestBox-Regular" in names


def test_config_font_missing_a_glyph_names_the_field(tmp_path):
    cff_font(tmp_path / "tiny.otf", "ABC")
    config = replace(load_config(None), fonts={FontStyle.BOLD: tmp_path / "tiny.otf"})
    with pytest.raises(CardgenError, match=r"person\.name.*Test Box"):
        build_card(config)
