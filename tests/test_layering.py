"""The package layering, read from the source, stated once and checked: what each part
may import (exactly), the levels no part may break (a game never imports another game or
a product, a product never another product), that the models stay pure, that heavy
libraries load lazily, and that there are no import cycles; and that every package's
docstring and the guide's layer table say what ``MAY_IMPORT`` says.

Imports are collected statically (every ``import`` statement in every module, wherever
it is: at module level, inside functions, or under ``if TYPE_CHECKING``, and every
string that names a cardgen module, as ``importlib`` would load it), so a rule cannot be
dodged by importing late or by name.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from tests.helpers import ROOT, syntax_tree

PACKAGE = ROOT / "cardgen"

# The parts of cardgen: each top-level package or module, and the games' sub-packages,
# which are layers of their own: the games' core (``games``: the interface, the names,
# the seeded random numbers), each game (``games.rotator``, ``games.nodes``) and the
# registry that lists them (``games.registry``). A module belongs to the longest part
# its name starts with.
#
# MAY_IMPORT says which other parts each part imports from cardgen, exactly: a part never
# imports one that is not listed, and imports from every one that is (so the statement
# cannot outlive the code). Each package's docstring says the same in its "May import:"
# paragraph, and the guide's layer table in its "may import" column; the tests below
# hold all three to this. ``cardgen`` is the root package: the library's names, loaded
# from ``api`` when asked for, and the version (``version``).
MAY_IMPORT: dict[str, set[str]] = {
    "cardgen": {"version", "api"},
    "version": set(),
    "__main__": {"cli", "interrupt"},
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
    "draw": {"errors", "units", "datafile"},
    "text": {"draw", "errors", "resources", "units", "datafile", "limits", "chars"},
    "board": {"draw", "text", "errors", "units"},
    "physical": {"board", "draw", "text", "texts", "errors", "units"},
    "prepress": {"version", "draw", "text", "texts", "errors", "datafile", "schema",
                 "resources", "units"},
    "render": {"version", "draw", "text", "units", "errors"},
    "games": {"draw", "text", "prepress", "errors"},
    "games.rotator": {"games", "board", "physical", "draw", "text", "texts", "datafile",
                      "schema", "errors", "chars", "units"},
    "games.nodes": {"games", "board", "physical", "draw", "text", "texts", "prepress",
                    "datafile", "schema", "errors", "resources", "units"},
    "games.registry": {"games", "games.rotator", "games.nodes", "schema", "errors"},
    "connector": {"games", "physical", "draw", "text", "texts", "prepress", "render",
                  "output", "datafile", "schema", "errors", "resources", "units"},
    "ladder": {"physical", "draw", "text", "texts", "prepress", "datafile", "schema",
               "resources", "errors", "units"},
    "card": {"version", "connector", "ladder", "physical", "board", "draw", "text", "texts",
             "prepress", "datafile", "schema", "errors", "resources", "units", "chars"},
    "rules": {"games", "games.registry", "connector", "ladder", "physical",
              "draw", "text", "texts", "prepress", "datafile", "schema", "resources",
              "errors", "units"},
    "cli": {"version", "api", "studio", "errors", "interrupt"},
    "studio": {"api", "errors"},
    "api": {"version", "card", "rules", "connector", "ladder", "games", "games.registry",
            "games.nodes", "games.rotator", "physical", "board", "draw", "text", "texts",
            "prepress", "render", "output", "datafile", "schema", "errors"},
}
# Third-party libraries each part imports (the standard library is always allowed),
# exactly, as each package's docstring names them too.
THIRD_PARTY: dict[str, set[str]] = {
    "draw": {"PIL"},  # raster reading
    "text": {"fontTools", "reportlab"},  # reportlab: a trial parse of a user's font
    "card": {"PIL"},  # the portraits' duotone
    "datafile": {"python_calamine"},  # spreadsheets (.xlsx, .ods), loaded only to read one
    "render": {"reportlab", "PIL", "svgwrite", "fontTools"},
    "cli": {"typer", "rich"},
    "api": {"watchfiles"},  # api.watch: a card's files, as they are saved
}
HEAVY = {"reportlab", "PIL", "fontTools", "svgwrite"}

# The levels of the house, lowest first. A part imports only parts of lower levels, and
# parts of its own level only where the level is shared. The foundations are shared
# (their order among themselves is MAY_IMPORT's); the games never import each other
# (they share what they have in common through the games' core); the products never
# import each other; the command line, on top, puts the products together. So no product
# reaches into another product's modules, and no game into another game's.
LEVELS: tuple[tuple[str, frozenset[str], bool], ...] = (
    ("a foundation", frozenset({
        "version", "errors", "units", "resources", "datafile", "limits", "chars", "schema",
        "texts", "interrupt", "output", "draw", "text", "board", "physical", "prepress",
        "render"}), True),
    ("the games' core", frozenset({"games"}), False),
    ("a game", frozenset({"games.rotator", "games.nodes", "connector", "ladder"}), False),
    ("the registry", frozenset({"games.registry"}), False),
    ("a product", frozenset({"card", "rules"}), False),
    ("the library API", frozenset({"api"}), False),
    ("the studio", frozenset({"studio"}), False),
    ("a face: the command line or the package root", frozenset({"cli", "__main__", "cardgen"}),
     True),
)

# The models: pure descriptions of cards, boards and games. They import nothing that
# draws, renders, imposes or talks to the user.
MODELS = {
    "cardgen.draw.geometry", "cardgen.board.cells", "cardgen.board.territory",
    "cardgen.board.frame", "cardgen.board.text", "cardgen.games.nodes.tables",
    "cardgen.games.nodes.model", "cardgen.games.nodes.record",
    "cardgen.games.nodes.joins", "cardgen.games.nodes.alliance",
    "cardgen.games.nodes.state", "cardgen.games.nodes.turn", "cardgen.games.nodes.engine",
    "cardgen.games.nodes.deal", "cardgen.games.nodes.knowledge",
    "cardgen.games.nodes.recordfile",
    "cardgen.games.nodes.computer", "cardgen.games.nodes.reference",
    "cardgen.physical.card", "cardgen.physical.links",
    "cardgen.games.rng", "cardgen.games.rotator.board", "cardgen.games.rotator.engine",
    "cardgen.games.rotator.solver", "cardgen.games.rotator.reference",
    "cardgen.games.rotator.generator", "cardgen.games.rotator.grading",
    "cardgen.games.rotator.fastgrade",
    "cardgen.games.rotator.describe", "cardgen.games.rotator.play",
    "cardgen.games.rotator.workers",
    "cardgen.games.names", "cardgen.connector.model", "cardgen.ladder.cards", "cardgen.ladder.deck",
    "cardgen.ladder.attack", "cardgen.ladder.pyramid", "cardgen.rules.markup",
}
# What models may reach, directly or through each other.
MODEL_MAY_REACH = MODELS | {
    "cardgen", "cardgen.version", "cardgen.errors", "cardgen.units", "cardgen.resources",
    "cardgen.datafile",
    "cardgen.limits", "cardgen.chars",
    "cardgen.schema", "cardgen.draw", "cardgen.board", "cardgen.physical", "cardgen.games",
    "cardgen.games.nodes",
    "cardgen.games.rotator", "cardgen.connector", "cardgen.ladder", "cardgen.rules",
}
MODEL_FORBIDDEN = ("cardgen.render", "cardgen.prepress", "cardgen.cli")
# The one library a model may reach: the spreadsheet reader behind cardgen.datafile (it
# reads a table's cells; it draws, renders and says nothing), loaded only to read one.
MODEL_MAY_REACH_LIBRARIES = {"python_calamine"}


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
    tree = syntax_tree(path)
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
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and node.value.startswith("cardgen.") and node.value in modules()):
            # A module named in a string is imported by name (importlib): it counts,
            # as if imported inside a function, so no rule is dodged that way.
            found.append((node.value, True, node.lineno))
    out = []
    for target, lazy, line in found:
        if target == "cardgen" or target.startswith("cardgen."):
            out.append(Import(_resolve(target), lazy, line))
        else:
            out.append(Import(target.split(".")[0], lazy, line))
    return tuple(out)


def part_of(name: str) -> str:
    """The part of cardgen a module belongs to: the longest part its name starts with
    (``cardgen.games.rotator.board`` is in ``games.rotator``)."""
    if name == "cardgen":
        return "cardgen"
    parts = name.removeprefix("cardgen.").split(".")
    for i in range(len(parts), 0, -1):
        if ".".join(parts[:i]) in MAY_IMPORT:
            return ".".join(parts[:i])
    return parts[0]


def part_module(part: str) -> str:
    """The module (or package) a part is."""
    return "cardgen" if part == "cardgen" else f"cardgen.{part}"


def stated_in(part: str) -> str:
    """Where a part's imports are stated besides MAY_IMPORT, for failure messages."""
    if modules()[part_module(part)].name == "__init__.py":
        return f"to {part}'s docstring ('May import:') and the guide's layer table"
    return "the guide's layer table"


