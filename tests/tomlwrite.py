"""A small TOML writer for tests that generate data files (the standard library reads
TOML but does not write it)."""

from __future__ import annotations

import datetime as dt
import json
import math


def value(v: object) -> str:
    """One TOML value: strings, numbers (nan and inf too), booleans, dates and times,
    lists and tables (inline)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, dt.date | dt.time):  # datetime is a date too
        return v.isoformat()
    if isinstance(v, str):
        return json.dumps(v).replace("\x7f", "\\u007f")
    if isinstance(v, list):
        return "[" + ", ".join(value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {value(x)}" for k, x in v.items()) + "}"
    raise TypeError(type(v).__name__)


def dumps(data: dict[str, object]) -> str:
    """A TOML document of top-level keys."""
    return "".join(f"{json.dumps(str(k))} = {value(v)}\n" for k, v in data.items())
