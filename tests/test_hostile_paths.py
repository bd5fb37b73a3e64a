"""A path that cannot even be looked at (a file where a folder belongs, a name or a path
too long for the file system, a loop of symbolic links, a folder that cannot be entered)
is refused in one line naming the option or field and the file, for every option and
config key that takes a path: no traceback. Paths are fuzzed too."""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cardgen.card.config import PATH_KEYS
from cardgen.errors import InputFileError
from tests.helpers import cli, cli_parameters, error_line, examples

PERSON = '[person]\nname = "Ada Example"\nemail = "ada@example.org"\n'
BOARD = "R1:B2B8E4I2I8-B4E2E8H4I9"


def _non_folder_parent(folder: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (folder / "file.txt").write_text("not a folder\n", encoding="utf-8")
    return "file.txt/x"


def _loop(folder: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    os.symlink("loop", folder / "loop")
    return "loop/x"


def _locked(folder: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A folder that cannot be entered (mode 000). Root enters every folder: where the
    mode does not bite, the system calls that would enter it fail as they would for
    anyone else."""
    (folder / "locked").mkdir()
    (folder / "locked").chmod(0)
    try:
        os.stat(folder / "locked" / "x")
    except PermissionError:
        bites = True
    except FileNotFoundError:
        bites = False
    if not bites:
        inside = str(folder / "locked") + os.sep

        def refuse(call: Callable[..., object]) -> Callable[..., object]:
            def refused(path: object, *args: object, **kwargs: object) -> object:
                if isinstance(path, str | Path) and os.path.abspath(path).startswith(inside):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
                return call(path, *args, **kwargs)
            return refused

        for name in ("stat", "lstat", "open", "scandir", "listdir", "mkdir", "access"):
            monkeypatch.setattr(os, name, refuse(getattr(os, name)))
    return "locked/x"


# How a path can fail before anything is opened: each returns the path (without a
# suffix: the command lines below add the one they need), relative to the folder it is
# made in.
BAD_PATHS: dict[str, Callable[[Path, pytest.MonkeyPatch], str]] = {
    "a file where a folder belongs": _non_folder_parent,
    "a 300-byte name": lambda d, m: "a" * 300,
    "a 5000-byte path": lambda d, m: "d/" * 2500 + "x",
    "a loop of symbolic links": _loop,
    "a folder that cannot be entered": _locked,
}


# Every option and argument that takes a path: the command line ({} is the path) and
# what its error line names.
FILE = ("cannot write", "output folder")  # what a file to write is called
PATH_OPTIONS: dict[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]] = {
    ("card", "config"): (("card", "{}.toml", "-o", "out", "-f", "pdf"), ("config file",)),
    ("card", "output"): (("card", "base.toml", "-o", "{}", "-f", "pdf"), ("output folder",)),
    ("card", "batch"): (("card", "--batch", "{}.csv", "-o", "out"), ("people file",)),
    ("card", "theme"): (("card", "base.toml", "--theme", "{}.toml", "-o", "out", "-f", "pdf"),
                        ("--theme",)),
    ("init", "path"): (("init", "{}.toml"), FILE),
    ("sheet", "config"): (("sheet", "{}.toml", "-o", "out"), ("config file",)),
    ("sheet", "output"): (("sheet", "base.toml", "-o", "{}"), ("output folder",)),
    ("sheet", "batch"): (("sheet", "--batch", "{}.csv", "-o", "out"), ("people file",)),
    ("sheet", "theme"): (("sheet", "base.toml", "--theme", "{}.toml", "-o", "out"),
                         ("--theme",)),
    ("rules", "output"): (("rules", "rotator", "-o", "{}"), ("output folder",)),
    ("rules", "source"): (("rules", "rotator", "--source", "{}", "-o", "out"), ("--source",)),
    ("playsheet", "output"): (("playsheet", "reflector", "-o", "{}"), ("output folder",)),
    ("rotator show", "board"): (("rotator", "show", "{}.toml"), ("board",)),
    ("rotator play", "board"): (("rotator", "play", "{}.toml"), ("board",)),
    ("rotator solve", "board"): (("rotator", "solve", "{}.toml"), ("board",)),
    ("rotator generate", "output"): (("rotator", "generate", "--count", "1", "-o", "{}"),
                                     FILE),
    ("rotator print", "boards"): (("rotator", "print", "{}.toml", "-o", "out"),
                                  ("board",)),
    ("rotator print", "output"): (("rotator", "print", BOARD, "-o", "{}"), FILE),
    ("connector validate", "assembly"): (("connector", "validate", "{}.toml"),
                                         ("assembly file",)),
    ("connector validate", "picture"): (("connector", "validate", "assembly.toml",
                                         "--picture", "{}.svg"), FILE),
    ("connector validate", "layout"): (("connector", "validate", "assembly.toml", "--layout",
                                        "{}.toml"), ("Connector layout file",)),
    ("connector solve", "output"): (("connector", "solve", "reflector", "-o", "{}"),
                                    FILE),
    ("connector solve", "layout"): (("connector", "solve", "reflector", "--layout",
                                     "{}.toml"), ("Connector layout file",)),
    ("connector check", "layout"): (("connector", "check", "{}.toml"),
                                    ("Connector layout file",)),
    ("connector show", "output"): (("connector", "show", "reflector", "-o", "{}"),
                                   ("output folder",)),
    ("ladder deck", "path"): (("ladder", "deck", "{}.csv"), ("deck file",)),
    ("ladder deck", "config"): (("ladder", "deck", "people.csv", "--config", "{}.toml"),
                                ("config file",)),
    ("ladder attack", "path"): (("ladder", "attack", "{}.toml"), ("attack file",)),
    ("referee", "record"): (("referee", "{}.toml"), ("record file",)),
    ("ladder mat", "output"): (("ladder", "mat", "-o", "{}"), ("output folder",)),
    ("ladder rules", "output"): (("ladder", "rules", "-o", "{}"), ("output folder",)),
    ("schema", "output"): (("schema", "card", "-o", "{}"), FILE),
    ("studio", "config"): (("studio", "--no-open", "{}.toml", "-o", "out"), ("config file",)),
    ("studio", "output"): (("studio", "--no-open", "base.toml", "-o", "{}"),
                           ("output folder",)),
}
# Options typed as text that take a path too (a theme's name or file, a board's ID or file).
TEXT_PATH_OPTIONS = {("card", "theme"), ("sheet", "theme"), ("rotator show", "board"),
                     ("rotator play", "board"), ("rotator solve", "board"),
                     ("rotator print", "boards")}


def test_every_path_option_is_fuzzed_here():
    typed = {(command, param.name) for command, param in cli_parameters()
             if param.type_descriptor.annotation is Path}
    assert typed | TEXT_PATH_OPTIONS == set(PATH_OPTIONS)


def _inputs(folder: Path) -> None:
    """The good files the command lines above read besides the path tried."""
    from cardgen.resources import templates_dir

    (folder / "base.toml").write_text(PERSON, encoding="utf-8")
    (folder / "people.csv").write_text("person.name\nAda Example\n", encoding="utf-8")
    (folder / "assembly.toml").write_bytes(
        (templates_dir() / "connector" / "reflector.toml").read_bytes())


@pytest.mark.parametrize("bad", sorted(BAD_PATHS))
@pytest.mark.parametrize("option", sorted(PATH_OPTIONS), ids=" ".join)
def test_a_path_that_cannot_be_looked_at_is_one_line_naming_the_option(tmp_path, monkeypatch,
                                                                       option, bad):
    _inputs(tmp_path)
    path = BAD_PATHS[bad](tmp_path, monkeypatch)
    args, needles = PATH_OPTIONS[option]
    try:
        result = cli(*(a.replace("{}", path) for a in args), cwd=tmp_path)
    finally:
        if (tmp_path / "locked").exists():
            (tmp_path / "locked").chmod(0o755)
    line = error_line(result)
    assert any(needle in line for needle in needles), line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("bad", sorted(BAD_PATHS))
@pytest.mark.parametrize("key", [f"{s}.{k}" for s, k in PATH_KEYS])
def test_a_config_path_that_cannot_be_looked_at_names_the_key(tmp_path, monkeypatch, key, bad):
    from tests.tomlwrite import value

    _inputs(tmp_path)
    path = BAD_PATHS[bad](tmp_path, monkeypatch)
    section, name = key.split(".")
    (tmp_path / "c.toml").write_text(PERSON + f"[{section}]\n{name} = {value(path)}\n",
                                     "utf-8")
    try:
        single = cli("card", "c.toml", "-o", "out", "-f", "pdf", cwd=tmp_path)
        (tmp_path / "cells.csv").write_text(f"person.name,{key}\nAda,{path}\n", "utf-8")
        batch = cli("card", "--batch", "cells.csv", "-o", "out", "-f", "pdf", cwd=tmp_path)
    finally:
        if (tmp_path / "locked").exists():
            (tmp_path / "locked").chmod(0o755)
    error_line(single, key)
    error_line(batch, "line 2", key)


def test_an_unreadable_folder_on_the_way_is_said_in_words(tmp_path, monkeypatch):
    from cardgen.datafile import look

    path = _locked(tmp_path, monkeypatch)
    try:
        with pytest.raises(InputFileError) as caught:
            look(tmp_path / path, "theme file", where="--theme")
    finally:
        (tmp_path / "locked").chmod(0o755)
    assert str(caught.value) == (f"--theme: theme file {tmp_path / path} cannot be opened "
                                 "(permission denied).")


def test_a_home_that_does_not_exist_is_kept_as_written(tmp_path):
    from cardgen.datafile import user_path

    assert user_path("~nobody-cardgen/x.png") == Path("~nobody-cardgen/x.png")
    assert user_path("~/x.png") == Path.home() / "x.png"
    (tmp_path / "c.toml").write_text(PERSON + '[images]\nlogo = "~nobody-cardgen/x.png"\n',
                                     "utf-8")
    line = error_line(cli("card", "c.toml", "-o", "out", "-f", "pdf", cwd=tmp_path))
    assert line == ("error: images.logo: image file ~nobody-cardgen/x.png does not exist.")


# --- fuzzing ------------------------------------------------------------------------------

FUZZ = settings(max_examples=examples(40), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])
SEGMENTS = st.one_of(
    st.sampled_from(["", ".", "..", "~", "~nobody-cardgen", "file.txt", "loop", "a" * 300,
                     "é" * 200, "dark", "x.toml", "\x00"]),
    st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12))
PATHS = st.builds(lambda lead, parts: lead + "/".join(parts),
                  st.sampled_from(["", "/", "./", "~/"]), st.lists(SEGMENTS, min_size=1,
                                                                   max_size=6))


@FUZZ
@given(path=PATHS)
@example(path="a" * 300)
@example(path="file.txt/x")
@example(path="\x00")
def test_any_path_is_read_or_refused_in_one_line(path):
    from tests.tomlwrite import value

    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        _inputs(folder)
        (folder / "file.txt").write_text("not a folder\n", encoding="utf-8")
        os.symlink("loop", folder / "loop")
        runs = {"--theme": ("card", "base.toml", "--theme", path, "-o", "out", "-f", "pdf"),
                "--source": ("rules", "rotator", "--source", path, "-o", "out"),
                "board": ("rotator", "show", path)}
        for key in ("card.theme", "images.logo", "images.portrait", "fonts.regular",
                    "print.cmyk_profile"):
            section, field = key.split(".")
            text = PERSON + f"[{section}]\n{field} = {value(path)}\n"
            (folder / f"{key}.toml").write_text(text, encoding="utf-8")
            runs[key] = ("card", f"{key}.toml", "-o", "out", "-f", "pdf")
        for needle, args in runs.items():
            result = cli(*args, cwd=folder)
            if result.returncode != 0:
                # A NUL byte (which no shell can pass) is no path to the parser of a
                # path option: a usage error; every other failure is bad input.
                usage = needle == "--source" and "\x00" in path
                error_line(result, needle, status=2 if usage else 1)
