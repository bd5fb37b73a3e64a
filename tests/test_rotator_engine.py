"""Every Rotator rule of SPEC §5, pinned with tiny hand-built situations."""

from __future__ import annotations

import pytest

from cardgen.games.rotator.engine import (
    BOOST_CACHE,
    GRAVITY,
    Choice,
    IllegalMove,
    State,
    Terrain,
    gravity,
    legal_choices,
    play_turn,
    replay,
    start_state,
)

OPEN = Terrain.custom(set())  # an all-air board


def at(pos, turn=1, solid=(), touched=(), boosts=BOOST_CACHE, choose_from=None):
    """A state built by hand: ``touched`` maps cells to the turn they were entered."""
    return State(turn, pos, frozenset(solid), frozenset(dict(touched).items()), boosts,
                 choose_from)


def touch_turn(state: State, cell):
    return state.touch_turns().get(cell)


# --- start, falling, the edge as ground ---------------------------------------------------

def test_start_cell_is_touched_in_turn_one():
    terrain = Terrain.custom({(3, 0), (3, 1)})
    state = start_state(terrain, 3)
    assert state.pos == (3, 0) and state.turn == 1
    assert touch_turn(state, (3, 0)) == 1 and (3, 0) not in state.solid  # touched is open


def test_fall_stops_on_solid_ground():
    terrain = Terrain.custom({(4, 6)})
    after, report = play_turn(terrain, start_state(terrain, 4), Choice())
    assert report.fall == [(4, y) for y in range(1, 6)]
    assert after.pos == (4, 5) and not report.won
    assert all(touch_turn(after, (4, y)) == 1 for y in range(6))


def test_the_edge_is_ground():
    state = at((4, 5), turn=2)  # turn 2: gravity +x
    after, report = play_turn(OPEN, state, Choice())
    assert after.pos == (9, 5) and report.fall[-1] == (9, 5)
    # Nothing drills off the board either.
    with pytest.raises(IllegalMove):
        play_turn(OPEN, at((9, 5), turn=2), Choice(drill=True))


@pytest.mark.parametrize(("turn", "direction"), [(1, (0, 1)), (2, (1, 0)), (3, (0, -1)),
                                                 (4, (-1, 0)), (5, (0, 1)), (10, (1, 0))])
def test_gravity_turns_clockwise(turn, direction):
    """+y, +x, -y, -x: the board turns a quarter clockwise after every turn."""
    assert gravity(turn) == direction
    assert GRAVITY[(turn - 1) % 4] == direction
    after, _ = play_turn(OPEN, at((5, 10), turn=turn), Choice())
    dx, dy = direction
    expected = {(0, 1): (5, 19), (1, 0): (9, 10), (0, -1): (5, 0), (-1, 0): (0, 10)}[(dx, dy)]
    assert after.pos == expected


# --- touch and collapse -------------------------------------------------------------------

def test_touch_counts_on_first_entry_only():
    # (4, 7) was entered in turn 3; falling through it again in turn 5 keeps that date.
    state = at((4, 5), turn=5, solid={(4, 9)}, touched={(4, 7): 3})
    after, report = play_turn(OPEN, state, Choice())
    assert (4, 7) in report.fall
    assert touch_turn(after, (4, 7)) == 3
    assert touch_turn(after, (4, 6)) == 5


def test_cells_collapse_three_turns_after_their_touch():
    # Entered in turn 2; in turn 5 they collapse into ordinary solid rock.
    touched = {(1, 1): 2, (1, 2): 2, (2, 2): 3}
    state = at((8, 17), turn=5, solid={(8, 18)}, touched=touched)
    after, report = play_turn(OPEN, state, Choice())
    assert report.collapsed == [(1, 1), (1, 2)]
    assert {(1, 1), (1, 2)} <= after.solid and (2, 2) not in after.solid
    assert touch_turn(after, (1, 1)) is None and touch_turn(after, (2, 2)) == 3


def test_an_air_cell_that_collapsed_is_rock():
    """It stops falls, and it can be drilled like any solid cell."""
    state = at((3, 1), turn=5, touched={(3, 4): 2})
    after, report = play_turn(OPEN, state, Choice())
    # The fall passes the still-open (3, 4) before the collapse step turns it to rock.
    assert after.pos == (3, 19) and report.won
    blocked = at((3, 1), turn=5, solid={(3, 4)})
    after, report = play_turn(OPEN, blocked, Choice(drill=True))
    assert report.fall == [(3, 2), (3, 3)] and report.drill == (3, 4)
    assert after.pos == (3, 19) and report.won


def test_standing_on_a_collapsing_cell_loses():
    state = at((2, 5), turn=4, solid={(1, 5)}, touched={(2, 5): 1})  # gravity -x: blocked
    after, report = play_turn(OPEN, state, Choice())
    assert report.lost and not report.won and report.fall == [] and after.pos == (2, 5)
    with pytest.raises(IllegalMove):  # the game is over before the drill step
        play_turn(OPEN, state, Choice(drill=True))


