"""Themes: colours and art parameters read from data files in ``templates/themes``.

A theme is checked like a config (every key, every problem at once), and then against
the ink rule (``cardgen.prepress.ink``) and the contrast rule for each place the layout
uses its colours (:data:`USES`): a theme that would print small type in a tint, or type
too faint to read, is refused with the key named."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from pathlib import Path

from cardgen.datafile import look, parse_toml, read_toml_text, user_path
from cardgen.draw.colors import Color, color_from_data, color_json_schema
from cardgen.errors import ConfigError, ConfigProblem, InputFileError, Problem, shorten
from cardgen.prepress.ink import (
    FINE_TYPE,
    MAX_INK,
    MIN_CONTRAST,
    contrast,
    describe,
    fine_problem,
    is_solid_black,
    total_ink,
)
from cardgen.prepress.targets import InkRule, ink_problem
from cardgen.resources import templates_dir
from cardgen.schema import MISSING, Choice, Custom, Field, ListOf, Number, Table, Text, check

OUTSIDE_COLORS = {
    "background": "the business side's ground",
    "name": "the name",
    "text": "contact lines and all type under 8 pt",
    "accent": "the title and the game names, when 8 pt or more",
    "rule": "the short rule under the company",
    "link": "the Connector link numbers",
    "link_ground": "the disc behind each link number",
    "qr_background": "the QR code's light modules",
    "qr_modules": "the QR code's dark modules",
    "signature_ground": "the box for signing a Corporate Ladder ability",
    "signature_line": "the signature box's outline and label",
}
INSIDE_COLORS = {
    "margin": "around the game panel: the side tabs and the strips beside grid B",
    "ground": "the game panel",
    "grid_line": "the grid's inner lines",
    "grid_border": "the grid's outer lines",
    "label": "row numbers and column letters",
    "link": "the link numbers on the tabs",
    "link_ground": "the disc behind each tab's link number",
    "tint_a": "the portrait behind grid A",
    "tint_b": "the portrait behind grid B",
}
# Keys older themes have that no longer mean anything, and why.
RETIRED = {("outside", "muted"): "type under 8 pt prints in outside.text, by the ink rule",
           ("inside", "pattern"): "the side tabs carry the Connector puzzle on a plain "
                                  "ground (inside.margin)"}
# Colours that may be left out, and the colour they then take.
OPTIONAL = {("outside", "link_ground"): "background", ("inside", "link_ground"): "margin",
            ("outside", "signature_ground"): "qr_background",
            ("outside", "signature_line"): "qr_modules"}


@dataclass(frozen=True)
class Use:
    """How the layout uses a theme colour: on which ground, and whether for fine
    elements (type under 8 pt, lines under 0.5 pt) or for type of any size."""

    table: str
    key: str
    grounds: tuple[tuple[str, str], ...]
    fine: bool
    text: bool


# Every colour the ink rule and the contrast rule apply to, with the grounds it sits on.
# The art is kept clear of text, and the grid lines lie on the portrait (its tints).
USES = (
    Use("outside", "text", (("outside", "background"),), fine=True, text=True),
    Use("outside", "name", (("outside", "background"),), fine=False, text=True),
    Use("outside", "accent", (("outside", "background"),), fine=False, text=True),
    Use("outside", "link", (("outside", "link_ground"),), fine=False, text=True),
    Use("outside", "signature_line", (("outside", "signature_ground"),), fine=True,
        text=True),
    Use("inside", "label", (("inside", "ground"),), fine=True, text=True),
    Use("inside", "grid_line", (("inside", "tint_a"), ("inside", "tint_b")), fine=True,
        text=False),
    Use("inside", "grid_border", (("inside", "tint_a"), ("inside", "tint_b")), fine=True,
        text=False),
    Use("inside", "link", (("inside", "link_ground"),), fine=False, text=True),
)


def _color(help: str, *, default: object = MISSING) -> Field:
    return Custom(color_from_data, "a colour", help, default=default,
                  schema=color_json_schema, define="colour")


def _colors(table: str, helps: dict[str, str]) -> dict[str, Field]:
    return {key: _color(help, default=None) if (table, key) in OPTIONAL else _color(help)
            for key, help in helps.items()}


class Tones(enum.StrEnum):
    """Which tones of the photo carry the front portrait's ink."""

    LIGHTS = "lights"  # the lit parts of the face: a face glowing out of a dark ground
    SHADOWS = "shadows"  # the dark parts: a face drawn in ink on a light ground


def _share(help: str) -> Field:
    return Number(help, low=0, high=1)


