"""Type: font faces with their metrics and glyph coverage, fitting text to a line or a
box (shrinking to a smallest legible size), and flowables (paragraphs, tables, figures)
set through frames by one frame filler (:mod:`cardgen.text.flowable`).

May import: ``cardgen.draw``, ``cardgen.errors``, ``cardgen.resources``,
``cardgen.units``, ``cardgen.datafile`` (reading input files safely),
``cardgen.limits`` (a time limit on parsing fonts) and ``cardgen.chars``; ``fontTools``
and ``reportlab`` (a trial parse of a user's font, as the PDF writer will read it), inside
functions.
"""
