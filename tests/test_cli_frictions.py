"""Small frictions met by a first-time user (issue 25, point 9), driven through the
command line in process: every bad row of a CSV file is named at once, not only the
first malformed one."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardgen.datafile import parse_csv
from cardgen.errors import ConfigError, ConfigProblem
from tests.helpers import cli, error_line

# --- every bad row of a CSV file, at once --------------------------------------------------

# Line 2: a bad value; 3: one value too many (an unquoted comma); 4: broken quoting;
# 5: another bad value. Today's reader stopped at line 3 and hid lines 2, 4 and 5.
PEOPLE = ("person.name,person.title,card.marks\n"
          "Ada Quill,CEO,maybe\n"
          "Bo Reed,Artist,true,extra\n"
          'Cy Ode,"Pro"ducer,true\n'
          "Di Vale,Writer,perhaps\n")
PEOPLE_PROBLEMS = ("line 2: card.marks must be true or false",
                   "line 3: 4 values, but the header has 3 columns; quote a value that "
                   "holds a comma.",
                   "line 4: not valid CSV (',' expected after '\"')",
                   "line 5: card.marks must be true or false")


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _in_order(line: str, *needles: str) -> None:
    where = [line.index(needle) for needle in needles]
    assert where == sorted(where), line


@pytest.mark.parametrize("command", ["card", "sheet"])
def test_a_batch_names_every_bad_row_malformed_or_not(tmp_path, command):
    people = _write(tmp_path, "people.csv", PEOPLE)
    line = error_line(cli(command, "--batch", people, "-o", tmp_path / "out"),
                      "people.csv", *PEOPLE_PROBLEMS)
    _in_order(line, *PEOPLE_PROBLEMS)
    assert not (tmp_path / "out").exists()


def test_a_deck_names_every_bad_row_malformed_or_not(tmp_path):
    deck = _write(tmp_path, "deck.csv", "name,title,company,strength\n"
                                        "Ada Quill,CEO,Quillmoor,x\n"
                                        "Bo Reed,Artist,Acme,1,extra\n"
                                        'Cy Ode,"Pro"ducer,Acme,2\n'
                                        "Di Vale,Writer,Acme,12\n")
    needles = ("line 2, column strength: must be one digit",
               "line 3: 5 values, but the header has 4 columns",
               "line 4: not valid CSV",
               "line 5, column strength: must be one digit, 0 to 9, not '12'")
    line = error_line(cli("ladder", "deck", deck), "deck.csv", *needles)
    _in_order(line, *needles)


def test_a_deck_from_a_people_file_names_every_bad_row(tmp_path):
    """`ladder deck people.csv` (no Strength column: each card is laid out to read it)
    and `ladder deck people.csv --config studio.toml` read the people file as `card
    --batch` does."""
    people = _write(tmp_path, "people.csv", "person.name,person.title\n"
                                            "Ada Quill,CEO,oops\n"
                                            "Bo Reed,Artist\n"
                                            "Cy Ode,\"Writer\"x\n")
    config = _write(tmp_path, "studio.toml", '[person]\nname = "-"\ncompany = "Quillmoor"\n')
    for args in ([people], [people, "--config", config]):
        line = error_line(cli("ladder", "deck", *args), "people.csv",
                          "line 2: 3 values, but the header has 2 columns",
                          "line 4: not valid CSV")
        assert "line 3" not in line


def test_a_header_problem_is_said_with_the_rows_that_cannot_be_read(tmp_path):
    people = _write(tmp_path, "people.csv", "person.nmae,person.title\nAda,CEO,x\n")
    error_line(cli("card", "--batch", people, "-o", tmp_path / "out"),
               "line 1: unknown column person.nmae; did you mean person.name?",
               "line 2: 3 values, but the header has 2 columns")


def test_the_reader_lists_every_record_it_cannot_read():
    text = 'a,b\n1,2,3\n"x"y,2\nok,fine\n4,5,6\n'
    with pytest.raises(ConfigError) as caught:
        parse_csv(text, "t.csv")
    assert [p.split(":")[0] for p in caught.value.problems] == ["line 2", "line 3", "line 5"]
    assert set(caught.value.codes) == {ConfigProblem.UNREADABLE}
    table = parse_csv(text, "t.csv", partial=True)  # for a caller that adds its own
    assert [row.line for row in table.rows] == [4]
    assert [p.split(":")[0] for p in table.problems] == ["line 2", "line 3", "line 5"]


def test_every_problem_of_a_header_at_once():
    with pytest.raises(ConfigError) as caught:
        parse_csv("a,,b,a,,a\n1,2,3,4,5,6\n", "t.csv")
    assert list(caught.value.problems) == [
        "line 1: column 2 of the header has no name; name every column.",
        "line 1: the header names column 'a' twice.",
        "line 1: column 5 of the header has no name; name every column."]


# --- ladder deck shows which card got which type and Strength -----------------------------

def _table(stdout: str) -> list[str]:
    """The table of cards: the lines before the first blank one."""
    lines = stdout.splitlines()
    return lines[:lines.index("")]


def _terminal_columns(text: str) -> int:
    import unicodedata

    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def test_the_deck_check_prints_each_cards_type_and_strength():
    from cardgen.ladder.deck import example_deck, read_deck

    result = cli("ladder", "deck")
    assert result.returncode == 0, result.stderr
    table = _table(result.stdout)
    assert table[0].split() == ["line", "name", "title", "company", "type", "strength"]
    cards = read_deck(example_deck())
    rows = table[1:1 + len(cards)]
    starts = {row.rindex(card.type.value) for row, card in zip(rows, cards, strict=True)}
    assert starts == {table[0].index("type")}  # one column, aligned
    for row, card in zip(rows, cards, strict=True):
        assert row.split()[0] == str(card.line) and card.name in row
        strength = row[table[0].index("strength"):].split()[0]
        assert strength == str(card.strength)
    freelancer = next(row for row in rows if "Lee Fox" in row)  # fights at half
    assert freelancer.endswith("Freelancer         8 (4)")
    assert "(n): a Freelancer fights with half its Strength, rounded down." in table
    assert "line 4, Robin Vale: CL: Draw a card when this card is attacked." in table
    assert all(len(line) <= 80 for line in result.stdout.splitlines())


def test_long_and_wide_texts_are_cut_to_80_columns(tmp_path):
    deck = _write(tmp_path, "deck.csv", "name,title,company,strength,ability\n"
                  f"{'Alexandra ' * 8},{'Senior Principal ' * 6}Writer,{'Megacorp ' * 9},7,"
                  f"\"{'Look at the top card of the deck, then put it back. ' * 4}\"\n"
                  "山田太郎山田太郎山田太郎,イラストレーター,株式会社カードゲームズ株式会社,3,\n")
    result = cli("ladder", "deck", deck)
    assert result.returncode != 0 and result.stderr == ""  # two cards are not a deck
    table = _table(result.stdout)
    assert len(table) > 3 and all(_terminal_columns(line) <= 80 for line in table), table
    assert "…" in table[1] and "Upper Management" in table[1] and table[1].endswith("7")
    assert table[2].endswith("3") and "Other" in table[2]
    # the ability in full, wrapped
    assert " ".join(" ".join(table[3:]).split()).count("Look at the top card of the") == 4


def test_deck_json_lists_every_card_with_its_type_and_strength(tmp_path):
    import json

    deck = _write(tmp_path, "deck.csv", "name,title,company,text\n"
                                        "Lee Fox,Freelance Writer,,lee@x.example / 9 Row\n"
                                        "Ada Quill,CEO,Quill,\"CL: Peek.\n5 Orchard Row\"\n")
    data = json.loads(cli("ladder", "deck", deck, "--json").stdout)
    assert data["deck"] == [
        {"line": 2, "name": "Lee Fox", "title": "Freelance Writer", "company": "",
         "type": "Freelancer", "strength": 9, "fighting_strength": 4, "ability": ""},
        {"line": 3, "name": "Ada Quill", "title": "CEO", "company": "Quill",
         "type": "Upper Management", "strength": 5, "fighting_strength": 5,
         "ability": "Peek."}]


# --- options that do nothing without another one are refused -------------------------------

def usage_error(result, *needles: str) -> str:
    """A usage error: exit status 2, one ``error:`` line on stderr (ending "; see cardgen
    COMMAND --help."), no traceback, nothing written; its sentence holds every needle
    (a needle's closing full stop is where that pointer follows)."""
    line = error_line(result, status=2)
    assert "wrote " not in result.stdout
    for needle in needles:
        assert needle.rstrip(".") in line, (needle, line)
    return line


BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"


@pytest.mark.parametrize(("args", "needles"), [
    (["rules", "rotator", "--creep", "1"],
     ["--creep only applies to --booklet; add --booklet, or leave --creep out."]),
    (["rules", "rotator", "--creep=0"], ["--creep only applies to --booklet"]),
    (["rules", "all", "--flip", "long", "--offset=0.5,0"],
     ["--flip and --offset only apply to --booklet; add --booklet, or leave them out."]),
    (["rules", "reflector", "--dpi", "300"],
     ["--dpi only applies to PNG files; add png to --format, or leave --dpi out."]),
    (["rules", "reflector", "--booklet", "-f", "pdf,svg", "--dpi", "300"],
     ["--dpi only applies to PNG files"]),
    (["card", "-f", "pdf,svg", "--dpi", "72"], ["--dpi only applies to PNG files"]),
    (["playsheet", "reflector", "--dpi", "72"], ["--dpi only applies to PNG files"]),
    (["ladder", "mat", "--dpi", "72"], ["--dpi only applies to PNG files"]),
    (["ladder", "rules", "-f", "svg", "--dpi", "72"], ["--dpi only applies to PNG files"]),
    (["rotator", "print", BOARD, "--dpi", "72"], ["--dpi only applies to PNG files"]),
    (["rotator", "print", BOARD, "--budget", "1000"],
     ["--budget only applies to --key (the search for the answer key); add --key, or "
      "leave --budget out."]),
    (["sheet", "--registration", "--theme", "light"],
     ["--theme does nothing with --registration (the test page prints no card); leave "
      "--theme out, or leave out --registration."]),
    (["sheet", "--registration", "--no-marks", "--batch", "people.csv"],
     ["--batch and --no-marks do nothing with --registration"]),
    (["nodes", "play", "reflector", "--players", "3"],
     ["--players only applies to deflector (reflector is always two players)"]),
])
def test_an_option_that_would_do_nothing_is_a_usage_error(tmp_path, args, needles):
    out = tmp_path / "out"
    if args[0] in ("rules", "card", "playsheet", "ladder", "sheet", "rotator"):
        args = [*args, "-o", out]
    usage_error(cli(*args, cwd=tmp_path), *needles)
    assert not out.exists()


@pytest.mark.parametrize("args", [
    ["rules", "rotator", "--booklet", "--creep", "1", "--flip", "long", "--offset=0.5,0"],
    ["rules", "rotator", "-f", "png", "--dpi", "40"],
    ["ladder", "mat", "-f", "png", "--dpi", "40"],
    ["rotator", "print", BOARD, "--key", "--budget", "1000", "-f", "png", "--dpi", "40"],
    ["sheet", "--registration", "--preset", "us", "--flip", "short"],  # (the preset: its
])                                                             # printing condition)
def test_the_same_options_with_what_they_need_are_accepted(tmp_path, args):
    result = cli(*args, "-o", tmp_path / "out")
    assert result.returncode == 0, result.stderr


def test_a_deck_from_a_people_file_lists_the_printed_cards(tmp_path):
    import json

    people = _write(tmp_path, "people.csv", "person.name,person.title,person.phone\n"
                                            "Ada Quill,CEO,+44 20 7946 0958\n"
                                            "Lee Fox,Freelance Writer,555 0199\n")
    config = _write(tmp_path, "studio.toml", '[person]\nname = "-"\ncompany = "Quill"\n')
    result = cli("ladder", "deck", people, "--config", config)
    table = _table(result.stdout)
    assert table[1].split()[:3] == ["2", "Ada", "Quill"] and "Upper Management" in table[1]
    assert table[2].split()[-3:] == ["Freelancer", "5", "(2)"], table
    data = json.loads(cli("ladder", "deck", people, "--config", config, "--json").stdout)
    assert [(c["line"], c["type"], c["strength"], c["fighting_strength"], c["company"])
            for c in data["deck"]] == [(2, "Upper Management", 4, 4, "Quill"),
                                       (3, "Freelancer", 5, 2, "Quill")]


def test_an_empty_deck_prints_no_table(tmp_path):
    deck = _write(tmp_path, "deck.csv", "name,title,company,strength\n")
    assert cli("ladder", "deck", deck).stdout.startswith("Upper Management ")
