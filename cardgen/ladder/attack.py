"""The Corporate Ladder referee: who wins an attack, and why.

:func:`decide` applies the project's rule decisions (docs/ladder.md, "Deck check and attack
referee"; the rules are named T1–T6 for teams and D1–D8 for deciding, as in the
decisions the rules sheet states): a team of attackers is legal (T1–T5) or a
:class:`ForbiddenTeam`; a Press card is never a defender (D4, :class:`NotAttackable`);
then the first of Press (D1), Evil Twin (D2), Cooperative Trio (D3), type beats type
(D5), its reverse (D6), same type by Strength (D7) and Strength (D8) that applies
decides. A defending *team* (a counter-attack during a defence targets the attacking
team) loses the cards whose Evil Twins attack, and the rest of it must still be beaten.
A counter-attack the rules forbid is refused (:class:`NoDefence`): the Cooperative Trio's
attack allows no defence (D3), so a Trio is never the defending team.

:func:`read_attack` reads an attack from a TOML file.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardgen.datafile import path_text, read_toml
from cardgen.errors import CardgenError, shorten
from cardgen.ladder.cards import MAX_ABILITY, MAX_LINE, Card, LadderType
from cardgen.resources import templates_dir
from cardgen.schema import Number, Records, Table, Text, check

U, M, W, A, P, F, OTHER = (LadderType.UPPER, LadderType.MIDDLE, LadderType.WORDSMITH,
                       LadderType.ARTIST, LadderType.PRESS, LadderType.FREELANCER,
                       LadderType.OTHER)

# D5: what each type beats whatever the Strengths (D6 reads it backwards).
BEATS: dict[LadderType, frozenset[LadderType]] = {
    M: frozenset({W}), W: frozenset({A}), A: frozenset({M}), U: frozenset({M, W, A, OTHER})}
TRIO = (M, W, A)


class Winner(enum.StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


class Rule(enum.StrEnum):
    """The rule that decided an attack."""

    PRESS = "press"  # D1
    EVIL_TWIN = "evil-twin"  # D2
    TRIO = "trio"  # D3
    TYPE_BEATS = "type-beats-type"  # D5
    TYPE_LOSES = "type-loses-to-type"  # D6
    SAME_TYPE = "same-type"  # D7
    STRENGTH = "strength"  # D8
    TWINS_TAKE_TEAM = "twins-take-the-team"  # every card of a defending team had its twin
    TEAM_STANDS = "team-stands"  # only twins attacked a team: the rest of it stands

    @property
    def code(self) -> str:
        """D1–D8 for the deciding rules; "" for the team cases."""
        return _CODES.get(self, "")


_CODES = {Rule.PRESS: "D1", Rule.EVIL_TWIN: "D2", Rule.TRIO: "D3", Rule.TYPE_BEATS: "D5",
          Rule.TYPE_LOSES: "D6", Rule.SAME_TYPE: "D7", Rule.STRENGTH: "D8"}
UNSTOPPABLE = {Rule.PRESS, Rule.EVIL_TWIN, Rule.TRIO, Rule.TWINS_TAKE_TEAM}


class TeamRule(enum.StrEnum):
    """The team rule a forbidden team breaks."""

    MIXED = "T3"  # neither one type nor the Cooperative Trio
    OTHER = "T4"  # Other cards never team
    PRESS = "T5"  # a Press card attacks alone


class ForbiddenTeam(CardgenError):
    """Cards that may not be played together; ``rule`` says which team rule they break
    and ``cards`` are the cards named."""

    def __init__(self, message: str, rule: TeamRule, cards: Sequence[Card]) -> None:
        super().__init__(message, value=tuple(cards))
        self.rule = rule
        self.cards = tuple(cards)


class NotAttackable(CardgenError):
    """A defender that can never be attacked: a Press card (D4)."""


class NoDefence(CardgenError):
    """A counter-attack the rules forbid: on the Cooperative Trio, whose attack cannot be
    defended against (D3). ``cards`` are the Trio's."""

    def __init__(self, message: str, cards: Sequence[Card]) -> None:
        super().__init__(message, value=tuple(cards))
        self.cards = tuple(cards)


