"""Defector's alliances (cardgen.games.nodes.alliance): the structure of SPEC §9.6.4
(uniting, Link groups and the Master, loss, leaving), divided players (§9.6.5), the
dissolving of §9.6.8 step 2, and what allies know for good (§9.1.8, decision 53)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgen.games.nodes.alliance import Alliance, Alliances
from cardgen.games.nodes.record import AllianceView, IllegalMove, Reason, parse_spot
from tests.helpers import examples

FUZZ = settings(max_examples=examples(60), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
NODE_SPACES = {(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)}  # everyone's Nodes: A1 B2 C3 D4 E5


def s(text: str):
    spot = parse_spot(text)
    assert spot is not None
    return spot


def holds(player: str, node) -> bool:
    """Every player still holds his own five Nodes (A1, B2, C3, D4, E5)."""
    return node[0] == player and node[1:] in NODE_SPACES


def pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


def unite(state: Alliances, by: str, other: str, *, link: str | None = None,
          group: tuple[str, ...] = (), master: str | None = None) -> Alliances:
    return state.unite(by, other, link=None if link is None else s(link), group=group,
                       master=None if master is None else s(master), holds_own=holds)


def refused(reason: Reason, rule: str, call, *args, **kwargs) -> IllegalMove:
    with pytest.raises(IllegalMove) as caught:
        call(*args, **kwargs)
    assert caught.value.reason is reason, str(caught.value)
    assert caught.value.rule == rule
    assert f"SPEC §{rule}" in str(caught.value)
    return caught.value


def members(alliance: Alliance | None) -> set[str]:
    assert alliance is not None
    return set(alliance.members)


def groups(alliance: Alliance | None) -> dict[str, set[str]]:
    assert alliance is not None
    return {f"{g.link[0]}:{'ABCDEFGHIJ'[g.link[1]]}{g.link[2]}": set(g.members)
            for g in alliance.groups}


@pytest.fixture
def trio() -> Alliances:
    """P1, P2, P3 in one Link group held by P1:A1."""
    return unite(unite(Alliances(), "P1", "P2", link="P1:A1"), "P3", "P1")


@pytest.fixture
def four(trio) -> Alliances:
    """The trio and P4, held by the Master P4:A1 alone."""
    return unite(trio, "P4", "P2", master="P4:A1")


# --- uniting (§9.6.4) ----------------------------------------------------------------------

def test_9_6_4_two_solo_players_designate_a_link_group():
    """SPEC §9.6.4: two solo players form one Link group under the Link they designate."""
    state = unite(Alliances(), "P1", "P2", link="P2:C3")
    ally = state.of("P1")
    assert state.of("P2") == ally
    assert members(ally) == {"P1", "P2"}
    assert ally is not None and ally.master is None
    assert groups(ally) == {"P2:C3": {"P1", "P2"}}
    assert state.allies("P1") == {"P2"} and state.allies("P3") == frozenset()
    assert state.designated() == {s("P2:C3")}
    assert state.known == {pair("P1", "P2")}
    assert state.views() == (AllianceView(("P1", "P2"), None, ((s("P2:C3"), ("P1", "P2")),)),)


def test_9_6_4_a_solo_joining_a_pair_enters_its_link_group(trio):
    """SPEC §9.6.4: a solo player who joins an alliance of two enters its Link group,
    under the same Link Node; either side may propose."""
    ally = trio.of("P3")
    assert members(ally) == {"P1", "P2", "P3"}
    assert groups(ally) == {"P1:A1": {"P1", "P2", "P3"}}
    other_way = unite(unite(Alliances(), "P1", "P2", link="P1:A1"), "P2", "P3")
    assert other_way == trio
    assert trio.known == {pair("P1", "P2"), pair("P1", "P3"), pair("P2", "P3")}


@pytest.mark.parametrize("kwargs,words", [
    ({}, "must designate a Link"),
    ({"link": "P3:A1"}, "one of P1 and P2 holds"),
    ({"link": "P1:F6"}, "one of P1 and P2 holds"),
    ({"link": "P1:A1", "master": "P2:B2"}, "no Master"),
    ({"link": "P1:A1", "group": ("P1", "P2")}, "only under a Master"),
])
def test_9_6_4_two_solos_with_a_missing_bad_or_superfluous_designation(kwargs, words):
    """SPEC §9.6.4, §9.8 bad-link: two solos need one valid Link Node and nothing else: a
    Node a member holds on his own grid."""
    error = refused(Reason.BAD_LINK, "9.6.4", unite, Alliances(), "P1", "P2", **kwargs)
    assert words in str(error)


def test_9_6_4_a_solo_joining_a_pair_designates_nothing_more():
    """SPEC §9.6.4: the joiner enters the existing Link group; a new Link is superfluous."""
    two = unite(Alliances(), "P1", "P2", link="P1:A1")
    refused(Reason.BAD_LINK, "9.6.4", unite, two, "P3", "P1", link="P3:A1")
    refused(Reason.BAD_LINK, "9.6.4", unite, two, "P3", "P1", master="P3:A1")


def test_9_6_4_a_link_no_longer_held_cannot_be_designated():
    """SPEC §9.6.4: a Link Node is a Node a member holds on his own grid."""
    with pytest.raises(IllegalMove) as caught:
        Alliances().unite("P1", "P2", link=s("P1:A1"), group=(), master=None,
                          holds_own=lambda p, n: False)
    assert caught.value.reason is Reason.BAD_LINK


def test_9_6_4_union_reaching_four_designates_a_master(four):
    """SPEC §9.6.4: a union that reaches four members designates a Master Node; the Link
    groups stay and the solo joiner is held by the Master alone."""
    ally = four.of("P4")
    assert members(ally) == {"P1", "P2", "P3", "P4"}
    assert ally is not None and ally.master == s("P4:A1")
    assert groups(ally) == {"P1:A1": {"P1", "P2", "P3"}}
    assert ally.held_by_master == {"P4"}
    assert four.designated() == {s("P1:A1"), s("P4:A1")}


def test_9_6_4_union_reaching_four_needs_a_valid_master(trio):
    """SPEC §9.6.4, §9.8 bad-link: no Master at four members, or one not held by a member
    on his own grid, is refused."""
    refused(Reason.BAD_LINK, "9.6.4", unite, trio, "P4", "P1")
    refused(Reason.BAD_LINK, "9.6.4", unite, trio, "P4", "P1", master="P5:A1")
    refused(Reason.BAD_LINK, "9.6.4", unite, trio, "P4", "P1", master="P1:A1")  # the Link
    refused(Reason.BAD_LINK, "9.6.4", unite, trio, "P4", "P1", master="P4:J10")


def test_9_6_4_two_pairs_merge_under_a_master():
    """SPEC §9.6.4 (decision 42): alliances may merge; both Link groups stay."""
    state = unite(Alliances(), "P1", "P2", link="P1:A1")
    state = unite(state, "P3", "P4", link="P4:B2")
    merged = unite(state, "P2", "P3", master="P3:C3")
    ally = merged.of("P1")
    assert members(ally) == {"P1", "P2", "P3", "P4"}
    assert groups(ally) == {"P1:A1": {"P1", "P2"}, "P4:B2": {"P3", "P4"}}
    assert ally is not None and ally.held_by_master == frozenset()
    assert len(merged.alliances) == 1


def test_9_6_4_solo_joiners_are_held_by_the_master_alone(four):
    """SPEC §9.6.4: under a Master a solo joiner is held by the Master alone, and no other
    Master is designated."""
    five = unite(four, "P5", "P1")
    ally = five.of("P5")
    assert ally is not None and ally.held_by_master == {"P4", "P5"}
    assert ally.master == s("P4:A1")
    refused(Reason.BAD_LINK, "9.6.4", unite, four, "P5", "P1", master="P5:A1")


def test_9_6_4_members_held_by_the_master_may_form_a_link_group_at_a_union(four):
    """SPEC §9.6.4: at the union two or three members held by the Master alone may form a
    new Link group by designating its Link Node (joiner and old member alike)."""
    state = unite(four, "P5", "P1", link="P5:B2", group=("P4", "P5"))
    ally = state.of("P5")
    assert groups(ally) == {"P1:A1": {"P1", "P2", "P3"}, "P5:B2": {"P4", "P5"}}
    assert ally is not None and ally.held_by_master == frozenset()
    six = unite(unite(four, "P5", "P1"), "P6", "P5", link="P4:C3", group=("P4", "P5", "P6"))
    assert groups(six.of("P6"))["P4:C3"] == {"P4", "P5", "P6"}


@pytest.mark.parametrize("kwargs,words", [
    ({"link": "P5:B2"}, "two or three"),  # a Link without its group
    ({"group": ("P4", "P5")}, "needs its Link"),
    ({"link": "P5:B2", "group": ("P5",)}, "two or three"),
    ({"link": "P5:B2", "group": ("P5", "P5")}, "two or three"),
    ({"link": "P5:B2", "group": ("P1", "P5")}, "held by the Master alone"),
    ({"link": "P1:B2", "group": ("P4", "P5")}, "one of P4 and P5 holds"),
    ({"link": "P4:A1", "group": ("P4", "P5")}, "already a Link or Master"),
    ({"link": "P5:G7", "group": ("P4", "P5")}, "holds on his own grid"),
])
def test_9_6_4_bad_new_link_group_under_a_master(four, kwargs, words):
    """SPEC §9.6.4, §9.8 bad-link: a new Link group is 2 or 3 members held by the Master
    alone, with a valid Link Node not designated already."""
    error = refused(Reason.BAD_LINK, "9.6.4", unite, four, "P5", "P1", **kwargs)
    assert words in str(error)


def test_9_6_4_a_new_link_group_needs_two_members_held_by_the_master():
    """SPEC §9.6.4: the groups of merging pairs are kept; no member is left to group."""
    state = unite(Alliances(), "P1", "P2", link="P1:A1")
    state = unite(state, "P3", "P4", link="P4:B2")
    refused(Reason.BAD_LINK, "9.6.4", unite, state, "P2", "P3", master="P3:C3",
            link="P2:B2", group=("P1", "P2"))


def test_9_6_4_merging_alliances_with_a_master_and_a_link_group(four):
    """SPEC §9.6.4 (decision 42): an alliance with a Master takes in a whole alliance; its
    Link group stays and no Master is designated."""
    state = unite(four, "P5", "P6", link="P6:A1")
    merged = unite(state, "P6", "P2")
    ally = merged.of("P6")
    assert members(ally) == {"P1", "P2", "P3", "P4", "P5", "P6"}
    assert groups(ally) == {"P1:A1": {"P1", "P2", "P3"}, "P6:A1": {"P5", "P6"}}
    assert ally is not None and ally.master == s("P4:A1")
    assert len(merged.known) == 15


def test_9_6_4_two_masters_are_refused(four):
    """SPEC §9.6.4: a union is forbidden if both sides already have a Master."""
    other = unite(unite(four, "P5", "P6", link="P5:A1"), "P7", "P5")
    other = unite(other, "P8", "P7", master="P8:A1")
    refused(Reason.TWO_MASTERS, "9.6.4", unite, other, "P8", "P1")


def test_9_6_4_uniting_with_oneself_or_an_ally_is_refused(trio):
    """SPEC §9.6.4: a union joins two sides; one's own side is not another."""
    refused(Reason.ALLY, "9.6.4", unite, trio, "P1", "P3")
    refused(Reason.ALLY, "9.6.4", unite, trio, "P4", "P4", link="P4:A1")


