"""The card configuration: a TOML file, checked key by key against a schema.

Every problem becomes one sentence that names the file and the field: unknown keys get
the closest valid name suggested, wrong types say what was expected.
"""

from __future__ import annotations

import difflib
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cardgen.cardgeometry import PRESETS, CardGeometry, CardSize, custom_size
from cardgen.errors import CardgenError
from cardgen.resources import templates_dir


@dataclass(frozen=True)
class Field:
    kind: type
    default: Any
    help: str
    choices: tuple[str, ...] = ()


SCHEMA: dict[str, dict[str, Field]] = {
    "card": {
        "preset": Field(str, "eu", "Folded size: eu (85 × 55 mm) or us (3.5 × 2 in).",
                        ("eu", "us")),
        "width_mm": Field(float, None, "Custom folded width in mm (50–150); with height_mm it "
                          "replaces the preset."),
        "height_mm": Field(float, None, "Custom folded height in mm (40–120)."),
        "theme": Field(str, "dark", "A built-in theme (dark, light) or the path of a theme file."),
        "marks": Field(bool, True, "Crop and fold marks outside the bleed."),
        "qr": Field(bool, True, "A vCard QR code on the front panel."),
    },
    "person": {
        "name": Field(str, "", "Your name (required)."),
        "title": Field(str, "", "Job title."),
        "company": Field(str, "", "Company or studio."),
        "email": Field(str, "", "E-mail address."),
        "phone": Field(str, "", "Phone number."),
        "web": Field(str, "", "Web site."),
        "address": Field(str, "", "Postal address, one line (optional)."),
        "tagline": Field(str, "", "A short line at the foot of the front panel."),
    },
    "images": {
        "portrait": Field(str, "", "Photo behind the grids (tinted blue and red); JPEG, PNG, "
                          "WebP, TIFF…"),
        "logo": Field(str, "", "Logo for the front panel (PNG with transparency works best)."),
    },
    "fonts": {
        "regular": Field(str, "", "TTF/OTF file for regular text (default: Source Sans 3)."),
        "bold": Field(str, "", "TTF/OTF file for the name."),
        "italic": Field(str, "", "TTF/OTF file for the title and tagline."),
    },
}

_TYPE_NAMES = {str: "text in quotes", float: "a number", bool: "true or false"}


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
    qr: bool = True
    portrait: Path | None = None
    logo: Path | None = None
    fonts: dict[str, Path] = field(default_factory=dict)
    source: Path | None = None

    @property
    def base_dir(self) -> Path:
        return self.source.parent if self.source else Path.cwd()

    def with_overrides(self, *, preset: str | None = None, theme: str | None = None,
                       marks: bool | None = None) -> CardConfig:
        """The config with command-line options applied on top."""
        out = self
        if preset is not None:
            if preset not in PRESETS:
                raise CardgenError(f"--preset must be one of {', '.join(PRESETS)}, not {preset!r}.")
            out = replace(out, size=PRESETS[preset])
        if theme is not None:
            out = replace(out, theme=theme)
        if marks is not None:
            out = replace(out, marks=marks)
        return out


def example_config_path() -> Path:
    """The commented example that ``cardgen init`` copies and ``cardgen card`` uses
    when no config is given."""
    return templates_dir() / "example.toml"


def load_config(path: Path | None) -> CardConfig:
    """Read and validate a config file (the built-in example when ``path`` is None)."""
    source = example_config_path() if path is None else path
    name = "the built-in example" if path is None else str(path)
    if not source.exists():
        raise CardgenError(f"config file {source} does not exist.")
    if source.is_dir():
        raise CardgenError(f"config file {source} is a folder, not a TOML file.")
    try:
        text = source.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CardgenError(f"{name}: not a text file (expected UTF-8 TOML).") from None
    except OSError as exc:
        raise CardgenError(f"{name}: cannot be read ({exc.strerror}).") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise CardgenError(f"{name}: invalid TOML: {exc}.") from None
    values = _validate(data, name)
    return _build(values, source.resolve() if path is not None else None, name)


