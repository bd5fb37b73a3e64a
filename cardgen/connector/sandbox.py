"""Trying the Connector by hand: where a card laid near a connection snaps to, and the
next step towards the shipped answer, from the model alone.

- :func:`snap` — a card moved on the table, and the connection it lies nearest: one of
  its corner numbers near the same number in the game's colour on a card *below* it (the
  stack's order), or one of its numbers of the game's colour near a corner number of a
  card *above* it, centre within ``reach`` of centre, the number of the lower card not
  hidden by a card between them (the validator's rule for a connection). The card moves,
  keeping its turn and tabs, so that the two centres coincide.
- :func:`next_step` — an attempt compared with an answer (the shipped assembly): the
  first thing to change, in the order a person lays the answer's cards (card 1, then
  each card joined to one already down, :func:`cardgen.connector.validate.instructions`'
  order): how many cards, then each card's turn, its tabs, and where it lies against
  the card it joins. A step names cards, turns and numbers, never the text.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardgen.connector.model import (
    Assembly,
    CardLayout,
    Cover,
    Mark,
    Placed,
    Scene,
    Tabs,
    distance,
)
from cardgen.connector.validate import TOLERANCE, colour_name, laying_order, validate

SNAP_REACH = 6.0  # mm: a number this close to a matching one snaps onto it
COORDINATE = 3  # decimals (mm) a snapped centre is rounded to: as an assembly file keeps it


@dataclass(frozen=True)
class Snap:
    """Where a moved card snaps: its new centre (``x``, ``y``), and the connection it
    makes: card ``upper``'s corner ``number`` on card ``lower``'s number of the game's
    colour (cards counted from 0, bottom first), ``moved`` mm from where it was."""

    card: int
    x: float
    y: float
    upper: int
    lower: int
    number: int
    moved: float


def _mark(p: Placed) -> Mark:
    assert isinstance(p.item, Mark)
    return p.item


def snap(layout: CardLayout, assembly: Assembly, card: int,
         reach: float = SNAP_REACH) -> Snap | None:
    """Where card ``card`` (from 0) snaps to, or None when no connection is within
    ``reach`` (see the module's docstring; the nearest wins, ties to the first met)."""
    scene = Scene.build(layout, assembly.cards)
    game = assembly.game
    corners = [p for p in scene.marks if _mark(p).game is None]
    targets = [p for p in scene.marks if _mark(p).game is game]
    best: tuple[float, Placed, Placed] | None = None
    for c in corners:
        for t in targets:
            if card not in (c.card, t.card) or c.card <= t.card:
                continue
            if _mark(c).number != _mark(t).number:
                continue
            d = distance(c.box.center, t.box.center)
            if d > reach or (best is not None and d >= best[0]):
                continue
            if scene.cover(t, below=c.card)[0] is not Cover.VISIBLE:
                continue
            best = (d, c, t)
    if best is None:
        return None
    d, c, t = best
    (cx, cy), (tx, ty) = c.box.center, t.box.center
    sign = 1.0 if c.card == card else -1.0
    here = assembly.cards[card]
    x = round(here.x + sign * (tx - cx), COORDINATE)
    y = round(here.y + sign * (ty - cy), COORDINATE)
    return Snap(card, x, y, c.card, t.card, _mark(c).number, round(d, COORDINATE))


@dataclass(frozen=True)
class Step:
    """The next step towards an answer: ``text`` (a sentence quoting none of the game's
    text), the ``card`` it is about (from 0; None for the count of cards or when
    solved), ``done`` of ``steps`` checks the attempt already passes, and ``solved``."""

    text: str
    card: int | None
    done: int
    steps: int
    solved: bool = False


def _cards(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


_TURNS = {90: "a quarter clockwise", 180: "half a turn", 270: "a quarter anticlockwise"}


def _order(layout: CardLayout, answer: Assembly) -> list[tuple[int, int | None, str]]:
    """The answer's cards in the order a person lays them: (card, the card it joins or
    None for the first, how to join it: a sentence with {card} for its number)."""
    report = validate(layout, answer)
    colour = colour_name(layout, answer.game)
    out: list[tuple[int, int | None, str]] = [(0, None, "")]
    placed: set[int] = {0}
    for k, on_top in laying_order(report.connections, placed):
        if on_top:
            out.append((k.upper, k.lower, f"put card {k.upper + 1}'s pale corner "
                        f"{k.number} on card {k.lower + 1}'s {colour} {k.number}"))
        else:
            out.append((k.lower, k.upper, f"slide card {k.lower + 1} under card "
                        f"{k.upper + 1} so that card {k.upper + 1}'s pale corner "
                        f"{k.number} lies on its {colour} {k.number}"))
    out += [(i, None, "") for i in range(len(answer.cards)) if i not in placed]
    return out


def next_step(layout: CardLayout, attempt: Assembly, answer: Assembly) -> Step:
    """The first thing to change in ``attempt`` to lay ``answer`` (see the module's
    docstring); ``solved`` when ``attempt`` is valid (whether or not it is the answer)."""
    order = _order(layout, answer)
    steps = 1 + 3 * len(order) - 1  # the count, then a turn, tabs and a place a card
    game = answer.game.value.capitalize()
    need = len(answer.cards)
    if validate(layout, attempt).valid:
        return Step(f"Solved: the cards spell the {game} description.", None, steps, steps,
                    solved=True)
    have = len(attempt.cards)
    if have < need:
        more = need - have
        return Step(f"The {game} takes {_cards(need)}: add {more} more "
                    f"card{'s' if more > 1 else ''}.", None, 0, steps)
    if have > need:
        return Step(f"The {game} takes {_cards(need)}: take card {have} away.", have - 1, 0,
                    steps)
    done = 1
    for card, joins, how in order:
        mine, theirs = attempt.cards[card], answer.cards[card]
        turn = (theirs.rotation - mine.rotation) % 360
        if turn:
            return Step(f"Turn card {card + 1} {_TURNS[turn]}.", card, done, steps)
        done += 1
        if mine.tabs is not theirs.tabs:
            verb = "Fold card {}'s tabs back." if theirs.tabs is Tabs.FOLDED else \
                "Open card {}'s tabs."
            return Step(verb.format(card + 1), card, done, steps)
        done += 1
        if joins is not None:
            base, model = attempt.cards[joins], answer.cards[joins]
            x = base.x + theirs.x - model.x
            y = base.y + theirs.y - model.y
            if distance((mine.x, mine.y), (x, y)) > TOLERANCE:
                return Step(how[:1].upper() + how[1:] + ".", card, done, steps)
            done += 1
    return Step(f"Every card lies as in the answer, within {TOLERANCE:g} mm; move them "
                "closer to their connections.", None, done, steps)
