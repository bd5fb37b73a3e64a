"""Each drawing word is defined once (issue 23, point 6): one ``circle``, one of each
ink, one style class per name, one ``Paper``, one did-you-mean. Two modules defining the
same module-level name for different things (or, worse, for the same thing twice) is
how a path that never closes or a black that does not overprint slips in.

The names are read with an AST walk over every module of ``cardgen/``: module-level
functions, classes and assignments (imports are uses, not definitions).
"""

from __future__ import annotations

import ast
import difflib
import re
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.schema import nearest
from tests.helpers import ROOT, examples, syntax_nodes, syntax_tree

PACKAGE = ROOT / "cardgen"

# The drawing vocabulary: each of these names is defined in one module at most.
DRAWING_WORDS = (
    "circle", "polygon", "pointer", "rounded_rect",  # shapes (draw/shapes.py)
    "INK", "KNOCKOUT_INK", "PAPER_WHITE", "SCREEN_INK",  # inks (draw/colors.py; picture)
    "FigureStyle", "RotatorFigureStyle", "ConnectorFigureStyle",
    "Paper", "Coating",  # the paper's size (prepress/paper.py), its kind (intents.py)
    "nearest", "closest",  # did-you-mean (schema.py)
    "board_items", "card_board_items", "board_layers",  # Rotator boards
    "BookStyle", "page_size",
)
# Every name of this vocabulary's kinds: shapes, inks and paper colours, style classes,
# paper, suggestions, boards.
VOCABULARY = re.compile(
    r"^(circle|disc|ring|polygon|pointer|rounded_rect)$"
    r"|(^|_)(INK|BLACK|WHITE|PAPER)(_|$)"
    r"|Style$|^Paper$|^Coating$|^page_size$"
    r"|closest|nearest|did_you_mean|close_match"
    r"|board_items|board_layers")
# Those defined twice on purpose: none.
KNOWN_TWICE: set[str] = set()


def definitions() -> dict[str, list[str]]:
    """Every module-level name defined in cardgen, with the modules that define it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(PACKAGE.rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for node in syntax_tree(path).body:
            for name in _defined(node):
                if module not in found[name]:
                    found[name].append(module)
    return dict(found)


def _defined(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [n.id for target in node.targets for n in ast.walk(target)
                if isinstance(n, ast.Name)]
    if isinstance(node, ast.AnnAssign | ast.AugAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


DEFINED = definitions()


@pytest.mark.parametrize("word", DRAWING_WORDS)
def test_each_drawing_word_is_defined_once(word):
    modules = DEFINED.get(word, [])
    assert len(modules) <= 1, f"{word} is defined in {modules}: define it once and import it"


def test_the_shared_words_live_where_they_are_shared():
    assert DEFINED["circle"] == ["cardgen.draw.shapes"]
    assert DEFINED["INK"] == DEFINED["KNOCKOUT_INK"] == DEFINED["PAPER_WHITE"] == [
        "cardgen.draw.colors"]
    assert DEFINED["nearest"] == DEFINED["closest"] == ["cardgen.schema"]
    assert DEFINED["Paper"] == ["cardgen.prepress.paper"]


def test_no_name_of_the_vocabulary_is_defined_in_two_modules():
    """Every module-level name of cardgen defined in more than one module, among the
    names of the drawing vocabulary's kinds (shapes, inks, styles, paper, suggestions,
    boards), is listed here: the list must be empty."""
    twice = {name: modules for name, modules in sorted(DEFINED.items())
             if len(modules) > 1 and VOCABULARY.search(name)
             and name not in KNOWN_TWICE}
    assert not twice, f"defined in more than one module: {twice}"


def test_the_inks_keep_their_overprint():
    """The ink names say what they do: INK overprints, KNOCKOUT_INK does not, both solid
    black; the paper white has no ink."""
    from cardgen.draw.colors import INK, KNOCKOUT_INK, PAPER_WHITE

    assert INK.overprint and not KNOCKOUT_INK.overprint
    assert INK.cmyk_fractions == KNOCKOUT_INK.cmyk_fractions == (0, 0, 0, 1)
    assert PAPER_WHITE.cmyk_fractions == (0, 0, 0, 0) and not PAPER_WHITE.overprint


def test_circle_is_closed():
    from cardgen.draw.page import CLOSE
    from cardgen.draw.shapes import circle

    assert circle(0, 0, 1)[-1] is CLOSE


OPTION = st.text("abcdeé-_", min_size=1, max_size=29)


@settings(derandomize=True, deadline=None, max_examples=examples(300))
@given(st.lists(OPTION, min_size=1, max_size=6), st.text("abcdeé-_", max_size=90))
def test_nearest_drops_no_match_difflib_would_make(options, word):
    """``nearest`` compares no word far longer than every option; with options under 30
    characters that never loses a suggestion (so the callers that used difflib directly,
    with or without their own length limits, suggest what they did)."""
    match = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    assert nearest(word, options) == (match[0] if match else None)


def test_only_schema_suggests():
    """Every "did you mean" goes through :func:`cardgen.schema.nearest`: no other module
    imports difflib."""
    users = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in PACKAGE.rglob("*.py")
        for node in syntax_nodes(path)
        if (isinstance(node, ast.Import) and any(a.name == "difflib" for a in node.names))
        or (isinstance(node, ast.ImportFrom) and node.module == "difflib"))
    assert users == ["cardgen.schema"]
