"""Grid labels read back from the produced PDFs: every row number 6 and 9 carries its bar
(as on dice) under it in its own frame, turned with it, in its own ink, and no other label
has one, on the card, the Rotator puzzle and answer-key pages, the play sheets and the
rules' grid figures; and on the card's inside the light ground stops short of the side
tabs' hinges, and the Row 1 numbers keep the distance from the fold README names."""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardgen.board.cells import Grid
from cardgen.card.build import build_card
from cardgen.card.config import load_config
from cardgen.card.spread import Spread
from cardgen.card.themes import load_theme
from cardgen.draw.geometry import Box
from cardgen.draw.page import Document, Page, Text, page_items
from cardgen.games.nodes.figures import FIGURES
from cardgen.games.nodes.playsheet import parse_game, playsheet_document
from cardgen.games.rotator.art import printed_board
from cardgen.games.rotator.board import RotatorMap
from cardgen.games.rotator.engine import Terrain
from cardgen.games.rotator.solver import Solver
from cardgen.physical.card import CREASE, PRESETS, Preset
from cardgen.prepress.paper import Paper
from cardgen.prepress.puzzlebook import PuzzleSize, puzzle_book
from cardgen.render.pdf import render_pdf
from cardgen.text.fonts import bundled_fonts
from tests.pdfops import PageOps, Painted, TextRun, read_pages
from tests.pdfread import render_region

FONTS = bundled_fonts()
README = Path(__file__).resolve().parents[1] / "docs" / "card.md"  # the guide's card page
LABEL = re.compile(r"grid-[AB]-(row|col)-\w+$")
PRINTS = {preset: ("card", "--preset", preset, "--theme", "dark", "-f", "pdf")
          for preset in ("eu", "us")}  # the cards test_card_connector prints too
TURNED = {"6", "9"}  # the row numbers that read as each other turned 180°
HINGE_MARGIN = 1.5  # mm: the least the margin colour runs on past a hinge (issue 21)


def _model_labels(page: Page) -> Iterator[tuple[str, str, tuple[float, float]]]:
    """(name, text, anchor on the page) of every grid label the page model draws."""
    for item, t in page_items(page):
        if isinstance(item, Text) and item.name and LABEL.match(item.name):
            yield item.name, item.text, t.apply(item.x, item.y)


def _bar_segments(ops: PageOps) -> list[tuple[tuple[float, float], tuple[float, float],
                                              Painted]]:
    """Every solid stroked straight segment of a page (page mm)."""
    out = []
    for p in ops.painted:
        if p.stroke and not p.state.dash and len(p.subpaths) == 1:
            points = p.subpaths[0].points
            if len(points) == 2:
                out.append((points[0], points[1], p))
    return out


def _frame(run: TextRun) -> tuple[tuple[float, float], tuple[float, float],
                                  tuple[float, float]]:
    """A run's baseline middle, its reading direction and its 'down' (y-down page)."""
    (x1, y1), (x2, y2) = run.start, run.end
    length = math.hypot(x2 - x1, y2 - y1)
    u = ((x2 - x1) / length, (y2 - y1) / length)
    return ((x1 + x2) / 2, (y1 + y2) / 2), u, (-u[1], u[0])


