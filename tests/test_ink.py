"""The ink rule (``cardgen.prepress.ink``, README "Print shop checklist"): small type and
thin lines are overprinting solid black or paper white on a ground of one ink, no line
under 0.25 pt, no colour over 300 %, type legible on screen. Checked on the rule's own
functions, on themes, and on the produced PDFs: their content streams (what colour each
run of type is, whether it overprints) and their separations (what lies under the type,
on each plate)."""

from __future__ import annotations

import shutil
import subprocess

import pdfplumber
import pytest
from PIL import Image, ImageChops, ImageOps

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.draw.page import Line, Page, Stroke, Text
from cardgen.errors import CardgenError
from cardgen.prepress.ink import (
    FINE_TYPE,
    contrast,
    fine_problem,
    is_solid_black,
    page_ink_problems,
)
from cardgen.text.fonts import bundled_fonts
from tests.helpers import BASE_CONFIG, DATA, ROOT, cli, error_line, sampled
from tests.pdfops import PAPER_WHITE, SOLID_BLACK, read_pages
from tests.pdfread import PROCESS, mm_to_px, page_boxes, separations

BLACK = Color.cmyk(0, 0, 0, 100)
WHITE = Color.cmyk(0, 0, 0, 0)
RICH = Color.cmyk(60, 40, 40, 100)

FIVE_LINES = BASE_CONFIG + '''address = """12 Harbour Street
Leith, Edinburgh
EH6 6QN, Scotland"""
tagline = "Small games for big tables."
'''
WITH_PORTRAIT = BASE_CONFIG + f'''
[images]
portrait = "{DATA / 'portrait.png'}"
'''
# Cards printed in every variant the checks below read.
CARDS = {
    "eu-dark-five-lines": (("card", "-f", "pdf"), FIVE_LINES),
    "eu-light-five-lines": (("card", "-f", "pdf", "--theme", "light"), FIVE_LINES),
    "us-dark-portrait": (("card", "-f", "pdf", "--preset", "us"), WITH_PORTRAIT),
    "us-light": (("card", "-f", "pdf", "--preset", "us", "--theme", "light"), None),
}


def _card(produced, name):
    args, config = CARDS[name]
    return produced(*args, config=config)


# --- the rule itself ---------------------------------------------------------------------

def test_fine_elements_are_solid_black_or_paper_white_on_one_ink():
    assert fine_problem(BLACK, RICH) is None  # black overprints anything
    assert fine_problem(WHITE, BLACK) is None  # reversed out of one ink
    assert fine_problem(WHITE, Color.cmyk(100, 0, 0, 0)) is None
    assert "one ink" in fine_problem(WHITE, RICH)  # reversed out of four
    assert "C5 K8" in fine_problem(Color.cmyk(5, 0, 0, 8), BLACK)  # a tint of two inks
    assert fine_problem(Color.cmyk(0, 0, 0, 85), WHITE) is not None  # a tint of black


def test_contrast_is_the_wcag_ratio():
    assert contrast(Color.hex("#000000"), Color.hex("#ffffff")) == pytest.approx(21)
    assert contrast(WHITE, WHITE) == pytest.approx(1)
    # The light theme's old link numbers, pale cyan straight on white (issue 8).
    assert contrast(Color.cmyk(60, 0, 12, 0), WHITE) < 1.5


def _page(*items) -> Page:
    page = Page("p", 100, 100, Box(10, 10, 80, 80), Box(5, 5, 90, 90))
    page.layer("art").add(*items)
    return page


