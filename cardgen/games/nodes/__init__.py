"""Reflector, Deflector and Defector, the Node games: each player has a Private and a
Public grid with Control Nodes and their territories.

``tables`` is a model: how players' grids are laid out on a table (the arrangements of
``templates/tables``), where grids touch, fold or bridge. ``figures`` draws the rules
book's table figures and ``playsheet`` the printed play sheets (grids and tallies per
player) from it.
"""
