"""cardgen.chars' control-character search is one regular expression; it finds exactly
what the plain walk over the characters (kept here as the reference) finds."""

from __future__ import annotations

import sys
import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from cardgen.chars import CONTROL_CHARACTERS, control_character
from tests.helpers import examples


def plain_control_character(text: str, allowed: str = "") -> str | None:
    """The walk control_character was before its regular expression."""
    for ch in dict.fromkeys(text):  # each character once, in the order it first appears
        if ch not in allowed and unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return ch
    return None


def test_the_control_characters_are_every_code_point_of_cc_zl_and_zp():
    assert set(CONTROL_CHARACTERS) == {
        chr(code) for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cc", "Zl", "Zp")}


# Text that is mostly letters with controls, separators, spaces and other scripts among
# them, and the `allowed` strings the callers give ("" and a line break) and others.
TEXT = st.text(st.one_of(st.sampled_from("ab \n\r\t\x00\x1f\x7f\x85\x9f\u2028\u2029"
                                         "\u200b\u00ad\u05d0é\\]^-["),
                         st.characters()), max_size=40)
ALLOWED = st.one_of(st.sampled_from(["", "\n", "\t\n", "\u2028", "]^-\\"]),
                    st.text(max_size=4))


@settings(max_examples=examples(1000), derandomize=True, deadline=None)
@given(TEXT, ALLOWED)
def test_control_character_finds_what_the_plain_walk_finds(text, allowed):
    assert control_character(text, allowed) == plain_control_character(text, allowed)


def test_a_megabyte_is_searched_whole():
    assert control_character("x" * 1_000_000) is None
    assert control_character("x" * 1_000_000 + "\x85") == "\x85"
    assert control_character("x\n" * 500_000 + "\t", "\n") == "\t"
