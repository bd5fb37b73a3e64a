"""Corporate Ladder's API (cardgen.api.ladder) gives what ``cardgen ladder deck|attack|
mat|rules`` print and write: the same reports and JSON, the same bytes, from a file, its
text, rows or cards; errors carry their problem codes and write nothing; a fresh process
makes the same bytes."""

from __future__ import annotations

import csv
import doctest
import hashlib
import importlib
import io
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import cardgen
from cardgen.api.ladder import (
    REFUSALS,
    Card,
    check_deck,
    decide_attack,
    deck_table,
    ladder_mat,
    ladder_rules,
)
from cardgen.errors import ConfigError, ConfigProblem, ParameterError
from cardgen.ladder.deck import DeckProblem, example_deck
from tests.helpers import ROOT, cli, ok

EXAMPLE_ATTACK = ROOT / "templates" / "ladder" / "example-attack.toml"
CARD = 'name = "{name}"\ntitle = "{title}"\nstrength = 3\n'


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _broken(tmp_path: Path) -> Path:
    rows = "\n".join(f"Boss {i},CEO,Acme,{i}" for i in range(6))
    path = tmp_path / "d.csv"
    path.write_text("name,title,company,strength\n" + rows + "\n", encoding="utf-8")
    return path


def test_a_deck_check_is_what_deck_prints_and_its_json():
    checked = check_deck()
    assert checked.valid and checked.cards == 22
    assert ok(cli("ladder", "deck")).stdout.splitlines() == checked.lines()
    assert json.loads(ok(cli("ladder", "deck", "--json")).stdout) == checked.as_json()
    assert checked.table() == deck_table(checked.deck)
    assert list(checked.types) == ["Upper Management", "Middle Management", "Wordsmith",
                                   "Artist", "Press", "Freelancer", "Other"]


def test_a_deck_that_breaks_rules_is_coded(tmp_path):
    path = _broken(tmp_path)
    checked = check_deck(path)
    result = cli("ladder", "deck", path)
    assert result.returncode == 4 and result.stdout.splitlines() == checked.lines()
    assert json.loads(cli("ladder", "deck", path, "--json").stdout) == checked.as_json()
    assert checked.codes == (DeckProblem.TOO_FEW_CARDS, DeckProblem.UPPER_MANAGEMENT,
                             DeckProblem.COMPANY)
    assert [p.code for p in checked.problems] == list(checked.codes)


def test_a_deck_is_read_from_a_file_its_text_rows_or_cards():
    path = example_deck()
    text = path.read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(text)))
    from_file = check_deck(path)
    cards = [Card(c.name, c.title, c.company, c.strength, c.ability) for c in from_file.deck]
    for given in (text, rows, cards):
        other = check_deck(given)
        assert (other.valid, other.types, other.problems) == (
            from_file.valid, from_file.types, from_file.problems)
        assert other.deck == from_file.deck
    assert [c.line for c in check_deck(rows).deck] == [c.line for c in from_file.deck]


def test_bad_decks_raise_coded_errors_and_write_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        check_deck("name,title\nAda,CEO\n")
    assert caught.value.codes == (ConfigProblem.MISSING,)
    with pytest.raises(ConfigError) as caught:
        check_deck([{"name": "Ada", "title": "CEO", "company": "Acme", "strength": "x"}])
    assert "line 2" in str(caught.value) and caught.value.codes
    for given, parameter in ((42, "deck"), ([1, 2], "deck")):
        with pytest.raises(ParameterError) as caught:
            check_deck(given)
        assert caught.value.parameter == parameter
    with pytest.raises(ParameterError) as caught:
        check_deck("name,title\n", config=Path("card.toml"))
    assert caught.value.parameter == "config"
    assert list(tmp_path.iterdir()) == []


def test_a_verdict_is_what_attack_prints_and_its_json():
    verdict = decide_attack()
    assert ok(cli("ladder", "attack")).stdout.splitlines() == verdict.lines()
    assert json.loads(ok(cli("ladder", "attack", "--json")).stdout) == verdict.as_json()
    text = EXAMPLE_ATTACK.read_text(encoding="utf-8")
    for given in (EXAMPLE_ATTACK, text, tomllib.loads(text)):
        assert decide_attack(given) == verdict
    assert verdict.winner == "attacker" and verdict.code.startswith("D")


def test_an_attack_the_rules_refuse_raises_a_refusal(tmp_path):
    text = ("[[attacker]]\n" + CARD.format(name="Sam", title="Producer")
            + "[defender]\n" + CARD.format(name="Pat", title="Journalist"))
    with pytest.raises(REFUSALS) as caught:
        decide_attack(text)
    path = tmp_path / "a.toml"
    path.write_text(text, encoding="utf-8")
    result = cli("ladder", "attack", path)
    assert result.returncode == 4
    assert str(caught.value).removeprefix("attack: ") in result.stderr
    assert decide_attack.__name__ and f"{path}: " in result.stderr  # the file as its label
    with pytest.raises(ConfigError) as bad:
        decide_attack({"attacker": []})
    assert bad.value.codes


def test_the_mat_and_the_rules_are_the_files_the_commands_write(tmp_path):
    mat = ladder_mat(4, formats=["pdf", "svg"], name="m")
    result = ok(cli("ladder", "mat", "--rows", "4", "-f", "pdf,svg", "-o", tmp_path / "m",
                    "--name", "m"))
    assert dict(mat.files) == _files(tmp_path / "m") and mat.sheets == 2
    assert result.stdout.splitlines()[-1] == mat.advice[0]
    rules = ladder_rules(paper="letter", formats="png", dpi=72)
    ok(cli("ladder", "rules", "--paper", "letter", "-f", "png", "--dpi", "72", "-o",
           tmp_path / "r"))
    assert dict(rules.files) == _files(tmp_path / "r")


def test_bad_print_parameters_are_named(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for call, parameter in ((lambda: ladder_mat(5), "rows"),
                            (lambda: ladder_mat(preset="a4"), "preset"),
                            (lambda: ladder_mat(paper="b9"), "paper"),
                            (lambda: ladder_rules(formats="gif"), "formats"),
                            (lambda: ladder_rules(formats=[]), "formats"),
                            (lambda: ladder_rules(dpi=5), "dpi"),
                            (lambda: ladder_rules(name="../x"), "name")):
        with pytest.raises(ParameterError) as caught:
            call()
        assert caught.value.parameter == parameter
    assert list(tmp_path.iterdir()) == []


def test_the_library_root_names_the_ladder_functions():
    assert cardgen.check_deck is check_deck and cardgen.decide_attack is decide_attack
    assert cardgen.ladder_mat is ladder_mat and cardgen.ladder_rules is ladder_rules


FRESH = """
import hashlib
from cardgen.api.ladder import ladder_mat, ladder_rules
for name, data in (ladder_mat(formats=["pdf", "png"]).files | ladder_rules().files).items():
    print(name, hashlib.sha256(data).hexdigest())
"""


def test_a_fresh_process_makes_the_same_bytes():
    made = ladder_mat(formats=["pdf", "png"]).files | ladder_rules().files
    here = [f"{name} {hashlib.sha256(data).hexdigest()}" for name, data in made.items()]
    there = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                           check=True, cwd=ROOT).stdout.splitlines()
    assert there == here


@pytest.mark.parametrize("module", ['cardgen.api.ladder'])
def test_the_examples_of_the_reference_pages_hold(monkeypatch, module):
    monkeypatch.chdir(ROOT)
    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried and not failed