def level_of(part: str) -> int:
    return next(i for i, (_, parts, _) in enumerate(LEVELS) if part in parts)


@cache
def imported_parts() -> dict[str, dict[str, list[str]]]:
    """For each part, the other parts it imports, each with the imports that do it
    (``module line N``)."""
    used: dict[str, dict[str, list[str]]] = {part: {} for part in MAY_IMPORT}
    for name in modules():
        part = part_of(name)
        for imp in imports(name):
            if imp.target.startswith("cardgen") and part_of(imp.target) != part:
                used[part].setdefault(part_of(imp.target), []).append(
                    f"{name} line {imp.line}")
    return used


@cache
def imported_libraries() -> dict[str, dict[str, list[str]]]:
    used: dict[str, dict[str, list[str]]] = {part: {} for part in MAY_IMPORT}
    for name in modules():
        for imp in imports(name):
            if not imp.target.startswith("cardgen") and is_third_party(imp.target):
                used[part_of(name)].setdefault(imp.target, []).append(
                    f"{name} line {imp.line}")
    return used


def is_third_party(top: str) -> bool:
    return top not in sys.stdlib_module_names and top != "__future__"


def test_the_import_graph_covers_every_module():
    names = set(modules())
    assert {"cardgen.cli", "cardgen.render.base", "cardgen.games.rotator.solver",
            "cardgen.physical.card", "cardgen.prepress.impose"} <= names
    assert all(part_of(n) in MAY_IMPORT for n in names), sorted(
        n for n in names if part_of(n) not in MAY_IMPORT)