def test_page_check_reports_every_element_that_breaks_the_rule():
    face = bundled_fonts().regular
    page = _page(
        Text(20, 20, "tinted", face, 6, Color.cmyk(0, 0, 0, 60), name="tinted"),
        Text(20, 30, "black", face, 6, BLACK, name="knockout-black"),
        Text(20, 40, "fine", face, 6, BLACK.overprinting(), name="good"),
        Text(20, 50, "big", face, 12, Color.cmyk(60, 40, 0, 0), name="big"),
        Text(20, 97, "slug", face, 5, Color.cmyk(60, 40, 0, 0), name="slug"),  # outside
        Line(20, 60, 80, 60, Stroke(Color.cmyk(50, 50, 0, 0), 0.1)),
        Line(20, 70, 80, 70, Stroke(BLACK.overprinting(), 0.05)),
        Line(20, 80, 80, 80, Stroke(Color.cmyk(100, 100, 100, 100), 1.0)),
    )
    problems = page_ink_problems(page)
    assert [p.split(":")[0] for p in problems] == [
        "tinted (6.0 pt)", "knockout-black (6.0 pt)", "a 0.28 pt line",
        "a 0.14 pt line is thinner than 0.25 pt", "a 2.83 pt line"]
    assert "400 % ink" in problems[-1]


def test_every_page_cardgen_builds_keeps_the_rule():
    """The cards in both sizes and themes, with the dieline as a layer; the office sheets
    (their marks, cut-end ticks and captions) and the registration page."""
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.card.spread import Spread
    from cardgen.physical.card import Preset
    from cardgen.prepress.dieline import DielineMode
    from cardgen.prepress.impose import Duplex, impose, plan_sheet
    from cardgen.prepress.paper import Paper
    from cardgen.prepress.registration import build_registration

    fonts = bundled_fonts()
    for preset in Preset:
        for theme in ("dark", "light"):
            config = load_config(None).with_overrides(preset=preset, theme=theme)
            build = build_card(config, DielineMode.LAYER)
            for page in build.document.pages:
                assert page_ink_problems(page) == [], (preset, theme, page.name)
            sheet_build = build_card(config.with_overrides(marks=False))
            duplex = Duplex(Paper.A4)
            piece = Spread(config.size, marks=False).piece()
            sheet = impose(*sheet_build.document.pages, piece, plan_sheet(piece, duplex),
                           marks=True, fonts=fonts, names=("a", "b"), pieces="cards",
                           title="t")
            for page in sheet.pages:
                assert page_ink_problems(page) == [], (preset, theme, page.name)
    for page in build_registration(Duplex(Paper.LETTER), fonts).pages:
        assert page_ink_problems(page) == [], page.name


# --- themes ------------------------------------------------------------------------------

def _theme(tmp_path, old: str, new: str) -> str:
    text = (ROOT / "templates" / "themes" / "dark.toml").read_text()
    assert old in text
    path = tmp_path / "mine.toml"
    path.write_text(text.replace(old, new))
    return str(path)


@pytest.mark.parametrize(("old", "new", "needles"), [
    ("text = [0, 0, 0, 0]", "text = [5, 0, 0, 8]",
     ("outside.text", "ink rule", "C5 K8")),
    ('background = { cmyk = [0, 0, 0, 100], rgb = "#1d1d1b" }',
     'background = { cmyk = [60, 40, 40, 100], rgb = "#07090d" }',
     ("outside.text", "ink rule on outside.background", "C60 M40 Y40 K100")),
    ("label = [0, 0, 0, 100]", "label = [0, 0, 0, 85]", ("inside.label", "K85")),
    ("grid_line = [0, 0, 0, 100]", "grid_line = [0, 0, 0, 72]",
     ("inside.grid_line", "inside.tint_a")),
    ("link = [28, 0, 6, 0]            # pale", "link = [0, 0, 0, 90]            # pale",
     ("outside.link", "contrast of only")),
    ("name = [0, 0, 0, 0]", "name = [100, 100, 100, 30]", ("330 % ink",)),
])
def test_themes_that_break_the_ink_or_contrast_rule_are_refused(tmp_path, old, new, needles):
    from cardgen.card.themes import load_theme

    with pytest.raises(CardgenError) as info:
        load_theme(_theme(tmp_path, old, new))
    message = str(info.value)
    assert all(n in message for n in needles), message
    error_line(cli("card", "--theme", _theme(tmp_path, old, new), "-o", tmp_path / "out"),
               *needles)