# --- divided players (§9.6.5) ---------------------------------------------------------------

def test_9_6_5_players_who_stop_being_allied_are_divided_for_good():
    """SPEC §9.6.5: two allies who part are divided and can never unite again."""
    state = unite(Alliances(), "P1", "P2", link="P1:A1").leave("P2")
    assert state.are_divided("P1", "P2")
    refused(Reason.DIVIDED, "9.6.5", unite, state, "P1", "P2", link="P1:B2")
    refused(Reason.DIVIDED, "9.6.5", unite, state, "P2", "P1", link="P1:B2")


def test_9_6_5_divided_players_are_never_brought_into_one_alliance(trio):
    """SPEC §9.6.5: a member of one side divided from a member of the other refuses the
    union, even when merging whole alliances, and before any other reason."""
    state = unite(Alliances(), "P4", "P5", link="P4:A1").leave("P5")
    state = unite(state, "P5", "P6", link="P5:A1")
    refused(Reason.DIVIDED, "9.6.5", unite, state, "P4", "P6")  # P4 and P5 divided
    # Divided comes first, before two-masters and bad-link (SPEC §9.8's order).
    refused(Reason.DIVIDED, "9.6.5", unite, state, "P6", "P4", master="P9:A1")


def test_9_6_5_a_lost_link_under_a_master_divides_its_members(four):
    """SPEC §9.6.5: a lost Link leaves its members allied under the Master but divided:
    never again in one Link group (decision 40)."""
    state = four.lose(s("P1:A1"))
    ally = state.of("P1")
    assert members(ally) == {"P1", "P2", "P3", "P4"}
    assert ally is not None and ally.groups == () and ally.held_by_master == ally.members
    assert state.are_divided("P1", "P2") and state.are_divided("P2", "P3")
    assert not state.are_divided("P1", "P4")
    refused(Reason.DIVIDED, "9.6.5", unite, state, "P5", "P1", link="P1:B2",
            group=("P1", "P2"))
    # The alliance still grows: its divided members are not brought in by the union.
    grown = unite(state, "P5", "P1", link="P5:B2", group=("P1", "P5"))
    assert groups(grown.of("P5")) == {"P5:B2": {"P1", "P5"}}
    # And when it ends, they are never allied again.
    apart = grown.lose(s("P4:A1"))
    assert apart.of("P2") is None
    refused(Reason.DIVIDED, "9.6.5", unite, apart, "P2", "P3", link="P2:A1")


