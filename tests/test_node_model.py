"""The Node games' model (``games.nodes.model``): the numbers and words of SPEC §4 and
§9.1–9.2, stated once, and the card's grid tints that its figures show."""

from __future__ import annotations

import tomllib

import pytest

from cardgen.board.art import GRID_TINTS
from cardgen.board.cells import Grid
from cardgen.draw.colors import color_from_data
from cardgen.games.names import NODE_GAMES, GameName
from cardgen.games.nodes.model import (
    CARD_GRID,
    DEFLECTORS,
    NODES,
    Role,
    deflectors,
    player_range,
    space_name,
    territory,
)
from cardgen.games.nodes.tables import bundled
from tests.helpers import ROOT


def test_every_player_hides_five_nodes_and_twenty_deflectors_but_in_reflector():
    assert NODES == 5 and DEFLECTORS == 20
    assert {game: deflectors(game) for game in NODE_GAMES} == {
        GameName.REFLECTOR: 0, GameName.DEFLECTOR: 20, GameName.DEFECTOR: 20}


@pytest.mark.parametrize(("space", "size"), [
    ("D6", 13), ("B3", 12), ("B2", 11), ("A3", 9), ("A2", 8), ("A1", 6), ("J10", 6)])
def test_a_territory_is_13_spaces_in_open_ground_and_clipped_to_its_grid(space, size):
    column, row = "ABCDEFGHIJ".index(space[0]), int(space[1:])
    cells = territory(column, row)
    assert len(cells) == size  # SPEC §9.1.4
    assert (column, row) in cells
    assert all(0 <= c <= 9 and 1 <= r <= 10 for c, r in cells)
    assert all(abs(c - column) + abs(r - row) <= 2 for c, r in cells)
    assert space_name((column, row)) == space


def test_the_public_grid_is_the_cards_grid_a_and_the_private_grid_its_grid_b():
    assert CARD_GRID == {Role.PUBLIC: Grid.A, Role.PRIVATE: Grid.B}
    roles = {grid.role for arr in bundled().values() for grid in arr.grids}
    assert roles == set(Role)


@pytest.mark.parametrize("theme", sorted((ROOT / "templates" / "themes").glob("*.toml")),
                         ids=lambda p: p.stem)
def test_the_figures_grid_tints_are_the_bundled_themes(theme):
    inside = tomllib.loads(theme.read_text(encoding="utf-8"))["inside"]
    assert color_from_data(inside["tint_a"]) == GRID_TINTS[Grid.A]
    assert color_from_data(inside["tint_b"]) == GRID_TINTS[Grid.B]


def test_reflector_takes_two_deflector_three_to_five_defector_six_to_twelve():
    assert [player_range(game) for game in NODE_GAMES] == [(2, 2), (3, 5), (6, 12)]


def test_every_table_arrangement_is_for_a_number_of_players_its_game_takes():
    for arr in bundled().values():
        low, high = player_range(GameName(arr.game))
        assert low <= arr.players <= high, arr.name


def test_the_winning_counts_are_the_models_and_the_spec_s():
    """SPEC §9.5.9 step 2 (10, 13, 15 Nodes) and §9.6.8 step 1 (16 of 30, 18 of 35, 21 of
    40): stated once in the model, for the engine and anything printed."""
    from cardgen.games.nodes.model import DEFLECTOR_THRESHOLD, majority

    assert DEFLECTOR_THRESHOLD == {3: 10, 4: 13, 5: 15}
    assert [majority(n) for n in (6, 7, 8)] == [16, 18, 21]
