"""The package layering, read from the source: what each package may import, that the
models stay pure, that heavy libraries load lazily, and that there are no import cycles.

Imports are collected statically (every ``import`` statement in every module, wherever
it is: at module level, inside functions, or under ``if TYPE_CHECKING``), so a rule
cannot be dodged by importing late.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.helpers import ROOT

PACKAGE = ROOT / "cardgen"

# What each part of cardgen may import from cardgen (by top-level part: a package or a
# module), as each package's docstring states.
MAY_IMPORT = {
    "errors": {"chars"},
    "units": set(),
    "resources": set(),
    "datafile": {"errors"},
    "limits": set(),
    "chars": set(),
    "schema": {"errors", "chars"},
    "texts": {"datafile", "errors", "resources"},
    "interrupt": set(),
    "output": {"errors", "datafile", "interrupt"},
    "draw": {"draw", "errors", "units", "datafile", "limits"},
    "text": {"text", "draw", "errors", "resources", "units", "datafile", "limits", "chars"},
    "board": {"board", "draw", "text", "errors", "chars", "datafile", "schema", "resources",
              "units"},
    "physical": {"physical", "board", "draw", "text", "texts", "errors", "units"},
    "prepress": {"prepress", "draw", "text", "texts", "errors", "datafile", "schema",
                 "resources", "units", "cardgen"},
    "ladder": {"ladder", "physical", "draw", "text", "texts", "prepress", "datafile", "schema",
               "resources", "errors", "units"},
    "games": {"games", "board", "physical", "draw", "text", "texts", "prepress", "datafile",
              "schema", "errors", "chars", "resources", "units"},
    "connector": {"connector", "games", "physical", "board", "draw", "text", "texts", "prepress",
                  "render", "output", "datafile", "schema", "errors", "resources", "units",
                  "chars", "cardgen"},
    "card": {"card", "physical", "board", "draw", "text", "texts", "prepress", "datafile",
             "schema", "ladder", "errors", "resources", "units", "chars", "cardgen",
             "connector"},
    "render": {"render", "draw", "text", "units", "errors", "cardgen"},
    "rules": {"rules", "physical", "draw", "text", "texts", "prepress", "ladder", "games",
              "connector", "datafile", "schema", "resources", "units", "errors", "chars"},
    "cli": {"cli", "card", "physical", "games", "board", "connector", "ladder", "draw", "text",
            "texts", "prepress", "render", "output", "rules", "errors", "schema", "cardgen",
            "datafile", "interrupt"},
    "__main__": {"cli", "interrupt"},
    "cardgen": set(),
}
# Third-party libraries each part may import (the standard library is always allowed).
THIRD_PARTY = {
    "draw": {"PIL", "reportlab"},  # raster reading; reportlab's QR encoder
    "text": {"fontTools", "reportlab"},  # reportlab: a trial parse of a user's font
    "card": {"PIL"},  # the portraits' duotone
    "render": {"reportlab", "PIL", "svgwrite", "fontTools"},
    "cli": {"typer", "rich"},
}
HEAVY = {"reportlab", "PIL", "fontTools", "svgwrite"}

# The models: pure descriptions of cards, boards and games. They import nothing that
# draws, renders, imposes or talks to the user.
MODELS = {
    "cardgen.draw.geometry", "cardgen.board.cells", "cardgen.board.territory",
    "cardgen.board.frame", "cardgen.board.text", "cardgen.games.nodes.tables",
    "cardgen.games.nodes.model",
    "cardgen.physical.card", "cardgen.physical.links",
    "cardgen.games.rng", "cardgen.games.rotator.board", "cardgen.games.rotator.engine",
    "cardgen.games.rotator.solver", "cardgen.games.rotator.reference",
    "cardgen.games.rotator.generator", "cardgen.games.rotator.grading",
    "cardgen.games.rotator.describe", "cardgen.games.rotator.play",
    "cardgen.games.names", "cardgen.connector.model", "cardgen.ladder.cards", "cardgen.ladder.deck",
    "cardgen.ladder.attack", "cardgen.ladder.pyramid", "cardgen.rules.markup",
}
# What models may reach, directly or through each other.
MODEL_MAY_REACH = MODELS | {
    "cardgen", "cardgen.errors", "cardgen.units", "cardgen.resources", "cardgen.datafile",
    "cardgen.limits", "cardgen.chars",
    "cardgen.schema", "cardgen.draw", "cardgen.board", "cardgen.physical", "cardgen.games",
    "cardgen.games.nodes",
    "cardgen.games.rotator", "cardgen.connector", "cardgen.ladder", "cardgen.rules",
}
MODEL_FORBIDDEN = ("cardgen.render", "cardgen.prepress", "cardgen.cli")


@dataclass(frozen=True)
class Import:
    target: str  # a cardgen module, or a third-party/standard top-level name
    lazy: bool  # inside a function, or only for type checking: not run on import
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(name: str) -> str:
    """The cardgen module an imported name lives in (a module, or its package)."""
    known = modules()
    while name not in known:
        name = name.rsplit(".", 1)[0]
    return name


def _deferred(node: ast.AST) -> bool:
    """A function body, or an ``if TYPE_CHECKING:`` block: not run when importing."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return True
    return (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING")


def _walk(node: ast.AST, deferred: bool) -> Iterator[tuple[ast.AST, bool]]:
    for child in ast.iter_child_nodes(node):
        inner = deferred or _deferred(child)
        yield child, inner
        yield from _walk(child, inner)


@cache
def imports(name: str) -> tuple[Import, ...]:
    path = modules()[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node, lazy in _walk(tree, False):
        if isinstance(node, ast.Import):
            for alias in node.names:
                found.append((alias.name, lazy, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                pytest.fail(f"{name}: relative import on line {node.lineno}")
            base = node.module or ""
            if base == "cardgen" or base.startswith("cardgen."):
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    found.append((full if full in modules() else base, lazy, node.lineno))
            else:
                found.append((base, lazy, node.lineno))
    out = []
    for target, lazy, line in found:
        if target == "cardgen" or target.startswith("cardgen."):
            out.append(Import(_resolve(target), lazy, line))
        else:
            out.append(Import(target.split(".")[0], lazy, line))
    return tuple(out)


def part_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "cardgen"


def is_third_party(top: str) -> bool:
    return top not in sys.stdlib_module_names and top != "__future__"


def test_the_import_graph_covers_every_module():
    names = set(modules())
    assert {"cardgen.cli", "cardgen.render.base", "cardgen.games.rotator.solver",
            "cardgen.physical.card", "cardgen.prepress.impose"} <= names
    assert all(part_of(n) in MAY_IMPORT for n in names), sorted(
        n for n in names if part_of(n) not in MAY_IMPORT)


@pytest.mark.parametrize("name", sorted(modules()))
def test_each_module_imports_only_what_its_package_may(name):
    part = part_of(name)
    for imp in imports(name):
        if imp.target.startswith("cardgen"):
            target = part_of(imp.target)
            assert target == part or target in MAY_IMPORT[part], (
                f"{name} line {imp.line} imports {imp.target}: the {part} layer may import "
                f"only {sorted(MAY_IMPORT[part])}")
        elif is_third_party(imp.target):
            assert imp.target in THIRD_PARTY.get(part, set()), (
                f"{name} line {imp.line} imports {imp.target}")


def closure(start: str, *, lazy: bool = True) -> set[str]:
    """Every cardgen module and third-party library reachable from ``start``."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in modules():
            continue
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # parent packages
        todo += [imp.target for imp in imports(name) if lazy or not imp.lazy]
    return seen


@pytest.mark.parametrize("name", sorted(MODELS))
def test_models_never_reach_drawing_rendering_prepress_or_the_cli(name):
    reached = closure(name)
    cardgen = {m for m in reached if m.startswith("cardgen")}
    assert not [m for m in cardgen if m.startswith(MODEL_FORBIDDEN)], name
    assert cardgen <= MODEL_MAY_REACH, sorted(cardgen - MODEL_MAY_REACH)
    third = {m for m in reached if not m.startswith("cardgen") and is_third_party(m)}
    assert not third, f"{name} reaches {sorted(third)}"


def test_the_models_named_here_are_the_pure_ones():
    """Every module not listed as a model draws, prints or talks to the user: a module
    whose whole import closure is as pure as a model's should be listed."""
    for name in modules():
        if name in MODELS or name in MODEL_MAY_REACH:
            continue
        reached = {m for m in closure(name) if m.startswith("cardgen")}
        third = {m for m in closure(name) if not m.startswith("cardgen") and is_third_party(m)}
        assert third or not reached <= MODEL_MAY_REACH, f"{name} is pure: list it in MODELS"


def test_heavy_libraries_load_lazily():
    """Importing the command line (which is what ``cardgen --help`` does) reaches no
    heavy library through module-level imports."""
    reached = closure("cardgen.cli", lazy=False)
    assert not reached & HEAVY, sorted(reached & HEAVY)
    # ...while the commands themselves do reach them (the test is not vacuous).
    assert closure("cardgen.cli") & HEAVY == HEAVY


def test_no_import_cycles():
    graph = {name: {imp.target for imp in imports(name) if imp.target in modules()}
             for name in modules()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                cycles.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    assert not cycles, cycles


@pytest.mark.parametrize("name", sorted(n for n, p in modules().items()
                                        if p.name == "__init__.py" and n != "cardgen"))
def test_every_package_says_what_it_is_for_and_what_it_may_import(name):
    doc = ast.get_docstring(ast.parse(modules()[name].read_text(encoding="utf-8")))
    assert doc and len(doc) > 80, name
    if name.count(".") == 1:  # the top-level packages state their imports
        assert "import" in doc, name
