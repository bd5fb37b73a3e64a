"""The rules book's Node-game chapters (templates/rules/reflector.md, deflector.md,
defector.md) against the decisions of SPEC §9.7 (issue 24, point 4).

SPEC §9.7 lists 55 decisions, each with a *Book* column: "=" the book already said it,
"≠" the book said something else and had to change, "+" the book was silent or unclear
and had to add it. ``DECISIONS`` below gives, for each decision, the facts that must be
found in which chapter (and, where it matters, in which section of it): regular
expressions in the book's own words that would not match if the book still said the old
thing, and the old readings that must not come back. Every decision marked ≠ or + (or
"=" with a "+" refinement) is checked, and so is every "=" one; for each ≠ decision the
book's old wording is shown to be caught. Then one test per reason shows that the wrong
readings issue 24 names are gone, in the text and in the printed book: the Deflector
end-of-game rule that ended every game at the first capture, and the Defector alliance
rule that contradicted the seed's own sentence (who can break a Link; and, from the same
seed section, when a member may leave).

The texts are matched as a player reads them: headings, paragraphs, items, captions and
table cells, white space as one space, curly quotes as straight ones, letter case
ignored. SPEC is looked for in ``shared/`` beside the repository, as the other tests do;
without it the check that this table follows SPEC's Book column is skipped and the
table's own list of changed decisions stands in for it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from cardgen.rules.markup import (
    Block,
    FigureRef,
    Section,
    Subsection,
    Table,
    Title,
    load,
)
from tests.helpers import ROOT

RULES = ROOT / "templates" / "rules"
SHARED = ROOT.parent / "shared"
SPEC = SHARED / "SPEC.md"
SEEDS = SHARED / "seeds"

GAMES = ("reflector", "deflector", "defector")
ALL = GAMES
MANY = ("deflector", "defector")  # the games with Deflectors
REFLECTOR = ("reflector",)
DEFLECTOR = ("deflector",)
DEFECTOR = ("defector",)

# The decisions whose Book column in SPEC §9.7 says ≠ or + (a "+" refinement of an "="
# included): the book had to change or grow for each of them.
CHANGED = frozenset({2, 3, 4, 5, 6, 8, 9, 10, 11, 16, 17, 19, 20, 21, 24, 25, 26, 29,
                     36, 37, 39, 40, 41, 42, 46, 47, 52, 54, 55})
# Of those, the ones where the book said something else (≠), not merely too little.
DIFFERED = frozenset({4, 21, 25, 29, 39, 41, 46, 47})


@dataclass(frozen=True)
class Fact:
    """What one or more chapters must say for a decision.

    ``must``: patterns that must all be found, in this order when ``ordered``;
    ``never``: patterns of the old reading that must not be found. Both are looked for
    in ``where`` (a section or subsection heading: up to the next heading of the same
    level or higher), or in the whole chapter."""

    games: tuple[str, ...]
    must: tuple[str, ...]
    never: tuple[str, ...] = ()
    where: str | None = None
    ordered: bool = False


DECISIONS: dict[int, tuple[Fact, ...]] = {
    # 1 (=) adjacent: sharing a side, or facing across a join; never a corner
    1: (Fact(ALL, (r"shares a side", r"touching at a corner is not enough")),
        Fact(MANY, (r"shares a side with one of your bases, on the same grid or across a "
                    r"join", r"spaces that meet across a join count as sharing a side"))),
    # 2 (+) Reflector's first shot: Row 1, or next to a base a reflection handed over
    2: (Fact(REFLECTOR, (r"first shot: any space of row 1 on your opponent's grid",
                         r"handed you spaces of their grid by reflection, a space next to "
                         r"one of those will do as well",
                         r"the row 1 rule is an extra choice, not the only one"),
             never=(r"first (shot|move) (must|has to) be",),
             where="Where you may shoot"),),
    # 3 (+) the captured Node's own space goes to the capturer, even inside another diamond
    3: (Fact(ALL, (r"the node itself always goes to the capturer",
                   r"even when it lies inside the diamond of another node",
                   r"a captured node belongs to whoever captured it"),
             never=(r"another node the target still holds",),
             where="Overlapping territory"),),
    # 4 (≠) kept: covered by another Node of the grid held by anyone but the capturer
    4: (Fact(ALL, (r"kept: if the other node is held by anyone but the capturer, they do "
                   r"not change hands",),
             never=(r"another node the target still holds",
                    r"the target's other nodes? (also )?cover"),
             where="Overlapping territory"),),
    # 5 (+) kept spaces stay unwon, answer Owned, can be shot or conceded one by one
    5: (Fact(REFLECTOR, (r"kept spaces are shaded.{0,60}but get no symbol",
                         r"they stay unwon: shot later, one at a time, they answer owned",
                         r"a kept space: if the space you give back is a kept space of "
                         r"your grid, it answers owned")),
        Fact(MANY, (r"kept spaces are shaded but get no new symbol; whoever held them "
                    r"still does", r"a kept space nobody has won answers owned when it is "
                    r"shot later"))),
    # 6 (+) Reflector's space count: spaces with your symbol; kept spaces do not count
    6: (Fact(REFLECTOR, (r"counts the spaces of the other's grid that carry their own "
                         r"symbol", r"kept spaces, which carry none, do not count"),
             where="Winning"),),
    # 7 (=) a capture takes the territory from whoever held it, third players too
    7: (Fact(MANY, (r"captures it and its territory, whoever held its spaces before, a "
                    r"third player included",)),),
    # 8 (+) every unused Deflector in the territory fires, kept part included
    8: (Fact(MANY, (r"every unused deflector anywhere in the territory, kept part "
                    r"included, fires", r"its space stays unwon"),
             where="Overlapping territory"),),
    # 9 (+) fired Deflectors: all used at once, then in reading order, each in full
    9: (Fact(MANY, (r"every unused deflector in its territory is crossed out at once, then "
                    r"each fires in turn, in reading order",
                    r"finish each fired shot, with everything it sets off, before the next "
                    r"one fires"), ordered=True),),
    # 10 (+) fired shots: the capturer's, in the capture's direction, never reflected
    10: (Fact(MANY, (r"in the direction of the shot that made the capture",
                     r"who wins what a fired shot takes: the capturer, always, except on "
                     r"the capturer's own grid, where the owner of the captured grid wins "
                     r"it",
                     r"nothing is reflected for the spaces of a captured territory, for "
                     r"what fired deflectors win"), ordered=True),),
    # 11 (+) a capture by reflection fires too, from the capturer towards the conceder
    11: (Fact(DEFLECTOR, (r"its deflectors fire, travelling from the player who receives "
                          r"it towards you",), where="Reflector-Deflector"),
         Fact(DEFECTOR, (r"its deflectors fire, travelling from the player who receives "
                         r"it towards you",), where="Reflection")),
    # 12 (=) the shorter way round by seats; straight across is clockwise
    12: (Fact(MANY, (r"the shorter way round the table, by seats",
                     r"directly across the table, it goes clockwise",
                     r"a shot named on your own grid( or on the island)? counts as "
                     r"clockwise")),),
    # 13 (=) the next grid by seat, whatever the joins; out players' seats count
    13: (Fact(MANY, (r"the next seat in that direction, whatever the joins",
                     r"seats of players who are out still count")),
         Fact(DEFECTOR, (r"the island is skipped: deflections land only on players' "
                         r"grids",))),
    # 14 (=) the original Target wins on the Shooter's grid; after a Deflector there, S
    14: (Fact(MANY, (r"the original target of a deflected shot is the owner of the first "
                     r"deflector it hit", r"the original target wins the space it lands "
                     r"on there", r"whatever it wins after that belongs to the shooter "
                     r"again"), ordered=True),),
    # 15 (=) a landing the claimant may not take is spent
    15: (Fact(MANY, (r"nothing to win: a landing on a space its winner already holds, or "
                     r"may not take .{0,40}, or meant for a player who is out, is spent "
                     r"and changes nothing",)),),
    # 16 (= + own grid, out players) one reflection, of the space finally won, to its holder
    16: (Fact(REFLECTOR, (r"the shooter must give the target the space with the same "
                          r"letter and number on the shooter's own grid",
                          r"after a capture, the space handed over is the one matching "
                          r"the node", r"a reflection never leads to a second reflection"),
              where="Reflection"),
         Fact(DEFLECTOR, (r"only the space your shot finally won is reflected, to whoever "
                          r"held it just before", r"for a space of your own grid, to a "
                          r"player who is out"), where="Reflector-Deflector"),
         Fact(DEFECTOR, (r"only the space your shot finally won is reflected, to whoever "
                         r"held it just before", r"for island spaces, for a space of your "
                         r"own grid, to a player who is out"), where="Reflection")),
    # 17 (+) no reflection once the shot has landed on the Shooter's grid
    17: (Fact(DEFLECTOR, (r"or when the shot landed on your own grid on its way",),
              where="Reflector-Deflector"),
         Fact(DEFECTOR, (r"or when the shot landed on your own grid on its way",),
              where="Reflection")),
    # 18 (=) nothing to concede, nothing happens
    18: (Fact(REFLECTOR, (r"nothing to give: if your opponent already holds that space of "
                          r"your grid, the reflection changes nothing",)),
         Fact(MANY, (r"nothing to give: if you no longer hold that space of your grid, "
                     r"nothing happens",))),
    # 19 (+) a Deflector on the conceded space does not act
    19: (Fact(MANY, (r"a deflector on the space you hand over does nothing; it is crossed "
                     r"out, and the space is answered from what lies beneath",
                     r"never deflected and never reflected again")),),
    # 20 (= + aimed) entry: from a home grid, until aimed at, or again without a base there
    20: (Fact(MANY, (r"entering a grid: you may also shoot any space (of|on) a stretch of "
                     r"edge (that is )?joined to one of your home grids",
                     r"not yet (have )?shot at (that grid|it), or (you )?have no base left "
                     r"on it", r"naming a space of a grid counts as shooting at it, whatever "
                     r"came of the shot", r"a shot that only arrives there by deflection "
                     r"does not count"), where="Where you may shoot", ordered=True),),
    # 21 (≠) only *won* non-Node spaces inside your own Node's territory are barred
    21: (Fact(MANY, (r"where a node you hold covers a space that another player has won, "
                     r"that space stays theirs until the node changes hands",
                     r"you may still shoot kept spaces nobody has won there, and nodes"),
              never=(r"you may never take a space inside the territory of a node you "
                     r"hold", r"never (shoot|take) (a|any) space (inside|in) (the )?"
                     r"territory"),
              where="Where you may shoot"),),
    # 22 (=) your own unwon spaces are not bases; a home grid is won back from outside
    22: (Fact(MANY, (r"the unwon spaces of your own grid are yours, but they are not bases",
                     r"nobody can enter their own home grid, and its unwon spaces are not "
                     r"bases", r"come in from a joined grid")),),
    # 23 (=) home grids each end of turn; a lost own grid counts again with all 5 Nodes
    23: (Fact(MANY, (r"home grids change at the end of every turn",
                     r"after you have lost it, it is your home grid again only when all "
                     r"five of its nodes are yours")),),
    # 24 (+) every end check at the end of the turn, after the reflection
    24: (Fact(REFLECTOR, (r"check for the end once the whole turn is over, reflection "
                          r"included",), where="Winning"),
         Fact(DEFLECTOR, (r"at the end of every turn, once the shot and everything it set "
                          r"off are done \(with reflector-deflector, the reflection too\)",),
              where="Winning"),
         Fact(DEFECTOR, (r"at the end of every turn, once the shot and everything it set "
                         r"off are done, the reflection included",), where="Winning")),
    # 25 (≠) two left: exactly two in the game hold every Node; more wins, else first ahead
    25: (Fact(DEFLECTOR, (r"two left: when exactly two players are still in the game and "
                          r"between them they hold all the nodes on the table, the one "
                          r"holding more nodes wins",
                          r"if they hold the same number, play on and check again at the "
                          r"end of every turn: the first to get ahead",
                          r"the node count decides the game only once two players are "
                          r"left"),
              never=(r"when every node on the table is held by the players still in the "
                     r"game", r"held by the players still in the game, the one holding the "
                     r"most nodes wins", r"two or more (surviving )?players (are in "
                     r"control of|hold) all"),
              where="Winning", ordered=True),),
    # 26 (+, pass =) no legal shot: pass, and only then; everyone passing: stalemate
    26: (Fact(MANY, (r"if no space at all is open to you, you pass\. you may pass only then",
                     r"stalemate: if all the players still in the game have passed, one "
                     r"after another, since the last shot, the game ends\. the player "
                     r"holding the most nodes wins; equal counts are a draw"),
              ordered=True),),
    # 27 (=) out: no home grid; the grid stays, answers and deflects
    27: (Fact(DEFLECTOR, (r"each player with no home grid left is out of the game",
                          r"being out does not remove your grid",
                          r"you still answer for it and pass deflections on, but you take "
                          r"no more turns")),
         Fact(DEFECTOR, (r"with no home grid left, you are out of the game at the end of "
                         r"the turn", r"their grid stays on the table: they still answer "
                         r"for it and pass deflections on"))),
    # 28 (=) the threshold at the end of the turn, before anyone goes out; own Nodes count
    28: (Fact(DEFLECTOR, (r"first, home grids change", r"enough nodes: .{0,80}wins at once\. "
                          r"every node you hold counts, your own included", r"out: each "
                          r"player with no home grid left is out", r"last standing:",
                          r"two left:", r"stalemate:"),
              where="Winning", ordered=True),),
    # 29 (≠) Ricochet: a Deflector on the first grid reverses, on another grid stops
    29: (Fact(MANY, (r"a second deflector on the first grid it hit is used up, and the "
                     r"shot turns back", r"a deflector on any other grid is used up and "
                     r"stops the shot, which wins nothing"),
              never=(r"a deflector in the way: it is used up and the shot turns back",),
              where="Ricochet"),),
    # 30 (=) the row runs on by seat: clockwise towards Column A, entering at J
    30: (Fact(MANY, (r"clockwise: towards column a; the other way: towards column j",
                     r"enter(s|ing) at column j when it travels clockwise and at column a "
                     r"the other way"), where="Ricochet"),),
    # 31 (=) all the way round: the start space, once the shot has left the first grid
    31: (Fact(MANY, (r"if the shot has left the first grid and comes back to the space "
                     r"first hit without stopping", r"turning back and passing over that "
                     r"space on the first grid does not count"), where="Ricochet"),),
    # 32 (=) Reflector-Deflector: reflection as in Defector, decisions 16-19 included
    32: (Fact(DEFLECTOR, (r"the reflection rule of reflector is added to deflector",
                          r"handed over, not shot", r"one space a turn"),
              where="Reflector-Deflector"),),
    # 33 (=) ⌈n/2⌉ spare cards, seated by the rule of §9.6.2
    33: (Fact(DEFECTOR, (r"one spare card for every two players \(with an odd number of "
                         r"players, round up\)", r"row 1 against column a of the island "
                         r"grid in front of them", r"the first half of the players "
                         r"\(rounded up\) down one side", r"one side of the first card "
                         r"stays free"), where="The Island"),),
    # 34 (=) Island spaces: Null, won by the claimant, never reflected, deflected, turned
    34: (Fact(DEFECTOR, (r"island spaces hide nothing: they always answer null, and "
                         r"whoever wins one marks it", r"the island is skipped",
                         r"nothing is reflected for .{0,80}for island spaces",
                         r"the island never turns")),),
    # 35 (= reason recorded) allies share Private grids; Public grids and joins stay put
    35: (Fact(DEFECTOR, (r"keep the public grids where they lie and the joins as they are",
                         r"pushing grids together would tear up the island layout, would "
                         r"create joins between allies that neither may shoot across, and "
                         r"would leave stray joins behind"), where="What allies share"),),
    # 36 (= + homes) an ally's marks are bases, his home grids serve for entry
    36: (Fact(DEFECTOR, (r"while you are allied, the spaces that carry an ally's symbol",
                         r"one of your home grids or one of an ally's",
                         r"the grid you enter must not be a home grid of yours or of an "
                         r"ally", r"your allies' spaces: you never name a space an ally "
                         r"holds"), where="Where you may shoot"),
         Fact(DEFECTOR, (r"an ally's spaces are your bases, and an ally's home grids let "
                         r"you enter grids as if they were yours",),
              where="What allies share")),
    # 37 (+) a third member joins the Link; a Master at four; lapsing into the Master
    37: (Fact(DEFECTOR, (r"a third player who joins an alliance of two joins the same link "
                         r"group, under the same link node",
                         r"when an alliance reaches four players, it also chooses a master "
                         r"node", r"until it is lost, even if the alliance later shrinks "
                         r"below four", r"a player who joins without forming a new link "
                         r"group is held by the master node alone", r"two or three of them "
                         r"may form a new link group", r"if that leaves a link group with "
                         r"one player, that player is held by the master node alone"),
              where="Alliances", ordered=True),),
    # 38 (=) a Link or Master is a Node a member holds on his own grid
    38: (Fact(DEFECTOR, (r"one node that one of them still holds on the grid they set up",
                         r"a node that a member still holds on the grid they set up",
                         r"a node can be a link or a master, never both"),
              where="Alliances"),),
    # 39 (≠) a Link or Master is lost to anyone, an ally too, or when its holder leaves
    39: (Fact(DEFECTOR, (r"lost the moment someone else comes to hold it, whoever that is "
                         r"\(even an ally, by a deflection or a reflection\)",
                         r"and also when its holder leaves the alliance",
                         r"breaks up at once, in the middle of the turn if need be"),
              never=(r"outside the alliance", r"(an? )?(opponent|enemy|outsider) captures",
                     r"captured by (an? )?(other|another|outside) (player|team)"),
              where="Link Nodes"),
         Fact(DEFECTOR, (r"master lost: a master node is lost like a link node",),
              where="Master Nodes")),
    # 40 (+) a Link lost under a Master: still allied, but divided
    40: (Fact(DEFECTOR, (r"link lost under a master: the players of that link are no "
                         r"longer linked to each other, yet all of them remain allies",
                         r"players whose link was lost under a master stay allied until "
                         r"that alliance ends, but never again in one link group",
                         r"can never be in the same alliance again")),),
    # 41 (≠) leaving at the start of any member's turn; defecting in one's own
    41: (Fact(DEFECTOR, (r"deserter: when the turn of any member of your alliance begins, "
                         r"before anyone joins the alliance that turn, you may leave it",
                         r"defector: at the start of your own turn you may leave and, in "
                         r"the same turn, form a new alliance or join another one"),
              never=(r"at any point in your own turn you may leave",
                     r"deserter: (at|during) (any point in |the start of )?your own turn"),
              where="Deserting and defecting"),),
    # 42 (+ merging) sides unite, alliances merge; one Master at most; no reuniting
    42: (Fact(DEFECTOR, (r"join their side \(themselves alone, or their whole alliance\) "
                         r"with another side, a single player or a whole alliance",
                         r"two alliances may merge", r"it can never have two master nodes: "
                         r"two sides that both have one cannot join",
                         r"never bring together two players who have been split apart"),
              where="Forming an alliance"),),
    # 43 (=) without a home grid and no longer allied: out at the end of the turn
    43: (Fact(DEFECTOR, (r"when a turn ends with them still without a home grid and no "
                         r"longer allied, they are out",)),),
    # 44 (=) the alliance victory state dissolves, repeatedly; or wins in the short game
    44: (Fact(DEFECTOR, (r"more than half:", r"alliances do not win: when one alliance's "
                         r"members hold all the nodes on the table between them, or every "
                         r"player still in the game belongs to it, the alliance breaks up",
                         r"an alliance of four or more falls apart into its link groups",
                         r"check again", r"agree before you start that such an alliance "
                         r"wins together", r"out: anyone left with neither a home grid nor "
                         r"an alliance is out", r"last one standing:", r"three left:",
                         r"stalemate:"), where="The winner", ordered=True),),
    # 45 (=) three left: at most three in the game, holding every Node
    45: (Fact(DEFECTOR, (r"three left: when no more than three players remain in the game "
                         r"and among them they hold all the nodes, the one with the most "
                         r"nodes wins",), where="The winner"),),
    # 46 (≠ detail) a tie for the most: the first end of turn with a single leader
    46: (Fact(DEFECTOR, (r"if two or more share the most, play on and check again at the "
                         r"end of every turn: the first turn that ends with a single "
                         r"leader decides",),
              never=(r"play on until one of them captures a node from another",
                     r"by taking (possession of )?(this|the) (final|last) node"),
              where="The winner"),),
    # 47 (≠) Deluxe: a quarter turn after every landing answered on the grid
    47: (Fact(DEFECTOR, (r"every time a shot lands on your grid and you answer for it, "
                         r"whatever the answer \(a deflector, or a landing that wins "
                         r"nothing, included\)", r"named, deflected or fired",
                         r"a quarter turn clockwise at once",
                         r"spaces won with a captured territory, the spaces a ricochet "
                         r"shot passes over, and a reflection do not turn it"),
              never=(r"at the end of each turn, every player whose grid was hit",
                     r"once (a|per|each) turn"),
              where="The Business Card Deluxe Collection"),),
    # 48 (=) down is towards the grid's owner, by the turn count; bases inside others' grids
    48: (Fact(DEFECTOR, (r"your base reaches only the space directly below it",
                         r"towards row 10 before any turn, then towards column j after one "
                         r"quarter turn, row 1 after two and column a after three",
                         r"entering a grid, stepping across a join, the island and your "
                         r"own grid work as usual"),
              where="The Business Card Deluxe Collection"),),
    # 49 (=) Safety Among Friends: over the allies of whoever's Deflector sent it on
    49: (Fact(DEFECTOR, (r"never lands on an ally of the player whose deflector diverted it",
                         r"each later deflection does the same for the alliance of the "
                         r"player it bounces off"), where="Safety Among Friends"),),
    # 50 (=) Deflectors on any non-Node space
    50: (Fact(MANY, (r"a deflector may go on any space that is not a node: inside a node's "
                     r"territory, on an edge, along a joined stretch",)),),
    # 51 (=) a territory never crosses a join; 6 to 13 spaces
    51: (Fact(ALL, (r"13 spaces", r"a node in a corner only 6",
                    r"a territory never reaches across onto another grid")),),
    # 52 (+) variants combine; Ricochet in Defector too
    52: (Fact(DEFLECTOR, (r"variants can be combined", r"it can be combined with ricochet"),
              where="Variants"),
         Fact(DEFECTOR, (r"variants can be combined with each other",
                         r"the ricochet variant of deflector works in defector too",
                         r"this rule can be added to any other variant"),
              where="Variants")),
    # 53 (=) knowledge is never lost
    53: (Fact(DEFECTOR, (r"what you learn you keep, even after you part",
                         r"your old allies keep everything they learned of yours")),),
    # 54 (= + captures) deflected, fired shots and captures take allies' spaces
    54: (Fact(DEFECTOR, (r"deflected and fired shots land on the shooter's allies exactly "
                         r"like anyone else's", r"a capture takes its territory from allies "
                         r"too", r"only the space you name must never be an ally's")),),
    # 55 (+) a player who is out never wins anything
    55: (Fact(DEFLECTOR, (r"or meant for a player who is out, is spent",
                          r"to a player who is out", r"win nothing more")),
         Fact(DEFECTOR, (r"or meant for a player who is out, is spent",
                         r"to a player who is out", r"wins nothing more"))),
}


# -- reading the chapters -------------------------------------------------------------

def _plain(text: str) -> str:
    """As matched: curly quotes straight, white space as one space."""
    for curly, straight in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"')):
        text = text.replace(curly, straight)
    return " ".join(text.split())


def _block_text(block: Block) -> str:
    if isinstance(block, FigureRef):
        return "".join(s.text for s in block.caption)
    if isinstance(block, Table):
        return " ".join("".join(s.text for s in cell)
                        for row in (block.header, *block.rows) for cell in row)
    return block.text


def _level(block: Block) -> int:
    """A heading's level (title 1, section 2, subsection 3), or 0 for anything else."""
    if isinstance(block, Title):
        return 1
    if isinstance(block, Section):
        return 2
    return 3 if isinstance(block, Subsection) else 0


