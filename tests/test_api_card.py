"""The card's library API (``cardgen.api.card``): the same bytes as the command line's
files, whatever form the config comes in, in this process or a fresh one; nothing
written; errors that name the parameter and carry their problem codes. And ``--json``
lists every problem of an error that has several, each with its code."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import cardgen
from cardgen.api import (
    CardResult,
    ChoiceError,
    ConfigError,
    ConfigProblem,
    Files,
    ParameterError,
    SheetResult,
    card_config,
    example_config,
    make_card,
    make_sheet,
)
from tests.golden import CUSTOM_CONFIG, PORTRAIT_CONFIG
from tests.helpers import (
    BASE_CONFIG,
    DATA,
    ROOT,
    cli,
    error_line,
    ok,
    write_config,
)

HANG_GUARD = 300  # seconds: only to stop a process that hangs


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    """A folder with the golden scenarios' configs and images."""
    for image in ("portrait.png", "logo.png"):
        shutil.copy(DATA / image, tmp_path / image)
    write_config(tmp_path, BASE_CONFIG, "base.toml")
    write_config(tmp_path, PORTRAIT_CONFIG, "portrait.toml")
    write_config(tmp_path, CUSTOM_CONFIG, "custom.toml")
    return tmp_path


def _written(folder: Path, *args: str) -> dict[str, bytes]:
    """The files ``cardgen ARGS -o out`` writes, by name, in the order it reports them."""
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    result = ok(cli(*args, "-o", "out", "--json", cwd=folder))
    names = [Path(f["path"]).name for f in json.loads(result.stdout)["files"]]
    return {name: (out / name).read_bytes() for name in names}


# (command line's options, make_card's arguments) for a config file of the folder.
CARDS = [
    pytest.param(None, ["-f", "pdf"], {"formats": "pdf"}, id="example-pdf"),
    pytest.param("base.toml", ["--preset", "us", "--dieline", "layer", "-f", "pdf,svg",
                               "--theme", "light"],
                 {"preset": "us", "dieline": "layer", "formats": ["pdf", "svg"],
                  "theme": "light"}, id="us-layer-light"),
    pytest.param("portrait.toml", ["--varnish", "file", "-f", "pdf,png", "--dpi", "40",
                                   "--name", "ada", "--output-intent", "fogra39"],
                 {"varnish": "file", "formats": "png,pdf", "dpi": 40, "name": "ada",
                  "output_intent": "FOGRA39"}, id="portrait-varnish-file"),
    pytest.param("custom.toml", ["--no-marks", "--rgb", "-f", "svg"],
                 {"marks": False, "rgb": True, "formats": "svg"}, id="custom-rgb"),
]


@pytest.mark.parametrize("config,args,kwargs", CARDS)
def test_make_card_gives_the_bytes_the_command_line_writes(folder, monkeypatch, config,
                                                           args, kwargs):
    on_disk = _written(folder, "card", *([config] if config else []), *args)
    monkeypatch.chdir(folder)
    result = make_card(Path(config) if config else None, **kwargs)
    assert isinstance(result, CardResult) and isinstance(result.files, Files)
    assert list(result.files) == list(on_disk)  # the same names, in the same order
    assert dict(result.files) == on_disk


def test_the_ladder_line_and_the_warnings_are_the_command_lines(folder):
    printed = ok(cli("card", "-f", "pdf", "-o", "out", cwd=folder)).stdout.splitlines()
    result = make_card(formats="pdf")
    assert result.ladder_line == printed[-1] == cardgen.ladder_line(result.ladder)
    assert result.ladder is not None and result.ladder.strength.value == 4
    assert result.warnings == ()
    data = json.loads(ok(cli("card", "-f", "pdf", "-o", "out", "--json", cwd=folder)).stdout)
    assert data["ladder"] == result.ladder.as_json() and data["warnings"] == []


