"""The faded, tinted portraits behind the grids (SPEC §2, grid art).

The user's photo is cropped square a little above centre (where faces usually are),
turned into a darkness map and printed as a one-colour duotone per grid: CMYK directly for
print, an RGB twin for previews.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.draw.colors import Color
from cardgen.draw.page import Raster
from cardgen.draw.raster import pixels_for, split_alpha
from cardgen.units import MM_PER_INCH

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage

FACE_CENTRING = (0.5, 0.4)  # where the square crop centres: a little above the middle


def portrait_rasters(image: PILImage, size_mm: float, tints: tuple[Color, Color],
                     strength: float) -> tuple[Raster, Raster, float]:
    """The two faded, tinted grid portraits, square, at 300 dpi for ``size_mm``.

    Returns both rasters and the effective resolution the source photo really has.
    """
    from PIL import Image, ImageOps

    rgb, alpha = split_alpha(image)
    side = pixels_for(size_mm)
    gray = rgb.convert("L")
    if alpha is not None:
        white = Image.new("L", gray.size, 255)
        white.paste(gray, mask=alpha)
        gray = white
    source_side = min(gray.size)
    effective_dpi = source_side / (size_mm / MM_PER_INCH)
    # Faces sit a little above the middle of most portraits.
    gray = ImageOps.fit(gray, (side, side), method=Image.Resampling.LANCZOS,
                        centering=FACE_CENTRING)
    darkness = ImageOps.invert(ImageOps.autocontrast(gray, cutoff=1))
    rasters = []
    for tint in tints:
        rgb_luts = [[round(255 - v / 255 * strength * (255 - channel)) for v in range(256)]
                    for channel in tint.rgb]
        cmyk_luts = [[round(v * strength * ink) for v in range(256)]
                     for ink in tint.cmyk_fractions]
        rgb_image = Image.merge("RGB", [darkness.point(lut) for lut in rgb_luts])
        cmyk_image = Image.merge("CMYK", [darkness.point(lut) for lut in cmyk_luts])
        rasters.append(Raster.from_images(rgb_image, cmyk_image))
    return rasters[0], rasters[1], effective_dpi
