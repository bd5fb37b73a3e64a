"""The rules and play sheets as a library (``cardgen.api.rules``): the files are those
``cardgen rules`` and ``cardgen playsheet`` write, byte for byte, and the same in a fresh
process; bad input raises the domain's errors naming the parameter, and nothing is
written."""

from __future__ import annotations

import doctest
import hashlib
import json
import subprocess
import sys

import pytest

import cardgen
from cardgen.api.rules import make_playsheet, make_rules, rules_games
from cardgen.errors import ParameterError, ProblemsError
from cardgen.games.names import GameName
from tests.helpers import ROOT, cli, ok


def _folder_bytes(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_rules_book_is_the_file_rules_writes(tmp_path):
    result = ok(cli("rules", "rotator", "-o", tmp_path))
    book = make_rules("rotator")
    assert list(book.files) == ["rules-rotator.pdf"]
    assert dict(book.files) == _folder_bytes(tmp_path)
    assert f"{book.pages} pages, each half a sheet of A4." in result.stdout
    assert book.games == (GameName.ROTATOR,) and book.sheets == 0 and book.flip is None


def test_a_booklet_and_its_pictures_are_the_files_rules_writes(tmp_path):
    result = ok(cli("rules", "ladder", "--booklet", "--flip", "long", "--creep", "0.5",
                    "--offset", "0.2,-0.1", "--paper", "letter", "-f", "pdf,svg", "--rgb",
                    "-o", tmp_path, "--name", "mat"))
    book = make_rules(GameName.LADDER, booklet=True, flip="long", creep=0.5,
                      offset="0.2,-0.1", paper="letter", formats=["pdf", "svg"], rgb=True,
                      name="mat")
    assert dict(book.files) == _folder_bytes(tmp_path)
    assert f"{book.pages} pages on {book.sheets} sheet" in result.stdout
    assert book.flip is not None and book.flip.value == "long"


def test_the_games_of_a_book():
    assert rules_games("all") == list(GameName)
    assert rules_games([" Rotator ", GameName.LADDER]) == [GameName.ROTATOR,
                                                            GameName.LADDER]
    assert cardgen.make_rules is make_rules


def test_play_sheets_are_the_files_playsheet_writes(tmp_path):
    result = ok(cli("playsheet", "deflector", "--players", "4", "--preset", "us",
                    "-f", "pdf,png", "--dpi", "40", "-o", tmp_path))
    sheet = make_playsheet("deflector", 4, preset="us", formats="pdf,png", dpi=40)
    assert dict(sheet.files) == _folder_bytes(tmp_path)
    assert sheet.players == 4 and f"{sheet.table_pages} table page" in result.stdout
    assert sheet.warnings == ()


def test_a_play_sheet_without_a_table_arrangement_warns(tmp_path):
    with_cli = cli("playsheet", "defector", "--players", "12", "-o", tmp_path)
    sheet = make_playsheet(GameName.DEFECTOR, 12)
    assert dict(sheet.files) == _folder_bytes(tmp_path)
    assert [f"warning: {w}" for w in sheet.warnings] == [
        line for line in with_cli.stderr.splitlines() if line.startswith("warning:")]


@pytest.mark.parametrize(("call", "parameter"), [
    (lambda: make_rules("chess"), "game"),
    (lambda: make_rules([]), "game"),
    (lambda: make_rules("rotator", paper="a3"), "paper"),
    (lambda: make_rules("rotator", booklet=True, flip="sideways"), "flip"),
    (lambda: make_rules("rotator", booklet=True, creep=4), "creep"),
    (lambda: make_rules("rotator", booklet=True, offset="1"), "offset"),
    (lambda: make_rules("rotator", flip="long"), "flip"),
    (lambda: make_rules("rotator", creep=1), "creep"),
    (lambda: make_rules("rotator", formats="doc"), "formats"),
    (lambda: make_rules("rotator", dpi=2000), "dpi"),
    (lambda: make_rules("rotator", name=".hidden"), "name"),
    (lambda: make_rules("rotator", source="no-such-folder"), "source"),
    (lambda: make_playsheet("deflektor"), "game"),
    (lambda: make_playsheet("reflector", 3), "players"),
    (lambda: make_playsheet("reflector", preset="a4"), "preset"),
    (lambda: make_playsheet("reflector", formats=""), "formats"),
    (lambda: make_playsheet("reflector", name="a/b"), "name"),
])
def test_a_bad_parameter_is_named_and_nothing_is_written(call, parameter, tmp_path,
                                                         monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ParameterError) as caught:
        call()
    assert caught.value.parameter == parameter
    assert list(tmp_path.iterdir()) == []


def test_a_broken_rules_text_names_its_file_and_line(tmp_path):
    source = tmp_path / "texts"
    source.mkdir()
    (source / "rotator.md").write_text("# R\n\n## Set up\n\n| a |\n", encoding="utf-8")
    with pytest.raises(ProblemsError) as caught:
        make_rules("rotator", source=source)
    assert "rotator.md: line 5" in str(caught.value) and caught.value.codes
    assert sorted(p.name for p in tmp_path.iterdir()) == ["texts"]


FRESH = """
import hashlib, json
from cardgen.api.rules import make_playsheet, make_rules
files = {**make_rules("reflector", booklet=True).files,
         **make_playsheet("reflector", formats="pdf,svg").files}
print(json.dumps({n: hashlib.sha256(d).hexdigest() for n, d in files.items()}))
"""


def test_a_fresh_process_makes_the_same_bytes():
    done = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                          cwd=ROOT, check=True)
    here = {**make_rules("reflector", booklet=True).files,
            **make_playsheet("reflector", formats="pdf,svg").files}
    assert json.loads(done.stdout) == {n: hashlib.sha256(d).hexdigest()
                                       for n, d in here.items()}


@pytest.mark.parametrize("module", ["cardgen.api.rotator", "cardgen.api.rules"])
def test_the_examples_of_the_reference_run(module):
    import importlib

    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried >= 4 and failed == 0