@pytest.mark.parametrize("args,kwargs", [
    ([], {}),
    (["--paper", "letter", "--flip", "short", "--preset", "us", "--offset=0.5,-0.3"],
     {"paper": "letter", "flip": "short", "preset": "us", "offset": (0.5, -0.3)}),
    (["--registration", "--paper", "letter", "--offset=1,-2"],
     {"registration": True, "paper": "letter", "offset": "1,-2"}),
])
def test_make_sheet_gives_the_bytes_the_command_line_writes(folder, monkeypatch, args, kwargs):
    on_disk = _written(folder, "sheet", "portrait.toml", *args)
    monkeypatch.chdir(folder)
    result = make_sheet(Path("portrait.toml"), **kwargs)
    assert isinstance(result, SheetResult)
    assert dict(result.files) == on_disk
    printed = ok(cli("sheet", "portrait.toml", *args, "-o", "out", cwd=folder)).stdout
    if result.layout is None:
        assert "registration" in next(iter(result.files))
    else:
        assert f"{result.layout.per_sheet} cards per sheet ({result.layout.columns} × " in printed


def test_the_example_config_is_what_init_writes(tmp_path):
    ok(cli("init", "me.toml", cwd=tmp_path))
    assert (tmp_path / "me.toml").read_bytes() == example_config().encode("utf-8")
    assert card_config(example_config()).person == card_config().person


def test_a_config_as_a_path_text_a_mapping_or_a_config_gives_the_same_bytes(folder,
                                                                             monkeypatch):
    monkeypatch.chdir(folder)
    text = (folder / "base.toml").read_text(encoding="utf-8")
    values = tomllib.loads(text)
    made = [make_card(given, formats="pdf").files for given in (
        Path("base.toml"), folder / "base.toml", text, values, card_config(values))]
    assert all(files == made[0] for files in made)
    # A mapping's relative paths are read from ``folder`` (here, not the working folder).
    portrait = tomllib.loads((folder / "portrait.toml").read_text(encoding="utf-8"))
    monkeypatch.chdir(ROOT)
    assert (make_card(portrait, formats="pdf", folder=folder).files
            == make_card(folder / "portrait.toml", formats="pdf").files)


def test_choices_take_the_enum_member_or_its_value(folder, monkeypatch):
    monkeypatch.chdir(folder)
    by_text = make_card(Path("base.toml"), formats="svg", preset="US", dieline="layer")
    by_member = make_card(Path("base.toml"), formats=[cardgen.Format.SVG],
                          preset=cardgen.Preset.US, dieline=cardgen.DielineMode.LAYER)
    assert by_text.files == by_member.files


def test_make_card_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = make_card(BASE_CONFIG, formats="pdf,png", dpi=36)
    assert list(result.files) == ["card.pdf", "card-outside.png", "card-inside.png",
                                  "card-dieline.pdf", "card-dieline.png"]
    assert os.listdir(tmp_path) == []
    written = result.files.write(tmp_path / "out")
    assert [w.path.name for w in written] == list(result.files)


@pytest.mark.parametrize("call,kind,parameter,code", [
    (lambda: make_card(preset="jp"), ChoiceError, "preset", "general.parameter"),
    (lambda: make_card(formats="pdf,tiff"), ChoiceError, "formats", "general.parameter"),
    (lambda: make_card(dieline="sheet"), ChoiceError, "dieline", "general.parameter"),
    (lambda: make_card(dpi=0, formats="png"), ParameterError, "dpi", "general.parameter"),
    (lambda: make_card(name="../x"), ParameterError, "name", "general.parameter"),
    (lambda: make_card(theme="neon"), ParameterError, "theme", "config.not-a-choice"),
    (lambda: make_card(output_intent="fogra93"), ParameterError, "output_intent",
     "general.parameter"),
    (lambda: make_card(varnish="layer", rgb=True), ParameterError, "varnish",
     "general.parameter"),
    (lambda: make_sheet(margin=40), ParameterError, "margin", "general.parameter"),
    (lambda: make_sheet(offset="nan,0"), ParameterError, "offset", "general.parameter"),
    (lambda: make_sheet(offset=(4, 0)), ParameterError, "offset", "general.parameter"),
    (lambda: make_sheet(flip="side"), ChoiceError, "flip", "general.parameter"),
])
def test_a_bad_parameter_is_named_and_nothing_is_written(tmp_path, monkeypatch, call, kind,
                                                         parameter, code):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(kind) as caught:
        call()
    assert caught.value.parameter == parameter and str(caught.value.code) == code
    assert str(caught.value).startswith(parameter) and "--" not in str(caught.value)
    assert os.listdir(tmp_path) == []


