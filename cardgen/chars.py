"""Characters that cardgen cannot print correctly, named the way a message should name
them.

- Control characters (line breaks, tabs, carriage returns, other C0/C1 controls, line
  and paragraph separators) have no glyph; each renderer would do something different
  with them.
- Bidirectional controls and right-to-left scripts (Arabic, Hebrew…) need the bidi
  algorithm, and the scripts listed in :data:`SHAPED_SCRIPTS` need glyph shaping, which
  the PDF renderer cannot do: they would print as unjoined letters in the wrong order in
  the PDF while looking right in the PNG. cardgen refuses them rather than print them
  wrong.

Imports nothing from cardgen.
"""

from __future__ import annotations

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


def control_character(text: str, allowed: str = "") -> str | None:
    """The first control character of ``text`` not in ``allowed``, or None."""
    for ch in dict.fromkeys(text):  # each character once, in the order it first appears
        if ch not in allowed and unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            return ch
    return None


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