@dataclass(frozen=True)
class Verdict:
    """Who won an attack (``winner``), whether the defender may now defend (counter-
    attack the attackers), the ``rule`` that decided and the ``reason`` in one sentence.
    ``attack_strength`` and ``defence_strength`` are the Strengths compared when Strength
    decided (None otherwise); ``removed`` the cards of a defending team that Evil Twins
    took out."""

    winner: Winner
    defence_allowed: bool
    reason: str
    rule: Rule
    attack_strength: int | None = None
    defence_strength: int | None = None
    removed: tuple[Card, ...] = ()

    def as_json(self) -> dict[str, object]:
        strengths = (None if self.attack_strength is None else
                     {"attacker": self.attack_strength, "defender": self.defence_strength})
        return {"winner": self.winner.value, "defence_allowed": self.defence_allowed,
                "reason": self.reason, "rule": self.rule.value, "code": self.rule.code,
                "strengths": strengths, "removed": [c.as_json() for c in self.removed]}


@dataclass(frozen=True)
class Team:
    """Cards played together: one type (``kind``), or the Cooperative Trio (None)."""

    cards: tuple[Card, ...]
    kind: LadderType | None

    @property
    def trio(self) -> bool:
        return self.kind is None

    @property
    def strength(self) -> int:
        return sum(card.fighting_strength for card in self.cards)


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def names(cards: Sequence[Card]) -> str:
    """"A (Producer), B (Artist) and C (Writer)"."""
    return _and([card.label for card in cards])


def cited(cards: Sequence[Card]) -> str:
    """Cards as an error names them (:attr:`Card.cited`): "attacker[1] (Sam Reed) and
    attacker[2] (Pat Press)"; a large team from a file by its tables alone."""
    if len(cards) > 4 and all(card.where for card in cards):
        return _and([card.where for card in cards])
    return _and([card.cited for card in cards])


def _titles(cards: Sequence[Card]) -> str:
    """The field that gives cards from a file their type, and what it says:
    "attacker[2].title 'Journalist'" ("" when a card comes from elsewhere)."""
    if not cards or not all(card.where for card in cards):
        return ""
    quote = len(cards) <= 4  # a long list names the fields alone
    return _and([f"{card.where}.title" + (f" {shorten(card.title, 24)}" if quote else "")
                 for card in cards])


def _from(source: str) -> str:
    return f"{source}: " if source else ""


def team(cards: Sequence[Card], side: str = "attacking", *, source: str = "") -> Team:
    """The team ``cards`` form (T1–T5), or a :class:`ForbiddenTeam` naming them (and,
    when they come from a file, ``source`` and the field of each card: ``attacker[2]``)."""
    if not cards:
        raise CardgenError(f"{_from(source)}the {side} side has no card; an attack needs at "
                           "least one.")
    cards = tuple(cards)
    if len(cards) == 1:
        return Team(cards, cards[0].type)  # T1
    kinds = [card.type for card in cards]
    start = f"{_from(source)}the {side} team {cited(cards)} is forbidden"
    if P in kinds:
        press = [card for card in cards if card.type is P]
        why = (f"{_titles(press)} {'makes' if len(press) == 1 else 'make'} "
               f"{_and([card.where for card in press])} "
               f"{'a Press card' if len(press) == 1 else 'Press cards'}; "
               if _titles(press) else "")
        raise ForbiddenTeam(f"{start}: {why}play the Press card alone; it needs no help "
                            "(rule T5).", TeamRule.PRESS, cards)
    if OTHER in kinds:
        others = [card for card in cards if card.type is OTHER]
        if _titles(others):
            verb = "makes" if len(others) == 1 else "make"
            what = "an Other card" if len(others) == 1 else "Other cards"
            why = f"{_titles(others)} {verb} {_and([c.where for c in others])} {what}"
        else:
            verb = "is an Other card" if len(others) == 1 else "are Other cards"
            why = f"{cited(others)} {verb}"
        raise ForbiddenTeam(f"{start}: Other cards never team up, and {why} (rule T4).",
                            TeamRule.OTHER, others)
    if len(set(kinds)) == 1:
        return Team(cards, kinds[0])  # T2
    if sorted(kinds) == sorted(TRIO):
        return Team(cards, None)  # T3
    counts = _and([f"{kinds.count(k)} {k.value}"
                   + (f" ({_titles(of_kind)})" if _titles(of_kind) else "")
                   for k in LadderType if k in kinds
                   for of_kind in [[card for card in cards if card.type is k]]])
    raise ForbiddenTeam(f"{start}: cards team up only with their own type or as the "
                        "Cooperative Trio (exactly one Middle Management, one Wordsmith and "
                        f"one Artist), and these are {counts} (rule T3).", TeamRule.MIXED,
                        cards)


