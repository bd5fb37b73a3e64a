"""Product text: every sentence cardgen prints on paper, kept as data.

The texts live in ``templates/texts/GROUP.toml`` as tables of strings, lists of strings
(lines) and lists of tables, written in the project's own words. A string may hold
``{name}`` placeholders that the code fills in; :func:`say` looks a text up by its dotted
key and fills it. A test checks that every key the code asks for exists and that the
placeholders match.

Imports ``cardgen.datafile``, ``cardgen.errors`` and ``cardgen.resources``.
"""

from __future__ import annotations

import string
from functools import cache
from pathlib import Path
from typing import Any

from cardgen.datafile import read_toml
from cardgen.errors import ConfigError, ConfigProblem, Problem
from cardgen.resources import templates_dir


def text_file(group: str) -> Path:
    return templates_dir() / "texts" / f"{group}.toml"


@cache
def texts(group: str) -> dict[str, Any]:
    """All texts of a group, checked: every value a string, a table or a list of them,
    every placeholder a plain name."""
    path = text_file(group)
    data = read_toml(path, "text file")
    problems: list[str] = []
    _check(data, "", problems)
    if problems:
        raise ConfigError(str(path), problems)
    return data


def _check(value: Any, key: str, problems: list[str]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _check(v, f"{key}.{k}" if key else k, problems)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check(v, f"{key}[{i + 1}]", problems)
    elif isinstance(value, str):
        for name in placeholders(value):
            if not name.isidentifier():
                problems.append(f"{key} has the placeholder {{{name}}}; placeholders are "
                                "plain names such as {count}.")
    else:
        problems.append(Problem(f"{key} must be text in quotes.", ConfigProblem.WRONG_TYPE))


def placeholders(template: str) -> list[str]:
    """The names of the ``{name}`` fields of a template, in order."""
    return [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]


def lookup(group: str, key: str) -> Any:
    """The value at a dotted key (a string, a table or a list)."""
    value: Any = texts(group)
    for part in key.split("."):
        if not isinstance(value, dict) or part not in value:
            raise ConfigError(str(text_file(group)), [f"has no text {key}."],
                              code=ConfigProblem.MISSING)
        value = value[part]
    return value


def say(group: str, key: str, **values: object) -> str:
    """The text at ``key`` with its placeholders filled from ``values``."""
    template = lookup(group, key)
    if not isinstance(template, str):
        raise ConfigError(str(text_file(group)), [f"{key} is not a single text."],
                          code=ConfigProblem.WRONG_TYPE)
    missing = [name for name in placeholders(template) if name not in values]
    if missing:
        raise ConfigError(str(text_file(group)),
                          [f"{key} uses {{{missing[0]}}}, which cardgen does not fill in."],
                          code=ConfigProblem.MISSING)
    return template.format(**values)


def say_lines(group: str, key: str, **values: object) -> list[str]:
    """The list of texts at ``key``, each with its placeholders filled."""
    lines = lookup(group, key)
    if not isinstance(lines, list) or not all(isinstance(line, str) for line in lines):
        raise ConfigError(str(text_file(group)), [f"{key} is not a list of lines."],
                          code=ConfigProblem.WRONG_TYPE)
    out = []
    for i, template in enumerate(lines):
        missing = [name for name in placeholders(template) if name not in values]
        if missing:
            raise ConfigError(str(text_file(group)), [
                f"{key} line {i + 1} uses {{{missing[0]}}}, which cardgen does not fill in."],
                code=ConfigProblem.MISSING)
        out.append(template.format(**values))
    return out
