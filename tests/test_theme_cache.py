"""A theme is read once a process for each text (``cardgen.card.themes._theme``): what
it gives, and what it refuses, are what the plain reading (the uncached function) gives
and refuses, and a changed file is read anew."""

from __future__ import annotations

import pytest

from cardgen.card.themes import _theme, builtin_themes, load_theme, theme_path
from cardgen.errors import ConfigError
from cardgen.resources import templates_dir
from tests.helpers import BASE_CONFIG, cli, error_line, ok

plain = _theme.__wrapped__


@pytest.mark.parametrize("name", builtin_themes())
def test_a_bundled_theme_is_the_plain_reading(name):
    path = theme_path(name)
    assert load_theme(name) == plain(path, path.read_text(encoding="utf-8"), name)
    assert load_theme(name) is load_theme(name)  # read once


def test_a_changed_theme_file_is_read_anew_and_a_refused_one_refused_each_time(tmp_path):
    dark = (templates_dir() / "themes" / "dark.toml").read_text(encoding="utf-8")
    path = tmp_path / "t.toml"
    path.write_text(dark.replace('description = "', 'description = "Changed. ', 1), "utf-8")
    first = load_theme(str(path))
    assert first.description.startswith("Changed. ")
    path.write_text(dark, "utf-8")
    assert load_theme(str(path)) == plain(path, dark, str(path)) != first
    path.write_text(dark + "\n[zz]\na = 1\n", "utf-8")
    said = []
    for _ in range(2):
        with pytest.raises(ConfigError) as exc:
            load_theme(str(path))
        said.append(str(exc.value))
    with pytest.raises(ConfigError) as exc:
        plain(path, path.read_text(encoding="utf-8"), str(path))
    assert said == [str(exc.value)] * 2


def test_card_theme_reads_its_theme_file_once_and_a_changed_one_again(tmp_path):
    (tmp_path / "c.toml").write_text(BASE_CONFIG, "utf-8")
    dark = (templates_dir() / "themes" / "dark.toml").read_text(encoding="utf-8")
    (tmp_path / "t.toml").write_text(dark, "utf-8")
    ok(cli("card", "c.toml", "--theme", "t.toml", "-o", "out", "-f", "pdf", cwd=tmp_path))
    (tmp_path / "t.toml").write_text(dark + "\n[zz]\na = 1\n", "utf-8")
    error_line(cli("card", "c.toml", "--theme", "t.toml", "-o", "out2", "-f", "pdf",
                   cwd=tmp_path), "t.toml", "zz")
