"""Renderers: translate a page description into PDF, SVG or PNG bytes. No layout happens
here.

:func:`render` is the entry point: a document in, the bytes of every requested file out.
The backends share one dispatcher and one path walker (``render.base``) and implement
drawing primitives only.

May import: ``cardgen`` (the version a PDF names as its creator), ``cardgen.draw``,
``cardgen.text``, ``cardgen.units``, ``cardgen.errors``; ``reportlab``, ``PIL``
(Pillow), ``svgwrite`` and ``fontTools``, inside the backends (so that importing this
package stays light).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from pathlib import Path

from cardgen.draw.page import Document


class Format(enum.StrEnum):
    PDF = "pdf"
    SVG = "svg"
    PNG = "png"


def render(document: Document, formats: Iterable[Format], *, cmyk: bool = True,
           dpi: float = 300) -> dict[str, bytes]:
    """Every requested file of a document, in memory, keyed by the end of its file name:
    ``".pdf"`` for the whole document (all views as pages); for SVG and PNG one file per
    view, ``"-VIEW.svg"``, or just ``".svg"`` when the document has a single view. SVG,
    PNG and an RGB PDF (``cmyk=False``) are previews: they leave out print-only layers."""
    wanted = set(formats)
    files: dict[str, bytes] = {}
    if Format.PDF in wanted:
        from cardgen.render.pdf import render_pdf

        files[".pdf"] = render_pdf(document, cmyk=cmyk)
    views = document.views(preview=True)  # SVG and PNG files are previews
    for view in views:
        suffix = "" if len(views) == 1 else f"-{view.name}"
        if Format.SVG in wanted:
            from cardgen.render.svg import render_svg

            files[f"{suffix}.svg"] = render_svg(view)
        if Format.PNG in wanted:
            from cardgen.render.png import render_png

            files[f"{suffix}.png"] = render_png(view, dpi)
    return files


def render_files(document: Document, stem: Path, formats: Iterable[Format], *,
                 cmyk: bool = True, dpi: float = 300) -> dict[Path, bytes]:
    """:func:`render`, with each file named after ``stem`` (a folder and a file name
    without its extension): ``output/card.pdf``, ``output/card-inside.svg`` …"""
    return {stem.with_name(stem.name + end): data
            for end, data in render(document, formats, cmyk=cmyk, dpi=dpi).items()}
