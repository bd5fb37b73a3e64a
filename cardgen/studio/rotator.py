"""The studio's Rotator page: play a board by its ID or from a seed, in the browser, with
the engine of ``cardgen rotator play``.

Each game is a :class:`~cardgen.api.rotator.Session` kept on the server under a random
id, in a store of at most :data:`MAX_GAMES` games (the least recently used is dropped
first). The page sends what the player did (a choice's number, undo, hint) and draws
what comes back: :func:`cardgen.api.rotator.rotator_play_record`, the board, the
choices with what each would do, and the verdict in words. No rule is applied in the
browser.

Every answer carries the game's ``version`` (how many decisions and undos it has seen);
a play or an undo names the version it was meant for, so a key pressed twice, or a
second tab, cannot play a turn the player did not see (409).

Routes: ``GET /rotator`` (the page), and ``POST`` ``/api/rotator/new``, ``.../state``,
``.../play``, ``.../undo``, ``.../hint``, each with a JSON object.
"""

from __future__ import annotations

import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardgen.studio.http import HttpError, Request, Response, Route, json_response

if TYPE_CHECKING:
    from cardgen.api.rotator import Session
    from cardgen.studio.app import Studio

MAX_GAMES = 64  # games one studio keeps; the least recently used goes first
MAX_BOARD = 2000  # characters of a board ID or a board file's text
DIFFICULTIES = ("easy", "medium", "hard")
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_SEED = re.compile(r"\s*[+-]?[0-9]{1,40}\s*")


@dataclass
class Game:
    """One game and what guards it: its lock and how many changes it has seen."""

    session: Session
    version: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)


class Games:
    """The games of one studio, by id: at most ``limit``, the least recently used
    dropped first. Safe to use from the server's threads."""

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._games: OrderedDict[str, Game] = OrderedDict()

    def __len__(self) -> int:
        with self._lock:
            return len(self._games)

    def add(self, session: Session) -> str:
        """Keep ``session``; returns its new id."""
        game_id = secrets.token_urlsafe(12)
        with self._lock:
            self._games[game_id] = Game(session)
            while len(self._games) > self.limit:
                self._games.popitem(last=False)
        return game_id

    def get(self, game_id: str) -> Game:
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                raise HttpError(404, f"there is no game {game_id} here (it was never started, "
                                f"or dropped: the studio keeps the {self.limit} latest); "
                                "start a new game.")
            self._games.move_to_end(game_id)
            return game


# --- reading what the page sends ---------------------------------------------------------

def _kind(value: object) -> str:
    return "null" if value is None else {bool: "true or false", int: "a number",
                                         float: "a number", str: "text", list: "a list",
                                         dict: "an object"}.get(type(value), "a value")


def _game_id(body: dict[str, Any]) -> str:
    value = body.get("game")
    if not isinstance(value, str) or not _GAME_ID.fullmatch(value):
        raise HttpError(400, "game must be the id of a game this page started "
                        f"(text of letters, digits, - and _), not {_kind(value)}.")
    return value


def _version(body: dict[str, Any], game: Game) -> None:
    value = body.get("version")
    if isinstance(value, bool) or not isinstance(value, int):
        raise HttpError(400, "version must be the game's version as the page last drew it "
                        f"(a whole number), not {_kind(value)}.")
    if value != game.version:
        raise HttpError(409, f"the game has moved on (it is at version {game.version}, "
                        f"not {value}): draw it again and choose anew.")


