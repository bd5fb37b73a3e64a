"""The PDF renderer reads a TrueType face's character information itself
(cardgen.render.pdf._QuickFace: the cmap, hmtx and loca tables a whole array at a time),
and embeds fonts through its own TTFont subclass: both must hold exactly what reportlab's
own reading holds, for the bundled fonts and for fonts whose tables take the other
formats (a format 4 cmap alone, short loca offsets, a cmap reportlab's own code reads)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

from cardgen.render.pdf import _QuickFace, _TaggedTTFont
from tests.helpers import ROOT

BUNDLED = sorted((ROOT / "fonts").glob("*.ttf"))


def _variant(path: Path, change: str) -> bytes:
    """The font at ``path`` with its tables changed as ``change`` says (fontTools)."""
    from fontTools.ttLib import TTFont as Tools

    font = Tools(str(path))
    cmap = font["cmap"]
    if change == "format 4 only":
        cmap.tables = [t for t in cmap.tables if t.format == 4]
    elif change == "format 6 only":  # reportlab's own code reads it
        cmap.tables = [t for t in cmap.tables if t.format == 6]
    elif change == "short loca":  # few glyphs, evenly padded: fontTools writes short offsets
        from fontTools import subset

        options = subset.Options()
        options.notdef_outline = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=range(32, 127))
        subsetter.subset(font)
        font["glyf"].padding = 2
    out = io.BytesIO()
    font.save(out)
    return out.getvalue()


def _faces() -> list[tuple[str, bytes]]:
    faces = [(path.name, path.read_bytes()) for path in BUNDLED]
    for change in ("format 4 only", "format 6 only", "short loca"):
        faces.append((change, _variant(BUNDLED[0], change)))
    return faces


FACES = _faces()


def _state(face: object) -> dict[str, object]:
    state = dict(vars(face))
    scale = state.pop("_pdfScale")
    state["scale of 1234"] = scale(1234)
    return state


@pytest.mark.parametrize(("name", "data"), FACES, ids=[name for name, _ in FACES])
def test_the_quick_face_holds_what_reportlabs_reading_holds(name, data):
    quick, plain = _QuickFace(io.BytesIO(data)), TTFontFace(io.BytesIO(data))
    assert _state(quick) == _state(plain)
    assert quick.charToGlyph and quick.hmetrics and quick.glyphPos  # (read, not left None)
    assert quick._char_info(data) is (name != "format 6 only")  # which way it was read
    assert quick.makeSubset(list(range(32, 127))) == plain.makeSubset(list(range(32, 127)))


def test_the_short_loca_variant_has_short_offsets():
    import struct

    data = dict(FACES)["short loca"]
    face = TTFontFace(io.BytesIO(data))
    assert struct.unpack_from(">H", data, face.table["head"]["offset"] + 50)[0] == 0


@pytest.mark.parametrize("path", BUNDLED[:1], ids=lambda p: p.name)
def test_the_tagged_font_is_reportlabs_font(path):
    data = path.read_bytes()
    tagged, plain = _TaggedTTFont("x", io.BytesIO(data)), TTFont("x", io.BytesIO(data))
    assert _state(tagged.face) == _state(plain.face)
    simple = {k: v for k, v in vars(plain).items() if k not in ("face", "state", "encoding")}
    assert {k: v for k, v in vars(tagged).items()
            if k not in ("face", "state", "encoding")} == simple
    assert vars(tagged.encoding) == vars(plain.encoding)
    assert type(tagged.state) is type(plain.state)
