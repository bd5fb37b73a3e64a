"""The Connector rules text and its figures: the text parses, names what a player must
know and agrees with the layout (games, colours, shapes, cards) and, step by step, with
the assemblies cardgen ships; each figure is drawn from the model (the assembly it
draws validates, it draws as many cards as the assembly has, the card's labels point at
the model's numbers, folds and faces without crossing print), keeps the ink rule with
labels of at least 6 pt, and fits 100 and 120 mm widths under 150 mm."""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from itertools import pairwise

import pytest

from cardgen.connector.assembly import read_assembly, shipped_assembly_path
from cardgen.connector.figures import (
    FIGURES,
    AssemblyFigure,
    CardFigure,
    _segment_box,
    card_obstacles,
    valid_report,
)
from cardgen.connector.layout import bundled_layout
from cardgen.connector.model import Face, Shape, Tabs
from cardgen.connector.validate import instructions, validate
from cardgen.draw.geometry import Box
from cardgen.draw.page import (
    Anchor,
    Group,
    Item,
    Page,
    Rect,
    Text,
    page_items,
    page_texts,
    walk,
)
from cardgen.errors import CardgenError
from cardgen.games.names import CONNECTOR_GAMES, GameName
from cardgen.physical.card import Preset
from cardgen.prepress.ink import page_ink_problems
from cardgen.rules.figures import figure_makers, sources
from cardgen.rules.markup import Bullet, FigureRef, Section, Subsection, Table, load
from cardgen.text.fonts import bundled_fonts
from cardgen.texts import say
from tests.helpers import ROOT

TEXT = ROOT / "templates" / "rules" / "connector.md"
WIDTHS = (100.0, 120.0)
NAMES = ["connector-card", *(f"connector-{game.value}" for game in CONNECTOR_GAMES)]
TURNS = {"upright": 0, "a quarter turn clockwise": 90, "upside down": 180,
         "a quarter turn anticlockwise": 270}
SHAPES = {"plain": Shape.SQUARE, "pointed": Shape.POINTED, "rounded": Shape.ROUND,
          "notched": Shape.NOTCHED}


@cache
def blocks():
    return load(TEXT)


def plain(block) -> str:
    return "".join(span.text for span in block.spans)


def section(title: str) -> list:
    """The blocks of a section, up to the next section."""
    out, inside = [], False
    for block in blocks():
        if isinstance(block, Section):
            inside = block.text == title
        elif inside:
            out.append(block)
    return out


# --- the text -------------------------------------------------------------------------------


def test_the_text_parses_and_names_what_a_player_needs():
    text = " ".join(plain(b) if hasattr(b, "spans") else getattr(b, "text", "")
                    for b in blocks())
    for term in ("back panel", "side tabs", "die-cut", "pale cyan", "1 to 4", "5 and 6",
                 "yellow", "purple", "red", "green", "Rotator", "Reflector", "Deflector",
                 "Defector", "quarter turn", "folded back", "slid under", "from the top",
                 "left to right", "wholly", "cardgen connector validate", "--picture"):
        assert term in text, term
    sections = [b.text for b in blocks() if isinstance(b, Section)]
    assert sections[-1] == "Solutions"  # the answers are kept apart at the end


def test_the_text_names_every_connector_figure_once_and_no_other():
    named = [b.name for b in blocks() if isinstance(b, FigureRef)]
    assert sorted(named) == sorted(NAMES) == sorted(FIGURES)
    assert all(b.caption for b in blocks() if isinstance(b, FigureRef))
    # The puzzles' answers are in the Solutions section; the card and Rotator's one card
    # (no puzzle: its description is whole on a card) teach the rules before it.
    assert {b.name for b in section("Solutions") if isinstance(b, FigureRef)} == {
        f"connector-{game.value}" for game in PUZZLES}


def test_the_games_table_is_the_layouts():
    layout = bundled_layout(Preset.EU)
    [table] = [b for b in blocks() if isinstance(b, Table)]
    rows = {"".join(s.text for s in row[0]): ["".join(s.text for s in c) for c in row[1:]]
            for row in table.rows}
    assert set(rows) == {game.value.capitalize() for game in CONNECTOR_GAMES}
    for game in CONNECTOR_GAMES:
        cards, colour, shapes = rows[game.value.capitalize()]
        assert int(cards) == layout.players[game]
        assert colour == layout.colour_names[game]
        assert SHAPES[shapes.split()[0]] is layout.colours[game].shape


