"""Where the bundled data folders (templates/, fonts/) are.

In a source checkout or an editable install they sit next to the package; a wheel
carries them inside the package.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The bundled folder ``name`` (``"templates"`` or ``"fonts"``)."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"cardgen's bundled folder {name!r} is missing from the install")


def templates_dir() -> Path:
    return data_dir("templates")


def fonts_dir() -> Path:
    return data_dir("fonts")
