"""Every game cardgen can generate, solve and print, by name."""

from __future__ import annotations

from typing import Any

from cardgen.errors import ParameterError, shorten
from cardgen.games.base import Game


def games() -> dict[str, Game[Any, Any]]:
    from cardgen.games.rotator.game import ROTATOR

    return {ROTATOR.name: ROTATOR}


def get_game(name: str) -> Game[Any, Any]:
    known = games()
    if name not in known:
        raise ParameterError("game", f"must be one of {', '.join(known)}, not {shorten(name)}.",
                             value=name)
    return known[name]
