"""Regenerate the guide's gallery (docs/card.md): docs/gallery/SIZE-THEME-PHOTO.png, the built-in
example card in both sizes (eu, us), both themes (dark, light), with and without a
photo; and docs/gallery/SIZE-THEME-logo.png and -logo-long-name.png, the card with a logo
and a photo, the second with a 23-character name (the face goes below the name). Each
picture is the front panel as it is cut, and beside it the inside spread opened flat,
both drawn by cardgen's own PNG renderer. The photo is the project's test picture,
tests/data/portrait.png (a drawn face, no real person), and the logo its test logo,
tests/data/logo.png.

    python docs/make_gallery.py
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PIL import Image

from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.physical.card import Preset
from cardgen.render.png import rasterize

DPI = 150  # the front panel
GAP = 16  # pixels around and between the two pictures
BACKDROP = (236, 238, 242)
ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "tests" / "data" / "portrait.png"
LOGO = ROOT / "tests" / "data" / "logo.png"
FOCUS = (0.5, 0.47)  # the middle of the test picture's face
LONG_NAME = "Alexandra Montgomery-Li"  # 23 characters
# The cards with a logo (and a photo): (preset, theme, name or None for the example's).
WITH_LOGO = [(Preset.EU, "dark", None), (Preset.EU, "light", LONG_NAME)]


def card_picture(preset: Preset, theme: str, photo: bool, logo: bool = False,
                 name: str | None = None) -> Image.Image:
    config = replace(load_config(None).with_overrides(preset=preset, theme=theme,
                                                      marks=False))
    if photo:
        config = replace(config, portrait=PHOTO, portrait_focus=FOCUS)
    if logo:
        config = replace(config, logo=LOGO)
    if name is not None:
        config = replace(config, person=replace(config.person, name=name))
    build = build_card(config)
    outside, inside = (rasterize(view, DPI) for view in build.document.views())
    g = build.geometry
    k = DPI / 25.4

    def trimmed(image: Image.Image, x: float, y: float, w: float, h: float) -> Image.Image:
        return image.crop((round(x * k), round(y * k), round((x + w) * k),
                           round((y + h) * k)))

    front = trimmed(outside, g.front.x, g.front.y, g.front.w, g.front.h)
    trim = g.trim
    flat = trimmed(inside, trim.x, trim.y, trim.w, trim.h)
    flat = flat.resize((round(flat.width * front.height / flat.height), front.height),
                       Image.Resampling.LANCZOS)
    sheet = Image.new("RGB", (front.width + flat.width + 3 * GAP, front.height + 2 * GAP),
                      BACKDROP)
    sheet.paste(front, (GAP, GAP))
    sheet.paste(flat, (front.width + 2 * GAP, GAP))
    return sheet


def main() -> None:
    folder = Path(__file__).with_name("gallery")
    folder.mkdir(exist_ok=True)
    for preset in (Preset.EU, Preset.US):
        for theme in ("dark", "light"):
            for photo in (True, False):
                name = f"{preset.value}-{theme}-{'photo' if photo else 'plain'}.png"
                target = folder / name
                card_picture(preset, theme, photo).save(target, optimize=True)
                print(f"wrote {target} ({target.stat().st_size // 1024} KB)")
    for preset, theme, name in WITH_LOGO:
        target = folder / f"{preset.value}-{theme}-logo{'-long-name' if name else ''}.png"
        card_picture(preset, theme, True, logo=True, name=name).save(target, optimize=True)
        print(f"wrote {target} ({target.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
