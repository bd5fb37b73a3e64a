"""Fitting text into boxes: shrink to a minimum legible size, wrap paragraphs, or
fail with a sentence naming the field that does not fit.

Imports ``cardgen.text.fonts``, ``cardgen.errors`` and ``cardgen.units``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from cardgen.chars import (
    character_name,
    control_character,
    invisible_problem,
    unprintable_script,
)
from cardgen.draw.geometry import Box
from cardgen.draw.page import (
    Anchor,
    Close,
    CurveTo,
    Group,
    Image,
    Item,
    Line,
    Page,
    Path,
    Rect,
    Text,
    page_texts,
    walk,
)
from cardgen.errors import FitError, shorten
from cardgen.text.fonts import FontFace, FontMetrics
from cardgen.units import MM_PER_PT

LEADING = 1.22  # line spacing as a multiple of the type size


# Texts found printable, with the metrics of the face they were checked with (which the
# key names by id: keeping the metrics here keeps that id theirs). At most
# PRINTABLE_REMEMBERED, then forgotten at once.
_printable: dict[tuple[str, int], FontMetrics] = {}
PRINTABLE_REMEMBERED = 20_000


def check_printable(text: str, face: FontFace, where: str) -> None:
    """Refuse text that cannot be printed right in every output, naming ``where``: a
    control character, a script that needs right-to-left layout or shaping, an
    invisible character, or a character the font has no glyph for. (A text found
    printable with the same face's metrics before is not checked again: the checks
    depend on the text and the font only.)"""
    metrics = face.metrics
    key = (text, id(metrics))
    if _printable.get(key) is metrics:
        return
    _check_printable(text, face, where)
    if len(_printable) >= PRINTABLE_REMEMBERED:
        _printable.clear()
    _printable[key] = metrics


def _check_printable(text: str, face: FontFace, where: str) -> None:
    bad = control_character(text)
    if bad is not None:
        raise FitError(f"{where}: {shorten(text)} contains {character_name(bad)}, which "
                       "cannot be printed; remove it.", value=text)
    script = unprintable_script(text)
    if script is not None:
        ch, name = script
        if name == "a bidirectional control":
            raise FitError(f"{where}: {shorten(text)} contains {character_name(ch)}, a "
                           "bidirectional control, which cardgen cannot yet set correctly in "
                           "every output; remove it.", value=text)
        raise FitError(f"{where}: {shorten(text)} is written in {name}, which cardgen cannot "
                       "yet set correctly in every output (the PDF would show its letters "
                       "unjoined and out of order); write it in a left-to-right script or "
                       "leave it out.", value=text)
    invisible = invisible_problem(text)
    if invisible is not None:
        raise FitError(f"{where}: {shorten(text)} {invisible}", value=text)
    face.check(text, where)


def check_drawn_texts(pages: Iterable[Page]) -> None:
    """Every text item of the pages can be printed with its font: the safety net after
    layout, naming the font's config key (``fonts.regular``) and the item."""
    for page in pages:
        for item, _ in page_texts(page):
            if isinstance(item.font, FontFace):
                what = f" ({item.name})" if item.name else ""
                check_printable(item.text, item.font, f"fonts.{item.font.style}{what}")


def text_box(item: Text) -> Box:
    """Where a text run's ink can be, in its own frame: its advance width along the
    baseline (placed by its anchor), from its tallest glyph's top to the font's descent.
    The run must be set in a :class:`FontFace` (cardgen's own font objects)."""
    face = item.font
    if not isinstance(face, FontFace):
        raise TypeError(f"text_box needs a FontFace, not {type(face).__name__}")
    if item.rotation:
        raise ValueError("text_box measures unrotated runs only")
    width = face.width(item.text, item.size)
    left = {Anchor.START: item.x, Anchor.MIDDLE: item.x - width / 2,
            Anchor.END: item.x - width}[item.anchor]
    top = item.y - face.metrics.ink_top_mm(item.text, item.size)
    bottom = item.y + face.metrics.descent_mm(item.size)
    return Box(left, top, width, bottom - top)


def line_height(size_pt: float) -> float:
    return size_pt * LEADING * MM_PER_PT


def fit_line(text: str, face: FontFace, size: float, min_size: float, width: float,
             where: str) -> float:
    """The largest size from ``size`` down to ``min_size`` at which one line fits."""
    check_printable(text, face, where)
    natural = face.width(text, size)
    if natural <= width:
        return size
    fitted = int(size * width / natural * 10) / 10
    if fitted < min_size:
        raise FitError(
            f"{where} ({shorten(text)}) does not fit: it needs {face.width(text, min_size):.1f} mm "
            f"at the smallest legible size of {min_size:g} pt and the line is {width:.1f} mm "
            "wide; shorten it.", value=text, field=where)
    return fitted


def wrap(text: str, face: FontFace, size: float, width: float) -> list[str] | None:
    """Greedy word wrap; None if a single word is wider than ``width``.

    A trial line is measured by runs: its advance in font units is the line's so far
    plus a space's plus the word's (each word measured once), exactly the units of the
    whole trial text, so the width compared is the one :meth:`FontFace.width` gives for
    it (``tests/test_textfit.py`` holds the two ways equal)."""
    metrics = face.metrics
    units_of, to_mm = metrics.units, metrics.units_width
    space = units_of(" ")
    lines: list[str] = []
    current, current_units = "", 0
    for word in text.split():
        word_units = units_of(word)
        trial_units = current_units + space + word_units if current else word_units
        if to_mm(trial_units, size) <= width:
            current = f"{current} {word}" if current else word
            current_units = trial_units
        elif to_mm(word_units, size) > width:
            return None
        else:
            lines.append(current)
            current, current_units = word, word_units
    if current:
        lines.append(current)
    return lines


