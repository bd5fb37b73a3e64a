"""The studio's Rotator page, its handlers called directly: games by ID or seed on the
engine of ``cardgen rotator play`` (the same numbers typed at the terminal play the same
game), versions that stop a stale page from playing, undo, hints, a loss explained, a
bounded store of games, and hostile bodies answered with a 4xx and one sentence."""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from cardgen.api import CardgenError, generate_rotator
from cardgen.studio import rotator
from cardgen.studio.app import Studio
from cardgen.studio.http import HttpError, Request, Response
from tests.helpers import cli, ok
from tests.test_hostile_input import FUZZ
from tests.test_rotator_play import Keys

BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"  # best: 5 turns, 7 boosts from A:E10
LOSING = [1, 1, 1, 1, 1]  # A:A10, then fall only: A:A10 fills in under you in turn 4


def post(handler, games: rotator.Games, body: object) -> dict:
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    response = handler(games, Request("POST", "/api/rotator/x", {}, raw))
    assert isinstance(response, Response) and response.status == 200
    return json.loads(response.body)


def new(games: rotator.Games, **body: object) -> dict:
    return post(rotator.new_game, games, body)


def take(games: rotator.Games, answer: dict, option: int) -> dict:
    return post(rotator.play, games, {"game": answer["game"], "version": answer["version"],
                                      "option": option})


def hinted_line(games: rotator.Games, answer: dict) -> tuple[dict, list[int]]:
    """Follow the hints to the end: the last answer and the numbers taken."""
    taken = []
    while answer["state"]["phase"] not in ("won", "lost"):
        hint = post(rotator.hint, games, {"game": answer["game"]})["hint"]
        assert hint["status"] == "win" and hint["option"] is not None
        taken.append(hint["option"])
        answer = take(games, answer, hint["option"])
    return answer, taken


def test_routes_serve_the_page_and_its_api(tmp_path):
    routes = rotator.routes(Studio(None, tmp_path))
    assert [(r.method, r.path) for r in routes] == [
        ("GET", "/rotator"), ("POST", "/api/rotator/new"), ("POST", "/api/rotator/state"),
        ("POST", "/api/rotator/play"), ("POST", "/api/rotator/undo"),
        ("POST", "/api/rotator/hint")]
    page = routes[0].handler(Request("GET", "/rotator"))
    assert page.status == 200 and page.content_type.startswith("text/html")
    html = page.body.decode()
    for linked in ('href="static/rotator.css"', 'src="static/rotator.js"',
                   'href="static/studio.css"', 'aria-live="polite"', "<kbd>U</kbd>",
                   "<kbd>H</kbd>", "<kbd>N</kbd>", "<kbd>Enter</kbd>"):
        assert linked in html
    # Each studio has its own games: one made in a studio is unknown to another.
    made = json.loads(routes[1].handler(Request("POST", "/api/rotator/new", {},
                                                json.dumps({"board": BOARD}).encode())).body)
    other = rotator.routes(Studio(None, tmp_path))
    with pytest.raises(HttpError) as refused:
        other[2].handler(Request("POST", "/api/rotator/state", {},
                                 json.dumps({"game": made["game"]}).encode()))
    assert refused.value.status == 404


def test_a_game_by_id_is_the_terminals_game_won_by_the_hints(monkeypatch):
    games = rotator.Games()
    first = new(games, board=" r1:b2b8e4i2i8-b4e2e8h4i9 ")
    state = first["state"]
    assert (first["version"], state["board_id"], state["phase"]) == (0, BOARD, "start")
    assert [o["name"] for o in state["options"]][:3] == ["A:A10", "A:B10", "A:C10"]
    assert state["status"] == "Turn 1 · gravity ↓ down, toward grid B"
    last, taken = hinted_line(games, first)
    assert last["version"] == len(taken) == 8
    verdict = last["state"]["verdict"]
    assert verdict["won"] and verdict["text"] == (
        "You win in turn 5: you reached grid B's Row 10 at B:A10, spending 7 of your 10 "
        "boost spaces.")
    assert last["played"] == verdict["why"] and verdict["why"].endswith(": won")
    # The same numbers typed at `cardgen rotator play` play the same game.
    monkeypatch.setattr("sys.stdin", Keys([*map(str, taken), "l", "q"]))
    out = ok(cli("rotator", "play", BOARD)).stdout
    assert "You win: you reached grid B's Row 10 in turn 5" in out
    for line in last["state"]["log"]["turns"]:
        assert f"  {line}\n" in out


def test_a_game_from_a_seed_is_the_board_generate_makes():
    games = rotator.Games()
    for body, difficulty in (({"seed": 7}, "easy"), ({"seed": " 7 ", "difficulty": "Hard"},
                                                     "hard")):
        made = generate_rotator(seed=7, count=1, difficulty=difficulty, jobs=1)
        assert new(games, **body)["state"]["board_id"] == made.board_ids[0]
    assert len(games) == 2


