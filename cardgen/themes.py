"""Themes: colours and art parameters read from data files in ``templates/themes``."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from cardgen.colors import Color, parse_color
from cardgen.errors import CardgenError
from cardgen.resources import templates_dir

_OUTSIDE = ("background", "name", "text", "accent", "muted", "rule", "link", "qr_background",
            "qr_modules")
_INSIDE = ("margin", "ground", "grid_line", "grid_border", "label", "pattern", "link",
           "tint_a", "tint_b")


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


def load_theme(name_or_path: str, base: Path | None = None) -> Theme:
    """A bundled theme by name (``dark``, ``light``) or a theme file by path."""
    path = templates_dir() / "themes" / f"{name_or_path}.toml"
    if not path.is_file():
        candidate = Path(name_or_path)
        if base is not None and not candidate.is_absolute():
            candidate = base / candidate
        if not candidate.is_file():
            raise CardgenError(
                f"card.theme: no theme called {name_or_path!r} (built-in themes: "
                f"{', '.join(builtin_themes())}; or give the path of a theme .toml file)."
            )
        path = candidate
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise CardgenError(f"theme {path}: cannot be read ({exc}).") from None
    except tomllib.TOMLDecodeError as exc:
        raise CardgenError(f"theme {path}: invalid TOML: {exc}.") from None
    return _parse(data, str(path))


def _table(data: dict, key: str, where: str) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise CardgenError(f"theme {where}: missing the [{key}] table.")
    return value


def _colors(table: dict, keys: tuple[str, ...], section: str, where: str) -> dict[str, Color]:
    out = {}
    for key in keys:
        if key not in table:
            raise CardgenError(f"theme {where}: [{section}] lacks the colour {key!r}.")
        out[key] = parse_color(table[key], f"theme {where}: {section}.{key}")
    return out


def _number(table: dict, key: str, low: float, high: float, where: str) -> float:
    value = table.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool) or not low <= value <= high:
        raise CardgenError(f"theme {where}: {key} must be a number from {low:g} to {high:g}.")
    return float(value)


def _parse(data: dict, where: str) -> Theme:
    outside = _table(data, "outside", where)
    inside = _table(data, "inside", where)
    curves = _table(data, "curves", where)
    fills = tuple(parse_color(c, f"theme {where}: curves.fill") for c in curves.get("fill", []))
    strokes = tuple(parse_color(c, f"theme {where}: curves.stroke")
                    for c in curves.get("stroke", []))
    if not fills or not strokes:
        raise CardgenError(f"theme {where}: [curves] needs at least one fill and one "
                           "stroke colour.")
    return Theme(
        name=str(data.get("name", Path(where).stem)),
        description=str(data.get("description", "")),
        outside=_colors(outside, _OUTSIDE, "outside", where),
        inside=_colors(inside, _INSIDE, "inside", where),
        curve_fills=fills,
        curve_strokes=strokes,
        curve_lines=int(_number(curves, "lines", 0, 40, where)),
        curve_amplitude=_number(curves, "amplitude", 0, 1, where),
        portrait_strength=_number(inside, "portrait_strength", 0, 1, where),
        plain_tint=_number(inside, "plain_tint", 0, 1, where),
    )
