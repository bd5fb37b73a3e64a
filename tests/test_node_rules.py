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

# The figures drawn for these texts (cardgen.games.nodes.figures, and the card's two folds
# from cardgen.physical.figures), and where each goes.
FIGURES = {
    "reflector": ["card-folds", "reflector-two-cards", "reflector-three-cards", "territory",
                  "territory-overlap", "reflector-exchange", "reflector-concede"],
    "deflector": ["table-3", "table-4-full", "table-4-partial", "table-5-full",
                  "table-5-partial", "territory", "territory-overlap", "deflector-chain",
                  "deflector-fired"],
    "defector": ["defector-full", "defector-island", "territory", "territory-overlap"],
}
# The names the figure modules draw for the Node games: no others may be named.
NODE_FIGURES = frozenset({"card-folds", "territory", "territory-overlap", "reflector-two-cards",
                          "reflector-three-cards", "table-3", "table-4-full",
                          "table-4-partial", "table-5-full", "table-5-partial",
                          "defector-full", "defector-island", "reflector-exchange",
                          "reflector-concede", "deflector-chain", "deflector-fired"})

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
    ("reflector", "reflector-exchange", "A worked exchange"),
    ("reflector", "reflector-concede", "A worked exchange"),
    ("deflector", "deflector-chain", "A worked chain"),
    ("deflector", "deflector-fired", "A worked chain"),
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


# -- SPEC §9 (issue 21, point 8): facts the books state since they follow §9 ------------------

# game -> phrases its book must contain (its own words for a §9 rule, decision number noted)
SPEC9 = {
    "reflector": [
        "handed you spaces of their grid by reflection",  # first shot, decision 2
        "always goes to the capturer",  # §9.3.3.1, decision 3
        "even when it lies inside the diamond of another Node",
        "if the other Node is held by anyone but the capturer",  # decision 4
        "they answer Owned like any covered space",  # decision 5
        "kept spaces, which carry none, do not count",  # decision 6
        "Check for the end once the whole turn is over, reflection included",  # decision 24
    ],
    "deflector": [
        "always goes to the capturer",
        "even when it lies inside the diamond of another Node",
        "if the other Node is held by anyone but the capturer",
        "whoever held its spaces before, a third player included",  # decision 7
        "kept part included",  # decision 8
        "then each fires in turn, in reading order",  # decision 9
        "the owner of the first Deflector it hit",  # decision 14
        "You may still shoot kept spaces nobody has won there, and Nodes",  # decision 21
        "you have not yet shot at that grid, or you have no base left on it",  # decision 20
        "exactly two players are still in the game",  # decision 25
        "the first to get ahead",
        "have passed, one after another, since the last shot",  # decision 26
        "A second Deflector on the first grid",  # decision 29
        "A Deflector on any other grid is used up and stops the shot, which wins nothing",
        "if the shot has left the first grid and comes back",  # decision 31
        "a Deflector on the space you hand over does nothing",  # decision 19
        "when the shot landed on your own grid on its way",  # decision 17
        "Variants can be combined",
        "J1 against E1",  # §9.1.6: the five-player partial joins, square by square
        "A1 against F1",
    ],
    "defector": [
        "always goes to the capturer",
        "even when it lies inside the diamond of another Node",
        "if the other Node is held by anyone but the capturer",
        "keep the Public grids where they lie",  # decision 35, and the reason:
        "pushing grids together would tear up the Island layout",
        "an ally’s spaces are your bases",  # decision 36
        "A third player who joins an alliance of two joins the same Link group",  # decision 37
        "whoever that is (even an ally, by a deflection or a reflection)",  # decision 39
        "never again in one Link group",  # decision 40
        "when the turn of any member of your alliance begins",  # decision 41
        "Two alliances may merge",  # decision 42
        "the first turn that ends with a single leader",  # decision 46
        "every time a shot lands on your grid and you answer for it",  # decision 47
        "A second Deflector on the first grid",  # decision 29
        "works in Defector too",  # decision 52
        "Only the space you name must never be an ally’s",  # decision 54
    ],
}

# Wording §9 rules out (what the books said before).
NOT_SPEC9 = {
    "deflector": [
        # the end-of-game rule that held from the first turn (decision 25)
        "When every Node on the table is held by the players still in the game",
        # decision 21: only won spaces are barred, not every space
        "you may never take a space inside the territory of a Node you hold",
    ],
    "defector": [
        "if a player outside the alliance captures the Link Node",  # decision 39
        "at any point in your own turn you may leave",  # decision 41
        "at the end of each turn, every player whose grid was hit",  # decision 47
        "play on until one of them captures a Node from another",  # decision 46
    ],
}


@pytest.mark.parametrize(("game", "phrase"), [(g, p) for g in GAMES for p in SPEC9[g]])
def test_each_text_states_the_spec9_rules(game, phrase):
    assert phrase in " ".join(text(game).split())


@pytest.mark.parametrize(("game", "phrase"),
                         [(g, p) for g in NOT_SPEC9 for p in NOT_SPEC9[g]])
def test_no_text_keeps_a_rule_spec9_overturned(game, phrase):
    assert phrase.lower() not in " ".join(text(game).split()).lower()


@pytest.fixture(scope="module")
def books(produced) -> dict[str, str]:
    """The three printed rule books' text, read back from the PDFs, white space as one
    (the books made once a test run, shared with the other tests that read them)."""
    from pypdf import PdfReader

    found = {}
    for game in GAMES:
        reader = PdfReader(produced("rules", game) / f"rules-{game}.pdf")
        found[game] = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    return found


@pytest.mark.parametrize("game", GAMES)
def test_each_printed_book_says_who_holds_a_captured_node_inside_another_diamond(books, game):
    """SPEC §9.3.3.1: the capturer, said in the text and in the overlap figure's key."""
    book = books[game]
    assert "always goes to the capturer and gets their symbol" in book
    assert "E5: the capturer’s, though it lies in D4’s territory" in book
    assert "D4: revealed, not captured" in book


def test_the_printed_deflector_book_ends_by_two_left_not_at_the_first_capture(books):
    book = books["deflector"]
    assert "held by the players still in the game, the one holding the most Nodes" not in book
    assert ("exactly two players are still in the game and between them they hold all the "
            "Nodes on the table") in book
    assert "That is why the Node count decides the game only once two players are left" in book


def test_the_printed_defector_book_states_what_allies_share_and_why(books):
    book = books["defector"]
    assert "What allies share" in book
    assert "keep the Public grids where they lie" in book
    assert "would create joins between allies that neither may shoot across" in book
    assert "Deflectors spare friends" in book
    assert "at the end of each turn, every player whose grid was hit" not in book
