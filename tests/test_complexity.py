"""The card product stays simple (issue 23, point 6): every function in ``cardgen/card/``
has a McCabe (cyclomatic) complexity of at most 12.

The complexity is computed here with an AST walk rather than by turning on ruff's C901
for one folder: the test then runs wherever the tests run, whatever ruff version is
installed, and says the figure of every function above the bound. The walk counts as
McCabe and ruff's C901 do: 1 for the function, plus 1 for each ``if``/``elif``, ``for``,
``while``, ``except``, ``try``'s ``else``, ``match`` case (less an irrefutable last case)
and nested function; boolean operators, conditional expressions and comprehensions are
not counted. (Measured so, ``card/outside.py:_front_text`` was 30 before this point.)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import ROOT, syntax_tree

CARD = ROOT / "cardgen" / "card"
MAX_COMPLEXITY = 12

Function = ast.FunctionDef | ast.AsyncFunctionDef


def _statements(statements: list[ast.stmt]) -> int:
    return sum(_statement(s) for s in statements)


def _statement(node: ast.stmt) -> int:
    if isinstance(node, ast.If):
        # an elif is an If alone in its parent's orelse: counted when visited there
        return 1 + _statements(node.body) + _statements(node.orelse)
    if isinstance(node, ast.For | ast.AsyncFor | ast.While):
        return 1 + _statements(node.body) + _statements(node.orelse)
    if isinstance(node, ast.With | ast.AsyncWith):
        return _statements(node.body)
    if isinstance(node, ast.Try | ast.TryStar):
        return (_statements(node.body) + (1 if node.orelse else 0) + _statements(node.orelse)
                + _statements(node.finalbody)
                + sum(1 + _statements(h.body) for h in node.handlers))
    if isinstance(node, ast.Match):
        last = node.cases[-1]
        catch_all = last.guard is None and _irrefutable(last.pattern)
        return sum(1 + _statements(c.body) for c in node.cases) - (1 if catch_all else 0)
    if isinstance(node, Function):
        return 1 + _statements(node.body)
    if isinstance(node, ast.ClassDef):
        return _statements(node.body)
    return 0


def _irrefutable(pattern: ast.pattern) -> bool:
    if isinstance(pattern, ast.MatchAs):
        return pattern.pattern is None or _irrefutable(pattern.pattern)
    if isinstance(pattern, ast.MatchOr):
        return any(_irrefutable(p) for p in pattern.patterns)
    return False


def complexity(function: Function) -> int:
    """The McCabe complexity of ``function``, its nested functions included."""
    return 1 + _statements(function.body)


def functions(tree: ast.Module) -> Iterator[tuple[str, Function]]:
    """Every function of a module with its qualified name, methods and nested functions
    included (a nested function is counted in its parent too, as McCabe counts it)."""
    def visit(node: ast.AST, prefix: str) -> Iterator[tuple[str, Function]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, Function):
                yield prefix + child.name, child
                yield from visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, ast.ClassDef):
                yield from visit(child, f"{prefix}{child.name}.")
            else:
                yield from visit(child, prefix)
    yield from visit(tree, "")


def measured(folder: Path) -> dict[str, int]:
    """``module.py:function`` → complexity, for every function under ``folder``."""
    return {f"{path.relative_to(folder)}:{name}": complexity(function)
            for path in sorted(folder.rglob("*.py"))
            for name, function in functions(syntax_tree(path))}


def test_every_function_in_card_is_simple():
    figures = measured(CARD)
    assert figures, "no functions found in cardgen/card"
    too_complex = {name: n for name, n in figures.items() if n > MAX_COMPLEXITY}
    assert not too_complex, (
        f"McCabe complexity above {MAX_COMPLEXITY} in cardgen/card: {too_complex}; split "
        "the function into steps")


SAMPLE = '''
def f(x):
    if x:
        pass
    elif x > 1:
        pass
    else:
        pass
    for i in x:
        while i:
            break
        else:
            pass
    try:
        pass
    except ValueError:
        pass
    except TypeError:
        pass
    else:
        pass
    match x:
        case 1:
            pass
        case 2 if x:
            pass
        case _:
            pass
    with x:
        if x and x or x:
            pass
    y = [a for a in x if a] if x else None

    def g():
        if x:
            pass
    return y
'''


@pytest.mark.parametrize(("name", "want"), [("f", 13), ("f.g", 2)])
def test_the_measure_counts_as_mccabe(name, want):
    """if + elif (2), for and while (2), two handlers and try's else (3), three cases
    less the catch-all (2), the if under ``with`` (1), the nested function and its if (2):
    12 decisions, complexity 13; ``and``/``or``, the conditional expression and the
    comprehension are not decisions."""
    found = dict(functions(ast.parse(SAMPLE)))
    assert complexity(found[name]) == want
