"""Config schema, the example config, themes as data files."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cardgen.cardgeometry import PRESETS
from cardgen.colors import Color, parse_color
from cardgen.config import SCHEMA, example_config_path, load_config
from cardgen.errors import CardgenError
from cardgen.themes import builtin_themes, load_theme
from tests.conftest import ROOT, write_config


def test_example_config_uses_only_known_keys():
    data = tomllib.loads(example_config_path().read_text())
    for section, table in data.items():
        assert section in SCHEMA
        for key in table:
            assert key in SCHEMA[section]
    config = load_config(None)
    assert config.person.name and config.size == PRESETS["eu"] and config.qr


def test_every_key_is_documented_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    for section, fields in SCHEMA.items():
        for key in fields:
            assert f"`{section}.{key}`" in readme, f"{section}.{key} missing from README"


def test_paths_are_relative_to_the_config(tmp_path):
    (tmp_path / "sub").mkdir()
    path = write_config(tmp_path / "sub", '[person]\nname = "X"\n[images]\nportrait = "me.jpg"\n')
    assert load_config(path).portrait == (tmp_path / "sub" / "me.jpg").resolve()


def test_custom_size_and_overrides(tmp_path):
    path = write_config(tmp_path, '[card]\nwidth_mm = 90\nheight_mm = 60\n[person]\nname = "X"\n')
    config = load_config(path)
    assert (config.size.width, config.size.height) == (90, 60)
    assert config.with_overrides(preset="us").size == PRESETS["us"]
    assert config.with_overrides(marks=False).marks is False
    with pytest.raises(CardgenError, match="--preset"):
        config.with_overrides(preset="a7")


def test_name_is_required(tmp_path):
    with pytest.raises(CardgenError, match=r"person\.name is required"):
        load_config(write_config(tmp_path, '[person]\ntitle = "X"\n'))


@pytest.mark.parametrize("name", ["dark", "light"])
def test_builtin_themes_load(name):
    theme = load_theme(name)
    assert theme.name == name and theme.curve_fills and theme.curve_strokes
    assert 0 < theme.portrait_strength < 0.5  # faded enough for pencil
    ground = theme.inside["ground"]
    assert min(ground.rgb) > 230  # the game side is light
    for key in ("grid_line", "label"):
        assert max(theme.inside[key].rgb) < 120  # lines and labels stay dark


def test_dark_theme_follows_the_art_direction():
    theme = load_theme("dark")
    assert max(theme.outside["background"].rgb) < 20  # black business side
    for color in theme.curve_strokes:
        r, g, b = color.rgb
        assert b > r and b > g  # soft blue curves


def test_themes_are_data_files():
    assert set(builtin_themes()) >= {"dark", "light"}
    assert (ROOT / "templates" / "themes" / "dark.toml").is_file()


def test_theme_from_a_file_and_its_errors(tmp_path):
    text = (ROOT / "templates" / "themes" / "light.toml").read_text()
    (tmp_path / "mine.toml").write_text(text.replace('name = "light"', 'name = "mine"'))
    assert load_theme("mine.toml", tmp_path).name == "mine"
    (tmp_path / "bad.toml").write_text(text.replace("accent = [85, 45, 0, 10]", 'accent = "blue"'))
    with pytest.raises(CardgenError, match=r"outside\.accent"):
        load_theme(str(tmp_path / "bad.toml"))
    with pytest.raises(CardgenError, match="no theme called 'neon'"):
        load_theme("neon")


def test_colour_forms():
    assert parse_color("#ff0000", "x").rgb == (255, 0, 0)
    cmyk = parse_color([0, 100, 100, 0], "x")
    assert (cmyk.c, cmyk.m, cmyk.y, cmyk.k) == (0, 1, 1, 0) and cmyk.rgb == (255, 0, 0)
    both = parse_color({"cmyk": [60, 40, 40, 100], "rgb": "#07090d"}, "x")
    assert both.k == 1 and both.rgb == (7, 9, 13)
    assert Color.cmyk(100, 0, 0, 0).tint(0.5).c == 0.5
    with pytest.raises(CardgenError, match="where"):
        parse_color([1, 2], "where")


def test_readme_documents_two_setup_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    test_lines = [line.strip() for line in ci.splitlines()
                  if line.strip() and not line.startswith("#") and "pytest" in line]
    assert len(test_lines) == 1 and test_lines[0] in readme
    assert "cardgen card" in readme
    assert Path(ROOT / "docs" / "card.png").is_file()