# --- loss (§9.6.4) ----------------------------------------------------------------------------

def test_9_6_4_loss_of_a_link_without_a_master_dissolves(trio):
    """SPEC §9.6.4 Loss: a Link lost in an alliance without a Master dissolves it."""
    state = trio.lose(s("P1:A1"))
    assert state.alliances == ()
    assert state.divided == {pair("P1", "P2"), pair("P1", "P3"), pair("P2", "P3")}
    assert state.known == trio.known
    assert state.designated() == frozenset()


def test_9_6_4_loss_of_a_link_under_a_master_leaves_members_held_by_it(four):
    """SPEC §9.6.4 Loss: under a Master a lost Link's members stay, held by the Master
    alone."""
    five = unite(four, "P5", "P6", link="P6:A1")
    five = unite(five, "P5", "P1")
    state = five.lose(s("P6:A1"))
    ally = state.of("P6")
    assert members(ally) == {"P1", "P2", "P3", "P4", "P5", "P6"}
    assert groups(ally) == {"P1:A1": {"P1", "P2", "P3"}}
    assert ally is not None and ally.held_by_master == {"P4", "P5", "P6"}
    assert state.are_divided("P5", "P6")


def test_9_6_4_loss_of_the_master_splits_into_linked_groups_and_solos(four):
    """SPEC §9.6.4 Loss: a lost Master splits the alliance: each Link group still linked
    stays allied on its own, members held by the Master alone go solo."""
    state = unite(unite(four, "P5", "P1"), "P6", "P5", link="P6:B2", group=("P5", "P6"))
    split = state.lose(s("P4:A1"))
    assert members(split.of("P1")) == {"P1", "P2", "P3"}
    assert members(split.of("P5")) == {"P5", "P6"}
    assert split.of("P4") is None
    assert split.of("P1") is not None and split.of("P1").master is None
    assert split.are_divided("P1", "P5") and split.are_divided("P4", "P2")
    assert not split.are_divided("P1", "P2") and not split.are_divided("P5", "P6")
    assert [v.members for v in split.views()] == [("P1", "P2", "P3"), ("P5", "P6")]


