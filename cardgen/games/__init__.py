"""The games' core: the one interface every game fills in (``games.base.Game``), the
names of the games and their groups (``games.names``), and the seeded random numbers
games are generated from (``games.rng``). Every game may import it; it imports no game.

``Game`` has a puzzle half (IDs, problems, generate, solve, describe), a print half
(print size, drawing, the puzzle a puzzle book prints), the figures of the game's rules
text, and a referee half (initial state, legal moves, push returning a new state,
outcome); its ``Capability`` flags say which halves a game has, and a half it lacks raises
``Unsupported``. The registry holds every game by ``GameName``: Rotator (``rotator/game``,
every half) and the Node games (``nodes/game``: their rules figures only, until their
referee comes). The command line, the Rotator rules sheet and the rules figures reach
games only through the registry, which also hands out Rotator's own extras (board files,
graded generation, the terminal session) and re-exports the types those name.

Each game is a package below it: ``games.rotator`` (Rotator) and ``games.nodes``
(Reflector, Deflector, Defector); ``cardgen.connector`` and ``cardgen.ladder`` are games
too. ``games.registry`` lists the games that fill in the interface, by name, so it sits
above them: it alone may import them (``tests/test_layering.py`` has it as a part of
its own). Nothing here imports a product, rendering or the command line.

May import: ``cardgen.errors`` (a missing half's error), and ``cardgen.draw``, ``cardgen.text`` and
``cardgen.prepress`` (the types of the interface's print half, for type checking only).
"""
