"""Is an assembly a solution? Computed from the layout and the placements alone.

The rules (docs/connector.md):

1. **Connections.** A connection is a card's pale corner number lying on the same
   number in the game's colour on a card below it, centre within :data:`TOLERANCE` of
   centre, with nothing between the two cards over the coloured number. A corner number
   within :data:`NEAR` of a matching number but not within the tolerance, where
   neither takes part in a connection, is a near miss and reported with its offset.
   With two or more cards, the connections must join every card to card 1.
2. **Nothing needed is half hidden.** A fragment of the game's colour that reads upright
   must be either wholly visible or wholly covered.
3. **The text.** The wholly visible, upright fragments of the game's colour, read in
   lines from the top, each line left to right (:func:`model.reading_order`), joined by
   spaces, must be exactly the game's description (white space compared as one space).

Every problem is reported, each in words that say which card, which number or
fragment, and what to do. Each is said twice (issue 21, point 12): in
:attr:`Report.problems` quoting the text (the description, the fragments), and in
:attr:`Report.hints` quoting none of it, for a player who has not solved the puzzle yet:
those name the colour, the cards, how many of the pieces the description needs show,
and which connection is off by how much.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from cardgen.connector.model import (
    Assembly,
    CardLayout,
    Cover,
    Face,
    Fragment,
    Mark,
    Placed,
    Scene,
    Tabs,
    distance,
    normalize,
    reading_order,
)
from cardgen.errors import Code
from cardgen.games.names import GameName

TOLERANCE = 1.5  # mm between a corner number's centre and its coloured number's
NEAR = 10.0  # mm: closer than this but beyond the tolerance is a near miss


@dataclass(frozen=True)
class Connection:
    upper: int  # card index (0 = bottom) whose corner number lies on...
    lower: int  # ...this card's coloured number
    number: int
    offset: float  # mm between the centres


class AssemblyProblem(Code):
    """A rule of the Connector puzzle that an assembly breaks."""

    PART_COVERED = "assembly.part-covered"  # a piece of text partly covered
    TEXT = "assembly.text"  # the visible text is not the description
    PIECE = "assembly.piece"  # a piece of the description missing, hidden or extra
    CORNER_UNDER = "assembly.corner-under"  # a connecting corner beneath its target
    CORNER_HIDDEN = "assembly.corner-hidden"  # a number covered where a corner lands
    CORNER_OFF = "assembly.corner-off"  # a corner near its number, beyond the tolerance
    NOT_CONNECTED = "assembly.not-connected"  # a card not joined to card 1


@dataclass
class Report:
    """What validation found: ``problems`` empty means valid; ``codes`` says which rule
    each problem breaks."""

    game: GameName
    cards: int
    text: str
    description: str
    problems: list[str] = field(default_factory=list)
    connections: list[Connection] = field(default_factory=list)
    read: list[Placed] = field(default_factory=list)  # the fragments read, in order
    scene: Scene | None = None
    hints: list[str] = field(default_factory=list)  # the problems, quoting no text
    codes: list[AssemblyProblem] = field(default_factory=list)  # one for each problem
    pieces: Pieces | None = None  # how many of the description's pieces show

    @property
    def valid(self) -> bool:
        return not self.problems

    def add(self, code: AssemblyProblem, problem: str, hint: str | None = None) -> None:
        """A problem: its code, its words that quote text, and ``hint``: the same in
        words that quote none (``problem`` itself when it quotes none)."""
        self.codes.append(code)
        self.problems.append(problem)
        self.hints.append(problem if hint is None else hint)

    def as_json(self, reveal: bool = True) -> dict[str, object]:
        """The report as JSON. A valid assembly's text is always given (the cards on the
        table show it); for one that is not valid, without ``reveal`` ``text`` and
        ``description`` are null and ``problems`` are the :attr:`hints`."""
        shown = reveal or self.valid
        pieces = None if self.pieces is None else {
            "visible": self.pieces.visible, "needed": self.pieces.needed,
            "other": self.pieces.other}
        return {"valid": self.valid, "game": self.game.value, "cards": self.cards,
                "revealed": shown,
                "text": self.text if shown else None,
                "description": self.description if shown else None,
                "problems": list(self.problems if shown else self.hints),
                "codes": [code.value for code in self.codes],
                "pieces": pieces,
                "connections": [{"card": c.upper + 1, "corner": c.number,
                                 "onto_card": c.lower + 1, "offset_mm": round(c.offset, 2)}
                                for c in self.connections]}


@dataclass(frozen=True)
class Pieces:
    """The description's pieces: how many it is made of (``needed``, the fewest
    fragments of the game whose texts spell it), how many of those the cards show
    wholly visible and upright (``visible``) and how many other upright pieces of the
    game's colour show besides (``other``)."""

    needed: int
    visible: int
    other: int


