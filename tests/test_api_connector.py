"""The Connector's API (cardgen.api.connector, .connector_tools) gives what ``cardgen
connector validate|solve|check|show`` print and write: the same verdicts and JSON, the
same bytes, from a file, TOML text, a mapping or the model; errors carry their problem
codes and write nothing; a fresh process makes the same bytes."""

from __future__ import annotations

import doctest
import hashlib
import importlib
import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import cardgen
from cardgen.api.connector import (
    AssemblyVerdict,
    Connection,
    load_assembly,
    validate_assembly,
)
from cardgen.api.connector_tools import (
    SearchGaveUp,
    check_connector_layout,
    connector_pictures,
    solve_assembly,
)
from cardgen.connector.validate import AssemblyProblem
from cardgen.errors import ConfigError, ConfigProblem, GeneralProblem, ParameterError
from tests.helpers import ROOT, cli, ok

REFLECTOR = ROOT / "templates" / "connector" / "reflector.toml"


def _off(tmp_path: Path) -> Path:
    """The shipped Reflector assembly with its second card moved off its connection."""
    bad = tmp_path / "bad.toml"
    bad.write_text(REFLECTOR.read_text().replace("y = 11.6", "y = 13.6"), encoding="utf-8")
    return bad


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_verdict_is_what_validate_prints_and_its_json():
    verdict = validate_assembly(REFLECTOR)
    assert isinstance(verdict, AssemblyVerdict) and verdict.valid and verdict.cards == 2
    result = ok(cli("connector", "validate", REFLECTOR))
    assert result.stdout.splitlines() == verdict.lines()
    assert json.loads(ok(cli("connector", "validate", REFLECTOR, "--json")).stdout) == \
        verdict.as_json()
    assert verdict.connections == (Connection(2, 5, 1, 0.0), Connection(2, 6, 1, 0.0))
    assert verdict.steps and verdict.steps[0].startswith("Card 1:")
    assert not verdict.files


@pytest.mark.parametrize("reveal", [False, True])
def test_an_invalid_verdict_says_the_same_and_codes_each_problem(tmp_path, reveal):
    bad = _off(tmp_path)
    verdict = validate_assembly(bad)
    flag = ("--reveal",) if reveal else ()
    result = cli("connector", "validate", bad, *flag)
    assert result.returncode == 4 and result.stdout.splitlines() == verdict.lines(reveal)
    data = json.loads(cli("connector", "validate", bad, "--json", *flag).stdout)
    assert data == verdict.as_json(reveal)
    assert not verdict.valid and verdict.codes
    assert all(isinstance(code, AssemblyProblem) for code in verdict.codes)
    assert [p.code for p in verdict.problems] == list(verdict.codes)
    assert [c.value for c in verdict.codes] == data["codes"]
    assert len(verdict.hints) == len(verdict.problems) and verdict.steps == ()


def test_an_assembly_is_read_from_a_file_its_text_a_mapping_or_the_model():
    text = REFLECTOR.read_text(encoding="utf-8")
    model = load_assembly(REFLECTOR)
    given = [REFLECTOR, text, tomllib.loads(text), model]
    verdicts = [validate_assembly(g) for g in given]
    assert all(v == verdicts[0] for v in verdicts)
    assert all(v.as_json(True) == verdicts[0].as_json(True) for v in verdicts)
    assert load_assembly(text) == model and load_assembly(model) is model


def test_the_picture_has_the_bytes_validate_writes(tmp_path):
    bad = _off(tmp_path)
    for name, reveal in (("a.svg", False), ("b.png", True)):
        out = tmp_path / "out"
        flag = ("--reveal",) if reveal else ()
        cli("connector", "validate", bad, "--picture", out / name, *flag)
        verdict = validate_assembly(bad, picture=name, reveal=reveal)
        assert list(verdict.files) == [name]
        assert verdict.files[name] == (out / name).read_bytes()


def test_bad_assemblies_raise_coded_errors_and_write_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        validate_assembly("game = \n")
    assert caught.value.codes == (ConfigProblem.UNREADABLE,)
    with pytest.raises(ConfigError) as caught:
        validate_assembly({"game": "chess", "card": [{"x": 0, "y": 0}]})
    assert ConfigProblem.NOT_A_CHOICE in caught.value.codes and "assembly" in str(caught.value)
    with pytest.raises(ConfigError) as caught:
        validate_assembly({"game": "reflector"})
    assert caught.value.codes == (ConfigProblem.MISSING,)
    for kwargs, parameter in (({"picture": "a.gif"}, "picture"),
                              ({"picture": "out/a.svg"}, "picture")):
        with pytest.raises(ParameterError) as caught:
            validate_assembly(REFLECTOR, **kwargs)
        assert caught.value.parameter == parameter
    with pytest.raises(ParameterError) as caught:
        validate_assembly(42)
    assert caught.value.parameter == "assembly"
    assert list(tmp_path.iterdir()) == []


