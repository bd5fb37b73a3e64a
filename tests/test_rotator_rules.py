"""The Rotator rules: the text says every rule of SPEC §5; the worked game is the
generator's board played by the solver's line through the rules engine, and every mark
drawn on it is what the engine reported; the figures and the one-page sheet keep the ink
rule; ``rotator generate`` puts the sheet before the boards unless told not to."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from cardgen.draw.geometry import Box
from cardgen.draw.page import Group, Item, Page, Text, page_texts, walk
from cardgen.errors import FitError
from cardgen.games.names import GameName
from cardgen.games.rotator import figures as fig_rotator
from cardgen.games.rotator.engine import (
    Terrain,
    gravity,
    play_turn,
    start_state,
)
from cardgen.games.rotator.figures import (
    EXAMPLE_SEED,
    FIGURES,
    MarkKind,
    example,
    mark_name,
    panels,
)
from cardgen.games.rotator.generator import generate
from cardgen.prepress.ink import page_ink_problems
from cardgen.prepress.paper import Paper
from cardgen.render.pdf import render_pdf
from cardgen.rules.figures import figure_makers
from cardgen.rules.markup import FigureRef, Section, Title, load
from cardgen.rules.rotator import rules_document
from cardgen.text.fonts import bundled_fonts
from tests.helpers import ROOT, cli, error_line, ok

FONTS = bundled_fonts()
RULES = ROOT / "templates" / "rules" / "rotator.md"


def plain(text: str) -> str:
    return " ".join(text.replace("’", "'").split())


def pdf_pages(source: bytes | Path) -> list[str]:
    """Each page's text as PDFium reads it: an independent reader, several times quicker
    than pdfplumber."""
    document = pdfium.PdfDocument(source)
    try:
        return [page.get_textpage().get_text_range() for page in document]
    finally:
        document.close()


# --- the text --------------------------------------------------------------------------

# Every point of SPEC §5 by a phrase the text must hold (its own words, white space and
# curly quotes aside).
SPEC_PHRASES = [
    # the board
    "10 squares across and 20 long", "grid A", "away from you", "grid B", "nearest you",
    "A dot", "centre of a Node", "at most two steps from the dot", "territory:",
    "solid rock", "grey.", "open air", "white.", "five on each grid", "Rows 2–9",
    "columns B–I", "no two diamonds share a square", "may cross the fold",
    # start and goal
    "before turn 1", "row farthest from you (grid A's Row 10)",
    "row nearest you (grid B's Row 10)", "you win, however you got there",
    # down
    "Down always points at you", "quarter turn clockwise", "on your right at the start",
    "back at the start row", "on your left", "from turn 5 the round begins again",
    "edges of the board are solid ground", "nothing falls or digs off it",
    # a turn
    "Pick a start,", "only in the turn after you captured a Node", "you must",
    "its centre included", "Fall.", "You cannot stop a fall", "Collapse.",
    "touched three turns ago", "If you stand on one of them, you lose", "Drill,",
    "if you like", "captures the Node and ends your move", "1 or 2 more rock squares",
    "holds 10 for the whole game", "captures it too", "fall on", "no second drill",
    "Turn the card",
    # touching and collapse
    "the first time you enter it", "by a capture", "start square is touched in turn 1",
    "turn t fills in at the collapse step of turn t + 3", "even if it was open air",
    "falls stop on it", "drill it once more", "does not touch it again",
    # Nodes
    "centre of an active Node", "still rock", "keep their own turn",
    "You stay on the centre: no boost, no fall", "compulsory start pick",
    "goal-row square wins at once", "so it never wins",
    "active exactly while its centre is rock", "can be captured again",
    "parts of its diamond are still open",
    # winning and losing
    "that is the whole game", "only by standing on a square at the moment "
    "it collapses", "That is no loss", "you may boost straight on",
    # the pencil
    "write its number in the margin", "write the turn number small in each square",
    "a number means open", "look for the number t − 3", "Cross each one out and shade",
    "write the new number beside the cross", "ring the square you stand on",
    "ten small boxes",
]


def rules_text() -> str:
    return plain(" ".join(getattr(b, "text", "") for b in load(RULES)))


def test_the_text_parses_into_its_sections_and_figures():
    blocks = load(RULES)
    assert blocks[0] == Title("Rotator", 1)
    assert [b.text for b in blocks if isinstance(b, Section)] == [
        "The board", "Start and goal", "Which way is down", "A turn", "Touching and collapse",
        "Nodes", "Winning and losing", "Keeping track with a pencil", "A worked game"]
    named = [b.name for b in blocks if isinstance(b, FigureRef)]
    assert named == ["rotator-board", "rotator-gravity", "rotator-turns"]
    assert set(named) == set(FIGURES) and set(named) <= set(figure_makers())
    assert 900 <= len(RULES.read_text(encoding="utf-8").split()) <= 1200


def test_the_text_states_every_rule_of_spec_5():
    text = rules_text()
    missing = [p for p in SPEC_PHRASES if plain(p) not in text]
    assert not missing, missing
    # The steps of a turn, in their order.
    steps = [text.index(s) for s in ("Pick a start,", "Fall.", "Collapse.", "Drill,",
                                     "Turn the card")]
    assert steps == sorted(steps)


# --- the worked game, from the generator, the solver and the engine ----------------------

def engine_line():
    """The example worked out again here: the generator's first board for the seed, the
    solver's line, each turn played through the engine: (board, [(state, report)])."""
    board = generate(EXAMPLE_SEED, 1).boards[0]
    terrain = Terrain.from_map(board.rmap)
    state = start_state(terrain, board.best.start)
    steps = []
    for choice in board.best.choices:
        state, report = play_turn(terrain, state, choice)
        steps.append((state, report))
    return board, steps


