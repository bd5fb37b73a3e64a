"""Flowables and the one frame filler, after reportlab's platypus.

A **flowable** is a piece of text or drawing set in a column: it says how tall it is at a
width (:meth:`Flowable.measure`), how it splits to fit a height (:meth:`Flowable.split`),
how small a head it can leave at a frame's foot (:meth:`Flowable.least`) and draws itself
with its top-left corner at a point (:meth:`Flowable.draw`). Paragraphs, headings and
bullets are :class:`Lines`; figures, tables and captioned drawings are :class:`Solid`
(never split); :class:`CondBreak` turns to the next frame when too little of this one is
left. :func:`fill` sets flowables through frames, in order, and says where each went;
the caller draws them (on the layer and page of its choice).

Composition laws (restated and checked in ``tests/test_flowable.py``, the sheets' in
``tests/test_rules_sheet.py``):

- **Stacking.** In one frame, a flowable's top is the previous one's bottom plus the
  previous ``space_after`` plus its own ``space_before``; ``space_before`` is never added at
  a frame's top, where its box starts ``inset()`` below the top (0 on the descent rule, a
  cap height on the cap rule, see :class:`Baseline`). A flowable fits when its bottom,
  less its inset, is at or above the frame's bottom.
- **Baselines and boxes.** Two flowables on the cap rule in a row keep to one baseline
  grid (with ``baselines=True``, the sheets): the next first baseline is the last one
  plus its line height and the spaces, whatever their sizes. Everywhere else a
  flowable on the cap rule meets a box as it meets a frame's top: its first baseline is
  ``inset()`` below the room above it, and the room after it starts ``outset()`` above
  its ``end()`` (at its last line box's foot), so a figure or a table set after it
  starts ``space_before`` below that foot.
- **Splitting adds nothing.** ``head, tail = f.split(width, h)`` gives
  ``head.measure(width) + tail.measure(width) == f.measure(width)`` and
  ``head.measure(width) <= h``; the tail has no ``space_before`` (it opens a frame) and
  keeps the whole's ``space_after``; the head has none.
- **Widows and orphans are the paragraph's.** :meth:`Lines.split` never leaves fewer
  than ``orphans`` of a paragraph's first lines at a frame's foot nor fewer than
  ``widows`` last lines at the next frame's head: it returns ``None`` (move whole)
  instead. Only at a frame's top, where moving on cannot help, does the filler ask for a
  forced split (one line at least, the rules set aside); a flowable that never splits
  moves on from a frame's top once (the next frame may be taller), and is too tall when
  it does not fit at the next frame's top either.
- **Keep with next.** A flowable with ``keep_with_next`` (a heading) starts a frame
  rather than leave a frame without room for itself, the flowables kept with it and the
  least head of the one after (:meth:`Flowable.least`, plus its ``space_before``): a
  heading is never last in a frame unless it ends the text or it (with the headings
  before it) stands at the frame's top. With ``chain=False`` (the sheets) a heading
  reaches only the flowable right after it.
- **Floats.** A flowable with ``floats`` that does not fit waits for the top of the next
  frame while the flowables after it go on filling the current one; it does not float
  when it follows a heading (the heading keeps it).
- **Conditional breaks.** A :class:`CondBreak` (after platypus's ``CondPageBreak``) sets
  nothing; when less than its ``height`` is left below what is set in the frame, what
  follows it starts the next frame (not at a frame's top, nor at the end of the text).

Imports ``cardgen.draw``, ``cardgen.text`` and ``cardgen.errors``.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Anchor, Item, Text
from cardgen.errors import FitError, shorten
from cardgen.text.fit import Run, line_height
from cardgen.text.fonts import FontFace

EPSILON = 1e-6


class Flowable(Protocol):
    """A piece set in a column: measured, split, drawn, perhaps kept with the next."""

    @property
    def space_before(self) -> float:
        """Room (mm) above it in a frame, never at the frame's top."""

    @property
    def space_after(self) -> float:
        """Room (mm) below it."""

    @property
    def keep_with_next(self) -> bool:
        """A heading: it shares a frame with the least head of what follows."""

    @property
    def floats(self) -> bool:
        """When it does not fit, the flowables after it may pass it."""

    def measure(self, width: float) -> float:
        """How tall it is (mm) at ``width``."""

    def end(self, top: float, width: float) -> float:
        """Where the room after it begins when its top is at ``top``: ``top +
        measure(width) + space_after``, summed the way it is set (line by line), so
        that what follows sits exactly where it always has."""

    def inset(self) -> float:
        """How far below a frame's top its box starts when it opens the frame, and how far
        past the frame's bottom its box may end (its line boxes hang from its baselines:
        a cap height for :attr:`Baseline.CAP`, else 0)."""

    def outset(self) -> float:
        """How far below its box's foot its :meth:`end` is: for :attr:`Baseline.CAP`, a
        cap height of its last line (the end is the next baseline), else 0."""

    @property
    def what(self) -> str:
        """Its name in an error (the start of its text)."""

    def least(self, width: float) -> float:
        """How tall the smallest head it may leave at a frame's foot is (all of it when it
        never splits)."""

    def split(self, width: float, height: float, *, force: bool = False,
              ) -> tuple[Flowable, Flowable] | None:
        """A head no taller than ``height`` and the rest; None when no head may be left
        (``force``: at a frame's top, one line at least, rules set aside)."""

    def draw(self, x: float, y: float, width: float) -> Sequence[Item]:
        """Its items with its top-left corner at (x, y)."""