def decide(attackers: Sequence[Card], defender: Card | Sequence[Card], *,
           source: str = "") -> Verdict:
    """Who wins when ``attackers`` (one card or a team) attack ``defender`` (a card of a
    Corporate Ladder, or a team of attackers that a defence counter-attacks). An error
    about the cards starts with ``source`` (the attack file) when it is given, and names
    each card by its table in the file (:attr:`Card.where`) and the field at fault."""
    attack = team(attackers, "attacking", source=source)
    defenders = (defender,) if isinstance(defender, Card) else tuple(defender)
    for card in defenders:
        if card.type is P:
            who = (f"{_titles([card])} makes {card.cited} a Press card, which"
                   if card.where else card.cited)
            raise NotAttackable(f"{_from(source)}a Press card is never attacked: {who} cannot "
                                "defend, since Press cards never sit in a Corporate Ladder "
                                "(they are discarded at set-up) and a Press attack cannot be "
                                "countered (rule D4).", value=card)
    defence = team(defenders, "defending", source=source)
    if len(defence.cards) == 1:
        return _against_card(attack, defence.cards[0])
    refuse_counter_attack(defence, f"{_from(source)}the defending team")
    return _against_team(attack, defence)


def refuse_counter_attack(defence: Team, field: str = "the defending team") -> None:
    """A :class:`NoDefence` when ``defence`` (the attacking team a defence counter-attacks,
    named ``field`` in the message) is the Cooperative Trio: its attack allows no defence
    (D3), so the counter-attack has nothing to decide."""
    if defence.trio:
        titles = _titles(defence.cards)
        by = f" ({titles})" if titles else ""
        raise NoDefence(f"{field} {cited(defence.cards)} is the Cooperative Trio{by}, and a "
                        "Trio's attack cannot be defended against, so it is never "
                        "counter-attacked (rule D3): the Trio has won.", defence.cards)


def _against_card(attack: Team, card: Card) -> Verdict:
    if attack.kind is P:
        return _verdict(_Fight(Winner.ATTACKER, Rule.PRESS, "A Press attack always wins",
                               f"{names(attack.cards)} beats {card.label}"))
    twins = [a for a in attack.cards if a.is_twin(card)]
    if twins:
        return _verdict(_Fight(Winner.ATTACKER, Rule.EVIL_TWIN, "An Evil Twin always wins",
                               f"{twins[0].label} is the twin of {card.label} and beats it"))
    return _verdict(_fight(attack, Team((card,), card.type)))


def _against_team(attack: Team, defence: Team) -> Verdict:
    if attack.kind is P:
        return _verdict(_Fight(Winner.ATTACKER, Rule.PRESS, "A Press attack always wins",
                               f"{names(attack.cards)} beats {names(defence.cards)}"))
    left = list(defence.cards)
    removed: list[Card] = []
    twins: list[Card] = []
    rest: list[Card] = []
    for card in attack.cards:
        match = next((i for i, d in enumerate(left) if card.is_twin(d)), None)
        if match is None:
            rest.append(card)
        else:
            removed.append(left.pop(match))
            twins.append(card)
    if not removed:
        return _verdict(_fight(attack, defence))
    took = f"{names(twins)} {'takes' if len(twins) == 1 else 'take'} {names(removed)} out"
    start = f"Evil Twin: {took} of the defending team"
    if not left:
        return _verdict(_Fight(Winner.ATTACKER, Rule.TWINS_TAKE_TEAM,
                               "Evil Twins take a whole team", f"{took}, and no card of "
                               "the defending team is left"), removed)
    if not rest:
        return _verdict(_Fight(Winner.DEFENDER, Rule.TEAM_STANDS, "The rest of the team stands",
                               f"{took}, but no other attacker is left to beat "
                               f"{names(left)}"), removed)
    # A Trio stays the Trio when one of its cards was a twin (all three were played).
    attackers = attack if attack.trio else Team(tuple(rest), attack.kind)
    # The defending team is of one type (a Trio is never counter-attacked), and so is
    # what is left of it.
    return _verdict(_fight(attackers, Team(tuple(left), defence.kind)), removed, start)


