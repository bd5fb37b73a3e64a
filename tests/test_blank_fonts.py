"""Fonts whose glyphs have no outlines (issue 22, point 11): empty ``glyf`` entries or
empty CharStrings print invisible text. A font whose letters and digits are all empty is
refused when it is loaded, naming its ``fonts.*`` key; a font with some empty glyphs is
refused as soon as the card needs one of them, naming the key and the character. The
spaces stay empty, as they should."""

from __future__ import annotations

from pathlib import Path

import pypdf
import pytest

from cardgen.text.fonts import FontStyle, load_face
from tests.helpers import BASE_CONFIG, ROOT, cff_font, cli, error_line, ok, write_config

LETTERS = ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+-–,;:'’?!()&/·"
           "×")


def blank_ttf(path: Path, blank: str | None = None) -> Path:
    """Source Sans 3 with the glyphs of ``blank`` emptied (None: every glyph)."""
    from fontTools.ttLib import TTFont
    from fontTools.ttLib.tables._g_l_y_f import Glyph

    font = TTFont(str(ROOT / "fonts" / "SourceSans3-Regular.ttf"))
    cmap = font.getBestCmap()
    names = (font.getGlyphOrder() if blank is None
             else {cmap[ord(ch)] for ch in blank})
    glyf = font["glyf"]
    for name in names:
        glyf[name] = Glyph()  # no contours: an empty glyf entry
    font.save(str(path))
    return path


def blank_cff(path: Path, letters: str, blank: str | None = None) -> Path:
    """A CFF-outline OpenType font mapping ``letters``: each a filled box, but those of
    ``blank`` (None: all of them) an empty CharString."""
    return cff_font(path, letters, empty=letters if blank is None else blank)


def card(tmp_path: Path, style: str, name: str):
    config = write_config(tmp_path, BASE_CONFIG + f'\n[fonts]\n{style} = "{name}"\n')
    return cli("card", config, "-o", tmp_path / "out", "-f", "pdf")


@pytest.mark.parametrize("style", ["regular", "bold", "italic"])
def test_a_truetype_font_without_outlines_is_refused_naming_its_key(tmp_path, style):
    blank_ttf(tmp_path / "empty.ttf")
    line = error_line(card(tmp_path, style, "empty.ttf"), f"fonts.{style}", "empty.ttf",
                      "has no outlines", "print invisibly")
    assert line.startswith(f"error: fonts.{style}: font file ")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("style", ["regular", "bold", "italic"])
def test_a_cff_font_without_outlines_is_refused_naming_its_key(tmp_path, style):
    blank_cff(tmp_path / "empty.otf", LETTERS)
    error_line(card(tmp_path, style, "empty.otf"), f"fonts.{style}", "empty.otf",
               "has no outlines", "print invisibly")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("kind", ["ttf", "otf"])
def test_one_empty_glyph_the_card_needs_is_refused_naming_key_and_character(tmp_path, kind):
    # The bold face sets the name, "Ada Example": its "x" has no outline.
    if kind == "ttf":
        blank_ttf(tmp_path / "font.ttf", "x")
    else:
        blank_cff(tmp_path / "font.ttf", LETTERS, "x")
    line = error_line(card(tmp_path, "bold", "font.ttf"), "fonts.bold", "'x' (U+0078 Latin "
                      "Small Letter X)", "as nothing", "no outline")
    assert "person.name" in line
    assert not (tmp_path / "out").exists()


def test_an_empty_glyph_the_card_does_not_need_is_no_problem(tmp_path):
    # Only "Q" is empty, and the card has no Q: the PDF embeds the font and prints.
    blank_cff(tmp_path / "font.otf", LETTERS, "Q")
    ok(card(tmp_path, "bold", "font.otf"))
    reader = pypdf.PdfReader(tmp_path / "out" / "card.pdf")
    text = "".join(page.extract_text() for page in reader.pages)
    assert "Ada Example" in text


@pytest.mark.slow
def test_the_empty_glyphs_are_found_and_spaces_are_not_among_them(tmp_path):
    face = load_face(blank_cff(tmp_path / "font.otf", LETTERS, "Qz"), FontStyle.REGULAR,
                     "fonts.regular")
    assert face.metrics.blank == {ord("Q"), ord("z")}
    face = load_face(blank_ttf(tmp_path / "font.ttf", "Q"), FontStyle.REGULAR,
                     "fonts.regular")
    assert face.metrics.blank == {ord("Q")}  # space, no-break space… are meant empty
    bundled = load_face(ROOT / "fonts" / "SourceSans3-Regular.ttf", FontStyle.REGULAR,
                        "fonts.regular")
    assert bundled.metrics.blank == frozenset()
