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
:func:`cardgen.connector.validate.validate`, so the first count with a valid one is the
smallest; of the valid ones of that count, the one whose cards take the smallest box on
the table is returned (the first of those, in the order of enumeration) among those that
stay valid and read the same with their cards anywhere within the connection tolerance
(:func:`cardgen.connector.tolerance.fragile`), or among all when none does
(``SolveResult.robust`` then says so).

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
    overlaps,
)
from cardgen.connector.tolerance import fragile
from cardgen.connector.validate import Report, occurrences, validate
from cardgen.draw.geometry import Box, in_lines

MAX_CARDS = 8
Look = tuple[int, Tabs]  # rotation, tabs


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
    robust: bool = True  # the assembly found survives the tolerance (or none was found)
    fragile: str | None = None  # when not: how it fails

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


Item = tuple[_Look, float, float]  # a card of a state: its look and centre


@dataclass
class _State:
    """Cards in stacking order, and the upright text of the game's colour that is wholly
    visible (stack index, box on the table, text)."""

    cards: list[Item]
    shown: list[tuple[int, Box, str]]

    def key(self) -> tuple[object, ...]:
        ox, oy = self.cards[0][1], self.cards[0][2]
        return tuple((look.key, round(x - ox, 3), round(y - oy, 3))
                     for look, x, y in self.cards)


def _moved(box: Box, x: float, y: float) -> Box:
    return Box(box.x + x, box.y + y, box.w, box.h)


def _start(look: _Look) -> _State:
    return _State([(look, 0.0, 0.0)], [(0, box, text) for box, text, _ in look.upright])


def _on_top(state: _State, new: _Look, x: float, y: float) -> _State:
    faces = [_moved(b, x, y) for b in new.faces]
    shown = [s for s in state.shown if not _hits(s[1], faces)]
    index = len(state.cards)
    shown += [(index, _moved(box, x, y), text) for box, text, _ in new.upright]
    return _State([*state.cards, (new, x, y)], shown)


def _underneath(state: _State, new: _Look, x: float, y: float) -> _State:
    faces = [_moved(b, cx, cy) for look, cx, cy in state.cards for b in look.faces]
    shown = [(0, _moved(box, x, y), text) for box, text, _ in new.upright
             if not _hits(_moved(box, x, y), faces)]
    shown += [(i + 1, box, text) for i, box, text in state.shown]
    return _State([(new, x, y), *state.cards], shown)


def _hits(box: Box, faces: list[Box]) -> bool:
    """Whether any of ``faces`` overlaps ``box`` (more than touching)."""
    return any(overlaps(box, f) for f in faces)


class _Budget:
    """The sound cut: what a state with some cards still to come must already show."""

    def __init__(self, best: int, needed: int, allowed: dict[str, int]) -> None:
        self.best, self.needed, self.allowed = best, needed, allowed

    def worth(self, texts: list[str]) -> int:
        """Characters of ``texts`` that can stay: each text at most as often as the
        description has it."""
        total = 0
        counts: dict[str, int] = {}
        for t in texts:
            counts[t] = counts.get(t, 0) + 1
            if counts[t] <= self.allowed.get(t, 0):
                total += _chars(t)
        return total

    def hopeless(self, texts: list[str], remaining: int) -> bool:
        return self.worth(texts) + remaining * self.best < self.needed


