"""The user guide (docs/, a MkDocs site) and the short README in front of it.

- The command-line reference, generated from the Typer app at build time, has every
  command and every option, checked against what each command's own help screen shows.
- No page of the guide, and no link of the README into it, points at a missing file,
  picture or anchor (``mkdocs build --strict`` checks the pages' Markdown links too, in the
  README's test command; this test also covers pictures, generated pages and the README).
- The bad-input catalogue lives in the guide and is still run row by row
  (tests/test_readme_catalogue.py).
- README stays short, and the packaging installs the guide's builder with the tests.
"""

from __future__ import annotations

import importlib.util
import re
import tomllib
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import ROOT, cli

DOCS = ROOT / "docs"
README = ROOT / "README.md"
# The start of an option's line on a help screen (Rich's panel or Click's plain list):
# its names, such as "-o, --output" or "--marks --no-marks".
OPTION_LINE = re.compile(r"^(?:│ (?:\*\s+)?| {1,4})"
                         r"(-{1,2}[a-zA-Z][\w-]*(?:(?:, |/| +)-{1,2}[a-zA-Z][\w-]*)*)", re.M)
LINK = re.compile(r"!?\[(?:[^\]]|\n)*?\]\(([^)\s]+)\)")


@cache
def hook() -> ModuleType:
    """The guide's build hook, docs/hooks/cardgen_docs.py, as a module."""
    spec = importlib.util.spec_from_file_location("cardgen_docs",
                                                  DOCS / "hooks" / "cardgen_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@cache
def cli_reference() -> str:
    return str(hook().cli_reference())


def _nav_pages() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return re.findall(r":\s*([\w-]+\.md)\s*$", text, flags=re.M)


@cache
def page_text(name: str) -> str:
    """A page as the build sees it: with the generated references put in."""
    text = (DOCS / name).read_text(encoding="utf-8")
    if hook().CONFIG_MARK in text:
        text = text.replace(hook().CONFIG_MARK, hook().config_reference())
    if hook().CLI_MARK in text:
        text = text.replace(hook().CLI_MARK, cli_reference())
    return text


def _slug(title: str) -> str:
    """MkDocs' default anchor for a heading (Python-Markdown's toc slugify)."""
    from markdown.extensions.toc import slugify

    return str(slugify(re.sub(r"[`*]", "", title), "-"))


@cache
def anchors(name: str) -> frozenset[str]:
    found = set()
    for title in re.findall(r"^#+ (.+)$", page_text(name), flags=re.M):
        explicit = re.search(r"\{#([\w-]+)\}\s*$", title)
        found.add(explicit.group(1) if explicit else _slug(title))
    return frozenset(found)


def _check_link(target: str, page: Path, where: str) -> str | None:
    """What is wrong with a link from ``page`` (under docs/, or README), or None."""
    if re.match(r"^[a-z]+:", target):
        return None  # a web address or mailto:
    path, _, anchor = target.partition("#")
    generated = {f"{hook().GENERATED}/{name}" for name in hook().PICTURES}
    if not path:
        file = page
    else:
        file = (page.parent / path).resolve()
        relative = file.relative_to(DOCS).as_posix() if file.is_relative_to(DOCS) else None
        if relative in generated:
            return None if not anchor else f"{where}: {target}: a picture has no anchors"
        if not file.exists():
            return f"{where}: {target}: no such file"
    if (anchor and file.suffix == ".md" and file.is_relative_to(DOCS)
            and anchor not in anchors(file.relative_to(DOCS).as_posix())):
        return f"{where}: {target}: no anchor #{anchor}"
    return None


def test_every_page_is_in_the_navigation():
    pages = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.glob("*.md"))
    assert sorted(_nav_pages()) == pages


def test_no_page_links_to_a_missing_file_picture_or_anchor():
    problems = []
    for name in _nav_pages():
        for target in LINK.findall(page_text(name)):
            problem = _check_link(target, DOCS / name, name)
            if problem:
                problems.append(problem)
    assert not problems, problems


def test_every_generated_picture_is_shown_somewhere():
    shown = "".join(page_text(name) for name in _nav_pages())
    for name in hook().PICTURES:
        assert f"({hook().GENERATED}/{name})" in shown, name


def test_readme_links_into_the_guide_resolve():
    text = README.read_text(encoding="utf-8")
    targets = LINK.findall(text)
    assert any(t.startswith("docs/") and t.endswith(".md") for t in targets)
    problems = [p for t in targets if (p := _check_link(t, README, "README.md"))]
    assert not problems, problems


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, len(lines)


def test_the_catalogue_is_in_the_guide_and_every_row_is_run():
    from tests.test_readme_catalogue import CASES, CATALOGUE, ROWS

    assert CATALOGUE == DOCS / "bad-input.md"
    assert ROWS and set(ROWS) == set(CASES)
    assert "| input | what cardgen says |" not in README.read_text(encoding="utf-8")


def test_the_test_extra_installs_the_guide_builder():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for extra in ("docs", "test"):
        names = {re.split(r"[<>=!~\[ ]", item, maxsplit=1)[0] for item in extras[extra]}
        assert {"mkdocs", "mkdocs-material", "mkdocstrings"} <= names, extra
    assert "mkdocs build --strict" in (ROOT / ".ci" / "run").read_text()


# --- the command-line reference -------------------------------------------------------


def _section(reference: str, name: str) -> str:
    """The part of the reference about one command, up to the next command's heading."""
    match = re.search(rf"^#+ {re.escape(name)}\n(.*?)(?=^#+ cardgen|\Z)", reference,
                      flags=re.M | re.S)
    assert match, f"{name} has no section in the command-line reference"
    return match.group(1)


def test_every_command_has_a_section_with_its_usage():
    reference = cli_reference()
    names = [name for name, _ in hook().commands()]
    assert len(names) > 20 and "cardgen rotator play" in names
    for name in names:
        assert f"\n{name} " in _section(reference, name), name


def test_every_option_and_argument_of_the_app_is_in_the_reference():
    reference = cli_reference()
    for name, command in hook().commands():
        section = _section(reference, name)
        ctx = command.context_class(command, info_name=name)
        for param in command.get_params(ctx):
            if getattr(param, "hidden", False):
                continue
            if param.param_type_name == "argument":
                assert f"`{(param.metavar or param.name).upper()}`" in section, (name, param)
            else:
                for opt in [*param.opts, *param.secondary_opts]:
                    assert f"`{opt}`" in section, (name, opt)


def test_every_option_a_help_screen_shows_is_in_the_reference(monkeypatch):
    """Independently of the walk that writes the reference: what `--help` prints."""
    monkeypatch.setenv("COLUMNS", "200")
    reference = cli_reference()
    for name, _ in hook().commands():
        shown = cli(*name.split()[1:], "--help").stdout
        section = _section(reference, name)
        options = {opt for names in OPTION_LINE.findall(shown)
                   for opt in re.findall(r"-{1,2}[a-zA-Z][\w-]*", names)}
        assert "--help" in options, (name, shown)
        missing = sorted(o for o in options if o not in section)
        assert not missing, (name, missing)


# --- the pictures ---------------------------------------------------------------------


@pytest.mark.slow
def test_every_picture_is_drawn(tmp_path: Path):
    for name, draw in hook().PICTURES.items():
        target = tmp_path / name
        draw(tmp_path, target)
        data = target.read_bytes()
        if name.endswith(".png"):
            assert data.startswith(b"\x89PNG") and len(data) > 5000, name
        else:
            assert data.startswith(b"<svg") and b"<text" in data, name
