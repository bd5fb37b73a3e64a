"""Hostile font files named in a config, through the command line in process: each is
refused when the font is loaded, in one sentence on stderr that names the field and the
file, with exit status 1, no traceback and no hang. Good user fonts (TTF and CFF OTF)
render with nothing of fontTools' on stderr.

The damaged fonts are made here from the bundled Source Sans 3; no font file is kept."""

from __future__ import annotations

import io
import logging
import os
import signal
import struct
from collections.abc import Iterator
from pathlib import Path

import pytest
from fontTools.ttLib import TTCollection, TTFont

from cardgen.text import fonts
from tests.helpers import BASE_CONFIG, ROOT, Result, cff_font, cli, error_line, ok, write_config

BUNDLED = ROOT / "fonts" / "SourceSans3-Regular.ttf"
# Flipping bit 7 of this byte (the high byte of the end of the first character range in
# the font's format 12 'cmap' subtable, which starts at 143298) makes that range run to
# U+80000020-ish: reportlab's parser then loops over two billion code points, filling the
# memory (killed after 60 s at 7 GB), while fontTools only clamps the range and warns.
HANG_OFFSET = 143318
HANG_SUBTABLE = 143298
TIME_BOX = 120.0  # seconds: only a run that hangs takes this long, however loaded


@pytest.fixture(autouse=True)
def time_box() -> Iterator[None]:
    """Fail a test that runs longer than TIME_BOX instead of letting it hang."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {TIME_BOX:g} s: a hang")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, TIME_BOX)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# --- building fonts -----------------------------------------------------------------------

def bundled() -> bytes:
    return BUNDLED.read_bytes()


def tables_of(data: bytes) -> dict[str, bytes]:
    """The raw tables of an sfnt font, in directory order."""
    (count,) = struct.unpack_from(">H", data, 4)
    out = {}
    for i in range(count):
        tag, _, offset, length = struct.unpack_from(">4sLLL", data, 12 + 16 * i)
        out[tag.decode("latin-1")] = data[offset:offset + length]
    return out


def sfnt(tables: dict[str, bytes], version: bytes = b"\0\1\0\0") -> bytes:
    """An sfnt font file from raw tables (checksums left at 0: nothing checks them)."""
    head = struct.pack(">4sHHHH", version, len(tables), 0, 0, 0)
    offset = 12 + 16 * len(tables)
    directory, body = b"", b""
    for tag, table in tables.items():
        directory += struct.pack(">4sLLL", tag.encode("latin-1"), 0, offset + len(body),
                                 len(table))
        body += table + b"\0" * (-len(table) % 4)
    return head + directory + body


def table_record(data: bytes, wanted: str) -> int:
    """Where the table directory's entry for ``wanted`` starts."""
    (count,) = struct.unpack_from(">H", data, 4)
    for i in range(count):
        if data[12 + 16 * i:16 + 16 * i] == wanted.encode("latin-1"):
            return 12 + 16 * i
    raise KeyError(wanted)


def with_fftm(data: bytes) -> bytes:
    """The font with an FFTM table (FontForge's timestamps), which fontTools' subsetter
    does not know and drops with a warning."""
    tables = tables_of(data)
    tables["FFTM"] = struct.pack(">LQQQ", 1, 0, 0, 0)
    return sfnt(tables, data[:4])


# --- running the card ---------------------------------------------------------------------

def card_with_font(tmp_path: Path, name: str = "x.ttf", formats: str = "pdf") -> Result:
    path = write_config(tmp_path, BASE_CONFIG + f'\n[fonts]\nregular = "{name}"\n')
    return cli("card", path, "-o", tmp_path / "out", "-f", formats)


def refused(tmp_path: Path, data: bytes | None, *needles: str) -> str:
    """Write ``data`` as x.ttf (unless None: the test made x.ttf), run the card on it:
    one error line naming the field, the file and ``needles`` (a hang fails at
    TIME_BOX)."""
    if data is not None:
        (tmp_path / "x.ttf").write_bytes(data)
    result = card_with_font(tmp_path)
    return error_line(result, "fonts.regular", "x.ttf", *needles)


# --- hostile fonts ------------------------------------------------------------------------

def test_bit_flip_that_hangs_reportlab_is_refused(tmp_path):
    data = bytearray(bundled())
    assert data[HANG_SUBTABLE:HANG_SUBTABLE + 2] == b"\0\x0c", "the bundled font changed"
    data[HANG_OFFSET] ^= 0x80
    refused(tmp_path, bytes(data), "is damaged", "character map", "U+10FFFF")