FRONT_PORTRAIT = Table({
    "ink": _color("the colour the face is drawn in, at full strength"),
    "tones": Choice(Tones, "Which tones of the photo carry the ink: lights or shadows."),
    "strength": _share("How much of the ink the strongest tone gets (0–1)."),
    "gamma": Number("Tone curve: above 1 keeps only the strongest tones.", low=0.2, high=5),
    "levels": Number("Posterize into this many tone steps (0: smooth tones).", low=0,
                     high=16, integer=True),
    "size": Number("The portrait's largest side, as a share of the panel's height.",
                   low=0.2, high=1),
    "min_size": Number("Its smallest side, as a share of the panel's height, before it "
                       "gives up keeping the face clear of the text.", low=0.1, high=1),
    "face": Number("The face's region around the focus point, as a share of the "
                   "portrait's side: kept clear of the text, the QR code and the logo.",
                   low=0.1, high=1),
    "fade_start": _share("Where the face starts to fade, from the focus point, as a share "
                         "of the portrait's side."),
    "fade_end": _share("Where it has faded away."),
    "ramp": Number("Over how many mm the portrait fades in beside the text, the QR code "
                   "and the logo.", low=0.5, high=20),
}, "The portrait on the business side (with images.portrait).")

THEME_FIELDS: dict[str, Field] = {
    "name": Text("The theme's name (default: the file name).", default=""),
    "description": Text("One line about the theme.", default=""),
    "outside": Table(_colors("outside", OUTSIDE_COLORS), "Colours of the business side.",
                     optional=False),
    "curves": Table({
        "fill": ListOf(_color("ribbon"), "Ribbon colours, in drawing order.", min_items=1),
        "stroke": ListOf(_color("line"), "Thin line colours, in turn.", min_items=1),
        "lines": Number("How many thin curves cross each panel.", low=0, high=40,
                        integer=True),
        "amplitude": Number("How strongly the curves wave (0–1).", low=0, high=1),
    }, "The flowing curves of the business side.", optional=False),
    "inside": Table({
        **_colors("inside", INSIDE_COLORS),
        "portrait_strength": Number("Ink of the darkest portrait tone (0–1).", low=0, high=1),
        "plain_tint": Number("Ground tint when there is no portrait (0–1).", low=0, high=1),
    }, "Colours of the game side.", optional=False),
}
# A theme without a [front_portrait] table (one written before it existed) prints no
# portrait on the business side.
THEME = Table({**THEME_FIELDS, "front_portrait": FRONT_PORTRAIT})
THEME_WITHOUT_PORTRAIT = Table(THEME_FIELDS)


@dataclass(frozen=True)
class FrontPortrait:
    """How the photo is drawn on the business side (see :data:`FRONT_PORTRAIT`)."""

    ink: Color
    tones: Tones
    strength: float
    gamma: float
    levels: int
    size: float
    min_size: float
    face: float
    fade_start: float
    fade_end: float
    ramp: float


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
    front_portrait: FrontPortrait | None = None  # None: no portrait on the business side

    def color(self, table: str, key: str) -> Color:
        return (self.outside if table == "outside" else self.inside)[key]

    def type_color(self, color: Color, size: float) -> Color:
        """The colour type of ``size`` (pt) on the business side prints in: its own from
        8 pt up, or under 8 pt if it keeps the ink rule on the ground; else the theme's
        ``text`` colour."""
        if size >= FINE_TYPE or fine_problem(color, self.outside["background"]) is None:
            return color
        return self.outside["text"]


def theme_problems(theme: Theme, ink: InkRule | None = None) -> list[str]:
    """Every way the theme's colours break the ink rule or the contrast rule where the
    layout uses them (see :data:`USES` and ``cardgen.prepress.ink``). The ink limit is
    a print target's (``ink``) when it is given: a target that reduces colours over its
    limit has none refused here (the card's colours are reduced once drawn)."""
    problems: list[str] = []
    for use in USES:
        color = theme.color(use.table, use.key)
        for table, key in use.grounds:
            ground = theme.color(table, key)
            if use.fine:
                problem = fine_problem(color, ground)
                if problem is not None:
                    problems.append(f"{use.table}.{use.key} ({_help(use)}) breaks the ink "
                                    f"rule on {table}.{key}: {problem}.")
            ratio = contrast(color, ground)
            if use.text and ratio < MIN_CONTRAST:
                problems.append(f"{use.table}.{use.key} ({_help(use)}) has a contrast of only "
                                f"{ratio:.2f}:1 with {table}.{key}; type needs at least "
                                f"{MIN_CONTRAST:g}:1 to be read.")
    every = [*theme.outside.items(), *theme.inside.items(),
             *(("curves.fill", c) for c in theme.curve_fills),
             *(("curves.stroke", c) for c in theme.curve_strokes),
             *((("front_portrait.ink", theme.front_portrait.ink),)
               if theme.front_portrait else ())]
    for key, color in every:
        if ink is not None:
            problem = ink_problem(color, ink)
            if problem is not None:
                problems.append(f"{key} is {problem}")
        elif total_ink(color) > MAX_INK + 1e-6:
            problems.append(f"{key} is {describe(color)}, {total_ink(color) * 100:.0f} % ink; "
                            f"a press takes at most {MAX_INK * 100:g} %.")
    return problems


