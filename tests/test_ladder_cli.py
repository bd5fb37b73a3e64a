"""`cardgen ladder deck` and `cardgen ladder attack` in process: output, --json, exit
codes, one error line for bad files."""

from __future__ import annotations

import json
from pathlib import Path

from cardgen.ladder.deck import example_deck
from tests.helpers import cli, error_line, ok


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_example_deck_is_valid():
    result = ok(cli("ladder", "deck"))
    lines = result.stdout.splitlines()
    counts = lines[lines.index("") + 1:]  # the table of cards comes first
    assert counts[0].split() == ["Upper", "Management", "2"]
    assert counts[6].split() == ["Other", "3"] and counts[7].split() == ["total", "22"]
    assert lines[-1] == "valid" and result.stderr == ""
    assert ok(cli("ladder", "deck", example_deck())).stdout == result.stdout


def test_a_deck_that_breaks_rules_prints_every_problem_and_exits_4(tmp_path):
    rows = "\n".join(f"Boss {i},CEO,Acme,{i}" for i in range(6))
    path = write(tmp_path, "d.csv", "name,title,company,strength\n" + rows + "\n")
    result = cli("ladder", "deck", path)
    assert result.returncode == 4 and result.stderr == ""  # the check found a problem
    lines = result.stdout.splitlines()
    assert "not valid (3 problems):" in lines
    assert lines[-3:] == [
        "- the deck has 6 cards; it needs at least 20.",
        "- the deck has 6 Upper Management cards; at most 4 are allowed.",
        "- 6 cards are from Acme (lines 2, 3, 4, 5, 6 and 7); at most 4 may come from one "
        "company."]
    data = json.loads(cli("ladder", "deck", path, "--json").stdout)
    assert data["valid"] is False and data["cards"] == 6 and len(data["problems"]) == 3
    assert data["codes"] == ["deck.too-few-cards", "deck.upper-management", "deck.company"]
    assert list(data["types"]) == ["Upper Management", "Middle Management", "Wordsmith",
                                   "Artist", "Press", "Freelancer", "Other"]


def test_deck_json_of_the_example():
    result = ok(cli("ladder", "deck", "--json"))
    data = json.loads(result.stdout)
    deck = data.pop("deck")
    assert data == {"valid": True, "cards": 22, "problems": [], "codes": [], "types": {
        "Upper Management": 2, "Middle Management": 4, "Wordsmith": 4, "Artist": 4,
        "Press": 2, "Freelancer": 3, "Other": 3}}
    assert len(deck) == 22 and deck[0] == {
        "line": 2, "name": "Ada Quill", "title": "CEO", "company": "Quillmoor Games",
        "type": "Upper Management", "strength": 5, "fighting_strength": 5, "ability": ""}


def test_a_deck_file_that_cannot_be_read_is_one_error_line(tmp_path):
    error_line(cli("ladder", "deck", tmp_path / "nope.csv"), "nope.csv does not exist")
    bad = write(tmp_path, "bad.csv", "nmae,title,company,strength\nAda,CEO,Acme,x\n")
    error_line(cli("ladder", "deck", bad), "bad.csv", "unknown column 'nmae'; did you mean name?")
    rows = write(tmp_path, "rows.csv", "name,title,company,strength\nAda,CEO,Acme,x\n"
                                       "Bo,CEO,Acme,12\n")
    error_line(cli("ladder", "deck", rows), "line 2, column strength", "line 3, column strength")
    people = write(tmp_path, "people.csv", "person.name,person.title,person.company\n"
                                           "Ada,CEO,Acme\n")
    # A people file of `card --batch` with no Strength: its cards are laid out to read it.
    result = cli("ladder", "deck", people, "--json")
    assert result.returncode == 4 and json.loads(result.stdout)["cards"] == 1


def test_the_deck_types_executive_acronyms_as_upper_management(tmp_path):
    # DIS and the C?O titles are Upper Management; a title with other capitals is not.
    rows = ["Ada,DIS,A,1", "Bo,CTO,B,2", "Cy,Co-CEO,C,3", "Di,VFX Artist,D,4",
            "Ed,QA Tester,E,5", "Fay,PR Officer,F,6", "Gus,UX Designer,G,7"]
    path = write(tmp_path, "d.csv", "name,title,company,strength\n" + "\n".join(rows) + "\n")
    data = json.loads(cli("ladder", "deck", path, "--json").stdout)
    assert data["types"] == {"Upper Management": 3, "Middle Management": 0, "Wordsmith": 1,
                             "Artist": 1, "Press": 0, "Freelancer": 0, "Other": 2}


def test_the_example_attack():
    result = ok(cli("ladder", "attack"))
    assert result.stdout.splitlines() == [
        "the attacker wins",
        "Middle Management beats Wordsmith: Sam Reed (Producer) beats Lucas Brand "
        "(Narrative Designer); the defender may defend.",
        "the defender may defend (counter-attack the attackers)"]
    data = json.loads(ok(cli("ladder", "attack", "--json")).stdout)
    assert data["winner"] == "attacker" and data["defence_allowed"] is True
    assert data["rule"] == "type-beats-type" and data["removed"] == []
    assert data["reason"].startswith("Middle Management beats Wordsmith")


