"""No type too small to read, in any product cardgen prints: the smallest glyph of each
produced PDF, measured as it prints (tests.glyphs: PDFium's characters with their
matrix), is at least 5 pt, and at least 6 pt wherever the text is read in play (the
card's and the sheets' trimmed pieces, the puzzles a player solves, the play sheets, the
Ladder mat). The measure is checked against a second reader, pdfminer (the reader inside
pdfplumber), page by page. The whole books (rules book and booklets, puzzle books) are
measured and checked in the full run only; the quick loop measures every other product,
the rules sheets and a printed board with its key among them. README's "Type sizes"
table states these minima; :func:`test_readme_states_the_measured_minima` keeps it
true."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from tests.glyphs import glyphs as pdfium_glyphs
from tests.glyphs import (
    least,
    page_count,
    page_minima,
    page_texts,
    pdfminer_glyphs,
    smallest,
)
from tests.helpers import ROOT

LEAST = 5.0  # pt: every glyph
IN_PLAY = 6.0  # pt: text read while playing
EPS = 0.005  # rounding of sizes written as decimals in the file


def _readers_agree(pdf: Path) -> None:
    """The two readers see the same smallest size on every page (0.05 pt)."""
    pages = page_count(pdf)
    ours = page_minima(pdfium_glyphs(pdf), pages)
    theirs = page_minima(pdfminer_glyphs(pdf), pages)
    assert any(not math.isinf(a) for a in ours), pdf.name
    for page, (a, b) in enumerate(zip(ours, theirs, strict=True), 1):
        assert (math.isinf(a) and math.isinf(b)) or abs(a - b) < 0.05, (pdf.name, page, a, b)


def test_the_measure_sees_turned_and_scaled_type_at_its_printed_size(produced):
    """A play sheet's row labels lie along grids turned a quarter, in a page drawn in
    millimetres: pdfplumber's own ``size`` says 1.5-3.6 pt for them (the height of a
    turned letter's box), the measure and pdfminer's text matrix both say 6 pt."""
    import pdfplumber

    pdf = produced("playsheet", "deflector", "--players", "4", "--paper", "letter",
                   "--preset", "us") / "playsheet-deflector.pdf"
    with pdfplumber.open(pdf) as doc:
        naive = min(c["size"] for page in doc.pages for c in page.chars if c["text"].strip())
    assert naive < 2.0
    assert smallest(pdf).size >= IN_PLAY - EPS
    _readers_agree(pdf)


def _book(made, name: str) -> Path:
    """The one PDF of a command line of ``tests.every_pdf`` (made once a run, shared with
    the other files that read it)."""
    (pdf,) = made(name).values()
    return pdf


# The measure checked against pdfminer: on small files of every kind in the quick loop
# (the card and its dieline, a sheet, the registration page, a rules sheet with the
# Connector figures, a Ladder mat with text outside its trim); on the whole books, where
# pdfminer takes a second or more each, in the full run.
AGREE: dict[str, tuple[tuple[str, ...], str]] = {
    "card": (("card", "--preset", "eu", "-f", "pdf"), "card.pdf"),
    "card-dieline": (("card", "--preset", "eu", "-f", "pdf"), "card-dieline.pdf"),
    "card-us": (("card", "--preset", "us", "-f", "pdf"), "card.pdf"),
    "sheet": (("sheet", "--paper", "a4", "--preset", "eu"), "sheet.pdf"),
    "registration": (("sheet", "--registration"), "sheet-registration.pdf"),
    "rules-connector": (("rules", "connector", "--paper", "letter"), "rules-connector.pdf"),
    "ladder-mat": (("ladder", "mat", "--rows", "4", "--preset", "us"), "ladder-mat.pdf"),
}
AGREE_IN_FULL = {"rules-book": "rules-book", "puzzle-book": "rotator-book"}


def test_pdfminer_reads_the_same_glyphs_from_the_type_alone(produced):
    """pdfminer reads a copy of each file cut down to the operators that place and size
    type (``tests.glyphs._text_only``): from a rules sheet with the Connector figures,
    every glyph, size and place, is what it reads from the whole file."""
    args, file = AGREE["rules-connector"]
    pdf = produced(*args) / file
    whole = pdfminer_glyphs(pdf, text_only=False)
    assert whole and pdfminer_glyphs(pdf) == whole


@pytest.mark.parametrize("name", sorted(AGREE))
def test_the_two_readers_agree(produced, name):
    args, file = AGREE[name]
    _readers_agree(produced(*args) / file)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(AGREE_IN_FULL))
def test_the_two_readers_agree_on_whole_books(made, name):
    _readers_agree(_book(made, AGREE_IN_FULL[name]))


@pytest.mark.parametrize("preset", ["eu", "us"])
def test_card(produced, preset):
    """The card: everything on the pieces (grid labels, contact lines, Connector
    fragments) at least 6 pt; the slug outside the trim at least 5 pt."""
    folder = produced("card", "--preset", preset, "-f", "pdf")
    pdf = folder / "card.pdf"
    assert smallest(pdf, in_trim=True).size >= IN_PLAY - EPS
    assert smallest(pdf, in_trim=False).size >= LEAST - EPS
    dieline = folder / "card-dieline.pdf"
    assert smallest(dieline).size >= LEAST - EPS, smallest(dieline)


@pytest.mark.parametrize("preset", ["eu", "us"])
def test_dieline_layer(produced, preset):
    pdf = produced("card", "--preset", preset, "-f", "pdf", "--dieline", "layer") / "card.pdf"
    assert smallest(pdf).size >= LEAST - EPS


@pytest.mark.parametrize(("paper", "preset"), [("a4", "eu"), ("letter", "us")])
def test_sheets(produced, paper, preset):
    """Duplex sheets hold the cards at their size: in-play type everywhere."""
    pdf = produced("sheet", "--paper", paper, "--preset", preset) / "sheet.pdf"
    assert smallest(pdf).size >= IN_PLAY - EPS, smallest(pdf)


def test_registration_page(produced):
    pdf = produced("sheet", "--registration") / "sheet-registration.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


@pytest.mark.slow
def test_rules_book(made):
    """The rules book, the Connector figures and the table diagrams included (a
    miniature too small to read draws its words as grey bars)."""
    pdf = _book(made, "rules-book")
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


@pytest.mark.slow
def test_rules_book_on_letter(produced):
    """The same on Letter (its pages are also those of the Letter booklet)."""
    pdf = produced("rules", "all", "--paper", "letter") / "rules-all.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rules-booklet", "rules-booklet-letter"])
def test_rules_booklet(made, name):
    """Imposed two pages a side, the booklet keeps the pages' size."""
    pdf = _book(made, name)
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


