"""Reflector, Deflector and Defector as :class:`~cardgen.games.base.Game` entries: their
names, their players, the figures of their rules texts and their referee (SPEC §9). They
have no board IDs, generator, solver or printed boards, so their flags say
:attr:`~cardgen.games.base.Capability.HAS_FIGURES` and
:attr:`~cardgen.games.base.Capability.HAS_REFEREE`, and every other half raises
:class:`~cardgen.games.base.Unsupported`.

The referee's "board" is a game record (:class:`~cardgen.games.nodes.record.Record`,
SPEC §9.8): its set-up, and with ``[start]`` its start position; its moves are not
played (:func:`cardgen.games.nodes.engine.replay` does that). States are
:class:`~cardgen.games.nodes.state.State`, moves the record's ``Shot``, ``Pass``,
``Unite`` and ``Leave``; the engine's reports are kept in ``State.history``.

The territory figures belong to all three games; each game lists the figures its rules
text draws (``templates/rules/GAME.md``), from :mod:`cardgen.games.nodes.figures`:
Reflector's and Deflector's include their worked examples, drawn by the engine.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardgen.games.base import Capability, Game, Outcome
from cardgen.games.names import GameName
from cardgen.games.nodes import engine
from cardgen.games.nodes.figures import FIGURES
from cardgen.games.nodes.joins import seat_of
from cardgen.games.nodes.model import PLAYERS
from cardgen.games.nodes.record import Move, Record, Result
from cardgen.games.nodes.state import State
from cardgen.text.figure import FigureMaker

SHARED = ("territory", "territory-overlap")  # every Node game's rules draw these
OWN: dict[GameName, tuple[str, ...]] = {
    GameName.REFLECTOR: ("reflector-two-cards", "reflector-three-cards",
                         "reflector-exchange", "reflector-concede"),
    GameName.DEFLECTOR: ("table-3", "table-4-full", "table-4-partial", "table-5-full",
                         "table-5-partial", "deflector-chain", "deflector-fired"),
    GameName.DEFECTOR: ("defector-full", "defector-island"),
}


class NodeGame(Game[Record, None, State, Move]):
    """One of the Node games: a name, its players, its rules figures and its referee."""

    flags = Capability.HAS_FIGURES | Capability.HAS_REFEREE

    def __init__(self, name: GameName) -> None:
        self.name = name
        self.players = PLAYERS[name]

    def figures(self) -> Mapping[str, FigureMaker]:
        return {key: FIGURES[key] for key in (*OWN[self.name], *SHARED)}

    # --- the referee half --------------------------------------------------------------

    def initial(self, board: Record) -> State:
        """The position before ``board``'s first move; a bad set-up raises
        :class:`~cardgen.games.nodes.record.IllegalMove` (``bad-setup``)."""
        if board.game is not self.name:
            raise ValueError(f"this is a {board.game.value} record, not {self.name.value}")
        return engine.start(board)

    def legal_moves(self, state: State) -> Sequence[Move]:
        return engine.legal_moves(state)

    def push(self, state: State, move: Move) -> State:
        """The state after ``move`` (its report is the last of ``state.history``); an
        illegal move raises IllegalMove, a ValueError naming the rule."""
        return engine.push(state, move)[0]

    def outcome(self, state: State) -> Outcome | None:
        """The winners by seat (none for a draw) and the SPEC's reason
        (``all-nodes``, ``true-draw``…)."""
        finish = state.finish
        if finish is None:
            return None
        winners = finish.winners if finish.result is Result.WIN else ()
        return Outcome(tuple(seat_of(p) or 0 for p in winners), finish.reason.value)

    def __repr__(self) -> str:
        return f"NodeGame({self.name.value!r})"


REFLECTOR, DEFLECTOR, DEFECTOR = (NodeGame(name) for name in OWN)