CARD = 'name = "{name}"\ntitle = "{title}"\nstrength = {strength}\n'


def _card(table: str, name: str, title: str, strength: int = 3) -> str:
    return f"[{table}]\n" + CARD.format(name=name, title=title, strength=strength)


def test_a_counter_attack_on_a_team_lists_the_removed_cards(tmp_path):
    path = write(tmp_path, "a.toml", _card("[attacker]", "kim ode", "Illustrator", 2)
                 + _card("[defender]", "Kim Ode", "Illustrator", 2)
                 + _card("[defender]", "Bo Lane", "Artist", 4))
    result = ok(cli("ladder", "attack", path))
    assert result.stdout.splitlines()[0] == "the defender wins"
    assert "taken out by Evil Twins: Kim Ode (Illustrator)" in result.stdout
    data = json.loads(ok(cli("ladder", "attack", path, "--json")).stdout)
    assert data["winner"] == "defender" and data["rule"] == "team-stands"
    assert [c["name"] for c in data["removed"]] == ["Kim Ode"]


def test_an_unstoppable_attack_says_no_defence(tmp_path):
    path = write(tmp_path, "a.toml", _card("[attacker]", "Pat", "Journalist")
                 + _card("defender", "Ada", "CEO"))
    assert ok(cli("ladder", "attack", path)).stdout.splitlines()[-1] == (
        "the defender may not defend")


def test_forbidden_teams_and_bad_files_are_one_error_line(tmp_path):
    press = write(tmp_path, "p.toml", _card("[attacker]", "Pat", "Journalist")
                  + _card("[attacker]", "Sam", "Producer") + _card("defender", "Ada", "CEO"))
    error_line(cli("ladder", "attack", press), "play the Press card alone; it needs no help",
               status=4)  # the rules refuse the attack: a check that found a problem
    other = write(tmp_path, "o.toml", _card("[attacker]", "Jo", "Intern")
                  + _card("[attacker]", "Sam", "Producer") + _card("defender", "Ada", "CEO"))
    error_line(cli("ladder", "attack", other), "attacker[1] (Jo)", "rule T4", status=4)
    defender = write(tmp_path, "d.toml", _card("[attacker]", "Sam", "Producer")
                     + _card("defender", "Pat", "Journalist"))
    error_line(cli("ladder", "attack", defender), "a Press card is never attacked", status=4)
    bad = write(tmp_path, "b.toml", _card("[attacker]", "Sam", "Producer")
                + _card("[attacker]", "Bo", "Producer", 12) + _card("defender", "Ada", "CEO"))
    error_line(cli("ladder", "attack", bad), "b.toml", "attacker[2].strength")
    error_line(cli("ladder", "attack", tmp_path / "none.toml"), "none.toml does not exist")


def test_a_counter_attack_on_the_trio_is_refused(tmp_path):
    # The Trio's attack allows no defence: counter-attacking it is one error line naming
    # the file and [[defender]], exit 4 (the rules refuse it), and nothing on stdout but,
    # with --json, the error object.
    path = write(tmp_path, "t.toml", _card("[attacker]", "Ada", "CEO", 9)
                 + _card("[defender]", "Sam", "Producer") + _card("[defender]", "Ed", "Writer")
                 + _card("[defender]", "Al", "Artist"))
    for args in ([], ["--json"]):
        result = cli("ladder", "attack", path, *args)
        error_line(result, "t.toml: the [[defender]] team defender[1] (Sam), defender[2] (Ed) "
                   "and defender[3] (Al) is the Cooperative Trio (defender[1].title "
                   "'Producer'", "never counter-attacked (rule D3)", status=4)
        assert result.stdout == "" if not args else (
            json.loads(result.stdout)["error"]["code"] == "general.refused")
    # The Trio attacking: it wins and the defender may not defend.
    trio = write(tmp_path, "w.toml", _card("[attacker]", "Sam", "Producer")
                 + _card("[attacker]", "Ed", "Writer") + _card("[attacker]", "Al", "Artist")
                 + _card("defender", "Ada", "CEO", 9))
    lines = ok(cli("ladder", "attack", trio)).stdout.splitlines()
    assert lines[0] == "the attacker wins" and lines[-1] == "the defender may not defend"


def test_attack_help_names_the_fields_and_the_refusal():
    # The help's panel borders and line breaks aside: the fields show with their brackets
    # (Rich markup must not eat them) and the refusal is said.
    text = " ".join(ok(cli("ladder", "attack", "--help")).stdout.replace("│", " ").split())
    assert "[[attacker]] cards and a [defender]" in text and "as [[defender]] cards" in text
    assert "counter-attack on the Cooperative Trio" in text


def test_help_lists_the_ladder_commands():
    result = ok(cli("ladder", "--help"))
    assert "deck" in result.stdout and "attack" in result.stdout
    assert "ladder" in ok(cli("--help")).stdout
