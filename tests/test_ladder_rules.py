"""The Corporate Ladder referee: every rule decision (T1–T6 teams, D1–D8 deciding, Evil
Twins against a team), every pair of types both ways, the deck rules, and the deck CSV
and ATTACK.toml readers (fuzzed)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import CardgenError, ConfigError
from cardgen.ladder.attack import (
    Attack,
    ForbiddenTeam,
    NoDefence,
    NotAttackable,
    Rule,
    TeamRule,
    Winner,
    attack_from_data,
    decide,
    example_attack,
    read_attack,
)
from cardgen.ladder.cards import Card, LadderType
from cardgen.ladder.deck import DeckProblem, check_deck, example_deck, first_digit, read_deck
from tests import tomlwrite
from tests.helpers import examples

U, M, W, A, P, F, OT = (LadderType.UPPER, LadderType.MIDDLE, LadderType.WORDSMITH,
                       LadderType.ARTIST, LadderType.PRESS, LadderType.FREELANCER,
                       LadderType.OTHER)
TITLES = {U: "CEO", M: "Producer", W: "Game Designer", A: "Illustrator", P: "Journalist",
          F: "Freelance Writer", OT: "Intern"}
ATTACKER, DEFENDER = Winner.ATTACKER, Winner.DEFENDER
_made = iter(range(10_000))


def card(kind: LadderType, strength: int = 5, name: str = "", company: str = "") -> Card:
    made = Card(name or f"Person {next(_made)}", TITLES[kind], company, strength)
    assert made.type is kind
    return made


# --- every pair of types, both ways --------------------------------------------------------

# The rule that decides a single card of the row's type attacking one of the column's
# (4: D4, a Press defender is an error). Every pair is here: the test below checks.
MATRIX = """
    U M W A P F O
