"""Colour management for pictures: an image's own colours converted to print CMYK through
ICC profiles (Pillow's ImageCms, which is littleCMS), or without a profile by cardgen's
simple formula (:func:`formula_cmyk`).

A CMYK profile is user input like any other file (``print.cmyk_profile``): it is read as a
regular file up to :data:`MAX_PROFILE_BYTES`, its header is checked before littleCMS sees
it (an ICC profile, complete, of a CMYK printing device), and it is then tried on a few
colours, so that a damaged, hostile or wrong profile is refused in one sentence that names
the field and the fix, before anything is drawn. What littleCMS makes of a profile is
deterministic: the same profile, intent and pixels give the same CMYK bytes.

The source of a conversion is the image's own embedded RGB profile when it has one that
littleCMS reads, else sRGB (what an image without a profile is taken to be, as browsers
do). :func:`adopt_embedded_profile` settles that when an image is opened.

Imports ``cardgen.datafile`` and ``cardgen.errors``; Pillow inside the functions.
"""

from __future__ import annotations

import enum
import hashlib
import io
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.datafile import read_input
from cardgen.errors import InputFileError, ProfileError

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage
    from PIL.ImageCms import ImageCmsProfile, ImageCmsTransform

FIELD = "print.cmyk_profile"
MAX_PROFILE_BYTES = 32 * 1024 * 1024  # the largest press profiles are a few MB
HEADER = 128  # bytes of an ICC profile's header, followed by its tag count
FIX = (f"set {FIELD} to the CMYK ICC profile (.icc or .icm) of the printing condition "
       "your print shop prints to, or leave it out")
# RGB modes whose pixels an RGB profile describes (the alpha or padding band aside).
RGB_MODES = ("RGB", "RGBA", "RGBX", "RGBa", "P", "PA")


class RenderingIntent(enum.StrEnum):
    """How colours are mapped into the press's range (ICC rendering intents)."""

    RELATIVE = "relative-colorimetric"  # colours kept, paper white as white; the rest clipped
    PERCEPTUAL = "perceptual"  # everything compressed together, as the profile's maker chose
    SATURATION = "saturation"  # vivid rather than accurate, for business graphics
    ABSOLUTE = "absolute-colorimetric"  # like relative, but the paper's tint simulated


DEFAULT_INTENT = RenderingIntent.RELATIVE

# Kinds of ICC profile by their header's device class and colour space, for messages.
_CLASSES = {b"scnr": "an input (scanner or camera) profile", b"mntr": "a display profile",
            b"link": "a device link", b"spac": "a colour space profile",
            b"abst": "an abstract profile", b"nmcl": "a named colour profile"}
_SPACES = {b"RGB ": "an RGB", b"GRAY": "a greyscale", b"Lab ": "a Lab", b"XYZ ": "an XYZ",
           b"CMY ": "a CMY (no black)", b"HSV ": "an HSV", b"YCbr": "a YCbCr",
           b"Luv ": "an Luv", b"Yxy ": "a Yxy", b"HLS ": "an HLS"}