class Baseline(enum.Enum):
    """Where a line's baseline sits in its line box (``line_height`` tall): the one
    difference between the book's first-baseline rule and the sheet's."""

    # The box's bottom less the first run's descent; a frame's first line box starts at
    # the frame's top (the rules book).
    DESCENT = "descent"
    # The box hangs from the baseline; opening a frame, the first baseline is a cap height
    # below the frame's top (the tallest capitals touch it), and a line fits while its
    # capitals and the rest of its line height below them are in the frame (the
    # sheets, captions, tables and legends set with :func:`cardgen.text.flow.flow`).
    CAP = "cap"


@dataclass(frozen=True)
class Lines:
    """A paragraph wrapped to a width: lines of runs, set ``line_height(size)`` apart,
    each line's baseline by ``baseline`` in its box, indented by ``indent`` with a
    ``marker`` (a bullet) ``marker_at`` from the left edge beside its first line.
    ``first`` is False for the tail of a split paragraph (no marker, no orphan rule).
    ``tag`` is the caller's (a bookmark, say), carried with the paragraph's first line.
    ``align``: each line at the start of the width (the left), centred in it
    (``Anchor.MIDDLE``) or at its end; a line of one run is then one text item anchored
    there, a line of several runs starts where its width puts it."""

    lines: tuple[tuple[Run, ...], ...]
    size: float
    color: Color
    space_before: float = 0.0
    space_after: float = 0.0
    indent: float = 0.0
    marker: str = ""
    marker_face: FontFace | None = None
    marker_at: float = 0.0
    keep_with_next: bool = False
    orphans: int = 2
    widows: int = 2
    baseline: Baseline = Baseline.DESCENT
    first: bool = True
    tag: object = None
    align: Anchor = Anchor.START

    floats = False

    @property
    def line_height(self) -> float:
        return line_height(self.size)

    @property
    def what(self) -> str:
        return shorten("".join(text for text, _ in self.lines[0])) if self.lines else "''"

    def inset(self) -> float:
        if self.baseline is Baseline.CAP and self.lines:
            return self.lines[0][0][1].metrics.cap_height_mm(self.size)
        return 0.0

    def outset(self) -> float:
        if self.baseline is Baseline.CAP and self.lines:
            return self.lines[-1][0][1].metrics.cap_height_mm(self.size)
        return 0.0

    def ink_bottom(self, top: float) -> float:
        """Where its last line's descenders end when its box's top is at ``top``: the foot
        of its line boxes on the descent rule (each baseline sits a descent above its
        box's foot); on the cap rule, its last baseline (``inset()`` below the top, then a
        line height a line) plus that line's descent."""
        if self.baseline is not Baseline.CAP or not self.lines:
            return top + self.measure(0.0)
        baseline = top + self.inset()
        for _ in self.lines[1:]:
            baseline += self.line_height
        return baseline + self.lines[-1][0][1].metrics.descent_mm(self.size)

    def measure(self, width: float) -> float:
        return len(self.lines) * self.line_height

    def end(self, top: float, width: float) -> float:
        for _ in self.lines:
            top += self.line_height
        return top + self.space_after

    def least(self, width: float) -> float:
        n = len(self.lines)
        shown = n if n < self.orphans + self.widows else self.orphans
        return shown * self.line_height

    def split(self, width: float, height: float, *, force: bool = False,
              ) -> tuple[Lines, Lines] | None:
        n = len(self.lines)
        fit = max(0, math.floor((height + EPSILON) / self.line_height))
        take = min(fit, n)
        if take < n:
            if self.first and take < self.orphans:
                take = 0  # an orphan: the first lines alone at the foot
            elif n - take < self.widows:
                take = n - self.widows  # a widow: the last lines alone at the top
                if self.first and take < self.orphans:
                    take = 0
        if take <= 0 and force and fit > 0:
            take = min(fit, n)
        if take <= 0 or take >= n:
            return None
        head = replace(self, lines=self.lines[:take], space_after=0.0)
        tail = replace(self, lines=self.lines[take:], space_before=0.0, first=False,
                       tag=None)
        return head, tail

    def draw(self, x: float, y: float, width: float) -> list[Text]:
        items: list[Text] = []
        lh = self.line_height
        for index, line in enumerate(self.lines):
            face = line[0][1]
            baseline = (y if self.baseline is Baseline.CAP
                        else y + lh - face.metrics.descent_mm(self.size))
            if index == 0 and self.first and self.marker and self.marker_face is not None:
                items.append(Text(x + self.marker_at, baseline, self.marker,
                                  self.marker_face, self.size, self.color))
            items += self._line(line, x + self.indent, width - self.indent, baseline)
            y += lh
        return items

    def _line(self, line: tuple[Run, ...], x: float, width: float, baseline: float,
              ) -> list[Text]:
        """One line's runs from ``x`` in ``width``, by ``align``."""
        if self.align is not Anchor.START and len(line) == 1:
            [(text, face)] = line
            at = x + width / 2 if self.align is Anchor.MIDDLE else x + width
            return [Text(at, baseline, text, face, self.size, self.color, anchor=self.align)]
        if self.align is not Anchor.START:
            spare = width - sum(face.width(text, self.size) for text, face in line)
            x += spare / 2 if self.align is Anchor.MIDDLE else spare
        items = []
        for text, run_face in line:
            items.append(Text(x, baseline, text, run_face, self.size, self.color))
            x += run_face.width(text, self.size)
        return items