def chapter_parts(blocks: tuple[Block, ...]) -> dict[str | None, str]:
    """The chapter's text (key None) and each section's and subsection's (key: its
    heading), each running to the next heading of the same level or higher."""
    texts = [_plain(_block_text(b)) for b in blocks]
    parts: dict[str | None, str] = {None: " ".join(texts)}
    for i, block in enumerate(blocks):
        level = _level(block)
        if level < 2:
            continue
        end = next((j for j in range(i + 1, len(blocks)) if 0 < _level(blocks[j]) <= level),
                   len(blocks))
        assert block.text not in parts, f"two headings read {block.text!r}"
        parts[block.text] = " ".join(texts[i:end])
    return parts


@cache
def chapter(game: str, folder: Path = RULES) -> dict[str | None, str]:
    return chapter_parts(load(folder / f"{game}.md"))


def problems(fact: Fact, game: str, parts: dict[str | None, str]) -> list[str]:
    """What ``parts`` (one chapter) lacks or still says against ``fact``."""
    if fact.where not in parts:
        return [f"no heading {fact.where!r}"]
    text = parts[fact.where]
    found: list[str] = []
    at = 0
    for pattern in fact.must:
        match = re.compile(pattern, re.IGNORECASE).search(text, at if fact.ordered else 0)
        if match is None:
            found.append(f"missing{' (in order)' if fact.ordered else ''}: {pattern}")
        elif fact.ordered:
            at = match.end()
    found.extend(f"old reading: {pattern}" for pattern in fact.never
                 if re.search(pattern, text, re.IGNORECASE))
    return found