@dataclass(frozen=True)
class _Fight:
    winner: Winner
    rule: Rule
    phrase: str  # the rule in words: "Middle Management beats Wordsmith"
    core: str  # the cards: "Sam Reed (Producer) beats Robin Vale (Game Designer)"
    attack_strength: int | None = None
    defence_strength: int | None = None


def _verb(cards: Sequence[Card], singular: str, plural: str) -> str:
    return singular if len(cards) == 1 else plural


def _fight(attack: Team, defence: Team) -> _Fight:
    """Two legal teams (neither a Press card, the defence no Trio), no twins: D3, D5–D8."""
    a_names, d_names = names(attack.cards), names(defence.cards)
    if attack.kind is None:
        return _Fight(Winner.ATTACKER, Rule.TRIO, "The Cooperative Trio always wins",
                      f"{a_names} beat {d_names}")
    a, d = attack.kind, defence.kind
    assert d is not None, "a Trio is never counter-attacked (refuse_counter_attack)"
    if d in BEATS.get(a, frozenset()):
        return _Fight(Winner.ATTACKER, Rule.TYPE_BEATS, f"{a.value} beats {d.value}",
                      f"{a_names} {_verb(attack.cards, 'beats', 'beat')} {d_names}")
    if a in BEATS.get(d, frozenset()):
        return _Fight(Winner.DEFENDER, Rule.TYPE_LOSES, f"{a.value} loses to {d.value}",
                      f"{a_names} {_verb(attack.cards, 'loses', 'lose')} to {d_names} "
                      "whatever the Strengths")
    ours, theirs = attack.strength, defence.strength
    if a is d and a is not OTHER:
        rule, phrase = Rule.SAME_TYPE, f"{a.value} against {d.value}, Strength decides"
    else:
        rule, phrase = Rule.STRENGTH, f"{a.value} against {d.value}, Strength decides"
    if ours > theirs:
        verb = _verb(attack.cards, "beats", "beat")
    elif ours == theirs:
        verb = _verb(attack.cards, "meets", "meet") + " (a tie goes to the attacker)"
    else:
        verb = _verb(attack.cards, "loses to", "lose to")
    core = f"{a_names}, {_strength_text(attack)}, {verb} {d_names}, {_strength_text(defence)}"
    return _Fight(Winner.ATTACKER if ours >= theirs else Winner.DEFENDER, rule, phrase, core,
                  ours, theirs)


def _strength_text(side: Team) -> str:
    freelance = any(card.type is F for card in side.cards)
    if len(side.cards) == 1:
        card = side.cards[0]
        return (f"Strength {side.strength} ({card.strength}, halved)" if freelance
                else f"Strength {side.strength}")
    parts = " + ".join(str(card.fighting_strength) for card in side.cards)
    return (f"Strength {side.strength} ({parts}{', Freelancers at half' if freelance else ''})")


def _verdict(fight: _Fight, removed: Sequence[Card] = (), start: str = "") -> Verdict:
    """The verdict of a fight; ``start`` (the Evil Twins' part) begins the reason."""
    if fight.winner is Winner.DEFENDER:
        clause = "the attack fails"
    elif fight.rule in UNSTOPPABLE:
        clause = "no defence is allowed"
    else:
        clause = "the defender may defend"
    if start:
        reason = f"{start}, then {_lower(fight.phrase)}: {fight.core}; {clause}."
    else:
        reason = f"{fight.phrase}: {fight.core}; {clause}."
    return Verdict(fight.winner, fight.rule not in UNSTOPPABLE, reason, fight.rule,
                   fight.attack_strength, fight.defence_strength, tuple(removed))