def bar_report(document: Document, pdf: bytes | Path) -> tuple[dict[str, int], list[str]]:
    """Check every grid label of the document in its PDF: how many labels, how many 6s
    and 9s, how many of those read turned (not upright on the page), and the problems."""
    counts = {"labels": 0, "barred": 0, "turned": 0}
    problems: list[str] = []
    pages = read_pages(pdf)
    assert len(pages) == len(document.pages)
    for index, (model, ops) in enumerate(zip(document.pages, pages, strict=True)):
        segments = _bar_segments(ops)
        for name, text, anchor in _model_labels(model):
            where = f"page {index + 1} {name}"
            runs = [r for r in ops.texts if r.chars == text
                    and math.dist(_frame(r)[0], anchor) < 0.05]
            if len(runs) != 1:
                problems.append(f"{where}: {len(runs)} runs at the model's place")
                continue
            run = runs[0]
            counts["labels"] += 1
            (ax, ay), u, v = _frame(run)
            em = run.size
            bars = []
            for p1, p2, painted in segments:
                mx, my = (p1[0] + p2[0]) / 2, (p1[1] + p2[1]) / 2
                along = (mx - ax) * u[0] + (my - ay) * u[1]
                down = (mx - ax) * v[0] + (my - ay) * v[1]
                if abs(along) < 0.4 * em and -0.2 * em < down < 0.6 * em:
                    bars.append((p1, p2, painted, along, down))
            if text not in TURNED:
                if bars:
                    problems.append(f"{where}: {text!r} has a bar")
                continue
            counts["barred"] += 1
            counts["turned"] += u[0] < 0.5
            if len(bars) != 1:
                problems.append(f"{where}: {len(bars)} bars under {text!r}")
                continue
            p1, p2, painted, along, down = bars[0]
            width = painted.width_pt / 72 * 25.4
            dx, dy = p2[0] - p1[0], p2[1] - p1[1]
            if abs(dx * v[0] + dy * v[1]) > 1e-3:
                problems.append(f"{where}: the bar does not run along the baseline")
            if abs(along) > 0.02:
                problems.append(f"{where}: the bar is {along:.3f} mm off the digit's middle")
            if down - width / 2 <= 0:
                problems.append(f"{where}: the bar is not under the baseline")
            if not 0 < math.hypot(dx, dy) < math.dist(run.start, run.end):
                problems.append(f"{where}: the bar is wider than the digit")
            same = (painted.state.stroke_space == run.state.fill_space
                    and painted.state.stroke_color == run.state.fill_color
                    and painted.state.stroke_overprint == run.state.fill_overprint)
            if not same:
                problems.append(f"{where}: the bar is {painted.state.stroke_color}, the "
                                f"digit {run.state.fill_color}")
    return counts, problems


def _card(preset: str):
    config = load_config(None).with_overrides(preset=Preset(preset), theme="dark")
    return build_card(config)


@pytest.mark.parametrize("preset", sorted(PRINTS))
def test_card_six_and_nine_carry_their_bar(produced, preset):
    build = _card(preset)
    counts, problems = bar_report(build.document, produced(*PRINTS[preset]) / "card.pdf")
    assert not problems, problems
    # Two grids of ten row numbers and ten letters; a 6 and a 9 each, grid A's turned.
    assert counts == {"labels": 40, "barred": 4, "turned": 2}


@pytest.fixture(scope="module")
def puzzle():
    rmap = RotatorMap.from_id("R1:B2B8E4I2I8-B4E2E8H4I9")
    best = Solver(Terrain.from_map(rmap)).best_line()
    return printed_board(rmap, best, f"{best.turns} turns")


@pytest.mark.parametrize("size", list(PuzzleSize))
def test_puzzle_pages_and_keys_six_and_nine_carry_their_bar(puzzle, size):
    document = puzzle_book([puzzle], size=size, keys=True, paper=Paper.A4, fonts=FONTS,
                           title="Rotator boards", subject="cardgen Rotator boards")
    counts, problems = bar_report(document, render_pdf(document))
    assert not problems, problems
    # The puzzle and its key: two boards, each with grid A's numbers turned.
    assert counts["barred"] == 8 and counts["turned"] == 4


def test_play_sheets_six_and_nine_carry_their_bar():
    document = playsheet_document(parse_game("deflector"), 3, Preset.EU, Paper.A4, FONTS)
    counts, problems = bar_report(document, render_pdf(document))
    assert not problems, problems
    assert counts["barred"] >= 12 and counts["turned"] >= 3


def test_rules_grid_figures_six_and_nine_carry_their_bar():
    """Each grid figure of the Node games' rules on a page of its own."""
    pages = []
    for name in sorted(FIGURES):
        figure = FIGURES[name](FONTS)
        height = figure.height(120.0)
        page = Page(name, 140, height + 20, Box(0, 0, 140, height + 20),
                    Box(0, 0, 140, height + 20))
        page.layer("figure").add(*figure.draw(10, 10, 120.0))
        pages.append(page)
    document = Document(pages)
    counts, problems = bar_report(document, render_pdf(document))
    assert not problems, problems
    assert counts["barred"] >= 4


# --- the card's inside: the hinges and the fold ------------------------------------------