def colour_name(layout: CardLayout, game: GameName) -> str:
    return layout.colour_names.get(game, game.value)


def _quoted(text: str) -> str:
    return "'" + text + "'"


def _offset_words(dx: float, dy: float) -> str:
    """Where a point lies from another, on the table: "4.2 mm right of", "2.0 mm below",
    "4.2 mm right of and 2.0 mm below" (to be followed by the other point)."""
    parts = []
    if abs(dx) >= 0.05:
        parts.append(f"{abs(dx):.1f} mm {'right' if dx > 0 else 'left'} of")
    if abs(dy) >= 0.05:
        parts.append(f"{abs(dy):.1f} mm {'below' if dy > 0 else 'above'}")
    return " and ".join(parts) or "0.0 mm from"


def validate(layout: CardLayout, assembly: Assembly) -> Report:
    """Every problem with ``assembly`` for its game, and what its cards show."""
    game = assembly.game
    colour = colour_name(layout, game)
    scene = Scene.build(layout, assembly.cards)
    description = normalize(layout.descriptions[game])
    report = Report(game, len(assembly.cards), "", description, scene=scene)
    _connections(scene, game, colour, report)
    if len(assembly.cards) > 1:
        _joined(scene, game, colour, report)

    game_frags = [p for p in scene.fragments
                  if isinstance(p.item, Fragment) and p.item.game is game]
    covers = {id(p): scene.cover(p) for p in game_frags}
    for p in game_frags:
        cover, by = covers[id(p)]
        if p.upright and cover is Cover.PARTLY:
            verb = 'covers' if len(by) == 1 else 'cover'
            report.add(AssemblyProblem.PART_COVERED,
                       f"{_cards(by)} {verb} part of the {colour} {_quoted(_frag(p).text)} on "
                       f"card {p.card + 1}; cover it wholly or not at all.",
                       f"{_cards(by)} {verb} part of a {colour} piece of text on "
                       f"{_where(p)}; cover it wholly or not at all.")
    read = reading_order([p for p in game_frags
                          if p.upright and covers[id(p)][0] is Cover.VISIBLE])
    report.read = read
    report.text = normalize(" ".join(_frag(p).text for p in read))
    report.pieces = _pieces(layout, game, description, read)
    if report.text != description:
        shown = report.text or "nothing"
        report.add(AssemblyProblem.TEXT, f"the visible upright {colour} text reads "
                   f"{_quoted(shown) if report.text else shown}, the description is "
                   f"{_quoted(description)}.", _count_words(report.pieces, colour))
        for problem, hint in _why_not(layout, scene, game, colour, description, game_frags,
                                      covers, read):
            report.add(AssemblyProblem.PIECE, problem, hint)
    return report


def _pieces(layout: CardLayout, game: GameName, description: str,
            read: list[Placed]) -> Pieces | None:
    """How many pieces the description needs and how many of them ``read`` holds (None
    when no fragments of the game spell it)."""
    needed = split_into(description, {normalize(f.text) for f in layout.fragments
                                      if f.game is game})
    if needed is None:
        return None
    wanted: dict[str, int] = {}
    for text in needed:
        wanted[text] = wanted.get(text, 0) + 1
    visible = 0
    for p in read:
        text = normalize(_frag(p).text)
        if wanted.get(text, 0) > 0:
            wanted[text] -= 1
            visible += 1
    return Pieces(len(needed), visible, len(read) - visible)


def split_into(text: str, pieces: set[str]) -> list[str] | None:
    """``text`` as the fewest of ``pieces`` joined by spaces (None when they cannot
    spell it)."""
    words = text.split()
    best: list[list[str] | None] = [None] * (len(words) + 1)
    best[0] = []
    sizes = {len(p.split()) for p in pieces}
    for end in range(1, len(words) + 1):
        for size in sizes:
            start = end - size
            before = best[start] if start >= 0 else None
            if before is None:
                continue
            piece = " ".join(words[start:end])
            current = best[end]
            if piece in pieces and (current is None or len(before) + 1 < len(current)):
                best[end] = [*before, piece]
    return best[-1]


def _count_words(pieces: Pieces | None, colour: str) -> str:
    """The text problem without the text: how many of the pieces show."""
    if pieces is None:
        return f"the visible upright {colour} text is not the description."
    if pieces.visible == pieces.needed and not pieces.other:
        return (f"all {pieces.needed} {colour} pieces of text the description needs are "
                "visible and upright, but they do not read in its order (in lines from the "
                "top, each line left to right).")
    said = (f"{pieces.visible} of the {pieces.needed} {colour} pieces of text the "
            f"description needs {'is' if pieces.visible == 1 else 'are'} visible and "
            "upright")
    if pieces.other:
        said += (f"; {pieces.other} other visible upright {colour} "
                 f"{'piece is' if pieces.other == 1 else 'pieces are'} not part of it "
                 f"(cover {'it' if pieces.other == 1 else 'them'})")
    return said + "."