def _closest(word: str, options: list[str], shown: list[str]) -> str:
    """A "did you mean" for the nearest option, or the list of valid ones."""
    match = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if match:
        return f"; did you mean {shown[options.index(match[0])]}?"
    return f"; valid: {', '.join(shown)}."


def _validate(data: dict[str, Any], name: str) -> dict[str, dict[str, Any]]:
    values: dict[str, dict[str, Any]] = {}
    for section, table in data.items():
        if section not in SCHEMA:
            raise CardgenError(f"{name}: unknown section [{section}]"
                               f"{_closest(section, list(SCHEMA), [f'[{s}]' for s in SCHEMA])}")
        if not isinstance(table, dict):
            raise CardgenError(f"{name}: {section} must be a [{section}] table of keys.")
        fields = SCHEMA[section]
        values[section] = {}
        for key, value in table.items():
            if key not in fields:
                shown = [f"{section}.{k}" for k in fields]
                raise CardgenError(f"{name}: unknown key {section}.{key}"
                                   f"{_closest(key, list(fields), shown)}")
            values[section][key] = _check_type(value, fields[key], f"{section}.{key}", name)
    return values


def _check_type(value: Any, spec: Field, key: str, name: str) -> Any:
    ok = (
        isinstance(value, bool) if spec.kind is bool
        else isinstance(value, int | float) and not isinstance(value, bool) if spec.kind is float
        else isinstance(value, spec.kind)
    )
    if not ok:
        raise CardgenError(f"{name}: {key} must be {_TYPE_NAMES[spec.kind]}, "
                           f"not {_describe(value)}.")
    if spec.choices and value not in spec.choices:
        raise CardgenError(f"{name}: {key} must be one of {', '.join(spec.choices)}, "
                           f"not {value!r}.")
    if spec.kind is str:
        return value.strip()
    return float(value) if spec.kind is float else value


def _describe(value: Any) -> str:
    if isinstance(value, bool):
        return f"a boolean ({str(value).lower()})"
    if isinstance(value, int | float):
        return f"a number ({value})"
    if isinstance(value, str):
        return f"text ({value!r})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return type(value).__name__


def _get(values: dict, section: str, key: str) -> Any:
    return values.get(section, {}).get(key, SCHEMA[section][key].default)


def _build(values: dict, source: Path | None, name: str) -> CardConfig:
    base = source.parent if source else Path.cwd()
    width, height = _get(values, "card", "width_mm"), _get(values, "card", "height_mm")
    if (width is None) != (height is None):
        missing = "height_mm" if height is None else "width_mm"
        raise CardgenError(f"{name}: card.{missing} is missing; a custom size needs both "
                           "width_mm and height_mm.")
    try:
        if width is None:
            size = PRESETS[_get(values, "card", "preset")]
        else:
            size = custom_size(width, height)
            CardGeometry(size)  # the grids must fit
    except CardgenError as exc:
        raise CardgenError(f"{name}: {exc}") from None
    person = Person(**{key: _get(values, "person", key) for key in SCHEMA["person"]})
    if not person.name:
        raise CardgenError(f"{name}: person.name is required (the name printed on the front).")

    def path_of(section: str, key: str) -> Path | None:
        value = _get(values, section, key)
        if not value:
            return None
        p = Path(value).expanduser()
        return p if p.is_absolute() else base / p

    fonts = {style: p for style in SCHEMA["fonts"] if (p := path_of("fonts", style))}
    return CardConfig(
        size=size,
        person=person,
        theme=_get(values, "card", "theme"),
        marks=_get(values, "card", "marks"),
        qr=_get(values, "card", "qr"),
        portrait=path_of("images", "portrait"),
        logo=path_of("images", "logo"),
        fonts=fonts,
        source=source,
    )
