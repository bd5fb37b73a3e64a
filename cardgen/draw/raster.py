"""Reading user images safely and preparing them for print.

Images are read like every input file (:func:`cardgen.datafile.read_input`: regular
files only, up to a size cap), recognised by their content (only the formats the guide,
docs/card.md, promises, whatever the file is called; nothing else is ever handed to Pillow, so no
PostScript, PDF or other format that needs an external program), and checked against
size and memory limits before a single pixel is decoded. They are then turned upright
from their EXIF orientation and resampled to exactly the pixels print needs: 300 dpi at
their printed size, no more. Whatever Pillow or its libraries complain about on the way
(damaged EXIF data, say) becomes one cardgen sentence instead of noise on stderr.

Transparency (an alpha channel, a palette's transparent entries or a PNG's transparent
colour key) never reaches print as transparency: an image's shape becomes a hard-edged
1-bit stencil mask at 1200 dpi, cut at 50 % opacity, and its colours are its own,
resampled weighted by opacity, never blended with white or any other ground.

Colour: an image's embedded colour profile is honoured (:mod:`cardgen.draw.icc`); its
colours are converted to print CMYK through the user's CMYK profile, or by a simple
formula without one, and to sRGB for previews.

Imports ``cardgen.datafile``, ``cardgen.draw.colors``, ``cardgen.draw.icc``,
``cardgen.draw.page``,
``cardgen.errors`` and ``cardgen.units``; Pillow inside the functions.
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
from cardgen.draw.colors import LUMINANCE_WEIGHTS, linear_channel
from cardgen.draw.icc import (
    CmykProfile,
    adopt_embedded_profile,
    print_cmyk,
    rgb_profile,
    screen_rgb,
)
from cardgen.draw.page import Raster
from cardgen.errors import ImageError, InputFileError
from cardgen.units import MM_PER_INCH

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

PRINT_DPI = 300
MASK_DPI = 1200  # a stencil mask's resolution at its printed size: finer than any plate
MASK_THRESHOLD = 128  # the alpha (of 255) from which a pixel of a stencil mask prints: 50 %
_OWN_COLOUR_WEIGHT = 0.5  # alpha (of 255) below which a pixel's own colour is too faint
_STRIP_PIXELS = 1 << 20  # pixels per strip when premultiplying a large image
# A "near white border" (see near_white_border): a band this share of the shorter side
# wide, where at least WHITE_SHARE of the pixels have at least NEAR_WHITE luminance
# (0.8: an sRGB grey of about 231 of 255).
BORDER_BAND = 0.03
WHITE_SHARE = 0.9
NEAR_WHITE = 0.8
MAX_PIXELS = 50_000_000  # larger images are refused: far beyond print needs, or a bomb
MAX_SIDE = 20_000  # pixels on either side; a 1 × 40 000 000 strip is no picture
MAX_IMAGE_BYTES = 64 * 1024 * 1024  # the largest image file read at all
MAX_DECODE_BYTES = 400 * 1024 * 1024  # the memory decoding the first frame may take
FORMATS = "JPEG, PNG, WebP, TIFF, GIF or BMP"  # as the guide (docs/card.md) lists them

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
    found: list[str] = []
    upright = adopt_embedded_profile(upright, name, where, found)
    if notes is not None:
        for sentence in _complaint_sentences(complaints, fmt, name, where):
            if sentence not in notes:
                notes.append(sentence)
        notes += [sentence for sentence in found if sentence not in notes]
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


def split_alpha(image: PILImage) -> tuple[PILImage, PILImage | None]:
    """The image's own colours as RGB, never blended with anything, and its transparency
    as an 8-bit alpha channel (None when every pixel is opaque).

    Transparency comes from an alpha channel, from a palette's transparent entries, or
    from a colour key (a PNG's tRNS chunk: one grey level or RGB colour that stands for
    "transparent"). 16-bit greyscale is scaled to 8 bits, not clipped. Fully transparent
    pixels keep whatever colour the file stores for them; callers weight colours by
    alpha (see :func:`unblended_resize`), so that colour never shows.
    """
    if image.mode.startswith("I;16"):
        image = _grey_from_16_bits(image)
    if image.mode == "RGB" and isinstance(key := image.info.get("transparency"), tuple) \
            and max(key) > 255:
        # A 16-bit RGB PNG: Pillow keeps the top 8 bits of each sample but the key in 16.
        image = image.copy()
        image.info["transparency"] = tuple(v >> 8 for v in key)
    if "transparency" not in image.info and not _has_alpha_band(image):
        return image.convert("RGB"), None
    rgba = image.convert("RGBA")
    alpha = rgba.getchannel("A")
    if alpha.getextrema() == (255, 255):
        return rgba.convert("RGB"), None
    return rgba.convert("RGB"), alpha


def _has_alpha_band(image: PILImage) -> bool:
    return any(band in ("A", "a") for band in image.getbands())


def _grey_from_16_bits(image: PILImage) -> PILImage:
    """A 16-bit greyscale image as 8-bit ``L`` (or ``LA`` with its colour key applied at
    full precision), scaled rather than clipped as Pillow's own conversion does."""
    from PIL import Image, ImageMath

    wide = image.convert("I")
    grey: PILImage = ImageMath.lambda_eval(
        lambda e: e["convert"](e["v"] * (255 / 65535) + 0.5, "L"), v=wide)
    key = image.info.get("transparency")
    if not isinstance(key, int):
        return grey
    alpha: PILImage = ImageMath.lambda_eval(
        lambda e: e["convert"](e["notequal"](e["v"], key) * 255, "L"), v=wide)
    return Image.merge("LA", (grey, alpha))


