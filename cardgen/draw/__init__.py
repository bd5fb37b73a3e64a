"""Drawing without a backend: plane geometry with exact quarter turns, CMYK-first
colours, the page model every renderer draws (pages, layers, items, typed path
operations), shapes built from paths, print-ready rasters, and QR codes.

May import ``cardgen.errors``, ``cardgen.units``, ``cardgen.datafile`` (reading input
files safely) and ``cardgen.limits``; Pillow and reportlab (for the QR
encoder) only inside functions. ``geometry`` and ``colors`` import nothing from cardgen;
nothing here imports ``cardgen.text``, the products, the games, rendering or the CLI.
"""
