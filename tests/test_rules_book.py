"""The rules book (cardgen.rules.book): pages half the paper, reading order, page numbers,
running heads, contents and bookmarks that agree with where things are, and the
typesetting rules — no widow or orphan line, headings with what follows, figures and
tables whole — checked on synthetic texts and read back from the PDF with pdfplumber and
pypdf."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pdfplumber
import pytest
from pypdf import PdfReader

from cardgen.draw.page import page_texts
from cardgen.errors import CardgenError
from cardgen.games.names import GameName
from cardgen.prepress.booklet import page_size
from cardgen.prepress.ink import page_ink_problems
from cardgen.prepress.paper import Paper
from cardgen.render import Format, render
from cardgen.rules.book import STYLE, book_document
from cardgen.rules.markup import MarkupError
from cardgen.text.fonts import bundled_fonts
from tests.pdfread import pdfx_problems

FONTS = bundled_fonts()
PT = 72 / 25.4


def _words(n: int, tag: str) -> str:
    return " ".join(f"{tag}w{i % 7}" for i in range(n))


def synthetic(folder: Path, game: str = "ladder", *, sections: int = 9, seed: int = 3,
              words: tuple[int, int] = (12, 90)) -> Path:
    """A rules text of many paragraphs whose words all name their paragraph (``pN``), with
    headings, bullets, a figure and a table between them."""
    lines = ["# Synthetic", ""]
    n = 0
    for s in range(sections):
        lines += [f"## Section {s}", ""]
        for _k in range(3 + (s * seed) % 3):
            n += 1
            lines += [_words(words[0] + (n * 37) % words[1], f"p{n}"), ""]
        if s == 2:
            lines += ["@figure ladder-attack: The caption is set under the figure.", ""]
        if s == 4:
            lines += ["| Players | Nodes to win |", "| --- | --- |"]
            lines += [f"| {k} | {k * 3} |" for k in range(3, 9)] + [""]
        if s == 5:
            lines += ["### A subsection", ""]
            lines += [f"- **Item {k}:** {_words(14, f'b{k}')}" for k in range(5)] + [""]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{game}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def _pdf(document) -> bytes:
    return render(document, [Format.PDF])[".pdf"]


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    folder = synthetic(tmp_path_factory.mktemp("texts"))
    for game in ("rotator", "connector"):
        synthetic(folder, game, sections=3, seed=5)
    document = book_document([GameName.ROTATOR, GameName.CONNECTOR, GameName.LADDER],
                             Paper.A4, FONTS, folder=folder)
    return document, _pdf(document)


def test_pages_are_half_the_paper():
    assert page_size(Paper.A4) == (148.5, 210.0)
    assert page_size(Paper.LETTER) == pytest.approx((139.7, 215.9))


@pytest.fixture(scope="module")
def plumbed(book):
    """The book's PDF opened once in pdfplumber for the two tests that read its words
    (pdfplumber keeps each page's parsed objects: the second reads them again)."""
    with pdfplumber.open(io.BytesIO(book[1])) as plumber:
        yield plumber


@pytest.mark.slow
def test_every_page_has_its_number_at_the_foot_on_the_outer_side(plumbed):
    for number, page in enumerate(plumbed.pages, start=1):
        w, h = page.width, page.height
        foot = [wd for wd in page.extract_words() if wd["top"] > h - 14 * PT]
        assert [wd["text"] for wd in foot] == [str(number)], number
        middle = (foot[0]["x0"] + foot[0]["x1"]) / 2
        assert (middle > w / 2) == (number % 2 == 1), number  # page 1 is a right page


def test_title_page_contents_and_bookmarks_agree_with_the_pages(book, plumbed):
    _document, pdf = book
    reader = PdfReader(io.BytesIO(pdf))
    texts = [page.extract_text() for page in plumbed.pages]
    headings = []  # each page's lines set at a heading's size or larger
    for page in plumbed.pages:
        lines: dict[float, list[str]] = {}
        for word in page.extract_words(extra_attrs=["size"]):
            if word["size"] >= STYLE.section_size - 0.1:
                lines.setdefault(round(word["top"], 1), []).append(word["text"])
        headings.append([" ".join(words) for _, words in sorted(lines.items())])
    assert "The Business Card Games" in texts[0]
    assert texts[1].startswith("Contents") or "Contents" in texts[1].split("\n")[0]

    def page_of(title: str, after: int) -> int:
        """The first page from ``after`` on whose lines one is exactly ``title``."""
        for index in range(after, len(texts)):
            if title in headings[index]:
                return index + 1
        raise AssertionError(title)

    # Contents: "title .... number" lines, read back from the PDF.
    entries = texts[1].split("\n")[1:-1]  # after the heading, before the page number
    contents = [re.fullmatch(r"(.+?) (\d+)", line).groups() for line in entries]
    assert [t for t, _ in contents][:2] == ["Synthetic", "Section 0"]
    assert len(contents) == 3 + 3 + 3 + 9
    start = 2
    for title, number in contents:
        found = page_of(title, start - 1)
        assert found == int(number), title
        start = found

    # Bookmarks: the same entries, games at the top level, sections under them.
    outline = reader.outline
    tops = [o for o in outline if not isinstance(o, list)]
    assert [o.title for o in tops] == ["Contents", "Synthetic", "Synthetic", "Synthetic"]
    for mark in tops[1:]:
        assert reader.get_destination_page_number(mark) + 1 == page_of("Synthetic",
                                                                      reader.get_destination_page_number(mark))
    sections = outline[2]
    assert isinstance(sections, list) and [o.title for o in sections] == [
        f"Section {s}" for s in range(3)]


def _body_lines(page) -> list[tuple[float, str, float]]:
    """The body's lines of a page: (top, text, size), running head and folio left out."""
    out = []
    for item, _ in page_texts(page):
        if item.name in ("folio", "head", "chapter"):
            continue
        out.append((item.y, item.text, item.size))
    lines: dict[float, list[str]] = {}
    sizes: dict[float, float] = {}
    for y, text, size in sorted(out):
        lines.setdefault(round(y, 3), []).append(text)
        sizes[round(y, 3)] = size
    return [(y, "".join(parts), sizes[y]) for y, parts in sorted(lines.items())]


def test_no_widow_or_orphan_and_headings_stay_with_their_text(book):
    document, _ = book
    split = 0
    for page, following in zip(document.pages, document.pages[1:], strict=False):
        lines = [ln for ln in _body_lines(page) if ln[2] == STYLE.body_size]
        nxt = [ln for ln in _body_lines(following) if ln[2] == STYLE.body_size]
        if not lines or not nxt:
            continue
        last = re.findall(r"\b(p\d+)w", lines[-1][1])
        first = re.findall(r"\b(p\d+)w", nxt[0][1])
        if last and first and last[-1] == first[0]:
            split += 1
            tag = last[-1]
            before = sum(1 for ln in lines if tag in ln[1])
            after = sum(1 for ln in nxt if tag in ln[1])
            assert before >= 2 and after >= 2, (page.name, tag, before, after)
        # A heading never ends a page.
        body = _body_lines(page)
        assert body[-1][2] not in (STYLE.section_size, STYLE.subsection_size), page.name
    assert split >= 3  # the test saw paragraphs broken across pages


@pytest.mark.parametrize("seed", range(1, 9))
def test_a_heading_never_ends_a_page_whatever_follows_it(tmp_path, seed):
    """Short paragraphs (2–4 lines, which cannot break) after headings, at every offset."""
    folder = synthetic(tmp_path, sections=14, seed=seed, words=(seed * 3, 25))
    document = book_document([GameName.LADDER], Paper.A4, FONTS, folder=folder)
    for page in document.pages[:-1]:
        body = _body_lines(page)
        assert body[-1][2] not in (STYLE.section_size, STYLE.subsection_size), page.name


def test_the_text_stays_inside_its_area_and_follows_the_ink_rule(book):
    document, _ = book
    for page in document.pages:
        assert page_ink_problems(page) == []
        for item, t in page_texts(page):
            _x, y = t.apply(item.x, item.y)
            if item.name in ("folio", "head"):
                continue
            assert STYLE.top - 0.1 <= y <= page.height - STYLE.bottom + 0.1, (page.name, item)


def test_figures_and_tables_are_whole_on_one_page(book):
    document, _ = book
    pages_with = Counter()
    for page in document.pages:
        texts = " ".join(t.text for t, _ in page_texts(page))
        if "caption is set under" in texts:
            pages_with["caption"] += 1
        if "Nodes to win" in texts:
            rows = [t.text for t, _ in page_texts(page) if re.fullmatch(r"\d+", t.text)
                    and t.name != "folio"]
            assert {"3", "9", "8", "24"} <= set(rows)
            pages_with["table"] += 1
    assert pages_with == {"caption": 3, "table": 1}  # a figure in each game, one table


def test_a_single_game_has_no_title_page_and_no_contents(tmp_path):
    document = book_document([GameName.LADDER], Paper.LETTER, FONTS,
                             folder=synthetic(tmp_path, sections=2))
    assert document.pages[0].width == pytest.approx(139.7)
    first = [t.text for t, _ in page_texts(document.pages[0])]
    assert first[0] == "Synthetic" and "Contents" not in first
    assert [b.title for b in document.bookmarks] == ["Synthetic", "Section 0", "Section 1"]


def test_the_book_is_a_print_file_like_the_card(book):
    _, pdf = book
    assert pdfx_problems(pdf) == []  # PDF/X-1a: CMYK, boxes, fonts embedded, no transparency
    reader = PdfReader(io.BytesIO(pdf))
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            descriptor = font.get_object()["/FontDescriptor"]
            assert "/FontFile2" in descriptor


def test_the_same_input_gives_the_same_bytes(tmp_path):
    folder = synthetic(tmp_path, sections=2)
    make = lambda: _pdf(book_document([GameName.LADDER], Paper.A4, FONTS, folder=folder))  # noqa: E731
    assert make() == make()


def test_unknown_figures_and_broken_texts_name_the_file_and_line(tmp_path):
    (tmp_path / "ladder.md").write_text("# L\n\n## S\n\n@figure ladder-atack\n",
                                        encoding="utf-8")
    (tmp_path / "rotator.md").write_text("# R\n\n* star\n", encoding="utf-8")
    with pytest.raises(MarkupError) as caught:
        book_document([GameName.ROTATOR, GameName.LADDER], Paper.A4, FONTS, folder=tmp_path)
    message = str(caught.value)
    assert "rotator.md: line 3" in message
    assert "ladder.md: line 5: there is no figure called 'ladder-atack'; did you mean " \
           "'ladder-attack'?" in message


def test_a_word_wider_than_the_page_is_an_error(tmp_path):
    (tmp_path / "ladder.md").write_text("# L\n\n" + "x" * 200 + "\n", encoding="utf-8")
    with pytest.raises(CardgenError, match=r"ladder\.md, line 3: a word"):
        book_document([GameName.LADDER], Paper.A4, FONTS, folder=tmp_path)


def test_the_shipped_texts_make_a_book():
    games = list(GameName)
    document = book_document(games, Paper.A4, FONTS)
    assert len(document.pages) >= 2 * len(games)
    assert all(page_ink_problems(p) == [] for p in document.pages)
    for page in document.pages:  # also where figures waiting for room open a page
        body = _body_lines(page)
        assert not body or body[-1][2] not in (STYLE.section_size, STYLE.subsection_size), \
            page.name
    titles = [b.title for b in document.bookmarks if b.level == 0]
    assert len(titles) == len(games) + (len(games) > 1)  # and the contents