def stencil_mask(alpha: PILImage, size: tuple[int, int]) -> PILImage | None:
    """The shape of an image with transparency ``alpha``, resampled to ``size`` and cut
    at 50 % opacity, as a 1-bit mask (white = printed); None when every pixel prints.

    Print cannot show partial transparency, so what is at least half opaque prints in
    full and the rest not at all. At :data:`MASK_DPI` the steps of this hard edge are far
    below what the eye or a printing plate resolves."""
    from PIL import Image

    if alpha.size != size:
        alpha = alpha.resize(size, Image.Resampling.LANCZOS)
    mask = alpha.point(lambda v: 255 if v >= MASK_THRESHOLD else 0, "1")
    return None if mask.getextrema() == (255, 255) else mask


def mask_coverage(mask: PILImage | None, size: tuple[int, int]) -> PILImage:
    """How much of each pixel of a ``size`` grid laid over the same box a stencil
    ``mask`` prints, as 8-bit coverage (255 = all of it): what a hard edge looks like at a
    preview's resolution. Without a mask, everything prints."""
    from PIL import Image

    if mask is None:
        return Image.new("L", size, 255)
    grey = mask.convert("L")
    return grey if grey.size == size else grey.resize(size, Image.Resampling.BOX)


def unblended_resize(rgb: PILImage, alpha: PILImage, size: tuple[int, int]) -> PILImage:
    """The colours of an image with transparency, resampled to ``size`` without letting
    the colour of transparent pixels bleed in.

    Colours are resampled premultiplied by alpha, in floating point, and then divided by
    the resampled alpha: each new pixel is the alpha-weighted average of the colours it
    covers, so a pixel on an anti-aliased edge has the logo's own colour, never a blend
    with white, black or anything else. (For a logo of one colour c, every pixel that
    covers any of it is exactly c.) Pixels that cover nothing take the colours of their
    nearest neighbours that do (:func:`_fill_from_neighbours`), so that nothing foreign
    appears wherever a stencil edge uncovers them.
    """
    from PIL import Image

    factor = max(1, min(rgb.width // (2 * size[0]), rgb.height // (2 * size[1])))
    bands, weight = _premultiplied_reduced(rgb, alpha, factor)
    lanczos = Image.Resampling.LANCZOS
    # Colours and weight are resampled alike and never clamped apart: where Lanczos
    # overshoots, both overshoot by the same factor, and their ratio stays the colour.
    return Image.merge("RGB", _fill_from_neighbours(
        [band.resize(size, lanczos) for band in bands], weight.resize(size, lanczos)))


def _premultiplied_reduced(rgb: PILImage, alpha: PILImage,
                           factor: int) -> tuple[list[PILImage], PILImage]:
    """Floating-point colour bands premultiplied by alpha (0–255 × alpha/255) and alpha
    itself, each reduced by box averaging over ``factor`` × ``factor`` pixels. Worked
    through in strips of rows, so that a large image never needs four floating-point
    copies of itself at once."""
    from PIL import Image, ImageMath

    width, height = rgb.size
    out_size = (math.ceil(width / factor), math.ceil(height / factor))
    bands = [Image.new("F", out_size) for _ in range(3)]
    weight = Image.new("F", out_size)
    rows = max(factor, (_STRIP_PIXELS // max(width, 1)) // factor * factor)
    for top in range(0, height, rows):
        box = (0, top, width, min(height, top + rows))
        a = alpha.crop(box).convert("F")
        parts = [ImageMath.lambda_eval(lambda e: e["c"] * e["a"] * (1 / 255),
                                       c=band.convert("F"), a=a)
                 for band in rgb.crop(box).split()]
        for target, part in zip([*bands, weight], [*parts, a], strict=True):
            target.paste(part.reduce(factor) if factor > 1 else part, (0, top // factor))
    return bands, weight


def _fill_from_neighbours(bands: list[PILImage], weight: PILImage) -> list[PILImage]:
    """Un-premultiply colour ``bands`` by ``weight`` (alpha 0–255) and give every pixel
    without weight the colour of its neighbourhood, as 8-bit bands.

    Push-pull: the weighted colours are averaged down a pyramid of halved sizes until
    one pixel is left; on the way back up, a pixel with weight keeps its own colour and
    one without takes the (bilinearly enlarged) colour of the coarser level, which is
    the weighted average of the nearest pixels that have any. A fully transparent image
    is white."""
    from PIL import Image, ImageMath

    low = weight.getextrema()[0]
    if weight.size == (1, 1) or (isinstance(low, float | int) and low >= _OWN_COLOUR_WEIGHT):
        coarse = None
    else:
        half = (math.ceil(weight.width / 2), math.ceil(weight.height / 2))
        box = Image.Resampling.BOX
        coarse = _fill_from_neighbours([band.resize(half, box) for band in bands],
                                       weight.resize(half, box))
    own = [ImageMath.lambda_eval(
        lambda e: e["max"](e["min"](e["p"] * 255 / e["max"](e["w"], _OWN_COLOUR_WEIGHT),
                                    255.0), 0.0), p=band, w=weight) for band in bands]
    if coarse is None:
        fallback = [Image.new("F", weight.size, 255.0) for _ in bands]
    else:
        fallback = [band.convert("F").resize(weight.size, Image.Resampling.BILINEAR)
                    for band in coarse]
    known: PILImage = ImageMath.lambda_eval(lambda e: e["w"] >= _OWN_COLOUR_WEIGHT, w=weight)
    return [ImageMath.lambda_eval(
        lambda e: e["convert"](e["k"] * e["o"] + (1 - e["k"]) * e["f"] + 0.5, "L"),
        k=known, o=o, f=f) for o, f in zip(own, fallback, strict=True)]


def fit_image(image: PILImage, max_w: float, max_h: float,
              profile: CmykProfile | None = None) -> tuple[Raster, float, float, float]:
    """The image scaled to fit ``max_w`` × ``max_h`` mm: its colours resampled to
    :data:`PRINT_DPI` at that size, and, when it has transparency, its shape as a stencil
    mask at :data:`MASK_DPI` (see :func:`stencil_mask` and :func:`unblended_resize`).
    The colours are resampled as the image stores them, then converted: for print to CMYK
    through ``profile`` (without one, by the simple formula), for previews to sRGB
    (:mod:`cardgen.draw.icc`); the image's embedded RGB profile, if any, is their source.

    Returns the raster, its size in mm, and the effective resolution of the source.
    """
    from PIL import Image

    source = rgb_profile(image)
    rgb, alpha = split_alpha(image)
    w_px, h_px = rgb.size
    scale = min(max_w / w_px, max_h / h_px)
    w_mm, h_mm = w_px * scale, h_px * scale
    effective_dpi = w_px / (w_mm / MM_PER_INCH)
    target = (pixels_for(w_mm), pixels_for(h_mm))
    if alpha is None:
        if target != rgb.size:
            rgb = rgb.resize(target, Image.Resampling.LANCZOS)
        return (Raster.from_images(screen_rgb(rgb, source), print_cmyk(rgb, source, profile)),
                w_mm, h_mm, effective_dpi)
    mask = stencil_mask(alpha, (pixels_for(w_mm, MASK_DPI), pixels_for(h_mm, MASK_DPI)))
    colours = unblended_resize(rgb, alpha, target)
    return (Raster.from_images(screen_rgb(colours, source),
                               print_cmyk(colours, source, profile), mask),
            w_mm, h_mm, effective_dpi)


def near_white_border(rgb: PILImage) -> bool:
    """Whether the image is framed by (near) white: of the pixels in a band along its four
    edges (:data:`BORDER_BAND` of its shorter side wide, at least one pixel), at least
    :data:`WHITE_SHARE` have a relative luminance of :data:`NEAR_WHITE` or more. That is
    what a logo on a white ground looks like, JPEG noise and all; a picture that runs to
    its edges in any colour other than white is not."""
    width, height = rgb.size
    band = max(1, round(BORDER_BAND * min(width, height)))
    if 2 * band >= min(width, height):
        boxes = [(0, 0, width, height)]
    else:  # the top and bottom strips, then the left and right strips between them
        boxes = [(0, 0, width, band), (0, height - band, width, height),
                 (0, band, band, height - band), (width - band, band, width, height - band)]
    red, green, blue = ([w * linear_channel(v) for v in range(256)] for w in LUMINANCE_WEIGHTS)
    light = total = 0
    for box in boxes:
        data = rgb.crop(box).convert("RGB").tobytes()
        total += len(data) // 3
        light += sum(1 for i in range(0, len(data), 3)
                     if red[data[i]] + green[data[i + 1]] + blue[data[i + 2]] >= NEAR_WHITE)
    return light >= WHITE_SHARE * total