@dataclass(frozen=True)
class Solid:
    """A drawing never split (a figure with its caption, a table): ``height`` tall at the
    width it was made for, drawn by ``paint(x, y)``; ``what`` names it in errors."""

    height: float
    paint: Callable[[float, float], list[Item]]
    what: str
    space_before: float = 0.0
    space_after: float = 0.0
    floats: bool = False
    keep_with_next: bool = False

    def measure(self, width: float) -> float:
        return self.height

    def end(self, top: float, width: float) -> float:
        return top + (self.height + self.space_after)

    def least(self, width: float) -> float:
        return self.height

    def inset(self) -> float:
        return 0.0

    def outset(self) -> float:
        return 0.0

    def split(self, width: float, height: float, *, force: bool = False) -> None:
        return None

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return self.paint(x, y)


@dataclass(frozen=True)
class CondBreak:
    """A conditional frame break (platypus's ``CondPageBreak``): when less than ``height``
    is left in the frame below what is set, what follows starts the next frame. It sets
    nothing and :func:`fill` never places it."""

    height: float

    space_before = 0.0
    space_after = 0.0
    keep_with_next = False
    floats = False
    what = "a frame break"

    def measure(self, width: float) -> float:
        return 0.0

    def end(self, top: float, width: float) -> float:
        return top

    def least(self, width: float) -> float:
        return 0.0

    def inset(self) -> float:
        return 0.0

    def outset(self) -> float:
        return 0.0

    def split(self, width: float, height: float, *, force: bool = False) -> None:
        return None

    def draw(self, x: float, y: float, width: float) -> list[Item]:
        return []


@dataclass(frozen=True)
class Placed:
    """Where :func:`fill` set a flowable (or a part of one): in frame ``frame`` (the
    index in the order the frames came), its top-left corner at (x, y)."""

    frame: int
    flowable: Flowable
    x: float
    y: float


@dataclass(frozen=True)
class Filled:
    """What :func:`fill` did: the placements in order, the frames used, and where the
    last frame's room begins (``at_top``: nothing is set in it yet)."""

    placed: list[Placed]
    frames: int
    y: float
    at_top: bool


def fill(flowables: Sequence[Flowable], frames: Iterator[Box], *, width: float,
         where: str = "text", chain: bool = True, baselines: bool = True,
         epsilon: float = EPSILON) -> Filled:
    """Set ``flowables`` through ``frames`` (all ``width`` wide), by the laws in the
    module's docstring. ``chain``: headings in a row are kept together with the least
    head of what follows them (the book); else a heading keeps only the least head of
    the flowable right after it (the sheets). ``baselines``: flowables on the cap rule in
    a row keep to one baseline grid (the sheets' paragraphs); else each starts under the
    line boxes of the one before (captions of mixed sizes). A flowable fits when it ends
    no more than ``epsilon`` below its frame. FitError naming ``where`` when the frames
    run out or a flowable is taller than its frame."""
    state = _Filler(frames, width, where, chain, baselines, epsilon)
    for i, flowable in enumerate(flowables):
        if isinstance(flowable, CondBreak):
            if i + 1 < len(flowables):
                state.cond_break(flowable.height)
            continue
        if flowable.keep_with_next:
            state.keep(flowables, i)
        after_heading = i > 0 and flowables[i - 1].keep_with_next
        state.place(flowable, float_ok=not after_heading)
    while state.waiting:
        state.new_frame()
    return Filled(state.placed, state.index + 1, state.y, state.at_top)


