"""The card configuration: a TOML file, checked key by key against a schema.

Every problem becomes a sentence that names the file and the field: unknown keys get
the closest valid name suggested, wrong types say what was expected, and all problems
are reported together.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardgen.datafile import read_toml, user_path
from cardgen.draw.icc import DEFAULT_INTENT, RenderingIntent
from cardgen.draw.page import OutputIntent
from cardgen.errors import CardgenError, ConfigError, ConfigProblem, number, shorten
from cardgen.physical.card import PRESETS, CardGeometry, CardSize, Preset, custom_size
from cardgen.prepress.intents import default_intent, intent_json_schema, intent_named
from cardgen.resources import templates_dir
from cardgen.schema import Choice, Custom, Flag, Number, Table, Text, check, describe
from cardgen.text.fonts import FontStyle


class QRContent(enum.StrEnum):
    """What the front panel's QR code holds."""

    VCARD = "vcard"  # the contact details as a vCard: a phone offers to save the contact
    URL = "url"  # only the web address (person.web): a phone offers to open it


DEFAULT_FOCUS = (0.5, 0.4)  # where a portrait's crop centres: a little above the middle
MAX_ABILITY = 120  # characters: two lines of small type beside the QR code, at most

def focus_point(value: Any) -> tuple[float, float]:
    """A point of a photo as ``[x, y]``, each a share (0–1) of its width and height from
    the top left; in a CSV cell, two numbers such as ``0.5 0.3`` or ``0.5, 0.3``."""
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        try:
            value = [float(p) for p in parts]
        except ValueError:
            raise ValueError(f"must be two numbers from 0 to 1 such as [0.5, 0.4], not "
                             f"{shorten(value)}") from None
    if not isinstance(value, list | tuple) or len(value) != 2 or not all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        raise ValueError(f"must be two numbers from 0 to 1 such as [0.5, 0.4], not "
                         f"{describe(value)}")
    if not all(0 <= v <= 1 for v in value):  # (not NaN; a huge integer is no float)
        raise ValueError("must be two numbers from 0 to 1 (shares of the photo's width and "
                         f"height from its top left corner), not [{number(value[0])}, "
                         f"{number(value[1])}]")
    return float(value[0]), float(value[1])


# Two numbers from 0 to 1 as focus_point reads them from text: plain decimals (an
# exponent, which it reads too, is left out), apart by white space or commas.
_SHARE = r"\+?(?:0*1(?:\.0*)?|0*\.\d+|0+(?:\.\d*)?)"
FOCUS_JSON_SCHEMA = {"anyOf": [
    {"type": "array", "items": {"type": "number", "minimum": 0, "maximum": 1},
     "minItems": 2, "maxItems": 2},
    {"type": "string", "pattern": f"^[\\s,]*{_SHARE}[\\s,]+{_SHARE}[\\s,]*$"},
]}

# The keys that hold paths (card.theme only when it is not a built-in theme's name).
PATH_KEYS = (("images", "portrait"), ("images", "logo"), ("fonts", "regular"),
             ("fonts", "bold"), ("fonts", "italic"), ("card", "theme"),
             ("print", "cmyk_profile"))

PERSON_FIELDS = {
    "title": "Job title.",
    "company": "Company or studio.",
    "email": "E-mail address.",
    "phone": "Phone number.",
    "web": "Web site.",
    "address": "Postal address (optional); several lines allowed.",
    "tagline": "A short line at the foot of the front panel.",
}

