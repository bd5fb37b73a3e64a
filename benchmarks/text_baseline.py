"""Frozen copy of cardgen/text/fit.py's word wrapping before issue 26 (text measured by
runs): the baseline of benchmarks/bench_text.py and of the test that checks the new
wrapping gives the same lines and the same widths. Each trial line is measured afresh,
character by character (through the face's memo of texts measured before). Not used to
set text for users; do not change it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

Run = tuple[str, Any]  # a piece of text and the FontFace it is set in


def wrap(text: str, face: Any, size: float, width: float) -> list[str] | None:
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


def wrap_runs(runs: Sequence[Run], size: float, width: float) -> list[list[Run]] | None:
    """Greedy word wrap of text set in several faces (bold words in a regular
    paragraph): each line as its runs, neighbours in one face merged, a space between
    words set in the face of the word before it. A word may change face in its middle.
    None if a single word is wider than ``width``."""
    words: list[list[Run]] = []
    in_word = False
    for text, face in runs:
        for part in re.split(r"(\s+)", text):
            if not part:
                continue
            if part.isspace():
                in_word = False
            elif in_word:
                words[-1].append((part, face))
            else:
                words.append([(part, face)])
                in_word = True

    def measure(pieces: Sequence[Run]) -> float:
        return sum(face.width(text, size) for text, face in pieces)

    def joined(line: list[Run], word: list[Run]) -> list[Run]:
        out = list(line)
        if out:
            out[-1] = (out[-1][0] + " ", out[-1][1])
        for text, face in word:
            if out and out[-1][1] == face:
                out[-1] = (out[-1][0] + text, face)
            else:
                out.append((text, face))
        return out

    lines: list[list[Run]] = []
    current: list[Run] = []
    for word in words:
        trial = joined(current, word)
        if measure(trial) <= width:
            current = trial
        elif measure(word) > width:
            return None
        else:
            lines.append(current)
            current = joined([], word)
    if current:
        lines.append(current)
    return lines
