"""Flowing paragraphs through a sequence of frames (columns, pages).

The line model: the first baseline in a frame sits one cap height below the frame's top,
so the tallest capitals touch it; after each line the baseline moves down by that
line's height (:func:`~cardgen.text.fit.line_height`); a paragraph's ``space_before``
is added between it and the paragraph above in the same frame, never at a frame's top,
and its ``space_after`` below it. A line fits a frame when its line box (baseline minus
cap height, plus line height) ends above the frame's bottom. Lines that do not fit go to
the next frame; when the frames run out, :func:`flow` says which text did not fit.

Imports ``cardgen.draw``, ``cardgen.text`` and ``cardgen.errors``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Text
from cardgen.errors import FitError, shorten
from cardgen.text.fit import check_printable, line_height, wrap
from cardgen.text.fonts import FontFace

EPSILON = 1e-9


@dataclass(frozen=True)
class Paragraph:
    """A run of text set in one face, size and colour, wrapped to the frame width."""

    text: str
    face: FontFace
    size: float
    color: Color
    space_before: float = 0.0
    space_after: float = 0.0


@dataclass(frozen=True)
class _Line:
    text: str
    paragraph: Paragraph
    first: bool  # the first line of its paragraph
    last: bool


def _lines(paragraphs: Iterable[Paragraph], width: float, where: str) -> Iterator[_Line]:
    for paragraph in paragraphs:
        check_printable(paragraph.text, paragraph.face, where)
        parts = wrap(paragraph.text, paragraph.face, paragraph.size, width)
        if parts is None:
            raise FitError(f"{where}: a word of {shorten(paragraph.text)} is wider than its "
                           f"{width:.1f} mm column at {paragraph.size:g} pt.",
                           value=paragraph.text)
        for i, part in enumerate(parts):
            yield _Line(part, paragraph, i == 0, i == len(parts) - 1)


def flow(paragraphs: Iterable[Paragraph], frames: Iterable[Box], *,
         where: str = "text") -> list[list[Text]]:
    """The lines of ``paragraphs`` placed through ``frames`` in order: one list of Text
    items per frame used. Every frame must be as wide as the first (the text is wrapped
    to that width). Raises FitError naming ``where`` when the frames run out."""
    placed: list[list[Text]] = []
    frame_iter = iter(frames)
    frame = next(frame_iter, None)
    if frame is None:
        raise FitError(f"{where}: there is no frame to set the text in.")
    lines = list(_lines(paragraphs, frame.w, where))
    cursor: float | None = None  # the next baseline in the current frame
    current: list[Text] = []
    for line in lines:
        p = line.paragraph
        while True:
            if cursor is None:  # the top of a frame
                baseline = frame.y + p.face.metrics.cap_height_mm(p.size)
            else:
                baseline = cursor + (p.space_before if line.first else 0.0)
            bottom = baseline - p.face.metrics.cap_height_mm(p.size) + line_height(p.size)
            if bottom <= frame.bottom + EPSILON:
                break
            if cursor is None:
                raise FitError(f"{where}: a line of {shorten(line.text)} is taller than its "
                               "frame.", value=line.text)
            placed.append(current)
            current, cursor = [], None
            frame = next(frame_iter, None)
            if frame is None:
                raise FitError(f"{where} does not fit: it needs more room than its "
                               f"{len(placed)} frame{'' if len(placed) == 1 else 's'}; "
                               f"it runs out at {shorten(line.text)}.", value=line.text)
        current.append(Text(frame.x, baseline, line.text, p.face, p.size, p.color))
        cursor = baseline + line_height(p.size)
        if line.last:
            cursor += p.space_after
    placed.append(current)
    return placed
