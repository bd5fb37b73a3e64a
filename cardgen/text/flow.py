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

A paragraph is a flowable (:meth:`Paragraph.flowable`): :func:`flow` sets them with the one
frame filler, :func:`cardgen.text.flowable.fill`, the rules book's too; this line model is
its cap rule (:attr:`~cardgen.text.flowable.Baseline.CAP`) with one line as the least a
paragraph leaves on either side of a frame break.

Imports ``cardgen.draw``, ``cardgen.text`` and ``cardgen.errors``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Text
from cardgen.errors import FitError, shorten
from cardgen.text.fit import Run, check_printable, wrap_runs
from cardgen.text.flowable import Baseline, Lines, fill
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
    align: Anchor = Anchor.START  # each line at the start, centre (MIDDLE) or end of the width

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


    def flowable(self, width: float, where: str) -> Lines:
        """The paragraph wrapped to ``width`` as a flowable set on the cap rule
        (:attr:`Baseline.CAP`), one line at a time (no widow or orphan rule)."""
        for text, face in self.runs():
            check_printable(text, face, where)
        if self.marker:
            check_printable(self.marker, self.face, where)
        parts = wrap_runs(self.runs(), self.size, width - self.indent)
        if parts is None:
            raise FitError(f"{where}: a word of {shorten(self.text)} is wider than its "
                           f"{width - self.indent:.1f} mm column at {self.size:g} pt.",
                           value=self.text)
        return Lines(tuple(tuple(line) for line in parts), self.size, self.color,
                     self.space_before, self.space_after, indent=self.indent,
                     marker=self.marker, marker_face=self.face,
                     keep_with_next=self.keep_with_next, orphans=1, widows=1,
                     baseline=Baseline.CAP, align=self.align)


def flow(paragraphs: Iterable[Paragraph], frames: Iterable[Box], *,
         where: str = "text") -> list[list[Text]]:
    """The lines of ``paragraphs`` placed through ``frames`` in order: one list of Text
    items per frame used. Every frame must be as wide as the first (the text is wrapped
    to that width). Raises FitError naming ``where`` when the frames run out.

    The paragraphs are flowables (:class:`~cardgen.text.flowable.Lines`) set by the one
    frame filler, :func:`~cardgen.text.flowable.fill`, on the cap rule; a heading keeps
    only the first line of what follows it (``chain=False``)."""
    frame_iter = iter(frames)
    first = next(frame_iter, None)
    if first is None:
        raise FitError(f"{where}: there is no frame to set the text in.")
    width = first.w
    flowables = [f for f in (p.flowable(width, where) for p in paragraphs) if f.lines]
    filled = fill(flowables, itertools.chain([first], frame_iter), width=width,
                  where=where, chain=False, epsilon=EPSILON)
    placed: list[list[Text]] = [[] for _ in range(filled.frames)]
    for part in filled.placed:
        assert isinstance(part.flowable, Lines)
        placed[part.frame] += part.flowable.draw(part.x, part.y, width)
    return placed
