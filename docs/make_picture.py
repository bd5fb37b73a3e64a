"""Regenerate the pictures README and the guide show: docs/card.png, the built-in example card, and
docs/connector-GAME.png, the shipped Connector assemblies (eu) as
`cardgen connector show` draws them.

    python docs/make_picture.py
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PIL import Image

from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.games.names import CONNECTOR_GAMES
from cardgen.render.png import rasterize

DPI = 110
CONNECTOR_DPI = 150
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
    connector_pictures()


def connector_pictures() -> None:
    from cardgen.connector.assembly import read_assembly, shipped_assembly_path
    from cardgen.connector.layout import bundled_layout
    from cardgen.connector.picture import write_picture
    from cardgen.connector.validate import validate
    from cardgen.physical.card import Preset

    layout = bundled_layout(Preset.EU)
    for game in CONNECTOR_GAMES:
        report = validate(layout, read_assembly(shipped_assembly_path(game, Preset.EU)))
        target = Path(__file__).with_name(f"connector-{game.value}.png")
        write_picture(report, target, dpi=CONNECTOR_DPI)
        print(f"wrote {target}")


if __name__ == "__main__":
    main()
