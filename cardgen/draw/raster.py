"""Reading user images safely and preparing them for print.

Images are opened defensively (missing, unreadable, truncated, oversized), turned
upright from their EXIF orientation, then resampled to exactly the pixels print needs:
300 dpi at their printed size, no more.

Imports ``cardgen.draw.page`` and ``cardgen.units``; Pillow inside the functions.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.draw.page import Raster
from cardgen.errors import ImageError
from cardgen.units import MM_PER_INCH

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

PRINT_DPI = 300
MAX_PIXELS = 50_000_000  # larger images are refused: far beyond print needs, or a bomb


def pixels_for(size_mm: float, dpi: float = PRINT_DPI) -> int:
    """Pixels needed to cover ``size_mm`` at ``dpi``."""
    return max(1, math.ceil(size_mm / MM_PER_INCH * dpi - 1e-9))


def open_image(path: Path, where: str) -> PILImage:
    """Open an image file fully, upright, or raise a one-sentence error naming ``where``."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    if not path.exists():
        raise ImageError(f"{where}: image file {path} does not exist.")
    if not path.is_file():
        raise ImageError(f"{where}: {path} is not a file.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(path)
            width, height = image.size
            if width * height > MAX_PIXELS:
                raise ImageError(
                    f"{where}: {path.name} claims {width} × {height} pixels, over the "
                    f"{MAX_PIXELS // 1_000_000} megapixel limit (a decompression bomb, or far "
                    "more than print needs); scale it down first."
                )
            image.load()
            upright = ImageOps.exif_transpose(image)
    except ImageError:
        raise
    except UnidentifiedImageError:
        raise ImageError(f"{where}: {path.name} is not an image cardgen can read "
                           "(use JPEG, PNG, WebP, TIFF, GIF or BMP).") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageError(f"{where}: {path.name} is too large to decode safely "
                           "(a decompression bomb?).") from None
    except PermissionError:
        raise ImageError(f"{where}: {path} cannot be read (permission denied).") from None
    except (OSError, SyntaxError, ValueError, EOFError) as exc:
        raise ImageError(f"{where}: {path.name} is damaged or truncated: {exc}.") from None
    return upright if upright is not None else image


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
