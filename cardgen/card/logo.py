"""The logo on the front panel: read, fitted to its box, and checked for what would
look wrong in print.

A logo prints as its own colours through a hard-edged stencil mask
(:func:`cardgen.draw.raster.fit_image`); what the card adds is judgement about the
result on the chosen theme. A logo with no transparency on a white ground prints as a
white box; on a light business side nobody sees it, on a dark one everybody does.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cardgen.card.themes import Theme
from cardgen.draw.colors import Color, relative_luminance
from cardgen.draw.page import Raster

FIELD = "images.logo"
# A business side is "dark" when its ground's relative luminance is below this: darker
# than an sRGB grey of #aaaaaa, where a white box stands out plainly.
DARK_BACKGROUND = 0.4


def is_dark(color: Color) -> bool:
    """Whether a white box would stand out on ``color`` (see :data:`DARK_BACKGROUND`)."""
    return relative_luminance(color.rgb) < DARK_BACKGROUND


def logo_raster(path: Path, max_w: float, max_h: float, theme: Theme,
                warnings: list[str]) -> tuple[Raster, float, float]:
    """The logo at ``path`` fitted into ``max_w`` × ``max_h`` mm: the raster and its size
    in mm. Appends a warning when it will print soft, print nothing, or print as a white
    box on a dark business side.

    A studio's cards share one logo, so the result is kept for the file as it is now
    (its size and modification time are part of the key) and the same box and theme."""
    try:
        info = path.stat()
        stamp: tuple[int, int] | None = (info.st_size, info.st_mtime_ns)
    except OSError:
        stamp = None  # reading it says what is wrong
    dark = is_dark(theme.outside["background"])
    if stamp is None:
        return _fitted_logo(path, max_w, max_h, dark, theme.name, warnings)
    raster, w, h, notes = _cached_logo(path, stamp, max_w, max_h, dark, theme.name)
    warnings += notes
    return raster, w, h


@lru_cache(maxsize=8)
def _cached_logo(path: Path, stamp: tuple[int, int], max_w: float, max_h: float, dark: bool,
                 theme: str) -> tuple[Raster, float, float, tuple[str, ...]]:
    notes: list[str] = []
    raster, w, h = _fitted_logo(path, max_w, max_h, dark, theme, notes)
    return raster, w, h, tuple(notes)


def _fitted_logo(path: Path, max_w: float, max_h: float, dark: bool, theme: str,
                 warnings: list[str]) -> tuple[Raster, float, float]:
    from cardgen.draw.raster import PRINT_DPI, fit_image, near_white_border, open_image

    logo = open_image(path, FIELD, notes=warnings)
    raster, w, h, dpi = fit_image(logo, max_w, max_h)
    if dpi < PRINT_DPI:
        warnings.append(f"{FIELD}: {path.name} is only {dpi:.0f} dpi at "
                        f"{w:.1f} mm wide and may print soft ({PRINT_DPI} dpi is best).")
    if raster.mask is not None and raster.mask.getbbox() is None:
        warnings.append(f"{FIELD}: {path.name} has no pixel that is at least half opaque, "
                        "so nothing of it prints; make the logo itself opaque.")
    if raster.mask is None and dark and near_white_border(raster.rgb):
        warnings.append(
            f"{FIELD}: {path.name} has a white background and no transparency, so it "
            f"prints as a white box on the dark business side of the {theme} theme; "
            'use a PNG with a transparent background, or set card.theme = "light".')
    return raster, w, h