def test_a_loss_is_explained_and_undone():
    games = rotator.Games()
    answer = new(games, board=BOARD)
    states = [answer["state"]]
    for n in LOSING:
        answer = take(games, answer, n)
        states.append(answer["state"])
    state = answer["state"]
    assert state["phase"] == "lost" and state["options"] == [] and state["question"] is None
    assert state["verdict"] == {
        "won": False,
        "text": "You lose in turn 4: A:A10, the square you stood on after the fall, was "
                "touched in turn 1 and filled in at the collapse step of turn 4.",
        "why": "Turn 4 ←: A:A10 collapses under you: lost",
        "after": "Press U to take that turn back, or N for a new game."}
    # Before the losing turn, the page was told: it fills in now, under the player.
    before = states[-2]
    assert before["fills"] == "Fills in this turn: A:A10 (touched in turn 1)."
    assert before["fills_under"] == (
        "Careful: you stand on one of them unless the fall carries you off it.")
    assert before["cells"][0][9]["due"] and before["options"][0]["lost"]
    hint = post(rotator.hint, games, {"game": answer["game"]})["hint"]
    assert hint == {"status": "over", "option": None,
                    "text": "The game is over; there is nothing left to hint."}
    with pytest.raises(CardgenError, match="option cannot be taken: the game is over"):
        take(games, answer, 1)
    # Undo walks back every decision, each to the state drawn before it.
    for expected in reversed(states[:-1]):
        answer = post(rotator.undo, games, {"game": answer["game"],
                                            "version": answer["version"]})
        assert answer["undone"] and answer["message"] == "Taken back."
        assert answer["state"] == expected
    answer = post(rotator.undo, games, {"game": answer["game"], "version": answer["version"]})
    assert not answer["undone"] and answer["message"] == "Nothing to take back."
    assert answer["version"] == 2 * len(LOSING)
    # From A:A10 nothing wins: the hint says so.
    lost = take(games, answer, 1)
    assert post(rotator.hint, games, {"game": lost["game"]})["hint"]["status"] == "lost"


def test_a_stale_page_cannot_play_and_bad_choices_are_refused():
    games = rotator.Games()
    answer = new(games, board=BOARD)
    moved = take(games, answer, 5)
    with pytest.raises(HttpError) as stale:
        take(games, answer, 5)  # the same key again, from the page as it was
    assert stale.value.status == 409 and "version 1, not 0" in stale.value.message
    with pytest.raises(CardgenError, match="option must be a whole number from 1 to 4, not 5"):
        take(games, moved, 5)
    with pytest.raises(HttpError) as wrong:
        post(rotator.play, games, {"game": moved["game"], "version": 1, "option": "2"})
    assert wrong.value.status == 400 and wrong.value.message == (
        "option must be the number of a choice, not text.")
    drawn = dict(moved)
    assert drawn.pop("played") is None  # a start square chosen: no turn played yet
    assert post(rotator.game_state, games, {"game": moved["game"]}) == drawn


@pytest.mark.parametrize("body,status,message", [
    ({}, 400, "give a board ID or a seed (one of them)."),
    ({"board": BOARD, "seed": 7}, 400, "give a board ID or a seed (one of them)."),
    ({"board": "  ", "seed": ""}, 400, "give a board ID or a seed (one of them)."),
    ({"board": 7}, 400, "board must be a board ID such as R1:B2B8E4I2I8-B4E2E8H4I9, not a "
                        "number."),
    ({"board": "R1:" + "B2" * 1500}, 400, "board is 3,003 characters long; a board ID has "
                                         "about 24 and a board file's text at most 2,000."),
    ({"seed": "seven"}, 400, "seed must be a whole number such as 7, not text."),
    ({"seed": 1.5}, 400, "seed must be a whole number such as 7, not a number."),
    ({"seed": True}, 400, "seed must be a whole number such as 7, not true or false."),
    ({"seed": 7, "difficulty": "extreme"}, 400,
     "difficulty must be easy, medium or hard, not that text."),
])
def test_bad_games_are_refused_in_one_sentence(body, status, message):
    with pytest.raises(HttpError) as refused:
        new(rotator.Games(), **body)
    assert (refused.value.status, refused.value.message) == (status, message)


@pytest.mark.parametrize("body,needle", [
    ({"board": "R1:B2B8E4I2I8-B4E2E8H4IX"}, "board ID 'R1:B2B8E4I2I8-B4E2E8H4IX' is "
                                            "malformed: character 24"),
    ({"board": "R1:B2B2E4I2I8-B4E2E8H4I9"}, "R1:B2B2E4I2I8-B4E2E8H4I9"),
    ({"seed": 2 ** 64}, "seed must be from -9223372036854775808 to 9223372036854775807"),
])
def test_a_board_the_rules_refuse_raises_the_domains_error(body, needle):
    with pytest.raises(CardgenError) as refused:
        new(rotator.Games(), **body)
    text = str(refused.value)
    assert needle in text and "\n" not in text


