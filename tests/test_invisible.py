"""Invisible characters (issue 22, point 10): a character that prints as nothing (zero
width space, soft hyphen, BOM, word joiner, variation selectors, tag characters…) would
go into the QR code and the PDF's text while the card shows nothing of it. Every text
field that is printed or encoded refuses them in one line naming the field, the
character and its position, and nothing is written."""

from __future__ import annotations

import json
import shutil
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardgen.card.config import Person
from cardgen.card.contact import vcard
from cardgen.chars import is_invisible
from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Page, Text
from cardgen.errors import CardgenError, FitError
from cardgen.text.fit import check_drawn_texts
from cardgen.text.fonts import bundled_fonts
from tests.helpers import BASE_CONFIG, ROOT, cli, error_line
from tests.test_hostile_input import FUZZ

INVISIBLE = ["\u200b", "\u00ad", "\ufeff", "\u2060", "\u180e", "\u200c", "\u200d", "\u200e",
             "\u2061", "\u2064", "\u2066", "\u034f", "\u115f", "\u3164", "\uffa0", "\ufe00",
             "\ufe0f", "\U000e0001", "\U000e0041", "\U000e007f", "\U000e0100", "\U0001d173",
             "\u061c", "\u17b4", "\u180b"]
PERSON = ["name", "title", "company", "email", "phone", "web", "address", "tagline"]


def _quote(value: object) -> str:
    """A TOML value with the characters as they are (TOML's \\U escapes would do too; JSON's
    surrogate pairs would not)."""
    return json.dumps(value, ensure_ascii=False)


def _config(folder: Path, key: str, value: str) -> Path:
    section, field = key.split(".")
    text = BASE_CONFIG
    line = next((ln for ln in text.splitlines() if ln.startswith(f"{field} = ")), None)
    new = f"{field} = {_quote(value)}"
    text = text.replace(line, new) if line else text + (
        f"{new}\n" if section == "person" else f"[{section}]\n{new}\n")
    path = folder / "card.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


def test_the_characters_named_in_the_issue_and_their_kin_are_invisible():
    for ch in INVISIBLE:
        assert is_invisible(ch), _code(ch)
    for ch in "aZ09 é-–—·…'’\u00a0\u202f\u2009ıſ\u0301":  # printing characters, spaces
        assert not is_invisible(ch), _code(ch)


@pytest.mark.parametrize("ch", INVISIBLE, ids=_code)
def test_every_invisible_character_is_refused_in_a_person_field(tmp_path, ch):
    config = _config(tmp_path, "person.name", f"Ada{ch}Lee")
    line = error_line(cli("card", config, "-o", tmp_path / "out"), "person.name",
                      f"{_code(ch)} ", "at character 4", "remove it")
    assert ch not in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("key", [*(f"person.{k}" for k in PERSON), "ladder.ability"])
def test_every_printed_field_of_a_config_refuses_them(tmp_path, key):
    value = {"person.email": "ada@exa\u200bmple.org", "person.web": "exa\u00admple.org",
             "person.phone": "+1 555\u2060 0100"}.get(key, "Puzzle\ufeff Designer")
    config = _config(tmp_path, key, value)
    error_line(cli("card", config, "-o", tmp_path / "out"), key, "invisible characters")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("column", ["person.name", "person.title", "person.company",
                                    "person.email", "ladder.ability"])
def test_a_batch_cell_refuses_them_naming_its_line_and_column(tmp_path, column):
    columns = ["person.name", "person.email"] + ([column] if column not in
                                                 ("person.name", "person.email") else [])
    row = {c: {"person.name": "Ada Lee", "person.email": "ada@example.org"}.get(c, "Writer")
           for c in columns}
    row[column] = row[column][:2] + "\u200b" + row[column][2:]
    people = tmp_path / "people.csv"
    people.write_text(",".join(columns) + "\n" + ",".join(row.values()) + "\n",
                      encoding="utf-8")
    error_line(cli("card", "--batch", people, "-o", tmp_path / "out"), "line 2", column,
               "U+200B", "at character 3")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("column", ["name", "title", "company", "ability", "text"])