def test_the_example_line_drills_boosts_captures_restarts_collapses_and_wins():
    board, steps = engine_line()
    reports = [r for _, r in steps]
    assert example().rmap.board_id == board.rmap.board_id
    assert any(r.drill is not None for r in reports)
    assert any(r.boosted for r in reports)
    captures = [i for i, r in enumerate(reports) if r.captured is not None]
    assert captures
    # The turn after a capture starts in that Node's diamond.
    for i in captures:
        if i + 1 < len(reports):
            area = board.rmap.territories[reports[i].captured]
            assert reports[i + 1].start in area
    assert any(r.start is not None for r in reports)
    assert any(r.collapsed for r in reports)
    assert reports[-1].won and not any(r.lost for r in reports)
    assert len(reports) <= 8  # a picture per turn


def test_each_picture_is_the_engines_position_and_report():
    board, steps = engine_line()
    pictures = panels(example())
    assert len(pictures) == len(steps)
    for panel, (state, r) in zip(pictures, steps, strict=True):
        assert (panel.turn, panel.gravity) == (r.turn, r.gravity) == (r.turn, gravity(r.turn))
        assert panel.rock == state.solid and dict(panel.touched) == state.touch_turns()
        assert panel.you == r.end and panel.start == r.start
        assert panel.drilled == r.drill and list(panel.boosted) == r.boosted
        assert list(panel.collapsed) == r.collapsed
        assert (panel.fall, panel.fall_after) == (len(r.fall), len(r.fall_after))
        expected = board.rmap.nodes[r.captured] if r.captured is not None else None
        assert panel.captured == expected and panel.won == r.won
        assert set(panel.active) == set(board.rmap.nodes) & state.solid


def named_groups(items: list[Item]) -> dict[str, Group]:
    return {i.name: i for i in items if isinstance(i, Group) and i.name}


