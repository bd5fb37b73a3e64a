"""A Node game as data (SPEC §9.8): the record a referee replays, and the report it
writes. Pure: plain frozen values, no reading or writing of files (``recordfile`` reads
records and writes reports; ``engine`` replays a record into a report).

Names follow SPEC §9.1: seats are player ids ``P1`` … ``Pn`` (clockwise), grids are named
after their owner (``P3``) or are Island grids (``I1`` … ``Im``), and a space is a
:data:`Spot` ``(grid, column, row)`` with column 0..9 (A..J) and row 1..10, written
``P2:F3`` (:func:`spot_name`, :func:`parse_spot`). A player's own Nodes and Deflectors are
written as bare coordinates (``F3``) on his own grid.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field

from cardgen.errors import CardgenError
from cardgen.games.names import GameName

COLUMNS = "ABCDEFGHIJ"
Spot = tuple[str, int, int]  # (grid id "P3" / "I1", column 0..9, row 1..10)
Coord = tuple[int, int]  # (column 0..9, row 1..10) on one grid

_SPOT = re.compile(r"^(P[1-9][0-9]*|I[1-9][0-9]*):([A-J])(10|[1-9])$")
_COORD = re.compile(r"^([A-J])(10|[1-9])$")


def coord_name(coord: Coord) -> str:
    """``(5, 3)`` → ``F3``."""
    return f"{COLUMNS[coord[0]]}{coord[1]}"


def spot_name(spot: Spot) -> str:
    """``("P2", 5, 3)`` → ``P2:F3``."""
    return f"{spot[0]}:{coord_name((spot[1], spot[2]))}"


def parse_coord(text: str) -> Coord | None:
    """``F3`` → ``(5, 3)``; None when ``text`` is not a space's coordinates."""
    m = _COORD.match(text)
    return None if m is None else (COLUMNS.index(m[1]), int(m[2]))


def parse_spot(text: str) -> Spot | None:
    """``P2:F3`` → ``("P2", 5, 3)``; None when ``text`` does not name a space (whether the
    grid exists at a table is the engine's question: ``no-such-space``)."""
    m = _SPOT.match(text)
    return None if m is None else (m[1], COLUMNS.index(m[2]), int(m[3]))


def reading_key(spot: Spot) -> tuple[str, int, int]:
    """Sort key for SPEC's reading order within one grid: Row 1 first, A to J in a row."""
    return (spot[0], spot[2], spot[1])


class Variant(enum.StrEnum):
    """The variants a record may name (SPEC §9.5.10-11, §9.6.1)."""

    RICOCHET = "ricochet"  # Deflector, Defector
    REFLECTION = "reflection"  # Deflector only: Reflector-Deflector
    DELUXE = "deluxe"  # Defector: the Business Card Deluxe Collection
    SAFETY = "safety"  # Defector: Safety Among Friends
    ALLIANCE_VICTORY = "alliance-victory"  # Defector: the short game


class Reason(enum.StrEnum):
    """Why a move is illegal (SPEC §9.8), in the order of precedence: when a move breaks
    several rules, the first member of this enum that applies is reported."""

    BAD_SETUP = "bad-setup"
    NOT_YOUR_TURN = "not-your-turn"
    PLAYER_OUT = "player-out"
    NO_SUCH_SPACE = "no-such-space"
    OWN_GRID = "own-grid"
    HELD = "held"
    OWN_TERRITORY = "own-territory"
    ALLY = "ally"
    OUT_OF_REACH = "out-of-reach"
    NOT_DOWN = "not-down"
    CAN_SHOOT = "can-shoot"
    DIVIDED = "divided"
    TWO_MASTERS = "two-masters"
    BAD_LINK = "bad-link"
    NOT_ALLIED = "not-allied"


class IllegalMove(CardgenError):
    """A move the rules do not allow: ``reason`` is its code (SPEC §9.8) and ``rule`` the
    numbered rule of SPEC §9 it breaks (``"9.4.3"``). Raised before anything changes."""

    def __init__(self, reason: Reason, message: str, *, rule: str, move: object = None,
                 ) -> None:
        super().__init__(f"{message} ({reason.value}, SPEC §{rule})", value=move)
        self.reason, self.rule, self.move = reason, rule, move


class Answer(enum.StrEnum):
    """What the owner of a grid answers for a landing (SPEC §9.3.1)."""

    NULL = "Null"
    OWNED = "Owned"
    NODE = "Node"
    DEFLECTOR = "Deflector"


class Ending(enum.StrEnum):
    """Why a game ended (SPEC §9.8, the outcome's ``reason``)."""

    ALL_NODES = "all-nodes"
    SPACE_COUNT = "space-count"
    TRUE_DRAW = "true-draw"
    THRESHOLD = "threshold"
    MAJORITY = "majority"
    LAST_STANDING = "last-standing"
    NONE_LEFT = "none-left"
    TWO_LEFT = "two-left"
    THREE_LEFT = "three-left"
    ALLIANCE = "alliance"
    STALEMATE = "stalemate"


