"""The layout checker: what a designer who edits ``layout.toml`` needs to hear.

:func:`layout_problems` lists every problem with one card size's layout, in words:

- a fragment or number that lies off its face, within :data:`CLEARANCE` of a cut or a
  score (the card's trim, a tab's hinge, a folded tab's edge, the main fold), or where
  its face is never seen;
- two fragments, or a fragment and a number, that overlap (on the same face);
- text that does not fit its box in the card's font at its size;
- a game whose smallest assembly (found by :func:`cardgen.connector.solve.solve`) has
  another number of cards than the game has players, or whose description no assembly
  of up to that many cards spells, or whose assemblies of that many cards all fail when
  their cards move within the connection tolerance (:mod:`cardgen.connector.tolerance`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cardgen.connector.model import CardLayout, Face, Fragment, Mark
from cardgen.connector.solve import SolveResult, solve
from cardgen.connector.validate import TOLERANCE
from cardgen.draw.geometry import Box
from cardgen.errors import shorten
from cardgen.games.names import CONNECTOR_GAMES, GameName

CLEARANCE = 3.0  # mm from every cut and score, as the card's safe zone
GAP = 0.3  # mm: closer than this, two fragments touch


def face_areas(layout: CardLayout) -> dict[Face, list[Box]]:
    """Where each face may carry print, in the card frame: its visible area less the
    clearance from every cut and score around it."""
    s = layout.shape
    c = CLEARANCE
    return {
        # Between the hinges it is seen with the tabs open or folded; outside them it is
        # the tabs' outsides. Nothing may come near a hinge.
        Face.BACK: [Box(c, c, s.hinge5 - 2 * c, s.height - 2 * c),
                    Box(s.hinge5 + c, c, s.hinge6 - s.hinge5 - 2 * c, s.height - 2 * c),
                    Box(s.hinge6 + c, c, s.width - s.hinge6 - 2 * c, s.height - 2 * c)],
        Face.TAB5: [s.tab5.inset(c)],
        Face.TAB6: [s.tab6.inset(c)],
        # The lower half's inside shows only where the folded tabs uncover it.
        Face.STRIP: [Box(c, c, s.hinge5 - 2 * c, s.height - 2 * c),
                     Box(s.hinge6 + c, c, s.width - s.hinge6 - 2 * c, s.height - 2 * c)],
    }


def _name(f: Fragment) -> str:
    return f"fragment {f.index + 1} ({shorten(f.text, 30)})"


def _mark_name(m: Mark, layout: CardLayout) -> str:
    if m.game is None:
        return f"corner number {m.number}"
    return f"the {layout.colour_names.get(m.game, m.game.value)} {m.number}"


def placement_problems(layout: CardLayout) -> list[str]:
    """Fragments and numbers off their faces or too near a cut or score, and overlaps."""
    problems: list[str] = []
    areas = face_areas(layout)
    for f in layout.fragments:
        if not any(a.contains_box(f.extent, 1e-6) for a in areas[f.face]):
            problems.append(f"{_name(f)} on the {f.face} face does not lie within its "
                            f"printable area (at least {CLEARANCE:g} mm from every cut and "
                            "score, and where the face is seen).")
    for m in layout.marks:
        if m.game is not None and not any(a.contains_box(m.box, 1e-6) for a in areas[m.face]):
            problems.append(f"{_mark_name(m, layout)} on the {m.face} face does not lie "
                            "within its printable area.")
    frags = list(layout.fragments)
    for i, a in enumerate(frags):
        for b in frags[i + 1:]:
            if a.face is b.face and a.extent.inset(-GAP / 2).intersects(b.extent.inset(-GAP / 2)):
                problems.append(f"{_name(a)} and {_name(b)} overlap on the {a.face} face.")
        for m in layout.marks:
            if m.face is a.face and a.extent.inset(-GAP / 2).intersects(m.box):
                problems.append(f"{_name(a)} and {_mark_name(m, layout)} overlap on the "
                                f"{a.face} face.")
        if layout.legend is not None and a.face is Face.BACK and a.extent.intersects(
                layout.legend):
            problems.append(f"{_name(a)} overlaps the legend.")
    if layout.legend is not None:
        if not any(a.contains_box(layout.legend, 1e-6) for a in areas[Face.BACK]):
            problems.append("the legend does not lie within the back panel's printable area.")
        for m in layout.marks:
            if m.face is Face.BACK and m.box.intersects(layout.legend):
                problems.append(f"{_mark_name(m, layout)} overlaps the legend.")
    marks = list(layout.marks)
    for i, m in enumerate(marks):
        for n in marks[i + 1:]:
            if m.face is n.face and m.box.intersects(n.box):
                problems.append(f"{_mark_name(m, layout)} and {_mark_name(n, layout)} "
                                f"overlap on the {m.face} face.")
    return problems


def fit_problems(layout: CardLayout, width: Callable[[str, float], float]) -> list[str]:
    """Fragments whose text, at their size, is longer than their box (``width`` gives
    the text's width in mm at a size in pt, in the font the card prints them in)."""
    out = []
    for f in layout.fragments:
        length = f.box.w if f.rotation in (0, 180) else f.box.h
        need = width(f.text, f.size)
        if need > length + 1e-6:
            out.append(f"{_name(f)} needs {need:.1f} mm at {f.size:g} pt and its box is "
                       f"{length:.1f} mm long; lengthen it or shorten the text.")
    return out


def game_problems(layout: CardLayout, preset: str, *,
                  games: Sequence[GameName] = CONNECTOR_GAMES,
                  results: dict[GameName, SolveResult] | None = None) -> list[str]:
    """Games (of ``games``) whose smallest assembly has another number of cards than
    players, or whose description no assembly of up to that many cards spells.
    ``results`` receives each game's search."""
    out = []
    for game in games:
        players = layout.players[game]
        result = solve(layout, game, preset, max_cards=players)
        if results is not None:
            results[game] = result
        if not result.decided:
            out.append(f"the search for an assembly of up to {players} cards that spells "
                       f"the {game} description gave up after {result.visited:,} assemblies "
                       "(its budget) without finding one or proving none does: its "
                       "coloured numbers join the cards in too many ways; give it fewer.")
        elif result.assembly is None:
            out.append(f"no assembly of up to {players} cards spells the {game} description "
                       f"({sum(result.searched.values())} assemblies tried): check its "
                       "fragments, their order and its coloured numbers.")
        elif len(result.assembly.cards) != players:
            out.append(f"{game} needs {players} players, but {len(result.assembly.cards)} "
                       f"card{'s' if len(result.assembly.cards) != 1 else ''} already spell "
                       "its description.")
        elif not result.robust:
            out.append(f"no assembly of {players} cards that spells the {game} description "
                       f"stays valid with its cards anywhere within the {TOLERANCE:g} mm "
                       f"connection tolerance; the most compact fails: {result.fragile} "
                       "Move its fragments or numbers further from each other and from the "
                       "cards' edges.")
    return out
