"""Connector by hand (cardgen.api.sandbox): a card's picture to lay copies of, snapping a
card laid near a connection onto it, the verdict with where its parts lie, hints that
lead to the shipped answer without quoting its text, and the assembly file."""

from __future__ import annotations

import doctest
import importlib
import re
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

import pytest

import cardgen
from cardgen.api.connector import load_assembly, validate_assembly
from cardgen.api.sandbox import (
    assembly_file,
    connector_card,
    connector_hint,
    sandbox_verdict,
    snap_card,
)
from cardgen.connector.assembly import assembly_toml
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import Placement, Tabs
from cardgen.errors import ConfigError, GeneralProblem, ParameterError
from cardgen.physical.card import Preset
from tests.helpers import ROOT

SHIPPED = ROOT / "templates" / "connector"
GAMES = ("rotator", "reflector", "deflector", "defector")
ANSWERS = [(game, preset) for game in GAMES for preset in ("eu", "us")]


def _answer(game: str, preset: str) -> Path:
    return SHIPPED / (f"{game}.toml" if preset == "eu" else f"{game}-{preset}.toml")


def test_a_card_picture_is_an_svg_the_size_of_the_card_in_millimetres():
    for preset, size in (("eu", (85.0, 55.0)), ("us", (88.9, 50.8))):
        for tabs in ("open", "folded"):
            card = connector_card(preset, tabs)
            assert (card.width, card.height) == pytest.approx(size)
            assert list(card.files) == [f"connector-card-{preset}-{tabs}.svg"]
            assert card.svg.startswith(b"<?xml")
            assert f'viewBox="0 0 {card.width:g} {card.height:g}"'.encode() in card.svg
            assert connector_card(preset, tabs).svg == card.svg  # deterministic
    assert connector_card("eu", "open").svg != connector_card("eu", "folded").svg
    assert connector_card(Preset.US, Tabs.FOLDED).preset == "us"


@pytest.mark.parametrize("bad", [{"preset": "a4"}, {"tabs": "half"}, {"tabs": 3}])
def test_a_card_picture_refuses_an_unknown_size_or_tabs(bad):
    with pytest.raises(ParameterError) as caught:
        connector_card(**bad)
    assert caught.value.parameter == next(iter(bad))


@pytest.mark.parametrize(("game", "preset"), ANSWERS)
def test_every_card_of_a_shipped_answer_laid_off_by_hand_snaps_back(game, preset):
    answer = load_assembly(_answer(game, preset))
    for k in range(1, len(answer.cards)):
        cards = list(answer.cards)
        cards[k] = replace(cards[k], x=cards[k].x + 1.9, y=cards[k].y - 2.3)
        moved = snap_card(replace(answer, cards=tuple(cards)), k + 1)
        assert moved.snapped
        assert moved.card == k + 1 and k + 1 in (moved.upper, moved.lower)
        assert moved.moved_mm == pytest.approx((1.9 ** 2 + 2.3 ** 2) ** 0.5, abs=1e-3)
        got = moved.assembly.cards[k]
        assert (got.x, got.y) == pytest.approx((answer.cards[k].x, answer.cards[k].y),
                                               abs=0.06)
        assert validate_assembly(moved.assembly).valid


def test_a_card_far_from_any_connection_stays_where_it_was():
    layout = {"game": "reflector", "card": [{"x": 0, "y": 0, "rotation": 90},
                                            {"x": 150, "y": 0, "rotation": 90}]}
    moved = snap_card(layout, 2)
    assert not moved.snapped and moved.upper is None
    assert moved.assembly == load_assembly(layout)
    # 6.4 mm from its connection: beyond the default reach, within a longer one
    near = {"game": "reflector", "card": [{"x": 0, "y": 0, "rotation": 90},
                                          {"x": 0, "y": 18.0, "rotation": 90,
                                           "tabs": "folded"}]}
    assert not snap_card(near, 2).snapped
    far = snap_card(near, 2, reach=10)
    assert far.snapped and far.moved_mm == pytest.approx(6.4)
    assert not snap_card(near, 2, reach=0).snapped


def test_the_lower_card_moves_under_the_upper_ones_corner():
    answer = load_assembly(_answer("reflector", "eu"))
    bottom = replace(answer.cards[0], x=2.0, y=-1.0)
    moved = snap_card(replace(answer, cards=(bottom, answer.cards[1])), 1)
    assert moved.snapped and (moved.upper, moved.lower) == (2, 1)
    assert (moved.assembly.cards[0].x, moved.assembly.cards[0].y) == pytest.approx((0, 0))


@pytest.mark.parametrize("card", [0, 3, -1, True, "1", 1.0, None])
def test_a_snap_names_a_card_of_the_assembly(card):
    with pytest.raises(ParameterError) as caught:
        snap_card(_answer("reflector", "eu"), card)
    assert caught.value.parameter == "card" and caught.value.code is GeneralProblem.PARAMETER


@pytest.mark.parametrize("reach", [-1, 51, float("nan"), "6", True])
def test_a_snap_reach_is_a_distance(reach):
    with pytest.raises(ParameterError) as caught:
        snap_card(_answer("reflector", "eu"), 2, reach=reach)
    assert caught.value.parameter == "reach"