@pytest.mark.parametrize("game", ["rotator", "reflector", "deflector", "defector",
                                  "connector", "ladder"])
def test_rules_sheets(produced, game):
    pdf = produced("rules", game, "--paper", "letter") / f"rules-{game}.pdf"
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


def _boards_and_keys(pdf: Path) -> None:
    """The boards a player solves at least 6 pt (their grid labels too); the answer
    keys' turn numbers at least 5 pt."""
    texts = page_texts(pdf)
    keys = {n for n, text in enumerate(texts, 1) if text.lstrip().startswith("Solutions")}
    assert keys and len(keys) < len(texts)
    found = pdfium_glyphs(pdf)
    assert least([g for g in found if g.page not in keys]).size >= IN_PLAY - EPS
    assert least([g for g in found if g.page in keys]).size >= LEAST - EPS


def test_printed_board_key_and_rules(made):
    """``rotator print --key --rules``: a board, its answer key and the rules sheet."""
    pdf = _book(made, "rotator-print")
    assert smallest(pdf).size >= LEAST - EPS, smallest(pdf)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["rotator-book", "rotator-book-large-letter"])
def test_puzzle_book_and_answer_keys(made, name):
    """The puzzle books every run makes (A4 and card size, Letter and large)."""
    _boards_and_keys(_book(made, name))


@pytest.mark.slow
@pytest.mark.parametrize(("paper", "size"), [("a4", "card"), ("letter", "card"),
                                             ("letter", "large")])
def test_puzzle_books_of_six_and_their_answer_keys(produced, paper, size):
    """Six puzzles of the default difficulty, whose keys list more turns: the keys' turn
    numbers were 3.6 pt on A4 and 3.3 pt on Letter before."""
    out = produced("rotator", "generate", "--seed", "7", "--count", "6", "--jobs", "1",
                   "--paper", paper, "--size", size)
    _boards_and_keys(out if out.is_file() else out / "rotator.pdf")  # -o names the PDF


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


def test_the_guide_states_the_measured_minima():
    """The guide gives the smallest type of each product, and no longer claims "nothing
    under 8 pt" for the book."""
    text = (ROOT / "docs" / "printing.md").read_text(encoding="utf-8")
    assert "nothing under 8 pt but the running head" not in text
    section = text[text.index("## Type sizes"):]
    section = section[:section.index("\n#", 1)]
    rows = dict(re.findall(r"^\| ([^|]+?) \| ([0-9.]+) pt", section, re.M))
    for product in ("card", "card sheets", "registration page", "dieline files",
                    "rules book and rules sheets", "puzzle book: boards",
                    "puzzle book: answer keys", "play sheets", "Ladder mat", "Ladder rules"):
        assert product in rows, product
        assert float(rows[product]) >= LEAST