def steps(game: GameName) -> list[str]:
    """The bullets of the game's subsection of Solutions."""
    out, inside = [], False
    for block in section("Solutions"):
        if isinstance(block, Subsection):
            inside = block.text == game.value.capitalize()
        elif inside and isinstance(block, Bullet):
            out.append(plain(block))
    return out


PUZZLES = [GameName.REFLECTOR, GameName.DEFLECTOR, GameName.DEFECTOR]
STEP = re.compile(r"Card (\d): (.+?), tabs (open|folded back)\.")
ON = re.compile(r"its pale (\d) (?:rests )?on card (\d)’s (\w+) (\d)")
UNDER = re.compile(r"card (\d)’s pale (\d) rests on its (\w+) (\d)")


@pytest.mark.parametrize("game", PUZZLES, ids=str)
def test_each_solution_is_the_shipped_assembly_step_by_step(game):
    layout = bundled_layout(Preset.EU)
    assembly = read_assembly(shipped_assembly_path(game, Preset.EU))
    report = validate(layout, assembly)
    assert report.valid
    said, links = {}, set()
    for step in steps(game):
        number, turn, tabs = STEP.match(step).groups()
        card = int(number)
        said[card] = (TURNS[turn], Tabs.OPEN if tabs == "open" else Tabs.FOLDED)
        for pale, lower, colour, target in ON.findall(step):
            assert pale == target and colour == layout.colour_names[game]
            links.add((card, int(pale), int(lower)))
        for upper, pale, colour, target in UNDER.findall(step):
            assert pale == target and colour == layout.colour_names[game]
            links.add((int(upper), int(pale), card))
    assert said == {i + 1: (c.rotation, c.tabs) for i, c in enumerate(assembly.cards)}
    assert links == {(c.upper + 1, c.number, c.lower + 1) for c in report.connections}


def test_rotator_is_shown_as_shipped_where_reading_is_taught():
    [card] = read_assembly(shipped_assembly_path(GameName.ROTATOR, Preset.EU)).cards
    assert (card.rotation, card.tabs) == (0, Tabs.OPEN)
    reading = section("Building a description")
    said = " ".join(plain(b) for b in reading if hasattr(b, "spans"))
    assert "single card, lying upright with its tabs open" in said
    assert "connector-rotator" in [b.name for b in reading if isinstance(b, FigureRef)]
    assert not steps(GameName.ROTATOR)


# --- the figures -----------------------------------------------------------------------------


@cache
def figure(name: str):
    return figure_makers()[name](bundled_fonts())


def test_the_figures_are_registered_by_name():
    assert sources()["connector"] is FIGURES
    assert set(NAMES) <= set(figure_makers())


@cache
def page_with(name: str, width: float) -> tuple[Page, float]:
    fig = figure(name)
    height = fig.height(width)
    page = Page(name, width + 20, height + 20, Box(0, 0, width + 20, height + 20),
                Box(0, 0, width + 20, height + 20))
    page.layer("figure").add(*fig.draw(10, 10, width))
    return page, height


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", NAMES)
def test_each_figure_keeps_the_ink_rule_and_fits(name, width):
    page, height = page_with(name, width)
    assert page_ink_problems(page) == []
    assert 40 < height <= 150
    box = Box(10, 10, width, height)
    for text, t in page_texts(page):
        scale = t.scale_factor
        x, y = t.apply(text.x, text.y)
        w = text.font.width(text.text, text.size) * scale
        left = {Anchor.START: x, Anchor.MIDDLE: x - w / 2, Anchor.END: x - w}[text.anchor]
        if text.name and text.name.split("-")[0] in ("label", "heading", "revealed",
                                                        "order", "tag"):
            assert text.size * scale >= 6 - 1e-9, text.name  # labels read at 6 pt
            assert box.inset(-0.01).contains(left, y) and left + w <= box.right + 0.01
    faces = [(item, t) for item, t in page_items(page) if isinstance(item, Rect)]
    assert faces
    for item, t in faces:  # every card's every face
        for corner in Box(item.x, item.y, item.w, item.h).corners():
            assert box.inset(-0.01).contains(*t.apply(*corner))


def groups(items: list[Item], prefix: str) -> list[str]:
    """The names of the groups called ``prefix`` and a number, at any depth."""
    out = []
    for item in items:
        if isinstance(item, Group):
            if item.name and re.fullmatch(prefix + r"\d+", item.name):
                out.append(item.name)
            out += groups(item.items, prefix)
    return out


