"""Renderers: translate a page description into PDF, SVG or PNG. No layout happens here."""

from __future__ import annotations

from pathlib import Path

from cardgen.page import Document


def render_files(document: Document, folder: Path, stem: str, formats: list[str], *,
                 cmyk: bool, dpi: float) -> dict[Path, bytes]:
    """All requested files of a document, in memory: PDF (all views as pages), one SVG
    and one PNG per view."""
    files: dict[Path, bytes] = {}
    if "pdf" in formats:
        from cardgen.render.pdf import render_pdf

        files[folder / f"{stem}.pdf"] = render_pdf(document, cmyk=cmyk)
    for view in document.views():
        if "svg" in formats:
            from cardgen.render.svg import render_svg

            files[folder / f"{stem}-{view.name}.svg"] = render_svg(view)
        if "png" in formats:
            from cardgen.render.png import png_bytes, render_png

            files[folder / f"{stem}-{view.name}.png"] = png_bytes(render_png(view, dpi), dpi)
    return files
