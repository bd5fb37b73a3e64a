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
(``verdict.files.write(folder)`` writes them). The search, the layout check and the
pictures of the shipped assemblies are in :mod:`cardgen.api.connector_tools` (so that
validating, the light command, pays nothing for them). Bad input raises
:class:`~cardgen.errors.ConfigError` (the assembly's problems, each with its code) or
:class:`~cardgen.errors.ParameterError` (a parameter, named as here). Heavy libraries
load only when a picture is drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api.common import check_output_folder as check_output
from cardgen.api.common import choice, plural
from cardgen.api.common import file_stem as check_name
from cardgen.errors import ParameterError, Problem

if TYPE_CHECKING:
    from cardgen.api.files import Files
    from cardgen.connector.model import Assembly, CardLayout
    from cardgen.connector.validate import AssemblyProblem, Report
    from cardgen.games.names import GameName
    from cardgen.physical.card import Preset

    AssemblyInput = Path | str | Mapping[str, Any] | Assembly  # a file, TOML text, a mapping

__all__ = [
    "DEFAULT_BUDGET",
    "MAX_BUDGET",
    "MAX_CARDS",
    "MIN_BUDGET",
    "AssemblyVerdict",
    "Connection",
    "check_name",
    "check_output",
    "connector_games",
    "load_assembly",
    "picture_format",
    "presets",
    "validate_assembly",
]

MAX_CARDS = 8  # the most cards a search may place
MIN_BUDGET = 100
MAX_BUDGET = 5_000_000  # about 750 MB of seen assemblies: the peak stays under 1 GB
DEFAULT_BUDGET = 2_000_000  # the solver's own default


def connector_games() -> tuple[GameName, ...]:
    """The games whose description an assembly spells: rotator, reflector, deflector,
    defector (members of :class:`cardgen.games.names.GameName`).

    Example:
        >>> [game.value for game in connector_games()]
        ['rotator', 'reflector', 'deflector', 'defector']
    """
    from cardgen.games.names import CONNECTOR_GAMES

    return tuple(CONNECTOR_GAMES)


def presets() -> tuple[Preset, ...]:
    """The card sizes: eu (85 × 55 mm) and us (3.5 × 2 in).

    Example:
        >>> [preset.value for preset in presets()]
        ['eu', 'us']
    """
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
    assembly's); ``files`` the picture asked for, if any (``pictures``: the same as
    pairs of name and bytes)."""

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
    report: Report = field(repr=False, compare=False)  # the validator's own, for pictures
    pictures: tuple[tuple[str, bytes], ...] = field(default=(), repr=False)

    @property
    def files(self) -> Files:
        """The picture asked for, by its name (none unless asked for)."""
        from cardgen.api.files import Files  # (only when asked: a light command's cost)

        return Files(self.pictures)

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


def _verdict(report: Report, preset: str, pictures: tuple[tuple[str, bytes], ...] = ()
             ) -> AssemblyVerdict:
    from cardgen.connector.validate import instructions

    problems = tuple(Problem(text, code) for text, code in zip(report.problems, report.codes,
                                                               strict=True))
    return AssemblyVerdict(
        valid=report.valid, game=report.game.value, preset=preset, cards=report.cards,
        text=report.text, description=report.description, problems=problems,
        hints=tuple(report.hints), codes=tuple(report.codes),
        connections=tuple(Connection(c.upper + 1, c.number, c.lower + 1, round(c.offset, 2))
                          for c in report.connections),
        steps=tuple(instructions(report)) if report.valid else (), report=report,
        pictures=pictures)


def picture_format(name: str | Path) -> str:
    """The format of a picture file, from its suffix.

    Args:
        name: the picture's file name (or path).

    Returns:
        ``svg``, ``png`` or ``pdf``.

    Raises:
        ParameterError: any other suffix (naming ``picture``).

    Example:
        >>> picture_format("assembly.PNG")
        'png'
    """
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
    pictures: tuple[tuple[str, bytes], ...] = ()
    if picture is not None and fmt is not None:
        from cardgen.connector.picture import picture_bytes

        pictures = ((str(picture), picture_bytes(report, fmt, reveal=reveal)),)
    return _verdict(report, spec.preset, pictures)
