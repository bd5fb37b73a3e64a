"""Text measured by runs (issue 26): word wrapping sums whole font units run by run
instead of measuring each trial line afresh, character by character. The lines and the
widths are exactly those of the wrapping it replaced (kept as
``benchmarks/text_baseline.py``), ties at the width included."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks import text_baseline as baseline
from cardgen.text.fit import wrap, wrap_runs
from cardgen.text.fonts import bundled_fonts
from tests.helpers import examples

FONTS = bundled_fonts()
FACES = (FONTS.regular, FONTS.bold, FONTS.italic)
# Letters of several widths, marks, a character no bundled font maps (measured with the
# default advance), spaces of several kinds and line breaks.
ALPHABET = "aiWM.,ÉÅgjq0123 \u00a0\u2009\n\t-–—’\u4e00"
words = st.text(st.sampled_from(ALPHABET), max_size=14)
sizes = st.sampled_from([4.0, 6.5, 7.0, 8.2, 9.5, 10.0, 12.0, 23.7]) | st.floats(3, 40)


@settings(max_examples=examples(400), derandomize=True, deadline=None)
@given(st.lists(words, max_size=6), st.lists(words, max_size=6), sizes,
       st.sampled_from(range(3)))
def test_units_of_pieces_give_the_width_of_the_whole(first, second, size, index):
    metrics = FACES[index].metrics
    text = "".join(first + second)
    units = sum(metrics.units(piece) for piece in first + second)
    assert units == metrics.units(text) == metrics.text_units(text)
    assert metrics.units_width(units, size) == FACES[index].width(text, size)


@st.composite
def paragraphs(draw):
    """Runs of text in the three faces, a size, and a width: either any width or
    exactly the width of some text of the paragraph (a tie at ``<=``)."""
    runs = draw(st.lists(st.tuples(st.text(st.sampled_from(ALPHABET), max_size=40),
                                   st.sampled_from(FACES)), min_size=1, max_size=6))
    size = draw(sizes)
    if draw(st.booleans()):
        text, face = draw(st.sampled_from(runs))
        cut = draw(st.integers(0, len(text)))
        width = face.width(text[:cut], size)
    else:
        width = draw(st.floats(0, 200))
    return runs, size, width


@settings(max_examples=examples(600), derandomize=True, deadline=None)
@given(paragraphs())
def test_wrapping_by_runs_gives_the_lines_it_gave(paragraph):
    runs, size, width = paragraph
    assert wrap_runs(runs, size, width) == baseline.wrap_runs(runs, size, width)
    text, face = runs[0]
    assert wrap(text, face, size, width) == baseline.wrap(text, face, size, width)


def test_wrapping_a_long_paragraph_by_runs():
    """A long paragraph in two faces, at widths from one word to all of it."""
    text = ("The quick brown fox jumps over the lazy dog; Ångström’s 0.25 mm rule — "
            "wrapped at every width. ") * 12
    runs = [(text[i:i + 37], FACES[i % 2]) for i in range(0, len(text), 37)]
    for tenth in range(0, 3000, 7):
        width = tenth / 10
        assert wrap_runs(runs, 9.5, width) == baseline.wrap_runs(runs, 9.5, width)
        assert wrap(text, FACES[2], 9.5, width) == baseline.wrap(text, FACES[2], 9.5, width)