def test_the_verdict_says_where_connections_half_covered_and_read_pieces_lie():
    found = sandbox_verdict(_answer("reflector", "eu"))
    data = found.as_json()
    assert data["valid"] and data["colour"] == "yellow"
    assert [(c["card"], c["corner"], c["onto_card"]) for c in data["connections"]] == [
        (2, 5, 1), (2, 6, 1)]
    assert data["description"] == data["text"] and data["steps"]
    assert len(data["read"]) == data["pieces"]["visible"] == 4
    off = {"game": "defector", "card": [{"x": 0, "y": 0}, {"x": 30, "y": 0}]}
    data = sandbox_verdict(off).as_json()
    assert not data["valid"] and data["description"] is None and not data["steps"]
    assert data["half_covered"] == [{"card": 1, "box": [-13.5, -0.2, 22.4, 2.29],
                                     "by": [2]}]
    assert "assembly.part-covered" in data["codes"]
    assert data["problems"] == list(validate_assembly(off).hints)


def _texts(game: str) -> list[str]:
    layout = bundled_layout(Preset.EU)
    return [f.text for f in layout.fragments if f.game is not None and f.game.value == game]


def _follow(hint_text: str, card: int | None, spec, answer):
    """What a player does with a hint (cards from 1)."""
    cards = list(spec.cards)
    if m := re.match(r"The \w+ takes \d+ cards?: add (\d+) more", hint_text):
        cards += [Placement(200.0 * (len(cards) + i), 0.0) for i in range(int(m[1]))]
    elif hint_text.startswith("Turn"):
        turn = {"a quarter clockwise": 90, "half a turn": 180,
                "a quarter anticlockwise": 270}[hint_text.split(f"card {card} ")[1][:-1]]
        old = cards[card - 1]
        cards[card - 1] = replace(old, rotation=(old.rotation + turn) % 360)
    elif hint_text.startswith(("Fold", "Open")):
        old = cards[card - 1]
        cards[card - 1] = replace(old, tabs=Tabs.FOLDED if hint_text.startswith("Fold")
                                  else Tabs.OPEN)
    else:  # put or slide: lay it roughly where the answer has it and let it snap
        assert hint_text.startswith(("Put", "Slide")), hint_text
        base = cards[0]
        want = answer.cards[card - 1]
        cards[card - 1] = replace(cards[card - 1], x=base.x + want.x - answer.cards[0].x
                                  + 1.2, y=base.y + want.y - answer.cards[0].y - 0.8)
        moved = snap_card(replace(spec, cards=tuple(cards)), card)
        assert moved.snapped
        return moved.assembly
    return replace(spec, cards=tuple(cards))


@pytest.mark.parametrize("game", GAMES)
def test_following_the_hints_solves_the_game_and_no_hint_quotes_its_text(game):
    answer = load_assembly(_answer(game, "eu"))
    spec = load_assembly({"game": game, "card": [{"x": 10, "y": 20}]})
    pieces = _texts(game)
    said = []
    for _ in range(3 * len(answer.cards) + 2):
        hint = connector_hint(spec)
        said.append(hint.text)
        assert not any(piece in hint.text for piece in pieces)
        if hint.solved:
            break
        assert hint.done < hint.steps
        spec = _follow(hint.text, hint.card, spec, answer)
    assert hint.solved and validate_assembly(spec).valid, said
    assert hint.done == hint.steps == 3 * len(answer.cards)


def test_a_hint_takes_away_a_card_too_many_and_says_how_many_to_add():
    two = {"game": "rotator", "card": [{"x": 0, "y": 0}, {"x": 100, "y": 0}]}
    assert connector_hint(two).as_json() == {
        "text": "The Rotator takes 1 card: take card 2 away.", "card": 2, "done": 0,
        "steps": 3, "solved": False}
    assert connector_hint({"game": "defector", "card": [{"x": 0, "y": 0}]}).text == (
        "The Defector takes 6 cards: add 5 more cards.")


def test_the_assembly_file_is_what_validate_reads_and_solve_writes():
    answer = load_assembly(_answer("deflector", "us"))
    text = assembly_file(answer, comment="tried in the studio")
    assert text.startswith("# tried in the studio\n")
    assert text == assembly_toml(answer, "tried in the studio")
    assert load_assembly(text) == answer
    assert assembly_file(text) == assembly_toml(answer)
    with pytest.raises(ParameterError):
        assembly_file(answer, comment=cast(Any, 3))


def test_a_bad_assembly_raises_the_schemas_error():
    for call in (sandbox_verdict, connector_hint, assembly_file,
                 lambda a: snap_card(a, 1)):
        with pytest.raises(ConfigError):
            call({"game": "chess", "card": [{"x": 0, "y": 0}]})


def test_the_library_root_names_the_sandbox_functions():
    for name in ("connector_card", "snap_card", "sandbox_verdict", "connector_hint",
                 "assembly_file", "ConnectorCard", "CardSnap", "SandboxVerdict",
                 "ConnectorHint"):
        assert getattr(cardgen, name) is getattr(importlib.import_module(
            "cardgen.api.sandbox"), name)


def test_the_examples_of_the_reference_pages_hold(monkeypatch):
    monkeypatch.chdir(ROOT)
    failed, tried = doctest.testmod(importlib.import_module("cardgen.api.sandbox"),
                                    extraglobs={"Path": Path})
    assert tried and not failed


def test_the_api_and_the_model_snap_as_far():
    from cardgen.api.sandbox import SNAP_REACH
    from cardgen.connector import sandbox

    assert SNAP_REACH == sandbox.SNAP_REACH
