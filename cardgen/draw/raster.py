"""Reading user images safely and preparing them for print.

Images are read like every input file (:func:`cardgen.datafile.read_input`: regular
files only, up to a size cap), recognised by their content (only the formats the README
promises, whatever the file is called; nothing else is ever handed to Pillow, so no
PostScript, PDF or other format that needs an external program), and checked against
size and memory limits before a single pixel is decoded. They are then turned upright
from their EXIF orientation and resampled to exactly the pixels print needs: 300 dpi at
their printed size, no more. Whatever Pillow or its libraries complain about on the way
(damaged EXIF data, say) becomes one cardgen sentence instead of noise on stderr.

Imports ``cardgen.datafile``, ``cardgen.draw.page``, ``cardgen.errors`` and
``cardgen.units``; Pillow inside the functions.
"""

from __future__ import annotations

import io
import logging
import math
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from cardgen.datafile import read_input
from cardgen.draw.page import Raster
from cardgen.errors import ImageError, InputFileError
from cardgen.units import MM_PER_INCH

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

PRINT_DPI = 300
MAX_PIXELS = 50_000_000  # larger images are refused: far beyond print needs, or a bomb
MAX_SIDE = 20_000  # pixels on either side; a 1 × 40 000 000 strip is no picture
MAX_IMAGE_BYTES = 64 * 1024 * 1024  # the largest image file read at all
MAX_DECODE_BYTES = 400 * 1024 * 1024  # the memory decoding the first frame may take
FORMATS = "JPEG, PNG, WebP, TIFF, GIF or BMP"  # as the README lists them

# What each readable format starts with. The content decides the format, never the name,
# and Pillow is only ever asked to open the one format that the content announces.
_SIGNATURES: tuple[tuple[bytes, str], ...] = (
    (b"\xff\xd8\xff", "JPEG"),
    (b"\x89PNG\r\n\x1a\n", "PNG"),
    (b"GIF87a", "GIF"),
    (b"GIF89a", "GIF"),
    (b"BM", "BMP"),
    (b"II*\x00", "TIFF"),
    (b"MM\x00*", "TIFF"),
    (b"II+\x00", "TIFF"),  # BigTIFF
    (b"MM\x00+", "TIFF"),
)
# The formats Pillow may report for each: a JPEG with several pictures opens as MPO.
_REPORTED = {"JPEG": {"JPEG", "MPO"}, "PNG": {"PNG"}, "GIF": {"GIF"}, "BMP": {"BMP"},
             "TIFF": {"TIFF"}, "WEBP": {"WEBP"}}
_FORMAT_NAMES = {"JPEG": "JPEG", "PNG": "PNG", "GIF": "GIF", "BMP": "BMP", "TIFF": "TIFF",
                 "WEBP": "WebP"}
# Files people mistake for images, named in the refusal so that they know what they gave
# (matched against the lower-cased start of the file).
_OTHER_KINDS: tuple[tuple[bytes, str], ...] = (
    (b"%!", "a PostScript file"),
    (b"\xc5\xd0\xd3\xc6", "a PostScript file"),  # DOS EPS binary header
    (b"%pdf", "a PDF document"),
    (b"<svg", "an SVG drawing"),
    (b"<?xml", "an XML file (an SVG drawing?)"),
)

_T = TypeVar("_T")


def pixels_for(size_mm: float, dpi: float = PRINT_DPI) -> int:
    """Pixels needed to cover ``size_mm`` at ``dpi``."""
    return max(1, math.ceil(size_mm / MM_PER_INCH * dpi - 1e-9))