def test_a_theme_from_before_the_ink_rule_is_told_what_changed(tmp_path):
    """The light theme as it was: its retired key is named with the reason, and then
    every colour that breaks a rule, all in one message."""
    from cardgen.card.themes import load_theme

    old = (ROOT / "tests" / "data" / "light-before-ink-rule.toml")
    with pytest.raises(CardgenError) as info:
        load_theme(str(old))
    problems = info.value.problems
    assert problems[0].startswith("outside.muted is no longer used")
    assert any("outside.text" in p and "K85" in p for p in problems)
    assert any("outside.link" in p and "contrast of only 1.24:1" in p for p in problems)
    assert any("inside.label" in p for p in problems)


def test_link_ground_defaults_to_the_ground_it_sits_on(tmp_path):
    from cardgen.card.themes import load_theme

    theme = load_theme("dark")
    assert theme.outside["link_ground"] == theme.outside["background"]
    assert theme.inside["link_ground"] == theme.inside["margin"]
    light = load_theme("light")
    for table in (light.outside, light.inside):
        assert contrast(table["link"], table["link_ground"]) >= 4.5


def test_fine_black_overprints_and_other_black_does_not():
    from cardgen.card.themes import load_theme

    theme = load_theme("light")
    assert theme.outside["text"].overprint and is_solid_black(theme.outside["text"])
    assert all(theme.inside[k].overprint for k in ("label", "grid_line", "grid_border"))
    assert not theme.outside["qr_modules"].overprint  # a shape, not fine type


# --- the printed files: content streams ------------------------------------------------

def _inside(at, box) -> bool:
    return box[0] <= at[0] <= box[2] and box[1] <= at[1] <= box[3]


def _keeps_the_rule(space: str, color: tuple[float, ...], overprint: bool, opm: int) -> bool:
    """Paper white, or solid black that overprints in overprint mode 1."""
    return (space, color) == PAPER_WHITE or ((space, color) == SOLID_BLACK and overprint
                                             and opm == 1)


@pytest.mark.parametrize("name", sorted(CARDS))
def test_small_type_and_thin_lines_in_the_pdf_keep_the_rule(produced, name):
    """Read from the content streams: every run of type under 8 pt, every stroke under
    0.5 pt inside the bleed is paper white or overprinting solid black; no stroke is
    thinner than 0.25 pt; no CMYK colour is over 300 %."""
    pdf = _card(produced, name) / "card.pdf"
    seen_fine = 0
    for index, ops in enumerate(read_pages(pdf)):
        bleed = page_boxes(pdf, index)["BleedBox"]
        for run in ops.texts:
            if not _inside(run.start, bleed):
                continue  # the slug: the line under the trim
            s = run.state
            if s.fill_space == "DeviceCMYK":
                assert sum(s.fill_color) <= 3.0 + 1e-6, run
            if run.size_pt < FINE_TYPE - 1e-6:
                seen_fine += 1
                assert _keeps_the_rule(s.fill_space, s.fill_color, s.fill_overprint, s.opm), run
        for painted in ops.painted:
            if not any(_inside(p, bleed) for sub in painted.subpaths for p in sub.points):
                continue  # the marks in the slug
            s = painted.state
            if painted.fill and s.fill_space == "DeviceCMYK":
                assert sum(s.fill_color) <= 3.0 + 1e-6, painted
            if not painted.stroke:
                continue
            assert painted.width_pt >= 0.25 - 1e-6, painted
            if painted.width_pt < 0.5 - 1e-6:
                assert _keeps_the_rule(s.stroke_space, s.stroke_color, s.stroke_overprint,
                                       s.opm), painted
    assert seen_fine > 40  # the labels, the contact lines, the Connector's fragments


# --- the printed files: separations ------------------------------------------------------

DPI = 300


@pytest.fixture(scope="module")
def plates(produced):
    """(card name, page) -> {plate: separation image}, made once."""
    made = {}

    def get(name, index):
        if (name, index) not in made:
            pdf = _card(produced, name) / "card.pdf"
            made[name, index] = separations(pdf, index, DPI)
        return made[name, index]

    return get


