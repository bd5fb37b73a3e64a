"""The Connector layout, read from ``templates/connector/layout.toml`` against a schema.

The file holds the four games (colour name, players, description) and, for each card
preset, the fragments and the coloured target numbers in the card frame of
:mod:`cardgen.connector.model` (millimetres, the back panel as read). The card's shape
(where the tabs fold to) and the corner numbers 1–6 come from the physical card
(:class:`cardgen.physical.card.CardGeometry` and :func:`cardgen.physical.links.link_positions`),
so the model, the printed card and the dieline agree by construction.

A fragment is given by its text, its face, the top-left corner of its box (``at``),
its ``length`` along the line and its type ``size``: the box is ``length`` long and one
em (``size`` in millimetres) across, in the direction of its ``rotation``.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.connector.model import (
    CardLayout,
    CardShape,
    Face,
    Fragment,
    GameColour,
    Mark,
    Shape,
)
from cardgen.datafile import read_toml
from cardgen.draw.geometry import Box
from cardgen.errors import ConfigError, ConfigProblem, quoted
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import PRESETS, CardGeometry, Preset, Tab
from cardgen.physical.links import LINK_RADIUS, link_positions
from cardgen.resources import templates_dir
from cardgen.schema import Choice, Custom, ListOf, Number, Records, Table, Text, check
from cardgen.units import MM_PER_PT

MIN_SIZE = 6.0  # pt: the smallest type a fragment may be set in
MAX_FRAGMENTS = 400


def _rotation(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 90, 180, 270):
        raise ValueError(f"must be 0, 90, 180 or 270 (degrees clockwise), not {quoted(value)}")
    return int(value)


def _point(value: Any) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
            or not all(-1000 < v < 1000 for v in value)):
        raise ValueError(f"must be [x, y] in millimetres, not {quoted(value)}")
    return float(value[0]), float(value[1])


def _cmyk(value: Any) -> tuple[float, float, float, float]:
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 100
                       for v in value)):
        raise ValueError(f"must be [c, m, y, k] percentages, not {quoted(value)}")
    c, m, y, k = (float(v) for v in value)
    return c, m, y, k


def _rgb(value: Any) -> str:
    if not isinstance(value, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
        raise ValueError(f'must be "#rrggbb", not {quoted(value)}')
    return value.lower()


def _box(value: Any) -> Box:
    if (not isinstance(value, list) or len(value) != 4
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
            or not all(-1000 < v < 1000 for v in value) or value[2] <= 0 or value[3] <= 0):
        raise ValueError(f"must be [x, y, width, height] in millimetres, not {quoted(value)}")
    return Box(*(float(v) for v in value))


GAME = Table({
    "colour": Text("the colour's name in messages", nonempty=True),
    "cmyk": Custom(_cmyk, "[c, m, y, k]", "the colour in print"),
    "rgb": Custom(_rgb, '"#rrggbb"', "the colour on screen"),
    "shape": Choice(Shape, "square, pointed, round or notched"),
    "players": Number("players (and cards) the game needs", low=1, high=12, integer=True),
    "description": Text("the description the cards reveal", nonempty=True, printed=True),
}, optional=False)

FRAGMENT = Table({
    "text": Text("the words", nonempty=True, printed=True),
    "game": Choice(CONNECTOR_GAMES, "the game whose description it belongs to", default=None),
    "face": Choice(Face, "back, tab5, tab6 or strip"),
    "at": Custom(_point, "[x, y]", "top-left corner of the box (mm)"),
    "length": Number("the line's length (mm)", low=1, high=200),
    "size": Number("type size (pt)", low=MIN_SIZE, high=24, default=None),
    "rotation": Custom(_rotation, "0, 90, 180 or 270", "direction of the text", default=0),
})

TARGET = Table({
    "game": Choice(CONNECTOR_GAMES, "the game"),
    "number": Number("the link number", low=1, high=6, integer=True),
    "face": Choice(Face, "back, tab5, tab6 or strip", default=Face.BACK),
    "at": Custom(_point, "[x, y]", "centre (mm)"),
})

PRESET_LAYOUT = Table({
    "size": Number("type size of the fragments (pt)", low=MIN_SIZE, high=24),
    "fragment": Records(FRAGMENT, max_items=MAX_FRAGMENTS),
    "target": Records(TARGET, max_items=100),
    "legend": Custom(_box, "[x, y, w, h]", "the colour legend's box (mm)", default=None),
})

LAYOUT = Table({
    "games": Table({game.value: GAME for game in CONNECTOR_GAMES}, optional=False),
    **{preset.value: PRESET_LAYOUT for preset in Preset},
    "notes": ListOf(Text(), "free-form notes", default=[]),
})


def layout_path() -> Path:
    return templates_dir() / "connector" / "layout.toml"


@cache
def bundled_layout(preset: Preset) -> CardLayout:
    """The shipped layout for a preset, checked once per process."""
    return load_layout(layout_path(), preset)


def load_layout(path: Path, preset: Preset, label: str | None = None) -> CardLayout:
    """The layout in ``path`` for ``preset``; a ConfigError naming every problem."""
    source = label or str(path)
    values = check(LAYOUT, read_toml(path, "Connector layout file", label), source)
    return build_layout(values, preset, source)


def card_shape(geometry: CardGeometry) -> CardShape:
    """The folded card's faces from the physical card's fold transforms."""
    s = geometry.size
    return CardShape(s.width, s.height, geometry.folded_tab_footprint(Tab.FIVE),
                     geometry.folded_tab_footprint(Tab.SIX))


def corner_marks(geometry: CardGeometry) -> list[Mark]:
    """The pale corner numbers: 1–4 on the back panel, 5 and 6 on the folded tabs."""
    faces = {"5": Face.TAB5, "6": Face.TAB6}
    return [Mark(int(n), None, faces.get(n, Face.BACK), p, LINK_RADIUS)
            for n, p in sorted(link_positions(geometry).items())]


def build_layout(values: dict[str, Any], preset: Preset, source: str) -> CardLayout:
    geometry = CardGeometry(PRESETS[preset])
    games = values["games"]
    data = values[preset.value]
    problems: list[str] = []
    fragments = []
    for i, f in enumerate(data["fragment"]):
        size = f["size"] if f["size"] is not None else data["size"]
        if size is None:
            problems.append(f"{preset}.fragment[{i + 1}].size is missing and [{preset}] "
                            "sets no size.")
            continue
        em = size * MM_PER_PT
        x, y = f["at"]
        box = (Box(x, y, f["length"], em) if f["rotation"] in (0, 180)
               else Box(x, y, em, f["length"]))
        fragments.append(Fragment(f["text"], f["game"], f["face"], box, f["rotation"], i,
                                  size))
    marks = corner_marks(geometry)
    marks += [Mark(t["number"], t["game"], t["face"], t["at"], LINK_RADIUS)
              for t in data["target"]]
    if problems:
        raise ConfigError(source, problems, code=ConfigProblem.MISSING)
    return CardLayout(card_shape(geometry), tuple(fragments), tuple(marks),
                      {GameName(k): v["description"] for k, v in games.items()},
                      {GameName(k): v["players"] for k, v in games.items()},
                      {GameName(k): v["colour"] for k, v in games.items()},
                      legend=data["legend"],
                      colours={GameName(k): GameColour(v["cmyk"], v["rgb"], v["shape"])
                               for k, v in games.items()})