def _cases() -> list[tuple[int, str, int]]:
    return [(number, game, index) for number, facts in DECISIONS.items()
            for index, fact in enumerate(facts) for game in fact.games]


# -- the table covers SPEC §9.7 ----------------------------------------------------------

@cache
def _spec_book_column() -> dict[int, str]:
    """SPEC §9.7's Book column, by decision number."""
    text = SPEC.read_text(encoding="utf-8")
    start = text.index("### 9.7 Decisions")
    end = text.index("### 9.8", start)
    column: dict[int, str] = {}
    for line in text[start:end].splitlines():
        match = re.match(r"\| (\d+) \|", line)
        if match:
            column[int(match.group(1))] = line.rstrip().rstrip("|").rsplit("|", 1)[1].strip()
    return column


def test_every_decision_has_facts_and_every_changed_one_is_checked():
    assert sorted(DECISIONS) == list(range(1, 56))
    assert set(DECISIONS) >= CHANGED >= DIFFERED
    assert all(facts and all(f.must for f in facts) for facts in DECISIONS.values())
    assert all(set(f.games) <= set(GAMES) for facts in DECISIONS.values() for f in facts)


@pytest.mark.skipif(not SPEC.is_file(), reason="SPEC.md is not next to the repo")
def test_the_changed_decisions_are_those_spec_marks_for_the_book():
    column = _spec_book_column()
    assert sorted(column) == list(range(1, 56))
    assert {n for n, book in column.items() if "≠" in book or "+" in book} == CHANGED
    assert {n for n, book in column.items() if "≠" in book} == DIFFERED


