"""Connector beyond one verdict: the search for the smallest assembly that spells a
game's description (:func:`solve_assembly`), the check of a layout
(:func:`check_connector_layout`) and the pictures of the shipped assemblies
(:func:`connector_pictures`), as ``cardgen connector solve|check|show`` make them, in
memory.

A module apart from :mod:`cardgen.api.connector` (which it builds on) so that
validating an assembly, the light command, does not pay for these::

    from cardgen.api.connector_tools import solve_assembly

    found = solve_assembly("reflector", max_cards=2)
    print(found.cards, found.proof)
    found.files.write("out")  # assembly-reflector-eu.toml
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardgen.api.common import Steps, file_stem, format_list, plural, whole_in_range
from cardgen.api.connector import (
    DEFAULT_BUDGET,
    MAX_BUDGET,
    MAX_CARDS,
    MIN_BUDGET,
    AssemblyVerdict,
    _game,
    _layout,
    _preset,
    _verdict,
    connector_games,
    presets,
)
from cardgen.errors import CardgenError, GeneralProblem

if TYPE_CHECKING:
    from cardgen.api.files import Files
    from cardgen.connector.model import Assembly
    from cardgen.connector.solve import SolveResult
    from cardgen.games.names import GameName
    from cardgen.physical.card import Preset
    from cardgen.render import Format

__all__ = [
    "ConnectorLayoutCheck",
    "ConnectorPictures",
    "ConnectorSolution",
    "PresetCheck",
    "SearchGaveUp",
    "check_connector_layout",
    "connector_pictures",
    "solve_assembly",
]


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


def solve_assembly(game: GameName | str, *, preset: Preset | str = "eu", max_cards: int = 6,
                   cut: bool = True, budget: int = DEFAULT_BUDGET,
                   layout: Path | str | None = None, name: str | None = None,
                   comment: str | None = None, progress: Steps | None = None
                   ) -> ConnectorSolution:
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
        comment: the assembly file's first comment line, how it was found (default:
            the game, the card size and cardgen's solver); the proof follows it.
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
    whole_in_range(max_cards, "max_cards", 1, MAX_CARDS)
    whole_in_range(budget, "budget", MIN_BUDGET, MAX_BUDGET)
    stem = file_stem(name if name is not None else f"assembly-{chosen.value}-{size.value}")
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
    if comment is None:
        comment = (f"{chosen.value}: the smallest assembly of {size.value} cards, found by "
                   "cardgen's Connector solver")
    note = f"{comment}\n{solution.proof}"
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
                 progress: Steps | None = None) -> ConnectorLayoutCheck:
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
                       progress: Steps | None = None) -> ConnectorPictures:
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
    kinds = format_list(formats)
    file_stem(name)
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
    return ConnectorPictures(size.value, tuple(_verdict(r, size.value) for r in reports),
                             Files(made))
