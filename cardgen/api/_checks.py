"""The parameters of the Rotator and rules makers checked, each error naming the
parameter as Python does (``budget``, ``formats``). Private to ``cardgen.api``: merge
with api/common.py (the shared choice and format parsers) when both are in."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from cardgen.errors import ParameterError, number, shorten

if TYPE_CHECKING:
    from cardgen.render import Format


def whole(value: object, parameter: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(parameter, f"must be a whole number, not {shorten(repr(value))}.",
                             value=value)
    if not low <= value <= high:
        raise ParameterError(parameter, f"must be from {number(low)} to {number(high)}, not "
                             f"{number(value)}.", value=value)
    return value


def real(value: object, parameter: str, low: float, high: float) -> float:
    """A finite number from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
            math.isfinite(value) and low <= value <= high):
        shown = number(value) if isinstance(value, int | float) else shorten(repr(value))
        raise ParameterError(parameter, f"must be from {number(low)} to {number(high)}, not "
                             f"{shown}.", value=value)
    return float(value)


def choice(kind: Any, value: object, parameter: str) -> Any:
    """The member of the enum ``kind`` that ``value`` is or names (any case)."""
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        for member in kind:
            if str(member.value) == value.strip().lower():
                return member
    names = ", ".join(str(m.value) for m in kind)
    raise ParameterError(parameter, f"must be one of {names}, not {shorten(str(value))}.",
                         value=value)


def formats(value: object) -> list[Format]:
    """``formats``: a format, its name, several of either, or names joined by commas; in
    the renderer's order (PDF, SVG, PNG)."""
    from cardgen.render import Format

    items: Iterable[object]
    if isinstance(value, str):
        items = [part for part in value.split(",") if part.strip()]
    elif isinstance(value, Format):
        items = [value]
    elif isinstance(value, Iterable):
        items = list(value)
    else:
        items = [value]
    wanted = {choice(Format, item, "formats") for item in items}
    if not wanted:
        raise ParameterError("formats", "must name at least one of pdf, svg, png.",
                             value=value)
    return [fmt for fmt in Format if fmt in wanted]


def offset(value: object) -> tuple[float, float]:
    """``offset``: (right, down) in mm, as a pair or as text ``"0.5,-0.3"``."""
    parts: Sequence[object] = (value.split(",") if isinstance(value, str) else
                               value if isinstance(value, Sequence) else [value])
    try:
        if len(parts) != 2:
            raise ValueError
        dx, dy = (float(p) if isinstance(p, str | int | float) and not isinstance(p, bool)
                  else math.nan for p in parts)
        if not (math.isfinite(dx) and math.isfinite(dy)):
            raise ValueError
    except ValueError:
        raise ParameterError("offset", "must be two numbers in mm like 0.5,-0.3, not "
                             f"{shorten(str(value))}.", value=value) from None
    return dx, dy


def stem(name: object, parameter: str = "name") -> str:
    """A file name without suffix: one plain name that stays in the folder."""
    from cardgen.output import check_stem

    if not isinstance(name, str):
        raise ParameterError(parameter, f"must be text, not {type(name).__name__}.",
                             value=name)
    return check_stem(name, parameter)
