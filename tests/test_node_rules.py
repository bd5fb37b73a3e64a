"""The rules texts of the three Node games (templates/rules/reflector.md, deflector.md,
defector.md): each parses, names only the figures drawn for them and places each where
it belongs, states the game's key terms and numbers, and stands alone. (That no run of
seven words comes from a seed is checked for every rules text in test_rules_markup.)"""

from __future__ import annotations

from functools import cache

import pytest

from cardgen.rules.figures import figure_makers
from cardgen.rules.markup import (
    Block,
    FigureRef,
    Paragraph,
    Section,
    Span,
    Subsection,
    Table,
    Title,
    load,
)
from tests.helpers import ROOT

RULES = ROOT / "templates" / "rules"
GAMES = ("reflector", "deflector", "defector")

# The figures drawn for these texts (cardgen.rules.fig_nodes, and the card's two folds
# from cardgen.rules.fig_fold), and where each goes.
FIGURES = {
    "reflector": ["card-folds", "reflector-two-cards", "reflector-three-cards", "territory",
                  "territory-overlap"],
    "deflector": ["table-3", "table-4-full", "table-4-partial", "table-5-full",
                  "table-5-partial", "territory", "territory-overlap"],
    "defector": ["defector-full", "defector-island", "territory", "territory-overlap"],
}
# The names the figure modules draw for the Node games: no others may be named.
NODE_FIGURES = frozenset({"card-folds", "territory", "territory-overlap", "reflector-two-cards",
                          "reflector-three-cards", "table-3", "table-4-full",
                          "table-4-partial", "table-5-full", "table-5-partial",
                          "defector-full", "defector-island"})

# Words a player must meet in each text: the game's terms, marks and numbers.
TERMS = {
    "reflector": ["Private grid", "Public grid", "Control Node", "territory", "13 spaces",
                  "Shooter", "Target", "Null", "Owned", "Node", "Row 1", "dot", "symbol",
                  "Reflection", "shades", "overlap", "coin", "True Draw",
                  "cardgen playsheet reflector", "pencil", "eraser", "Option A", "Option B",
                  "three cards", "corner"],
    "deflector": ["Private grid", "Public grid", "Control Node", "territory", "13 spaces",
                  "Shooter", "Target", "Null", "Owned", "Node", "Deflector", "slash (/)",
                  "Twenty Deflectors", "youngest", "clockwise", "directly across",
                  "Back to the Shooter", "captured territory", "Full access",
                  "Partial access", "Column A", "Column J", "Row 1", "home grid",
                  "Ricochet", "Reflector-Deflector", "cardgen playsheet deflector",
                  "last player"],
    "defector": ["Private grid", "Public grid", "Control Node", "territory", "13 spaces",
                 "Shooter", "Target", "Null", "Owned", "Node", "Deflector", "slash (/)",
                 "Twenty Deflectors", "youngest", "clockwise", "Reflection", "Full access",
                 "Island", "alliance", "Link Node", "plus sign (+)", "Master Node",
                 "triangle", "Deserter", "Defector", "No way back", "More than half",
                 "The Business Card Deluxe Collection", "Rotator-Reflector-Deflector-Defector",
                 "quarter turn clockwise", "Safety Among Friends", "cardgen playsheet defector",
                 "home grid"],
}

# Sections each text must have (a booklet's table of contents shows them).
SECTIONS = {
    "reflector": ["What you need", "Setting up", "Taking turns", "Winning"],
    "deflector": ["What you need", "Setting up the table", "Placing Nodes and Deflectors",
                  "Taking turns", "Where you may shoot", "Winning", "Variants"],
    "defector": ["What you need", "Setting up the table", "Placing Nodes and Deflectors",
                 "Taking turns", "Where you may shoot", "Alliances", "Winning", "Variants"],
}


@cache
def blocks(game: str) -> tuple[Block, ...]:
    return load(RULES / f"{game}.md")


def text(game: str) -> str:
    """Everything a reader sees: headings, paragraphs, items, captions and cells."""
    parts: list[str] = []
    for block in blocks(game):
        if isinstance(block, Title | Section | Subsection):
            parts.append(block.text)
        elif isinstance(block, FigureRef):
            parts.append("".join(s.text for s in block.caption))
        elif isinstance(block, Table):
            for row in (block.header, *block.rows):
                parts.extend("".join(s.text for s in cell) for cell in row)
        else:
            parts.append(block.text)
    return "\n".join(parts)


