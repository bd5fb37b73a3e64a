"""The games played on the card, behind one interface (``games.base.Game``) and a
registry (``games.registry``), their names (``games.names``) and the seeded random numbers
they are generated from (``games.rng``).

``Game`` has a puzzle half (IDs, problems, generate, solve, describe), a print half
(print size, drawing, the puzzle a puzzle book prints), the figures of the game's rules
text, and a referee half (initial state, legal moves, push returning a new state,
outcome); its ``Capability`` flags say which halves a game has, and a half it lacks raises
``Unsupported``. The registry holds every game by ``GameName``: Rotator (``rotator/game``,
every half) and the Node games (``nodes/game``: their rules figures only, until their
referee comes). The command line, the Rotator rules sheet and the rules figures reach
games only through the registry, which also hands out Rotator's own extras (board files,
graded generation, the terminal session) and re-exports the types those name.

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
