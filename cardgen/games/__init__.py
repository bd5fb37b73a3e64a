"""The games' core: the one interface every game fills in (``games.base.Game``), the
names of the games and their groups (``games.names``), and the seeded random numbers
games are generated from (``games.rng``). Every game may import it; it imports no game.

Each game is a package below it: ``games.rotator`` (Rotator) and ``games.nodes``
(Reflector, Deflector, Defector); ``cardgen.connector`` and ``cardgen.ladder`` are games
too. ``games.registry`` lists the games that fill in the interface, by name, so it sits
above them: it alone may import them (``tests/test_layering.py`` has it as a part of
its own). Nothing here imports a product, rendering or the command line.

May import: ``cardgen.draw``, ``cardgen.text`` and ``cardgen.prepress`` (the types of the
interface's print half, for type checking only).
"""
