"""The Corporate Ladder play mat and rules sheet, read back from the PDF: the places at
the cards' full size where the pyramid model puts them and inside the printable area,
the rules on exactly one page saying every rule, the ink rule, and the commands."""

from __future__ import annotations

import functools
import io
import itertools
import re

import pdfplumber
import pytest
from pypdf import PdfReader

from cardgen.draw.colors import Color
from cardgen.draw.page import page_texts
from cardgen.games.names import GameName
from cardgen.ladder.mat import STYLE, plan
from cardgen.ladder.mat import mat_document as build_mat
from cardgen.ladder.pyramid import Pyramid, Slot
from cardgen.physical.card import PRESETS, Preset
from cardgen.prepress.ink import page_ink_problems
from cardgen.prepress.paper import Paper
from cardgen.render.pdf import render_pdf
from cardgen.rules.ladder import rules_document
from cardgen.rules.sheet import STYLE as SHEET
from cardgen.text.fonts import bundled_fonts
from cardgen.units import MM_PER_PT
from tests.helpers import cli, error_line, ok, sampled

FONTS = bundled_fonts()
TOL = 0.1  # mm
EDGE = 5.0  # the printable margin


def mm(points: float) -> float:
    return points * MM_PER_PT


def card_rects(page, preset: Preset) -> list[tuple[float, float, float, float]]:
    """The rectangles of a page that are a card's size: (x, y, w, h) in mm, y down."""
    size = PRESETS[preset]
    found = []
    for r in page.rects:
        x, y, w, h = mm(r["x0"]), mm(r["top"]), mm(r["width"]), mm(r["height"])
        if abs(w - size.width) <= TOL and abs(h - size.height) <= TOL:
            found.append((x, y, w, h))
    return sorted(found, key=lambda b: (round(b[1]), b[0]))


def model_boxes(rows: int, preset: Preset, paper: Paper):
    layout = plan(rows, preset, paper)
    return layout, [layout.boxes[s] for s in Pyramid(rows).slots()]


@pytest.fixture(scope="module")
def mats():
    cache = {}

    def get(rows: int, preset: Preset, paper: Paper):
        key = (rows, preset, paper)
        if key not in cache:
            document = build_mat(rows, preset, paper, FONTS)
            cache[key] = document, pdfplumber.open(io.BytesIO(render_pdf(document)))
        return cache[key]

    yield get
    for _, pdf in cache.values():
        pdf.close()


@pytest.mark.parametrize("preset,paper", list(itertools.product(Preset, Paper)))
def test_a_three_row_mat_holds_full_size_cards_on_one_landscape_sheet(mats, preset, paper):
    document, pdf = mats(3, preset, paper)
    [page] = pdf.pages
    pw, ph = mm(page.width), mm(page.height)
    assert pw > ph and (round(ph, 1), round(pw, 1)) == paper.size
    rects = card_rects(page, preset)
    layout, boxes = model_boxes(3, preset, paper)
    assert len(rects) == 6
    x0, y0 = rects[0][0] - boxes[0].x, rects[0][1] - boxes[0].y
    for (x, y, _, _), box in zip(rects, boxes, strict=True):
        assert abs(x - x0 - box.x) <= TOL and abs(y - y0 - box.y) <= TOL
        assert x >= EDGE and x + box.w <= pw - EDGE and y >= EDGE and y + box.h <= ph - EDGE
    assert layout.gap[0] >= STYLE.min_gap_x
    assert page_ink_problems(document.pages[0]) == []


def test_us_cards_on_letter_are_the_tight_case():
    layout = plan(3, Preset.US, Paper.LETTER)
    assert layout.gap[0] == pytest.approx((279.4 - 2 * 5.3 - 3 * 88.9) / 2)
    assert plan(3, Preset.EU, Paper.A4).gap == (STYLE.gap_x, STYLE.gap_y)


