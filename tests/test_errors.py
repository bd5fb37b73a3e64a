"""Errors: library errors are ValueErrors in the input's own terms and never name a
command-line option; the command line words them with its options."""

from __future__ import annotations

import ast
import re

import pytest

from cardgen.errors import (
    BoardError,
    CardgenError,
    ConfigError,
    FitError,
    FontError,
    ImageError,
    OutputError,
    ParameterError,
    ProblemsError,
)
from tests.helpers import ROOT, cli, error_line, syntax_nodes

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


def _library_strings():
    """Every string literal in cardgen outside the command line (docstrings excluded)."""
    for path in sorted((ROOT / "cardgen").rglob("*.py")):
        if "cli" in path.relative_to(ROOT / "cardgen").parts:
            continue
        nodes = syntax_nodes(path)
        docstrings = {id(node.body[0].value) for node in nodes
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in nodes:
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                yield path.relative_to(ROOT), node.lineno, node.value


def test_no_library_string_names_a_command_line_option():
    found = [(str(p), line, OPTION.findall(text)) for p, line, text in _library_strings()
             if OPTION.search(text)]
    assert not found, found


def test_every_error_is_a_value_error_that_carries_its_input():
    for kind in (CardgenError, FitError, FontError, ImageError, OutputError):
        error = kind("x is wrong.", value=42)
        assert isinstance(error, ValueError) and error.value == 42 and str(error) == "x is wrong."
    for kind in (ConfigError, BoardError):
        error = kind("f.toml", ["a is wrong.", "b is missing."], value={"a": 1})
        assert isinstance(error, ProblemsError) and error.problems == ("a is wrong.",
                                                                      "b is missing.")
        assert str(error) == "f.toml: a is wrong. Also: b is missing."
        assert error.value == {"a": 1}
    error = ParameterError("margin", "must be 0–30 mm, not 40.", value=40)
    assert str(error) == "margin must be 0–30 mm, not 40." and error.parameter == "margin"
    with pytest.raises(ValueError, match="at least one problem"):
        ConfigError("f", [])


@pytest.mark.parametrize("args,needle,status", [
    # A value out of range is bad input (1); one that is not a choice, a usage error (2).
    (["sheet", "--margin", "40"], "--margin must be 0–30 mm, not 40.", 1),
    (["sheet", "--offset=25,0"], "--offset 25,0 is implausible", 1),
    (["sheet", "--paper", "a3"], "--paper must be one of a4, letter, not 'a3'.", 2),
    (["sheet", "--flip", "side"], "--flip must be one of long, short, not 'side'.", 2),
    (["card", "--preset", "jp"], "--preset must be one of eu, us, not 'jp'.", 2),
    (["rotator", "generate", "--difficulty", "brutal"],
     "--difficulty must be one of easy, medium, hard, not 'brutal'.", 2),
    (["rotator", "generate", "--size", "grid"], "--size must be one of card, large", 2),
    (["rotator", "print", "R1:B2B8E4I2I8-B4E2E8H4I9", "--size", "huge"],
     "--size must be one of card, large, not 'huge'.", 2),
])
def test_the_command_line_words_parameter_errors_with_its_options(tmp_path, args, needle,
                                                                  status):
    error_line(cli(*args, "-o", tmp_path / "out"), needle, status=status)