FACE_WORDS = {Face.BACK: "back panel", Face.TAB5: "tab 5", Face.TAB6: "tab 6",
              Face.STRIP: "inside strip"}


def _where(p: Placed) -> str:
    """Where a fragment is, without its text: "card 2's tab 5"."""
    return f"card {p.card + 1}'s {FACE_WORDS[_frag(p).face]}"


def _frag(p: Placed) -> Fragment:
    assert isinstance(p.item, Fragment)
    return p.item


def _mark(p: Placed) -> Mark:
    assert isinstance(p.item, Mark)
    return p.item


def _cards(indexes: list[int]) -> str:
    names = [f"card {i + 1}" for i in indexes]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _connections(scene: Scene, game: GameName, colour: str, report: Report) -> None:
    corners = [p for p in scene.marks if _mark(p).game is None]
    targets = [p for p in scene.marks if _mark(p).game is game]
    near: list[tuple[Placed, Placed, float]] = []
    for c in corners:
        for t in targets:
            number = _mark(c).number
            if c.card == t.card or number != _mark(t).number:
                continue
            d = distance(c.box.center, t.box.center)
            if d > NEAR:
                continue
            if c.card < t.card:
                if d <= TOLERANCE:
                    report.add(
                        AssemblyProblem.CORNER_UNDER,
                        f"card {c.card + 1}'s corner {number} lies under card {t.card + 1}, "
                        f"beneath its {colour} {number}: the card whose corner number makes "
                        "a connection must lie on top (put it later in the file).")
                continue
            cover, by = scene.cover(t, below=c.card)
            if cover is not Cover.VISIBLE:
                if d <= TOLERANCE:
                    what = (f"{_cards(by)} {'lies' if len(by) == 1 else 'lie'} over it"
                            if by != [t.card] else "its own tab lies over it")
                    report.add(
                        AssemblyProblem.CORNER_HIDDEN,
                        f"card {c.card + 1}'s corner {number} cannot reach card "
                        f"{t.card + 1}'s {colour} {number}: {what}.")
                continue
            if d <= TOLERANCE:
                report.connections.append(Connection(c.card, t.card, number, d))
            else:
                near.append((c, t, d))
    used_corners = {(k.upper, k.number) for k in report.connections}
    used_targets = {(k.lower, k.number) for k in report.connections}
    for c, t, _ in near:
        number = _mark(c).number
        if (c.card, number) in used_corners or (t.card, number) in used_targets:
            continue
        (cx, cy), (tx, ty) = c.box.center, t.box.center
        report.add(AssemblyProblem.CORNER_OFF,
                   f"card {c.card + 1}: its corner {number} is "
                   f"{_offset_words(cx - tx, cy - ty)} card {t.card + 1}'s {colour} "
                   f"{number} (a connection needs the centres within {TOLERANCE:g} mm).")


