"""Renderers: translate a page description into PDF, SVG or PNG bytes. No layout happens
here.

:func:`render` is the entry point: a document in, the bytes of every requested file out.
The backends share one dispatcher and one path walker (``render.base``) and implement
drawing primitives only.

May import: ``cardgen.version`` (the version a PDF names as its creator), ``cardgen.draw``,
``cardgen.text``, ``cardgen.units``, ``cardgen.errors``; ``reportlab``, ``PIL``
(Pillow), ``svgwrite`` and ``fontTools``, inside the backends (so that importing this
package stays light).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cardgen.draw.page import PDFX_1A_2001, Document, FontRef, OutputIntent, Page, PdfStandard, View
from cardgen.errors import ParameterError, quoted

if TYPE_CHECKING:
    from cardgen.render.pdf import PdfWriter

Progress = Callable[[int, int], None]  # told (files made, files) as the files are made


class Format(enum.StrEnum):
    PDF = "pdf"
    SVG = "svg"
    PNG = "png"


@dataclass(frozen=True)
class Backend:
    """How one format is made: ``per_view`` backends make one file per view of a
    (preview) document, the others one file for the whole document; ``make`` takes the
    document or the view, and the options (``cmyk``, ``dpi``, ``fast``) it uses, and
    imports its libraries only when it is called."""

    per_view: bool
    make: Callable[..., bytes]


def _pdf(document: Document, *, cmyk: bool, dpi: float, fast: bool = False) -> bytes:
    from cardgen.render.pdf import render_pdf

    return render_pdf(document, cmyk=cmyk)


def _svg(view: View, *, cmyk: bool, dpi: float, fast: bool = False) -> bytes:
    from cardgen.render.svg import render_svg

    return render_svg(view)


def _png(view: View, *, cmyk: bool, dpi: float, fast: bool = False) -> bytes:
    from cardgen.render.png import FAST_ZLIB_LEVEL, ZLIB_LEVEL, render_png

    return render_png(view, dpi, level=FAST_ZLIB_LEVEL if fast else ZLIB_LEVEL)


BACKENDS: dict[Format, Backend] = {
    Format.PDF: Backend(per_view=False, make=_pdf),
    Format.SVG: Backend(per_view=True, make=_svg),
    Format.PNG: Backend(per_view=True, make=_png),
}


def backend(fmt: Format | str) -> Backend:
    """The backend registered for a format; a :class:`ParameterError` naming the
    formats there are for anything else."""
    try:
        return BACKENDS[Format(fmt)]
    except (ValueError, KeyError):
        known = ", ".join(str(f) for f in BACKENDS)
        raise ParameterError("format", f"must be one of {known}, not {quoted(fmt)}.",
                             value=fmt) from None


def render(document: Document, formats: Iterable[Format], *, cmyk: bool = True,
           dpi: float = 300, fast: bool = False,
           progress: Progress | None = None) -> dict[str, bytes]:
    """Every requested file of a document, in memory, keyed by the end of its file name:
    ``".pdf"`` for the whole document (all views as pages); for SVG and PNG one file per
    view, ``"-VIEW.svg"``, or just ``".svg"`` when the document has a single view. SVG,
    PNG and an RGB PDF (``cmyk=False``) are previews: they leave out print-only layers.
    Each format is made by its backend in :data:`BACKENDS`. ``fast`` compresses PNG files
    at zlib's fastest level (the same pixels in a larger file: a batch's previews).
    ``progress(files made, files)`` is told before the first file and after each."""
    wanted = {fmt: backend(fmt) for fmt in formats}
    views = document.views(preview=True)  # SVG and PNG files are previews
    whole = [fmt for fmt, made in BACKENDS.items() if fmt in wanted and not made.per_view]
    total = len(whole) + len(views) * (len(wanted) - len(whole))
    files: dict[str, bytes] = {}

    def made_one() -> None:
        if progress is not None:
            progress(len(files), total)

    made_one()
    for fmt in whole:  # whole documents first, in the table's order
        files[f".{fmt}"] = BACKENDS[fmt].make(document, cmyk=cmyk, dpi=dpi, fast=fast)
        made_one()
    for view in views:
        suffix = "" if len(views) == 1 else f"-{view.name}"
        for fmt, made in BACKENDS.items():
            if fmt in wanted and made.per_view:
                files[f"{suffix}.{fmt}"] = made.make(view, cmyk=cmyk, dpi=dpi, fast=fast)
                made_one()
    return files


def render_files(document: Document, stem: Path, formats: Iterable[Format], *,
                 cmyk: bool = True, dpi: float = 300, fast: bool = False,
                 progress: Progress | None = None) -> dict[Path, bytes]:
    """:func:`render`, with each file named after ``stem`` (a folder and a file name
    without its extension): ``output/card.pdf``, ``output/card-inside.svg`` …"""
    return {stem.with_name(stem.name + end): data for end, data in render(
        document, formats, cmyk=cmyk, dpi=dpi, fast=fast, progress=progress).items()}


@contextmanager
def pdf_pages(first: Page, *, title: str = "", subject: str = "",
              output_intent: OutputIntent | None = None,
              standard: PdfStandard = PDFX_1A_2001, faces: Collection[FontRef] = (),
              cmyk: bool = True) -> Iterator[PdfWriter]:
    """A PDF drawn a page at a time, for a document too large to hold at once (a batch
    of a thousand cards' sheets): ``writer.page(page)`` draws each page in order (the
    first is ``first``), after which the page may be dropped, and ``writer.close()``
    gives the bytes :func:`render` gives for a :class:`Document` of those pages, with
    this title, subject, output intent and standard. ``faces`` are the fonts the
    pages' texts use (see :class:`~cardgen.render.pdf.PdfWriter`)."""
    from cardgen.render.pdf import PdfWriter
    from cardgen.render.pdfcodec import fast_reportlab

    with fast_reportlab():
        yield PdfWriter(first, title=title, subject=subject, output_intent=output_intent,
                        standard=standard, faces=faces, cmyk=cmyk)
