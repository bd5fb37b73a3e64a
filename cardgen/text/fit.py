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
# A run with its advance in font units (of its own face's metrics).
_Measured = tuple[str, FontFace, int]


def wrap_runs(runs: Sequence[Run], size: float, width: float) -> list[list[Run]] | None:
    """Greedy word wrap of text set in several faces (bold words in a regular
    paragraph): each line as its runs, neighbours in one face merged, a space between
    words set in the face of the word before it. A word may change face in its middle.
    None if a single word is wider than ``width``.

    Text is measured by runs, as :func:`wrap` does: each word piece once, a trial line's
    runs carrying their advance in font units (a whole number: the sum of their pieces'
    units is exactly the units of their text), and a line's width the sum, run by run in
    order, of the widths of those units, exactly as measuring each run's text gives."""
    words: list[list[_Measured]] = []
    in_word = False
    for text, face in runs:
        for part in re.split(r"(\s+)", text):
            if not part:
                continue
            if part.isspace():
                in_word = False
            elif in_word:
                words[-1].append((part, face, face.metrics.units(part)))
            else:
                words.append([(part, face, face.metrics.units(part))])
                in_word = True

    def measure(pieces: Sequence[_Measured]) -> float:
        return sum(face.metrics.units_width(units, size) for _, face, units in pieces)

    def joined(line: list[_Measured], word: list[_Measured]) -> list[_Measured]:
        out = list(line)
        if out:
            text, face, units = out[-1]
            out[-1] = (text + " ", face, units + face.metrics.units(" "))
        for text, face, units in word:
            if out and out[-1][1] == face:
                last_text, last_face, last_units = out[-1]
                if last_face.metrics is not face.metrics:  # (equal faces, other metrics)
                    units = last_face.metrics.units(text)
                out[-1] = (last_text + text, last_face, last_units + units)
            else:
                out.append((text, face, units))
        return out

    lines: list[list[_Measured]] = []
    current: list[_Measured] = []
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
    return [[(text, face) for text, face, _ in line] for line in lines]


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