U   7 5 5 5 4 8 5
M   6 7 5 6 4 8 8
W   6 6 7 5 4 8 8
A   6 5 6 7 4 8 8
P   1 1 1 1 4 1 1
F   8 8 8 8 4 7 8
O   6 8 8 8 4 8 8
"""
LETTERS = {"U": U, "M": M, "W": W, "A": A, "P": P, "F": F, "O": OT}
RULES = {1: Rule.PRESS, 5: Rule.TYPE_BEATS, 6: Rule.TYPE_LOSES, 7: Rule.SAME_TYPE,
         8: Rule.STRENGTH}


def _matrix() -> dict[tuple[LadderType, LadderType], int]:
    head, *rows = MATRIX.strip().splitlines()
    columns = [LETTERS[c] for c in head.split()]
    table = {}
    for row in rows:
        letter, *codes = row.split()
        for column, code in zip(columns, codes, strict=True):
            table[LETTERS[letter], column] = int(code)
    return table


PAIRS = _matrix()


def test_the_matrix_holds_every_pair_of_types_once():
    assert set(PAIRS) == {(a, d) for a in LadderType for d in LadderType}
    assert len(PAIRS) == 49


def _half(kind: LadderType, strength: int) -> int:
    return strength // 2 if kind is F else strength


@pytest.mark.parametrize(("attacker", "defender"), sorted(PAIRS, key=str))
@pytest.mark.parametrize(("ours", "theirs"), [(1, 9), (9, 1), (5, 5), (9, 9), (0, 0)])
def test_every_pair_of_types(attacker, defender, ours, theirs):
    code = PAIRS[attacker, defender]
    a, d = card(attacker, ours), card(defender, theirs)
    if code == 4:
        with pytest.raises(NotAttackable, match=r"^a Press card is never attacked: .*\(rule D4\)"):
            decide([a], d)
        return
    verdict = decide([a], d)
    assert verdict.rule is RULES[code] and verdict.rule.code == f"D{code}"
    if code in (1, 5):
        assert verdict.winner is ATTACKER
    elif code == 6:
        assert verdict.winner is DEFENDER
    else:  # Strength decides, ties to the attacker
        mine, yours = _half(attacker, ours), _half(defender, theirs)
        assert (verdict.attack_strength, verdict.defence_strength) == (mine, yours)
        assert verdict.winner is (ATTACKER if mine >= yours else DEFENDER)
    assert verdict.defence_allowed is (code != 1)
    assert a.label in verdict.reason and d.label in verdict.reason
    assert verdict.reason.endswith(".") and "\n" not in verdict.reason


# --- one row per rule ---------------------------------------------------------------------

ROBIN = Card("Robin Vale", "Game Designer", "Quillmoor Games", 3)
SAM = Card("Sam Reed", "Producer", "Quillmoor Games", 5)
KIM = Card("Kim Ode", "Illustrator", "Brasslantern Studio", 2)
JO = Card("Jo Park", "Intern", "", 4)
PAT = Card("Pat Quill", "Journalist", "The Cardboard Courier", 0)
ADA = Card("Ada Moss", "CEO", "Tidewell Interactive", 1)
TRIO = [SAM, ROBIN, KIM]


@pytest.mark.parametrize(("attackers", "defender", "winner", "rule", "defence", "reason"), [
    # T1: a single card is always a legal attack (even an Other card).
    pytest.param([JO], ROBIN, ATTACKER, Rule.STRENGTH, True, "Jo Park (Intern), Strength 4, "
                 "beats Robin Vale (Game Designer), Strength 3", id="T1"),
    # T2: cards of one type team up, their Strengths summed.
    pytest.param([card(W, 2), card(W, 2)], card(W, 4), ATTACKER, Rule.SAME_TYPE, True,
                 "Strength 4 (2 + 2), meet (a tie goes to the attacker)", id="T2"),
    pytest.param([card(U, 1), card(U, 1)], card(U, 3), DEFENDER, Rule.SAME_TYPE, True,
                 "lose to", id="T2-upper"),
    pytest.param([card(F, 3), card(F, 3)], card(F, 4), ATTACKER, Rule.SAME_TYPE, True,
                 "Strength 2 (1 + 1, Freelancers at half)", id="T2-freelancers"),
    # T3: the Cooperative Trio is a team, and D3: it always wins.
    pytest.param(TRIO, ADA, ATTACKER, Rule.TRIO, False, "The Cooperative Trio always wins: "
                 "Sam Reed (Producer), Robin Vale (Game Designer) and Kim Ode (Illustrator) "
                 "beat Ada Moss (CEO); no defence is allowed.", id="T3-D3"),
    # T6 and D2: the Evil Twin.
    pytest.param([Card(" robin  VALE", "game designer", "QUILLMOOR GAMES", 3)], ROBIN,
                 ATTACKER, Rule.EVIL_TWIN, False, "is the twin of Robin Vale", id="T6-D2"),
    pytest.param([Card("Robin Vale", "Game Designer", "Quillmoor Games", 3), card(W, 0)],
                 ROBIN, ATTACKER, Rule.EVIL_TWIN, False, "An Evil Twin always wins",
                 id="D2-in-a-team"),
    # D1: Press always wins, no defence.
    pytest.param([PAT], ADA, ATTACKER, Rule.PRESS, False, "A Press attack always wins: Pat "
                 "Quill (Journalist) beats Ada Moss (CEO); no defence is allowed.", id="D1"),
    # D5: type beats type whatever the Strengths.
    pytest.param([Card("Sam Reed", "Producer", "", 0)], Card("Robin Vale", "Game Designer",
                 "", 9), ATTACKER, Rule.TYPE_BEATS, True, "Middle Management beats Wordsmith: "
                 "Sam Reed (Producer) beats Robin Vale (Game Designer); the defender may "
                 "defend.", id="D5"),
    pytest.param([card(U, 0)], card(OT, 9), ATTACKER, Rule.TYPE_BEATS, True,
                 "Upper Management beats Other", id="D5-upper-other"),
    # D6: the reverse loses whatever the Strengths.
    pytest.param([card(W, 9)], card(M, 0), DEFENDER, Rule.TYPE_LOSES, True,
                 "Wordsmith loses to Middle Management", id="D6"),
    pytest.param([card(OT, 9)], card(U, 0), DEFENDER, Rule.TYPE_LOSES, True,
                 "whatever the Strengths; the attack fails.", id="D6-other-upper"),
    # D7: same type by Strength, ties to the attacker.
    pytest.param([card(A, 4)], card(A, 5), DEFENDER, Rule.SAME_TYPE, True, "Strength 4, "
                 "loses to", id="D7"),
    # D8: everything else by Strength (Freelancers, Other, Upper against a Freelancer).
    pytest.param([card(U, 9)], card(F, 9), ATTACKER, Rule.STRENGTH, True,
                 "Strength 4 (9, halved)", id="D8-upper-freelancer"),
    pytest.param([card(F, 9)], card(U, 5), DEFENDER, Rule.STRENGTH, True, "", id="D8-free"),
    pytest.param([card(OT, 2)], card(OT, 2), ATTACKER, Rule.STRENGTH, True, "", id="D8-others"),
])
def test_each_rule(attackers, defender, winner, rule, defence, reason):
    verdict = decide(attackers, defender)
    assert (verdict.winner, verdict.rule, verdict.defence_allowed) == (winner, rule, defence)
    assert reason in verdict.reason
    assert verdict.removed == ()


def test_d4_a_press_defender_is_an_error_even_in_a_team():
    with pytest.raises(NotAttackable, match=r"Pat Quill \(Journalist\) cannot defend"):
        decide([SAM], PAT)
    with pytest.raises(NotAttackable):
        decide([PAT], [PAT])
    with pytest.raises(NotAttackable):
        decide([SAM], [PAT, ROBIN])


@pytest.mark.parametrize(("team", "rule", "named", "message"), [
    pytest.param([PAT, SAM], TeamRule.PRESS, [PAT, SAM],
                 "play the Press card alone; it needs no help (rule T5)", id="T5"),
    pytest.param([PAT, card(P)], TeamRule.PRESS, None, "play the Press card alone", id="T5-two"),
    pytest.param([JO, SAM], TeamRule.OTHER, [JO], "Other cards never team up, and Jo Park "
                 "(Intern) is an Other card (rule T4)", id="T4"),
    pytest.param([JO, Card("Al Fern", "Janitor")], TeamRule.OTHER, None,
                 "Jo Park (Intern) and Al Fern (Janitor) are Other cards", id="T4-two"),
    pytest.param([*TRIO, JO], TeamRule.OTHER, [JO], "(rule T4)", id="T4-trio-and-other"),
    pytest.param([*TRIO, card(A)], TeamRule.MIXED, None, "and these are 1 Middle "
                 "Management, 1 Wordsmith and 2 Artist (rule T3)", id="T3-trio-with-extra"),
    pytest.param([SAM, ROBIN], TeamRule.MIXED, [SAM, ROBIN], "(rule T3)", id="T3-pair"),
    pytest.param([card(F), card(W)], TeamRule.MIXED, None, "(rule T3)", id="T3-freelancer"),
    pytest.param([ADA, SAM], TeamRule.MIXED, None, "(rule T3)", id="T3-upper"),
])
def test_forbidden_teams_name_their_cards_and_rule(team, rule, named, message):
    with pytest.raises(ForbiddenTeam) as caught:
        decide(team, ROBIN)
    assert caught.value.rule is rule
    assert message in str(caught.value)
    assert str(caught.value).startswith("the attacking team ")
    for member in named or []:
        assert member in caught.value.cards and member.label in str(caught.value)
    # The twin rule makes no forbidden team legal.
    twin = Card(ROBIN.name, ROBIN.title, ROBIN.company, ROBIN.strength)
    if rule is not TeamRule.PRESS:
        with pytest.raises(ForbiddenTeam):
            decide([*team, twin], ROBIN)


def test_a_forbidden_defending_team_is_an_error_too():
    with pytest.raises(ForbiddenTeam, match=r"^the defending team "):
        decide([SAM], [JO, card(OT)])


# --- Freelancers, sums, ties ---------------------------------------------------------------

@pytest.mark.parametrize(("attackers", "defender", "ours", "theirs", "winner"), [
    ([card(F, 7)], card(M, 3), 3, 3, ATTACKER),  # 7 halved is 3: a tie
    ([card(F, 7)], card(M, 4), 3, 4, DEFENDER),
    ([card(F, 1)], card(OT, 0), 0, 0, ATTACKER),
    ([card(M, 3)], card(F, 7), 3, 3, ATTACKER),  # halved when defending too
    ([card(F, 3), card(F, 3)], card(OT, 3), 2, 3, DEFENDER),  # halved per card, not the sum
    ([card(F, 9), card(F, 9), card(F, 9)], card(F, 9), 12, 4, ATTACKER),
    ([card(W, 8), card(W, 5)], card(W, 9), 13, 9, ATTACKER),  # sums go above 9
    ([card(U, 9), card(U, 9), card(U, 9), card(U, 9)], card(U, 9), 36, 9, ATTACKER),
    ([card(A, 0), card(A, 0)], card(A, 0), 0, 0, ATTACKER),
    ([card(OT, 4)], card(A, 5), 4, 5, DEFENDER),
])
def test_strengths(attackers, defender, ours, theirs, winner):
    verdict = decide(attackers, defender)
    assert (verdict.attack_strength, verdict.defence_strength, verdict.winner) == (
        ours, theirs, winner)


# --- Evil Twins ---------------------------------------------------------------------------

@pytest.mark.parametrize(("other", "twin"), [
    (Card("Robin Vale", "Game Designer", "Quillmoor Games", 3), True),
    (Card("  ROBIN\tvale ", "game   DESIGNER", "quillmoor games ", 3), True),
    (Card("ＲＯＢＩＮ Vale", "Game Designer", "Quillmoor Games", 3), True),  # NFKC
    (Card("Robin Vale", "Game Designer", "Quillmoor Games", 4), False),  # another Strength
    (Card("Robin Vale", "Game Designer", "", 3), False),
    (Card("Robin Vale", "Lead Game Designer", "Quillmoor Games", 3), False),
    (Card("Robin Vales", "Game Designer", "Quillmoor Games", 3), False),
])
def test_identity(other, twin):
    assert other.is_twin(ROBIN) is twin and ROBIN.is_twin(other) is twin
    verdict = decide([other], ROBIN)
    assert (verdict.rule is Rule.EVIL_TWIN) is twin


def twin_of(card_: Card) -> Card:
    return Card(card_.name.upper(), card_.title, card_.company, card_.strength)


AL, BO = Card("Al Brook", "Artist", "", 1), Card("Bo Lane", "Artist", "", 4)


@pytest.mark.parametrize(("attackers", "defenders", "winner", "rule", "removed", "reason"), [
    # The twin takes only its card; the rest of the team must still be beaten.
    ([twin_of(KIM), AL], [KIM, BO], DEFENDER, Rule.SAME_TYPE, [KIM],
     "Evil Twin: KIM ODE (Illustrator) takes Kim Ode (Illustrator) out of the defending team, "
     "then Artist against Artist, Strength decides: Al Brook (Artist), Strength 1, loses to "
     "Bo Lane (Artist), Strength 4; the attack fails."),
    ([twin_of(KIM), Card("Cy", "Artist", "", 4)], [KIM, BO], ATTACKER, Rule.SAME_TYPE, [KIM],
     "meets (a tie goes to the attacker)"),
    # A twin alone: the rest of the team stands.
    ([twin_of(KIM)], [KIM, BO], DEFENDER, Rule.TEAM_STANDS, [KIM],
     "no other attacker is left to beat Bo Lane (Artist)"),
    # Twins for every card: the whole team goes.
    ([twin_of(KIM), twin_of(BO)], [KIM, BO], ATTACKER, Rule.TWINS_TAKE_TEAM, [KIM, BO],
     "no card of the defending team is left; no defence is allowed."),
    # A Trio holding a twin stays the Trio.
    ([twin_of(KIM), Card("Ed Wynn", "Writer", "", 1), Card("Mo Hart", "Producer", "", 1)],
     [KIM, BO], ATTACKER, Rule.TRIO, [KIM], "then the Cooperative Trio always wins"),
    # No twins: the defending team fights as one card of its type.
    ([PAT], [KIM, BO], ATTACKER, Rule.PRESS, [], "A Press attack always wins"),
    ([AL], [KIM, BO], DEFENDER, Rule.SAME_TYPE, [], "Strength 6 (2 + 4)"),
    ([SAM], [KIM, BO], DEFENDER, Rule.TYPE_LOSES, [], "Artist"),
    ([TRIO[0], TRIO[1], AL], [card(U, 9), card(U, 9)], ATTACKER, Rule.TRIO, [], ""),
    ([card(U, 0)], [card(F, 9), card(F, 1)], DEFENDER, Rule.STRENGTH, [], "(4 + 0, Freelancers"),
])
def test_evil_twins_against_a_team(attackers, defenders, winner, rule, removed, reason):
    verdict = decide(attackers, defenders)
    assert (verdict.winner, verdict.rule) == (winner, rule)
    assert list(verdict.removed) == removed
    assert reason in verdict.reason
    assert verdict.defence_allowed is (rule not in {Rule.PRESS, Rule.TRIO,
                                                    Rule.TWINS_TAKE_TEAM})


# The Cooperative Trio's attack allows no defence (D3): no card, no team, no twin and no
# Press card may counter-attack it, so a defending Trio is refused, not decided.
@pytest.mark.parametrize("attackers", [
    [ADA], [card(M, 9), card(M, 9)], [PAT], [twin_of(KIM)], [twin_of(KIM), AL],
    [Card("Ed Wynn", "Writer"), Card("Mo Hart", "Producer"), AL],
    [twin_of(SAM), twin_of(ROBIN), twin_of(KIM)],
])
def test_a_trio_is_never_counter_attacked(attackers):
    with pytest.raises(NoDefence, match=r"^the defending team Sam Reed \(Producer\), Robin "
                       r"Vale \(Game Designer\) and Kim Ode \(Illustrator\) is the "
                       r"Cooperative Trio, .* cannot be defended against, so it is never "
                       r"counter-attacked \(rule D3\): the Trio has won\.$") as caught:
        decide(attackers, TRIO)
    assert caught.value.cards == tuple(TRIO)


def test_the_trio_wins_with_no_defence_whatever_it_attacks():
    # D3: whatever the type or Strength of the card attacked, and even against a team.
    for defender in (card(U, 9), card(M, 9), card(W, 9), card(A, 9), card(F, 9), card(OT, 9),
                     [card(U, 9), card(U, 9)]):
        verdict = decide(TRIO, defender)
        assert (verdict.winner, verdict.rule, verdict.defence_allowed) == (
            ATTACKER, Rule.TRIO, False), defender


def test_a_one_card_team_is_a_card():
    assert decide([twin_of(KIM)], [KIM]).rule is Rule.EVIL_TWIN


def test_an_empty_side_is_an_error():
    with pytest.raises(CardgenError, match="the attacking side has no card"):
        decide([], ROBIN)
    with pytest.raises(CardgenError, match="the defending side has no card"):
        decide([SAM], [])


# --- the deck ----------------------------------------------------------------------------

def example() -> list[Card]:
    return read_deck(example_deck())


def test_the_example_deck_is_valid_and_counted_by_type():
    report = check_deck(example())
    assert report.valid and report.problems == () and report.cards == 22
    assert list(report.types) == list(LadderType)  # all seven, in order
    assert report.types == {U: 2, M: 4, W: 4, A: 4, P: 2, F: 3, OT: 3}
    assert report.as_json()["types"] == {k.value: v for k, v in report.types.items()}


def _more(kind: LadderType, n: int, company: str = "") -> list[Card]:
    return [card(kind, 3, company=company or f"Studio {next(_made)}") for _ in range(n)]


@pytest.mark.parametrize(("change", "problem"), [
    (lambda d: d[:19], r"^the deck has 19 cards; it needs at least 20\.$"),
    (lambda d: [*d, Card("LEE  fox", "freelance writer", "", 8, line=40)],
     r"^lines 18 and 40 are the same card \(Lee Fox \(Freelance Writer\), Strength 8\); a "
     r"deck holds each card once\.$"),
    (lambda d: [c for c in d if c.type is not U],
     r"^the deck has no Upper Management card; it needs 1 to 4"),
    (lambda d: d + _more(U, 3), r"^the deck has 5 Upper Management cards; at most 4 "),
    (lambda d: [*d, Card("Zed Ash", "Tester", " quillmoor  GAMES", line=30)],
     r"^5 cards are from Quillmoor Games \(lines 2, 3, 4, 5 and 30\); at most 4 may come "
     r"from one company\.$"),
    (lambda d: d + _more(P, 5), r"^the deck has 7 Press cards; at most 6 are allowed\.$"),
])
def test_each_deck_rule_broken_alone(change, problem):
    report = check_deck(change(example()))
    assert not report.valid
    assert len(report.problems) == 1, report.problems
    assert re.search(problem, report.problems[0]), report.problems[0]  # the sentence
    assert report.codes == (report.problems[0].code,)


@pytest.mark.parametrize(("change", "code"), [
    (lambda d: d[:19], DeckProblem.TOO_FEW_CARDS),
    (lambda d: [*d, Card("LEE  fox", "freelance writer", "", 8, line=40)],
     DeckProblem.SAME_CARD),
    (lambda d: [c for c in d if c.type is not U], DeckProblem.UPPER_MANAGEMENT),
    (lambda d: d + _more(U, 3), DeckProblem.UPPER_MANAGEMENT),
    (lambda d: [*d, Card("Zed Ash", "Tester", " quillmoor  GAMES", line=30)],
     DeckProblem.COMPANY),
    (lambda d: d + _more(P, 5), DeckProblem.PRESS),
])
def test_each_deck_rule_broken_alone_has_its_code(change, code):
    assert check_deck(change(example())).codes == (code,)


def test_every_deck_rule_broken_at_once():
    ceo = [Card(f"Boss {i}", "CEO", "Acme Games", 1) for i in range(5)]
    press = [Card(f"Scoop {i}", "Reporter", f"Outlet {i}", 2) for i in range(7)]
    report = check_deck([*ceo, ceo[0], *press])  # no lines: cards counted from 1
    assert report.codes == (DeckProblem.TOO_FEW_CARDS, DeckProblem.SAME_CARD,
                            DeckProblem.UPPER_MANAGEMENT, DeckProblem.COMPANY,
                            DeckProblem.PRESS), report.problems
    assert report.as_json()["codes"] == ["deck.too-few-cards", "deck.same-card",
                                         "deck.upper-management", "deck.company", "deck.press"]
    assert "cards 1 and 6 are the same card" in report.problems[1]
    assert report.types[U] == 6 and report.types[P] == 7


def test_cards_without_a_company_count_for_none():
    deck = [card(F, company="") for _ in range(6)] + [card(U)] + _more(W, 13)
    assert check_deck(deck).valid


# --- the deck file -----------------------------------------------------------------------

def write(folder: Path, text: str, name: str = "deck.csv") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_columns_any_case_strength_or_text(tmp_path):
    cards = read_deck(write(tmp_path, "Name,TITLE,Company,Strength,text\n"
                                      "Ada,CEO,Acme,7,\n"
                                      'Bo,Writer,,,"bo@x.example / 42 Lane\nCL: draw one"\n'
                                      "Cy,Artist,Acme,,no digits\n"))
    assert [(c.name, c.type, c.strength, c.ability, c.line) for c in cards] == [
        ("Ada", U, 7, "", 2), ("Bo", W, 4, "draw one", 3), ("Cy", A, 0, "", 5)]


def test_the_batch_spelling_with_a_strength_callback(tmp_path):
    path = write(tmp_path, "person.name,person.title,person.company,person.email,"
                           "ladder.ability,card.preset\n"
                           "Ada,CEO,Acme,ada@acme.example,Win ties.,eu\n", "people.csv")
    with pytest.raises(ConfigError, match=r"people\.csv: no Strength for the cards: the file "
                                          r"needs a strength column .* or a card config to "
                                          r"print each card from"):
        read_deck(path)
    cards = read_deck(path, strength_of=lambda row: len(row.values["person.email"]) % 10)
    assert cards == [Card("Ada", "CEO", "Acme", 6, "Win ties.")]

    def broken(row):
        raise CardgenError("the card does not fit.")

    with pytest.raises(ConfigError, match=r"line 2: the card does not fit\."):
        read_deck(path, strength_of=broken)


def test_every_bad_row_and_column_is_reported(tmp_path):
    path = write(tmp_path, "name,title,company,strength\n"
                           "Ada,CEO,Acme,12\n"
                           ",Writer,Acme,3\n"
                           "Bo,Writer,Acme,\n"
                           '"Cy\rX",Artist,Acme,x\n')
    with pytest.raises(ConfigError) as caught:
        read_deck(path)
    assert caught.value.problems == (
        "line 2, column strength: must be one digit, 0 to 9, not '12'.",
        "line 3, column name: is empty; every card needs a name.",
        "line 4, column strength: is empty; give the card's Strength, a digit 0 to 9.",
        "line 5, column name: must not contain control characters: 'Cy\\rX' has a carriage "
        "return (U+000D) (it is printed on one line).",
        "line 5, column strength: must be one digit, 0 to 9, not 'x'.")
    assert str(caught.value).startswith(str(path))


@pytest.mark.parametrize(("header", "message"), [
    ("nmae,title,company,strength", r"unknown column 'nmae'; did you mean name\?"),
    ("name,title,company,strenght", r"unknown column 'strenght'; did you mean strength\?"),
    ("name,title,company,text,ladder.abilty", r"did you mean ladder\.ability\?"),
    ("name,title,strength", r"no company column; the header needs one \(or person\.company\)"),
    ("name,person.name,title,company,text",
     r"the columns 'name' and 'person\.name' both give the card's name; keep one\."),
])
def test_bad_headers(tmp_path, header, message):
    with pytest.raises(ConfigError, match=message):
        read_deck(write(tmp_path, header + "\n"))


def test_first_digit():
    assert [first_digit(t) for t in ["", "abc", "a ٣ 5", "Unit 7, 9 Lane", "x/2"]] == [
        0, 0, 5, 7, 2]


# --- ATTACK.toml --------------------------------------------------------------------------

def test_the_example_attack():
    given = read_attack(example_attack())
    assert isinstance(given.defender, Card) and len(given.attackers) == 1
    assert decide(given.attackers, given.defender).rule is Rule.TYPE_BEATS


def _card_toml(table: str, **values: object) -> str:
    base = {"name": "Ada", "title": "Writer", "strength": 3} | values
    return f"[{table}]\n" + tomlwrite.dumps(base)


def test_a_defending_team(tmp_path):
    path = write(tmp_path, _card_toml("[attacker]", title="Artist") + _card_toml(
        "[defender]", name="Bo") + _card_toml("[defender]", name="Cy"), "a.toml")
    given = read_attack(path)
    assert isinstance(given.defender, tuple) and len(given.defender) == 2
    assert given.attackers[0].company == "" and given.attackers[0].ability == ""


def test_a_counter_attack_on_a_trio_is_refused_naming_the_file_and_field(tmp_path):
    trio = (_card_toml("[defender]", name="Sam", title="Producer")
            + _card_toml("[defender]", name="Ed", title="Writer")
            + _card_toml("[defender]", name="Al", title="Artist"))
    path = write(tmp_path, _card_toml("[attacker]", title="CEO") + trio, "a.toml")
    with pytest.raises(NoDefence) as caught:
        read_attack(path)
    assert str(caught.value) == (
        f"{path}: the [[defender]] team defender[1] (Sam), defender[2] (Ed) and defender[3] "
        "(Al) is the Cooperative Trio (defender[1].title 'Producer', defender[2].title "
        "'Writer' and defender[3].title 'Artist'), and a Trio's attack cannot be defended "
        "against, so it is never counter-attacked (rule D3): the Trio has won.")
    # A [[defender]] team of one type is a counter-attack the rules allow.
    same = (_card_toml("[defender]", name="Sam", title="Producer")
            + _card_toml("[defender]", name="Mo", title="Producer"))
    allowed = read_attack(write(tmp_path, _card_toml("[attacker]", title="Artist") + same,
                                "b.toml"))
    assert decide(allowed.attackers, allowed.defender).rule is Rule.TYPE_BEATS


@pytest.mark.parametrize(("text", "message"), [
    (_card_toml("[attacker]") + _card_toml("[attacker]", strength=10) + _card_toml("defender"),
     r"attacker\[2\]\.strength must be a whole number from 0 to 9, not 10\."),
    (_card_toml("[attacker]", strength=4.5) + _card_toml("defender"),
     r"attacker\[1\]\.strength must be a whole number"),
    (_card_toml("[attacker]"), r"missing the \[defender\] table"),
    (_card_toml("defender"), r"attacker is missing: give 1 to 10"),
    (_card_toml("[attacker]") * 11 + _card_toml("defender"), r"at most 10 \[\[attacker\]\]"),
    (_card_toml("[attacker]", nmae="x") + _card_toml("defender"),
     r"unknown key attacker\[1\]\.nmae; did you mean attacker\[1\]\.name\?"),
    (_card_toml("[attacker]") + _card_toml("[defender]", strength=-1),
     r"defender\[1\]\.strength must be a whole number from 0 to 9, not -1\."),
    ('defender = "Ada"\n' + _card_toml("[attacker]"), r"defender must be a \[defender\] table"),
])
def test_bad_attack_files_name_the_file_and_the_field(tmp_path, text, message):
    path = write(tmp_path, text, "a.toml")
    with pytest.raises(ConfigError, match=message) as caught:
        read_attack(path)
    assert str(caught.value).startswith(str(path) + ": ")


# --- fuzz ---------------------------------------------------------------------------------

CSV_PIECES = ["name", "title", "company", "strength", "text", "ability", "person.name",
              "ladder.x", "Name", ",", ",", ";", "\n", "\n", "\r\n", '"', "5", "12", "Ada",
              "CEO", "Freelance", " / ", "\x00", "é", "\ufeff", " "]


@settings(max_examples=examples(80), deadline=None)
@given(st.one_of(st.binary(max_size=120),
                 st.lists(st.sampled_from(CSV_PIECES), max_size=40).map(
                     lambda parts: "".join(parts).encode("utf-8", "surrogatepass"))))
def test_fuzz_the_deck_reader(tmp_path_factory, raw):
    path = tmp_path_factory.mktemp("deck") / "d.csv"
    path.write_bytes(raw)
    try:
        cards = read_deck(path)
    except ConfigError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(str(path))
    else:
        report = check_deck(cards)
        assert report.cards == len(cards) and sum(report.types.values()) == len(cards)


CARD_KEYS = st.sampled_from(["name", "title", "company", "strength", "ability", "nmae"])
VALUES = st.one_of(st.integers(-2, 12), st.floats(allow_nan=True), st.booleans(),
                   st.sampled_from(["Ada", "CEO", "Journalist", "Intern", "Producer",
                                    "Writer", "Artist", "Freelance Artist", "", "a\rb"]))
CARDS = st.dictionaries(CARD_KEYS, VALUES, max_size=6)


@settings(max_examples=examples(80), deadline=None)
@given(st.dictionaries(st.sampled_from(["attacker", "defender", "extra"]),
                       st.one_of(CARDS, st.lists(CARDS, max_size=4), VALUES), max_size=3))
def test_fuzz_the_attack_reader_and_the_referee(data):
    text = tomlwrite.dumps(data)
    try:
        given = attack_from_data(tomllib.loads(text), "a.toml")
    except (ConfigError, NoDefence) as exc:
        assert "\n" not in str(exc) and str(exc).startswith("a.toml: ")
        return
    assert isinstance(given, Attack)
    try:
        verdict = decide(given.attackers, given.defender)
    except CardgenError as exc:
        assert "\n" not in str(exc) and str(exc).endswith(".")
    else:
        assert verdict.reason.endswith(".") and "\n" not in verdict.reason