def test_falling_off_a_collapsing_cell_survives():
    state = at((2, 5), turn=4, touched={(2, 5): 1})  # gravity -x, open to the left
    after, report = play_turn(OPEN, state, Choice())
    assert not report.lost and after.pos == (0, 5) and (2, 5) in after.solid


def test_being_stuck_is_not_a_loss():
    walls = {(4, 6), (5, 5), (4, 4), (3, 5)}
    state = at((4, 5), turn=1, solid=walls)
    after, report = play_turn(OPEN, state, Choice())
    assert not report.lost and not report.won and after.pos == (4, 5) and after.turn == 2


# --- drilling and boosting ------------------------------------------------------------------

def test_free_drill_then_fall():
    state = at((4, 2), turn=1, solid={(4, 3), (4, 9)})
    after, report = play_turn(OPEN, state, Choice(drill=True))
    assert report.drill == (4, 3) and touch_turn(after, (4, 3)) == 1
    assert report.fall_after == [(4, y) for y in range(4, 9)] and after.pos == (4, 8)
    assert after.boosts == BOOST_CACHE  # the first cell is free


def test_drill_is_optional_and_needs_solid():
    state = at((4, 2), turn=1, solid={(4, 3)})
    after, _ = play_turn(OPEN, state, Choice())
    assert after.pos == (4, 2) and (4, 3) in after.solid
    with pytest.raises(IllegalMove):  # a fall ends at the edge: nothing solid to drill
        play_turn(OPEN, at((4, 5), turn=2), Choice(drill=True))


def test_boosts_go_through_solid_cells_and_cost_the_cache():
    rock = {(4, y) for y in range(3, 8)}
    after, report = play_turn(OPEN, at((4, 2), solid=rock), Choice(drill=True, boost=2))
    assert report.drill == (4, 3) and report.boosted == [(4, 4), (4, 5)]
    assert after.pos == (4, 5) and after.boosts == BOOST_CACHE - 2


def test_boost_limits():
    rock = {(4, y) for y in range(3, 8)}
    with pytest.raises(IllegalMove):  # at most two per turn
        play_turn(OPEN, at((4, 2), solid=rock), Choice(drill=True, boost=3))
    with pytest.raises(IllegalMove):  # only what is left of the ten for the game
        play_turn(OPEN, at((4, 2), solid=rock, boosts=1), Choice(drill=True, boost=2))
    play_turn(OPEN, at((4, 2), solid=rock, boosts=1), Choice(drill=True, boost=1))
    with pytest.raises(IllegalMove):  # only straight after the free drill
        play_turn(OPEN, at((4, 2), solid=rock), Choice(drill=False, boost=1))
    with pytest.raises(IllegalMove):  # only through solid cells
        play_turn(OPEN, at((4, 2), solid={(4, 3)}), Choice(drill=True, boost=1))


def test_no_drilling_after_a_fall_that_follows_the_drill():
    """After the drill the player falls through air; the move is over."""
    state = at((4, 2), solid={(4, 3), (4, 6), (4, 7)})
    _, report = play_turn(OPEN, state, Choice(drill=True))
    assert report.fall_after == [(4, 4), (4, 5)] and report.end == (4, 5)
    with pytest.raises(IllegalMove):  # a boost cannot jump the air gap
        play_turn(OPEN, state, Choice(drill=True, boost=1))


# --- Nodes ------------------------------------------------------------------------------------

NODE = (4, 6)
NODE_TERRAIN = Terrain.custom(set(), nodes=(NODE,))


def test_capture_touches_the_solid_territory_and_the_player_stays():
    # The player stands in an opened cell of the territory, right above the centre.
    state = at((4, 5), turn=5, solid=NODE_TERRAIN.solid - {(4, 5)}, touched={(4, 5): 4})
    after, report = play_turn(NODE_TERRAIN, state, Choice(drill=True))
    assert report.drill == NODE and report.captured == 0
    assert after.pos == NODE and after.choose_from == 0
    territory = NODE_TERRAIN.territories[0]
    assert not (territory & after.solid)
    assert set(report.captured_cells) == territory - {(4, 5), NODE}
    assert all(touch_turn(after, c) == 5 for c in territory - {(4, 5)})
    assert report.fall_after == []  # no fall after a capture, though (4, 7) is now open


def test_capture_keeps_the_touch_turn_of_open_territory_cells():
    solid = NODE_TERRAIN.solid - {(4, 5), (5, 6)}
    state = at((4, 5), turn=5, solid=solid, touched={(4, 5): 4, (5, 6): 3})
    after, report = play_turn(NODE_TERRAIN, state, Choice(drill=True))
    assert (5, 6) not in report.captured_cells
    assert touch_turn(after, (5, 6)) == 3 and touch_turn(after, (6, 6)) == 5
    assert touch_turn(after, (4, 5)) == 4