def test_9_6_4_losing_a_node_that_carries_no_designation_changes_nothing(four):
    assert four.lose(s("P2:B2")) is four


# --- leaving (§9.6.4) ----------------------------------------------------------------------

def test_9_6_4_leaving_when_not_allied_is_refused(trio):
    """SPEC §9.6.4, §9.8 not-allied: only a member of an alliance can leave it."""
    refused(Reason.NOT_ALLIED, "9.6.4", trio.leave, "P4")


def test_9_6_4_an_alliance_left_with_one_member_dissolves():
    """SPEC §9.6.4 Leaving: an alliance left with one member dissolves."""
    state = unite(Alliances(), "P1", "P2", link="P2:A1").leave("P1")
    assert state.alliances == () and state.are_divided("P1", "P2")


def test_9_6_4_leaving_a_group_of_three_keeps_the_other_two(trio):
    """SPEC §9.6.4 Leaving: the leaver plays alone; the two left stay linked."""
    state = trio.leave("P3")
    assert groups(state.of("P1")) == {"P1:A1": {"P1", "P2"}}
    assert state.of("P3") is None
    assert state.are_divided("P1", "P3") and state.are_divided("P2", "P3")
    assert not state.are_divided("P1", "P2")


def test_9_6_4_leaving_with_the_link_loses_it(trio):
    """SPEC §9.6.4 Loss: a Link is lost when its holder leaves; without a Master the
    alliance dissolves."""
    state = trio.leave("P1")
    assert state.alliances == ()
    assert state.are_divided("P2", "P3")