CONFIG = Table({
    "card": Table({
        "preset": Choice(Preset, "Folded size: eu (85 × 55 mm) or us (3.5 × 2 in).",
                         default=Preset.EU),
        "width_mm": Number("Custom folded width in mm (50–150); with height_mm it replaces "
                           "the preset.", default=None),
        "height_mm": Number("Custom folded height in mm (40–120).", default=None),
        "theme": Text("A built-in theme (dark, light) or the path of a theme file.",
                      default="dark"),
        "marks": Flag("Crop and fold marks outside the bleed.", default=True),
        # true is the spelling of "vcard" from before "url" existed.
        "qr": Choice(QRContent, 'The QR code on the front panel: "vcard" (the contact '
                     'details), "url" (only the web address) or false (none).',
                     default=QRContent.VCARD, flags={True: QRContent.VCARD, False: None}),
        "output_intent": Custom(intent_named, "text in quotes",
                                "The printing condition the PDF is prepared for (its PDF/X "
                                "output intent), e.g. FOGRA39; default: by the size.",
                                default=None, schema=intent_json_schema),
    }),
    "person": Table({
        "name": Text("Your name (required).", nonempty=True, printed=True,
                     missing="is required (the name printed on the front)."),
        **{key: Text(help, default="", printed=True, multiline=key == "address")
           for key, help in PERSON_FIELDS.items()},
    }),
    "images": Table({
        "portrait": Text("Photo for the business side (stylized in the theme's tones) and "
                         "behind the grids (tinted blue and red); JPEG, PNG, WebP, TIFF…",
                         default=""),
        "portrait_focus": Custom(focus_point, "two numbers from 0 to 1, [x, y]",
                                 "The point of the photo its crops centre on, as shares of "
                                 "its width and height from the top left (default "
                                 "[0.5, 0.4], a little above the middle).",
                                 default=DEFAULT_FOCUS, schema=FOCUS_JSON_SCHEMA),
        "logo": Text("Logo for the front panel (PNG with transparency works best).",
                     default=""),
    }),
    "print": Table({
        "cmyk_profile": Text("The ICC profile (.icc or .icm) of the printing condition, "
                             "for converting the logo's colours to CMYK (default: none, a "
                             "simple formula, with a warning).", default=""),
        "rendering_intent": Choice(RenderingIntent, "How the profile maps colours: "
                                   "relative-colorimetric (with black point compensation), "
                                   "perceptual, saturation or absolute-colorimetric.",
                                   default=DEFAULT_INTENT),
    }),
    "ladder": Table({
        "ability": Text("A Corporate Ladder ability, printed as \"CL: …\" above a box to "
                        "sign (an ability counts once the person named on the card signs "
                        "it).", default="", printed=True, max_length=MAX_ABILITY),
    }),
    "fonts": Table({
        "regular": Text("TTF/OTF file for regular text (default: Source Sans 3).", default=""),
        "bold": Text("TTF/OTF file for the name.", default=""),
        "italic": Text("TTF/OTF file for the title and tagline.", default=""),
    }),
})


@dataclass(frozen=True)
class Person:
    name: str = ""
    title: str = ""
    company: str = ""
    email: str = ""
    phone: str = ""
    web: str = ""
    address: str = ""
    tagline: str = ""


@dataclass(frozen=True)
class CardConfig:
    """A validated card configuration; paths are resolved against the config's folder."""

    size: CardSize
    person: Person
    theme: str = "dark"
    marks: bool = True
    qr: QRContent | None = QRContent.VCARD  # None: no QR code
    portrait: Path | None = None
    portrait_focus: tuple[float, float] = DEFAULT_FOCUS
    logo: Path | None = None
    fonts: dict[FontStyle, Path] = field(default_factory=dict)
    source: Path | None = None
    output_intent: OutputIntent | None = None  # None: the size's default
    ability: str = ""  # Corporate Ladder ability, without "CL:" ("" for none)
    cmyk_profile: Path | None = None  # None: images converted by the simple formula
    rendering_intent: RenderingIntent = DEFAULT_INTENT

    @property
    def base_dir(self) -> Path:
        return self.source.parent if self.source else Path.cwd()

    @property
    def print_condition(self) -> OutputIntent:
        """The printing condition the print files are prepared for: the one the config
        names, else the default for the card's size (``eu``, ``us`` or custom)."""
        if self.output_intent is not None:
            return self.output_intent
        return default_intent(self.size.preset.value if self.size.preset else "custom")

    def with_overrides(self, *, preset: Preset | None = None, theme: str | None = None,
                       marks: bool | None = None,
                       output_intent: OutputIntent | None = None) -> CardConfig:
        """The config with other settings (from a user interface) applied on top."""
        out = self
        if preset is not None:
            out = replace(out, size=PRESETS[preset])
        if theme is not None:
            out = replace(out, theme=theme)
        if marks is not None:
            out = replace(out, marks=marks)
        if output_intent is not None:
            out = replace(out, output_intent=output_intent)
        return out