def test_next_turn_starts_anywhere_in_the_territory():
    state = at(NODE, turn=2, choose_from=0, touched={c: 1 for c in
                                                      NODE_TERRAIN.territories[0]})
    with pytest.raises(IllegalMove):
        play_turn(NODE_TERRAIN, state, Choice())  # the choice is compulsory
    with pytest.raises(IllegalMove):
        play_turn(NODE_TERRAIN, state, Choice(start=(0, 0)))  # and inside the territory
    after, report = play_turn(NODE_TERRAIN, state, Choice(start=(4, 8)))
    assert report.start == (4, 8) and after.pos == (9, 8)  # turn 2: gravity +x
    starts = {c.start for c in legal_choices(NODE_TERRAIN, state)}
    assert starts == NODE_TERRAIN.territories[0]
    with pytest.raises(IllegalMove):
        play_turn(NODE_TERRAIN, at((4, 3)), Choice(start=(4, 4)))  # no capture, no pick


def test_a_boosted_node_centre_captures_and_ends_the_move():
    # From (4, 3): drill (4, 4), boost (4, 5), boost the centre (4, 6).
    state = at((4, 3), solid=NODE_TERRAIN.solid)
    after, report = play_turn(NODE_TERRAIN, state, Choice(drill=True, boost=2))
    assert report.drill == (4, 4) and report.boosted == [(4, 5), (4, 6)]
    assert report.captured == 0 and after.pos == NODE and after.boosts == BOOST_CACHE - 2
    # From (4, 4) the first boost captures: a second one is not allowed.
    state = at((4, 4), solid=NODE_TERRAIN.solid - {(4, 4)}, touched={(4, 4): 0})
    after, report = play_turn(NODE_TERRAIN, state, Choice(drill=True, boost=1))
    assert report.captured == 0 and after.boosts == BOOST_CACHE - 1
    with pytest.raises(IllegalMove):
        play_turn(NODE_TERRAIN, state, Choice(drill=True, boost=2))


def test_the_node_is_active_again_once_its_centre_collapses():
    territory = NODE_TERRAIN.territories[0]
    # Captured in turn 1, the whole territory collapses in turn 4 and is solid again.
    state = at((8, 15), turn=4, solid={(7, 15)}, touched={c: 1 for c in territory})
    after, report = play_turn(NODE_TERRAIN, state, Choice())
    assert set(report.collapsed) == territory and territory <= after.solid
    # Drilling into the solid centre again captures the Node again.
    again = at((4, 5), turn=5, solid=after.solid - {(4, 5)}, touched={(4, 5): 4})
    _, report = play_turn(NODE_TERRAIN, again, Choice(drill=True))
    assert report.captured == 0


def test_capture_is_not_a_win_but_picking_a_goal_cell_is():
    low = (4, 17)
    terrain = Terrain.custom(set(), nodes=(low,))
    # From (4, 14): drill (4, 15), boost (4, 16), boost the centre (4, 17).
    state = at((4, 14), solid=terrain.solid)
    after, report = play_turn(terrain, state, Choice(drill=True, boost=2))
    assert report.captured == 0 and not report.won and after.pos == low
    _, report = play_turn(terrain, after, Choice(start=(4, 19)))
    assert report.won and report.start == (4, 19)


# --- winning ------------------------------------------------------------------------------------

def test_a_fall_onto_the_goal_row_wins_at_once():
    reports = replay(OPEN, 3, [Choice()])
    assert reports[0].won and reports[0].end == (3, 19) and reports[0].turn == 1


def test_drilling_or_boosting_into_the_goal_row_wins():
    state = at((4, 16), solid={(4, 17), (4, 18), (4, 19)})
    _, report = play_turn(OPEN, state, Choice(drill=True, boost=2))
    assert report.won and report.end == (4, 19)
    _, report = play_turn(OPEN, at((4, 18), solid={(4, 19)}), Choice(drill=True))
    assert report.won


def test_replay_rejects_moves_after_the_end():
    with pytest.raises(IllegalMove):
        replay(OPEN, 3, [Choice(), Choice()])


def test_legal_choices_are_exactly_the_playable_ones():
    rock = {(4, y) for y in range(3, 8)}
    choices = legal_choices(OPEN, at((4, 2), solid=rock))
    assert choices == [Choice(), Choice(drill=True), Choice(drill=True, boost=1),
                       Choice(drill=True, boost=2)]
    assert legal_choices(OPEN, at((4, 2), solid=rock, boosts=0)) == [Choice(),
                                                                      Choice(drill=True)]