@pytest.mark.parametrize("game", list(CONNECTOR_GAMES), ids=str)
def test_an_assembly_figure_draws_the_shipped_assembly_which_validates(game):
    fig = figure(f"connector-{game.value}")
    assert isinstance(fig, AssemblyFigure)
    assembly = read_assembly(shipped_assembly_path(game, Preset.EU))
    assert fig.assembly == assembly and fig.report.valid
    items = fig.draw(0, 0, 110)
    assert len(groups(items, "card-")) == fig.cards == len(assembly.cards)
    assert len(groups(items, "reading-")) == len(fig.report.read) > 0
    assert len(groups(items, "connection-")) == len(fig.report.connections)
    revealed = " ".join(t.text for t, _ in walk(items) if isinstance(t, Text)
                        and t.name and t.name.startswith("revealed-"))
    assert revealed == say("connector", "picture.reads", text=fig.report.text)
    assert fig.report.text == fig.report.description
    # Never larger than the cards in the hand; the small games at full size.
    assert fig.scale(120) <= 1.0
    if game is not GameName.DEFECTOR:
        assert fig.scale(100) == 1.0


def test_a_figure_never_shows_an_assembly_that_fails():
    layout = bundled_layout(Preset.EU)
    good = read_assembly(shipped_assembly_path(GameName.DEFLECTOR, Preset.EU))
    cards = list(good.cards)
    cards[-1] = dataclasses.replace(cards[-1], x=cards[-1].x + 4.0)
    moved = dataclasses.replace(good, cards=tuple(cards))
    with pytest.raises(CardgenError, match=r"deflector\.toml: the deflector assembly does not "
                                           r"spell its description .*solve the game again"):
        valid_report(layout, moved, "deflector.toml")


def test_the_card_figure_labels_the_models_numbers_folds_and_faces():
    fig = figure("connector-card")
    assert isinstance(fig, CardFigure)
    layout = fig.layout
    shape = layout.shape
    marks = {(m.number, m.game): m for m in layout.marks}
    for tabs in Tabs:
        obstacles = card_obstacles(layout, tabs)
        labels = fig.labels(tabs)
        for label, leader in labels:
            start = leader.points[0]
            # The leader starts at one of the things the label names, and reaches the
            # card's edge without crossing anything printed.
            assert any(c.inset(-0.01).contains(*start) for c in label.candidates), label.key
            assert leader.points[-1][0] in (0.0, shape.width)
            for a, b in pairwise(leader.points):
                lane = _segment_box(a, b, 0.3)
                assert not any(lane.intersects(o) for o in obstacles
                               if not any(o.contains_box(c, 1e-6) or c.contains_box(o, 1e-6)
                                          for c in label.candidates)), label.key
        keys = {label.key: label for label, _ in labels}
        if tabs is Tabs.OPEN:
            assert set(keys) == {"corner", "plate", "fold-5", "fold-6", "legend", "target"}
            assert keys["corner"].candidates[0] == marks[1, None].box
            assert {b.center[0] for b in keys["fold-5"].candidates} == {shape.hinge5}
            assert {b.center[0] for b in keys["fold-6"].candidates} == {shape.hinge6}
            assert keys["legend"].candidates == (layout.legend,)
        else:
            assert set(keys) == {"tab", "link-5", "link-6", "strip"}
            assert keys["link-5"].candidates == (marks[5, None].box,)
            assert marks[5, None].face is Face.TAB5 and marks[6, None].face is Face.TAB6
            assert all(shape.tab5.contains(*b.center) for b in keys["tab"].candidates)
            assert all(b.center[0] > shape.hinge6 for b in keys["strip"].candidates)
    # One card, drawn twice: tabs open, then folded back.
    items = fig.draw(0, 0, 110)
    assert len(groups(items, "card-")) == 2
    headings = [t.text for t, _ in walk(items) if isinstance(t, Text)
                and t.name and t.name.startswith("heading-")]
    assert headings == [say("connector", "figure.open"), say("connector", "figure.folded")]


def test_the_book_names_the_games_whose_us_answer_differs():
    """The Solutions say US cards go the EU way except for the games whose shipped US
    assembly lays its cards otherwise (turns, tabs or connections)."""
    def how(game: GameName, preset: Preset) -> list[str]:
        report = validate(bundled_layout(preset),
                          read_assembly(shipped_assembly_path(game, preset)))
        return instructions(report)

    differ = {game.value.capitalize() for game in CONNECTOR_GAMES
              if how(game, Preset.EU) != how(game, Preset.US)}
    said = " ".join(plain(b) for b in section("Solutions") if hasattr(b, "spans"))
    named = set(re.findall(r"except\s+for (\w+)", said))
    assert named == differ