@pytest.mark.parametrize("name", sorted(modules()))
def test_each_module_imports_only_what_its_part_may(name):
    part = part_of(name)
    for imp in imports(name):
        if imp.target.startswith("cardgen"):
            target = part_of(imp.target)
            assert target == part or target in MAY_IMPORT[part], (
                f"{name} line {imp.line} imports {imp.target}, and {part} may import only "
                f"{sorted(MAY_IMPORT[part])}: drop the import, or add {target!r} to "
                f"MAY_IMPORT[{part!r}] (if LEVELS allow it) and {stated_in(part)}")
        elif is_third_party(imp.target):
            assert imp.target in THIRD_PARTY.get(part, set()), (
                f"{name} line {imp.line} imports {imp.target}: drop it, or add it to "
                f"THIRD_PARTY[{part!r}] and to {part}'s docstring")


@pytest.mark.parametrize("part", sorted(MAY_IMPORT))
def test_each_part_imports_everything_it_is_said_to(part):
    """The statement is exact: a part that no longer imports a part it may import says
    so, or the docstrings and the guide go on claiming a dependency that is gone."""
    unused = MAY_IMPORT[part] - set(imported_parts()[part])
    assert not unused, (
        f"nothing in {part} imports {sorted(unused)} any more: remove "
        f"{' and '.join(repr(u) for u in sorted(unused))} from MAY_IMPORT[{part!r}] and "
        f"from {stated_in(part).removeprefix('to ')}")
    libraries = THIRD_PARTY.get(part, set()) - set(imported_libraries()[part])
    assert not libraries, (
        f"nothing in {part} imports {sorted(libraries)} any more: remove them from "
        f"THIRD_PARTY[{part!r}] and from {part}'s docstring")


def test_the_levels_hold_every_part_once():
    placed = [part for _, parts, _ in LEVELS for part in parts]
    assert sorted(placed) == sorted(MAY_IMPORT), (
        sorted(set(MAY_IMPORT) - set(placed)), sorted(set(placed) - set(MAY_IMPORT)))


@pytest.mark.parametrize("part", sorted(MAY_IMPORT))
def test_no_part_imports_a_higher_level_nor_a_product_another_product(part):
    """No exceptions: a foundation imports no game and no product, a game no other game
    (only the games' core) and no product, a product no other product."""
    mine = level_of(part)
    word, _, shared = LEVELS[mine]
    for target in sorted(MAY_IMPORT[part]):
        theirs = level_of(target)
        assert theirs < mine or (theirs == mine and shared), (
            f"{part} is {word} and may not import {target}, {LEVELS[theirs][0]}: move what "
            "they share down a level")


def test_no_game_and_no_other_product_imports_the_card():
    """The physical card is ``physical``, below every game and product: nothing under
    ``connector/``, ``games/`` or ``rules/`` imports ``cardgen.card``."""
    offenders = [f"{name} line {imp.line}" for name in modules()
                 if name.startswith(("cardgen.connector", "cardgen.games", "cardgen.rules"))
                 for imp in imports(name) if part_of(imp.target) == "card"]
    assert not offenders, offenders


