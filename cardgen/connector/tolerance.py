"""Does a valid assembly stay valid, and read the same, when its cards lie anywhere within
the connection tolerance? (Issue 21, point 11.)

People lay cards by hand: each card's corner number lands somewhere within
:data:`~cardgen.connector.validate.TOLERANCE` of the coloured number it goes on, and a
card carries the cards laid on it along. :func:`shakes` moves the cards of an
assembly in the ways that try that hardest, each connection within the tolerance:

- **one connection off**: each card (but card 1) with every card that hangs on it
  through the connections, in eight directions, as far as the tolerance allows;
- **one card off**: each card alone, the same way (its own connections move, the cards
  on it stay);
- **two cards apart**: for each pair of cards and each of eight directions, every
  connection on the chain from the card they both hang on to one of them off by the
  tolerance that way, and every one on the chain to the other off the opposite way: the
  furthest the two can drift apart.

Each shake is scaled down, if need be, until every connection of the assembly is within
the tolerance (a card joined by two connections cannot move as freely as one joined by
one). :func:`fragile` judges each shaken assembly and names the first that is not valid
or reads other text.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import replace

from cardgen.connector.model import Assembly, CardLayout, Mark
from cardgen.connector.validate import TOLERANCE, Connection, Report, validate

DIRECTIONS = 8
REACH = TOLERANCE * (1 - 1e-6)  # just inside the tolerance, clear of rounding
Shift = dict[int, tuple[float, float]]  # card index -> mm moved on the table


def connection_tree(report: Report) -> dict[int, int]:
    """Each card's parent in the connections, from card 1 (index 0) outwards: the card
    it was joined to first, in the order of the report's connections."""
    parent: dict[int, int] = {}
    reached = {0}
    pending = list(report.connections)
    while pending:
        for k in pending:
            if (k.upper in reached) != (k.lower in reached):
                child, to = (k.lower, k.upper) if k.upper in reached else (k.upper, k.lower)
                parent[child] = to
                reached.add(child)
                break
        else:
            break
        pending = [k for k in pending if not (k.upper in reached and k.lower in reached)]
    return parent


def _chain(parent: dict[int, int], card: int) -> list[int]:
    """The cards from ``card`` down to card 1, ``card`` first."""
    out = [card]
    while out[-1] in parent:
        out.append(parent[out[-1]])
    return out


def _hanging(parent: dict[int, int], card: int) -> list[int]:
    """``card`` and every card that hangs on it."""
    return [c for c in sorted({card, *parent}) if card in _chain(parent, c)]


def _directions() -> list[tuple[float, float]]:
    return [(math.cos(2 * math.pi * n / DIRECTIONS), math.sin(2 * math.pi * n / DIRECTIONS))
            for n in range(DIRECTIONS)]


def _within(connections: list[Connection], offsets: dict[tuple[int, int, int], tuple[
        float, float]], shift: Shift, factor: float) -> bool:
    for k in connections:
        ox, oy = offsets[k.upper, k.lower, k.number]
        ux, uy = shift.get(k.upper, (0.0, 0.0))
        lx, ly = shift.get(k.lower, (0.0, 0.0))
        if math.hypot(ox + factor * (ux - lx), oy + factor * (uy - ly)) > REACH:
            return False
    return True


def connection_offsets(report: Report) -> dict[tuple[int, int, int], tuple[float, float]]:
    """Each connection's (upper card, lower card, number) and how far its corner number's
    centre lies from its coloured number's, in mm on the table."""
    scene = report.scene
    assert scene is not None
    marks = [(p.card, p.item, p.box.center) for p in scene.marks
             if isinstance(p.item, Mark)]
    offsets = {}
    for k in report.connections:
        cx, cy = next(c for card, m, c in marks
                      if card == k.upper and m.game is None and m.number == k.number)
        tx, ty = min((c for card, m, c in marks if card == k.lower
                      and m.game is report.game and m.number == k.number),
                     key=lambda t: math.dist(t, (cx, cy)))
        offsets[k.upper, k.lower, k.number] = (cx - tx, cy - ty)
    return offsets


def _fit(report: Report, shift: Shift, offsets: dict[tuple[int, int, int], tuple[
        float, float]]) -> Shift:
    """``shift`` scaled down (by halving steps) until every connection of the report
    (``offsets``: its :func:`connection_offsets`) stays within the tolerance."""
    low, high = 0.0, 1.0
    if _within(report.connections, offsets, shift, high):
        return shift
    for _ in range(20):
        middle = (low + high) / 2
        if _within(report.connections, offsets, shift, middle):
            low = middle
        else:
            high = middle
    return {c: (x * low, y * low) for c, (x, y) in shift.items()}


def shakes(report: Report) -> Iterator[tuple[str, Shift]]:
    """Every shake of :mod:`this module <cardgen.connector.tolerance>`'s docstring, named
    in words, as the millimetres each card moves."""
    parent = connection_tree(report)
    cards = report.cards
    offsets = connection_offsets(report)  # the same for every shake: found once
    for card in range(1, cards):
        for dx, dy in _directions():
            move = (dx * REACH, dy * REACH)
            yield (f"card {card + 1} and the cards on it moved {_mm(move)}",
                   _fit(report, dict.fromkeys(_hanging(parent, card), move), offsets))
            yield (f"card {card + 1} alone moved {_mm(move)}",
                   _fit(report, {card: move}, offsets))
    for a in range(cards):
        for b in range(a + 1, cards):
            up_a, up_b = _chain(parent, a), _chain(parent, b)
            common = next((c for c in up_a if c in up_b), None)
            if common is None:
                continue
            for dx, dy in _directions():
                shift: Shift = {}
                for chain, sign in ((up_a, 1), (up_b, -1)):
                    for c in chain[:chain.index(common)]:
                        for h in _hanging(parent, c):
                            x, y = shift.get(h, (0.0, 0.0))
                            shift[h] = (x + sign * dx * REACH, y + sign * dy * REACH)
                yield (f"card {a + 1} and card {b + 1} drawn {TOLERANCE:g} mm apart at "
                       f"every connection between them, towards {_mm((dx, dy))}",
                       _fit(report, shift, offsets))


def _mm(move: tuple[float, float]) -> str:
    return f"({move[0]:+.2f}, {move[1]:+.2f}) mm"


def shaken(assembly: Assembly, shift: Shift) -> Assembly:
    """``assembly`` with its cards moved by ``shift``."""
    return replace(assembly, cards=tuple(
        replace(card, x=card.x + shift.get(i, (0.0, 0.0))[0],
                y=card.y + shift.get(i, (0.0, 0.0))[1])
        for i, card in enumerate(assembly.cards)))


def fragile(layout: CardLayout, assembly: Assembly, report: Report) -> str | None:
    """None when every shake of a valid ``assembly`` (``report`` its validation) is
    valid and reads the same text; else the first shake that is not, and why."""
    for name, shift in shakes(report):
        moved = validate(layout, shaken(assembly, shift))
        if not moved.valid:
            return f"{name}: {moved.problems[0]}"
        if moved.text != report.text:
            return f"{name}: it reads {moved.text!r}"
    return None