def open_image(path: Path, where: str, *, notes: list[str] | None = None) -> PILImage:
    """Open an image file fully, upright, or raise a one-sentence :class:`ImageError`
    naming ``where`` (a config field such as ``images.logo``).

    Only JPEG, PNG, WebP, TIFF, GIF and BMP are read, recognised by their content; of a
    multi-frame image, the first frame. Images with a side over :data:`MAX_SIDE`, over
    :data:`MAX_PIXELS` or needing more than :data:`MAX_DECODE_BYTES` to decode are
    refused before decoding. What Pillow warns about while reading is never printed:
    one sentence per distinct problem is appended to ``notes`` when it is given.
    """
    from PIL import Image

    name = path.name
    try:
        data = read_input(path, "image file", max_bytes=MAX_IMAGE_BYTES, where=where,
                          expected="file")
    except InputFileError as exc:
        raise ImageError(str(exc), value=path) from None
    fmt = _sniff(data, name, where)
    if fmt == "WEBP":
        size = _webp_size(data)
        if size is not None:
            _check_size(*size, name, where)

    complaints: list[tuple[str, str]] = []  # (stage, what the library said)

    def pillow(stage: str, work: Callable[[], _T]) -> _T:
        """Run one step of Pillow's work, its complaints collected and its failures
        turned into one sentence."""
        try:
            with _library_complaints(stage, complaints), warnings.catch_warnings():
                warnings.simplefilter("error", Image.DecompressionBombWarning)
                return work()
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise ImageError(f"{where}: {name} is too large to decode safely "
                             "(a decompression bomb?).", value=path) from None
        except MemoryError:
            raise ImageError(f"{where}: {name} is too large to decode in the memory "
                             "available; scale it down first.", value=path) from None
        except Image.UnidentifiedImageError:
            raise ImageError(f"{where}: {name} starts like a {_FORMAT_NAMES[fmt]} file but "
                             "is damaged (its header cannot be read).", value=path) from None
        except (OSError, SyntaxError, ValueError, EOFError) as exc:
            reason = str(exc).rstrip(". ")
            if not reason or reason.startswith("decoder error"):  # a C decoder's number
                reason = "its pixel data cannot be decoded"
            raise ImageError(f"{where}: {name} is damaged or truncated: {reason}.",
                             value=path) from None
        except Exception:  # a hostile file can make a reader fail in any way at all
            raise ImageError(f"{where}: {name} is damaged or truncated: its pixel data "
                             "cannot be decoded.", value=path) from None

    image = pillow("open", lambda: Image.open(io.BytesIO(data), formats=[fmt]))
    with image:
        if image.format not in _REPORTED[fmt]:
            raise ImageError(f"{where}: {name} is not an image cardgen can read "
                             f"(use {FORMATS}).", value=path)
        width, height = image.size
        _check_size(width, height, name, where)
        needed = _decode_bytes(image)
        if needed > MAX_DECODE_BYTES:
            raise ImageError(
                f"{where}: {name} ({width} × {height} pixels) would need about "
                f"{_megabytes(needed)} MB of memory to decode, over cardgen's "
                f"{_megabytes(MAX_DECODE_BYTES)} MB limit; scale it down first.", value=path)
        pillow("load", image.load)
        upright = pillow("orient", lambda: _upright(image, complaints))
    if notes is not None:
        for sentence in _complaint_sentences(complaints, fmt, name, where):
            if sentence not in notes:
                notes.append(sentence)
    return upright


def _upright(image: PILImage, complaints: list[tuple[str, str]]) -> PILImage:
    """A copy of the loaded ``image`` turned upright from its EXIF orientation; as it is
    stored when its EXIF data is too damaged to say."""
    from PIL import ImageOps

    try:
        return ImageOps.exif_transpose(image)
    except MemoryError:
        raise
    except Exception:  # damaged EXIF data can make its reader fail in any way at all
        complaints.append(("orient", "damaged EXIF data"))
        return image.copy()


def _sniff(data: bytes, name: str, where: str) -> str:
    """The format ``data`` announces, or an :class:`ImageError` when it is none of the
    formats cardgen reads."""
    for signature, fmt in _SIGNATURES:
        if data.startswith(signature):
            return fmt
    if data.startswith(b"RIFF") and data[8:12] == b"WEBP":
        return "WEBP"
    if not data:
        raise ImageError(f"{where}: {name} is empty (0 bytes), not an image.")
    start = data[:64].lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    kind = next((kind for signature, kind in _OTHER_KINDS if start.startswith(signature)),
                None)
    if kind is None and data[4:8] == b"ftyp":  # the ISO media container
        kind = ("a HEIC or AVIF photo" if data[8:12] in (b"heic", b"heix", b"mif1", b"msf1",
                                                        b"avif", b"avis")
                else "a video or other media file")
    what = f"is {kind}, not" if kind else "is not"
    raise ImageError(f"{where}: {name} {what} an image cardgen can read (use {FORMATS}).")