# The book's own old wording for each decision it had to change (≠), as it read before it
# followed SPEC §9: each must be caught by that decision's ``never`` patterns, so that the
# old reading cannot come back in other words around a correct sentence.
OLD_READINGS = {
    4: ("reflector", "Overlapping territory",
        "When a captured Node’s territory overlaps the territory of another Node the Target "
        "still holds, the shared spaces do not change hands."),
    21: ("deflector", "Where you may shoot",
         "Your own Node territory: you may never take a space inside the territory of a Node "
         "you hold."),
    25: ("deflector", "Winning",
         "When every Node on the table is held by the players still in the game, the one "
         "holding the most Nodes wins."),
    29: ("deflector", "Ricochet",
         "A Deflector in the way: it is used up and the shot turns back, running the other "
         "way along the row."),
    39: ("defector", "Link Nodes",
         "Lost: if a player outside the alliance captures the Link Node, the players it "
         "links split up at once."),
    41: ("defector", "Deserting and defecting",
         "Deserter: at any point in your own turn you may leave your alliance and play alone "
         "again."),
    46: ("defector", "The winner",
         "If two or more share the most, play on until one of them captures a Node from "
         "another: that player wins."),
    47: ("defector", "The Business Card Deluxe Collection",
         "Turning: at the end of each turn, every player whose grid was hit during it turns "
         "their Public grid a quarter turn clockwise, once."),
}