def test_every_mark_drawn_is_what_the_engine_reported():
    board, steps = engine_line()
    drawn = named_groups(FIGURES["rotator-turns"](FONTS).draw(0, 0, 190))
    assert set(drawn) == {f"turn {r.turn}" for _, r in steps} | {"key"}
    for state, r in steps:
        marks = {g.name for g in drawn[f"turn {r.turn}"].items
                 if isinstance(g, Group) and g.name}
        expected = {mark_name(MarkKind.TOUCHED, c, t) for c, t in state.touched}
        expected |= {mark_name(MarkKind.NODE, c) for c in board.rmap.nodes
                     if c in state.solid}
        expected |= {mark_name(MarkKind.COLLAPSE, c) for c in r.collapsed}
        expected |= {mark_name(MarkKind.BOOST, c) for c in r.boosted}
        expected.add(mark_name(MarkKind.YOU, r.end))
        if r.drill is not None:
            expected.add(mark_name(MarkKind.DRILL, r.drill))
        if r.start is not None:
            expected.add(mark_name(MarkKind.START, r.start))
        if r.captured is not None:
            expected.add(mark_name(MarkKind.CAPTURE, board.rmap.nodes[r.captured]))
        assert marks == expected, r.turn
    # The captions tell the same turns.
    texts = " ".join(t.text for t, _ in walk([drawn["turn 1"]]) if isinstance(t, Text))
    assert f"fall {len(steps[0][1].fall)}" in texts


def test_the_gravity_figure_turns_each_card_so_that_down_points_at_the_player():
    drawn = named_groups(FIGURES["rotator-gravity"](FONTS).draw(0, 0, 110))
    for turn in range(1, 5):
        t = drawn[f"card turn {turn}"].transform
        gx, gy = gravity(turn)
        ox, oy = t.apply(0, 0)
        dx, dy = t.apply(gx, gy)
        assert (round(dx - ox, 9), round(dy - oy, 9)) == (0, 1)
    assert [fig_rotator.quarter_turns(t) for t in range(1, 9)] == [0, 1, 2, 3] * 2


def test_the_board_figure_shows_the_generated_board_by_its_id():
    items = FIGURES["rotator-board"](FONTS).draw(0, 0, 60)
    texts = " ".join(t.text for t, _ in walk(items) if isinstance(t, Text))
    assert example().rmap.board_id in texts and str(EXAMPLE_SEED) in texts


@pytest.mark.parametrize("width", [58.0, 110.0, 192.0])
def test_the_figures_keep_the_ink_rule_and_their_size(width):
    page = Page("figures", 210, 400, Box(0, 0, 210, 400), Box(0, 0, 210, 400))
    y = 5.0
    for name, make in FIGURES.items():
        figure = make(FONTS)
        height = figure.height(width)
        items = figure.draw(5, y, width)
        page.layer(name).add(*items)
        boxes = [t for t, _ in walk(items) if isinstance(t, Text)]
        assert min(t.size for t in boxes) >= 6.0, name
        if 100 <= width <= 120:
            assert height <= 150, name
        y += height + 5
    assert page_ink_problems(page) == []


# --- the sheet ----------------------------------------------------------------------------

@pytest.mark.parametrize("paper", list(Paper))
def test_the_sheet_is_one_page_in_black(paper):
    [page] = rules_document(paper, FONTS).pages
    assert (page.width, page.height) == paper.size
    assert page_ink_problems(page) == []
    assert min(t.size for t, _ in page_texts(page)) >= 6.0


def test_the_sheet_read_back_says_the_rules():
    [text] = pdf_pages(render_pdf(rules_document(Paper.A4, FONTS)))
    text = plain(text)
    for phrase in ("Rotator", "Which way is down", "Keeping track with a pencil",
                   "A worked game", "Turn 1", "Doug Lynn", example().rmap.board_id):
        assert phrase in text, phrase


