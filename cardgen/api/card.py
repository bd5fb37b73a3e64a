"""The business card: its config, its print files, its office sheet, in memory.

What ``cardgen card``, ``cardgen sheet`` and ``cardgen init`` do, as functions:

    import cardgen

    result = cardgen.make_card({"person": {"name": "Ada Example", "title": "Designer"}},
                               formats="pdf")
    result.files["card.pdf"]        # the bytes cardgen card -f pdf writes
    result.ladder_line              # 'Corporate Ladder: Wordsmith, Strength 0 (...)'
    result.files.write("output")    # all files, or none

A config is given as the command line reads it or as Python holds it: a
:class:`~pathlib.Path` of a TOML file, TOML text (a ``str``), the TOML as a mapping
(``{"person": {"name": ...}}``), a :class:`~cardgen.card.config.CardConfig`, or None for
the built-in example. Relative paths in it (a portrait, a logo, a theme file) are read
from the file's folder, or from ``folder`` (default: the working folder) for text and
mappings.

Choices take the enum member or its value as text (``preset="us"`` or
``preset=Preset.US``); a bad value raises :class:`~cardgen.errors.ParameterError` (a
:class:`~cardgen.errors.ChoiceError` for a value that is not one of the choices) naming
the parameter. A config that breaks its rules raises
:class:`~cardgen.errors.ConfigError`, every problem with its code.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api.common import (
    DPI_RANGE,
    PRINT_DPI,
    Progress,
    choice,
    document_files,
    file_stem,
    format_list,
    in_range,
    offset_mm,
)
from cardgen.api.files import Files
from cardgen.errors import ConfigError, ParameterError

if TYPE_CHECKING:
    from cardgen.card.build import CardBuild, LadderCard
    from cardgen.card.config import CardConfig
    from cardgen.draw.page import OutputIntent
    from cardgen.physical.card import Preset
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.impose import Flip
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.targets import InkRule, Target
    from cardgen.prepress.varnish import VarnishMode
    from cardgen.render import Format

VARNISH_STEM = "varnish"  # NAME-varnish.pdf, with varnish="file"
DIELINE_STEM = "dieline"  # NAME-dieline.pdf (.svg, .png), with dieline="file"
TEXT_LABEL = "the card config"  # what problems of a config given as text or a mapping name


@dataclass(frozen=True)
class CardResult:
    """A card made in memory.

    Attributes:
        files: the files by name, in the order ``cardgen card`` writes them: the art
            (``card.pdf``, ``card-outside.svg``, ``card-inside.png`` …), the dieline's
            (``card-dieline.pdf`` …) unless it is a layer, and ``card-varnish.pdf``
            with ``varnish="file"``.
        warnings: what would print but deserves a look (a soft portrait, ink on a
            fold), each one sentence.
        ladder: the Corporate Ladder card this card is (its type, from the title, and
            its Strength, the first digit on its front), or None.
    """

    files: Files
    warnings: tuple[str, ...]
    ladder: LadderCard | None

    @property
    def ladder_line(self) -> str | None:
        """The sentence ``cardgen card`` prints about the Corporate Ladder card, or None
        (see :func:`ladder_line`)."""
        return ladder_line(self.ladder)


@dataclass(frozen=True)
class SheetLayout:
    """How cards sit on an office sheet.

    Attributes:
        per_sheet: how many cards a sheet holds.
        columns: cards across.
        rows: cards down.
        turned: whether the cards are turned a quarter on the paper.
    """

    per_sheet: int
    columns: int
    rows: int
    turned: bool


@dataclass(frozen=True)
class SheetResult:
    """A sheet made in memory.

    Attributes:
        files: ``sheet.pdf`` (both sides of the paper, to print duplex), or
            ``sheet-registration.pdf`` for the registration test page.
        warnings: the card's warnings.
        layout: how the cards sit on the paper (None for the registration page).
        paper: the paper size.
        flip: the edge the printer turns the paper over for side 2.
    """

    files: Files
    warnings: tuple[str, ...]
    layout: SheetLayout | None
    paper: Paper
    flip: Flip


def example_config() -> str:
    """The commented example config, the text ``cardgen init`` writes (and the card
    made when no config is given).

    Example:
        >>> "[person]" in example_config()
        True
    """
    from cardgen.card.config import example_config_path

    return example_config_path().read_bytes().decode("utf-8")


def card_config(config: CardConfig | Mapping[str, Any] | Path | str | None = None, *,
                folder: Path | str | None = None) -> CardConfig:
    """A checked card config.

    Args:
        config: a :class:`~pathlib.Path` of a TOML file, TOML text, the TOML as a
            mapping of tables, a :class:`~cardgen.card.config.CardConfig` (returned as
            it is), or None for the built-in example.
        folder: where relative paths of a config given as text or a mapping are read
            from (default: the working folder). A file's paths are read from its own
            folder.

    Returns:
        The config, every default filled in.

    Raises:
        ConfigError: the config breaks its rules; ``problems`` holds every one, each
            with its code (``config.unknown-key`` …) and the key it is about.
        InputFileError: the file cannot be read.

    Example:
        >>> card_config('[person]\\nname = "Ada"\\n').person.name
        'Ada'
    """
    from cardgen.card.config import CardConfig, config_from_values, load_config

    if config is None or isinstance(config, Path):
        return load_config(config)
    if isinstance(config, CardConfig):
        return config
    source = None if folder is None else Path(folder) / "config.toml"
    if isinstance(config, str):
        from cardgen.datafile import parse_toml

        return config_from_values(parse_toml(config, TEXT_LABEL), source, TEXT_LABEL)
    if isinstance(config, Mapping):
        return config_from_values(_tables(config), source, TEXT_LABEL)
    raise ParameterError("config", "must be a Path, TOML text, a mapping of tables, a "
                         f"CardConfig or None, not {type(config).__name__}.", value=config)


def _tables(values: Mapping[str, Any]) -> dict[str, Any]:
    """A mapping as TOML holds it: nested mappings as dicts (the schema reads dicts)."""
    return {key: _tables(value) if isinstance(value, Mapping) else value
            for key, value in values.items()}


def ladder_line(ladder: LadderCard | None) -> str | None:
    """The Corporate Ladder card in the sentence ``cardgen card`` prints:
    ``Corporate Ladder: Wordsmith, Strength 4 (from the '4' in '+44 20 7946 0958')``;
    None for None."""
    if ladder is None:
        return None
    source = (f" (from the '{ladder.strength.value}' in '{ladder.strength.line}')"
              if ladder.strength.line is not None else " (no digit on the front)")
    return f"Corporate Ladder: {ladder.type.value}, Strength {ladder.strength.value}{source}"


def printing_condition(name: OutputIntent | str,
                       parameter: str = "output_intent") -> OutputIntent:
    """The printing condition called ``name`` (``"FOGRA39"``, any case), or ``name``
    itself when it is one.

    Raises:
        ParameterError: a condition cardgen does not know (the message names the
            nearest one).
    """
    from cardgen.draw.page import OutputIntent
    from cardgen.prepress.intents import intent_named

    if isinstance(name, OutputIntent):
        return name
    try:
        return intent_named(name)
    except ValueError as exc:
        raise ParameterError(parameter, f": {exc}.", value=name) from None


def check_theme(theme: str, folder: Path | str | None = None, *,
                ink: InkRule | None = None) -> None:
    """A theme that overrides a config's, read as the card will read it: a built-in
    theme's name, or a theme file (relative to ``folder``, the config's folder; default
    the working folder), its colours held to ``ink`` (a print target's rule, see
    :func:`cardgen.api.targets.load_target`) when given.

    Raises:
        ParameterError: no such theme, or its file cannot be opened; the message names
            ``theme`` rather than the config key it overrides, the code says which
            (``config.not-a-choice``, ``config.unreadable``).
        ConfigError: the theme file breaks its rules (the problems name the file).
    """
    from cardgen.card.themes import load_theme

    try:
        load_theme(theme, Path.cwd() if folder is None else Path(folder), where="theme",
                   ink=ink)
    except ConfigError as exc:
        if exc.source != "theme":  # the theme file's own problems: they name the file
            raise
        raise ParameterError("theme", str(exc)[len("theme"):], value=theme,
                             code=exc.codes[0]) from None


def _settings(config: CardConfig | Mapping[str, Any] | Path | str | None, *,
              folder: Path | str | None, preset: Preset | str | None, theme: str | None,
              marks: bool | None, intent: OutputIntent | None,
              ink: InkRule | None = None) -> CardConfig:
    """The config with the parameters that override it (a theme held to ``ink``)."""
    from cardgen.physical.card import Preset

    size = choice(Preset, preset, "preset") if preset is not None else None
    loaded = card_config(config, folder=folder)
    if theme is not None:
        check_theme(theme, loaded.base_dir, ink=ink)
    return loaded.with_overrides(preset=size, theme=theme, marks=marks, output_intent=intent)


def make_card(config: CardConfig | Mapping[str, Any] | Path | str | None = None, *,
              formats: str | Iterable[Format | str] = "pdf,svg,png",
              dieline: DielineMode | str = "file", rgb: bool = False,
              dpi: float = PRINT_DPI, varnish: VarnishMode | str | None = None,
              preset: Preset | str | None = None, theme: str | None = None,
              marks: bool | None = None, output_intent: OutputIntent | str | None = None,
              name: str = "card", folder: Path | str | None = None,
              target: Target | str | Path = "shop",
              progress: Progress | None = None) -> CardResult:
    """The card's print files, in memory: what ``cardgen card`` writes, byte for byte.

    Args:
        config: the card config (see :func:`card_config`); None for the built-in
            example.
        formats: ``"pdf,svg,png"`` or an iterable of :class:`~cardgen.render.Format`
            (or ``"pdf"``, ``"svg"``, ``"png"``).
        dieline: ``"file"`` (the cut and score lines in files of their own,
            ``NAME-dieline.*``) or ``"layer"`` (an overprinting spot layer of the art).
        rgb: RGB colours for screens instead of a CMYK print file.
        dpi: the PNG files' resolution (36–1200).
        varnish: a spot varnish over the business side's art: ``"layer"`` (a plate of
            the PDF's outside page) or ``"file"`` (alone in ``NAME-varnish.pdf``); it
            needs a CMYK print file.
        preset: the size instead of the config's: ``"eu"`` (85 × 55 mm) or ``"us"``
            (3.5 × 2 in).
        theme: a built-in theme (``"dark"``, ``"light"``) or a theme file, instead of
            the config's.
        marks: crop and fold marks, instead of the config's ``card.marks``.
        output_intent: the printing condition (``"FOGRA39"``), instead of the
            config's or the size's default.
        name: the files' name without suffix.
        folder: where the relative paths of a config given as text or a mapping are
            read from (see :func:`card_config`).
        target: the print service the files are for: ``"shop"`` (a print shop's
            PDF/X-1a with marks, the default), ``"drivethrucards"``,
            ``"thegamecrafter"``, a profile's path, or a
            :class:`~cardgen.prepress.targets.Target` (see
            :func:`cardgen.api.targets.load_target`). A setting the service cannot
            take (``rgb=True`` for a PDF/X service) is a ``ParameterError`` naming
            ``target``; the card's colours are held to its ink limit.
        progress: told how far the drawing has got (see
            :data:`cardgen.api.common.Progress`).

    Returns:
        The files, the warnings and the Corporate Ladder card.

    Raises:
        ParameterError: a parameter outside its domain, naming it
            (:class:`~cardgen.errors.ChoiceError` for a value not among its choices).
        ConfigError: the config (or a theme file) breaks its rules, every problem coded.
        CardgenError: another problem of the input (a font, an image, text that does
            not fit), in one sentence naming the field.

    Example:
        >>> result = make_card(formats="pdf")
        >>> list(result.files)
        ['card.pdf', 'card-dieline.pdf']
    """
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.varnish import VarnishMode

    wanted = format_list(formats)
    mode = choice(DielineMode, dieline, "dieline")
    coat = choice(VarnishMode, varnish, "varnish") if varnish is not None else None
    if coat is not None:
        _check_varnish(wanted, coat, rgb=rgb)
    in_range(dpi, "dpi", *DPI_RANGE)
    file_stem(name)
    intent = printing_condition(output_intent) if output_intent is not None else None
    service = _service(target, wanted, mode, coat, rgb=rgb, dpi=dpi, marks=marks,
                       output_intent=output_intent)
    settings = _settings(config, folder=folder, preset=preset, theme=theme, marks=marks,
                         intent=intent, ink=service.ink)
    build, files = _card_files(settings, mode, coat, wanted, name, rgb=rgb, dpi=dpi,
                               progress=progress, target=service)
    return CardResult(files, tuple(build.warnings), build.ladder)


def _check_varnish(formats: list[Format], mode: VarnishMode, *, rgb: bool) -> None:
    """A varnish needs a print file: a CMYK PDF (its layer is a plate of the card's PDF;
    its own file is one)."""
    from cardgen.prepress.varnish import VarnishMode
    from cardgen.render import Format

    if rgb:
        raise ParameterError("varnish", "adds a spot plate for the press, and rgb=True makes "
                             "a screen preview, which has no plates; leave out one of them.",
                             value=mode)
    if mode is VarnishMode.LAYER and Format.PDF not in formats:
        raise ParameterError("varnish", '"layer" adds a spot plate to the PDF, and formats '
                             'asks for no PDF; add pdf to formats, or use varnish="file".',
                             value=mode)


def _service(target: Target | str | Path, formats: list[Format], mode: DielineMode,
             coat: VarnishMode | None, *, rgb: bool, dpi: float, marks: bool | None,
             output_intent: OutputIntent | str | None) -> Target:
    """The print target, and a setting it cannot take refused, naming ``target``."""
    from cardgen.api.targets import load_target, target_conflict

    service = load_target(target)
    clash = target_conflict(
        service, formats=formats, dieline=str(mode), varnish=coat, rgb=rgb,
        dpi=None if service.images is None or dpi == PRINT_DPI else dpi, marks=marks,
        output_intent=str(output_intent) if output_intent is not None else None)
    if clash is not None:
        parameter, why = clash
        raise ParameterError("target", f"{service.key} cannot be made with the {parameter} "
                             f"given ({why}); leave one of them out.", value=target)
    return service


def _card_files(settings: CardConfig, mode: DielineMode, coat: VarnishMode | None,
                formats: list[Format], name: str, *, rgb: bool, dpi: float,
                progress: Progress | None, target: Target | None = None
                ) -> tuple[CardBuild, Files]:
    """The card built for ``target`` (the print shop's, by default), and its files: the
    art, the dieline, the varnish."""
    from cardgen.card.build import build_card
    from cardgen.render import Format, render

    build = build_card(settings, mode, varnish=coat, target=target)

    def stage(label: str) -> Any:
        if progress is None:
            return None
        return lambda done, total: progress(label, done, total)

    if target is None or target.key == "shop":
        files = document_files(build.document, name, formats, rgb=rgb, dpi=dpi,
                               progress=stage("drawing the card"))
    else:
        from cardgen.api.targets import target_files

        files = Files((path.as_posix(), data) for path, data in target_files(
            build.document, target, Path(name), formats, cmyk=not rgb, dpi=dpi,
            progress=stage("drawing the card")).items())
    if build.dieline is not None:
        files |= document_files(build.dieline, f"{name}-{DIELINE_STEM}", formats, rgb=rgb,
                                dpi=dpi, progress=stage("drawing the dieline"))
    if build.varnish is not None:  # always a CMYK PDF: a spot plate has no preview
        files |= {f"{name}-{VARNISH_STEM}.pdf": render(build.varnish, [Format.PDF],
                                                        cmyk=True, dpi=dpi)[".pdf"]}
    return build, files


def make_sheet(config: CardConfig | Mapping[str, Any] | Path | str | None = None, *,
               paper: Paper | str = "a4", flip: Flip | str = "long",
               offset: tuple[float, float] | str = (0.0, 0.0), margin: float = 5.0,
               preset: Preset | str | None = None, theme: str | None = None,
               marks: bool = True, rgb: bool = False,
               output_intent: OutputIntent | str | None = None, name: str = "sheet",
               registration: bool = False, folder: Path | str | None = None) -> SheetResult:
    """One card imposed N-up on A4 or Letter, to print duplex on an office printer: what
    ``cardgen sheet`` writes, byte for byte (one config; for a sheet of many people see
    the batch functions).

    Args:
        config: the card config (see :func:`card_config`).
        paper: ``"a4"`` or ``"letter"``.
        flip: the edge the printer turns the paper over for side 2: ``"long"`` or
            ``"short"``.
        offset: side 2 moved by (x, y) mm, right and down (at most ±5 mm, within the
            margin), to correct the printer's misregistration; ``"0.5,-0.3"`` too.
        margin: the printer's unprintable margin, in mm (0–30).
        preset: the size instead of the config's (``"eu"``, ``"us"``).
        theme: a theme instead of the config's.
        marks: per-card crop and fold marks.
        rgb: RGB colours for screens instead of CMYK.
        output_intent: the printing condition instead of the config's.
        name: the file's name without suffix.
        registration: make the duplex registration test page instead
            (``NAME-registration.pdf``), which prints no card.
        folder: where the relative paths of a config given as text or a mapping are
            read from.

    Returns:
        The file, the card's warnings, and how the cards sit on the paper.

    Raises:
        ParameterError: a parameter outside its domain (an offset that would print into
            the margin names ``offset``).
        ConfigError: the config breaks its rules, every problem coded.

    Example:
        >>> sheet = make_sheet(paper="letter")
        >>> sheet.layout.per_sheet, list(sheet.files)
        (4, ['sheet.pdf'])
    """
    from cardgen.card.build import build_card
    from cardgen.card.spread import Spread
    from cardgen.prepress.impose import Duplex, Flip, impose, plan_sheet
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.registration import build_registration
    from cardgen.render import Format, render
    from cardgen.text.fonts import bundled_fonts
    from cardgen.texts import say

    file_stem(name)
    shift = offset_mm(offset)
    intent = printing_condition(output_intent) if output_intent is not None else None
    duplex = Duplex(choice(Paper, paper, "paper"), choice(Flip, flip, "flip"), shift, margin)
    fonts = bundled_fonts()
    settings = _settings(config, folder=folder, preset=preset, theme=theme, marks=False,
                         intent=intent)
    cmyk = not rgb
    if registration:
        document = build_registration(duplex, fonts, settings.print_condition)
        files = Files({f"{name}-registration.pdf":
                       render(document, [Format.PDF], cmyk=cmyk)[".pdf"]})
        return SheetResult(files, (), None, duplex.paper, duplex.flip)
    layout = plan_sheet(Spread(settings.size, marks=False).piece(), duplex)
    build = build_card(settings)
    outside, inside = build.document.pages
    document = impose(outside, inside, build.spread.piece(), layout, marks=marks, fonts=fonts,
                      names=(say("card", "sheet.outside"), say("card", "sheet.inside")),
                      pieces=say("card", "sheet.pieces"),
                      title=say("card", "sheet.title", name=settings.person.name,
                                paper=duplex.paper.upper()),
                      output_intent=settings.print_condition)
    files = Files({f"{name}.pdf": render(document, [Format.PDF], cmyk=cmyk)[".pdf"]})
    return SheetResult(files, tuple(build.warnings),
                       SheetLayout(layout.count, layout.columns, layout.rows, layout.rotated),
                       duplex.paper, duplex.flip)


# --- the card seen from the back ------------------------------------------------------------


@dataclass(frozen=True)
class CardBack:
    """The card seen from the back, as the Connector is played with it (see
    :func:`card_back`): ``width`` × ``height`` mm, the folded card; ``files`` holds
    ``NAME-back-TABS.svg``."""

    tabs: str
    width: float
    height: float
    files: Files


def card_back(config: CardConfig | Mapping[str, Any] | Path | str | None = None, *,
              tabs: str = "open", name: str = "card",
              folder: Path | str | None = None) -> CardBack:
    """The user's own card seen from the back, tabs open or folded back, cut out of the
    very spreads ``cardgen card`` prints (its theme, its art, its Connector pieces): what
    the Connector is played with. The picture is in the Connector's card frame (the back
    panel as it reads, 1 unit = 1 mm), so that an assembly's placement of a card (centre
    at x, y, turned ``rotation`` degrees) places it.

    Args:
        config: the card config (see :func:`card_config`).
        tabs: ``"open"`` (the back panel) or ``"folded"`` (the tabs' insides over it,
            and the strips of the inside they uncover).
        name: the file's name stem.
        folder: where relative paths of a config given as text or a mapping are read.

    Returns:
        A :class:`CardBack` with the SVG (RGB, for screens).

    Raises:
        ConfigError: the config breaks its rules.
        ParameterError: ``tabs`` is neither open nor folded.

    Example:
        >>> back = card_back(None, tabs="folded")
        >>> back.width, back.height, list(back.files)
        (85.0, 55.0, ['card-back-folded.svg'])
    """
    from cardgen.card.back import back_page
    from cardgen.card.build import build_card
    from cardgen.connector.model import Tabs
    from cardgen.draw.page import Document
    from cardgen.render import Format, render

    state = choice(tuple(Tabs), tabs, "tabs")
    stem = file_stem(name)
    build = build_card(card_config(config, folder=folder))
    page = back_page(build, state)
    document = Document([page], title=build.document.title, subject="the card's back")
    svg = render(document, [Format.SVG], cmyk=False)[".svg"]
    return CardBack(state.value, page.width, page.height,
                    Files({f"{stem}-back-{state.value}.svg": svg}))