def _webp_size(data: bytes) -> tuple[int, int] | None:
    """The canvas size a WebP header states (Pillow's WebP reader allocates the canvas as
    soon as it opens the file, so the size is checked before)."""
    chunk = data[12:16]
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        return (int.from_bytes(data[26:28], "little") & 0x3FFF,
                int.from_bytes(data[28:30], "little") & 0x3FFF)
    if chunk == b"VP8X" and len(data) >= 30:
        return (int.from_bytes(data[24:27], "little") + 1,
                int.from_bytes(data[27:30], "little") + 1)
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None


def _check_size(width: int, height: int, name: str, where: str) -> None:
    if width * height > MAX_PIXELS:
        raise ImageError(
            f"{where}: {name} claims {width} × {height} pixels, over the "
            f"{MAX_PIXELS // 1_000_000} megapixel limit (a decompression bomb, or far "
            "more than print needs); scale it down first."
        )
    if max(width, height) > MAX_SIDE:
        raise ImageError(
            f"{where}: {name} claims {width} × {height} pixels, over the limit of "
            f"{MAX_SIDE:,} pixels on a side (a decompression bomb, or far more than print "
            "needs); scale it down first."
        )


def _decode_bytes(image: PILImage) -> int:
    """The memory that decoding the first frame of ``image`` takes: its pixels as Pillow
    stores them, plus the coefficients a progressive JPEG keeps for the whole image."""
    from PIL import ImageMode

    width, height = image.size
    try:
        mode = ImageMode.getmode(image.mode)
    except KeyError:
        per_pixel = 4
    else:
        # Pillow keeps images of several 8-bit bands in 4 bytes a pixel.
        per_pixel = 4 if len(mode.bands) > 1 else max(1, int(mode.typestr[-1]))
    needed = width * height * per_pixel
    if image.format in ("JPEG", "MPO") and image.info.get("progressive"):
        layers = getattr(image, "layer", [])  # (id, horizontal, vertical, table)
        h_max = max((layer[1] for layer in layers), default=1) or 1
        v_max = max((layer[2] for layer in layers), default=1) or 1
        for layer in layers or [(0, 1, 1, 0)] * 3:
            blocks_x = math.ceil(width * layer[1] / h_max / 8)
            blocks_y = math.ceil(height * layer[2] / v_max / 8)
            needed += blocks_x * blocks_y * 64 * 2  # 64 coefficients of 2 bytes a block
    return needed


def _megabytes(size: int) -> int:
    return round(size / (1024 * 1024))


@contextmanager
def _library_complaints(stage: str, sink: list[tuple[str, str]]) -> Iterator[None]:
    """Collect, instead of showing, what Pillow and its C libraries say while working:
    Python warnings, records of Pillow's loggers, and text a C library (libtiff) writes
    straight to the standard error stream."""
    pil_logger = logging.getLogger("PIL")
    handler = _Collector(stage, sink)
    propagate = pil_logger.propagate
    pil_logger.addHandler(handler)
    pil_logger.propagate = False
    try:
        with warnings.catch_warnings(record=True) as caught, _stderr_text(stage, sink):
            warnings.simplefilter("always")
            try:
                yield
            finally:
                sink.extend((stage, str(w.message)) for w in caught
                            if not issubclass(w.category, (DeprecationWarning,
                                                           PendingDeprecationWarning,
                                                           ResourceWarning)))
    finally:
        pil_logger.removeHandler(handler)
        pil_logger.propagate = propagate


class _Collector(logging.Handler):
    def __init__(self, stage: str, sink: list[tuple[str, str]]) -> None:
        super().__init__(logging.WARNING)
        self.stage = stage
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        self.sink.append((self.stage, record.getMessage()))