def _small_white_chars(pdf, index):
    """Boxes (mm, top-left origin) of the characters under 8 pt printed paper white."""
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[index]
        k = 25.4 / 72
        for ch in page.chars:
            colour = tuple(ch.get("non_stroking_color") or ())
            if ch["size"] < FINE_TYPE and colour == (0, 0, 0, 0) and ch["text"].strip():
                yield (ch["x0"] * k, ch["top"] * k, ch["x1"] * k, ch["bottom"] * k)


@pytest.mark.parametrize("name", sampled(["eu-dark-five-lines", "us-dark-portrait"],
                                          "eu-dark-five-lines"))
def test_reversed_small_type_sits_on_one_ink(produced, plates, name):
    """Around every small paper-white letter (its box and 0.5 mm more) only one plate
    carries ink: no art, no rich black, nothing that could show beside the letters when
    the plates do not line up."""
    pdf = _card(produced, name) / "card.pdf"
    checked = 0
    for index in (0, 1):
        seps = plates(name, index)
        for x0, y0, x1, y1 in _small_white_chars(pdf, index):
            box = tuple(mm_to_px(v, DPI) for v in (x0 - 0.5, y0 - 0.5, x1 + 0.5, y1 + 0.5))
            inked = [p for p in PROCESS if seps[p].crop(box).getextrema()[1] > 25]
            assert len(inked) <= 1, (index, (x0, y0), inked)
            checked += 1
    # The front's contact lines (the back's small type is black on its plates).
    assert checked > 30


def test_grid_lines_overprint_the_ground_under_them(produced, plates):
    """The 100 % K grid lines do not knock the tint out of the other plates: on the cyan
    plate grid A's tint runs on unbroken under its lines (knocked-out lines would show as
    a grid of white hairlines wherever the plates do not line up)."""
    from cardgen.card.build import build_card
    from cardgen.card.config import load_config
    from cardgen.physical.card import Preset

    geometry = build_card(load_config(None).with_overrides(preset=Preset.US)).geometry
    grid = geometry.board.grid_a.inset(0.3)
    cyan = plates("us-light", 1)["C"].crop(tuple(mm_to_px(v, DPI) for v in (
        grid.x, grid.y, grid.right, grid.bottom)))
    low, high = cyan.getextrema()
    assert low > 5 and high - low < 6, (low, high)  # the flat tint, no holes for the lines
    black = plates("us-light", 1)["K"].crop(tuple(mm_to_px(v, DPI) for v in (
        grid.x, grid.y, grid.right, grid.bottom)))
    assert black.getextrema()[1] > 200  # the lines are there, on the black plate


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is not installed")
@pytest.mark.slow
def test_the_separations_agree_with_ghostscript(produced, plates, tmp_path):
    """The separation renderer the tests use against Ghostscript's tiffsep, which
    simulates overprint as a RIP does (run where Ghostscript is installed)."""
    pdf = _card(produced, "us-dark-portrait") / "card.pdf"
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-sDEVICE=tiffsep", f"-r{DPI}",
                    f"-sOutputFile={tmp_path}/p%d.tif", str(pdf)], check=True, timeout=120)
    names = {"C": "Cyan", "M": "Magenta", "Y": "Yellow", "K": "Black"}
    for index in (0, 1):
        for plate, ours in plates("us-dark-portrait", index).items():
            theirs = ImageOps.invert(Image.open(tmp_path / f"p{index + 1}({names[plate]}).tif")
                                     .convert("L")).resize(ours.size)
            # Same ink on average (within 2 %), and the same almost everywhere (edges of
            # hairlines are drawn a pixel apart).
            mean = [sum(i * n for i, n in enumerate(im.histogram())) / (im.width * im.height)
                    for im in (ours, theirs)]
            assert abs(mean[0] - mean[1]) < 0.02 * 255, (index, plate, mean)
            difference = ImageChops.difference(ours, theirs).histogram()
            assert sum(difference[96:]) / sum(difference) < 0.08, (index, plate)
