"""The printed rules and play sheets as a library: a book of a game's rules (or of all
six), imposed as a saddle-stitched booklet if asked, and the Node games' play sheets for
a table short of cards, as ``cardgen rules`` and ``cardgen playsheet`` make them::

    from cardgen.api.rules import make_playsheet, make_rules

    book = make_rules("all", booklet=True)          # book.files["rules-all-booklet.pdf"]
    book.pages, book.sheets                         # reading pages, sheets of paper
    sheet = make_playsheet("deflector", players=4)  # a page per player, then the tables
    sheet.files.write("out")                        # written all or none

The same arguments give the same bytes in any process. Bad input raises the domain
errors (a :class:`~cardgen.errors.ParameterError` naming the parameter; a
:class:`~cardgen.errors.ProblemsError` whose problems carry ``markup.*`` codes for a
rules text that breaks its markup); nothing
prints and nothing is written until ``files.write(folder)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api.common import (
    Steps,
    check_output_folder,
    choice,
    document_files,
    file_stem,
    format_list,
    in_range,
    offset_mm,
    whole_in_range,
)
from cardgen.errors import CardgenError, InputFileError, ParameterError, shorten

if TYPE_CHECKING:
    from cardgen.api.files import Files
    from cardgen.games.names import GameName
    from cardgen.physical.card import Preset
    from cardgen.prepress.impose import Flip
    from cardgen.prepress.paper import Paper
    from cardgen.render import Format

__all__ = ["ALL", "Flip", "Format", "GameName", "Paper", "Playsheet", "Preset", "RulesBook",
           "make_playsheet", "make_rules", "rules_games"]

ALL = "all"  # the game word for a book of every game's rules

_LAZY = {"Flip": "cardgen.prepress.impose", "Format": "cardgen.render",
         "GameName": "cardgen.games.names", "Paper": "cardgen.prepress.paper",
         "Preset": "cardgen.physical.card"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def _fonts() -> Any:
    from cardgen.text.fonts import bundled_fonts

    return bundled_fonts()


# --- rules ------------------------------------------------------------------------------

def rules_games(game: str | GameName | Iterable[str | GameName]) -> list[GameName]:
    """The games a rules book holds: one game (``"rotator"``), ``"all"`` (the six, in
    book order), or several.

    Raises:
        ParameterError: A game without rules (parameter ``game``), with the closest name.

    Example:
        >>> ", ".join(g.value for g in rules_games("Rotator"))
        'rotator'
    """
    from cardgen.games.names import RULES_GAMES, GameName
    from cardgen.schema import closest

    names = [g.value for g in RULES_GAMES]
    items = [game] if isinstance(game, str) else list(game)
    if not items:
        raise ParameterError("game", "must name at least one game.", value=game)
    chosen: list[GameName] = []
    for item in items:
        word = item.value if isinstance(item, GameName) else str(item).strip().lower()
        if word == ALL and isinstance(game, str):
            return list(RULES_GAMES)
        if word not in names:
            hint = closest(word, [*names, ALL], [*names, ALL])
            raise ParameterError("game", "must be a game with rules, or all: there are no "
                                 f"rules for {shorten(str(item))}{hint}", value=game)
        chosen.append(GameName(word))
    return chosen


@dataclass(frozen=True)
class RulesBook:
    """A rules book, as ``cardgen rules`` makes it.

    Attributes:
        files: ``NAME.pdf`` (every page), ``NAME-page-N.svg`` and ``.png`` (a file per
            page or side).
        games: The games whose rules it holds, in order.
        pages: Its pages in reading order (each half a sheet of ``paper``).
        sheets: With ``booklet``, the sheets of paper to print on both sides; else 0.
        paper: The paper.
        flip: With ``booklet``, the edge the printer turns the paper over.
    """

    files: Files
    games: tuple[GameName, ...]
    pages: int
    sheets: int
    paper: Paper
    flip: Flip | None


def make_rules(game: str | GameName | Iterable[str | GameName] = ALL, *,
               paper: str | Paper = "a4", booklet: bool = False, flip: str | Flip = "short",
               creep: float = 0.0, offset: str | tuple[float, float] = (0.0, 0.0),
               formats: str | Format | Iterable[str | Format] = "pdf", rgb: bool = False,
               dpi: float = 150, source: Path | str | None = None, name: str | None = None,
               progress: Steps | None = None) -> RulesBook:
    """The rules of a game, or of all six, as a book of half-size pages in reading order,
    or imposed as a saddle-stitched booklet.

    Args:
        game: ``"rotator"``, ``"reflector"``, ``"deflector"``, ``"defector"``,
            ``"connector"``, ``"ladder"``, ``"all"`` (a book of the six with a title page
            and contents), or several games.
        paper: ``"a4"`` or ``"letter"``.
        booklet: Impose the pages two a side, to print duplex, fold and staple.
        flip: With ``booklet``: ``"short"`` or ``"long"``, the edge the printer turns
            the paper over.
        creep: With ``booklet``: mm the innermost sheet's pages move toward the fold
            (0 to 3).
        offset: With ``booklet``: mm to move the back of each sheet (right, down), as
            ``"0.5,-0.3"`` or a pair.
        formats: ``"pdf"``, ``"svg"``, ``"png"`` or several; SVG and PNG make a file per
            page.
        rgb: RGB colours for screens instead of CMYK.
        dpi: The PNG's resolution (36 to 1200).
        source: A folder of rules texts (``GAME.md``) to print instead of cardgen's own.
        name: The files' name without suffix (default ``rules-GAME``, with
            ``-booklet``).
        progress: Called with (files made, files) as the files are drawn.

    Returns:
        The book, with its page and sheet counts.

    Raises:
        ParameterError: An unknown game, paper, flip or format; a value out of range;
            ``flip``, ``creep`` or ``offset`` without ``booklet``; a bad name; a
            ``source`` that is not a folder of rules texts.
        ProblemsError: A rules text of ``source`` that breaks its markup (a
            ``MarkupError``: each problem names the file and line, codes ``markup.*``).

    Example:
        >>> book = make_rules("rotator", booklet=True)
        >>> list(book.files), book.sheets * 4 >= book.pages
        (['rules-rotator-booklet.pdf'], True)
    """
    from cardgen.datafile import look
    from cardgen.prepress.impose import Flip
    from cardgen.prepress.paper import Paper
    from cardgen.rules.book import book_document

    games = rules_games(game)
    sheet = choice(Paper, paper, "paper")
    turn = choice(Flip, flip, "flip")
    in_range(creep, "creep", 0.0, 3.0)
    shift = offset_mm(offset)
    wanted = format_list(formats)
    in_range(dpi, "dpi", 36, 1200)
    if not booklet:
        for parameter, value, default in (("flip", turn, Flip.SHORT), ("creep", creep, 0.0),
                                          ("offset", shift, (0.0, 0.0))):
            if value != default:
                raise ParameterError(parameter, "applies to a booklet only; set booklet "
                                     "too.", value=value)
    if name is None:
        word = game.strip().lower() if isinstance(game, str) else "-".join(
            g.value for g in games)
        name = f"rules-{word}" + ("-booklet" if booklet else "")
    folder = Path(source) if source is not None else None
    if folder is not None:
        import stat

        try:
            found = look(folder, "rules folder")
        except InputFileError as exc:  # a folder on the way that cannot be entered...
            raise ParameterError("source", f"cannot be used: {exc}",
                                 value=source) from None
        if found is None or not stat.S_ISDIR(found.st_mode):
            raise ParameterError("source", "must be a folder of rules texts; "
                                 f"{shorten(str(source))} is not one.", value=source)
    file_stem(name)
    fonts = _fonts()
    try:
        document = book_document(games, sheet, fonts, folder=folder)
    except InputFileError as exc:  # a rules text of the source folder
        if folder is None:
            raise
        raise ParameterError("source", f"holds a rules text that cannot be read: {exc}",
                             value=exc.value) from None
    pages = len(document.pages)
    if booklet:
        from cardgen.prepress.booklet import impose_booklet
        from cardgen.rules.book import blank_page

        document = impose_booklet(document, sheet, flip=turn, creep=float(creep),
                                  offset=shift, blank=lambda n: blank_page(n, sheet, fonts))
    files = document_files(document, name, wanted, rgb=rgb, dpi=dpi, progress=progress)
    return RulesBook(files, tuple(games), pages, len(document.pages) // 2 if booklet else 0,
                     sheet, turn if booklet else None)


# --- play sheets ------------------------------------------------------------------------

@dataclass(frozen=True)
class Playsheet:
    """Play sheets for a Node game, as ``cardgen playsheet`` makes them.

    Attributes:
        files: ``NAME.pdf`` (every page), ``NAME-page-N.svg`` and ``.png``.
        game: The game.
        players: How many players: a page each, first.
        table_pages: The pages of table arrangements after them.
        warnings: What the sheets lack (no table arrangement for that many players).
    """

    files: Files
    game: GameName
    players: int
    table_pages: int
    warnings: tuple[str, ...] = ()


def make_playsheet(game: str | GameName, players: int | None = None, *,
                   paper: str | Paper = "a4", preset: str | Preset = "eu",
                   formats: str | Format | Iterable[str | Format] = "pdf", rgb: bool = False,
                   dpi: float = 150, name: str | None = None,
                   progress: Steps | None = None) -> Playsheet:
    """Grids and tallies per player for Reflector, Deflector or Defector, for a table
    with fewer cards than players: a Private and a Public grid per player at the card's
    grid size, the game's tallies, and for Deflector and Defector the table
    arrangements for that many players.

    Args:
        game: ``"reflector"`` (2 players), ``"deflector"`` (3–5) or ``"defector"``
            (6–12).
        players: How many players (default: the fewest the game takes).
        paper: ``"a4"`` or ``"letter"``.
        preset: The cards' size, which sets the grid squares: ``"eu"`` or ``"us"``.
        formats: ``"pdf"``, ``"svg"``, ``"png"`` or several; SVG and PNG make a file per
            page.
        rgb: RGB colours for screens instead of CMYK.
        dpi: The PNG's resolution (36 to 1200).
        name: The files' name without suffix (default ``playsheet-GAME``).
        progress: Called with (files made, files) as the files are drawn.

    Returns:
        The sheets, and a warning when cardgen has no table arrangement for that many
        players.

    Raises:
        ParameterError: A game other than the three, players out of its range, an
            unknown paper, preset or format, a value out of range, a bad name.

    Example:
        >>> sheet = make_playsheet("reflector")
        >>> list(sheet.files), sheet.players
        (['playsheet-reflector.pdf'], 2)
    """
    from cardgen.games.nodes.model import deflectors
    from cardgen.games.nodes.playsheet import (
        check_players,
        parse_game,
        playsheet_document,
        printed,
        table_arrangements,
    )
    from cardgen.physical.card import Preset
    from cardgen.prepress.paper import Paper

    try:
        chosen = parse_game(game.value if not isinstance(game, str) else game)
    except CardgenError as exc:
        raise ParameterError("game", str(exc).removeprefix("the game "),
                             value=game) from None
    if players is not None:
        whole_in_range(players, "players")  # (its range is the game's: check_players)
    count = check_players(chosen, players)
    size = choice(Preset, preset, "preset")
    sheet = choice(Paper, paper, "paper")
    wanted = format_list(formats)
    in_range(dpi, "dpi", 36, 1200)
    stem = file_stem(name if name is not None else f"playsheet-{chosen}")
    document = playsheet_document(chosen, count, size, sheet, _fonts())
    files = document_files(document, stem, wanted, rgb=rgb, dpi=dpi, progress=progress)
    warnings: tuple[str, ...] = ()
    if deflectors(chosen) and not table_arrangements(chosen, count):
        warnings = (f"cardgen has no table arrangement of {printed(chosen)} for {count} "
                    "players (templates/tables/arrangements.toml); lay the Public grids "
                    "with Row 1 towards the middle of the table.",)
    return Playsheet(files, chosen, count, len(document.pages) - count, warnings)


def check_output(folder: Path | str, name: str | None = None) -> Path:
    """Check, before any work and without creating anything, that files named ``name``
    (without suffix) can be written into ``folder``: ``name`` is a plain file name
    (:func:`~cardgen.api.common.file_stem`) and ``folder`` is or can become a writable
    folder (:func:`~cardgen.api.common.check_output_folder`).

    Returns:
        The folder.

    Raises:
        ParameterError: ``name`` is not a plain file name.
        OutputError: The folder cannot be used (the sentence says why).
    """
    if name is not None:
        file_stem(name)
    return check_output_folder(folder)