def test_every_changed_decision_s_old_wording_would_be_caught():
    assert set(OLD_READINGS) == DIFFERED
    assert all(any(f.never for f in DECISIONS[n]) for n in DIFFERED)
    for number, (game, where, old) in OLD_READINGS.items():
        fact = next(f for f in DECISIONS[number] if game in f.games and f.where == where)
        parts = dict(chapter(game))
        assert problems(fact, game, parts) == []
        parts[where] = f"{parts[where]} {_plain(old)}"
        assert any(p.startswith("old reading") for p in problems(fact, game, parts)), number


# -- each decision in the book -----------------------------------------------------------

@pytest.mark.parametrize(("number", "game", "index"), _cases(),
                         ids=[f"{n}-{g}-{i}" for n, g, i in _cases()])
def test_the_book_states_each_decision(number, game, index):
    fact = DECISIONS[number][index]
    assert problems(fact, game, chapter(game)) == [], f"decision {number}, {game}.md"


# -- the two wrong readings issue 24 names ------------------------------------------------

def _items(game: str, heading: str) -> list[str]:
    """The paragraphs and items under ``heading`` (a section, down to the next one)."""
    blocks = load(RULES / f"{game}.md")
    start = next(i for i, b in enumerate(blocks) if isinstance(b, Section | Subsection)
                 and b.text == heading)
    level = _level(blocks[start])
    out = []
    for block in blocks[start + 1:]:
        if 0 < _level(block) <= level:
            break
        if _level(block) == 0 and not isinstance(block, FigureRef | Table):
            out.append(_plain(block.text))
    return out