def cells(spans_row: tuple[tuple[Span, ...], ...]) -> list[str]:
    return ["".join(s.text for s in cell) for cell in spans_row]


@pytest.mark.parametrize("game", GAMES)
def test_each_text_parses_with_its_title_first(game):
    assert blocks(game)[0] == Title(game.capitalize(), 1)


@pytest.mark.parametrize("game", GAMES)
def test_each_text_places_exactly_its_figures_once_with_a_caption(game):
    figures = [b for b in blocks(game) if isinstance(b, FigureRef)]
    assert sorted(f.name for f in figures) == sorted(FIGURES[game])
    assert all(f.caption for f in figures)


def test_only_figures_drawn_for_the_node_games_are_named_and_every_one_is():
    named = {b.name for game in GAMES for b in blocks(game) if isinstance(b, FigureRef)}
    assert named == NODE_FIGURES
    assert named <= set(figure_makers())


# game -> (figure, the subsection or section it sits in)
PLACES = [
    ("reflector", "card-folds", "Folding the card"),
    ("reflector", "reflector-two-cards", "With two cards"),
    ("reflector", "reflector-three-cards", "With three cards"),
    ("reflector", "territory", "Placing your Control Nodes"),
    ("reflector", "territory-overlap", "Overlapping territory"),
    ("deflector", "table-3", "Three players"),
    ("deflector", "table-4-full", "Four players"),
    ("deflector", "table-4-partial", "Four players"),
    ("deflector", "table-5-full", "Five players"),
    ("deflector", "table-5-partial", "Five players"),
    ("deflector", "territory", "Placing Nodes and Deflectors"),
    ("deflector", "territory-overlap", "Overlapping territory"),
    ("defector", "defector-full", "Full access"),
    ("defector", "defector-island", "The Island"),
    ("defector", "territory", "Placing Nodes and Deflectors"),
    ("defector", "territory-overlap", "Overlapping territory"),
]


@pytest.mark.parametrize(("game", "figure", "heading"), PLACES)
def test_each_figure_sits_where_the_text_explains_it(game, figure, heading):
    current = None
    for block in blocks(game):
        if isinstance(block, Section | Subsection):
            current = block.text
        elif isinstance(block, FigureRef) and block.name == figure:
            assert current == heading
            return
    pytest.fail(f"{figure} is not in {game}.md")


@pytest.mark.parametrize(("game", "term"), [(g, t) for g in GAMES for t in TERMS[g]])
def test_each_text_states_its_key_terms(game, term):
    assert term in text(game)


@pytest.mark.parametrize("game", GAMES)
def test_each_text_has_its_sections(game):
    sections = [b.text for b in blocks(game) if isinstance(b, Section)]
    assert [s for s in sections if s in SECTIONS[game]] == SECTIONS[game]
    assert all(len(s) <= 28 for s in sections), "section titles go into the contents"


def test_deflector_names_the_nodes_that_win_for_each_player_count():
    tables = [b for b in blocks("deflector") if isinstance(b, Table)]
    assert len(tables) == 1
    assert cells(tables[0].header) == ["Players", "Nodes to win"]
    assert [cells(row) for row in tables[0].rows] == [["3", "10"], ["4", "13"], ["5", "15"]]


def test_defector_counts_more_than_half_of_the_nodes_right():
    for players, needed in [(6, 16), (7, 18), (8, 21)]:
        assert needed == 5 * players // 2 + 1
        assert f"{needed} of {5 * players}" in text("defector")


@pytest.mark.parametrize("game", GAMES)
def test_each_text_stands_alone(game):
    """Another game may be named (a variant, a comparison) but never leaned on."""
    body = text(game)
    for other in ("as in Reflector", "as in Deflector", "see Reflector", "see Deflector",
                  "like Reflector", "like Deflector"):
        assert other not in body
    assert "  " not in body, "a double space would be set as a wide gap"
    # Every game restates the Node rules in full.
    assert "at most two steps up, down, left or right" in body


@pytest.mark.parametrize("game", GAMES)
def test_no_paragraph_is_a_wall(game):
    """Long rules read better in short paragraphs (~90 words at most)."""
    paragraphs = [b for b in blocks(game) if isinstance(b, Paragraph)]
    assert max(len(p.text.split()) for p in paragraphs) <= 90
