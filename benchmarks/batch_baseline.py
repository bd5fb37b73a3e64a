"""Frozen copy of ``cardgen card --batch``'s making of files before its cards were
streamed (``cardgen/cli/card.py`` at commit 8bc96e6): every card laid out first
(``build_team``), then every file rendered into one dictionary in memory, written by
``write_set`` at the end. The baseline of benchmarks/bench_batch.py (memory and speed)
and of the tests that hold the streamed batch to the same bytes
(tests/test_team_previews.py, tests/test_api_batch.py). Not used to make anything for
users; do not change it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from cardgen.card.batch import TeamCard, assign_stems, build_team
from cardgen.draw.page import Document
from cardgen.output import OutputError, write_set
from cardgen.prepress.dieline import DielineMode
from cardgen.render import Format, render, render_files

DIELINE_STEM = "dieline"
VARNISH_STEM = "varnish"


def batch(table: Path, config: Path | None, output: Path, formats: Sequence[Format], *,
          dpi: float = 150, fast: bool = True, write: bool = True) -> dict[Path, bytes]:
    """``cardgen card --batch table config -o output`` as the command did it: every
    file in memory, then written as one set (unless not ``write``)."""
    cards = build_team(table, config, DielineMode.FILE)
    _, files, _ = team_files(cards, output, formats, cmyk=True, dpi=dpi, fast=fast)
    if write:
        write_set(files)
    return files


def team_files(cards: Sequence[TeamCard], output: Path, formats: Sequence[Format], *,
               cmyk: bool, dpi: float, fast: bool = True,
               step: Callable[[], None] | None = None,
               ) -> tuple[list[TeamCard], dict[Path, bytes], dict[str, list[Path]]]:
    """Every card's files (with ``--varnish file``, its ``-varnish.pdf`` too), and one
    dieline for each size among them (``dieline``, or ``dieline-85x55`` and so on when
    the cards have several sizes). The dielines' names are reserved before the people's
    stems are given (:func:`cardgen.card.batch.assign_stems`), so no card's file can
    take a dieline's name. PNG files are previews: at ``dpi``, compressed at zlib's
    fastest level unless ``fast`` is false (``render(fast=...)``). Returns the cards
    with their final stems, the files, and each stem's files. ``step()`` is called after
    each card is drawn."""
    from dataclasses import replace

    files: dict[Path, bytes] = {}
    dielines: dict[tuple[float, float], Document] = {}
    for card in cards:
        size = card.build.geometry.size
        if card.build.dieline is not None:
            dielines.setdefault((size.width, size.height), card.build.dieline)
    generated = [DIELINE_STEM]
    for (width, height), document in dielines.items():
        stem = DIELINE_STEM if len(dielines) == 1 else f"{DIELINE_STEM}-{width:g}x{height:g}"
        made = render_files(document, output / stem, formats, cmyk=cmyk, dpi=dpi, fast=fast)
        generated += [stem, *(path.name for path in made)]
        _add_files(files, made)
    rendered = []
    for card in cards:
        ends = render(card.build.document, formats, cmyk=cmyk, dpi=dpi, fast=fast)
        if card.build.varnish is not None:
            ends[f"-{VARNISH_STEM}.pdf"] = render(card.build.varnish, [Format.PDF],
                                                  cmyk=True, dpi=dpi)[".pdf"]
        rendered.append(ends)
        if step is not None:
            step()
    stems = assign_stems([card.person.config.person.name for card in cards],
                         [list(ends) for ends in rendered], generated)
    named: list[TeamCard] = []
    per_card: dict[str, list[Path]] = {}
    for card, stem, ends in zip(cards, stems, rendered, strict=True):
        made = {output / f"{stem}{end}": data for end, data in ends.items()}
        _add_files(files, made)
        named.append(TeamCard(replace(card.person, stem=stem), card.build))
        per_card[stem] = list(made)
    return named, files, per_card


def _add_files(files: dict[Path, bytes], made: dict[Path, bytes]) -> None:
    for path in made:
        if path in files:
            raise OutputError(f"cannot write {path}: two files of one set have that name; "
                              "nothing was written.", value=path)
    files |= made
