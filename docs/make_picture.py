"""Regenerate docs/card.png, the README's picture of the built-in example card.

    python docs/make_picture.py
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PIL import Image

from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.render.png import rasterize

DPI = 110
GAP = 24


def main() -> None:
    build = build_card(replace(load_config(None), marks=False))
    views = build.document.views()  # outside and inside spreads
    images = [rasterize(view, DPI) for view in views]
    width = sum(im.width for im in images) + GAP * (len(images) + 1)
    height = max(im.height for im in images) + 2 * GAP
    sheet = Image.new("RGB", (width, height), (236, 238, 242))
    x = GAP
    for im in images:
        sheet.paste(im, (x, GAP))
        x += im.width + GAP
    target = Path(__file__).with_name("card.png")
    sheet.save(target, optimize=True)
    print(f"wrote {target} ({sheet.width} × {sheet.height})")


if __name__ == "__main__":
    main()
