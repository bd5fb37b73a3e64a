"""The rules markup (cardgen.rules.markup): every construct, every error with its line,
hostile text fuzzed, and the Corporate Ladder rules file parsed and checked against the
seed (its own words)."""

from __future__ import annotations

import re
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.errors import InputFileError
from cardgen.rules.markup import (
    Bullet,
    FigureRef,
    MarkupError,
    Paragraph,
    Section,
    Span,
    Subsection,
    Table,
    Title,
    load,
    parse,
)
from tests.helpers import ROOT, examples

RULES = ROOT / "templates" / "rules" / "ladder.md"
SEEDS = ROOT.parent / "shared" / "seeds"


def test_every_construct():
    text = ("# Game\n\nFirst line\nsecond line with **bold words** in it.\n\n## Set up\n\n"
            "- **Lead:** item one\n  continued here\n- item **two**\n\n## Play\n\n"
            "**Bold** start, then a bold run **across\na line** break.\n")
    assert parse(text, "t.md") == (
        Title("Game", 1),
        Paragraph((Span("First line second line with "), Span("bold words", True),
                   Span(" in it.")), 3),
        Section("Set up", 6),
        Bullet((Span("Lead:", True), Span(" item one continued here")), 8),
        Bullet((Span("item "), Span("two", True)), 10),
        Section("Play", 12),
        Paragraph((Span("Bold", True), Span(" start, then a bold run "),
                   Span("across a line", True), Span(" break.")), 14),
    )


def test_subsections_figures_and_tables():
    text = ("# G\n\n## Set up\n\n### Cards\n\n@figure table-3\n\n"
            "@figure a-b2: Two **Nodes** meet.\n\n"
            "| Players | Nodes |\n| :--- | ---: |\n| 3 | **10** |\n| 4 |  |\n\nAfter.\n")
    assert parse(text, "t.md")[1:] == (
        Section("Set up", 3),
        Subsection("Cards", 5),
        FigureRef("table-3", (), 7),
        FigureRef("a-b2", (Span("Two "), Span("Nodes", True), Span(" meet.")), 9),
        Table(((Span("Players"),), (Span("Nodes"),)),
              (((Span("3"),), (Span("10", True),)), ((Span("4"),), ())), 11),
        Paragraph((Span("After."),), 16),
    )
    # A figure or a table is what a section holds, as well as text.
    assert isinstance(parse("# G\n\n## S\n\n@figure f\n", "t")[2], FigureRef)


def test_line_endings_trailing_spaces_and_a_final_newline_do_not_matter():
    plain = parse("# G\n\ntext\n", "t")
    assert parse("# G  \r\n\r\ntext", "t") == plain
    assert plain[1].text == "text"


# text -> (line, words of the message)
ERRORS = {
    "# G\n\n#### Deep\n\nx\n": (3, "'####' headings"),
    "# G\n\n### Sub\n": (3, "subsection 'Sub' has no text"),
    "# G\n\n@figure Bad_Name\n": (3, "directive other than '@figure NAME'"),
    "# G\n\n@image x\n": (3, "directive other than"),
    "# G\n\n@figure x:\n": (3, "directive other than"),
    "# G\n\n@figure x: a **b\n": (3, "never closed"),
    "# G\n\n| a | b |\n| --- | --- |\n| 1 | 2 | 3 |\n": (5, "3 cells and the header 2"),
    "# G\n\n| a | b |\n| 1 | 2 |\n| 3 | 4 |\n": (4, "separates the header"),
    "# G\n\n| a | b |\n| --- | --- |\n": (3, "at least one row"),
    "# G\n\n| a | b\n| --- | --- |\n| 1 | 2 |\n": (3, "starts and ends with '|'"),
    "# G\n\n|  | b |\n| --- | --- |\n| 1 | 2 |\n": (3, "empty cell"),
    "# G\n\n| a | b |\n| --- | --- |\n| **1 | 2 |\n": (5, "never closed"),
    "# G\n\n##Tight\n\nx\n": (3, "a space and its"),
    "# G\n\n## **Bold**\n\nx\n": (3, "no bold markup"),
    "# G\n\n# Again\n": (3, "comes once, on the first line"),
    "\n# G\n": (2, "comes once"),
    "# G\n\n* star item\n": (3, "another marker"),
    "# G\n\n+ plus item\n": (3, "another marker"),
    "# G\n\n1. numbered\n": (3, "another marker"),
    "# G\n\n> quoted\n": (3, "quote"),
    "# G\n\n| a | b |\n": (3, "a table is a header row"),
    "# G\n\n---\n": (3, "horizontal rule"),
    "# G\ntext\n===\n": (3, "horizontal rule"),
    "# G\n\n-dash\n": (3, "not a bullet item"),
    "# G\n\n- \n": (3, "empty bullet"),
    "# G\n\n-   \n": (3, "empty bullet"),
    "# G\n\n    code\n": (3, "indented"),
    "# G\n\nplain\n  two spaces\n": (4, "indented"),
    "# G\n\n- item\n  - nested\n": (4, "nested lists"),
    "# G\n\n- item\n  > quote\n": (4, "continuation is a quote"),
    "# G\n\n- item\nparagraph\n": (4, "right after a bullet"),
    "# G\n\nuse `code`\n": (3, "backtick"),
    "# G\n\nsee [here](http://x)\n": (3, "link"),
    "# G\n\n![img](a.png)\n": (3, "link or an image"),
    "# G\n\na <b>tag</b>\n": (3, "HTML"),
    "# G\n\ntab\there\n": (3, "tab"),
    "# G\n\nbell \x07\n": (3, "U+0007"),
    "# G\n\na *lone* star\n": (3, "lone *"),
    "# G\n\n***three***\n": (3, "'***' is not markup"),
    "# G\n\nopen **bold\nnever closed\n": (3, "never closed"),
    "# G\n\nline\nand **open\n": (4, "never closed"),
    "# G\n\nempty ** ** run\n": (3, "empty bold run"),
    "# G\n\nfour **** stars\n": (3, "'****' is not markup"),
    "# G\n\nspaced ** bold** run\n": (3, "starts or ends with a space"),
    "# G\n\n## Nothing\n": (3, "has no text"),
    "no title\n": (1, "starts with its title"),
    "": (1, "starts with its title"),
}


