"""Connector by hand: a picture of one card to lay copies of, where a card laid near a
connection snaps to, the verdict with where its parts lie on the table, the next step
towards the shipped answer, and an assembly as the file ``connector validate`` reads.

What the studio's Connector page asks of the library (and any other front end that lets
a person try the puzzle)::

    from cardgen.api.sandbox import connector_hint, snap_card

    layout = {"game": "reflector", "card": [{"x": 0, "y": 0, "rotation": 90},
               {"x": 1, "y": 12, "rotation": 90, "tabs": "folded"}]}
    snapped = snap_card(layout, 2)          # card 2 moves onto its connection
    print(connector_hint(snapped.assembly).text)

Assemblies are given as :func:`cardgen.api.connector.load_assembly` takes them (a file,
TOML text, a mapping or an :class:`~cardgen.connector.model.Assembly`); cards are
counted from 1, bottom first, as everywhere else. Nothing is printed or written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardgen.api.connector import AssemblyVerdict, _layout, _preset, _verdict, load_assembly
from cardgen.errors import ParameterError

if TYPE_CHECKING:
    from cardgen.api.connector import AssemblyInput
    from cardgen.api.files import Files
    from cardgen.connector.model import Assembly, Tabs
    from cardgen.physical.card import Preset

__all__ = [
    "SNAP_REACH",
    "CardSnap",
    "ConnectorCard",
    "ConnectorHint",
    "SandboxGame",
    "SandboxVerdict",
    "assembly_file",
    "connector_card",
    "connector_hint",
    "sandbox_games",
    "sandbox_verdict",
    "snap_card",
]

SNAP_REACH = 6.0  # mm: the default reach of a snap (cardgen.connector.sandbox's)


def _tabs(value: Tabs | str) -> Tabs:
    from cardgen.api.common import choice
    from cardgen.connector.model import Tabs

    return choice(Tabs, value, "tabs")


@dataclass(frozen=True)
class ConnectorCard:
    """One card as it shows from the back, upright (see :func:`connector_card`):
    ``width`` × ``height`` mm, its picture in ``files`` (one SVG whose user unit is a
    millimetre and whose top-left corner is the card's)."""

    preset: str
    tabs: str
    width: float
    height: float
    files: Files

    @property
    def svg(self) -> bytes:
        """The picture's bytes."""
        return next(iter(self.files.values()))


def connector_card(preset: Preset | str = "eu", tabs: Tabs | str = "open") -> ConnectorCard:
    """A picture of one card's back, upright, with its tabs open or folded back: every
    face, piece of text and number as ``cardgen connector show`` draws a card, every
    game in its colour. A page lays copies of it as the assembly file places cards: its
    centre at (x, y), turned ``rotation`` degrees clockwise about it.

    Args:
        preset: the card size, eu or us.
        tabs: open or folded.

    Returns:
        A :class:`ConnectorCard`; ``files`` holds ``connector-card-PRESET-TABS.svg``.

    Raises:
        ParameterError: an unknown card size or tabs.

    Example:
        >>> card = connector_card("eu", "folded")
        >>> card.width, card.height, sorted(card.files)
        (85.0, 55.0, ['connector-card-eu-folded.svg'])
    """
    from cardgen.api.files import Files
    from cardgen.connector.picture import card_picture_svg

    size, state = _preset(preset), _tabs(tabs)
    layout = _layout(None, size)
    svg = card_picture_svg(layout, state)
    return ConnectorCard(size.value, state.value, layout.shape.width, layout.shape.height,
                         Files({f"connector-card-{size.value}-{state.value}.svg": svg}))


@dataclass(frozen=True)
class SandboxGame:
    """A game as a page offers it (see :func:`sandbox_games`): its name, the colour
    name and screen colour (``rgb``, ``#rrggbb``) of its text and numbers, the shape
    that tells it apart without colour, and the cards (players) it takes."""

    game: str
    colour: str
    rgb: str
    shape: str
    players: int


def sandbox_games(preset: Preset | str = "eu") -> tuple[SandboxGame, ...]:
    """The games an assembly of cards of a size can spell, as the layout gives them.

    Args:
        preset: the card size, eu or us.

    Returns:
        A :class:`SandboxGame` for each game, in the games' order.

    Raises:
        ParameterError: an unknown card size.

    Example:
        >>> ", ".join(f"{g.game} {g.players}" for g in sandbox_games())
        'rotator 1, reflector 2, deflector 3, defector 6'
    """
    from cardgen.api.connector import connector_games

    layout = _layout(None, _preset(preset))
    out = []
    for game in connector_games():
        look = layout.colours.get(game)
        out.append(SandboxGame(game.value, layout.colour_names.get(game, game.value),
                               look.rgb if look else "#bbbbbb",
                               look.shape.value if look else "square",
                               layout.players[game]))
    return tuple(out)


def _card_number(card: Any, cards: int) -> int:
    if isinstance(card, bool) or not isinstance(card, int) or not 1 <= card <= cards:
        raise ParameterError("card", f"must be a card's number, from 1 to {cards} (the "
                             f"bottom card is 1), not {card!r}.", value=card)
    return card


@dataclass(frozen=True)
class CardSnap:
    """A card moved onto the connection nearest it (see :func:`snap_card`):
    ``assembly`` with the card moved (the same assembly when ``snapped`` is false);
    ``upper``'s corner ``number`` lies on ``lower``'s number of the game's colour
    (cards from 1), the card moved ``moved_mm``."""

    assembly: Assembly
    card: int
    snapped: bool
    upper: int | None = None
    lower: int | None = None
    number: int | None = None
    moved_mm: float = 0.0


def snap_card(assembly: AssemblyInput, card: int, *, reach: float = SNAP_REACH) -> CardSnap:
    """Snap a card laid by hand onto the nearest connection, as the rules book has
    cards meet: one of its corner numbers onto the same number in the game's colour on
    a card below it (earlier in the assembly), or one of its numbers of the game's
    colour under a corner number of a card above it, centre on centre, when the two are
    within ``reach`` mm and no card between them hides the lower one. The card keeps
    its turn, tabs and place in the stack; nothing else moves.

    Args:
        assembly: a file, TOML text, a mapping or an Assembly (see
            :func:`~cardgen.api.connector.load_assembly`).
        card: the card that was moved, from 1 (the bottom card).
        reach: how near (mm, 0 to 50) two numbers must be to snap.

    Returns:
        A :class:`CardSnap`: the assembly with the card moved, or as it was.

    Raises:
        ConfigError: the assembly breaks its schema.
        ParameterError: ``card`` is not one of its cards, or ``reach`` out of range.

    Example:
        >>> layout = {"game": "reflector", "card": [
        ...     {"x": 0, "y": 0, "rotation": 90},
        ...     {"x": 1, "y": 12.5, "rotation": 90, "tabs": "folded"}]}
        >>> moved = snap_card(layout, 2)
        >>> moved.snapped, moved.assembly.cards[1].y
        (True, 11.6)
    """
    from dataclasses import replace

    from cardgen.connector.sandbox import snap
    from cardgen.physical.card import Preset

    if isinstance(reach, bool) or not isinstance(reach, int | float) or not 0 <= reach <= 50:
        raise ParameterError("reach", f"must be a distance in mm from 0 to 50, not "
                             f"{reach!r}.", value=reach)
    spec = load_assembly(assembly)
    _card_number(card, len(spec.cards))
    found = snap(_layout(None, Preset(spec.preset)), spec, card - 1, float(reach))
    if found is None:
        return CardSnap(spec, card, False)
    cards = list(spec.cards)
    cards[card - 1] = replace(cards[card - 1], x=found.x, y=found.y)
    return CardSnap(replace(spec, cards=tuple(cards)), card, True, found.upper + 1,
                    found.lower + 1, found.number, found.moved)


@dataclass(frozen=True)
class SandboxVerdict:
    """:func:`~cardgen.api.connector.validate_assembly`'s verdict with where its parts
    lie on the table (mm, the assembly's frame): each connection's ``joints`` (x, y),
    the boxes (x, y, w, h) of the game's upright pieces of text that cards above
    cover only in part (``half_covered``, with the cards covering them) and of those
    read so far, in reading order (``read``)."""

    verdict: AssemblyVerdict
    colour: str
    joints: tuple[tuple[float, float], ...]
    half_covered: tuple[tuple[int, tuple[float, float, float, float], tuple[int, ...]], ...]
    read: tuple[tuple[float, float, float, float], ...]

    def as_json(self) -> dict[str, object]:
        """What a page shows, quoting no text of an attempt that is not valid but what
        its cards show (``text``: what reads so far; ``description`` and ``steps``
        only once valid); ``problems`` are the verdict's hints (quoting no text)."""
        v = self.verdict
        pieces = v.report.pieces
        return {
            "valid": v.valid, "game": v.game, "preset": v.preset, "colour": self.colour,
            "cards": v.cards, "text": v.text,
            "description": v.description if v.valid else None,
            "pieces": None if pieces is None else {
                "visible": pieces.visible, "needed": pieces.needed, "other": pieces.other},
            "problems": list(v.hints), "codes": [c.value for c in v.codes],
            "connections": [{"card": c.card, "corner": c.corner, "onto_card": c.onto_card,
                             "offset_mm": c.offset_mm, "x": x, "y": y}
                            for c, (x, y) in zip(v.connections, self.joints, strict=True)],
            "half_covered": [{"card": card, "box": list(box), "by": list(by)}
                             for card, box, by in self.half_covered],
            "read": [list(box) for box in self.read],
            "steps": list(v.steps),
        }


def _box(box: Any) -> tuple[float, float, float, float]:
    return (round(box.x, 2), round(box.y, 2), round(box.w, 2), round(box.h, 2))


def sandbox_verdict(assembly: AssemblyInput) -> SandboxVerdict:
    """Validate an assembly as ``connector validate`` does and say where on the table
    its connections, half-covered pieces and read pieces lie (for a page to mark them).

    Args:
        assembly: a file, TOML text, a mapping or an Assembly.

    Returns:
        A :class:`SandboxVerdict`.

    Raises:
        ConfigError: the assembly breaks its schema.

    Example:
        >>> found = sandbox_verdict(Path("templates/connector/reflector.toml"))
        >>> found.verdict.valid, len(found.joints)
        (True, 2)
    """
    from cardgen.connector.model import Cover, Fragment, Mark
    from cardgen.connector.validate import colour_name, validate
    from cardgen.physical.card import Preset

    spec = load_assembly(assembly)
    layout = _layout(None, Preset(spec.preset))
    report = validate(layout, spec)
    scene = report.scene
    assert scene is not None
    joints = []
    for c in report.connections:
        corner = next(p for p in scene.marks if p.card == c.upper and isinstance(p.item, Mark)
                      and p.item.game is None and p.item.number == c.number)
        x, y = corner.box.center
        joints.append((round(x, 2), round(y, 2)))
    half = []
    for p in scene.fragments:
        if isinstance(p.item, Fragment) and p.item.game is spec.game and p.upright:
            cover, by = scene.cover(p)
            if cover is Cover.PARTLY:
                half.append((p.card + 1, _box(p.box), tuple(b + 1 for b in by)))
    return SandboxVerdict(_verdict(report, spec.preset), colour_name(layout, spec.game),
                          tuple(joints), tuple(half), tuple(_box(p.box) for p in report.read))


@dataclass(frozen=True)
class ConnectorHint:
    """The next step towards the shipped answer (see :func:`connector_hint`): ``text``
    quotes none of the game's text; ``card`` is the card it is about (from 1; None for
    the count of cards, or when solved); ``done`` of ``steps`` checks already pass."""

    text: str
    card: int | None
    done: int
    steps: int
    solved: bool

    def as_json(self) -> dict[str, object]:
        return {"text": self.text, "card": self.card, "done": self.done,
                "steps": self.steps, "solved": self.solved}


def connector_hint(assembly: AssemblyInput) -> ConnectorHint:
    """One step from an attempt towards the answer cardgen ships for its game and card
    size (``templates/connector/GAME[-us].toml``), without giving its text away: first
    how many cards, then, card by card in the order a person lays the answer, each
    card's turn, its tabs, and which of its numbers goes on which (*Turn card 2 a quarter
    clockwise.*, *Fold card 2's tabs back.*, *Put card 2's pale corner 5 on card 1's
    yellow 5.*). Cards are matched by their place in the stack; a card's place is
    judged against the card it joins, within the validator's tolerance. An attempt
    that is valid is solved, whether or not it is the shipped answer.

    Args:
        assembly: a file, TOML text, a mapping or an Assembly.

    Returns:
        A :class:`ConnectorHint`.

    Raises:
        ConfigError: the assembly breaks its schema.

    Example:
        >>> connector_hint({"game": "reflector", "card": [{"x": 0, "y": 0}]}).text
        'The Reflector takes 2 cards: add 1 more card.'
    """
    from cardgen.connector.assembly import read_assembly, shipped_assembly_path
    from cardgen.connector.sandbox import next_step
    from cardgen.physical.card import Preset

    spec = load_assembly(assembly)
    size = Preset(spec.preset)
    answer = read_assembly(shipped_assembly_path(spec.game, size))
    step = next_step(_layout(None, size), spec, answer)
    return ConnectorHint(step.text, None if step.card is None else step.card + 1,
                         step.done, step.steps, step.solved)


def assembly_file(assembly: AssemblyInput, *, comment: str = "") -> str:
    """An assembly as the file ``cardgen connector validate`` reads (the same text as
    ``connector solve`` writes for the same assembly).

    Args:
        assembly: a file, TOML text, a mapping or an Assembly.
        comment: lines to put first, each as a comment.

    Returns:
        The TOML text.

    Raises:
        ConfigError: the assembly breaks its schema.
        ParameterError: ``comment`` that is not text.

    Example:
        >>> print(assembly_file({"game": "rotator", "card": [{"x": 0, "y": 0}]}), end="")
        game = "rotator"
        preset = "eu"
        <BLANKLINE>
        [[card]]
        x = 0.0
        y = 0.0
        rotation = 0
        tabs = "open"
    """
    from cardgen.connector.assembly import assembly_toml

    if not isinstance(comment, str):
        raise ParameterError("comment", f"must be text, not {type(comment).__name__}.",
                             value=comment)
    return assembly_toml(load_assembly(assembly), comment)