def test_a_solution_is_what_solve_prints_and_writes(tmp_path):
    found = solve_assembly("deflector", name="found", comment="deflector: the smallest "
                           "assembly, found by `cardgen connector solve deflector --preset eu`")
    result = ok(cli("connector", "solve", "deflector", "-o", tmp_path, "--name", "found"))
    assert result.stdout.splitlines()[1:] == found.lines()  # after the line naming the file
    assert found.files["found.toml"] == (tmp_path / "found.toml").read_bytes()
    data = json.loads(ok(cli("connector", "solve", "deflector", "--json")).stdout)
    assert data == found.as_json() and found.cards == 3 and found.found
    assert validate_assembly(found.files["found.toml"].decode()).valid
    none = solve_assembly("defector", max_cards=3)
    result = cli("connector", "solve", "defector", "--max-cards", "3")
    assert result.returncode == 4 and result.stdout.splitlines() == none.lines()
    assert none.cards is None and not none.files
    # Without a comment of the caller's, the file says what found it in the library's words.
    own = solve_assembly("deflector").files["assembly-deflector-eu.toml"].decode()
    assert own.startswith("# deflector: the smallest assembly of eu cards, found by cardgen's")
    assert own.split("\n", 1)[1] == found.files["found.toml"].decode().split("\n", 1)[1]


def test_a_search_out_of_budget_raises_with_what_it_did():
    with pytest.raises(SearchGaveUp) as caught:
        solve_assembly("defector", budget=100)
    assert caught.value.visited == 100 and caught.value.cut
    assert caught.value.code is GeneralProblem.PARAMETER
    for kwargs, parameter in (({"max_cards": 9}, "max_cards"), ({"budget": 10}, "budget"),
                              ({"preset": "a4"}, "preset"), ({"name": "a/b"}, "name")):
        with pytest.raises(ParameterError) as caught:
            solve_assembly("rotator", **kwargs)
        assert caught.value.parameter == parameter
    with pytest.raises(ParameterError) as caught:
        solve_assembly("chess")
    assert caught.value.parameter == "game"


def test_a_layout_check_is_what_check_prints():
    checked = check_connector_layout()
    assert checked.sound and [p.preset for p in checked.presets] == ["eu", "us"]
    assert ok(cli("connector", "check")).stdout.splitlines() == checked.lines()
    assert json.loads(ok(cli("connector", "check", "--json")).stdout) == checked.as_json()
    us = check_connector_layout(preset="us")
    assert json.loads(ok(cli("connector", "check", "--preset", "us", "--json")).stdout) == \
        us.as_json()


def test_pictures_are_the_files_show_writes(tmp_path):
    shown = connector_pictures("rotator", formats=["svg", "png"], name="c")
    result = ok(cli("connector", "show", "rotator", "-o", tmp_path, "--name", "c", "--json"))
    data = json.loads(result.stdout)
    assert dict(shown.files) == _files(tmp_path)
    assert list(shown.files) == ["c-rotator-eu.svg", "c-rotator-eu.png"]
    assert {k: v for k, v in data.items() if k != "files"} == shown.as_json()
    text = ok(cli("connector", "show", "rotator", "-o", tmp_path, "--name", "c", "-q")).stdout
    assert text.splitlines() == shown.lines()


def test_the_library_root_names_the_connector_functions():
    assert cardgen.validate_assembly is validate_assembly
    assert cardgen.solve_assembly is solve_assembly
    assert cardgen.check_connector_layout is check_connector_layout


FRESH = """
import hashlib, sys
from pathlib import Path
from cardgen.api.connector import validate_assembly
from cardgen.api.connector_tools import connector_pictures
made = connector_pictures("reflector", formats="svg").files
made = made | validate_assembly(Path(sys.argv[1]), picture="p.png").files
for name, data in made.items():
    print(name, hashlib.sha256(data).hexdigest())
"""


def test_a_fresh_process_makes_the_same_bytes():
    made = connector_pictures("reflector", formats="svg").files
    made = made | validate_assembly(REFLECTOR, picture="p.png").files
    here = [f"{name} {hashlib.sha256(data).hexdigest()}" for name, data in made.items()]
    there = subprocess.run([sys.executable, "-c", FRESH, str(REFLECTOR)], capture_output=True,
                           text=True, check=True, cwd=ROOT).stdout.splitlines()
    assert there == here


@pytest.mark.parametrize("module", ['cardgen.api.connector', 'cardgen.api.connector_tools'])
def test_the_examples_of_the_reference_pages_hold(monkeypatch, module):
    monkeypatch.chdir(ROOT)
    failed, tried = doctest.testmod(importlib.import_module(module))
    assert tried and not failed
