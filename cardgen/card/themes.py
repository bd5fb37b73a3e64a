"""Themes: colours and art parameters read from data files in ``templates/themes``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from cardgen.datafile import read_toml
from cardgen.draw.colors import Color, color_from_data
from cardgen.errors import ConfigError
from cardgen.resources import templates_dir
from cardgen.schema import Custom, Field, ListOf, Number, Table, Text, check

OUTSIDE_COLORS = {
    "background": "the business side's ground",
    "name": "the name",
    "text": "contact lines",
    "accent": "the title and game names",
    "muted": "the tagline and small print",
    "rule": "the short rule under the company",
    "link": "the Connector link numbers",
    "qr_background": "the QR code's light modules",
    "qr_modules": "the QR code's dark modules",
}
INSIDE_COLORS = {
    "margin": "around the game panel, and the side tabs",
    "ground": "the game panel",
    "grid_line": "the grid's inner lines",
    "grid_border": "the grid's outer lines",
    "label": "row numbers and column letters",
    "pattern": "the side tabs' hatching",
    "link": "the link numbers on the tabs",
    "tint_a": "the portrait behind grid A",
    "tint_b": "the portrait behind grid B",
}


def _color(help: str) -> Field:
    return Custom(color_from_data, "a colour", help)


THEME = Table({
    "name": Text("The theme's name (default: the file name).", default=""),
    "description": Text("One line about the theme.", default=""),
    "outside": Table({key: _color(help) for key, help in OUTSIDE_COLORS.items()},
                     "Colours of the business side.", optional=False),
    "curves": Table({
        "fill": ListOf(_color("ribbon"), "Ribbon colours, in drawing order.", min_items=1),
        "stroke": ListOf(_color("line"), "Thin line colours, in turn.", min_items=1),
        "lines": Number("How many thin curves cross each panel.", low=0, high=40,
                        integer=True),
        "amplitude": Number("How strongly the curves wave (0–1).", low=0, high=1),
    }, "The flowing curves of the business side.", optional=False),
    "inside": Table({
        **{key: _color(help) for key, help in INSIDE_COLORS.items()},
        "portrait_strength": Number("Ink of the darkest portrait tone (0–1).", low=0, high=1),
        "plain_tint": Number("Ground tint when there is no portrait (0–1).", low=0, high=1),
    }, "Colours of the game side.", optional=False),
})


@dataclass(frozen=True)
class Theme:
    name: str
    description: str
    outside: dict[str, Color]
    inside: dict[str, Color]
    curve_fills: tuple[Color, ...]
    curve_strokes: tuple[Color, ...]
    curve_lines: int
    curve_amplitude: float
    portrait_strength: float
    plain_tint: float


def builtin_themes() -> list[str]:
    return sorted(p.stem for p in (templates_dir() / "themes").glob("*.toml"))


def theme_path(name_or_path: str, base: Path | None = None) -> Path:
    """The file of a bundled theme (``dark``, ``light``) or of a theme given by path
    (relative to ``base``)."""
    path = templates_dir() / "themes" / f"{name_or_path}.toml"
    if path.is_file():
        return path
    candidate = Path(name_or_path)
    if base is not None and not candidate.is_absolute():
        candidate = base / candidate
    if not candidate.is_file():
        raise ConfigError("card.theme", [
            f"no theme called {name_or_path!r} (built-in themes: "
            f"{', '.join(builtin_themes())}; or give the path of a theme .toml file)."],
            value=name_or_path)
    return candidate


def load_theme(name_or_path: str, base: Path | None = None) -> Theme:
    """A bundled theme by name or a theme file by path."""
    path = theme_path(name_or_path, base)
    label = f"theme {path}"
    values = check(THEME, read_toml(path, "theme file", label), label)
    outside, curves, inside = values["outside"], values["curves"], values["inside"]
    return Theme(
        name=values["name"] or path.stem,
        description=values["description"],
        outside={key: outside[key] for key in OUTSIDE_COLORS},
        inside={key: inside[key] for key in INSIDE_COLORS},
        curve_fills=tuple(curves["fill"]),
        curve_strokes=tuple(curves["stroke"]),
        curve_lines=curves["lines"],
        curve_amplitude=curves["amplitude"],
        portrait_strength=inside["portrait_strength"],
        plain_tint=inside["plain_tint"],
    )