def _joined(scene: Scene, game: GameName, colour: str, report: Report) -> None:
    """Every card must be joined to card 1 through connections."""
    parent = list(range(len(scene.cards)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for k in report.connections:
        parent[root(k.upper)] = root(k.lower)
    for i in range(1, len(scene.cards)):
        if root(i) != root(0):
            report.add(
                AssemblyProblem.NOT_CONNECTED,
                f"card {i + 1} is not connected to card 1: lay one of its corner numbers on "
                f"the same {colour} number of a card below it, or a corner number of a card "
                f"above it on one of its {colour} numbers.")


def _why_not(layout: CardLayout, scene: Scene, game: GameName, colour: str, description: str,
             frags: list[Placed], covers: dict[int, tuple[Cover, list[int]]],
             read: list[Placed]) -> list[tuple[str, str]]:
    """For each fragment text the description needs more (or fewer) times than it is
    read, one reason a person can act on: quoting the text, and without it."""
    out: list[tuple[str, str]] = []
    texts = sorted({normalize(f.text) for f in layout.fragments if f.game is game},
                   key=lambda t: (description.find(t), t))
    read_texts = [normalize(_frag(p).text) for p in read]
    for text in texts:
        wanted, got = occurrences(description, text), read_texts.count(text)
        if got > wanted:
            cards = sorted({p.card for p in read if normalize(_frag(p).text) == text})
            tail = f"is read {got} times (on {_cards(cards)}) and the description has it"
            out.append((f"the {colour} {_quoted(text)} {tail} {_times(wanted)}.",
                        f"a {colour} piece of text {tail} {_times(wanted)}."))
            continue
        if got >= wanted:
            continue
        same = [p for p in frags if normalize(_frag(p).text) == text and p not in read]
        covered = [p for p in same if p.upright and covers[id(p)][0] is Cover.COVERED]
        turned = [p for p in same if not p.upright and covers[id(p)][0] is Cover.VISIBLE]
        if covered:
            p = covered[0]
            by = covers[id(p)][1]
            own = by == [p.card]
            who = f"card {p.card + 1}'s own tab" if own else _cards(by)
            verb = 'covers' if own or len(by) == 1 else 'cover'
            out.append((f"{who} {verb} the {colour} {_quoted(text)} on card {p.card + 1}.",
                        f"{who} {verb} a {colour} piece of text on {_where(p)} that the "
                        "description needs."))
        elif turned:
            p = turned[0]
            turn = (360 - p.rotation) % 360
            tail = (f"is visible but does not read upright: it would with the card turned "
                    f"{turn}° further clockwise.")
            out.append((f"card {p.card + 1}'s {colour} {_quoted(text)} {tail}",
                        f"a {colour} piece of text on {_where(p)} that the description "
                        f"needs {tail}"))
        elif not any(p.upright for p in same):
            where = [f for f in layout.fragments if f.game is game and normalize(f.text) == text]
            tabs = {Tabs.FOLDED if f.face is not Face.BACK else Tabs.OPEN for f in where}
            hint = ("it shows on a card whose tabs are folded" if tabs == {Tabs.FOLDED}
                    else "it shows on a card whose tabs are open" if tabs == {Tabs.OPEN}
                    else "look for it on the card")
            tail = f"upright; {hint}, turned so that it reads upright."
            out.append((f"no card shows the {colour} {_quoted(text)} {tail}",
                        f"no card shows one of the {colour} pieces of text the description "
                        f"needs {tail}"))
    return out


def _times(n: int) -> str:
    return {0: "not at all", 1: "once", 2: "twice"}.get(n, f"{n} times")


def occurrences(text: str, piece: str) -> int:
    """How often ``piece`` occurs in ``text`` as whole words (not overlapping)."""
    count, start = 0, 0
    while True:
        i = text.find(piece, start)
        if i < 0:
            return count
        end = i + len(piece)
        if (i == 0 or text[i - 1] == " ") and (end == len(text) or text[end] == " "):
            count += 1
            start = end
        else:
            start = i + 1


def _turned(rotation: int) -> str:
    return {0: "upright", 90: "turned a quarter clockwise", 180: "upside down",
            270: "turned a quarter anticlockwise"}[rotation % 360]


def instructions(report: Report) -> list[str]:
    """How to lay the cards of a valid assembly, one sentence a card: the first as it
    lies, then each card joined to one already down, through the connection that joins
    them (on top of it, or slid under it)."""
    scene = report.scene
    if scene is None or not scene.cards:
        return []
    colour = colour_name(scene.layout, report.game)

    def look(i: int) -> str:
        card = scene.cards[i]
        tabs = "tabs folded back" if card.tabs is Tabs.FOLDED else "tabs open"
        return f"{_turned(card.rotation)}, {tabs}"

    def layers(i: int) -> str:
        """Where card i goes among the cards already down that it overlaps."""
        touching = [j for j in sorted(placed) if any(
            a.intersects(b) for a in scene.faces[i] for b in scene.faces[j])]
        over, under = [j for j in touching if j < i], [j for j in touching if j > i]
        parts = ([f"over {_cards(over)}"] if over else []) + (
            [f"under {_cards(under)}"] if under else [])
        return f" (it lies {' and '.join(parts)})" if parts else ""

    steps = [f"Card 1: lay it down {look(0)}, back panel up."]
    placed: set[int] = {0}
    for k, on_top in laying_order(report.connections, placed):
        if on_top:
            steps.append(f"Card {k.upper + 1}: {look(k.upper)}; put its pale {k.number} "
                         f"on card {k.lower + 1}'s {colour} {k.number}{layers(k.upper)}.")
        else:
            steps.append(f"Card {k.lower + 1}: {look(k.lower)}; slide it under card "
                         f"{k.upper + 1} so that card {k.upper + 1}'s pale {k.number} "
                         f"lies on its {colour} {k.number}{layers(k.lower)}.")
    return steps


def laying_order(connections: Sequence[Connection], placed: set[int]
                 ) -> Iterator[tuple[Connection, bool]]:
    """The connections in the order a person lays the cards, from those in ``placed``
    (card 1, counted from 0): each joins a card already down to one not yet down, and
    comes with whether the new card goes on top (its pale corner onto the card down) or
    slides under. ``placed`` grows as the caller goes on: a card counts as down once
    the caller has had its connection."""
    pending = list(connections)
    while pending:
        for k in pending:
            if (k.upper in placed) == (k.lower in placed):
                continue
            on_top = k.lower in placed
            yield k, on_top
            placed.add(k.upper if on_top else k.lower)
            break
        else:
            return
        pending = [k for k in pending if not (k.upper in placed and k.lower in placed)]