def test_damaged_table_directory(tmp_path):
    data = bytearray(bundled())
    record = table_record(data, "glyf")
    struct.pack_into(">L", data, record + 8, len(data) + 4096)  # glyf's offset
    refused(tmp_path, bytes(data), "is damaged", "table directory", "'glyf'")


def test_woff_renamed_ttf(tmp_path):
    font = TTFont(BUNDLED)
    font.flavor = "woff"
    buffer = io.BytesIO()
    font.save(buffer)
    refused(tmp_path, buffer.getvalue(), "WOFF web font", ".ttf or .otf file")


def test_bitmap_only_font(tmp_path):
    tables = tables_of(bundled())
    del tables["glyf"], tables["loca"]
    tables["EBLC"] = struct.pack(">LL", 0x00020000, 0)
    tables["EBDT"] = struct.pack(">L", 0x00020000)
    refused(tmp_path, sfnt(tables), "only bitmap glyphs", "outlines")


def test_font_without_post_table(tmp_path):
    tables = tables_of(bundled())
    del tables["post"]
    line = refused(tmp_path, sfnt(tables), "is damaged")
    assert line.endswith("is damaged: its 'post' table is missing."), line


def test_units_per_em_zero(tmp_path):
    tables = tables_of(bundled())
    head = bytearray(tables["head"])
    struct.pack_into(">H", head, 18, 0)  # head.unitsPerEm
    tables["head"] = bytes(head)
    refused(tmp_path, sfnt(tables), "is damaged", "unitsPerEm", "is 0", "16 to 16384")


def test_composite_glyph_cycle(tmp_path):
    """Á is drawn from A and an accent, á from a and one; point Á at á and á at Á."""
    data = bytearray(bundled())
    font = TTFont(BUNDLED, lazy=True)
    glyf_at = struct.unpack_from(">L", data, table_record(data, "glyf") + 8)[0]
    loca = font["loca"]
    for glyph, component in (("Aacute", "aacute"), ("aacute", "Aacute")):
        assert font["glyf"][glyph].components[0].glyphName in ("A", "a")
        # A composite glyph: 10 header bytes, then its first component's flags and glyph.
        struct.pack_into(">H", data, glyf_at + loca[font.getGlyphID(glyph)] + 12,
                         font.getGlyphID(component))
    refused(tmp_path, bytes(data), "is damaged", "composite glyph", "contains itself",
            "'Aacute' → 'aacute' → 'Aacute'")


def test_font_collection(tmp_path):
    collection = TTCollection()
    collection.fonts = [TTFont(BUNDLED), TTFont(ROOT / "fonts" / "SourceSans3-Bold.ttf")]
    buffer = io.BytesIO()
    collection.save(buffer)
    refused(tmp_path, buffer.getvalue(), "font collection", "single font")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_fifo_named_like_a_font(tmp_path):
    os.mkfifo(tmp_path / "x.ttf")
    refused(tmp_path, None, "not a regular file")


def test_font_over_the_size_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "MAX_FONT_BYTES", 100_000, raising=False)
    refused(tmp_path, bundled(), "larger than 100,000 bytes")


def test_font_that_takes_too_long_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(fonts, "FONT_SECONDS", 0.001, raising=False)
    monkeypatch.setattr(fonts, "FONT_SECONDS_PER_MB", 0, raising=False)
    refused(tmp_path, with_fftm(bundled()), "could not be read within", "damaged")


# --- good user fonts: nothing of fontTools' on stderr --------------------------------------

def quiet_success(tmp_path: Path, name: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        result = card_with_font(tmp_path, name, formats="pdf,svg")
    ok(result)
    assert result.stderr == "", result.stderr
    noise = [r.getMessage() for r in caplog.records if r.name.startswith("fontTools")]
    assert noise == []
    assert (tmp_path / "out" / "card.pdf").is_file()
    assert (tmp_path / "out" / "card-outside.svg").is_file()


def test_user_ttf_renders_quietly(tmp_path, caplog):
    (tmp_path / "x.ttf").write_bytes(with_fftm(bundled()))
    quiet_success(tmp_path, "x.ttf", caplog)


def test_user_otf_with_cff_outlines_renders_quietly(tmp_path, caplog):
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@.+-–,;:'’?!()&/·"
    cff_font(tmp_path / "plain.otf", letters)
    (tmp_path / "box.otf").write_bytes(with_fftm((tmp_path / "plain.otf").read_bytes()))
    quiet_success(tmp_path, "box.otf", caplog)