def test_the_store_keeps_the_latest_games():
    games = rotator.Games(limit=3)
    ids = [new(games, board=BOARD)["game"] for _ in range(3)]
    post(rotator.game_state, games, {"game": ids[0]})  # used: now the latest
    ids += [new(games, board=BOARD)["game"]]
    assert len(games) == 3 and len(set(ids)) == 4
    with pytest.raises(HttpError) as gone:
        post(rotator.game_state, games, {"game": ids[1]})
    assert gone.value.status == 404 and "keeps the 3 latest" in gone.value.message
    for kept in (ids[0], ids[2], ids[3]):
        post(rotator.game_state, games, {"game": kept})
    assert rotator.MAX_GAMES == rotator.Games().limit == 64


# --- hostile bodies -----------------------------------------------------------------

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                     | st.text(max_size=40),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                     max_leaves=8)
_FIELDS = ["game", "version", "option", "board", "seed", "difficulty"]
_GAMES = rotator.Games()
_LIVE = new(_GAMES, board=BOARD)


@FUZZ
@given(handler=st.sampled_from([rotator.new_game, rotator.game_state, rotator.play,
                                rotator.undo, rotator.hint]),
       body=st.one_of(
           st.dictionaries(st.sampled_from(_FIELDS), _JSON | st.just(_LIVE["game"])
                           | st.sampled_from([0, 1, 5, BOARD, "7", "hard"]), max_size=4),
           _JSON.map(lambda v: json.dumps(v).encode()),
           st.binary(max_size=30)))
@example(handler=rotator.play, body={"game": _LIVE["game"], "version": 0, "option": 99})
@example(handler=rotator.new_game, body={"board": "nodes = [1, 2]"})
@example(handler=rotator.new_game, body={"seed": "-0", "difficulty": "medium"})
def test_any_body_gets_an_answer_or_one_sentence(handler, body):
    raw = body if isinstance(body, bytes) else json.dumps(body).encode()
    try:
        response = handler(_GAMES, Request("POST", "/api/rotator/x", {}, raw))
    except HttpError as refused:
        assert 400 <= refused.status < 500
        assert refused.message and "\n" not in refused.message
    except CardgenError as refused:  # the server answers 422 with its sentence
        assert str(refused) and "\n" not in str(refused)
    else:
        assert response.status == 200
        json.loads(response.body)


# --- over the studio's real sockets -----------------------------------------------------

def test_the_page_and_its_answers_over_the_studios_server(tmp_path):
    from cardgen.studio.server import StudioServer
    from tests.test_studio_server import request

    log: list[str] = []
    server = StudioServer(Studio(None, tmp_path, log=log.append))
    server.start()
    studio = type("Running", (), {"server": server, "token": server.token})

    def send(path: str, value: object) -> tuple[int, dict]:
        status, _, body = request(studio, "POST", f"/{server.token}{path}",
                                  body=json.dumps(value).encode(),
                                  headers={"Content-Type": "application/json"})
        return status, json.loads(body)

    try:
        status, _, page = request(studio, "GET", f"/{server.token}/rotator")
        assert status == 200 and page.startswith(b"<!doctype html>")
        for name in ("rotator.js", "rotator.css"):
            status, _, _ = request(studio, "GET", f"/{server.token}/static/{name}")
            assert status == 200
        status, made = send("/api/rotator/new", {"board": BOARD})
        assert status == 200 and made["state"]["board_id"] == BOARD
        status, refused = send("/api/rotator/new", {"board": "R1:B2B8E4I2I8-B4E2E8H4IX"})
        assert status == 422 and refused["error"].startswith("board ID 'R1:B2B8E4I2I8-B4E2E8H4IX'"
                                                            " is malformed")
        status, refused = send("/api/rotator/play", {"game": made["game"], "version": 3,
                                                     "option": 1})
        assert status == 409 and "version 0, not 3" in refused["error"]
        status, refused = send("/api/rotator/state", {"game": "nope"})
        assert status == 404 and refused["error"].startswith("there is no game nope here")
        status, _, body = request(studio, "POST", f"/{server.token}/api/rotator/hint",
                                  body=b"[1, 2]", headers={"Content-Type": "application/json"})
        assert status == 400 and "not an object" in json.loads(body)["error"]
        # One line in the log for each refusal, and nothing else.
        assert [line.split(" ", 1)[0] for line in log] == ["422", "409", "404", "400"]
    finally:
        server.stop()