def _printed(produced, game: str) -> str:
    from pypdf import PdfReader

    pdf = produced("rules", game) / f"rules-{game}.pdf"
    return _plain(" ".join(page.extract_text() for page in PdfReader(pdf).pages))


def test_deflector_no_longer_ends_every_game_at_the_first_capture(produced):
    """Read as the old book wrote it ("when every Node on the table is held by the
    players still in the game, the one holding the most Nodes wins"), the rule held from
    the first turn, when every player holds his own five Nodes: the first capture put
    someone ahead and ended the game. SPEC §9.5.9 (decision 25): the Node count decides
    only once exactly two players are left, or when the last players go out together,
    or at a stalemate. Every rule of the Winning section that gives the game to whoever
    holds more Nodes must be limited to one of those, and the book says why."""
    limits = (r"exactly two players are still in the game", r"went out together",
              r"have passed, one after another, since the last shot")
    counting = [item for item in _items("deflector", "Winning")
                if re.search(r"\b(most|more) nodes\b", item, re.IGNORECASE)]
    assert len(counting) == 3, counting  # last standing (none left), two left, stalemate
    for item in counting:
        assert any(re.search(limit, item, re.IGNORECASE) for limit in limits), item
    everything = [item for item in _items("deflector", "Winning")
                  if re.search(r"\b(all the|every) nodes? (on the table|between them)",
                            item, re.IGNORECASE)]
    assert everything and all(re.search(r"exactly two players", item, re.IGNORECASE)
                              or "from the very first turn" in item for item in everything)
    assert any("from the very first turn" in item
               and "decides the game only once two players are left" in item
               for item in everything)
    book = _printed(produced, "deflector")
    assert ("Two left: when exactly two players are still in the game and between them they "
            "hold all the Nodes on the table, the one holding more Nodes wins") in book
    assert "held by the players still in the game, the one holding the most Nodes" not in book