def _lower(phrase: str) -> str:
    """A rule's phrase inside a sentence ("the Cooperative Trio…", type names kept)."""
    for word in ("A ", "An ", "The "):
        if phrase.startswith(word):
            return word.lower() + phrase[len(word):]
    return phrase


# --- ATTACK.toml -------------------------------------------------------------------------

MAX_ATTACKERS = 10


def example_attack() -> Path:
    """The example attack cardgen ships."""
    return templates_dir() / "ladder" / "example-attack.toml"


def _card_table() -> Table:
    return Table({
        "name": Text("the name on the card", nonempty=True, printed=True,
                     max_length=MAX_LINE),
        "title": Text("the job title on the card", printed=True, max_length=MAX_LINE),
        "company": Text("the company on the card", default="", printed=True,
                        max_length=MAX_LINE),
        "strength": Number("the Strength, 0 to 9", low=0, high=9, integer=True),
        "ability": Text("the text after CL:", default="", printed=True,
                        max_length=MAX_ABILITY),
    })


def _schema(team_defends: bool) -> Table:
    defender: Table | Records = (
        Records(_card_table(), "the attacking team a defence counter-attacks", min_items=1,
                max_items=MAX_ATTACKERS) if team_defends
        else Table(_card_table().fields, "the card attacked", optional=False))
    return Table({
        "attacker": Records(_card_table(), "the attacking cards", min_items=1,
                            max_items=MAX_ATTACKERS,
                            missing="attacker is missing: give 1 to 10 [[attacker]] cards."),
        "defender": defender,
    })


def attack_schemas() -> tuple[Table, Table]:
    """The schemas an attack file is checked against: with one ``[defender]`` card, and
    with a ``[[defender]]`` team (the one the file's ``defender`` chooses)."""
    return _schema(False), _schema(True)


@dataclass(frozen=True)
class Attack:
    """An attack as a file gives it: the attacking cards, and the card (or, for a
    counter-attack, the team) they attack."""

    attackers: tuple[Card, ...]
    defender: Card | tuple[Card, ...]
    source: str = ""  # the file, as errors name it


def read_attack(path: Path) -> Attack:
    """The attack in a TOML file: ``[[attacker]]`` tables (1–10 cards) and one
    ``[defender]`` table, or ``[[defender]]`` tables for a team; each card has ``name``,
    ``title``, ``company`` (optional), ``strength`` (0–9) and ``ability`` (optional).
    A :class:`~cardgen.errors.ConfigError` names the file and every bad field; a
    :class:`NoDefence` names the file and ``[[defender]]`` when that team is the
    Cooperative Trio, which is never counter-attacked (D3)."""
    label = path_text(path)
    return attack_from_data(read_toml(path, "attack file", label), label)


def attack_from_data(data: dict[str, Any], label: str) -> Attack:
    """The attack in parsed TOML data (see :func:`read_attack`)."""
    values = check(_schema(isinstance(data.get("defender"), list)), data, label)
    attackers = tuple(_card(v, f"attacker[{i}]") for i, v in enumerate(values["attacker"], 1))
    defender = values["defender"]
    if isinstance(defender, list):
        defenders = tuple(_card(v, f"defender[{i}]") for i, v in enumerate(defender, 1))
        if len(defenders) > 1:
            try:
                defence = team(defenders, "defending")
            except ForbiddenTeam:
                pass  # decide() names the forbidden team
            else:
                refuse_counter_attack(defence, f"{label}: the [[defender]] team")
        return Attack(attackers, defenders, label)
    return Attack(attackers, _card(defender, "defender"), label)


def _card(values: dict[str, Any], where: str) -> Card:
    return Card(values["name"], values["title"], values["company"], values["strength"],
                values["ability"], where=where)