@pytest.mark.parametrize("preset,paper", [(Preset.EU, Paper.A4), (Preset.US, Paper.LETTER)])
def test_a_four_row_mat_is_two_portrait_sheets_to_glue(mats, preset, paper):
    document, pdf = mats(4, preset, paper)
    assert len(pdf.pages) == 2
    layout, boxes = model_boxes(4, preset, paper)
    joins = []
    for page in pdf.pages:
        pw, ph = mm(page.width), mm(page.height)
        assert pw < ph and (round(pw, 1), round(ph, 1)) == paper.size
        rects = card_rects(page, preset)
        assert len(rects) == 10  # drawn whole, clipped at the join
        x0, y0 = rects[0][0] - boxes[0].x, rects[0][1] - boxes[0].y
        for (x, y, _, _), box in zip(rects, boxes, strict=True):
            assert abs(x - x0 - box.x) <= TOL and abs(y - y0 - box.y) <= TOL
            assert y >= EDGE and y + box.h <= ph - EDGE
        joins.append((x0, x0 + layout.join, pw))
    (left0, join1, pw1), (left0b, join2, pw2) = joins
    # Sheet 1 prints from the mat's left edge to the join and its glue strip.
    assert left0 >= EDGE and join1 + STYLE.glue <= pw1 - EDGE
    # Sheet 2 prints from its cut strip left of the join to the mat's right edge.
    assert join2 - STYLE.cut_strip >= EDGE and left0b + layout.size[0] <= pw2 - EDGE
    # The join is drawn on both sheets: dashed on sheet 1, solid on sheet 2.
    for page, join in zip(pdf.pages, (join1, join2), strict=True):
        verticals = [line for line in page.lines if abs(mm(line["x0"]) - join) <= TOL
                     and abs(mm(line["x1"]) - join) <= TOL]
        assert verticals, "no join line"
    for page in document.pages:
        assert page_ink_problems(page) == []


def test_a_mat_that_does_not_fit_or_has_the_wrong_rows():
    from cardgen.errors import CardgenError

    with pytest.raises(CardgenError, match="3 or 4 rows, not 5"):
        plan(5, Preset.EU, Paper.A4)


@pytest.fixture(scope="module")
def rules_pdfs():
    out = {}
    for paper in Paper:
        document = rules_document(paper, FONTS)
        out[paper] = document, render_pdf(document)
    return out


@functools.cache
def _column_text(data: bytes) -> str:
    """The page's text column by column, white space collapsed (read once a file: two
    tests read each paper's sheet)."""
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        page = pdf.pages[0]
        pw = mm(page.width)
        m, gap, n = SHEET.margin, SHEET.column_gap, SHEET.columns
        width = (pw - 2 * m - (n - 1) * gap) / n
        parts = [page.crop((0, 0, page.width, (m + 12) / MM_PER_PT)).extract_text()]
        for c in range(n):
            left = m + c * (width + gap)
            box = (left / MM_PER_PT - 1, (m + 12) / MM_PER_PT, (left + width) / MM_PER_PT + 1,
                   page.height)
            parts.append(page.crop(box).extract_text())
    return " ".join(" ".join(parts).replace("’", "'").split())


# Each rule the sheet must state, by a phrase of it.
KEY_PHRASES = [
    "Corporate Ladder", "Upper Management:", "Middle Management:", "Wordsmith:", "Artist:",
    "Press:", "Freelancer:", "Other:", "Freelancer always wins", "the longest matching words",
    "templates/ladder/types.toml", "first digit", "0 for a card with no digit",
    "cardgen tells you the type and Strength", "has signed it", "3 rows (6 cards)",
    "4 rows (10 cards)", "Press cards dealt now are set aside", "a hand of 5",
    "fewer than 4 cards in hand, draw up to 5", "with 4 to 10, draw 2",
    "more than 10, draw nothing", "as many times as you like", "uncovered:",
    "no card lies directly below it", "both gone", "One card always makes a legal attack",
    "Cooperative Trio:", "exactly one Middle Management, one Wordsmith and one Artist",
    "Other cards never team up", "a Press card attacks alone", "no other mix is allowed",
    "Narrate every attack", "attack to lose", "Press wins", "never attacked",
    "An Evil Twin wins", "ignoring case and spacing", "The Cooperative Trio wins",
    "Type beats type", "Upper Management beats all four of those and Other",
    "loses the other way round", "Same type: by Strength", "ties to the attacker",
    "Freelancer on either side", "Freelancers count half", "rounded down",
    "until one side gives up", "Twins against a team", "the rest of the team stands",
    "Every card played in the fight is discarded", "pile of beaten cards",
    "Once per turn", "Freelancer from your hand", "only ladder left",
    "Press cards they set aside", "At least 20 cards", "No two identical cards",
    "1 to 4 Upper Management", "At most 4 cards from one company", "At most 6 Press",
    "face up, they win the argument", "can be attacked", "Mike Young",
]