def _help(use: Use) -> str:
    return (OUTSIDE_COLORS if use.table == "outside" else INSIDE_COLORS)[use.key]


def builtin_themes() -> list[str]:
    return sorted(p.stem for p in (templates_dir() / "themes").glob("*.toml"))


def theme_path(name_or_path: str, base: Path | None = None, where: str = "card.theme") -> Path:
    """The file of a bundled theme (``dark``, ``light``) or of a theme given by path
    (relative to ``base``); errors name ``where``, the field or option that gave it."""
    if name_or_path in builtin_themes():
        return templates_dir() / "themes" / f"{name_or_path}.toml"
    candidate = user_path(name_or_path)
    if base is not None and not candidate.is_absolute():
        candidate = base / candidate
    try:
        found = look(candidate, "theme file") if name_or_path.strip() else None
    except InputFileError as exc:
        raise ConfigError(where, [str(exc)], value=name_or_path,
                          code=ConfigProblem.UNREADABLE) from None
    if found is None:
        raise ConfigError(where, [
            f"no theme called {shorten(name_or_path)} (built-in themes: "
            f"{', '.join(builtin_themes())}; or give the path of a theme .toml file)."],
            value=name_or_path, code=ConfigProblem.NOT_A_CHOICE)
    return candidate


def load_theme(name_or_path: str, base: Path | None = None,
               where: str = "card.theme", *, ink: InkRule | None = None) -> Theme:
    """A bundled theme by name or a theme file by path (``where`` names the field or
    option that gave it), its colours held to ``ink``, a print target's ink rule, when
    one is given (else to cardgen's own)."""
    path = theme_path(name_or_path, base, where)
    try:
        text = read_toml_text(path, "theme file", f"theme {path}")
    except ConfigError as exc:
        if exc.source:  # its contents: the sentence names the theme file
            raise
        raise ConfigError(where, exc.problems, value=name_or_path) from None  # the file
    return _theme(path, text, name_or_path, ink)


@functools.lru_cache(maxsize=8)
def _theme(path: Path, text: str, name_or_path: str, ink: InkRule | None = None) -> Theme:
    """The theme that ``text``, the contents of ``path``, gives, read once a process for
    each text: ``card --theme`` reads the theme before the card is built and again for
    it, and every card of a batch or of a test run reads the same bundled one. Keyed by
    the text itself, so a changed file is read anew; a refused theme is not kept, and
    said again each time. A Theme is never changed once made."""
    label = f"theme {path}"
    data = parse_toml(text, label)
    retired = [Problem(f"{table}.{key} is no longer used: {why}; remove it.",
                       ConfigProblem.RETIRED)
               for (table, key), why in RETIRED.items()
               if isinstance(data.get(table), dict) and data[table].pop(key, None) is not None]
    try:
        values = check(THEME if "front_portrait" in data else THEME_WITHOUT_PORTRAIT, data,
                       label)
    except ConfigError as exc:
        raise ConfigError(label, [*retired, *exc.problems], value=name_or_path) from None
    for (table, key), fallback in OPTIONAL.items():
        if values[table][key] is None:
            values[table][key] = values[table][fallback]
    # Solid black that fine elements are printed in overprints (the ink rule).
    for use in USES:
        color = values[use.table][use.key]
        if use.fine and is_solid_black(color):
            values[use.table][use.key] = color.overprinting()
    outside, curves, inside = values["outside"], values["curves"], values["inside"]
    theme = Theme(
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
        front_portrait=FrontPortrait(**values["front_portrait"])
        if "front_portrait" in values else None,
    )
    problems = [*retired, *theme_problems(theme, ink)]
    portrait = theme.front_portrait
    if portrait is not None and portrait.min_size > portrait.size:
        problems.append(Problem(f"front_portrait.min_size ({portrait.min_size:g}) is larger "
                                f"than front_portrait.size ({portrait.size:g}); make it "
                                "smaller.", ConfigProblem.CONFLICT))
    if portrait is not None and portrait.fade_start >= portrait.fade_end:
        problems.append(Problem(f"front_portrait.fade_start ({portrait.fade_start:g}) must be "
                                f"less than front_portrait.fade_end ({portrait.fade_end:g}).",
                                ConfigProblem.CONFLICT))
    if problems:
        raise ConfigError(label, problems, value=name_or_path)
    return theme
