"""The smallest assembly that spells a game's description, found by exhaustive search.

What is enumerated (README, "Connector"): assemblies grown one card at a time from a
first card in each of its eight looks (four rotations, tabs open or folded). Each new
card, in each rotation and tab state, is attached by a connection, either

- on top of every card so far, one of its corner numbers exactly on a number of the
  game's colour that a card so far shows, or
- under every card so far, one of its numbers of the game's colour exactly under a
  corner number that a card so far shows.

Every assembly of k cards reachable this way is enumerated (duplicates, the same cards
in the same places and order, once) before any of k + 1, and each is judged by
:func:`cardgen.connector.validate.validate`, so the first valid one is a smallest.

One sound cut keeps it fast: covering only ever hides text, and a card never shows more
than ``best`` characters of upright text of the game's colour (the most any of its eight
looks shows), so a branch is dropped when the characters still visible, less those that
appear more often than the description has them (one of each excess must end up
covered), plus ``best`` for every card still to come, fall short of the description.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from cardgen.connector.model import (
    ROTATIONS,
    Assembly,
    CardLayout,
    Config,
    Cover,
    Fragment,
    Game,
    Mark,
    Placement,
    Tabs,
    configs,
    cover_of,
    normalize,
)
from cardgen.connector.validate import Report, validate
from cardgen.draw.geometry import Box

MAX_CARDS = 8
Look = tuple[int, Tabs]  # rotation, tabs
Card = tuple[int, Tabs, float, float]  # rotation, tabs, x, y


@dataclass
class SolveResult:
    game: Game
    preset: str
    assembly: Assembly | None
    report: Report | None
    searched: dict[int, int] = field(default_factory=dict)  # cards -> assemblies judged
    cut: dict[int, int] = field(default_factory=dict)  # cards -> branches cut by the bound
    best: int = 0  # most characters of the game's upright text one card shows
    needed: int = 0  # characters of the description

    @property
    def cards(self) -> int | None:
        return len(self.assembly.cards) if self.assembly else None

    @property
    def minimal(self) -> bool:
        """True when every smaller assembly was ruled out (always, for a found one)."""
        return self.assembly is not None

    @property
    def total_searched(self) -> int:
        return sum(self.searched.values())


def _chars(text: str) -> int:
    return len(text.replace(" ", ""))


class _Look:
    """One look of a lone card at the origin, reduced to what the search needs."""

    def __init__(self, config: Config, game: Game) -> None:
        self.key: Look = (config.rotation, config.tabs)
        self.faces = config.faces
        own = [(0, b) for b in config.faces]
        self.upright: list[tuple[Box, str, int]] = []  # box, text, layer
        for p in config.fragments:
            frag = p.item
            assert isinstance(frag, Fragment)
            if frag.game is not game or not p.upright:
                continue
            cover, _ = cover_of(p.box, own[p.layer + 1:])
            if cover is Cover.VISIBLE:
                self.upright.append((p.box, normalize(frag.text), p.layer))
        self.chars = sum(_chars(t) for _, t, _ in self.upright)
        self.corners: dict[int, tuple[float, float]] = {}
        self.targets: list[tuple[int, tuple[float, float]]] = []
        for p in config.marks:
            mark = p.item
            assert isinstance(mark, Mark)
            if mark.game is None:
                self.corners[mark.number] = p.box.center
            elif mark.game is game and cover_of(p.box, own[p.layer + 1:])[0] is Cover.VISIBLE:
                self.targets.append((mark.number, p.box.center))


def _key(cards: list[tuple[_Look, float, float]]) -> tuple[object, ...]:
    ox, oy = cards[0][1], cards[0][2]
    return tuple((look.key, round(x - ox, 3), round(y - oy, 3)) for look, x, y in cards)


def solve(layout: CardLayout, game: Game, preset: str, max_cards: int = MAX_CARDS, *,
          progress: Callable[[int, int], None] | None = None) -> SolveResult:
    """The smallest assembly of at most ``max_cards`` that validates for ``game``."""
    looks = [_Look(c, game) for c in configs(layout).values()]
    description = normalize(layout.descriptions[game])
    needed = _chars(description)
    best = max(look.chars for look in looks)
    pieces = {t for look in looks for _, t, _ in look.upright}
    allowed = {t: _occurrences(description, t) for t in pieces}
    result = SolveResult(game, preset, None, None, best=best, needed=needed)
    level: list[list[tuple[_Look, float, float]]] = [[(look, 0.0, 0.0)] for look in looks]
    for count in range(1, max_cards + 1):
        searched = cut = 0
        for cards in level:
            searched += 1
            assembly = _assembly(game, preset, cards)
            report = validate(layout, assembly)
            if report.valid:
                result.searched[count] = searched
                result.cut[count] = cut
                result.assembly, result.report = assembly, report
                return result
        result.searched[count] = searched
        if progress is not None:
            progress(count, searched)
        if count == max_cards:
            break
        seen: set[tuple[object, ...]] = set()
        following: list[list[tuple[_Look, float, float]]] = []
        for cards in level:
            for child in _children(cards, looks):
                key = _key(child)
                if key in seen:
                    continue
                seen.add(key)
                if _hopeless(child, max_cards - len(child), best, needed, allowed):
                    cut += 1
                    continue
                following.append(child)
        result.cut[count + 1] = cut
        level = following
        if not level:
            for more in range(count + 1, max_cards + 1):
                result.searched.setdefault(more, 0)
            break
    return result


def _assembly(game: Game, preset: str, cards: list[tuple[_Look, float, float]]) -> Assembly:
    ox, oy = cards[0][1], cards[0][2]
    return Assembly(game, preset, tuple(
        Placement(round(x - ox, 3) + 0.0, round(y - oy, 3) + 0.0, look.key[0], look.key[1])
        for look, x, y in cards))


def _children(cards: list[tuple[_Look, float, float]],
              looks: list[_Look]) -> list[list[tuple[_Look, float, float]]]:
    out = []
    for look, x, y in cards:
        for number, (tx, ty) in look.targets:  # a new card on top, its corner on this
            for new in looks:
                corner = new.corners.get(number)
                if corner is not None:
                    out.append([*cards, (new, x + tx - corner[0], y + ty - corner[1])])
        for number, (cx, cy) in look.corners.items():  # a new card under, its number here
            for new in looks:
                for n, (tx, ty) in new.targets:
                    if n == number:
                        out.append([(new, x + cx - tx, y + cy - ty), *cards])
    return out


def _hopeless(cards: list[tuple[_Look, float, float]], remaining: int, best: int,
              needed: int, allowed: dict[str, int]) -> bool:
    """True when no way of adding ``remaining`` more cards can spell the description
    (see the module's docstring)."""
    visible: list[str] = []
    for i, (look, x, y) in enumerate(cards):
        coverers = [(j, Box(b.x + cx, b.y + cy, b.w, b.h))
                    for j, (other, cx, cy) in enumerate(cards[i + 1:], i + 1)
                    for b in other.faces]
        for box, text, _ in look.upright:
            moved = Box(box.x + x, box.y + y, box.w, box.h)
            cover, _ = cover_of(moved, coverers)
            if cover is Cover.VISIBLE:
                visible.append(text)
    total = sum(_chars(t) for t in visible)
    for text in set(visible):
        excess = visible.count(text) - allowed.get(text, 0)
        if excess > 0:
            total -= excess * _chars(text)
    return total + remaining * best < needed


def _occurrences(text: str, piece: str) -> int:
    from cardgen.connector.validate import _occurrences as occurrences

    return occurrences(text, piece)


__all__ = ["ROTATIONS", "SolveResult", "solve"]
