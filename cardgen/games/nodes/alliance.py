"""Defector's alliances (SPEC §9.6.4-9.6.5, and the dissolving of §9.6.8 step 2): who is
allied with whom, held together by which Link and Master Nodes, who is divided for good,
and who has ever been allied (and so knows the other's secrets, decision 53).

An alliance is two or more players. Each member is in one Link group of two or three
members, held together by its Link Node, or held by the Master alone; a Master Node is
designated when an alliance reaches four members and holds the whole alliance until it
is lost, and members held by the Master alone exist only while there is one. So an
alliance without a Master is exactly one Link group.

This module checks structure only and knows nothing of marks or turns: the engine says
who holds which Node (``holds_own`` of :meth:`Alliances.unite`), reports a designated
Node that changed holder (:meth:`Alliances.lose`), and decides when a player may unite or
leave. Every value is frozen; every change returns new :class:`Alliances`. A union the
rules forbid raises :class:`~cardgen.games.nodes.record.IllegalMove` and changes nothing.

Decisions this module takes where §9.6.4 leaves room (see the report):

- "two of its future members are divided" is read as "brought into one alliance": a
  union is refused when a member of one side is divided from a member of the other, or
  when two members of a new Link group are divided; players already divided inside an
  alliance (by a lost Link, under its Master) do not stop it growing (decision 40).
- a union with oneself or with one's own ally is refused as ``ally``.
- §9.6.8 step 2 splits "an alliance of 4 or more" into its Link groups and a smaller one
  into solo players, by its size, as written.

Pure: imports the record's values only.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from cardgen.games.nodes.record import AllianceView, IllegalMove, Reason, Spot, spot_name

Pair = frozenset[str]

LINK_GROUP = (2, 3)  # a Link group has two or three members (§9.6.4)
MASTER_AT = 4  # an alliance reaching this many members designates a Master (§9.6.4)


def seat_key(player: str) -> tuple[int, str]:
    """Players in seat order: ``P2`` before ``P10``."""
    digits = player[1:]
    return (int(digits), player) if digits.isdigit() else (0, player)


def seated(players: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(players, key=seat_key))


def pairs(players: Iterable[str]) -> frozenset[Pair]:
    """Every pair of distinct players among ``players``."""
    return frozenset(frozenset(p) for p in itertools.combinations(set(players), 2))


def _words(players: Iterable[str]) -> str:
    names = list(seated(players))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _bad_link(message: str) -> IllegalMove:
    return IllegalMove(Reason.BAD_LINK, message, rule="9.6.4")


@dataclass(frozen=True)
class LinkGroup:
    """Two or three members held together by their Link Node (§9.6.4)."""

    link: Spot
    members: frozenset[str]


@dataclass(frozen=True)
class Alliance:
    """Two or more players in the game, allied (§9.6.4)."""

    members: frozenset[str]
    master: Spot | None = None
    groups: tuple[LinkGroup, ...] = ()

    @property
    def linked(self) -> frozenset[str]:
        """The members in a Link group."""
        return frozenset().union(*(g.members for g in self.groups))

    @property
    def held_by_master(self) -> frozenset[str]:
        """The members held by the Master alone (none without a Master)."""
        return self.members - self.linked

    def group_of(self, player: str) -> LinkGroup | None:
        for group in self.groups:
            if player in group.members:
                return group
        return None

    def designated(self) -> frozenset[Spot]:
        """The alliance's Link Nodes and its Master Node."""
        found = {g.link for g in self.groups}
        return frozenset(found | ({self.master} if self.master is not None else set()))

    def view(self) -> AllianceView:
        """As a report writes it: members in seat order, groups in the order of their
        first member's seat."""
        groups = sorted(self.groups, key=lambda g: seat_key(seated(g.members)[0]))
        return AllianceView(seated(self.members), self.master,
                            tuple((g.link, seated(g.members)) for g in groups))

    def problems(self) -> list[str]:
        """What is wrong with this alliance's structure (§9.6.4), one sentence each."""
        out = []
        if len(self.members) < 2:
            out.append(f"an alliance has two or more members, not {len(self.members)}")
        seen: set[str] = set()
        links = [g.link for g in self.groups]
        for group in self.groups:
            if not LINK_GROUP[0] <= len(group.members) <= LINK_GROUP[1]:
                out.append(f"the Link group of {spot_name(group.link)} has "
                           f"{len(group.members)} members, not two or three")
            if not group.members <= self.members:
                out.append(f"the Link group of {spot_name(group.link)} has "
                           f"{_words(group.members - self.members)}, who is not a member")
            if group.members & seen:
                out.append(f"{_words(group.members & seen)} is in two Link groups")
            seen |= group.members
            if group.link[0] not in group.members:
                out.append(f"the Link {spot_name(group.link)} is not on the grid of a "
                           "member of its group")
        if self.master is None:
            if len(self.groups) != 1 or self.held_by_master:
                out.append("an alliance without a Master is one Link group")
        else:
            if self.master[0] not in self.members:
                out.append(f"the Master {spot_name(self.master)} is not on a member's grid")
            links.append(self.master)
        if len(set(links)) != len(links):
            out.append("a Node carries at most one designation")
        return out


