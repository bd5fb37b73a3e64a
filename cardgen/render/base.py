"""The one renderer base: a dispatcher over page items and a walker over path operations.

Every backend (PDF, SVG, PNG) is a :class:`Painter` that implements the primitives only:
``rect``, ``line``, ``path``, ``text``, ``image`` and ``group``. :meth:`Painter.draw` is
the only place that looks at an item's type, and :func:`walk_path` the only place that
decodes path operations; both raise TypeError for anything that is not part of the page
model, so no backend can skip an item silently.

``Ctx`` is whatever a backend passes down while drawing: the SVG element to add to, the
transform to pixels, or nothing for the PDF canvas, which keeps its own state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Generic, Protocol, TypeVar

from cardgen.draw.page import (
    Close,
    CurveTo,
    Group,
    Image,
    Item,
    Line,
    LineTo,
    MoveTo,
    Path,
    PathOp,
    Rect,
    Text,
)

Ctx = TypeVar("Ctx")


class PathSink(Protocol):
    """What :func:`walk_path` tells a backend, one call per path operation."""

    def move_to(self, x: float, y: float) -> None: ...

    def line_to(self, x: float, y: float) -> None: ...

    def curve_to(self, x1: float, y1: float, x2: float, y2: float, x: float,
                 y: float) -> None: ...

    def close(self) -> None: ...


def walk_path(ops: Iterable[PathOp], sink: PathSink) -> None:
    """Feed every operation of a path to ``sink``; TypeError on anything unknown."""
    move_to, line_to, curve_to = sink.move_to, sink.line_to, sink.curve_to
    for op in ops:  # (a chain of isinstance is several times faster than match)
        if isinstance(op, LineTo):
            line_to(op.x, op.y)
        elif isinstance(op, MoveTo):
            move_to(op.x, op.y)
        elif isinstance(op, CurveTo):
            curve_to(op.x1, op.y1, op.x2, op.y2, op.x, op.y)
        else:
            _walk_op(op, sink)


def _walk_op(op: PathOp, sink: PathSink) -> None:
    """One operation that is not a LineTo, MoveTo or CurveTo: a Close, or an error."""
    match op:
        case MoveTo(x, y):
            sink.move_to(x, y)
        case LineTo(x, y):
            sink.line_to(x, y)
        case CurveTo(x1, y1, x2, y2, x, y):
            sink.curve_to(x1, y1, x2, y2, x, y)
        case Close():
            sink.close()
        case _:
            raise TypeError(f"cannot draw the path operation {op!r}: not a MoveTo, "
                            "LineTo, CurveTo or Close")


class Painter(ABC, Generic[Ctx]):
    """A backend: primitives for each item type; drawing goes through :meth:`draw`."""

    def draw_all(self, items: Iterable[Item], ctx: Ctx) -> None:
        for item in items:
            self.draw(item, ctx)

    def draw(self, item: Item, ctx: Ctx) -> None:
        """Draw one item with the primitive for its type."""
        match item:
            case Rect():
                self.rect(item, ctx)
            case Line():
                self.line(item, ctx)
            case Path():
                self.path(item, ctx)
            case Text():
                self.text(item, ctx)
            case Image():
                self.image(item, ctx)
            case Group():
                self.group(item, ctx)
            case _:
                raise TypeError(f"cannot draw {type(item).__name__}: not an item of the "
                                "page model")

    @abstractmethod
    def rect(self, item: Rect, ctx: Ctx) -> None: ...

    @abstractmethod
    def line(self, item: Line, ctx: Ctx) -> None: ...

    @abstractmethod
    def path(self, item: Path, ctx: Ctx) -> None:
        """Draw a path; implementations decode it with :func:`walk_path`."""

    @abstractmethod
    def text(self, item: Text, ctx: Ctx) -> None: ...

    @abstractmethod
    def image(self, item: Image, ctx: Ctx) -> None: ...

    @abstractmethod
    def group(self, item: Group, ctx: Ctx) -> None:
        """Set up the group's transform and clip, then :meth:`draw_all` its items."""