def example_config_path() -> Path:
    """The commented example that ``cardgen init`` copies and ``cardgen card`` uses
    when no config is given."""
    return templates_dir() / "example.toml"


def load_config(path: Path | None) -> CardConfig:
    """Read and validate a config file (the built-in example when ``path`` is None)."""
    source = example_config_path() if path is None else path
    name = "the built-in example" if path is None else str(path)
    values = check(CONFIG, read_toml(source, "config file", name), name)
    return _build(values, source.resolve() if path is not None else None, name)


def read_config_values(path: Path) -> dict[str, Any]:
    """A config file's tables as written, not yet checked."""
    return read_toml(path, "config file", str(path))


def config_from_values(values: dict[str, Any], source: Path | None, name: str) -> CardConfig:
    """A config from tables as a config file holds them (checked; relative paths
    against ``source``'s folder, else the working folder); problems name ``name``."""
    return _build(check(CONFIG, values, name), source, name)


def _build(values: dict[str, Any], source: Path | None, name: str) -> CardConfig:
    base = source.parent if source else Path.cwd()
    card = values["card"]
    width, height = card["width_mm"], card["height_mm"]
    if (width is None) != (height is None):
        given, missing = ("width_mm", "height_mm") if height is None else ("height_mm",
                                                                            "width_mm")
        raise ConfigError(name, [f"card.{given} is set but card.{missing} is missing; a "
                                 "custom size needs both."], code=ConfigProblem.MISSING)
    if width is None:
        size = PRESETS[card["preset"]]
    else:
        try:
            size = custom_size(width, height)
            CardGeometry(size)  # the grids must fit
        except CardgenError as exc:
            raise ConfigError(name, [str(exc)], value=exc.value,
                              code=ConfigProblem.OUT_OF_RANGE) from None
    person = Person(name=values["person"]["name"],
                    **{key: values["person"][key] for key in PERSON_FIELDS})
    if card["qr"] is QRContent.URL and not person.web:
        raise ConfigError(name, ['card.qr = "url" encodes the web address, but person.web is '
                                 'not set; add person.web or set qr = "vcard".'],
                          code=ConfigProblem.CONFLICT)

    def path_of(value: str) -> Path | None:
        if not value:
            return None
        p = user_path(value)
        return p if p.is_absolute() else base / p

    fonts = {style: p for style in FontStyle if (p := path_of(values["fonts"][style.value]))}
    return CardConfig(
        size=size,
        person=person,
        theme=card["theme"],
        marks=card["marks"],
        qr=card["qr"],
        portrait=path_of(values["images"]["portrait"]),
        portrait_focus=values["images"]["portrait_focus"],
        logo=path_of(values["images"]["logo"]),
        fonts=fonts,
        source=source,
        output_intent=card["output_intent"],
        ability=ability_text(values["ladder"]["ability"]),
        cmyk_profile=path_of(values["print"]["cmyk_profile"]),
        rendering_intent=values["print"]["rendering_intent"],
    )


def ability_text(value: str) -> str:
    """The ability as written after "CL:" (a "CL:" the user wrote is not doubled)."""
    if value[:3].casefold() == "cl:":
        value = value[3:].strip()
    return value