def test_9_6_4_a_group_left_with_one_member_is_held_by_the_master(four):
    """SPEC §9.6.4 Leaving: a Link group left with one member: he is held by the Master
    alone (decision 37)."""
    state = unite(unite(four, "P5", "P1"), "P6", "P5", link="P6:B2", group=("P5", "P6"))
    left = state.leave("P5")
    ally = left.of("P6")
    assert members(ally) == {"P1", "P2", "P3", "P4", "P6"}
    assert ally is not None and ally.held_by_master == {"P4", "P6"}
    assert s("P6:B2") not in left.designated()
    assert left.are_divided("P5", "P6") and left.are_divided("P5", "P1")
    assert not left.are_divided("P6", "P4")


def test_9_6_4_leaving_with_a_link_under_a_master_divides_the_group(four):
    """SPEC §9.6.4-9.6.5: the leaver's Link is lost; its group stays under the Master,
    held by it alone and divided."""
    left = four.leave("P1")
    ally = left.of("P2")
    assert members(ally) == {"P2", "P3", "P4"}
    assert ally is not None and ally.groups == () and ally.master == s("P4:A1")
    assert left.are_divided("P2", "P3")


def test_9_6_4_leaving_with_the_master_splits_the_alliance(four):
    """SPEC §9.6.4 Loss: the Master is lost when its holder leaves: the alliance splits."""
    left = four.leave("P4")
    assert members(left.of("P1")) == {"P1", "P2", "P3"}
    assert left.of("P1") is not None and left.of("P1").master is None
    assert left.are_divided("P4", "P1")


def test_9_6_4_an_alliance_under_a_master_left_with_one_member_dissolves(four):
    """SPEC §9.6.4 Leaving: a Master outlives shrinking, not an alliance of one."""
    state = four.lose(s("P1:A1"))  # all four held by the Master alone
    state = state.leave("P1").leave("P2")
    assert members(state.of("P3")) == {"P3", "P4"}
    state = state.leave("P3")
    assert state.alliances == ()


# --- §9.6.8 step 2: the victory state dissolves -------------------------------------------

def test_9_6_8_dissolving_an_alliance_of_four_or_more_splits_into_link_groups(four):
    """SPEC §9.6.8 step 2: in standard play an alliance of 4 or more splits into its Link
    groups, members held by the Master alone going solo; repeated, a Link group splits
    into solo players."""
    state = four.dissolve(four.of("P1"))
    assert members(state.of("P1")) == {"P1", "P2", "P3"}
    assert state.of("P4") is None
    assert state.are_divided("P1", "P4")
    again = state.dissolve(state.of("P1"))
    assert again.alliances == ()
    assert again.are_divided("P1", "P2")
    assert again.known == four.known


def test_9_6_8_dissolving_a_smaller_alliance_splits_into_solos(trio):
    """SPEC §9.6.8 step 2: an alliance of fewer than four splits into solo players."""
    state = trio.dissolve(trio.of("P2"))
    assert state.alliances == ()
    assert len(state.divided) == 3


# --- knowledge (§9.1.8, decision 53) ----------------------------------------------------