def _seed(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _SEED.fullmatch(value):
        return int(value)
    raise HttpError(400, f"seed must be a whole number such as 7, not {_kind(value)}.")


def _difficulty(value: object) -> str:
    if value is None:
        return "easy"
    if not isinstance(value, str) or value.strip().lower() not in DIFFICULTIES:
        raise HttpError(400, "difficulty must be easy, medium or hard, "
                        f"not {_kind(value) if not isinstance(value, str) else 'that text'}.")
    return value.strip().lower()


def _board(body: dict[str, Any]) -> Any:
    """The board the page asks for: by ID (or a board file's text), or from a seed, as
    ``cardgen rotator generate --seed S --count 1 --difficulty D`` makes it."""
    from cardgen.api.rotator import generate_rotator, rotator_board

    board, seed = body.get("board"), body.get("seed")
    if isinstance(board, str) and not board.strip():
        board = None
    if isinstance(seed, str) and not seed.strip():
        seed = None
    if (board is None) == (seed is None):
        raise HttpError(400, "give a board ID or a seed (one of them).")
    if board is not None:
        if not isinstance(board, str):
            raise HttpError(400, f"board must be a board ID such as "
                            f"R1:B2B8E4I2I8-B4E2E8H4I9, not {_kind(board)}.")
        if len(board) > MAX_BOARD:
            raise HttpError(400, f"board is {len(board):,} characters long; a board ID has "
                            f"about 24 and a board file's text at most {MAX_BOARD:,}.")
        return rotator_board(board)
    number, difficulty = _seed(seed), _difficulty(body.get("difficulty"))
    made = generate_rotator(seed=number, count=1, difficulty=difficulty, jobs=1)
    if not made.boards:
        raise HttpError(422, f"seed {number} gave no {difficulty} board in "
                        f"{made.candidates} maps; try another seed.")
    return made.boards[0].rmap


# --- the handlers ----------------------------------------------------------------------

def _answer(game_id: str, game: Game, **more: Any) -> Response:
    from cardgen.api.rotator import rotator_play_record

    return json_response({"game": game_id, "version": game.version,
                          "state": rotator_play_record(game.session), **more})


def _page(_request: Request) -> Response:
    from cardgen.studio.app import asset

    return Response(asset("rotator.html"), "text/html; charset=utf-8")


def new_game(games: Games, request: Request) -> Response:
    """``POST /api/rotator/new`` ``{"board": ID}`` or ``{"seed": S, "difficulty": D}``."""
    from cardgen.api.rotator import play_rotator

    session = play_rotator(_board(request.json()))
    game_id = games.add(session)
    game = games.get(game_id)
    with game.lock:
        return _answer(game_id, game)


def game_state(games: Games, request: Request) -> Response:
    """``POST /api/rotator/state`` ``{"game": ID}``: the game as it stands."""
    body = request.json()
    game_id = _game_id(body)
    game = games.get(game_id)
    with game.lock:
        return _answer(game_id, game)


def play(games: Games, request: Request) -> Response:
    """``POST /api/rotator/play`` ``{"game": ID, "version": V, "option": N}``: take
    choice N (from 1) of the options the page drew at version V."""
    from cardgen.api.rotator import rotator_decide, turn_text

    body = request.json()
    game_id = _game_id(body)
    game = games.get(game_id)
    option = body.get("option")
    with game.lock:
        _version(body, game)
        if isinstance(option, bool) or not isinstance(option, int):
            raise HttpError(400, f"option must be the number of a choice, not {_kind(option)}.")
        report = rotator_decide(game.session, option)
        game.version += 1
        played = None if report is None else turn_text(report, game.session.rmap.nodes)
        return _answer(game_id, game, played=played)


def undo(games: Games, request: Request) -> Response:
    """``POST /api/rotator/undo`` ``{"game": ID, "version": V}``: take back the last
    decision."""
    from cardgen.api.rotator import say

    body = request.json()
    game_id = _game_id(body)
    game = games.get(game_id)
    with game.lock:
        _version(body, game)
        done = game.session.undo()
        if done:
            game.version += 1
        message = (say("rotator_play", "say.undone") if done else
                   say("rotator_play", "say.nothing_to_undo"))
        return _answer(game_id, game, undone=done, message=message)


def hint(games: Games, request: Request) -> Response:
    """``POST /api/rotator/hint`` ``{"game": ID}``: the solver's next step of a shortest
    winning line from here, and the number of that choice."""
    from cardgen.api.rotator import rotator_hint_record

    body = request.json()
    game_id = _game_id(body)
    game = games.get(game_id)
    with game.lock:
        return json_response({"game": game_id, "version": game.version,
                              "hint": rotator_hint_record(game.session)})


def routes(studio: Studio) -> list[Route]:
    """The page and its API, with a store of games of their own for this studio."""
    games = Games()

    def bound(handler: Any) -> Any:
        return lambda request: handler(games, request)

    return [
        Route("GET", "/rotator", _page),
        Route("POST", "/api/rotator/new", bound(new_game)),
        Route("POST", "/api/rotator/state", bound(game_state)),
        Route("POST", "/api/rotator/play", bound(play)),
        Route("POST", "/api/rotator/undo", bound(undo)),
        Route("POST", "/api/rotator/hint", bound(hint)),
    ]