class Result(enum.StrEnum):
    WIN = "win"
    DRAW = "draw"
    NOT_OVER = "not-over"


# --- the record ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerSetup:
    """One seat of the record's ``player`` list."""

    id: str  # "P1" …, in seat order
    name: str
    symbol: str
    nodes: tuple[Coord, ...]  # as written (5 of them when the set-up is good)
    deflectors: tuple[Coord, ...] = ()  # 20 in Deflector and Defector
    line: int = 0  # where the record gives this player (for messages), 0 when unknown


@dataclass(frozen=True)
class Shot:
    by: str
    at: Spot


@dataclass(frozen=True)
class Pass:
    by: str


@dataclass(frozen=True)
class Unite:
    """Defector: ``by`` unites his side with ``other``'s side (SPEC §9.6.4). ``link`` is the
    Link Node designated by the union (if any), ``group`` the members of a new Link group
    formed under a Master at this union (with ``link``), ``master`` the Master Node
    designated (if any)."""

    by: str
    other: str
    link: Spot | None = None
    group: tuple[str, ...] = ()
    master: Spot | None = None


@dataclass(frozen=True)
class Leave:
    by: str


Move = Shot | Pass | Unite | Leave


@dataclass(frozen=True)
class AllianceView:
    """An alliance as a report writes it: its members, its Master Node (or None) and its
    Link groups, each ``(link, member, …)`` with the link written ``P4:G6``."""

    members: tuple[str, ...]
    master: Spot | None = None
    groups: tuple[tuple[Spot, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class Start:
    """A start position (SPEC §9.8 ``[start]``); None fields take the documented
    defaults."""

    to_move: str
    spent: tuple[Spot, ...] = ()
    out: tuple[str, ...] = ()
    divided: tuple[tuple[str, str], ...] = ()
    marks: dict[str, tuple[Spot, ...]] = field(default_factory=dict)
    homes: dict[str, tuple[str, ...]] | None = None
    aimed: dict[str, tuple[str, ...]] | None = None
    turns: dict[str, int] = field(default_factory=dict)
    alliances: tuple[AllianceView, ...] = ()


@dataclass(frozen=True)
class Record:
    game: GameName
    players: tuple[PlayerSetup, ...]
    first: str
    moves: tuple[Move, ...] = ()
    arrangement: str | None = None
    variants: frozenset[Variant] = frozenset()
    start: Start | None = None
    move_lines: tuple[int, ...] = ()  # the record's line of each move, when known


# --- the report ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Fired:
    """One Deflector fired by a capture (``[[report.fired]]``)."""

    source: Spot  # ``from``: the Deflector's own space
    path: tuple[Spot, ...]
    answers: tuple[Answer, ...]


@dataclass(frozen=True)
class Reflection:
    """``[report.reflection]``: the reflected space and its answer; ``answer`` None means
    ``"nothing"`` (the Shooter no longer held it)."""

    at: Spot
    answer: Answer | None


@dataclass(frozen=True)
class MoveReport:
    """One ``[[report]]``: what a referee says about one move. Lists are in the order
    things happened; a capture lists its Node first, then its territory in reading
    order. ``won`` maps a new holder to the spaces that changed to him, in the order they
    changed (insertion order of the dict is the order of first change)."""

    move: int  # index in the record, from 1
    legal: bool = True
    reason: Reason | None = None
    path: tuple[Spot, ...] = ()
    answers: tuple[Answer, ...] = ()
    used: tuple[Spot, ...] = ()
    captured: tuple[Spot, ...] = ()
    revealed: tuple[Spot, ...] = ()
    kept: tuple[Spot, ...] = ()
    spent: tuple[Spot, ...] = ()
    won: dict[str, tuple[Spot, ...]] = field(default_factory=dict)
    fired: tuple[Fired, ...] = ()
    reflection: Reflection | None = None
    out: tuple[str, ...] = ()
    alliances: tuple[AllianceView, ...] | None = None  # None: unchanged by this move
    turns: dict[str, int] = field(default_factory=dict)  # Deluxe counts that changed


@dataclass(frozen=True)
class OutcomeReport:
    """The final ``[outcome]``."""

    result: Result
    reason: Ending | None = None
    winners: tuple[str, ...] = ()
    to_move: str | None = None
    stopped_at: int | None = None
    nodes: dict[str, int] = field(default_factory=dict)
    spaces: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Replay:
    """A record replayed: one report per move replayed (the last one illegal if the replay
    stopped), then the outcome."""

    reports: tuple[MoveReport, ...]
    outcome: OutcomeReport