def test_9_1_8_allies_know_each_other_for_good(four):
    """SPEC §9.1.8 / decision 53: anyone who was ever allied with P knows P's secrets."""
    assert four.knows("P1", "P4") and four.knows("P5", "P5") and not four.knows("P1", "P5")
    after = four.leave("P4").dissolve(four.leave("P4").of("P1"))
    assert after.alliances == ()
    assert after.knows("P4", "P1") and after.knows("P2", "P3")


# --- the start position (§9.8) -------------------------------------------------------------

def test_9_8_start_alliances_round_trip(four):
    """SPEC §9.8 [[start.alliance]]: alliances as a report writes them read back the same."""
    back = Alliances.from_views(four.views(), divided=[("P5", "P6")])
    assert back.alliances == four.alliances
    assert back.known == four.known
    assert back.divided == {pair("P5", "P6")}


@pytest.mark.parametrize("view", [
    AllianceView(("P1",), None, ((s("P1:A1"), ("P1",)),)),
    AllianceView(("P1", "P2"), None, ()),
    AllianceView(("P1", "P2", "P3", "P4"), None, ((s("P1:A1"), ("P1", "P2")),
                                                 (s("P3:A1"), ("P3", "P4")))),
    AllianceView(("P1", "P2"), None, ((s("P3:A1"), ("P1", "P2")),)),
    AllianceView(("P1", "P2", "P3", "P4", "P5"), s("P1:A1"),
                 ((s("P1:A1"), ("P1", "P2")),)),
    AllianceView(("P1", "P2", "P3", "P4", "P5"), s("P9:A1"), ()),
    AllianceView(("P1", "P2", "P3", "P4", "P5"), s("P1:A1"),
                 ((s("P2:A1"), ("P1", "P2", "P3", "P4")),)),
])
def test_9_6_4_start_alliances_not_allowed_by_the_structure(view):
    """SPEC §9.6.4, §9.8: a start position's alliance must have §9.6.4's structure."""
    with pytest.raises(IllegalMove) as caught:
        Alliances.from_views([view])
    assert caught.value.reason is Reason.BAD_SETUP


def test_9_6_5_start_alliances_with_divided_players_in_one_link_group():
    """SPEC §9.6.5: divided players are never in one Link group, at the start either."""
    view = AllianceView(("P1", "P2"), None, ((s("P1:A1"), ("P1", "P2")),))
    with pytest.raises(IllegalMove) as caught:
        Alliances.from_views([view], divided=[("P2", "P1")])
    assert caught.value.reason is Reason.BAD_SETUP
    under = AllianceView(("P1", "P2", "P3"), s("P3:A1"), ())
    assert Alliances.from_views([under], divided=[("P2", "P1")]).are_divided("P1", "P2")


def test_9_6_4_views_are_in_seat_order():
    """SPEC §9.8: alliances and members are written in seat order (P2 before P10)."""
    state = unite(Alliances(), "P10", "P2", link="P10:A1")
    state = unite(state, "P1", "P11", link="P11:A1")
    assert [v.members for v in state.views()] == [("P1", "P11"), ("P2", "P10")]


# --- properties over random sequences -------------------------------------------------------

PLAYERS = [f"P{k}" for k in range(1, 8)]
SPACES = [*sorted(NODE_SPACES), (9, 9)]  # the Nodes, and a space that is none
choice = st.one_of(st.none(), st.just("auto"), st.just("auto"), st.sampled_from(SPACES))
op = st.one_of(
    st.tuples(st.just("unite"), st.sampled_from(PLAYERS), st.sampled_from(PLAYERS), choice,
              st.one_of(st.just(()), st.sampled_from(["auto2", "auto3"]),
                        st.lists(st.sampled_from(PLAYERS), max_size=3).map(tuple)),
              choice),
    st.tuples(st.just("unite"), st.sampled_from(PLAYERS), st.sampled_from(PLAYERS),
              st.just("auto"), st.sampled_from([(), "auto2", "auto3"]), st.just("auto")),
    st.tuples(st.just("unite"), st.sampled_from(PLAYERS), st.sampled_from(PLAYERS),
              st.just("auto"), st.just(()), st.just("auto")),
    st.tuples(st.just("leave"), st.sampled_from(PLAYERS)),
    st.tuples(st.just("lose"), st.sampled_from(PLAYERS), st.sampled_from(SPACES)),
    st.tuples(st.just("dissolve"), st.sampled_from(PLAYERS)),
)