Run = tuple[str, FontFace]  # a piece of text and the face it is set in


class _Line:
    """A line being wrapped, measured by runs: its finished runs and the sum of their
    widths (added in order, as ``sum`` over the runs adds them), and its last run, still
    open, as parts of text, its face and its advance in font units (and a space's)."""

    __slots__ = ("done", "done_width", "face", "metrics", "parts", "space", "units")

    def __init__(self) -> None:
        self.done: list[Run] = []
        self.done_width: float = 0
        self.parts: list[str] = []
        self.face: FontFace | None = None
        self.metrics: FontMetrics | None = None
        self.units = 0
        self.space = 0

    def add(self, pieces: Sequence[tuple[str, FontFace, FontMetrics, int]], size: float,
            space: bool) -> None:
        """Append a word's pieces (after a space in the open run's face, if ``space``),
        merging neighbours in one face."""
        if space and self.metrics is not None:
            self.parts.append(" ")
            self.units += self.space
        for text, face, metrics, units in pieces:
            if self.metrics is not None and (face is self.face or face == self.face):
                self.parts.append(text)
                self.units += units if metrics is self.metrics else self.metrics.units(text)
            else:
                if self.metrics is not None and self.face is not None:
                    self.done.append(("".join(self.parts), self.face))
                    self.done_width += self.metrics.units_width(self.units, size)
                self.parts, self.face, self.metrics, self.units = [text], face, metrics, units
                self.space = metrics.units(" ")

    def width_with(self, pieces: Sequence[tuple[str, FontFace, FontMetrics, int]],
                   size: float) -> float:
        """The width of this line with a word added after a space: what :meth:`add`
        would make of it, summed run by run in order, without making it."""
        total = self.done_width
        face, metrics = self.face, self.metrics
        units = self.units + self.space
        for text, piece_face, piece_metrics, piece_units in pieces:
            if metrics is not None and (piece_face is face or piece_face == face):
                units += piece_units if piece_metrics is metrics else metrics.units(text)
            else:
                if metrics is not None:
                    total += metrics.units_width(units, size)
                face, metrics, units = piece_face, piece_metrics, piece_units
        return total + metrics.units_width(units, size) if metrics is not None else total

    def runs(self) -> list[Run]:
        if self.face is None:
            return list(self.done)
        return [*self.done, ("".join(self.parts), self.face)]


def wrap_runs(runs: Sequence[Run], size: float, width: float) -> list[list[Run]] | None:
    """Greedy word wrap of text set in several faces (bold words in a regular
    paragraph): each line as its runs, neighbours in one face merged, a space between
    words set in the face of the word before it. A word may change face in its middle.
    None if a single word is wider than ``width``.

    Text is measured by runs, as :func:`wrap` does: each word piece once, in whole font
    units, and a trial line's width as the widths of its runs' units summed in order:
    exactly what measuring each run's text gives, so the lines are those of measuring
    every trial line afresh (``benchmarks/text_baseline.py``; ``tests/test_text_runs.py``
    compares the two)."""
    words: list[list[tuple[str, FontFace, FontMetrics, int]]] = []
    in_word = False
    for text, face in runs:
        metrics = face.metrics
        remembered, units_of = metrics._units.get, metrics.units
        for part in _SPACES.split(text):
            if not part:
                continue
            if part.isspace():
                in_word = False
                continue
            units = remembered(part)
            piece = (part, face, metrics, units if units is not None else units_of(part))
            if in_word:
                words[-1].append(piece)
            else:
                words.append([piece])
                in_word = True

    lines: list[list[Run]] = []
    line = _Line()
    for word in words:
        if line.width_with(word, size) <= width:  # (no space before a line's first word)
            line.add(word, size, space=True)
        elif sum(m.units_width(u, size) for _, _, m, u in word) > width:
            return None  # (the word's pieces measured one by one, as before)
        else:
            lines.append(line.runs())
            line = _Line()
            line.add(word, size, space=False)
    if line.face is not None:
        lines.append(line.runs())
    return lines


_SPACES = re.compile(r"(\s+)")


def fit_paragraph(text: str, face: FontFace, size: float, min_size: float, width: float,
                  height: float, where: str) -> tuple[float, list[str]]:
    """The largest size (0.1 pt steps) at which the wrapped text fits the box."""
    check_printable(text, face, where)
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


def item_box(item: Item) -> Box | None:
    """Where an item puts ink, as a box in its own frame (a line's or an outline's
    half width included; a path by its points and control points, which a Bézier curve
    never leaves); None for an empty group."""
    match item:
        case Text():
            return text_box(item)
        case Image():
            return Box(item.x, item.y, item.w, item.h)
        case Rect():
            half = item.stroke.width / 2 if item.stroke else 0.0
            return Box(item.x, item.y, item.w, item.h).inset(-half)
        case Line():
            return Box.around([(item.x1, item.y1), (item.x2, item.y2)]).inset(
                -item.stroke.width / 2)
        case Path():
            # Box.around the points (control points included), in the same order.
            xs: list[float] = []
            ys: list[float] = []
            for op in item.ops:
                if isinstance(op, CurveTo):
                    xs += (op.x1, op.x2, op.x)
                    ys += (op.y1, op.y2, op.y)
                elif not isinstance(op, Close):
                    xs.append(op.x)
                    ys.append(op.y)
            if not xs:
                return None
            half = item.stroke.width / 2 if item.stroke else 0.0
            x0, y0 = min(xs), min(ys)
            return Box(x0, y0, max(xs) - x0, max(ys) - y0).inset(-half)
        case Group():
            boxes = [b.transformed(t) for leaf, t in walk(item.items)
                     if (b := item_box(leaf)) is not None]
            return Box.union(boxes).transformed(item.transform) if boxes else None
    return None