def test_a_bad_config_raises_every_problem_with_its_code_and_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError) as caught:
        make_card({"person": {"nmae": "Ada", "title": 3}, "card": {"preset": "jp"}})
    error = caught.value
    assert error.codes == (ConfigProblem.UNKNOWN_KEY, ConfigProblem.WRONG_TYPE,
                           ConfigProblem.MISSING, ConfigProblem.NOT_A_CHOICE)
    assert [p.field for p in error.problems] == ["person.nmae", "person.title", "person.name",
                                                 "card.preset"]
    assert error.source == "the card config"
    again = pickle.loads(pickle.dumps(error.problems[0]))  # (a worker's problem, sent back)
    assert (again, again.code, again.field) == (error.problems[0], error.codes[0], "person.nmae")
    with pytest.raises(ConfigError) as caught:
        make_card("[person\nname = 1")
    assert caught.value.codes == (ConfigProblem.UNREADABLE,)
    number: Any = 42
    with pytest.raises(ParameterError, match=r"^config must be a Path"):
        make_card(number)
    assert os.listdir(tmp_path) == []


def test_json_lists_every_problem_with_its_code_field_and_line(tmp_path):
    config = write_config(tmp_path, '[person]\nnmae = "Ada"\ntitle = 3\n')
    result = cli("card", config, "--json", "-o", tmp_path / "out")
    line = error_line(result)
    error = json.loads(result.stdout)["error"]
    assert error["message"] == line.removeprefix("error: ")
    assert error["code"] == "config.unknown-key" and error["field"] == str(config)
    assert error["problems"] == [
        {"code": "config.unknown-key", "field": "person.nmae", "line": None,
         "message": "unknown key person.nmae; did you mean person.name?"},
        {"code": "config.wrong-type", "field": "person.title", "line": None,
         "message": "person.title must be text in quotes, not a number (3)."},
        {"code": "config.missing", "field": "person.name", "line": None,
         "message": "person.name is required (the name printed on the front)."}]
    # An error of one sentence has no list.
    single = json.loads(cli("card", "--dpi", "0", "--json").stdout)["error"]
    assert "problems" not in single and single["code"] == "general.parameter"


def test_the_command_line_says_the_librarys_parameter_errors_with_its_options(tmp_path):
    error_line(cli("card", "--theme", "neon", "-o", tmp_path), "--theme: no theme called "
               "'neon'")
    error_line(cli("card", "-f", "pdf,tiff", "-o", tmp_path), "--format: unknown format "
               "'tiff' (choose from pdf, svg, png).", status=2)
    error_line(cli("sheet", "--margin", "40", "-o", tmp_path), "--margin must be 0–30 mm")
    data = json.loads(cli("card", "--theme", "neon", "--json").stdout)["error"]
    assert data["field"] == "--theme" and data["code"] == "config.not-a-choice"


_DIGESTS = """
import hashlib, json, sys
import cardgen
result = cardgen.make_card(sys.argv[1], formats="pdf,svg")
print(json.dumps({name: hashlib.sha256(data).hexdigest()
                  for name, data in result.files.items()}))
"""


def test_the_same_bytes_in_a_fresh_process(tmp_path):
    done = subprocess.run([sys.executable, "-c", _DIGESTS, BASE_CONFIG], capture_output=True,
                          text=True, cwd=tmp_path, timeout=HANG_GUARD, check=True)
    here = make_card(BASE_CONFIG, formats="pdf,svg")
    assert json.loads(done.stdout) == {name: hashlib.sha256(data).hexdigest()
                                       for name, data in here.files.items()}
    assert make_card(BASE_CONFIG, formats="pdf,svg") == here  # and twice in this one
    assert os.listdir(tmp_path) == []


def test_an_error_crosses_a_process_whole():
    """A task queue's worker sends its errors back pickled: each arrives with its
    parameter, its problems and their codes and keys."""
    with pytest.raises(ChoiceError) as choice:
        make_card(preset="jp")
    with pytest.raises(ConfigError) as config:
        make_card({"person": {"nmae": "Ada"}})
    for error in (choice.value, config.value):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert again.__dict__ == error.__dict__
    again = pickle.loads(pickle.dumps(config.value))
    assert again.codes == config.value.codes
    assert [p.field for p in again.problems] == ["person.nmae", "person.name"]
    assert pickle.loads(pickle.dumps(choice.value)).choices == ("eu", "us")


def test_the_docstrings_examples_run():
    """The reference pages are made from the docstrings: their examples hold."""
    import doctest

    import cardgen.api.card
    import cardgen.api.common

    for module in (cardgen.api.card, cardgen.api.common):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__
