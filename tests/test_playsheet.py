"""The play sheets of the Node games (``cardgen playsheet``), read back from the PDF: a
page per player, the two grids at the card's own square size meeting Row 1 to Row 1 at
the fold, their labels where the card has them (Column A on the left as each grid's
player sees it), the tallies, the ink rule, embedded fonts, identical bytes on every
run, the errors and the command."""

from __future__ import annotations

import io
import itertools
import re
from dataclasses import dataclass

import pdfplumber
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from cardgen.board.art import label_size
from cardgen.board.cells import COLUMNS, GRID_SIZE
from cardgen.board.frame import LABEL_BAND
from cardgen.draw.page import Document, Group, page_texts
from cardgen.errors import CardgenError, ParameterError
from cardgen.games.names import NODE_GAMES, GameName
from cardgen.games.nodes.model import DEFLECTORS, NODES, player_range
from cardgen.games.nodes.playsheet import (
    check_players,
    parse_game,
    player_page,
    playsheet_document,
    printed,
    sheet_layout,
    table_arrangements,
    table_layout,
    table_pages,
)
from cardgen.games.nodes.tables import bundled
from cardgen.physical.card import PRESETS, CardGeometry, Preset
from cardgen.prepress.ink import page_ink_problems
from cardgen.prepress.paper import Paper
from cardgen.render.pdf import render_pdf
from cardgen.text.fonts import bundled_fonts
from cardgen.units import MM_PER_PT
from tests.helpers import cli, error_line, ok

FONTS = bundled_fonts()
TOL = 0.1  # mm


def mm(points: float) -> float:
    return points * MM_PER_PT


@pytest.fixture(scope="module")
def sheets():
    """(document, PDF bytes, open pdfplumber document) per (game, players, preset,
    paper), made once."""
    cache = {}

    def get(game: GameName, players: int, preset: Preset, paper: Paper):
        key = (game, players, preset, paper)
        if key not in cache:
            document = playsheet_document(game, players, preset, paper, FONTS)
            data = render_pdf(document)
            cache[key] = document, data, pdfplumber.open(io.BytesIO(data))
        return cache[key]

    yield get
    for _, _, pdf in cache.values():
        pdf.close()


# --- the pages ---------------------------------------------------------------------------

TABLES = {3: ["table-3"], 4: ["table-4-full", "table-4-partial"],
          5: ["table-5-full", "table-5-partial"]}


@pytest.mark.parametrize("game,players,tables", [
    (GameName.REFLECTOR, 2, []),
    *((GameName.DEFLECTOR, n, TABLES[n]) for n in (3, 4, 5)),
    (GameName.DEFECTOR, 6, ["defector-full", "defector-island-1", "defector-island-2"]),
    (GameName.DEFECTOR, 7, []), (GameName.DEFECTOR, 12, [])])
def test_a_page_per_player_each_labelled_then_the_tables(game, players, tables):
    document = playsheet_document(game, players, Preset.EU, Paper.A4, FONTS)
    names = [p.name for p in document.pages]
    assert names == [f"player-{n}" for n in range(1, players + 1)] + tables
    for n, page in enumerate(document.pages[:players], start=1):
        headings = [item.text for item, _ in page_texts(page) if item.name == "player"]
        assert headings == [f"{printed(game)} · Player {n} of {players}"] * 2
    # The tables are the arrangements of the game for that many players, each on a page
    # or on numbered sheets.
    arrangements = table_arrangements(game, players)
    assert all(a.game.value == game.value and a.players == players for a in arrangements)
    assert {next(a.name for a in arrangements if t == a.name or t.startswith(f"{a.name}-"))
            for t in tables} == {a.name for a in arrangements}


@pytest.mark.parametrize("preset,paper", list(itertools.product(Preset, Paper)))
def test_every_page_fits_and_keeps_the_ink_rule_on_both_papers_and_presets(preset, paper):
    pages = [player_page(game, 1, player_range(game)[0], preset, paper, FONTS)
             for game in NODE_GAMES]
    for arr in bundled().values():
        if arr.game.value != "reflector":
            pages += table_pages(arr, GameName(arr.game.value), preset, paper, FONTS)
    for page in pages:
        assert (round(min(page.width, page.height), 1),
                round(max(page.width, page.height), 1)) == paper.size
        assert page_ink_problems(page) == []


def test_player_counts_follow_the_seeds():
    assert player_range(GameName.REFLECTOR) == (2, 2)
    assert player_range(GameName.DEFLECTOR) == (3, 5)
    low, high = player_range(GameName.DEFECTOR)
    assert low == 6 and high >= low
    assert check_players(GameName.REFLECTOR, None) == 2
    assert check_players(GameName.DEFLECTOR, None) == 3
    assert check_players(GameName.DEFECTOR, None) == 6