@pytest.mark.parametrize("paper", sampled(list(Paper), Paper.A4))
def test_the_rules_fit_one_page_and_state_every_rule(rules_pdfs, paper):
    document, data = rules_pdfs[paper]
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 1
    width, height = (float(v) * MM_PER_PT for v in reader.pages[0].mediabox[2:])
    assert (round(width, 1), round(height, 1)) == paper.size
    text = _column_text(data)
    missing = [p for p in KEY_PHRASES if p not in text]
    assert not missing, missing
    [page] = document.pages
    assert page_ink_problems(page) == []
    sizes = [t.size for t, _ in page_texts(page)]
    assert min(sizes) >= 7.0
    assert all(t.color == Color.cmyk(0, 0, 0, 100, overprint=True)
               for t, _ in page_texts(page))


# The rules as settled from the game's own text: the Trio wins with no defence, so it is
# never counter-attacked (the sheet once said a Trio "can only be beaten by Press or a
# twin" beside "wins, with no defence"); the executives' acronyms, DIS included, are Upper
# Management, and how an acronym is told from three capitals.
SETTLED = [
    "The Cooperative Trio wins, with no defence.",
    "The Cooperative Trio is never counter-attacked: like Press and an Evil Twin, it wins "
    "at once, and no card, twin or Press card answers it.",
    "the executives' acronyms: any C…O (CEO, CFO, CTO…), DIS, VP, SVP, EVP, AVP and MD.",
    "An acronym counts only if it is on that list and stands as a word of its own in "
    "capitals", "three capitals are not enough, so a VFX Artist is an Artist and a QA "
    "Tester is Other.",
]
CONTRADICTED = ["can only be beaten by Press or a twin", "beaten by Press", "Trio stands"]


def _settled(text: str) -> None:
    text = " ".join(text.replace("’", "'").split())
    missing = [p for p in SETTLED if p not in text]
    assert not missing, missing
    assert not [p for p in CONTRADICTED if p in text]


@pytest.mark.parametrize("paper", list(Paper))
def test_the_rules_sheet_says_the_settled_trio_and_acronym_rules(rules_pdfs, paper):
    _settled(_column_text(rules_pdfs[paper][1]))


def test_the_rules_book_chapter_says_the_settled_trio_and_acronym_rules():
    from cardgen.rules.book import book_document

    data = render_pdf(book_document([GameName.LADDER], Paper.A4, FONTS))
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        # The running head and page number aside, page after page.
        text = " ".join(" ".join(page.extract_text().splitlines()[1:-1]) for page in pdf.pages)
    _settled(text)


def test_the_rules_text_that_does_not_fit_says_so(monkeypatch):
    from cardgen.errors import FitError
    from cardgen.rules import ladder, sheet

    monkeypatch.setattr(ladder, "rules_pages", lambda *a, **k: sheet.rules_pages(
        *a, **k, style=sheet.SheetStyle(body_size=14.0)))
    with pytest.raises(FitError, match=r"ladder\.md\) does not fit on 1 page of A4 at 14 pt"):
        rules_document(Paper.A4, FONTS)


def test_the_commands_write_the_mat_and_the_rules(tmp_path):
    result = ok(cli("ladder", "mat", "--rows", "4", "--preset", "us", "--paper", "letter",
                    "-o", tmp_path, "--name", "m"))
    assert "2 sheets" in result.stdout
    assert len(PdfReader(tmp_path / "m.pdf").pages) == 2
    ok(cli("ladder", "mat", "-o", tmp_path, "--format", "svg,png", "--dpi", "40"))
    assert (tmp_path / "ladder-mat.svg").is_file() and (tmp_path / "ladder-mat.png").is_file()
    result = ok(cli("ladder", "rules", "--paper", "letter", "-o", tmp_path, "-f", "pdf,svg"))
    assert re.findall(r"wrote \S+", result.stdout) == [
        f"wrote {tmp_path / 'ladder-rules.pdf'}", f"wrote {tmp_path / 'ladder-rules.svg'}"]


@pytest.mark.parametrize("args,needle,status", [
    (["mat", "--rows", "5"], "--rows must be 3 or 4", 1),
    (["mat", "--preset", "a7"], "--preset must be one of eu, us", 2),  # not a choice: usage
    (["mat", "--paper", "b5"], "--paper must be one of a4, letter", 2),
    (["rules", "--format", "jpg"], "--format: unknown format", 2),
])
def test_bad_options_are_one_line(tmp_path, args, needle, status):
    error_line(cli("ladder", *args, "-o", tmp_path), needle, status=status)


def test_slot_is_what_the_model_names():
    assert str(Slot(0, 0)) == "row 1 place 1"