def _free_node(state: Alliances, player: str):
    """A Node of ``player``'s own grid that carries no designation."""
    return next((player, *n) for n in sorted(NODE_SPACES)
                if (player, *n) not in state.designated())


def _resolve_unite(state: Alliances, by: str, other: str, link, group, master):
    """Fill in "auto" designations as the union needs them, so that many unions are
    legal; the other choices are taken as they are."""
    sides = [a for a in (state.of(by), state.of(other)) if a is not None]
    union = (state.allies(by) | {by}) | (state.allies(other) | {other})
    alone = sorted(union - frozenset().union(*(a.linked for a in sides)))
    has_master = any(a.master is not None for a in sides)
    small = len(union) < 4 and not has_master
    if isinstance(group, str):
        group = tuple(alone[:int(group[-1])]) if not small else ()
    owner = group[0] if group else by
    if link == "auto":
        link = _free_node(state, owner) if (group or (small and not sides)) else None
    elif link is not None:
        link = (owner, *link)
    if master == "auto":
        master = _free_node(state, other) if not (small or has_master) else None
        if master is not None and master == link:
            master = next((other, *n) for n in sorted(NODE_SPACES)
                          if (other, *n) not in state.designated() and (other, *n) != link)
    elif master is not None:
        master = (other, *master)
    return link, tuple(group), master


def _apply(state: Alliances, move: tuple) -> Alliances:
    kind = move[0]
    if kind == "unite":
        _, by, other, link, group, master = move
        link, group, master = _resolve_unite(state, by, other, link, group, master)
        return state.unite(by, other, link=link, group=group, master=master, holds_own=holds)
    if kind == "leave":
        return state.leave(move[1])
    if kind == "lose":
        return state.lose((move[1], *move[2]))
    alliance = state.of(move[1])
    return state if alliance is None else state.dissolve(alliance)


def _allied_pairs(state: Alliances) -> set[frozenset[str]]:
    return {frozenset((a, b)) for x in state.alliances for a in x.members for b in x.members
            if a != b}


@FUZZ
@given(st.lists(op, max_size=40))
def test_9_6_4_structure_holds_through_any_sequence(moves):
    """SPEC §9.6.4-9.6.5, decision 53: through any sequence of unions (legal or refused),
    leavings, losses and dissolvings: every alliance has §9.6.4's structure, nobody is in
    two, designations are unique, divided players never share a Link group nor are newly
    brought into one alliance, and divided and known pairs never shrink."""
    _check_sequence(moves)


@pytest.mark.slow
@settings(FUZZ, max_examples=examples(1000))
@given(st.lists(op, max_size=80))
def test_9_6_4_structure_holds_through_any_sequence_more(moves):
    """SPEC §9.6.4-9.6.5: the same, over many more and longer sequences."""
    _check_sequence(moves)


def _check_sequence(moves) -> None:
    state = Alliances()
    for move in moves:
        before = state
        try:
            state = _apply(state, move)
        except IllegalMove as error:
            assert error.reason in (Reason.ALLY, Reason.DIVIDED, Reason.TWO_MASTERS,
                                    Reason.BAD_LINK, Reason.NOT_ALLIED)
            assert state == before
            continue
        assert before.divided <= state.divided and before.known <= state.known
        everyone = [m for a in state.alliances for m in a.members]
        assert len(everyone) == len(set(everyone))
        for alliance in state.alliances:
            assert alliance.problems() == []
            for group in alliance.groups:
                assert not any(frozenset((a, b)) in state.divided
                               for a in group.members for b in group.members if a != b)
            allied = {frozenset((a, b)) for a in alliance.members for b in alliance.members
                      if a != b}
            assert allied <= state.known
        newly = _allied_pairs(state) - _allied_pairs(before)
        assert not newly & before.divided
        designations = [n for a in state.alliances for n in a.designated()]
        assert len(designations) == len(set(designations))
        assert Alliances.from_views(state.views(), state.divided, state.known) == state