@dataclass(frozen=True)
class Label:
    text: str
    x: float  # the centre of its width, mm
    y: float  # the middle of its capitals' height (the baseline moved up or down), mm
    upside_down: bool


def grid_labels(page, cell: float) -> list[Label]:
    """The runs of a page set at the size of the card's grid labels (6 pt, a little less
    for ``us`` squares), neighbouring characters joined."""
    size = label_size(cell, LABEL_BAND)
    lift = FONTS.regular.metrics.cap_height_mm(size) / 2
    height = mm(page.height)
    runs: list[list[dict]] = []
    for c in page.chars:
        if abs(c["size"] - size) > 0.01:
            continue
        last = runs[-1][-1] if runs else None
        if (last is not None and abs(last["top"] - c["top"]) < 0.5
                and min(abs(last["x1"] - c["x0"]), abs(c["x1"] - last["x0"])) < 1.0):
            runs[-1].append(c)
        else:
            runs.append([c])
    out = []
    for run in runs:
        x0, x1 = min(c["x0"] for c in run), max(c["x1"] for c in run)
        upside_down = run[0]["matrix"][0] < 0
        baseline = height - mm(run[0]["matrix"][5])
        out.append(Label("".join(c["text"] for c in run), mm(x0 + x1) / 2,
                         baseline + (lift if upside_down else -lift), upside_down))
    return out


CASES = [(GameName.DEFLECTOR, 3, Preset.EU, Paper.A4),
         (GameName.REFLECTOR, 2, Preset.US, Paper.LETTER)]


@pytest.mark.parametrize("game,players,preset,paper", CASES)
def test_labels_are_where_the_card_has_them(sheets, game, players, preset, paper):
    """Private grid (below the fold, upright): A–J left to right under Row 10, Rows 1–10
    down its left side from the fold. Public grid (above the fold, turned 180° for the
    table): A–J right to left on the page, which is left to right for a player across
    the table, Rows 1–10 up its right side from the fold."""
    _, _, pdf = sheets(game, players, preset, paper)
    cell = CardGeometry(PRESETS[preset]).cell
    side = GRID_SIZE * cell
    pw, ph = paper.size
    fold, left = ph / 2, (pw - side) / 2
    for page in pdf.pages[:players]:
        labels = grid_labels(page, cell)
        assert len(labels) == 4 * GRID_SIZE
        for public in (False, True):
            mine = [lab for lab in labels if (lab.y < fold) is public]
            assert all(lab.upside_down is public for lab in mine)
            letters = [lab for lab in mine if lab.text.isalpha()]
            numbers = [lab for lab in mine if lab.text.isdigit()]
            by_x = sorted(letters, key=lambda lab: lab.x, reverse=public)
            assert "".join(lab.text for lab in by_x) == COLUMNS
            away = -1 if public else 1  # from the fold towards the grid's outer edge
            for c, lab in enumerate(by_x):
                x = left + (c + 0.5) * cell
                assert lab.x == pytest.approx(pw - x if public else x, abs=0.3)
                assert (lab.y - fold) * away == pytest.approx(side + LABEL_BAND / 2, abs=0.05)
            assert sorted(int(lab.text) for lab in numbers) == list(range(1, GRID_SIZE + 1))
            for lab in numbers:
                r = int(lab.text)
                assert (lab.y - fold) * away == pytest.approx((r - 0.5) * cell, abs=0.05)
                # On the player's left: the page's left for the Private grid, its right
                # for the Public one.
                assert lab.x == pytest.approx(pw - (left - LABEL_BAND / 2) if public
                                              else left - LABEL_BAND / 2, abs=0.6)


@pytest.mark.parametrize("game,players,preset,paper", CASES)
def test_grid_squares_are_the_cards_and_the_grids_meet_at_the_fold(sheets, game, players,
                                                                  preset, paper):
    _, _, pdf = sheets(game, players, preset, paper)
    cell = CardGeometry(PRESETS[preset]).cell
    side = GRID_SIZE * cell
    fold = paper.size[1] / 2
    page = pdf.pages[0]
    lefts = []
    for public in (False, True):
        top = fold - side if public else fold
        verticals = sorted(mm(line["x0"]) for line in page.lines
                           if abs(line["x0"] - line["x1"]) < 1e-6
                           and abs(mm(line["top"]) - top) <= TOL
                           and abs(mm(line["bottom"]) - top - side) <= TOL)
        assert len(verticals) == GRID_SIZE + 1
        steps = [b - a for a, b in itertools.pairwise(verticals)]
        assert steps == pytest.approx([cell] * GRID_SIZE, abs=0.01)
        lefts.append(verticals[0])
    # The two grids are one column over the other, and their horizontal lines are one
    # ladder of 21 rungs a square apart, the fold line (drawn once, by the Private grid
    # as on the card) in the middle: the grids meet Row 1 to Row 1.
    assert lefts[0] == pytest.approx(lefts[1], abs=0.01)
    horizontals = sorted(mm(line["top"]) for line in page.lines
                         if abs(line["top"] - line["bottom"]) < 1e-6
                         and abs(mm(line["x0"]) - lefts[0]) <= TOL
                         and abs(mm(line["x1"]) - lefts[0] - side) <= TOL)
    assert horizontals == pytest.approx([fold + (k - GRID_SIZE) * cell
                                         for k in range(2 * GRID_SIZE + 1)], abs=0.01)