def _children(state: _State, looks: list[_Look], budget: _Budget | None,
              remaining: int, cut: list[int]) -> list[_State]:
    """Every state one card larger (see the module's docstring); with a budget, only
    those that are not hopeless with ``remaining`` cards still to come after them (the
    others are counted in ``cut[0]``)."""
    out = []
    under: list[Box] | None = None
    useless: set[Look] = set()
    if budget is not None:  # a look that cannot help even if nothing gets covered
        shown = [t for _, _, t in state.shown]
        useless = {new.key for new in looks
                   if budget.hopeless(shown + [t for _, t, _ in new.upright], remaining)}
    for look, x, y in state.cards:
        for number, (tx, ty) in look.targets:  # a new card on top, its corner on this
            for new in looks:
                corner = new.corners.get(number)
                if corner is None:
                    continue
                if new.key in useless:
                    cut[0] += 1
                    continue
                nx, ny = x + tx - corner[0], y + ty - corner[1]
                if budget is not None:
                    faces = [_moved(b, nx, ny) for b in new.faces]
                    texts = [t for _, b, t in state.shown if not _hits(b, faces)]
                    texts += [t for _, t, _ in new.upright]
                    if budget.hopeless(texts, remaining):
                        cut[0] += 1
                        continue
                out.append(_on_top(state, new, nx, ny))
        for number, (cx, cy) in look.corners.items():  # a new card under, its number here
            for new in looks:
                for n, (tx, ty) in new.targets:
                    if n != number:
                        continue
                    if new.key in useless:
                        cut[0] += 1
                        continue
                    nx, ny = x + cx - tx, y + cy - ty
                    if budget is not None:
                        if under is None:
                            under = [_moved(b, ox, oy) for o, ox, oy in state.cards
                                     for b in o.faces]
                        texts = [t for _, b, t in state.shown]
                        texts += [t for b, t, _ in new.upright
                                  if not _hits(_moved(b, nx, ny), under)]
                        if budget.hopeless(texts, remaining):
                            cut[0] += 1
                            continue
                    out.append(_underneath(state, new, nx, ny))
    return out


def solve(layout: CardLayout, game: Game, preset: str, max_cards: int = MAX_CARDS, *,
          cut: bool = True,
          progress: Callable[[int, int], None] | None = None) -> SolveResult:
    """The smallest assembly of at most ``max_cards`` that validates for ``game``: for
    each count from one card up, every assembly of that many cards is enumerated (see the
    module's docstring) and judged; the first count with a valid one is the answer.
    ``cut`` False turns the sound cut off (slower; the same answer)."""
    looks = [_Look(c, game) for c in configs(layout).values()]
    description = normalize(layout.descriptions[game])
    needed = _chars(description)
    best = max(look.chars for look in looks)
    pieces = {t for look in looks for _, t, _ in look.upright}
    allowed = {t: occurrences(description, t) for t in pieces}
    result = SolveResult(game, preset, None, None, best=best, needed=needed)
    budget = _Budget(best, needed, allowed) if cut else None
    for count in range(1, max_cards + 1):
        judged = dropped = 0
        level = [_start(look) for look in looks]
        if budget is not None:
            kept = [s for s in level
                    if not budget.hopeless([t for _, _, t in s.shown], count - 1)]
            dropped += len(level) - len(kept)
            level = kept
        counter = [0]
        for size in range(1, count):
            seen: set[tuple[object, ...]] = set()
            following = []
            for state in level:
                for child in _children(state, looks, budget, count - size - 1, counter):
                    key = child.key()
                    if key not in seen:
                        seen.add(key)
                        following.append(child)
            level = following
        dropped += counter[0]
        found: list[tuple[float, int, Assembly, Report]] = []
        for state in level:
            judged += 1
            if _reads(state, description):
                assembly = _assembly(game, preset, state.cards)
                report = validate(layout, assembly)
                if report.valid:
                    found.append((round(_area(report), 6), len(found), assembly, report))
        result.searched[count], result.cut[count] = judged, dropped
        if found:
            found.sort(key=lambda f: f[:2])
            first: str | None = None
            for _, _, assembly, report in found:
                why = fragile(layout, assembly, report)
                if why is None:
                    result.assembly, result.report = assembly, report
                    return result
                first = first or why
            result.assembly, result.report = found[0][2], found[0][3]
            result.robust, result.fragile = False, first
            return result
        if progress is not None:
            progress(count, judged)
    return result


def _reads(state: _State, description: str) -> bool:
    """Whether the wholly visible upright text, in reading order, is the description
    (a quick test before the full validation)."""
    shown = in_lines(state.shown, lambda s: s[1])
    return normalize(" ".join(text for _, _, text in shown)) == description


def _area(report: Report) -> float:
    """The area of the smallest box around an assembly's cards (the most compact of the
    smallest assemblies is the one returned)."""
    assert report.scene is not None
    box = Box.union([b for faces in report.scene.faces for b in faces])
    return box.w * box.h


def _assembly(game: Game, preset: str, cards: list[Item]) -> Assembly:
    ox, oy = cards[0][1], cards[0][2]
    return Assembly(game, preset, tuple(
        Placement(round(x - ox, 3) + 0.0, round(y - oy, 3) + 0.0, look.key[0], look.key[1])
        for look, x, y in cards))
