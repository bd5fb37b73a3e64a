"""Flowing paragraphs through frames (cardgen.text.flow): the line model stated in the
module's docstring, re-derived here from the font metrics."""

from __future__ import annotations

import itertools

import pytest

from cardgen.draw.colors import Color
from cardgen.draw.geometry import Box
from cardgen.errors import FitError, FontError
from cardgen.text.fit import line_height, wrap, wrap_runs
from cardgen.text.flow import Paragraph, Span, flow
from cardgen.text.fonts import bundled_fonts

FONTS = bundled_fonts()
INK = Color.cmyk(0, 0, 0, 100)
LONG = ("Every square you touch fills in three turns later, and the board turns a "
        "quarter after each move; drill through one solid square a turn.")


def para(text: str = LONG, size: float = 9.0, **spacing: float) -> Paragraph:
    return Paragraph(text, FONTS.regular, size, INK, **spacing)


def cap(size: float) -> float:
    return FONTS.regular.metrics.cap_height_mm(size)


def test_lines_are_wrapped_to_the_frame_and_stacked_by_their_line_height():
    frame = Box(10, 20, 40, 200)
    [lines] = flow([para()], [frame])
    assert [t.text for t in lines] == wrap(LONG, FONTS.regular, 9.0, 40)
    assert len(lines) > 2
    assert lines[0].y == pytest.approx(20 + cap(9.0))  # capitals touch the frame's top
    for a, b in itertools.pairwise(lines):
        assert b.y - a.y == pytest.approx(line_height(9.0))
    assert all(t.x == 10 and FONTS.regular.width(t.text, 9.0) <= 40 for t in lines)


def test_space_after_and_before_separate_paragraphs_but_not_at_a_frame_top():
    frame = Box(0, 0, 60, 200)
    [lines] = flow([para("First.", space_after=1.2, space_before=5),
                    para("Second.", 7.0, space_before=3)], [frame])
    first, second = lines
    assert first.y == pytest.approx(cap(9.0))  # no space_before at the top
    assert second.y == pytest.approx(first.y + line_height(9.0) + 1.2 + 3)
    assert second.size == 7.0


def test_text_continues_in_the_next_frame_when_one_is_full():
    rows = 3
    height = cap(9.0) + (rows - 1) * line_height(9.0) + (line_height(9.0) - cap(9.0))
    frames = [Box(0, 0, 40, height + 1e-6), Box(100, 50, 40, 300)]
    first, second = flow([para()], frames)
    assert len(first) == rows
    assert second[0].x == 100 and second[0].y == pytest.approx(50 + cap(9.0))
    assert [t.text for t in first + second] == wrap(LONG, FONTS.regular, 9.0, 40)


def test_running_out_of_frames_says_which_text_did_not_fit():
    with pytest.raises(FitError, match=r"the key does not fit: .*1 frame; it runs out at"):
        flow([para()], [Box(0, 0, 40, 8)], where="the key")


def test_a_word_wider_than_the_frame_and_a_missing_glyph_are_errors():
    with pytest.raises(FitError, match=r"the key: a word of .* is wider than its 5\.0 mm"):
        flow([para("Incomprehensibilities")], [Box(0, 0, 5, 100)], where="the key")
    with pytest.raises(FontError, match="has no glyph"):
        flow([para("snow ☃")], [Box(0, 0, 50, 100)], where="the key")
    with pytest.raises(FitError, match="taller than its frame"):
        flow([para("Hi")], [Box(0, 0, 50, 1)], where="the key")
    with pytest.raises(FitError, match="no frame"):
        flow([para("Hi")], [], where="the key")


BOLD = FONTS.bold


def test_mixed_faces_wrap_like_one_face_and_set_each_run_in_its_own():
    spans = [Span("Lead-in:", BOLD), Span(" " + LONG, FONTS.regular)]
    [lines] = flow([Paragraph.mixed(spans, 9.0, INK)], [Box(10, 0, 40, 200)])
    first = [t for t in lines if t.y == lines[0].y]
    assert first[0].text == "Lead-in: " and first[0].font == BOLD and first[0].x == 10
    assert first[1].font == FONTS.regular
    assert first[1].x == pytest.approx(10 + BOLD.width("Lead-in: ", 9.0))
    rows = {}
    for t in lines:
        rows.setdefault(t.y, []).append(t)
    for row in rows.values():
        assert sum(t.font.width(t.text, 9.0) for t in row) <= 40 + 1e-9
    assert " ".join("".join(t.text for t in row) for row in rows.values()).split() == (
        f"Lead-in: {LONG}".split())


def test_wrap_runs_in_one_face_is_wrap():
    assert [["".join(t for t, _ in line)] for line in wrap_runs(
        [(LONG, FONTS.regular)], 9.0, 40)] == [[x] for x in wrap(LONG, FONTS.regular, 9.0, 40)]
    # a word may change face in its middle; it is still one word
    lines = wrap_runs([("ab", BOLD), ("cd ef", FONTS.regular)], 9.0, 200)
    assert lines == [[("ab", BOLD), ("cd ef", FONTS.regular)]]
    assert wrap_runs([("x" * 80, BOLD)], 9.0, 10) is None


def test_a_hanging_indent_with_a_marker():
    p = Paragraph("• not", FONTS.regular, 9.0, INK)  # the plain way, for comparison
    [lines] = flow([Paragraph(LONG, FONTS.regular, 9.0, INK, indent=3.0, marker="•"), p],
                   [Box(5, 0, 40, 200)])
    marker, *rest = lines[:-1]
    assert (marker.text, marker.x) == ("•", 5)
    assert all(t.x == 8.0 for t in rest)
    assert [t.text for t in rest] == wrap(LONG, FONTS.regular, 9.0, 37)
    with pytest.raises(ValueError, match="spans' text joined"):
        Paragraph("other", FONTS.regular, 9.0, INK, spans=(Span("text", BOLD),))


def test_a_heading_is_kept_with_the_line_after_it():
    heading = Paragraph("Heading", BOLD, 10.0, INK, keep_with_next=True)
    body = para("Body text.", 9.0)
    # Room for a first paragraph and the heading, but not for the heading's next line.
    room = cap(9.0) + line_height(9.0) + line_height(10.0)
    frames = [Box(0, 0, 60, room), Box(100, 0, 60, 100)]
    first, second = flow([para("First.", 9.0), heading, body], frames)
    assert [t.text for t in first] == ["First."]
    assert [t.text for t in second] == ["Heading", "Body text."]
    plain = Paragraph("Heading", BOLD, 10.0, INK)
    first, second = flow([para("First.", 9.0), plain, body], frames)
    assert [t.text for t in first] == ["First.", "Heading"]
