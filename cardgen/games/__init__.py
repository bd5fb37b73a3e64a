"""The games played on the card, behind one small interface (``games.base.Game``) and a
registry (``games.registry``), and the seeded random numbers they are generated from
(``games.rng``).

Each game is a package. Its model modules (Rotator: ``board``, ``engine``, ``solver``,
``reference``, ``generator``, ``describe``) are pure: they may import ``cardgen.board``'s
models, ``cardgen.games.rng``, ``cardgen.datafile``, ``cardgen.schema``,
``cardgen.chars``, ``cardgen.errors`` and ``cardgen.draw.geometry``, never drawing,
rendering, prepress or the command line. Its ``art`` module draws the model as page
items and its ``game`` module fills in the interface; those may also import
``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``, ``cardgen.board.art``,
``cardgen.physical.card`` and ``cardgen.prepress``. Nothing here imports
``cardgen.render`` or ``cardgen.cli``.
"""