def _seed_has(sentence: str) -> bool:
    words = " ".join(re.findall(r"[a-z0-9']+", sentence.lower()))
    return any(words in " ".join(re.findall(r"[a-z0-9']+", p.read_text(
        encoding="utf-8", errors="replace").lower())) for p in SEEDS.glob("001_*.txt"))


def test_defector_link_rule_no_longer_contradicts_the_seed(produced):
    """Seed 001 says a Link Node captured "by another player or team" disbands the
    alliance at once; the old book narrowed that to a player outside the alliance. SPEC
    §9.6.4 (decision 39): a Link (or Master) is lost the moment anyone but its holder
    comes to hold it, an ally too, and when its holder leaves; the alliance breaks up
    there and then. The seed's sentence is checked to be there when the seeds are."""
    if SEEDS.is_dir():
        assert _seed_has("If the Node is captured by another player or team, the alliance "
                         "disbands immediately")
    link = " ".join(_items("defector", "Link Nodes"))
    lost = re.search(r"Lost: ([^.]*\.)", link)
    assert lost, link
    rule = lost.group(1)
    assert re.search(r"someone else comes to hold it, whoever that is", rule)
    assert re.search(r"even an ally", rule)
    assert re.search(r"when its holder leaves the alliance", rule)
    assert not re.search(r"outside|opponent|enemy|outsider", link, re.IGNORECASE)
    assert re.search(r"breaks up at once, in the middle of the turn", link)
    book = _printed(produced, "defector")
    assert "(even an ally, by a deflection or a reflection)" in book
    assert "a player outside the alliance" not in book


def test_defector_desertion_follows_the_seed_s_team_turn():
    """Seed 001 lets a member leave "at any time during a team's turn"; the old book
    allowed it only in one's own turn. SPEC §9.6.4 (decision 41): at the start of the turn
    of any member of the alliance; defecting (leaving and uniting) in one's own."""
    if SEEDS.is_dir():
        assert _seed_has("At any time during a team's turn, players within the alliance "
                         "can choose to abandon the team")
    rules = " ".join(_items("defector", "Deserting and defecting"))
    assert re.search(r"when the turn of any member of your alliance begins", rules)
    assert not re.search(r"(any point in|during) your own turn", rules, re.IGNORECASE)
