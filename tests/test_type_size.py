"""No type too small to read, in any product cardgen prints: the smallest glyph of each
produced PDF, measured as it prints (tests.glyphs: pdfplumber's characters with their
text matrix, checked against PDFium), is at least 5 pt, and at least 6 pt wherever the
text is read in play (the card's and the sheets' trimmed pieces, the puzzles a player
solves, the play sheets, the Ladder mat). README's "Type sizes" table states these
minima; :func:`test_readme_states_the_measured_minima` keeps it true."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from tests.glyphs import Glyph, glyphs, pdfium_sizes, pdfplumber_page_minima, smallest
from tests.helpers import ROOT

LEAST = 5.0  # pt: every glyph
IN_PLAY = 6.0  # pt: text read while playing
EPS = 0.005  # rounding of sizes written as decimals in the file


def _least(found: list[Glyph]) -> Glyph:
    return min(found, key=lambda g: (g.size, g.page, g.top, g.x))


def _agrees_with_pdfium(pdf: Path) -> None:
    """The two readers see the same smallest size on every page (0.05 pt)."""
    ours, theirs = pdfplumber_page_minima(pdf), pdfium_sizes(pdf)
    for page, (a, b) in enumerate(zip(ours, theirs, strict=True), 1):
        assert (math.isinf(a) and math.isinf(b)) or abs(a - b) < 0.05, (pdf.name, page, a, b)


def test_the_measure_sees_turned_and_scaled_type_at_its_printed_size(produced):
    """A play sheet's row labels lie along grids turned a quarter, in a page drawn in
    millimetres: pdfplumber's own ``size`` says 1.5-3.6 pt for them (the height of a
    turned letter's box), the measure and PDFium both say 6 pt."""
    import pdfplumber

    pdf = produced("playsheet", "deflector", "--players", "4", "--paper", "letter",
                   "--preset", "us") / "playsheet-deflector.pdf"
    with pdfplumber.open(pdf) as doc:
        naive = min(c["size"] for page in doc.pages for c in page.chars if c["text"].strip())
    assert naive < 2.0
    assert smallest(pdf).size >= IN_PLAY - EPS
    _agrees_with_pdfium(pdf)


@pytest.mark.parametrize("preset", ["eu", "us"])
def test_card(produced, preset):
    """The card: everything on the pieces (grid labels, contact lines, Connector
    fragments) at least 6 pt; the slug outside the trim at least 5 pt."""
    folder = produced("card", "--preset", preset, "-f", "pdf")
    pdf = folder / "card.pdf"
    assert smallest(pdf, in_trim=True).size >= IN_PLAY - EPS
    assert smallest(pdf).size >= LEAST - EPS
    _agrees_with_pdfium(pdf)
    dieline = folder / "card-dieline.pdf"
    assert smallest(dieline).size >= LEAST - EPS, smallest(dieline)
    _agrees_with_pdfium(dieline)


@pytest.mark.parametrize("preset", ["eu", "us"])
def test_dieline_layer(produced, preset):
    pdf = produced("card", "--preset", preset, "-f", "pdf", "--dieline", "layer") / "card.pdf"
    assert smallest(pdf).size >= LEAST - EPS


@pytest.mark.parametrize(("paper", "preset"), [("a4", "eu"), ("letter", "us")])
def test_sheets(produced, paper, preset):
    """Duplex sheets hold the cards at their size: in-play type everywhere."""
    pdf = produced("sheet", "--paper", paper, "--preset", preset) / "sheet.pdf"
    assert smallest(pdf).size >= IN_PLAY - EPS, smallest(pdf)
    _agrees_with_pdfium(pdf)


def test_registration_page(produced):
    pdf = produced("sheet", "--registration") / "sheet-registration.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)
    _agrees_with_pdfium(pdf)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rules_book(produced, paper):
    """The rules book, the Connector figures and the table diagrams included (a
    miniature too small to read draws its words as grey bars)."""
    pdf = produced("rules", "all", "--paper", paper) / "rules-all.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)
    _agrees_with_pdfium(pdf)


@pytest.mark.slow
def test_rules_booklet(produced):
    """Imposed two pages a side, the booklet keeps the pages' size."""
    pdf = produced("rules", "all", "--booklet") / "rules-all-booklet.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


@pytest.mark.parametrize("game", ["rotator", "reflector", "deflector", "defector",
                                  "connector", "ladder"])
def test_rules_sheets(produced, game):
    pdf = produced("rules", game, "--paper", "letter") / f"rules-{game}.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


def _page_texts(pdf: Path) -> list[str]:
    import pdfplumber

    with pdfplumber.open(pdf) as doc:
        return [page.extract_text() or "" for page in doc.pages]


@pytest.mark.slow
@pytest.mark.parametrize(("paper", "size"), [("a4", "card"), ("letter", "card"),
                                             ("letter", "large")])
def test_puzzle_book_and_answer_keys(produced, paper, size):
    """The boards a player solves at least 6 pt (their grid labels too); the answer
    keys' turn numbers at least 5 pt (3.6 pt on A4 and 3.3 pt on Letter before)."""
    out = produced("rotator", "generate", "--seed", "7", "--count", "6", "--jobs", "1",
                   "--paper", paper, "--size", size)
    pdf = out if out.is_file() else out / "rotator.pdf"  # -o names the PDF itself
    texts = _page_texts(pdf)
    keys = {n for n, text in enumerate(texts, 1) if text.lstrip().startswith("Solutions")}
    assert keys and len(keys) < len(texts)
    found = glyphs(pdf)
    assert _least([g for g in found if g.page not in keys]).size >= IN_PLAY - EPS
    assert _least([g for g in found if g.page in keys]).size >= LEAST - EPS
    _agrees_with_pdfium(pdf)


@pytest.mark.parametrize(("game", "players", "paper", "preset"), [
    ("reflector", "2", "a4", "eu"), ("deflector", "5", "a4", "eu"),
    ("deflector", "4", "letter", "us"), ("defector", "6", "letter", "us")])
def test_play_sheets(produced, game, players, paper, preset):
    pdf = produced("playsheet", game, "--players", players, "--paper", paper,
                   "--preset", preset) / f"playsheet-{game}.pdf"
    assert smallest(pdf).size >= IN_PLAY - EPS, smallest(pdf)


@pytest.mark.parametrize(("rows", "preset"), [("3", "eu"), ("4", "us")])
def test_ladder_mat(produced, rows, preset):
    pdf = produced("ladder", "mat", "--rows", rows, "--preset", preset) / "ladder-mat.pdf"
    assert smallest(pdf).size >= IN_PLAY - EPS, smallest(pdf)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_ladder_rules(produced, paper):
    pdf = produced("ladder", "rules", "--paper", paper) / "ladder-rules.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


def test_readme_states_the_measured_minima():
    """README gives the smallest type of each product, and no longer claims "nothing
    under 8 pt" for the book."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "nothing under 8 pt but the running head" not in text
    section = text[text.index("### Type sizes"):]
    section = section[:section.index("\n#", 1)]
    rows = dict(re.findall(r"^\| ([^|]+?) \| ([0-9.]+) pt", section, re.M))
    for product in ("card", "card sheets", "registration page", "dieline files",
                    "rules book and rules sheets", "puzzle book: boards",
                    "puzzle book: answer keys", "play sheets", "Ladder mat", "Ladder rules"):
        assert product in rows, product
        assert float(rows[product]) >= LEAST