# Files people mistake for profiles, named in the refusal.
_OTHER_FILES = ((b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"),
                (b"%PDF", "a PDF document"), (b"PK\x03\x04", "a ZIP archive (unpack it "
                                                              "first)"))


@dataclass(frozen=True)
class CmykProfile:
    """A CMYK printing profile that littleCMS has read and converted colours with: the
    file's ``name`` (for messages), its bytes and their SHA-256 ``digest``, its own
    ``description``, the rendering ``intent`` to convert with, and the most ink
    (``max_ink``, 3.0 for 300 %) a converted pixel may carry."""

    name: str
    digest: str
    description: str
    intent: RenderingIntent
    max_ink: float
    data: bytes = field(repr=False, compare=False)


def intent_flags(intent: RenderingIntent) -> tuple[int, int]:
    """littleCMS's intent and flags for ``intent``: black point compensation with every
    intent but absolute colorimetric (which simulates the paper, black and all)."""
    from PIL import ImageCms

    number = {RenderingIntent.PERCEPTUAL: ImageCms.Intent.PERCEPTUAL,
              RenderingIntent.RELATIVE: ImageCms.Intent.RELATIVE_COLORIMETRIC,
              RenderingIntent.SATURATION: ImageCms.Intent.SATURATION,
              RenderingIntent.ABSOLUTE: ImageCms.Intent.ABSOLUTE_COLORIMETRIC}[intent]
    flags = (ImageCms.Flags.NONE if intent is RenderingIntent.ABSOLUTE
             else ImageCms.Flags.BLACKPOINTCOMPENSATION)
    return int(number), int(flags)


def read_cmyk_profile(path: Path, intent: RenderingIntent = DEFAULT_INTENT, *,
                      max_ink: float = 3.0, where: str = FIELD) -> CmykProfile:
    """The CMYK profile at ``path``, read, checked and tried, or a one-sentence
    :class:`ProfileError` naming ``where`` and the fix."""
    try:
        data = read_input(path, "ICC profile", max_bytes=MAX_PROFILE_BYTES, where=where,
                          expected="file")
    except InputFileError as exc:
        raise ProfileError(f"{str(exc).rstrip('.')}; {FIX}.", value=path) from None
    name = path.name

    def refuse(problem: str) -> ProfileError:
        return ProfileError(f"{where}: {name} {problem}; {FIX}.", value=path)

    problem = header_problem(data)
    if problem:
        raise refuse(problem)
    if data[16:20] != b"CMYK":
        space = _SPACES.get(data[16:20], "a non-CMYK")
        raise refuse(f"is {space} profile, not a CMYK one (a profile of a printing press)")
    if data[12:16] != b"prtr":
        kind = _CLASSES.get(data[12:16], "not a printer profile")
        raise refuse(f"is {kind}, not an output profile of a printing press")
    profile = _open_profile(data)
    if profile is None:
        raise refuse("is damaged: littleCMS cannot read it")
    try:
        transform = _transform(None, data, "CMYK", intent)
        _trial(transform)
    except Exception:  # a hostile profile can make littleCMS fail in any way at all
        raise refuse("is damaged or incomplete: littleCMS cannot convert colours with it "
                     f"({intent.value})") from None
    try:
        description = profile.profile.profile_description or ""
    except Exception:
        description = ""
    return CmykProfile(name, hashlib.sha256(data).hexdigest(), description.strip(), intent,
                       max_ink, data)


def header_problem(data: bytes) -> str:
    """What is wrong with ``data`` as an ICC profile's header and tag table ("" when
    nothing is): the checks made before littleCMS reads a byte of it."""
    if not data:
        return "is empty (0 bytes), not an ICC profile"
    for start, kind in _OTHER_FILES:
        if data.startswith(start):
            return f"is {kind}, not an ICC profile"
    if len(data) < HEADER + 4 or data[36:40] != b"acsp":
        return "is not an ICC profile (it has no ICC header)"
    declared, count = struct.unpack(">I", data[:4])[0], struct.unpack(">I", data[128:132])[0]
    if declared > len(data):
        return (f"is truncated: its header says {declared:,} bytes and the file has "
                f"{len(data):,}")
    if declared < HEADER + 4 + 12 * count or count > 100:
        return "is damaged: its header and tag table do not agree"
    if data[20:24] not in (b"Lab ", b"XYZ "):
        return "is damaged: its connection space is neither Lab nor XYZ"
    return ""


def _open_profile(data: bytes) -> ImageCmsProfile | None:
    from PIL import ImageCms

    try:
        return ImageCms.ImageCmsProfile(io.BytesIO(data))
    except Exception:  # littleCMS refuses it, however it says so
        return None


@lru_cache(maxsize=1)
def _srgb() -> ImageCmsProfile:
    from PIL import ImageCms

    return ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


@lru_cache(maxsize=16)
def _transform(source: bytes | None, target: bytes | None, out_mode: str,
               intent: RenderingIntent, in_mode: str = "RGB") -> ImageCmsTransform:
    """A littleCMS transform from the ``source`` profile's space (None: sRGB) to the
    ``target`` profile's (None: sRGB); profiles are given as bytes, so that the same
    bytes share a transform."""
    from PIL import ImageCms

    def profile(data: bytes | None) -> ImageCmsProfile:
        if data is None:
            return _srgb()
        opened = _open_profile(data)
        if opened is None:
            raise ValueError("a profile littleCMS cannot read")
        return opened

    number, flags = intent_flags(intent)
    return ImageCms.buildTransform(profile(source), profile(target), in_mode, out_mode,
                                   renderingIntent=ImageCms.Intent(number),
                                   flags=ImageCms.Flags(flags))


def _trial(transform: ImageCmsTransform) -> None:
    """Convert a strip of colours (white, black, greys, primaries) with ``transform``:
    where a profile's tables are broken, littleCMS fails here, not in the middle of a
    card."""
    from PIL import Image

    strip = Image.new("RGB", (9, 1))
    strip.putdata([(255, 255, 255), (0, 0, 0), (128, 128, 128), (255, 0, 0), (0, 255, 0),
                   (0, 0, 255), (0, 255, 255), (255, 0, 255), (255, 255, 0)])
    transform.apply(strip)


# --- converting pixels ------------------------------------------------------------------

def rgb_profile(image: PILImage) -> bytes | None:
    """The RGB profile embedded in ``image`` (left there by :func:`adopt_embedded_profile`),
    or None when its colours are sRGB."""
    data = image.info.get("icc_profile")
    if isinstance(data, bytes) and data[16:20] == b"RGB " and image.mode in RGB_MODES:
        return data
    return None


def screen_rgb(rgb: PILImage, source: bytes | None) -> PILImage:
    """``rgb`` (pixels described by the ``source`` profile, None: sRGB) in sRGB, as
    previews show it: converted relative colorimetrically with black point
    compensation."""
    if source is None:
        return rgb
    converted: PILImage = _transform(source, None, "RGB", RenderingIntent.RELATIVE).apply(rgb)
    converted.info.pop("icc_profile", None)
    return converted


def print_cmyk(rgb: PILImage, source: bytes | None, profile: CmykProfile | None) -> PILImage:
    """The CMYK that prints ``rgb`` (pixels described by the ``source`` profile, None:
    sRGB): through ``profile`` with its rendering intent, at most its ``max_ink`` on any
    pixel (:func:`limit_ink`); without a profile, by :func:`formula_cmyk`."""
    if profile is None:
        return formula_cmyk(screen_rgb(rgb, source))
    cmyk: PILImage = _transform(source, profile.data, "CMYK", profile.intent).apply(rgb)
    cmyk.info.pop("icc_profile", None)
    return limit_ink(cmyk, profile.max_ink)


def limit_ink(cmyk: PILImage, max_ink: float) -> PILImage:
    """``cmyk`` with no pixel over ``max_ink`` (3.0: 300 %) in total: where a pixel has
    more, its cyan, magenta and yellow are scaled down together (black kept), as a RIP's
    ink limit does. A press profile for a richer condition than the card's ink rule
    allows (320 or 330 % in its deepest shadows) changes only those shadows."""
    from PIL import Image, ImageMath

    limit = int(max_ink * 255 + 1e-9)
    total: PILImage = ImageMath.lambda_eval(
        lambda e: e["c"] + e["m"] + e["y"] + e["k"],
        **dict(zip("cmyk", (band.convert("I") for band in cmyk.split()), strict=True)))
    high = total.getextrema()[1]
    if not isinstance(high, int | float) or high <= limit:
        return cmyk
    data = bytearray(cmyk.tobytes())
    cache: dict[bytes, bytes] = {}
    for i in range(0, len(data), 4):
        pixel = bytes(data[i:i + 4])
        if sum(pixel) <= limit:
            continue
        value = cache.get(pixel)
        if value is None:
            c, m, y, k = pixel
            room = max(0, limit - k)
            scale = room / (c + m + y)
            value = bytes((int(c * scale), int(m * scale), int(y * scale), k))
            cache[pixel] = value
        data[i:i + 4] = value
    return Image.frombytes("CMYK", cmyk.size, bytes(data))


def formula_cmyk(rgb: PILImage) -> PILImage:
    """The simple formula used without a profile: sRGB values taken as ink-free device
    colour, with full black generation (K is what the lightest channel lacks, C, M and Y
    the rest). No colour management: orange 230, 120, 20 becomes C0 M48 Y91 K10."""
    from PIL import Image

    data = rgb.tobytes()
    pixels = [data[i:i + 3] for i in range(0, len(data), 3)]
    table = {px: _formula_pixel(px) for px in set(pixels)}  # each colour once
    return Image.frombytes("CMYK", rgb.size, b"".join(map(table.__getitem__, pixels)))


def _formula_pixel(px: bytes) -> bytes:
    """One RGB pixel (3 bytes) as :func:`formula_cmyk` converts it (4 bytes)."""
    r, g, b = px
    k = 255 - max(r, g, b)
    if k == 255:
        return bytes((0, 0, 0, 255))
    return bytes((
        round((255 - r - k) * 255 / (255 - k)),
        round((255 - g - k) * 255 / (255 - k)),
        round((255 - b - k) * 255 / (255 - k)),
        k,
    ))


def formula_cmyk_plain(rgb: PILImage) -> PILImage:
    """:func:`formula_cmyk` as it was first written, pixel by pixel (tests compare)."""
    from PIL import Image

    data = rgb.tobytes()
    out = bytearray(len(data) // 3 * 4)
    cache: dict[bytes, bytes] = {}
    for i in range(0, len(data), 3):
        px = data[i:i + 3]
        value = cache.get(px)
        if value is None:
            value = _formula_pixel(px)
            cache[px] = value
        j = i // 3 * 4
        out[j:j + 4] = value
    return Image.frombytes("CMYK", rgb.size, bytes(out))


# --- profiles embedded in images --------------------------------------------------------

def adopt_embedded_profile(image: PILImage, name: str, where: str,
                           notes: list[str]) -> PILImage:
    """``image`` with its embedded colour profile settled: an RGB profile that littleCMS
    reads stays in ``image.info`` (the source of every conversion, see
    :func:`rgb_profile`); a CMYK image's CMYK profile converts it to sRGB here; a
    greyscale profile is dropped (grey is taken as sRGB grey); a profile that cannot be
    read or does not fit the pixels is dropped with a note appended to ``notes``, and the
    colours are taken as sRGB."""
    data = image.info.get("icc_profile")
    if not data:
        image.info.pop("icc_profile", None)
        return image
    assert isinstance(data, bytes)
    space = data[16:20] if len(data) >= HEADER else b""
    usable = not header_problem(data) and _open_profile(data) is not None
    if usable and space == b"RGB " and image.mode in RGB_MODES:
        return image
    if usable and space == b"CMYK" and image.mode == "CMYK":
        try:
            converted = _transform(data, None, "RGB", RenderingIntent.RELATIVE,
                                   in_mode="CMYK").apply(image)
        except Exception:  # a hostile profile can make littleCMS fail in any way at all
            usable = False
        else:
            converted.info.pop("icc_profile", None)
            return converted
    image.info.pop("icc_profile", None)
    if usable and space == b"GRAY" and image.mode in ("L", "LA", "La", "I;16", "I;16B",
                                                       "I;16L", "I", "1"):
        return image
    if not usable:
        note = (f"{where}: {name} carries a colour profile that cannot be read, so its "
                "colours were taken as sRGB.")
    else:
        kind = {**_SPACES, b"CMYK": "a CMYK"}.get(space, "a")
        note = (f"{where}: {name} carries {kind} colour profile that does not fit its "
                f"{image.mode} pixels, so its colours were taken as sRGB.")
    if note not in notes:
        notes.append(note)
    return image
