"""Type: font faces with their metrics and glyph coverage, fitting text to a line or a
box (shrinking to a smallest legible size), and flowing paragraphs through frames.

May import ``cardgen.draw``, ``cardgen.errors``, ``cardgen.resources`` and
``cardgen.units``; fontTools only inside functions.
"""
