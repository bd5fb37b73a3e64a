"""Fitting text into boxes: shrink to a minimum legible size, wrap paragraphs, or
fail with a sentence naming the field that does not fit.

Imports ``cardgen.text.fonts``, ``cardgen.errors`` and ``cardgen.units``.
"""

from __future__ import annotations

from cardgen.errors import FitError
from cardgen.text.fonts import FontFace
from cardgen.units import MM_PER_PT

LEADING = 1.22  # line spacing as a multiple of the type size


def shorten(text: str, limit: int = 40) -> str:
    """A value quoted in a message, cut down if long."""
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def line_height(size_pt: float) -> float:
    return size_pt * LEADING * MM_PER_PT


def fit_line(text: str, face: FontFace, size: float, min_size: float, width: float,
             where: str) -> float:
    """The largest size from ``size`` down to ``min_size`` at which one line fits."""
    face.check(text, where)
    natural = face.width(text, size)
    if natural <= width:
        return size
    fitted = int(size * width / natural * 10) / 10
    if fitted < min_size:
        raise FitError(
            f"{where} ({shorten(text)}) does not fit: it needs {face.width(text, min_size):.1f} mm "
            f"at the smallest legible size of {min_size:g} pt and the line is {width:.1f} mm "
            "wide; shorten it."
        )
    return fitted


def wrap(text: str, face: FontFace, size: float, width: float) -> list[str] | None:
    """Greedy word wrap; None if a single word is wider than ``width``."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if face.width(trial, size) <= width:
            current = trial
        elif face.width(word, size) > width:
            return None
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    return lines


def fit_paragraph(text: str, face: FontFace, size: float, min_size: float, width: float,
                  height: float, where: str) -> tuple[float, list[str]]:
    """The largest size (0.1 pt steps) at which the wrapped text fits the box."""
    face.check(text, where)
    s = size
    while s >= min_size - 1e-9:
        lines = wrap(text, face, s, width)
        if lines is not None and len(lines) * line_height(s) <= height + 1e-9:
            return s, lines
        s = round(s - 0.1, 1)
    raise FitError(
        f"{where} does not fit its {width:.1f} × {height:.1f} mm box even at the smallest "
        f"legible size of {min_size:g} pt; shorten it or choose a narrower font."
    )