def test_the_parts_form_layers_without_cycles():
    """Read as a graph of parts, MAY_IMPORT has no cycle (a stricter rule than the
    modules' own graph below): every part can be built on the ones it imports."""
    done: set[str] = set()

    def visit(part: str, path: tuple[str, ...]) -> None:
        assert part not in path, " -> ".join((*path, part))
        if part in done:
            return
        for target in sorted(MAY_IMPORT[part]):
            visit(target, (*path, part))
        done.add(part)

    for part in sorted(MAY_IMPORT):
        visit(part, ())


def closure(start: str, *, lazy: bool = True) -> set[str]:
    """Every cardgen module and third-party library reachable from ``start``. Importing a
    module runs its parent packages' module-level code too, but not their functions: a
    parent's lazy imports (the root's names, loaded from the library when asked for) are
    followed only where the parent is itself imported."""
    seen: set[str] = set()
    parents_run: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name not in modules():
            continue
        parts = name.split(".")
        for parent in (".".join(parts[:i]) for i in range(1, len(parts))):
            if parent not in parents_run:
                parents_run.add(parent)
                todo += [imp.target for imp in imports(parent) if not imp.lazy]
        todo += [imp.target for imp in imports(name) if lazy or not imp.lazy]
    return seen | parents_run


@pytest.mark.parametrize("name", sorted(MODELS))
def test_models_never_reach_drawing_rendering_prepress_or_the_cli(name):
    reached = closure(name)
    cardgen = {m for m in reached if m.startswith("cardgen")}
    assert not [m for m in cardgen if m.startswith(MODEL_FORBIDDEN)], name
    assert cardgen <= MODEL_MAY_REACH, sorted(cardgen - MODEL_MAY_REACH)
    third = {m for m in reached if not m.startswith("cardgen") and is_third_party(m)}
    assert not third - MODEL_MAY_REACH_LIBRARIES, f"{name} reaches {sorted(third)}"


def test_the_models_named_here_are_the_pure_ones():
    """Every module not listed as a model draws, prints or talks to the user: a module
    whose whole import closure is as pure as a model's should be listed."""
    for name in modules():
        if name in MODELS or name in MODEL_MAY_REACH:
            continue
        reached = {m for m in closure(name) if m.startswith("cardgen")}
        third = {m for m in closure(name) if not m.startswith("cardgen") and is_third_party(m)
                 } - MODEL_MAY_REACH_LIBRARIES
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


MAY_IMPORT_LEAD = "May import:"


def stated_imports(text: str, part: str) -> tuple[set[str], set[str]] | None:
    """The parts and libraries named in the paragraph of ``text`` that starts with "May
    import:": every ````cardgen.X```` names the part ``X`` is in (its own modules aside),
    every other name in double backquotes a third-party library (by its import name,
    ````PIL````). None when there is no such paragraph."""
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text)]
    found = [p for p in paragraphs if p.startswith(MAY_IMPORT_LEAD)]
    if len(found) != 1:
        return None
    names = re.findall(r"``([^`]+)``", found[0])
    parts = {part_of(n) for n in names if n == "cardgen" or n.startswith("cardgen.")} - {part}
    libraries = {n for n in names if n != "cardgen" and not n.startswith("cardgen.")}
    return parts, libraries


def docstring(part: str) -> str:
    path = modules()[part_module(part)]
    return ast.get_docstring(syntax_tree(path)) or ""


PACKAGES = sorted(part for part in MAY_IMPORT if modules()[part_module(part)].name == "__init__.py")


def test_every_package_is_a_part_of_its_own():
    packages = {n for n, p in modules().items() if p.name == "__init__.py"}
    new = sorted(packages - {part_module(part) for part in PACKAGES})
    assert not new, (f"{new}: give each new package a row in MAY_IMPORT and a place in "
                     "LEVELS, a 'May import:' paragraph in its docstring and a row in README's "
                     "development table")


