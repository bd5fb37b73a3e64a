"""The smallest assembly that spells a game's description, found by exhaustive search.

What is enumerated (docs/connector.md): assemblies grown one card at a time from a
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

The enumeration runs depth first, holding only the cards on the current path and, per
size, a set of compact keys of the assemblies seen (9 bytes a card), in the same order
as a level-by-level search, so the answer is the same; and it stops at a budget of
assemblies visited (``DEFAULT_BUDGET``), so a search without the cut gives up with a
bounded amount of memory instead of growing until the machine runs out (``--no-cut``
held 136,128 assemblies of 4 cards for Defector, 185 MB, and died at 5 cards).
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from cardgen.connector.model import (
    Assembly,
    CardLayout,
    Config,
    Cover,
    Fragment,
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
from cardgen.games.names import GameName

MAX_CARDS = 8
# The most assemblies (of any size, counted once per count searched) one search visits
# before it gives up. Each costs about 110 bytes while its count is searched (a compact
# key in a set), so this keeps a search well under 1 GB: see the guide (docs/connector.md,
# "Commands") for the figures.
DEFAULT_BUDGET = 2_000_000
PROGRESS_EVERY = 10_000  # visited assemblies between two progress reports
_PACK = struct.Struct("<Bii").pack  # a card of a state's key: look, x and y in µm
Look = tuple[int, Tabs]  # rotation, tabs


@dataclass
class SolveResult:
    game: GameName
    preset: str
    assembly: Assembly | None
    report: Report | None
    searched: dict[int, int] = field(default_factory=dict)  # cards -> assemblies judged
    cut: dict[int, int] = field(default_factory=dict)  # cards -> branches cut by the bound
    best: int = 0  # most characters of the game's upright text one card shows
    needed: int = 0  # characters of the description
    robust: bool = True  # the assembly found survives the tolerance (or none was found)
    fragile: str | None = None  # when not: how it fails
    budget: int = 0  # the most assemblies the search could visit
    visited: int = 0  # assemblies it visited (of every size, once per count searched)
    exhausted: int | None = None  # the count it was searching when the budget ran out

    @property
    def cards(self) -> int | None:
        return len(self.assembly.cards) if self.assembly else None

    @property
    def minimal(self) -> bool:
        """True when every smaller assembly was ruled out (always, for a found one)."""
        return self.assembly is not None

    @property
    def decided(self) -> bool:
        """False when the budget ran out before the search found or ruled out."""
        return self.exhausted is None

    @property
    def total_searched(self) -> int:
        return sum(self.searched.values())


@functools.cache
def _chars(text: str) -> int:
    """The characters of ``text`` but spaces (a search asks about the same few texts
    some 10⁵ times: each is counted once)."""
    return len(text.replace(" ", ""))


class _Look:
    """One look of a lone card at the origin, reduced to what the search needs."""

    def __init__(self, config: Config, game: GameName, index: int) -> None:
        self.key: Look = (config.rotation, config.tabs)
        self.index = index  # its place in the list of looks (one byte of a state's key)
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

    def key(self) -> bytes:
        """The state as the search tells states apart: each card's look and its place
        relative to the first card, to the micrometre, packed in 9 bytes a card."""
        ox, oy = self.cards[0][1], self.cards[0][2]
        return b"".join(_PACK(look.index, round(round(x - ox, 3) * 1000),
                              round(round(y - oy, 3) * 1000))
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
        allowed = self.allowed
        for t in texts:
            n = counts[t] = counts.get(t, 0) + 1
            if n <= allowed.get(t, 0):
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


class _OutOfBudget(Exception):
    """The search visited its budget of assemblies before it could answer."""


def _search(starts: list[_State], looks: list[_Look], budget: _Budget | None, count: int,
            cut: list[int], visit: Callable[[], None], judge: Callable[[_State], None]
            ) -> int:
    """Every distinct state of ``count`` cards grown from ``starts`` (see the module's
    docstring) handed to ``judge``, in the order a breadth-first search that keeps the
    first of each would list them; returns how many. Depth first, so that only the
    states on the current path and one compact key per state seen are held, never a
    whole level. ``visit`` is called once per distinct state of any size."""
    seen: list[set[bytes]] = [set() for _ in range(count + 1)]
    stack: list[Iterator[_State]] = [iter(starts)]
    while stack:
        state = next(stack[-1], None)
        if state is None:
            stack.pop()
            continue
        size = len(state.cards)
        key = state.key()
        if key in seen[size]:
            continue
        seen[size].add(key)
        visit()
        if size == count:
            judge(state)
        else:
            stack.append(iter(_children(state, looks, budget, count - size - 1, cut)))
    return len(seen[count])


def solve(layout: CardLayout, game: GameName, preset: str, max_cards: int = MAX_CARDS, *,
          cut: bool = True, budget: int = DEFAULT_BUDGET,
          progress: Callable[[int, int], None] | None = None) -> SolveResult:
    """The smallest assembly of at most ``max_cards`` that validates for ``game``: for
    each count from one card up, every assembly of that many cards is enumerated (see the
    module's docstring) and judged; the first count with a valid one is the answer.
    ``cut`` False turns the sound cut off (slower; the same answer). ``budget`` bounds
    the assemblies of any size the whole search visits (each once per count searched);
    when it runs out first the result has no assembly and ``exhausted`` set.
    ``progress`` is told (cards being searched, assemblies visited so far) now and
    then."""
    looks = [_Look(c, game, i) for i, c in enumerate(configs(layout).values())]
    description = normalize(layout.descriptions[game])
    needed = _chars(description)
    best = max(look.chars for look in looks)
    pieces = {t for look in looks for _, t, _ in look.upright}
    allowed = {t: occurrences(description, t) for t in pieces}
    result = SolveResult(game, preset, None, None, best=best, needed=needed, budget=budget)
    bound = _Budget(best, needed, allowed) if cut else None
    searching = [0]  # the count being searched
    found: list[tuple[float, int, Assembly, Report]] = []  # the valid ones of that count

    def visit() -> None:
        result.visited += 1
        if result.visited > budget:
            result.visited = budget
            raise _OutOfBudget
        if progress is not None and result.visited % PROGRESS_EVERY == 0:
            progress(searching[0], result.visited)

    def judge(state: _State) -> None:
        if _reads(state, description):
            assembly = _assembly(game, preset, state.cards)
            report = validate(layout, assembly)
            if report.valid:
                found.append((round(_area(report), 6), len(found), assembly, report))

    for count in range(1, max_cards + 1):
        searching[0] = count
        dropped = 0
        starts = [_start(look) for look in looks]
        if bound is not None:
            kept = [s for s in starts
                    if not bound.hopeless([t for _, _, t in s.shown], count - 1)]
            dropped += len(starts) - len(kept)
            starts = kept
        counter = [0]
        try:
            judged = _search(starts, looks, bound, count, counter, visit, judge)
        except _OutOfBudget:
            result.exhausted = count
            return result
        dropped += counter[0]
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
            progress(count, result.visited)
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


def _assembly(game: GameName, preset: str, cards: list[Item]) -> Assembly:
    ox, oy = cards[0][1], cards[0][2]
    return Assembly(game, preset, tuple(
        Placement(round(x - ox, 3) + 0.0, round(y - oy, 3) + 0.0, look.key[0], look.key[1])
        for look, x, y in cards))
