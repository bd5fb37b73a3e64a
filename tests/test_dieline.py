"""The dieline read back from the files ``cardgen card`` writes (SPEC §2: cut and score
lines are never ink on the art pages; they go on a separate dieline file, or on request
an overprinting spot layer).

Every check reads the produced PDF's content stream (tests/pdfops.py) or SVG, and
compares it with the physical card (``CardGeometry``): the outline is the trim, the tab
slits are ``tab_cuts(Side.INSIDE)``, the scores ``score_lines()``, as seen on the inside; the
outside sees every point turned head-to-head (``CardGeometry.turn``).
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pikepdf
import pytest

from cardgen.card.spread import DIELINE_SIDE, Spread
from cardgen.draw.geometry import Affine, Box, Point, Segment
from cardgen.draw.page import Group
from cardgen.physical.card import PRESETS, Preset, Side, custom_size
from cardgen.prepress.dieline import LEGEND_MIN_SIZE, LEGEND_NAME, Die
from cardgen.text.fonts import bundled_fonts
from tests.helpers import cli, error_line, ok, sampled
from tests.pdfops import PageOps, Painted, TextRun, boxes_in_points, read_pages
from tests.pdfread import page_count

TOL = 1e-3  # mm
SPOTS = ("CutContour", "Score")
INKSCAPE = "{http://www.inkscape.org/namespaces/inkscape}"
SVG = "{http://www.w3.org/2000/svg}"


def _run(folder: Path, *args: str) -> Path:
    ok(cli("card", *args, "-o", str(folder)))
    return folder


@pytest.fixture(scope="module", params=sampled([Preset.EU, Preset.US], Preset.EU), ids=str)
def preset(request: pytest.FixtureRequest) -> Preset:
    return Preset(request.param)


@pytest.fixture(scope="module")
def spread(preset: Preset) -> Spread:
    """The card as the command line lays it out (the example config has marks)."""
    return Spread(PRESETS[preset])


@pytest.fixture(scope="module")
def file_mode(preset: Preset, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp(f"file-{preset}"), "--preset", str(preset),
                "-f", "pdf,svg")


@pytest.fixture(scope="module")
def layer_mode(preset: Preset, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run(tmp_path_factory.mktemp(f"layer-{preset}"), "--preset", str(preset),
                "--dieline", "layer", "-f", "pdf,svg,png", "--dpi", "36")


# --- reading the content stream --------------------------------------------------------------

def _close(p: Point, q: Point) -> bool:
    return math.dist(p, q) <= TOL


def _same_points(got: list[Point], want: list[Point]) -> bool:
    return len(got) == len(want) and all(_close(p, q) for p, q in zip(got, want, strict=True))


def _turned(segments: list[Segment], turn: Affine) -> list[list[Point]]:
    return [[turn.apply(*p) for p in seg] for seg in segments]


def _paths(ops: PageOps, spot: str) -> list[tuple[list[Point], bool]]:
    """Each stroked subpath in ``spot``: its points and whether it is closed."""
    return [(sub.points, sub.closed) for p in ops.strokes(spot) for sub in p.subpaths]


def _check_die(ops: PageOps, spread: Spread, side: Side, trim: Box) -> None:
    """The page's CutContour and Score strokes are the card's die as seen on ``side``:
    one closed path whose corners are those of the page's TrimBox (``trim``, read from
    the file), the two slits from the long edges along the fold to the hinges, the scores
    where ``score_lines()`` says, point by point and in order (so that the outside's are
    the inside's turned, not merely the same set)."""
    g = spread.geometry
    turn = g.turn if side is Side.OUTSIDE else Affine()
    cuts, scores = _paths(ops, "CutContour"), _paths(ops, "Score")
    closed = [points for points, is_closed in cuts if is_closed]
    assert len(closed) == 1, "the outline must be ONE closed path"
    assert len(closed[0]) == 4
    for corner in trim.corners():
        assert any(_close(corner, p) for p in closed[0]), (corner, closed[0])
    assert _same_points(closed[0], [turn.apply(*c) for c in g.trim.corners()])
    slits = [points for points, is_closed in cuts if not is_closed]
    want = _turned(g.tab_cuts(Side.INSIDE), turn)
    assert len(slits) == len(want) == 2
    for got, expected in zip(slits, want, strict=True):
        assert _same_points(got, expected)
        (x1, y1), (x2, y2) = got
        assert g.trim.on_outline(x1, y1, tol=TOL)  # starts on the long edge ...
        assert abs(y1 - g.fold_y) < TOL and abs(y2 - g.fold_y) < TOL  # ... along the fold
        hinges = [turn.apply(g.hinge_x(tab), g.fold_y)[0] for tab in g.tabs]
        assert min(abs(x2 - h) for h in hinges) < TOL  # ... to a hinge
    assert not any(is_closed for _, is_closed in scores)
    want_scores = _turned(g.score_lines(), turn)
    assert len(scores) == len(want_scores) == 3
    for (got, _), expected in zip(scores, want_scores, strict=True):
        assert _same_points(got, expected)
    for p in ops.strokes("CutContour"):
        assert p.state.dash == () and p.overprint, p
    for p in ops.strokes("Score"):
        assert p.state.dash and p.overprint, p


def _text_box(run: TextRun) -> Box:
    """A generous box around a horizontal run: its baseline, a type size above and half
    one below."""
    (x1, y), (x2, _) = run.start, run.end
    return Box(min(x1, x2), y - run.size, abs(x2 - x1), 1.5 * run.size)


def _stroke_box(p: Painted) -> Box:
    points = [pt for sub in p.subpaths for pt in sub.points]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _trim_mm(source: Path, index: int) -> Box:
    """The page's TrimBox as the file holds it, in mm from the top-left corner."""
    boxes = list(boxes_in_points(source))[index]
    mx0, _, _, my1 = boxes["/MediaBox"]
    x0, y0, x1, y1 = boxes["/TrimBox"]
    k = 72 / 25.4
    return Box((x0 - mx0) / k, (my1 - y1) / k, (x1 - x0) / k, (y1 - y0) / k)


def _check_legend(ops: PageOps, source: Path, index: int) -> None:
    """The page's dieline legend: a non-cutting colour, entirely outside the TrimBox (its
    position from the text matrix), clear of every mark."""
    legend = [t for t in ops.texts if t.text.startswith(b"DIELINE")]
    assert len(legend) == 1
    run = legend[0]
    assert run.state.fill_space not in SPOTS and run.state.fill_space != "All"
    assert run.state.fill_overprint
    trim = _trim_mm(source, index)
    box = _text_box(run)
    assert not box.intersects(trim), (box, trim)
    assert box.bottom < trim.y  # in the slug above the top edge
    for mark in ops.strokes("All"):
        assert not box.intersects(_stroke_box(mark)), (box, mark)


def _pdf_names(source: Path) -> set[str]:
    """Every PDF name anywhere in the file's objects and content streams."""
    names: set[str] = set()
    with pikepdf.open(source) as pdf:
        for obj in pdf.objects:  # every indirect object once; their direct parts below
            stack = [obj]
            while stack:
                o = stack.pop()
                children = []
                if isinstance(o, pikepdf.Name):
                    names.add(str(o))
                elif isinstance(o, pikepdf.Array):
                    children = list(o)
                elif isinstance(o, pikepdf.Dictionary | pikepdf.Stream):
                    names.update(map(str, o.keys()))
                    children = list(o.values())
                stack.extend(c for c in children if not getattr(c, "is_indirect", False))
        for page in pdf.pages:
            for operands, _ in pikepdf.parse_content_stream(page):
                names.update(str(o) for o in operands if isinstance(o, pikepdf.Name))
    return names


# --- file mode (the default) -----------------------------------------------------------------

def test_card_pdf_is_two_art_pages_without_dieline_ink(file_mode: Path):
    pdf = file_mode / "card.pdf"
    assert page_count(pdf) == 2
    assert "/CutContour" not in _pdf_names(pdf) and "/Score" not in _pdf_names(pdf)
    for ops in read_pages(pdf):
        assert not ops.spaces() & set(SPOTS)


def test_dieline_file_has_the_card_pages_boxes(file_mode: Path):
    dieline = file_mode / "card-dieline.pdf"
    assert page_count(dieline) == 1
    card = list(boxes_in_points(file_mode / "card.pdf"))
    assert card[0] == card[1]
    assert list(boxes_in_points(dieline)) == [card[0]]


def test_dieline_file_draws_the_die_as_seen_on_the_outside(file_mode: Path, spread: Spread):
    source = file_mode / "card-dieline.pdf"
    (ops,) = read_pages(source)
    assert DIELINE_SIDE is Side.OUTSIDE
    _check_die(ops, spread, Side.OUTSIDE, _trim_mm(source, 0))
    # Everything on the page overprints; nothing but the die is in a spot colour.
    assert all(p.overprint for p in ops.painted)
    assert all(t.state.fill_overprint for t in ops.texts)
    assert ops.spaces() <= {"CutContour", "Score", "All", "DeviceCMYK"}


def test_dieline_file_legend_is_outside_the_trim_and_never_cut(file_mode: Path):
    source = file_mode / "card-dieline.pdf"
    (ops,) = read_pages(source)
    assert not [t for t in ops.texts if t.state.fill_space in SPOTS]
    _check_legend(ops, source, 0)


def test_dieline_file_has_the_outside_pages_marks(file_mode: Path):
    """Same crop and fold marks as page 1 of card.pdf (the side it is seen from), so the
    dieline registers with the art; the outside's hinge marks, not the inside's."""
    (dieline,) = read_pages(file_mode / "card-dieline.pdf")
    outside, _ = read_pages(file_mode / "card.pdf")

    def marks(ops: PageOps) -> list[tuple[tuple[tuple[float, float], ...], tuple[float, ...]]]:
        return sorted((tuple((round(x, 3), round(y, 3)) for x, y in sub.points), p.state.dash)
                      for p in ops.strokes("All") for sub in p.subpaths)

    assert marks(dieline) == marks(outside)
    # 8 crop and 2 cut marks (the tab cuts at the long edges), solid; 2 fold marks (the
    # hinges at the top edge; the main fold never reaches the trim), dashed.
    assert len(marks(dieline)) == 12
    assert sum(1 for _, dash in marks(dieline) if dash) == 2


def test_no_marks_dieline_is_the_bare_die(tmp_path: Path):
    """Without marks the page ends at the bleed: no slug, so no legend and no marks; the
    cut and score paths alone (their spot colours are what a RIP reads)."""
    out = _run(tmp_path, "--no-marks", "-f", "pdf")
    card = list(boxes_in_points(out / "card.pdf"))
    (die,) = boxes_in_points(out / "card-dieline.pdf")
    assert die == card[0] and die["/MediaBox"] == die["/BleedBox"]
    (ops,) = read_pages(out / "card-dieline.pdf")
    assert ops.texts == [] and ops.strokes("All") == []
    _check_die(ops, Spread(PRESETS[Preset.EU], marks=False), DIELINE_SIDE,
               _trim_mm(out / "card-dieline.pdf", 0))


# --- layer mode ------------------------------------------------------------------------------

def test_layer_mode_writes_no_dieline_file(layer_mode: Path):
    assert sorted(p.name for p in layer_mode.iterdir()) == [
        "card-inside.png", "card-inside.svg", "card-outside.png", "card-outside.svg",
        "card.pdf"]
    assert page_count(layer_mode / "card.pdf") == 2


def test_layer_mode_art_pages_carry_the_die_each_in_its_own_coordinates(
        layer_mode: Path, spread: Spread):
    source = layer_mode / "card.pdf"
    outside, inside = read_pages(source)
    _check_die(inside, spread, Side.INSIDE, _trim_mm(source, 1))
    # mirrored head-to-head, point by point
    _check_die(outside, spread, Side.OUTSIDE, _trim_mm(source, 0))
    for index, ops in enumerate((outside, inside)):
        assert not [t for t in ops.texts if t.state.fill_space in SPOTS]
        _check_legend(ops, source, index)


def test_svg_layers(layer_mode: Path, file_mode: Path):
    def layers(path: Path) -> list[str]:
        root = ET.parse(path).getroot()
        return [g.get(f"{INKSCAPE}label", "") for g in root.iter(f"{SVG}g")
                if g.get(f"{INKSCAPE}groupmode") == "layer"]

    for side in Side:
        assert layers(layer_mode / f"card-{side}.svg")[-1] == "dieline"
        assert "dieline" not in layers(file_mode / f"card-{side}.svg")
    assert layers(file_mode / "card-dieline.svg") == ["marks", "dieline"]
    root = ET.parse(layer_mode / "card-inside.svg").getroot()
    dieline = next(g for g in root.iter(f"{SVG}g") if g.get(f"{INKSCAPE}label") == "dieline")
    paths = list(dieline.iter(f"{SVG}path"))
    assert len(paths) == 6  # outline, two slits, three scores
    assert sum(p.get("d", "").rstrip().endswith("Z") for p in paths) == 1


def test_unknown_dieline_mode_is_refused(tmp_path: Path):
    error_line(cli("card", "--dieline", "sheet", "-o", str(tmp_path)), "--dieline",
               "file, layer", status=2)


# --- the model -------------------------------------------------------------------------------

def test_turning_a_die_twice_gives_it_back():
    """Die.transformed maps every point and keeps the order: turning head-to-head twice
    is the identity, point by point."""
    g = Spread(PRESETS[Preset.US]).geometry
    die = Spread(PRESETS[Preset.US]).die(Side.INSIDE)
    again = die.transformed(g.turn).transformed(g.turn)
    for a, b in zip(die.outline, again.outline, strict=True):
        assert _close(a, b)
    for sa, sb in zip(die.slits + die.scores, again.slits + again.scores, strict=True):
        assert _same_points(list(sa), list(sb))
    assert isinstance(die, Die)


def test_legend_fits_between_the_hinges_of_the_smallest_card():
    """The smallest card the size checks allow still gets a legend of legible size (5
    pt: on two lines where one is too wide), clear of the hinge marks."""
    spread = Spread(custom_size(61, 41))
    page = spread.dieline_page(bundled_fonts())
    (legend,) = [i for layer in page.layers for i in layer.items
                 if str(getattr(i, "name", None)).startswith(LEGEND_NAME)]
    lines = legend.items if isinstance(legend, Group) else [legend]
    assert len(lines) == 2
    assert " ".join(line.text for line in lines).startswith("DIELINE")
    g = spread.geometry
    for line in lines:
        assert line.size >= LEGEND_MIN_SIZE >= 5.0
        width = line.font.width(line.text, line.size)
        assert g.hinge_left < line.x - width / 2 and line.x + width / 2 < g.hinge_right
        assert line.y < g.bleed_box.y
