"""The card's layout numbers, read from ``templates/card/layout.toml`` against a schema.

Type sizes, gaps and shares of the front and back panels live in that data file, not in
code; the physical card (sizes, fold, grids, tabs) follows from the card size in
``physical.card``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.card.themes import OUTSIDE_COLORS
from cardgen.datafile import read_toml
from cardgen.resources import templates_dir
from cardgen.schema import Choice, Custom, Field, Number, Table, check
from cardgen.text.fonts import FontStyle


def _role(value: Any) -> str:
    if not isinstance(value, str) or value not in OUTSIDE_COLORS:
        raise ValueError(f"expected one of the theme's outside colours "
                         f"({', '.join(OUTSIDE_COLORS)}), got {value!r}")
    return value


def _size(help: str) -> Field:
    return Number(help, low=1, high=72)


def _mm(help: str) -> Field:
    return Number(help, low=0, high=100)


def _share(help: str) -> Field:
    return Number(help, low=0, high=1)


LINE = Table({
    "style": Choice(FontStyle, "regular, bold or italic"),
    "size": _size("preferred type size"),
    "min": _size("smallest legible size"),
    "color": Custom(_role, "a theme colour", "the theme colour"),
    "gap": _mm("space above the line"),
}, optional=False)
LINES = ("name", "title", "company", "contact", "ability", "tagline")

LAYOUT = Table({
    "front": Table({
        "qr_max": _mm("QR side"), "qr_share": _share("QR share of the height"),
        "qr_min_module": _mm("smallest QR module"), "logo_gap": _mm("logo to QR"),
        "logo_share": _share("logo share of the height"),
        "logo_smallest": _share("smallest logo, to give the photo room"),
        "logo_shrink": _share("logo shrinking step"), "column_gap": _mm("column gap"),
        "rule_space": _mm("rule band"), "rule_length": _mm("rule length"),
        "rule_width": _mm("rule width"), "block_gap": _mm("gap between blocks"),
        "signature_height": _mm("signature box height"),
        "signature_min_width": _mm("signature box, narrowest"),
        "signature_max_width": _mm("signature box, widest"),
        "signature_gap": _mm("ability to its box"),
        "signature_outline": _mm("signature box outline"),
        "signature_label": _size("signature label"),
        "lines": Table({name: LINE for name in LINES}, optional=False),
    }, optional=False),
    "back": Table({
        "link_size": _size("link numbers"),
        "heading_size": _size("heading"), "heading_min": _size("heading, smallest"),
        "game_gap": _mm("from line to line of the games"),
        "title_size": _size("game names"), "players_size": _size("player counts"),
        "players_gap": _mm("name to players"),
    }, optional=False),
    "tabs": Table({"link_size": _size("tab link numbers")}, optional=False),
    "inside": Table({
        "hinge_margin": _mm("how far the margin colour runs past each side tab's hinge"),
    }, optional=False),
    "art": Table({
        "clearance": _mm("room kept between text and the art"),
        "halo": _mm("room kept between the Connector's plates and numbers and the art"),
        "min_band": _mm("lowest band worth drawing the front's art in"),
        "front_variant": Number("pattern", low=0, high=100, integer=True),
        "back_top": _share("where the back's curves begin, as a share of the panel"),
        "back_overshoot": _mm("how far the back's curves run on past the bleed"),
        "back_variant": Number("pattern", low=0, high=100, integer=True),
        "back_amplitude": _share("calmer back"),
        "back_lines_divisor": Number("fewer lines on the back", low=1, high=100, integer=True),
        "portrait_step": Number("front portrait: sizes and places tried this far apart",
                                low=0.1, high=10),
    }, optional=False),
    "varnish": Table({
        "clearance": _mm("room kept between the varnish and any item of the front"),
        "fold_gap": _mm("how far short of the fold the varnish stops"),
        "portrait_share": _share("the portrait's glow radius the varnish coats"),
        "strip": Number("height of the varnish's strips over the portrait",
                        low=0.1, high=5),
    }, optional=False),
})


@dataclass(frozen=True)
class LineStyle:
    style: FontStyle
    size: float
    min_size: float
    color: str  # a key of the theme's outside colours
    gap: float  # space above the line (mm)


@dataclass(frozen=True)
class CardLayout:
    front: dict[str, float]
    lines: dict[str, LineStyle]
    back: dict[str, float]
    tabs: dict[str, float]
    inside: dict[str, float]
    art: dict[str, Any]
    varnish: dict[str, float]


def layout_path() -> Path:
    return templates_dir() / "card" / "layout.toml"


@cache
def card_layout() -> CardLayout:
    """The bundled card layout, checked once per process."""
    path = layout_path()
    values = check(LAYOUT, read_toml(path, "layout file"), str(path))
    front = dict(values["front"])
    lines = {name: LineStyle(v["style"], v["size"], v["min"], v["color"], v["gap"])
             for name, v in front.pop("lines").items()}
    return CardLayout(front, lines, values["back"], values["tabs"], values["inside"],
                      values["art"], values["varnish"])
