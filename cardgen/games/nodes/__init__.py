"""Reflector, Deflector and Defector, the Node games: each player has a Private and a
Public grid with Control Nodes and their territories (SPEC §4, §9).

``model`` is the games' knowledge, pure: the Private and Public views of a player's grid
and which card grid each is, the Nodes and Deflectors per grid (the tallies), a Node's
territory on its grid, the names of spaces. ``tables`` is a model too: how players' grids
are laid out on a table (the arrangements of ``templates/tables``), where grids touch,
fold or bridge. ``figures`` draws the rules book's table and territory figures and
``playsheet`` the printed play sheets (grids and tallies per player) from them. Nothing
here imports a product, another game, rendering or the command line.

The rules of SPEC §9 are a pure model too: ``record`` (a game record and a referee's
report as values), ``joins`` (the table as the rules see it), ``alliance`` (Defector's
alliances), ``state`` (a position), ``turn`` (one shot resolved), ``engine`` (who may do
what, the end of a turn, a record replayed), ``knowledge`` (what one player knows),
``deal`` (seeded set-ups), ``computer`` (computer players) and ``reference`` (the plain
first versions of the engine's and the computer's hot paths, which the tests hold the
fast ones equal to); ``recordfile`` reads records and reports from TOML and writes
reports as TOML and JSON, through ``cardgen.datafile`` and ``cardgen.schema``.

May import: ``cardgen.games`` (the games' names), ``cardgen.board``,
``cardgen.physical``, ``cardgen.draw``, ``cardgen.text``, ``cardgen.texts``,
``cardgen.prepress`` (paper), ``cardgen.datafile``, ``cardgen.schema``,
``cardgen.resources``, ``cardgen.errors`` and ``cardgen.units``.
"""
