"""Connector, the puzzle on the card's back, as values: validate an assembly of cards,
find the smallest one that spells a game's description, check a layout, draw pictures.

What ``cardgen connector validate|solve|check|show`` print and write, in memory. An
assembly is given as a file (a :class:`~pathlib.Path`), as the TOML text of one, as
that TOML read into a mapping, or as the model's
:class:`~cardgen.connector.model.Assembly`::

    from cardgen.api.connector import validate_assembly

    verdict = validate_assembly(Path("reflector.toml"))
    if not verdict.valid:
        print(verdict.codes, verdict.hints)

Nothing is printed or written: pictures come back as :class:`~cardgen.api.files.Files`
(``verdict.files.write(folder)`` writes them). Bad input raises
:class:`~cardgen.errors.ConfigError` (the assembly's problems, each with its code) or
:class:`~cardgen.errors.ParameterError` (a parameter, named as here). Heavy libraries
load only when a picture is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api._shared import Progress, check_name, check_output, choice, plural
from cardgen.api._shared import formats as parse_formats
from cardgen.errors import CardgenError, GeneralProblem, ParameterError, Problem, number

if TYPE_CHECKING:
    from cardgen.api.files import Files
    from cardgen.connector.model import Assembly, CardLayout
    from cardgen.connector.solve import SolveResult
    from cardgen.connector.validate import AssemblyProblem, Report
    from cardgen.games.names import GameName
    from cardgen.physical.card import Preset
    from cardgen.render import Format

    AssemblyInput = Path | str | Mapping[str, Any] | Assembly  # a file, TOML text, a mapping

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "MAX_CARDS",
    "MIN_BUDGET",
    "AssemblyVerdict",
    "Connection",
    "ConnectorLayoutCheck",
    "ConnectorPictures",
    "ConnectorSolution",
    "PresetCheck",
    "SearchGaveUp",
    "check_connector_layout",
    "check_name",
    "check_output",
    "connector_games",
    "connector_pictures",
    "load_assembly",
    "picture_format",
    "presets",
    "solve_assembly",
    "validate_assembly",
]

MAX_CARDS = 8  # the most cards a search may place
MIN_BUDGET = 100
MAX_BUDGET = 5_000_000  # about 750 MB of seen assemblies: the peak stays under 1 GB
DEFAULT_BUDGET = 2_000_000  # the solver's own default


def connector_games() -> tuple[GameName, ...]:
    """The games whose description an assembly spells: rotator, reflector, deflector,
    defector (members of :class:`cardgen.games.names.GameName`)."""
    from cardgen.games.names import CONNECTOR_GAMES

    return tuple(CONNECTOR_GAMES)


def presets() -> tuple[Preset, ...]:
    """The card sizes: eu (85 × 55 mm) and us (3.5 × 2 in)."""
    from cardgen.physical.card import Preset

    return tuple(Preset)


def _preset(value: Preset | str, parameter: str = "preset") -> Preset:
    return choice(presets(), value, parameter)


def _game(value: GameName | str) -> GameName:
    return choice(connector_games(), value, "game")


def _layout(layout: Path | str | None, size: Preset) -> CardLayout:
    from cardgen.connector.layout import bundled_layout, load_layout

    if layout is None:
        return bundled_layout(size)
    if not isinstance(layout, Path | str):
        raise ParameterError("layout", f"must be a layout file's path, not "
                             f"{type(layout).__name__}.", value=layout)
    return load_layout(Path(layout), size)


def load_assembly(assembly: AssemblyInput, *, label: str = "assembly") -> Assembly:
    """The assembly given, checked against the assembly schema.

    Args:
        assembly: a file (:class:`~pathlib.Path`), the TOML text of one (``str``), that
            TOML read into a mapping, or an :class:`~cardgen.connector.model.Assembly`
            (returned as it is).
        label: what errors call text or a mapping (a file is named by its path).

    Returns:
        The :class:`~cardgen.connector.model.Assembly`.

    Raises:
        ConfigError: every problem of the assembly, each with its
            :class:`~cardgen.errors.ConfigProblem` code.
        InputFileError: a file that cannot be read.
        ParameterError: ``assembly`` of another type.

    Example:
        >>> load_assembly('game = "reflector"\\n[[card]]\\nx = 0\\ny = 0\\n').game.value
        'reflector'
    """
    from cardgen.connector.assembly import assembly_from_data, read_assembly
    from cardgen.connector.model import Assembly

    if isinstance(assembly, Assembly):
        return assembly
    if isinstance(assembly, Path):
        return read_assembly(assembly)
    if isinstance(assembly, str):
        from cardgen.datafile import parse_toml

        return assembly_from_data(parse_toml(assembly, label), label)
    if isinstance(assembly, Mapping):
        return assembly_from_data(dict(assembly), label)
    raise ParameterError("assembly", "must be a Path, TOML text, a mapping or an Assembly, "
                         f"not {type(assembly).__name__}.", value=assembly)


# --- validate -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Connection:
    """A connection that holds: ``card``'s corner number ``corner`` lies on the coloured
    number of ``onto_card`` (cards counted from 1, bottom first), ``offset_mm`` apart."""

    card: int
    corner: int
    onto_card: int
    offset_mm: float


@dataclass(frozen=True)
class AssemblyVerdict:
    """What validating an assembly found (see :func:`validate_assembly`).

    ``valid`` when its cards spell their game's description; ``text`` is what they read
    and ``description`` the game's; ``problems`` every rule broken, in words that may
    quote the text, each a :class:`~cardgen.errors.Problem` with its
    :class:`~cardgen.connector.validate.AssemblyProblem` code (``codes``), and
    ``hints`` the same problems quoting no text (so as not to give the puzzle away);
    ``connections`` those that hold; ``steps`` how to lay the cards (a valid
    assembly's); ``files`` the picture asked for, if any."""

    valid: bool
    game: str
    preset: str
    cards: int
    text: str
    description: str
    problems: tuple[Problem, ...]
    hints: tuple[str, ...]
    codes: tuple[AssemblyProblem, ...]
    connections: tuple[Connection, ...]
    steps: tuple[str, ...]
    files: Files
    report: Report = field(repr=False, compare=False)  # the validator's own, for pictures

    def as_json(self, reveal: bool = False) -> dict[str, object]:
        """The verdict as ``cardgen connector validate --json`` gives it: without
        ``reveal``, a verdict that is not valid quotes no text."""
        return self.report.as_json(reveal)

    def lines(self, reveal: bool = False) -> list[str]:
        """The verdict as ``cardgen connector validate`` prints it, a line each: what
        the cards spell, or every problem (quoting the text only with ``reveal``)."""
        if self.valid:
            return [f"valid: {plural(self.cards, 'card')} of {self.game} spell "
                    f"'{self.text}'"]
        shown = self.problems if reveal else self.hints
        return [f"not valid ({plural(len(self.problems), 'problem')}):",
                *(f"- {problem}" for problem in shown)]


def _verdict(report: Report, preset: str, files: Files) -> AssemblyVerdict:
    from cardgen.connector.validate import instructions

    problems = tuple(Problem(text, code) for text, code in zip(report.problems, report.codes,
                                                               strict=True))
    return AssemblyVerdict(
        valid=report.valid, game=report.game.value, preset=preset, cards=report.cards,
        text=report.text, description=report.description, problems=problems,
        hints=tuple(report.hints), codes=tuple(report.codes),
        connections=tuple(Connection(c.upper + 1, c.number, c.lower + 1, round(c.offset, 2))
                          for c in report.connections),
        steps=tuple(instructions(report)) if report.valid else (), files=files,
        report=report)


def picture_format(name: str | Path) -> str:
    """The format of a picture file, from its suffix (``.svg``, ``.png``, ``.pdf``); else
    a :class:`ParameterError` naming ``picture``."""
    from cardgen.connector.picture import picture_format as suffix_format

    return suffix_format(Path(name))


def validate_assembly(assembly: AssemblyInput, *, layout: Path | str | None = None,
                      picture: str | None = None, reveal: bool = False) -> AssemblyVerdict:
    """Does an assembly of cards spell its game's description?

    Args:
        assembly: a file, TOML text, a mapping or an Assembly (see
            :func:`load_assembly`).
        layout: a Connector layout file (default: the one cardgen ships).
        picture: also draw the assembly, as a file of this name (``"a.svg"``,
            ``"a.png"``, ``"a.pdf"``; the suffix is the format) in ``files``.
        reveal: let the picture of an assembly that is not valid show what its cards
            read and quote the description.

    Returns:
        An :class:`AssemblyVerdict`: valid or not, what the cards read, each problem
        with its code, the connections that hold, and the picture in ``files``.

    Raises:
        ConfigError: the assembly or the layout breaks its schema (each problem coded).
        InputFileError: a file that cannot be read.
        ParameterError: a ``picture`` name without a picture's suffix.

    Example:
        >>> verdict = validate_assembly(Path("templates/connector/reflector.toml"))
        >>> verdict.valid, verdict.cards
        (True, 2)
    """
    from cardgen.api.files import Files
    from cardgen.connector.validate import validate
    from cardgen.physical.card import Preset

    fmt = None
    if picture is not None:
        if not isinstance(picture, str | Path) or "/" in str(picture):
            raise ParameterError("picture", "must be a file name ending in .svg, .png or "
                                 f".pdf, not {picture!r}.", value=picture)
        fmt = picture_format(picture)
    spec = load_assembly(assembly)
    report = validate(_layout(layout, Preset(spec.preset)), spec)
    files = Files()
    if picture is not None and fmt is not None:
        from cardgen.connector.picture import picture_bytes

        files = Files({str(picture): picture_bytes(report, fmt, reveal=reveal)})
    return _verdict(report, spec.preset, files)


# --- solve --------------------------------------------------------------------------------


class SearchGaveUp(CardgenError):
    """The search visited its ``budget`` of assemblies, while trying ``cards`` cards,
    without finding an assembly that spells ``game``'s description or proving that none
    of up to ``max_cards`` does. ``visited`` is how many it visited; ``cut`` whether it
    cut hopeless branches (without the cut far more are visited for the same answer)."""

    code = GeneralProblem.PARAMETER

    def __init__(self, game: str, cards: int, visited: int, max_cards: int, cut: bool
                 ) -> None:
        super().__init__(
            f"budget: the search stopped after {visited:,} assemblies (its budget), while "
            f"trying {plural(cards, 'card')}, without finding one that spells the {game} "
            f"description or proving that none of up to {plural(max_cards, 'card')} does; "
            "raise the budget" + ("" if cut else " or search with the cut") + ".",
            value=visited)
        self.game, self.cards, self.visited = game, cards, visited
        self.max_cards, self.cut = max_cards, cut


@dataclass(frozen=True)
class ConnectorSolution:
    """What a search found (see :func:`solve_assembly`): the fewest ``cards`` (None when
    no assembly of up to ``max_cards`` spells the description) and the ``assembly``,
    what it ``text`` reads, how many assemblies of each count were judged
    (``searched``) and cut (``cut``), the most characters one card shows (``best``)
    against the description's (``needed``), and ``files``: the assembly as an assembly
    file (``NAME.toml``, commented with how it was found) when one was found."""

    game: str
    preset: str
    max_cards: int
    cards: int | None
    assembly: Assembly | None
    text: str | None
    searched: Mapping[int, int]
    cut: Mapping[int, int]
    best: int
    needed: int
    files: Files
    result: SolveResult = field(repr=False, compare=False)  # the solver's own

    @property
    def found(self) -> bool:
        return self.assembly is not None

    @property
    def proof(self) -> str:
        """What the search enumerated, in words."""
        parts = [f"{plural(count, 'card')}: {self.searched[count]} judged, "
                 f"{self.cut.get(count, 0)} cut" for count in sorted(self.searched)]
        return ("Searched every assembly built from connections (" + "; ".join(parts) + "). "
                f"A cut branch could not show the description's {self.needed} characters: "
                f"one card shows at most {self.best} of them.")

    def as_json(self) -> dict[str, object]:
        """The search as ``cardgen connector solve --json`` gives it."""
        result = self.result
        assembly = None
        if result.assembly is not None:
            assembly = {"game": result.game.value, "preset": result.preset,
                        "card": [{"x": c.x, "y": c.y, "rotation": c.rotation,
                                  "tabs": c.tabs.value} for c in result.assembly.cards]}
        return {"game": result.game.value, "preset": result.preset, "cards": result.cards,
                "minimal": result.minimal, "searched": result.total_searched,
                "searched_by_cards": {str(k): v for k, v in sorted(result.searched.items())},
                "cut_by_cards": {str(k): v for k, v in sorted(result.cut.items())},
                "most_characters_one_card_shows": result.best,
                "description_characters": result.needed, "assembly": assembly,
                "text": result.report.text if result.report else None}

    def lines(self) -> list[str]:
        """The search as ``cardgen connector solve`` prints it."""
        if self.assembly is None:
            return [f"no assembly of up to {plural(self.max_cards, 'card')} spells the "
                    f"{self.game} description. {self.proof}"]
        out = [f"{self.game}: {plural(len(self.assembly.cards), 'card')} (the fewest). "
               f"{self.proof}"]
        for i, card in enumerate(self.assembly.cards, 1):
            out.append(f"  card {i}: x = {card.x:g} mm, y = {card.y:g} mm, "
                       f"rotation {card.rotation}°, tabs {card.tabs.value}")
        out.append(f"  reads '{self.text}'")
        return out


def _whole(value: int, parameter: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        shown = number(value) if isinstance(value, int | float) else repr(value)
        raise ParameterError(parameter, f"must be from {number(low)} to {number(high)}, not "
                             f"{shown}.", value=value)
    return value


def solve_assembly(game: GameName | str, *, preset: Preset | str = "eu", max_cards: int = 6,
                   cut: bool = True, budget: int = DEFAULT_BUDGET,
                   layout: Path | str | None = None, name: str | None = None,
                   progress: Progress | None = None) -> ConnectorSolution:
    """Find the smallest assembly that spells a game's description, with proof: every
    smaller assembly built from connections was enumerated and fails.

    Args:
        game: rotator, reflector, deflector or defector (or the ``GameName``).
        preset: the card size, eu or us.
        max_cards: search assemblies of at most this many cards (1–8).
        cut: drop branches that cannot show enough text (False: judge every assembly;
            slower, the same answer).
        budget: the most assemblies the search may visit (100 to 5,000,000; each
            million takes about 150 MB).
        layout: a Connector layout file (default: the one cardgen ships).
        name: the stem of the assembly file in ``files`` (default
            ``assembly-GAME-PRESET``).
        progress: told ``(cards being tried, assemblies visited)`` now and then.

    Returns:
        A :class:`ConnectorSolution`; ``cards`` is None when no assembly of up to ``max_cards``
        spells the description.

    Raises:
        SearchGaveUp: the budget ran out first (a :class:`~cardgen.errors.CardgenError`).
        ParameterError: a parameter outside its domain.
        ConfigError: a layout file that breaks its schema.

    Example:
        >>> solve_assembly("reflector", max_cards=2).cards
        2
    """
    from cardgen.api.files import Files
    from cardgen.connector.assembly import assembly_toml
    from cardgen.connector.solve import solve

    chosen = _game(game)
    size = _preset(preset)
    _whole(max_cards, "max_cards", 1, MAX_CARDS)
    _whole(budget, "budget", MIN_BUDGET, MAX_BUDGET)
    stem = check_name(name if name is not None else f"assembly-{chosen.value}-{size.value}")
    result = solve(_layout(layout, size), chosen, size.value, max_cards, cut=cut,
                   budget=budget, progress=progress)
    if result.exhausted is not None:
        raise SearchGaveUp(chosen.value, result.exhausted, result.visited, max_cards, cut)
    solution = ConnectorSolution(
        game=chosen.value, preset=size.value, max_cards=max_cards, cards=result.cards,
        assembly=result.assembly, text=result.report.text if result.report else None,
        searched=dict(sorted(result.searched.items())), cut=dict(sorted(result.cut.items())),
        best=result.best, needed=result.needed, files=Files(), result=result)
    if result.assembly is None:
        return solution
    note = (f"{chosen.value}: the smallest assembly, found by `cardgen connector solve "
            f"{chosen.value} --preset {size.value}`\n{solution.proof}")
    files = Files({f"{stem}.toml": assembly_toml(result.assembly, note).encode()})
    return _replace(solution, files=files)


def _replace(solution: ConnectorSolution, **changes: Any) -> ConnectorSolution:
    from dataclasses import replace

    return replace(solution, **changes)


# --- check --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PresetCheck:
    """A layout checked for one card size: ``sound`` when ``problems`` is empty;
    ``fewest_cards`` is each game's fewest cards (its players)."""

    preset: str
    problems: tuple[str, ...]
    fewest_cards: Mapping[str, int]

    @property
    def sound(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class ConnectorLayoutCheck:
    """A Connector layout checked for each card size asked for (see
    :func:`check_connector_layout`)."""

    presets: tuple[PresetCheck, ...]

    @property
    def sound(self) -> bool:
        return all(p.sound for p in self.presets)

    def as_json(self) -> dict[str, object]:
        """The check as ``cardgen connector check --json`` gives it."""
        return {"presets": {p.preset: {"sound": p.sound, "problems": list(p.problems),
                                       "fewest_cards": dict(p.fewest_cards)}
                            for p in self.presets}}

    def lines(self) -> list[str]:
        """The check as ``cardgen connector check`` prints it."""
        out = []
        for p in self.presets:
            if p.problems:
                out.append(f"{p.preset}: {plural(len(p.problems), 'problem')}:")
                out.extend(f"- {problem}" for problem in p.problems)
            else:
                counts = ", ".join(f"{g} {n}" for g, n in p.fewest_cards.items())
                out.append(f"{p.preset}: sound; the fewest cards are {counts}.")
        return out


def check_connector_layout(layout: Path | str | None = None, *,
                 preset: Preset | str | Sequence[Preset | str] | None = None,
                 progress: Progress | None = None) -> ConnectorLayoutCheck:
    """Check a Connector layout: fragments off their faces or near a cut or score,
    overlaps, text too long for its box, games whose fewest cards differ from their
    players.

    Args:
        layout: a Connector layout file (default: the one cardgen ships).
        preset: the card size(s) to check, eu or us (default: both).
        progress: told ``(card sizes checked, card sizes)`` as each is checked.

    Returns:
        A :class:`ConnectorLayoutCheck` with each card size's problems.

    Raises:
        ConfigError: a layout file that breaks its schema.
        ParameterError: an unknown card size.

    Example:
        >>> check_connector_layout().sound
        True
    """
    from cardgen.connector.check import fit_problems, game_problems, placement_problems
    from cardgen.connector.draw import style_problems, styles_of
    from cardgen.text.fonts import bundled_fonts

    if preset is None:
        sizes = list(presets())
    elif isinstance(preset, str):
        sizes = [_preset(preset)]
    else:
        sizes = list(dict.fromkeys(_preset(p) for p in preset))
    width = bundled_fonts().regular.width
    checked = []
    for done, size in enumerate(sizes):
        if progress is not None:
            progress(done, len(sizes))
        lay = _layout(layout, size)
        problems = style_problems(styles_of(lay))
        problems += placement_problems(lay) + fit_problems(lay, width)
        problems += game_problems(lay, size.value)
        checked.append(PresetCheck(size.value, tuple(problems),
                                   {g.value: n for g, n in lay.players.items()}))
    if progress is not None:
        progress(len(sizes), len(sizes))
    return ConnectorLayoutCheck(tuple(checked))


# --- show ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConnectorPictures:
    """Each game's shipped assembly validated and drawn (see :func:`connector_pictures`):
    ``verdicts`` in the order of the games, ``files`` the pictures."""

    preset: str
    verdicts: tuple[AssemblyVerdict, ...]
    files: Files

    def as_json(self) -> dict[str, object]:
        """The games as ``cardgen connector show --json`` gives them (beside the files)."""
        return {"games": [{"game": v.game, "cards": v.cards, "valid": v.valid,
                           "text": v.text, "steps": list(v.steps)} for v in self.verdicts]}

    def lines(self) -> list[str]:
        """The games as ``cardgen connector show`` prints them."""
        out = []
        for v in self.verdicts:
            state = "" if v.valid else " (NOT VALID: " + v.problems[0] + ")"
            out.append(f"{v.game} ({plural(v.cards, 'card')}){state}: '{v.text}'")
            out.extend(f"  {step}" for step in v.steps)
        return out


def connector_pictures(games: GameName | str | Sequence[GameName | str] | None = None, *,
                       preset: Preset | str = "eu",
                       formats: Sequence[Format | str] | Format | str = ("svg", "png"),
                       name: str = "connector",
                       progress: Progress | None = None) -> ConnectorPictures:
    """Draw each game's shipped assembly and the text it reveals.

    Args:
        games: the games (default: all four, in their order).
        preset: the card size, eu or us.
        formats: svg, png and/or pdf.
        name: the file name stem: ``NAME-GAME-PRESET.svg`` and so on.
        progress: told ``(pictures drawn, pictures)`` as they are drawn.

    Returns:
        :class:`ConnectorPictures`: each game's verdict, and the pictures in ``files``.

    Raises:
        ParameterError: an unknown game, card size or format, or a bad name.

    Example:
        >>> sorted(connector_pictures("rotator", formats="svg").files)
        ['connector-rotator-eu.svg']
    """
    from cardgen.api.files import Files
    from cardgen.connector.assembly import read_assembly, shipped_assembly_path
    from cardgen.connector.picture import picture_bytes
    from cardgen.connector.validate import validate

    if games is None:
        chosen = list(connector_games())
    elif isinstance(games, str):
        chosen = [_game(games)]
    else:
        chosen = [_game(g) for g in games]
    size = _preset(preset)
    kinds = parse_formats(formats, "formats")
    check_name(name)
    lay = _layout(None, size)
    reports = [validate(lay, read_assembly(shipped_assembly_path(g, size))) for g in chosen]
    total, made = len(reports) * len(kinds), dict[str, bytes]()
    for game, report in zip(chosen, reports, strict=True):
        for fmt in kinds:
            if progress is not None:
                progress(len(made), total)
            made[f"{name}-{game.value}-{size.value}.{fmt.value}"] = picture_bytes(report,
                                                                                fmt.value)
    if progress is not None:
        progress(len(made), total)
    return ConnectorPictures(size.value, tuple(_verdict(r, size.value, Files())
                                               for r in reports), Files(made))