def _canonical(alliance: Alliance) -> Alliance:
    """``alliance`` with its Link groups in the order of their first member's seat, so
    that equal structures are equal values."""
    groups = tuple(sorted(alliance.groups, key=lambda g: seat_key(seated(g.members)[0])))
    return alliance if groups == alliance.groups else replace(alliance, groups=groups)


@dataclass(frozen=True)
class Alliances:
    """Every alliance at the table, the pairs divided for good (§9.6.5), and the pairs
    ever allied (who knows whose secrets, decision 53)."""

    alliances: tuple[Alliance, ...] = ()
    divided: frozenset[Pair] = frozenset()
    known: frozenset[Pair] = frozenset()

    # -- questions --

    def of(self, player: str) -> Alliance | None:
        """The alliance ``player`` is in, or None."""
        for alliance in self.alliances:
            if player in alliance.members:
                return alliance
        return None

    def allies(self, player: str) -> frozenset[str]:
        """``player``'s allies (not himself)."""
        alliance = self.of(player)
        return frozenset() if alliance is None else alliance.members - {player}

    def allied(self, a: str, b: str) -> bool:
        return b in self.allies(a)

    def are_divided(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.divided

    def knows(self, player: str, other: str) -> bool:
        """Whether ``player`` knows ``other``'s secrets: his own, or an ally's, now or
        ever (§9.1.8, decision 53)."""
        return player == other or frozenset((player, other)) in self.known

    def designated(self) -> frozenset[Spot]:
        """Every Link and Master Node."""
        return frozenset().union(*(a.designated() for a in self.alliances))

    def views(self) -> tuple[AllianceView, ...]:
        """The alliances as a report writes them, in the order of their first member's
        seat."""
        return tuple(sorted((a.view() for a in self.alliances),
                            key=lambda v: seat_key(v.members[0])))

    # -- building --

    @classmethod
    def from_views(cls, views: Iterable[AllianceView],
                   divided: Iterable[Iterable[str]] = (),
                   known: Iterable[Iterable[str]] | None = None) -> Alliances:
        """Alliances as a start position gives them (SPEC §9.8 ``[[start.alliance]]``);
        ``known`` defaults to every pair allied now. A structure §9.6.4 does not allow is
        ``bad-setup``."""
        alliances = tuple(_canonical(Alliance(
            frozenset(v.members), v.master,
            tuple(LinkGroup(link, frozenset(m)) for link, m in v.groups))) for v in views)
        problems = [p for a in alliances for p in a.problems()]
        everyone = [m for a in alliances for m in a.members]
        if len(set(everyone)) != len(everyone):
            problems.append("a player is in two alliances")
        split = frozenset(frozenset(d) for d in divided)
        problems += [f"{_words(g.members)} are in one Link group but some are divided"
                     for a in alliances for g in a.groups if pairs(g.members) & split]
        if problems:
            raise IllegalMove(Reason.BAD_SETUP, "the start's alliances are not as §9.6.4 "
                              f"allows: {problems[0]}", rule="9.6.4")
        now = frozenset().union(*(pairs(a.members) for a in alliances))
        known_pairs = now if known is None else frozenset(frozenset(k) for k in known) | now
        return cls(alliances, split, known_pairs)

    def _with(self, old: Iterable[Alliance], new: Iterable[Alliance],
              divide: Iterable[Pair] = ()) -> Alliances:
        """``old`` alliances replaced by ``new`` ones (those of fewer than two members
        dropped): every pair that stops being allied is divided (§9.6.5), and so is every
        pair in ``divide``; every pair allied is known for good."""
        gone = list(old)
        kept = [a for a in self.alliances if a not in gone]
        made = [_canonical(a) for a in new if len(a.members) >= 2]
        before = frozenset().union(*(pairs(a.members) for a in gone))
        after = frozenset().union(*(pairs(a.members) for a in made))
        alliances = tuple(sorted(kept + made, key=lambda a: seat_key(seated(a.members)[0])))
        return replace(self, alliances=alliances,
                       divided=self.divided | (before - after) | frozenset(divide),
                       known=self.known | after)

    # -- uniting (§9.6.4) --

    def unite(self, by: str, other: str, *, link: Spot | None, group: tuple[str, ...],
              master: Spot | None, holds_own: Callable[[str, Spot], bool]) -> Alliances:
        """``by`` unites his side (himself, or his whole alliance) with ``other``'s side
        (a solo player or a whole alliance), designating ``link`` (the Link Node of the
        union's Link group, or of the new Link group ``group`` formed under a Master) and
        ``master`` as §9.6.4 requires. ``holds_own(p, node)``: p holds ``node``, a Node of
        his own grid.

        Refused (``IllegalMove``, nothing changes): uniting with oneself or an ally
        (``ally``); a member of one side divided from one of the other, or two members of
        the new Link group divided (``divided``, §9.6.5); both sides with a Master
        (``two-masters``); a missing, superfluous or invalid Link, group or Master
        (``bad-link``)."""
        if by == other or self.allied(by, other):
            raise IllegalMove(Reason.ALLY, f"{by} and {other} are already on one side; a "
                              "union joins two sides", rule="9.6.4")
        side_a, side_b = self.of(by), self.of(other)
        members_a = side_a.members if side_a else frozenset({by})
        members_b = side_b.members if side_b else frozenset({other})
        union = members_a | members_b
        split = [frozenset((a, b)) for a in members_a for b in members_b
                 if frozenset((a, b)) in self.divided]
        in_group = [frozenset(p) for p in itertools.combinations(set(group), 2)
                    if frozenset(p) in self.divided]
        if split or in_group:
            a, b = seated((split or in_group)[0])
            raise IllegalMove(Reason.DIVIDED, f"{a} and {b} are divided for good and can "
                              "never again be in one alliance or one Link group", rule="9.6.5")
        masters = [s.master for s in (side_a, side_b) if s is not None and s.master]
        if len(masters) == 2:
            raise IllegalMove(Reason.TWO_MASTERS, "both sides have a Master Node; an "
                              "alliance has one", rule="9.6.4")
        olds = [s for s in (side_a, side_b) if s is not None]
        if len(union) < MASTER_AT and not masters:
            made = self._link_union(olds, union, link, group, master, holds_own)
        else:
            made = self._master_union(olds, union, masters, link, group, master, holds_own)
        return self._with(olds, [made])

    def _designation(self, what: str, node: Spot, among: frozenset[str],
                     holds_own: Callable[[str, Spot], bool]) -> None:
        """``node`` may be designated the ``what`` of ``among``: a Node a member of
        ``among`` holds on his own grid, not already designated (§9.6.4)."""
        if node[0] not in among or not holds_own(node[0], node):
            raise _bad_link(f"the {what} {spot_name(node)} must be a Node that one of "
                            f"{_words(among)} holds on his own grid")
        if node in self.designated():
            raise _bad_link(f"{spot_name(node)} is already a Link or Master Node; a Node "
                            "carries one designation")

    def _link_union(self, olds: list[Alliance], union: frozenset[str], link: Spot | None,
                    group: tuple[str, ...], master: Spot | None,
                    holds_own: Callable[[str, Spot], bool]) -> Alliance:
        """A union of two or three, no Master on either side: one Link group."""
        if master is not None:
            raise _bad_link(f"a union of {len(union)} designates no Master Node; one "
                            f"comes at {MASTER_AT} members")
        if group:
            raise _bad_link("a group is formed only under a Master; this union is one "
                            "Link group")
        if olds:  # a solo player enters the existing Link group
            if link is not None:
                raise _bad_link(f"{_words(union - olds[0].members)} enters the Link group "
                                f"of {spot_name(olds[0].groups[0].link)}; no Link is "
                                "designated")
            return Alliance(union, None, (LinkGroup(olds[0].groups[0].link, union),))
        if link is None:
            raise _bad_link(f"{_words(union)} must designate a Link Node")
        self._designation("Link", link, union, holds_own)
        return Alliance(union, None, (LinkGroup(link, union),))

    def _master_union(self, olds: list[Alliance], union: frozenset[str],
                      masters: list[Spot], link: Spot | None, group: tuple[str, ...],
                      master: Spot | None, holds_own: Callable[[str, Spot], bool],
                      ) -> Alliance:
        """Any other union: the Link groups stay, a Master is designated if neither side
        has one, solo joiners are held by the Master alone, and two or three members held
        by the Master alone may form a new Link group."""
        if masters and master is not None:
            raise _bad_link(f"the alliance has its Master {spot_name(masters[0])}; no "
                            "other is designated")
        if not masters and master is None:
            raise _bad_link(f"an alliance of {len(union)} must designate a Master Node")
        if master is not None:
            self._designation("Master", master, union, holds_own)
        groups = tuple(g for a in olds for g in a.groups)
        alone = union - frozenset().union(*(g.members for g in groups))
        if link is None and group:
            raise _bad_link("a new Link group needs its Link Node")
        if link is not None:
            members = frozenset(group)
            if len(members) != len(group) or not LINK_GROUP[0] <= len(members) <= LINK_GROUP[1]:
                raise _bad_link("a new Link group is two or three different members")
            if not members <= alone:
                raise _bad_link(f"only members held by the Master alone may form a new "
                                f"Link group, not {_words(members - alone)}")
            self._designation("Link", link, members, holds_own)
            groups += (LinkGroup(link, members),)
        return Alliance(union, masters[0] if masters else master, groups)

    # -- losing, leaving, dissolving --

    def lose(self, node: Spot) -> Alliances:
        """A Link or Master Node changed holder (or its holder left): without a Master a
        lost Link dissolves the alliance; under a Master its members stay, held by the
        Master alone, divided; a lost Master splits the alliance into its still-linked
        groups and solo players (§9.6.4 Loss, §9.6.5). Any other Node: no change."""
        for alliance in self.alliances:
            if alliance.master == node:
                return self._with([alliance], [Alliance(g.members, None, (g,))
                                               for g in alliance.groups])
            for group in alliance.groups:
                if group.link != node:
                    continue
                if alliance.master is None:
                    return self._with([alliance], [])
                rest = tuple(g for g in alliance.groups if g != group)
                return self._with([alliance], [replace(alliance, groups=rest)],
                                  divide=pairs(group.members))
        return self

    def leave(self, who: str) -> Alliances:
        """``who`` leaves (deserts) his alliance and plays alone (§9.6.4 Leaving): a Link
        group left with one member leaves him held by the Master alone, or without a
        Master dissolves the alliance; an alliance left with one member dissolves; the
        Link or Master Nodes on ``who``'s grid are lost. Not in an alliance:
        ``not-allied``."""
        alliance = self.of(who)
        if alliance is None:
            raise IllegalMove(Reason.NOT_ALLIED, f"{who} is in no alliance to leave",
                              rule="9.6.4")
        members = alliance.members - {who}
        groups = []
        for group in alliance.groups:
            left = group.members - {who}
            if len(left) >= LINK_GROUP[0]:
                groups.append(replace(group, members=left))
            elif alliance.master is None:
                members = frozenset()  # the alliance dissolves
        after = self._with([alliance], [Alliance(members, alliance.master, tuple(groups))])
        mine = sorted(n for n in alliance.designated() if n[0] == who)
        for node in mine:
            after = after.lose(node)
        return after

    def dissolve(self, alliance: Alliance) -> Alliances:
        """§9.6.8 step 2, standard play: an alliance of four or more splits into its Link
        groups (members held by the Master alone go solo), a smaller one into solo
        players. Those who stop being allied are divided (§9.6.5)."""
        if len(alliance.members) >= MASTER_AT:
            return self._with([alliance], [Alliance(g.members, None, (g,))
                                           for g in alliance.groups])
        return self._with([alliance], [])

