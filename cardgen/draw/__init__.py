"""Drawing without a backend: plane geometry with exact quarter turns, CMYK-first
colours, the page model every renderer draws (pages, layers, items, typed path
operations), shapes built from paths, print-ready rasters, and QR codes.

``geometry`` and ``colors`` import nothing from cardgen; nothing here imports
``cardgen.text``, the games, the products, rendering or the command line.

May import: ``cardgen.errors``, ``cardgen.units`` and ``cardgen.datafile`` (reading input
files safely); ``PIL`` (Pillow: rasters and colour profiles), inside functions.
"""