def _columns_text(data: bytes, style) -> str:
    """The sheet's text read back column by column (as a player reads it), white space
    and curly quotes aside."""
    document = pdfium.PdfDocument(data)
    try:
        page = document[0]
        page_width, page_height = page.get_size()
        pt = 72 / 25.4
        width = (page_width / pt - 2 * style.margin - (style.columns - 1) * style.column_gap
                 ) / style.columns
        text = page.get_textpage()
        parts = []
        for c in range(style.columns):
            left = style.margin + c * (width + style.column_gap)
            parts.append(text.get_text_bounded((left - 0.5) * pt, 0,
                                               (left + width + 0.5) * pt, page_height))
    finally:
        document.close()
    return plain(" ".join(parts))


# The seed's optional goals (touch every Node; win with as few boosts as possible) and the
# turn-count score, which is cardgen's house rule: optional, and said to be so.
OPTIONAL_GOALS = [
    "you stand in the goal row: that is the whole game",
    "Optional goals, for a harder game: capture all ten Nodes before you win, or win "
    "spending as few boost spaces as you can.",
    "Optional score, a house rule of cardgen, not of the original game: the number of the "
    "turn you win in, the lower the better.",
]


def _says_the_optional_goals(text: str) -> None:
    missing = [p for p in OPTIONAL_GOALS if plain(p) not in text]
    assert not missing, missing
    # "score" is said only as the optional house rule: nowhere else in the rules.
    assert [m.start() for m in re.finditer(r"\bscore\b", text, re.IGNORECASE)] == [
        text.index("Optional score") + len("Optional ")]


@pytest.mark.parametrize("paper", list(Paper))
def test_the_sheet_read_back_has_the_optional_goals(paper):
    from cardgen.rules.rotator import STYLE

    _says_the_optional_goals(_columns_text(render_pdf(rules_document(paper, FONTS)), STYLE))


def test_the_book_chapter_read_back_has_the_optional_goals():
    from cardgen.rules.book import book_document

    data = render_pdf(book_document([GameName.ROTATOR], Paper.A4, FONTS))
    pages = [plain(page) for page in pdf_pages(data)]
    [page] = [p for p in pages if "Winning and losing" in p]
    _says_the_optional_goals(page)


def test_a_text_too_long_for_the_page_names_the_file(monkeypatch):
    from cardgen.rules import rotator
    from cardgen.rules.sheet import SheetStyle

    monkeypatch.setattr(rotator, "STYLE", SheetStyle(body_size=13.0))
    with pytest.raises(FitError, match=r"templates/rules/rotator\.md\) does not fit on 1 "
                                       r"page of LETTER at 13 pt"):
        rules_document(Paper.LETTER, FONTS)


# --- the commands -------------------------------------------------------------------------

def first_page(path: Path) -> tuple[int, str]:
    pages = pdf_pages(path)
    return len(pages), plain(pages[0])


def test_generate_puts_the_rules_first_unless_told_not_to(tmp_path):
    args = ["rotator", "generate", "--seed", str(EXAMPLE_SEED), "--count", "1", "--jobs", "1",
            "--no-keys"]
    ok(cli(*args, "-o", tmp_path, "--name", "with", "--paper", "letter"))
    ok(cli(*args, "-o", tmp_path, "--name", "without", "--no-rules"))
    pages, text = first_page(tmp_path / "with.pdf")
    assert pages == 2 and text.startswith("Rotator") and "Which way is down" in text
    pages, text = first_page(tmp_path / "without.pdf")
    assert pages == 1 and "Which way is down" not in text and re.search(r"R1:\S+", text)


def test_print_adds_the_rules_when_asked(tmp_path):
    board = example().rmap.board_id
    ok(cli("rotator", "print", board, "--rules", "-o", tmp_path, "--name", "b"))
    pages, text = first_page(tmp_path / "b.pdf")
    assert pages == 2 and text.startswith("Rotator")
    error_line(cli("rotator", "print", board, "--rules", "-f", "png", "-o", tmp_path, "--name",
                   "c"),
               "--rules", "pdf")
    assert not (tmp_path / "c.png").exists()
