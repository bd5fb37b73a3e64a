"""Many people's cards from one table: read the people, then make their cards one at a
time (in worker processes if asked), or impose them all on duplex sheets.

The table is the one ``cardgen card --batch`` reads (docs/team.md): a row per person,
columns named like config keys, over a config that gives what the rows share.
:func:`read_people` checks every row at once; :func:`make_cards` yields each person's
files and report in the table's order, as soon as they are made, so that a batch of a
thousand people never holds more than a few cards in memory (stage them on disk as
they come: :func:`cardgen.staged_set`, or a task queue's own storage);
:func:`make_dielines` gives the files the batch makes for all its cards (a dieline per
card size). :func:`make_sheets` puts every card on sheets for an office printer.

The bytes do not depend on ``jobs``, nor on the process that makes them: a card made by
``make_cards`` with four workers, by a ``ProcessPoolExecutor`` calling
:func:`make_cards` for one person, or by ``cardgen card --batch`` are the same bytes. ::

    people = read_people(Path("people.csv"), Path("studio.toml"))
    shared = make_dielines(people, formats=["pdf"])
    for item in make_cards(people, formats=["pdf"], jobs=4):
        print(item.line, item.stem, list(item.files))
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from multiprocessing import get_context
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api import common
from cardgen.api.common import DPI_RANGE, choice, file_stem, format_list, in_range
from cardgen.api.files import Files
from cardgen.errors import CardgenError, ConfigError, ParameterError, shorten
from cardgen.output import StagedSet as StagedSet  # (a batch's files, staged on disk)
from cardgen.output import staged_set as staged_set

if TYPE_CHECKING:
    from cardgen.card.batch import Person
    from cardgen.card.build import LadderCard
    from cardgen.draw.page import FontRef, OutputIntent, Page
    from cardgen.physical.card import CardSize, Preset
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.impose import Duplex, Piece, SheetLayout
    from cardgen.prepress.varnish import VarnishMode
    from cardgen.render import Format
    from cardgen.render.pdf import PdfWriter

DIELINE_STEM = "dieline"  # a batch's dieline, shared by its cards
VARNISH_STEM = "varnish"  # NAME-varnish.pdf, with varnish="file"
DEFAULT_FORMATS = ("pdf", "svg", "png")


@dataclass(frozen=True)
class People(Sequence["Person"]):
    """The people of a table, checked, in the table's order (a sequence of
    :class:`~cardgen.card.batch.Person`: each row's line, card config and file stem),
    and the name the table is known by in error messages."""

    persons: tuple[Person, ...]
    label: str = "the people"
    problems: tuple[str, ...] = ()  # read_people(partial=True): the rows left out

    def __getitem__(self, index: Any) -> Any:
        return self.persons[index]

    def __len__(self) -> int:
        return len(self.persons)


@dataclass(frozen=True)
class CardItem:
    """One person's card: the row's line, the person's name, the stem of the files
    (``robin-vale``; numbered where two people's names give one stem), the files by name
    (``robin-vale.pdf``, ``robin-vale-outside.png`` …), the card's warnings and its
    Corporate Ladder card."""

    line: int
    name: str
    stem: str
    files: Files
    warnings: tuple[str, ...] = ()
    ladder: LadderCard | None = None


@dataclass(frozen=True)
class SheetBatch:
    """Every person's card imposed on duplex sheets: the PDF (``files``), the number of
    cards and sheets, how many fit a sheet (``columns`` × ``rows``, ``turned`` when the
    cards lie sideways) and the cards' warnings, each said once with its rows."""

    files: Files
    cards: int
    sheets: int
    per_sheet: int
    columns: int
    rows: int
    turned: bool
    warnings: tuple[str, ...] = ()


# --- the inputs ---------------------------------------------------------------------------


def usable_jobs(asked: int | None) -> tuple[int, bool]:
    """The worker processes a batch uses for ``asked``: one when None, else as
    :func:`cardgen.api.common.usable_jobs` says (never more than the CPUs this process
    may use, and whether ``asked`` was cut down to them).

    Raises:
        ParameterError: ``asked`` is not a whole number, or less than 1 (``jobs``).
    """
    return common.usable_jobs(asked, 1)


def _jobs(jobs: int) -> int:
    """``jobs`` checked as :func:`usable_jobs` checks it, not cut down (the workers
    never outnumber the cards)."""
    common.usable_jobs(jobs)
    return jobs


def read_people(table: Path | str | Sequence[Mapping[str, object]],
                config: Path | str | Mapping[str, Any] | None = None, *,
                partial: bool = False) -> People:
    """Every row of a people table as a checked card config over a shared config.

    Args:
        table: a CSV file (a :class:`~pathlib.Path`), CSV text (a ``str``) or the rows
            as mappings from column name to cell (``[{"person.name": "Robin Vale"}]``;
            row *i* counts as line *i* + 2, under a header). Paths in cells are
            relative to the CSV file's folder (else the working folder).
        config: what the rows share: a config file (a ``Path``), TOML text (a ``str``),
            the TOML as a mapping, or None (every key from the rows, the defaults
            otherwise).
        partial: keep the bad rows' problems in ``People.problems`` instead of raising
            them; :func:`make_cards` and :func:`make_sheets` then only lay the other
            cards out, to name every bad row at once, and raise them all.

    Returns:
        The people, in the table's order.

    Raises:
        cardgen.card.batch.BatchError: one or more bad rows, every one named by its line
            and column (each problem keeps its ``ConfigProblem`` code).
        cardgen.errors.ConfigError: a config that breaks the rules on its own.

    Example::

        people = read_people([{"person.name": "Robin Vale", "title": "Artist"}])
    """
    from cardgen.card.batch import MAX_PEOPLE, batch_error, people_of
    from cardgen.card.config import read_config_values
    from cardgen.datafile import CsvRow, CsvTable, parse_csv, path_text, read_table

    if isinstance(table, Path):
        label = path_text(table)
        csv = read_table(table, "people file", label, max_rows=MAX_PEOPLE, partial=True)
        base = table.resolve().parent
    elif isinstance(table, str):
        label = "the people"
        csv = parse_csv(table, label, max_rows=MAX_PEOPLE, partial=True)
        base = Path.cwd()
    else:
        label = "the people"
        rows = list(table)
        if len(rows) > MAX_PEOPLE:
            raise ParameterError("table", f"has {len(rows)} rows; a batch takes at most "
                                 f"{MAX_PEOPLE}.", value=len(rows))
        names: dict[str, None] = {}
        for row in rows:
            names.update(dict.fromkeys(str(column).strip() for column in row))
        csv = CsvTable(tuple(names), tuple(
            CsvRow(i + 2, {column: "" if (cell := _cell(row, column)) is None else str(cell)
                           for column in names}) for i, row in enumerate(rows)))
        base = Path.cwd()
    shared: dict[str, Any] = {}
    source: Path | None = None
    config_label: str | None = None
    if isinstance(config, Path):
        shared, source, config_label = (read_config_values(config), config.resolve(),
                                        path_text(config))
    elif isinstance(config, str):
        try:
            shared = tomllib.loads(config)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError("the config", [f"not valid TOML ({exc})."]) from None
        config_label = "the config"
    elif config is not None:
        shared, config_label = _plain(config), "the config"
    persons, problems = people_of(csv, label, base, shared, source, config_label)
    if problems and not partial:
        raise batch_error(label, problems)
    return People(tuple(persons), label, tuple(problems))


def _cell(row: Mapping[str, object], column: str) -> object:
    for key, value in row.items():
        if str(key).strip() == column:
            return value
    return None


def _plain(values: Mapping[str, Any]) -> dict[str, Any]:
    return {str(k): _plain(v) if isinstance(v, Mapping) else v for k, v in values.items()}


def _people(people: People | Sequence[Person]) -> People:
    return people if isinstance(people, People) else People(tuple(people))


# --- the cards ------------------------------------------------------------------------


@dataclass(frozen=True)
class _Job:
    """What every card of a batch shares: the settings applied to each row, and how its
    files are made. Plain values, so that a worker process can be handed it."""

    formats: tuple[Format, ...]
    dieline: DielineMode
    preset: Preset | None
    theme: str | None
    marks: bool | None
    output_intent: OutputIntent | None
    varnish: VarnishMode | None
    cmyk: bool
    dpi: float
    fast: bool
    render: bool = True  # False: the batch has failed already; lay the cards out only

    def settings(self, person: Person) -> Any:
        return person.config.with_overrides(preset=self.preset, theme=self.theme,
                                            marks=self.marks,
                                            output_intent=self.output_intent)


@dataclass(frozen=True)
class _Made:
    """A card as a worker sends it back: its files by end of name (``.pdf``,
    ``-outside.png``), warnings and Ladder card, or the row's problem."""

    ends: dict[str, bytes]
    warnings: tuple[str, ...] = ()
    ladder: LadderCard | None = None
    problem: str | None = None


def _make_one(job: _Job, people: People, failed: Any, index: int) -> _Made:
    """One person's card, laid out and rendered (in a worker, or here); only laid out
    once ``failed.value`` says that a card before it could not be made."""
    from cardgen.card.build import build_card
    from cardgen.render import Format, render

    person = people[index]
    try:
        build = build_card(job.settings(person), job.dieline, varnish=job.varnish)
    except CardgenError as exc:
        return _Made({}, problem=f"line {person.line} ({shorten(person.config.person.name)})"
                     f": {exc}")
    if not job.render or failed.value:
        return _Made({}, tuple(build.warnings), build.ladder)
    ends = render(build.document, job.formats, cmyk=job.cmyk, dpi=job.dpi, fast=job.fast)
    if build.varnish is not None:
        ends[f"-{VARNISH_STEM}.pdf"] = render(build.varnish, [Format.PDF], cmyk=True,
                                              dpi=job.dpi)[".pdf"]
    return _Made(ends, tuple(build.warnings), build.ladder)


def _job(formats: Iterable[Format | str] | str, dieline: DielineMode | str,
         preset: Preset | str | None, theme: str | None, marks: bool | None,
         output_intent: OutputIntent | str | None, varnish: VarnishMode | str | None,
         rgb: bool, dpi: float | None, fast: bool) -> _Job:
    from cardgen.api.card import printing_condition
    from cardgen.card.batch import PREVIEW_DPI
    from cardgen.physical.card import Preset
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.varnish import VarnishMode

    chosen = format_list(formats)
    if dpi is not None:
        in_range(dpi, "dpi", *DPI_RANGE)
    return _Job(tuple(chosen), choice(DielineMode, dieline, "dieline"),
                None if preset is None else choice(Preset, preset, "preset"), theme, marks,
                None if output_intent is None else printing_condition(output_intent),
                None if varnish is None else choice(VarnishMode, varnish, "varnish"),
                not rgb, PREVIEW_DPI if dpi is None else dpi, fast)


def _sizes(job: _Job, people: People) -> list[tuple[tuple[float, float], list[int]]]:
    """Each card size among the people, in the order they first come, with its rows
    (indices)."""
    sizes: dict[tuple[float, float], list[int]] = {}
    for index, person in enumerate(people):
        size = job.settings(person).size
        sizes.setdefault((size.width, size.height), []).append(index)
    return list(sizes.items())


def _dieline_stem(size: tuple[float, float], count: int) -> str:
    width, height = size
    return DIELINE_STEM if count == 1 else f"{DIELINE_STEM}-{width:g}x{height:g}"


def _reserved(job: _Job, people: People) -> list[str]:
    """The names the batch makes for all (the dielines' stems and files), taken before
    any person's stem is given."""
    from cardgen.prepress.dieline import DielineMode

    reserved = [DIELINE_STEM]
    if job.dieline is DielineMode.FILE:
        sizes = _sizes(job, people)
        for size, _ in sizes:
            stem = _dieline_stem(size, len(sizes))
            # A dieline is one view: its files are the stem and each format's extension.
            reserved += [stem, *(f"{stem}.{fmt.value}" for fmt in job.formats)]
    return reserved


def make_dielines(people: People | Sequence[Person], *,
                  formats: Iterable[Format | str] | str = DEFAULT_FORMATS,
                  dieline: DielineMode | str = "file", preset: Preset | str | None = None,
                  theme: str | None = None, marks: bool | None = None,
                  output_intent: OutputIntent | str | None = None, rgb: bool = False,
                  dpi: float | None = None) -> Files:
    """The files a batch makes for all its cards: the dieline (the cut and score lines)
    of each card size among the people, ``dieline.pdf`` … or, with several sizes,
    ``dieline-85x55.pdf`` …; none with ``dieline="layer"``. Each is the first card's of
    its size, as ``cardgen card --batch`` writes it. The arguments are
    :func:`make_cards`'s.

    Returns:
        The files by name (empty when the dielines are layers of the cards).

    Raises:
        cardgen.errors.ParameterError: a bad argument, named.

    Example::

        make_dielines(people, formats="pdf")  # Files({'dieline.pdf': …})
    """
    from cardgen.card.build import build_card
    from cardgen.prepress.dieline import DielineMode
    from cardgen.render import render

    group = _people(people)
    job = _job(formats, dieline, preset, theme, marks, output_intent, None, rgb, dpi, True)
    if job.dieline is not DielineMode.FILE:
        return Files()
    made: dict[str, bytes] = {}
    sizes = _sizes(job, group)
    for size, rows in sizes:
        for index in rows:  # the first card of the size that can be made
            try:
                build = build_card(job.settings(group[index]), job.dieline)
            except CardgenError:
                continue  # (make_cards names the row)
            if build.dieline is not None:
                stem = _dieline_stem(size, len(sizes))
                made |= {stem + end: data for end, data in render(
                    build.dieline, job.formats, cmyk=job.cmyk, dpi=job.dpi,
                    fast=job.fast).items()}
            break
    return Files(made)


def make_cards(people: People | Sequence[Person], *,
               formats: Iterable[Format | str] | str = DEFAULT_FORMATS,
               dieline: DielineMode | str = "file", preset: Preset | str | None = None,
               theme: str | None = None, marks: bool | None = None,
               output_intent: OutputIntent | str | None = None,
               varnish: VarnishMode | str | None = None, rgb: bool = False,
               dpi: float | None = None, fast: bool = True, jobs: int = 1,
               rows: Iterable[int] | None = None) -> Iterator[CardItem]:
    """Each person's card, one at a time, in the table's order: the card laid out with
    the settings given applied to every row, and rendered.

    Args:
        people: from :func:`read_people` (or a sequence of its people).
        formats: ``"pdf"``, ``"svg"``, ``"png"`` (or :class:`~cardgen.render.Format`
            members), a sequence or comma-separated.
        dieline: ``"file"`` (the dielines are :func:`make_dielines`'s files) or
            ``"layer"`` (a spot layer of each card).
        preset: the size, applied to every row (None: the row's own).
        theme: the theme, applied to every row (None: the row's own).
        marks: crop and fold marks, for every row (None: the row's own).
        output_intent: the printing condition, for every row (None: the row's own).
        varnish: ``"layer"`` or ``"file"`` (``STEM-varnish.pdf``), or None.
        rgb: screen previews instead of print files.
        dpi: the PNGs' resolution (default 150: a batch's PNGs are previews).
        fast: PNGs compressed at zlib's fastest level (the same pixels).
        jobs: worker processes that make cards side by side (1: in this process). The
            bytes and the order do not depend on it; memory holds at most about twice
            ``jobs`` cards' files at once.
        rows: only these people's cards (indexes into ``people``), named as the whole
            batch names them (the second "Sam Reed" is ``sam-reed-2`` even when made
            alone): what a task queue's job for one person asks for. None: every card.

    Yields:
        A :class:`CardItem` per person whose card can be made, as soon as it and every
        card before it are made; close the generator to stop (the workers stop too).

    Raises:
        cardgen.card.batch.BatchError: after the last card, when some rows' cards cannot
            be made (a missing image, text too long for the card): every such row, by
            line. Write nothing from a batch that raises it.
        cardgen.errors.ParameterError: a bad argument, named.
        cardgen.games.rotator.workers.WorkerError: a worker process died (a fault of
            the run).

    Example::

        for item in make_cards(people, formats="pdf", jobs=2):
            item.files.write("out")  # (or stage them, and commit the whole batch)
    """
    group = _people(people)
    job = _job(formats, dieline, preset, theme, marks, output_intent, varnish, rgb, dpi,
               fast)
    if group.problems:
        job = replace(job, render=False)
    if rows is not None:
        given = (list(rows) if isinstance(rows, Iterable) and not isinstance(rows, str | bytes)
                 else None)
        if given is None or any(isinstance(i, bool) or not isinstance(i, int)
                                or not 0 <= i < len(group) for i in given):
            raise ParameterError("rows", f"must be indexes of the people, from 0 to "
                                 f"{len(group) - 1}.", value=rows)
        chosen = sorted(set(given))
        return _some_cards(group, job, _jobs(jobs), chosen)
    return _cards(group, job, _jobs(jobs))


def _some_cards(people: People, job: _Job, jobs: int, chosen: list[int]
                ) -> Iterator[CardItem]:
    """The chosen people's cards, named as in the whole batch: a stem depends on the
    names before it and on the ends of their files, which are the same for every card
    of a batch (its formats and varnish), so the chosen cards' ends stand for all."""
    from cardgen.card.batch import Stems, batch_error
    from cardgen.games.rotator.workers import ordered_stream

    failed = get_context().RawValue("b", 0)
    made = dict(zip(chosen, ordered_stream(
        partial(_make_one, job, people, failed), chosen, jobs,
        what=lambda i: f"making line {people[i].line}'s card",
        name="cardgen-card-worker"), strict=True))
    problems = [*people.problems, *(card.problem for card in made.values()
                                    if card.problem is not None)]
    if problems:
        raise batch_error(people.label, _by_line(problems))
    ends = {tuple(card.ends) for card in made.values()}
    assert len(ends) <= 1, ends  # (every card of a batch has the same files)
    stems = Stems(_reserved(job, people))
    for index, person in enumerate(people):
        name = person.config.person.name
        stem = stems.take(name, list(next(iter(ends), ())))
        if index in made:
            card = made[index]
            yield CardItem(person.line, name, stem,
                           Files((stem + end, data) for end, data in card.ends.items()),
                           card.warnings, card.ladder)


def _cards(people: People, job: _Job, jobs: int) -> Iterator[CardItem]:
    from cardgen.card.batch import Stems, batch_error
    from cardgen.games.rotator.workers import ordered_stream

    stems = Stems(_reserved(job, people))
    problems: list[str] = list(people.problems)
    # Set when a row fails: the batch will raise, so its other cards are only laid out
    # (to name every bad row). Shared memory, that the workers inherit.
    failed = get_context().RawValue("b", 0)
    made = ordered_stream(partial(_make_one, job, people, failed), range(len(people)), jobs,
                          what=lambda i: f"making line {people[i].line}'s card",
                          name="cardgen-card-worker")
    try:
        for index, card in enumerate(made):
            person = people[index]
            if card.problem is not None:
                problems.append(card.problem)
                failed.value = 1
            if problems:
                continue  # (the batch fails: nothing more to give)
            name = person.config.person.name
            stem = stems.take(name, list(card.ends))
            yield CardItem(person.line, name, stem,
                           Files((stem + end, data) for end, data in card.ends.items()),
                           card.warnings, card.ladder)
    finally:
        made.close()
    if problems:
        raise batch_error(people.label, _by_line(problems))


def _by_line(problems: list[str]) -> list[str]:
    from cardgen.datafile import line_of

    return sorted(problems, key=line_of)


def batch_warnings(items: Iterable[CardItem]) -> list[str]:
    """The cards' warnings, each said once with the rows it concerns ("line 4 (Sam
    Reed): …", or "lines 2-40, 42 (40 cards): …" when a shared logo is too soft)."""
    rows: dict[str, list[CardItem]] = {}
    for item in items:
        for message in item.warnings:
            rows.setdefault(message, []).append(item)
    said = []
    for message, concerned in rows.items():
        if len(concerned) == 1:
            said.append(f"line {concerned[0].line} ({concerned[0].name}): {message}")
        else:
            said.append(f"lines {_ranges([c.line for c in concerned])} "
                        f"({len(concerned)} cards): {message}")
    return said


def _ranges(numbers: Sequence[int]) -> str:
    """2, 3, 4, 7 -> "2-4, 7"."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)


# --- sheets ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Laid:
    """A card laid out for a sheet, as a worker sends it back."""

    line: int
    size: CardSize | None
    sides: tuple[Page, Page] | None
    intent: OutputIntent | None
    warnings: tuple[str, ...] = ()
    problem: str | None = None


def _lay_one(job: _Job, people: People, index: int) -> _Laid:
    from cardgen.card.build import build_card

    person = people[index]
    try:
        build = build_card(job.settings(person), job.dieline)
    except CardgenError as exc:
        return _Laid(person.line, None, None, None, problem=f"line {person.line} "
                     f"({shorten(person.config.person.name)}): {exc}")
    outside, inside = build.document.pages
    return _Laid(person.line, build.geometry.size, (outside, inside),
                 build.document.output_intent, tuple(build.warnings))


def make_sheets(people: People | Sequence[Person], *, paper: Any = "a4",
                flip: Any = "long", offset: tuple[float, float] = (0.0, 0.0),
                margin: float = 5.0, marks: bool = True, preset: Preset | str | None = None,
                theme: str | None = None, output_intent: OutputIntent | str | None = None,
                rgb: bool = False, name: str = "sheet", jobs: int = 1) -> SheetBatch:
    """Every person's card once, in the table's order, each inside behind its own
    outside, imposed N-up on as many duplex sheets as they need (``cardgen sheet
    --batch``): one PDF for an office printer.

    Args:
        people: from :func:`read_people`.
        paper: ``"a4"`` or ``"letter"``; flip: the edge the printer turns the paper
            over (``"long"``, ``"short"``); offset: side 2 moved (mm right, down);
            margin: the printer's unprintable margin (mm).
        marks: crop and fold marks around each card.
        preset: the size, applied to every row.
        theme: the theme, applied to every row.
        output_intent: the printing condition, applied to every row.
        rgb: a screen preview instead of a print file.
        name: the file's stem (``sheet.pdf``).
        jobs: worker processes that lay the cards out side by side (the sheets are
            one PDF, drawn here); the bytes do not depend on it. Each sheet is imposed
            as soon as its cards are laid out, drawn and dropped: memory holds a sheet's
            cards (and the PDF), not every card.

    Returns:
        The PDF and the figures of the sheets.

    Raises:
        cardgen.card.batch.BatchError: rows whose card cannot be made, every one.
        cardgen.errors.CardgenError: rows of different sizes or printing conditions.
        cardgen.errors.ParameterError: a bad argument, named.

    Example::

        batch = make_sheets(people, paper="letter")
        batch.files.write("out")  # out/sheet.pdf
    """
    from cardgen.prepress.impose import Duplex, Flip
    from cardgen.prepress.paper import Paper

    group = _people(people)
    file_stem(name)
    duplex = Duplex(choice(Paper, paper, "paper"), choice(Flip, flip, "flip"),
                    offset, margin)
    job = _job("pdf", "file", preset, theme, False, output_intent, None, rgb, None, False)
    sheets = _Sheets(group, job, duplex, marks, rgb, _jobs(jobs))
    made = sheets.make()
    if made.pdf is None:  # a later sheet's font comes first in the file: all again
        made = sheets.make(made.faces)
    assert made.pdf is not None and made.layout is not None
    layout = made.layout
    return SheetBatch(Files({f"{name}.pdf": made.pdf}), len(group),
                      -(-len(group) // layout.count), layout.count, layout.columns,
                      layout.rows, layout.rotated, tuple(batch_warnings(made.items)))


@dataclass(frozen=True)
class _SheetsMade:
    """One pass over a sheet batch: the PDF (None when the font its first sheet chose
    to come first is not the file's: then ``faces`` holds every face its pages use),
    the sheet's layout and the cards' warnings (as items without files)."""

    pdf: bytes | None
    faces: frozenset[FontRef]
    layout: SheetLayout | None
    items: list[CardItem]


@dataclass
class _Sheets:
    """A sheet batch, made a sheet at a time: the cards are laid out (in workers, in
    order) and imposed as soon as a sheet's worth is in, each sheet drawn into the PDF
    and dropped, so that memory holds a sheet's cards (and the workers' few), not the
    batch's. The checks that need every row (every bad row named, one size, one printing
    condition) keep only small values; once one fails, nothing more is drawn, and the
    errors come in the order the whole batch's checks give them."""

    group: People
    job: _Job
    duplex: Duplex
    marks: bool
    rgb: bool
    jobs: int

    def make(self, faces: frozenset[FontRef] | None = None) -> _SheetsMade:
        from contextlib import ExitStack

        from cardgen.card.batch import batch_error
        from cardgen.card.spread import Spread
        from cardgen.draw.page import page_texts
        from cardgen.games.rotator.workers import ordered_stream
        from cardgen.prepress.impose import impose_sheet, plan_sheet, sheets_subject
        from cardgen.render import pdf_pages
        from cardgen.text.fonts import bundled_fonts
        from cardgen.texts import say

        group, duplex = self.group, self.duplex
        fonts = bundled_fonts()
        names = (say("card", "sheet.outside"), say("card", "sheet.inside"))
        problems: list[str] = list(group.problems)
        items: list[CardItem] = []
        first: _Laid | None = None
        size_error: CardgenError | None = None
        plan_error: CardgenError | None = None
        intents: set[OutputIntent | None] = set()
        seen: set[FontRef] = set()
        guessed = True  # every page drawn so far keeps the file's first font
        piece: Piece | None = None
        layout: SheetLayout | None = None
        chunk: list[tuple[Page, Page]] = []
        sheet_no = 0
        writer: PdfWriter | None = None
        cards = ordered_stream(partial(_lay_one, self.job, group), range(len(group)),
                               self.jobs, name="cardgen-sheet-worker")
        with ExitStack() as stack:
            stack.callback(cards.close)

            def failed() -> bool:
                return bool(problems or size_error or plan_error or len(intents) > 1)

            def draw(last: bool) -> None:
                nonlocal sheet_no, writer, guessed
                assert layout is not None and piece is not None and first is not None
                if not chunk or failed() or (len(chunk) < layout.count and not last):
                    return
                sheet_no += 1
                sheets = -(-len(group) // layout.count)
                pages = impose_sheet(chunk, sheet_no, sheets, piece, layout,
                                     marks=self.marks, fonts=fonts, names=names,
                                     pieces=say("card", "sheet.pieces"))
                chunk.clear()
                used = {item.font for page in pages for item, _ in page_texts(page)}
                seen.update(used)
                if writer is None:
                    writer = stack.enter_context(pdf_pages(
                        pages[0], title=say("card", "sheet.team_title", count=len(group),
                                            paper=duplex.paper.upper()),
                        subject=sheets_subject(), output_intent=first.intent,
                        faces=used if faces is None else faces, cmyk=not self.rgb))
                guessed = guessed and writer.keeps_first_font(used)
                if guessed:
                    for page in pages:
                        writer.page(page)

            for index, card in enumerate(cards):
                if card.problem is not None:
                    problems.append(card.problem)
                    continue
                person = group[index]
                items.append(CardItem(card.line, person.config.person.name, person.stem,
                                      Files(), card.warnings))
                intents.add(card.intent)
                if first is None:
                    first = card
                    assert card.size is not None
                    piece = Spread(card.size, marks=False).piece()
                    try:
                        layout = plan_sheet(piece, duplex)
                    except CardgenError as exc:
                        plan_error = exc
                elif card.size != first.size and size_error is None:
                    size_error = _size_error(group, card, first)
                if failed():
                    chunk.clear()
                elif card.sides is not None:
                    chunk.append(card.sides)
                    draw(last=False)
            if problems:
                raise batch_error(group.label, _by_line(problems))
            if size_error is not None:
                raise size_error
            if len(intents) > 1:
                raise CardgenError(f"{group.label}: the rows are prepared for different "
                                   "printing conditions (card.output_intent); one sheet "
                                   "needs one.", value=group.label)
            if plan_error is not None:
                raise plan_error
            if first is None:
                raise ParameterError("people", "has no one: a sheet needs a card at least.",
                                     value=group.label)
            draw(last=True)
            pdf = writer.close() if guessed and writer is not None else None
        return _SheetsMade(pdf, frozenset(seen), layout, items)


def _size_error(group: People, card: _Laid, first: _Laid) -> CardgenError:
    size, other = first.size, card.size
    assert size is not None and other is not None
    return CardgenError(
        f"{group.label}: line {card.line}: a {other.width:g} × {other.height:g} mm "
        f"card cannot share sheets with line {first.line}'s "
        f"{size.width:g} × {size.height:g} mm one; give every row the same "
        "size, or make a sheet per size.", value=group.label)