def test_a_deck_cell_refuses_them(tmp_path, column):
    values = {"name": "Ada", "title": "CEO", "company": "Acme", "ability": "Swap",
              "text": "Ada / CEO / 5"}
    values[column] = "\u2060" + values[column]
    deck = tmp_path / "d.csv"
    deck.write_text(",".join(values) + "\n" + ",".join(values.values()) + "\n",
                    encoding="utf-8")
    error_line(cli("ladder", "deck", deck), f"line 2, column {column}", "U+2060",
               "at character 1")


@pytest.mark.parametrize("key", ["name", "title", "company", "ability"])
def test_an_attack_file_refuses_them(tmp_path, key):
    card = {"name": "Sam", "title": "Producer", "company": "", "ability": "", "strength": 3}
    card[key] = card[key] + "\u00ad" if card[key] else "x\u00ad"
    text = "[[attacker]]\n" + "".join(f"{k} = {_quote(v)}\n" for k, v in card.items())
    text += '[defender]\nname = "Pat"\ntitle = "Writer"\nstrength = 2\n'
    path = tmp_path / "a.toml"
    path.write_text(text, encoding="utf-8")
    error_line(cli("ladder", "attack", path), f"attacker[1].{key}", "U+00AD Soft Hyphen")


def test_a_connector_layout_refuses_them(tmp_path):
    text = (ROOT / "templates" / "connector" / "layout.toml").read_text(encoding="utf-8")
    path = tmp_path / "layout.toml"
    path.write_text(text.replace("Get from the top row", "Get from the\u200d top row", 1),
                    encoding="utf-8")
    error_line(cli("connector", "check", path), "games.rotator.description", "U+200D")


def test_an_edited_rules_text_refuses_them(tmp_path):
    source = tmp_path / "rules"
    shutil.copytree(ROOT / "templates" / "rules", source)
    text = (source / "rotator.md").read_text(encoding="utf-8")
    paragraph = next(line for line in text.splitlines()
                     if line[:1].isalpha() and len(line.split()) > 4)
    hidden = paragraph.replace(" ", " \u2063", 1)
    (source / "rotator.md").write_text(text.replace(paragraph, hidden, 1), encoding="utf-8")
    error_line(cli("rules", "rotator", "--source", source, "-o", tmp_path / "out"),
               "rotator.md", "U+2063 Invisible Separator", "an invisible character")
    assert not (tmp_path / "out").exists()


def test_the_vcard_and_the_safety_net_refuse_them_for_library_callers():
    with pytest.raises(CardgenError, match=r"^person\.company: 'Ac\\u200bme' has U\+200B Zero "
                                           r"Width Space at character 3"):
        vcard(Person(name="Ada", company="Ac\u200bme"))
    face = bundled_fonts().regular
    page = Page("p", 10, 10, Box(0, 0, 10, 10), Box(0, 0, 10, 10))
    page.layer("x").add(Text(1, 5, "Hid\u2060den", face, 8, Color.cmyk(0, 0, 0, 100),
                             name="label"))
    with pytest.raises(FitError, match=r"^fonts\.regular \(label\): .* U\+2060 Word Joiner"):
        check_drawn_texts([page])


@FUZZ
@given(st.sampled_from(PERSON), st.sampled_from(INVISIBLE), st.integers(0, 8))
def test_fuzz_an_invisible_character_anywhere_in_any_person_field(tmp_path, field, ch, at):
    value = {"email": "ada@example.org", "web": "example.org", "phone": "+1 555 0100"}.get(
        field, "Ada Lovelace")
    value = value[:at] + ch + value[at:]
    line = error_line(cli("card", _config(tmp_path, f"person.{field}", value), "-o",
                          tmp_path / "out"), f"person.{field}", _code(ch))
    assert "at character" in line and not any(is_invisible(c) for c in line)
    assert unicodedata.name(ch, "").title() in line
