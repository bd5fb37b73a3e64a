"""Config schema, the example config, themes as data files."""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterable
from pathlib import Path

import pytest

from cardgen.card.config import CONFIG, example_config_path, load_config
from cardgen.card.themes import builtin_themes, load_theme
from cardgen.draw.colors import Color, color_from_data
from cardgen.errors import CardgenError
from cardgen.physical.card import PRESETS, Preset
from tests.helpers import ROOT, cli, error_line, write_config


def test_example_config_uses_only_known_keys():
    data = tomllib.loads(example_config_path().read_text())
    for section, table in data.items():
        assert section in CONFIG.fields
        for key in table:
            assert key in CONFIG.fields[section].fields
    config = load_config(None)
    assert config.person.name and config.size == PRESETS[Preset.EU] and config.qr


def test_every_key_is_documented_in_the_guide():
    """The card page's table of keys (the generated reference lists them by itself)."""
    page = (ROOT / "docs" / "card.md").read_text()
    for section, table in CONFIG.fields.items():
        for key in table.fields:
            assert f"`{section}.{key}`" in page, f"{section}.{key} missing from docs/card.md"


def test_paths_are_relative_to_the_config(tmp_path):
    (tmp_path / "sub").mkdir()
    path = write_config(tmp_path / "sub", '[person]\nname = "X"\n[images]\nportrait = "me.jpg"\n')
    assert load_config(path).portrait == (tmp_path / "sub" / "me.jpg").resolve()


def test_custom_size_and_overrides(tmp_path):
    path = write_config(tmp_path, '[card]\nwidth_mm = 90\nheight_mm = 60\n[person]\nname = "X"\n')
    config = load_config(path)
    assert (config.size.width, config.size.height) == (90, 60)
    assert config.with_overrides(preset=Preset.US).size == PRESETS[Preset.US]
    assert config.with_overrides(marks=False).marks is False
    # The library takes the enum; an unknown preset is refused by the command line.
    error_line(cli("card", path, "--preset", "a7", "-o", tmp_path / "out"), "--preset", "'a7'",
               status=2)


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
    # A black business side: 100 % K alone (the ink rule), previewed as it prints.
    assert theme.outside["background"].cmyk_fractions == (0, 0, 0, 1)
    assert max(theme.outside["background"].rgb) < 40
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
    (tmp_path / "bad.toml").write_text(text.replace("accent = [100, 55, 0, 15]", 'accent = "blue"'))
    with pytest.raises(CardgenError, match=r"outside\.accent"):
        load_theme(str(tmp_path / "bad.toml"))
    with pytest.raises(CardgenError, match="no theme called 'neon'"):
        load_theme("neon")


def test_colour_forms():
    assert color_from_data("#ff0000").rgb == (255, 0, 0)
    cmyk = color_from_data([0, 100, 100, 0])
    assert (cmyk.c, cmyk.m, cmyk.y, cmyk.k) == (0, 1, 1, 0) and cmyk.rgb == (255, 0, 0)
    both = color_from_data({"cmyk": [60, 40, 40, 100], "rgb": "#07090d"})
    assert both.k == 1 and both.rgb == (7, 9, 13)
    assert Color.cmyk(100, 0, 0, 0).tint(0.5).c == 0.5
    # A bad colour is a ValueError; the schema of the file puts the key's name in front.
    with pytest.raises(ValueError, match=r"expected a colour .*, got \[1, 2\]"):
        color_from_data([1, 2])


def test_bad_colour_in_a_theme_names_the_key(tmp_path):
    text = (ROOT / "templates" / "themes" / "light.toml").read_text()
    (tmp_path / "bad.toml").write_text(text.replace("accent = [100, 55, 0, 15]", "accent = [1, 2]"))
    with pytest.raises(CardgenError, match=r"bad\.toml: outside\.accent expected a colour"):
        load_theme(str(tmp_path / "bad.toml"))


def test_a_theme_with_several_mistakes_lists_them_all_in_one_line(tmp_path):
    text = (ROOT / "templates" / "themes" / "light.toml").read_text()
    text = text.replace("accent = ", "acent = ")  # a typo, and so accent is missing
    text = text.replace("plain_tint = ", "plain_tint = 2 #")
    theme = tmp_path / "typos.toml"
    theme.write_text(text)
    with pytest.raises(CardgenError) as info:
        load_theme(str(theme))
    assert info.value.problems == (  # table by table, each table's missing keys last
        "unknown key outside.acent; did you mean outside.accent?",
        "outside.accent is missing (the title and the game names, when 8 pt or more).",
        "inside.plain_tint must be a number from 0 to 1, not 2.",
    )
    line = error_line(cli("card", "--theme", theme, "-o", tmp_path / "out"))
    first, *rest = info.value.problems
    assert line == f"error: theme {theme}: {first} Also: {' '.join(rest)}"


def _shell_commands(lines: Iterable[str]) -> list[str]:
    """The simple commands of some shell lines: continuation lines joined, comments and
    blank lines dropped, ``&&`` lists split, white space normalised."""
    text = "\n".join(lines).replace("\\\n", " ")
    commands = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            commands += [" ".join(part.split()) for part in line.split("&&")]
    return commands


def _code_blocks(markdown: str) -> list[list[str]]:
    """The lines of each code block (indented or fenced) of a Markdown text."""
    blocks: list[list[str]] = []
    lines = iter(markdown.splitlines())
    for line in lines:
        if line.lstrip().startswith("```"):
            blocks.append(list(itertools.takewhile(lambda x: not x.lstrip().startswith("```"),
                                                   lines)))
        elif line.startswith("    ") and line.strip():
            blocks.append([line, *itertools.takewhile(lambda x: x.startswith("    "), lines)])
    return blocks


def test_readme_documents_two_setup_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    # The README's test command: the one code block that runs pytest.
    blocks = [_shell_commands(block) for block in _code_blocks(readme)]
    test_blocks = [commands for commands in blocks if any("pytest" in c for c in commands)]
    assert len(test_blocks) == 1, test_blocks
    readme_test = test_blocks[0]
    assert any("pip install" in c for c in readme_test), readme_test  # the install step
    # CI runs exactly that, install step included (after its own set and cd preamble).
    ci_commands = [c for c in _shell_commands(ci.splitlines())
                   if not c.startswith(("set ", "cd "))]
    assert ci_commands == readme_test
    assert "cardgen card" in readme
    assert Path(ROOT / "docs" / "card.png").is_file()