def _boxes(page, w: float, h: float) -> list[tuple[float, float]]:
    return [(mm(r["x0"]), mm(r["top"])) for r in page.rects
            if abs(mm(r["width"]) - w) <= TOL and abs(mm(r["height"]) - h) <= TOL]


@pytest.mark.parametrize("game,players,preset,paper", [
    *CASES, pytest.param(GameName.DEFECTOR, 6, Preset.US, Paper.A4, marks=pytest.mark.slow)])
def test_tallies_name_and_symbol_boxes(sheets, game, players, preset, paper):
    _, _, pdf = sheets(game, players, preset, paper)
    b = sheet_layout().boxes
    fold = paper.size[1] / 2
    for page in pdf.pages[:players]:
        text = page.extract_text()
        nodes = _boxes(page, b["node_width"], b["node_height"])
        assert len(nodes) == NODES and all(y > fold for _, y in nodes)
        for n in range(1, NODES + 1):
            assert f"Node {n}" in text
        assert "Control Nodes" in text
        deflectors = _boxes(page, b["deflector"], b["deflector"])
        wanted = 0 if game is GameName.REFLECTOR else DEFLECTORS
        assert len(deflectors) == wanted and all(y > fold for _, y in deflectors)
        assert ("Deflectors" in text) == bool(wanted)
        # Name and symbol face the table, on the Public half.
        [name] = _boxes(page, b["name_width"], b["name_height"])
        [symbol] = _boxes(page, b["symbol"], b["symbol"])
        assert name[1] < fold and symbol[1] < fold
        assert re.search(rf"Player {pdf.pages.index(page) + 1} of {players}", text)


def test_fonts_are_embedded_and_two_runs_give_the_same_bytes(sheets):
    _, data, _ = sheets(*CASES[0])
    reader = PdfReader(io.BytesIO(data))
    seen = 0
    for page in reader.pages:
        for ref in page["/Resources"]["/Font"].get_object().values():
            font = ref.get_object()
            assert "/FontFile2" in font["/FontDescriptor"].get_object()
            seen += 1
    assert seen >= 2
    again = playsheet_document(*CASES[0], FONTS)
    assert render_pdf(again) == data


# --- the tables --------------------------------------------------------------------------

def test_a_table_is_drawn_at_the_cards_size():
    """table-4-partial lies square on the page: its vertical lines are the card's squares
    apart, two grids side by side, all four grids' lines the grid's full height."""
    cell = CardGeometry(PRESETS[Preset.EU]).cell
    side = GRID_SIZE * cell
    [page] = table_pages(bundled()["table-4-partial"], GameName.DEFLECTOR, Preset.EU,
                         Paper.A4, FONTS)
    with pdfplumber.open(io.BytesIO(render_pdf(Document([page])))) as pdf:
        lines = pdf.pages[0].lines
    verticals = sorted({round(mm(line["x0"]), 2) for line in lines
                        if abs(line["x0"] - line["x1"]) < 1e-6
                        and abs(mm(line["bottom"] - line["top"]) - side) <= TOL})
    assert len(verticals) == 2 * GRID_SIZE + 1  # two grids side by side share an edge
    steps = [b - a for a, b in itertools.pairwise(verticals)]
    assert steps == pytest.approx([cell] * 2 * GRID_SIZE, abs=0.02)


def _windows(page) -> list[tuple[float, float]]:
    """The page spans (x from, x to, mm) of the clipped art of a split table."""
    out = []
    for layer in page.layers:
        for item, transform in _groups(layer.items):
            if item.clip is not None:
                box = item.clip.transformed(transform)
                out.append((box.x, box.right))
    return out


def _groups(items, transform=None):
    from cardgen.draw.geometry import IDENTITY

    transform = IDENTITY if transform is None else transform
    for item in items:
        if isinstance(item, Group):
            yield item, transform @ item.transform
            yield from _groups(item.items, transform @ item.transform)


@pytest.mark.parametrize("preset,paper,sheets", [(Preset.EU, Paper.A4, 2),
                                                 (Preset.EU, Paper.LETTER, 2),
                                                 (Preset.US, Paper.A4, 1)])