@pytest.mark.parametrize("part", PACKAGES)
def test_every_package_docstring_names_exactly_what_it_may_import(part):
    doc = docstring(part)
    assert len(doc) > 80, f"{part}'s docstring should say what the package is for"
    stated = stated_imports(doc, part)
    assert stated is not None, (
        f"{part}'s docstring needs one paragraph starting {MAY_IMPORT_LEAD!r} naming "
        f"{', '.join(f'``{part_module(p)}``' for p in sorted(MAY_IMPORT[part])) or 'nothing'}")
    parts, libraries = stated
    missing, extra = MAY_IMPORT[part] - parts, parts - MAY_IMPORT[part]
    assert not missing, (f"{part}'s docstring: add "
                         f"{', '.join(f'``{part_module(p)}``' for p in sorted(missing))} "
                         f"to its {MAY_IMPORT_LEAD!r} paragraph")
    assert not extra, (f"{part}'s docstring: remove "
                       f"{', '.join(f'``{part_module(p)}``' for p in sorted(extra))} from "
                       f"its {MAY_IMPORT_LEAD!r} paragraph (MAY_IMPORT[{part!r}] does not "
                       "list it)")
    allowed = THIRD_PARTY.get(part, set())
    assert allowed <= libraries, (
        f"{part}'s docstring: add {', '.join(f'``{n}``' for n in sorted(allowed - libraries))}"
        f" to its {MAY_IMPORT_LEAD!r} paragraph (third-party libraries by import name)")
    assert libraries <= allowed, (
        f"{part}'s docstring: remove "
        f"{', '.join(f'``{n}``' for n in sorted(libraries - allowed))} from its "
        f"{MAY_IMPORT_LEAD!r} paragraph (THIRD_PARTY[{part!r}] does not list it; name only "
        "cardgen modules and third-party libraries there, in double backquotes)")


def readme_rows() -> dict[str, set[str]]:
    """the guide's layer table: for each part in its "where" column, the parts its
    "may import" column names (in backquotes; "nothing" for none)."""
    lines = (ROOT / "docs" / "development.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| where | what | may import |") + 2
    rows: dict[str, set[str]] = {}
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        where, may = cells[0], cells[-1]
        paths = re.findall(r"`([^`]+)`", where)
        if not paths or not paths[0].startswith("cardgen/"):
            continue  # templates/, tests/
        folder = paths[0].rsplit("/", 1)[0] if not paths[0].endswith("/") else None
        for path in paths:
            if folder is not None and not path.startswith("cardgen/"):
                path = f"{folder}/{path}"
            name = ".".join(Path(path.rstrip("/")).with_suffix("").parts)
            name = name.removesuffix(".__init__")
            assert name in modules() and part_module(part_of(name)) == name, (
                f"the guide's layer table: {path} is not a part of test_layering's "
                "MAY_IMPORT")
            assert part_of(name) not in rows, f"the guide's layer table: {path} twice"
            rows[part_of(name)] = set(re.findall(r"`([^`]+)`", may))
    return rows


def test_the_readme_table_states_what_each_part_may_import():
    rows = readme_rows()
    assert set(rows) == set(MAY_IMPORT), (
        "the guide's layer table: add a row for "
        f"{sorted(set(MAY_IMPORT) - set(rows))}, remove {sorted(set(rows) - set(MAY_IMPORT))}")
    for part, named in sorted(rows.items()):
        want = MAY_IMPORT[part]
        assert named == want, (
            f"the guide's layer table, row of {part}: add {sorted(want - named)}, remove "
            f"{sorted(named - want)} in its \"may import\" column (write \"nothing\" for none)")


# What the command line may reach: the library, the errors it catches and words, the
# handling of signals, the version; and the studio (``cardgen studio``), itself a face
# over the library that reaches cardgen only through it (MAY_IMPORT["studio"]); nothing
# else of cardgen.
THROUGH_THE_LIBRARY = ("cardgen.api", "cardgen.errors", "cardgen.interrupt", "cardgen.version",
                       "cardgen.studio", "cardgen.cli")


@pytest.mark.parametrize("name", sorted(n for n in modules() if n.startswith("cardgen.cli")))
def test_every_command_reaches_cardgen_only_through_the_library(name):
    """The command line is a layer over the library: each of its modules imports from
    cardgen only ``cardgen.api`` (and its modules), the errors, the signal handling, the
    version and the command line's own modules, wherever the import is (a function, a
    type-checking block, a string), so that everything a command does a program can do
    with ``import cardgen``."""
    outside = [f"line {imp.line}: {imp.target}" for imp in imports(name)
               if imp.target.startswith("cardgen")
               and not imp.target.startswith(tuple(f"{p}." for p in THROUGH_THE_LIBRARY))
               and imp.target not in THROUGH_THE_LIBRARY]
    assert not outside, (f"{name} reaches past the library: {outside}; give the library a "
                         "function for it (cardgen/api/) and call that")
    assert MAY_IMPORT["cli"] <= {"version", "api", "studio", "errors", "interrupt"}
    assert MAY_IMPORT["studio"] <= {"api", "errors"}
