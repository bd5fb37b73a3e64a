"""Hostile image files: only the formats the README promises are read, recognised by their
content; nothing starts an external program; sizes and memory are checked before a pixel
is decoded; pipes and huge files are never read; and whatever Pillow or its libraries
complain about becomes a cardgen sentence, never noise on stderr.

Card-level cases run the command line in process (``tests.helpers.cli``): one error line
naming ``images.logo``, exit status 1, no traceback, quickly."""

from __future__ import annotations

import io
import os
import signal
import struct
import subprocess
import threading
import warnings
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageFile

from cardgen.card.logo import NO_PROFILE
from cardgen.draw import raster
from cardgen.draw.raster import open_image
from tests.helpers import BASE_CONFIG, cli, error_line, ok, write_config

HANG_GUARD = 120  # seconds: only a run that hangs takes this long, however loaded


# --- helpers ----------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def time_limit():
    """Fail a test that hangs (on a pipe, or in Ghostscript) instead of waiting forever."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not \
            threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeoutError(f"the test hung for {HANG_GUARD} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, HANG_GUARD)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def no_programs(monkeypatch):
    """Fail the test if anything tries to start an external program (Ghostscript, say);
    the attempt is refused, so nothing runs, and recorded."""
    started: list[str] = []

    def refuse(name):
        def start(*args, **kwargs):
            started.append(f"{name}{args[:1]!r}")
            raise AssertionError(f"an external program was started: {name}{args[:1]!r}")
        return start

    monkeypatch.setattr(subprocess, "Popen", refuse("subprocess.Popen"))
    for name in ("system", "posix_spawn", "posix_spawnp", "fork", "forkpty", "execv",
                 "execve", "execvp", "execvpe", "spawnv", "spawnve", "popen"):
        if hasattr(os, name):
            monkeypatch.setattr(os, name, refuse(f"os.{name}"))
    yield started
    assert started == []


@pytest.fixture
def no_decoding(monkeypatch):
    """Fail the test if Pillow starts decoding pixels."""
    def load(self):
        raise AssertionError(f"{self.format} pixels were decoded")
    monkeypatch.setattr(ImageFile.ImageFile, "load", load)


def logo_run(tmp_path: Path, filename: str):
    """``cardgen card`` on the base config with ``images.logo = filename``. How quickly
    it refuses is not timed (a loaded machine is slow): what must not happen is shown by
    events (``no_programs``, ``no_decoding``, the line's words), and a hang fails at
    HANG_GUARD."""
    config = write_config(tmp_path, BASE_CONFIG + f'\n[images]\nlogo = "{filename}"\n')
    return cli("card", str(config), "-o", str(tmp_path / "out"), "-f", "pdf")


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + kind + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))


def long_strip_png(width: int = 1, height: int = 40_000_000) -> bytes:
    """A valid 8-bit grey PNG of ``width`` × ``height`` black pixels, built with zlib: about
    78 KB for 1 × 40 000 000 (80 MB of rows)."""
    deflate = zlib.compressobj(9)
    rows = (b"\x00" * (1 + width)) * 1_000_000
    body = b"".join(deflate.compress(rows) for _ in range(height // 1_000_000))
    body += deflate.compress((b"\x00" * (1 + width)) * (height % 1_000_000)) + deflate.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", body)
            + _png_chunk(b"IEND", b""))


def webp_header(width: int, height: int) -> bytes:
    """The header of an extended WebP file claiming a ``width`` × ``height`` canvas."""
    vp8x = b"VP8X" + struct.pack("<I", 10) + b"\x00\x00\x00\x00" \
        + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    return b"RIFF" + struct.pack("<I", 4 + len(vp8x)) + b"WEBP" + vp8x


def progressive_jpeg_header(width: int, height: int) -> bytes:
    """A real progressive 4:4:4 JPEG whose frame header is changed to claim
    ``width`` × ``height``: opening it is cheap, decoding it would not be."""
    buffer = io.BytesIO()
    Image.new("RGB", (16, 16), (90, 120, 200)).save(buffer, "JPEG", progressive=True,
                                                    subsampling=0)
    data = bytearray(buffer.getvalue())
    sof = data.index(b"\xff\xc2")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


def shown(caught: list[warnings.WarningMessage]) -> list[str]:
    """The warnings that Python would print (unclosed files are not: they are ignored by
    default, and no business of images)."""
    return [str(w.message) for w in caught if not issubclass(w.category, ResourceWarning)]


def photo(size=(1200, 600)) -> Image.Image:
    image = Image.new("RGB", size, (200, 160, 120))
    image.paste((30, 120, 40), (size[0] // 2, 0, size[0], size[1] // 2))
    return image


# An EPS drawing, an EPS that never ends, and the same as binary (DOS) EPS.
POSTSCRIPT = (b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\n"
              b"0 0 moveto 100 100 lineto stroke\nshowpage\n")
EPS_LOOP = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 100 100\n{ } loop\n"
DOS_EPS_LOOP = (b"\xc5\xd0\xd3\xc6" + struct.pack("<IIIIIIH", 30, len(EPS_LOOP), 0, 0, 0, 0,
                                                     0xFFFF) + EPS_LOOP)


# --- formats that need an external program ----------------------------------------------

@pytest.mark.parametrize(("filename", "content"), [
    ("logo.png", POSTSCRIPT),
    ("logo.eps", EPS_LOOP),
    ("logo.jpg", DOS_EPS_LOOP),
])
def test_postscript_is_refused_quickly_and_never_run(tmp_path, no_programs, filename, content):
    (tmp_path / filename).write_bytes(content)
    result = logo_run(tmp_path, filename)
    line = error_line(result, "images.logo", filename, "PostScript file",
                      "not an image cardgen can read", "JPEG, PNG, WebP, TIFF, GIF or BMP")
    assert "Ghostscript" not in line
    assert not (tmp_path / "out" / "card.pdf").exists()


# --- sizes and memory, checked before decoding ------------------------------------------

@pytest.mark.parametrize(("filename", "content", "needle"), [
    # 40 MP: under the megapixel limit. (Built when the test runs: compressing 80 MB of
    # rows takes 0.17 s, which every test process paid while collecting.)
    ("logo.png", long_strip_png, "20,000 pixels on a side"),
    ("logo.webp", webp_header(10_000, 10_000), "50 megapixel"),  # Pillow would allocate it
])
def test_oversized_image_is_refused_before_decoding(tmp_path, no_decoding, monkeypatch,
                                                    filename, content, needle):
    if callable(content):
        content = content()
    if filename.endswith(".webp"):
        from PIL import _webp

        def decoder(data):
            raise AssertionError("the WebP canvas was allocated")
        monkeypatch.setattr(_webp, "WebPAnimDecoder", decoder)
    assert len(content) < 100_000
    (tmp_path / filename).write_bytes(content)
    result = logo_run(tmp_path, filename)
    error_line(result, "images.logo", filename, needle, "scale it down")


def test_image_over_the_memory_budget_is_refused_before_decoding(tmp_path, no_decoding):
    # 48 MP is under the pixel limit, but libjpeg keeps every coefficient of a progressive
    # JPEG: about 458 MB with the pixels, over the 400 MB budget.
    (tmp_path / "logo.jpg").write_bytes(progressive_jpeg_header(8000, 6000))
    result = logo_run(tmp_path, "logo.jpg")
    error_line(result, "images.logo", "logo.jpg", "8000 × 6000", "MB of memory",
               "400 MB limit")


def test_memory_budget_counts_bytes_per_pixel(tmp_path, monkeypatch):
    # 500 × 500 RGBA is 1 MB as Pillow stores it; 500 × 500 grey is a quarter of that.
    monkeypatch.setattr(raster, "MAX_DECODE_BYTES", 600_000)
    Image.new("RGBA", (500, 500)).save(tmp_path / "rgba.png")
    Image.new("L", (500, 500)).save(tmp_path / "grey.png")
    with pytest.raises(raster.ImageError, match=r"^images\.logo: rgba\.png .*memory"):
        open_image(tmp_path / "rgba.png", "images.logo", notes=[])
    assert open_image(tmp_path / "grey.png", "images.logo", notes=[]).size == (500, 500)


# --- what is read at all ----------------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_fifo_named_logo_png_is_not_read(tmp_path):
    os.mkfifo(tmp_path / "logo.png")  # no writer: opening it for reading would block
    result = logo_run(tmp_path, "logo.png")
    error_line(result, "images.logo", "logo.png", "not a regular file", "pipe")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_device_named_logo_png_is_not_read(tmp_path):
    (tmp_path / "logo.png").symlink_to("/dev/zero")  # endless: reading it never ends
    result = logo_run(tmp_path, "logo.png")
    error_line(result, "images.logo", "logo.png", "not a regular file", "device")


def test_file_over_the_size_cap_is_not_read(tmp_path, monkeypatch):
    monkeypatch.setattr(raster, "MAX_IMAGE_BYTES", 10_000)
    Image.effect_noise((120, 120), 80).save(tmp_path / "logo.png")
    assert (tmp_path / "logo.png").stat().st_size > 10_000
    result = logo_run(tmp_path, "logo.png")
    error_line(result, "images.logo", "logo.png", "larger than 10,000 bytes")


# --- what the libraries say -------------------------------------------------------------

def jpeg_with_damaged_exif(path: Path) -> None:
    # An EXIF block whose first directory says it has five entries but holds one byte.
    photo().save(path, "JPEG", quality=90,
                 exif=b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x05\x00\x12\x01")


def test_damaged_exif_becomes_a_note(tmp_path):
    jpeg_with_damaged_exif(tmp_path / "logo.jpg")
    notes = ["an earlier note"]
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        image = open_image(tmp_path / "logo.jpg", "images.logo", notes=notes)
    assert image.size == (1200, 600)
    assert shown(escaped) == []
    assert notes == ["an earlier note",
                     "images.logo: logo.jpg has damaged EXIF data, which was ignored."]


def test_damaged_exif_is_one_cardgen_warning_in_a_card_run(tmp_path, capfd):
    jpeg_with_damaged_exif(tmp_path / "logo.jpg")
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        result = logo_run(tmp_path, "logo.jpg")
    ok(result)
    assert shown(escaped) == []  # Pillow's complaint is not shown...
    # ...cardgen's own warning is (the card passes its warnings list as ``notes``), beside
    # the one about colour management (no print.cmyk_profile is set).
    assert result.stderr == ("warning: images.logo: logo.jpg has damaged EXIF data, which "
                             f"was ignored.\nwarning: {NO_PROFILE}\n")
    assert capfd.readouterr().err == ""  # nothing written to file descriptor 2 either


def test_libtiff_complaints_never_reach_stderr(tmp_path, capfd):
    # libtiff prints its JPEG codec's errors straight to file descriptor 2.
    buffer = io.BytesIO()
    photo((64, 48)).save(buffer, "TIFF", compression="jpeg")
    data = buffer.getvalue()
    (tmp_path / "logo.tif").write_bytes(data[: len(data) * 2 // 3])
    result = logo_run(tmp_path, "logo.tif")
    error_line(result, "images.logo", "logo.tif", "damaged")
    assert capfd.readouterr().err == ""


# --- every promised format still opens --------------------------------------------------

def save(image: Image.Image, path: Path, fmt: str, **options) -> None:
    image.save(path, fmt, **options)


@pytest.mark.parametrize(("fmt", "mode", "options"), [
    ("JPEG", "RGB", {}),
    ("JPEG", "CMYK", {"progressive": True}),
    ("PNG", "RGBA", {}),
    ("PNG", "I;16", {}),
    ("WEBP", "RGB", {}),
    ("WEBP", "RGBA", {"lossless": True}),
    ("TIFF", "RGB", {}),
    ("TIFF", "CMYK", {"compression": "tiff_lzw"}),
    ("TIFF", "RGB", {"compression": "jpeg"}),
    ("GIF", "P", {}),
    ("BMP", "RGB", {}),
])
def test_every_promised_format_opens(tmp_path, no_programs, fmt, mode, options):
    path = tmp_path / "picture.img"  # the name says nothing: the content decides
    save(photo((300, 200)).convert(mode), path, fmt, **options)
    notes: list[str] = []
    with warnings.catch_warnings(record=True) as escaped:
        warnings.simplefilter("always")
        image = open_image(path, "images.portrait", notes=notes)
    assert image.size == (300, 200)
    assert notes == [] and shown(escaped) == []


@pytest.mark.parametrize("fmt", ["GIF", "WEBP", "TIFF", "PNG"])
def test_multi_frame_images_give_their_first_frame(tmp_path, fmt):
    frames = [Image.new("RGB", (120, 80), colour) for colour in ((250, 0, 0), (0, 0, 250))]
    path = tmp_path / f"animated.{fmt.lower()}"
    frames[0].save(path, fmt, save_all=True, append_images=frames[1:])
    with Image.open(path) as check:
        assert getattr(check, "n_frames", 1) == 2
    notes: list[str] = []
    image = open_image(path, "images.portrait", notes=notes)
    red, _, blue = image.convert("RGB").getpixel((60, 40))
    assert red > 200 and blue < 50
    assert notes == []