def test_the_island_is_split_into_sheets_to_glue_when_it_is_wider_than_one(preset, paper,
                                                                        sheets):
    cell = CardGeometry(PRESETS[preset]).cell
    pages = table_pages(bundled()["defector-island"], GameName.DEFECTOR, preset, paper,
                        FONTS)
    assert len(pages) == sheets
    t = sheet_layout().table
    edge = t["printable"]
    if sheets == 1:
        return
    art = []
    for k, page in enumerate(pages):
        [(left, right)] = _windows(page)
        # Each sheet's strip of the art, its glue strip and its cut strip lie inside the
        # printer's margin.
        before = t["cut_strip"] if k else 0.0
        after = t["glue"] if k < len(pages) - 1 else 0.0
        assert left - before >= edge - 1e-6 and right + after <= page.width - edge + 1e-6
        art.append(right - left)
        texts = " ".join(item.text for item, _ in page_texts(page))
        assert f"Sheet {k + 1} of {sheets}." in texts
    # The strips are equal and add up to the whole arrangement at the card's size.
    assert art[0] == pytest.approx(art[1])
    island = bundled()["defector-island"]
    whole = table_layout(island, cell)
    assert sum(art) == pytest.approx(whole.width)
    assert whole.width > island.bounds().w * cell


# --- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("game,players,allowed", [
    (GameName.REFLECTOR, 3, "must be 2 for Reflector, not 3"),
    (GameName.DEFLECTOR, 2, "must be from 3 to 5 for Deflector, not 2"),
    (GameName.DEFLECTOR, 6, "must be from 3 to 5 for Deflector, not 6"),
    (GameName.DEFECTOR, 5, "must be from 6 to"),
    (GameName.DEFECTOR, 0, "for Defector, not 0")])
def test_wrong_player_counts(game, players, allowed):
    with pytest.raises(ParameterError) as caught:
        check_players(game, players)
    assert caught.value.parameter == "players" and allowed in caught.value.problem


@pytest.mark.parametrize("text,game", [("reflector", GameName.REFLECTOR),
                                       (" Deflector ", GameName.DEFLECTOR),
                                       ("DEFECTOR", GameName.DEFECTOR)])
def test_game_names(text, game):
    assert parse_game(text) is game


@pytest.mark.parametrize("text,hint", [("deflektor", "did you mean deflector?"),
                                       ("reflecter", "did you mean reflector?"),
                                       ("defect", "did you mean defector?"),
                                       ("rotator", "played alone"),
                                       ("chess", "not 'chess'.")])
def test_unknown_games_get_the_closest_name(text, hint):
    with pytest.raises(CardgenError, match="reflector, deflector or defector") as caught:
        parse_game(text)
    assert hint in str(caught.value)


@given(st.text(max_size=80))
@settings(deadline=None)  # hypothesis' default 200 ms per example fails on a loaded machine
def test_any_game_name_is_a_game_or_one_sentence(text):
    try:
        parse_game(text)
    except CardgenError as exc:
        message = str(exc)
        assert "\n" not in message.replace(repr(text), "") and message.endswith((".", "?"))


# --- the command -------------------------------------------------------------------------

def test_the_command_writes_the_sheets(tmp_path):
    result = ok(cli("playsheet", "deflector", "--players", "4", "-o", tmp_path))
    assert (tmp_path / "playsheet-deflector.pdf").is_file()
    assert "4 players: a page each, and 2 table pages" in result.stdout
    with pdfplumber.open(tmp_path / "playsheet-deflector.pdf") as pdf:
        assert len(pdf.pages) == 6
    result = ok(cli("playsheet", "defector", "--players", "7", "-o", tmp_path))
    assert "warning: cardgen has no table arrangement of Defector for 7 players" in (
        result.stderr)
    ok(cli("playsheet", "reflector", "--preset", "us", "--paper", "letter", "--rgb",
           "--name", "two", "--format", "pdf,svg", "-o", tmp_path))
    assert (tmp_path / "two.pdf").is_file() and (tmp_path / "two-player-2.svg").is_file()


@pytest.mark.parametrize("args,needles,status", [
    # A value that is not one of the choices is a usage error (2); one out of range, 1.
    (["deflektor"], ["GAME: the game must be", "did you mean deflector?"], 2),
    (["reflector", "--players", "3"], ["--players must be 2 for Reflector"], 1),
    (["deflector", "--players", "6"], ["--players must be from 3 to 5"], 1),
    (["defector", "--players", "2"], ["--players", "for Defector"], 1),
    (["defector", "--paper", "a3"], ["--paper"], 2),
    (["defector", "--preset", "uk"], ["--preset"], 2),
    (["reflector", "--format", "gif"], ["--format"], 2)])
def test_the_command_refuses_bad_input_in_one_line(tmp_path, args, needles, status):
    error_line(cli("playsheet", *args, "-o", tmp_path), *needles, status=status)
    assert not any(tmp_path.iterdir())
