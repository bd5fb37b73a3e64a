"""Flowing paragraphs through a sequence of frames (columns, pages).

The line model: the first baseline in a frame sits one cap height below the frame's top,
so the tallest capitals touch it; after each line the baseline moves down by that
line's height (:func:`~cardgen.text.fit.line_height`); a paragraph's ``space_before``
is added between it and the paragraph above in the same frame, never at a frame's top,
and its ``space_after`` below it. A line fits a frame when its line box (baseline minus
cap height, plus line height) ends above the frame's bottom. Lines that do not fit go to
the next frame; when the frames run out, :func:`flow` says which text did not fit.

A paragraph may mix faces (``spans``: a bold lead-in, say), each line then being one
Text item per run of one face, side by side; and it may be indented (``indent``: every
line starts that far in and wraps to the narrower width), with a ``marker`` such as a
bullet set at the frame's edge beside its first line. A heading is kept with the first
line of the paragraph after it (``keep_with_next``): when both do not fit at the foot of a
frame, the heading moves to the next frame.

Imports ``cardgen.draw``, ``cardgen.text`` and ``cardgen.errors``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Text
from cardgen.errors import FitError, shorten
from cardgen.text.fit import Run, check_printable, line_height, wrap_runs
from cardgen.text.fonts import FontFace

EPSILON = 1e-9


@dataclass(frozen=True)
class Span:
    """Part of a paragraph set in a face of its own."""

    text: str
    face: FontFace


@dataclass(frozen=True)
class Paragraph:
    """Text set in one size and colour, wrapped to the frame width: in ``face``, or, when
    ``spans`` are given, in theirs (``text`` is then their text joined, and ``face`` the
    first span's, see :meth:`mixed`)."""

    text: str
    face: FontFace
    size: float
    color: Color
    space_before: float = 0.0
    space_after: float = 0.0
    spans: tuple[Span, ...] = ()
    indent: float = 0.0  # mm: every line starts this far in from the frame's left edge
    marker: str = ""  # set at the frame's left edge beside the first line, in ``face``
    keep_with_next: bool = False  # a heading: its last line and the next share a frame

    def __post_init__(self) -> None:
        if self.spans and "".join(s.text for s in self.spans) != self.text:
            raise ValueError("a paragraph's text must be its spans' text joined")

    @staticmethod
    def mixed(spans: Iterable[Span], size: float, color: Color, **options: Any,
              ) -> Paragraph:
        """A paragraph of several faces."""
        parts = tuple(spans)
        if not parts:
            raise ValueError("a paragraph needs at least one span")
        return Paragraph("".join(s.text for s in parts), parts[0].face, size, color,
                         spans=parts, **options)

    def runs(self) -> tuple[Run, ...]:
        return tuple((s.text, s.face) for s in self.spans) or ((self.text, self.face),)


@dataclass(frozen=True)
class _Line:
    runs: tuple[Run, ...]
    paragraph: Paragraph
    first: bool  # the first line of its paragraph
    last: bool

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.runs)


def _lines(paragraphs: Iterable[Paragraph], width: float, where: str) -> Iterator[_Line]:
    for paragraph in paragraphs:
        for text, face in paragraph.runs():
            check_printable(text, face, where)
        if paragraph.marker:
            check_printable(paragraph.marker, paragraph.face, where)
        parts = wrap_runs(paragraph.runs(), paragraph.size, width - paragraph.indent)
        if parts is None:
            raise FitError(f"{where}: a word of {shorten(paragraph.text)} is wider than its "
                           f"{width - paragraph.indent:.1f} mm column at "
                           f"{paragraph.size:g} pt.", value=paragraph.text)
        for i, part in enumerate(parts):
            yield _Line(tuple(part), paragraph, i == 0, i == len(parts) - 1)


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
    for i, line in enumerate(lines):
        p = line.paragraph
        after = lines[i + 1] if p.keep_with_next and line.last and i + 1 < len(lines) else None
        while True:
            if cursor is None:  # the top of a frame
                baseline = frame.y + p.face.metrics.cap_height_mm(p.size)
            else:
                baseline = cursor + (p.space_before if line.first else 0.0)
            bottom = baseline - p.face.metrics.cap_height_mm(p.size) + line_height(p.size)
            if after is not None and cursor is not None:  # room for the next line too
                q = after.paragraph
                bottom += p.space_after + q.space_before + line_height(q.size)
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
        if line.first and p.marker:
            current.append(Text(frame.x, baseline, p.marker, p.face, p.size, p.color))
        x = frame.x + p.indent
        for text, face in line.runs:
            current.append(Text(x, baseline, text, face, p.size, p.color))
            x += face.width(text, p.size)
        cursor = baseline + line_height(p.size)
        if line.last:
            cursor += p.space_after
    placed.append(current)
    return placed
