"""Every game cardgen knows as a :class:`~cardgen.games.base.Game`, by
:class:`~cardgen.games.names.GameName`: Rotator and the three Node games (Connector and
Corporate Ladder are products of their own, not games of this interface).

This is the one door to the games for the command line, the puzzle book's callers and
the rules figures: :func:`get_game` for the common interface, :func:`rotator` for
Rotator's game object with its own extras (board files, graded generation, the terminal
session), and, below, the few Rotator types and words its commands name, re-exported so
that nothing outside ``games`` imports a game's package.
"""

from __future__ import annotations

import functools
from typing import Any

from cardgen.errors import ParameterError, shorten
from cardgen.games.base import Capability, Game, Outcome, Players, Unsupported
from cardgen.games.names import GameName
from cardgen.games.rotator.board import RotatorMap, sort_key
from cardgen.games.rotator.describe import (
    ARROWS,
    GRAVITY_WORDS,
    NODE_MARK,
    SOLID_MARK,
    plural,
    turn_text,
)
from cardgen.games.rotator.engine import BOOST_CACHE, Choice, TurnReport, gravity
from cardgen.games.rotator.game import ROTATOR, Position, RotatorGame, StartColumn
from cardgen.games.rotator.generator import Grade, GradedBoard
from cardgen.games.rotator.play import Hint, HintStatus, Phase, Session
from cardgen.games.rotator.solver import Solution, StartResult, Status
from cardgen.schema import closest


@functools.cache
def _registry() -> dict[GameName, Game[Any, Any, Any, Any]]:
    """Every game by name, made when first asked for: the Node games' modules are a
    third of a cold ``cardgen rotator solve``, which needs Rotator only."""
    from cardgen.games.nodes.game import DEFECTOR, DEFLECTOR, REFLECTOR

    return {game.name: game for game in (ROTATOR, REFLECTOR, DEFLECTOR, DEFECTOR)}


def __getattr__(name: str) -> Any:
    if name == "REGISTRY":  # every game by name, as :func:`games` (read, it is made)
        return _registry()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ARROWS", "BOOST_CACHE", "GRAVITY_WORDS", "NODE_MARK", "SOLID_MARK",
    "Capability", "Choice", "Game", "Grade", "GradedBoard", "Hint", "HintStatus", "Outcome",
    "Phase", "Players", "Position", "RotatorGame", "RotatorMap", "Session", "Solution",
    "StartColumn", "StartResult", "Status", "TurnReport", "Unsupported", "games", "get_game",
    "gravity", "plural", "rotator", "sort_key", "turn_text",
]


def games() -> dict[GameName, Game[Any, Any, Any, Any]]:
    """Every registered game, in the order of :class:`GameName`."""
    return dict(_registry())


def get_game(name: str | GameName) -> Game[Any, Any, Any, Any]:
    """The game called ``name`` (any case, spaces around); a ParameterError naming the
    closest game, or listing them, for any other name."""
    known = [game.value for game in _registry()]
    key = name.value if isinstance(name, GameName) else name.strip().lower()
    if key not in known:
        raise ParameterError("game", f"must be a game cardgen knows, not {shorten(str(name))}"
                             + closest(key, known, known), value=name)
    return _registry()[GameName(key)]


def rotator() -> RotatorGame:
    """Rotator's game object, typed as itself: the interface and Rotator's extras."""
    return ROTATOR