@contextmanager
def _stderr_text(stage: str, sink: list[tuple[str, str]]) -> Iterator[None]:
    """Send what is written to file descriptor 2 meanwhile into ``sink``. Where that
    descriptor cannot be redirected, nothing is collected."""
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    try:
        with tempfile.TemporaryFile() as capture:
            os.dup2(capture.fileno(), 2)
            try:
                yield
            finally:
                os.dup2(saved, 2)
                capture.seek(0)
                text = capture.read(4096).decode("utf-8", "replace").strip()
                if text:
                    sink.append((stage, text))
    finally:
        os.close(saved)


def _complaint_sentences(complaints: list[tuple[str, str]], fmt: str, name: str,
                         where: str) -> list[str]:
    """One plain sentence per distinct problem the libraries reported, in order."""
    sentences: list[str] = []
    for stage, message in complaints:
        text = message.lower()
        if stage == "orient" or "exif" in text or "tag" in text or "truncated file read" in text:
            what = ("has damaged metadata tags, which were ignored" if fmt == "TIFF"
                    else "has damaged EXIF data, which was ignored")
        elif "mpo" in text:
            what = "is a damaged multi-picture JPEG; only its first picture was used"
        elif "apng" in text:
            what = "is a damaged animated PNG; only its still picture was used"
        else:
            what = "has minor defects, which were ignored"
        sentence = f"{where}: {name} {what}."
        if sentence not in sentences:
            sentences.append(sentence)
    return sentences


def flatten_alpha(image: PILImage) -> tuple[PILImage, PILImage | None]:
    """RGB pixels and the alpha channel (None when fully opaque)."""
    from PIL import Image

    if image.mode == "P" and "transparency" in image.info:
        image = image.convert("RGBA")
    if image.mode in ("RGBA", "LA", "PA"):
        rgba = image.convert("RGBA")
        alpha = rgba.getchannel("A")
        if alpha.getextrema() == (255, 255):
            return rgba.convert("RGB"), None
        # Transparent pixels keep a white colour so that resampling does not darken edges.
        white = Image.new("RGB", rgba.size, (255, 255, 255))
        white.paste(rgba.convert("RGB"), mask=alpha)
        return white, alpha
    return image.convert("RGB"), None


def fit_image(image: PILImage, max_w: float, max_h: float) -> tuple[Raster, float, float, float]:
    """The image scaled to fit ``max_w`` × ``max_h`` mm, resampled to 300 dpi.

    Returns the raster, its size in mm, and the effective resolution of the source.
    """
    from PIL import Image

    rgb, alpha = flatten_alpha(image)
    w_px, h_px = rgb.size
    scale = min(max_w / w_px, max_h / h_px)
    w_mm, h_mm = w_px * scale, h_px * scale
    effective_dpi = w_px / (w_mm / MM_PER_INCH)
    target = (pixels_for(w_mm), pixels_for(h_mm))
    if target != rgb.size:
        rgb = rgb.resize(target, Image.Resampling.LANCZOS)
        if alpha is not None:
            alpha = alpha.resize(target, Image.Resampling.LANCZOS)
    return Raster.from_images(rgb, rgb_to_cmyk_image(rgb), alpha), w_mm, h_mm, effective_dpi


def rgb_to_cmyk_image(rgb: PILImage) -> PILImage:
    """Naive conversion with full black generation (no ICC profile is bundled)."""
    from PIL import Image

    data = rgb.tobytes()
    out = bytearray(len(data) // 3 * 4)
    cache: dict[bytes, bytes] = {}
    for i in range(0, len(data), 3):
        px = data[i:i + 3]
        value = cache.get(px)
        if value is None:
            r, g, b = px
            k = 255 - max(r, g, b)
            if k == 255:
                value = bytes((0, 0, 0, 255))
            else:
                value = bytes((
                    round((255 - r - k) * 255 / (255 - k)),
                    round((255 - g - k) * 255 / (255 - k)),
                    round((255 - b - k) * 255 / (255 - k)),
                    k,
                ))
            cache[px] = value
        j = i // 3 * 4
        out[j:j + 4] = value
    return Image.frombytes("CMYK", rgb.size, bytes(out))
