"""Characters that cardgen cannot print correctly, named the way a message should name
them.

- Control characters (line breaks, tabs, carriage returns, other C0/C1 controls, line
  and paragraph separators) have no glyph; each renderer would do something different
  with them.
- Invisible characters (format characters such as U+200B zero width space, U+00AD soft
  hyphen, U+FEFF, U+2060 word joiner, U+180E, the tag characters, and the other
  default-ignorable code points: variation selectors, Hangul fillers…) print as nothing,
  yet they stay in the text: in the vCard of the QR code, in the PDF's text, in a
  referee's sentence. cardgen refuses them, so that what is encoded is what the card
  shows. U+200C and U+200D (zero width non-joiner and joiner) are refused too: they only
  steer glyph shaping (emoji sequences, Arabic and Indic scripts), which cardgen does
  not do and refuses anyway.
- Bidirectional controls and right-to-left scripts (Arabic, Hebrew…) need the bidi
  algorithm, and the scripts listed in :data:`SHAPED_SCRIPTS` need glyph shaping, which
  the PDF renderer cannot do: they would print as unjoined letters in the wrong order in
  the PDF while looking right in the PNG. cardgen refuses them rather than print them
  wrong.

Imports nothing from cardgen.
"""

from __future__ import annotations

import functools
import re
import unicodedata

CONTROL_NAMES = {"\n": "a line break", "\r": "a carriage return", "\t": "a tab",
                 "\x00": "a NUL byte", "\u2028": "a line separator",
                 "\u2029": "a paragraph separator"}
BIDI_CONTROLS = {"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}
# Scripts (by the first word of their characters' Unicode names) that need shaping.
SHAPED_SCRIPTS = {
    "ARABIC", "HEBREW", "SYRIAC", "THAANA", "NKO", "SAMARITAN", "MANDAIC", "DEVANAGARI",
    "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM",
    "SINHALA", "THAI", "LAO", "TIBETAN", "MYANMAR", "KHMER", "MONGOLIAN", "JAVANESE",
    "BALINESE",
}


# Default-ignorable code points (Unicode's Default_Ignorable_Code_Point) that are not
# format characters (Cf): combining grapheme joiner, Hangul fillers, Khmer inherent
# vowels, Mongolian free variation selectors, variation selectors, and the reserved
# ranges kept for more of them.
_IGNORABLE = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
              (0x2065, 0x2065), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0),
              (0xFFF0, 0xFFF8), (0xE0000, 0xE0FFF))
# The same code points as a set: one look-up instead of ten comparisons a character
# (every message is escaped character by character, see ``cardgen.errors.one_line``).
_IGNORABLE_CODES = frozenset(code for low, high in _IGNORABLE for code in range(low, high + 1))


def is_invisible(ch: str) -> bool:
    """Does ``ch`` print as nothing while staying in the text (see the module's
    docstring)? Every format character (Cf) and every default-ignorable code point."""
    return unicodedata.category(ch) == "Cf" or ord(ch) in _IGNORABLE_CODES


def invisible_character(text: str) -> tuple[str, int] | None:
    """The first invisible character of ``text`` and its position (from 1), or None."""
    if text.isascii():  # no format or default-ignorable character is ASCII
        return None
    for ch in dict.fromkeys(text):  # each character once, in the order it first appears
        if is_invisible(ch):
            return ch, text.index(ch) + 1
    return None


def invisible_problem(text: str) -> str | None:
    """What is wrong with the invisible character of ``text``, as the end of a sentence
    about the field ("has U+200B Zero Width Space at character 4, …; remove it."), or
    None when it has none."""
    found = invisible_character(text)
    if found is None:
        return None
    ch, position = found
    name = unicodedata.name(ch, "").title() or "(an unassigned code point)"
    if unicodedata.bidirectional(ch) in BIDI_CONTROLS:
        why = ("a bidirectional control, which cardgen cannot yet set correctly in every "
               "output")
    else:
        why = "an invisible character, which prints as nothing but stays in the text"
    return f"has U+{ord(ch):04X} {name} at character {position}, {why}; remove it."


# Every character of the categories Cc, Zl and Zp: C0 and C1 controls, U+2028 and U+2029
# (Unicode's stability policy fixes Cc; tests/test_chars_fast.py checks the three against
# unicodedata for every code point).
CONTROL_CHARACTERS = ("".join(map(chr, range(0x20))) + "".join(map(chr, range(0x7F, 0xA0)))
                      + "\u2028\u2029")


@functools.cache
def _controls(allowed: str) -> re.Pattern[str]:
    """A pattern matching each control character not in ``allowed``."""
    return re.compile("[" + "".join(re.escape(ch) for ch in CONTROL_CHARACTERS
                                     if ch not in allowed) + "]")


def control_character(text: str, allowed: str = "") -> str | None:
    """The first control character of ``text`` not in ``allowed``, or None. (One scan
    in C: a field a megabyte long is read in a millisecond.)"""
    found = _controls(allowed).search(text)
    return found.group() if found else None


def character_name(ch: str) -> str:
    """A character as a message names it: ``a tab (U+0009)``, ``'ı' (U+0131 Latin Small
    Letter Dotless I)``."""
    if ch in CONTROL_NAMES:
        return f"{CONTROL_NAMES[ch]} (U+{ord(ch):04X})"
    if unicodedata.category(ch) == "Cc":
        return f"a control character (U+{ord(ch):04X})"
    return f"{ch!r} (U+{ord(ch):04X} {unicodedata.name(ch, 'unnamed character').title()})"


def unprintable_script(text: str) -> tuple[str, str] | None:
    """(the first character, its script in words) if ``text`` needs right-to-left
    layout or shaping, else None."""
    for ch in dict.fromkeys(text):  # each character once, in the order it first appears
        bidi = unicodedata.bidirectional(ch)
        if bidi in BIDI_CONTROLS:
            return ch, "a bidirectional control"
        script = unicodedata.name(ch, "").split(" ")[0]
        if bidi in ("R", "AL") or script in SHAPED_SCRIPTS:
            name = script.title() if script else "right-to-left"
            return ch, (f"{name}, a right-to-left script" if bidi in ("R", "AL")
                        else f"{name}, a script that needs shaping")
    return None