@pytest.mark.parametrize("preset", sorted(PRINTS))
def test_light_ground_stops_short_of_the_hinges(produced, preset):
    """The hinges read from card-dieline.pdf (seen from the outside, so mirrored), the
    light ground and the margin colour from card.pdf: the ground keeps at least 1.5 mm
    from each hinge, and a band that wide either side of each hinge,
    from the top edge to the fold, prints the margin colour alone."""
    folder = produced(*PRINTS[preset])
    dieline = read_pages(folder / "card-dieline.pdf")[0]
    g = Spread(PRESETS[Preset(preset)]).geometry
    left, right = _ground_sides(folder / "card.pdf")
    scores = [s.points for p in dieline.painted if p.stroke and p.space == "Score"
              for s in p.subpaths if len(s.points) == 2]
    hinges = sorted(dieline.width - p1[0] for p1, p2 in scores
                    if abs(p1[0] - p2[0]) < 1e-6 and abs(max(p1[1], p2[1]) - g.fold_y) < 1e-3)
    assert len(hinges) == 2
    margin = min(left - hinges[0], hinges[1] - right)
    assert margin >= HINGE_MARGIN - 1e-3, (hinges, left, right)
    dpi = 600
    for hinge in hinges:
        strip = render_region(folder / "card.pdf", 1, dpi,
                              (hinge - margin + 0.05, g.trim.y + 0.5, hinge + margin - 0.05,
                               g.fold_y - 0.5), grey=True)
        values = list(strip.tobytes())
        middle = statistics.median(values)
        assert max(abs(v - middle) for v in values) <= 8, hinge
    light = render_region(folder / "card.pdf", 1, dpi, (left + 0.1, g.fold_y + 0.5,
                                                          left + 0.3, g.fold_y + 1.0),
                          grey=True)
    assert min(light.tobytes()) - middle > 100  # the ground is light, the margin dark


def _ground_sides(pdf: Path) -> tuple[float, float]:
    """The left and right edges (page mm) of the light ground on the card's inside."""
    inside = read_pages(pdf)[1]
    ground_colour = load_theme("dark").inside["ground"].cmyk_fractions
    grounds = [p for p in inside.painted if p.fill and not p.stroke
               and p.state.fill_color == ground_colour]
    xs = [x for p in grounds for s in p.subpaths for x, _ in s.points]
    return min(xs), max(xs)


def row1_ink_distance(pdf: Path, preset: str, dpi: int = 2400) -> float:
    """How near the Row 1 numbers' ink comes to the fold on the inside (mm), read from
    the rendered page: the band beside each grid's Row 1 between the light ground's edge
    and the grid's border."""
    g = Spread(PRESETS[Preset(preset)]).geometry
    left, right = _ground_sides(pdf)
    board, fold = g.board, g.fold_y
    near = []
    for grid in Grid:
        box = board.grid_box(grid)
        if grid is Grid.B:  # numbers on the page's left, below the fold
            region = (left + 0.05, fold, box.x - 0.3, fold + g.cell)
        else:  # turned: on the right, above the fold
            region = (box.right + 0.3, fold - g.cell, right - 0.05, fold)
        image = render_region(pdf, 1, dpi, region, grey=True)
        w, h = image.size
        pixels = image.load()
        rows = [y for y in range(h) if any(pixels[x, y] < 128 for x in range(w))]
        assert rows, grid
        px = 25.4 / dpi
        near.append(rows[0] * px if grid is Grid.B else (h - 1 - rows[-1]) * px)
    return min(near)


@pytest.mark.parametrize("preset", sorted(PRINTS))
def test_row_1_numbers_keep_the_distance_readme_names(produced, preset):
    distance = row1_ink_distance(produced(*PRINTS[preset]) / "card.pdf", preset)
    assert distance >= CREASE
    text = " ".join(README.read_text(encoding="utf-8").split())
    found = re.search(r"Row 1 numbers' ink comes to ([\d.]+) mm of the fold on `eu` cards "
                      r"and ([\d.]+) mm on `us`", text)
    assert found, "docs/card.md names the Row 1 numbers' distance from the fold"
    stated = float(found.group(1 if preset == "eu" else 2))
    assert abs(stated - distance) <= 0.03, (stated, distance)
