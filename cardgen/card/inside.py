"""The inside spread: the twin 10 × 10 grids across the fold over the faded portraits
(or a plain tint), and the side tabs with their link numbers."""

from __future__ import annotations

from cardgen.board.art import GridStyle, grid_items
from cardgen.board.cells import Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.card.config import CardConfig
from cardgen.card.layout import CardLayout
from cardgen.card.links import link_positions
from cardgen.card.outside import link_mark
from cardgen.card.physical import CardGeometry, Tab
from cardgen.card.themes import Theme
from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, Image, Item, Page, Rect
from cardgen.draw.shapes import hatch
from cardgen.text.fonts import FontSet


def draw_inside(page: Page, config: CardConfig, geometry: CardGeometry, theme: Theme,
                fonts: FontSet, layout: CardLayout, warnings: list[str]) -> None:
    colors = theme.inside
    bleed, panel = geometry.bleed_box, geometry.game_panel
    board = geometry.board
    background = page.layer("background")
    background.add(Rect(bleed.x, bleed.y, bleed.w, bleed.h, fill=colors["margin"]))
    background.add(Rect(panel.x, panel.y, panel.w, panel.h, fill=colors["ground"]))

    side = geometry.grid_size
    tints = {Grid.A: colors["tint_a"], Grid.B: colors["tint_b"]}
    portraits = page.layer("portrait")
    if config.portrait is not None:
        from cardgen.card.portrait import portrait_rasters
        from cardgen.draw.raster import PRINT_DPI, open_image

        photo = open_image(config.portrait, "images.portrait", notes=warnings)
        raster_a, raster_b, dpi = portrait_rasters(photo, side, (tints[Grid.A], tints[Grid.B]),
                                                   theme.portrait_strength)
        if dpi < PRINT_DPI:
            warnings.append(f"images.portrait: {config.portrait.name} has only {dpi:.0f} dpi "
                            f"across the {side:.0f} mm grid and may print soft "
                            f"({PRINT_DPI} dpi is best).")
        for grid, raster in ((Grid.A, raster_a), (Grid.B, raster_b)):
            portraits.add(Group([Image(0, 0, side, side, raster, name=f"portrait-{grid}")],
                                transform=board.grid_to_page(grid)))
    else:
        for grid in Grid:
            portraits.add(Group([Rect(0, 0, side, side,
                                      fill=tints[grid].tint(theme.plain_tint))],
                                transform=board.grid_to_page(grid)))

    grid_layer = page.layer("grid")
    # Thin enough to write in, and at 0.28 pt above the ink rule's 0.25 pt.
    style = GridStyle(colors["grid_line"], colors["grid_border"], colors["label"], fonts.regular,
                      LABEL_BAND, line_width=0.1,
                      where="fonts.regular (the grids' row numbers and column letters)")
    for grid in Grid:
        # Grid B draws the fold line that both grids share.
        grid_layer.add(Group(grid_items(grid, geometry.cell, style, draw_fold=grid is Grid.B),
                             transform=board.grid_to_page(grid), name=f"grid-{grid}"))
    tabs = page.layer("tabs")
    positions = link_positions(geometry)
    ground = layout.tabs["link_ground"]
    for tab, box in geometry.tabs.items():
        # The pattern runs on into the bleed on the tab's outer sides.
        b = geometry.size.bleed
        left = box.x - b if tab is Tab.FIVE else box.x
        area = Box(left, box.y - b, box.w + b, box.h + b)
        pattern: list[Item] = [*hatch(area, colors["pattern"])]
        tabs.add(Group(pattern, clip=area, name=f"tab-{tab}-pattern"))
        x, y = positions[tab.value]
        tabs.add(Group([Rect(x - ground, y - ground, 2 * ground, 2 * ground, fill=colors["margin"]),
                        *link_mark(tab.value, x, y, fonts, layout.tabs["link_size"],
                                   colors["link"], colors["link_ground"])],
                       transform=geometry.addendum_to_inside(tab), name=f"tab-{tab}"))
