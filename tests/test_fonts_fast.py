"""A face remembers the top of a text's ink (``FontMetrics.ink_top_mm``, asked of one
text at each size fitting tries); what it remembers is what measuring afresh gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.text import fonts
from cardgen.units import MM_PER_PT
from tests.helpers import examples

FACES = ("regular", "bold", "italic")


@settings(max_examples=examples(150), derandomize=True, deadline=None)
@given(st.lists(st.text(st.sampled_from("Ada Ex-mple ÉÅgjpqy|@ 0123\u00a0"), max_size=12),
                min_size=1, max_size=4),
       st.floats(4, 40), st.sampled_from(FACES))
def test_a_remembered_ink_top_is_the_one_measured_afresh(texts, size, face):
    metrics = getattr(fonts.bundled_fonts(), face).metrics
    for text in texts * 2:  # the second time from memory
        tops = [metrics._glyph_extent(ch)[1] for ch in text if not ch.isspace()]
        assert metrics.ink_top_mm(text, size) == (max(tops, default=0) * size
                                                  / metrics.units_per_em * MM_PER_PT)


def test_a_face_remembers_a_bounded_number_of_ink_tops(monkeypatch):
    monkeypatch.setattr(fonts, "WIDTHS_REMEMBERED", 50)
    metrics = fonts.bundled_fonts().regular.metrics
    for n in range(500):
        metrics.ink_top_mm(f"word {n}", 10)
    assert len(metrics._tops) <= 50
