"""The inside spread: the twin 10 × 10 grids across the fold over the faded portraits
(or a plain tint), and the Connector's faces beside them: the side tabs' addendum and
the strips beside grid B that the folded tabs uncover."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardgen.board.art import GridStyle, grid_items, label_size
from cardgen.board.cells import GRID_SIZE, Grid
from cardgen.board.frame import LABEL_BAND
from cardgen.card.config import CardConfig
from cardgen.card.layout import CardLayout
from cardgen.card.themes import Theme
from cardgen.connector.draw import (
    fragment_items,
    fragment_where,
    game_styles,
    mark_items,
)
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import Face
from cardgen.draw.colors import INK, Color
from cardgen.draw.page import Group, Image, Item, Page, Rect
from cardgen.physical.card import CREASE, CardGeometry, Preset, Tab
from cardgen.prepress.ink import MIN_CONTRAST, contrast, fine_problem
from cardgen.text.fonts import FontSet, bundled_fonts

if TYPE_CHECKING:
    from PIL.Image import Image as PILImage


def draw_inside(page: Page, config: CardConfig, geometry: CardGeometry, theme: Theme,
                fonts: FontSet, layout: CardLayout, warnings: list[str],
                photo: PILImage | None) -> None:
    """The inside spread; ``photo`` is ``config.portrait`` opened (None: no portrait)."""
    colors = theme.inside
    bleed, board = geometry.bleed_box, geometry.board
    panel = geometry.ground_panel(layout.inside["hinge_margin"])
    background = page.layer("background")
    background.add(Rect(bleed.x, bleed.y, bleed.w, bleed.h, fill=colors["margin"]))
    background.add(Rect(panel.x, panel.y, panel.w, panel.h, fill=colors["ground"]))

    side = geometry.grid_size
    tints = {Grid.A: colors["tint_a"], Grid.B: colors["tint_b"]}
    portraits = page.layer("portrait")
    if config.portrait is not None and photo is not None:
        from cardgen.card.portrait import portrait_rasters
        from cardgen.draw.raster import PRINT_DPI

        raster_a, raster_b, dpi = portrait_rasters(photo, side, (tints[Grid.A], tints[Grid.B]),
                                                   theme.portrait_strength,
                                                   config.portrait_focus)
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
    # The row numbers are centred in the light band left beside the grids (narrower than
    # the label band: the margin colour runs on past the hinges).
    numbers = board.x - panel.x
    style = GridStyle(colors["grid_line"], colors["grid_border"], colors["label"], fonts.regular,
                      LABEL_BAND, line_width=0.1,
                      where="fonts.regular (the grids' row numbers and column letters)",
                      number_band=numbers)
    size = label_size(geometry.cell, LABEL_BAND)
    widest, label = max((fonts.regular.width(str(r), size), str(r))
                        for r in range(1, GRID_SIZE + 1))
    if widest > numbers:
        warnings.append(f"fonts.regular: the row number {label} is {widest:.2f} mm wide at "
                        f"{size:g} pt, wider than the {numbers:.2f} mm of light ground beside "
                        "the grids, so it runs onto the margin colour; choose a narrower "
                        "regular font.")
    for grid in Grid:
        # Grid B draws the fold line that both grids share; the row numbers keep out of the
        # fold's crease band (the card folds both ways: physical.CREASE).
        grid_layer.add(Group(grid_items(grid, geometry.cell, style, draw_fold=grid is Grid.B,
                                        fold_clear=CREASE),
                             transform=board.grid_to_page(grid), name=f"grid-{grid}"))
    if geometry.size.preset is not None:
        draw_addendum(page, geometry, geometry.size.preset, theme, fonts, layout)


def draw_addendum(page: Page, geometry: CardGeometry, preset: Preset, theme: Theme,
                  fonts: FontSet, layout: CardLayout) -> None:
    """The Connector's faces on the inside, on the plain margin colour: each tab's
    addendum (its fragments and numbers, printed so that they show upright on the back
    panel once the tab is folded) and the strips beside grid B that the folded tabs
    uncover (:meth:`CardGeometry.strip_to_inside`)."""
    colors = theme.inside
    connector = bundled_layout(preset)
    styles = game_styles(connector)
    plain = plain_type_color(theme, colors["margin"])
    own = bundled_fonts()  # the layout's face, as on the back panel
    faces = [(Face.TAB5, geometry.addendum_to_inside(Tab.FIVE), "tab-5"),
             (Face.TAB6, geometry.addendum_to_inside(Tab.SIX), "tab-6"),
             (Face.STRIP, geometry.strip_to_inside, "strip")]
    layer = page.layer("connector")
    for face, transform, name in faces:
        items: list[Item] = []
        for fragment in connector.fragments:
            if fragment.face is face:
                items += fragment_items(fragment, styles, own, plain=plain,
                                        where=fragment_where(fragment, preset))
        for mark in connector.marks:
            if mark.face is face:
                items += mark_items(mark, styles, fonts if mark.game is None else own,
                                    link_color=colors["link"],
                                    link_ground=colors["link_ground"],
                                    link_size=layout.tabs["link_size"])
        layer.add(Group(items, transform=transform, name=name))


def plain_type_color(theme: Theme, ground: Color) -> Color:
    """The colour for small type of no game on ``ground``: the theme's small type
    colour if it keeps the ink rule and is legible there, else overprinting black or
    paper white, whichever does."""
    white = Color.cmyk(0, 0, 0, 0)
    for color in (theme.outside["text"], INK, white):
        if fine_problem(color, ground) is None and contrast(color, ground) >= MIN_CONTRAST:
            return color
    return INK
