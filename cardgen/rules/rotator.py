"""The Rotator rules on one page: ``templates/rules/rotator.md`` set in three columns,
its board and gravity figures in the columns and the worked game across the foot of
the page (Rotator's figures, from the game registry). ``cardgen rotator generate`` prints
it before the boards, on the same paper.
"""

from __future__ import annotations

from cardgen.draw.page import Document, Page
from cardgen.games.names import GameName
from cardgen.games.registry import get_game
from cardgen.prepress.intents import paper_intent
from cardgen.prepress.paper import Paper
from cardgen.resources import templates_dir
from cardgen.rules.markup import load
from cardgen.rules.sheet import SheetStyle, rules_pages
from cardgen.text.fonts import FontSet
from cardgen.texts import say

RULES_FILE = "rotator.md"
# Smaller type and margins than the Corporate Ladder sheet: the text is as long and the
# figures take more room. On Letter, the shorter paper, the text still fits at 8 pt.
STYLE = SheetStyle(margin=8.0, body_size=7.8, section_size=9.2, section_before=2.0,
                   paragraph_gap=0.9, item_gap=0.3, bullet_indent=2.2)
WIDE = frozenset({"rotator-turns"})  # set across the foot of the page


def rules_sheet(paper: Paper, fonts: FontSet) -> list[Page]:
    """The Rotator rules on one page of ``paper``."""
    path = templates_dir() / "rules" / RULES_FILE
    makers = get_game(GameName.ROTATOR).figures()
    figures = {name: make(fonts) for name, make in makers.items()}
    return rules_pages(load(path), paper, fonts, credit=say("rotator_rules", "sheet.credit"),
                       figures=figures, style=STYLE, wide=WIDE,
                       where=f"the Rotator rules (templates/rules/{RULES_FILE})")


def rules_document(paper: Paper, fonts: FontSet) -> Document:
    """The rules sheet as a document of its own."""
    return Document(rules_sheet(paper, fonts), title=say("rotator_rules", "sheet.title"),
                    subject=say("rotator_rules", "sheet.subject"),
                    output_intent=paper_intent(paper))
