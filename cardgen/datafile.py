"""Reading TOML data files, with one sentence for every way that can fail.

Every data file cardgen reads (card configs, themes, the card layout, product text,
Rotator board files) goes through :func:`read_toml`, so a missing file, a folder, a file
that is not UTF-8 text and broken TOML are worded the same everywhere. What the data
means is checked afterwards against a schema (``cardgen.schema``).

Imports only ``cardgen.errors``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from cardgen.errors import ConfigError

MAX_BYTES = 1_000_000  # no data file cardgen reads is anywhere near this large


def read_toml(path: Path, kind: str, label: str | None = None) -> dict[str, Any]:
    """The parsed contents of a TOML file.

    ``kind`` names what the file is for ("config file", "theme file", "board file") in
    the sentences about a file that cannot be opened; ``label`` (default: the path) starts
    the sentences about its contents.
    """
    label = str(path) if label is None else label
    if not path.exists():
        raise ConfigError("", [f"{kind} {path} does not exist."], value=path)
    if path.is_dir():
        raise ConfigError("", [f"{kind} {path} is a folder, not a TOML file."], value=path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(label, [f"cannot be read ({exc.strerror})."], value=path) from None
    if len(raw) > MAX_BYTES:
        raise ConfigError(label, [f"is {len(raw):,} bytes, far larger than any {kind} "
                                  "(is it the right file?)."], value=path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(label, ["not a text file (expected UTF-8 TOML)."],
                          value=path) from None
    return parse_toml(text, label)


def parse_toml(text: str, label: str) -> dict[str, Any]:
    """Parse TOML text; a syntax error names ``label`` and the line."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(label, [f"invalid TOML: {exc}."]) from None