@pytest.mark.parametrize("text,expected", ERRORS.items(), ids=list(ERRORS))
def test_each_error_names_the_file_and_its_line(text, expected):
    line, words = expected
    with pytest.raises(MarkupError) as caught:
        parse(text, "rules/x.md")
    message = str(caught.value)
    assert message.startswith("rules/x.md: ")
    assert any(p.startswith(f"line {line}: ") and words in p for p in caught.value.problems), (
        caught.value.problems)


def test_every_problem_is_reported_not_only_the_first():
    with pytest.raises(MarkupError) as caught:
        parse("# G\n\n#### a\n\n* b\n\nc `d`\n", "x.md")
    assert [p.split(":")[0] for p in caught.value.problems] == ["line 3", "line 5", "line 7"]


def test_a_rules_file_that_is_missing_or_not_text(tmp_path):
    with pytest.raises(InputFileError, match=r"rules file .* does not exist"):
        load(tmp_path / "none.md")
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"# G\n\n\xff\xfe\n")
    with pytest.raises(MarkupError, match="not a text file"):
        load(bad)


@settings(max_examples=examples(120), deadline=None)
@given(st.text(alphabet=st.sampled_from("#-*+>|` \n\t\r\x00ab[]()<>_1.é@:"), max_size=60))
def test_hostile_text_parses_or_fails_with_lines(text):
    try:
        blocks = parse(text, "fuzz.md")
    except MarkupError as exc:
        assert all(re.match(r"line \d+: ", p) for p in exc.problems), exc.problems
        return
    assert isinstance(blocks[0], Title)
    for block in blocks:
        if isinstance(block, Paragraph | Bullet):
            assert block.spans and all(s.text for s in block.spans)
            assert "**" not in block.text and "\t" not in block.text


@settings(max_examples=examples(25), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["p", "b", "s"]),
                          st.lists(st.tuples(st.from_regex(r"[a-z]{1,6}", fullmatch=True),
                                             st.booleans()), min_size=1, max_size=4)),
                min_size=1, max_size=6))
def test_generated_documents_read_back_as_written(parts):
    lines, expected = ["# Title", ""], []
    for kind, words in parts:
        if kind == "s":
            lines += [f"## {' '.join(w for w, _ in words)}", "", "text", ""]
            expected += [("s", " ".join(w for w, _ in words)), ("p", "text")]
            continue
        body = " ".join(f"**{w}**" if bold else w for w, bold in words)
        lines += [("- " if kind == "b" else "") + body, ""]
        expected.append((kind, " ".join(w for w, _ in words)))
    blocks = parse("\n".join(lines), "gen.md")
    kinds = {Section: "s", Bullet: "b", Paragraph: "p"}
    assert [(kinds[type(b)], b.text) for b in blocks[1:]] == expected


def test_the_ladder_rules_parse():
    blocks = load(RULES)
    assert blocks[0] == Title("Corporate Ladder", 1)
    sections = [b.text for b in blocks if isinstance(b, Section)]
    assert sections[:3] == ["The cards", "Setting up", "Your turn"]
    assert "Deck building" in sections


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not next to the repo")
@pytest.mark.parametrize("rules", sorted(RULES.parent.glob("*.md")), ids=lambda p: p.name)
def test_every_rules_text_is_in_the_projects_own_words(rules):
    """No run of seven words of a rules text appears in a seed document."""
    assert not copied_runs(rules.read_text(encoding="utf-8"))


@cache
def _seed_text() -> str:
    return " " + " ".join(" ".join(_words(p.read_text(encoding="utf-8", errors="replace")))
                          for p in sorted(SEEDS.glob("*.txt"))) + " "


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


def copied_runs(text: str, run: int = 7) -> list[str]:
    """Every run of ``run`` words of ``text`` that a seed document also has."""
    seed, ours = _seed_text(), _words(text)
    return [" ".join(ours[i:i + run]) for i in range(len(ours) - run + 1)
            if f" {' '.join(ours[i:i + run])} " in seed]


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed documents are not next to the repo")
def test_the_copy_check_can_fail():
    seed = next(iter(sorted(SEEDS.glob("*.txt")))).read_text(encoding="utf-8")
    assert copied_runs(" ".join(_words(seed)[200:220]))