class _Filler:
    def __init__(self, frames: Iterator[Box], width: float, where: str, chain: bool,
                 baselines: bool, epsilon: float) -> None:
        self.frames, self.width, self.where = frames, width, where
        self.chain, self.baselines, self.epsilon = chain, baselines, epsilon
        self.outset = 0.0  # of the flowable set last in the frame (see Flowable.outset)
        self.current: Flowable | None = None  # being placed: named when frames run out
        first = next(frames, None)
        if first is None:
            raise FitError(f"{where}: there is no frame to set the text in.")
        self.frame, self.index = first, 0
        self.y, self.at_top = first.y, True
        self.placed: list[Placed] = []
        self.waiting: list[Flowable] = []

    def new_frame(self) -> None:
        frame = next(self.frames, None)
        if frame is None:
            n = self.index + 1
            at = f"; it runs out at {self.current.what}" if self.current is not None else ""
            raise FitError(f"{self.where} does not fit: it needs more room than its {n} "
                           f"frame{'' if n == 1 else 's'}{at}.")
        self.frame, self.index = frame, self.index + 1
        self.y, self.at_top, self.outset = frame.y, True, 0.0
        waiting, self.waiting = self.waiting, []
        for flowable in waiting:
            self.place(flowable, float_ok=True)

    def keep(self, flowables: Sequence[Flowable], i: int) -> None:
        """Turn frames until the heading at ``i``, the headings after it and the least
        head of what follows them fit (or the heading stands at a frame's top)."""
        f = flowables[i]
        need = f.measure(self.width) + f.space_before + f.space_after
        k = i + 1
        while self.chain and k < len(flowables) and flowables[k].keep_with_next:
            f = flowables[k]
            need += f.space_before + f.measure(self.width) + f.space_after
            k += 1
        if k < len(flowables):
            nxt = flowables[k]
            need += (self._offset(f.outset(), nxt) + nxt.space_before
                     + nxt.least(self.width))
        while (self._cursor(flowables[i]) + need - f.inset()
               > self.frame.bottom + self.epsilon and not self.at_top):
            self.current = flowables[i]
            self.new_frame()

    def _offset(self, outset: float, flowable: Flowable) -> float:
        """From the end of a flowable with ``outset`` to where ``flowable`` (less its
        space_before) starts: nothing on one baseline grid, else from box to box."""
        inset = flowable.inset()
        if self.baselines and outset and inset:
            return 0.0
        return inset - outset

    def _cursor(self, flowable: Flowable) -> float:
        """Where ``flowable``, less its space_before, would start in the room left."""
        return self.y + self._offset(self.outset, flowable)

    def cond_break(self, height: float) -> None:
        """Turn to the next frame when less than ``height`` is left below what is set."""
        if not self.at_top and self.frame.bottom - (self.y - self.outset) < height:
            self.new_frame()

    def place(self, flowable: Flowable, *, float_ok: bool) -> None:
        moved_from_top = False
        while True:
            self.current = flowable
            inset = flowable.inset()
            top = (self.frame.y + inset if self.at_top
                   else self._cursor(flowable) + flowable.space_before)
            height = flowable.measure(self.width)
            if top + height - inset <= self.frame.bottom + self.epsilon:
                self._put(flowable, top)
                return
            room = self.frame.bottom - top + inset
            parts = flowable.split(self.width, room)
            if parts is None and self.at_top:
                parts = flowable.split(self.width, room, force=True)
                too_tall = FitError(f"{self.where}: {flowable.what} is taller than its "
                                    f"frame ({height:.1f} mm; the frame holds "
                                    f"{self.frame.h:.1f} mm).")
                whole = flowable.least(self.width) >= height  # no smaller head to leave
                if parts is None and (moved_from_top or not whole):
                    raise too_tall
                if parts is None:  # it never splits: the next frame may be taller
                    moved_from_top = True
                    try:
                        self.new_frame()
                    except FitError:
                        raise too_tall from None
                    continue
            if parts is None:
                if flowable.floats and float_ok:
                    self.waiting.append(flowable)
                    return
                self.new_frame()
                continue
            head, flowable = parts
            self._put(head, top)
            self.new_frame()

    def _put(self, flowable: Flowable, top: float) -> None:
        self.placed.append(Placed(self.index, flowable, self.frame.x, top))
        self.y = flowable.end(top, self.width)
        self.at_top, self.outset = False, flowable.outset()

