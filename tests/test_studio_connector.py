"""The studio's Connector page handlers (cardgen.studio.connector), called directly: the
page, a card's picture, verdicts, snapping, hints, saving and loading an assembly file;
anything a client sends is refused with a 4xx and one sentence, never a fault."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.api import CardgenError, example_config, load_assembly
from cardgen.studio.app import Studio
from cardgen.studio.connector import routes
from cardgen.studio.http import HttpError, Request, Response
from tests.helpers import ROOT

FUZZ = settings(derandomize=True, deadline=None, max_examples=60)
REFLECTOR = ROOT / "templates" / "connector" / "reflector.toml"


@pytest.fixture
def studio(tmp_path: Path) -> Studio:
    return Studio(None, tmp_path / "out")


def handler(studio: Studio, method: str, path: str) -> Any:
    found = [r.handler for r in routes(studio) if r.method == method and r.path == path]
    assert len(found) == 1, path
    return found[0]


def call(studio: Studio, method: str, path: str, body: object = None,
         query: dict[str, str] | None = None) -> Response:
    data = b"" if body is None else json.dumps(body).encode()
    return handler(studio, method, path)(Request(method, path, query or {}, data))


def answer(studio: Studio, path: str, body: object) -> Any:
    response = call(studio, "POST", path, body)
    assert response.status == 200 and response.content_type == "application/json"
    return json.loads(response.body)


def reflector(**changes: Any) -> dict[str, Any]:
    layout = {"game": "reflector", "preset": "eu",
              "card": [{"x": 0.0, "y": 0.0, "rotation": 90, "tabs": "open"},
                       {"x": 0.0, "y": 11.6, "rotation": 90, "tabs": "folded"}]}
    layout.update(changes)
    return layout


def test_the_page_and_its_setup(studio):
    page = call(studio, "GET", "/connector")
    assert page.content_type.startswith("text/html")
    assert b'src="static/connector.js"' in page.body and b'href="connector"' in page.body
    setup = json.loads(call(studio, "GET", "/api/connector/setup").body)
    assert (setup["preset"], setup["width"], setup["height"]) == ("eu", 85.0, 55.0)
    assert setup["sizes"] == {"eu": [85.0, 55.0], "us": [pytest.approx(88.9),
                                                       pytest.approx(50.8)]}
    assert [(g["game"], g["players"]) for g in setup["games"]] == [
        ("rotator", 1), ("reflector", 2), ("deflector", 3), ("defector", 6)]


def test_the_setup_follows_the_users_card_size(tmp_path):
    config = tmp_path / "card.toml"
    text = example_config()
    config.write_text(text.replace('preset = "eu"', 'preset = "us"', 1), encoding="utf-8")
    studio = Studio(config, tmp_path / "out")
    setup = json.loads(call(studio, "GET", "/api/connector/setup").body)
    assert (setup["preset"], setup["width"]) == ("us", pytest.approx(88.9))
    custom = text.replace('# width_mm = 85 ', 'width_mm = 85 ', 1).replace(
        'preset = "eu"', 'height_mm = 55', 1)
    config.write_text(custom, encoding="utf-8")
    with pytest.raises(HttpError) as caught:
        call(Studio(config, tmp_path / "out"), "GET", "/api/connector/setup")
    assert caught.value.status == 409 and "custom size" in caught.value.message


def test_a_card_picture_is_an_svg_per_size_and_tabs(studio):
    for tabs in ("open", "folded"):
        svg = call(studio, "GET", "/api/connector/card.svg", query={"preset": "eu",
                                                                    "tabs": tabs})
        assert svg.content_type == "image/svg+xml" and svg.body.startswith(b"<?xml")
    for query in ({"preset": "a4"}, {"tabs": "../x"}):
        with pytest.raises(HttpError) as caught:
            call(studio, "GET", "/api/connector/card.svg", query=query)
        assert caught.value.status == 404


def test_the_cards_are_copies_of_the_users_own_card(tmp_path):
    """The user's card as it prints (its theme, its art), cut out of its spreads, for
    its own size; the Connector's plain picture of a card for the other size (a loaded
    assembly of the other size) or when asked for."""
    from cardgen.api import card_back, card_config
    from cardgen.api.sandbox import connector_card

    config = tmp_path / "card.toml"
    config.write_text('[person]\nname = "Ada"\n[card]\ntheme = "light"\n',
                      encoding="utf-8")
    studio = Studio(config, tmp_path / "out")
    handle = handler(studio, "GET", "/api/connector/card.svg")

    def picture(**query: str) -> bytes:
        return handle(Request("GET", "/api/connector/card.svg", query, b"")).body

    for tabs in ("open", "folded"):
        own = card_back(config, tabs=tabs)
        assert picture(preset="eu", tabs=tabs) == next(iter(own.files.values()))
        plain = next(iter(connector_card("eu", tabs).files.values()))
        assert picture(preset="eu", tabs=tabs, plain="1") == plain != picture(
            preset="eu", tabs=tabs)
    assert picture(preset="us", tabs="open") == next(iter(
        connector_card("us", "open").files.values()))
    dark = next(iter(card_back(config.read_text().replace("light", "dark"),
                               tabs="open", folder=tmp_path).files.values()))
    assert dark != picture(preset="eu", tabs="open")  # the theme is the user's
    # A save that reads (the card page remembers its config): the new card is laid.
    config.write_text(config.read_text().replace("light", "dark"), encoding="utf-8")
    studio.remember(card_config(config))
    assert picture(preset="eu", tabs="open") == dark


def test_a_verdict_lists_the_connections_and_says_solved(studio):
    data = answer(studio, "/api/connector/verdict", {"layout": reflector()})
    assert data["valid"] and data["description"] == data["text"]
    assert [(c["card"], c["corner"], c["onto_card"]) for c in data["connections"]] == [
        (2, 5, 1), (2, 6, 1)]
    off = reflector(game="deflector")
    data = answer(studio, "/api/connector/verdict", {"layout": off})
    assert not data["valid"] and data["description"] is None and data["problems"]


def test_a_card_dropped_near_its_connection_snaps_onto_it(studio):
    layout = reflector()
    layout["card"][1].update(x=1.7, y=13.0)
    data = answer(studio, "/api/connector/snap", {"layout": layout, "card": 2})
    assert data["snapped"] and (data["upper"], data["lower"], data["number"]) == (2, 1, 5)
    assert data["layout"] == reflector() and data["verdict"]["valid"]


def test_a_hint_names_a_card_and_a_step(studio):
    layout = reflector()
    layout["card"][1]["tabs"] = "open"
    data = answer(studio, "/api/connector/hint", {"layout": layout})
    assert data == {"text": "Fold card 2's tabs back.", "card": 2, "done": 4, "steps": 6,
                    "solved": False}


def test_the_layout_saves_as_the_file_validate_reads_and_loads_back(studio):
    data = answer(studio, "/api/connector/toml", {"layout": reflector()})
    assert data["name"] == "assembly-reflector.toml"
    assert load_assembly(data["text"]) == load_assembly(REFLECTOR)
    written = answer(studio, "/api/connector/save", {"layout": reflector(), "name": "mine"})
    path = Path(written["written"][0]["path"])
    assert path == studio.output / "mine.toml" and not written["written"][0]["replaced"]
    assert path.read_text() == data["text"]
    loaded = answer(studio, "/api/connector/load", {"text": path.read_text()})
    assert loaded["layout"] == reflector()


@pytest.mark.parametrize("name", ["../up", "/abs", ".hidden", "", "a/b", "x" * 300])
def test_a_save_writes_only_a_plain_name_into_the_output_folder(studio, name):
    with pytest.raises(CardgenError):
        call(studio, "POST", "/api/connector/save", {"layout": reflector(), "name": name})
    assert not studio.output.exists()


def test_a_broken_file_says_its_one_line_error(studio):
    with pytest.raises(CardgenError) as caught:
        call(studio, "POST", "/api/connector/load", {"text": 'game = "chess"\n',
                                                     "name": "mine.toml"})
    message = str(caught.value)
    assert "\n" not in message and "mine.toml" in message and "game" in message
    with pytest.raises(CardgenError):
        call(studio, "POST", "/api/connector/load", {"text": "game = ", "name": "x.toml"})
    with pytest.raises(HttpError) as too_long:
        call(studio, "POST", "/api/connector/load", {"text": "#" * 70_000})
    assert too_long.value.status == 413


@pytest.mark.parametrize(("path", "body"), [
    ("/api/connector/verdict", {}), ("/api/connector/verdict", {"layout": []}),
    ("/api/connector/snap", {"layout": reflector()}),
    ("/api/connector/snap", {"layout": reflector(), "card": "2"}),
    ("/api/connector/snap", {"layout": reflector(), "card": True}),
    ("/api/connector/load", {"text": 3}), ("/api/connector/save", {"layout": reflector(),
                                                                   "name": 3}),
])
def test_a_body_a_route_does_not_take_is_a_400(studio, path, body):
    with pytest.raises(HttpError) as caught:
        call(studio, "POST", path, body)
    assert caught.value.status == 400 and caught.value.message.endswith(".")


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats()
                    | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
CARD = st.fixed_dictionaries({}, optional={
    "x": JSON | st.floats(-3000, 3000), "y": JSON | st.floats(-3000, 3000),
    "rotation": JSON | st.sampled_from([0, 90, 180, 270, 45]),
    "tabs": JSON | st.sampled_from(["open", "folded", "half"])})
LAYOUT = JSON | st.fixed_dictionaries({}, optional={
    "game": JSON | st.sampled_from(["reflector", "defector", "chess"]),
    "preset": JSON | st.sampled_from(["eu", "us", "a4"]),
    "card": JSON | st.lists(CARD, max_size=4)})
BODY = st.fixed_dictionaries({}, optional={"layout": LAYOUT, "card": JSON,
                                           "name": JSON, "text": JSON | st.text()})
POSTS = ["/api/connector/verdict", "/api/connector/snap", "/api/connector/hint",
         "/api/connector/toml", "/api/connector/load"]


@FUZZ
@given(body=BODY | JSON, path=st.sampled_from(POSTS))
def test_any_json_is_answered_or_refused_with_one_sentence(tmp_path_factory, body, path):
    studio = Studio(None, tmp_path_factory.mktemp("out"))
    try:
        data = json.dumps(body).encode()
    except ValueError:
        return
    try:
        response = handler(studio, "POST", path)(Request("POST", path, {}, data))
    except HttpError as error:
        assert 400 <= error.status < 500 and "\n" not in error.message
    except CardgenError as error:
        assert "\n" not in str(error)
    else:
        assert response.status == 200
        json.loads(response.body)


@FUZZ
@given(body=BODY)
def test_a_fuzzed_save_writes_nothing_outside_the_output_folder(tmp_path_factory, body):
    root = tmp_path_factory.mktemp("root")
    studio = Studio(None, root / "out")
    data = json.dumps(body, allow_nan=True).encode()
    with contextlib.suppress(HttpError, CardgenError):
        handler(studio, "POST", "/api/connector/save")(
            Request("POST", "/api/connector/save", {}, data))
    made = [p for p in root.rglob("*") if p.is_file()]
    assert all(p.parent == studio.output and p.suffix == ".toml" for p in made)
