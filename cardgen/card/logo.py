"""The logo on the front panel: read, fitted to its box, and checked for what would
look wrong in print.

A logo prints as its own colours through a hard-edged stencil mask
(:func:`cardgen.draw.raster.fit_image`); what the card adds is judgement about the
result on the chosen theme. A logo with no transparency on a white ground prints as a
white box; on a light business side nobody sees it, on a dark one everybody does.

Its colours become CMYK through the config's ``print.cmyk_profile`` (:func:`cmyk_profile`,
with ``print.rendering_intent`` and the ink rule's limit), or without one by a simple
formula, which the card's build warns about (:data:`NO_PROFILE`).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from cardgen.card.config import CardConfig
from cardgen.card.themes import Theme
from cardgen.draw.colors import Color, relative_luminance
from cardgen.draw.icc import CmykProfile, RenderingIntent
from cardgen.draw.page import Raster
from cardgen.prepress.ink import MAX_INK

FIELD = "images.logo"
# Said once per run (a batch's cards share it) when a logo's colours are converted
# without a profile.
NO_PROFILE = (f"{FIELD}: its colours are converted to CMYK by a simple formula, without "
              "colour management (no print.cmyk_profile is set), so they may print "
              "duller or darker than they look on screen; set print.cmyk_profile to the "
              "ICC profile of the printing condition (ask your print shop).")
# A business side is "dark" when its ground's relative luminance is below this: darker
# than an sRGB grey of #aaaaaa, where a white box stands out plainly.
DARK_BACKGROUND = 0.4


def is_dark(color: Color) -> bool:
    """Whether a white box would stand out on ``color`` (see :data:`DARK_BACKGROUND`)."""
    return relative_luminance(color.rgb) < DARK_BACKGROUND


def _stamp(path: Path) -> tuple[int, int] | None:
    """What tells a file's versions apart: its size and modification time (None when it
    cannot be read; reading it then says what is wrong)."""
    try:
        info = path.stat()
    except (OSError, ValueError):  # (ValueError: a NUL byte in the name)
        return None
    return info.st_size, info.st_mtime_ns


def cmyk_profile(config: CardConfig) -> CmykProfile | None:
    """The CMYK profile the config names (``print.cmyk_profile``), read and tried with its
    rendering intent, or None; a :class:`cardgen.errors.ProfileError` when it cannot be
    used. Cards that share the file share what was read."""
    path = config.cmyk_profile
    if path is None:
        return None
    stamp = _stamp(path)
    if stamp is None:
        return _read_profile(path, config.rendering_intent)
    return _cached_profile(path, stamp, config.rendering_intent)


def _read_profile(path: Path, intent: RenderingIntent) -> CmykProfile:
    from cardgen.draw.icc import read_cmyk_profile

    return read_cmyk_profile(path, intent, max_ink=MAX_INK)


@lru_cache(maxsize=4)
def _cached_profile(path: Path, stamp: tuple[int, int], intent: RenderingIntent) -> CmykProfile:
    return _read_profile(path, intent)


def logo_raster(path: Path, max_w: float, max_h: float, theme: Theme,
                warnings: list[str], profile: CmykProfile | None = None,
                ) -> tuple[Raster, float, float]:
    """The logo at ``path`` fitted into ``max_w`` × ``max_h`` mm, its colours converted
    to CMYK through ``profile`` (None: the simple formula): the raster and its size in
    mm. Appends a warning when it will print soft, print nothing, or print as a white box
    on a dark business side.

    A studio's cards share one logo, so the result is kept for the file as it is now
    (its size and modification time are part of the key) and the same box, theme and
    profile."""
    stamp = _stamp(path)
    dark = is_dark(theme.outside["background"])
    if stamp is None:
        return _fitted_logo(path, max_w, max_h, dark, theme.name, profile, warnings)
    raster, w, h, notes = _cached_logo(path, stamp, max_w, max_h, dark, theme.name, profile)
    warnings += notes
    return raster, w, h


@lru_cache(maxsize=8)
def _cached_logo(path: Path, stamp: tuple[int, int], max_w: float, max_h: float, dark: bool,
                 theme: str, profile: CmykProfile | None,
                 ) -> tuple[Raster, float, float, tuple[str, ...]]:
    notes: list[str] = []
    raster, w, h = _fitted_logo(path, max_w, max_h, dark, theme, profile, notes)
    return raster, w, h, tuple(notes)


def _fitted_logo(path: Path, max_w: float, max_h: float, dark: bool, theme: str,
                 profile: CmykProfile | None, warnings: list[str],
                 ) -> tuple[Raster, float, float]:
    from cardgen.draw.raster import PRINT_DPI, fit_image, near_white_border, open_image

    logo = open_image(path, FIELD, notes=warnings)
    raster, w, h, dpi = fit_image(logo, max_w, max_h, profile)
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
